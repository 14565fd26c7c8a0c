"""The Harvest action on a known node: the roll's harvest-only modifiers, the yield, and the node's uses.

The d100 is rolled by the action roll; this module gives it the modifiers only a harvest knows (a grand
node's bonus, swamp information), and after the
roll turns the band into an amount: the node's dice and one more die per unit beyond the first, stepped
up by a Pioneer, read by the band (reroll ones, +1 per node die, +1 per unit, every die at its highest),
plus the assisting leaders and the amount skills. Every attempt spends a use of the node, unless a living
Pioneer's global part spares it on a good band. Numbers come from ``rules/scouting.yaml`` (``harvest``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.dice import Expression, Modifier, Roll, RollLabel, roll_label
from . import detection
from .scouting import Context, Party, band_at_least, home_lair, information_bonus, known, leaders_of, units_of


def roll_modifiers(faction: Mapping[str, Any], node: Mapping[str, Any], turn: int) -> list[Modifier]:
    """The harvest's own modifiers for the action roll: a grand node's bonus, and fresh swamp information.
    The resource's skill, the racial bonuses and a present Pioneer are every action's kinds of modifier,
    which the action roll's ledger (``rolls.action_ledger``, given the resource) already counts."""
    found: list[Modifier] = []
    if int(node.get("harvest_bonus", 0)):
        found.append(Modifier("grand_node", int(node["harvest_bonus"])))
    news = information_bonus(faction, "harvest", turn)
    if news:
        found.append(Modifier("swamp_information", news))
    return found


def pioneer_present(leader: Mapping[str, Any], bonus: str) -> bool:
    return leader.get("bonus") == bonus and not leader.get("healing")


def pioneer_alive(faction: Mapping[str, Any], bonus: str) -> bool:
    """Whether the usurper has a Pioneer whose global part holds: alive and not healing."""
    return any(
        leader.get("bonus") == bonus and int(leader.get("hp", 1)) > 0 and not leader.get("healing")
        for leader in (faction.get("leaders") or {}).values()
    )


@dataclass
class Yield:
    """The amount harvested and how it was reached, for the event and the report."""

    amount: int
    dice: list[int] = field(default_factory=list)  # the faces counted, after any reroll
    sides: int = 4
    base_dice: int = 0
    extra_dice: int = 0
    ledger: list[Modifier] = field(default_factory=list)  # the flat additions, each named
    rolls: list[Roll] = field(default_factory=list)


def harvest_yield(
    ctx: Context,
    label: RollLabel,
    rules: Mapping[str, Any],
    node: Mapping[str, Any],
    band: str,
    *,
    units: Sequence[Mapping[str, Any]],
    leaders: Sequence[Mapping[str, Any]],
    faction: str,
) -> Yield:
    """The amount one harvest brings in at a band: nothing below the lowest yielding band."""
    data = rules["harvest"]
    bands = data["bands"]
    if band not in bands:
        return Yield(0)
    reading = bands[band]
    spec = Expression.parse(str(node["dice"]))
    steps = [int(side) for side in data["die_steps"]]
    upgrade = (
        int(data["pioneer"]["die_steps"])
        if any(pioneer_present(leader, data["pioneer"]["bonus"]) for leader in leaders)
        else 0
    )

    def stepped(sides: int) -> int:
        if sides not in steps:
            return sides
        return steps[min(len(steps) - 1, steps.index(sides) + upgrade)]

    base, extra = spec.count, max(0, len(units) - 1)
    sides = stepped(spec.sides)
    extra_sides = stepped(int(data["extra_unit_die"]))
    result = Yield(0, sides=sides, base_dice=base, extra_dice=extra)
    if reading.get("maximise"):
        faces = [sides] * base + [extra_sides] * extra
    else:
        faces = _roll_faces(ctx, label, base, sides, extra, extra_sides, faction, result)
        if reading.get("reroll_ones") and 1 in faces:
            faces = _reroll_ones(ctx, label, faces, base, sides, extra_sides, faction, result)
    result.dice = faces
    ledger = result.ledger
    if spec.modifier:
        ledger.append(Modifier("node", spec.modifier))
    if reading.get("per_base_die"):
        ledger.append(Modifier("per_node_die", int(reading["per_base_die"]) * base))
    if reading.get("per_unit"):
        ledger.append(Modifier("per_unit", int(reading["per_unit"]) * len(units)))
    if leaders:
        each = data["leaders"]
        per = (
            int(each["each_from_band"])
            if band_at_least(rules, band, each["from_band"])
            else int(each["each"])
        )
        ledger.append(Modifier("leaders", per * len(leaders)))
    resource = data["resources"][node["resource"]]
    if resource.get("amount_skill"):
        amount_ranks = detection.ranks([*units, *leaders], resource["amount_skill"])
        if amount_ranks:
            ledger.append(Modifier(resource["amount_skill"], amount_ranks * int(resource["amount_per_rank"])))
    result.amount = sum(faces) + sum(m.value for m in ledger)
    return result


