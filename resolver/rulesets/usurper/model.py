"""Reading and changing a usurper's records: its leaders, units and lairs, and what it has found.

Everything a usurper owns sits inside its faction record (``state["factions"][id]``), so that a sealed
campaign hides all of it from the others without a rule for each piece. Entities are leaders or units;
both start each week in their home lair (``lair``), as the game's order rows do.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...core.factions import next_id
from ...core.phases import State

LEADER, UNIT = "leader", "unit"
LEADER_SPEED = "leader_speed"  # rules data: a leader's overland speed, and with a donkey

Record = dict[str, Any]


def usurper(state: Mapping[str, Any], faction: str) -> Record:
    return state["factions"][faction]


def usurpers(state: Mapping[str, Any]) -> list[str]:
    """The usurpers still in the game, in id order."""
    return sorted(f for f, record in state["factions"].items() if record.get("status", "active") == "active")


def leaders(state: Mapping[str, Any], faction: str) -> dict[str, Record]:
    return usurper(state, faction).setdefault("leaders", {})


def units(state: Mapping[str, Any], faction: str) -> dict[str, Record]:
    return usurper(state, faction).setdefault("units", {})


def lairs(state: Mapping[str, Any], faction: str) -> dict[str, Record]:
    return usurper(state, faction).setdefault("lairs", {})


def known(state: Mapping[str, Any], faction: str) -> Record:
    """What the usurper has found: grids scouted, settlements, nodes, encounters, near misses."""
    found = usurper(state, faction).setdefault("known", {})
    for key in ("settlements", "nodes", "encounters"):
        found.setdefault(key, {})
    for key in ("scouted", "pf_memory"):
        found.setdefault(key, [])
    return found


def kind_of(state: Mapping[str, Any], faction: str, entity_id: str) -> str | None:
    if entity_id in leaders(state, faction):
        return LEADER
    if entity_id in units(state, faction):
        return UNIT
    return None


def entity(state: Mapping[str, Any], faction: str, entity_id: str) -> Record | None:
    return leaders(state, faction).get(entity_id) or units(state, faction).get(entity_id)


def entities(state: Mapping[str, Any], faction: str) -> Iterator[tuple[str, Record]]:
    """Every leader, then every unit, as (kind, record)."""
    for record in leaders(state, faction).values():
        yield LEADER, record
    for record in units(state, faction).values():
        yield UNIT, record


def entities_by_id(state: Mapping[str, Any], faction: str) -> dict[str, Record]:
    return {**leaders(state, faction), **units(state, faction)}


def home_lair(state: Mapping[str, Any], faction: str, record: Mapping[str, Any]) -> Record | None:
    """The lair an entity starts its week from: its own, else the usurper's first."""
    held = lairs(state, faction)
    return held.get(str(record.get("lair"))) or next(iter(held.values()), None)


def lair_at(state: Mapping[str, Any], faction: str, grid: str) -> Record | None:
    return next((lair for lair in lairs(state, faction).values() if lair["grid"] == grid), None)


def all_lairs(state: Mapping[str, Any]) -> Iterator[tuple[str, Record]]:
    """Every usurper's every lair, as (owner, lair): what a scout may stumble on."""
    for faction in usurpers(state):
        for lair in lairs(state, faction).values():
            yield faction, lair


def new_id(state: State, faction: str, kind: str) -> str:
    """A fresh id for a usurper's new leader (``l``), unit (``u``), lair (``lair``) or encounter (``e``)."""
    record = usurper(state, faction)
    taken = {*record.get("leaders", {}), *record.get("units", {}), *record.get("lairs", {})}
    taken |= set(known(state, faction)["encounters"])
    return next_id(state, faction, kind, lambda candidate: candidate in taken)


def overland_speed(rules: Mapping[str, Any], kind: str, record: Mapping[str, Any]) -> int:
    """How many grids an entity may go to act (Chebyshev distance): a unit's own, at least the horses'
    speed when mounted; a leader's from the rules data, more with a donkey."""
    speeds = rules[LEADER_SPEED]
    if kind == LEADER:
        return int(speeds["donkey"] if record.get("donkey") else speeds["base"])
    speed = int(record["speed"]["overland"])
    if record.get("mount") and (record["mount"] or {}).get("item") == "horses":
        speed = max(speed, int(speeds["horses"]))
    return speed


def storage(lair: Record) -> dict[str, int]:
    return lair.setdefault("storage", {})


def store(lair: Record, resource: str, amount: int) -> None:
    held = storage(lair)
    held[resource] = int(held.get(resource, 0)) + int(amount)


def missing_pax(unit: Mapping[str, Any], rules: Mapping[str, Any]) -> int:
    return max(0, int(rules["start"]["unit_pax"]) - int(unit["pax"]))


def name_of(state: Mapping[str, Any], faction: str, entity_id: str) -> str:
    record = entity(state, faction, entity_id)
    return str(record["name"]) if record else entity_id
