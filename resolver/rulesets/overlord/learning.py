"""Study, teaching and forgetting as changes to a unit (spec §4.9.3-§4.9.8): one day of study at a time.

The executors of `study.py` read the order line and the day; this module decides what a day of study does
to the unit and what it costs, and never reads an order. Every number is the rules data's.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import magic, stats

Rules = Mapping[str, Any]
Unit = MutableMapping[str, Any]

# What a day of study came to.
STUDIED = "studied"  # a day of experience gained (the goal, if any, not reached yet)
REACHED = "reached"  # the requested level is reached (before or by this day): the order is done
NEVER = "never"  # the unit can never study this: the order is dropped
WAITING = "waiting"  # not today (no coins, no teacher for a specialist skill): the order is kept


@dataclass
class StudyDay:
    outcome: str
    skill: str  # the skill actually studied: the requested one or a missing prerequisite
    gained: float = 0.0
    cost: int = 0
    from_fund: int = 0
    level_before: int = 0
    level_after: int = 0
    speed: float = 100  # percent
    taught: bool = False
    reason: str = ""  # in words, for NEVER and WAITING
    spilled: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Teaching:
    """A teacher's help to one student for one skill on one day."""

    teacher: str
    level: int  # the teacher's level in the skill


def _round(rules: Rules, value: float) -> float | int:
    value = round(value, int(rules["study"]["decimals"]))
    return int(value) if value == int(value) else value


def own_limit(rules: Rules, unit: Mapping[str, Any], tag: str) -> int:
    """The highest level the unit reaches in the skill by its own study (spec §4.9.4, house rule §8.2 #16)."""
    study = rules["study"]
    kind = stats.kind(rules, unit)
    skill_kind = stats.skill_kind(rules, tag)
    limit = int(study["limits"][kind][skill_kind])
    if kind == "follower" and skill_kind == "combat" and "scou" in stats.basic_roots(rules, unit):
        limit = min(limit, int(study["follower_scout_combat_limit"]))
    return limit


def taught_limit(rules: Rules, tag: str, teacher_level: int) -> int:
    cap = (rules["study"].get("taught_limits") or {}).get(stats.skill_kind(rules, tag))
    return min(teacher_level, int(cap)) if cap is not None else teacher_level


def never_reason(rules: Rules, unit: Mapping[str, Any], tag: str) -> str:
    """Why the unit can never study the skill, or "" if it may (whatever its level)."""
    if tag not in rules["skills"]:
        return "there is no such skill"
    marks = stats.flags(rules, tag)
    kind = stats.kind(rules, unit)
    name = rules["skills"][tag]["name"]
    if kind == "creature":
        return "creatures never study"
    if "talent" in marks:
        return f"{name} is a creature's talent, never studied"
    if "leader" in marks and kind not in ("leader", "hero"):
        return f"only leaders and heroes learn {name}"
    if kind == "follower":
        root = stats.root(rules, tag)
        held = stats.basic_roots(rules, unit) - {"cmbt"}
        if root != "cmbt" and held and root not in held:
            knows = ", ".join(rules["skills"][r]["name"] for r in sorted(held))
            return f"followers keep one basic skill besides combat, and these already know {knows}"
    return ""


def next_to_study(rules: Rules, unit: Mapping[str, Any], tag: str) -> str:
    """The skill a day of `STUDY tag` works on: the deepest prerequisite the unit still lacks, else the
    skill itself (spec §4.9.3)."""
    current = tag
    need = stats.prerequisite(rules, current)
    while need and not stats.has_level(rules, unit, need[0], need[1]):
        current = need[0]
        need = stats.prerequisite(rules, current)
    return current


def place_teaches(rules: Rules, teaching: Mapping[str, int], tag: str, level: int) -> bool:
    """Whether a place that teaches `teaching` ({skill: level}) helps a unit now at `level` in `tag`: up to
    the taught level, and for the skills below a taught one up to the level it requires (spec §4.9.6)."""
    if level < int(teaching.get(tag, 0) or 0):
        return True
    for taught in teaching:
        if taught in rules["skills"]:
            chain = [taught, *stats.parents(rules, taught)]
            for child, parent in itertools.pairwise(chain):
                need = stats.prerequisite(rules, child)
                if parent == tag and need and level < need[1]:
                    return True
    return False


