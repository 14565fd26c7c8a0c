"""A new usurper campaign: a square map of terrains with a few cities, and each usurper's hidden lair with
its two leaders and first unit, far enough from the others that nobody starts next door."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import Any

from ...core.factions import new_faction
from ...core.phases import State
from ...core.rng import stream
from ...core.world import World, generate_square, make_names
from ...engine.ruleset import FactionSetup, fill_factions
from . import landmarks
from . import model as m

Rules = Mapping[str, Any]

# Terrain where no lair is dug and no city stands: a river grid may be entered, not lived in.
UNSETTLED = ("rivers",)


def generate_world(seed: int, rules: Rules, factions: int) -> World:
    spec = rules["world"]
    terrain = tuple((str(name), float(share)) for name, share in spec["terrain"])
    world = generate_square(seed, int(spec["width"]), int(spec["height"]), terrain=terrain, place_share=0)
    names = [*spec["city_names"], *make_names(seed, int(spec["cities"]), "usurper/cities")]
    for grid, name in zip(_city_grids(seed, world, rules), names, strict=False):
        world.locations[grid] = dataclasses.replace(world.locations[grid], place=str(name))
    return world


def _city_grids(seed: int, world: World, rules: Rules) -> list[str]:
    """Cities on settled ground, each at least ``city_spacing`` grids from the others, drawn from the seed."""
    spec = rules["world"]
    rng = stream(seed, "usurper/cities/grids")
    open_ground = [grid for grid in world if world[grid].terrain not in UNSETTLED]
    rng.shuffle(open_ground)
    chosen: list[str] = []
    for grid in open_ground:
        if len(chosen) == int(spec["cities"]):
            break
        if all(world.distance(grid, other) >= int(spec["city_spacing"]) for other in chosen):
            chosen.append(grid)
    return sorted(chosen, key=lambda grid: world[grid].coords[::-1])


def cities_of(world: World, rules: Rules) -> dict[str, dict[str, Any]]:
    """The cities the map shows, by grid: name, size and the standard races that live there."""
    spec = rules["world"]
    sizes = list(spec["city_sizes"])
    races = list(rules["start"]["unit_races"])
    cities = {}
    placed = [grid for grid in world if world[grid].place]
    for index, grid in enumerate(placed):
        cities[grid] = {
            "name": world[grid].place,
            "size": sizes[index % len(sizes)],
            "races": sorted({races[index % len(races)], races[(index + 3) % len(races)]}),
        }
    return cities


def _lair_grids(seed: int, world: World, rules: Rules, count: int) -> list[str]:
    """Lair grids spread over the map, each with a city within a donkey's reach: the first grid, in an
    order drawn from the seed, that lies ``start.city_distance`` grids from its nearest city and at least
    ``start.spacing`` from the lairs placed so far; failing that, 3 grids from them; failing that (a map
    too small or without cities), the open grid farthest from the lairs and cities so far. A usurper
    learns nothing of where the others are from where it is."""
    rng = stream(seed, "usurper/lairs")
    cities = [grid for grid in world if world[grid].place]
    open_ground = [grid for grid in world if world[grid].terrain not in UNSETTLED and grid not in cities]
    rng.shuffle(open_ground)
    chosen: list[str] = []
    spacing = int(rules["start"]["spacing"])
    reach = rules["start"]["city_distance"]
    nearest, farthest = int(reach["nearest"]), int(reach["farthest"])

    def city_near(grid: str) -> bool:
        return any(nearest <= world.distance(grid, city) <= farthest for city in cities) and all(
            world.distance(grid, city) >= nearest for city in cities
        )

    for _ in range(count):
        taken = [*chosen, *cities]

        def apart(grid: str) -> int:
            return min((world.distance(grid, other) for other in chosen), default=spacing)

        def room(grid: str, taken: list[str] = taken) -> int:
            return min((world.distance(grid, other) for other in taken), default=spacing)

        free = [grid for grid in open_ground if grid not in chosen]
        tiers = (
            [grid for grid in free if city_near(grid) and apart(grid) >= spacing],
            [grid for grid in free if city_near(grid) and apart(grid) >= min(spacing, 3)],
            [grid for grid in free if room(grid) >= min(spacing, 3)],
        )
        fitting = next((tier for tier in tiers if tier), [])
        chosen.append(fitting[0] if fitting else max(free, key=room))
    return chosen


def new_unit(rules: Rules, unit_id: str, name: str, race: str, lair: str) -> dict[str, Any]:
    """A level-0 unit of ten of a race, as its race's stat block gives it."""
    stats = rules["races"][race]
    return {
        "id": unit_id,
        "name": name,
        "race": race,
        "level": 0,
        "xp": 0,
        "pax": int(rules["start"]["unit_pax"]),
        "offense": int(stats["offense"]),
        "defense": int(stats["defense"]),
        "strength": int(stats["strength"]),
        "speed": dict(stats["speed"]),
        "max_tools": int(stats["max_tools"]),
        "max_weapons": int(stats["max_weapons"]),
        "skills": {},
        "tools": [],
        "weapons": [],
        "armor": None,
        "mount": None,
        "lair": lair,
        "grumpy": False,
        "unpaid": False,
        "replacements": [],
    }


