"""Money (spec 6): work and its wages, upkeep and what an unpaid unit does, WITHDRAW from the fund.

A working unit counts its days where it works (``worked``) and is paid at the month's end, only if it
still stands there. Upkeep is due from every figure at the month's end, doubled in winter, and paid from
the unit's own coins, then from its faction's other units in the same place (in order of arrival, once
they have paid their own), then from the faction fund, which reaches anywhere; with the SUPPORT setting
the fund is tried first. A unit is paid in full or not at all: unpaid once it grows dissent, unpaid again
it deserts and its figures join the place's population.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.phases import State
from ...core.programs import Line, Result
from . import departures, production
from . import model as m
from .month import Context, Month

COIN = "coin"
WORKERS = ("hero", "ldr", "man")  # who may WORK: leaders and followers, not creatures


def work_day(month: Month, unit_id: str) -> tuple[Result, Line | None]:
    """One day of work where the unit stands; days worked elsewhere before are lost."""
    unit = month.unit(unit_id)
    if unit is None or unit.get("race") not in WORKERS:
        return Result.INVALID, None
    worked = unit.get("worked") or {}
    if worked.get("location") != unit.get("location"):
        worked = {"location": unit.get("location"), "days": 0}
    worked["days"] = int(worked.get("days", 0)) + 1
    unit["worked"] = worked
    return Result.RAN, None


def withdraw(month: Month, unit_id: str, line: Line) -> tuple[Result, Line | None]:
    """WITHDRAW amount [coin]: coins from the faction fund into the unit, only in a city; kept (waiting)
    elsewhere or while the fund is empty."""
    unit = month.unit(unit_id)
    if unit is None:
        return Result.INVALID, None
    args = month.read(line).args
    amount = args["count"]
    if (args["item"] or COIN) != COIN:
        month.tell("line_failed", unit_id, order=line.render(), reason="a faction's fund holds coins only")
        return Result.INVALID, None
    if amount == 0:
        return Result.FINISHED, None
    if not month.is_city(str(unit.get("location"))):
        return Result.SKIPPED, None
    record = month.state["factions"][unit["owner"]]
    taken = min(amount, int(record.get("fund", 0)))
    if taken <= 0:
        return Result.SKIPPED, None
    record["fund"] = int(record.get("fund", 0)) - taken
    items = unit.setdefault("items", {})
    items[COIN] = int(items.get(COIN, 0)) + taken
    month.tell("withdrew", unit_id, coins=taken)
    return Result.RAN, None


# --- the month's end -----------------------------------------------------------------------------


def pay_wages(ctx: Context, state: State) -> None:
    """Each unit's worked days paid at its place's wage, if it still stands where it worked."""
    days_in_month = int(ctx.rules["economy"]["work_days"])
    paid: dict[str, dict[str, Any]] = {}
    for unit_id in m.report_order(state, list(ctx.game.world)):
        unit = state["units"][unit_id]
        worked = unit.get("worked") or {}
        days = int(worked.get("days", 0))
        unit["worked"] = {"location": unit.get("location"), "days": 0}
        if days <= 0:
            continue
        summary = paid.setdefault(unit["owner"], {"coins": 0, "units": 0, "lost": []})
        if worked.get("location") != unit.get("location"):
            summary["lost"].append(m.unit_name(state, unit_id))
            continue
        wage = int((state.get("places") or {}).get(unit["location"], {}).get("wages", 0))
        coins = wage * int(unit.get("figures", 1)) * days // days_in_month
        items = unit.setdefault("items", {})
        items[COIN] = int(items.get(COIN, 0)) + coins
        summary["coins"] += coins
        summary["units"] += 1
    for faction, summary in sorted(paid.items()):
        ctx.emit("wages", actors=[faction], visible_to=[faction], **summary)


def upkeep_rate(rules: Mapping[str, Any], race: str, season: str) -> int:
    """The coins one figure of a race costs a month in a season (the races chapter's upkeep)."""
    spec = rules["economy"]
    rate = int(rules["races"][race]["upkeep"])
    return rate * int(spec["winter_factor"]) if season in spec["winter_seasons"] else rate


def upkeep_due(rules: Mapping[str, Any], unit: dict[str, Any], season: str) -> tuple[int, int]:
    """What a unit owes this month, and how many of its equipped food rations that takes: each ration
    feeds one figure, who then pays only the part of its upkeep the food does not cover. The rations it
    foraged this month (production.py) are eaten first: they do not keep."""
    spec = rules["economy"]
    rate = upkeep_rate(rules, str(unit.get("race")), season)
    figures = int(unit.get("figures", 1))
    foraged = production.foraged_rations(unit)
    fed = min(figures, foraged + int((unit.get("equipped") or {}).get(spec["food"]["item"], 0)))
    fed_pays = rate * (100 - int(spec["food"]["share"])) // 100
    return fed * fed_pays + (figures - fed) * rate, max(0, fed - foraged)


def _supported(state: State, unit: Mapping[str, Any]) -> bool:
    """SUPPORT: the unit's own setting, else its faction's."""
    own = (unit.get("settings") or {}).get("support")
    if own is not None:
        return bool(own)
    return bool((state["factions"][unit["owner"]].get("settings") or {}).get("support"))


def collect_upkeep(ctx: Context, state: State) -> None:
    season = str(ctx.date.season)
    rules = ctx.rules
    order = m.report_order(state, list(ctx.game.world))
    due: dict[str, int] = {}
    fed: dict[str, int] = {}
    for unit_id in order:
        due[unit_id], fed[unit_id] = upkeep_due(rules, state["units"][unit_id], season)
    short: list[str] = []
    totals: dict[str, dict[str, Any]] = {}
    # First every unit pays what it can alone (the fund first with SUPPORT), so that what the others
    # have left afterwards is what they can spare.
    for unit_id in order:
        unit = state["units"][unit_id]
        faction = state["factions"][unit["owner"]]
        total = totals.setdefault(unit["owner"], {"coins": 0, "from_fund": 0, "units": 0})
        owed = due[unit_id]
        total["units"] += 1
        if _supported(state, unit) and int(faction.get("fund", 0)) >= owed:
            faction["fund"] = int(faction.get("fund", 0)) - owed
            total["from_fund"] += owed
        elif int(unit.get("items", {}).get(COIN, 0)) >= owed:
            unit["items"][COIN] = int(unit["items"][COIN]) - owed
        else:
            short.append(unit_id)
            continue
        total["coins"] += owed
        _paid(rules, unit, fed[unit_id])
    unsettled = set(short)
    for unit_id in short:
        unsettled.discard(unit_id)
        unit = state["units"].get(unit_id)
        if unit is None:
            continue  # deserted with a unit it was stacked under
        owed = due[unit_id]
        sources = _sources(state, order, unit_id, unsettled)
        faction = state["factions"][unit["owner"]]
        if sum(coins for _, coins in sources) + int(faction.get("fund", 0)) < owed:
            _unpaid(ctx, state, unit_id)
            continue
        left = owed
        for holder, coins in sources:
            take = min(coins, left)
            holder["items"][COIN] = int(holder["items"][COIN]) - take
            left -= take
        faction["fund"] = int(faction.get("fund", 0)) - left
        totals[unit["owner"]]["from_fund"] += left
        totals[unit["owner"]]["coins"] += owed
        _paid(rules, unit, fed[unit_id])
    for unit_id in order:
        if unit_id in state["units"]:
            production.end_forage(rules, state["units"][unit_id])  # paid or not, foraged food is gone
    for owner, total in sorted(totals.items()):
        if owner in state["factions"]:
            ctx.emit("upkeep", actors=[owner], visible_to=[owner], winter=season in _winter(rules), **total)


def _winter(rules: Mapping[str, Any]) -> list[str]:
    return list(rules["economy"]["winter_seasons"])


def _sources(
    state: State, order: list[str], unit_id: str, unsettled: set[str]
) -> list[tuple[dict[str, Any], int]]:
    """The coins a short unit may draw on, in order: its own, then its faction's other units in the same
    place by arrival, once they have paid their own upkeep (a unit still to be settled lends nothing)."""
    unit = state["units"][unit_id]
    others = [
        state["units"][other]
        for other in order
        if other != unit_id
        and other in state["units"]
        and other not in unsettled
        and state["units"][other]["owner"] == unit["owner"]
        and state["units"][other].get("location") == unit.get("location")
    ]
    others.sort(key=lambda other: int(other.get("arrival", 0)))
    found = [(holder, int((holder.get("items") or {}).get(COIN, 0))) for holder in [unit, *others]]
    return [(holder, coins) for holder, coins in found if coins > 0]


def _paid(rules: Mapping[str, Any], unit: dict[str, Any], fed: int) -> None:
    """A unit paid in full: its dissent ends, and the rations it ate are gone."""
    unit["dissent"] = False
    unit["unpaid"] = 0
    if fed:
        food = rules["economy"]["food"]["item"]
        for held in (unit.setdefault("equipped", {}), unit.setdefault("items", {})):
            held[food] = max(0, int(held.get(food, 0)) - fed)
            if not held[food]:
                del held[food]


def _unpaid(ctx: Context, state: State, unit_id: str) -> None:
    unit = state["units"][unit_id]
    unit["unpaid"] = int(unit.get("unpaid", 0)) + 1
    name = m.unit_name(state, unit_id)
    if unit["unpaid"] < int(ctx.rules["economy"]["desert_after"]):
        unit["dissent"] = True
        ctx.emit(
            "dissent",
            actors=[unit["owner"]],
            place=unit.get("location"),
            visible_to=[unit["owner"]],
            unit_name=name,
        )
        return
    desert(ctx, state, unit_id)


def desert(ctx: Context, state: State, unit_id: str) -> None:
    """The unit leaves its faction: its figures join the population where it stands, whatever it carried
    is lost with it, and the units stacked under it move up to its own leader."""
    departures.record(ctx, state, unit_id, departures.DESERTED)
    unit = state["units"].pop(unit_id)
    location = unit.get("location")
    if location is not None:
        place = m.place(state, location)
        place["population"] = int(place.get("population", 0)) + int(unit.get("figures", 0))
    for other in state["units"].values():
        if other.get("stack") == unit_id:
            other["stack"] = unit.get("stack")
    ctx.memory.programs.pop(unit_id, None)
    ctx.emit(
        "deserted",
        actors=[unit["owner"]],
        place=location,
        visible_to=[unit["owner"]],
        unit_name=str(unit.get("name") or "an unnamed unit"),
        figures=int(unit.get("figures", 0)),
    )
