"""Overlord's production (spec §4.9.9, §5.10): harvesting shared by the day's harvesters, producing with
inputs taken whole, level and tools, work lost by moving, the products stop, experience and foraging."""

from __future__ import annotations

from resolver.core.programs import Program, Result, parse_line
from resolver.rulesets.overlord import labour, production

from . import support
from .production_support import day_end, events, month, rules, run, unit


def crafter(uid: str = "U1", figures: int = 10, days: float = 15, skill: str = "weap", **items: int) -> dict:
    return unit(uid, figures=figures, skills={skill: days}, items=dict(items))


# ---- producing --------------------------------------------------------------------------------------


def test_ten_figures_on_a_ten_day_item_make_one_a_day_and_take_its_inputs_whole() -> None:
    m = month({"U1": crafter(wood=3)})
    for _ in range(3):
        assert run(m, "U1", "@USE weap") == (Result.RAN, None)
        day_end(m)
    assert m.state["units"]["U1"]["items"] == {"club": 3}
    assert run(m, "U1", "@USE weap")[0] is Result.SKIPPED  # no wood left for a fourth club


def test_the_second_level_halves_the_time() -> None:
    first = month({"U1": crafter(figures=5, days=15, wood=9)})
    second = month({"U1": crafter(figures=5, days=45, wood=9)})
    for m in (first, second):
        for _ in range(4):
            run(m, "U1", "@USE weap")
            day_end(m)
    assert first.state["units"]["U1"]["items"]["club"] == 2
    assert second.state["units"]["U1"]["items"]["club"] == 4


def test_inputs_go_when_an_item_starts_and_moving_loses_the_work_in_hand() -> None:
    m = month({"U1": crafter(figures=1, skill="blsm", days=15, iron=10)})
    m.state["units"]["U1"]["skills"]["weap"] = 15
    run(m, "U1", "@USE blsm")
    held = m.state["units"]["U1"]
    assert held["items"] == {"iron": 5} and held["progress"]["blsm"]["work"] == 1
    held["location"] = "L2"  # the unit travelled: the sword begun at L1 and its iron are gone
    run(m, "U1", "@USE blsm")
    assert held["items"] == {} and held["progress"]["blsm"]["work"] == 1
    assert labour.lose_work(held) == ["blsm"] and "blsm" not in held["progress"]


def test_tools_cut_the_time_by_a_third_for_the_figures_holding_one() -> None:
    bare = month({"U1": crafter(wood=20)})
    tooled = month({"U1": {**crafter(wood=20, tool=10), "equipped": {"tool": 10}}})
    half = month({"U1": {**crafter(wood=20, tool=5), "equipped": {"tool": 5}}})
    for m in (bare, tooled, half):
        for _ in range(7):
            run(m, "U1", "@USE weap")
            day_end(m)
    # 70 man-days on 10-day clubs: 7; a club takes 6.7 man-days with a tool in every hand (10), and
    # 8.35 with tools for half the figures (8).
    assert [m.state["units"]["U1"]["items"]["club"] for m in (bare, tooled, half)] == [7, 10, 8]


def test_the_products_stop_counts_down_and_ends_the_line() -> None:
    m = month({"U1": crafter(wood=10)})
    result, new = run(m, "U1", "USE weap 3")
    assert result is Result.CONTINUES and new is not None and new.render() == "USE weap 2"
    big = month({"U1": crafter(figures=30, wood=10)})
    assert run(big, "U1", "@USE weap 2") == (Result.FINISHED, None)
    assert big.state["units"]["U1"]["items"] == {"club": 2, "wood": 8}


def test_a_day_of_use_teaches_a_tenth_of_a_day_and_a_twentieth_to_the_parents() -> None:
    m = month({"U1": crafter(skill="blsm", days=15, iron=5)})
    m.state["units"]["U1"]["skills"]["weap"] = 15
    run(m, "U1", "@USE blsm")
    assert m.state["units"]["U1"]["skills"] == {"blsm": 15.1, "weap": 15.05}


def test_use_without_the_first_level_is_dropped_with_a_reason() -> None:
    m = month({"U1": crafter(days=5, wood=1)})
    assert run(m, "U1", "USE weap")[0] is Result.INVALID
    assert "1st level" in events(m, "line_failed")[0]["reason"]


# ---- harvesting -------------------------------------------------------------------------------------


def test_the_spec_share_fifteen_grain_between_twenty_and_forty_a_month() -> None:
    assert production.share(15, {"A": 20, "B": 40}) == {"A": 5, "B": 10}
    assert production.share(100, {"A": 20, "B": 40}) == {"A": 20, "B": 40}
    assert production.share(1, {"A": 1, "B": 1}, ["B", "A"]) == {"A": 0, "B": 1}


