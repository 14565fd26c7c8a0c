"""Equipping from a lair's Warehouse: an order's ``equip: [spyglass, saws]`` takes one set of each named
item from the home lair of those taking part and gives it to the first of them who can use it.

A unit has ``max_tools`` tool slots and ``max_weapons`` weapon slots, wears one armour and rides one mount,
and a second copy of a tool or weapon it already has gives nothing, so it is refused. A leader carries one
object (a Bugle, a Racial Totem or an artifact), one more with a Reliquary's Stabilize-Wielder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...engine.plans import Reject
from . import lairs, storage
from .crafting import carried_list, quality_rows
from .lairs import Lair


def _best_stored(
    rules: Mapping[str, Any], held: Sequence[Mapping[str, Any]], item: str
) -> Mapping[str, Any] | None:
    ranks = [row["id"] for row in quality_rows(rules)]
    found = [h for h in held if h["item"] == item]
    return max(found, key=lambda h: ranks.index(h.get("quality", "standard"))) if found else None


def _room_for(
    rules: Mapping[str, Any], kind: str, entity: Mapping[str, Any], item: str, lair: Mapping[str, Any]
) -> str:
    """Why ``entity`` cannot take ``item``; empty when it can."""
    spec = rules["items"][item]
    name = storage.item_name(rules, item)
    if kind == "leader":
        if not spec.get("leader_only"):
            return f"a leader carries no {name}"
        limit = 1 + lairs.lair_bonus(rules, lair, "leader_carry")
        return (
            f"{entity['name']} already carries {limit} object" if len(carried_list(entity)) >= limit else ""
        )
    if spec.get("leader_only"):
        return f"{name} is carried by a leader, never a unit"
    slot = spec.get("slot")
    if slot == "tool" or slot == "weapon":
        worn = entity.get(f"{slot}s") or []
        if any(held["item"] == item for held in worn):
            return f"{entity['name']} already has {name}"
        most = int(entity.get(f"max_{slot}s", 0))
        return f"{entity['name']} has no free {slot} slot ({most})" if len(worn) >= most else ""
    if slot in ("armor", "mount"):
        return (
            f"{entity['name']} already has {(slot == 'armor' and 'armour') or 'a mount'}"
            if entity.get(slot)
            else ""
        )
    return f"{name} is not equipment"


def equip(
    rules: Mapping[str, Any],
    lair: Lair,
    wanted: Sequence[str],
    takers: Sequence[tuple[str, dict[str, Any]]],
) -> list[tuple[str, dict[str, Any]]]:
    """Give each wanted item, one set at a time, to the first of ``takers`` ((kind, record), initiator
    first) who can take it; the best stored set goes first. Changes ``lair`` and the records (work on a
    copy when only checking); returns (entity id, set) for each. Refuses with the fix when a set is not in
    the Warehouse or nobody taking part can use it."""
    given = []
    for number, item in enumerate(wanted):
        where = ("equip", number)
        if item not in rules["items"]:
            raise Reject(where, f"'{item}' is not an item", "name a tool, weapon, armour or mount")
        name = storage.item_name(rules, item)
        held = _best_stored(rules, lair.get("items", []), item)
        if held is None:
            missing = f"no {name} in the Warehouse of the lair at {lair['grid']}"
            raise Reject(where, missing, "buy or craft a set first")
        reasons = [_room_for(rules, kind, record, item, lair) for kind, record in takers]
        if all(reasons):
            raise Reject(
                where,
                f"nobody taking part can take {name}: {reasons[0]}",
                "equip something else, or take a set off first",
            )
        kind, record = takers[reasons.index("")]
        lair["items"].remove(held)
        taken = {"item": item, "quality": held.get("quality", "standard")}
        if kind == "leader":
            record["carried"] = taken if not record.get("carried") else [*carried_list(record), taken]
        elif rules["items"][item]["slot"] in ("tool", "weapon"):
            record.setdefault(f"{rules['items'][item]['slot']}s", []).append(taken)
        else:
            record[rules["items"][item]["slot"]] = taken
        given.append((str(record["id"]), taken))
    return given
