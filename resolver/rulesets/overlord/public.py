"""What everyone may know of a sealed overlord campaign, beyond the fog of war's declared fields.

A title is public: who holds a place's title is told in every chronicle, and it is what the standings
count. The holder is a unit, though, and another faction's units are seen only where one's own units
stand. So a view (a faction's, or everyone's) keeps the title and the faction that holds it, and names the
holding unit only when the view holds that unit.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

State = MutableMapping[str, Any]

HELD_BY = "held_by"  # a title in a view whose holder is unseen: the faction that holds it


def veil_title_holders(view: State, state: Mapping[str, Any]) -> None:
    """Replace each title holder the view does not show with the holder's faction (in place)."""
    seen = view.get("units") or {}
    units = state.get("units") or {}
    for place in (view.get("places") or {}).values():
        title = (place or {}).get("title")
        holder = (title or {}).get("holder")
        if not holder or holder in seen:
            continue
        owner = (units.get(holder) or {}).get("owner")
        place["title"] = {key: value for key, value in title.items() if key != "holder"}
        if owner:
            place["title"][HELD_BY] = owner


def titles_held(state: Mapping[str, Any]) -> dict[str, int]:
    """How many titles each faction holds, from a full state or from a view (its ``held_by``)."""
    units = state.get("units") or {}
    counts: dict[str, int] = {}
    for place in (state.get("places") or {}).values():
        title = (place or {}).get("title") or {}
        holder = title.get("holder")
        owner = (units.get(holder) or {}).get("owner") if holder else title.get(HELD_BY)
        if owner:
            counts[str(owner)] = counts.get(str(owner), 0) + 1
    return counts
