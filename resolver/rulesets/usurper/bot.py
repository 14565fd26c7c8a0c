"""Orders for a usurper nobody plays: legal, purposeful weeks built from what the usurper knows."""

from __future__ import annotations

from typing import Any

from ...core.phases import State
from ...engine.ruleset import Game
from . import model as m


def orders_for(game: Game, state: State, faction: str) -> dict[str, Any]:
    """Each unit scouts a grid it has not seen yet, as near its lair as it can reach; the leaders rest."""
    orders: list[dict[str, Any]] = []
    seen = set(m.known(state, faction)["scouted"])
    planned: set[str] = set()
    for unit in m.units(state, faction).values():
        if unit.get("grumpy"):
            continue
        lair = m.home_lair(state, faction, unit)
        if lair is None:
            continue
        reach = m.overland_speed(game.rules, m.UNIT, unit)
        fresh = [
            grid
            for grid in game.world
            if grid not in seen | planned and 0 < game.world.distance(lair["grid"], grid) <= reach
        ]
        if fresh:
            grid = min(fresh, key=lambda g: (game.world.distance(lair["grid"], g), g))
            planned.add(grid)
            orders.append({"action": "scout", "by": unit["id"], "target": grid})
    return {"orders": orders, "press": [], "rumors": []}
