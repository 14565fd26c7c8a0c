"""The queue language of spec §2.2-§2.8 in overlord's months: each prefix and each stop condition as a
player writes it, read by the checker, run through whole months by the engine's turn, with overlord's own
orders (the engine's scheduler alone is tested in ``tests/test_programs.py``)."""

from __future__ import annotations

from typing import Any

from .support import game, month, named_on, order_file, start, unit_of, unit_orders

DAYS = 30  # days in a month (rules.yaml: ticks)


def _students(g: Any, state: dict[str, Any]) -> tuple[str, str]:
    """Red's and blue's men, with coins for a month of study; neither hero knows anything to add a bonus."""
    men = unit_of(state, "red", "man"), unit_of(state, "blue", "man")
    for uid in men:
        state["units"][uid]["items"]["coin"] = 5000
    return men


def test_a_plus_line_runs_until_the_condition_above_it_fires_and_is_pruned_before_the_release() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    men, _ = _students(g, state)
    state["units"][hero]["items"]["iron"] = 20
    orders = {
        "red": [
            unit_orders(hero, "DAY 5", f"-GIVE {men} iron 20"),
            unit_orders(men, "HAVE iron 20", "+@STUDY cmbt", "-NAME Enough"),
        ]
    }
    result = month(g, state, orders)
    # Study on days 1-4; on day 5 the iron comes, HAVE fires, the alternative is deleted and NAME freed.
    assert result.state["units"][men]["skills"]["cmbt"] == 4
    assert named_on(result, men) == [5] and result.state["units"][men]["orders"] == []


def test_a_plus_line_below_a_dashed_block_is_the_alternative_of_the_condition_above_it() -> None:
    g = game()
    state = start(g)
    men, _ = _students(g, state)
    result = month(g, state, {"red": [unit_orders(men, "DAY 8", "-NAME Eighth", "+@STUDY cmbt")]})
    # The manual's AT L47 / -10 USE LUMB / +STUDY LUMB 2: study while the condition fails.
    assert result.state["units"][men]["skills"]["cmbt"] == 7
    assert named_on(result, men) == [8] and result.state["units"][men]["orders"] == []


def test_a_dashed_plus_line_becomes_a_live_alternative_when_freed() -> None:
    g = game()
    state = start(g)
    men, _ = _students(g, state)
    result = month(g, state, {"red": [unit_orders(men, "DAY 3", "-+@STUDY cmbt", "DAY 10", "-NAME Tenth")]})
    # Freed on day 3 as '+@STUDY cmbt', it studies from that day on; nothing below it prunes it.
    assert result.state["units"][men]["skills"]["cmbt"] == DAYS - 2
    assert named_on(result, men) == [10] and result.state["units"][men]["orders"] == ["+@STUDY cmbt"]


def test_dashes_wait_level_by_level_as_in_worked_example_b() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    blue = unit_of(state, "blue", "hero")
    state["units"][hero]["items"]["iron"] = 1
    orders = {
        "red": [
            unit_orders(men, "DAY 2", f"-GIVE {hero} iron 1"),
            unit_orders(hero, "HAVE iron 2", f"-GIVE {blue} iron 1", "--NAME Given"),
        ],
        "blue": [unit_orders(blue, "STANCE red FRIENDLY")],
    }
    state["units"][men]["items"]["iron"] = 1
    result = month(g, state, orders)
    # Day 2 the hero holds two: HAVE goes, GIVE loses its dash (and runs), NAME its first then its last.
    assert result.state["units"][blue]["items"]["iron"] == 1
    assert named_on(result, hero) == [2] and result.state["units"][hero]["orders"] == []


def test_a_counter_counts_the_days_run_and_the_template_shows_what_is_left() -> None:
    g = game()
    state = start(g)
    men, _ = _students(g, state)
    first = month(g, state, {"red": [unit_orders(men, "40 STUDY cmbt")]})
    assert first.state["units"][men]["skills"]["cmbt"] == DAYS
    assert first.state["units"][men]["orders"] == ["10 STUDY cmbt"]
    # Next month, not mentioned in the order file, the unit goes on: ten days, then the line is gone.
    second = month(g, first.state, {})
    assert second.state["units"][men]["skills"]["cmbt"] == 40 and second.state["units"][men]["orders"] == []


def test_a_stop_condition_or_the_counter_whichever_comes_first() -> None:
    g = game()
    state = start(g)
    red, blue = _students(g, state)
    first = g.rules["skills"]["cmbt"]["levels"][0]
    orders = {
        "red": [unit_orders(red, "10 STUDY cmbt 1")],
        "blue": [unit_orders(blue, f"{first + 10} STUDY cmbt 1")],
    }
    result = month(g, state, orders)
    units = result.state["units"]
    assert units[red]["skills"]["cmbt"] == 10 and units[red]["orders"] == []  # the counter first
    assert units[blue]["skills"]["cmbt"] == first and units[blue]["orders"] == []  # the level first
    reached = [e.tick for e in result.events if e.kind == "skill_reached" and e.actors == ["blue"]]
    assert reached == [first]


