"""The clock inside a turn, and the conditions under which a step of the turn table runs.

A turn may be made of ticks (``ticks: 30`` in the rules data: thirty days in a month's turn). The turn
table then holds a repeated block, ``{block: day, repeat: ticks, phases: [...]}``, whose phases run once
per tick, in order, from tick 1 to the last. Outside a block the clock reads 0: a step there runs once
for the whole turn, so it belongs to no tick, and its events carry none (which is also why a ruleset
without a block writes exactly the events it wrote before the clock existed).

A step (a phase, or a whole block) may carry ``when:`` conditions, all of which must hold:

- ``seasons``, ``periods``: the turn's season or period is one of those listed;
- ``steps`` or ``week``: the turn's week within its month (the calendar's step), where turns are weeks;
- ``every: N``: every Nth turn;
- ``year``: the turn's year is one of those listed (the calendar's own numbers: 412, 413...);
- ``first_month: true`` (or false): only in the game's first month (or never in it);
- ``tick``: the tick is one of those listed; only for a phase inside a repeated block.

This module knows dates and numbers only; the table itself is ``core.phases``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .calendar import GameDate

TICKS = "ticks"  # the rules data's count of ticks per turn, which a block's ``repeat`` may name
WHEN_KEYS = ("seasons", "periods", "steps", "week", "every", "tick", "year", "first_month")
_NAMES = ("seasons", "periods")  # conditions that list names
_NUMBERS = ("steps", "week", "tick", "year")  # conditions that list whole numbers


def ticks_of(rules: Mapping[str, Any]) -> int:
    """The ticks of one turn (1 unless the rules data says otherwise), refused unless a whole number >= 1."""
    ticks = rules.get(TICKS, 1)
    if not _whole(ticks) or ticks < 1:
        raise ValueError(f"'{TICKS}' must be a whole number of at least 1, not {ticks!r}")
    return int(ticks)


def check_when(where: str, when: Any, *, in_block: bool) -> dict[str, Any]:
    """The ``when:`` of a step, refused with the step's name and the fix when a key or value is wrong."""
    if when is None:
        return {}
    if not isinstance(when, Mapping):
        raise ValueError(f"{where}: 'when' must be a mapping of conditions, such as {{seasons: [Winter]}}")
    for key, value in when.items():
        if key not in WHEN_KEYS:
            raise ValueError(
                f"{where}: 'when' has no condition '{key}'; the conditions are: {', '.join(WHEN_KEYS)}"
            )
        if key == "tick" and not in_block:
            raise ValueError(
                f"{where}: 'when: tick' applies only to a phase inside a repeated block (outside one a "
                "step runs once a turn, on no tick)"
            )
        _check_value(where, str(key), value)
    return dict(when)


def _check_value(where: str, key: str, value: Any) -> None:
    if key in _NAMES and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise ValueError(f"{where}: 'when: {key}' must be a list of names, such as [{'Winter'}]")
    if key in _NUMBERS and not (isinstance(value, list) and value and all(_whole(v) for v in value)):
        raise ValueError(f"{where}: 'when: {key}' must be a list of whole numbers, such as [1]")
    if key == "every" and not (_whole(value) and value >= 1):
        raise ValueError(f"{where}: 'when: every' must be a whole number of turns, at least 1")
    if key == "first_month" and not isinstance(value, bool):
        raise ValueError(f"{where}: 'when: first_month' must be true or false")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def in_first_month(date: GameDate) -> bool:
    """Whether the turn falls in the game's first month. Turn 1 opens the first period, and where turns
    are weeks the first month's turns are numbered as its weeks (turn 3 is week 3) and no later turn is."""
    return date.turn == (date.step or 1)


def runs_on(when: Mapping[str, Any], date: GameDate, tick: int = 0) -> bool:
    """Whether every condition of ``when`` holds on ``date`` at ``tick`` (0: outside a block)."""
    week = date.step
    return (
        ("seasons" not in when or date.season in when["seasons"])
        and ("periods" not in when or date.period in when["periods"])
        and ("steps" not in when or week in when["steps"])
        and ("week" not in when or week in when["week"])
        and ("every" not in when or date.turn % int(when["every"]) == 0)
        and ("year" not in when or date.year in when["year"])
        and ("first_month" not in when or in_first_month(date) == bool(when["first_month"]))
        and ("tick" not in when or tick in when["tick"])
    )


def when_words(when: Mapping[str, Any], tick_name: str = "tick") -> str:
    """The conditions in words, for the rules page ("in Winter; only on day 1")."""
    parts = []
    for key, label in (("seasons", "in"), ("periods", "in"), ("steps", "in week"), ("week", "in week")):
        if key in when:
            parts.append(f"{label} {', '.join(str(v) for v in when[key])}")
    if "year" in when:
        parts.append(f"in year {', '.join(str(v) for v in when['year'])}")
    if "every" in when:
        parts.append(f"every {when['every']} turns")
    if "first_month" in when:
        parts.append("in the game's first month" if when["first_month"] else "after the game's first month")
    if "tick" in when:
        ticks = [str(v) for v in when["tick"]]
        parts.append(f"only on {tick_name}{'s' if len(ticks) > 1 else ''} {', '.join(ticks)}")
    return "; ".join(parts)
