"""Goods and figures changing hands (spec §2.11 GIVE, GET, DROP, EQUIP, SWAP, SPLIT, MERGE, DISBAND; §4.9.8;
§4.11): changes to unit records and places, with no order and no event in sight. The executors of
`goods.py` read the order lines and tell what happened.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, MutableMapping
from typing import Any

from . import effects, stances, stats

Rules = Mapping[str, Any]
State = MutableMapping[str, Any]
Unit = MutableMapping[str, Any]


def accepts(state: Mapping[str, Any], rules: Rules, receiver: str, giver: str) -> bool:
    """Whether the receiver's faction takes gifts from the giver's: the stances' give gate."""
    return stances.may(state, rules, giver, receiver, "give")


def amount(have: int, count: int | None, kept: int | None) -> int:
    """How many of `have` move for an order's count and number kept: no count = all; a count of 0 with a
    number kept = all but that many; otherwise the count, never below the number kept."""
    spare = max(0, have - (kept or 0))
    return spare if count is None or count == 0 else min(count, spare)


def _take(unit: Unit, tag: str, count: int) -> None:
    """Remove items from a unit, the unequipped ones first."""
    items, equipped = unit.setdefault("items", {}), unit.setdefault("equipped", {})
    left = int(items.get(tag, 0)) - count
    if left > 0:
        items[tag] = left
    else:
        items.pop(tag, None)
    if int(equipped.get(tag, 0)) > max(left, 0):
        if left > 0:
            equipped[tag] = left
        else:
            equipped.pop(tag, None)


def _add(holder: MutableMapping[str, Any], tag: str, count: int) -> None:
    if count:
        holder[tag] = int(holder.get(tag, 0)) + count


def hand_over(giver: Unit, receiver: Unit, tag: str, count: int) -> None:
    _take(giver, tag, count)
    _add(receiver.setdefault("items", {}), tag, count)


def take_from_ground(state: State, unit: Unit, location: str, tag: str, count: int) -> None:
    ground = state["places"].setdefault(location, {}).setdefault("ground", {})
    ground[tag] = int(ground.get(tag, 0)) - count
    if ground[tag] <= 0:
        del ground[tag]
    _add(unit.setdefault("items", {}), tag, count)


def drop(state: State, unit: Unit, tag: str, count: int) -> None:
    _take(unit, tag, count)
    _add(state["places"].setdefault(unit["location"], {}).setdefault("ground", {}), tag, count)


# ---- equipment ----------------------------------------------------------------------------------------


def equip_problem(rules: Rules, unit: Mapping[str, Any], tag: str) -> str:
    """Why the unit can never equip the item, or ""."""
    item = rules["items"].get(tag)
    if not item or not item.get("category"):
        return f"{stats.item_name(rules, tag, 2)} are not equipment"
    need = item.get("equip")
    if need and not stats.has_level(rules, unit, need["skill"], int(need["level"])):
        skill = stats.level_words(rules, need["skill"], int(need["level"]))
        return f"equipping {stats.item_name(rules, tag, 2)} needs {skill}"
    return ""


def equip_room(rules: Rules, unit: Mapping[str, Any], tag: str) -> int:
    """How many of the item the unit may have equipped: its figures times the category's limit, less the
    other items of that category it wears, and no more than it holds."""
    category = rules["items"][tag]["category"]
    limit = int(rules["equipment"][category]["per_figure"]) * int(unit.get("figures", 1) or 0)
    others = sum(
        int(n)
        for other, n in (unit.get("equipped") or {}).items()
        if other != tag and (rules["items"].get(other) or {}).get("category") == category
    )
    return max(0, min(limit - others, int((unit.get("items") or {}).get(tag, 0))))


def equip(rules: Rules, unit: Unit, tag: str, count: int | None) -> int:
    """Set the equipped count: no count = as many as allowed; 0 = none; more than allowed = the limit."""
    room = equip_room(rules, unit, tag)
    wanted = room if count is None else min(count, room)
    equipped = unit.setdefault("equipped", {})
    if wanted:
        equipped[tag] = wanted
    else:
        equipped.pop(tag, None)
    return wanted


def clamp_equipment(rules: Rules, unit: Unit) -> None:
    """After figures or items leave a unit, it wears no more than its figures and holdings allow."""
    for tag in sorted(unit.get("equipped") or {}):
        equip(rules, unit, tag, int(unit["equipped"][tag]))


# ---- figures ------------------------------------------------------------------------------------------


