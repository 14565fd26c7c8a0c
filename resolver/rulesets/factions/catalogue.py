"""The action catalogue, read from the rules data: what each action rolls, costs, hides and does."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Rules = Mapping[str, Any]

# What an action is aimed at (``target``) decides the fields of its order:
#   npc               an NPC faction with a holding in the lieutenant's locale
#   npc_location      a location an NPC faction holds
#   faction           another faction; faction_location: another faction's assets at a location
#   holder_location   a location held by another faction or an NPC faction; location: any location
#   own_asset         an asset of the acting faction; own_unit: one of its units
#   static_type       a static asset to build, or a building project to continue
#   unit_type         a unit to buy; recruit_type: a unit to recruit, and where
#   destination       where to move


@dataclass(frozen=True)
class Action:
    """One entry of the catalogue."""

    id: str
    title: str
    target: str
    rating: str | None
    opposition: str  # defenders | npc | rival | straight | automatic
    defence: str | None
    cost: Mapping[str, int]
    stealth: str | None  # unnoticed | unidentified | always | None
    noticed_by: str  # public | target | actor
    discretion: bool
    extra: Mapping[str, Any] | None
    effects: Mapping[str, str]
    data: Mapping[str, Any] = field(default_factory=dict)  # the action's own numbers

    @property
    def rolls(self) -> bool:
        return self.opposition != "automatic"

    @property
    def straight(self) -> bool:
        return self.opposition == "straight"

    @property
    def can_be_stealthy(self) -> bool:
        return self.stealth in ("unnoticed", "unidentified")

    def by_band(self, key: str, band: str, default: Any = 0) -> Any:
        """A number of this action for a result band, e.g. by_band("take", "success")."""
        return (self.data.get(key) or {}).get(band, default)

    def rolled_as(self) -> str:
        """The roll in words, for the rules page and order echoes."""
        if not self.rolls:
            return "no roll"
        if self.straight:
            return f"straight {self.rating}"
        against = {
            "defenders": f"defenders' {self.defence or self.rating} at the target",
            "npc": f"the NPC faction's level + {self.defence or self.rating}",
            "rival": f"the target's best lieutenant in the locale (level + {self.defence or self.rating})",
        }[self.opposition]
        return f"level + {self.rating} vs {against}"


def catalogue(rules: Rules) -> dict[str, Action]:
    actions = {}
    for aid, entry in rules["catalogue"].items():
        actions[aid] = Action(
            id=aid,
            title=str(entry["title"]),
            target=str(entry["target"]),
            rating=entry.get("rating"),
            opposition=str(entry["opposition"]),
            defence=entry.get("defence"),
            cost=dict(entry.get("cost") or {}),
            stealth=entry.get("stealth"),
            noticed_by=str(entry.get("noticed_by", "public")),
            discretion=bool(entry.get("discretion", False)),
            extra=entry.get("extra"),
            effects=dict(entry["effects"]),
            data=entry,
        )
    return actions
