"""Structures (spec §5.11): what each kind needs and gives, how builders lay its materials, and CHRISTEN.

A structure is ``state.structures[B<n>]``: owner faction, name, type, location, complete, ``built``
({material: count laid}) and, for a military structure's stone, ``laid`` ({material: {skill: count}}).
Building goes through TARGET (a structure's tag or id) and USE of a building skill, or BUILD (both at
once; production.py reads those orders and calls ``build_day`` here). Each piece of material takes the
skill's man-days (10 at 1st level, fewer at higher levels) and is taken from the builder's goods when the
piece begins. The benefits (teaching, production, battle stats, titles, control points) are read here by
the other chapters.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, MutableMapping
from typing import Any

from ...core.programs import Line, Result
from . import labour, places, stats
from . import model as m

Rules = Mapping[str, Any]
State = MutableMapping[str, Any]


# ---- the table ----------------------------------------------------------------------------------------


def types(rules: Rules) -> Mapping[str, Any]:
    return rules["structures"]["types"]


def type_name(rules: Rules, tag: str) -> str:
    return str((types(rules).get(tag) or {}).get("name", tag))


def quotas(rules: Rules, tag: str) -> dict[tuple[str, str | None], int]:
    """What must be laid, by (material, skill): a skill only where a military split names who lays it
    (a fortress's 300 stone: 150 by siegecraft, 150 by masonry); None where any builder of it may."""
    kind = types(rules)[tag]
    split = rules["structures"]["building"]["military_split"] if kind.get("military") else {}
    needed: dict[tuple[str, str | None], int] = {}
    for material, count in kind["materials"].items():
        if material in split:
            shares = split[material]
            skills = sorted(shares)
            given = 0
            for skill in skills[:-1]:
                part = math.ceil(int(count) * int(shares[skill]) / 100)
                needed[(material, skill)] = part
                given += part
            needed[(material, skills[-1])] = int(count) - given
        else:
            needed[(material, None)] = int(count)
    return needed


def _laid(structure: Mapping[str, Any], material: str, skill: str | None) -> int:
    if skill is None:
        return int((structure.get("built") or {}).get(material, 0))
    return int(((structure.get("laid") or {}).get(material) or {}).get(skill, 0))


def still_needed(rules: Rules, structure: Mapping[str, Any], skill: str) -> list[str]:
    """The materials this building skill may still lay on the structure, in the table's order."""
    laid_by = rules["structures"]["building"]["laid_by"]
    wanted = []
    for (material, who), count in quotas(rules, structure["type"]).items():
        if skill not in (laid_by.get(material) or ()) or (who is not None and who != skill):
            continue
        if _laid(structure, material, who) < count and material not in wanted:
            wanted.append(material)
    return wanted


def is_complete(rules: Rules, structure: Mapping[str, Any]) -> bool:
    needed = quotas(rules, structure["type"])
    return all(_laid(structure, material, who) >= count for (material, who), count in needed.items())


def lay(rules: Rules, structure: MutableMapping[str, Any], material: str, skill: str) -> None:
    """One piece of material goes into the structure (and into the skill's share of a split)."""
    built = structure.setdefault("built", {})
    built[material] = int(built.get(material, 0)) + 1
    if any(who == skill and mat == material for mat, who in quotas(rules, structure["type"])):
        share = structure.setdefault("laid", {}).setdefault(material, {})
        share[skill] = int(share.get(skill, 0)) + 1


def teaching(rules: Rules, tag: str) -> dict[str, int]:
    """The skills a completed structure of this type teaches, and up to which level."""
    taught = types(rules)[tag].get("teaches")
    if not taught:
        return {}
    return {
        skill: int(taught["level"])
        for skill in rules["skills"]
        if stats.skill_kind(rules, skill) == taught["kind"] and "talent" not in stats.flags(rules, skill)
    }


def finish(rules: Rules, state: State, structure_id: str) -> None:
    """A structure whose last material is in: complete, teaching, its title offered in its place, and a
    marketplace's market open."""
    structure = state["structures"][structure_id]
    structure["complete"] = True
    taught = teaching(rules, structure["type"])
    if taught:
        structure["teaching"] = taught
    title = types(rules)[structure["type"]].get("title")
    place = m.place(state, structure["location"])
    if title and not place.get("title"):
        place["title"] = {"tag": title, "holder": None}
    if places.opens_market(rules, structure["type"]) and not place.get("market"):
        # A marketplace opens its market at once, stocked from the place's taxes like any market.
        place["market"] = places.market_offer(rules, int(place.get("taxes", 0)))


def new_structure(rules: Rules, state: State, faction: str, tag: str, location: str) -> str:
    structure_id = m.next_structure_id(state)
    state.setdefault("structures", {})[structure_id] = {
        "owner": faction,
        "name": type_name(rules, tag),
        "type": tag,
        "location": location,
        "complete": False,
        "built": {},
    }
    return structure_id


def unfinished_of(state: Mapping[str, Any], faction: str, tag: str, location: str) -> str | None:
    """The faction's unfinished structure of this type in the place (several builders naming the tag
    work on the same one), the oldest first."""
    found = [
        sid
        for sid, record in (state.get("structures") or {}).items()
        if record.get("owner") == faction
        and record.get("type") == tag
        and record.get("location") == location
        and not record.get("complete")
    ]
    return min(found, key=lambda sid: int(sid[1:]) if sid[1:].isdigit() else 0) if found else None


def refusal(rules: Rules, terrain: str | None, unit: Mapping[str, Any]) -> str:
    """Why a new structure cannot be started where the unit stands, or ""."""
    if terrain and terrain in rules["structures"]["building"]["water"]:
        return "nothing can be built on water"
    if unit.get("structure"):
        return "nothing can be built inside another structure: leave it first"
    return ""


def owner_unit(state: Mapping[str, Any], structure_id: str) -> str | None:
    """The unit that holds the structure: the first unit inside it in report order (spec §8.2 #27). A unit
    on the road is not inside anything, whatever its record still says (house rule ``structures.ownership``).
    """
    inside = {
        uid: unit
        for uid, unit in (state.get("units") or {}).items()
        if unit.get("structure") == structure_id and not unit.get("moving")
    }
    return m.in_report_order(inside)[0] if inside else None


def owner_of(state: Mapping[str, Any], structure_id: str) -> str | None:
    """The faction that owns the structure: the one reading every chapter uses (entering, CHRISTEN, control
    points, ATTACK, the report). The faction of its owner unit; with nobody inside, its recorded owner (the
    last faction that held it, or the one that began it)."""
    holder = owner_unit(state, structure_id)
    if holder is not None:
        return str(state["units"][holder]["owner"])
    owner = ((state.get("structures") or {}).get(structure_id) or {}).get("owner")
    return None if owner is None else str(owner)


def door_keeper(rules: Rules, state: Mapping[str, Any], structure_id: str) -> str | None:
    """The faction whose stance decides who may ENTER: the owner, as long as one of its units stands in the
    place (not on the road); with none there and ``structures.ownership.open_when_unkept``, nobody keeps
    the door (None), so a faction that beat or outlasted the defenders can walk in and take it."""
    owner = owner_of(state, structure_id)
    if owner is None or not ((rules.get("structures") or {}).get("ownership") or {}).get("open_when_unkept"):
        return owner
    where = ((state.get("structures") or {}).get(structure_id) or {}).get("location")
    present = any(
        u.get("owner") == owner and u.get("location") == where and not u.get("moving")
        for u in (state.get("units") or {}).values()
    )
    return owner if present else None


def hand_over(ctx: Any, state: State, rules: Rules) -> list[str]:
    """The day's end: each structure's record follows the faction that now holds it (``owner_of``), and the
    new owner and the former one are told, with the control points that change hands. Returns the ids of the
    structures that changed hands."""
    factions = state.get("factions") or {}
    # Only a structure someone stands in can change hands: an empty one keeps its record.
    occupied = {u.get("structure") for u in (state.get("units") or {}).values() if u.get("structure")}
    changed = []
    for structure_id, record in sorted((state.get("structures") or {}).items(), key=m._id_key):
        if structure_id not in occupied:
            continue
        former, holder = record.get("owner"), owner_of(state, structure_id)
        if holder is None or holder == former:
            continue
        record["owner"] = holder
        changed.append(structure_id)
        points = int((types(rules).get(record.get("type")) or {}).get("control", 0))
        ctx.emit(
            "structure_taken",
            actors=[holder],
            place=record.get("location"),
            visible_to=sorted({holder, str(former)} if former else {holder}),
            structure=record.get("name") or type_name(rules, str(record.get("type"))),
            structure_kind=type_name(rules, str(record.get("type"))),
            former_name=str((factions.get(former) or {}).get("name") or "nobody") if former else "nobody",
            control=points if record.get("complete") else 0,
        )
    return changed


def unit_bonuses(rules: Rules, state: Mapping[str, Any], unit: Mapping[str, Any]) -> dict[str, int]:
    """What the completed structure a unit stands in adds to its battle stats (the combat chapter)."""
    inside = labour.structure_of(state, unit)
    if inside is None:
        return {}
    return {name: int(value) for name, value in (types(rules)[inside["type"]].get("stats") or {}).items()}


def control_points(rules: Rules, state: Mapping[str, Any], faction: str) -> int:
    """The control points a faction's completed key structures add (the titles chapter's control check): a
    structure's points go to whoever owns it now, not to the faction that built it."""
    points = 0
    for structure_id, record in (state.get("structures") or {}).items():
        worth = int((types(rules).get(record.get("type")) or {}).get("control", 0))
        if worth and record.get("complete") and owner_of(state, structure_id) == faction:
            points += worth
    return points


# ---- a day of building --------------------------------------------------------------------------------


def build_day(
    month: Any, unit_id: str, skill: str, structure_id: str, limit: int | None
) -> tuple[Result, int, str]:
    """One day of `skill` on the structure: pieces of material begun (taken from the unit's goods) and
    laid as the day's man-days allow. Returns the result, the pieces laid and, when nothing can be done,
    why in words ("" when the reason is only waiting)."""
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    structure = state["structures"][structure_id]
    use = labour.use_of(rules, skill)
    per_piece = float(use["man_days"])
    spare_piece(month, unit_id, skill)  # a piece begun for a structure that no longer needs it
    if structure.get("complete") or not still_needed(rules, structure, skill):
        return Result.FINISHED, 0, ""
    speed = 100.0
    if "build" in rules["production"]["tool_skills"]:
        speed += labour.tool_percent(rules, unit)
    work = labour.base_work(rules, unit, skill) * speed / 100
    held = labour.progress(unit, skill, "build")
    if held.get("target") != structure_id:
        held.update(work=0, target=structure_id, material=None)
    items = unit.setdefault("items", {})
    laid = 0
    worked = False
    while work > labour.EPSILON and (limit is None or laid < limit):
        if held.get("material"):
            spare_piece(month, unit_id, skill)  # other builders may have laid the last of it since it began
        if not held.get("material"):
            needed = still_needed(rules, structure, skill)
            material = next((mat for mat in needed if int(items.get(mat, 0)) > 0), None)
            if material is None:
                break
            items[material] = int(items[material]) - 1
            if not items[material]:
                del items[material]
            held.update(material=material, work=0)
        step = min(per_piece - float(held["work"]), work)
        held["work"] = labour.round_work(rules, float(held["work"]) + step)
        work -= step
        worked = True
        if float(held["work"]) >= per_piece - labour.EPSILON:
            lay(rules, structure, str(held["material"]), skill)
            held.update(material=None, work=0)
            laid += 1
            if is_complete(rules, structure):
                finish(rules, state, structure_id)
                month.tell(
                    "structure_completed",
                    unit_id,
                    structure=structure["name"],
                    structure_kind=type_name(rules, structure["type"]),
                )
                break
    if not worked:
        return Result.SKIPPED, 0, ""
    labour.use_experience(rules, unit, skill)
    if structure.get("complete") or not still_needed(rules, structure, skill):
        return Result.FINISHED, laid, ""
    return Result.RAN, laid, ""


def spare_piece(month: Any, unit_id: str, skill: str) -> None:
    """A piece the unit has begun that its structure no longer needs (other builders laid the last of that
    material first, or finished the structure) goes back into the unit's goods, and the unit is told; the
    man-days already spent on it are lost (house rule ``structures.building.spare``)."""
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    held = (unit.get("progress") or {}).get(skill)
    if not isinstance(held, dict) or held.get("kind") != "build" or not held.get("material"):
        return
    if held.get("location") != unit.get("location"):
        return  # the unit moved: the piece was lost with the work (labour.progress)
    material = str(held["material"])
    structure = (state.get("structures") or {}).get(str(held.get("target")))
    if (
        structure is not None
        and not structure.get("complete")
        and material in still_needed(rules, structure, skill)
    ):
        return
    items = unit.setdefault("items", {})
    items[material] = int(items.get(material, 0)) + 1
    held.update(material=None, work=0)
    kind = type_name(rules, str((structure or {}).get("type")))
    month.tell(
        "building_spare",
        unit_id,
        structure=(structure or {}).get("name") or kind,
        material=stats.item_name(rules, material),
    )


# ---- CHRISTEN -----------------------------------------------------------------------------------------


def execute_christen(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """CHRISTEN "name": the owner unit (first inside) renames its structure; waits until it is the owner."""
    name = str(month.read(line).args["name"]).strip()
    unit = month.state["units"][unit_id]
    if not name:
        month.tell("line_failed", unit_id, order=line.render(), reason="the new name is missing")
        return Result.INVALID, None
    structure_id = unit.get("structure")
    if not structure_id or owner_unit(month.state, structure_id) != unit_id:
        return Result.SKIPPED, None
    structure = month.state["structures"][structure_id]
    old = structure.get("name")
    structure["name"] = name
    month.tell("structure_named", unit_id, old=old, new=name)
    return Result.FINISHED, None


EXECUTORS = {"CHRISTEN": execute_christen}
