"""SYNCHRO (spec §2.11): two units' lines that fire together or not at all.

``SYNCHRO U7`` in one queue fires only when U7's queue holds the mirror line ``SYNCHRO <this unit>``, live
today (not waiting on a dash, its day gate open, not run yet today); the two fire at the same instant, and
each queue then goes on as if its own line had run (the lines waiting on it are freed). Units of one
faction are in touch anywhere in the world; units of two factions only where both stand, not on the road.
A unit fires at most one SYNCHRO a day.
"""

from __future__ import annotations

from ...core import programs as queues
from ...core.programs import Line, Result, Timing
from .month import Month

KEYWORD = "SYNCHRO"


def synchro(month: Month, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    partner_id = month.read(line).args["unit"]
    unit, partner = month.unit(unit_id), month.unit(partner_id)
    if unit is None or partner is None or partner_id == unit_id:
        return Result.SKIPPED, None  # a partner not yet created (a temporary id) may still come
    if unit["owner"] != partner["owner"] and (
        unit.get("location") != partner.get("location") or unit.get("moving") or partner.get("moving")
    ):
        return Result.SKIPPED, None
    mine, theirs = month.programs.get(unit_id), month.programs.get(partner_id)
    if mine is None or theirs is None or _fired_today(mine) or _fired_today(theirs):
        return Result.SKIPPED, None
    mirror = next(
        (
            held
            for held in theirs.lines
            if held.keyword == KEYWORD
            and held.depth == 0
            and month.read(held).args.get("unit") == unit_id
            and held.day in (None, month.day)
        ),
        None,
    )
    if mirror is None:
        return Result.SKIPPED, None
    queues.settle(theirs, mirror, Result.FINISHED, Timing.CONDITION)
    month.tell("synchronised", unit_id, to=sorted({unit["owner"], partner["owner"]}),
               partner=partner_id, partner_name=partner.get("name") or partner_id)  # fmt: skip
    return Result.FINISHED, None


def _fired_today(program: queues.Program) -> bool:
    return any(held.keyword == KEYWORD for held in program.ran_today)


EXECUTORS = {KEYWORD: synchro}
