"""What a new campaign adds beyond the factions: the bands the outlaws and the creatures start with (rules
``npc_bands``), one next to each start city, the kinds taking turns, so that the factions' first journeys
meet someone to fight.

A band is a leader with its followers stacked beneath it, or a unit of creatures that leads itself. Where
it stands is drawn from the seed, labelled by the start city's id, so adding a faction never moves the
bands of the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...core.phases import State
from ...core.rng import stream
from ...core.world import World
from . import model as m

Rules = Mapping[str, Any]
# setup.new_unit: (rules, faction, name, race, figures, location) -> a unit record
MakeUnit = Callable[[Rules, str, str, str, int, str], dict[str, Any]]
UNSETTLED = ("water", "ocean", "lake", "mountains")  # no band starts where nobody can walk


def home_territory(world: World, location: str) -> str:
    """The territory around a place: its parent, or for a stand-in city drawn without one, its only
    neighbour."""
    loc = world[location]
    if loc.parent is not None:
        return world.territory(location)
    if len(loc.neighbours) == 1 and world[loc.neighbours[0]].parent is None and loc.terrain == "city":
        return loc.neighbours[0]
    return location


def land_neighbours(world: World, territory: str) -> list[str]:
    """The territories next to ``territory`` that a band on foot can stand in (no inner place)."""
    return [
        other
        for other in world.neighbours(territory)
        if world[other].parent is None
        and world[other].terrain not in UNSETTLED
        and not _inner_of(world, other, territory)
    ]


def _inner_of(world: World, place: str, territory: str) -> bool:
    """A stand-in city hangs off its territory with no parent recorded: it is inner all the same."""
    return world[place].terrain == "city" and world[place].neighbours == (territory,)


def place_bands(
    state: State, world: World, rules: Rules, seed: int, start_places: list[str], make_unit: MakeUnit
) -> None:
    """One band per start place, in the order given, next to it (never on a start territory)."""
    bands = list(rules.get("npc_bands") or [])
    if not bands:
        return
    homes = {home_territory(world, place) for place in start_places}
    for index, place in enumerate(start_places):
        band = bands[index % len(bands)]
        if band["faction"] not in state["factions"]:
            continue
        choices = [t for t in land_neighbours(world, home_territory(world, place)) if t not in homes]
        if not choices:
            continue
        where = stream(seed, f"overlord/npcs/{place}").choice(sorted(choices, key=_number))
        _band(state, rules, band, where, make_unit)


def _number(loc_id: str) -> tuple[int, str]:
    digits = "".join(ch for ch in loc_id if ch.isdigit())
    return (int(digits) if digits else 0, loc_id)


def _band(state: State, rules: Rules, band: Mapping[str, Any], where: str, new_unit: MakeUnit) -> None:
    faction, name = str(band["faction"]), str(band["name"])
    skills = {str(k): int(v) for k, v in (band.get("skills") or {}).items()}
    leader_id = None
    if band.get("leader"):
        leader_id = m.next_unit_id(state)
        leader = new_unit(rules, faction, f"Captain of the {name}", str(band["leader"]), 1, where)
        leader["skills"] = dict(skills)
        leader["arrival"] = m.next_arrival(state, where)
        m.units(state)[leader_id] = leader
    unit_id = m.next_unit_id(state)
    unit = new_unit(rules, faction, name, str(band["race"]), int(band["figures"]), where)
    unit["skills"] = {**_talents(rules, str(band["race"])), **skills}
    unit["stack"] = leader_id
    if int(band.get("coins", 0)):
        unit["items"] = {"coin": int(band["coins"])}
    unit["arrival"] = m.next_arrival(state, where)
    m.units(state)[unit_id] = unit


def _talents(rules: Rules, race: str) -> dict[str, int]:
    talents = ((rules.get("races") or {}).get(race) or {}).get("talents") or {}
    return {str(k): int(v) for k, v in talents.items()}