def _roll_faces(
    ctx: Context,
    label: RollLabel,
    base: int,
    sides: int,
    extra: int,
    extra_sides: int,
    faction: str,
    result: Yield,
) -> list[int]:
    """The node's dice, then the extra units' dice: one pool when they have the same sides."""
    if extra == 0 or extra_sides == sides:
        roll = ctx.roll(roll_label(label, "yield"), f"{base + extra}d{sides}", factions=[faction])
        roll.decided = "the amount harvested"
        result.rolls.append(roll)
        return list(roll.dice)
    node_roll = ctx.roll(roll_label(label, "yield"), f"{base}d{sides}", factions=[faction])
    node_roll.decided = "the amount harvested from the node's dice"
    unit_roll = ctx.roll(roll_label(label, "yield", "units"), f"{extra}d{extra_sides}", factions=[faction])
    unit_roll.decided = "the amount the further units add"
    result.rolls += [node_roll, unit_roll]
    return [*node_roll.dice, *unit_roll.dice]


def _reroll_ones(
    ctx: Context,
    label: RollLabel,
    faces: list[int],
    base: int,
    sides: int,
    extra_sides: int,
    faction: str,
    result: Yield,
) -> list[int]:
    """Each one is rolled once more (node dice first, then the units' dice), and the new face counts."""
    ones = [i for i, face in enumerate(faces) if face == 1]
    node_ones = [i for i in ones if i < base]
    unit_ones = [i for i in ones if i >= base]
    kept = list(faces)
    if extra_sides == sides:
        groups = [(ones, sides, ())]
    else:
        groups = [(node_ones, sides, ()), (unit_ones, extra_sides, ("units",))]
    for where, die, tail in groups:
        if not where:
            continue
        roll = ctx.roll(roll_label(label, "reroll", *tail), f"{len(where)}d{die}", factions=[faction])
        roll.decided = "the ones rolled again"
        result.rolls.append(roll)
        for index, face in zip(where, roll.dice, strict=True):
            kept[index] = face
    return kept


def harvest(ctx: Context, state: dict[str, Any], party: Party, grid: str, band: str) -> dict[str, Any]:
    """Carry out a harvest of the party's known node at ``grid`` whose roll gave ``band``: the amount goes
    to the home lair's storage (gold to the coffers), and the node spends a use unless a Pioneer spares
    it; a node with no use left is gone. Returns what happened, for the event."""
    rules = ctx.rules
    data = rules["harvest"]
    faction = state["factions"][party.faction]
    nodes = known(faction)["nodes"]
    node = nodes[grid]
    units, leaders = units_of(state, party), leaders_of(state, party)
    label = roll_label(party.faction, party.initiator, "harvest", grid)
    got = harvest_yield(ctx, label, rules, node, band, units=units, leaders=leaders, faction=party.faction)
    resource = node["resource"]
    lair = home_lair(state, party)
    if resource in data["stored"]:
        storage = lair.setdefault("storage", {})
        storage[resource] = int(storage.get(resource, 0)) + got.amount
    else:
        faction["gold"] = int(faction.get("gold", 0)) + got.amount
    spared = band_at_least(rules, band, data["keeps_use_from"]) and pioneer_alive(
        faction, data["pioneer"]["bonus"]
    )
    if not spared:
        node["uses"] = int(node["uses"]) - 1
    exhausted = int(node["uses"]) <= 0
    if exhausted:
        del nodes[grid]
    return {
        "grid": grid,
        "resource": resource,
        "amount": got.amount,
        "dice": got.dice,
        "ledger": [m.to_data() for m in got.ledger],
        "uses_left": max(0, int(node["uses"])),
        "use_spared": spared,
        "exhausted": exhausted,
        "lair": lair["id"],
        "rolls": got.rolls,
    }
