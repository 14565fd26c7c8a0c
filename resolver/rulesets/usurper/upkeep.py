"""The month's upkeep (week 4), the missed shares paid later, and units beyond the Barracks.

In week 4 every unit costs a share: gold, and food for itself and its horses. Units are paid in the order
of the standing policy ``upkeep_priority`` (the rest follow by the rules data's default order), each
whole or not at all; a unit that gets nothing makes a Loyalty check whose row says what becomes of it
(leaves, with the lair's Obscurity; idles; bears the unpaid penalty). A unit left owing (``unpaid``)
owes one share more until it is paid, which any later week's end does while the usurper has it.
Units beyond the Barracks are disbanded at once; each still owes its month's gold at the next upkeep.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

from ...core.checks import CheckResult
from ...core.dice import roll_label
from ...core.standing import stored
from . import lairs, rolls
from .acting import told

__all__ = [
    "LoyaltyRoll",
    "disband_overflow",
    "loyalty_check",
    "pay_arrears",
    "run_arrears",
    "run_upkeep",
    "settle_upkeep",
    "share",
    "upkeep_order",
]

# (context, state, faction id, unit id) -> the Loyalty check's result
LoyaltyRoll = Callable[[Any, Mapping[str, Any], str, str], CheckResult]


def share(rules: Mapping[str, Any], unit: Mapping[str, Any]) -> tuple[int, int]:
    """One month's share of a unit: (gold, food). Horses eat what their item says; nothing else does."""
    upkeep = rules["upkeep"]
    food = int(upkeep["food_per_unit"])
    mount = unit.get("mount")
    if mount:
        mount_id = str(mount["item"] if isinstance(mount, Mapping) else mount)
        if int((rules.get("items") or {}).get(mount_id, {}).get("eats", 0)):
            food += int(upkeep["food_per_mount"])
    return int(upkeep["gold_per_unit"]), food


def _policy(state: Mapping[str, Any], faction: str) -> dict[str, Any]:
    return dict(stored(state, faction).get("policies") or {})


def upkeep_order(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str) -> list[str]:
    """The faction's units in the order they are paid: those its policy names, then the default order
    (the highest level first, then the oldest id)."""
    units = state["factions"][faction].get("units") or {}
    by_name = {str(unit.get("name", "")).casefold(): unit_id for unit_id, unit in units.items()}
    written = [str(word).strip() for word in _policy(state, faction).get("upkeep_priority") or []]
    named = [
        w if w in units else by_name[w.casefold()] for w in written if w in units or w.casefold() in by_name
    ]

    def default(unit_id: str) -> tuple[int, int, str]:
        number = unit_id.rsplit("-u", 1)[-1]
        return (-int(units[unit_id].get("level", 0)), int(number) if number.isdigit() else 0, unit_id)

    return [*dict.fromkeys(named), *sorted((u for u in units if u not in named), key=default)]


def _food_sources(faction: Mapping[str, Any], home: str) -> list[MutableMapping[str, Any]]:
    """The lairs food is taken from: the unit's own first, then the others by id."""
    lairs = faction.get("lairs") or {}
    order = [home] if home in lairs else []
    order += sorted(lair for lair in lairs if lair != home)
    return [lairs[lair].setdefault("storage", {}) for lair in order]


def _lacking(faction: Mapping[str, Any], home: str, gold: int, food: int) -> dict[str, bool]:
    """What a unit's dues ran short of, so its report says unpaid, unfed, or both."""
    stored = sum(int(s.get("foodstuffs", 0)) for s in _food_sources(faction, home))
    return {"unpaid_gold": int(faction.get("gold", 0)) < gold, "unfed": stored < food}


def _take(faction: MutableMapping[str, Any], home: str, gold: int, food: int) -> bool:
    """Take a unit's dues, all of them or none: whether they were there."""
    sources = _food_sources(faction, home)
    if int(faction.get("gold", 0)) < gold or sum(int(s.get("foodstuffs", 0)) for s in sources) < food:
        return False
    faction["gold"] = int(faction.get("gold", 0)) - gold
    for storage in sources:
        taken = min(food, int(storage.get("foodstuffs", 0)))
        storage["foodstuffs"] = int(storage.get("foodstuffs", 0)) - taken
        food -= taken
    return True


def loyalty_check(ctx: Any, state: Mapping[str, Any], faction: str, unit_id: str) -> CheckResult:
    """The Loyalty check of a unit left unpaid or unfed (the dice chapter's, with its Throne Room and
    Medallion, and the spells of the leaders who share its lair), under a label of the usurper, the unit
    and the upkeep."""
    record = state["factions"][faction]
    home = record["units"][unit_id].get("lair")
    with_it = [lead for _, lead in sorted((record.get("leaders") or {}).items()) if lead.get("lair") == home]
    return rolls.loyalty_check(
        ctx, state, faction, unit_id, roll_label(faction, unit_id, "loyalty", "upkeep"), leaders=with_it
    )


def _lose_obscurity(faction: MutableMapping[str, Any], lair_id: str, amount: int) -> None:
    lair = (faction.get("lairs") or {}).get(lair_id)
    if lair is not None and amount:
        obscurity = lair["obscurity"]
        obscurity["current"] = max(0, int(obscurity["current"]) + amount)


