"""Control points: what a faction can command, what its units cost, and the penalty for commanding more.

Available: the rules data's base plus each held title's tier bonus and the key structures' points (the
structures chapter's ``control`` of each completed structure type).
Required: per unit, a point per started block of figures, the race's own points (a hero's one), and a
point per started block of maximum mana; the blocks are the units chapter's numbers.

At the end of day 1 each unit of a faction short by ``missing`` points refuses to act for the month with
``missing`` % chance (one labelled roll per unit); any unit about to join a battle it is not the target of
refuses with ``battle_refusal × missing`` % chance.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from ...core.dice import Roll, roll_label
from . import structures, titles

__all__ = [
    "available",
    "control_check",
    "max_mana",
    "missing",
    "refuses_battle",
    "required",
    "unit_cost",
]

Rules = Mapping[str, Any]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def max_mana(rules: Rules, unit: Mapping[str, Any]) -> int:
    """The sum of the unit's levels in magic skills, times the units chapter's mana per level."""
    per_level = int((rules.get("unit_stats") or {}).get("mana_per_magic_level", 1))
    levels = 0
    for skill in unit.get("skills") or {}:
        spec = (rules.get("skills") or {}).get(skill) or {}
        if "magic" in (spec.get("flags") or ()):
            levels += titles.skill_level(rules, unit, skill)
    return levels * per_level


def unit_cost(rules: Rules, unit: Mapping[str, Any]) -> int:
    """One unit's control points: started blocks of figures, the race's own points, started blocks of
    maximum mana. A stockpile (no figures) costs nothing."""
    figures = int(unit.get("figures", 0))
    if figures <= 0:
        return 0
    control = rules["unit_stats"]["control"]
    race = (rules.get("races") or {}).get(unit.get("race")) or {}
    mana = max_mana(rules, unit)
    return (
        _ceil_div(figures, int(control["figures_per_point"]))
        + int(race.get("control", 0))
        + _ceil_div(mana, int(control["mana_per_point"]))
    )


def available(state: Mapping[str, Any], rules: Rules, faction: str) -> int:
    tiers = rules["title_rules"]["tiers"]
    bonus = sum(
        int(tiers[titles.title_spec(rules, tag)["tier"]]) for _, tag, _ in titles.titles_of(state, faction)
    )
    bonus += structures.control_points(rules, state, faction)  # key structures (the structures chapter)
    return int(rules["control_points"]["base"]) + bonus


def required(state: Mapping[str, Any], rules: Rules, faction: str) -> int:
    return sum(unit_cost(rules, u) for u in state["units"].values() if u.get("owner") == faction)


def missing(state: Mapping[str, Any], rules: Rules, faction: str) -> int:
    """Points short (0 when within bounds)."""
    return max(0, required(state, rules, faction) - available(state, rules, faction))


def control_check(ctx: Any, state: MutableMapping[str, Any], rules: Rules) -> dict[str, list[str]]:
    """The day-1 check: every unit of a faction over its control points refuses to act for the rest of
    the month with ``missing`` % chance. Returns the idled units by faction; each faction over its points
    is told, privately, how many refused."""
    idled: dict[str, list[str]] = {}
    for faction in sorted(state.get("factions") or {}):
        short = missing(state, rules, faction)
        if short <= 0:
            continue
        rolls, refused = [], []
        for unit_id in sorted(u for u, rec in state["units"].items() if rec.get("owner") == faction):
            roll = ctx.roll(roll_label("control", unit_id), "1d100", factions=[faction])
            rolls.append(roll)
            if roll.total <= short:
                state["units"][unit_id]["idle"] = True
                refused.append(unit_id)
        idled[faction] = refused
        ctx.emit(
            "control_exceeded", actors=[faction], visible_to=[faction], rolls=rolls,
            required=required(state, rules, faction), available=available(state, rules, faction),
            missing=short, idle=refused,
            idle_names=[str(state["units"][u].get("name") or u) for u in refused],
        )  # fmt: skip
    return idled


def clear_idle(state: MutableMapping[str, Any]) -> None:
    """A new month: every unit acts again until the day-1 check says otherwise."""
    for unit in state["units"].values():
        if unit.get("idle"):
            unit["idle"] = False


def refuses_battle(
    ctx: Any,
    state: Mapping[str, Any],
    rules: Rules,
    battle: str,
    unit_id: str,
    targeted: bool,
    drawn: list[Roll] | None = None,
) -> bool:
    """Whether a unit of a faction over its points refuses to join ``battle`` (an id of the battle, stable
    across the turn). The unit attacked never refuses; without missing points nobody does. The roll, when
    one is made, is added to ``drawn`` so the caller attaches it to the event it decided."""
    if targeted:
        return False
    faction = state["units"][unit_id]["owner"]
    short = missing(state, rules, faction)
    if short <= 0:
        return False
    chance = min(100, int(rules["control_points"]["battle_refusal"]) * short)
    roll = ctx.roll(roll_label("battle-refusal", battle, unit_id), "1d100", factions=[faction])
    if drawn is not None:
        drawn.append(roll)
    return roll.total <= chance
