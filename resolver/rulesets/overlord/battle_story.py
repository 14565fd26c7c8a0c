"""A battle's aftermath as the chronicle's list under the battle's sentence (``Ruleset.story``).

The sentence of a ``battle`` event (events.yaml) says who fought whom where and who won; what followed
(each unit's losses, a title that changed hands with its fallen holder, followers risen to heroes, the
loot) can run to dozens of names in a big battle, a wall of text on a phone. So each of those is a line of
its own here, read from the event's data alone: the names the battle event already carries, never an id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def battle_story(event: Mapping[str, Any]) -> list[str]:
    """The lines told under a battle's sentence: one a unit that lost figures, one a title of a fallen
    holder, the promotions, then the loot by receiver; none for any other event."""
    if event.get("kind") != "battle":
        return []
    data = event.get("data") or {}
    lines = [f"{loss}." for loss in data.get("losses") or []]
    for title in data.get("titles") or []:
        heir = f"{title['heir']} takes the title" if title.get("heir") else "the title stands vacant"
        lines.append(f"{title['fallen']} was {title['title']} of {title['where']}: {heir}.")
    promoted = [str(name) for name in data.get("promoted") or []]
    if promoted:
        one = len(promoted) == 1
        lines.append(
            f"{', '.join(promoted)} {'rises' if one else 'rise'} to be {'a hero' if one else 'heroes'}."
        )
    taken: dict[str, list[str]] = {}  # the receiver's name -> what it took, in the event's order
    for lot in data.get("loot") or []:
        taken.setdefault(str(lot["unit"]), []).append(str(lot["goods"]))
    lines += [f"Loot for {unit}: {', '.join(goods)}." for unit, goods in taken.items()]
    return lines
