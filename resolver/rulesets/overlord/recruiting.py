"""RECRUIT (spec §2.11, §5.8, §9.2 Recruit): a leader hires figures from what its place offers.

``RECRUIT unit n race price`` places a request on any day: the price must be at least the place's listed
one (0 means the listed price), n = 0 asks for as many as the coins in hand pay for, and the figures join
the named unit, or a new unit stacked under the recruiter when the id is a temporary one. At the day's end
the recruits phase hands the offer out; when more is asked on one day than the place has, the requests go
through the same call auction as a market (``auction.py``), and next month's price rises. The natives
lose every figure hired. A leader or a hero is hired one at a time, into a new unit only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...core.phases import State
from ...core.programs import Line, Result, rewrite_ids
from . import gates
from . import model as m
from .auction import Offer, clear
from .bids import Bid, settle_line
from .month import Context, Month
from .setup import new_unit

__all__ = ["OFFICE", "race_word", "recruit", "run_recruits"]

Outcome = tuple[Result, Line | None]
OFFICE = "office"  # the place's offer among the bidders
WAIT: Outcome = (Result.SKIPPED, None)
NEVER: Outcome = (Result.INVALID, None)
PLACED: Outcome = (Result.CONTINUES, None)


def race_word(rules: Mapping[str, Any], race: str, count: int) -> str:
    entry = rules["recruiting"]["races"].get(race) or (rules.get("races") or {}).get(race) or {}
    single = str(entry.get("name") or race)
    return single if count == 1 else str(entry.get("plural") or f"{single}s")


def _recruiting_allowed(month: Month, unit_id: str, location: str) -> bool:
    """Every owner and guard of the place must hold the recruiter's faction at the recruit gate (§5.6)."""
    return gates.allows(month, month.owner(unit_id), location, "recruit")


def _kind(month: Month, location: str) -> str:
    world = month.ctx.game.world
    return str(world[location].terrain) if location in world else ""


def _target_ok(month: Month, unit: Mapping[str, Any], target: str, race: str) -> bool | None:
    """True when the figures may join ``target``, False when never, None when not yet (not present)."""
    owner = str(unit.get("owner"))
    if m.is_temporary(owner, target):
        return True
    joined = month.unit(target)
    if joined is None or joined.get("owner") != owner or joined.get("race") != race:
        return False
    if race in month.rules["recruiting"]["single_figure"]:
        return False
    return joined.get("location") == unit.get("location") and not joined.get("moving")


def recruit(month: Month, unit_id: str, line: Line) -> Outcome:
    unit = month.unit(unit_id)
    if unit is None:
        return NEVER
    args = month.read(line).args
    target, asked, race, price = args["unit"], args["count"], args["race"], args["price"]
    if not m.is_leader(unit):
        return NEVER
    single = race in month.rules["recruiting"]["single_figure"]
    if single and asked > 1:
        return NEVER
    fits = _target_ok(month, unit, target, race)
    if fits is False:
        return NEVER
    location = unit.get("location")
    if fits is None or not location or unit.get("moving"):
        return WAIT
    if _kind(month, location) in month.rules["recruiting"]["no_recruiting_kinds"]:
        return WAIT
    offer = (((month.state.get("places") or {}).get(location) or {}).get("recruits") or {}).get(race)
    if not offer or int(offer["count"]) <= 0:
        return WAIT
    listed = int(offer["price"])
    price = price or listed
    if price < listed:
        return WAIT  # the price may fall to it in a later month
    if price <= 0 and not _recruiting_allowed(month, unit_id, location):
        return WAIT  # a free offer: the owners and guards are asked before anything is counted
    affordable = int((unit.get("items") or {}).get("coin", 0)) // price
    count = min(asked, affordable) if asked else affordable
    if single:
        count = min(count, 1)
    # The owners' and guards' word is asked last: it reads every title and unit, and a recruiter that
    # cannot pay waits whatever they say.
    if count <= 0 or not _recruiting_allowed(month, unit_id, location):
        return WAIT
    bid = Bid("recruit", unit_id, location, line, race, count, price, target)
    held = month.ctx.memory.bids
    held[:] = [b for b in held if not (b.line is line and b.unit == unit_id)] + [bid]
    return PLACED


# --- the recruits phase ---------------------------------------------------------------------------


