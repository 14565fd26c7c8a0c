"""The turn as a table of phases.

A ruleset lists its phases in its rules data (id, title, summary) and supplies one
function per procedure. The engine runs them in order; the rules page prints the same
table, so the documented turn sequence cannot drift from the code.

A phase may run only on some turns: ``when: {seasons: [Winter]}``, ``{periods: [...]}``,
``{steps: [4]}`` (the week within a month) or ``{every: 2}`` (every second turn); ``core.clock`` lists
every condition, and the ticks of a turn.

The engine's own steps (the GM's rulings, missing orders, standing orders, press, expiry) are rows of
the same table. The rules data may place one with ``- {engine: press}``; those it does not place go to
their default places, before or after the ruleset's phases. A ruleset cannot drop them. A repeated
block, ``{block: day, repeat: ticks, phases: [...]}``, runs its phases once per tick of the turn.

One procedure may appear several times with different numbers: an entry names its function with
``procedure`` (by default its id) and passes ``params``, which reach the function as keyword
arguments, e.g. spring's trade roll with ``params: {successes: 1}`` and winter's with ``-2``::

    - {id: trade_spring, procedure: trade, when: {seasons: [Spring]}, params: {successes: 1}, ...}
    - {id: trade_winter, procedure: trade, when: {seasons: [Winter]}, params: {successes: -2}, ...}

The core knows nothing of the engine: a phase function takes the engine's turn context, whatever its
type, and the state.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .calendar import Calendar, GameDate
from .clock import check_when, runs_on, ticks_of, when_words

State = dict[str, Any]
PhaseFn = Callable[..., State]  # (turn context, state, **params) -> state

# The engine's own steps, by the id the rules data places them with, in their default order: those that
# run before the ruleset's phases, then those that run after them.
ENGINE_BEFORE = ("gm", "absent", "standing")
ENGINE_AFTER = ("press", "expiry")
ENGINE_STEPS = ENGINE_BEFORE + ENGINE_AFTER
ENGINE_KEY, BLOCK_KEY = "engine", "block"
BLOCK_FIELDS = ("block", "repeat", "phases", "when")


@dataclass(frozen=True)
class Phase:
    id: str
    title: str
    summary: str
    run: PhaseFn  # the procedure with this entry's params bound: run(ctx, state)
    when: Mapping[str, Any] = field(default_factory=dict)
    procedure: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def runs_on(self, date: GameDate, tick: int = 0) -> bool:
        return runs_on(self.when, date, tick)

    def when_text(self, tick_name: str = "tick") -> str:
        """The condition in words, for the rules page."""
        return when_words(self.when, tick_name)


@dataclass(frozen=True)
class Block:
    """Phases that run once per tick of the turn, ``repeat`` times, in order (``core.clock``)."""

    id: str  # what one tick is called: day, week
    repeat: int
    phases: tuple[Phase, ...]
    when: Mapping[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        times = "once" if self.repeat == 1 else f"{self.repeat} times"
        return f"Each {self.id}, {times}"

    def runs_on(self, date: GameDate, tick: int = 0) -> bool:
        return runs_on(self.when, date, tick)

    def when_text(self, tick_name: str = "tick") -> str:
        return when_words(self.when, tick_name)

    def steps_text(self) -> str:
        """The block's phases in words, each with its own conditions ("1) Skirmish, only on day 1: ...")."""
        told = []
        for number, phase in enumerate(self.phases, 1):
            when = phase.when_text(self.id)
            told.append(f"{number}) {phase.title}{f', {when}' if when else ''}: {phase.summary}")
        return " ".join(told)


@dataclass(frozen=True)
class EngineSlot:
    """Where the rules data places one of the engine's steps (``{engine: press}``)."""

    step: str


Row = Phase | Block | EngineSlot  # a row of the table as the rules data declares it
Step = Phase | Block  # a row of the table the engine runs: the engine's slots filled in


def build_table(declared: list[Mapping[str, Any]], functions: Mapping[str, PhaseFn]) -> tuple[Phase, ...]:
    """Pair the declared sequence of plain phases with its implementations (``build_sequence``)."""
    rows = build_sequence(declared, functions)
    return tuple(row for row in rows if isinstance(row, Phase))


def build_sequence(
    declared: Sequence[Any], functions: Mapping[str, PhaseFn], rules: Mapping[str, Any] | None = None
) -> tuple[Row, ...]:
    """Pair the declared sequence with its implementations: every procedure named has code, every
    function is used, ids are unique, and every entry's params are parameters its function takes; each
    engine step is placed at most once, each block repeats a whole number of times, and every ``when``
    says something the clock knows. ``rules``: the rules data whose ``ticks`` a block may repeat."""
    ticks = ticks_of(rules or {})
    entries = [_entry(item, number) for number, item in enumerate(declared, 1)]
    plain = [e for e in entries if ENGINE_KEY not in e and BLOCK_KEY not in e]
    inner = [p for e in entries if BLOCK_KEY in e for p in _block_phases(e)]
    every = plain + inner
    ids = [str(p.get("id")) for p in every]
    procedures = [str(p.get("procedure") or p.get("id")) for p in every]
    missing = [i for i in procedures if i not in functions]
    unused = [i for i in functions if i not in procedures]
    if missing or unused or len(set(ids)) != len(ids):
        raise ValueError(f"phase table mismatch: no code for {missing}, not declared {unused}, ids {ids}")
    _check_engine_slots(entries)
    rows: list[Row] = []
    for entry in entries:
        if ENGINE_KEY in entry:
            rows.append(EngineSlot(str(entry[ENGINE_KEY])))
        elif BLOCK_KEY in entry:
            rows.append(_block(entry, functions, ticks))
        else:
            rows.append(_phase(entry, functions, in_block=False))
    return tuple(rows)


