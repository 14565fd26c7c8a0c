"""Usurper on the site: the map shows every reader the terrains and the cities; each usurper's lairs and
findings only where the reader may see them (everyone's in an open campaign, a usurper's own in its view,
nobody's on a sealed campaign's public site); the VP standings and their chart; and the sites of the
usurper demo, open and sealed, build. The sealed demo's public site names no lair grid, no unit and no
scouted grid of any usurper."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from resolver import workflow
from resolver.cli import main
from resolver.core import canonical
from resolver.engine.ruleset import Game
from resolver.publish.maps import DATA_ID
from resolver.publish.site import build_site
from resolver.store import sealing
from resolver.store.store import Store

from ..sealed.demos import full_states, sealed_site

RED_FINDS = {
    "scouted": ["B2", "C3", "D4"],
    "settlements": {"C3": {"size": "camp", "races": ["goblins"], "attitude": "indifferent"}},
    "nodes": {"D4": {"resource": "lumber", "size": "normal", "dice": "4d4+8", "uses": 3}},
    "encounters": {"red-e1": {"grid": "E5", "units": [{"race": "ogres"}], "level": 0}},
    "pf_memory": [],
}


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Game, dict[str, Any]]:
    """A usurper campaign's game and its opening state, red having scouted and found something of each
    kind, blue a grid of its own."""
    root = tmp_path_factory.mktemp("usurper-site")
    game = workflow.new_campaign(root, "usurper", 5, workflow.default_factions(3, 5))
    state = copy.deepcopy(Store(root).state())
    state["factions"]["red"]["known"] = copy.deepcopy(RED_FINDS)
    state["factions"]["blue"].setdefault("known", {})["scouted"] = ["Y20"]
    return game, state


def kinds_by_owner(pieces: list[dict[str, Any]]) -> dict[tuple[str | None, str], list[str]]:
    found: dict[tuple[str | None, str], list[str]] = {}
    for piece in pieces:
        found.setdefault((piece["owner"], piece["kind"]), []).append(piece["location"])
    return found


def test_an_open_campaign_map_shows_every_usurpers_lairs_and_findings(campaign: tuple[Game, dict]) -> None:
    game, state = campaign
    shown = kinds_by_owner(game.ruleset.map_pieces(game, state))
    assert sorted(shown[(None, "city")]) == sorted(state["cities"])
    for faction in game.factions:
        lairs = [lair["grid"] for lair in state["factions"][faction]["lairs"].values()]
        assert shown[(faction, "lair")] == lairs
    assert shown[("red", "settlement")] == ["C3"]
    assert shown[("red", "resource_node")] == ["D4"]
    assert shown[("red", "encounter")] == ["E5"]
    # A grid with a finding is marked by the finding, not also as scouted.
    assert shown[("red", "scouted_grid")] == ["B2"]
    assert shown[("blue", "scouted_grid")] == ["Y20"]


def test_a_sealed_campaigns_public_map_shows_the_cities_and_landmarks_alone(
    campaign: tuple[Game, dict],
) -> None:
    game, state = campaign
    public = game.ruleset.faction_view(game, state, None)
    pieces = game.ruleset.map_pieces(game, public)
    assert {piece["kind"] for piece in pieces} == {"city", "landmark"}
    assert len(pieces) == len(state["cities"]) + len(state["landmarks"])


@pytest.mark.parametrize("reader", ["everyone", "open campaign", "red"])
def test_every_reader_sees_the_landmarks_by_name(campaign: tuple[Game, dict], reader: str) -> None:
    """The landmarks are public places: the map shows each of them, named, whoever reads it."""
    game, state = campaign
    view = {"everyone": None, "red": "red"}
    shown = state if reader == "open campaign" else game.ruleset.faction_view(game, state, view[reader])
    landmarks = {
        piece["location"]: piece
        for piece in game.ruleset.map_pieces(game, shown)
        if piece["kind"] == "landmark"
    }
    assert (
        set(landmarks)
        == set(state["landmarks"])
        == {str(data["grid"]) for data in game.rules["landmarks"].values()}
    )
    for grid, piece in landmarks.items():
        assert piece["owner"] is None
        assert piece["label"] == state["landmarks"][grid]["name"]
    assert landmarks["C7"]["label"] == "Talonrel's Oracle"


def test_a_found_settlement_is_named_by_what_it_is_and_who_lives_there(campaign: tuple[Game, dict]) -> None:
    game, state = campaign
    (settlement,) = [piece for piece in game.ruleset.map_pieces(game, state) if piece["kind"] == "settlement"]
    assert settlement["label"] == "Camp of Goblins"
    assert settlement["detail"] == f"Found by {game.name_of('red')}, and indifferent towards it"


def test_a_usurpers_own_view_shows_its_own_lairs_and_findings_and_no_one_elses(
    campaign: tuple[Game, dict],
) -> None:
    game, state = campaign
    own = kinds_by_owner(game.ruleset.map_pieces(game, game.ruleset.faction_view(game, state, "red")))
    assert {owner for owner, _ in own} == {None, "red"}
    assert own[("red", "settlement")] == ["C3"] and own[("red", "scouted_grid")] == ["B2"]
    assert own[("red", "lair")] == [lair["grid"] for lair in state["factions"]["red"]["lairs"].values()]


def test_the_report_tells_a_usurper_what_its_units_found(campaign: tuple[Game, dict]) -> None:
    game, state = campaign
    lines = game.ruleset.status_lines(game, state, "red")
    assert "Grids your units scouted: B2, C3, D4." in lines
    assert "At C3: Camp of Goblins; indifferent towards you." in lines
    assert "At D4: Normal lumber node, 3 harvests left." in lines
    assert not any("Y20" in line for line in game.ruleset.status_lines(game, state, "red"))
    assert "Grids your units scouted: Y20." in game.ruleset.status_lines(game, state, "blue")


def test_pieces_read_in_words(campaign: tuple[Game, dict]) -> None:
    game, state = campaign
    for piece in game.ruleset.map_pieces(game, state):
        for text in (piece["label"], piece["detail"]):
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
            assert not re.search(r"\b(red|blue|gold)-[a-z]+\d", text), text


def test_the_standings_count_victory_points_and_hold_only_what_the_view_holds(
    campaign: tuple[Game, dict],
) -> None:
    game, state = campaign
    state = copy.deepcopy(state)
    state["scores"] = {"red": {"total": 12, "history": [{"turn": 8, "total": 12}]}}
    rows = game.ruleset.standings(game, state)
    assert rows[0]["faction"] == "red" and rows[0]["victory_points"] == 12
    assert {"gold", "units", "men"} <= set(rows[0])
    public = game.ruleset.standings(game, game.ruleset.faction_view(game, state, None))
    assert set(public[0]) == {"faction", "name", "status", "victory_points"}
    assert public[0]["victory_points"] == 12


# -- the demo's sites ---------------------------------------------------------------------------------------


def demo(root: Path, *extra: str) -> Path:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["demo", "--ruleset", "usurper", "--turns", "4", "--root", str(root), *extra])
    sealing.forget_key()
    assert code == 0, out.getvalue()
    return root


def map_data(public: Path) -> dict[str, Any]:
    page = (public / "map" / "world.html").read_text(encoding="utf-8")
    found = re.search(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


def test_the_open_demos_site_builds_with_every_usurpers_lairs_on_the_map(tmp_path: Path) -> None:
    root = demo(tmp_path / "open")
    build_site(root, None)
    public = root / "public"
    data = map_data(public)
    strings = data["strings"]
    labels = {strings[piece[3]] for piece in data["pieces"][-1]}
    state = Store(root).state()
    game = Store(root).game(state)
    for faction in game.factions:
        assert f"Lair of {game.name_of(faction)}" in labels
    assert "lair" in data["kinds"] and "city" in data["kinds"]
    rules = (public / "rules" / "chapters" / "orders" / "index.html").read_text(encoding="utf-8")
    assert "Orders" in rules and "A usurper campaign is sealed unless the GM opened it" in rules
    # The standings and the chart of Victory Points over time.
    assert (public / "factions" / "charts" / "victory_points.svg").is_file()
    assert "Victory points" in (public / "factions" / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game, list[dict[str, Any]]]:
    public = sealed_site(tmp_path_factory.getbasetemp() / "sealed-demos", "usurper")
    game, states = full_states(public.parent)
    return public, game, states


def test_the_sealed_demos_public_site_holds_no_lair_unit_or_scouted_grid(
    sealed: tuple[Path, Game, list[dict[str, Any]]],
) -> None:
    public, game, states = sealed
    lairs, scouted, units, leaders = set(), set(), set(), set()
    for state in states:
        for record in state["factions"].values():
            lairs |= {lair["grid"] for lair in (record.get("lairs") or {}).values()}
            scouted |= set((record.get("known") or {}).get("scouted") or ())
            units |= {unit["name"] for unit in (record.get("units") or {}).values()}
            leaders |= {leader["name"] for leader in (record.get("leaders") or {}).values()}
    assert lairs and scouted and units, "the demo must hold secrets for the test to mean something"
    cities = set(states[-1].get("cities") or ())
    landmarks = set(states[-1].get("landmarks") or ())
    secret_grids = (lairs | scouted) - cities - landmarks
    # The map: only the cities and the landmarks stand on it, turn after turn, and no mark points at a
    # secret grid.
    data = map_data(public)
    assert set(data["kinds"]) == {"city", "landmark"}
    placed = {piece[0] for turn in data["pieces"] for piece in turn}
    assert placed == cities | landmarks
    assert not set(data["locations"]) & secret_grids
    # No page: no lair's or scouted grid's name (outside the rules pages, which name the rules' own
    # places), no unit's name; no leader's name the rules data does not give every usurper.
    rules_text = canonical.dump(game.rules).decode()
    leaders = {name for name in leaders if name not in rules_text}
    problems = []
    for path in sorted(public.rglob("*")):
        if path.suffix not in (".html", ".xml", ".svg", ".json", ".txt") or not path.is_file():
            continue
        where = path.relative_to(public).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        if where == "map/world.html":
            continue  # its every tile is labelled: the pieces and marks are checked above
        problems += [f"{where}: unit {name}" for name in units | leaders if name in text]
        if not where.startswith(("rules/", "search/", "assets/")):
            tokens = set(re.findall(r"\b[A-Z]\d{1,2}\b", text))
            problems += [f"{where}: grid {grid}" for grid in tokens & secret_grids]
    assert not problems, problems[:20]


def test_the_sealed_demos_site_shows_the_victory_points_and_their_chart(
    sealed: tuple[Path, Game, list[dict[str, Any]]],
) -> None:
    public, _, _ = sealed
    index = (public / "factions" / "index.html").read_text(encoding="utf-8")
    assert "Victory points" in index
    assert (public / "factions" / "charts" / "victory_points.svg").is_file()
    for secret in ("charts/gold.svg", "charts/men.svg", "charts/units.svg"):
        assert not (public / "factions" / secret).exists()


def test_a_node_with_one_harvest_left_says_so_in_the_singular(campaign: tuple[Game, dict]) -> None:
    game, state = campaign
    state = copy.deepcopy(state)
    state["factions"]["red"]["known"]["nodes"]["D4"]["uses"] = 1
    (node,) = [piece for piece in game.ruleset.map_pieces(game, state) if piece["kind"] == "resource_node"]
    assert node["detail"] == "Normal lumber node, 1 harvest left"
