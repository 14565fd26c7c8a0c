"""Taxes, occupation and pillage.

A place's tax pool (``places.<id>.taxes``, set each month when the places evolve) goes to the fund of the
faction whose land title covers it, the most local title first, at the end of the month: autumn adds a
quarter, and an occupied place pays nothing. An occupier is a faction other than the owner (and not its
ally) with enough armed figures there: one per fifty inhabitants, at least twenty, at most fifty.

PILLAGE takes coins from the pool day by day: each armed figure of the pillaging unit takes the rules
data's rate, more for each combat level above the second. It needs the skill, arms, a big enough force
of the pillager's faction in the place, and the owner's alliance; guards not allied to the pillager
attack it instead.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from . import guards, stances, titles

__all__ = [
    "Pillage",
    "armed_figures",
    "collect_taxes",
    "is_armed",
    "occupation_threshold",
    "occupiers",
    "pillage",
]

Rules = Mapping[str, Any]


def is_armed(rules: Rules, unit: Mapping[str, Any]) -> bool:
    """Able to do harm: a weapon equipped, or a skill that fights bare-handed."""
    items = rules.get("items") or {}
    for tag, count in (unit.get("equipped") or {}).items():
        if int(count) > 0 and (items.get(tag) or {}).get("category") == "weapon":
            return True
    return any(titles.skill_level(rules, unit, s) >= 1 for s in rules["taxation"]["armed_skills"])


def armed_figures(rules: Rules, unit: Mapping[str, Any]) -> int:
    """Figures that can do harm: those holding an equipped weapon, or all of them with a bare-handed
    skill (a unit's skill is every figure's)."""
    if any(titles.skill_level(rules, unit, s) >= 1 for s in rules["taxation"]["armed_skills"]):
        return int(unit.get("figures", 0))
    items = rules.get("items") or {}
    weapons = sum(
        int(count)
        for tag, count in (unit.get("equipped") or {}).items()
        if (items.get(tag) or {}).get("category") == "weapon"
    )
    return min(int(unit.get("figures", 0)), weapons)


def occupation_threshold(rules: Rules, population: int) -> int:
    rule = rules["taxation"]["occupation"]
    needed = -(-int(population) // int(rule["per_inhabitants"]))
    return max(int(rule["minimum"]), min(int(rule["maximum"]), needed))


def _force(state: Mapping[str, Any], rules: Rules, location: str) -> dict[str, int]:
    force: dict[str, int] = {}
    for unit in state["units"].values():
        if unit.get("location") == location and not unit.get("moving"):
            force[str(unit["owner"])] = force.get(str(unit["owner"]), 0) + armed_figures(rules, unit)
    return force


def occupiers(state: Mapping[str, Any], rules: Rules, location: str, owner: str | None) -> list[str]:
    """Factions occupying a place against its owner: enough armed figures, and not the owner's allies."""
    population = int(((state.get("places") or {}).get(location) or {}).get("population", 0))
    needed = occupation_threshold(rules, population)
    return [
        faction
        for faction, figures in sorted(_force(state, rules, location).items())
        if figures >= needed and not (owner and stances.may(state, rules, faction, owner, "tax"))
    ]


def collect_taxes(ctx: Any, state: MutableMapping[str, Any], rules: Rules, reach: titles.Reach) -> None:
    """Month end: every place's tax pool to its owner's fund, unless occupied; the pool is then spent."""
    autumn = ctx.date.season == rules["taxation"]["autumn"]
    held = titles.held_titles(state)  # no title changes hands while the taxes are paid
    for location, place in sorted((state.get("places") or {}).items()):
        pool = int((place or {}).get("taxes", 0))
        if pool <= 0:
            continue
        owners = titles.land_owners(state, rules, reach, location, held)
        if not owners:
            continue
        owner = owners[0][0]
        held_by = occupiers(state, rules, location, owner)
        if held_by:
            names = [str(state["factions"][f].get("name") or f) for f in held_by]
            ctx.emit(
                "taxes_withheld", actors=[owner], place=location, occupiers=held_by, occupier_names=names,
                visible_to=[owner],
            )  # fmt: skip
            continue
        amount = pool * (100 + (int(rules["taxation"]["autumn_bonus"]) if autumn else 0)) // 100
        fund = state["factions"][owner]
        fund["fund"] = int(fund.get("fund", 0)) + amount
        ctx.emit("taxes_collected", actors=[owner], place=location, amount=amount, visible_to=[owner])


@dataclass
class Pillage:
    done: bool
    reason: str = ""
    taken: int = 0
    defenders: tuple[str, ...] = ()


def pillage(state: MutableMapping[str, Any], rules: Rules, reach: titles.Reach, unit_id: str) -> Pillage:
    """One day of PILLAGE by one unit (the guards' attack is the caller's to queue)."""
    unit = state["units"][unit_id]
    rule = rules["taxation"]["pillage"]
    need = rule["skill"]
    if titles.skill_level(rules, unit, need["skill"]) < int(need["level"]) or not is_armed(rules, unit):
        return Pillage(False, "needs combat skill and arms")
    location = str(unit["location"])
    force = _force(state, rules, location).get(str(unit["owner"]), 0)
    if force < int(rule["minimum"]):
        return Pillage(False, "the force is too small")
    defenders = guards.pillage_defenders(state, rules, unit_id)
    if defenders:
        return Pillage(False, "guards stand in the way", defenders=tuple(defenders))
    owners = [faction for faction, _, _ in titles.land_owners(state, rules, reach, location)]
    if any(not stances.may(state, rules, unit["owner"], owner, "pillage") for owner in owners):
        return Pillage(False, "the owner is no ally")
    place = state["places"].setdefault(location, {})
    pool = int(place.get("taxes", 0))
    combat = titles.skill_level(rules, unit, need["skill"])
    rate = int(rule["rate"]) + max(0, combat - int(rule["level_bonus_above"]))
    taken = min(pool, armed_figures(rules, unit) * rate)
    place["taxes"] = pool - taken
    if taken:
        items = unit.setdefault("items", {})
        items["coin"] = int(items.get("coin", 0)) + taken
    return Pillage(True, taken=taken)