def _entry(item: Any, number: int) -> Mapping[str, Any]:
    if not isinstance(item, Mapping):
        raise ValueError(f"step {number} of the phase table must be a mapping: {{id: .., title: .., ..}}")
    if ENGINE_KEY in item and set(item) != {ENGINE_KEY}:
        raise ValueError(f"step {number} places the engine step {item[ENGINE_KEY]!r}: it says nothing more")
    return item


def _block_phases(entry: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    name = f"block {entry[BLOCK_KEY]!r}"
    unknown = [str(key) for key in entry if key not in BLOCK_FIELDS]
    if unknown:
        raise ValueError(f"{name}: a block has no field {', '.join(unknown)}; its fields are {BLOCK_FIELDS}")
    phases = entry.get("phases")
    if not isinstance(phases, list) or not phases or not all(isinstance(p, Mapping) for p in phases):
        raise ValueError(f"{name}: 'phases' must be a list of one or more phases, each {{id: .., title: ..}}")
    nested = [p for p in phases if ENGINE_KEY in p or BLOCK_KEY in p]
    if nested:
        raise ValueError(
            f"{name}: a block holds plain phases only; the engine's steps and other blocks run outside it"
        )
    return phases


def _check_engine_slots(entries: Sequence[Mapping[str, Any]]) -> None:
    placed = [str(e[ENGINE_KEY]) for e in entries if ENGINE_KEY in e]
    for step in placed:
        if step not in ENGINE_STEPS:
            raise ValueError(f"the engine has no step '{step}'; its steps are: {', '.join(ENGINE_STEPS)}")
    twice = sorted({step for step in placed if placed.count(step) > 1})
    if twice:
        raise ValueError(f"the engine's step {', '.join(twice)} is placed more than once; place it once")


def _block(entry: Mapping[str, Any], functions: Mapping[str, PhaseFn], ticks: int) -> Block:
    name, repeat = str(entry[BLOCK_KEY]), entry.get("repeat")
    if repeat == "ticks":
        count = ticks
    elif isinstance(repeat, int) and not isinstance(repeat, bool) and repeat >= 1:
        count = repeat
    else:
        raise ValueError(
            f"block {name!r}: repeat must be 'ticks' (the rules data's ticks per turn) or a whole number of "
            f"at least 1, not {repeat!r}"
        )
    when = check_when(f"block {name!r}", entry.get("when"), in_block=False)
    phases = tuple(_phase(p, functions, in_block=True) for p in entry["phases"])
    return Block(name, count, phases, when)


def _phase(entry: Mapping[str, Any], functions: Mapping[str, PhaseFn], *, in_block: bool) -> Phase:
    procedure = str(entry.get("procedure") or entry["id"])
    function, params = functions[procedure], dict(entry.get("params") or {})
    try:
        inspect.signature(function).bind(None, None, **params)
    except TypeError as wrong:
        raise ValueError(f"phase {entry['id']}: {procedure} cannot take params {params}: {wrong}") from None
    return Phase(
        str(entry["id"]),
        str(entry["title"]),
        str(entry["summary"]),
        partial(function, **params) if params else function,
        check_when(f"phase {entry['id']}", entry.get("when"), in_block=in_block),
        procedure,
        params,
    )


def place_engine_steps(rows: Sequence[Row], engine: Mapping[str, Phase]) -> tuple[Step, ...]:
    """The table the engine runs: each engine step where the rules data placed it, the others at their
    default places (``ENGINE_BEFORE`` first, ``ENGINE_AFTER`` last)."""
    placed = {row.step for row in rows if isinstance(row, EngineSlot)}
    before = [engine[step] for step in ENGINE_BEFORE if step not in placed]
    after = [engine[step] for step in ENGINE_AFTER if step not in placed]
    middle = [engine[row.step] if isinstance(row, EngineSlot) else row for row in rows]
    return (*before, *middle, *after)


def by_season(phases: Sequence[Step], calendar: Calendar) -> dict[str, list[Step]] | None:
    """The turn sequence of each season, in the calendar's order, when some phase is limited to some
    seasons; None when every season has the same sequence (the rules page then prints one table)."""
    if not any("seasons" in phase.when for phase in phases):
        return None
    sequences: dict[str, list[Step]] = {}
    for season in dict.fromkeys(calendar.seasons):
        sequences[season] = [p for p in phases if "seasons" not in p.when or season in p.when["seasons"]]
    return sequences
