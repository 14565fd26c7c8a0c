"""Diplomacy: a leader's visit to a city or a settlement the usurper knows.

The visit rolls the d100 action roll (the rolls chapter builds the common ledger: Leader Presence,
Negotiator, the Herald's local part) with this chapter's own modifiers (:func:`diplomacy_modifiers`: the
place's size, its attitude, a racial totem, shared customs, exploration quests). Its band then settles, in
this order: the bribe and the new attitude (settlements only), recruiting of standard units, and the trade
the order asks for (:func:`carry_out`). Trade needs no band; recruiting needs the band of the rules data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from ...core.checks import Modifier
from ...engine.plans import Reject
from . import happenings, lairs, landmarks, rolls, trading
from . import model as m
from .acting import told
from .setup import new_unit

__all__ = [
    "Place",
    "barracks_free",
    "carry_out",
    "diplomacy_modifiers",
    "place_at",
    "recruit_problem",
    "require_visit",
    "visit",
]


@dataclass
class Place:
    """A city or a known settlement as one usurper meets it."""

    grid: str
    city: bool
    name: str
    size: str
    races: list[str]
    attitude: str
    status: str
    record: MutableMapping[str, Any] | None  # the usurper's own note of a settlement (None for a city)


def place_at(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str, grid: str) -> Place | None:
    """The city in ``grid``, or the settlement there that ``faction`` has found; None when it knows none."""
    city = (state.get("cities") or {}).get(grid)
    if city is not None:
        return Place(
            grid=grid,
            city=True,
            name=str(city.get("name") or grid),
            size=str(city["size"]),
            races=list(city.get("races") or []),
            attitude=str(rules["diplomacy"]["city_attitude"]),
            status=str(rules["trade"]["city_status"]),
            record=None,
        )
    known = state["factions"][faction].get("known") or {}
    record = (known.get("settlements") or {}).get(grid)
    if record is None:
        return None
    record.setdefault("attitude", rules["diplomacy"]["start_attitude"])
    record.setdefault("trade_status", rules["trade"]["start_status"])
    record.setdefault("traded", 0)
    sizes = rules["settlement_sizes"]
    return Place(
        grid=grid,
        city=False,
        name=str(record.get("name") or f"the {words_of(sizes, record['size'])} at {grid}"),
        size=str(record["size"]),
        races=list(record.get("races") or []),
        attitude=str(record["attitude"]),
        status=str(record["trade_status"]),
        record=record,
    )


def words_of(catalogue: Mapping[str, Any], key: str) -> str:
    """The reader's name of a size or an attitude: its ``name`` in the rules data, else its id in words."""
    entry = catalogue.get(key)
    if isinstance(entry, Mapping) and entry.get("name"):
        return str(entry["name"])
    return key.replace("_", " ")


def diplomacy_modifiers(
    rules: Mapping[str, Any], faction: Mapping[str, Any], leaders: Iterable[Mapping[str, Any]], place: Place
) -> list[Modifier]:
    """What a Diplomacy roll at ``place`` adds beyond the common action ledger, each source named."""
    diplomacy = rules["diplomacy"]
    leaders = list(leaders)
    sizes = rules["city_sizes"] if place.city else rules["settlement_sizes"]
    size_word = words_of(sizes, place.size).title()
    modifiers = [Modifier(f"{size_word} size", int(sizes[place.size]["diplomacy"]))]
    attitude = rules["attitudes"][place.attitude]
    if int(attitude["diplomacy"]):
        modifiers.append(Modifier(f"{attitude['name']} attitude", int(attitude["diplomacy"])))
    totem = rules["items"]["racial_totem"]
    for leader in leaders:
        carried = leader.get("carried")
        totem_there = isinstance(carried, Mapping) and carried.get("race") in place.races
        if totem_there and carried.get("item") == "racial_totem":  # type: ignore[union-attr]
            modifiers.append(Modifier(str(totem["name"]), int(totem["bonus"])))
    if any(leader.get("race") in place.races for leader in leaders):
        modifiers.append(Modifier("Shared Customs", int(diplomacy["shared_customs"])))
    quests = int(faction.get("exploration_quests", 0) or 0)
    if quests:
        modifiers.append(Modifier("Exploration quests", quests * int(diplomacy["exploration_quest"])))
    return modifiers


