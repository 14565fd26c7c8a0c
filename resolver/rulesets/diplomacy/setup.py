"""A new Diplomacy campaign: the seven powers, their 22 units of Spring 1901 and the 34 supply centres,
each home centre owned by its power and the other twelve neutral."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ...core.factions import new_faction, next_id
from ...core.phases import State
from ...core.world import World
from ...engine.ruleset import FactionSetup, fill_factions
from . import model as m
from .geometry import standard_world

Rules = Mapping[str, Any]


def generate_world(seed: int, rules: Rules, factions: int) -> World:
    """The standard map, drawn (``geometry.py``), the same for every seed."""
    return standard_world(m.board())


def powers_for(factions: list[FactionSetup]) -> dict[str, FactionSetup]:
    """Each power and the faction setup that plays it. A setup named by a power's id plays that power;
    the campaign is made with exactly the seven powers (``campaign new`` gives them for this ruleset)."""
    board = m.board()
    by_id = {setup.id: setup for setup in factions}
    unknown = sorted(set(by_id) - set(board.powers))
    if unknown:
        raise ValueError(
            f"a Diplomacy campaign's factions are the seven powers ({', '.join(board.powers)}), "
            f"not {', '.join(unknown)}"
        )
    return {power: by_id[power] for power in board.powers if power in by_id}


def initial_state(world: World, rules: Rules, factions: list[FactionSetup], seed: int) -> State:
    board = m.board()
    playing = powers_for(factions)
    colours = rules["powers"]
    state: State = {"turn": 1, "factions": {}, "units": {}, "centres": {}}
    for power, setup in playing.items():
        name = setup.name if setup.name and setup.name != power else board.power_name(power)
        generic = not setup.color or setup.color.startswith("#888")
        colour = colours[power]["color"] if generic else setup.color
        state["factions"][power] = new_faction(power, name, str(colour), counters={})
    start = rules["start"]
    for unit in board.starting_units():
        if unit.power in playing:
            place_unit(state, unit.power, unit.kind, unit.location)
    for centre in sorted(board.supply_centres, key=board.provinces.index):
        home = board.home_power(centre)
        state["centres"][centre] = home if home in playing else None
    state["phase"] = {"year": int(start["year"]), "season": "spring", "kind": "movement"}
    state["dislodged"] = {}
    state["contested"] = []
    state["convoyed"] = []
    m.record_date(rules, state, 1)
    return state


def place_unit(state: State, power: str, kind: str, location: str) -> str:
    """A new unit of ``power`` at ``location``, with the power's next unit id (``france-u4``)."""
    records = m.unit_records(state)
    unit_id = next_id(state, power, "u", lambda candidate: candidate in records)
    records[unit_id] = {"id": unit_id, "owner": power, "kind": kind, "location": location}
    return unit_id


def fill_state(rules: Rules, partial: State, factions: list[str]) -> State:
    """A whole state from a hand-written part (a test's position): every power's record, each unit's id
    and owner, every supply centre (neutral unless the part says), and the phase (Spring 1901 movement
    unless the part says)."""
    board = m.board()
    state = copy.deepcopy(dict(partial))
    state.setdefault("turn", 1)
    blank = {"status": "active", "missed_turns": 0, "counters": {}}
    fill_factions(state, factions, blank)
    for power in factions:
        if power in board.powers:
            record = state["factions"][power]
            if record.get("name") == power.capitalize():
                record["name"] = board.power_name(power)
            if record.get("color") == "#888888":
                record["color"] = rules["powers"][power]["color"]
    units = state.setdefault("units", {})
    for unit_id, record in units.items():
        record.setdefault("id", unit_id)
    given = state.get("centres") or {}
    state["centres"] = {
        centre: given.get(centre) for centre in sorted(board.supply_centres, key=board.provinces.index)
    }
    state.setdefault("phase", {"year": int(rules["start"]["year"]), "season": "spring", "kind": "movement"})
    state.setdefault("dislodged", {})
    state.setdefault("contested", [])
    state.setdefault("convoyed", [])
    m.record_date(rules, state, int(state["turn"]))
    return state
