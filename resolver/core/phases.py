"""The turn as a table of phases.

A ruleset lists its phases in its rules data (id, title, summary) and supplies one
function per id. The engine runs them in order; the rules page prints the same
table, so the documented turn sequence cannot drift from the code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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


def build_table(declared: list[Mapping[str, str]], functions: Mapping[str, PhaseFn]) -> tuple[Phase, ...]:
    """Pair the declared sequence with its implementations; both sides must match exactly."""
    ids = [str(p["id"]) for p in declared]
    missing = [i for i in ids if i not in functions]
    unused = [i for i in functions if i not in ids]
    if missing or unused or len(set(ids)) != len(ids):
        raise ValueError(f"phase table mismatch: no code for {missing}, not declared {unused}, ids {ids}")
    return tuple(
        Phase(str(p["id"]), str(p["title"]), str(p["summary"]), functions[str(p["id"])]) for p in declared
    )
