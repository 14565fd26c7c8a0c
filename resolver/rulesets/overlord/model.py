"""Reading the overlord state: units where they stand and in report order, stacks, new ids, skill levels.

Small functions with no dice; every procedure of the month reads the state through them, so the report
order (outside units first, by arrival, each unit's stack right after it) is worked out in one place.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from ...core.phases import State

Rules = Mapping[str, Any]
Unit = dict[str, Any]

LEADER_RACES = ("hero", "ldr")  # single-figure units that lead stacks and give leaders' orders
# The manual's temporary ids: the faction's id, 'n', U (unit) or B (structure), two digits.
TEMPORARY_MARK = "n"


def units(state: State) -> dict[str, Unit]:
    return state.setdefault("units", {})


def unit(state: State, unit_id: str) -> Unit | None:
    return (state.get("units") or {}).get(unit_id)


def owned(state: State, faction: str) -> dict[str, Unit]:
    """A faction's units, by id, in id order."""
    # Filtered before sorting: the ids are unique, so the order is the same, and only the faction's
    # units are sorted (every order read asks for them).
    mine = [(uid, u) for uid, u in units(state).items() if u.get("owner") == faction]
    return dict(sorted(mine, key=_id_key))


def _id_key(item: tuple[str, Any]) -> tuple[int, str]:
    return (_id_number(item[0]), item[0])


@functools.lru_cache(maxsize=65536)
def _id_number(text: str) -> int:
    """The digits of an id read as one number (0 without any): ids sort by it, and every sort of the
    month's units asks it of the same few hundred ids again."""
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits) if digits else 0


def is_leader(record: Mapping[str, Any]) -> bool:
    return record.get("race") in LEADER_RACES


def locations_in_order(state: State, world_order: list[str]) -> list[str]:
    """The locations the month visits, in the world's order, limited to those where a unit stands."""
    occupied = {u.get("location") for u in units(state).values()}
    return _in_world_order(occupied, world_order)


def _in_world_order(occupied: Collection[Any], world_order: list[str]) -> list[str]:
    known = set(world_order)
    return [loc for loc in world_order if loc in occupied] + sorted(
        loc for loc in occupied if loc is not None and loc not in known
    )


def at_location(state: State, location: str) -> list[str]:
    """The units at a location in report order: those outside any structure first, then each structure's
    occupants; within a group, stack leaders by arrival, each followed at once by its stack (depth first)."""
    return _in_report_order({uid: u for uid, u in units(state).items() if u.get("location") == location})


def by_location(state: State) -> dict[Any, dict[str, Unit]]:
    """Every unit grouped by its location, each group in the state's order, in one pass over the state:
    ``in_report_order`` of a group is ``at_location`` of its place, for a caller that visits every place
    (asking each place for its units scans every unit once per place)."""
    found: dict[Any, dict[str, Unit]] = {}
    for uid, record in units(state).items():
        found.setdefault(record.get("location"), {})[uid] = record
    return found


def occupied_in_order(grouped: Mapping[Any, Any], world_order: list[str]) -> list[str]:
    """``locations_in_order`` of the locations of a ``by_location`` grouping."""
    return _in_world_order(grouped, world_order)


def in_report_order(here: Mapping[str, Unit]) -> list[str]:
    """The ids of one location's units (one group of ``by_location``) in report order."""
    return _in_report_order(here)


def _in_report_order(here: Mapping[str, Unit]) -> list[str]:
    """``at_location`` for the units of one location, given in the state's order."""
    children: dict[str | None, list[str]] = {}
    for uid, u in here.items():
        parent = u.get("stack")
        children.setdefault(parent if parent in here else None, []).append(uid)
    for ids in children.values():
        ids.sort(key=lambda uid: (int(here[uid].get("arrival", 0)), _id_key((uid, None))))

    ordered: list[str] = []

    def walk(uid: str) -> None:
        ordered.append(uid)
        for child in children.get(uid, []):
            walk(child)

    tops = children.get(None, [])
    # Outside units first, then the structures' occupants by structure id.
    for structure in [None, *sorted({here[uid].get("structure") for uid in tops} - {None}, key=str)]:
        for uid in tops:
            if here[uid].get("structure") == structure:
                walk(uid)
    return ordered


