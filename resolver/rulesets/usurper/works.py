"""Build, Renovate and Craft as orders: the checker's requirements and the week's procedures.

Each order is read twice with the same functions: by the checker (``REQUIREMENTS`` in ``reading.py``),
which equips and prices it on a copy of the usurper's records, and by the week's step of other work
(``WORK`` in ``phases.py``), which equips for real, prices it again against the lair as the week has left
it, rolls and settles. The work happens in the usurper's lair at the order's target.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ...core import standing
from ...core.dice import Modifier
from ...core.phases import State
from ...engine.plans import Reading, Reject
from . import building, crafting, equipment, lairs, storage
from . import model as m
from .acting import Context, Plan, told

WORKS = ("build", "renovate", "craft")
POLICIES = "policies"  # the order file's standing section (orders.py) and its defaults in the rules data


def _lair_at_target(state: Mapping[str, Any], plan: Plan, founding: bool = False) -> dict[str, Any]:
    lair = m.lair_at(state, plan.faction, plan.target)
    if founding:
        if plan.lair is None:
            raise Reject("by", "a new lair is paid from a lair of yours, and you have none", "")
        return m.lairs(state, plan.faction)[plan.lair["id"]]
    if lair is None:
        grids = ", ".join(sorted(x["grid"] for x in m.lairs(state, plan.faction).values()))
        raise Reject("target", f"you have no lair at {plan.target}", f"target one of your lairs: {grids}")
    return lair


def _takers(state: Mapping[str, Any], plan: Plan) -> list[tuple[str, dict[str, Any]]]:
    """Those taking part, initiator first, as (kind, record) of the given state."""
    found = []
    for entity_id in plan.participants:
        kind = m.kind_of(state, plan.faction, entity_id)
        record = m.entity(state, plan.faction, entity_id)
        if kind and record is not None:
            found.append((kind, record))
    return found


def _equip(rules: Mapping[str, Any], state: State, plan: Plan) -> None:
    """The order's ``equip``: sets from the initiator's home lair to those taking part."""
    wanted = [str(item) for item in plan.order.get("equip") or []]
    if wanted and plan.lair is not None:
        home = m.lairs(state, plan.faction)[plan.lair["id"]]
        equipment.equip(rules, home, wanted, _takers(state, plan))


def _units(state: Mapping[str, Any], plan: Plan) -> list[dict[str, Any]]:
    return [record for kind, record in _takers(state, plan) if kind == m.UNIT]


def _leaders(state: Mapping[str, Any], plan: Plan) -> list[dict[str, Any]]:
    return [record for kind, record in _takers(state, plan) if kind == m.LEADER]


def price(rules: Mapping[str, Any], state: State, plan: Plan, turn: int) -> Any:
    """Equip as the order says, then check and price the work against ``state`` (changed by the equipping:
    pass a copy when only checking)."""
    _equip(rules, state, plan)
    units, order = _units(state, plan), plan.order
    if plan.action == "build" and order.get("new_lair"):
        home = _lair_at_target(state, plan, founding=True)
        return building.plan_new_lair(rules, m.usurper(state, plan.faction), home, plan.target, units)
    lair = _lair_at_target(state, plan)
    if plan.action == "build":
        return building.plan_build(rules, lair, [str(r) for r in order.get("rooms") or []], units)
    if plan.action == "renovate":
        pick = {"renovation": str(order.get("renovation", "")), "choice": order.get("choice")}
        times = int(order.get("times") or 1)
        return building.plan_renovation(rules, lair, str(order.get("room", "")), [pick] * times, units)
    workshop = str(order.get("workshop") or "workshop")
    if order.get("embed"):
        crafting.embed(rules, lair, workshop, "hammers")
    items = [str(i) for i in order.get("items") or []]
    return crafting.plan_craft(
        rules, lair, workshop, items, units, _leaders(state, plan), hq=bool(order.get("hq")), turn=turn
    )


def requirement(reading: Reading, plan: Plan) -> None:
    """The reading's requirements: the whole work tried on a copy of the usurper's records, so that
    nothing changes until the week's step carries it out (and prices it again)."""
    factions = dict(reading.state["factions"])
    factions[plan.faction] = copy.deepcopy(factions[plan.faction])
    sketch = {**reading.state, "factions": factions}
    plan.details["works"] = price(reading.rules, sketch, plan, int(reading.state.get("turn", 0)))


def construction_modifiers(
    rules: Mapping[str, Any], lair: Mapping[str, Any], plan: Plan, units: list
) -> list:
    """Build and Renovate: the Workshop's construction boost in this lair, and embedded Saws (with Shared
    Means) once for units that carry none."""
    mods = [Modifier("Workshop construction boost", lairs.lair_bonus(rules, lair, "construction"))]
    if plan.action == "renovate" and lairs.lair_bonus(rules, lair, "shared_means"):
        for workshop in lairs.rooms_of(lair, "workshop"):
            mods += crafting.embedded_modifiers(rules, workshop, units, "saws")[:1]
    return [mod for mod in mods if mod.value]


