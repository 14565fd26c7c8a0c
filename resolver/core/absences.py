"""Declared absences: a faction away from one turn to another, said in advance.

A player declares an absence in their own order file, beside the orders (the envelope every ruleset
shares)::

    absence: {from: 5, to: 7}     # away for turns 5, 6 and 7; an empty mapping takes it back

and the GM declares one for a faction with ``campaign absence``. While a faction is away, a turn
without its orders is not counted against it (no missed turn, no elimination, no reminder), and the
campaign's policy for absences decides what its forces do (``engine.absence.AwayPolicy``).

This module is pure: it holds what an absence is and the rules every declaration obeys, so the check
of an order file and the resolution of a turn read a declaration the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# The longest absence one declaration may cover, in turns: long enough for a holiday in a weekly game,
# short enough that a forgotten declaration does not hide a player who left for good.
LONGEST_ABSENCE = 12
PLAYER = "player"
GM_DECLARED = "gm"


@dataclass(frozen=True, order=True)
class Absence:
    first: int  # the first turn away
    last: int  # the last turn away, included

    def covers(self, turn: int) -> bool:
        return self.first <= turn <= self.last

    def to_data(self) -> dict[str, int]:
        return {"from": self.first, "to": self.last}

    def describe(self) -> str:
        if self.first == self.last:
            return f"turn {self.first}"
        return f"turns {self.first} to {self.last}"


def problem(data: Any, current_turn: int) -> tuple[str, str, str] | None:
    """What is wrong with a declaration as written, or None: (the key at fault, or '' for the whole
    declaration; the problem; how to fix it). An empty mapping is a valid declaration: it takes back
    an absence declared earlier."""
    example = f"absence: {{from: {current_turn + 1}, to: {current_turn + 2}}}"
    if not isinstance(data, Mapping):
        return "", "'absence' must be a mapping with 'from' and 'to' turns", f"write for example {example}"
    unknown = sorted(str(key) for key in data if key not in ("from", "to"))
    if unknown:
        return unknown[0], f"unknown key '{unknown[0]}' under 'absence'", "the keys are: from, to"
    if not data:
        return None
    for key in ("from", "to"):
        value = data.get(key)
        if value is None:
            return "", f"'absence' needs '{key}'", f"write for example {example}"
        if isinstance(value, bool) or not isinstance(value, int):
            return (
                key,
                f"'absence.{key}' must be a turn number, not {value!r}",
                f"write for example {example}",
            )
    first, last = int(data["from"]), int(data["to"])
    if first < current_turn:
        return (
            "from",
            f"an absence cannot begin at turn {first}, which is over; the current turn is {current_turn}",
            f"write 'from: {current_turn}' or later",
        )
    if last < first:
        return "to", f"the absence ends (turn {last}) before it begins (turn {first})", "swap 'from' and 'to'"
    if last - first + 1 > LONGEST_ABSENCE:
        return (
            "to",
            f"an absence covers at most {LONGEST_ABSENCE} turns; this one covers {last - first + 1}",
            f"write 'to: {first + LONGEST_ABSENCE - 1}' or earlier, and declare again later if need be",
        )
    return None


def read(data: Mapping[str, Any]) -> Absence | None:
    """A declaration already checked by ``problem``: the absence, or None when it takes one back."""
    if not data:
        return None
    return Absence(int(data["from"]), int(data["to"]))


def away(declared: Mapping[str, Iterable[Absence]], turn: int) -> list[str]:
    """The factions away at ``turn``, sorted."""
    return sorted(faction for faction, spans in declared.items() if any(a.covers(turn) for a in spans))