def report_order(state: State, world_order: list[str]) -> list[str]:
    """Every unit of the state, location by location, in report order: the order the day runs them."""
    grouped = by_location(state)
    return [uid for loc in _in_world_order(grouped, world_order) for uid in _in_report_order(grouped[loc])]


def leader_chain(state: State, unit_id: str) -> list[str]:
    """The units above ``unit_id`` in its stack, nearest first (its leader, its leader's leader...)."""
    chain: list[str] = []
    current = unit(state, unit_id)
    while current is not None and current.get("stack") and current["stack"] not in chain:
        chain.append(current["stack"])
        current = unit(state, current["stack"])
    return chain


def stack_of(state: State, leader_id: str) -> list[str]:
    """The units stacked under a leader at any depth, in report order."""
    # A unit is below the leader when the leader is on its chain of leaders (``leader_chain``), that is,
    # when the leader is reached from it by following ``stack``: found by walking the links backwards
    # from the leader, instead of building every unit's chain.
    below: dict[Any, list[str]] = {}
    every = units(state)
    for uid, record in every.items():
        parent = record.get("stack")
        if parent:
            below.setdefault(parent, []).append(uid)
    found: set[str] = set()
    waiting = list(below.get(leader_id, ()))
    while waiting:
        uid = waiting.pop()
        if uid not in found:
            found.add(uid)
            waiting.extend(below.get(uid, ()))
    return sorted(found, key=lambda uid: (int(every[uid].get("arrival", 0)), uid))


def next_unit_id(state: State) -> str:
    """A permanent id for a new unit (``U<n>``), counted in the state's ``next_ids``."""
    return f"U{_next(state, 'unit')}"


def next_structure_id(state: State) -> str:
    return f"B{_next(state, 'structure')}"


def _next(state: State, kind: str) -> int:
    counters = state.setdefault("next_ids", {})
    number = int(counters.get(kind, 1))
    counters[kind] = number + 1
    return number


def next_arrival(state: State, location: str) -> int:
    """The report position a unit arriving at ``location`` takes: after every unit already there."""
    here = [int(u.get("arrival", 0)) for u in units(state).values() if u.get("location") == location]
    return max(here, default=0) + 1


def is_temporary(faction: str, text: str, kind: str = "U") -> bool:
    """Whether ``text`` is one of ``faction``'s temporary ids of that kind (``rednU07``): case-sensitive."""
    stem = f"{faction}{TEMPORARY_MARK}{kind}"
    return text.startswith(stem) and len(text) == len(stem) + 2 and text[len(stem) :].isdigit()


def temporary_owner(text: str, factions: Mapping[str, Any], kind: str = "U") -> str | None:
    """The faction a temporary id belongs to, or None when it is no faction's."""
    return next((faction for faction in factions if is_temporary(faction, text, kind)), None)


def skill_levels(rules: Rules, skill: str) -> list[int]:
    """The days of experience each level of a skill needs, cumulative (the skills chapter's table)."""
    entry = (rules.get("skills") or {}).get(skill) or {}
    return [int(days) for days in entry.get("levels", [])]


def skill_level(rules: Rules, skill: str, days: int) -> int:
    """The level ``days`` of experience give: how many thresholds they reach."""
    return sum(1 for threshold in skill_levels(rules, skill) if days >= threshold)


def unit_level(rules: Rules, record: Mapping[str, Any], skill: str) -> int:
    return skill_level(rules, skill, int((record.get("skills") or {}).get(skill, 0)))


def season(game_calendar: Any, turn: int) -> str:
    return str(game_calendar.date(turn).season)


def place(state: State, location: str) -> dict[str, Any]:
    return state.setdefault("places", {}).setdefault(location, {})


def structure(state: State, structure_id: str) -> dict[str, Any] | None:
    return (state.get("structures") or {}).get(structure_id)


def factions_units(state: State) -> Iterator[tuple[str, Unit]]:
    yield from units(state).items()


def unit_name(state: State, unit_id: str) -> str:
    """A unit's name as a reader sees it; a unit without one is named by its race's word in the event."""
    record = unit(state, unit_id)
    return str((record or {}).get("name") or "an unnamed unit")