def _join(month: Month, bid: Bid, count: int, created: dict[str, str]) -> str:
    """The figures join their unit, or found a new one stacked under the recruiter; returns its id.
    ``created`` maps the temporary ids given a unit in this settlement to their new ids."""
    state, rules = month.state, month.rules
    recruiter = m.unit(state, bid.unit) or {}
    target = created.get(str(bid.target), str(bid.target))
    joined = m.unit(state, target)
    if joined is not None:
        old = int(joined.get("figures", 0))
        # The newcomers know nothing: the unit's experience is shared out over more figures (spec §4.9.8).
        joined["skills"] = {
            s: int(days) * old // (old + count) for s, days in (joined.get("skills") or {}).items()
        }
        joined["figures"] = old + count
        return target
    new_id = m.next_unit_id(state)
    record = new_unit(rules, str(recruiter["owner"]), "", bid.tag, count, bid.location)
    record["name"] = f"New {race_word(rules, bid.tag, count)}"
    record["stack"] = bid.unit
    record["structure"] = recruiter.get("structure")
    record["arrival"] = m.next_arrival(state, bid.location)
    m.units(state)[new_id] = record
    created[target] = new_id
    return new_id


def _one_each(rules: Mapping[str, Any], bids: list[tuple[int, Bid]]) -> list[tuple[int, Bid]]:
    """A leader or a hero is one figure: of several requests for the same new unit the first counts."""
    if not bids or bids[0][1].tag not in rules["recruiting"]["single_figure"]:
        return bids
    seen: set[str] = set()
    kept: list[tuple[int, Bid]] = []
    for key, bid in bids:
        if str(bid.target) not in seen:
            seen.add(str(bid.target))
            kept.append((key, bid))
    return kept


def _settle_race(
    month: Month, location: str, race: str, bids: list[tuple[int, Bid]], created: dict[str, str]
) -> None:
    state = month.state
    place = m.place(state, location)
    offer = place["recruits"][race]
    order = m.at_location(state, location)
    rank = {uid: i for i, uid in enumerate(order)}
    bids = _one_each(month.rules, bids)
    buys = [Offer(str(k), b.price, b.count, rank.get(b.unit, len(order))) for k, b in bids]
    if sum(b.count for _, b in bids) > int(offer["count"]):
        offer["outbid"] = True  # more was asked than there was: next month's price rises
    result = clear(buys, [Offer(OFFICE, int(offer["price"]), int(offer["count"]), len(order))])
    # The lines first, while they are as they were placed; creating a unit then renames its temporary id.
    for key, bid in bids:
        asked = month.read(bid.line).args["count"]
        settle_line(month.programs, bid, asked, result.bought_by(str(key)), 1)
    by_key = dict(bids)
    for fill in result.bought:
        bid = by_key[int(fill.who)]
        recruiter = m.unit(state, bid.unit) or {}
        items = recruiter.setdefault("items", {})
        items["coin"] = int(items.get("coin", 0)) - fill.coins
        joined = _join(month, bid, fill.count, created)
        offer["count"] = int(offer["count"]) - fill.count
        offer["taken"] = int(offer.get("taken", 0)) + fill.count
        place["population"] = max(0, int(place.get("population", 0)) - fill.count)
        month.tell(
            "recruited",
            bid.unit,
            count=fill.count,
            race=race_word(month.rules, race, fill.count),
            coins=fill.coins,
            into=joined,
            into_name=m.unit_name(state, joined),
        )


def _renamed(month: Month, created: dict[str, str]) -> None:
    """Every queue's references to a temporary id now name the new unit (spec §2.9)."""
    for temporary, new_id in created.items():
        rewrite_ids(month.programs, temporary, new_id)
        month.ctx.memory.temporary.discard(temporary)
        program = month.programs.get(new_id)
        if program is not None:
            m.units(month.state)[new_id]["orders"] = program.to_data()


def run_recruits(ctx: Context, state: State) -> State:
    """The recruits phase of a day: every request placed today, race by race, place by place."""
    month = Month(ctx, state)
    placed = [b for b in ctx.memory.bids if b.kind == "recruit"]
    ctx.memory.bids[:] = [b for b in ctx.memory.bids if b.kind != "recruit"]
    grouped: dict[str, dict[str, list[tuple[int, Bid]]]] = defaultdict(lambda: defaultdict(list))
    purse: dict[str, int] = {}
    for key, bid in enumerate(placed):
        unit = m.unit(state, bid.unit)
        if unit is None or unit.get("location") != bid.location or unit.get("moving"):
            continue
        coins = purse.setdefault(bid.unit, int((unit.get("items") or {}).get("coin", 0)))
        count = min(bid.count, coins // bid.price)
        purse[bid.unit] = coins - count * bid.price
        if count > 0:
            grouped[bid.location][bid.tag].append((key, replace(bid, count=count)))
    world = list(ctx.game.world)
    created: dict[str, str] = {}
    for location in sorted(grouped, key=lambda loc: (world.index(loc) if loc in world else len(world), loc)):
        for race in sorted(grouped[location]):
            if race in (m.place(state, location).get("recruits") or {}):
                _settle_race(month, location, race, grouped[location][race], created)
    _renamed(month, created)
    return state
