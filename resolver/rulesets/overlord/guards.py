"""Guarding: GUARD and PATROL, the arrival check, guards against guards and against pillagers.

A day of GUARD leaves the rules data's guard effect on the unit for that day (``effects: {guard: 1}``,
ended by the day's effect expiry), so "guarding" always means "guarded today". While it guards, the
unit's full-day order works as if it had half its figures (:func:`working_figures`), and it may not WORK,
TEACH or be taught (:func:`may_work`).

Battles the guards start are queued for the day's battle phase (:func:`start_battle`); the combat
helper's wiring takes them from there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from . import sight, stances, titles
from .sight import is_guarding  # the guard effect: sight reads it too, so it lives below both

__all__ = [
    "Arrival",
    "BattleCall",
    "battle_queue",
    "can_guard",
    "guard_clashes",
    "guards_at",
    "is_guarding",
    "may_work",
    "on_arrival",
    "pillage_defenders",
    "start_battle",
    "working_figures",
]

Rules = Mapping[str, Any]
Sees = Callable[[Mapping[str, Any], Mapping[str, Any]], bool]  # (guard, unit) -> whether it can see it


@dataclass(frozen=True)
class BattleCall:
    """A battle to fight in today's battle phase: who attacks whom, where, why, on which day."""

    attacker: str  # unit id
    defender: str  # unit id
    trigger: str  # guard_enemy, march, guard_clash, pillage, attack …
    location: str
    day: int

    def to_data(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "trigger": self.trigger,
            "location": self.location,
            "day": self.day,
        }


@dataclass(frozen=True)
class Arrival:
    """What guards make of a stack arriving: ``pass``, ``retreat`` (it turns back) or ``battle``."""

    outcome: str
    guard: str | None = None
    unit: str | None = None


def battle_queue(month: Any) -> list[BattleCall]:
    """The month's list of battles waiting for the battle phase (the turn memory holds it)."""
    queue = getattr(month, "battles", None)
    if queue is None:
        queue = month.ctx.memory.battles
    return queue


def start_battle(month: Any, attacker: str, defender: str, trigger: str) -> BattleCall:
    """Queue a battle for today's battle phase; the same pair on the same day is queued once."""
    where = str(month.state["units"][defender]["location"])
    call = BattleCall(attacker, defender, trigger, where, int(month.day))
    queue = battle_queue(month)
    if not any({c.attacker, c.defender} == {attacker, defender} and c.day == call.day for c in queue):
        queue.append(call)
    return call


# --- who guards ----------------------------------------------------------------------------------


def working_figures(rules: Rules, unit: Mapping[str, Any]) -> int:
    """The figures a unit's full-day order works with: half, rounded down, while it guards."""
    figures = int(unit.get("figures", 0))
    return figures // 2 if is_guarding(rules, unit) else figures


def may_work(rules: Rules, unit: Mapping[str, Any]) -> bool:
    """A guard may not WORK, TEACH or be taught."""
    return not is_guarding(rules, unit)


def can_guard(
    state: Mapping[str, Any], rules: Rules, reach: titles.Reach, unit: Mapping[str, Any]
) -> str | None:
    """Why the unit may not guard where it stands, or None when it may: it needs the guard skill, and a
    land title of its faction covering the place (the exempt NPC factions need none)."""
    need = rules["guarding"]["skill"]
    if titles.skill_level(rules, unit, need["skill"]) < int(need["level"]):
        return "lacks the skill"
    if unit.get("moving"):
        return "is on the road"
    owner = unit.get("owner")
    if owner in rules["guarding"]["exempt"]:
        return None
    location = str(unit.get("location"))
    if not any(faction == owner for faction, _, _ in titles.land_owners(state, rules, reach, location)):
        return "its faction holds no land title here"
    return None


def guard(state: MutableMapping[str, Any], rules: Rules, unit_id: str) -> None:
    """Mark a unit as guarding for the rest of today."""
    effects = state["units"][unit_id].setdefault("effects", {})
    effects[rules["guarding"]["effect"]] = max(1, int(effects.get(rules["guarding"]["effect"], 0)))


def guards_at(state: Mapping[str, Any], rules: Rules, location: str) -> list[str]:
    """Units guarding a place today, in order of arrival there (then by id)."""
    found = [
        (int(u.get("arrival", 0)), uid)
        for uid, u in state["units"].items()
        if u.get("location") == location and is_guarding(rules, u)
    ]
    return [uid for _, uid in sorted(found)]