def barracks_free(rules: Mapping[str, Any], faction: Mapping[str, Any]) -> dict[str, int]:
    """Empty Barracks places by lair: what the lair's rooms give to ``units`` (the Barracks' ``gives`` in the
    rooms chapter) less the units living there."""
    housed: dict[str, int] = {}
    for unit in (faction.get("units") or {}).values():
        housed[str(unit.get("lair"))] = housed.get(str(unit.get("lair")), 0) + 1
    free = {}
    for lair_id, lair in sorted((faction.get("lairs") or {}).items()):
        free[lair_id] = lairs.lair_bonus(rules, lair, "units") - housed.get(lair_id, 0)
    return free


def _herald_abroad(rules: Mapping[str, Any], faction: Mapping[str, Any]) -> bool:
    """Whether a living leader, not healing, holds a bonus whose global part opens settlement recruiting."""
    bonuses = rules["leader_bonuses"]
    for leader in (faction.get("leaders") or {}).values():
        if int(leader.get("hp", 1)) <= 0 or int(leader.get("healing", 0) or 0) > 0:
            continue
        held = bonuses.get(str(leader.get("bonus")), {})
        if isinstance(held, Mapping) and (held.get("global") or {}).get("recruit_below_friendly"):
            return True
    return False


def recruit_problem(rules: Mapping[str, Any], faction: Mapping[str, Any], place: Place, race: str) -> str:
    """Why a unit of ``race`` cannot be recruited at ``place`` whatever the roll; empty when it can."""
    races = rules["races"]
    if race not in races or races[race].get("kind") != "standard":
        standard = ", ".join(sorted(r for r, data in races.items() if data.get("kind") == "standard"))
        return f"only standard races are recruited ({standard})"
    if not place.city:
        if not _herald_abroad(rules, faction):
            return "a settlement lets units be recruited only by a usurper with a Herald"
        if race not in place.races:
            return f"no {words_of(races, race)} live at {place.name}"
    return ""


def _recruit(
    rules: Mapping[str, Any], state: MutableMapping[str, Any], faction: str, place: Place, band: str, wanted
) -> list[dict[str, Any]]:
    """Raise the standard units the order asks for, one of each race, while gold and Barracks last."""
    recruiting = rules["recruiting"]
    record = state["factions"][faction]
    price = int(recruiting["price"])
    good_band = trading.band_rank(rules, band) >= trading.band_rank(rules, str(recruiting["needs"]))
    raised: dict[str, int] = {}
    results = []
    for ask in wanted:
        # A race alone, or a race with the new unit's name.
        race = str(ask.get("race") if isinstance(ask, Mapping) else ask)
        name = str(ask.get("name") or "") if isinstance(ask, Mapping) else ""
        result: dict[str, Any] = {"race": race}
        problem = recruit_problem(rules, record, place, race)
        free = {lair: n for lair, n in barracks_free(rules, record).items() if n > 0}
        if not good_band:
            problem = "the roll did not reach the band recruiting needs"
        elif not problem and raised.get(race, 0) >= int(recruiting["per_race_per_visit"]):
            problem = "one unit of each race a visit"
        elif not problem and int(record.get("gold", 0)) < price:
            problem = "not enough gold"
        elif not problem and not free:
            problem = "no empty Barracks room"
        if problem:
            result["refused"] = problem
        else:
            record["gold"] = int(record["gold"]) - price
            raised[race] = raised.get(race, 0) + 1
            unit_id = m.new_id(state, faction, "u")
            name = name or f"{words_of(rules['races'], race)} of {place.name}"
            unit = new_unit(rules, unit_id, name, race, next(iter(free)))
            record["units"][unit_id] = unit
            result.update(unit=unit_id, name=name, gold=price)
        results.append(result)
    return results


