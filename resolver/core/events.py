"""Events: what happened in a turn, as data.

Reports, the chronicle, the newspaper and the maps are all views of events, so
the resolver never writes prose. Each event is public or seen by named factions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .dice import Roll


@dataclass
class Event:
    kind: str
    phase: str = ""
    actors: list[str] = field(default_factory=list)  # factions who did it or were hit by it
    place: str | None = None  # a location id
    data: dict[str, Any] = field(default_factory=dict)  # names and numbers for the templates
    visible_to: list[str] | None = None  # None: public
    rolls: list[Roll] = field(default_factory=list)

    @property
    def public(self) -> bool:
        return self.visible_to is None

    def seen_by(self, faction: str) -> bool:
        return self.visible_to is None or faction in self.visible_to or faction == "gm"

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "phase": self.phase, "actors": list(self.actors)}
        if self.place is not None:
            data["place"] = self.place
        if self.data:
            data["data"] = self.data
        data["visibility"] = "public" if self.visible_to is None else sorted(set(self.visible_to))
        if self.rolls:
            data["rolls"] = [r.to_data() for r in self.rolls]
        return data


def private(*factions: str) -> list[str]:
    return sorted(set(factions))


def visible(events: Iterable[dict[str, Any]], faction: str) -> list[dict[str, Any]]:
    """Filter archived (serialised) events down to what one faction saw."""
    return [e for e in events if e.get("visibility") == "public" or faction in e.get("visibility", [])]
