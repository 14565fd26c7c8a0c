"""What everyone may know of a sealed overlord campaign, beyond the fog of war's declared fields.

A title is public: who holds a place's title is told in every chronicle, and it is what the standings
count. The holder is a unit, though, and another faction's units are seen only where one's own units
stand. So a view (a faction's, or everyone's) keeps the title and the faction that holds it (the title
record's ``faction``, which ``titles.transfer`` keeps), and names the holding unit only when the view holds
that unit. Likewise a unit the view shows keeps its leader only when the view shows the leader too: a
stealthy leader is not given away by the visible men stacked under it. And a faction's view names the
faction of another's unit only when its report does (spec 1.7's recognition): the others stand there
with no owner.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
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


def veil_hidden_leaders(view: State) -> None:
    """Clear (in place) the leader of each unit in the view whose leader the view does not show."""
    seen = view.get("units") or {}
    for unit in seen.values():
        if (unit or {}).get("stack") and unit["stack"] not in seen:
            unit["stack"] = None


def veil_unknown_owners(view: State, faction: str, known: Callable[[str], bool]) -> None:
    """Clear (in place) the owner of each other faction's unit in the view that ``known`` says the
    faction cannot tell the allegiance of."""
    for unit_id, unit in (view.get("units") or {}).items():
        owner = (unit or {}).get("owner")
        if owner is not None and owner != faction and not known(unit_id):
            unit["owner"] = None
