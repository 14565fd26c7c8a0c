"""NPCs are not players (issue 22): the home page counts only the factions a person plays in "Orders for
turn N: 0 of M sent", and lists only their order files, in every ruleset, for a campaign made from a
players file (`campaign new --players`) that has an NPC: one the GM brings in, or the ruleset's own."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from resolver.core.factions import awaited, npcs
from resolver.engine.ruleset import RULESETS, get_ruleset
from resolver.publish.site import build_site
from resolver.store.resolution import resolve
from resolver.store.store import Store
from resolver.workflow import play_bot_turn

from ..sides import seats

PLAYERS = {"factions": {"red": {"name": "Brightwater"}, "blue": {"name": "Kessmark"}}}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_home_page_counts_and_lists_players_only(
    ruleset: str, tmp_path: Path, run: Callable[..., tuple[int, str, str]]
) -> None:
    seat = seats(ruleset, PLAYERS["factions"])  # red and blue, or the ruleset's first two sides
    players = tmp_path / "players.yaml"
    roster = {"factions": {seat[f]: entry for f, entry in PLAYERS["factions"].items()}}
    players.write_text(yaml.safe_dump(roster), encoding="utf-8")
    root = tmp_path / "camp"
    code, _, err = run(
        "new", "--ruleset", ruleset, "--root", root, "--seed", "3", "--players", players, "--open"
    )
    assert code == 0, err
    store = Store(root)
    if not npcs(store.state(), store.game(store.state()).factions) and get_ruleset(ruleset).can_add_factions:
        # A ruleset without NPCs of its own gets one from the GM, as a campaign would.
        campaign = store.game(store.state()).campaign
        (root / "orders/gm.yaml").write_text(
            f"campaign: {campaign}\nturn: 1\nfaction: gm\norders:\n"
            "  - {action: add_faction, id: raiders, name: Raiders, kind: npc}\n",
            encoding="utf-8",
        )
        resolve(root)
    play_bot_turn(root)  # the bot writes the players' files; the NPCs' orders are the bot's own
    state = Store(root).state()
    game = Store(root).game(state)
    others = npcs(state, game.factions)
    # Every ruleset whose campaign can hold an NPC holds one here (factions has neither NPC peoples of
    # its own nor the GM's add_faction: its home page is checked with its players alone).
    assert others or not (get_ruleset(ruleset).can_add_factions or ruleset == "seasons")
    assert sorted(awaited(state, game.factions)) == sorted(seat.values())
    assert build_site(root).out is not None
    home = (root / "site/index.md").read_text(encoding="utf-8")
    assert re.search(rf"Orders for turn {state['turn']}</dt><dd>0 of 2 sent", home), home[:2000]
    written = set(re.findall(r"orders/([a-z0-9-]+)\.yaml", home))
    assert written == set(seat.values()), written
    for npc in others:
        assert f"{game.name_of(npc)}: not sent yet" not in home