def _unfaithful(
    ctx: Any, state: MutableMapping[str, Any], faction: str, unit_id: str, loyalty: LoyaltyRoll
) -> tuple[dict[str, Any], Any]:
    """Roll an unpaid unit's loyalty and do what its row says: (what happened, the roll)."""
    record = state["factions"][faction]
    unit = record["units"][unit_id]
    checked = loyalty(ctx, state, faction, unit_id)
    row = checked.row
    told: dict[str, Any] = {"unit": unit_id, "name": unit.get("name"), "result": row.result}
    if row.get("leaves"):
        del record["units"][unit_id]
        lost = int(row.get("obscurity", 0) or 0)
        _lose_obscurity(record, str(unit.get("lair")), lost)
        told.update(leaves=True, obscurity=lost)
    else:
        unit["grumpy"] = bool(row.get("idle_until_paid"))
        unit["unpaid"] = bool(row.get("idle_until_paid") or row.get("unpaid_penalty"))
    return told, checked.roll


def settle_upkeep(
    ctx: Any, state: MutableMapping[str, Any], faction: str, loyalty: LoyaltyRoll = loyalty_check
) -> dict[str, Any]:
    """Week 4 for one usurper: pay every unit's share (and a missed one), roll loyalty for those left
    without, then the disbanded units' last gold. The event's data, and its rolls under ``rolls``."""
    rules = ctx.rules
    record = state["factions"][faction]
    paid, unpaid, rolls = [], [], []
    gold_before = int(record.get("gold", 0))
    for unit_id in upkeep_order(rules, state, faction):
        unit = record["units"][unit_id]
        shares = 2 if unit.get("unpaid") else 1
        gold, food = share(rules, unit)
        lacking = _lacking(record, str(unit.get("lair")), shares * gold, shares * food)
        if _take(record, str(unit.get("lair")), shares * gold, shares * food):
            unit["unpaid"] = unit["grumpy"] = False
            paid.append(unit_id)
            continue
        told, roll = _unfaithful(ctx, state, faction, unit_id, loyalty)
        told.update(lacking)
        unpaid.append(told)
        rolls.append(roll)
    owed_gold = int(rules["upkeep"]["gold_per_unit"])
    disbanded = []
    for gone in record.pop("disbanded", None) or []:
        settled = _take(record, str(gone.get("lair")), owed_gold, 0)
        if not settled:
            _lose_obscurity(record, str(gone.get("lair")), int(rules["upkeep"]["disbanded_unpaid_obscurity"]))
        disbanded.append({"name": gone.get("name"), "paid": settled})
    data: dict[str, Any] = {"paid": paid, "unpaid": unpaid, "gold": gold_before - int(record.get("gold", 0))}
    if disbanded:
        data["disbanded"] = disbanded
    data["rolls"] = rolls
    return data


def pay_arrears(rules: Mapping[str, Any], state: MutableMapping[str, Any], faction: str) -> list[str]:
    """Pay the missed share of every unit left owing, in the upkeep order, while the usurper has it; the
    units freed of their debt (a Grumpy one acts again). Off when the policy ``pay_arrears`` is no."""
    if _policy(state, faction).get("pay_arrears") is False:
        return []
    record = state["factions"][faction]
    freed = []
    for unit_id in upkeep_order(rules, state, faction):
        unit = record["units"][unit_id]
        if not unit.get("unpaid"):
            continue
        gold, food = share(rules, unit)
        if _take(record, str(unit.get("lair")), gold, food):
            unit["unpaid"] = unit["grumpy"] = False
            freed.append(unit_id)
    return freed


def disband_overflow(rules: Mapping[str, Any], state: MutableMapping[str, Any], faction: str) -> list[str]:
    """Disband the units beyond the usurper's Barracks rooms, the last in the upkeep order first; each
    is remembered until the month's upkeep, which still owes its gold. The names of the units gone."""
    record = state["factions"][faction]
    over = len(record.get("units") or {}) - _places(rules, record)
    gone = []
    for unit_id in reversed(upkeep_order(rules, state, faction)) if over > 0 else ():
        if len(gone) == over:
            break
        unit = record["units"].pop(unit_id)
        record.setdefault("disbanded", []).append({"name": unit.get("name"), "lair": unit.get("lair")})
        gone.append(str(unit.get("name") or unit_id))
    return gone


def _places(rules: Mapping[str, Any], faction: Mapping[str, Any]) -> int:
    """The units the usurper's lairs house: what their rooms give to ``units`` (the rooms chapter)."""
    return sum(lairs.lair_bonus(rules, lair, "units") for lair in (faction.get("lairs") or {}).values())


def run_upkeep(ctx: Any, state: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """The turn table's week-4 step: every active usurper pays its units; each hears its own account."""
    for faction in sorted(state["factions"]):
        if state["factions"][faction].get("status", "active") != "active":
            continue
        data = settle_upkeep(ctx, state, faction)
        rolls = data.pop("rolls")
        ctx.emit("upkeep", actors=[faction], visible_to=told(ctx, faction), rolls=rolls, **data)
    return state


def run_arrears(ctx: Any, state: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """The end of every week: units beyond the Barracks are disbanded, and missed shares are paid."""
    for faction in sorted(state["factions"]):
        if state["factions"][faction].get("status", "active") != "active":
            continue
        gone = disband_overflow(ctx.rules, state, faction)
        if gone:
            ctx.emit("units_disbanded", actors=[faction], visible_to=told(ctx, faction), units=gone)
        freed = pay_arrears(ctx.rules, state, faction)
        if freed:
            ctx.emit("arrears_paid", actors=[faction], visible_to=told(ctx, faction), units=freed)
    return state
