"""A war at scale for the bench: many armies of every nation, some facing another nation's, and orders
for all of them. The ruleset builds it from its own pieces, so the bench needs none of its internals.

Two layouts of the same war:

- ``scattered``: every army stands on a tile drawn from the whole map, and each nation's attackers face
  the next nation's (by id). At 400 nations an army meets far more strangers than at 100, so the turn
  does more per army: the work itself grows.
- ``apart``: as real nations start, each nation's armies stand in its own home region (the land nearer
  its capital than any other), and its attackers face one neighbour's, a nation whose region borders its
  own. The work per army stays the same at any size.

Linear in its size: each piece is made once, and lookups go through tables built once (the ruleset's
helpers that scan the state would make it quadratic).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Literal

from ...core.phases import State
from ...core.rng import stream
from ...core.world import World
from ...engine.ruleset import Game
from . import model as m

Armies = dict[str, list[dict[str, Any]]]  # nation -> its armies
Layout = Literal["scattered", "apart"]
LAYOUTS: tuple[Layout, ...] = ("scattered", "apart")


def home_regions(world: World, rules: m.Rules, capitals: dict[str, str]) -> dict[str, str]:
    """Each passable tile's nation: the one whose capital is fewest steps away over passable land, found
    by one breadth-first search from every capital at once (ties go to the capital that reached the tile
    first, in the order of ``capitals``). Tiles no capital reaches over land belong to nobody."""
    owner: dict[str, str] = {}
    frontier: deque[str] = deque()
    for nation, capital in capitals.items():
        if capital not in owner:
            owner[capital] = nation
            frontier.append(capital)
    while frontier:
        tile = frontier.popleft()
        for nxt in world.neighbours(tile):
            if nxt not in owner and m.passable(world, rules, nxt):
                owner[nxt] = owner[tile]
                frontier.append(nxt)
    return owner


def neighbours_of(world: World, owner: dict[str, str]) -> dict[str, str]:
    """Each nation's neighbour to attack: of the nations whose home region borders its own, the one with
    the longest shared border (ties to the lowest id). A nation that borders nobody has no neighbour."""
    borders: dict[str, dict[str, int]] = {}
    for tile, nation in owner.items():
        for nxt in world.neighbours(tile):
            other = owner.get(nxt)
            if other is not None and other != nation:
                shared = borders.setdefault(nation, {})
                shared[other] = shared.get(other, 0) + 1
    return {
        nation: min(shared, key=lambda other: (-shared[other], other)) for nation, shared in borders.items()
    }


def scale_armies(
    game: Game, state: State, armies: int, seed: int, *, attacks: int, layout: Layout = "scattered"
) -> tuple[Armies, dict[str, set[str]], dict[str, str]]:
    """Fill ``state`` with about ``armies`` armies of three Levies each, placed by a stream of the seed (over
    the whole land, or each nation's over its home region: see ``layout``), and move ``attacks`` armies of
    every nation onto tiles of its enemy's. Returns each nation's armies, the ids of those that attack,
    and each nation's enemy (nations without one attack nobody)."""
    world, rules, factions = game.world, game.rules, game.factions
    land = [loc for loc in world if m.passable(world, rules, loc)]
    ids = list(factions)
    if layout == "scattered":
        homes = {f: land for f in ids}
        enemies = {f: ids[(i + 1) % len(ids)] for i, f in enumerate(ids)} if len(ids) > 1 else {}
    else:
        capitals = {
            s["owner"]: s["location"] for s in state["settlements"].values() if s["type"] == "capital"
        }
        owner = home_regions(world, rules, {f: capitals[f] for f in ids if f in capitals})
        regions: dict[str, list[str]] = {f: [] for f in ids}
        for tile in land:  # in the world's order, so that the draws do not hang on the search's order
            if tile in owner:
                regions[owner[tile]].append(tile)
        homes = {f: regions[f] or land for f in ids}
        enemies = neighbours_of(world, owner)
    rng = stream(seed, "bench/armies" if layout == "scattered" else f"bench/armies/{layout}")
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
            army = {
                "id": aid,
                "owner": f,
                "name": str(number),
                "location": rng.choice(homes[f]),
                "units": units,
            }
            state["armies"][aid] = army
            owned[f].append(army)
        state["factions"][f]["stock"]["resources"] = 50
    chosen = {
        f: sorted(owned[f], key=lambda a: a["id"])[1 : 1 + (min(attacks, per - 1) if f in enemies else 0)]
        for f in ids  # a lone nation has nobody to attack
    }
    # Where the attackers go: onto the tiles of their enemy's armies. Scattered, as the bench always
    # placed them (an enemy army already sent abroad takes its attackers along); apart, onto the tiles
    # of the enemy's armies at home, so that every attack is fought on the neighbour's own ground.
    leaving = {a["id"] for mine in chosen.values() for a in mine}
    at_home = {f: [a["location"] for a in owned[f] if a["id"] not in leaving] for f in ids}
    attackers: dict[str, set[str]] = {}
    for f in ids:
        mine = chosen[f]
        for k, army in enumerate(mine):
            if layout == "scattered":
                enemy = owned[enemies[f]]
                army["location"] = enemy[(k + len(mine)) % len(enemy)]["location"]
            else:
                spots = at_home[enemies[f]]
                army["location"] = spots[(k + len(mine)) % len(spots)]
        attackers[f] = {a["id"] for a in mine}
    return owned, attackers, enemies


def scale_orders(
    game: Game, state: State, owned: Armies, attackers: dict[str, set[str]], enemies: dict[str, str]
) -> dict[str, list[dict[str, Any]]]:
    """Every nation's orders: its attackers attack its enemy, every other army takes one step onto
    passable land, and the capital recruits three units of Pikes."""
    world, rules, ids = game.world, game.rules, list(game.factions)
    capitals = {s["owner"]: s for s in state["settlements"].values() if s["type"] == "capital"}
    found = {}
    for f in ids:
        orders: list[dict[str, Any]] = []
        for army in sorted(owned[f], key=lambda a: a["id"]):
            if army["id"] in attackers[f]:
                orders.append({"action": "attack", "army": army["name"], "target": enemies[f]})
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