def study_day(
    rules: Rules,
    unit: Unit,
    tag: str,
    goal: int | None,
    *,
    fund: int,
    in_city: bool,
    leaders_above: Sequence[Mapping[str, Any]] = (),
    teaching_place: Mapping[str, int] | None = None,
    teacher: Teaching | None = None,
    season_percent: float = 0.0,
    working_figures: int | None = None,
) -> StudyDay:
    """One day of `STUDY tag [goal]` for the unit: changes its skills and coins (never the fund: the caller
    takes `from_fund` from it) and says what happened. ``season_percent``: how much faster the season and
    weather make this skill (magic's elements); ``working_figures``: the figures a guard studies with (half
    its own), which slow the day in proportion."""
    reason = never_reason(rules, unit, tag)
    if reason:
        return StudyDay(NEVER, tag, reason=reason)
    if goal is not None and stats.skill_level(rules, unit, tag) >= goal:
        level = stats.skill_level(rules, unit, tag)
        return StudyDay(REACHED, tag, level_before=level, level_after=level)
    current = next_to_study(rules, unit, tag)
    if current != tag:
        reason = never_reason(rules, unit, current)
        if reason:
            return StudyDay(NEVER, current, reason=reason)
    # One element per level of magecraft: a new element waits for the player to order magecraft first.
    reason = magic.element_refusal(rules, unit, current)
    if reason:
        return StudyDay(NEVER, current, reason=reason)
    before = stats.skill_level(rules, unit, current)
    helped = teacher if current == tag and teacher is not None and teacher.level > before else None
    limit = own_limit(rules, unit, current)
    figures = int(unit.get("figures", 1) or 0)
    bonuses = rules["study"]["bonuses"]
    if helped is not None and before >= limit:
        if figures > int(bonuses["beyond_limit_figures"]):
            helped = None  # too many figures to be taught past their own limit
        else:
            limit = max(limit, taught_limit(rules, current, helped.level))
    if before >= limit:
        name = rules["skills"][current]["name"]
        reach = stats.ordinal(limit) if limit else "no"
        reason = f"{reach} {name} is as far as study takes this unit"
        return StudyDay(NEVER, current, level_before=before, level_after=before, reason=reason)
    place = teaching_place or {}
    in_teaching_place = place_teaches(rules, place, current, before)
    if "specialist" in stats.flags(rules, current) and helped is None and not in_teaching_place:
        name = rules["skills"][current]["name"]
        reason = f"{name} is learnt only from a teacher or where it is taught"
        return StudyDay(WAITING, current, reason=reason)
    cost = int(rules["skills"][current]["cost"]) * figures
    coins = int((unit.get("items") or {}).get("coin", 0) or 0)
    from_unit = min(coins, cost)
    from_fund = cost - from_unit
    city_only = bool(rules["study"]["fund_only_in_city"])
    if from_fund and ((city_only and not in_city) or from_fund > fund):
        return StudyDay(WAITING, current, cost=cost, reason=f"{cost} coins are needed for a day of study")
    speed = 100
    own = stats.days_in(unit, current)
    if any(stats.days_in(leader, current) > own for leader in leaders_above):
        speed += int(bonuses["stack_leader"])
    if in_teaching_place:
        speed += int(bonuses["teaching_place"])
    speed += season_percent
    if helped is not None:
        speed *= int(bonuses["teach_factor"])
    if working_figures is not None and figures:
        # A guard studies as if it had only its working figures: half of them, so at half the speed.
        speed = speed * min(working_figures, figures) / figures
    if speed <= 0:
        return StudyDay(WAITING, current, reason="a guard of one figure can do nothing else")
    gained = speed / 100
    skills = unit.setdefault("skills", {})
    skills[current] = _round(rules, float(skills.get(current, 0) or 0) + gained)
    spilled: dict[str, float] = {}
    share = gained * int(rules["study"]["spill"]["parents"]) / 100
    for parent in stats.parents(rules, current):
        skills[parent] = _round(rules, float(skills.get(parent, 0) or 0) + share)
        spilled[parent] = _round(rules, share)
    items = unit.setdefault("items", {})
    if from_unit:
        items["coin"] = coins - from_unit
        if not items["coin"]:
            del items["coin"]
    after = stats.skill_level(rules, unit, current)
    done = current == tag and goal is not None and after >= goal
    return StudyDay(
        REACHED if done else STUDIED,
        current,
        gained=_round(rules, gained),
        cost=cost,
        from_fund=from_fund,
        level_before=before,
        level_after=after,
        speed=speed,
        taught=helped is not None,
        spilled=spilled,
    )


def can_teach(rules: Rules, teacher: Mapping[str, Any], student: Mapping[str, Any], tag: str) -> str:
    """Why the teacher cannot teach the student the skill now, or ""."""
    if tag not in rules["skills"]:
        return "there is no such skill"
    name = rules["skills"][tag]["name"]
    if not stats.is_leader(rules, teacher):
        return "only leaders and heroes teach"
    if stats.skill_level(rules, teacher, tag) <= stats.skill_level(rules, student, tag):
        return f"a teacher needs a higher level in {name} than the student"
    return ""


def forget(rules: Rules, unit: Unit, tag: str) -> list[str]:
    """Drop the skill and every skill that depends on it; the skills forgotten, the named one first."""
    skills = unit.setdefault("skills", {})
    gone = [t for t in (tag, *stats.dependants(rules, tag)) if t in skills]
    for t in gone:
        del skills[t]
    return gone
