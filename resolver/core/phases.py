"""The turn as a table of phases.

A ruleset lists its phases in its rules data (id, title, summary) and supplies one
function per procedure. The engine runs them in order; the rules page prints the same
table, so the documented turn sequence cannot drift from the code.

A phase may run only on some turns: ``when: {seasons: [Winter]}``, ``{periods: [...]}``,
``{steps: [4]}`` (the week within a month) or ``{every: 2}`` (every second turn).

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

State = dict[str, Any]
PhaseFn = Callable[..., State]  # (turn context, state, **params) -> state


@dataclass(frozen=True)
class Phase:
    id: str
    title: str
    summary: str
    run: PhaseFn  # the procedure with this entry's params bound: run(ctx, state)
    when: Mapping[str, Any] = field(default_factory=dict)
    procedure: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def runs_on(self, date: GameDate) -> bool:
        w = self.when
        return (
            ("seasons" not in w or date.season in w["seasons"])
            and ("periods" not in w or date.period in w["periods"])
            and ("steps" not in w or date.step in w["steps"])
            and ("every" not in w or date.turn % int(w["every"]) == 0)
        )

    def when_text(self) -> str:
        """The condition in words, for the rules page."""
        parts = []
        for key, label in (("seasons", "in"), ("periods", "in"), ("steps", "in week")):
            if key in self.when:
                parts.append(f"{label} {', '.join(str(v) for v in self.when[key])}")
        if "every" in self.when:
            parts.append(f"every {self.when['every']} turns")
        return "; ".join(parts)


def build_table(declared: list[Mapping[str, Any]], functions: Mapping[str, PhaseFn]) -> tuple[Phase, ...]:
    """Pair the declared sequence with its implementations: every procedure named has code, every
    function is used, ids are unique, and every entry's params are parameters its function takes."""
    ids = [str(p["id"]) for p in declared]
    procedures = [str(p.get("procedure") or p["id"]) for p in declared]
    missing = [i for i in procedures if i not in functions]
    unused = [i for i in functions if i not in procedures]
    if missing or unused or len(set(ids)) != len(ids):
        raise ValueError(f"phase table mismatch: no code for {missing}, not declared {unused}, ids {ids}")
    phases = []
    for entry, procedure in zip(declared, procedures, strict=True):
        function, params = functions[procedure], dict(entry.get("params") or {})
        try:
            inspect.signature(function).bind(None, None, **params)
        except TypeError as wrong:
            raise ValueError(
                f"phase {entry['id']}: {procedure} cannot take params {params}: {wrong}"
            ) from None
        phases.append(
            Phase(
                str(entry["id"]),
                str(entry["title"]),
                str(entry["summary"]),
                partial(function, **params) if params else function,
                dict(entry.get("when") or {}),
                procedure,
                params,
            )
        )
    return tuple(phases)


def by_season(phases: Sequence[Phase], calendar: Calendar) -> dict[str, list[Phase]] | None:
    """The turn sequence of each season, in the calendar's order, when some phase is limited to some
    seasons; None when every season has the same sequence (the rules page then prints one table)."""
    if not any("seasons" in phase.when for phase in phases):
        return None
    sequences: dict[str, list[Phase]] = {}
    for season in dict.fromkeys(calendar.seasons):
        sequences[season] = [p for p in phases if "seasons" not in p.when or season in p.when["seasons"]]
    return sequences
