"""A house-rule file (campaign/rules.yaml) is checked like an order file, in every ruleset.

A misspelt key, a key of another ruleset, a value of the wrong kind or out of range is reported at its
line with a fix, by ``campaign check``; ``campaign resolve`` and ``campaign site`` refuse with the same
lines and write nothing; the GM fixes the file and the turn resolves by the rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.core.houserules import _matches
from resolver.engine.ruleset import RULESETS, get_ruleset

from .conftest import tree_bytes


def new(run, tmp_path: Path, ruleset: str) -> Path:
    root = tmp_path / ruleset
    code, _, err = run(
        "new", "--root", root, "--ruleset", ruleset, "--seed", "5", "--factions", "3", "--open"
    )
    assert code == 0, err
    return root


def example_rule(ruleset: str) -> tuple[str, str, Any]:
    """The first rule of the ruleset's own example: its section, its key and the value it sets."""
    section, rules = next(iter(get_ruleset(ruleset).house_rule_limits.example.items()))
    key, value = next(iter(rules.items()))
    return section, key, value


def places(data: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += places(value, (*path, str(key)))
    elif isinstance(data, list):
        for number, value in enumerate(data):
            found += places(value, (*path, number))
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_misspelt_rule_is_refused_everywhere_until_the_gm_fixes_it(
    run, tmp_path: Path, ruleset: str
) -> None:
    root = new(run, tmp_path, ruleset)
    section, key, value = example_rule(ruleset)
    typo = key[:-2] + key[-1] + key[-2]  # per_turn -> per_tunr
    rules = root / "campaign/rules.yaml"
    rules.write_text(f"{section}:\n  {typo}: {value}\n")
    before = tree_bytes(root)

    code, out, err = run("check", "--root", root)
    assert code == 1, out + err
    assert f"campaign/rules.yaml:2:3: error: {section} has no rule '{typo}'" in out
    assert f"did you mean '{key}'?" in out

    code, out, err = run("resolve", "--root", root)
    assert code == 1 and "internal error" not in err
    assert f"campaign/rules.yaml:2:3: error: {section} has no rule '{typo}'" in err
    assert "the house rules in campaign/rules.yaml have 1 error; nothing was done" in err
    code, _, err = run("site", "--root", root, "--no-build")  # no rules page lists the rule as in effect
    assert code == 1 and f"campaign/rules.yaml:2:3: error: {section} has no rule '{typo}'" in err
    assert tree_bytes(root) == before

    rules.write_text(f"{section}:\n  {key}: {value}\n")
    code, out, err = run("check", "--root", root, rules)
    assert code == 0, out + err
    assert "campaign/rules.yaml: the house rules check clean" in out
    code, _, err = run("resolve", "--root", root)
    assert code == 0, err
    assert yaml.safe_load((root / "campaign/turns/0001/inputs.yaml").read_text())["house_rules"] == {
        section: {key: value}
    }


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_value_of_the_wrong_kind_is_an_error_not_a_crash(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path, ruleset)
    section, key, _ = example_rule(ruleset)
    default = get_ruleset(ruleset).default_rules()[section][key]
    (root / "campaign/rules.yaml").write_text(f"{section}:\n  {key}: five\n")
    code, out, err = run("check", "--root", root)
    assert code == 1, err
    assert (
        f"campaign/rules.yaml:2:{len(key) + 5}: error: {section}.{key} must be a whole number, not 'five'"
        in out
    )
    assert f"fix: write a whole number, as the ruleset's default {default}" in out
    code, _, err = run("resolve", "--root", root)
    assert code == 1 and "internal error" not in err and "must be a whole number, not 'five'" in err


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_rule_of_another_ruleset_is_named_as_such(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path, ruleset)
    own = get_ruleset(ruleset).default_rules()
    other, key = next(
        (o, k) for o in RULESETS if o != ruleset for k in get_ruleset(o).default_rules() if k not in own
    )
    (root / "campaign/rules.yaml").write_text(f"{key}: {{}}\n")
    code, out, _ = run("check", "--root", root)
    assert code == 1
    assert f"campaign/rules.yaml:1:1: error: the rules data has no rule '{key}'" in out
    assert f"'{key}' is a rule of the {other} ruleset, which this campaign does not play" in out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_number_out_of_its_range_is_refused(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path, ruleset)
    limits = get_ruleset(ruleset).house_rule_limits
    defaults = get_ruleset(ruleset).default_rules()
    place = next(
        p
        for p, b in limits.bounds.items()
        if b.minimum is not None and "*" not in p and p.split(".")[0] in defaults
    )
    low = limits.bounds[place].minimum
    *sections, key = place.split(".")
    text = "".join(f"{'  ' * depth}{name}:\n" for depth, name in enumerate(sections))
    (root / "campaign/rules.yaml").write_text(text + f"{'  ' * len(sections)}{key}: {low - 1}\n")
    code, out, _ = run("check", "--root", root)
    assert code == 1
    assert f"error: {place} is {low - 1}; it must be {low:g} or more" in out
    (root / "campaign/rules.yaml").write_text(text + f"{'  ' * len(sections)}{key}: {low}\n")
    code, out, err = run("check", "--root", root)
    assert code == 0, out + err


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if get_ruleset(r).default_rules().get("checks")])
def test_a_broken_check_or_fog_of_war_is_located(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path, ruleset)
    check = next(iter(get_ruleset(ruleset).default_rules()["checks"]))
    (root / "campaign/rules.yaml").write_text(
        f"checks:\n  {check}:\n    dice: lots\nfog_of_war:\n  factions:\n    label: ''\n"
    )
    code, out, err = run("check", "--root", root)
    assert code == 1, err
    assert f"campaign/rules.yaml:3:11: error: checks.{check}.dice: write the dice as 2d6" in out
    assert (
        "campaign/rules.yaml:6:12: error: the rules data's fog_of_war.factions.label must name the record"
        in out
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_new_campaigns_example_is_the_rulesets_own_and_checks_clean(
    run, tmp_path: Path, ruleset: str
) -> None:
    root = new(run, tmp_path, ruleset)
    rules = root / "campaign/rules.yaml"
    lines = rules.read_text().splitlines()
    example = [line.removeprefix("#   ") for line in lines if line.startswith("#   ")]
    assert yaml.safe_load("\n".join(example)) == get_ruleset(ruleset).house_rule_limits.example
    rules.write_text("\n".join(example) + "\n")  # the GM takes the example as it is
    code, out, err = run("check", "--root", root)
    assert code == 0, out + err
    assert run("resolve", "--root", root)[0] == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_whole_rules_data_copied_as_house_rules_checks_clean(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path, ruleset)
    rules = root / "campaign/rules.yaml"
    rules.write_bytes((get_ruleset(ruleset).folder / "rules.yaml").read_bytes())
    code, out, err = run("check", "--root", root, rules)
    assert code == 0, out + err


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_limit_names_a_place_of_the_rules_data(ruleset: str) -> None:
    """A misspelt place in limits.yaml would leave its rule unchecked without a word."""
    found = places(get_ruleset(ruleset).default_rules())
    limits = get_ruleset(ruleset).house_rule_limits
    for pattern in (*limits.open, *limits.bounds):
        assert any(_matches(pattern, place) for place in found), pattern


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_phase_table_the_engine_cannot_play_is_refused_at_its_line(
    run, tmp_path: Path, ruleset: str
) -> None:
    root = new(run, tmp_path, ruleset)
    first = dict(get_ruleset(ruleset).default_rules()["turn_sequence"][0])
    (root / "campaign/rules.yaml").write_text(yaml.safe_dump({"turn_sequence": [first]}))
    code, out, err = run("check", "--root", root)
    assert code == 1 and "internal error" not in err
    assert "campaign/rules.yaml:2:" in out and "error: turn_sequence: phase table mismatch" in out
