"""Issue 23, Appendix A 21: a hurt leader heals by resting two weeks in its lair doing nothing else; it is
whole again after them, and meanwhile the checker refuses any other order for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..scenarios.harness import Scenario


def _scenario(tmp_path: Path, orders: list[dict[str, Any]], hp: int = 1) -> Scenario:
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 8, "height": 8, "places": {"C3": "Varos"}},
        "factions": ["red", "blue"],
        "state": {
            "turn": 5,
            "cities": {"C3": {"name": "Varos", "size": "small_town", "races": ["humans"]}},
            "factions": {
                "red": {
                    "gold": 20,
                    "lairs": {"red-lair1": {"grid": "B2", "rooms": [{"type": "barracks"}]}},
                    "leaders": {"red-l1": {"name": "Grug", "bonus": "herald", "hp": hp}},
                    "units": {"red-u1": {"name": "Iron Fists", "race": "dwarves"}},
                },
                "blue": {"lairs": {"blue-lair1": {"grid": "H8"}}},
            },
        },
        "orders": {"red": orders, "blue": []},
    }
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


def _next_week(scenario: Scenario, state: dict[str, Any], orders: list[dict[str, Any]]) -> None:
    scenario.state = state
    scenario.data["orders"] = {"red": orders, "blue": []}


def test_a_hurt_leader_rests_two_weeks_and_is_whole_again(tmp_path: Path) -> None:
    scenario = _scenario(tmp_path, [{"action": "rest", "by": "Grug"}])
    first = scenario.resolve(scenario.order_files())
    [begins] = [e for e in first.events if e.kind == "healing_begins"]
    assert begins.visible_to == ["red"] and begins.data == {"leader": "Grug", "weeks": 2}
    grug = first.state["factions"]["red"]["leaders"]["red-l1"]
    assert (grug["hp"], grug["healing"]) == (1, 1)
    # The second week it may do nothing else; with no order at all it goes on healing.
    _next_week(scenario, first.state, [{"action": "diplomacy", "by": "Grug", "target": "C3"}])
    [refused] = scenario.order_files()["red"].errors
    assert (refused.message, refused.hint) == (
        "Grug is healing and can do nothing else",
        "give it a 'rest' order",
    )
    _next_week(scenario, first.state, [])
    second = scenario.resolve(scenario.order_files())
    grug = second.state["factions"]["red"]["leaders"]["red-l1"]
    assert (grug["hp"], grug["healing"]) == (2, 0)
    assert [e.data for e in second.events if e.kind == "healed"] == [{"leader": "Grug"}]


def test_a_whole_leader_only_rests_and_resting_is_done_at_home(tmp_path: Path) -> None:
    whole = _scenario(tmp_path, [{"action": "rest", "by": "Grug"}], hp=2)
    result = whole.resolve(whole.order_files())
    assert not [e for e in result.events if e.kind == "healing_begins"]
    assert result.state["factions"]["red"]["leaders"]["red-l1"]["healing"] == 0
    away = _scenario(tmp_path, [{"action": "rest", "by": "Grug", "target": "C2"}])
    [refused] = away.order_files()["red"].errors
    assert refused.message == "resting is done in one's own lair, at B2, not at C2"
