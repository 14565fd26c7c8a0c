"""Timed enchantments (spec §4.8): ``effects: {tag: days left}`` on a unit or a place.

An effect loses a day at the end of each day and ends at none; one of the rules data's permanent length
(100,000 days) never wears off. Effects cannot be given. When figures join a unit its effects are diluted
in proportion to the figures (the joining figures bring their own days, or none); a split copies the whole
effect into both parts; dissent goes with any figures an unpaid unit gives away.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

Rules = Mapping[str, Any]
Effects = MutableMapping[str, int]


def permanent(rules: Rules) -> int:
    return int(rules["magic"]["permanent"])


def add(effects: Effects, tag: str, days: int) -> None:
    """An enchantment cast again lasts the longer of its two lengths (it does not add up)."""
    effects[tag] = max(int(effects.get(tag, 0)), int(days))


def tick(rules: Rules, effects: Effects) -> list[str]:
    """One day passes: each effect loses a day; returns those that ended, in tag order."""
    lasting = permanent(rules)
    ended = []
    for tag in sorted(effects):
        days = int(effects[tag])
        if days >= lasting:
            continue
        if days <= 1:
            ended.append(tag)
            del effects[tag]
        else:
            effects[tag] = days - 1
    return ended


def dilute(
    rules: Rules, receiver: Effects, staying: int, joining: int, brought: Mapping[str, int] | None = None
) -> None:
    """Figures join a unit: each effect becomes the figure-weighted average of the days on the staying
    figures and on the joining ones (which bring `brought`, or nothing), rounded down; a permanent effect
    stays permanent only if every figure has it."""
    total = staying + joining
    if total <= 0:
        return
    brought = brought or {}
    lasting = permanent(rules)
    for tag in sorted(set(receiver) | set(brought)):
        mine, theirs = int(receiver.get(tag, 0)), int(brought.get(tag, 0))
        if staying == 0:
            days = theirs
        elif mine >= lasting and (theirs >= lasting or joining == 0):
            days = lasting
        else:
            days = (min(mine, lasting - 1) * staying + min(theirs, lasting - 1) * joining) // total
        if days > 0:
            receiver[tag] = days
        else:
            receiver.pop(tag, None)


def split(source: Mapping[str, Any], new_unit: MutableMapping[str, Any]) -> None:
    """A unit splits: the new part keeps every effect whole, and the dissent of an unpaid unit."""
    new_unit["effects"] = {**dict(new_unit.get("effects") or {}), **dict(source.get("effects") or {})}
    if source.get("dissent"):
        new_unit["dissent"] = True


def merge(rules: Rules, source: Mapping[str, Any], target: MutableMapping[str, Any], moved: int) -> None:
    """`moved` figures of `source` join `target` (before its figures are counted up): effects diluted,
    dissent copied."""
    dilute(
        rules, target.setdefault("effects", {}), int(target.get("figures", 0)), moved, source.get("effects")
    )
    if source.get("dissent"):
        target["dissent"] = True


def effects_day(month: Any) -> None:
    """The day's end: every unit's and every place's enchantments lose a day; a unit's faction hears when
    one of its enchantments ends (a day of guarding, which the titles chapter keeps as an effect, ends
    unsaid)."""
    rules = month.rules
    names = rules.get("effects") or {}
    unsaid = {(rules.get("guarding") or {}).get("effect")}
    for unit_id, unit in sorted(month.state["units"].items()):
        for tag in tick(rules, unit.get("effects") or {}):
            if tag not in unsaid:
                month.tell("effect_ended", unit_id, effect=str((names.get(tag) or {}).get("name", tag)))
    for place in (month.state.get("places") or {}).values():
        tick(rules, place.get("effects") or {})
