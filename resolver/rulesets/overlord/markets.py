"""BUY and SELL (spec §2.11, §5.9, §9.2 Buy/sell): the executors that place a request, and the market
phase that settles every request of a market day with the call auction of ``auction.py``.

A BUY or SELL line runs on a market day where the unit stands at a market: a leader with the coins (or
the goods) in hand places its request and the line stays in the queue. After every order of the day the
market phase clears each good: the NPC market's for-sale list sells and its buying list buys beside the
units. A unit that left the place during the day has no part in it. The line is then removed when done,
or left with the remainder (``BUY 4 swrd 160`` after 6 of 10 were bought); a repeating line stays.
On other days, and away from a market, the line waits in the queue (skipped but kept).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from ...core.phases import State
from ...core.programs import Line, Result
from . import gates, movement
from . import model as m
from .auction import Offer, clear
from .bids import Bid, settle_line
from .month import Context, Month

__all__ = ["MARKET", "buy", "goods_word", "run_markets", "sell", "trading_today"]

Outcome = tuple[Result, Line | None]
MARKET = "market"  # the NPC market's name among the bidders
WAIT: Outcome = (Result.SKIPPED, None)
NEVER: Outcome = (Result.INVALID, None)
PLACED: Outcome = (Result.CONTINUES, None)  # the request stands; the settlement decides what is left


def goods_word(rules: Mapping[str, Any], tag: str, count: int) -> str:
    """A good named in words: the items chapter's name when it has one, else the market's own list."""
    entry = (rules.get("items") or {}).get(tag) or rules["markets"]["goods"].get(tag) or {}
    single = str(entry.get("name") or tag)
    plural = str(entry.get("plural") or f"{single}s")
    return single if count == 1 else plural


def _market(month: Month, location: str) -> dict[str, Any] | None:
    market = ((month.state.get("places") or {}).get(location) or {}).get("market")
    return market if isinstance(market, dict) else None


def _bids(month: Month) -> list[Bid]:
    return month.ctx.memory.bids


def trading_today(month: Month, unit_id: str) -> bool:
    """Whether the unit placed a trade or recruit request today: it cannot leave the place before the
    request is settled (the movement orders ask this). A month that keeps no requests (movement's own
    tests run without the markets) has none."""
    held = getattr(getattr(month.ctx, "memory", None), "bids", ())
    return any(bid.unit == unit_id for bid in held)


# A unit that placed a request today waits for it to be settled before it sets out; a stacked one stays
# behind when its stack leaves (movement's hold-back checks).
if trading_today not in movement.HOLD_BACK_CHECKS:
    movement.HOLD_BACK_CHECKS.append(trading_today)


def _trade_allowed(month: Month, unit_id: str, location: str) -> bool:
    """Every owner and guard of the place must hold the trader's faction at the trade gate (spec §5.6)."""
    return gates.allows(month, month.owner(unit_id), location, "trade")


def _place(month: Month, bid: Bid) -> None:
    """Register a request once a day per line (an immediate pass may look at the line again)."""
    held = _bids(month)
    for i, old in enumerate(held):
        if old.line is bid.line and old.unit == bid.unit:
            held[i] = bid
            return
    held.append(bid)


def _read(month: Month, unit_id: str, line: Line) -> tuple[dict[str, Any], int, str, int | None] | None:
    """The unit, the count (0 = as many as possible), the good and the price (None when not written)."""
    unit = month.unit(unit_id)
    if unit is None:
        return None
    args = month.read(line).args
    return unit, args["count"], args["item"], args["price"]


def _ready(month: Month, unit: dict[str, Any], unit_id: str) -> dict[str, Any] | None:
    """The market where the unit stands today, if it is a market day there and the unit may trade."""
    location = unit.get("location")
    market = _market(month, location) if location else None
    if market is None or month.day not in [int(d) for d in market.get("days", [])]:
        return None
    if unit.get("moving") or not _trade_allowed(month, unit_id, location):
        return None
    return market


def buy(month: Month, unit_id: str, line: Line) -> Outcome:
    """BUY n good [price]: bid for n pieces (0: as many as the coins in hand pay for)."""
    read = _read(month, unit_id, line)
    if read is None:
        return NEVER
    unit, asked, tag, price = read
    if not m.is_leader(unit):
        return NEVER
    market = _ready(month, unit, unit_id)
    if market is None:
        return WAIT
    if price is None:
        listed = (market.get("sell") or {}).get(tag)
        if not listed:
            return WAIT
        price = int(listed["price"])
    if price <= 0:
        return NEVER
    affordable = int((unit.get("items") or {}).get("coin", 0)) // price
    count = min(asked, affordable) if asked else affordable
    if count <= 0:
        return WAIT
    _place(month, Bid("buy", unit_id, str(unit["location"]), line, tag, count, price))
    return PLACED


def _may_sell_unlisted(month: Month, unit: Mapping[str, Any]) -> bool:
    needs = month.rules["markets"]["unlisted_needs"]
    return m.unit_level(month.rules, unit, str(needs["skill"])) >= int(needs["level"])


