"""A usurper's entities as the rolls and experience read them: who takes part in an action, a leader's
health, a race's abilities, the skills an action serves, and ids of the rules data in words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Record = dict[str, Any]
LEADER, UNIT = "leader", "unit"


def name_in_rules(rules: Mapping[str, Any], section: str, key: str) -> str:
    """An id of the rules data (a race, skill, item, leader bonus) in the words the data give it."""
    entry = (rules.get(section) or {}).get(key)
    if isinstance(entry, Mapping) and entry.get("name"):
        return str(entry["name"])
    return key.replace("_", " ").title()


@dataclass(frozen=True)
class Participants:
    """The entities of one action: the initiator first, then those assisting, split by kind."""

    faction: str
    initiator: str
    leaders: tuple[Record, ...]
    units: tuple[Record, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(str(record["id"]) for record in (*self.leaders, *self.units))

    def assisting(self, leader: Record) -> bool:
        return str(leader["id"]) != self.initiator


def participants(state: Mapping[str, Any], faction: str, by: str, assist: Iterable[str] = ()) -> Participants:
    """Look the initiator and the assistants up in the faction's record; an unknown id is refused."""
    record = state["factions"][faction]
    leaders: list[Record] = []
    units: list[Record] = []
    for entity in (by, *assist):
        if entity in (record.get("leaders") or {}):
            leaders.append(record["leaders"][entity])
        elif entity in (record.get("units") or {}):
            units.append(record["units"][entity])
        else:
            raise ValueError(f"{faction} has no leader or unit '{entity}'")
    return Participants(faction, by, tuple(leaders), tuple(units))


def leader_state(rules: Mapping[str, Any], leader: Record) -> str:
    """'healing', 'damaged' or 'whole': what the leader gives to the actions it joins."""
    full = int(rules["start"]["leader_hp"])
    if int(leader.get("healing") or 0) > 0:
        return "healing"
    if int(leader.get("hp", full)) < full:
        return "damaged"
    return "whole"


def race_of(rules: Mapping[str, Any], entity: Record) -> Mapping[str, Any]:
    return (rules.get("races") or {}).get(str(entity.get("race")), {})


def has_ability(rules: Mapping[str, Any], unit: Record, ability: str) -> bool:
    return ability in (race_of(rules, unit).get("abilities") or [])


def skill_serves(skill: Mapping[str, Any], action: str, resource: str | None) -> bool:
    """Whether a skill belongs to this action (a harvesting skill only to the harvest of its resource)."""
    if action not in (skill.get("actions") or []):
        return False
    return not skill.get("resource") or skill.get("resource") == resource