def _fanatical_elsewhere(state: Mapping[str, Any], faction: str, grid: str) -> bool:
    for other, record in state["factions"].items():
        settlement = ((record.get("known") or {}).get("settlements") or {}).get(grid) or {}
        if other != faction and settlement.get("attitude") == "fanatical":
            return True
    return False


def _attitude(
    rules: Mapping[str, Any],
    state: MutableMapping[str, Any],
    faction: str,
    place: Place,
    band: str,
    bribe: int,
) -> dict[str, Any]:
    """Pay the bribe and move the settlement's attitude by the table; the change it made, as event data."""
    record = state["factions"][faction]
    assert place.record is not None
    paid = bribe if 0 < bribe <= int(record.get("gold", 0)) else 0
    record["gold"] = int(record.get("gold", 0)) - paid
    before = place.attitude
    after = trading.new_attitude(rules, before, paid, band)
    if after == "fanatical" and (
        (rules["diplomacy"]["fanatical_needs_quest"] and not place.record.get("quest_done"))
        or _fanatical_elsewhere(state, faction, place.grid)
    ):
        after = before
    place.record["attitude"] = after
    place.attitude = after
    data: dict[str, Any] = {"attitude_before": before, "attitude": after, "bribe": paid}
    if bribe and not paid:
        data["bribe_unpaid"] = bribe
    return data


def _stock(lair: Mapping[str, Any]) -> dict[str, int]:
    """What a lair holds to sell: its stored resources and food, and its spare items by kind."""
    stock = {str(k): int(v) for k, v in (lair.get("storage") or {}).items()}
    for item in lair.get("items") or []:
        key = str(item["item"] if isinstance(item, Mapping) else item)
        stock[key] = stock.get(key, 0) + 1
    return stock


def _apply_trade(
    rules: Mapping[str, Any], faction: MutableMapping[str, Any], leader: MutableMapping[str, Any], visit
) -> None:
    """Move the gold and the goods of a visit: resources and food in the lair's storage, items in its
    items (those of standard quality are sold first), a donkey to the leader."""
    lair = faction["lairs"][leader["lair"]]
    storage = lair.setdefault("storage", {})
    items = lair.setdefault("items", [])
    faction["gold"] = int(faction.get("gold", 0)) + visit.gold_change
    for deal in visit.deals:
        if not deal.quantity:
            continue
        sign = 1 if deal.kind == "buy" else -1
        if deal.good in trading.RESOURCES_STORED:
            storage[deal.good] = int(storage.get(deal.good, 0)) + sign * deal.quantity
        elif deal.good == "donkey" and deal.kind == "buy":
            leader["donkey"] = True
        elif deal.kind == "buy":
            items.extend({"item": deal.good, "quality": "standard"} for _ in range(deal.quantity))
        else:
            for _ in range(deal.quantity):
                mine = [i for i, it in enumerate(items) if _item_id(it) == deal.good]
                standard = [i for i in mine if _quality(items[i]) == "standard"]
                items.pop((standard or mine)[0])


def _item_id(item: Any) -> str:
    return str(item["item"] if isinstance(item, Mapping) else item)


def _quality(item: Any) -> str:
    return str(item.get("quality", "standard") if isinstance(item, Mapping) else "standard")


def _trade(
    rules: Mapping[str, Any], state: MutableMapping[str, Any], faction: str, leader, place: Place, order
) -> dict[str, Any]:
    """Trade what the order asks at the place's status and cap; the status and size that follow."""
    record = state["factions"][faction]
    buy = {str(k): int(v) for k, v in (order.get("buy") or {}).items()}
    sell = {str(k): int(v) for k, v in (order.get("sell") or {}).items()}
    if not buy and not sell:
        return {}
    lair = record["lairs"][leader["lair"]]
    cap = trading.trade_cap(rules, place.size, place.city)
    visit = trading.trade_visit(
        rules,
        status=place.status,
        cap=cap,
        gold=int(record.get("gold", 0)),
        stock=_stock(lair),
        buy=buy,
        sell=sell,
        percent={good: happenings.price_percent(rules, state, faction, good) for good in {*buy, *sell}},
    )
    _apply_trade(rules, record, leader, visit)
    data: dict[str, Any] = {
        "status": place.status,
        "bought": [d.to_data() for d in visit.deals if d.kind == "buy"],
        "sold": [d.to_data() for d in visit.deals if d.kind == "sell"],
        "value": visit.value,
    }
    if cap is not None:
        data["cap"] = cap
    if place.record is not None:
        place.record["traded"] = int(place.record.get("traded", 0)) + visit.value
        after = trading.status_after(rules, place.status, int(place.record["traded"]), place.attitude)
        place.record["trade_status"] = after
        data["next_status"] = after
    return data


