"""What a faction knows of the game's items and skills (spec §1.6.8), kept in its record, and RESHOW.

A faction learns of an item when one of its units holds it, or sees it traded or growing where it stands;
of a skill when one of its units reaches a level of it (and then of the level after it too), when a place
where it stands teaches it, when an item it knows needs it to be worn, or when a skill it knows needs it
first. What it knows is kept in its record as ``knowledge: {items: [tags], skills: {tag: level}}`` (private:
the fog of war declares it so); at the month's end what is new is told in one private event, which the
report prints in full (``report.py``). RESHOW prints what is stored again, in the report of the month it
was given.

Nothing here rolls a die; the entries are words made from the rules data alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...core.phases import State
from . import language, stats
from . import model as m

Rules = Mapping[str, Any]
KNOWLEDGE = "knowledge"


# ---------------------------------------------------------------- what a faction knows


def stored(record: Mapping[str, Any]) -> tuple[list[str], dict[str, int]]:
    """The items and skill levels a faction record keeps (empty for a faction that has learnt nothing)."""
    book = record.get(KNOWLEDGE) or {}
    return list(book.get("items") or []), {str(k): int(v) for k, v in (book.get("skills") or {}).items()}


def relevant(rules: Rules, state: State, faction: str) -> tuple[set[str], dict[str, int]]:
    """Every item and the highest level of every skill relevant to the faction in the state as it stands."""
    items: set[str] = set()
    skills: dict[str, int] = {}
    catalogue, book = rules["items"], rules["skills"]

    def skill_up_to(tag: str, level: int) -> None:
        if tag in book:
            top = len(book[tag].get("levels") or [])
            skills[tag] = max(skills.get(tag, 0), min(max(level, 1), top))

    mine = m.owned(state, faction)
    places = state.get("places") or {}
    for unit in mine.values():
        items.update(tag for tag, count in (unit.get("items") or {}).items() if int(count or 0) > 0)
        for tag in unit.get("skills") or {}:
            if tag in book and stats.knows(unit, tag):
                # A level reached shows the next level's entry too (spec §1.6.8).
                skill_up_to(tag, stats.skill_level(rules, unit, tag) + 1)
    for location in sorted({str(u.get("location")) for u in mine.values()}):
        place = places.get(location) or {}
        market = place.get("market") or {}
        for side in ("sell", "buy"):
            items.update(market.get(side) or {})
        items.update(place.get("resources") or {})
        for tag, level in (place.get("teaching") or {}).items():
            skill_up_to(str(tag), int(level or 1))
    items &= set(catalogue)
    for tag in sorted(items):
        need = catalogue[tag].get("equip")
        if need:
            skill_up_to(str(need["skill"]), int(need.get("level") or 1))
    for tag in sorted(skills):  # the skills below a known one, as far as it needs them
        need, seen = stats.prerequisite(rules, tag), {tag}
        while need and need[0] not in seen:
            seen.add(need[0])
            skill_up_to(need[0], need[1])
            need = stats.prerequisite(rules, need[0])
    return items, skills


def learn(rules: Rules, state: State, faction: str) -> tuple[list[str], list[tuple[str, int, int]]]:
    """Store what is newly relevant to the faction; return it: the new items, and each skill's new
    levels as (tag, first new level, last new level)."""
    record = state["factions"][faction]
    known_items, known_skills = stored(record)
    items, skills = relevant(rules, state, faction)
    new_items = sorted(items - set(known_items))
    new_skills = [
        (tag, known_skills.get(tag, 0) + 1, level)
        for tag, level in sorted(skills.items())
        if level > known_skills.get(tag, 0)
    ]
    if new_items or new_skills:
        merged = {**known_skills, **{tag: level for tag, _, level in new_skills}}
        record[KNOWLEDGE] = {
            **(record.get(KNOWLEDGE) or {}),  # what else it keeps (the races a battle described)
            "items": sorted({*known_items, *new_items}),
            "skills": dict(sorted(merged.items())),
        }
    return new_items, new_skills


def month_end(ctx: Any, state: State) -> None:
    """After the month: each faction with units learns what became relevant, told to it alone."""
    for faction in sorted(state["factions"]):
        if not m.owned(state, faction):
            continue
        items, skills = learn(ctx.rules, state, faction)
        if items or skills:
            ctx.emit(
                "knowledge_gained",
                actors=[faction],
                visible_to=[faction],
                items=items,
                skills=[list(entry) for entry in skills],
                item_names=[stats.item_name(ctx.rules, tag) for tag in items],
                skill_names=[_levels_words(ctx.rules, *entry) for entry in skills],
            )


# ---------------------------------------------------------------- RESHOW


def reshown(rules: Rules, record: Mapping[str, Any], topic: str, level: int | None) -> dict[str, Any]:
    """What RESHOW topic [level] prints again from the stored knowledge: ALL, an order's keyword, an item
    or a skill from ``level`` (1st by default) up to the highest level the faction knows."""
    known_items, known_skills = stored(record)
    shown: dict[str, Any] = {"topic": topic, "items": [], "skills": [], "orders": []}
    if topic == "ALL":
        shown["items"] = sorted(known_items)
        shown["skills"] = [[tag, 1, top] for tag, top in sorted(known_skills.items())]
    elif topic in language.ORDERS:
        shown["orders"] = [topic]
    elif topic in known_items:
        shown["items"] = [topic]
    elif topic in known_skills and known_skills[topic] >= (level or 1):
        shown["skills"] = [[topic, level or 1, known_skills[topic]]]
    return shown


# ---------------------------------------------------------------- the entries in words


def item_entry(rules: Rules, tag: str) -> str:
    """One item of the knowledge report: name, tag, weight, what it carries, how it is worn, its bonuses
    and what it does in battle."""
    item = rules["items"].get(tag) or {}
    parts = [f"weight {item.get('weight', 0)}"]
    carried = _modes(item.get("capacity"))
    if carried:
        parts.append(f"carries {carried}")
    worn = _modes(item.get("equipped_capacity"))
    if worn:
        parts.append(f"carries {worn} when equipped")
    category = item.get("category")
    if category:
        limit = (rules.get("equipment") or {}).get(category) or {}
        worn_as = f"equipped as {_a(str(limit.get('name', category)))}"
        if limit.get("per_figure"):
            worn_as += f", {limit['per_figure']} a figure"
        parts.append(worn_as)
        need = item.get("equip")
        if need:
            parts.append(f"needs {stats.level_words(rules, str(need['skill']), int(need.get('level') or 0))}")
    bonuses = stats.stat_words(item.get("bonuses") or {})
    if bonuses:
        parts.append(f"when equipped {bonuses}")
    fight = item.get("combat")
    if fight:
        parts.append(
            f"in battle strikes {fight.get('target', 'a foe')} at {fight.get('range', 'melee')} range"
        )
    return f"{stats.item_name(rules, tag)} [{tag}]: {'; '.join(parts)}."


def skill_entry(rules: Rules, tag: str, level: int) -> str:
    """One level of a skill: the days and coins of study it takes, who may learn it, what it needs first,
    its kind and what it gives. It never says which skills the level opens: that is found by reaching it."""
    skill = rules["skills"][tag]
    levels = [int(days) for days in skill.get("levels") or []]
    parts = []
    if level <= len(levels):
        earlier = levels[level - 2] if level >= 2 else 0
        days = levels[level - 1] - earlier
        parts.append(f"{days} days of study at {_coins(int(skill.get('cost', 0)))} a day a figure")
    marks = stats.flags(rules, tag)
    if "leader" in marks:
        parts.append("leaders and heroes only")
    need = stats.prerequisite(rules, tag)
    if need and level == 1:
        parts.append(f"needs {stats.level_words(rules, need[0], need[1])}")
    kinds = [word for word in ("basic", "specialist", "combat", "magic") if word in marks]
    if kinds:
        parts.append(f"{' and '.join(kinds)} skill")
    bonuses = stats.stat_words(_bonus_at(skill.get("bonuses"), level))
    if bonuses:
        parts.append(f"a figure gains {bonuses}")
    carry = _modes(skill.get("capacity"))
    if carry:
        parts.append(f"each figure carries {carry} more")
    if skill.get("use"):
        parts.append(f"can be put to use (USE {tag})")
    return f"{stats.level_words(rules, tag, level)} [{tag}]: {'; '.join(parts) or 'no more is known'}."


def order_entry(keyword: str) -> str:
    order = language.ORDERS[keyword]
    return f"{keyword}: {order.summary}. {order.usage()}."


def entries(
    rules: Rules, items: Iterable[str], skills: Iterable[Iterable[Any]], orders: Iterable[str] = ()
) -> list[str]:
    """The lines of a knowledge section: items first, then each skill level, then orders."""
    lines = [item_entry(rules, tag) for tag in items if tag in rules["items"]]
    for tag, first, last in (tuple(entry) for entry in skills):
        if tag in rules["skills"]:
            lines += [skill_entry(rules, str(tag), level) for level in range(int(first), int(last) + 1)]
    lines += [order_entry(keyword) for keyword in orders if keyword in language.ORDERS]
    return lines


def _levels_words(rules: Rules, tag: str, first: int, last: int) -> str:
    name = rules["skills"][tag]["name"]
    if first == last:
        return f"{stats.ordinal(first)} {name}"
    return f"{stats.ordinal(first)} to {stats.ordinal(last)} {name}"


def _bonus_at(entries_: Any, level: int) -> Mapping[str, int]:
    if not entries_ or level <= 0:
        return {}
    return entries_[min(level, len(entries_)) - 1] or {}


MODE_WORDS = {"walk": "walking", "ride": "riding", "sail": "sailing", "fly": "flying"}


def _modes(capacity: Mapping[str, Any] | None) -> str:
    shown = [(mode, value) for mode, value in (capacity or {}).items() if value]
    return ", ".join(f"{value} {MODE_WORDS.get(mode, mode)}" for mode, value in shown)


def _coins(count: int) -> str:
    return f"{count} coin" if count == 1 else f"{count} coins"


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"
