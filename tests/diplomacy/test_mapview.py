"""A Diplomacy turn on the site's map: units as pieces, centres tinted by owner, and each ``order`` event as a
mark: a move as an arrow, a support or a convoy as an arrow at the move it helps (or at the unit it helps
hold), a hold as a ring; what became of the order (succeeded, failed, illegal) goes with it, so the map draws
a failed order dashed and crossed out. The last test plays a turn through the real commands and reads the
map's data as the site writes it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from resolver.engine.ruleset import MapMark
from resolver.publish.history import load_history
from resolver.publish.maps import map_data
from resolver.rulesets.diplomacy import geometry, mapview
from resolver.rulesets.diplomacy.board import standard_board
from resolver.store.store import Store

Run = Callable[..., tuple[int, str, str]]
BOARD = standard_board()
SUPPLY_CENTRE_NAMES = {BOARD.name(centre) for centre in BOARD.supply_centres}
CAMPAIGN = "map-test"


@pytest.fixture
def root(tmp_path: Path, run: Run) -> Path:
    folder = tmp_path / "dip"
    code, _, err = run(
        "new", "--ruleset", "diplomacy", "--root", folder, "--open", "--seed", "3", "--name", "Map Test"
    )
    assert code == 0, err
    return folder


def order(power: str, order_type: str, result: str = "succeeded", **data: Any) -> dict[str, Any]:
    """An ``order`` event as the archive keeps it."""
    body = {
        "power": power,
        "unit_kind": "army",
        "unit": None,
        "order_type": order_type,
        "destination": None,
        "supported": None,
        "result": result,
        "reason": None if result == "succeeded" else "it bounced",
        "assumed": False,
        "order": "",
        **data,
    }
    return {
        "kind": "order",
        "actors": [power],
        "place": data.get("unit"),
        "visibility": "public",
        "data": body,
    }


def marks_of(root: Path, events: list[dict[str, Any]]) -> list[MapMark]:
    game = Store(root).game()
    return game.ruleset.map_events(game, events)


def test_moves_are_arrows_and_a_failed_one_is_marked_failed(root: Path) -> None:
    moved = order("france", "move", unit="par", destination="bur")
    bounced = order("germany", "move", "failed", unit="mun", destination="bur")
    marks = marks_of(root, [moved, bounced])
    assert [(m.kind, m.path, m.owner, m.outcome) for m in marks] == [
        ("march", ("par", "bur"), "france", "succeeded"),
        ("march", ("mun", "bur"), "germany", "failed"),
    ]
    game = Store(root).game()
    assert marks[1].text == game.ruleset.describe(bounced, game)  # the chronicle's own sentence
    assert "Munich" in marks[1].text and "Burgundy" in marks[1].text and "bounced" in marks[1].text


def test_a_support_points_at_the_move_it_supports_or_at_the_unit_it_keeps(root: Path) -> None:
    of_move = order("france", "support", unit="mar", supported="par", destination="bur")
    of_hold = order("germany", "support", "failed", unit="ber", supported="mun")
    convoy = order("england", "convoy", unit_kind="fleet", unit="nth", supported="yor", destination="nwy")
    marks = marks_of(root, [of_move, of_hold, convoy])
    assert [(m.kind, m.path, m.outcome) for m in marks] == [
        ("support", ("mar", "par", "bur"), "succeeded"),  # at the middle of Paris -> Burgundy
        ("support", ("ber", "mun"), "failed"),  # at the unit in Munich
        ("convoy", ("nth", "yor", "nwy"), "succeeded"),
    ]


def test_holds_are_rings_and_illegal_orders_are_told_apart_from_failed_ones(root: Path) -> None:
    held = order("italy", "hold", unit="ven", assumed=True)
    dislodged = order("france", "hold", "failed", unit="bur")
    illegal = order(
        "austria", "move", "illegal", unit="vie", destination="ven", reason="Vienna does not border Venice"
    )
    marks = marks_of(root, [held, dislodged, illegal])
    assert [(m.kind, m.path, m.outcome) for m in marks] == [
        ("hold", ("ven",), "succeeded"),
        ("hold", ("bur",), "failed"),
        ("march", ("vie", "ven"), "illegal"),
    ]


def test_coasts_are_drawn_in_their_province_and_builds_removals_and_dislodgements_are_marks(
    root: Path,
) -> None:
    fleet = order("russia", "move", unit_kind="fleet", unit="stp/sc", destination="bot")
    build = order("russia", "build", unit_kind="fleet", destination="stp/nc")
    removal = order("turkey", "remove", unit="smy")
    waive = order("england", "waive")
    dislodged = {
        "kind": "dislodged",
        "actors": ["france"],
        "place": "bur",
        "data": {
            "power": "france",
            "unit_kind": "army",
            "unit": "bur",
            "attacker_from": "ruh",
            "retreats": ["par"],
        },
    }
    changed = {
        "kind": "centre_changed",
        "actors": ["germany"],
        "place": "bel",
        "data": {"province": "bel", "power": "germany", "previous": None},
    }
    marks = marks_of(root, [fleet, build, removal, waive, dislodged, changed])
    assert [(m.kind, m.path, m.owner) for m in marks] == [
        ("march", ("stp", "bot"), "russia"),
        ("build", ("stp",), "russia"),
        ("disband", ("smy",), "turkey"),
        ("dislodged", ("bur",), "france"),
        ("capture", ("bel",), "germany"),
    ]
    assert "Ruhr" in marks[3].text and "Belgium" in marks[4].text


def test_a_mark_refuses_an_outcome_it_does_not_know_and_a_support_without_its_target() -> None:
    with pytest.raises(ValueError, match="outcome"):
        MapMark("march", ("par", "bur"), "france", "x", "bounced")
    with pytest.raises(ValueError, match="support"):
        MapMark("support", ("mar",), "france", "x")


def test_pieces_are_the_units_with_their_coast_in_words_and_centres_are_held(root: Path) -> None:
    store = Store(root)
    game, state = store.game(), store.state()
    pieces = mapview.map_pieces(game, state)
    assert len(pieces) == 22
    fleet = next(p for p in pieces if p["location"] == "stp")
    assert fleet == {
        "kind": "fleet",
        "location": "stp",
        "owner": "russia",
        "label": "F",
        "detail": "Russian fleet in St Petersburg (south coast)",
        "size": 1,
        "point": list(geometry.coast_points()["stp/sc"]),  # it stands by its coast, not in the middle
    }
    assert all("point" not in p for p in pieces if p is not fleet)
    assert all(p["location"] in game.world for p in pieces)
    holders = mapview.map_holders(game, state)
    assert len(holders) == 34 and holders["par"] == "france" and holders["bel"] is None
    # A dislodged unit waiting to retreat stands in its province too, and says so.
    state["dislodged"] = {
        "bur": {"owner": "france", "kind": "army", "location": "bur", "attacker_from": "ruh"}
    }
    waiting = mapview.map_pieces(game, state)[-1]
    assert waiting["location"] == "bur" and "dislodged" in waiting["detail"]


def play(run: Run, root: Path, orders: dict[str, list[str]]) -> None:
    for power, lines in orders.items():
        body = "".join(f'  - "{line}"\n' for line in lines)
        text = f"campaign: {CAMPAIGN}\nturn: 1\nfaction: {power}\norders:\n{body}"
        (root / "orders" / f"{power}.yaml").write_text(text, encoding="utf-8")
    code, out, err = run("resolve", "--root", root)
    assert code == 0, out + err


def test_a_played_turn_reaches_the_sites_map_with_every_order_and_its_outcome(root: Path, run: Run) -> None:
    play(
        run,
        root,
        {
            "france": ["A PAR - BUR", "A MAR S A PAR - BUR"],
            "germany": ["A MUN - BUR"],
            "russia": ["F STP/SC - BOT"],
        },
    )
    data = map_data(load_history(Store(root)))
    kinds = data["markKinds"]
    tiles = [tile[1] for tile in data["tiles"]]
    turn = data["marks"][1]

    def described(mark: list[Any]) -> tuple[str, tuple[str, ...], str | None]:
        places = tuple(tiles[at[2]] for at in mark[1])
        return kinds[mark[0]], places, mark[4] if len(mark) > 4 else None

    found = [described(mark) for mark in turn]
    assert ("march", ("Paris", "Burgundy"), "succeeded") in found
    assert ("support", ("Marseilles", "Paris", "Burgundy"), "succeeded") in found
    assert ("march", ("Munich", "Burgundy"), "failed") in found
    assert ("march", ("St Petersburg", "Gulf of Bothnia"), "succeeded") in found
    # Every other unit held, given no order: a ring each.
    assert sum(1 for kind, _, _ in found if kind == "hold") == 22 - 4
    assert "support" in data["drawnKinds"] and "hold" in data["drawnKinds"]
    for mark in turn:
        text = data["strings"][mark[3]]
        assert text
        assert not re.search(r"\b(par|bur|mun|stp/sc|bot)\b", text), text
    # The units after the turn: the French army in Burgundy, the German one still in Munich.
    pieces = {(data["labels"].get(p[0], p[0]), data["kinds"][p[1]]) for p in data["pieces"][1]}
    assert ("Burgundy", "army") in pieces and ("Munich", "army") in pieces
    # Every province is named; the 34 supply centres, and only they, have a ring, which the legend names.
    assert len(data["places"]) == 75
    ringed = {place[0] for place in data["places"] if len(place) > 4 and place[4]}
    assert ringed == SUPPLY_CENTRE_NAMES and len(ringed) == 34
    assert data["markedPlaces"] == "Supply centre"
    # The fleet of the south coast, gone to the Gulf of Bothnia, stood by its coast before the turn.
    before = {p[0]: p for p in data["pieces"][0]}
    x, y = geometry.coast_points()["stp/sc"]
    assert before["stp"][7] == [y, x] and len(before["mos"]) == 7
