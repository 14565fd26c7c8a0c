"""One event a month for a deed a unit repeats day after day (teaching, collecting taxes): the first day
makes the event, at that day, and every later day adds to it, so that a report and the chronicle say "from
day 3 to day 20 …" once instead of a line for every day.

The events stay in the turn's list in the order they were first made, so the month's events are the same
whatever the machine; the later days only change the event's data (its last day, its count of days and
what it sums up).
"""

from __future__ import annotations

from typing import Any


def monthly(month: Any, kind: str, unit_id: str, key: str = "") -> tuple[dict[str, Any], bool]:
    """The data of this month's ``kind`` event of the unit (and ``key``, e.g. the place), and whether it
    was made today. A new event starts at today with ``days`` 1 and ``last`` today; a day already counted
    is not counted again."""
    made: dict[tuple[str, str, str], dict[str, Any]] = vars(month.ctx.memory).setdefault("digests", {})
    found = made.get((kind, unit_id, key))
    day = int(month.ctx.tick)
    if found is None:
        event = month.tell(kind, unit_id, days=1, last=day)
        found = made[(kind, unit_id, key)] = event.data
        return found, True
    if int(found["last"]) != day:
        found["days"] = int(found["days"]) + 1
        found["last"] = day
    return found, False
