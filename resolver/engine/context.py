"""What a phase of the turn may read besides the state, and where it tells what happened."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..core.calendar import GameDate
from ..core.dice import Dice, Roll, RollLabel, roll_label
from ..core.events import Event
from ..core.orders import Order, OrderFile
from .ruleset import Game, TurnMemory

Memory = TypeVar("Memory", bound=TurnMemory)


@dataclass
class TurnContext(Generic[Memory]):
    """What a phase may read besides the state, and where it reports what happened."""

    game: Game
    turn: int
    date: GameDate
    dice: Dice
    orders: Mapping[str, OrderFile]  # accepted files by faction, without the GM's
    posting_order: list[str]
    gm_orders: OrderFile | None = None
    phase: str = ""
    events: list[Event] = field(default_factory=list)
    memory: Memory = field(default_factory=TurnMemory)  # type: ignore[assignment]  # the ruleset's own
    # A sealed campaign's turn: what the GM does is told only to those it concerns, and no public event
    # may name a concealed piece. An open campaign's state is public, so its events stay as they were.
    sealed: bool = False
    tick: int = 0  # the tick of the turn's clock, 1.. inside a repeated block, 0 outside (core.clock)

    @property
    def rules(self) -> dict[str, Any]:
        return self.game.rules

    def emit(
        self,
        kind: str,
        *,
        actors: Iterable[str] = (),
        place: str | None = None,
        visible_to: Iterable[str] | None = None,
        rolls: Iterable[Roll] = (),
        **data: Any,
    ) -> Event:
        event = Event(
            kind=kind,
            phase=self.phase,
            actors=list(actors),
            place=place,
            data=data,
            visible_to=None if visible_to is None else sorted(set(visible_to)),
            rolls=list(rolls),
            tick=self.tick,
        )
        self.events.append(event)
        return event

    def order_failed(self, faction: str, order: Order, reason: str) -> Event:
        """An accepted order that could not be carried out: its faction alone hears why."""
        return self.emit(
            "order_failed",
            actors=[faction],
            visible_to=[faction],
            order=order.number,
            action=order.action,
            reason=reason,
        )

    def roll(self, label: RollLabel, expr: str, *, factions: Iterable[str] = (), decided: str = "") -> Roll:
        """Roll and log; ``label`` comes from ``roll_label`` so it names only stable identities."""
        if not isinstance(label, RollLabel):
            raise TypeError(f"build roll labels with roll_label(), not from free text: {label!r}")
        # Each tick rolls under its own label, or the same phase's roll on day 2 would repeat day 1's.
        when = (f"t{self.turn}", f"tick{self.tick}") if self.tick else (f"t{self.turn}",)
        return self.dice.roll(roll_label(*when, label), expr, factions=factions, decided=decided)
