"""Build, Renovate and a new lair: what each costs, what the checker requires, and what the roll's band
does (the savings table, the loss on a failure). The roll itself is the rolls part's; these functions take
its band, so that the checker and the resolver read the same costs and the tests need no dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine.plans import Reject
from . import lairs, setup, storage
from .lairs import Lair, Room

# --- savings ---------------------------------------------------------------------------------------------


def succeeded(rules: Mapping[str, Any], band: str) -> bool:
    """Partial Success or better builds, renovates and crafts; the failures lose the resources."""
    return band in rules["savings"]["band_order"]


def saving_band(rules: Mapping[str, Any], band: str, craftsman: bool) -> str:
    """The row of the savings table a band reads: a Craftsman's global bonus reads it higher."""
    order = list(rules["savings"]["band_order"])
    if band not in order:
        return band
    steps = int(rules["savings"]["craftsman_steps"]) if craftsman else 0
    return order[min(len(order) - 1, order.index(band) + steps)]


def saving(rules: Mapping[str, Any], band: str, cost: int, craftsman: bool = False) -> int:
    """How much of one resource's ``cost`` comes back on a success of ``band``."""
    table = rules["savings"]
    row = saving_band(rules, band, craftsman)
    if row not in table["rows"]:
        return 0
    columns = [int(c) for c in table["columns"]]
    if cost > columns[-1]:
        return cost * int(table["above_percent"][row]) // 100
    fitting = [i for i, column in enumerate(columns) if column <= cost]
    return int(table["rows"][row][fitting[-1]]) if fitting else 0


def savings(
    rules: Mapping[str, Any], band: str, cost: Mapping[str, int], craftsman: bool = False
) -> dict[str, int]:
    """Savings of a cost in several resources, resource by resource; gems and food are never saved."""
    savable = set(rules["crafting"]["savable"])
    found = {r: saving(rules, band, int(n), craftsman) for r, n in sorted(cost.items()) if r in savable}
    return {r: n for r, n in found.items() if n}


def craftsman_of(rules: Mapping[str, Any], faction: Mapping[str, Any]) -> bool:
    """Whether one of the usurper's living leaders has the bonus whose global part reads savings higher."""
    bonus = rules["savings"].get("global_bonus", "craftsman")
    return any(
        leader.get("bonus") == bonus and int(leader.get("hp", 1)) > 0
        for leader in (faction.get("leaders") or {}).values()
    )


@dataclass
class Settled:
    """What happened to the resources of an attempt: what came back and what was lost."""

    refunded: dict[str, int] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)


def settle(
    rules: Mapping[str, Any], lair: Lair, steps: Sequence[Mapping[str, int]], band: str, craftsman: bool
) -> Settled:
    """After the roll: the full cost of every step was taken when the work began. On a success each step's
    savings come back; on a failure everything comes back but the most expensive step's cost."""
    result = Settled()
    if succeeded(rules, band):
        for cost in steps:
            for resource, n in savings(rules, band, cost, craftsman).items():
                result.refunded[resource] = result.refunded.get(resource, 0) + n
        spent = _sum(steps)
        result.lost = {r: n - result.refunded.get(r, 0) for r, n in spent.items()}
    else:
        dearest = max(range(len(steps)), key=lambda i: (sum(steps[i].values()), i)) if steps else -1
        for i, cost in enumerate(steps):
            for resource, n in cost.items():
                target = result.lost if i == dearest else result.refunded
                target[resource] = target.get(resource, 0) + n
    for resource, n in result.refunded.items():
        storage.add(lair, resource, n)
    result.refunded = {r: n for r, n in result.refunded.items() if n}
    result.lost = {r: n for r, n in result.lost.items() if n}
    return result


