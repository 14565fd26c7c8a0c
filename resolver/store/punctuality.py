"""A faction's on-time record: for each resolved turn, whether its orders reached the branch in time.

The record is worked out from git's history alone (``git.reliability``); this module holds what it is
made of and how it is summed up, so that the site can show it without knowing git.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

ON_TIME = "on time"  # the orders reached the branch by the deadline
IN_GRACE = "in the grace period"  # after the deadline, within the grace the campaign allows
LATE = "late"  # after the grace, still before the turn was resolved
MISSING = "no orders"  # none reached the branch before the turn was resolved
AWAY = "away"  # none, and the faction had declared itself away for the turn
STATUSES = (ON_TIME, IN_GRACE, LATE, MISSING, AWAY)


@dataclass(frozen=True)
class Arrival:
    turn: int
    faction: str
    status: str
    deadline: datetime
    arrived: datetime | None = None  # when the orders first reached the branch


@dataclass(frozen=True)
class Summary:
    turns: int  # turns the faction was awaited in
    counts: dict[str, int]

    def describe(self) -> str:
        """'5 of 6 turns on time; 1 in the grace period' (turns away are not held against anyone)."""
        if not self.turns:
            return "no turn of this faction has been resolved yet"
        owed = self.turns - self.counts.get(AWAY, 0)
        parts = [f"{self.counts.get(ON_TIME, 0)} of {owed} turn{'s' if owed != 1 else ''} on time"]
        parts += [f"{self.counts[s]} {s}" for s in (IN_GRACE, LATE, MISSING, AWAY) if self.counts.get(s)]
        return "; ".join(parts)


def summarise(arrivals: Iterable[Arrival]) -> Summary:
    listed = list(arrivals)
    return Summary(len(listed), dict(Counter(a.status for a in listed)))
