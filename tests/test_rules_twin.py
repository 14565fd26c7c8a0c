"""Each ruleset ships ``rules.json``, the JSON twin of its rules YAML, so that a first check (an empty read
cache: a player's first check, a fresh CI runner) parses no rules YAML. The twin must be the YAML's data
exactly; a stale twin fails here (run `make rules-twins`), and one the YAML has moved on from is not used."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.engine import ruleset as rulesets
from resolver.engine.ruleset import RULES_TWIN, RULESETS, rules_data, rules_twin

PACKAGE = Path(rulesets.__file__).parent.parent
REPO = PACKAGE.parent


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_shipped_twin_is_the_rules_yaml_as_it_is(ruleset_id: str) -> None:
    folder = PACKAGE / "rulesets" / ruleset_id
    shipped = (folder / RULES_TWIN).read_bytes()
    assert shipped == rules_twin(folder), f"{folder / RULES_TWIN} is stale: run make rules-twins"
    paths, _ = rulesets._rules_sources(folder)
    merged = rulesets._merged_rules(paths)
    data = rules_data(folder)
    assert data == merged
    assert json.dumps(data) == json.dumps(merged)  # the same order too: the phase table, the sections


def test_a_twin_the_yaml_has_moved_on_from_is_not_used(tmp_path: Path, read_cache: Path) -> None:
    folder = tmp_path / "nations"
    shutil.copytree(PACKAGE / "rulesets" / "nations", folder)
    rules = folder / "rules.yaml"
    rules.write_text(rules.read_text() + "\nthe_gm_s_own_table: {a: 1}\n")
    data = rules_data(folder)
    assert data["the_gm_s_own_table"] == {"a": 1}
    paths, raws = rulesets._rules_sources(folder)
    assert canonical.twin_data(folder / RULES_TWIN, raws) is None
    assert data == rulesets._merged_rules(paths)


def test_a_first_check_reads_the_twin_not_the_yaml(monkeypatch: pytest.MonkeyPatch, read_cache: Path) -> None:
    def refuse(paths: list[Path]) -> dict[str, object]:
        raise AssertionError("the rules YAML was parsed")

    monkeypatch.setattr(rulesets, "_merged_rules", refuse)
    for ruleset_id in RULESETS:
        assert rules_data(PACKAGE / "rulesets" / ruleset_id)


def test_the_twins_ship_in_the_package() -> None:
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "resolver"
    ]
    shipped = {p.relative_to(PACKAGE).as_posix() for pattern in patterns for p in PACKAGE.glob(pattern)}
    assert {f"rulesets/{ruleset_id}/{RULES_TWIN}" for ruleset_id in RULESETS} <= shipped
