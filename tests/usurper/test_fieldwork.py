"""Issue 23: Scout and Harvest carried out in a week (spec §4.5, §4.9): the action roll's band decides
what the scouts find and what the workers bring home, and only their usurper hears of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..scenarios.harness import Scenario


def _scenario(
    tmp_path: Path, turn: int, orders: list[dict[str, Any]], rolls: dict[str, Any], **red: Any
) -> Scenario:
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 10, "height": 10, "terrain": {"forests": ["C2", "C3"]}},
        "factions": ["red", "blue"],
        "rolls": rolls,
        "state": {
            "turn": turn,
            "factions": {
                "red": {
                    "lairs": {"red-lair1": {"grid": "B2", "rooms": [{"type": "warehouse", "level": 1}]}},
                    "leaders": {"red-l1": {"name": "Grug", "bonus": "herald"}},
                    "units": {"red-u1": {"name": "Iron Fists", "race": "dwarves"}},
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


def test_a_scout_marks_the_grid_scouted_and_tells_only_its_usurper(tmp_path: Path) -> None:
    # Month 2: no first-month floor. 60 + 25 (the leader assisting) = 85, a Success. The month's events
    # are drawn so that neither touches a scout (The Great Thaw, The Planting Fair).
    scenario = _scenario(
        tmp_path, 5, [{"action": "scout", "by": "red-u1", "assist": ["red-l1"], "target": "C2"}],
        {"t5/red/red-u1/scout/C2": [60], "t5/happenings/1": [1], "t5/happenings/2": [3]},
    )  # fmt: skip
    files = scenario.order_files()
    result = scenario.resolve(files)
    [event] = [e for e in result.events if e.kind == "scouted"]
    assert event.visible_to == ["red"] and event.place == "C2"
    assert (event.data["band"], event.data["total"]) == ("success", 85)
    assert event.data["scouts"] == ["Iron Fists", "Grug"] and event.data["finding"]
    assert "C2" in result.state["factions"]["red"]["known"]["scouted"]
    assert "C2" not in result.state["factions"]["blue"]["known"]["scouted"]


def test_a_first_month_failure_is_read_as_a_partial_success_and_said_so(tmp_path: Path) -> None:
    scenario = _scenario(
        tmp_path, 2, [{"action": "scout", "by": "red-u1", "target": "C2"}], {"t2/red/red-u1/scout/C2": [10]}
    )
    result = scenario.resolve(scenario.order_files())
    [event] = [e for e in result.events if e.kind == "scouted"]
    assert (event.data["band"], event.data["raised"]) == ("partial_success", True)


def test_a_harvest_needs_a_known_node_and_the_checker_says_where_nodes_are(tmp_path: Path) -> None:
    nodes = {"C3": {"resource": "lumber", "size": "normal", "dice": "4d4+8", "uses": 3, "harvest_bonus": 0}}
    scenario = _scenario(
        tmp_path, 5, [{"action": "harvest", "by": "red-u1", "target": "C2"}], {}, known={"nodes": nodes}
    )
    [error] = scenario.order_files()["red"].errors
    assert error.message == "you know no resource node at C2"
    assert error.hint == "harvest where you have found a node: C3"


def test_a_harvest_brings_the_yield_home_and_spends_a_use(tmp_path: Path) -> None:
    nodes = {"C3": {"resource": "lumber", "size": "normal", "dice": "4d4+8", "uses": 3, "harvest_bonus": 0}}
    scenario = _scenario(
        tmp_path, 5, [{"action": "harvest", "by": "red-u1", "target": "C3"}],
        {"t5/red/red-u1/harvest/C3": [60], "t5/happenings/1": [3], "t5/happenings/2": [3]},
        known={"nodes": nodes},
    )  # fmt: skip
    files = scenario.order_files()
    assert files["red"].ok, [i.message for i in files["red"].errors]
    result = scenario.resolve(files)
    [event] = [e for e in result.events if e.kind == "harvested"]
    assert event.data["band"] == "partial_success" and event.visible_to == ["red"]
    lair = result.state["factions"]["red"]["lairs"]["red-lair1"]
    assert lair["storage"]["lumber"] == event.data["amount"] >= 4 + 8
    assert result.state["factions"]["red"]["known"]["nodes"]["C3"]["uses"] == 2


def test_in_an_open_campaign_what_a_usurper_did_is_told_to_everyone(tmp_path: Path) -> None:
    """An open campaign publishes its state, so nothing is gained by keeping a usurper's doings to itself:
    its chronicle tells the week as it went. A sealed one (the default) tells each usurper its own."""
    orders = [{"action": "scout", "by": "red-u1", "target": "C2"}]
    forced = {"t5/red/red-u1/scout/C2": [60], "t5/happenings/1": [1], "t5/happenings/2": [3]}
    for sealed, heard in ((False, None), (True, ["red"])):
        scenario = _scenario(tmp_path, 5, orders, forced)
        scenario.data["sealed"] = sealed
        result = scenario.resolve(scenario.order_files())
        assert [event.visible_to for event in result.events if event.kind == "scouted"] == [heard]
