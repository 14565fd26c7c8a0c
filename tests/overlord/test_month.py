"""A whole overlord month: thirty days of queues with events stamped by day, then wages and upkeep."""

from __future__ import annotations

from resolver.engine.ruleset import get_ruleset

from .support import game, month, start, unit_of


def test_a_month_runs_thirty_days_and_stamps_each_event_with_its_day() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    queue = ['D17 NAME "Iron Hand"', "WAIT 3", '-DESCRIBE "A patient soul"', "-NAME Quickfoot", "@WORK"]
    result = month(g, state, {"red": [{"action": "unit", "unit": hero, "orders": queue}]})
    named = [(e.tick, e.data["new"]) for e in result.events if e.kind == "unit_named"]
    # WAIT 3 fires on days 1 to 3 and completes on day 4, releasing the two lines below it that day; the
    # gated NAME waits for day 17.
    assert named == [(4, "Quickfoot"), (17, "Iron Hand")]
    after = result.state["units"][hero]
    assert after["name"] == "Iron Hand" and after["description"] == "A patient soul"
    assert after["orders"] == ["@WORK"]  # what is left for next month, as the template will show it
    days = {e.tick for e in result.events if e.kind in ("wages", "upkeep")}
    assert days == {0}, "wages and upkeep come after the day block"


def test_a_line_that_never_fires_stays_in_the_queue_for_next_month() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    queue = ["D10 DAY 15", "-NAME Never", "@WORK"]
    result = month(g, state, {"red": [{"action": "unit", "unit": hero, "orders": queue}]})
    assert result.state["units"][hero]["orders"] == queue
    assert not [e for e in result.events if e.kind == "unit_named"]


def test_work_pays_the_place_wage_for_the_days_worked_and_upkeep_is_drawn_in_order() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    place = state["units"][men]["location"]
    assert state["places"][place]["wages"] == 11
    result = month(g, state)
    red_men, red_hero = result.state["units"][men], result.state["units"][hero]
    # The 50 followers work all month: 11 x 50 x 30 / 30 = 550 coins, less 50 x 10 upkeep = 50 left. The
    # hero earns 11 and owes 20: its own 11, then 9 from the followers, who arrived after it.
    assert red_men["items"]["coin"] == 50 - 9
    assert red_hero["items"].get("coin", 0) == 0
    assert result.state["factions"]["red"]["fund"] == 5000
    upkeep = next(e for e in result.events if e.kind == "upkeep" and e.actors == ["red"])
    assert upkeep.data == {"coins": 520, "from_fund": 0, "units": 2, "winter": False}


def test_wages_of_a_unit_that_left_are_lost_and_winter_doubles_upkeep_paid_from_the_fund() -> None:
    g = game()
    state = start(g)
    state["turn"] = 10  # Frostmonth, the first month of winter
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    state["units"][men]["worked"] = {"location": "L1", "days": 12}  # worked elsewhere, then came here
    result = month(g, state, {"red": [{"action": "unit", "unit": men, "orders": ["@WORK"]}]})
    wages = next(e for e in result.events if e.kind == "wages" and e.actors == ["red"])
    assert wages.data["coins"] == 11 * 50 + 11  # this month's days only
    # Winter: 50 x 20 + 40 = 1040 due; the followers' 550 and the hero's 11 fall short of their own dues,
    # so each unit draws on the other and then the fund.
    upkeep = next(e for e in result.events if e.kind == "upkeep" and e.actors == ["red"])
    assert upkeep.data["coins"] == 1040 and upkeep.data["winter"] is True
    assert result.state["factions"]["red"]["fund"] == 5000 - (1040 - 561)
    del hero


def test_food_rations_cover_most_of_a_figure_s_upkeep_and_are_eaten() -> None:
    g = game()
    state = start(g)
    men = unit_of(state, "red", "man")
    state["units"][men]["items"] = {"food": 20}
    state["units"][men]["equipped"] = {"food": 20}
    result = month(g, state)
    # 20 fed figures pay 2 coins each, the other 30 pay 10: 340, from 550 earned.
    assert result.state["units"][men]["items"] == {"coin": 550 - 340 - 9}
    assert "food" not in result.state["units"][men]["equipped"]


def test_an_unpaid_unit_grows_dissent_and_deserts_when_unpaid_again() -> None:
    # No wages anywhere, and places that keep their people from month to month (the markets chapter).
    rules = get_ruleset("overlord").default_rules()
    rules["places"] = {**rules["places"], "change_tenths_percent": 0, "pull_percent": 0}
    rules["places"]["wages"] = {**rules["places"]["wages"], "top": 0, "least": 0}
    g = game(rules=rules)
    state = start(g)
    men = unit_of(state, "red", "man")
    place = state["units"][men]["location"]
    state["places"][place]["wages"] = 0
    state["factions"]["red"]["fund"] = 0
    population = state["places"][place]["population"]
    first = month(g, state)
    assert first.state["units"][men]["dissent"] is True
    restless = [e.data["unit_name"] for e in first.events if e.kind == "dissent" and e.actors == ["red"]]
    assert restless == ["Nirmal Yadav", "Nirmal Yadav's Company"]
    second = month(g, first.state)
    assert men not in second.state["units"]
    deserted = [e for e in second.events if e.kind == "deserted" and e.actors == ["red"]]
    assert sorted(e.data["figures"] for e in deserted) == [1, 50]
    assert second.state["places"][place]["population"] == population + 51
    sentence = g.ruleset.describe(deserted[0].to_data(), g)
    assert "deserts" in sentence and "U1" not in sentence


def test_withdraw_works_only_in_a_city_and_takes_from_the_fund() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    result = month(g, state, {"red": [{"action": "unit", "unit": hero, "orders": ["D3 WITHDRAW 300"]}]})
    drawn = [e for e in result.events if e.kind == "withdrew"]
    assert [(e.tick, e.data["coins"]) for e in drawn] == [(3, 300)]
    assert result.state["factions"]["red"]["fund"] == 5000 - 300
    territory = g.world[state["units"][hero]["location"]].neighbours[0]
    state["units"][hero]["location"] = territory
    state["units"][unit_of(state, "red", "man")]["location"] = territory
    outside = month(g, state, {"red": [{"action": "unit", "unit": hero, "orders": ["WITHDRAW 300"]}]})
    assert not [e for e in outside.events if e.kind == "withdrew"]
    assert outside.state["units"][hero]["orders"] == ["WITHDRAW 300"], "kept until the unit is in a city"


def test_a_queue_for_a_temporary_id_never_created_is_forgotten_with_every_line_naming_it() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    orders = [
        {"action": "unit", "unit": hero, "orders": ["SEE rednU05", "-NAME Watcher", "@WORK"]},
        {"action": "unit", "unit": "rednU05", "orders": ["@WORK"]},
    ]
    result = month(g, state, {"red": orders})
    # Nothing created rednU05 this month: its queue and the SEE naming it go, and the NAME under the SEE
    # is released (it runs next month).
    assert result.state["units"][hero]["orders"] == ["NAME Watcher", "@WORK"]
    assert "rednU05" not in result.state["units"]


def test_an_open_campaign_publishes_the_month_s_deeds_and_a_sealed_one_tells_each_faction_its_own() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    orders = {"red": [{"action": "unit", "unit": hero, "orders": ['NAME "Ada of the Marches"', "@WORK"]}]}
    named = {
        sealed: [e for e in month(g, state, orders, sealed=sealed).events if e.kind == "unit_named"]
        for sealed in (False, True)
    }
    assert [e.visible_to for e in named[False]] == [None]
    assert [e.visible_to for e in named[True]] == [["red"]]
