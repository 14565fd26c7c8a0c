"""A new nations campaign: a square world sized to the nations, capitals spaced apart, starting armies."""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

from ...core.factions import PLAYER, new_faction
from ...core.phases import State
from ...core.world import World, generate_hex, generate_square, make_names
from ...engine.ruleset import FactionSetup, filled_state
from . import model as m


def world_size(rules: Mapping[str, Any], factions: int) -> tuple[int, int]:
    spacing = int(rules["start"]["spacing"])
    cols = math.ceil(math.sqrt(factions))
    rows = math.ceil(factions / cols)
    floor = int(rules["world"]["min_size"])
    return max(floor, cols * spacing), max(floor, rows * spacing)


def generate_world(seed: int, rules: Mapping[str, Any], factions: int) -> World:
    width, height = world_size(rules, factions)
    generate = generate_hex if rules["world"]["kind"] == "hex" else generate_square
    return generate(seed, width, height)


def _home(world: World, rules: Mapping[str, Any], col: int, row: int, taken: set[str]) -> str:
    """The land tile nearest the anchor point, preferring open ground around it."""

    def rank(loc_id: str) -> tuple[Any, ...]:
        c, r = world[loc_id].coords
        open_ground = sum(1 for n in world[loc_id].neighbours if m.passable(world, rules, n))
        return (max(abs(c - col), abs(r - row)), -open_ground, loc_id)

    land = [t for t in world if m.passable(world, rules, t) and t not in taken]
    if not land:
        raise ValueError("the world has no land for a capital")
    return min(land, key=rank)


# A nation's record before the game gives it anything; fixtures and new campaigns start from it.
BLANK_NATION = {
    "status": "active",
    "missed_turns": 0,
    "stock": {"resources": 0, "population": 0},
    "items": {},
    "modifiers": {},
    "advancements": {},
    "contacts": [],
    "explored": [],
    "counters": {},
}


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
        home = _home(
            world, rules, (i % cols) * spacing + spacing // 2, (i // cols) * spacing + spacing // 2, taken
        )
        taken.add(home)
        found_nation(state, rules, f, home, capitals[i])
    return state


def found_nation(
    state: State, rules: Mapping[str, Any], setup: FactionSetup, home: str, capital: str, kind: str = PLAYER
) -> None:
    """A nation's record, its capital at ``home`` and its starting army: at the start of a campaign,
    and for a nation the GM brings in later."""
    start = rules["start"]
    stock = {"resources": int(start["resources"]), "population": int(start["population"])}
    record = {**copy.deepcopy(BLANK_NATION), "stock": stock}
    state["factions"][setup.id] = new_faction(setup.id, setup.name, setup.color, kind=kind, **record)
    sid = m.new_id(state, setup.id, "s")
    state["settlements"][sid] = {
        "id": sid,
        "name": capital,
        "owner": setup.id,
        "type": "capital",
        "level": int(start["capital_level"]),
        "location": home,
    }
    aid = m.new_id(state, setup.id, "a")
    units = []
    for group in start["army"]:
        for _ in range(int(group.get("count", 1))):
            traits = [group["trait"]] if group.get("trait") else []
            units.append(
                m.make_unit(
                    state, setup.id, rules, group["class"], group["name"], traits, group.get("stats", {})
                )
            )
    state["armies"][aid] = {"id": aid, "owner": setup.id, "name": "1", "location": home, "units": units}


def late_home(world: World, rules: Mapping[str, Any], state: State) -> str | None:
    """Where a late joiner's capital goes: the free land tile farthest from every settlement and army
    (nearest the map's centre among equals), or None when no land is free."""
    occupied = [s["location"] for s in state["settlements"].values()]
    occupied += [a["location"] for a in state["armies"].values()]
    free = [t for t in world if m.passable(world, rules, t) and t not in set(occupied)]
    if not free:
        return None
    xs, ys = zip(*(world[t].coords for t in world), strict=True)
    centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)

    def rank(tile: str) -> tuple[Any, ...]:
        far = min((world.distance(tile, o) for o in occupied), default=0)
        col, row = world[tile].coords
        return (-far, abs(col - centre[0]) + abs(row - centre[1]), tile)

    return min(free, key=rank)


def join(
    world: World, rules: Mapping[str, Any], state: State, seed: int, setup: FactionSetup, kind: str
) -> str:
    """Found a late joiner's nation; returns its capital and army in words."""
    home = late_home(world, rules, state)
    if home is None:
        raise ValueError("no free land for a capital")
    names = {s["name"] for s in state["settlements"].values()}
    capital = next(
        n for n in make_names(seed, len(names) + 1, f"nations/capitals/{setup.id}") if n not in names
    )
    found_nation(state, rules, setup, home, capital, kind)
    return f"capital {capital} at {world[home].label} and army 1"


def fill_state(rules: Mapping[str, Any], partial: State, factions: list[str]) -> State:
    """A whole state from a hand-written part: nations from the blank, armies' units from their class
    (base stats, a name, an id from the army's), settlements and projects their ids from their keys."""
    state = filled_state(partial, factions, BLANK_NATION, records=("armies", "settlements", "projects"))
    for key in ("roads", "ruins"):
        state.setdefault(key, {})
    classes = rules.get("unit_classes", {})
    for aid, army in state["armies"].items():
        for i, unit in enumerate(army.get("units", [])):
            cls = unit.get("class", "troops")
            filled = {
                "class": "troops",
                "name": cls.capitalize(),
                "traits": [],
                **classes.get(cls, {}).get("base", {}),
            }
            filled.update(unit)
            filled.setdefault("id", f"{army['owner']}-{aid}-u{i + 1}")
            army["units"][i] = filled
    for sid, settlement in state["settlements"].items():
        settlement.setdefault("name", sid.capitalize())
    return state
