"""A GM's pull request that changes the house rules: the gate checks them as campaign check does."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.engine.ruleset import RULESETS, get_ruleset

from .gitsim import Campaign


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_misspelt_house_rule_is_refused_at_its_line_then_accepted(tmp_path: Path, ruleset: str) -> None:
    world = Campaign.create(tmp_path, options=("--ruleset", ruleset, "--open"))  # usurper: sealed by default
    section, rules = next(iter(get_ruleset(ruleset).house_rule_limits.example.items()))
    key, value = next(iter(rules.items()))
    typo = key[:-2] + key[-1] + key[-2]

    done = world.check(
        world.pull_request("dora", "rules", {"campaign/rules.yaml": f"{section}:\n  {typo}: {value}\n"})
    )
    assert done.code == 1, done.err
    said = done.comment.replace("\\_", "_")  # Markdown escapes the underscores of rule names
    assert "❌ Orders refused" in said
    assert f"`campaign/rules.yaml:2:3`: {section} has no rule '{typo}'" in said
    assert f"did you mean '{key}'?" in said
    assert "::error file=campaign/rules.yaml,line=2,col=3,title=orders check::" in done.out

    done = world.check(
        world.pull_request("dora", "rules", {"campaign/rules.yaml": f"{section}:\n  {key}: five\n"})
    )
    assert done.code == 1 and "internal error" not in done.err
    assert f"{section}.{key} must be a whole number, not 'five'" in done.comment.replace("\\_", "_")

    fixed = world.pull_request("dora", "rules", {"campaign/rules.yaml": f"{section}:\n  {key}: {value}\n"})
    done = world.check(fixed)
    assert done.code == 0, done.comment
    assert "the GM changes campaign/rules.yaml" in done.comment  # still flagged for a careful review
    world.merge(fixed)
    assert world.resolve("--commit", "--force").code == 0
