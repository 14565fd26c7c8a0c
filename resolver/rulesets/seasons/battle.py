"""Battles, automated from the seed's melee procedure (house rules in rules.yaml ``battle``).

Each round every engaged unit rolls attacking dice (REP/2 rounded up, with the modifiers of
``battle.attack``) and defending dice (REP/2 rounded down, with ``battle.defence``); both are read as
successes by the ``melee`` check. A unit's attacking successes beyond its opponent's defending
successes are hits on the opponent. Units pair strongest against strongest; the larger side's spare
units add outnumbering dice to the pair they back. A unit routs when its hits reach its REP; after
``battle.rounds`` rounds, or once a side has no unit standing, the side with more units standing wins.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.checks import Check, Modifier
from ...core.dice import Roll, roll_label
from . import model as m

Rules = Mapping[str, Any]


@dataclass
class Side:
    owner: str
    units: list[dict[str, Any]]
    attacking: bool  # the active side: the aggressor
    cinc: str | None = None
    in_fort: bool = False

    def standing(self) -> list[dict[str, Any]]:
        return [unit for unit in self.units if not unit.get("routed")]


@dataclass
class Outcome:
    winner: str | None  # None: a draw
    rounds: int
    rolls: list[Roll] = field(default_factory=list)
    hits: dict[str, int] = field(default_factory=dict)  # unit id -> hits taken


def attack_modifiers(
    rules: Rules,
    unit: Mapping[str, Any],
    enemy: Mapping[str, Any],
    side: Side,
    *,
    extra: int,
    season: str,
    terrain: str,
) -> list[Modifier]:
    table, mods = rules["battle"]["attack"], []
    skills = m.skills(rules, unit)
    if side.attacking:
        mods.append(Modifier("active", table["active"]))
    if m.mounted(rules, unit) and not m.mounted(rules, enemy):
        mods.append(Modifier("mounted_vs_foot", table["mounted_vs_foot"]))
    if "spear" in skills and m.mounted(rules, enemy):
        mods.append(Modifier("spear_vs_mounted", table["spear_vs_mounted"]))
    if side.cinc and unit is side.units[0]:
        mods.append(Modifier("cinc", table["cinc"]))
    for skill in ("offensive", "defensive", "missile"):
        if skill in skills:
            mods.append(Modifier(skill, table[skill]))
    if season == "Winter" and "winter" not in skills:
        mods.append(Modifier("winter", table["winter"]))
    if terrain in ("jungle", "swamp") and f"terrain_{terrain}" not in skills:
        mods.append(Modifier(terrain, table[terrain]))
    if extra:
        mods.append(Modifier("outnumbering", min(extra, int(rules["battle"]["outnumber_max"]))))
    return mods


def defence_modifiers(rules: Rules, unit: Mapping[str, Any], side: Side, *, terrain: str) -> list[Modifier]:
    table, mods = rules["battle"]["defence"], []
    skills = m.skills(rules, unit)
    if not side.attacking:
        mods.append(Modifier("not_active", table["not_active"]))
    if terrain == "wood":
        mods.append(Modifier("wood", table["wood"]))
    for skill in ("defensive", "offensive"):
        if skill in skills:
            mods.append(Modifier(skill, table[skill]))
    if side.in_fort:
        mods.append(Modifier("fort", table["fort"]))
    return mods


def exchange(attacking_successes: int, defending_successes: int) -> int:
    """Hits from one unit's attack on another: the attacking successes its defence did not stop."""
    return max(0, attacking_successes - defending_successes)


def _pairs(rules: Rules, first: Side, second: Side) -> list[tuple[dict, dict, int, int]]:
    """(unit of first, unit of second, first's spare units behind it, second's): strongest against
    strongest, the spares of the larger side dealt out from the strongest pair down."""
    ours = sorted(first.standing(), key=lambda u: (-m.fighting_rep(rules, u), u["id"]))
    theirs = sorted(second.standing(), key=lambda u: (-m.fighting_rep(rules, u), u["id"]))
    engaged = min(len(ours), len(theirs))
    spare_ours, spare_theirs = len(ours) - engaged, len(theirs) - engaged
    pairs = []
    for index in range(engaged):
        back_ours = spare_ours // engaged + (1 if index < spare_ours % engaged else 0)
        back_theirs = spare_theirs // engaged + (1 if index < spare_theirs % engaged else 0)
        pairs.append((ours[index], theirs[index], back_ours, back_theirs))
    return pairs


def _dice(ctx: Any, melee: Check, label: Any, base: int, mods: list[Modifier], owners: list[str]) -> Any:
    """The seed's melee modifiers add or take away dice, not successes: the pool is the base plus them,
    and the ledger is written into the roll's reading."""
    ledger = ", ".join(f"{mod.source} {mod.value:+d}" for mod in mods if mod.value)
    return melee.roll(
        ctx,
        label,
        count=max(0, base + sum(mod.value for mod in mods)),
        factions=owners,
        decided=f"{base} dice" + (f" and {ledger}" if ledger else ""),
    )


def fight(ctx: Any, province: str, terrain: str, first: Side, second: Side) -> Outcome:
    """Fight to the end of the last round or of one side; hits stay on the units, routs are marked."""
    rules, season = ctx.rules, ctx.date.season
    melee = Check.from_rules(rules, "melee")
    outcome = Outcome(winner=None, rounds=0)
    for number in range(1, int(rules["battle"]["rounds"]) + 1):
        if not first.standing() or not second.standing():
            break
        outcome.rounds = number
        for ours, theirs, back_ours, back_theirs in _pairs(rules, first, second):
            for unit, enemy, side, other, back in (
                (ours, theirs, first, second, back_ours),
                (theirs, ours, second, first, back_theirs),
            ):
                attack = _dice(
                    ctx,
                    melee,
                    roll_label("battle", province, unit["id"], f"r{number}", "attack"),
                    math.ceil(m.fighting_rep(rules, unit) / 2),
                    attack_modifiers(rules, unit, enemy, side, extra=back, season=season, terrain=terrain),
                    [side.owner, other.owner],
                )
                defence = _dice(
                    ctx,
                    melee,
                    roll_label("battle", province, enemy["id"], f"r{number}", "defence"),
                    m.fighting_rep(rules, enemy) // 2,
                    defence_modifiers(rules, enemy, other, terrain=terrain),
                    [side.owner, other.owner],
                )
                outcome.rolls += [attack.roll, defence.roll]
                hits = exchange(attack.total, defence.total)
                enemy["hits"] = int(enemy.get("hits", 0)) + hits
                outcome.hits[enemy["id"]] = int(enemy["hits"])
        for side in (first, second):
            for unit in side.standing():
                if unit["hits"] >= m.fighting_rep(rules, unit):
                    unit["routed"] = True
    left_first, left_second = len(first.standing()), len(second.standing())
    if left_first != left_second:
        outcome.winner = first.owner if left_first > left_second else second.owner
    return outcome
