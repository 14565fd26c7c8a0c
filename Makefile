# The two commands of the README are `make demo` and `make test`; both build the local
# virtual environment first, with nothing but Python 3.11, make and git on the machine.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: help install demo test lint format site serve bench clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml tools/editor/package-lock.json
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null || \
	  { echo "needs Python 3.11 or newer: install it or run make PYTHON=/path/to/python3.11"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/npm ci --prefix tools/editor --no-audit --no-fund --silent
	@touch $(STAMP)

install: $(STAMP)  ## create .venv and install the project with its dev tools

demo: $(STAMP)  ## bots play 8 turns of a 4-nation campaign in .demo/nations and print them
	$(BIN)/campaign demo --ruleset nations --turns 8 --seed 1 --factions 4
	$(BIN)/campaign verify --root .demo/nations

test: $(STAMP)  ## ruff, then the whole test suite
	$(BIN)/ruff check resolver tests
	$(BIN)/python -m pytest -q

lint: $(STAMP)  ## ruff only
	$(BIN)/ruff check resolver tests
	$(BIN)/ruff format --check resolver tests

format: $(STAMP)  ## apply ruff's fixes and formatting
	$(BIN)/ruff check --fix resolver tests
	$(BIN)/ruff format resolver tests

site: $(STAMP)  ## build the campaign site into public/ (not yet available: see the open site issue)
	$(BIN)/mkdocs build --strict --site-dir public

serve: $(STAMP)  ## serve the campaign site on http://127.0.0.1:8000
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

bench: $(STAMP)  ## benchmark: 100 factions, 5,000 armies; check, resolve, memory, ratio to bare YAML
	$(BIN)/python -m resolver.bench

clean:  ## remove the virtual environment, the demo and build outputs
	rm -rf $(VENV) .demo public .pytest_cache .ruff_cache
