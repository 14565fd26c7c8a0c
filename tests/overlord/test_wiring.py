"""The chapters joined: each test runs whole months through the engine's turn and shows one hook between
two chapters at work (study with magic and guarding, stances on trade, foraged food at upkeep, …)."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from resolver.core.programs import Result, parse_line
from resolver.engine.ruleset import get_ruleset
from resolver.rulesets.overlord import control, goods, guards, places, production, structures, transfers

from .production_support import day_end, run, unit
from .production_support import month as production_month
from .production_support import rules as production_rules
from .support import game, give_title, month, start, unit_of
from .titles_support import rules as titles_rules
from .titles_support import state as titles_state
from .titles_support import unit as titles_unit

DAYS = 30  # days in a month (rules.yaml: ticks)


def _season_element(g: Any, state: dict[str, Any]) -> str:
    season = g.calendar.date(int(state["turn"])).season.lower()
    return next(tag for tag, when in g.rules["magic"]["elements"].items() if when == season)


def test_the_units_orders_run_in_the_month_with_magic_seasons_and_one_element_per_magecraft_level() -> None:
    g = game()
    state = start(g)
    red, blue = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    element = _season_element(g, state)
    other = next(tag for tag, when in g.rules["magic"]["elements"].items() if when and tag != element)
    for hero in (red, blue):
        state["units"][hero]["skills"]["mage"] = g.rules["skills"]["mage"]["levels"][0]
        state["units"][hero]["items"]["coin"] = 1000
    state["units"][blue]["skills"][element] = 1  # blue's one element: a second needs more magecraft
    orders = {
        "red": [{"action": "unit", "unit": red, "orders": [f"STUDY {element} 1"]}],
        "blue": [{"action": "unit", "unit": blue, "orders": [f"STUDY {other} 1", "STUDY cmbt 5"]}],
    }
    result = month(g, state, orders)
    after = result.state["units"]
    # The season's element studies faster: its first level comes a day or more early.
    faster = (100 + g.rules["magic"]["season_percent"]) / 100
    first = g.rules["skills"][element]["levels"][0]
    days = math.ceil(first / faster)
    assert days < first
    reached = [e.tick for e in result.events if e.kind == "skill_reached" and e.actors == ["red"]]
    assert reached == [days] and after[red]["orders"] == []
    assert after[red]["skills"][element] == round(days * faster, g.rules["study"]["decimals"])
    # Blue's study of a second element is refused with its reason and dropped on day 1 (its full-day turn
    # of that day); combat takes the rest of the month.
    assert other not in after[blue]["skills"] and after[blue]["skills"]["cmbt"] == DAYS - 1
    failed = [e for e in result.events if e.kind == "line_failed" and e.actors == ["blue"]]
    assert failed and "magecraft" in failed[0].data["reason"] and failed[0].tick == 1


def test_a_guard_studies_at_half_strength_and_neither_teaches_nor_is_taught() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    blue_men = unit_of(state, "blue", "man")
    where = state["units"][hero]["location"]
    state["places"][where]["title"] = {"tag": "shrf", "holder": None}
    state["units"][hero]["items"]["coin"] = 300
    guard_skill = g.rules["guarding"]["skill"]
    for uid in (men, blue_men):
        state["units"][uid]["skills"][guard_skill["skill"]] = g.rules["skills"]["cmbt"]["levels"][0]
        state["units"][uid]["items"]["coin"] = 5000
    orders = {
        "red": [
            {"action": "unit", "unit": hero, "orders": [f"CLAIM shrf {where}", f"@TEACH {men} cmbt"]},
            {"action": "unit", "unit": men, "orders": ["@GUARD", "STUDY cmbt 3"]},
        ],
        "blue": [{"action": "unit", "unit": blue_men, "orders": ["STUDY cmbt 3"]}],
    }
    state["units"][hero]["skills"]["cmbt"] = g.rules["skills"]["cmbt"]["levels"][3]  # claims and teaches
    result = month(g, state, orders)
    after = result.state["units"]
    # Day 1 the title is not claimed yet when the men read GUARD: they study that day at full speed;
    # then they guard, study as if they were half as many, and the hero's teaching never reaches them.
    known = g.rules["skills"]["cmbt"]["levels"][0]
    assert state["units"][men]["stack"] == hero  # the men study under a leader who knows combat better
    day = (100 + g.rules["study"]["bonuses"]["stack_leader"]) / 100
    assert after[men]["skills"]["cmbt"] == pytest.approx(known + day + (DAYS - 1) * day / 2)
    assert after[blue_men]["skills"]["cmbt"] == known + DAYS
    assert after[hero]["title"] == {"tag": "shrf", "location": where}
    assert not [e for e in result.events if e.kind == "teaches" and e.actors == ["red"] and e.tick > 1]


def test_a_guard_produces_at_half_strength() -> None:
    crafters = {uid: unit(uid, figures=10, skills={"weap": 15}, items={"wood": 3}) for uid in ("U1", "U2")}
    m = production_month(crafters)
    guards.guard(m.state, m.rules, "U1")  # what a day of GUARD leaves on the unit
    run(m, "U1", "@USE weap")
    run(m, "U2", "@USE weap")
    day_end(m)
    # Ten figures make a ten-day club a day; guarding, they work as five and the club is half made.
    assert m.state["units"]["U2"]["items"].get("club") == 1
    assert "club" not in m.state["units"]["U1"]["items"]


def test_the_land_owner_s_stance_gates_trading_and_recruiting() -> None:
    def play(red_toward_blue: str) -> tuple[dict[str, Any], int]:
        g = game()
        state = start(g)
        red, blue = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
        give_title(state, red)
        state["factions"]["red"]["stances"]["blue"] = red_toward_blue
        state["units"][blue]["items"]["coin"] = 2000
        orders = {
            "blue": [{"action": "unit", "unit": blue, "orders": ["BUY 2 food", "RECRUIT bluenU01 3 man 0"]}]
        }
        before = set(state["units"])
        after = month(g, state, orders).state["units"]
        recruited = sum(u["figures"] for uid, u in after.items() if uid not in before)
        return after[blue], recruited

    # The Mayor's faction holds blue below Friendly: no market and no recruits for blue in its city.
    shut_out, recruited = play("neutral")
    assert "food" not in shut_out["items"] and shut_out["orders"] == ["BUY 2 food"] and recruited == 0
    welcome, recruited = play("friendly")
    assert welcome["items"]["food"] == 2 and welcome["orders"] == [] and recruited == 3


def test_a_guard_of_another_faction_keeps_its_place_s_harvest_and_ground() -> None:
    guard = unit("U7", owner="blue", race="ldr", skills={"cmbt": 15})
    m = production_month({"U1": unit("U1", figures=10, skills={"lumb": 15}), "U7": guard})
    m.state["places"]["L1"] = {"resources": {"wood": 40}, "ground": {"iron": 3}}
    m.state["factions"]["blue"]["stances"] = {"default": "neutral"}
    assert run(m, "U1", "@USE lumb")[0] is Result.RAN  # nobody owns or guards the place
    guards.guard(m.state, m.rules, "U7")  # blue guards it today (no title needed for the test's sake)
    assert run(m, "U1", "@USE lumb")[0] is Result.SKIPPED
    assert goods.execute_get(m, "U1", parse_line("GET L1 iron"))[0] is Result.SKIPPED
    m.state["factions"]["blue"]["stances"]["red"] = "ally"  # the stances' get gate is Ally
    assert goods.execute_get(m, "U1", parse_line("GET L1 iron"))[0] is Result.RAN
    assert m.state["units"]["U1"]["items"]["iron"] == 3


def test_a_unit_that_recruited_today_sets_out_the_next_day() -> None:
    g = game()
    state = start(g)
    blue = unit_of(state, "blue", "hero")
    state["units"][blue]["items"]["coin"] = 2000
    queue = ["RECRUIT bluenU01 3 man 0", "MOVE OUT"]
    result = month(g, state, {"blue": [{"action": "unit", "unit": blue, "orders": queue}]})
    departs = [(e.tick, e.data["unit"]) for e in result.events if e.kind == "departs"]
    assert departs == [(2, state["units"][blue]["name"])]
    held = [e for e in result.events if e.kind == "move_blocked" and e.data["uid"] == blue]
    assert [(e.tick, e.data["reason"]) for e in held] == [(1, "held")]


def test_foraged_rations_feed_figures_at_the_month_s_upkeep_and_do_not_keep() -> None:
    g = game()
    state = start(g)
    men = unit_of(state, "red", "man")
    state["units"][men]["skills"].update({"plwk": 15, "scou": 15})
    state["units"][men]["items"]["coin"] = 1000
    result = month(g, state, {"red": [{"action": "unit", "unit": men, "orders": ["@USE plwk"]}]})
    after = result.state["units"]
    races, share = g.rules["races"], g.rules["economy"]["food"]["share"]
    # Fifty foragers gather more than fifty rations in a month: every figure is fed, and pays only the
    # part of its upkeep food does not cover; the hero pays in full.
    fed_pays = races["man"]["upkeep"] * (100 - share) // 100
    upkeep = next(e for e in result.events if e.kind == "upkeep" and e.actors == ["red"])
    assert upkeep.data["coins"] == races["hero"]["upkeep"] + 50 * fed_pays
    assert production.foraged_rations(after[men]) == 0


def test_a_complete_key_structure_adds_its_control_points_to_its_owner() -> None:
    r = titles_rules()
    st = titles_state(U1=titles_unit("red", "C1"))
    st["structures"] = {
        "B1": {"owner": "red", "type": "cast", "location": "C1", "complete": True},
        "B2": {"owner": "red", "type": "vill", "location": "P3", "complete": False},  # not standing yet
        "B3": {"owner": "blue", "type": "city", "location": "P5", "complete": True},
    }
    types = r["structures"]["types"]
    assert control.available(st, r, "red") == r["control_points"]["base"] + types["cast"]["control"]
    assert control.available(st, r, "blue") == r["control_points"]["base"] + types["city"]["control"]


def test_season_and_weather_change_the_land_s_yield_once_not_the_harvesters_speed() -> None:
    g = game()
    data = g.rules
    state = {"places": {"L1": {"weather": {"now": "sun"}}}}
    assert production.harvest_percent(data, state, "farm", "L1", "summer") == 100
    kind = next(k for k, amounts in data["places"]["resources"].items() if "grai" in amounts)
    spring = places.resources_for(data, kind, "Spring", "fair")["grai"]
    summer = places.resources_for(data, kind, "Summer", "sun")["grai"]
    percent = 100 + data["places"]["season_percent"]["summer"] + data["places"]["weather_percent"]["sun"]
    assert summer == spring * percent // 100


def test_merging_figures_bring_their_own_enchantments_and_a_split_keeps_them_whole() -> None:
    r = production_rules()
    stay = unit("U1", figures=10, effects={"stsk": 30})
    join = unit("U2", figures=10, effects={"stsk": 10, "fert": 40}, dissent=True)
    transfers.merge(r, join, stay, 0)
    # Weighted by figures: (30 x 10 + 10 x 10) / 20 and (0 x 10 + 40 x 10) / 20; dissent comes along.
    assert stay["effects"] == {"stsk": 20, "fert": 20} and stay["dissent"] and stay["figures"] == 20
    part = transfers.split(r, stay, 5, "U3")
    assert part["effects"] == stay["effects"] == {"stsk": 20, "fert": 20} and part["dissent"]


def test_a_completed_marketplace_opens_a_market_at_once() -> None:
    r = production_rules()
    m = production_month({"U1": unit("U1")}, data=r)
    m.state["places"]["L1"] = {"population": 1500, "taxes": 20000}
    built = structures.new_structure(r, m.state, "red", "mrkt", "L1")
    assert "market" not in m.state["places"]["L1"]
    structures.finish(r, m.state, built)
    market = m.state["places"]["L1"]["market"]
    assert market == places.market_offer(r, 20000) and market["sell"]
    structures.finish(r, m.state, structures.new_structure(r, m.state, "red", "mrkt", "L1"))
    assert m.state["places"]["L1"]["market"] is market  # a second marketplace opens no second market


def test_setting_out_loses_the_work_in_hand() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    assert state["units"][men]["stack"] == hero
    state["units"][men]["skills"]["weap"] = 15
    state["units"][men]["progress"] = {"weap": {"kind": "produce", "location": "L119", "work": 40}}
    result = month(g, state, {"red": [{"action": "unit", "unit": hero, "orders": ["MOVE OUT"]}]})
    assert "weap" not in result.state["units"][men]["progress"]
    lost = [e for e in result.events if e.kind == "work_lost"]
    assert [(e.tick, e.visible_to, e.data["skills"]) for e in lost] == [(1, ["red"], ["weaponsmith"])]
    text = g.ruleset.describe(lost[0].to_data(), g)
    assert men not in text and "{" not in text and "weaponsmith" in text, text


def test_a_stealthy_unit_slips_into_a_structure_its_owner_keeps_closed() -> None:
    def play(watcher_race: str) -> tuple[dict[str, Any], list[str]]:
        data = copy.deepcopy(get_ruleset("overlord").default_rules())
        data["movement"]["stealth_entry"] = 1  # the stealth skill alone reaches no margin of 4
        g = game(rules=data)
        state = start(g)
        blue, watcher = unit_of(state, "blue", "hero"), unit_of(state, "red", watcher_race)
        where = state["units"][blue]["location"]
        state["structures"]["B1"] = {"owner": "red", "name": "Red Keep", "type": "fort", "location": where,
                                     "complete": True, "built": {}}  # fmt: skip
        state["units"][watcher].update(structure="B1", stack=None)
        state["units"][blue]["skills"].update({"scou": 15, "stea": 90})  # 2nd stealth: stealth 2
        state["units"][unit_of(state, "blue", "man")]["stack"] = None  # the hero sneaks in alone
        result = month(g, state, {"blue": [{"action": "unit", "unit": blue, "orders": ["ENTER B1"]}]})
        blocked = [e.data["reason"] for e in result.events if e.kind == "move_blocked"]
        return result.state["units"][blue], blocked

    # Followers watch with observation 0: 2 is more than 0 + 1, and blue is inside though red holds it
    # only Neutral. A hero watches with observation 1: 2 is not more than 1 + 1, and the door stays shut.
    inside, _ = play("man")
    assert inside["structure"] == "B1"
    outside, reasons = play("hero")
    assert outside["structure"] is None and reasons == ["enter_refused"]