def test_a_repeated_line_with_a_stop_condition_is_removed_when_the_condition_is_met() -> None:
    g = game()
    state = start(g)
    men, _ = _students(g, state)
    first = g.rules["skills"]["cmbt"]["levels"][0]
    result = month(g, state, {"red": [unit_orders(men, "@STUDY cmbt 1", "@NAME Scholar")]})
    assert result.state["units"][men]["skills"]["cmbt"] == first
    # '@NAME' is a one-shot: '@' changes nothing, it runs once on day 1 and goes.
    assert named_on(result, men) == [1] and result.state["units"][men]["orders"] == []


def test_a_line_without_a_prefix_runs_one_day_and_goes() -> None:
    g = game()
    state = start(g)
    men, _ = _students(g, state)
    result = month(g, state, {"red": [unit_orders(men, "STUDY cmbt")]})
    assert result.state["units"][men]["skills"]["cmbt"] == 1 and result.state["units"][men]["orders"] == []


def test_a_condition_ignores_at_and_a_one_shot_ignores_its_counter() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    result = month(g, state, {"red": [unit_orders(hero, "@DAY 6", "-5 NAME Sixth")]})
    assert named_on(result, hero) == [6] and result.state["units"][hero]["orders"] == []


def test_a_movement_ignores_its_counter() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    land = g.world.locations[state["units"][hero]["location"]].parent
    result = month(g, state, {"red": [unit_orders(hero, f"5 MOVE {land}")]})
    assert result.state["units"][hero]["location"] == land
    assert [e.tick for e in result.events if e.kind == "departs"] == [1]
    assert result.state["units"][hero]["orders"] == []


def test_a_day_gate_runs_a_full_day_line_on_its_day_only_and_a_nonsense_gate_keeps_its_block() -> None:
    g = game()
    state = start(g)
    men, _ = _students(g, state)
    hero = unit_of(state, "red", "hero")
    result = month(
        g, state, {"red": [unit_orders(men, "@D10 STUDY cmbt"), unit_orders(hero, "D10 DAY 15", "-NAME X")]}
    )
    assert result.state["units"][men]["skills"]["cmbt"] == 1
    assert result.state["units"][men]["orders"] == ["@D10 STUDY cmbt"]
    assert result.state["units"][hero]["orders"] == ["D10 DAY 15", "-NAME X"] and named_on(result, hero) == []


def test_skip_but_keep_a_gift_waits_for_its_receiver_month_after_month() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    away = unit_of(state, "outlaws", "ldr")
    state["units"][hero]["items"]["iron"] = 3
    line = f"GIVE {away} iron 1"
    result = month(g, state, {"red": [unit_orders(hero, line, "-NAME Giver")]})
    assert result.state["units"][hero]["orders"] == [line, "-NAME Giver"]
    again = month(g, result.state, {})
    assert again.state["units"][hero]["orders"] == [line, "-NAME Giver"]
    assert again.state["units"][hero]["items"]["iron"] == 3


def test_naming_a_unit_replaces_its_queue_and_an_empty_list_clears_it() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    first = month(
        g, state, {"red": [unit_orders(hero, "D29 DAY 30", "-NAME Late"), unit_orders(men, "@WORK")]}
    )
    assert first.state["units"][hero]["orders"] == ["D29 DAY 30", "-NAME Late"]
    second = month(g, first.state, {"red": [unit_orders(hero, "@WORK"), unit_orders(men)]})
    assert second.state["units"][hero]["orders"] == ["@WORK"] and second.state["units"][men]["orders"] == []


def test_a_repeated_buy_bids_again_on_every_market_day() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    where = state["units"][hero]["location"]
    days = state["places"][where]["market"]["days"]
    state["units"][hero]["items"]["coin"] = 1000
    result = month(g, state, {"red": [unit_orders(hero, "@BUY 1 swrd 200")]})
    bought = [e.tick for e in result.events if e.kind == "bought" and e.actors == ["red"]]
    assert bought == days and result.state["units"][hero]["items"]["swrd"] == 1 + len(days)
    assert result.state["units"][hero]["orders"] == ["@BUY 1 swrd 200"]


def test_a_queue_holds_fifty_lines_and_the_checker_refuses_a_fifty_first() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    lines = [f"D{day} DAY {day + 1}" for day in range(1, 26)] * 2  # fifty lines that never fire
    too_many = order_file(g, state, "red", [unit_orders(hero, *lines, "WAIT 3")])
    assert not too_many.ok
    (error,) = too_many.errors
    assert "at most 50" in error.format() and "remove the orders beyond the fiftieth" in error.format()
    result = month(g, state, {"red": [unit_orders(hero, *lines)]})
    assert result.state["units"][hero]["orders"] == lines
