"""Trade with cities and settlements, as arithmetic on the rules data: no dice, no context.

A visit's trade is worked out by :func:`trade_visit` from what the order asks (``buy``/``sell``), the gold
and the lair's storage, the trade status and the cap; it returns what changed hands and why anything was
cut, and the caller applies it. Trade status and settlement size follow from gold traded
(:func:`status_after`, :func:`grown_size`); the Diplomacy table is read by :func:`new_attitude`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Deal",
    "Visit",
    "band_rank",
    "grown_size",
    "new_attitude",
    "status_after",
    "trade_cap",
    "trade_visit",
]

RESOURCES_STORED = ("lumber", "stone", "iron", "foodstuffs")


def _ordered(mapping: Mapping[str, Any]) -> list[str]:
    return [str(key) for key in mapping]


def band_rank(rules: Mapping[str, Any], band: str) -> int:
    """Where a band of the d100 action table stands, worst first (the table's own row order)."""
    bands = [str(row["result"]) for row in rules["checks"]["action"]["table"]]
    if band not in bands:
        raise ValueError(f"'{band}' is no band of checks.action ({', '.join(bands)})")
    return bands.index(band)


def new_attitude(rules: Mapping[str, Any], start: str, bribe: int, band: str) -> str:
    """The attitude a Diplomacy roll of ``band`` leaves, from ``start`` with ``bribe`` gold paid: the best
    row of the table the band reaches, never worse than the start."""
    diplomacy = rules["diplomacy"]
    order = _ordered(rules["attitudes"])
    reached = band_rank(rules, band)
    best = start
    for row in diplomacy["table"]:
        if row["start"] != start or int(row.get("bribe", 0)) > bribe:
            continue
        if reached >= band_rank(rules, str(row["needs"])) and order.index(row["becomes"]) > order.index(best):
            best = str(row["becomes"])
    return best


def status_after(rules: Mapping[str, Any], current: str, traded: int, attitude: str) -> str:
    """The trade status a settlement gives after ``traded`` gold in all: the best threshold reached, Best
    only at the attitude it needs, a Fanatical settlement some steps more, and never below ``current``
    (a status raised by a quest stays)."""
    trade = rules["trade"]
    statuses = _ordered(trade["statuses"])
    attitudes = _ordered(rules["attitudes"])
    reached = max(i for i, s in enumerate(statuses) if traded >= int(trade["statuses"][s]["from"]))
    if attitude == "fanatical":
        reached += int(trade["fanatical_steps"])
    best = statuses.index("best")
    if attitudes.index(attitude) < attitudes.index(str(trade["best_needs"])):
        reached = min(reached, best - 1)
    reached = min(reached, len(statuses) - 1)
    return statuses[max(reached, statuses.index(current))]


def grown_size(rules: Mapping[str, Any], size: str, traded_by_all: int) -> str:
    """A settlement's size after every usurper's trade there: the larger of the size found and the size
    the gold reaches."""
    growth = rules["trade"]["growth"]
    sizes = ["camp", *growth]
    if size not in sizes:
        return size
    reached = max([0, *(sizes.index(s) for s in growth if traded_by_all >= int(growth[s]))])
    return sizes[max(reached, sizes.index(size))]


def trade_cap(rules: Mapping[str, Any], size: str, city: bool) -> int | None:
    """The most gold value one visit may move: None for a city (no cap) or a size the caps do not list."""
    if city:
        cap = rules["trade"].get("city_cap")
        return None if cap is None else int(cap)
    caps = rules["trade"]["caps"]
    return int(caps[size]) if size in caps else None


@dataclass
class Deal:
    """One line of a visit's trade: what was asked, and what changed hands."""

    kind: str  # "buy" or "sell"
    good: str
    asked: int
    quantity: int = 0  # goods that changed hands
    gold: int = 0  # gold paid (buy) or received (sell)
    cut: str = ""  # why less than asked changed hands: gold, cap, stock, unknown; "" when all did

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"good": self.good, "asked": self.asked, "quantity": self.quantity}
        data["gold"] = self.gold
        if self.cut:
            data["cut"] = self.cut
        return data


@dataclass
class Visit:
    """The trade of one visit: its deals, the gold value moved (which counts for status and growth)."""

    status: str
    cap: int | None
    deals: list[Deal] = field(default_factory=list)

    @property
    def value(self) -> int:
        return sum(d.gold for d in self.deals)

    @property
    def gold_change(self) -> int:
        return sum(d.gold if d.kind == "sell" else -d.gold for d in self.deals)


