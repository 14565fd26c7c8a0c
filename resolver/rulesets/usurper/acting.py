"""One action as the reading of its order finds it: who acts, who helps, where, from which lair.

The checker and the resolver both build this from the order (``reading.py``); the procedures of the
turn carry it out, each reading the same fields."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.orders import Order
from ...engine.context import TurnContext
from ...engine.ruleset import TurnMemory
from . import model as m


@dataclass
class Plan:
    faction: str
    action: str
    order: Order
    initiator: str  # the entity's id
    assistants: list[str]  # ids, in the order's order
    leaders: list[dict[str, Any]]  # the records of every leader taking part, initiator first if a leader
    units: list[dict[str, Any]]  # the records of every unit taking part, initiator first if a unit
    start: str  # the grid they set out from: the initiator's lair
    target: str  # the grid where the action happens
    end: str  # where they end the week
    lair: dict[str, Any] | None  # the initiator's home lair, where its goods are stored
    details: dict[str, Any] = field(default_factory=dict)  # what an action's own requirements found

    @property
    def participants(self) -> list[str]:
        return [self.initiator, *self.assistants]

    @property
    def at_home(self) -> bool:
        """Whether the action happens in the lair they set out from (crafting, building, training)."""
        return self.lair is not None and self.target == self.lair["grid"]

    def initiator_kind(self) -> str:
        return m.LEADER if any(leader["id"] == self.initiator for leader in self.leaders) else m.UNIT


@dataclass
class UsurperWeek(TurnMemory):
    """What the steps of one week tell each other: every usurper's plans, read once and carried out each
    in its step."""

    plans: dict[str, list[Plan]] = field(default_factory=dict)  # faction -> its accepted plans, in order
    # The game's first month, as the turn table's own step says (``when: {first_month: true}``): no d100
    # explodes, and an action's failure reads as a Partial Success.
    first_month: bool = False


Context = TurnContext[UsurperWeek]  # a week of this ruleset, with its typed memory


def told(ctx: Context, *factions: str) -> list[str] | None:
    """Who hears of what usurpers did: only the usurpers concerned in a sealed campaign, which keeps each
    one's doings its own; everyone in an open one, whose state is public anyway, so that its chronicle,
    newspaper and map tell the week as it went."""
    return sorted(set(factions)) if ctx.sealed else None