def carry_out(
    rules: Mapping[str, Any],
    state: MutableMapping[str, Any],
    faction: str,
    order: Mapping[str, Any],
    band: str,
) -> dict[str, Any]:
    """Settle a Diplomacy visit whose roll read ``band``: the event's data (what changed, and why anything
    the order asked was cut or refused). The caller rolls, emits and reports."""
    record = state["factions"][faction]
    leader = record["leaders"][order["by"]]
    place = place_at(rules, state, faction, str(order["target"]))
    if place is None:
        raise ValueError(f"{faction} knows no city or settlement at {order['target']}")
    data: dict[str, Any] = {"visited": place.name, "grid": place.grid, "city": place.city, "band": band}
    if place.record is not None:
        # The size it has grown to with every usurper's trade: seen now, on this visit.
        known = [(r.get("known") or {}) for r in state["factions"].values()]
        grown = trading.grown_size(rules, place.size, trading.total_traded(known, place.grid))
        if grown != place.size:
            data["grown_from"] = place.size
            place.record["size"] = place.size = grown
        data["size"] = place.size
        data.update(_attitude(rules, state, faction, place, band, int(order.get("bribe", 0) or 0)))
    # Recruits are paid before the trade: a unit is what a visit is most often for, and the purchases of
    # the order are then cut to the gold that is left.
    if order.get("recruit"):
        data["recruits"] = _recruit(rules, state, faction, place, band, order["recruit"])
    data.update(_trade(rules, state, faction, leader, place, order))
    return data


# --- the action in the turn: the checker's requirements and the week's effect -----------------------------


def _name(rules: Mapping[str, Any], section: str, key: str) -> str:
    return words_of(rules.get(section) or {}, key)


def require_visit(reading: Any, plan: Any) -> None:
    """What a Diplomacy order needs before any die: a city or a known settlement at the target, the gold
    for its bribe and its recruits, Barracks room for them, a race they may be, goods that are traded."""
    rules, state, faction = reading.rules, reading.state, reading.faction
    record = state["factions"][faction]
    order = plan.order
    if landmarks.at(rules, plan.target) is not None:
        require_ritual(rules, plan)
        return
    place = place_at(rules, state, faction, plan.target)
    if place is None:
        cities = ", ".join(
            f"{c.get('name')} ({grid})" for grid, c in sorted((state.get("cities") or {}).items())
        )
        raise Reject(
            "target",
            f"you know no city or settlement at {plan.target}",
            f"scout the grid first, or visit a city: {cities}",
        )
    bribe = int(order.get("bribe") or 0)
    if bribe and place.city:
        raise Reject("bribe", f"{place.name} is a city: cities stay Indifferent", "leave the bribe out")
    wanted = list(order.get("recruit") or [])
    for ask in wanted:
        race = str(ask.get("race") if isinstance(ask, Mapping) else ask)
        problem = recruit_problem(rules, record, place, race)
        if problem:
            raise Reject(
                "recruit", f"{race}: {problem}", "recruit a standard race that lives there, at a city"
            )
    free = sum(max(0, n) for n in barracks_free(rules, record).values())
    if len(wanted) > free:
        raise Reject(
            "recruit",
            f"{len(wanted)} recruits, and only {free} empty Barracks room{'s' if free > 1 else ''}"
            if free
            else "no Barracks room is empty",
            "build a Barracks first, or recruit fewer",
        )
    gold = int(record.get("gold", 0))
    needed = bribe + len(wanted) * int(rules["recruiting"]["price"])
    if needed > gold:
        raise Reject(
            "bribe" if bribe else "recruit", f"this needs {needed} gold and you have {gold}", "ask for less"
        )
    for field_name, kind in (("buy", "buy"), ("sell", "sell")):
        for good in order.get(field_name) or {}:
            if trading.lot(rules, kind, place.status, str(good)) is None:
                traded = sorted({*rules["trade"][kind][place.status], *(rules.get("market") or {})})
                raise Reject(field_name, f"'{good}' is not traded", f"name one of: {', '.join(traded)}")


