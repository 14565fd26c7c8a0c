"""USE, TARGET and BUILD (spec §2.11, §4.9.9, §5.10, §5.11, §7.1): harvesting, producing, foraging,
building, meditating and casting, one full day at a time.

- Harvest: a day's work is a claim on the place's amount of the resource this month; claims are settled at
  the day's end (``harvest_day``), all harvesters of a resource at once, shared in proportion to what each
  could harvest when the place has too little left. A production structure's extra half is the
  structure's own and never takes from the place.
- Produce: the inputs of an item are taken whole when the item is begun; the item appears when its
  man-days are done; the work and inputs in hand are lost if the unit leaves the place.
- Forage ("-walk" skills): a ration's worth of upkeep per so many man-days, kept for this month's upkeep.
- Build, meditate and cast: structures.py and magic.py, called from here.

Every executor has the registry's signature ``(month, unit_id, line) -> (Result, Line | None)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import replace
from typing import Any

from ...core.programs import Line, Result, rewrite_ids
from . import effects, gates, labour, magic, stats, structures, taxing
from . import model as m
from .labour import share

Rules = Mapping[str, Any]
Outcome = tuple[Result, Line | None]


# ---- the land's owner ----------------------------------------------------------------------------------


def harvest_refused(month: Any, faction: str, location: str) -> bool:
    """Whether an owner or guard of the place forbids this faction to harvest there (spec §5.6)."""
    return not gates.allows(month, faction, location, "harvest")


# ---- how fast ------------------------------------------------------------------------------------------


def _season(month: Any) -> str:
    try:
        return m.season(month.ctx.game.calendar, int(month.state["turn"])).lower()
    except (AttributeError, KeyError, TypeError):
        return ""


def harvest_percent(rules: Rules, state: Mapping[str, Any], tag: str, location: str, season: str) -> float:
    """Speed of a harvest in percent: live products gain in summer and under sun or rain, lose in storms,
    and gain where an enchantment (fertility) lies on the place."""
    table = rules["production"]["harvest"]
    outputs = set((labour.use_of(rules, tag).get("output") or {}).keys())
    percent = 100.0
    if outputs & set(table["agricultural"]):
        percent += float(table["season_percent"].get(season, 0))
        percent += float(table["weather_percent"].get(labour.weather_now(state, location), 0))
        place_effects = ((state.get("places") or {}).get(location) or {}).get("effects") or {}
        for effect, days in sorted(place_effects.items()):
            if days:
                percent += float(((rules.get("effects") or {}).get(effect) or {}).get("harvest_percent", 0))
    return max(percent, 0.0)


def craft_percent(rules: Rules, state: Mapping[str, Any], unit: Mapping[str, Any], tag: str) -> float:
    """Speed of producing an item in percent: tools and a production structure the unit is inside."""
    percent = 100.0 + labour.building_percent(rules, state, unit, tag)
    if "produce" in rules["production"]["tool_skills"]:
        percent += labour.tool_percent(rules, unit)
    return percent


# ---- harvest -------------------------------------------------------------------------------------------


def _products(month: Any, line: Line) -> int | None:
    """USE skill [products]: how many items (or castings) are still to be made, or None."""
    count = month.read(line).args["count"]
    return None if count is None else int(count)


def _with_count(line: Line, left: int) -> Line:
    """USE skill n with the count of products still to make in place of n."""
    return replace(line, args=(line.args[0], str(left), *line.args[2:]))


def _harvest(month: Any, unit_id: str, tag: str, line: Line) -> Outcome:
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    use = labour.use_of(rules, tag)
    item, per_item = next(iter(use["output"])), float(use["man_days"])
    location = str(unit["location"])
    if harvest_refused(month, str(unit["owner"]), location):
        return Result.SKIPPED, None
    pool = int((((state.get("places") or {}).get(location) or {}).get("resources") or {}).get(item, 0))
    bonus_percent = labour.building_percent(rules, state, unit, tag)
    if pool <= 0 and bonus_percent <= 0:
        return Result.SKIPPED, None
    rate = labour.base_work(rules, unit, tag) * harvest_percent(rules, state, tag, location, _season(month))
    base = rate / 100 / per_item
    claims = labour.day_memory(month).setdefault("harvest", {}).setdefault((location, item), {})
    bonus = base * bonus_percent / 100
    claims[unit_id] = {"skill": tag, "base": base, "bonus": bonus, "limit": _products(month, line)}
    labour.use_experience(rules, unit, tag)
    return (Result.CONTINUES if _products(month, line) is not None else Result.RAN), None


def harvest_day(month: Any) -> None:
    """The day's end: every harvest claim of the day settled, resource by resource, place by place. The
    structure's bonus is counted apart and never takes from the place; the place's amount is shared when
    too small. A harvester keeps the part of an item it has worked toward."""
    rules, state = month.rules, month.state
    for (location, item), claims in sorted(labour.day_memory(month).pop("harvest", {}).items()):
        resources = m.place(state, location).setdefault("resources", {})
        pool = int(resources.get(item, 0))
        order = sorted(
            (uid for uid in claims if uid in state["units"]),
            key=lambda uid: (int(state["units"][uid].get("arrival", 0)), uid),
        )
        free: dict[str, int] = {}
        owed: dict[str, int] = {}
        for unit_id in order:
            claim = claims[unit_id]
            held = labour.progress(state["units"][unit_id], claim["skill"], "harvest")
            held["work"] = float(held["work"]) + claim["base"]
            held["bonus"] = float(held.get("bonus", 0)) + claim["bonus"]
            free[unit_id] = math.floor(held["bonus"] + labour.EPSILON)
            owed[unit_id] = math.floor(held["work"] + labour.EPSILON)
            if claim["limit"] is not None:
                free[unit_id] = min(free[unit_id], int(claim["limit"]))
                owed[unit_id] = min(owed[unit_id], int(claim["limit"]) - free[unit_id])
        granted = share(pool, owed, order)
        resources[item] = pool - sum(granted.values())
        for unit_id in order:
            unit, claim = state["units"][unit_id], claims[unit_id]
            held = labour.progress(unit, claim["skill"], "harvest")
            # What was received is paid out of the work; work beyond an item's fraction that the place
            # could not serve is lost.
            held["bonus"] = labour.round_work(rules, min(held["bonus"] - free[unit_id], held["bonus"] % 1))
            held["work"] = labour.round_work(rules, min(held["work"] - granted[unit_id], held["work"] % 1))
            got = free[unit_id] + granted[unit_id]
            if not got:
                continue
            items = unit.setdefault("items", {})
            items[item] = int(items.get(item, 0)) + got
            words = stats.items_words(rules, item, got)
            month.tell("harvested", unit_id, items=[words], skill=_skill_name(rules, claim["skill"]))
            if claim["limit"] is not None:
                labour.count_down(month, unit_id, claim["skill"], got)


# ---- produce -------------------------------------------------------------------------------------------


def produce_day(
    rules: Rules, state: Mapping[str, Any], unit: MutableMapping[str, Any], tag: str, limit: int | None
) -> tuple[int, bool]:
    """A day of producing: items begun (inputs taken whole) and finished as the day's man-days allow.
    Returns the items finished and whether any work was done (False: no inputs for a new item)."""
    use = labour.use_of(rules, tag)
    per_item = float(use["man_days"])
    inputs = {str(item): int(count) for item, count in (use.get("inputs") or {}).items()}
    work = labour.base_work(rules, unit, tag) * craft_percent(rules, state, unit, tag) / 100
    held = labour.progress(unit, tag, "produce")
    items = unit.setdefault("items", {})
    made, worked = 0, False
    while work > labour.EPSILON and (limit is None or made < limit):
        if not held.get("started"):
            if any(int(items.get(item, 0)) < count for item, count in inputs.items()):
                break
            for item, count in inputs.items():
                items[item] = int(items[item]) - count
                if not items[item]:
                    del items[item]
            held.update(started=True, work=0)
        step = min(per_item - float(held["work"]), work)
        held["work"] = labour.round_work(rules, float(held["work"]) + step)
        work -= step
        worked = True
        if float(held["work"]) >= per_item - labour.EPSILON:
            for item, count in use["output"].items():
                items[str(item)] = int(items.get(item, 0)) + int(count)
            held.update(started=False, work=0)
            made += 1
    return made, worked


def _produce(month: Any, unit_id: str, tag: str, line: Line) -> Outcome:
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    limit = _products(month, line)
    made, worked = produce_day(rules, state, unit, tag, limit)
    if not worked:
        return Result.SKIPPED, None
    labour.use_experience(rules, unit, tag)
    if made:
        output = labour.use_of(rules, tag)["output"]
        words = [stats.items_words(rules, str(item), int(count) * made) for item, count in output.items()]
        month.tell("produced", unit_id, items=words, skill=_skill_name(rules, tag))
    return _after(line, limit, made)


def _after(line: Line, limit: int | None, made: int) -> Outcome:
    """A line with a products stop counts down; one without runs as its prefixes say."""
    if limit is None:
        return Result.RAN, None
    if made >= limit:
        return Result.FINISHED, None
    return Result.CONTINUES, _with_count(line, limit - made)


# ---- forage --------------------------------------------------------------------------------------------

FORAGED = "foraged"  # unit.progress key of the rations foraged this month (not lost by moving)


def forage_day(rules: Rules, unit: MutableMapping[str, Any], tag: str) -> int:
    """A day of a -walk skill: rations' worth of upkeep gathered (spec §6.2); returns whole rations."""
    use = labour.use_of(rules, tag)
    record = unit.setdefault("progress", {}).setdefault(FORAGED, {"rations": 0, "work": 0})
    gathered = labour.base_work(rules, unit, tag) / float(use["man_days"]) * int(use.get("food", 1))
    total = float(record["work"]) + gathered
    whole = math.floor(total + labour.EPSILON)
    record["rations"] = int(record["rations"]) + whole
    record["work"] = labour.round_work(rules, total - whole)
    return whole


