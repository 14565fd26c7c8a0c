"""The executors of GIVE, GET, DROP, EQUIP, SWAP, SPLIT, MERGE and DISBAND (spec §2.11): they read an order
line, check who is present and what stances allow, let `transfers` change the state, and tell the factions
concerned in words. Signature and month fields as in `study.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.programs import Line, Result, drop_references, rewrite_ids
from . import departures, gates, stats, transfers
from .study import day_memory


def _held(unit: Mapping[str, Any], tag: str) -> int:
    return int((unit.get("items") or {}).get(tag, 0) or 0)


def _present(state: Mapping[str, Any], unit: Mapping[str, Any], other_id: str) -> Mapping[str, Any] | None:
    other = state["units"].get(other_id)
    return other if other and other["location"] == unit["location"] and not other.get("moving") else None


def _emit(month: Any, kind: str, unit_id: str, others: tuple[str, ...] = (), **data: Any) -> None:
    unit = month.state["units"][unit_id]
    factions = sorted({unit["owner"], *others})
    month.ctx.emit(
        kind,
        actors=factions,
        visible_to=factions,
        place=unit["location"],
        unit=unit_id,
        unit_name=unit["name"],
        **data,
    )


def _fail(month: Any, unit_id: str, line: Line, problem: str) -> tuple[Result, Line | None]:
    """A line that can never run: its faction hears why, and the queue drops it."""
    _emit(month, "line_failed", unit_id, order=line.render(), reason=problem)
    return Result.INVALID, None


def execute_give(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """GIVE unit item [count [kept]]: waits until the receiver is here and its faction welcomes gifts."""
    state, rules = month.state, month.rules
    giver = state["units"][unit_id]
    args = month.read(line).args
    receiver_id, tag, count, kept = args["unit"], args["item"], args["count"], args["kept"]
    receiver = _present(state, giver, receiver_id)
    if receiver is None or not transfers.accepts(state, rules, receiver["owner"], giver["owner"]):
        return Result.SKIPPED, None
    moved = transfers.amount(_held(giver, tag), count, kept)
    if not moved:
        return Result.SKIPPED, None
    transfers.hand_over(giver, receiver, tag, moved)
    _emit(
        month,
        "goods_given",
        unit_id,
        (receiver["owner"],),
        to=receiver["name"],
        goods=_goods(rules, tag, moved),
    )
    return Result.RAN, None


def execute_get(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """GET source [count] item [left]: from an own unit here, or from the ground of an unowned or allied
    location."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    args = month.read(line).args
    source, count, tag, left = args["source"], args["count"], args["item"], args["left"]
    if args["source_kind"] == "location":
        if source != unit["location"]:
            return Result.SKIPPED, None  # the ground of another place is out of reach
        if not gates.allows(month, str(unit["owner"]), source, "get"):
            return Result.SKIPPED, None  # an owner or guard of the place keeps its ground
        ground = (state.get("places", {}).get(source) or {}).get("ground") or {}
        moved = transfers.amount(int(ground.get(tag, 0) or 0), count, left)
        if not moved:
            return Result.SKIPPED, None
        transfers.take_from_ground(state, unit, source, tag, moved)
        _emit(month, "goods_taken", unit_id, source="the ground", goods=_goods(rules, tag, moved))
        return Result.RAN, None
    other = _present(state, unit, source)
    if other is None or other["owner"] != unit["owner"]:
        return Result.SKIPPED, None
    moved = transfers.amount(_held(other, tag), count, left)
    if not moved:
        return Result.SKIPPED, None
    transfers.hand_over(state["units"][source], unit, tag, moved)
    _emit(month, "goods_taken", unit_id, source=other["name"], goods=_goods(rules, tag, moved))
    return Result.RAN, None


