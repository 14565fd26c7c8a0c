"""Units that leave a faction during the month, kept for its report (spec §1.6.5).

The report is written from the state after the month, where a unit that fell, deserted or disbanded is no
longer found, and where a unit that swore itself to another faction already stands under its new owner.
So the moment a unit leaves its faction, the faction is told in a private event that carries the unit's
record as it stood then: the report lists the unit with that record, its deeds of the month up to then,
and how it left. The event is one of the month's faction papers (``day.FACTION_PAPERS``): even an open
campaign publishes no unit's whole record.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from ...core.phases import State
from . import model as m

LOST = "unit_lost"

# How a unit leaves its faction: the words for ``fate`` are the event text's (events.yaml).
SLAIN = "slain"
DESERTED = "deserted"
DISBANDED = "disbanded"
SWORN = "sworn"  # its oath takes it to another faction at the month's end
HANDED = "handed"  # its faction resigned and handed it on
TRANSFERS = frozenset({SWORN, HANDED})


def record(ctx: Any, state: State, unit_id: str, fate: str, heir: str | None = None) -> None:
    """Tell the unit's faction, before the unit goes or changes hands, that it is leaving and how; the
    unit's record as it stands goes with the news. ``heir``: the faction it passes to, if any."""
    unit = state["units"][unit_id]
    owner = str(unit.get("owner"))
    data: dict[str, Any] = {
        "unit": unit_id,
        "unit_name": m.unit_name(state, unit_id),
        "fate": fate,
        "record": copy.deepcopy(unit),
    }
    if heir is not None:
        data["heir"] = heir
        data["heir_name"] = str((state["factions"].get(heir) or {}).get("name") or ctx.game.name_of(heir))
    ctx.emit(LOST, actors=[owner], place=unit.get("location"), visible_to=[owner], **data)


def lost_by(events: Sequence[Mapping[str, Any]], faction: str) -> dict[str, Mapping[str, Any]]:
    """The faction's units that left it this month, by id, in the order they left, each with the event
    that told it (the last, should one unit leave twice)."""
    found: dict[str, Mapping[str, Any]] = {}
    for event in events:
        if event.get("kind") == LOST and list(event.get("actors") or []) == [faction]:
            uid = str((event.get("data") or {}).get("unit"))
            found.pop(uid, None)
            found[uid] = event
    return found
