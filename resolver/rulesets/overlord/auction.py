"""The call auction of one good on one market day (spec §5.9), as pure arithmetic: no state, no dice.

Every buyer names the most it will pay for one piece and how many it wants; every seller the least it will
take and how many it offers. The NPC market takes part like anyone else: its for-sale list is a seller, its
buying list a buyer (and a recruiting office's supply is a seller of figures, spec §5.8).

The clearing price is the one at which the most pieces change hands. Buyers who bid below it and sellers
who ask above it drop out. When more is wanted (or offered) at that price than can trade, the better
price goes first (the higher bid, the lower ask), then the earlier unit in report order. The manual's
quirk is kept: each buyer pays its own bid and each seller receives its own ask, and the difference (the
spread) is the NPC market's, which absorbs it.

Ties between prices that trade the same most pieces: the candidate price nearest the middle of the tied
prices wins, and of two equally near, the lower (``TIE_RULE``; the manual gives none). The pieces traded
are the same at every tied price, but who drops out is not, so the rule must be fixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["TIE_RULE", "Clearing", "Fill", "Offer", "clear"]

TIE_RULE = "nearest the middle of the tied prices, then the lower"


@dataclass(frozen=True)
class Offer:
    """One buy or sell request: ``price`` a buyer's highest bid or a seller's lowest ask for one piece."""

    who: str  # a unit id, or the market's own name
    price: int
    count: int  # pieces wanted or offered; callers turn "as many as possible" (n = 0) into a number first
    rank: int  # report order inside the place: the lower goes first among equal prices

    def __post_init__(self) -> None:
        if self.price < 0 or self.count < 0:
            raise ValueError(
                f"an offer needs a price and a count of 0 or more, not {self.price} and {self.count}"
            )


@dataclass(frozen=True)
class Fill:
    """What one buyer or seller got: pieces traded and coins paid (a buyer) or received (a seller)."""

    who: str
    count: int
    coins: int


@dataclass(frozen=True)
class Clearing:
    price: int | None  # None: nothing could trade
    volume: int
    bought: tuple[Fill, ...] = field(default_factory=tuple)  # only those who got at least one piece
    sold: tuple[Fill, ...] = field(default_factory=tuple)

    @property
    def spread(self) -> int:
        """Coins the buyers paid beyond what the sellers received: the NPC market's to keep."""
        return sum(f.coins for f in self.bought) - sum(f.coins for f in self.sold)

    def bought_by(self, who: str) -> int:
        return sum(f.count for f in self.bought if f.who == who)

    def sold_by(self, who: str) -> int:
        return sum(f.count for f in self.sold if f.who == who)


def _volume(buys: Sequence[Offer], sells: Sequence[Offer], price: int) -> int:
    wanted = sum(o.count for o in buys if o.price >= price)
    offered = sum(o.count for o in sells if o.price <= price)
    return min(wanted, offered)


def _pick(tied: list[int]) -> int:
    """The tie rule: nearest the middle of the tied prices, then the lower of two equally near."""
    low, high = min(tied), max(tied)
    # Twice the distance to the middle keeps the arithmetic in whole numbers.
    return min(tied, key=lambda price: (abs(2 * price - (low + high)), price))


def _allocate(offers: Sequence[Offer], volume: int, better_first: bool) -> tuple[Fill, ...]:
    """Hand out ``volume`` pieces by best price (highest bid or lowest ask), then report order."""
    ordered = sorted(offers, key=lambda o: (-o.price if better_first else o.price, o.rank, o.who))
    fills: list[Fill] = []
    left = volume
    for offer in ordered:
        if left <= 0:
            break
        taken = min(offer.count, left)
        if taken > 0:
            fills.append(Fill(offer.who, taken, taken * offer.price))
            left -= taken
    return tuple(fills)


def clear(buys: Sequence[Offer], sells: Sequence[Offer]) -> Clearing:
    """The volume-maximising call auction of one good: who trades how many, and for what."""
    candidates = sorted({o.price for o in (*buys, *sells) if o.count > 0})
    best = 0
    tied: list[int] = []
    for price in candidates:
        volume = _volume(buys, sells, price)
        if volume > best:
            best, tied = volume, [price]
        elif volume == best and volume > 0:
            tied.append(price)
    if best == 0:
        return Clearing(price=None, volume=0)
    price = _pick(tied)
    staying_buyers = [o for o in buys if o.price >= price and o.count > 0]
    staying_sellers = [o for o in sells if o.price <= price and o.count > 0]
    return Clearing(
        price=price,
        volume=best,
        bought=_allocate(staying_buyers, best, better_first=True),
        sold=_allocate(staying_sellers, best, better_first=False),
    )
