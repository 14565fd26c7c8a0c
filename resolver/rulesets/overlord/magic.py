"""Magic (spec §7.1): mana that grows and decays, meditation, elements, the seasons' bonuses, and world
spells cast through USE with a TARGET.

A unit's mana is ``unit.mana``; its maximum is the sum of its magic levels (stats.max_mana). Below the
maximum it gains a mana every second day; above it (meditation may push it there) it decays by bands of how
far over it stands. A spell is a magic skill whose ``use`` is ``kind: spell``: its mana is paid when the
casting begins, its days are counted like any USE (level and season), and when they are done it leaves an
enchantment on its target (effects.py) or makes an item.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from ...core.programs import Result
from . import effects, labour, stats

Rules = Mapping[str, Any]
Unit = MutableMapping[str, Any]


# ---- mana ---------------------------------------------------------------------------------------------


def mana_change(rules: Rules, mana: int, maximum: int, day: int) -> int:
    """How a unit's mana changes at the end of `day` (1-30): +1 every 2nd day below the maximum; above
    it, band n (0 for less than 50 % over, 1 for less than 100 %, ...) loses n + 1 mana every 2 days,
    spread so that the loss by day d is the whole part of d (n + 1) / 2; never below the maximum."""
    table = rules["magic"]
    if mana < maximum:
        regen = table["regeneration"]
        return min(int(regen["mana"]), maximum - mana) if day % int(regen["every"]) == 0 else 0
    if mana == maximum:
        return 0
    decay = table["decay"]
    over_percent = (mana - maximum) * 100 / max(maximum, 1)
    band = int(over_percent // int(decay["band_percent"]))
    per_period = (band + 1) * int(decay["mana_per_band"])
    every = int(decay["every"])
    loss = per_period * day // every - per_period * (day - 1) // every
    return -min(loss, mana - maximum)


def mana_day(month: Any) -> None:
    """The day's end: every unit that knows magic or holds mana regains or loses some."""
    rules = month.rules
    for unit in month.state["units"].values():
        maximum = stats.max_mana(rules, unit)
        mana = int(unit.get("mana", 0) or 0)
        if not maximum and not mana:
            continue
        change = mana_change(rules, mana, maximum, int(month.ctx.tick))
        if change:
            unit["mana"] = mana + change


# ---- elements and seasons -----------------------------------------------------------------------------


def element_of(rules: Rules, tag: str) -> str | None:
    """The element a magic skill belongs to (an element skill itself, or one it is built on)."""
    elements = rules["magic"]["elements"]
    if tag in elements:
        return tag
    return next((parent for parent in stats.parents(rules, tag) if parent in elements), None)


def elements_known(rules: Rules, unit: Mapping[str, Any]) -> list[str]:
    return [tag for tag in rules["magic"]["elements"] if stats.knows(unit, tag)]


def element_refusal(rules: Rules, unit: Mapping[str, Any], tag: str) -> str:
    """Why the unit may not take up this skill's element now (one element per level of magecraft), or ""."""
    element = element_of(rules, tag)
    if element is None or element in elements_known(rules, unit):
        return ""
    root = rules["magic"]["root"]
    allowed = stats.skill_level(rules, unit, root)
    if len(elements_known(rules, unit)) >= allowed:
        name = rules["skills"][root]["name"]
        return f"it needs another level of {name} to take up {rules['skills'][element]['name']}"
    return ""


def season_percent(rules: Rules, tag: str, season: str, weather: str) -> float:
    """How much faster the skill is studied and cast in this season and weather (spec §5.4, §7.1)."""
    element = element_of(rules, tag)
    if element is None:
        return 0.0
    table = rules["magic"]
    percent = 0.0
    if (table["elements"].get(element) or "") == season.lower():
        percent += float(table["season_percent"])
    storm = table["storm"]
    if element == storm["element"] and weather == "storm":
        percent += float(storm["percent"])
    return percent


