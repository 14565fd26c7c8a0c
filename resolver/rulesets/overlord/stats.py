"""A unit's levels, stats and control points, read from the rules data (spec §4.3, §4.9, §4.11, §3.3).

Nothing here changes the state or rolls a die: study, goods, combat, movement and the reports all ask the
same questions of a unit, and get the same answers from here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

Unit = Mapping[str, Any]
Rules = Mapping[str, Any]

STAT_WORDS = {
    "initiative": "initiative",
    "melee": "melee",
    "missile": "missile",
    "defense": "defense",
    "damage": "damage",
    "ranged_damage": "ranged damage",
    "stealth": "stealth",
    "observation": "observation",
    "life": "life",
    "hits": "hits",
}


# ---- skills -------------------------------------------------------------------------------------------


def skill(rules: Rules, tag: str) -> Mapping[str, Any]:
    return rules["skills"][tag]


def flags(rules: Rules, tag: str) -> frozenset[str]:
    return frozenset(rules["skills"][tag].get("flags") or ())


def level_for(days: float, levels: Iterable[float]) -> int:
    """The level reached with `days` of experience: how many cumulative thresholds it has passed."""
    return sum(1 for threshold in levels if days >= threshold)


def days_in(unit: Unit, tag: str) -> float:
    return float((unit.get("skills") or {}).get(tag, 0) or 0)


def skill_level(rules: Rules, unit: Unit, tag: str) -> int:
    if tag not in rules["skills"]:
        return 0
    return level_for(days_in(unit, tag), rules["skills"][tag]["levels"])


def knows(unit: Unit, tag: str) -> bool:
    """Whether the unit has any experience at all in the skill (a novice or better)."""
    return days_in(unit, tag) > 0


def has_level(rules: Rules, unit: Unit, tag: str, level: int) -> bool:
    """Level 0 asks for some experience (a novice); 1 and up ask for that level."""
    return knows(unit, tag) if level <= 0 else skill_level(rules, unit, tag) >= level


def ordinal(level: int) -> str:
    if 10 <= level % 100 <= 20:
        return f"{level}th"
    return f"{level}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(level % 10, 'th') }"


def level_words(rules: Rules, tag: str, level: int) -> str:
    """'1st combat', 'novice parry'."""
    name = rules["skills"][tag]["name"]
    return f"{ordinal(level)} {name}" if level > 0 else f"novice {name}"


def skill_kind(rules: Rules, tag: str) -> str:
    """Which study limit applies to the skill: magic, combat or plain."""
    marks = flags(rules, tag)
    return "magic" if "magic" in marks else "combat" if "combat" in marks else "plain"


def prerequisite(rules: Rules, tag: str) -> tuple[str, int] | None:
    need = rules["skills"][tag].get("requires")
    return (str(need["skill"]), int(need["level"])) if need else None


def parents(rules: Rules, tag: str) -> list[str]:
    """The skills below this one in its tree, nearest first (blades -> [combat])."""
    chain: list[str] = []
    need = prerequisite(rules, tag)
    while need and need[0] not in chain and need[0] != tag:
        chain.append(need[0])
        need = prerequisite(rules, need[0])
    return chain


def root(rules: Rules, tag: str) -> str:
    chain = parents(rules, tag)
    return chain[-1] if chain else tag


def dependants(rules: Rules, tag: str) -> list[str]:
    """Every skill that needs this one, directly or through another, in the catalogue's order."""
    return [other for other in rules["skills"] if other != tag and tag in parents(rules, other)]


def basic_roots(rules: Rules, unit: Unit) -> set[str]:
    """The basic skills whose trees the unit has experience in (combat included)."""
    return {
        root(rules, tag)
        for tag in (unit.get("skills") or {})
        if tag in rules["skills"] and knows(unit, tag) and "basic" in flags(rules, root(rules, tag))
    }


# ---- races --------------------------------------------------------------------------------------------


def race(rules: Rules, unit: Unit) -> Mapping[str, Any]:
    return rules["races"][unit["race"]]


def kind(rules: Rules, unit: Unit) -> str:
    """follower, leader, hero or creature."""
    return str(race(rules, unit)["kind"])


