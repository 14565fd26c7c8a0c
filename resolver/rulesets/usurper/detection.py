"""Grid geometry and lair detection: after every scout roll the scouts may sense other usurpers' lairs.

A lair in range whose current Obscurity is below the scout's total is sensed; how far the scouts reach and
how much they learn (nothing more, a rough direction, a finer one, whether the lair is close at hand)
depend on the best Spy rank among the scouting units (``scouting.spy_tiers`` in the rules data). The
report never names the other usurper: the seed's message is only that there is one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_GRID = re.compile(r"^([A-Z]+)([1-9][0-9]*)$")


def parse_grid(grid: str) -> tuple[int, int]:
    """``"C4"`` -> (3, 4): the column counted from A = 1 (AA after Z) and the row, north being row 1."""
    match = _GRID.match(str(grid).strip().upper())
    if not match:
        raise ValueError(f"not a grid reference: {grid!r} (a column letter and a row number, such as X25)")
    column = 0
    for letter in match[1]:
        column = column * 26 + (ord(letter) - ord("A") + 1)
    return column, int(match[2])


def distance(first: str, second: str) -> int:
    """Grids apart in king's moves (Chebyshev distance), as the seed's diagrams count them."""
    (c1, r1), (c2, r2) = parse_grid(first), parse_grid(second)
    return max(abs(c1 - c2), abs(r1 - r2))


def offset(scouted: str, lair: str) -> tuple[int, int]:
    """(east, north): how far the lair lies east and north of the scouted grid (north is up the map)."""
    (sc, sr), (lc, lr) = parse_grid(scouted), parse_grid(lair)
    return lc - sc, sr - lr


def rough_direction(scouted: str, lair: str) -> str:
    """North, east, south or west: the half of the map the lair lies in. Up or down is told first, as the
    seed's diagram of "north" takes in every grid of the rows above; east or west only on the same row."""
    east, north = offset(scouted, lair)
    if east == 0 and north == 0:
        return "here"
    if north != 0:
        return "north" if north > 0 else "south"
    return "east" if east > 0 else "west"


def fine_direction(scouted: str, lair: str) -> str:
    """Due north, due east, … within the right-angled cone opening that way; a lair exactly on a diagonal
    is named by the diagonal (northeast, …), the finer word."""
    east, north = offset(scouted, lair)
    if east == 0 and north == 0:
        return "here"
    if abs(east) == abs(north):
        return ("north" if north > 0 else "south") + ("east" if east > 0 else "west")
    if abs(north) > abs(east):
        return "due_north" if north > 0 else "due_south"
    return "due_east" if east > 0 else "due_west"


@dataclass(frozen=True)
class SpyTier:
    tier: int
    range: int
    direction: str  # none | rough | fine
    close_within: int | None


def spy_tier(rules: Mapping[str, Any], spy_rank: int) -> SpyTier:
    """The tier of the best Spy rank among the scouts: the last row of the table it reaches."""
    rows = sorted(rules["scouting"]["spy_tiers"], key=lambda row: int(row["from_rank"]))
    found = rows[0]
    for row in rows:
        if spy_rank >= int(row["from_rank"]):
            found = row
    close = found.get("close_within")
    return SpyTier(int(found["tier"]), int(found["range"]), str(found["direction"]), close and int(close))


def has_renovation(lair: Mapping[str, Any], renovation: str) -> bool:
    """Whether any room of the lair carries the renovation (given as an id, or a record with an id)."""
    for room in lair.get("rooms") or []:
        for done in room.get("renovations") or []:
            name = done.get("id") or done.get("type") if isinstance(done, Mapping) else done
            if name == renovation:
                return True
    return False


def sense_lairs(
    rules: Mapping[str, Any],
    factions: Mapping[str, Mapping[str, Any]],
    scouting_faction: str,
    scouted: str,
    total: int,
    spy_rank: int,
    *,
    with_leader: bool,
    with_unit: bool,
) -> list[dict[str, Any]]:
    """What a scout total at ``scouted`` reveals of the other usurpers' lairs: one report per lair sensed,
    in a stable order (faction id, lair id), none saying whose lair it is."""
    tier = spy_tier(rules, spy_rank)
    out_of_mind = rules["scouting"]["out_of_mind"]["renovation"]
    reports: list[dict[str, Any]] = []
    for faction in sorted(factions):
        if faction == scouting_faction:
            continue
        lairs = factions[faction].get("lairs") or {}
        for lair_id in sorted(lairs):
            lair = lairs[lair_id]
            apart = distance(scouted, lair["grid"])
            if apart > tier.range or total <= int(lair["obscurity"]["current"]):
                continue
            if has_renovation(lair, out_of_mind) and not (with_leader and with_unit):
                continue  # Out-of-Mind: only a party of leader and unit together finds it
            report: dict[str, Any] = {"grid": scouted, "tier": tier.tier, "range": tier.range}
            if tier.direction == "rough":
                report["direction"] = rough_direction(scouted, lair["grid"])
            elif tier.direction == "fine":
                report["direction"] = fine_direction(scouted, lair["grid"])
            if tier.close_within is not None:
                report["close"] = apart <= tier.close_within
            if apart == 0:
                report["here"] = True  # the lair stands on the grid searched: found, whatever the Spy rank
            reports.append(report)
    return reports


def best_rank(records: Iterable[Mapping[str, Any]], skill: str) -> int:
    """The highest rank of a skill among the records (0 when none has it)."""
    return max((int((r.get("skills") or {}).get(skill, {}).get("rank", 0)) for r in records), default=0)


def ranks(records: Sequence[Mapping[str, Any]], skill: str) -> int:
    """The ranks of a skill summed over the records: every participant's skills stack (the Bronze rule)."""
    return sum(int((r.get("skills") or {}).get(skill, {}).get("rank", 0)) for r in records)
