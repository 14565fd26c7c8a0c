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
from . import control as control_points
from . import (
    economy,
    executors,
    knowledge,
    movement,
    orders,
    production,
    recruiting,
    structures,
    title_orders,
    warfare,
    weather,
)
from . import markets as trading
from . import model as m
from . import places as changes
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
    """The programs written back to their units, as the template shows them next month.

    This runs after every phase that may change a queue, several times a day for every unit: a queue whose
    lines are the ones last written, over a unit whose orders still read as written then, is left as it
    is (writing it again would give the same texts)."""
    written = ctx.memory.written
    for unit_id, program in ctx.memory.programs.items():
        unit = m.unit(state, unit_id)
        if unit is None:
            continue
        lines = tuple(program.lines)
        last = written.get(unit_id)
        if last is not None and last[0] == lines and unit.get("orders") == last[1]:
            continue
        texts = program.to_data()
        unit["orders"] = texts
        written[unit_id] = (lines, list(texts))


def press_rewards(ctx: Context, state: State) -> State:
    """Before day 1: last month's refusals end, and the press of the turn's files earns its writers'
    funds their reward (press.py)."""
    title_orders.before_the_month(ctx, state)
    return state


def faction_orders(ctx: Context, state: State) -> State:
    """Faction orders, then each UNIT block's new queue, in posting order."""
    _start(ctx, state)
    names_of = ctx.game.ruleset.names_of(ctx.game, state)
    for faction in ctx.posting_order:
        of = ctx.orders.get(faction)
        if of is None or faction not in state["factions"]:
            continue
        # One vocabulary for the file's orders, built again after faction orders (RESIGN gives units away).
        known = None
        for order in of.orders:
            if known is None:
                known = orders.vocabulary(state, faction, ctx.rules, names_of)
            reading = orders.read_order(state, faction, order, ctx.rules, names_of, known)
            if reading.problems:
                ctx.order_failed(faction, order, reading.problems[0][1])
                continue
            if order.action == orders.FACTION:
                known = None
                for read in reading.readings:
                    orders.apply_faction_line(ctx, state, faction, read)
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
        if month.unreadable(unit_id, line):
            return Result.INVALID, None
        return executor(month, unit_id, line)

    def busy(unit_id: str) -> bool:
        unit = m.unit(state, unit_id)
        return unit is None or bool(unit.get("moving")) or bool(unit.get("idle"))

    actors = m.report_order(state, list(ctx.game.world))
    run_day(ctx.tick, actors, ctx.memory.programs, executors.timing, execute, busy, WORK)
    _store(ctx, state)
    return state


def control(ctx: Context, state: State) -> State:
    """After day 1's orders: each unit of a faction over its control points may refuse the month."""
    control_points.control_check(ctx, state, ctx.rules)
    return state


def battles(ctx: Context, state: State) -> State:
    # Titles held beyond their keep are lost and hostile guards clash (title_orders.py); then every
    # battle queued today is fought and its outcome written into the state (warfare.py).
    month = Month(ctx, state)
    title_orders.end_of_day(month)
    warfare.fight_battles(month)
    # Then each structure's record follows whoever holds it now (structures.py).
    structures.hand_over(ctx, state, ctx.rules)
    _store(ctx, state)
    return state


def markets(ctx: Context, state: State) -> State:
    """The call auction of every market whose day it is (markets.py); the queues show what is left."""
    trading.run_markets(ctx, state)
    _store(ctx, state)
    return state


def recruits(ctx: Context, state: State) -> State:
    """The day's recruits join their units; a new unit's temporary id becomes its id (recruiting.py)."""
    recruiting.run_recruits(ctx, state)
    _store(ctx, state)
    return state


def mana(ctx: Context, state: State) -> State:
    """The day's end of the production chapter (production.py): harvests settled, structures begun under
    temporary ids renamed, mana grown or decayed, and every enchantment a day older (a day of guarding
    too, which ends unsaid)."""
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
    # The units helper adds whole units given away and unstacked creatures going wild.
    title_orders.apply_oaths(ctx, state)
    structures.hand_over(ctx, state, ctx.rules)  # a unit sworn to another faction takes its structure along
    return state


def taxes(ctx: Context, state: State) -> State:
    """The month's tax pools to the land owners' funds, unless occupied (taxes.py)."""
    title_orders.month_end_taxes(Month(ctx, state))
    return state


def places(ctx: Context, state: State) -> State:
    """Each place's monthly change (places.py): people, wages, taxes, recruits, market, resources; then
    the weather moves on a month (weather.py), after the resources have read the forecast."""
    changes.evolve_places(ctx, state)
    weather.month_end(ctx, state)
    return state


def month_end(ctx: Context, state: State) -> State:
    """Queues written for temporary ids that no order created are forgotten, with every line naming
    them (spec 2.9)."""
    _start(ctx, state)
    named = {arg for program in ctx.memory.programs.values() for line in program.lines for arg in line.args}
    factions = state["factions"]
    for temporary in sorted(ctx.memory.temporary | named):
        is_temporary = m.temporary_owner(temporary, factions) or m.temporary_owner(temporary, factions, "B")
        if is_temporary and m.unit(state, temporary) is None and m.structure(state, temporary) is None:
            drop_references(ctx.memory.programs, temporary)
    _store(ctx, state)
    return state


def learn(ctx: Context, state: State) -> State:
    """After the month: what each faction newly knows of items and skills (knowledge.py). Then, in an open
    campaign, the month's own events are published: an open campaign keeps nothing from anyone, and each
    chapter tells its events to the factions concerned only for a sealed one's sake."""
    knowledge.month_end(ctx, state)
    if not ctx.sealed:
        for event in ctx.events:
            if event.phase in PHASES and event.kind not in FACTION_PAPERS:
                event.visible_to = None
    return state


# What a faction is told for itself alone in any campaign: papers, not news (its own battle report, the
# knowledge it gained, the orders it wrote that could not run, what its units lost by setting out, which of
# its units refused a battle for want of control points, the record of a unit it lost, why a tax collector
# waits).
FACTION_PAPERS = frozenset(
    {
        "battle_report",
        "battle_refusals",
        "knowledge_gained",
        "reshown",
        "line_failed",
        "work_lost",
        "unit_lost",  # a unit's record as it left the faction (departures.py)
        "battle_watched",  # an onlooker's report of a battle: what its own units saw (spectators.py)
        "taxing_waits",  # why a tax collector waits (taxing.py)
    }
)


def travel(ctx: Context, state: State) -> State:
    """Dawn: every trip goes a day further (half-way, the stack counts as at its destination; at the end
    it arrives), and on day 1 a travelling unit whose queue starts with RETREAT turns back."""
    _start(ctx, state)
    movement.advance(Month(ctx, state))
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
    "taxes": taxes,
    "places": places,
    "month_end": month_end,
    "travel": travel,
    "knowledge": learn,
}
