"""RECRUIT through whole months (spec §2.11, §5.8): a new unit under the recruiter, the temporary id
rewritten everywhere, the natives counted down, an auction on over-demand, leaders one at a time."""

from __future__ import annotations

from typing import Any

from resolver.engine.ruleset import get_ruleset

from .support import game, month, start, unit_of


def _hiring_town(state: dict[str, Any], followers: int = 281, price: int = 64) -> tuple[str, str, str]:
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    city = state["units"][hero]["location"]
    place = state["places"].setdefault(city, {})
    place["population"] = 5621
    place["recruits"] = {"man": {"count": followers, "price": price}, "ldr": {"count": 2, "price": 320}}
    return hero, men, city


def _orders(unit: str, lines: list[str]) -> list[dict[str, Any]]:
    return [{"action": "unit", "unit": unit, "orders": lines}]


def _recruited(result: Any) -> list[tuple[int, str, int, int]]:
    return [
        (e.tick, e.data["unit"], e.data["count"], e.data["coins"])
        for e in result.events
        if e.kind == "recruited"
    ]


def test_a_new_unit_is_stacked_under_the_recruiter_and_its_temporary_id_is_rewritten() -> None:
    g = game()
    state = start(g)
    hero, _men, city = _hiring_town(state)
    state["units"][hero]["items"]["coin"] = 2000
    orders = _orders(hero, ["RECRUIT rednU01 20 man 0", "@WORK"]) + _orders("rednU01", ["@WORK"])
    result = month(g, state, {"red": orders})
    assert _recruited(result) == [(1, hero, 20, 20 * 64)]
    new = [uid for uid, u in result.state["units"].items() if u.get("stack") == hero and u["figures"] == 20]
    assert len(new) == 1 and not new[0].startswith("red")
    unit = result.state["units"][new[0]]
    assert unit["race"] == "man" and unit["location"] == city and unit["orders"] == ["@WORK"]
    assert result.state["units"][hero]["orders"] == ["@WORK"]
    hired = [e for e in result.events if e.kind == "recruited"]
    assert hired[0].data["into"] == new[0] and hired[0].data["into_name"] == "New followers"


def test_the_price_must_reach_the_listed_one_and_zero_means_listed() -> None:
    g = game()
    state = start(g)
    hero, men, _city = _hiring_town(state)
    state["units"][hero]["items"]["coin"] = 2000
    queue = [f"RECRUIT {men} 5 man 50", "@WORK"]
    result = month(g, state, {"red": _orders(hero, queue)})
    assert _recruited(result) == []
    assert result.state["units"][hero]["orders"] == queue  # kept: the price may fall to it
    # Into a new unit, the same bid is dropped at the month's end with the id nothing created (spec §2.9).
    result = month(g, state, {"red": _orders(hero, ["RECRUIT rednU01 5 man 50", "@WORK"])})
    assert _recruited(result) == []
    assert result.state["units"][hero]["orders"] == ["@WORK"]


def test_over_demand_on_one_day_is_an_auction_and_the_rest_waits() -> None:
    g = game()
    state = start(g)
    hero, _men, city = _hiring_town(state, followers=100)
    state["units"][hero]["items"]["coin"] = 10000
    other = dict(
        state["units"][hero], name="Rival", arrival=99, items={"coin": 10000}, equipped={}, orders=[]
    )
    state["units"]["U900"] = other
    orders = _orders(hero, ["RECRUIT rednU01 80 man 64", "@WORK"]) + _orders(
        "U900", ["RECRUIT rednU02 60 man 70"]
    )
    result = month(g, state, {"red": orders})
    # 140 asked of 100: the higher price is served first, the other gets what is left and pays its own bid.
    assert sorted(_recruited(result)) == [(1, hero, 40, 40 * 64), (1, "U900", 60, 60 * 70)]
    left = result.state["units"][hero]["orders"][0]
    assert left.startswith("RECRUIT U") and left.endswith(" 40 man 64")  # the new unit's id, 40 still to hire
    place = result.state["places"][city]
    assert place["recruits"]["man"]["price"] > 64  # over-demand raises next month's price


def test_a_leader_is_hired_alone_into_a_new_unit() -> None:
    g = game()
    state = start(g)
    hero, men, _city = _hiring_town(state)
    state["units"][hero]["items"]["coin"] = 2000
    orders = _orders(
        hero, ["RECRUIT rednU01 2 ldr 0", f"RECRUIT {men} 1 ldr 0", "RECRUIT rednU02 0 ldr 0", "@WORK"]
    )
    result = month(g, state, {"red": orders})
    assert _recruited(result) == [(1, hero, 1, 320)]
    assert result.state["units"][hero]["orders"] == ["@WORK"]
    leaders = [u for u in result.state["units"].values() if u["race"] == "ldr" and u["owner"] == "red"]
    assert len(leaders) == 1 and leaders[0]["figures"] == 1


def test_recruits_leave_the_natives_and_join_an_existing_unit() -> None:
    # Places that keep their people from month to month, so the natives show what recruiting took.
    rules = get_ruleset("overlord").default_rules()
    rules["places"] = {**rules["places"], "change_tenths_percent": 0, "pull_percent": 0}
    g = game(rules=rules)
    state = start(g)
    hero, men, city = _hiring_town(state)
    state["units"][hero]["items"]["coin"] = 1000
    state["units"][men]["skills"] = {"cmbt": 50}
    result = month(g, state, {"red": _orders(hero, [f"RECRUIT {men} 0 man 64", "@WORK"])})
    assert _recruited(result) == [(1, hero, 15, 960)]  # as many as $1000 pays for at $64
    after = result.state["units"][men]
    assert after["figures"] == 65
    assert after["skills"]["cmbt"] == 50 * 50 // 65  # the newcomers share out the unit's experience
    assert result.state["places"][city]["population"] == 5621 - 15
