"""A war at scale for the bench: many armies of every nation, some facing the next nation's, and orders
for all of them. The ruleset builds it from its own pieces, so the bench needs none of its internals.

Linear in its size: each piece is made once, and lookups go through tables built once (the ruleset's
helpers that scan the state would make it quadratic).
"""

from __future__ import annotations

from typing import Any

from ...core.phases import State
from ...core.rng import stream
from ...engine.ruleset import Game
from . import model as m

Armies = dict[str, list[dict[str, Any]]]  # nation -> its armies


def scale_armies(
    game: Game, state: State, armies: int, seed: int, *, attacks: int
) -> tuple[Armies, dict[str, set[str]]]:
    """Fill ``state`` with about ``armies`` armies of three Levies each, spread over the land by a stream
    of the seed, and move ``attacks`` armies of every nation onto tiles of the next nation's. Returns
    each nation's armies and the ids of those that attack."""
    world, rules, factions = game.world, game.rules, game.factions
    land = [loc for loc in world if m.passable(world, rules, loc)]
    rng = stream(seed, "bench/armies")
    per = max(2, armies // len(factions))
    unit_ids = m.all_unit_ids(state)
    owned: Armies = {f: [] for f in factions}
    for army in state["armies"].values():
        owned[army["owner"]].append(army)
    for f in factions:
        names = {a["name"] for a in owned[f]}
        number = 1
        for _ in range(per - len(owned[f])):
            while str(number) in names:
                number += 1
            names.add(str(number))
            aid = m.new_id(state, f, "a", unit_ids)
            units = [
                m.make_unit(state, f, rules, "troops", "Levy", ["drilled"], {}, unit_ids) for _ in range(3)
            ]
            army = {"id": aid, "owner": f, "name": str(number), "location": rng.choice(land), "units": units}
            state["armies"][aid] = army
            owned[f].append(army)
        state["factions"][f]["stock"]["resources"] = 50
    ids = list(factions)
    attackers: dict[str, set[str]] = {}
    for i, f in enumerate(ids):
        enemy = owned[ids[(i + 1) % len(ids)]]
        count = min(attacks, per - 1) if len(ids) > 1 else 0  # a lone nation has nobody to attack
        mine = sorted(owned[f], key=lambda a: a["id"])[1 : 1 + count]
        for k, army in enumerate(mine):
            army["location"] = enemy[(k + len(mine)) % len(enemy)]["location"]
        attackers[f] = {a["id"] for a in mine}
    return owned, attackers


def scale_orders(
    game: Game, state: State, owned: Armies, attackers: dict[str, set[str]]
) -> dict[str, list[dict[str, Any]]]:
    """Every nation's orders: its attackers attack the next nation, every other army takes one step onto
    passable land, and the capital recruits three units of Pikes."""
    world, rules, ids = game.world, game.rules, list(game.factions)
    capitals = {s["owner"]: s for s in state["settlements"].values() if s["type"] == "capital"}
    found = {}
    for i, f in enumerate(ids):
        enemy = ids[(i + 1) % len(ids)]
        orders: list[dict[str, Any]] = []
        for army in sorted(owned[f], key=lambda a: a["id"]):
            if army["id"] in attackers[f]:
                orders.append({"action": "attack", "army": army["name"], "target": enemy})
                continue
            for direction in world.directions():
                nxt = world.step(army["location"], direction)
                if nxt and m.passable(world, rules, nxt):
                    orders.append({"action": "move", "army": army["name"], "path": [direction]})
                    break
        orders += [
            {
                "action": "recruit",
                "settlement": capitals[f]["name"],
                "class": "troops",
                "name": f"Pikes {n}",
                "trait": "drilled",
            }
            for n in range(3)
        ]
        found[f] = orders
    return found