def require_ritual(rules: Mapping[str, Any], plan: Any) -> None:
    """A Diplomacy at a landmark is its ritual: nobody there to bribe, trade with or recruit."""
    name = rules["landmarks"][landmarks.at(rules, plan.target)]["name"]
    for field_name in ("bribe", "buy", "sell", "recruit"):
        if plan.order.get(field_name):
            raise Reject(
                field_name,
                f"{plan.target} is {name}, a landmark: a Diplomacy there is its ritual",
                f"leave {field_name} out of this order, or visit a city or settlement",
            )


def ritual(ctx: Any, state: MutableMapping[str, Any], plan: Any) -> None:
    """A leader's Diplomacy at a landmark: the action roll with the common ledger alone (no size or
    attitude, the spec's reading), then the landmark's reward for the band (``landmarks.ritual``)."""
    rolled = rolls.action_roll(
        ctx,
        state,
        plan.faction,
        action="diplomacy",
        by=plan.initiator,
        assist=plan.assistants,
        grid=plan.target,
        order=plan.order,
    )
    landmarks.ritual(
        ctx, state, plan.faction, plan.initiator, plan.target, rolled.band, plan.order, rolls=[rolled.roll]
    )


def _goods_words(rules: Mapping[str, Any], deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**deal, "good": _name(rules, "items", str(deal["good"]))} for deal in deals]


def visit(ctx: Any, state: MutableMapping[str, Any], plan: Any) -> None:
    """The week's effect of a Diplomacy order: roll, settle, and tell the usurper alone."""
    rules = ctx.rules
    faction = plan.faction
    if landmarks.at(rules, plan.target) is not None:
        ritual(ctx, state, plan)
        return
    place = place_at(rules, state, faction, plan.target)
    if place is None:
        ctx.order_failed(faction, plan.order, f"you know no city or settlement at {plan.target} any more")
        return
    extra = diplomacy_modifiers(rules, state["factions"][faction], plan.leaders, place)
    rolled = rolls.action_roll(
        ctx,
        state,
        faction,
        action="diplomacy",
        by=plan.initiator,
        assist=plan.assistants,
        grid=plan.target,
        modifiers=extra,
        order=plan.order,
    )
    asked = {key: plan.order.get(key) for key in ("bribe", "buy", "sell", "recruit") if plan.order.get(key)}
    data = carry_out(
        rules, state, faction, {**asked, "by": plan.initiator, "target": plan.target}, rolled.band
    )
    words = {
        "leader": m.name_of(state, faction, plan.initiator),
        "band_name": rolls.band_name(rules, rolled.band),
    }
    for key, section in (("attitude", "attitudes"), ("attitude_before", "attitudes")):
        if key in data:
            words[f"{key}_name"] = _name(rules, section, data[key])
    for key in ("status", "next_status"):
        if key in data:
            words[f"{key}_name"] = _name(rules["trade"], "statuses", data[key])
    for key in ("bought", "sold"):
        if key in data:
            data[key] = _goods_words(rules, data[key])
    for recruit in data.get("recruits", []):
        recruit["race"] = _name(rules, "races", recruit["race"])
    ctx.emit(
        "diplomacy",
        actors=[faction],
        visible_to=told(ctx, faction),
        place=plan.target,
        rolls=[rolled.roll],
        **words,
        **data,
    )
