# The two commands of the README are `make demo` and `make test`; both build the local
# virtual environment first, with nothing but Python 3.11, make and git on the machine.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
ROOT   ?= .

.PHONY: help install demo test datc lint format site serve bench lock rules-twins clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml tools/editor/package-lock.json tools/axe/package-lock.json tools/act/package-lock.json \
          tools/form/package-lock.json requirements/resolve.txt requirements/site.txt
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null || \
	  { echo "needs Python 3.11 or newer: install it or run make PYTHON=/path/to/python3.11"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[site,dev]'
	$(BIN)/npm ci --prefix tools/editor --no-audit --no-fund --silent
	$(BIN)/npm ci --prefix tools/axe --no-audit --no-fund --silent
	$(BIN)/npm ci --prefix tools/act --no-audit --no-fund --silent
	$(BIN)/npm ci --prefix tools/form --no-audit --no-fund --silent
	@# The lock files' wheels, hashes checked, for the workflow rehearsals (tests/rehearsal), whose pip
	@# installs from here and never from the index.
	$(BIN)/python -m pip download --quiet --require-hashes --only-binary=:all: --no-deps \
	  --dest $(VENV)/wheelhouse -r requirements/resolve.txt -r requirements/site.txt
	@touch $(VENV)/wheelhouse/.complete $(STAMP)

install: $(STAMP)  ## create .venv and install the project with its site and dev tools, and the CI lock files' wheels

demo: $(STAMP)  ## bots play 8 turns of a 4-nation campaign in .demo/nations, print them, build its site
	$(BIN)/campaign demo --ruleset nations --turns 8 --seed 1 --factions 4
	$(BIN)/campaign verify --root .demo/nations
	$(BIN)/campaign site --root .demo/nations
	@echo "The demo's site is in .demo/nations/public/; read it with: make serve ROOT=.demo/nations"

test: $(STAMP)  ## ruff, then the whole test suite on every core (installs Chromium for the browser tests if missing)
	tools/install-chromium
	$(BIN)/ruff check resolver tests
	$(BIN)/python -m pytest -q -n auto --dist loadscope

datc: $(STAMP)  ## the 164 cases of the Diplomacy Adjudicator Test Cases, through the real checker and resolver
	$(BIN)/python -m pytest -q tests/diplomacy/test_datc_engine.py

lint: $(STAMP)  ## ruff only
	$(BIN)/ruff check resolver tests
	$(BIN)/ruff format --check resolver tests

format: $(STAMP)  ## apply ruff's fixes and formatting
	$(BIN)/ruff check --fix resolver tests
	$(BIN)/ruff format resolver tests

site: $(STAMP)  ## write the site's pages into site/ and build it into public/ (ROOT=DIR: another campaign)
	$(BIN)/campaign site --root $(ROOT)

serve: site  ## build the site, then serve it on http://127.0.0.1:8000 (ROOT=DIR as for site)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve -f $(ROOT)/mkdocs.yml --dev-addr 127.0.0.1:8000

bench: $(STAMP)  ## benchmarks and issue 26's targets: the engine at 25, 100 and 400 factions in two layouts; check on hostile files; the site at 50 and 500 turns; the whole CI job; a year of usurper; an overlord month at 500 units; a year of Diplomacy's 7 powers
	@rm -f $(VENV)/bench-targets.jsonl
	$(BIN)/python -m resolver.bench --targets $(VENV)/bench-targets.jsonl
	@# Then two lanes, one a core: the site's rows, and the rulesets' (which set no target of issue 26).
	@# One after the other they took 610 s, over the 10 minutes. Each bench judges its ratios in
	@# alternating rounds, the site's on CPU seconds; the machine's host sways those seconds as much as the
	@# other lane does (the engine's rows, which run alone, swing as far); the rulesets' output follows.
	{ $(BIN)/python -m resolver.bench.usurper && $(BIN)/python -m resolver.bench.overlord && \
	  $(BIN)/python -m resolver.bench.diplomacy; } >$(VENV)/bench-rulesets.txt 2>&1 & lane=$$!; \
	  $(BIN)/python -m resolver.bench.site --targets $(VENV)/bench-targets.jsonl; site=$$?; \
	  wait $$lane; rulesets=$$?; cat $(VENV)/bench-rulesets.txt; [ $$site -eq 0 ] && [ $$rulesets -eq 0 ]
	@$(BIN)/python -m resolver.bench.targets $(VENV)/bench-targets.jsonl

rules-twins: $(STAMP)  ## write each ruleset's rules.json, the JSON twin of its rules YAML that a first check reads at once
	$(BIN)/python -c "from resolver.engine.ruleset import write_rules_twins; write_rules_twins()"

lock: $(STAMP)  ## write requirements/*.txt (the workflows' hash-pinned packages) from requirements/*.in; needs the network
	$(BIN)/python tools/lock-resolve

clean:  ## remove the virtual environment, the demo and build outputs
	rm -rf $(VENV) .demo public .pytest_cache .ruff_cache mkdocs.generated.yml
