"""The sides of a nations battle: each unit as a fighter, and the battle that holds them.

Apart from ``combat`` so that a side's standing policy (``policies``) can read a battle without importing
the combat that reads the policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.dice import Roll, RollLabel


@dataclass
class Fighter:
    side: str  # "attacker" or "defender"
    army: dict[str, Any]
    unit: dict[str, Any]
    attack: int
    defence: int
    hp: int

    @property
    def alive(self) -> bool:
        return self.hp > 0


@dataclass
class Battle:
    label: RollLabel
    place: str
    fighters: list[Fighter]
    rolls: list[Roll] = field(default_factory=list)
    rounds: int = 0

    def side(self, name: str) -> list[Fighter]:
        return [f for f in self.fighters if f.side == name and f.alive]
