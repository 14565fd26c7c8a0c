"""Each ruleset tells the map what its events look like (``map_events``) and, for the factions city,
which locations each locale holds (``map_areas``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from resolver.engine.ruleset import MapMark
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign


def game_of(root: Path, ruleset: str) -> tuple[Any, Any]:  # the game and its first state
    new_campaign(root, ruleset, 1, default_factions(4, 1), name="Marks")
    store = Store(root)
    return store.game(), store.state()


def test_nations_marks_marches_along_their_path_and_falls_by_what_the_victor_chose(tmp_path: Path) -> None:
    game, _ = game_of(tmp_path, "nations")
    red, blue = game.factions[:2]
    march = {
        "kind": "march",
        "actors": [red],
        "place": "C3",
        "data": {"army": "1a", "units": 2, "fast": False, "start": "A1", "path": ["B2", "C3"], "stopped": ""},
    }
    falls = {
        "kind": "settlement_falls",
        "actors": [blue, red],
        "place": "C3",
        "data": {
            "settlement": "Oak",
            "type": "farming",
            "level": 1,
            "choice": "raze",
            "owner": red,
            "population_lost": 2,
        },
    }
    explored = {"kind": "exploration", "actors": [red], "place": "C3", "data": {"outcome": "nothing"}}
    marks = game.ruleset.map_events(game, [march, falls, explored])
    assert [(m.kind, m.path, m.owner) for m in marks] == [
        ("march", ("A1", "B2", "C3"), red),
        ("raze", ("C3",), blue),
    ]
    assert marks[0].text == game.ruleset.describe(march, game)  # the chronicle's own sentence


def test_factions_marks_moves_between_locations_and_only_claims_that_change_hands(tmp_path: Path) -> None:
    game, state = game_of(tmp_path, "factions")
    here, there = sorted(state["locations"])[:2]
    red = game.factions[0]
    common = {"band": "success", "lieutenant": "Ash", "location_name": "Market of Somewhere"}
    move = {
        "kind": "move_minion",
        "actors": [red],
        "place": state["locations"][there]["locale"],
        "data": {**common, "faction": red, "start": here, "location": there},
    }
    refused = {
        "kind": "claim",
        "actors": [red],
        "place": "x",
        "data": {**common, "faction": red, "location": there, "npc_name": "The Watch"},
    }
    claimed = {**refused, "data": {**refused["data"], "claimed": True}}
    attack = {
        "kind": "attack",
        "actors": [],
        "place": "x",
        "data": {**common, "location": there, "target": red},
    }  # nobody saw who struck
    marks = game.ruleset.map_events(game, [move, refused, claimed, attack])
    assert [(m.kind, m.path, m.owner) for m in marks] == [
        ("march", (here, there), red),
        ("capture", (there,), red),
        ("battle", (there,), None),
    ]
    areas = game.ruleset.map_areas(game, state)
    assert {a["id"] for a in areas} == set(state["locations"])
    assert all(a["location"] in game.world for a in areas)


@pytest.mark.parametrize(("kind", "path"), [("parade", ("A1",)), ("battle", ())])
def test_a_mark_needs_a_known_kind_and_a_place(kind: str, path: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="a map mark needs"):
        MapMark(kind, path, None, "")
