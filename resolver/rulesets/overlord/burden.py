"""What a unit or a moving stack weighs, what it can carry in each travel mode, and how it travels a leg.

Weights are counted in thousandths so that a weightless item (a coin) can count as 1/1000 exactly,
without floats: 3000 coins weigh 3. Every number comes from the rules data: the items' catalogue
(``items.<tag>.weight``, ``capacity``, ``equipped_capacity``), the races (``races.<tag>.weight`` and
``capacity`` where given, else ``movement.bodies``), the skills' capacity bonuses
(``skills.<tag>.capacity``, per figure once the skill reaches 1st level) and ``movement`` itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

MODES = ("walk", "ride", "sail", "fly")
MILLI = 1000  # weights and capacities are held in thousandths

# The four kinds of unit; a race's kind comes from the rules data, these are the manual's own tags.
_KIND_OF_TAG = {"hero": "hero", "ldr": "leader", "man": "follower"}


@dataclass(frozen=True)
class Burden:
    """A weight and a capacity per mode, in thousandths."""

    weight: int
    capacity: Mapping[str, int]

    def __add__(self, other: Burden) -> Burden:
        return Burden(
            self.weight + other.weight,
            {mode: self.capacity.get(mode, 0) + other.capacity.get(mode, 0) for mode in MODES},
        )

    def units(self, mode: str) -> float:
        """The capacity in a mode in whole units, for reports."""
        return self.capacity.get(mode, 0) / MILLI


EMPTY = Burden(0, {mode: 0 for mode in MODES})


@dataclass(frozen=True)
class Leg:
    """How a stack travels one leg: the mode and its days, or why it cannot go."""

    mode: str | None
    days: int | None
    excess_percent: int = 0  # over the walking capacity, rounded down, when it walks overloaded
    refused: str | None = None  # 'impassable', 'overloaded' or 'too_long'

    @property
    def possible(self) -> bool:
        return self.refused is None


def movement_rules(rules: Mapping[str, Any]) -> Mapping[str, Any]:
    return rules.get("movement", {})


def race_kind(rules: Mapping[str, Any], race: str) -> str:
    """leader, hero, follower or creature: the race's own kind in the rules data, else the manual's tags."""
    record = rules.get("races", {}).get(race) or {}
    kind = record.get("kind")
    if kind:
        return str(kind)
    return _KIND_OF_TAG.get(race, "creature")


def _body(rules: Mapping[str, Any], race: str) -> tuple[int, Mapping[str, int]]:
    """A figure's weight and capacities: the race's record where it gives them, else the movement defaults."""
    bodies = movement_rules(rules).get("bodies", {})
    fallback = bodies.get(race) or bodies.get("default") or {}
    record = rules.get("races", {}).get(race) or {}
    weight = record.get("weight", fallback.get("weight", 0))
    capacity = record.get("capacity", fallback.get("capacity", {}))
    return int(weight), capacity


def skill_level(rules: Mapping[str, Any], unit: Mapping[str, Any], skill: str) -> int:
    """The level reached with the unit's days of experience: ``skills.<tag>.levels`` are cumulative days."""
    days = int((unit.get("skills") or {}).get(skill, 0))
    thresholds = (rules.get("skills", {}).get(skill) or {}).get("levels", [])
    return sum(1 for needed in thresholds if days >= int(needed))


def _item_weight(record: Mapping[str, Any], count: int) -> int:
    weight = int(record.get("weight", 0))
    # A weightless item still counts a thousandth each, or 10,000 coins would weigh nothing.
    return count * (weight * MILLI if weight > 0 else 1)


def unit_burden(rules: Mapping[str, Any], unit: Mapping[str, Any]) -> Burden:
    """A unit's own weight and capacity per mode: its figures, its items (equipped or carried) and skills."""
    figures = int(unit.get("figures", 1))
    weight, body_capacity = _body(rules, str(unit.get("race", "")))
    total_weight = figures * weight * MILLI
    capacity = {mode: figures * int(body_capacity.get(mode, 0)) * MILLI for mode in MODES}
    catalogue = rules.get("items", {})
    equipped = unit.get("equipped") or {}
    for tag, count in sorted((unit.get("items") or {}).items()):
        record = catalogue.get(tag) or {}
        count = int(count)
        worn = min(int(equipped.get(tag, 0)), count)
        total_weight += _item_weight(record, count)
        carried_capacity = record.get("capacity") or {}
        worn_capacity = record.get("equipped_capacity") or {}
        for mode in MODES:
            loose = int(carried_capacity.get(mode, 0))
            # An equipped item carries what its equipped figure says, else what it carries loose.
            ridden = int(worn_capacity.get(mode, loose))
            capacity[mode] += ((count - worn) * loose + worn * ridden) * MILLI
    for skill in sorted(unit.get("skills") or {}):
        bonus = (rules.get("skills", {}).get(skill) or {}).get("capacity")
        if bonus and skill_level(rules, unit, skill) >= 1:
            for mode in MODES:
                capacity[mode] += figures * int(bonus.get(mode, 0)) * MILLI
    return Burden(total_weight, capacity)


def stack_burden(rules: Mapping[str, Any], units: Iterable[Mapping[str, Any]]) -> Burden:
    """A moving stack is one caravan: every member's weight and capacities add up."""
    total = EMPTY
    for unit in units:
        total = total + unit_burden(rules, unit)
    return total


def choose_leg(rules: Mapping[str, Any], burden: Burden, times: Mapping[str, int | None]) -> Leg:
    """The fastest mode whose capacity carries the stack; else walking overloaded; else refused.

    ``times`` holds the days each mode takes for this leg (None: that way is closed to the mode), as the
    world's ``travel_days`` gives them with the weather.
    """
    limits = movement_rules(rules).get("overload", {})
    factor = int(limits.get("factor", 3))
    refuse_at = int(limits.get("refuse_at_excess_percent", 100))
    longest = int(limits.get("max_days", 60))
    preference = list(movement_rules(rules).get("preference", MODES))
    open_modes = [mode for mode in preference if times.get(mode) is not None]
    if not open_modes:
        return Leg(None, None, refused="impassable")
    fitting = [mode for mode in open_modes if burden.capacity.get(mode, 0) >= burden.weight]
    if fitting:
        # min() keeps the first of equals: the preference order breaks ties (fliers first).
        mode = min(fitting, key=lambda m: int(times[m] or 0))
        days = int(times[mode] or 0)
        if days > longest:
            return Leg(mode, days, refused="too_long")
        return Leg(mode, days)
    walk_days = times.get("walk")
    walk_capacity = burden.capacity.get("walk", 0)
    if walk_days is None:
        return Leg(None, None, refused="overloaded")
    excess = burden.weight - walk_capacity
    if walk_capacity <= 0:  # nothing to walk with: no percentage to tell
        return Leg("walk", None, 0, refused="overloaded")
    excess_percent = excess * 100 // walk_capacity
    if excess * 100 >= refuse_at * walk_capacity:
        return Leg("walk", None, excess_percent, refused="overloaded")
    numerator = int(walk_days) * (walk_capacity + factor * excess)
    days = -(-numerator // walk_capacity)
    if days > longest:
        return Leg("walk", days, excess_percent, refused="too_long")
    return Leg("walk", days, excess_percent)