# --- the arrival check ---------------------------------------------------------------------------


def stack_members(state: Mapping[str, Any], leader: str) -> list[str]:
    """The leader and every unit stacked under it at any depth, leader first, each under its own leader
    in arrival order (the report's order)."""
    under: dict[str, list[tuple[int, str]]] = {}
    for uid, u in state["units"].items():
        if u.get("stack"):
            under.setdefault(str(u["stack"]), []).append((int(u.get("arrival", 0)), uid))
    found, todo = [], [leader]
    while todo:
        here = todo.pop(0)
        found.append(here)
        todo[0:0] = [uid for _, uid in sorted(under.get(here, []))]
    return found


def on_arrival(
    month: Any,
    stack: str,
    *,
    mode: str | None = None,
    order: str | None = None,
    sees: Sees | None = None,
    guard_modes: Callable[[Mapping[str, Any]], Iterable[str]] | None = None,
) -> Arrival:
    """The check when the stack led by ``stack`` enters its destination (the unit's ``location`` already).

    Every guard there, in order of arrival, looks at the stack's units in report order: an Enemy is
    attacked at once (checked first, over all guards); else a Hostile unit turns a MOVE back, and a
    MARCH makes the stack's leader attack the guard. Guards see only what their observation allows, and
    stop only arrivals they could make themselves (a flying stack passes guards on foot)."""
    state, rules = month.state, month.rules
    leader = state["units"][stack]
    moving = leader.get("moving") or {}
    mode = mode or str(moving.get("mode", "walk"))
    order = (order or str(moving.get("order", "MOVE"))).upper()
    sees = sees or (lambda g, u: sight.unit_sees(rules, state, g, u))
    modes = guard_modes or (lambda g: rules["guarding"]["modes"])
    location = str(leader["location"])
    members = stack_members(state, stack)
    watchers = [
        g
        for g in guards_at(state, rules, location)
        if g not in members and mode in set(modes(state["units"][g]))
    ]

    def seen(hold: str) -> Iterable[tuple[str, str]]:
        for g in watchers:
            guard_unit = state["units"][g]
            for uid in members:
                unit = state["units"][uid]
                if unit["owner"] == guard_unit["owner"] or not sees(guard_unit, unit):
                    continue
                if stances.stance(state, rules, guard_unit["owner"], unit["owner"]) == hold:
                    yield g, uid

    for g, uid in seen("enemy"):
        start_battle(month, g, uid, "guard_enemy")
        return Arrival("battle", g, uid)
    for g, uid in seen("hostile"):
        if order == "MARCH":
            start_battle(month, stack, g, "march")
            return Arrival("battle", g, uid)
        return Arrival("retreat", g, uid)
    return Arrival("pass")


def guard_clashes(month: Any) -> list[BattleCall]:
    """Two factions guarding one place, one Hostile or worse toward the other: the first guard of the
    hostile faction attacks the first guard of the other. Places and guards in a stable order."""
    state, rules = month.state, month.rules
    order = stances.stance_order(rules)
    hostile = order.index("hostile")
    called = []
    places = sorted({str(u["location"]) for u in state["units"].values() if is_guarding(rules, u)})
    for location in places:
        first: dict[str, str] = {}
        for g in guards_at(state, rules, location):
            first.setdefault(str(state["units"][g]["owner"]), g)
        factions = sorted(first)
        for a in factions:
            for b in factions:
                if a >= b:
                    continue
                ab = order.index(stances.stance(state, rules, a, b))
                ba = order.index(stances.stance(state, rules, b, a))
                if max(ab, ba) < hostile:
                    continue
                attacker, defender = (first[a], first[b]) if ab >= ba else (first[b], first[a])
                called.append(start_battle(month, attacker, defender, "guard_clash"))
    return called


def pillage_defenders(state: Mapping[str, Any], rules: Rules, pillager: str) -> list[str]:
    """The guards at the pillager's place that will attack it: those whose faction does not hold the
    pillager's faction as an ally."""
    unit = state["units"][pillager]
    return [
        g
        for g in guards_at(state, rules, str(unit["location"]))
        if not stances.may(state, rules, unit["owner"], state["units"][g]["owner"], "pillage")
    ]
