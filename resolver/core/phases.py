"""The turn as a table of phases.

A ruleset lists its phases in its rules data (id, title, summary) and supplies one
function per id. The engine runs them in order; the rules page prints the same
table, so the documented turn sequence cannot drift from the code.

A phase may run only on some turns: ``when: {seasons: [Winter]}``, ``{periods: [...]}``,
``{steps: [4]}`` (the week within a month) or ``{every: 2}`` (every second turn).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .calendar import GameDate

if TYPE_CHECKING:
    from ..engine import TurnContext

State = dict[str, Any]
PhaseFn = Callable[["TurnContext", State], State]


@dataclass(frozen=True)
class Phase:
    id: str
    title: str
    summary: str
    run: PhaseFn
    when: Mapping[str, Any] = field(default_factory=dict)

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


def build_table(declared: list[Mapping[str, str]], functions: Mapping[str, PhaseFn]) -> tuple[Phase, ...]:
    """Pair the declared sequence with its implementations; both sides must match exactly."""
    ids = [str(p["id"]) for p in declared]
    missing = [i for i in ids if i not in functions]
    unused = [i for i in functions if i not in ids]
    if missing or unused or len(set(ids)) != len(ids):
        raise ValueError(f"phase table mismatch: no code for {missing}, not declared {unused}, ids {ids}")
    return tuple(
        Phase(
            str(p["id"]),
            str(p["title"]),
            str(p["summary"]),
            functions[str(p["id"])],
            dict(p.get("when") or {}),
        )
        for p in declared
    )