def execute_drop(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """DROP item [count [kept]]: onto the ground of the location."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    args = month.read(line).args
    tag, count, kept = args["item"], args["count"], args["kept"]
    moved = transfers.amount(_held(unit, tag), count, kept)
    if not moved:
        return Result.SKIPPED, None
    transfers.drop(state, unit, tag, moved)
    _emit(month, "goods_dropped", unit_id, goods=_goods(rules, tag, moved))
    return Result.RAN, None


def execute_equip(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """EQUIP item [count]: no count = as many as allowed, 0 = none, more than allowed = the limit."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    args = month.read(line).args
    tag, count = args["item"], args["count"]
    problem = transfers.equip_problem(rules, unit, tag) if count != 0 else ""
    if problem:
        return _fail(month, unit_id, line, problem)
    worn = transfers.equip(rules, unit, tag, count)
    _emit(month, "equipped", unit_id, goods=_goods(rules, tag, worn), item=stats.item_name(rules, tag, 2))
    return Result.RAN, None


def execute_swap(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """SWAP unit n1 item1 n2 item2: fires when the other unit, here, holds the mirror order; both sides
    change at once and the mirror line is done too."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    args = month.read(line).args
    other_id, give_n, give_tag = args["unit"], args["count"], args["item"]
    take_n, take_tag = args["count_back"], args["item_back"]
    done = day_memory(month).setdefault("swaps", set())
    if (unit_id, other_id) in done:
        return Result.FINISHED, None
    other = _present(state, unit, other_id)
    mirror = {"unit": unit_id, "count": take_n, "item": take_tag, "count_back": give_n, "item_back": give_tag}
    if other is None or not _holds_mirror(month, other_id, mirror):
        return Result.SKIPPED, None
    if _held(unit, give_tag) < give_n or _held(other, take_tag) < take_n:
        return Result.SKIPPED, None
    transfers.hand_over(unit, state["units"][other_id], give_tag, give_n)
    transfers.hand_over(state["units"][other_id], unit, take_tag, take_n)
    done.add((other_id, unit_id))
    _emit(month, "goods_swapped", unit_id, (other["owner"],), to=other["name"],
          gave=_goods(rules, give_tag, give_n), got=_goods(rules, take_tag, take_n))  # fmt: skip
    return Result.FINISHED, None


def _holds_mirror(month: Any, other_id: str, mirror: Mapping[str, Any]) -> bool:
    """Whether the other unit's queue holds, at its top level, the SWAP that mirrors this one."""
    program = month.programs.get(other_id)
    for held in program.lines if program is not None else ():
        if held.depth or held.keyword != "SWAP":
            continue
        reading = month.read(held)
        if reading.ok and all(reading.args[key] == value for key, value in mirror.items()):
            return True
    return False


def execute_split(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """SPLIT new-id count: a new unit of `count` figures right after this one (needs one figure more)."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    args = month.read(line).args
    new_id, count = args["unit"], args["count"]
    if stats.kind(rules, unit) not in ("follower", "creature"):
        return _fail(month, unit_id, line, "only followers and creatures split")
    if int(unit["figures"]) < count + 1 or count < 1:
        return Result.SKIPPED, None
    permanent = f"U{state['next_ids']['unit']}"
    state["next_ids"]["unit"] += 1
    part = transfers.split(rules, unit, count, permanent)
    part["orders"] = list(month.programs[new_id].to_data()) if new_id in month.programs else []
    state["units"][permanent] = part
    rewrite_ids(month.programs, new_id, permanent)
    _emit(month, "unit_split", unit_id, new=part["name"], figures=stats.figures_words(rules, unit, count))
    return Result.FINISHED, None


def execute_merge(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """MERGE unit count: figures into another own follower or creature unit (or stockpile) here; 0 moves
    every figure and every possession; moving every figure leaves a stockpile with an empty queue."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    args = month.read(line).args
    target_id, count = args["unit"], args["count"]
    if stats.kind(rules, unit) not in ("follower", "creature"):
        return _fail(month, unit_id, line, "only followers and creatures merge")
    target = _present(state, unit, target_id)
    if target is None or target["owner"] != unit["owner"]:
        return Result.SKIPPED, None
    if int(target.get("figures", 0) or 0) and target["race"] != unit["race"]:
        return _fail(month, unit_id, line, f"{target['name']} is not of the same race")
    if count > int(unit["figures"]):
        return Result.SKIPPED, None
    moving = int(unit["figures"]) if count == 0 else count
    forgotten = transfers.merge(rules, unit, state["units"][target_id], count)
    if not int(unit["figures"]):
        month.programs.pop(unit_id, None)
        unit["orders"] = []
    figures = stats.figures_words(rules, target, moving)
    lost = [stats.skill(rules, t)["name"] for t in forgotten]
    _emit(month, "units_merged", unit_id, into=target["name"], figures=figures, forgotten=lost)
    return Result.FINISHED, None


def execute_disband(month: Any, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """DISBAND CONFIRM: the unit is gone with all it holds; its men join the local population."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    _emit(month, "unit_disbanded", unit_id, figures=stats.figures_words(rules, unit, int(unit["figures"])))
    departures.record(month.ctx, state, unit_id, departures.DISBANDED)
    transfers.disband(rules, state, unit_id)
    month.programs.pop(unit_id, None)
    drop_references(month.programs, unit_id)
    return Result.FINISHED, None


def _goods(rules: Mapping[str, Any], tag: str, count: int) -> str:
    return stats.items_words(rules, tag, count)


EXECUTORS = {
    "GIVE": execute_give,
    "GET": execute_get,
    "DROP": execute_drop,
    "EQUIP": execute_equip,
    "SWAP": execute_swap,
    "SPLIT": execute_split,
    "MERGE": execute_merge,
    "DISBAND": execute_disband,
}
