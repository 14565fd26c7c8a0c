"""What a day of USE is worth, and the work a unit has in hand (spec §4.9.7, §4.9.9, §5.10, §7.1).

Harvesting, producing, building and casting all count a day the same way: the unit's figures times its
level in the skill, in man-days of a 1st-level worker, then faster or slower by tools, buildings, seasons
and weather. Work not yet turned into an item, a laid material or a spell is kept in ``unit.progress``
under the skill's tag, with the place it was done in: a unit that leaves the place loses it.

Pure functions of the rules data and the records they are handed; the executors are in production.py,
structures.py and magic.py.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import replace
from typing import Any

from ...core.programs import remove
from . import guards, stats

Rules = Mapping[str, Any]
Unit = MutableMapping[str, Any]
EPSILON = 1e-9  # work counted in floats: a piece is done when its remaining work is below this


def use_of(rules: Rules, tag: str) -> Mapping[str, Any]:
    """The skill's `use:` block (the skills chapter), or an empty mapping when the skill has no use."""
    return (rules["skills"].get(tag) or {}).get("use") or {}


def figures(unit: Mapping[str, Any]) -> int:
    return int(unit.get("figures", 1) or 0)


def base_work(rules: Rules, unit: Mapping[str, Any], tag: str) -> float:
    """Man-days of a 1st-level worker that one day of USE gives: figures times the level (time / L). A
    guard works with half its figures (guards.working_figures), so its production halves."""
    level = stats.skill_level(rules, unit, tag)
    if not rules["production"].get("per_level", True):
        level = min(level, 1)
    return float(guards.working_figures(rules, unit) * level)


def tool_percent(rules: Rules, unit: Mapping[str, Any]) -> float:
    """How much faster equipped tools make a craft, in percent of speed: a third less time for every
    figure holding a tool is 50 % more speed; fewer tools than figures count in proportion."""
    count = figures(unit)
    if count <= 0:
        return 0.0
    saved = 0.0
    for tag, held in sorted((unit.get("equipped") or {}).items()):
        cut = (rules["items"].get(tag) or {}).get("craft_time")
        if cut:
            saved += -float(cut) / 100 * min(int(held), count) / count
    saved = min(saved, 0.9)  # never below a tenth of the time, however many tools stack
    return (1 / (1 - saved) - 1) * 100 if saved > 0 else 0.0


