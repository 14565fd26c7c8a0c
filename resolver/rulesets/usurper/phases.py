"""The usurper week, step by step (the table itself, with when each step runs, is in rules.yaml).

Orders are carried out in the steps where the game resolved them (spec §1.5): fights in the field first,
then the week's other work, then attacks on lairs at the end of the week (the game's "Silver" rule), then
the week's housekeeping, upkeep in week 4 and the Victory Points every second month. Each order is read
again, against the live state, with the reading the checker used (``reading.py``); an order that can no
longer be carried out is a private ``order_failed`` event.

Each action's procedure belongs to the module that owns the action; the tables below name them by action
(``AT_ONCE``, ``FIELD``, ``WORK``, ``LAIR``), and list the steps of a month's start, the week's end, the
month's upkeep and the count of Victory Points, in the order they run.
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

# Orders carried out as soon as they are read, before anyone sets out: the setup market of week 1.
AT_ONCE: dict[str, Effect] = {outfit.OUTFIT: outfit.outfit_week}
# Fights in the field, before the week's work: an attack or a raid on an encounter (one on a lair waits for
# the week's end), harassing travellers.
FIELD: dict[str, Effect] = {
    "attack": assaults.fight_in_field,
    "raid": assaults.fight_in_field,
    "harass": combat.harass,
}
# The week's other work, each order in its turn.
WORK: dict[str, Effect] = {
    "scout": fieldwork.scout,
    "harvest": fieldwork.harvest_week,
    **dict.fromkeys(works.WORKS, works.carry_out),  # build, renovate, craft, a new lair
    "diplomacy": diplomacy.visit,
    "train": training.train,
    "learn": training.learn,
    "interrogate": prisons.interrogate,
    "explore": explore.explore,
    "rest": healing.rest,
}
# The week's end (the game's Silver rule): attacks on lairs.
LAIR: dict[str, Effect] = {"attack": assaults.attack_lair, "raid": assaults.attack_lair}
# Before any fight of the week, forces of two usurpers in one grid meet.
CONTACT: list[Step] = [assaults.meet_in_field]
# The steps of each table's procedure, in the order they run.
MONTH_START: list[Step] = [happenings.month_start]  # the month's events and the Unique Event's roll
WEEK_END: list[Step] = [
    combat.arrive_replacements,  # men paid for join their units
    works.week_end,  # what no Warehouse holds is lost
    upkeep.run_arrears,  # a missed share paid when the gold is there
    training.week_end,  # experience from fights becomes levels; old near misses are forgotten
    assaults.learn_lairs_from_sightings,  # a lair seen on its own grid is known
    prisons.week_end,  # release, execution and escapes
    healing.week_end,  # a resting leader's week counts
]
UPKEEP: list[Step] = [
    magic.month_end,  # Midas Touch and Cornucopia yield before the upkeep is paid
    upkeep.run_upkeep,
    gm.pay_extras,
]
VICTORY_POINTS: list[Step] = [scoring.tally]


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