def foraged_rations(unit: Mapping[str, Any]) -> int:
    """The rations a unit foraged this month, for the month's upkeep (the economy's hook)."""
    return int(((unit.get("progress") or {}).get(FORAGED) or {}).get("rations", 0))


def end_forage(rules: Rules, unit: MutableMapping[str, Any]) -> None:
    """The month's upkeep is settled: foraged food does not keep."""
    if not rules["production"]["forage"]["keep_after_month"]:
        (unit.get("progress") or {}).pop(FORAGED, None)


def _forage(month: Any, unit_id: str, tag: str, line: Line) -> Outcome:
    unit = month.state["units"][unit_id]
    forage_day(month.rules, unit, tag)
    labour.use_experience(month.rules, unit, tag)
    return Result.RAN, None


# ---- USE -----------------------------------------------------------------------------------------------


def _skill_name(rules: Rules, tag: str) -> str:
    return str((rules["skills"].get(tag) or {}).get("name", tag))


def _fail(month: Any, unit_id: str, line: Line, reason: str) -> Outcome:
    month.tell("line_failed", unit_id, order=line.render(), reason=reason)
    return Result.INVALID, None


def execute_use(month: Any, unit_id: str, line: Line) -> Outcome:
    """USE skill [products]: a day of the skill's use, as its `use:` block in the skills chapter says."""
    rules = month.rules
    unit = month.state["units"][unit_id]
    tag = month.read(line).args["skill"]
    use = labour.use_of(rules, tag)
    if not use:
        return _fail(month, unit_id, line, f"{_skill_name(rules, tag)} has no use of its own")
    if stats.skill_level(rules, unit, tag) < 1:
        return _fail(month, unit_id, line, f"using {_skill_name(rules, tag)} needs its 1st level")
    carry_out = USES.get(str(use.get("kind")))
    if carry_out is not None:
        return carry_out(month, unit_id, tag, line)
    # A kind no executor knows is a fault of the rules data (tests/overlord/test_uses.py checks every
    # skill's): the line is dropped with its reason rather than left waiting.
    return _fail(month, unit_id, line, f"{_skill_name(rules, tag)} has no use the game carries out")