def _market(rules: Mapping[str, Any], good: str) -> tuple[int, int] | None:
    """An item's market price and the quantity it buys (items chapter), or None when it is not sold."""
    entry = (rules.get("market") or {}).get(good)
    if entry is None:
        return None
    if isinstance(entry, Mapping):
        return int(entry["price"]), int(entry.get("quantity", 1))
    return int(entry), 1


def priced(gold: int, percent: int) -> int:
    """A lot's gold after a month's event moved the price by ``percent`` (rounded down, never below 0)."""
    return max(0, gold * (100 + percent) // 100)


def lot(
    rules: Mapping[str, Any], kind: str, status: str, good: str, percent: int = 0
) -> tuple[int, int] | None:
    """(gold, quantity) of one lot of ``good`` at ``status``: the trade table for resources and food, the
    market price (or its share when selling) for items; None when the good is not traded. ``percent`` is
    the month's change to the good's price (``happenings.price_percent``), bought or sold alike."""
    table = rules["trade"][kind].get(status, {})
    if good in table:
        return priced(int(table[good]["gold"]), percent), int(table[good]["quantity"])
    if good in RESOURCES_STORED or good == "gold":
        return None
    market = _market(rules, good)
    if market is None:
        return None
    price, quantity = market
    if kind == "sell":
        price = int(price * float(rules["trade"]["sell_items"]))
    return priced(price, percent), quantity


def _fits(cap: int | None, moved: int, lots: int, gold_each: int) -> bool:
    """Whether ``lots`` more lots still fit the cap after ``moved`` gold value: a single lot worth more
    than the cap may still change hands when it is the visit's only trade."""
    return cap is None or moved + lots * gold_each <= cap or (moved == 0 and lots == 1)


def trade_visit(
    rules: Mapping[str, Any],
    *,
    status: str,
    cap: int | None,
    gold: int,
    stock: Mapping[str, int],
    buy: Mapping[str, int],
    sell: Mapping[str, int],
    percent: Mapping[str, int] | None = None,
) -> Visit:
    """Work out a visit's trade. Sales come first (their gold may pay for the purchases), each in whole
    lots of what ``stock`` holds; purchases buy the lots that bring at least the quantity asked, cut to
    the gold and the cap. Goods are taken in the order the order names them. ``percent`` holds the
    month's price changes by good."""
    percent = percent or {}
    visit = Visit(status, cap)
    moved = 0
    for good, asked in sell.items():
        deal = Deal("sell", good, int(asked))
        terms = lot(rules, "sell", status, good, int(percent.get(good, 0)))
        if terms is None:
            deal.cut = "unknown"
            visit.deals.append(deal)
            continue
        gold_each, quantity_each = terms
        have = min(int(asked), int(stock.get(good, 0)))
        lots = have // quantity_each
        if lots * quantity_each < int(asked):
            deal.cut = "stock"
        while lots and not _fits(cap, moved, lots, gold_each):
            lots -= 1
            deal.cut = "cap"
        deal.quantity, deal.gold = lots * quantity_each, lots * gold_each
        moved += deal.gold
        gold += deal.gold
        visit.deals.append(deal)
    for good, asked in buy.items():
        deal = Deal("buy", good, int(asked))
        terms = lot(rules, "buy", status, good, int(percent.get(good, 0)))
        if terms is None:
            deal.cut = "unknown"
            visit.deals.append(deal)
            continue
        gold_each, quantity_each = terms
        lots = -(-int(asked) // quantity_each)  # enough lots to bring at least what was asked
        while lots and lots * gold_each > gold:
            lots -= 1
            deal.cut = "gold"
        while lots and not _fits(cap, moved, lots, gold_each):
            lots -= 1
            deal.cut = "cap"
        deal.quantity, deal.gold = lots * quantity_each, lots * gold_each
        moved += deal.gold
        gold -= deal.gold
        visit.deals.append(deal)
    return visit


def total_traded(known_by_faction: Sequence[Mapping[str, Any]], grid: str) -> int:
    """The gold every usurper has traded at the settlement in ``grid`` (each keeps its own count)."""
    return sum(
        int((known.get("settlements") or {}).get(grid, {}).get("traded", 0)) for known in known_by_faction
    )
