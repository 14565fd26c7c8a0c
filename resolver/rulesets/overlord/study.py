"""The executors of STUDY, TEACH and FORGET (spec §2.11, §4.9): they read an order line, ask `learning` what
a day of it does, and tell the unit's faction in words.

Every executor has the signature of the skeleton's registry, `(month, unit_id, line) -> (Result, Line |
None)`. From the month they use `state`, `rules`, `ctx` (to emit events) and `world` (whether a place is
a city); what a teacher offers its students lasts one day and is kept in `day_memory(month)`.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from ...core.programs import Line, Result
from . import digests, guards, labour, learning, magic, stats
from . import model as m
from .learning import NEVER, REACHED, WAITING, Teaching


def day_memory(month: Any) -> MutableMapping[str, Any]:
    """What this chapter's executors tell each other within one day (a teacher's help), reset each day."""
    memory = vars(month).setdefault("units_memory", {})
    if memory.get("day") != month.ctx.tick:
        memory.clear()
        memory["day"] = month.ctx.tick
    return memory


def _leaders_above(state: Mapping[str, Any], unit: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    chain, seen = [], {unit.get("id")}
    leader = unit.get("stack")
    while leader and leader not in seen and leader in state["units"]:
        seen.add(leader)
        chain.append(state["units"][leader])
        leader = state["units"][leader].get("stack")
    return chain


def _in_city(month: Any, location: str) -> bool:
    """Whether the place is a city (where the fund pays for study): the month knows its world's kinds."""
    if hasattr(month, "is_city"):
        return bool(month.is_city(location))
    place = (getattr(month, "world", None) or {}).get("places", {}).get(location) or {}
    return place.get("kind") == "city"


def _season_percent(month: Any, unit: Mapping[str, Any], tag: str) -> float:
    """How much faster this month's season and the place's weather make the study of a magic skill."""
    game = getattr(month.ctx, "game", None)
    if game is None:
        return 0.0
    season = m.season(game.calendar, int(month.state["turn"]))
    weather = labour.weather_now(month.state, str(unit["location"]))
    return magic.season_percent(month.rules, learning.next_to_study(month.rules, unit, tag), season, weather)


def _teaching_place(state: Mapping[str, Any], unit: Mapping[str, Any]) -> dict[str, int]:
    taught = dict((state.get("places", {}).get(unit["location"]) or {}).get("teaching") or {})
    inside = (state.get("structures") or {}).get(unit.get("structure") or "") or {}
    for tag, level in (inside.get("teaching") or {}).items():
        taught[tag] = max(int(level), int(taught.get(tag, 0)))
    return taught


def _emit(month: Any, kind: str, unit_id: str, **data: Any) -> None:
    """A private event of the unit's faction, naming the unit (a failed line: `line_failed`, with the line
    as written and the reason in words; ctx.order_failed is for the order file's numbered orders)."""
    unit = month.state["units"][unit_id]
    faction = unit["owner"]
    month.ctx.emit(
        kind,
        actors=[faction],
        visible_to=[faction],
        place=unit["location"],
        unit=unit_id,
        unit_name=unit["name"],
        **data,
    )