def _meditate(month: Any, unit_id: str, tag: str, line: Line) -> Outcome:
    unit = month.state["units"][unit_id]
    if not magic.meditate(month.rules, unit, tag):
        return Result.SKIPPED, None
    labour.use_experience(month.rules, unit, tag)
    return Result.RAN, None


def _cast(month: Any, unit_id: str, tag: str, line: Line) -> Outcome:
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    weather = labour.weather_now(state, str(unit["location"]))
    speed = 100 + magic.season_percent(rules, tag, _season(month), weather)
    result, what, _reason = magic.cast_day(month, unit_id, tag, speed)
    if result is Result.SKIPPED:
        return result, None
    if what != "cast":
        return Result.CONTINUES, None  # the casting goes on until its days are done
    month.tell("spell_cast", unit_id, spell=_skill_name(rules, tag))
    products = _products(month, line)
    return _after(line, products, 1) if products is not None else (Result.FINISHED, None)


# ---- TARGET and building -------------------------------------------------------------------------------


def _temporary_structure(state: Mapping[str, Any], word: str) -> bool:
    return m.temporary_owner(word, state.get("factions") or {}, "B") is not None


def execute_target(month: Any, unit_id: str, line: Line) -> Outcome:
    """TARGET unit|location|structure|structure-tag: the target of the unit's next USE of a targeted
    skill. A new target loses the building work in hand and half a spell's days (magic.retarget)."""
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    word = month.read(line).args["target"]
    target = str(word)
    known = (
        target in structures.types(rules)
        or target in (state.get("units") or {})
        or target in (state.get("structures") or {})
        or target in (state.get("places") or {})
        or target in month.ctx.game.world
        or _temporary_structure(state, target)
        or m.temporary_owner(target, state.get("factions") or {}) is not None
    )
    if not known:
        return _fail(month, unit_id, line, f"{word} is no unit, place, structure or kind of structure")
    if unit.get("target") != target:
        for tag, held in list((unit.get("progress") or {}).items()):
            if isinstance(held, dict) and held.get("kind") == "build":
                del unit["progress"][tag]
        magic.retarget(rules, unit, target)
    unit["target"] = target
    return Result.FINISHED, None


