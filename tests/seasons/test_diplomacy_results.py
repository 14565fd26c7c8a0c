"""What diplomacy leaves behind ends by itself after the next year, in words the players read."""

from __future__ import annotations

from pathlib import Path

from resolver.rulesets.seasons import RULESET
from resolver.rulesets.seasons.diplomacy import status_lines

from ..scenarios.harness import Scenario, resolve_accepted


def _winter(tmp_path: Path) -> tuple[Scenario, object]:
    effects = {
        name: {
            "collection": "factions",
            "target": "blue",
            "name": name,
            "value": value,
            "since": 4,
            "until": 8,
        }
        for name, value in (("no_attack:red", 1), ("choice:red", -1), ("tribute_to:red", 1))
    }
    fixture = {
        "ruleset": "seasons",
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": 8,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
            "factions": {"blue": {"modifiers": {name: e["value"] for name, e in effects.items()}}},
            "effects": {
                f"factions/blue/{name}": {"id": f"factions/blue/{name}", **e} for name, e in effects.items()
            },
        },
        "orders": {"red": [], "blue": []},
    }
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    return Scenario(tmp_path / "f.yaml"), result


def test_next_years_effects_end_after_the_next_winter_with_a_sentence(tmp_path: Path) -> None:
    scenario, result = _winter(tmp_path)
    assert "effects" not in result.state and not result.state["factions"]["blue"]["modifiers"]
    said = [RULESET.describe(e.to_data(), scenario.game) for e in result.events if e.kind == "effect_expired"]
    assert said == [
        "blue no longer leans away from red's provinces when it invades.",
        "blue's promise not to attack red runs out.",
        "blue no longer owes red tribute.",
    ]


def test_the_nation_reads_what_binds_it_in_its_status(tmp_path: Path) -> None:
    state = {
        "factions": {"blue": {"modifiers": {"no_attack:red": 1, "tribute_to:red": 1, "war_success": 1}}},
        "relations": {
            "blue/red": {
                "parties": ["blue", "red"],
                "kind": "enforced_peace",
                "loser": "blue",
                "winner": "red",
            }
        },
    }
    assert status_lines(state, "blue", str.upper) == [
        "Under an enforced peace: you pay RED a recruiting roll each spring.",
        "You promised not to attack RED this year.",
        "You pay RED tribute every season this year.",
        "Your people are eager for war this year (+1 success to go to war).",
    ]


def test_tribute_is_paid_in_words() -> None:
    path = (
        Path(__file__).parent.parent / "scenarios/seasons/diplomacy_tribute_and_deceit_in_the_war_test.yaml"
    )
    scenario = Scenario(path)
    result = scenario.resolve(scenario.order_files())
    [paid] = [e.to_data() for e in result.events if e.kind == "tribute_paid"]
    assert RULESET.describe(paid, scenario.game) == "red pays blue 1 resource of tribute."
    short = {**paid, "data": {"resources": 0, "owed": 1}}
    assert (
        RULESET.describe(short, scenario.game)
        == "red pays blue 0 resources of tribute, all it has of the 1 owed."
    )
