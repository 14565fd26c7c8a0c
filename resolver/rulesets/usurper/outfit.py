"""The setup market: in the game's first week a usurper spends its starting gold on market goods, at the
market's prices, without sending a leader to a city (spec §10.2.1 gives each usurper its gold "to spend on
market goods at setup", and a leader on foot cannot reach a city in the first week).

An ``outfit`` order names no leader or unit: buying at setup is the usurper's own choice before anyone
sets out, so it takes nobody's action for the week. The goods go to the Warehouse of the usurper's first
lair; the order's ``equip`` hands sets at once to a unit (tools, weapons, armour, horses) or a donkey to a
leader. One function, :func:`deliver`, moves the gold and the goods: the reading runs it on a copy to find
what is wrong, the checker on its sketch of the usurper (so that the file's later orders see the goods),
the bot on its own copy, and the week's first step on the live state.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from ...core.fields import choice_hint
from ...core.orders import FieldPath, Order
from ...core.phases import State
from ...core.words import series
from ...engine.plans import Reading, Reject
from ...engine.ruleset import Game
from . import equipment, storage
from . import model as m
from .acting import Context, Plan, told

OUTFIT = "outfit"
DONKEY = "donkey"  # the one good that goes to a leader, not to a unit or the Warehouse

# An outfit is the usurper's own purchase: the envelope's actors have no place in it. What the checker says
# to an order that names them anyway, instead of guessing at a misspelling ('by' is not a short 'buy').
_NOBODY = (
    "an outfit names nobody: the usurper buys before anyone sets out, and no leader or unit spends its "
    "action on it; take '{key}:' out, and name under 'equip' whoever should take goods at once"
)
NAMES_NOBODY = {key: _NOBODY.format(key=key) for key in ("by", "assist")}

# Reads a word of the order (an id or a name) as the id of one of the usurper's leaders or units.
EntityReader = Callable[[Any, FieldPath], str]


@dataclasses.dataclass(frozen=True)
class Lot:
    """One line of the purchase: the good, how many were asked, how many come (whole lots), the gold."""

    good: str
    asked: int
    quantity: int
    gold: int


def is_open(rules: Mapping[str, Any], turn: int) -> bool:
    """Whether the setup market takes orders in this week of the campaign."""
    return 1 <= turn <= int(rules[OUTFIT]["last_turn"])


def goods(rules: Mapping[str, Any]) -> tuple[str, ...]:
    """What the setup market sells: every good of the market list."""
    return tuple(sorted(rules.get("market") or {}))


def price(rules: Mapping[str, Any], buy: Mapping[str, int]) -> list[Lot]:
    """Each good asked, in the order's order, bought in the whole lots that bring at least the number
    asked (3 Lumber a lot: 20 asked buys 7 lots, 21 Lumber), at the market's prices."""
    lots = []
    for good, asked in buy.items():
        if int(asked) <= 0:
            continue
        entry = rules["market"][good]
        count = -(-int(asked) // int(entry["quantity"]))
        lots.append(Lot(str(good), int(asked), count * int(entry["quantity"]), count * int(entry["price"])))
    return lots


def _lair(state: Mapping[str, Any], faction: str) -> dict[str, Any] | None:
    held = m.lairs(state, faction)
    return held[sorted(held)[0]] if held else None


def deliver(rules: Mapping[str, Any], state: State, faction: str, details: Mapping[str, Any]) -> None:
    """Pay for the goods and hand them over: resources and food to the lair's storage, sets to its
    Warehouse and then to those ``equip`` names, donkeys to the leaders chosen. Refuses (``Reject``) what
    cannot be done; work on a copy when only checking."""
    record = m.usurper(state, faction)
    lair = m.lairs(state, faction)[details["lair"]]
    lots = [Lot(**lot) for lot in details["lots"]]
    record["gold"] = int(record.get("gold", 0)) - sum(lot.gold for lot in lots)
    for lot in lots:
        kind = rules["items"][lot.good]["kind"]
        if lot.good == DONKEY:
            continue  # a donkey is a leader's, never stored
        if kind in ("resource", "food"):
            storage.add(lair, lot.good, lot.quantity)
        else:
            for _ in range(lot.quantity):
                storage.store_item(lair, lot.good)
    for leader_id in details["donkeys"]:
        m.leaders(state, faction)[leader_id]["donkey"] = True
    for entity_id, items, word in details["equip"]:
        kind = m.kind_of(state, faction, entity_id) or m.UNIT
        taker = m.entity(state, faction, entity_id) or {}
        try:
            equipment.equip(rules, lair, items, [(kind, taker)])
        except Reject as reject:
            raise Reject(("equip", word), reject.message, reject.hint) from reject


def read(reading: Reading, order: Order, entity_id: EntityReader) -> Plan:
    """The plan of an ``outfit`` order, or the first thing wrong with it and its fix: the week, the goods,
    the gold, who takes what, and room in the Warehouse for the rest."""
    rules, state, faction = reading.rules, reading.state, reading.faction
    turn = int(state.get("turn", 0))
    if not is_open(rules, turn):
        last = reading.game.calendar.date(int(rules[OUTFIT]["last_turn"])).label
        raise Reject(
            "action",
            f"the setup market was open until {last} only",
            "buy at a city or a settlement you know: a 'diplomacy' order of a leader, with 'buy'",
        )
    lair = _lair(state, faction)
    if lair is None:
        raise Reject("action", "you have no lair to take the goods", "found a lair first")
    buy = {str(good): int(n) for good, n in (order.get("buy") or {}).items()}
    for good in buy:
        if good not in (rules.get("market") or {}):
            hint = choice_hint(good, goods(rules))
            raise Reject(("buy", good), f"'{good}' is not sold at the market", hint)
    lots = price(rules, buy)
    if not lots:
        raise Reject("buy", "nothing to buy", "name the goods and how many: buy: {spyglass: 1}")
    cost, gold = sum(lot.gold for lot in lots), int(m.usurper(state, faction).get("gold", 0))
    if cost > gold:
        bill = ", ".join(f"{lot.quantity} {storage.item_name(rules, lot.good)}: {lot.gold}" for lot in lots)
        raise Reject("buy", f"these goods cost {cost} gold ({bill}) and you have {gold}", "buy less")
    equip: list[tuple[str, list[str], str]] = []  # (entity id, items, the word the order names it by)
    for word, items in (order.get("equip") or {}).items():
        who = entity_id(word, ("equip", str(word)))
        listed = [str(item) for item in (items if isinstance(items, list) else [items])]
        equip.append((who, listed, str(word)))
    _handed_out_bought(rules, lots, lair, equip)
    donkeys = _donkey_riders(state, faction, lots, equip)
    details = {
        "lair": lair["id"],
        "lots": [dataclasses.asdict(lot) for lot in lots],
        "cost": cost,
        "equip": [(who, [item for item in items if item != DONKEY], word) for who, items, word in equip],
        "donkeys": donkeys,
    }
    _try(rules, state, faction, details)
    plan = Plan(faction, OUTFIT, order, "", [], [], [], lair["grid"], lair["grid"], lair["grid"], lair)
    plan.details[OUTFIT] = details
    return plan


def _handed_out_bought(
    rules: Mapping[str, Any],
    lots: list[Lot],
    lair: Mapping[str, Any],
    equip: list[tuple[str, list[str], str]],
) -> None:
    """Every set ``equip`` hands out is one bought now or one already in the Warehouse."""
    there = {lot.good: lot.quantity for lot in lots}
    for held in lair.get("items") or []:
        there[held["item"]] = there.get(held["item"], 0) + 1
    for _, items, word in equip:
        for item in items:
            if item not in rules["items"]:
                raise Reject(("equip", word), f"'{item}' is not an item", "name a set you buy under 'buy'")
            if there.get(item, 0) <= 0:
                name = storage.item_name(rules, item)
                raise Reject(("equip", word), f"no {name} is bought to hand out", f"add {item} to 'buy'")
            there[item] -= 1


def _donkey_riders(
    state: Mapping[str, Any], faction: str, lots: list[Lot], equip: list[tuple[str, list[str], str]]
) -> list[str]:
    """The leaders who get the donkeys bought: those ``equip`` names with one first, then the others
    without one, in id order (the chief first). A donkey is never a unit's, and never stored."""
    bought = sum(lot.quantity for lot in lots if lot.good == DONKEY)
    named = []
    for who, items, word in equip:
        if DONKEY not in items:
            continue
        if m.kind_of(state, faction, who) != m.LEADER:
            raise Reject(("equip", word), "a donkey carries a leader, never a unit", "give it to a leader")
        if who in named or m.leaders(state, faction)[who].get("donkey"):
            name = m.name_of(state, faction, who)
            raise Reject(("equip", word), f"{name} already has a donkey", "give it to another leader")
        named.append(who)
    if len(named) > bought:
        raise Reject("equip", f"{len(named)} leaders take a donkey, {bought} bought", "buy more donkeys")
    riders = [*named]
    for leader_id, leader in sorted(m.leaders(state, faction).items()):
        if len(riders) == bought:
            break
        if leader_id not in riders and not leader.get("donkey"):
            riders.append(leader_id)
    if len(riders) < bought:
        raise Reject(
            ("buy", DONKEY),
            f"{bought} donkeys and {len(riders)} leaders without one to ride them",
            f"buy {len(riders)} at most: a donkey is never stored",
        )
    return riders


def _try(rules: Mapping[str, Any], state: State, faction: str, details: Mapping[str, Any]) -> None:
    """The whole delivery on a copy of the usurper: the sets equipped, then room for what is stored."""
    factions = dict(state["factions"])
    factions[faction] = copy.deepcopy(factions[faction])
    sketch = {**state, "factions": factions}
    deliver(rules, sketch, faction, details)
    lair = m.lairs(sketch, faction)[details["lair"]]
    used, room = storage.slots_used(rules, lair), storage.capacity(rules, lair)
    if used > room:
        raise Reject(
            "buy",
            f"the Warehouse at {lair['grid']} holds {room} slots and these goods would fill {used}",
            "buy fewer, or hand sets out at once under 'equip' (what does not fit is lost at the week's end)",
        )


def words(
    rules: Mapping[str, Any], state: Mapping[str, Any], faction: str, details: Mapping[str, Any]
) -> dict[str, Any]:
    """What the purchase was, for the echo and the event: the goods and their gold, who took what."""
    bought = [
        {"good": storage.item_name(rules, lot["good"]), "quantity": lot["quantity"], "gold": lot["gold"]}
        for lot in details["lots"]
    ]
    given = [
        {
            "to": m.name_of(state, faction, who),
            "items": series([storage.item_name(rules, item) for item in items]),
        }
        for who, items, _ in details["equip"]
        if items
    ]
    riders = [m.name_of(state, faction, who) for who in details["donkeys"]]
    return {"bought": bought, "gold": int(details["cost"]), "given": given, "donkeys": riders}


def echo(reading: Reading, plan: Plan) -> str:
    """The checker's echo: what will be bought, for how much, and where it goes."""
    details = plan.details[OUTFIT]
    said = words(reading.rules, reading.state, reading.faction, details)
    goods_words = ", ".join(f"{b['quantity']} {b['good']}" for b in said["bought"])
    left = int(m.usurper(reading.state, reading.faction).get("gold", 0)) - said["gold"]
    parts = [f"At the setup market: {goods_words}, for {said['gold']} gold ({left} left)"]
    parts += [f"{g['items']} to {g['to']}" for g in said["given"]]
    parts += [f"a Donkey for {rider}" for rider in said["donkeys"]]
    where = reading.game.place_label(plan.target)
    return "; ".join(parts) + f"; the rest to the Warehouse of your lair at {where}."


def outfit_week(ctx: Context, state: State, plan: Plan) -> None:
    """The week's first step: the goods are bought and handed over before anyone sets out, and the usurper
    alone is told."""
    details = plan.details[OUTFIT]
    said = words(ctx.rules, state, plan.faction, details)
    deliver(ctx.rules, state, plan.faction, details)
    ctx.emit(
        "outfitted", actors=[plan.faction], visible_to=told(ctx, plan.faction), place=plan.target, **said
    )


def status_lines(game: Game, state: Mapping[str, Any], faction: str) -> list[str]:
    """The template's word on the setup market, in the weeks it is open."""
    rules = game.rules
    if not is_open(rules, int(state.get("turn", 0))):
        return []
    gold = int(m.usurper(state, faction).get("gold", 0))
    return [
        f"The setup market is open this week only: an 'outfit' order spends your {gold} gold on market goods "
        "at market prices, delivered to your lair or handed at once to a unit or leader (see its example)."
    ]