def _resolve_structure(
    month: Any, unit_id: str, target: str, temporary: str | None
) -> tuple[str | None, str]:
    """The structure a builder works on: an id here, the faction's unfinished one of a tag (or a new one),
    or the structure a temporary id became. Returns (id or None, why not in words or "" to wait)."""
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    location = str(unit["location"])
    if target in (state.get("structures") or {}):
        if state["structures"][target].get("location") != location:
            return None, ""
        return target, ""
    if target in structures.types(rules):
        found = structures.unfinished_of(state, str(unit["owner"]), target, location)
        if found:
            return found, ""
        world = month.ctx.game.world
        terrain = world[location].terrain if location in world else None
        why = structures.refusal(rules, terrain, unit)
        if why:
            return None, why
        created = structures.new_structure(rules, state, str(unit["owner"]), target, location)
        month.tell("structure_begun", unit_id, structure_kind=structures.type_name(rules, target))
        if temporary:
            labour.day_memory(month).setdefault("renamed", []).append((temporary, created))
        return created, ""
    return None, ""


def _build(
    month: Any, unit_id: str, tag: str, line: Line, limit: int | None, temporary: str | None = None
) -> tuple[Result, int]:
    """A day of a building skill on the unit's target: the result and the pieces of material laid."""
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    target = unit.get("target")
    if not target:
        return Result.SKIPPED, 0
    structures.spare_piece(month, unit_id, tag)  # a piece in hand its structure no longer needs comes back
    items = unit.get("items") or {}
    if str(target) in structures.types(rules):
        probe = {"type": str(target), "built": {}}
        if not any(int(items.get(mat, 0)) > 0 for mat in structures.still_needed(rules, probe, tag)):
            return Result.SKIPPED, 0  # nothing to lay: no structure is begun for nothing
    structure_id, why = _resolve_structure(month, unit_id, str(target), temporary)
    if why:
        return _fail(month, unit_id, line, why)[0], 0
    if structure_id is None:
        return Result.SKIPPED, 0
    unit["target"] = structure_id
    result, laid, _ = structures.build_day(month, unit_id, tag, structure_id, limit)
    if limit is not None and result is Result.RAN:
        result = Result.FINISHED if laid >= limit else Result.CONTINUES
    return result, laid