def structure_of(state: Mapping[str, Any], unit: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The completed structure the unit stands inside, if any."""
    inside = (state.get("structures") or {}).get(unit.get("structure") or "")
    return inside if inside and inside.get("complete") else None


def building_percent(rules: Rules, state: Mapping[str, Any], unit: Mapping[str, Any], tag: str) -> float:
    """A production structure's bonus for a unit inside it working with `tag` (its outputs or the skill)."""
    inside = structure_of(state, unit)
    if inside is None:
        return 0.0
    kind = (rules["structures"]["types"].get(inside.get("type")) or {}).get("production") or {}
    outputs = set((use_of(rules, tag).get("output") or {}).keys())
    if tag in (kind.get("skills") or ()) or outputs & set(kind.get("items") or ()):
        return float(kind.get("percent", 0))
    return 0.0


def weather_now(state: Mapping[str, Any], location: str) -> str:
    """A place's weather this month, in the weather table's words (sun, rain, wind, storm, fair)."""
    weather = ((state.get("places") or {}).get(location) or {}).get("weather")
    word = weather.get("now") if isinstance(weather, Mapping) else weather
    word = str(word or "").lower()
    return {"sunny": "sun", "rainy": "rain", "windy": "wind", "stormy": "storm"}.get(word, word)


def round_work(rules: Rules, value: float) -> float:
    return round(value, int(rules["production"]["decimals"]))


# ---- work in hand -------------------------------------------------------------------------------------


def progress(unit: Unit, tag: str, kind: str) -> dict[str, Any]:
    """The unit's work in hand with `tag`; started afresh when it was done elsewhere or is of another kind
    (the unit moved, so the work and any inputs it had taken are lost)."""
    record = unit.setdefault("progress", {})
    held = record.get(tag)
    if not isinstance(held, dict) or held.get("location") != unit.get("location") or held.get("kind") != kind:
        held = record[tag] = {"kind": kind, "location": unit.get("location"), "work": 0}
    return held


def lose_work(unit: Unit) -> list[str]:
    """A unit leaves its place: every piece of work in hand is gone (spec §4.9.9: moving destroys work in
    progress and the inputs it consumed). Returns the skills whose work was lost. Foraged food is kept
    until the month's upkeep."""
    record = unit.get("progress") or {}
    lost = sorted(tag for tag, held in record.items() if isinstance(held, dict) and held.get("work"))
    for tag in [tag for tag, held in record.items() if isinstance(held, dict) and "kind" in held]:
        del record[tag]
    return lost


def use_experience(rules: Rules, unit: Unit, tag: str) -> None:
    """A day of USE teaches: a share of a day to the skill, a smaller one to each skill below it."""
    spill = rules["study"]["spill"]
    decimals = int(rules["study"]["decimals"])
    skills = unit.setdefault("skills", {})
    gains = [(tag, float(spill["use_skill"]))]
    gains += [(parent, float(spill["use_parents"])) for parent in stats.parents(rules, tag)]
    for skill, percent in gains:
        value = round(float(skills.get(skill, 0) or 0) + percent / 100, decimals)
        skills[skill] = int(value) if value == int(value) else value


def day_memory(month: Any) -> MutableMapping[str, Any]:
    """What this chapter's executors leave for the day's end (harvest claims, new structures' ids), kept in
    the turn memory: the day's end sees another view of the month than the executors did."""
    memory = vars(month.ctx.memory).setdefault("production_memory", {})
    if memory.get("day") != month.ctx.tick:
        memory.clear()
        memory["day"] = month.ctx.tick
    return memory


def share(pool: int, demands: Mapping[str, float], order: Sequence[str] | None = None) -> dict[str, int]:
    """`pool` whole pieces shared in proportion to `demands` (spec §5.10: 15 grain between harvesters of
    20 and 40 a month gives 5 and 10). Nobody gets more than it asked (rounded down); the odd pieces go to
    the largest remainders, ties in `order` (report order), else by key."""
    wanted = {key: max(0.0, float(value)) for key, value in demands.items()}
    caps = {key: math.floor(value + EPSILON) for key, value in wanted.items()}
    if sum(caps.values()) <= pool:
        return caps
    total = sum(wanted.values())
    if total <= 0 or pool <= 0:
        return dict.fromkeys(wanted, 0)
    exact = {key: pool * value / total for key, value in wanted.items()}
    given = {key: min(caps[key], math.floor(exact[key] + EPSILON)) for key in wanted}
    rank = {key: i for i, key in enumerate(order or sorted(wanted))}
    left = pool - sum(given.values())
    by_remainder = sorted(wanted, key=lambda key: (-(exact[key] - given[key]), rank.get(key, len(rank)), key))
    while left > 0 and any(given[key] < caps[key] for key in wanted):
        for key in by_remainder:
            if left > 0 and given[key] < caps[key]:
                given[key] += 1
                left -= 1
    return given


def count_down(month: Any, unit_id: str, tag: str, done: int) -> None:
    """A USE line with a stop count (products to make, coins to take) counts down by what the day's end
    gave, and goes when done, the lines waiting on it moving up as the queue rules say."""
    program = month.programs.get(unit_id)
    if program is None:
        return
    for index, line in enumerate(program.lines):
        if line.depth == 0 and line.keyword == "USE" and month.read(line).args.get("skill") == tag:
            left = int(month.read(line).args["count"] or 0) - done
            if left > 0:
                program.lines[index] = replace(line, args=(line.args[0], str(left), *line.args[2:]))
            else:
                remove(program, line)
            return
