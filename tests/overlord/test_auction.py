"""The call auction of one good (spec §5.9): the volume-maximising price, own bids and asks, the spread the
NPC market keeps, rationing by best price then report order, and partial fills."""

from __future__ import annotations

import pytest

from resolver.rulesets.overlord.auction import Offer, clear


def test_each_buyer_pays_its_own_bid_and_the_market_keeps_the_spread() -> None:
    # The market sells 17 swords at $151; two leaders bid $160 and $155 for 10 each.
    result = clear(
        buys=[Offer("U1", 160, 10, rank=1), Offer("U2", 155, 10, rank=2)],
        sells=[Offer("market", 151, 17, rank=9)],
    )
    assert result.volume == 17
    assert result.bought_by("U1") == 10
    assert result.bought_by("U2") == 7  # the lower bid is cut: a partial fill
    paid = {f.who: f.coins for f in result.bought}
    assert paid == {"U1": 1600, "U2": 7 * 155}  # its own bid, not the clearing price
    assert [(f.who, f.count, f.coins) for f in result.sold] == [("market", 17, 17 * 151)]
    assert result.spread == 1600 + 1085 - 2567


def test_sellers_receive_their_own_ask_and_sell_in_order_of_price() -> None:
    # The market buys 5 horses at $45; two leaders offer 4 each at $30 and $40.
    result = clear(
        buys=[Offer("market", 45, 5, rank=9)],
        sells=[Offer("U2", 40, 4, rank=1), Offer("U1", 30, 4, rank=2)],
    )
    assert result.volume == 5
    assert {f.who: (f.count, f.coins) for f in result.sold} == {"U1": (4, 120), "U2": (1, 40)}
    assert result.bought[0].coins == 5 * 45
    assert result.spread == 225 - 160


def test_the_clearing_price_maximises_the_pieces_traded() -> None:
    # A high seller drops out: at $20 the 6 pieces of the cheap seller meet 6 of demand.
    result = clear(
        buys=[Offer("A", 25, 3, 1), Offer("B", 20, 3, 2), Offer("C", 10, 5, 3)],
        sells=[Offer("S", 12, 6, 4), Offer("T", 30, 10, 5)],
    )
    assert result.volume == 6
    assert result.sold_by("T") == 0
    assert result.bought_by("C") == 0  # below the clearing price: out
    # $12 and $20 both trade 6; the middle ($16) is as near to each, so the lower wins.
    assert result.price == 12


def test_rationing_goes_by_best_price_then_report_order() -> None:
    result = clear(
        buys=[Offer("late", 100, 5, rank=3), Offer("early", 100, 5, rank=1), Offer("rich", 120, 5, rank=4)],
        sells=[Offer("market", 90, 8, rank=9)],
    )
    assert [(f.who, f.count) for f in result.bought] == [("rich", 5), ("early", 3)]
    assert result.bought_by("late") == 0


def test_ties_between_prices_go_to_the_middle_then_the_lower() -> None:
    # Two pieces trade at $20 and at $30 (one at $10 and at $40); the middle of the tie is $25, as near to
    # either, so the lower wins.
    result = clear(
        buys=[Offer("B", 40, 1, 1), Offer("B2", 30, 1, 2)],
        sells=[Offer("S", 10, 1, 3), Offer("S2", 20, 1, 4)],
    )
    assert result.volume == 2
    assert result.price == 20
    # Three tied candidates ($10, $20, $30): the middle one wins, and the cheaper seller sells.
    odd = clear(buys=[Offer("B", 30, 1, 1)], sells=[Offer("S", 10, 1, 2), Offer("S2", 20, 1, 3)])
    assert odd.price == 20 and odd.volume == 1 and odd.sold_by("S") == 1


def test_nothing_trades_when_every_bid_is_below_every_ask() -> None:
    result = clear(buys=[Offer("B", 10, 5, 1)], sells=[Offer("market", 11, 5, 2)])
    assert result.volume == 0 and result.price is None and not result.bought and not result.sold


def test_as_many_as_possible_is_a_count_the_caller_gives() -> None:
    # BUY 0 swrd 160 with $500 in hand: the executor asks for 500 // 160 = 3; the market has 17.
    result = clear(buys=[Offer("U1", 160, 500 // 160, 1)], sells=[Offer("market", 151, 17, 9)])
    assert result.bought_by("U1") == 3
    assert result.sold_by("market") == 3


def test_an_offer_needs_sensible_numbers() -> None:
    with pytest.raises(ValueError):
        Offer("U1", -1, 3, 1)