def split(rules: Rules, unit: Unit, count: int, new_id: str) -> dict[str, Any]:
    """A new unit of `count` figures taken from `unit`: unequipped figures first, then equipped ones with
    their equipment (which stays equipped); unequipped items stay; experience and effects are copied."""
    figures = int(unit["figures"])
    part: dict[str, Any] = {
        **{key: value for key, value in unit.items() if key not in ("items", "equipped", "orders", "title")},
        "figures": count, "items": {}, "equipped": {}, "orders": [], "title": None,
        "name": f"{unit['name']} (part)", "skills": dict(unit.get("skills") or {}),
        "effects": {}, "settings": dict(unit.get("settings") or {}),
    }  # fmt: skip
    effects.split(unit, part)  # both parts keep every enchantment whole (the production chapter's rule)
    for tag, worn in sorted((unit.get("equipped") or {}).items()):
        per_figure = int(rules["equipment"][rules["items"][tag]["category"]]["per_figure"])
        wearers = math.ceil(int(worn) / per_figure)
        moving_wearers = max(0, count - (figures - wearers))
        moving = min(int(worn), moving_wearers * per_figure)
        if moving:
            _take_equipped(unit, tag, moving)
            part["items"][tag] = moving
            part["equipped"][tag] = moving
    unit["figures"] = figures - count
    return part


def _take_equipped(unit: Unit, tag: str, count: int) -> None:
    unit["equipped"][tag] = int(unit["equipped"][tag]) - count
    if not unit["equipped"][tag]:
        del unit["equipped"][tag]
    _take_plain(unit, tag, count)


def _take_plain(unit: Unit, tag: str, count: int) -> None:
    items = unit["items"]
    items[tag] = int(items.get(tag, 0)) - count
    if items[tag] <= 0:
        del items[tag]


def merge_forgets(rules: Rules, mover: Mapping[str, Any], receiver: Mapping[str, Any]) -> list[str]:
    """The skills the moving figures forget before a merge: if the result would hold two basic skills
    besides combat, the movers drop their own basic trees the receiver does not share (spec §4.9.8,
    house rule §8.2 #16)."""
    own = stats.basic_roots(rules, receiver) - {"cmbt"}
    theirs = stats.basic_roots(rules, mover) - {"cmbt"}
    if len(own | theirs) <= 1:
        return []
    dropped = theirs - own
    return [
        tag
        for tag in (mover.get("skills") or {})
        if tag in rules["skills"] and stats.root(rules, tag) in dropped
    ]


def merge(rules: Rules, source: Unit, target: Unit, count: int) -> list[str]:
    """Move `count` figures (0: every figure and every possession) from source into target; experience
    becomes the average weighted by figures; target's effects are diluted likewise. The skills the movers
    forgot first are returned."""
    whole = count == 0
    moving = int(source["figures"]) if whole else count
    staying = int(target.get("figures", 0) or 0)
    total = staying + moving
    forgotten = merge_forgets(rules, source, target)
    decimals = int(rules["study"]["decimals"])
    mover_skills = {t: d for t, d in (source.get("skills") or {}).items() if t not in forgotten}
    skills = target.setdefault("skills", {})
    for tag in sorted(set(skills) | set(mover_skills)):
        days = (
            float(skills.get(tag, 0) or 0) * staying + float(mover_skills.get(tag, 0) or 0) * moving
        ) / total
        days = round(days, decimals)
        skills[tag] = int(days) if days == int(days) else days
        if not skills[tag]:
            del skills[tag]
    # Enchantments diluted by figures, counting what the joining figures bring; dissent goes with them.
    effects.merge(rules, source, target, moving)
    target["figures"] = total
    source["figures"] = int(source["figures"]) - moving
    if whole:
        for tag, n in sorted((source.get("items") or {}).items()):
            _add(target.setdefault("items", {}), tag, int(n))
        source["items"], source["equipped"] = {}, {}
    clamp_equipment(rules, source)
    return forgotten


def disband(rules: Rules, state: State, unit_id: str) -> int:
    """Remove the unit with all it has; its figures join the local population if they are men. Units
    stacked directly under it stand alone (or under its own leader). The figures returned are returned."""
    unit = state["units"].pop(unit_id)
    men = stats.kind(rules, unit) != "creature"
    for other in state["units"].values():
        if other.get("stack") == unit_id:
            other["stack"] = unit.get("stack")
    for place in (state.get("places") or {}).values():
        title = place.get("title") or {}
        if title.get("holder") == unit_id:
            title["holder"] = None
    returned = int(unit.get("figures", 0) or 0) if men else 0
    place = state.setdefault("places", {}).setdefault(unit["location"], {})
    if returned and "population" in place:
        place["population"] = int(place["population"]) + returned
    return returned
