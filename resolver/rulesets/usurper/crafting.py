"""Craft: what an item costs to attempt, what the Workshop must have, the quality the roll's total gives,
and what a crafted item sells for. The roll is the rolls part's; these functions take its band and total.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.dice import Modifier
from ...engine.plans import Reject
from . import building, lairs, storage
from .lairs import Lair


def quality_rows(rules: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(rules["qualities"])


def quality_row(rules: Mapping[str, Any], quality: str) -> Mapping[str, Any]:
    return next(row for row in quality_rows(rules) if row["id"] == quality)


def quality_name(rules: Mapping[str, Any], quality: str) -> str:
    return str(quality_row(rules, quality)["name"])


def quality_for(rules: Mapping[str, Any], total: int, helps: int, band: str) -> str | None:
    """The quality a craft's total gives: the best row whose total is reached and whose kinds of help
    (HQ materials, a crafting artifact, a crafting spell) the craft had; None when the craft failed. A
    failure read up to Partial Success (the first month) makes a Standard item."""
    if not building.succeeded(rules, band):
        return None
    best = quality_rows(rules)[0]["id"]
    for row in quality_rows(rules):
        if total >= int(row["min_total"]) and helps >= int(row.get("needs", 0)):
            best = row["id"]
    return str(best)


def sale_value(rules: Mapping[str, Any], item: str, quality: str, round_up: bool) -> int | None:
    """Gold an item fetches: a share of its market price, plus its quality's value (the larger of the flat
    amount and the percentage of that share), rounded down, or up where the buyer is friendly. None for a
    quality that cannot be sold."""
    row = quality_row(rules, quality)
    if row.get("sellable", True) is False:
        return None
    half = float(rules["market"][item]["price"]) * float(rules["sale"]["fraction"])
    value = max(half + float(row.get("value_flat", 0)), half * (1 + float(row.get("value_percent", 0)) / 100))
    return math.ceil(value) if round_up else math.floor(value)


@dataclass
class CraftPlan:
    lair: str
    workshop: str  # the Workshop as the order names it
    items: list[str]
    hq: bool
    steps: list[dict[str, int]]  # the resources of each item (in HQ materials where hq)
    gems: list[int] = field(default_factory=list)  # the gem value each item needs, in order
    helps: int = 0  # kinds of help towards the best qualities
    modifiers: list[Modifier] = field(default_factory=list)  # the Workshop's and the craft's own

    @property
    def cost(self) -> dict[str, int]:
        return building._sum(self.steps)


def crafting_helps(rules: Mapping[str, Any], leaders: Sequence[Mapping[str, Any]], hq: bool) -> int:
    """Kinds of help that open the best qualities: HQ materials, a crafting spell a leader taking part
    knows, a crafting artifact a leader taking part carries."""
    spells = set(rules["crafting"]["help_spells"])
    artifacts = set(rules["crafting"]["help_artifacts"])
    knows = any(spells & set(leader.get("spells") or []) for leader in leaders)
    carried = {str(c.get("item")) for leader in leaders for c in carried_list(leader)}
    return int(hq) + int(knows) + int(bool(artifacts & carried))


def carried_list(leader: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    held = leader.get("carried")
    return [] if not held else list(held) if isinstance(held, list) else [held]


def plan_craft(
    rules: Mapping[str, Any],
    lair: Mapping[str, Any],
    workshop_ref: str,
    items: Sequence[str],
    units: Sequence[Mapping[str, Any]],
    leaders: Sequence[Mapping[str, Any]],
    *,
    hq: bool,
    turn: int,
) -> CraftPlan:
    """Check a craft of ``items`` in one Workshop of ``lair`` and price it."""
    workshop = lairs.find_room(lair, workshop_ref or "workshop")
    if workshop is None or workshop["type"] != "workshop":
        raise Reject(
            "workshop",
            f"the lair at {lair['grid']} has no Workshop '{workshop_ref or 'workshop'}'",
            "build a Workshop first: action build, rooms: [workshop]",
        )
    costs = rules["crafting"]["costs"]
    if not items:
        raise Reject("items", "name the item to craft", "for example items: [light_armor]")
    for number, item in enumerate(items):
        if item not in costs:
            raise Reject(
                ("items", number), f"'{item}' cannot be crafted", "craft one of: " + ", ".join(costs)
            )
        needs = str(costs[item]["needs"])
        if needs != "workshop" and not lairs.room_bonus(rules, workshop, needs):
            title = lairs.renovation_name(rules, "workshop", needs)
            raise Reject(
                ("items", number),
                f"{storage.item_name(rules, item)} needs the Workshop's {title} renovation",
                f"renovate the Workshop: renovation: {needs}",
            )
    multi = lairs.room_bonus(rules, workshop, "multi_crafting")
    per_week = int(rules["crafting"]["per_workshop_per_week"])
    if int(workshop.get("crafted", -1)) == turn:
        raise Reject(
            "workshop",
            "this Workshop has already made something this week",
            "craft in another Workshop, or next week",
        )
    if len(items) > per_week and not multi:
        raise Reject(
            "items",
            f"a Workshop makes {per_week} item a week",
            "craft one item, or renovate the Workshop with Technique-Multi-crafting",
        )
    _need_hammers(rules, workshop, units)
    steps = []
    for item in items:
        cost = {r: int(n) for r, n in costs[item]["cost"].items()}
        savable = {r: n for r, n in cost.items() if r in rules["crafting"]["savable"]}
        others = {r: n for r, n in cost.items() if r not in savable}
        steps.append({**(storage.hq_cost(rules, savable) if hq else savable), **others})
    gems = [int(costs[item]["gem"]) for item in items if costs[item].get("gem")]
    plan = CraftPlan(str(lair["id"]), workshop_ref or "workshop", list(items), hq, steps, gems)
    building.need_stock(rules, lair, plan.cost, "Crafting")
    left = list(lair.get("gems", []))
    for value in gems:
        paid = storage.gems_for(left, value)
        if paid is None:
            raise Reject("items", f"crafting needs a gem worth {value} gold", "find or buy a gem first")
        for gem in paid[0]:
            left.remove(gem)
        if paid[1]:
            left.append(paid[1])
    plan.helps = crafting_helps(rules, leaders, hq)
    plan.modifiers = craft_modifiers(rules, workshop, units, len(items))
    return plan


def _need_hammers(
    rules: Mapping[str, Any], workshop: Mapping[str, Any], units: Sequence[Mapping[str, Any]]
) -> None:
    if building.embedded(workshop, "hammers"):
        return
    lacking = [unit["name"] for unit in units if not building.has_tool(unit, "hammers")]
    if lacking:
        name = storage.item_name(rules, "hammers")
        raise Reject(
            "equip",
            f"{', '.join(lacking)} {'has' if len(lacking) == 1 else 'have'} no {name}, "
            "and none are embedded in the Workshop",
            f"equip {name} on every unit that crafts (equip: [hammers]), "
            "or embed a set in the Workshop (embed: true)",
        )


def craft_modifiers(
    rules: Mapping[str, Any], workshop: Mapping[str, Any], units: Sequence[Mapping[str, Any]], count: int
) -> list[Modifier]:
    """The craft's own modifiers beside the rolls part's: the Workshop's crafting boost, embedded Hammers
    (once, for units that carry none), and the multi-crafting penalty per item beyond the first."""
    mods = [
        Modifier(
            f"{lairs.room_name(rules, 'workshop')} crafting boost",
            lairs.room_bonus(rules, workshop, "crafting"),
        )
    ]
    mods += embedded_modifiers(rules, workshop, units, "hammers")
    if count > 1:
        mods.append(
            Modifier("Multi-crafting", int(rules["crafting"]["multi_crafting_penalty"]) * (count - 1))
        )
    return [mod for mod in mods if mod.value]


def embedded_modifiers(
    rules: Mapping[str, Any],
    workshop: Mapping[str, Any] | None,
    units: Sequence[Mapping[str, Any]],
    tool: str,
) -> list[Modifier]:
    held = building.embedded(workshop, tool)
    if not held or all(building.has_tool(unit, tool) for unit in units):
        return []
    row = quality_row(rules, str(held.get("quality", "standard")))
    name = storage.item_name(rules, tool)
    return [Modifier(f"embedded {name}", int(rules["items"][tool]["bonus"]) + int(row.get("tool_bonus", 0)))]


def embed(rules: Mapping[str, Any], lair: Lair, workshop_ref: str, tool: str) -> dict[str, Any]:
    """Set a tool from the Warehouse into a Workshop for good (the best set stored); it never comes out."""
    workshop = lairs.find_room(lair, workshop_ref or "workshop")
    if workshop is None or workshop["type"] != "workshop":
        missing = f"the lair at {lair['grid']} has no Workshop to embed {tool} in"
        raise Reject("workshop", missing, "build a Workshop first")
    if tool not in rules["tools"]["embeddable"] and not (
        tool == "saws" and lairs.room_bonus(rules, workshop, "shared_means")
    ):
        raise Reject("embed", f"{storage.item_name(rules, tool)} cannot be embedded here", "embed Hammers")
    if building.embedded(workshop, tool):
        raise Reject(
            "embed", f"this Workshop already holds {storage.item_name(rules, tool)}", "leave embed out"
        )
    ranks = [row["id"] for row in quality_rows(rules)]
    stored = [held for held in lair.get("items", []) if held["item"] == tool]
    if not stored:
        raise Reject(
            "embed",
            f"no {storage.item_name(rules, tool)} in the Warehouse to embed",
            "buy or craft a set first",
        )
    best = max(stored, key=lambda held: ranks.index(held.get("quality", "standard")))
    lair["items"].remove(best)
    workshop.setdefault("embedded", []).append(dict(best))
    return dict(best)


@dataclass
class Crafted:
    quality: str | None
    items: list[dict[str, Any]]
    settled: building.Settled


def carry_out_craft(
    rules: Mapping[str, Any], lair: Lair, plan: CraftPlan, band: str, total: int, craftsman: bool, turn: int
) -> Crafted:
    """Take the materials; on Partial Success or better every item is made at the one quality the total
    gives and goes to the Warehouse; a failure loses all of them (multi-crafting: one roll for all)."""
    storage.pay(lair, plan.cost)
    for value in plan.gems:
        storage.pay_gem(lair, value)
    workshop = lairs.find_room(lair, plan.workshop)
    if workshop is not None:
        workshop["crafted"] = turn
    quality = quality_for(rules, total, plan.helps, band)
    made = []
    if quality is not None:
        for item in plan.items:
            storage.store_item(lair, item, quality)
            made.append({"item": item, "quality": quality})
        settled = building.settle(rules, lair, plan.steps, band, craftsman)
    else:
        settled = building.Settled(lost=plan.cost)
    return Crafted(quality, made, settled)