def execute_study(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """STUDY skill [level]: a day of study; without a level it is one day's order, with one it continues
    until the level is reached or study can go no further."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    args = month.read(line).args
    tag, goal = args["skill"], args["level"]
    owner = state["factions"][unit["owner"]]
    help_given = day_memory(month).get("teaching", {}).get((unit_id, tag))
    day = learning.study_day(
        rules,
        unit,
        tag,
        goal,
        fund=int(owner.get("fund", 0) or 0),
        in_city=_in_city(month, unit["location"]),
        leaders_above=_leaders_above(state, {**unit, "id": unit_id}),
        teaching_place=_teaching_place(state, unit),
        teacher=help_given,
        season_percent=_season_percent(month, unit, tag),
        working_figures=guards.working_figures(rules, unit),
    )
    if day.outcome == NEVER:
        _emit(month, "line_failed", unit_id, order=line.render(), reason=day.reason)
        return Result.INVALID, None
    if day.outcome == WAITING:
        return Result.SKIPPED, None
    if day.outcome == REACHED and not day.gained:
        return Result.FINISHED, None
    owner["fund"] = int(owner.get("fund", 0) or 0) - day.from_fund
    if day.level_after > day.level_before:
        _emit(
            month,
            "skill_reached",
            unit_id,
            skill=_name(rules, day.skill),
            level=stats.ordinal(day.level_after),
        )
    if day.outcome == REACHED:
        return Result.FINISHED, None
    return (Result.CONTINUES if goal is not None else Result.RAN), None


def execute_teach(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """TEACH unit skill [unit skill ...]: help each present student studying that skill today; the
    students' STUDY runs after the teacher's line, in report order. Several students only if all lead."""
    state, rules = month.state, month.rules
    teacher = state["units"][unit_id]
    pairs = list(month.read(line).args["pairs"])
    students = [state["units"].get(student) for student, _ in pairs]
    if len(pairs) > 1 and not all(s is not None and stats.is_leader(rules, s) for s in students):
        reason = "several students must all be leaders"
        _emit(month, "line_failed", unit_id, order=line.render(), reason=reason)
        return Result.INVALID, None
    if not guards.may_work(rules, teacher):
        return Result.SKIPPED, None  # a guard does not teach; the line waits for a day off guard
    helped = []
    for (student_id, tag), student in zip(pairs, students, strict=True):
        studying = _studying(month, student_id, tag)
        if student is None or student["location"] != teacher["location"] or not studying:
            continue
        if not guards.may_work(rules, student):
            continue  # nor is a guard taught
        if learning.can_teach(rules, teacher, student, tag):
            continue
        level = stats.skill_level(rules, teacher, tag)
        day_memory(month).setdefault("teaching", {})[(student_id, tag)] = Teaching(unit_id, level)
        helped.append((student_id, student["name"], _name(rules, tag)))
    if not helped:
        return Result.SKIPPED, None
    _tell_lessons(month, unit_id, helped)
    return Result.RAN, None


def _tell_lessons(month: Any, unit_id: str, helped: list[tuple[str, str, str]]) -> None:
    """One event a month for each teacher and place (digests.py): the days it taught, and each student
    with the skill taught and the days of it, in the order first taught."""
    told, _ = digests.monthly(month, "teaches", unit_id, str(month.state["units"][unit_id]["location"]))
    lessons: list[dict[str, Any]] = told.setdefault("lessons", [])
    for student_id, student_name, skill in helped:
        lesson = next((x for x in lessons if x["student_unit"] == student_id and x["skill"] == skill), None)
        if lesson is None:
            lessons.append({"student_unit": student_id, "student": student_name, "skill": skill, "days": 1})
        else:
            lesson["days"] = int(lesson["days"]) + 1


def _studying(month: Any, student_id: str, tag: str) -> bool:
    """Whether the student's queue holds a live STUDY of the skill (it runs after the teacher today)."""
    program = month.programs.get(student_id)
    for held in program.lines if program is not None else ():
        if held.depth == 0 and held.keyword == "STUDY" and month.read(held).args.get("skill") == tag:
            return True
    return False


def execute_forget(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """FORGET skill: drop it and every skill built on it (a one-shot)."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    tag = month.read(line).args["skill"]
    gone = learning.forget(rules, unit, tag)
    if not gone:
        reason = f"it knows no {_name(rules, tag)} to forget"
        _emit(month, "line_failed", unit_id, order=line.render(), reason=reason)
        return Result.INVALID, None
    _emit(month, "skills_forgotten", unit_id, skills=[_name(rules, t) for t in gone])
    return Result.FINISHED, None


def _name(rules: Mapping[str, Any], tag: str) -> str:
    return str((rules["skills"].get(tag) or {}).get("name", tag))


EXECUTORS = {"STUDY": execute_study, "TEACH": execute_teach, "FORGET": execute_forget}