# ---- meditation ---------------------------------------------------------------------------------------


def meditate(rules: Rules, unit: Unit, tag: str) -> int:
    """A day of meditation: inputs (1 herbs) turned into mana, per level of the skill; 0 without herbs."""
    use = labour.use_of(rules, tag)
    items = unit.setdefault("items", {})
    needs = {str(item): int(count) for item, count in (use.get("inputs") or {}).items()}
    if any(int(items.get(item, 0)) < count for item, count in needs.items()):
        return 0
    for item, count in needs.items():
        items[item] = int(items[item]) - count
        if not items[item]:
            del items[item]
    gained = int(use.get("mana_per_level", 1)) * stats.skill_level(rules, unit, tag)
    unit["mana"] = int(unit.get("mana", 0) or 0) + gained
    return gained


# ---- spells -------------------------------------------------------------------------------------------


def retarget(rules: Rules, unit: Unit, new_target: str | None) -> list[str]:
    """The unit names a new TARGET: each spell it is casting at another target loses part of its days
    and must be paid again. Returns the spells affected."""
    loss = int(rules["magic"]["retarget_loss_percent"])
    changed = []
    for tag, held in sorted((unit.get("progress") or {}).items()):
        if not isinstance(held, dict) or held.get("kind") != "spell" or not held.get("paid"):
            continue
        if held.get("target") == new_target:
            continue
        held["work"] = labour.round_work(rules, float(held.get("work", 0)) * (100 - loss) / 100)
        held["paid"] = False
        changed.append(tag)
    return changed


def spell_target(month: Any, unit_id: str, use: Mapping[str, Any]) -> str | None:
    """The spell's target now: the caster itself, its place, or the unit its TARGET names if present."""
    unit = month.state["units"][unit_id]
    kind = use.get("target", "self")
    if kind == "self":
        return unit_id
    if kind == "location":
        named = unit.get("target")
        return str(unit["location"]) if named in (None, unit.get("location")) else None
    named = unit.get("target")
    other = month.state["units"].get(named) if named else None
    if other is None or other.get("location") != unit.get("location") or other.get("moving"):
        return None
    return str(named)


def cast_day(month: Any, unit_id: str, tag: str, speed_percent: float) -> tuple[Result, str, str]:
    """A day of casting: mana paid when the casting begins, days counted, the spell's work done when they
    are complete. Returns the result, what happened ("cast" when done) and why not in words."""
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    use = labour.use_of(rules, tag)
    target = spell_target(month, unit_id, use)
    if target is None:
        return Result.SKIPPED, "", "its target is not here"
    held = labour.progress(unit, tag, "spell")
    if held.get("target") not in (None, target):
        retarget(rules, unit, target)
    held["target"] = target
    if not held.get("paid"):
        cost = int(use.get("mana", 0))
        if int(unit.get("mana", 0) or 0) < cost:
            return Result.SKIPPED, "", "not enough mana"
        unit["mana"] = int(unit.get("mana", 0) or 0) - cost
        held["paid"] = True
    work = labour.base_work(rules, unit, tag) * speed_percent / 100
    held["work"] = labour.round_work(rules, float(held.get("work", 0)) + work)
    labour.use_experience(rules, unit, tag)
    if float(held["work"]) < float(use["man_days"]) - labour.EPSILON:
        return Result.RAN, "casting", ""
    del unit["progress"][tag]
    effect = use.get("effect")
    if effect:
        if use.get("target") == "location":
            place = state.setdefault("places", {}).setdefault(target, {})
            effects.add(place.setdefault("effects", {}), str(effect["tag"]), int(effect["days"]))
        else:
            receiver = state["units"][target]
            effects.add(receiver.setdefault("effects", {}), str(effect["tag"]), int(effect["days"]))
    items = unit.setdefault("items", {})
    for item, count in (use.get("output") or {}).items():
        items[str(item)] = int(items.get(item, 0)) + int(count)
    return Result.RAN, "cast", ""