def is_leader(rules: Rules, unit: Unit) -> bool:
    """Leaders and heroes: the units that lead stacks, trade, teach and study leaders' skills."""
    return kind(rules, unit) in ("leader", "hero")


# ---- stats --------------------------------------------------------------------------------------------


def scaled(bonus: int, equipped: int, figures: int) -> int:
    """An equipment bonus in proportion to the figures equipped, rounded toward zero (house rule): a
    bonus or a penalty of 1 counts only when every figure is equipped."""
    if figures <= 0 or equipped <= 0:
        return 0
    share = bonus * min(equipped, figures)
    return share // figures if share >= 0 else -((-share) // figures)


def _bonus_at(entries: list[Mapping[str, int]] | None, level: int) -> Mapping[str, int]:
    if not entries or level <= 0:
        return {}
    return entries[min(level, len(entries)) - 1] or {}


def max_mana(rules: Rules, unit: Unit) -> int:
    per_level = int(rules["unit_stats"]["mana_per_magic_level"])
    return per_level * sum(
        skill_level(rules, unit, tag) for tag in (unit.get("skills") or {}) if "magic" in flags(rules, tag)
    )


def unit_stats(rules: Rules, unit: Unit) -> dict[str, int]:
    """Every stat of one figure of the unit: defaults, race (with a hero's bonus), skill levels, equipped
    items in proportion to the figures equipped, and the effects on it; plus max_mana and control."""
    table = rules["unit_stats"]
    stats = {name: int(table["defaults"].get(name, 0)) for name in table["names"]}

    def add(bonuses: Mapping[str, Any]) -> None:
        for name, value in (bonuses or {}).items():
            stats[name] = stats.get(name, 0) + int(value)

    add(race(rules, unit).get("stats") or {})
    for tag in sorted(unit.get("skills") or {}):
        if tag in rules["skills"]:
            add(_bonus_at(rules["skills"][tag].get("bonuses"), skill_level(rules, unit, tag)))
    figures = int(unit.get("figures", 1) or 0)
    for tag, count in sorted((unit.get("equipped") or {}).items()):
        item = rules["items"].get(tag) or {}
        add({name: scaled(int(v), int(count), figures) for name, v in (item.get("bonuses") or {}).items()})
    effects = rules.get("effects") or {}
    for tag, days in sorted((unit.get("effects") or {}).items()):
        if days and isinstance(effects.get(tag), Mapping):
            add(effects[tag].get("stats") or {})
    stats["max_mana"] = max_mana(rules, unit)
    stats["control"] = control_points(rules, unit)
    return stats


def control_points(rules: Rules, unit: Unit) -> int:
    """ceil(figures / 20) + 1 for a hero + ceil(max mana / 4) (spec §3.3)."""
    control = rules["unit_stats"]["control"]
    figures = int(unit.get("figures", 1) or 0)
    extra = int(race(rules, unit).get("control", 0) or 0)
    mana = max_mana(rules, unit)
    return (
        math.ceil(figures / int(control["figures_per_point"]))
        + extra
        + math.ceil(mana / int(control["mana_per_point"]))
    )


def stat_words(stats: Mapping[str, int]) -> str:
    """'+1 initiative, +3 melee': only the values a report shows (different from the default)."""
    shown = [(name, value) for name, value in stats.items() if name in STAT_WORDS and value]
    return ", ".join(f"{value:+d} {STAT_WORDS[name]}" for name, value in shown)


# ---- items --------------------------------------------------------------------------------------------


def item_name(rules: Rules, tag: str, count: int = 1) -> str:
    item = rules["items"].get(tag) or {}
    return str(item.get("name" if count == 1 else "plural", tag) or tag)


def items_words(rules: Rules, tag: str, count: int) -> str:
    """'1 sword', '20 coins'."""
    return f"{count} {item_name(rules, tag, count)}"


def figures_words(rules: Rules, unit: Unit, count: int) -> str:
    info = race(rules, unit)
    return f"{count} {info['name'] if count == 1 else info['plural']}"
