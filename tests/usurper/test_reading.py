"""Issue 23: what every usurper order shares, read once for the checker and the resolver (spec §3.2–3.4):
the initiator and the helpers are the usurper's own, named by id or name; a unit starts a unit's action
and a leader a leader's; nobody acts twice in a week; one action in one grid is one roll; everyone can
reach the grid from the lair."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from resolver.core.orders import OrderFile

from ..scenarios.harness import Scenario


def _scenario(tmp_path: Path, orders: list[dict[str, Any]], **red: Any) -> Scenario:
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 10, "height": 10, "terrain": {"rivers": ["E5"]}, "places": {"C3": "Varos"}},
        "factions": ["red", "blue"],
        "state": {
            "turn": 2,
            "cities": {"C3": {"name": "Varos", "size": "small_town", "races": ["humans"]}},
            "factions": {
                "red": {
                    "gold": 50,
                    "lairs": {"red-lair1": {"grid": "B2"}},
                    "leaders": {"red-l1": {"name": "Grug", "bonus": "craftsman"}},
                    "units": {
                        "red-u1": {"name": "Iron Fists", "race": "dwarves"},
                        "red-u2": {"name": "Cowled Rangers", "race": "elves"},
                    },
                    **red,
                },
                "blue": {"lairs": {"blue-lair1": {"grid": "H8"}}, "units": {"blue-u1": {"race": "orcs"}}},
            },
        },
        "orders": {"red": orders, "blue": []},
    }
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


def _errors(of: OrderFile) -> list[tuple[str, str]]:
    return [(issue.message, issue.hint) for issue in of.errors]


def test_an_entity_is_named_by_its_id_or_its_name_in_any_case(tmp_path: Path) -> None:
    files = _scenario(
        tmp_path,
        [
            {"action": "scout", "by": "iron fists", "target": "C2"},
            {"action": "scout", "by": "red-u2", "assist": ["GRUG"], "target": "B3"},
        ],
    ).order_files()
    assert files["red"].ok, _errors(files["red"])
    assert files["red"].echo[2] == "Cowled Rangers will scout at B3, with Grug."


def test_someone_elses_unit_or_a_name_nobody_has_is_refused_with_ones_own_listed(tmp_path: Path) -> None:
    files = _scenario(tmp_path, [{"action": "scout", "by": "blue-u1", "target": "C2"}]).order_files()
    [(message, hint)] = _errors(files["red"])
    assert message == "you have no leader or unit 'blue-u1'"
    assert "red-u1 (Iron Fists)" in hint and "red-l1 (Grug)" in hint and "blue" not in hint


def test_a_leader_cannot_start_a_units_action_nor_a_unit_a_leaders(tmp_path: Path) -> None:
    files = _scenario(
        tmp_path,
        [
            {"action": "scout", "by": "red-l1", "target": "C2"},
            {"action": "diplomacy", "by": "red-u1", "target": "C3"},
        ],
    ).order_files()
    assert _errors(files["red"]) == [
        (
            "a leader cannot start 'scout': it is a unit's action",
            "put a unit in 'by', and the leader under 'assist'",
        ),
        (
            "a unit cannot start 'diplomacy': it is a leader's action",
            "put a leader in 'by', and the unit under 'assist'",
        ),
    ]


def test_one_action_a_week_for_each_entity(tmp_path: Path) -> None:
    files = _scenario(
        tmp_path,
        [
            {"action": "scout", "by": "red-u1", "target": "C2"},
            {"action": "harvest", "by": "red-u2", "assist": ["red-u1"], "target": "B3"},
        ],
    ).order_files()
    [(message, _)] = _errors(files["red"])
    assert message == "Iron Fists already acts this week (order 1)"


def test_the_same_action_in_the_same_grid_is_one_roll_with_helpers(tmp_path: Path) -> None:
    files = _scenario(
        tmp_path,
        [
            {"action": "scout", "by": "red-u1", "target": "C2"},
            {"action": "scout", "by": "red-u2", "target": "C2"},
        ],
    ).order_files()
    [(message, hint)] = _errors(files["red"])
    assert message == "order 1 already takes 'scout' at C2 this week"
    assert "'assist' of order 1" in hint


def test_a_grid_beyond_the_speed_of_anyone_taking_part_is_refused(tmp_path: Path) -> None:
    # Dwarves go 2 grids from their lair at B2; E5 is 3 away (king's moves).
    files = _scenario(tmp_path, [{"action": "scout", "by": "red-u1", "target": "E5"}]).order_files()
    [(message, _)] = _errors(files["red"])
    assert message == "Iron Fists can go 2 grids from its lair at B2; E5 is 3 away"


def test_a_grumpy_unit_and_a_healing_leader_do_nothing_else(tmp_path: Path) -> None:
    scenario = _scenario(
        tmp_path,
        [
            {"action": "scout", "by": "red-u1", "target": "C2"},
            {"action": "diplomacy", "by": "red-l1", "target": "C3"},
        ],
        units={"red-u1": {"name": "Iron Fists", "race": "dwarves", "grumpy": True}},
        leaders={"red-l1": {"name": "Grug", "bonus": "craftsman", "healing": 1}},
    )
    messages = [message for message, _ in _errors(scenario.order_files()["red"])]
    assert messages == [
        "Iron Fists is Grumpy and will not act until it is paid",
        "Grug is healing and can do nothing else",
    ]


def test_an_order_the_checker_accepted_that_the_week_makes_impossible_fails_privately(tmp_path: Path) -> None:
    scenario = _scenario(tmp_path, [{"action": "scout", "by": "red-u1", "target": "C2"}])
    files = scenario.order_files()
    assert files["red"].ok
    # Between the check and the resolution the unit was lost (a GM's ruling): the resolver reads the order
    # again, and only red hears why it failed.
    del scenario.state["factions"]["red"]["units"]["red-u1"]
    result = scenario.resolve(files)
    [failed] = [event for event in result.events if event.kind == "order_failed"]
    assert failed.visible_to == ["red"] and failed.data["reason"] == "red-u1 is no longer yours to order"
