"""A new nations campaign: a square world sized to the nations, capitals spaced apart, starting armies."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...core.phases import State
from ...core.world import World, generate_square, make_names
from ...ruleset import FactionSetup
from . import model as m


def world_size(rules: Mapping[str, Any], factions: int) -> tuple[int, int]:
    spacing = int(rules["start"]["spacing"])
    cols = math.ceil(math.sqrt(factions))
    rows = math.ceil(factions / cols)
    floor = int(rules["world"]["min_size"])
    return max(floor, cols * spacing), max(floor, rows * spacing)


def generate_world(seed: int, rules: Mapping[str, Any], factions: int) -> World:
    width, height = world_size(rules, factions)
    return generate_square(seed, width, height)


def _home(world: World, rules: Mapping[str, Any], col: int, row: int, taken: set[str]) -> str:
    """The land tile nearest the anchor point, preferring open ground around it."""
    best: tuple[Any, ...] | None = None
    for loc_id in world:
        loc = world[loc_id]
        if not m.passable(world, rules, loc_id) or loc_id in taken:
            continue
        c, r = loc.coords
        open_ground = sum(1 for n in loc.neighbours if m.passable(world, rules, n))
        key = (max(abs(c - col), abs(r - row)), -open_ground, loc_id)
        if best is None or key < best:
            best = key
    if best is None:
        raise ValueError("the world has no land for a capital")
    return str(best[2])


def initial_state(world: World, rules: Mapping[str, Any], factions: list[FactionSetup], seed: int) -> State:
    start = rules["start"]
    spacing = int(start["spacing"])
    cols = math.ceil(math.sqrt(len(factions)))
    capitals = make_names(seed, len(factions), "nations/capitals")
    state: State = {
        "turn": 1,
        "factions": {},
        "armies": {},
        "settlements": {},
        "projects": {},
        "roads": {},
        "ruins": {},
    }
    taken: set[str] = set()
    for i, f in enumerate(factions):
        state["factions"][f.id] = {
            "name": f.name,
            "color": f.color,
            "status": "active",
            "missed_turns": 0,
            "stock": {"resources": int(start["resources"]), "population": int(start["population"])},
            "items": {},
            "modifiers": {},
            "advancements": {},
            "contacts": [],
            "explored": [],
            "counters": {},
        }
        home = _home(
            world, rules, (i % cols) * spacing + spacing // 2, (i // cols) * spacing + spacing // 2, taken
        )
        taken.add(home)
        sid = m.new_id(state, f.id, "s")
        state["settlements"][sid] = {
            "id": sid,
            "name": capitals[i],
            "owner": f.id,
            "type": "capital",
            "level": int(start["capital_level"]),
            "location": home,
        }
        aid = m.new_id(state, f.id, "a")
        units = []
        for group in start["army"]:
            for _ in range(int(group.get("count", 1))):
                traits = [group["trait"]] if group.get("trait") else []
                units.append(
                    m.make_unit(
                        state, f.id, rules, group["class"], group["name"], traits, group.get("stats", {})
                    )
                )
        state["armies"][aid] = {"id": aid, "owner": f.id, "name": "1", "location": home, "units": units}
    return state
