"""The overlord month, procedure by procedure (the table itself, with the day block, is in rules.yaml).

Before day 1 the faction orders take effect and each UNIT block of the order files replaces its unit's
queue. Each day every unit that is neither travelling nor idle runs its queue through the engine's program
service (``core.programs.run_day``), place by place in the world's order and in report order within a
place; the executors of ``executors.EXECUTORS`` carry out the lines. After day 30 come wages and upkeep,
then the month closes: queues written for temporary ids never created are forgotten.

Phases other parts of the ruleset fill in are named here and do nothing yet: their comments say whose.
"""

from __future__ import annotations

from ...core.phases import State
from ...core.programs import Line, Program, Result, drop_references, parse_line, run_day
from . import economy, executors, orders, production
from . import model as m
from .month import Context, Month

WORK = parse_line("WORK")  # the invisible last line of every queue


def _start(ctx: Context, state: State) -> None:
    """The programs of every unit, read once from the state at the month's start."""
    memory = ctx.memory
    if memory.started:
        return
    memory.started = True
    for unit_id, unit in m.units(state).items():
        memory.programs[unit_id] = orders.stored_program(unit.get("orders") or [])


def _store(ctx: Context, state: State) -> None:
    """The programs written back to their units, as the template shows them next month."""
    for unit_id, program in ctx.memory.programs.items():
        unit = m.unit(state, unit_id)
        if unit is not None:
            unit["orders"] = program.to_data()


def press_rewards(ctx: Context, state: State) -> State:
    # The titles helper's press.py: last month's press earns coins for the authors' funds.
    return state


def faction_orders(ctx: Context, state: State) -> State:
    """Faction orders, then each UNIT block's new queue, in posting order."""
    _start(ctx, state)
    for faction in ctx.posting_order:
        of = ctx.orders.get(faction)
        if of is None or faction not in state["factions"]:
            continue
        for order in of.orders:
            reading = orders.read_order(state, faction, order)
            if reading.problems:
                ctx.order_failed(faction, order, reading.problems[0][1])
                continue
            if order.action == orders.FACTION:
                for line in reading.lines:
                    orders.apply_faction_line(ctx, state, faction, line)
            else:
                ctx.memory.programs[reading.unit] = Program(list(reading.lines))
                if m.unit(state, reading.unit) is None:
                    ctx.memory.temporary.add(reading.unit)
    _store(ctx, state)
    return state


def run_orders(ctx: Context, state: State) -> State:
    """One day of every unit's queue: immediate passes until quiet, then one full-day order each."""
    _start(ctx, state)
    month = Month(ctx, state)

    def execute(unit_id: str, line: Line) -> tuple[Result, Line | None]:
        executor = executors.EXECUTORS.get(line.keyword)
        if executor is None or m.unit(state, unit_id) is None:
            return Result.SKIPPED, None
        return executor(month, unit_id, line)

    def busy(unit_id: str) -> bool:
        unit = m.unit(state, unit_id)
        return unit is None or bool(unit.get("moving")) or bool(unit.get("idle"))

    actors = m.report_order(state, list(ctx.game.world))
    run_day(ctx.tick, actors, ctx.memory.programs, executors.timing, execute, busy, WORK)
    _store(ctx, state)
    return state


def control(ctx: Context, state: State) -> State:
    # The titles helper's control.py: after day 1, units beyond the faction's control points may idle.
    return state


def battles(ctx: Context, state: State) -> State:
    # The combat helper: the battles the day's orders and meetings started.
    return state


def markets(ctx: Context, state: State) -> State:
    # The market helper's markets.py: the call auction of a place's market day.
    return state


def recruits(ctx: Context, state: State) -> State:
    # The market helper: the day's recruits join their units (temporary ids become permanent).
    return state


def mana(ctx: Context, state: State) -> State:
    """The day's end of the production chapter (production.py): harvests settled, structures begun under
    temporary ids renamed, mana grown or decayed, and every enchantment a day older."""
    production.production_day(Month(ctx, state))
    _store(ctx, state)
    return state


def wages(ctx: Context, state: State) -> State:
    economy.pay_wages(ctx, state)
    return state


def upkeep(ctx: Context, state: State) -> State:
    economy.collect_upkeep(ctx, state)
    _store(ctx, state)
    return state


def loyalty(ctx: Context, state: State) -> State:
    # The units and titles helpers: OATH, whole units given away, unstacked creatures going wild.
    return state


def places(ctx: Context, state: State) -> State:
    # The market helper's places.py (and the world helper's weather): each place's monthly change.
    return state


def month_end(ctx: Context, state: State) -> State:
    """Queues written for temporary ids that no order created are forgotten, with every line naming
    them (spec 2.9)."""
    _start(ctx, state)
    for temporary in sorted(ctx.memory.temporary):
        if m.unit(state, temporary) is None:
            drop_references(ctx.memory.programs, temporary)
    _store(ctx, state)
    return state


PHASES = {
    "press_rewards": press_rewards,
    "faction_orders": faction_orders,
    "orders": run_orders,
    "control": control,
    "battles": battles,
    "markets": markets,
    "recruits": recruits,
    "mana": mana,
    "wages": wages,
    "upkeep": upkeep,
    "loyalty": loyalty,
    "places": places,
    "month_end": month_end,
}
