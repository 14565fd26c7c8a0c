"""What a full battle report teaches its reader (spec §7.3.14): the races, skills and items used on both
sides, each described the first time the faction meets it.

A faction that fought, still has a unit standing and reads the full report (not TERSE) gets an entry for
each race, worn item and battle skill of the fighters, on either side, that it has not had described
before. What was described is kept in the faction's knowledge record (``knowledge.py``: items, skills with
the highest level known, and here races), so the month's knowledge report does not tell it again, and a
later battle only describes what is new. Entries are words made from the rules data alone (the same data
the rules pages show); no die is rolled here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import knowledge, stats

Rules = Mapping[str, Any]
RACES = "races"  # the key of the races described, in the faction's knowledge record


def _lore(rules: Rules) -> Mapping[str, Any]:
    return rules["battle_reports"]["lore"]


def used_by(rules: Rules, unit: Mapping[str, Any]) -> tuple[str, set[str], dict[str, int]]:
    """What a fighter brings to a battle: its race, the items it wears, and the level of each skill it has
    that shapes a fight (a combat, magic or action skill, one that raises a stat, or one of the skills the
    battle reads for tactics, strategy, fanaticism and combat experience)."""
    held = unit.get("items") or {}
    worn = {
        str(tag)
        for tag, count in (unit.get("equipped") or {}).items()
        if int(count or 0) > 0 and int(held.get(tag, 0) or 0) > 0 and tag in rules["items"]
    }
    kinds = set(_lore(rules)["skill_flags"])
    read_by_battle = {str((rules.get("warfare") or {}).get(key)) for key in _lore(rules)["warfare_skills"]}
    read_by_battle.add(str(rules["combat"]["experience"]["combat_skill"]))
    skills: dict[str, int] = {}
    for tag in sorted(unit.get("skills") or {}):
        if tag not in rules["skills"]:
            continue
        level = stats.skill_level(rules, unit, tag)
        shaping = (
            stats.flags(rules, tag) & kinds or rules["skills"][tag].get("bonuses") or tag in read_by_battle
        )
        if level >= 1 and shaping:
            skills[tag] = level
    return str(unit.get("race")), worn, skills


def met(rules: Rules, fighters: Iterable[Mapping[str, Any]]) -> tuple[set[str], set[str], dict[str, int]]:
    """Every race, worn item and battle skill (its highest level among them) of the fighters."""
    races: set[str] = set()
    items: set[str] = set()
    skills: dict[str, int] = {}
    for unit in fighters:
        race, worn, known = used_by(rules, unit)
        if race in rules["races"]:
            races.add(race)
        items |= worn
        for tag, level in known.items():
            skills[tag] = max(skills.get(tag, 0), level)
    return races, items, skills


def describe_new(rules: Rules, record: dict[str, Any], fighters: Iterable[Mapping[str, Any]]) -> list[str]:
    """The entries the faction has not had yet for what the fighters used, in the order races, items,
    skill levels; what they describe is stored in its knowledge record (in place) so no later report
    repeats them."""
    races, items, skills = met(rules, fighters)
    known_items, known_skills = knowledge.stored(record)
    book = dict(record.get(knowledge.KNOWLEDGE) or {})
    known_races = {str(tag) for tag in book.get(RACES) or []}
    new_races = sorted(races - known_races)
    new_items = sorted(items - set(known_items))
    new_skills = [
        (tag, known_skills.get(tag, 0) + 1, level)
        for tag, level in sorted(skills.items())
        if level > known_skills.get(tag, 0)
    ]
    lines = [race_entry(rules, tag) for tag in new_races]
    lines += knowledge.entries(rules, new_items, new_skills)
    if lines:
        merged = {**known_skills, **{tag: level for tag, _, level in new_skills}}
        book.update(
            items=sorted({*known_items, *new_items}),
            skills=dict(sorted(merged.items())),
            **{RACES: sorted(known_races | set(new_races))},
        )
        record[knowledge.KNOWLEDGE] = book
    return lines


def race_entry(rules: Rules, tag: str) -> str:
    """One race: what kind of unit it makes, what a figure weighs and carries, how it differs from a plain
    figure, its upkeep and the skills it is born with."""
    race = rules["races"][tag]
    kind = str(race.get("kind", ""))
    parts = [_lore(rules)["kind_words"].get(kind, kind)]
    parts.append(f"a figure weighs {race.get('weight', 0)}")
    carried = ", ".join(
        f"{value} {knowledge.MODE_WORDS.get(mode, mode)}"
        for mode, value in (race.get("capacity") or {}).items()
        if value
    )
    if carried:
        parts.append(f"carries {carried}")
    differs = stats.stat_words(race.get("stats") or {})
    if differs:
        parts.append(differs)
    upkeep = int(race.get("upkeep", 0) or 0)
    coins = f"{upkeep} coin" if upkeep == 1 else f"{upkeep} coins"
    parts.append(f"upkeep {coins} a month a figure" if upkeep else "no upkeep")
    born = [
        stats.level_words(rules, skill, stats.level_for(float(days), rules["skills"][skill]["levels"]))
        for skill, days in sorted((race.get("talents") or {}).items())
        if skill in rules["skills"]
    ]
    if born:
        parts.append(f"born with {', '.join(born)}")
    if race.get("moves"):
        parts.append("may travel on its own")
    return f"{race.get('name', tag)} [{tag}]: {'; '.join(parts)}."
