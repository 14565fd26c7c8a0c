"""The monthly change of a place (spec §5.5, §5.7, §5.8, §5.10): the manual's sample numbers from the
formulas of the markets chapter, recruit and market prices moving with use, floors and ceilings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from resolver.core import canonical
from resolver.rulesets.overlord import places

CHAPTER = Path(__file__).parents[2] / "resolver" / "rulesets" / "overlord" / "rules" / "markets.yaml"


@pytest.fixture(scope="module")
def rules() -> dict[str, Any]:
    return dict(canonical.read_yaml(CHAPTER))


def test_the_manuals_sample_city(rules: dict[str, Any]) -> None:
    # Massada: 5621 people and the Sheriff's hero: wages $11, taxes $11244, 281 followers at $64, two
    # leaders at $320, 17 swords and 15 mules for sale, 56 horses and 231 wheat wanted.
    heads = places.head_count(5621, 1)
    assert places.wages_for(rules, heads) == 11
    assert places.taxes_for(rules, heads) == 11244
    offer = places.recruit_offer(rules, "city", 5621, {}, hero=False)
    assert offer == {"man": {"count": 281, "price": 64}, "ldr": {"count": 2, "price": 320}}
    market = places.market_offer(rules, 11244)
    assert market["days"] == [15, 30]
    assert market["sell"]["swrd"]["count"] == 17 and market["sell"]["mule"]["count"] == 15
    assert market["buy"]["hrse"] == {"count": 56, "price": 45}
    assert market["buy"]["whea"]["count"] == 231


def test_wages_fall_with_crowds_but_never_below_the_least(rules: dict[str, Any]) -> None:
    assert places.wages_for(rules, 800) == 12
    assert places.wages_for(rules, 60000) == rules["places"]["wages"]["least"]


def test_no_recruits_in_castles_and_a_hero_only_in_cities(rules: dict[str, Any]) -> None:
    assert places.recruit_offer(rules, "castle", 5000, {}, hero=True) == {}
    assert "hero" in places.recruit_offer(rules, "city", 5000, {}, hero=True)
    assert "hero" not in places.recruit_offer(rules, "plains", 5000, {}, hero=True)
    assert "ldr" not in places.recruit_offer(rules, "plains", 1000, {}, hero=False)


def test_a_recruit_price_falls_when_few_are_taken_and_never_below_its_floor(rules: dict[str, Any]) -> None:
    floor = rules["recruiting"]["races"]["man"]["floor"]
    offer: dict[str, Any] = {"man": {"count": 281, "price": 64, "taken": 0}}
    prices = []
    for _month in range(12):
        offer = places.next_recruits(rules, "city", 5621, offer, hero=False)
        prices.append(offer["man"]["price"])
    assert prices[0] == 58  # one step of 10 % down, rounded down
    assert prices == sorted(prices, reverse=True)
    assert min(prices) == floor and prices[-1] == floor


def test_a_recruit_price_rises_when_sold_out_or_outbid(rules: dict[str, Any]) -> None:
    sold_out = places.next_recruits(
        rules, "city", 5621, {"man": {"count": 0, "price": 64, "taken": 281}}, False
    )
    assert sold_out["man"]["price"] == 70
    outbid = places.next_recruits(
        rules, "city", 5621, {"man": {"count": 100, "price": 64, "taken": 181, "outbid": True}}, False
    )
    assert outbid["man"]["price"] == 70
    steady = places.next_recruits(
        rules, "city", 5621, {"man": {"count": 200, "price": 64, "taken": 81}}, False
    )
    assert steady["man"] == {"count": 281, "price": 64}  # the month's marks are gone


def test_market_prices_drift_with_use_between_floor_and_ceiling(rules: dict[str, Any]) -> None:
    base = places.market_offer(rules, 11244)
    busy = {**base, "sell": {"swrd": {"count": 2, "price": 151, "traded": 15}}, "buy": {}}
    assert places.next_market(rules, 11244, busy)["sell"]["swrd"]["price"] == 166
    quiet = {**base, "sell": {"swrd": {"count": 17, "price": 76, "traded": 0}}, "buy": {}}
    assert places.next_market(rules, 11244, quiet)["sell"]["swrd"]["price"] == 75  # the floor: half of $150
    nobody_sold = {**base, "sell": {}, "buy": {"hrse": {"count": 56, "price": 45}}}
    assert places.next_market(rules, 11244, nobody_sold)["buy"]["hrse"]["price"] == 49  # wanted more
    glut = {**base, "sell": {}, "buy": {"hrse": {"count": 0, "price": 45, "traded": 56}}}
    fresh = places.next_market(rules, 11244, glut)
    assert fresh["buy"]["hrse"] == {"count": 56, "price": 41}  # restocked, bid lowered


def test_population_moves_by_births_and_toward_its_optimum(rules: dict[str, Any]) -> None:
    # +2 % births on 5000, then a tenth of the way to 6000: 5100 + 90.
    assert places.next_population(rules, 5000, 6000, 20) == 5190
    assert places.next_population(rules, 5000, 5000, -20) == 4900 + 10
    assert places.next_population(rules, 0, 0, 20) == 0
    assert places.optimum(rules, "city", structures=2, market_used=True) == 6000 * 115 // 100


def test_resources_follow_terrain_season_and_weather(rules: dict[str, Any]) -> None:
    assert places.resources_for(rules, "plains", "Summer", "sunny") == {"grai": 84, "hrse": 8}
    assert places.resources_for(rules, "plains", "Winter", "storm") == {"grai": 36, "hrse": 3}
    assert places.resources_for(rules, "hills", "Winter", "storm") == {"ston": 30, "iron": 8}  # not farmed
    assert places.resources_for(rules, "city", "Summer", "fair") == {}


def test_a_new_place_has_people_recruits_a_market_and_resources(rules: dict[str, Any]) -> None:
    city = places.initial_place(rules, "city", 5621, "Spring")
    assert city["wages"] == 11 and city["taxes"] == 11242 and "market" in city and "recruits" in city
    plains = places.initial_place(rules, "plains", 1400, "Spring", "rain")
    assert "market" not in plains and plains["resources"] == {"grai": 66, "hrse": 6}


def test_evolving_a_place_clears_the_months_marks(rules: dict[str, Any]) -> None:
    start = places.initial_place(rules, "city", 5621, "Spring")
    start["recruits"]["man"].update(count=0, taken=281)
    start["market"]["sell"]["swrd"].update(count=0, traded=17)
    after = places.evolve_place(
        rules,
        start,
        "city",
        figures_present=51,
        structures=0,
        marketplace=False,
        change_tenths=0,
        hero=False,
        season="Summer",
    )
    assert after["recruits"]["man"]["price"] == 70 and "taken" not in after["recruits"]["man"]
    assert after["market"]["sell"]["swrd"]["price"] == 165 and "traded" not in after["market"]["sell"]["swrd"]
    # The market traded: the optimum is 6300, and the population moves a tenth of the way there.
    assert after["population"] == 5621 + (6300 - 5621) // 10
    assert after["taxes"] == 2 * (after["population"] + 51)
