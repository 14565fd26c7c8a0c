"""The hex-map house rule (``world.kind: hex``): a campaign on hexes plays like one on squares.

The bots of four nations play six turns on a generated hex map; every order file they write passes the
checker (the path directions are the six of a hex grid) and the armies march.
"""

from __future__ import annotations

from resolver.core.houserules import merge_rules
from resolver.core.world import HEX_STEPS
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import FactionSetup, Game, get_ruleset
from resolver.engine.turn import resolve_turn


def test_nations_bots_play_on_a_hex_map() -> None:
    ruleset = get_ruleset("nations")
    house = {"world": {"kind": "hex"}}
    rules = merge_rules(ruleset.default_rules(), house)
    factions = [FactionSetup(f, f.capitalize(), "#888888") for f in ("red", "blue", "green", "gold")]
    world = ruleset.generate_world(3, rules, len(factions))
    game = Game("hex", "Hex", 3, ruleset, rules, house, world, tuple(f.id for f in factions))
    state = ruleset.initial_state(world, rules, factions, 3)
    assert world.kind == "hex"
    assert game.actions["move"].field("path").choices == tuple(HEX_STEPS)
    kinds: set[str] = set()
    for _ in range(6):
        files = {f: bot_order_file(game, state, f) for f in game.factions}
        assert all(of.ok for of in files.values())
        result = resolve_turn(game, state, files)
        kinds |= {e.kind for e in result.events}
        state = result.state
    assert {"march", "exploration", "unit_mustered"} <= kinds
