"""The seasons map tells the season's story (issue 22): marks for invasions, battles, sieges, provinces
taken, loot and the Piorad's raid and withdrawal; each province drawn with its border and its holder, turn
by turn, as the state after that turn has it."""

from __future__ import annotations

import json
import re

import pytest

from resolver.core import canonical
from resolver.publish.maps import DATA_ID
from resolver.store.store import Store

from .demo import DemoSite, bot_demo_site


@pytest.fixture(scope="module")
def seasons_year(tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / "seasons-8", "seasons", turns=8)


def map_data(site: DemoSite) -> dict:
    page = (site.public / "map" / "world.html").read_text(encoding="utf-8")
    found = re.search(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


def test_every_turn_of_war_has_its_marks(seasons_year: DemoSite) -> None:
    data = map_data(seasons_year)
    kinds = data["markKinds"]
    by_turn = [{kinds[m[0]] for m in marks} for marks in data["marks"]]
    assert by_turn[0] == set(), "nothing happened before the first turn"
    # The demo's first year: invasions and battles, a province taken and looted, a siege, the Piorad's raid
    # in winter (turn 4), their looting and their march home.
    seen = set().union(*by_turn)
    assert {"march", "battle", "siege", "capture", "raid"} <= seen, seen
    store = Store(seasons_year.root)
    for turn in store.archived_turns():
        events = canonical.read_yaml(store.turns_dir / f"{turn:04d}" / "events.yaml")["events"]
        public = {e["kind"] for e in events if e.get("visibility") == "public"}
        if public & {"battle", "invaded", "siege", "province_taken", "loot", "piorad_withdraw"}:
            assert data["marks"][turn], f"turn {turn} changed the map and has no mark"
    # The Piorad's winter: their raid and their loot are raids, their withdrawal a march, in their colour.
    piorad = [f["id"] for f in data["factions"]].index("piorad")
    winter = [(kinds[m[0]], m[2]) for m in data["marks"][4]]
    assert ("raid", piorad) in winter and ("march", piorad) in winter, winter
    for marks in data["marks"]:
        for mark in marks:
            text = data["strings"][mark[3]]
            assert text and not re.search(r"\b[a-z]+_[a-z_]+\b|\bp-[a-z]", text), text


def test_every_province_shows_who_holds_it_turn_by_turn(seasons_year: DemoSite) -> None:
    data = map_data(seasons_year)
    store = Store(seasons_year.root)
    tiles = [tile[1] for tile in data["tiles"]]
    factions = [f["id"] for f in data["factions"]]
    assert len(data["holders"]) == len(data["turns"]) == 9
    game = store.game()
    for turn, row in enumerate(data["holders"]):
        assert len(row) == len(tiles), f"turn {turn}: a holder for each province"
        state = canonical.read_yaml(store.turns_dir / f"{turn:04d}" / "state.yaml") if turn == 0 else None
        if state is not None:
            for i, location in enumerate(game.world.locations):
                owner = state["provinces"][location]["owner"]
                assert row[i] == (factions.index(owner) if owner else -1), location
    # A province taken changes hands on the map in the turn it is taken.
    taken = []
    for turn in store.archived_turns():
        events = canonical.read_yaml(store.turns_dir / f"{turn:04d}" / "events.yaml")["events"]
        taken += [(turn, e["place"], e["actors"][0]) for e in events if e["kind"] == "province_taken"]
    assert taken, "the demo takes no province"
    locations = list(game.world.locations)
    for turn, province, taker in taken:
        assert data["holders"][turn][locations.index(province)] == factions.index(taker), (turn, province)
    # The current holders are the state's.
    state = store.state()
    for i, location in enumerate(locations):
        owner = state["provinces"][location]["owner"]
        assert data["holders"][-1][i] == (factions.index(owner) if owner else -1)


def test_worlds_whose_tiles_nobody_holds_draw_no_holders(tmp_path_factory: pytest.TempPathFactory) -> None:
    site = bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / "nations", "nations")
    assert all(row == [] for row in map_data(site)["holders"])