def sell(month: Month, unit_id: str, line: Line) -> Outcome:
    """SELL n good [price]: offer n pieces held (0: all of them) at price or better."""
    read = _read(month, unit_id, line)
    if read is None:
        return NEVER
    unit, asked, tag, price = read
    if not m.is_leader(unit) or tag == "coin":
        return NEVER
    market = _ready(month, unit, unit_id)
    if market is None:
        return WAIT
    listed = (market.get("buy") or {}).get(tag)
    if not listed and not _may_sell_unlisted(month, unit):
        return WAIT
    if price is None:
        if not listed:
            return WAIT
        price = int(listed["price"])
    held = int((unit.get("items") or {}).get(tag, 0))
    held -= sum(
        b.count
        for b in _bids(month)
        if b.unit == unit_id and b.kind == "sell" and b.tag == tag and b.line is not line
    )
    count = min(asked, held) if asked else held
    if count <= 0:
        return WAIT
    _place(month, Bid("sell", unit_id, str(unit["location"]), line, tag, count, price))
    return PLACED


# --- the market phase -----------------------------------------------------------------------------


def _present(state: State, bid: Bid) -> bool:
    unit = m.unit(state, bid.unit)
    return unit is not None and unit.get("location") == bid.location and not unit.get("moving")


def _cut_to_purse(state: State, bids: list[Bid]) -> list[Bid]:
    """Each buyer's requests, in the order placed, limited to the coins it still holds now."""
    purse: dict[str, int] = {}
    kept: list[Bid] = []
    for bid in bids:
        if bid.kind != "buy":
            kept.append(bid)
            continue
        unit = m.unit(state, bid.unit) or {}
        coins = purse.setdefault(bid.unit, int((unit.get("items") or {}).get("coin", 0)))
        count = min(bid.count, coins // bid.price)
        purse[bid.unit] = coins - count * bid.price
        kept.append(Bid(bid.kind, bid.unit, bid.location, bid.line, bid.tag, count, bid.price))
    return kept


def _take(unit: dict[str, Any], tag: str, count: int) -> None:
    items = unit.setdefault("items", {})
    items[tag] = int(items.get(tag, 0)) - count
    if items[tag] <= 0:
        items.pop(tag)
    equipped = unit.get("equipped") or {}
    if tag in equipped and int(equipped[tag]) > int(items.get(tag, 0)):
        if items.get(tag):
            equipped[tag] = int(items[tag])
        else:
            equipped.pop(tag)


def _add(unit: dict[str, Any], tag: str, count: int) -> None:
    items = unit.setdefault("items", {})
    items[tag] = int(items.get(tag, 0)) + count


def _settle_good(
    month: Month, location: str, tag: str, bids: list[tuple[int, Bid]], order: list[str]
) -> None:
    state, market = month.state, _market(month, location) or {}
    rank = {uid: i for i, uid in enumerate(order)}
    buys = [Offer(str(k), b.price, b.count, rank.get(b.unit, len(order))) for k, b in bids if b.kind == "buy"]
    sells = [
        Offer(str(k), b.price, b.count, rank.get(b.unit, len(order))) for k, b in bids if b.kind == "sell"
    ]
    lists = {"sell": (market.get("sell") or {}).get(tag), "buy": (market.get("buy") or {}).get(tag)}
    if lists["sell"] and int(lists["sell"]["count"]) > 0:
        sells.append(Offer(MARKET, int(lists["sell"]["price"]), int(lists["sell"]["count"]), len(order)))
    if lists["buy"] and int(lists["buy"]["count"]) > 0:
        buys.append(Offer(MARKET, int(lists["buy"]["price"]), int(lists["buy"]["count"]), len(order)))
    result = clear(buys, sells)
    by_key = dict(bids)
    for side, fills in (("buy", result.bought), ("sell", result.sold)):
        for fill in fills:
            if fill.who == MARKET:
                row = lists["sell" if side == "sell" else "buy"]
                row["count"] = int(row["count"]) - fill.count
                row["traded"] = int(row.get("traded", 0)) + fill.count
                continue
            bid = by_key[int(fill.who)]
            unit = m.unit(state, bid.unit) or {}
            if side == "buy":
                _take(unit, "coin", fill.coins)
                _add(unit, tag, fill.count)
            else:
                _take(unit, tag, fill.count)
                _add(unit, "coin", fill.coins)
            month.tell(
                "bought" if side == "buy" else "sold",
                bid.unit,
                count=fill.count,
                good=goods_word(month.rules, tag, fill.count),
                coins=fill.coins,
                market=location,
            )
    for key, bid in bids:
        done = result.bought_by(str(key)) + result.sold_by(str(key))
        asked = month.read(bid.line).args["count"]
        settle_line(month.programs, bid, asked, done, 0)


def run_markets(ctx: Context, state: State) -> State:
    """The market phase of a day: every request placed today at a market whose day it is, settled good by
    good, place by place in the world's order (``settle`` for the test harness)."""
    month = Month(ctx, state)
    placed = [b for b in month.ctx.memory.bids if b.kind in ("buy", "sell")]
    month.ctx.memory.bids[:] = [b for b in month.ctx.memory.bids if b.kind not in ("buy", "sell")]
    present = _cut_to_purse(state, [b for b in placed if _present(state, b)])
    grouped: dict[str, dict[str, list[tuple[int, Bid]]]] = defaultdict(lambda: defaultdict(list))
    for key, bid in enumerate(present):
        if bid.count > 0:
            grouped[bid.location][bid.tag].append((key, bid))
    world = list(ctx.game.world)
    for location in sorted(grouped, key=lambda loc: (world.index(loc) if loc in world else len(world), loc)):
        order = m.at_location(state, location)
        for tag in sorted(grouped[location]):
            _settle_good(month, location, tag, grouped[location][tag], order)
    return state