def test_a_month_of_farming_shares_a_small_harvest_in_proportion() -> None:
    farmers = {
        "U1": unit("U1", figures=20, skills={"farm": 15, "agri": 15}),
        "U2": unit("U2", figures=40, skills={"farm": 15, "agri": 15}),
    }
    m = month(farmers)
    m.state["places"]["L1"] = {"resources": {"grai": 15}, "weather": {"now": "fair"}}
    for _ in range(30):
        for uid in ("U1", "U2"):
            run(m, uid, "@USE farm")
        day_end(m)
    assert m.state["units"]["U1"]["items"] == {"grai": 5}
    assert m.state["units"]["U2"]["items"] == {"grai": 10}
    assert m.state["places"]["L1"]["resources"]["grai"] == 0
    assert run(m, "U1", "@USE farm")[0] is Result.SKIPPED  # the month's grain is gone


def test_a_farm_adds_half_that_never_takes_from_the_land() -> None:
    m = month({"U1": unit("U1", figures=30, skills={"farm": 15}, structure="B1")})
    m.state["structures"]["B1"] = {"type": "farm", "location": "L1", "complete": True, "owner": "red"}
    m.state["places"]["L1"] = {"resources": {"grai": 0}}
    for _ in range(4):
        run(m, "U1", "@USE farm")
        day_end(m)
    assert m.state["units"]["U1"]["items"] == {"grai": 2}  # 30 man-days a day: half a grain a day


def test_summer_sun_rain_and_storms_change_agriculture_only() -> None:
    data = rules()
    # The shipped data counts the season on the land's yield instead (places.py); the speed's table
    # still works for a campaign that sets it.
    harvest = data["production"]["harvest"]
    harvest.update(season_percent={"summer": 30}, weather_percent={"sun": 10, "rain": 10, "storm": -20})
    state = {"places": {"L1": {"weather": {"now": "sun"}}, "L2": {"weather": {"now": "storm"}}}}
    assert production.harvest_percent(data, state, "farm", "L1", "summer") == 140
    assert production.harvest_percent(data, state, "farm", "L2", "spring") == 80
    assert production.harvest_percent(data, state, "lumb", "L1", "summer") == 100


def test_a_hostile_land_owner_forbids_harvesting() -> None:
    data = rules()
    data["stances"] = {
        "order": ["ally", "friendly", "neutral", "hostile", "enemy"],
        "gates": {"harvest": "friendly"},
    }
    m = month(
        {"U1": unit("U1", figures=10, skills={"lumb": 15}), "U7": unit("U7", owner="blue", race="ldr")},
        data=data,
    )
    m.state["places"]["L1"] = {"resources": {"wood": 40}, "title": {"tag": "shrf", "holder": "U7"}}
    m.state["factions"]["blue"]["stances"] = {"red": "hostile"}
    assert run(m, "U1", "@USE lumb")[0] is Result.SKIPPED
    m.state["factions"]["blue"]["stances"] = {"red": "friendly"}
    assert run(m, "U1", "@USE lumb")[0] is Result.RAN


def test_a_harvest_with_a_products_stop_counts_down_at_the_day_end() -> None:
    m = month({"U1": unit("U1", figures=10, skills={"lumb": 15})})
    m.state["places"]["L1"] = {"resources": {"wood": 40}}
    m.programs["U1"] = Program([parse_line("USE lumb 3"), parse_line("-MOVE N")])
    assert run(m, "U1", "USE lumb 3")[0] is Result.CONTINUES
    day_end(m)  # 2 wood a day
    assert m.programs["U1"].to_data() == ["USE lumb 1", "-MOVE N"]
    run(m, "U1", "USE lumb 1")
    day_end(m)
    assert m.programs["U1"].to_data() == ["MOVE N"]
    assert m.state["units"]["U1"]["items"] == {"wood": 3}


def test_a_walk_skill_forages_a_ration_of_upkeep_per_ten_man_days() -> None:
    m = month({"U1": unit("U1", figures=10, skills={"plwk": 15, "scou": 15})})
    for _ in range(3):
        run(m, "U1", "@USE plwk")
    held = m.state["units"]["U1"]
    assert production.foraged_rations(held) == 3
    assert labour.lose_work(held) == [] and production.foraged_rations(held) == 3  # moving keeps food
    production.end_forage(m.rules, held)
    assert production.foraged_rations(held) == 0


def test_a_whole_month_of_the_ruleset_runs_use_from_a_queue() -> None:
    g = support.game()
    state = support.start(g)
    followers = support.unit_of(state, "red", "man")
    state["units"][followers]["skills"] = {"weap": 15}
    state["units"][followers]["items"]["wood"] = 12
    orders = [{"action": "unit", "unit": followers, "orders": ["@USE weap"]}]
    result = support.month(g, state, {"red": orders})
    after = result.state["units"][followers]
    # Fifty figures make five clubs a day: twelve wood give twelve clubs in three days, then they work.
    assert after["items"].get("club") == 12 and "wood" not in after["items"]
    assert after["orders"] == ["@USE weap"]
    assert any(event.kind == "produced" for event in result.events)
