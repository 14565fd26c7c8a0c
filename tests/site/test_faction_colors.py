"""No two factions share a colour (issue 22): an NPC people keeps the colour its rules give it, and a faction
whose colour is unusable or taken by another (a player who picked an NPC's colour, two players who picked
the same) gets one nobody holds. For every ruleset, and on the map a built site draws."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from resolver import workflow
from resolver.core.factions import is_npc
from resolver.engine.ruleset import RULESETS
from resolver.publish.history import faction_colors
from resolver.publish.maps import DATA_ID
from resolver.store.store import Store

from ..sides import seats
from .demo import DemoSite, bot_demo_site


def same(color: str) -> str:
    digits = color.lstrip("#").lower()
    return "#" + ("".join(c * 2 for c in digits) if len(digits) == 3 else digits)


def new_campaign(root: Path, ruleset: str, players: dict[str, dict[str, str]]) -> Store:
    """A campaign of the players file ``players``, whose factions are named red, blue... as a ruleset
    that takes any id names them: where the ruleset's sides are fixed, they take its ids in that order,
    with the names and colours the file gives."""
    root.mkdir(parents=True)
    path = root / "players-in.yaml"
    seat = seats(ruleset, players)
    path.write_text(yaml.safe_dump({"factions": {seat[f]: e for f, e in players.items()}}), encoding="utf-8")
    factions, chosen = workflow.factions_from_players(path)
    workflow.new_campaign(root, ruleset, 1, factions, name="Colours", players=chosen)
    return Store(root)


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_no_two_factions_share_a_colour_and_npcs_keep_their_own(ruleset: str, tmp_path: Path) -> None:
    # First a campaign with the colours the players chose, to learn what colours its NPCs hold.
    plain = new_campaign(
        tmp_path / "plain",
        ruleset,
        {"red": {"name": "Thornwyn", "color": "#c0392b"}, "blue": {"name": "Ashgrove", "color": "#2e6fbd"}},
    )
    state = plain.state()
    npc_colors = {f: r["color"] for f, r in state["factions"].items() if is_npc(state, f)}
    taken = next(iter(npc_colors.values()), "#2e6fbd").upper()  # an NPC's colour, spelt otherwise
    players = {
        "red": {"name": "Thornwyn", "color": "#c0392b"},
        "blue": {"name": "Ashgrove", "color": "#C0392B"},  # the same colour as red's
        "green": {"name": "Velloran", "color": taken},  # an NPC's, or blue's where there is no NPC
        "gold": {"name": "Marrowgate", "color": 'red" onload="x'},  # unusable
    }
    store = new_campaign(tmp_path / "clash", ruleset, players)
    seat = seats(ruleset, players)  # red, blue... as this ruleset calls them
    state = store.state()
    game = store.game(state)
    colors = faction_colors(store, game, state)
    assert set(colors) == set(game.factions)
    assert len({same(c) for c in colors.values()}) == len(colors), colors
    for faction, color in npc_colors.items():
        assert colors[faction] == color, f"the NPC {faction} lost its colour {color} to {colors[faction]}"
    kept = [seat[f] for f in ("red", "blue") if same(colors[seat[f]]) == "#c0392b"]
    assert len(kept) == 1, f"of two factions that picked one colour, one keeps it: {colors}"
    for faction in (seat["blue"], seat["green"], seat["gold"]):
        assert re.fullmatch(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?", colors[faction]), colors[faction]


@pytest.fixture(scope="module", params=list(RULESETS))
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / request.param, request.param)


def test_the_map_draws_each_faction_in_a_colour_of_its_own(demo: DemoSite) -> None:
    page = (demo.public / "map" / "world.html").read_text(encoding="utf-8")
    found = re.search(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', page, re.S)
    assert found
    drawn = {f["id"]: f["color"] for f in json.loads(found.group(1))["factions"]}
    assert len({same(c) for c in drawn.values()}) == len(drawn), drawn
    state = Store(demo.root).state()
    for faction, record in state["factions"].items():
        if is_npc(state, faction):
            assert drawn[faction] == record["color"], (faction, drawn[faction], record["color"])
