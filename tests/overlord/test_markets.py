"""BUY and SELL through whole months (spec §2.11, §5.9): requests settle at the end of market days only,
each buyer pays its own bid, partial fills leave the remainder in the queue, n = 0, unlisted goods."""

from __future__ import annotations

from typing import Any

from .support import game, month, start, unit_of


def _market_town(state: dict[str, Any], faction: str = "red") -> tuple[str, str, str]:
    """The faction's hero, its followers and their city, with a small market of the test's own."""
    hero, men = unit_of(state, faction, "hero"), unit_of(state, faction, "man")
    city = state["units"][hero]["location"]
    state["places"].setdefault(city, {})["market"] = {
        "days": [15, 30],
        "sell": {"swrd": {"count": 6, "price": 151}, "mule": {"count": 15, "price": 99}},
        "buy": {"hrse": {"count": 3, "price": 45}},
    }
    return hero, men, city


def _orders(unit: str, lines: list[str]) -> list[dict[str, Any]]:
    return [{"action": "unit", "unit": unit, "orders": lines}]


def test_a_partial_fill_leaves_the_remainder_in_the_queue_and_the_buyer_pays_its_bid() -> None:
    g = game()
    state = start(g)
    hero, _men, city = _market_town(state)
    state["units"][hero]["items"]["coin"] = 2000
    swords = state["units"][hero]["items"].get("swrd", 0)
    result = month(g, state, {"red": _orders(hero, ["BUY 10 swrd 160", "@WORK"])})
    after = result.state["units"][hero]
    bought = [e for e in result.events if e.kind == "bought"]
    # Day 15: the market has 6 swords at $151; the hero bids $160 and pays $160 each (the spread is the
    # market's). Day 30: nothing is left to buy, so BUY 4 swrd 160 waits for next month.
    assert [(e.tick, e.data["count"], e.data["coins"]) for e in bought] == [(15, 6, 960)]
    assert after["items"]["swrd"] == swords + 6
    assert after["orders"][0] == "BUY 4 swrd 160"
    # The market sold out of swords: at the month's end their price rises a step and the stock is counted
    # again from the tax pool.
    assert result.state["places"][city]["market"]["sell"]["swrd"]["price"] == 166


def test_nothing_is_bought_on_a_day_that_is_no_market_day() -> None:
    g = game()
    state = start(g)
    hero, _men, _city = _market_town(state)
    state["units"][hero]["items"]["coin"] = 2000
    queue = ["D14 BUY 2 mule", "@WORK"]
    result = month(g, state, {"red": _orders(hero, queue)})
    assert not [e for e in result.events if e.kind == "bought"]
    assert result.state["units"][hero]["orders"] == queue


def test_buy_without_a_price_bids_the_listed_one_and_zero_buys_all_the_coins_pay_for() -> None:
    g = game()
    state = start(g)
    hero, _men, _city = _market_town(state)
    state["units"][hero]["items"]["coin"] = 300
    result = month(g, state, {"red": _orders(hero, ["BUY 0 mule", "@WORK"])})
    bought = [e for e in result.events if e.kind == "bought"]
    assert [(e.tick, e.data["count"], e.data["coins"]) for e in bought] == [(15, 3, 297)]
    assert "BUY 0 mule" not in result.state["units"][hero]["orders"]  # done once anything was bought


def test_sell_takes_its_own_ask_and_an_unlisted_good_needs_marketing() -> None:
    g = game()
    state = start(g)
    hero, _men, _city = _market_town(state)
    state["units"][hero]["items"].update(hrse=5, iron=4, coin=0)
    state["units"][hero]["equipped"] = {"hrse": 1}
    queue = ["SELL 0 hrse 40", "SELL 4 iron 20", "@WORK"]
    result = month(g, state, {"red": _orders(hero, queue)})
    sold = [e for e in result.events if e.kind == "sold"]
    # The market wants 3 horses at $45; the hero asks $40 and receives $40 each, not the market's bid.
    assert [(e.tick, e.data["count"], e.data["coins"]) for e in sold] == [(15, 3, 120)]
    after = result.state["units"][hero]
    assert after["items"]["hrse"] == 2 and after["items"]["iron"] == 4
    assert "SELL 4 iron 20" in after["orders"]  # the market does not buy iron: it waits


def test_only_leaders_trade() -> None:
    g = game()
    state = start(g)
    _hero, men, _city = _market_town(state)
    state["units"][men]["items"]["coin"] = 500
    result = month(g, state, {"red": _orders(men, ["BUY 1 mule", "@WORK"])})
    assert not [e for e in result.events if e.kind == "bought"]
    assert "BUY 1 mule" not in result.state["units"][men]["orders"]


def test_two_buyers_outbid_each_other_for_a_short_supply() -> None:
    g = game()
    state = start(g)
    hero, _men, city = _market_town(state)
    state["units"][hero]["items"]["coin"] = 2000
    # A second leader of red in the same city, arrived later: it bids more and is served first.
    second = dict(
        state["units"][hero], name="Second", arrival=99, items={"coin": 2000}, equipped={}, orders=[]
    )
    state["units"]["U900"] = second
    result = month(
        g, state, {"red": _orders(hero, ["BUY 4 swrd 155", "@WORK"]) + _orders("U900", ["BUY 4 swrd 170"])}
    )
    bought = {e.data["unit"]: (e.data["count"], e.data["coins"]) for e in result.events if e.kind == "bought"}
    assert bought == {"U900": (4, 680), hero: (2, 310)}
    assert result.state["units"][hero]["orders"][0] == "BUY 2 swrd 155"
    assert city in result.state["places"]
