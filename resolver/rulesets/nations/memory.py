"""What the orders of a nations turn tell the orders and phases after them, never saved.

Its own module, so that the plans, the agreements and the battles share it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.phases import State
from ...engine.ruleset import TurnMemory
from . import model as m


@dataclass
class NationsTurn(TurnMemory):
    """What the orders of a turn leave for later orders and phases; the checker keeps one per file."""

    armies: m.ArmyIndex = field(default_factory=lambda: m.ArmyIndex({"armies": {}}))
    # The resolver's settlements by tile and name during the orders; the checker asks its state, held still.
    settlements: m.SettlementIndex | None = None
    moved: set[str] = field(default_factory=set)  # army ids that marched (or joined one that did)
    engaged: set[str] = field(default_factory=set)  # army ids attacked on their tile: they stay put
    marauded: set[str] = field(default_factory=set)  # ids of the settlements marauded and the marauders
    marauders: list[dict[str, str]] = field(default_factory=list)  # for the trade routes they stand on
    sieges_laid: set[str] = field(default_factory=set)  # settlement ids
    met: list[tuple[str, str, str]] = field(default_factory=list)  # (tile, nation, other) met on a march
    explored: dict[str, list[str]] = field(default_factory=dict)  # nation -> tiles explored this turn
    worked: set[str] = field(default_factory=set)  # project ids given work
    begun: set[tuple[str, str]] = field(default_factory=set)  # (nation, settlement id or adv:NAME) begun
    sites: set[str] = field(default_factory=set)  # tiles where a settlement is begun
    roads: set[str] = field(default_factory=set)  # tiles given a road
    agreed: set[tuple[str, str, str]] = field(default_factory=set)  # (nation, partner, kind)

    def settlement_at(self, state: State, tile: str) -> m.Settlement | None:
        return m.settlement_at(state, tile) if self.settlements is None else self.settlements.at(tile)

    def settlement_named(self, state: State, name: str) -> m.Settlement | None:
        return m.settlement_named(state, name) if self.settlements is None else self.settlements.named(name)
