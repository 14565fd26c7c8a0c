"""What everyone may know of a sealed overlord campaign, beyond the fog of war's declared fields.

A title is public: who holds a place's title is told in every chronicle, and it is what the standings
count. The holder is a unit, though, and another faction's units are seen only where one's own units
stand. So a view (a faction's, or everyone's) keeps the title and the faction that holds it (the title
record's ``faction``, which ``titles.transfer`` keeps), and names the holding unit only when the view holds
that unit.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

State = MutableMapping[str, Any]


def veil_title_holders(view: State) -> None:
    """Drop from each title the holding unit the view does not show (in place); its faction stays."""
    seen = view.get("units") or {}
    for place in (view.get("places") or {}).values():
        title = (place or {}).get("title")
        holder = (title or {}).get("holder")
        if holder and holder not in seen:
            place["title"] = {key: value for key, value in title.items() if key != "holder"}
