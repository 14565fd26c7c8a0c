"""Who fights when a battle starts in a location: the two sides, as a pure function of who is there.

The attacking faction is the attacker's, the defending faction the target's. Factions guarding the place
that regard the defenders at least Friendly join them; every faction that declared one of the factions on
a side its Ally joins that side (allies of allies only through their own declaration); a third faction
that ends up on both sides stays out. Then units: every unit of a side's factions, except those set to
AVOID (and DEFEND units on the attacking side); a stack fights with its top leader; the attacker and its
target always fight. Units of a faction short of control points may refuse, never the target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .grid import ATTACKERS, DEFENDERS

STANCE_ORDER = ("ally", "friendly", "neutral", "hostile", "enemy")


@dataclass(frozen=True)
class Presence:
    """A unit standing in the location where the battle starts."""

    unit: str
    faction: str
    battle: str = "fight"  # its TACTIC battle setting: avoid, defend or fight
    stack: str | None = None  # the unit it is stacked under
    guarding: bool = False


@dataclass(frozen=True)
class Trigger:
    attacker: str  # the unit that attacks (an ATTACK order, an Enemy on sight, a guard, a MARCH)
    target: str  # the unit attacked


@dataclass
class Engagement:
    attacking_faction: str
    defending_faction: str
    attackers: list[str] = field(default_factory=list)
    defenders: list[str] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)  # factions that stood on both sides
    refused: list[str] = field(default_factory=list)  # units that refused for want of control points
    spectators: list[str] = field(default_factory=list)

    def side_of(self, unit: str) -> str | None:
        if unit in self.attackers:
            return ATTACKERS
        return DEFENDERS if unit in self.defenders else None


def stance(stances: Mapping[str, Mapping[str, str]], holder: str, toward: str) -> str:
    """The stance `holder` keeps toward `toward`: its explicit one, else its default (its own: ally)."""
    if holder == toward:
        return "ally"
    held = stances.get(holder, {})
    return str(held.get(toward, held.get("default", "neutral"))).lower()


def at_least(found: str, wanted: str) -> bool:
    return STANCE_ORDER.index(found) <= STANCE_ORDER.index(wanted)


def _top(unit: str, leaders: Mapping[str, str | None]) -> str:
    seen = {unit}
    while (above := leaders.get(unit)) is not None and above in leaders and above not in seen:
        seen.add(above)
        unit = above
    return unit


def engage(
    present: Sequence[Presence],
    stances: Mapping[str, Mapping[str, str]],
    trigger: Trigger,
    rules: Mapping[str, Any],
    roll: Callable[[str, int], int],
    label: str,
    missing_control: Mapping[str, int] | None = None,
) -> Engagement:
    """The sides of a battle. `missing_control` gives each faction's control points over its limit."""
    by_unit = {one.unit: one for one in present}
    attacking, defending = by_unit[trigger.attacker].faction, by_unit[trigger.target].faction
    factions = sorted({one.faction for one in present})
    sides: dict[str, set[str]] = {ATTACKERS: {attacking}, DEFENDERS: {defending}}
    guards = {one.faction for one in present if one.guarding}
    for faction in sorted(guards - {attacking, defending}):
        if at_least(stance(stances, faction, defending), "friendly"):
            sides[DEFENDERS].add(faction)
    core = {side: set(members) for side, members in sides.items()}
    for faction in factions:  # allies of a side's factions, not allies of those allies
        for side, members in core.items():
            if faction not in members and any(stance(stances, faction, one) == "ally" for one in members):
                sides[side].add(faction)
    both = sorted((sides[ATTACKERS] & sides[DEFENDERS]) - {attacking, defending})
    for side in sides.values():
        side.difference_update(both)
    if attacking == defending:  # a faction attacking its own unit: only the two units fight
        sides = {ATTACKERS: set(), DEFENDERS: set()}

    leaders = {one.unit: one.stack for one in present}
    forced = {trigger.attacker: ATTACKERS, trigger.target: DEFENDERS}
    stack_side = {_top(trigger.attacker, leaders): ATTACKERS, _top(trigger.target, leaders): DEFENDERS}
    placed: dict[str, str] = {}
    for one in sorted(present, key=lambda unit: unit.unit):
        if one.unit in forced:
            placed[one.unit] = forced[one.unit]
            continue
        side = _faction_side(one.faction, sides)
        top = _top(one.unit, leaders)
        if top in stack_side:  # the attacker's and the target's stacks fight whole
            side = stack_side[top]
        elif top != one.unit:  # a stack follows its top leader when he fights, whatever its factions
            leader_side = _faction_side(by_unit[top].faction, sides)
            if leader_side and _joins(by_unit[top].battle, leader_side):
                side = leader_side
        if side is None or not _joins(one.battle, side):
            continue
        placed[one.unit] = side

    result = Engagement(attacking_faction=attacking, defending_faction=defending, withdrawn=both)
    split = sorted(
        faction
        for faction in factions
        if faction not in (attacking, defending)
        and {placed[u] for u in placed if by_unit[u].faction == faction} == {ATTACKERS, DEFENDERS}
    )
    result.withdrawn = sorted({*both, *split})
    per_point = rules["combat"]["control_refusal_per_point"]
    for unit, side in sorted(placed.items()):
        faction = by_unit[unit].faction
        if faction in split and unit not in forced:
            continue
        missing = (missing_control or {}).get(faction, 0)
        if missing > 0 and unit not in forced:  # the attacker and its target always fight
            chance = per_point * missing
            if chance >= 100 or roll(f"{label}/{unit}/refuses", 100) <= chance:
                result.refused.append(unit)
                continue
        (result.attackers if side == ATTACKERS else result.defenders).append(unit)
    fighting = {*result.attackers, *result.defenders}
    result.spectators = sorted(one.unit for one in present if one.unit not in fighting)
    return result


def _joins(setting: str, side: str) -> bool:
    """AVOID keeps a unit out of every battle it is not the target of; DEFEND out of the attacking side."""
    return setting != "avoid" and not (setting == "defend" and side == ATTACKERS)


def _faction_side(faction: str, sides: Mapping[str, set[str]]) -> str | None:
    for side, members in sides.items():
        if faction in members:
            return side
    return None
