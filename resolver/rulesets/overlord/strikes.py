"""The arithmetic of one blow in an overlord battle: strike chance, hit odds, deadly chance, missile defense.

Every number comes from the `combat` section of the rules data; the battle module rolls the dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any


def clamp_percent(value: float) -> int:
    return max(0, min(100, int(value)))


def strike_chance(rules: Mapping[str, Any], melee: int) -> int:
    """The percent chance that an attacking figure gets a blow in at all."""
    strike = rules["strike"]
    return clamp_percent(strike["base"] + strike["per_melee"] * melee)


def reduced(attack: int, defense: int) -> tuple[int, int]:
    """Attack and defense after taking the same amount off both until the smaller is 1 (6 vs 4 gives 3 vs 1).
    With either at 0 nothing is taken off: a 0 attack always misses, a 0 defense is always hit."""
    attack, defense = max(0, attack), max(0, defense)
    if attack == 0 or defense == 0:
        return attack, defense
    cut = min(attack, defense) - 1
    return attack - cut, defense - cut


def hit_odds(attack: int, defense: int) -> Fraction:
    """The chance that a blow that got in hits: A' / (A' + D') after the reduction."""
    a, d = reduced(attack, defense)
    if a == 0:
        return Fraction(0)
    if d == 0:
        return Fraction(1)
    return Fraction(a, a + d)


def missile_defense(rules: Mapping[str, Any], defense: int) -> int:
    """Defense against a missile: a third of the full defense, rounded down."""
    return max(0, defense) // rules["missile"]["defense_divisor"]


def deadly_chance(rules: Mapping[str, Any], base_combat: int) -> int:
    """The percent chance that a hit which does not outclass the defense is deadly rather than a wound."""
    deadly = rules["deadly"]
    return clamp_percent(deadly["base"] + deadly["per_combat_level"] * base_combat)


def dodge_chance(rules: Mapping[str, Any], stealth: int, observation: int) -> int:
    """The percent chance that a target hidden better than the attacker sees avoids the attack."""
    gap = stealth - observation
    return clamp_percent(rules["stealth_dodge_per_point"] * gap) if gap > 0 else 0


def flying_modifiers(
    rules: Mapping[str, Any], attacker_flies: bool, target_flies: bool, missile: bool
) -> tuple[int, int]:
    """(attack bonus, defense bonus) of a blow between a flyer and a ground unit."""
    flying = rules["flying"]
    if attacker_flies and not target_flies:
        return flying["attack_vs_ground"], 0
    if target_flies and not attacker_flies:
        return 0, flying["defense_vs_missile"] if missile else flying["defense_vs_melee"]
    return 0, 0
