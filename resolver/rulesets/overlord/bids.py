"""The day's trade and recruit requests, registered by the BUY, SELL and RECRUIT lines and settled at the
day's end (markets after every order of a market day, recruits after every order of any day).

A request remembers the very line object that placed it, so the settlement can find that line in the
unit's queue again and leave it there with what is still to trade, or take it away when it is done. The
dash rule of spec §2.7 applies to a line taken away here as to one the day's scheduler removes.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, replace

from ...core.programs import Line, Program, remove

__all__ = ["Bid", "remaining_line", "settle_line"]


@dataclass(frozen=True)
class Bid:
    kind: str  # "buy", "sell" or "recruit"
    unit: str
    location: str
    line: Line  # the queue's own line object: found again by identity
    tag: str  # the good or the race
    count: int  # pieces or figures asked for, already cut to what the unit can pay or hold
    price: int  # the most a buyer pays or the least a seller takes, for one
    target: str | None = None  # RECRUIT: the unit the figures join (a temporary id for a new unit)


def remaining_line(line: Line, count_at: int, left: int) -> Line:
    """The same line asking only for what is ``left`` (BUY 10 swrd 160 with 6 bought: BUY 4 swrd 160)."""
    args = list(line.args)
    args[count_at] = str(left)
    return replace(line, args=tuple(args))


def settle_line(
    programs: MutableMapping[str, Program], bid: Bid, asked: int, done: int, count_at: int
) -> None:
    """After the settlement: a line that got all it asked for (or anything, when it asked for as many as
    possible) is removed unless it repeats; one partly served stays with the remainder; one that got
    nothing stays as written."""
    program = programs.get(bid.unit)
    if program is None or done <= 0:
        return
    index = next((i for i, held in enumerate(program.lines) if held is bid.line), None)
    if index is None:  # another order rewrote the queue's lines today (a new unit's id): the same text
        index = next((i for i, held in enumerate(program.lines) if held == bid.line), None)
    if index is None or bid.line.repeat:
        return
    if asked == 0 or done >= asked:
        remove(program, program.lines[index])
    else:
        program.lines[index] = remaining_line(bid.line, count_at, asked - done)
