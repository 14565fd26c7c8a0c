"""What a GM's ``place`` order must give for a seasons army, so that every step of the season can read it.

The GM phase stores ``data`` as the army's record, as it stands: a field the steps read and the data lacks,
or a unit id another unit already has, would stop the turn half-way. So it is checked here, with the
GM's file, as strictly as a player's order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import factions as faction_records
from ...core.phases import State
from ...engine.ruleset import Game

# The fields of an army record: what the steps read, and the flags they set on it.
ARMY_FIELDS = (
    "owner",
    "location",
    "units",
    "commander",
    "levy",
    "in_fort",
    "besieging",
    "modifiers",
    "concealed",
)
UNIT_FIELDS = ("id", "code", "morale", "hits", "wins")  # what every unit needs
UNIT_FLAGS = ("paid", "exhausted", "routed", "mercenary", "results", "modifiers")  # what the steps may set


def army_problems(game: Game, state: State, data: Mapping[str, Any]) -> list[str]:
    """Why ``data`` cannot be placed as an army; empty when it can."""
    problems = [
        f"'{key}' is not a field of an army; an army has: {', '.join(ARMY_FIELDS)}"
        for key in data
        if key not in ARMY_FIELDS
    ]
    owner = data.get("owner")
    if (
        not isinstance(owner, str)
        or owner not in game.factions
        or not faction_records.is_active(state, owner)
    ):
        active = [f for f in game.factions if faction_records.is_active(state, f)]
        problems.append(f"'owner' must be a nation in the game: {', '.join(active)}")
    if not isinstance(data.get("location"), str) or data["location"] not in state["provinces"]:
        problems.append("'location' must be a province id, such as one of the armies' locations in the state")
    problems += _commander_problems(state, data)
    units = data.get("units")
    if not isinstance(units, list) or not units:
        return [*problems, f"an army needs 'units': a list of units, each with {', '.join(UNIT_FIELDS)}"]
    taken = {unit.get("id") for army in state["armies"].values() for unit in army.get("units", [])}
    for number, unit in enumerate(units, 1):
        said = _unit_problem(game, unit, taken)
        if said:
            return [*problems, f"unit {number}: {said}"]
        taken.add(unit["id"])
    return problems


def _unit_problem(game: Game, unit: Any, taken: set[Any]) -> str:
    if not isinstance(unit, dict):
        return f"a unit is a mapping with {', '.join(UNIT_FIELDS)}"
    missing = [key for key in UNIT_FIELDS if key not in unit]
    if missing:
        return f"it lacks {', '.join(missing)}"
    unknown = [key for key in unit if key not in (*UNIT_FIELDS, *UNIT_FLAGS)]
    if unknown:
        return f"'{unknown[0]}' is not a field of a unit; a unit has: {', '.join(UNIT_FIELDS)}"
    if not isinstance(unit["id"], str) or not unit["id"]:
        return "its 'id' must be text"
    if unit["id"] in taken:
        return f"the id '{unit['id']}' belongs to another unit already; give each unit a new id"
    if unit["code"] not in game.rules["units"]:
        return f"'code' must be one of: {', '.join(game.rules['units'])}"
    levels = [str(level["name"]) for level in game.rules["morale_levels"]]
    if unit["morale"] not in levels:
        return f"'morale' must be one of: {', '.join(levels)}"
    if any(
        isinstance(unit[k], bool) or not isinstance(unit[k], int) or unit[k] < 0 for k in ("hits", "wins")
    ):
        return "'hits' and 'wins' must be whole numbers of 0 or more"
    return ""


def _commander_problems(state: State, data: Mapping[str, Any]) -> list[str]:
    chosen = data.get("commander")
    if chosen is None:
        return []
    record = state["commanders"].get(chosen) if isinstance(chosen, str) else None
    if record is None or record.get("owner") != data.get("owner"):
        return ["'commander' must be a commander of the army's nation (or left out)"]
    if any(army.get("commander") == chosen for army in state["armies"].values()):
        return [f"{chosen} commands another army already; leave 'commander' out"]
    return []