def _use_build(month: Any, unit_id: str, tag: str, line: Line) -> Outcome:
    limit = _products(month, line)
    result, laid = _build(month, unit_id, tag, line, limit)
    if result is Result.CONTINUES and limit is not None:
        return result, _with_count(line, limit - laid)
    return result, None


def execute_build(month: Any, unit_id: str, line: Line) -> Outcome:
    """BUILD skill [structure-tag|structure-id|new-id] [count]: TARGET and USE of a building skill in one
    order; a tag followed by a temporary id (BUILD carp fort rednB01) starts that structure under the id,
    which the unit's other lines and other units may name; count stops it after so many materials."""
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    args = month.read(line).args
    tag = args["skill"]
    if labour.use_of(rules, tag).get("kind") != "build":
        return _fail(month, unit_id, line, f"{tag} is not a building skill (carpentry, masonry, siegecraft)")
    if stats.skill_level(rules, unit, tag) < 1:
        return _fail(month, unit_id, line, f"building needs 1st level in {_skill_name(rules, tag)}")
    construction, built = args["construction"], args.get("construction_kind")
    kind = construction if built == "structure_type" else None
    temporary = args["new"] or (construction if _temporary_structure(state, str(construction)) else None)
    existing = construction if construction in (state.get("structures") or {}) else None
    count = args["count"]
    if temporary and not kind:
        return Result.SKIPPED, None  # waits until another builder starts the structure under that id
    target = existing or kind
    if target and unit.get("target") != target:
        unit["target"] = target
    result, laid = _build(month, unit_id, tag, line, count, temporary)
    if result is Result.CONTINUES and count is not None:
        # The count is the line's last word (the table's last argument): it counts down in place.
        return result, replace(line, args=(*line.args[:-1], str(count - laid)))
    return result, None


def structures_day(month: Any) -> None:
    """The day's end: structures begun under temporary ids take their permanent ids in every queue and
    every unit's target (spec §2.9)."""
    for temporary, created in labour.day_memory(month).pop("renamed", []):
        _name_by_id(month.programs, temporary)
        rewrite_ids(month.programs, temporary, created)
        for unit in month.state["units"].values():
            if unit.get("target") == temporary:
                unit["target"] = created


def _name_by_id(programs: Any, temporary: str) -> None:
    """The line that began a structure (BUILD carp barr rednB01) goes on naming it by its id alone (BUILD
    carp rednB01, then BUILD carp B1): once begun, the type has said what it had to, and a type followed by
    a permanent id is no line the checker reads, so the rest of a counted BUILD would be dropped."""
    for program in programs.values():
        for index, line in enumerate(program.lines):
            if line.keyword == "BUILD" and line.args[2:3] == (temporary,):
                program.lines[index] = replace(line, args=(line.args[0], *line.args[2:]))


def production_day(month: Any) -> None:
    """Everything of this chapter at the day's end: harvests and taxes collected settled, new structures'
    ids, mana and enchantments."""
    harvest_day(month)
    taxing.taxing_day(month)
    structures_day(month)
    magic.mana_day(month)
    effects.effects_day(month)


# Every `use:` kind of the skills chapter, with the function that carries out a day of it: a skill whose
# kind is missing here would have its USE dropped (tests/overlord/test_uses.py).
USES: dict[str, Callable[[Any, str, str, Line], Outcome]] = {
    "harvest": _harvest,
    "produce": _produce,
    "forage": _forage,
    "build": _use_build,
    "mana": _meditate,
    "spell": _cast,
    taxing.KIND: taxing.execute,
}

EXECUTORS = {"USE": execute_use, "TARGET": execute_target, "BUILD": execute_build, **structures.EXECUTORS}