def new_leader(rules: Rules, leader_id: str, name: str, role: str, bonus: str, lair: str) -> dict[str, Any]:
    start = rules["start"]
    return {
        "id": leader_id,
        "name": name,
        "role": role,
        "race": start["leader_race"],
        "bonus": bonus,
        "hp": int(start["leader_hp"]),
        "healing": 0,
        "skills": {},
        "spells": [],
        "carried": None,
        "donkey": False,
        "lair": lair,
    }


def new_lair(rules: Rules, lair_id: str, grid: str, rooms: list[str]) -> dict[str, Any]:
    obscurity = int(rules["start"]["obscurity"])
    return {
        "id": lair_id,
        "grid": grid,
        "obscurity": {"current": obscurity, "max": obscurity},
        "rooms": [{"type": room, "level": 1, "renovations": []} for room in rooms],
        "storage": {"lumber": 0, "stone": 0, "iron": 0, "foodstuffs": 0},
        "items": [],
        "gems": [],
        "prisoners": [],
    }


def found_usurper(state: State, rules: Rules, seed: int, setup: FactionSetup, index: int, grid: str) -> None:
    """A usurper's record: its gold, its lair at ``grid`` with the starting rooms, two leaders with
    different leader bonuses and one standard unit in the lair."""
    start = rules["start"]
    state["factions"][setup.id] = new_faction(
        setup.id, setup.name, setup.color, gold=int(start["gold"]), leaders={}, units={}, lairs={}, known={}
    )
    lair_id = m.new_id(state, setup.id, "lair")
    m.lairs(state, setup.id)[lair_id] = new_lair(rules, lair_id, grid, list(start["lair_rooms"]))
    bonuses = list(start["leader_bonuses"])
    names = make_names(seed, len(start["leaders"]), f"usurper/leaders/{setup.id}")
    for number, (role, name) in enumerate(zip(start["leaders"], names, strict=True)):
        leader_id = m.new_id(state, setup.id, "l")
        bonus = bonuses[(2 * index + number) % len(bonuses)]
        leader = new_leader(rules, leader_id, name, role["role"], bonus, lair_id)
        m.leaders(state, setup.id)[leader_id] = leader
    races = list(start["unit_races"])
    race = races[index % len(races)]
    unit_id = m.new_id(state, setup.id, "u")
    unit_name = f"{rules['races'][race]['name']} of {setup.name}"
    m.units(state, setup.id)[unit_id] = new_unit(rules, unit_id, unit_name, race, lair_id)
    m.known(state, setup.id)["scouted"] = [grid]


def initial_state(world: World, rules: Rules, factions: list[FactionSetup], seed: int) -> State:
    state: State = {"turn": 1, "cities": cities_of(world, rules), "scores": {}, "factions": {}}
    state["landmarks"] = landmarks.places(rules)  # public places of power (landmarks.py)
    grids = _lair_grids(seed, world, rules, len(factions))
    for index, (setup, grid) in enumerate(zip(factions, grids, strict=True)):
        found_usurper(state, rules, seed, setup, index, grid)
    return state


def fill_state(rules: Rules, partial: State, factions: list[str]) -> State:
    """A whole state from a scenario's part: each usurper gets what it leaves out (gold, empty
    collections), each unit, leader and lair the fields of a new one under what the fixture says."""
    state = copy.deepcopy(dict(partial))
    state.setdefault("turn", 1)
    state.setdefault("cities", {})
    state.setdefault("scores", {})
    fill_factions(state, factions, {"gold": 0, "leaders": {}, "units": {}, "lairs": {}, "known": {}})
    for faction in factions:
        record = m.usurper(state, faction)
        first_lair = next(iter(record["lairs"]), None)
        for lair_id, lair in record["lairs"].items():
            blank = new_lair(rules, lair_id, lair.get("grid", ""), [])
            stored = {**blank["storage"], **lair.get("storage", {})}
            record["lairs"][lair_id] = {**blank, **lair, "storage": stored}
        for unit_id, unit in record["units"].items():
            race = unit.get("race", "humans")
            blank = new_unit(rules, unit_id, unit.get("name", unit_id), race, unit.get("lair", first_lair))
            record["units"][unit_id] = {**blank, **unit}
        for leader_id, leader in record["leaders"].items():
            blank = new_leader(
                rules, leader_id, leader.get("name", leader_id), leader.get("role", "chief"),
                leader.get("bonus", ""), leader.get("lair", first_lair),
            )  # fmt: skip
            record["leaders"][leader_id] = {**blank, **leader}
        m.known(state, faction)
    return state