def carry_out(ctx: Context, state: State, plan: Plan) -> None:
    """The week's procedure for Build, Renovate and Craft."""
    from .rolls import action_roll  # the rolls part's roll of every action

    rules = ctx.rules
    try:
        work = price(rules, state, plan, ctx.turn)
    except Reject as reject:
        ctx.order_failed(plan.faction, plan.order, reject.failure)
        return
    faction = m.usurper(state, plan.faction)
    craftsman = building.craftsman_of(rules, faction)
    units = _units(state, plan)
    founding = isinstance(work, building.NewLairPlan)
    lair = faction["lairs"][work.lair]
    mods = (
        work.modifiers
        if isinstance(work, crafting.CraftPlan)
        else construction_modifiers(rules, lair, plan, units)
    )
    rolled = action_roll(
        ctx,
        state,
        plan.faction,
        action=plan.action,
        by=plan.initiator,
        assist=plan.assistants,
        grid=plan.target,
        lair=None if founding else work.lair,
        modifiers=mods,
        order=plan.order,
    )
    said: dict[str, Any] = {"band": _band_name(rules, rolled.band), "total": rolled.total}
    if founding:
        new_id = m.new_id(state, plan.faction, "lair")
        founded, settled = building.carry_out_new_lair(rules, faction, work, new_id, rolled.band, craftsman)
        kind, said["done"] = "lair_founded", founded is not None
    elif isinstance(work, building.BuildPlan):
        settled = building.carry_out_build(rules, lair, work, rolled.band, craftsman)
        kind, said["done"] = "rooms_built", building.succeeded(rules, rolled.band)
        said["rooms"] = _listed([lairs.room_name(rules, r) for r in work.rooms])
    elif isinstance(work, building.RenovationPlan):
        settled = building.carry_out_renovation(rules, lair, work, rolled.band, craftsman)
        kind, said["done"] = "room_renovated", building.succeeded(rules, rolled.band)
        room = lairs.find_room(lair, work.room) or {"type": work.room.partition("-")[0]}
        said["room"] = lairs.room_name(rules, room["type"])
        said["renovation"] = lairs.renovation_name(rules, room["type"], work.picks[0]["renovation"])
        said["times"] = len(work.picks)
    else:
        crafted = crafting.carry_out_craft(rules, lair, work, rolled.band, rolled.total, craftsman, ctx.turn)
        settled = crafted.settled
        kind, said["done"] = "crafted", crafted.quality is not None
        said["items"] = _listed([storage.item_name(rules, i) for i in work.items])
        said["quality"] = crafting.quality_name(rules, crafted.quality) if crafted.quality else ""
    said["spent"] = _amounts(rules, settled.lost)
    said["saved"] = _amounts(rules, settled.refunded)
    ctx.emit(
        kind,
        actors=[plan.faction],
        visible_to=told(ctx, plan.faction),
        place=plan.target,
        rolls=[rolled.roll],
        **said,
    )


def _band_name(rules: Mapping[str, Any], band: str) -> str:
    from .rolls import band_name

    return band_name(rules, band)


def _listed(words: list[str]) -> str:
    counted: dict[str, int] = {}
    for word in words:
        counted[word] = counted.get(word, 0) + 1
    parts = [word if n == 1 else f"{n} × {word}" for word, n in counted.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _amounts(rules: Mapping[str, Any], counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {storage.item_name(rules, r)}" for r, n in sorted(counts.items()) if n)


def week_end(ctx: Context, state: State) -> None:
    """The week's end: a full Warehouse loses what is over, in the usurper's standing order."""
    for faction in m.usurpers(state):
        policies = standing.stored(state, faction).get(POLICIES) or {}
        policy = policies.get("overflow_drop") or ctx.rules[POLICIES]["overflow_drop"]
        for lair in m.lairs(state, faction).values():
            lost = storage.overflow(ctx.rules, lair, policy)
            if lost:
                ctx.emit(
                    "storage_overflow",
                    actors=[faction],
                    visible_to=told(ctx, faction),
                    place=lair["grid"],
                    lost=_lost_words(ctx.rules, lost),
                )


def _lost_words(rules: Mapping[str, Any], lost: Mapping[str, Any]) -> str:
    words = [
        f"{n} {storage.item_name(rules, r)}"
        for r, n in lost.items()
        if r not in (storage.ITEMS, storage.GEMS)
    ]
    for held in lost.get(storage.ITEMS, []):
        words.append(storage.item_name(rules, held["item"]))
    gems = lost.get(storage.GEMS, [])
    if gems:
        words.append(f"{len(gems)} gem{'s' if len(gems) != 1 else ''}")
    return ", ".join(words)
