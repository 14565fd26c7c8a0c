"""The usurper week, step by step (the table itself, with when each step runs, is in rules.yaml).

Orders are carried out in the steps where the game resolved them (spec §1.5): fights in the field first,
then the week's other work, then attacks on lairs at the end of the week (the game's "Silver" rule), then
the week's housekeeping, upkeep in week 4 and the Victory Points every second month. Each order is read
again, against the live state, with the reading the checker used (``reading.py``); an order that can no
longer be carried out is a private ``order_failed`` event.

Each action's procedure belongs to the module that owns the action; the tables below name them, by action
(``FIELD``, ``WORK``, ``LAIR``), and the steps of the week's end, the month's start and end.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.phases import State
from ...engine.plans import plan_or_failure
from . import (
    assaults,
    combat,
    diplomacy,
    explore,
    fieldwork,
    gm,
    happenings,
    healing,
    magic,
    outfit,
    prisons,
    scoring,
    training,
    upkeep,
    works,
)
from .acting import Context, Plan
from .reading import UsurperReading

Effect = Callable[[Context, State, Plan], None]
Step = Callable[[Context, State], None]

FIELD: dict[str, Effect] = {}  # fights in the field: attack on an encounter, harass, raid
WORK: dict[str, Effect] = {}  # the week's other work, in the order of the orders
LAIR: dict[str, Effect] = {}  # what happens at the end of the week: attacks on lairs
# The steps of the week's housekeeping, of a month's start and end, in the order they run.
WEEK_END: list[Step] = []
MONTH_START: list[Step] = []
UPKEEP: list[Step] = []
VICTORY_POINTS: list[Step] = []

FIELD.update({"attack": combat.fight_encounter, "raid": combat.fight_encounter, "harass": combat.harass})
WEEK_END.append(combat.arrive_replacements)
WORK.update(dict.fromkeys(works.WORKS, works.carry_out))
WEEK_END.append(works.week_end)
WORK["diplomacy"] = diplomacy.visit
WORK.update({"scout": fieldwork.scout, "harvest": fieldwork.harvest_week})
WEEK_END.append(upkeep.run_arrears)
UPKEEP.append(upkeep.run_upkeep)
WORK.update({"train": training.train, "learn": training.learn})
WEEK_END.append(training.week_end)
# Attack and Raid go at an encounter in the field, or at a lair at the week's end; forces of two usurpers in
# one grid meet before any fight of the week.
FIELD.update({"attack": assaults.fight_in_field, "raid": assaults.fight_in_field})
LAIR.update({"attack": assaults.attack_lair, "raid": assaults.attack_lair})
CONTACT: list[Step] = [assaults.meet_in_field]
WEEK_END.append(assaults.learn_lairs_from_sightings)
WORK.update({"interrogate": prisons.interrogate, "explore": explore.explore})
WEEK_END.append(prisons.week_end)
UPKEEP.append(gm.pay_extras)
WORK["rest"] = healing.rest
WEEK_END.append(healing.week_end)
# Orders carried out as soon as they are read, before anyone sets out: the setup market of week 1.
AT_ONCE: dict[str, Effect] = {outfit.OUTFIT: outfit.outfit_week}


def _plans(ctx: Context, state: State) -> dict[str, list[Plan]]:
    """Every usurper's orders read once, at the week's first step that carries orders out, in posting
    order; each reading sees the state as the week left it so far."""
    if not ctx.memory.plans:
        for faction in ctx.posting_order:
            of = ctx.orders.get(faction)
            if of is None or faction not in state["factions"]:
                continue
            reading = UsurperReading(ctx.game, state, faction)
            accepted = []
            for order in of.orders:
                plan = plan_or_failure(ctx, reading, order, reading.read)
                if plan is not None and plan.action in AT_ONCE:
                    AT_ONCE[plan.action](ctx, state, plan)  # done now: the later orders see what it did
                elif plan is not None:
                    accepted.append(plan)
            ctx.memory.plans[faction] = accepted
    return ctx.memory.plans


def _carry_out(ctx: Context, state: State, effects: dict[str, Effect]) -> State:
    for faction, plans in _plans(ctx, state).items():
        for plan in plans:
            effect = effects.get(plan.action)
            if plan.details.get(assaults.SPENT):  # the force met another usurper's and spent its week on it
                continue
            if effect is not None and state["factions"][faction].get("status", "active") == "active":
                effect(ctx, state, plan)
    return state


def _each(steps: list[Step]) -> Callable[[Context, State], State]:
    def run(ctx: Context, state: State) -> State:
        for step in steps:
            step(ctx, state)
        return state

    return run


def first_month(ctx: Context, state: State) -> State:
    """The first month's grace, which every roll of the week reads (``rolls.first_month``)."""
    ctx.memory.first_month = True
    return state


def contacts(ctx: Context, state: State) -> State:
    """Forces of two usurpers acting in the same grid meet, before any fight of the week (spec §1.5)."""
    _plans(ctx, state)
    return _each(CONTACT)(ctx, state)


def field_combat(ctx: Context, state: State) -> State:
    return _carry_out(ctx, state, FIELD)


def actions(ctx: Context, state: State) -> State:
    return _carry_out(ctx, state, WORK)


def lair_attacks(ctx: Context, state: State) -> State:
    return _carry_out(ctx, state, LAIR)


# Victory Points (scoring.py): the count in its months; every week, whether someone has won.
VICTORY_POINTS.append(scoring.tally)
# The month's events and the Unique Event's roll (happenings.py), at the month's start.
MONTH_START.append(happenings.month_start)
# Midas Touch and Cornucopia yield at the month's end, before the upkeep is paid (magic.py).
UPKEEP.insert(0, magic.month_end)

PHASES = {
    "first_month": first_month,
    "month_start": _each(MONTH_START),
    "contacts": contacts,
    "field_combat": field_combat,
    "actions": actions,
    "lair_attacks": lair_attacks,
    "week_end": _each(WEEK_END),
    "upkeep": _each(UPKEEP),
    "victory_points": _each(VICTORY_POINTS),
    "victory": scoring.victory,
}