def _sum(steps: Sequence[Mapping[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for cost in steps:
        for resource, n in cost.items():
            total[resource] = total.get(resource, 0) + int(n)
    return total


# --- what the work needs ---------------------------------------------------------------------------------


def has_tool(unit: Mapping[str, Any], tool: str) -> bool:
    return any(held["item"] == tool for held in unit.get("tools") or [])


def embedded(room: Mapping[str, Any] | None, tool: str) -> Mapping[str, Any] | None:
    return next((held for held in (room or {}).get("embedded", []) if held["item"] == tool), None)


def work_camp_cut(rules: Mapping[str, Any], lair: Mapping[str, Any]) -> int:
    """Work-Camp: construction in this lair costs less for each prisoner held."""
    return lairs.lair_bonus(rules, lair, "work_camp") * len(lair.get("prisoners", []))


def cut_dearest(steps: list[dict[str, int]], cut: int, resource: str) -> None:
    """Take a cut off the action's cost, from the dearest step down, never below nothing."""
    for cost in sorted(steps, key=lambda c: -c.get(resource, 0)):
        taken = min(cut, cost.get(resource, 0))
        cost[resource] = cost.get(resource, 0) - taken
        cut -= taken


def need_saws(
    rules: Mapping[str, Any], units: Sequence[Mapping[str, Any]], lair: Mapping[str, Any], may_embed: bool
) -> None:
    tool = str(rules["building"]["needs_tool"])
    if any(has_tool(unit, tool) for unit in units):
        return
    if (
        may_embed
        and lairs.lair_bonus(rules, lair, "shared_means")
        and any(embedded(room, tool) for room in lairs.rooms_of(lair, "workshop"))
    ):
        return
    name = storage.item_name(rules, tool)
    raise Reject(
        "equip", f"no unit taking part has {name}", f"equip {name} on one of the units: equip: [{tool}]"
    )


def need_units(rules: Mapping[str, Any], units: Sequence[Mapping[str, Any]], least: int, what: str) -> None:
    if len(units) < least:
        counted = "one unit" if least == 1 else f"{least} units"
        raise Reject("assist", f"{what} needs at least {counted} taking part", "add units to assist")


def need_stock(rules: Mapping[str, Any], lair: Mapping[str, Any], cost: Mapping[str, int], what: str) -> None:
    short = storage.short_of(lair, cost)
    if short:
        lacking = ", ".join(f"{n} {storage.item_name(rules, r)}" for r, n in short.items())
        raise Reject(
            None,
            f"{what} needs {lacking} more in the Warehouse of the lair at {lair['grid']}",
            "harvest or buy what is missing, or attempt less this week",
        )


# --- Build -----------------------------------------------------------------------------------------------


@dataclass
class BuildPlan:
    lair: str
    rooms: list[str]
    steps: list[dict[str, int]]  # the cost of each room, in order

    @property
    def cost(self) -> dict[str, int]:
        return _sum(self.steps)


def build_costs(rules: Mapping[str, Any], lair: Mapping[str, Any], count: int) -> list[dict[str, int]]:
    """Each of ``count`` new rooms costs the next amount up: the lair has one more room by then."""
    b = rules["building"]
    rooms_now = len(lair.get("rooms", []))
    return [{b["resource"]: int(b["per_room"]) * (rooms_now + i) + int(b["base"])} for i in range(count)]


def plan_build(
    rules: Mapping[str, Any],
    lair: Mapping[str, Any],
    rooms: Sequence[str],
    units: Sequence[Mapping[str, Any]],
) -> BuildPlan:
    """Check a Build of one or more rooms in ``lair`` by ``units`` and price it."""
    if not rooms:
        raise Reject("rooms", "name at least one room to build", "for example rooms: [watchtower]")
    buildable = [t for t, spec in rules["rooms"].items() if spec.get("buildable")]
    for number, room_type in enumerate(rooms):
        if room_type not in buildable:
            raise Reject(
                ("rooms", number),
                f"'{room_type}' is not a room one can build",
                "build one of: " + ", ".join(buildable),
            )
        already = len(lairs.rooms_of(lair, room_type)) + list(rooms[:number]).count(room_type)
        if already and not lairs.room_rules(rules, room_type).get("duplicates"):
            name = lairs.room_name(rules, room_type)
            raise Reject(
                ("rooms", number),
                f"the lair already has a {name}, and only one is allowed",
                "renovate it instead, or build a room the lair lacks",
            )
    need_units(rules, units, int(rules["building"]["min_units"]), "Build")
    need_saws(rules, units, lair, may_embed=False)
    steps = build_costs(rules, lair, len(rooms))
    cut_dearest(steps, work_camp_cut(rules, lair), str(rules["building"]["resource"]))
    plan = BuildPlan(str(lair["id"]), list(rooms), steps)
    need_stock(rules, lair, plan.cost, "Build")
    return plan


def carry_out_build(
    rules: Mapping[str, Any], lair: Lair, plan: BuildPlan, band: str, craftsman: bool
) -> Settled:
    """Take the cost, and on Partial Success or better add the rooms; then settle the resources."""
    storage.pay(lair, plan.cost)
    if succeeded(rules, band):
        before = lairs.lair_bonus(rules, lair, "max_obscurity")
        lair["rooms"].extend(lairs.new_room(room_type) for room_type in plan.rooms)
        lairs.raise_obscurity(lair, lairs.lair_bonus(rules, lair, "max_obscurity") - before)
    return settle(rules, lair, plan.steps, band, craftsman)


# --- Renovate --------------------------------------------------------------------------------------------


@dataclass
class RenovationPlan:
    lair: str
    room: str  # as the order names it: ``workshop`` or ``workshop-2``
    picks: list[dict[str, Any]]  # {renovation, choice}
    steps: list[dict[str, int]]

    @property
    def cost(self) -> dict[str, int]:
        return _sum(self.steps)


def renovation_cost(
    rules: Mapping[str, Any], room_type: str, renovation: str, level: int, pillars: int
) -> int:
    """Stone for one renovation step of a room at ``level`` that already has ``pillars`` pillars."""
    r = rules["renovating"]
    spec = lairs.renovation_rules(rules, room_type, renovation)
    cost = int(r["per_level"]) * level + int(r["base"]) + int(spec.get("extra", 0))
    if spec.get("tier") == "pillar":
        cost += int(r["per_pillar"]) * pillars
    return cost


def pick_of(raw: Any) -> dict[str, Any]:
    """A renovation as an order writes it: ``enhanced_vision`` or ``{renovation: ..., choice: ...}``."""
    if isinstance(raw, Mapping):
        return {"renovation": str(raw.get("renovation", "")), "choice": raw.get("choice")}
    return {"renovation": str(raw), "choice": None}


def plan_renovation(
    rules: Mapping[str, Any],
    lair: Mapping[str, Any],
    room_ref: str,
    picks: Sequence[Any],
    units: Sequence[Mapping[str, Any]],
) -> RenovationPlan:
    """Check one or more renovation steps on one room and price each at the level it will have then."""
    room = lairs.find_room(lair, room_ref)
    if room is None:
        present = sorted({lairs.room_ref(lair, r) for r in lair.get("rooms", [])})
        missing = f"the lair at {lair['grid']} has no room '{room_ref}'"
        raise Reject("room", missing, "renovate one of: " + ", ".join(present))
    kind = lairs.room_rules(rules, room["type"])
    name = str(kind["name"])
    if not kind.get("renovations"):
        raise Reject("room", f"a {name} cannot be renovated", f"build another {name} instead")
    if not picks:
        raise Reject(
            "renovations",
            "name at least one renovation",
            "for example renovations: [" + next(iter(kind["renovations"])) + "]",
        )
    sketch: Room = {**room, "renovations": list(room.get("renovations", []))}
    steps, chosen = [], []
    for number, raw in enumerate(picks):
        pick = pick_of(raw)
        where = ("renovations", number)
        spec = kind["renovations"].get(pick["renovation"])
        if spec is None:
            raise Reject(
                where,
                f"a {name} has no renovation '{pick['renovation']}'",
                "choose one of: " + ", ".join(kind["renovations"]),
            )
        title = str(spec["name"])
        choices = spec.get("choices") or {}
        if choices and pick["choice"] not in choices:
            raise Reject(where, f"{title} needs a choice", "add choice: one of " + ", ".join(choices))
        if not choices and pick["choice"] is not None:
            raise Reject(where, f"{title} takes no choice", "leave choice out")
        limit = spec.get("limit")
        if limit is not None and lairs.taken_count(sketch, pick["renovation"], pick["choice"]) >= int(limit):
            said = f" for {pick['choice']}" if pick["choice"] else ""
            raise Reject(
                where, f"{title} has been taken {limit} times{said} already", "choose another renovation"
            )
        least = int(kind.get("intermediate_min_level", 1))
        gated = spec.get("tier") == "intermediate" or (
            spec.get("tier") == "pillar" and rules["renovating"].get("pillar_min_level_as_intermediate")
        )
        if gated and int(sketch["level"]) < least:
            raise Reject(
                where,
                f"{title} needs the {name} at level {least}; it will be at level {sketch['level']}",
                "take basic renovations first",
            )
        cost = renovation_cost(
            rules, room["type"], pick["renovation"], int(sketch["level"]), lairs.pillars_in(rules, sketch)
        )
        steps.append({str(rules["renovating"]["resource"]): cost})
        chosen.append(pick)
        sketch["renovations"].append(_taken(pick))
        sketch["level"] = int(sketch["level"]) + 1
    need_units(rules, units, int(rules["building"]["min_units"]), "Renovate")
    need_saws(rules, units, lair, may_embed=True)
    cut_dearest(steps, work_camp_cut(rules, lair), str(rules["renovating"]["resource"]))
    plan = RenovationPlan(str(lair["id"]), str(room_ref), chosen, steps)
    need_stock(rules, lair, plan.cost, "Renovate")
    return plan


def _taken(pick: Mapping[str, Any]) -> dict[str, Any]:
    return {"renovation": pick["renovation"], **({"choice": pick["choice"]} if pick.get("choice") else {})}


def carry_out_renovation(
    rules: Mapping[str, Any], lair: Lair, plan: RenovationPlan, band: str, craftsman: bool
) -> Settled:
    storage.pay(lair, plan.cost)
    if succeeded(rules, band):
        room = lairs.find_room(lair, plan.room)
        assert room is not None  # the plan was read against this lair
        before = lairs.lair_bonus(rules, lair, "max_obscurity")
        for pick in plan.picks:
            room.setdefault("renovations", []).append(_taken(pick))
            room["level"] = int(room["level"]) + 1
        lairs.raise_obscurity(lair, lairs.lair_bonus(rules, lair, "max_obscurity") - before)
    return settle(rules, lair, plan.steps, band, craftsman)


# --- a new lair ------------------------------------------------------------------------------------------


@dataclass
class NewLairPlan:
    lair: str  # the lair that pays
    grid: str
    steps: list[dict[str, int]]

    @property
    def cost(self) -> dict[str, int]:
        return _sum(self.steps)


def plan_new_lair(
    rules: Mapping[str, Any],
    faction: Mapping[str, Any],
    paying: Mapping[str, Any],
    grid: str,
    units: Sequence[Mapping[str, Any]],
) -> NewLairPlan:
    """Check the founding of a lair at ``grid``, paid from the Warehouse of ``paying``."""
    if any(lair["grid"] == grid for lair in (faction.get("lairs") or {}).values()):
        raise Reject("target", f"you already have a lair at {grid}", "found the new lair on another grid")
    need_units(rules, units, int(rules["new_lair"]["min_units"]), "A new lair")
    need_saws(rules, units, paying, may_embed=False)
    plan = NewLairPlan(str(paying["id"]), grid, [dict(rules["new_lair"]["cost"])])
    need_stock(rules, paying, plan.cost, "A new lair")
    return plan


def carry_out_new_lair(
    rules: Mapping[str, Any],
    faction: dict[str, Any],
    plan: NewLairPlan,
    lair_id: str,
    band: str,
    craftsman: bool,
) -> tuple[Lair | None, Settled]:
    """Take the Lumber; on Partial Success or better the new lair stands (``lair_id`` from the caller,
    who counts ids: ``core.factions.next_id``)."""
    paying = faction["lairs"][plan.lair]
    storage.pay(paying, plan.cost)
    founded = None
    if succeeded(rules, band):
        founded = setup.new_lair(rules, lair_id, plan.grid, list(rules["new_lair"]["rooms"]))
        faction["lairs"][lair_id] = founded
    return founded, settle(rules, paying, plan.steps, band, craftsman)
