"""The engine's own steps as rows of the turn table, and the one loop that runs the table.

Every turn runs the GM's rulings, the word on missing orders, the standing orders, the ruleset's phases,
the press and rumours, and the expiry of timed effects, in that order unless the rules data places an
engine step elsewhere (``core.phases``). Being rows of the table, the engine's steps show on every rules
page in the place they run, and ``resolve_turn`` has nothing left to do by hand but run the table.

A repeated block runs its phases once per tick of the turn (``core.clock``); at the close of each tick
the effects that end at it end.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from ..core import relations, standing
from ..core.events import GM_PHASE
from ..core.orders import OrderFile
from ..core.phases import Block, Phase, PhaseFn, State, Step, place_engine_steps
from . import gm
from .absence import STAND_IN, AbsentPolicy, AwayPolicy, apply_policy
from .context import TurnContext
from .ruleset import Game


@dataclass(frozen=True)
class TurnInputs:
    """What the engine's steps need beyond the turn context, settled before the table runs: the factions
    whose orders are missing or were refused (and why), what the absence policy made of them, which
    order files a bot wrote, and the turn's rumours in their published order."""

    refused: Mapping[str, str] = field(default_factory=dict)
    missing: Sequence[str] = ()
    policy: AbsentPolicy = field(default_factory=AbsentPolicy)
    stand_ins: Mapping[str, OrderFile] = field(default_factory=dict)
    bots: Collection[str] = ()
    rumors: Sequence[str] = ()
    away: Sequence[str] = ()  # factions away by declaration, without orders: they miss no turn
    away_policy: AwayPolicy = field(default_factory=AwayPolicy)


def gm_rulings(ctx: TurnContext, state: State, inputs: TurnInputs) -> State:
    """A refused file's faction is told why first, then the GM's orders are carried out."""
    for faction, reason in sorted(inputs.refused.items()):
        ctx.emit("orders_refused", actors=[faction], visible_to=[faction], reason=reason)
    return gm.run_phase(ctx, state)


def missing_orders(ctx: TurnContext, state: State, inputs: TurnInputs) -> State:
    """Name the factions whose orders did not arrive or could not be used, count their missed turns, and
    apply the absence policy."""
    # The archive has always told this among the GM's rulings (the chronicle sets it apart as "Missing
    # orders"): keeping the phase keeps every archive written so far replaying byte for byte.
    ctx.phase = GM_PHASE
    missing, stand_ins = list(inputs.missing), inputs.stand_ins
    if missing:
        # Only civil disorder changes what the absent factions do, so only it is named in the event.
        extra = {"policy": inputs.policy.policy} if stand_ins else {}
        # A refused file was merged for all to see: its faction sent orders that could not be used.
        unusable = [f for f in missing if f in inputs.refused]
        silent = [f for f in missing if f not in unusable]
        if silent:
            ctx.emit("orders_missing", actors=silent, **extra)
        if unusable:
            ctx.emit("orders_unusable", actors=unusable, **extra)
        for f in missing:
            state["factions"][f]["missed_turns"] = state["factions"][f].get("missed_turns", 0) + 1
    if inputs.away:
        # Told apart from missing orders: an absence said in advance is no failing of the player's.
        stood_in = {"policy": STAND_IN} if inputs.away_policy.policy == STAND_IN else {}
        ctx.emit("orders_away", actors=list(inputs.away), **stood_in)
    for f in ctx.orders:
        if f not in inputs.bots:
            state["factions"][f]["missed_turns"] = 0
    apply_policy(ctx.emit, state, missing, stand_ins, inputs.policy)
    return state


def standing_orders(ctx: TurnContext, state: State, inputs: TurnInputs) -> State:
    written = {f: of.standing for f, of in ctx.orders.items() if of.standing}
    standing.record(ctx.emit, state, written, ctx.game.standing)
    return state


def press_and_rumors(ctx: TurnContext, state: State, inputs: TurnInputs) -> State:
    for f, of in ctx.orders.items():
        if f in inputs.bots:
            continue  # the newspaper prints what players wrote, never a bot's filler
        for article in of.press:
            ctx.emit("press", actors=[f], headline=article.headline, body=article.body)
    for rumor in inputs.rumors:
        ctx.emit("rumor", text=rumor)  # no actors, and sorted: nothing in the events names the author
    return state


def expiry(ctx: TurnContext, state: State, inputs: TurnInputs) -> State:
    relations.expire(ctx.emit, state, ctx.turn, relations.default(ctx.game.rules))
    return state


@dataclass(frozen=True)
class EngineStep:
    title: str
    summary: str
    procedure: Callable[..., State]  # (turn context, state, inputs) -> state


ENGINE_ROWS: dict[str, EngineStep] = {
    GM_PHASE: EngineStep(
        "GM rulings",
        "The GM's orders are applied first: grants, modifiers, placed or removed pieces, narrated events "
        "and rulings on what the rules leave open.",
        gm_rulings,
    ),
    "absent": EngineStep(
        "Missing orders",
        "Factions whose orders did not arrive, or could not be used, are named; the campaign's policy for "
        "absent players decides what they do this turn. A faction that declared itself away misses no "
        "turn; the policy for absences decides what it does.",
        missing_orders,
    ),
    "standing": EngineStep(
        "Standing orders",
        "Standing orders written this turn (policies and the like) replace those in force; the rest stay as "
        "they were.",
        standing_orders,
    ),
    "press": EngineStep(
        "Press and rumours",
        "Signed articles and anonymous rumours from the order files go to the newspaper.",
        press_and_rumors,
    ),
    "expiry": EngineStep(
        "Expiring effects",
        "Timed effects and relations whose last turn this was come to an end.",
        expiry,
    ),
}


def engine_phases(inputs: TurnInputs) -> dict[str, Phase]:
    """The engine's rows, each bound to this turn's inputs."""
    rows = {}
    for step_id, step in ENGINE_ROWS.items():
        run: PhaseFn = partial(step.procedure, inputs=inputs)
        rows[step_id] = Phase(step_id, step.title, step.summary, run, procedure=step_id)
    return rows


def turn_table(game: Game, inputs: TurnInputs | None = None) -> tuple[Step, ...]:
    """Every step of the turn in the order it runs: the ruleset's table with the engine's steps in place.
    The rules page shows it; ``resolve_turn`` runs it with the turn's ``inputs``."""
    return place_engine_steps(game.phases, engine_phases(inputs or TurnInputs()))


def run_table(ctx: TurnContext, state: State, table: Iterable[Step]) -> State:
    for step in table:
        if not step.runs_on(ctx.date):
            continue
        if isinstance(step, Block):
            state = run_block(ctx, state, step)
        else:
            ctx.phase = step.id
            state = step.run(ctx, state)
    return state


def run_block(ctx: TurnContext, state: State, block: Block) -> State:
    """The block's phases once per tick, in order; at each tick's close, the effects that end at it."""
    for tick in range(1, block.repeat + 1):
        ctx.tick = tick
        for phase in block.phases:
            if phase.runs_on(ctx.date, tick):
                ctx.phase = phase.id
                state = phase.run(ctx, state)
        ctx.phase = "expiry"
        relations.expire(ctx.emit, state, ctx.turn, relations.default(ctx.game.rules), tick=tick)
    ctx.tick = 0
    return state
