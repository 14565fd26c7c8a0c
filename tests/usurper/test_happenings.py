"""The month's events: drawn deterministically at the month's start, two different ones by weight; the
leaders' choices; the Unique Event's roll, never in months 1 and 2."""

from __future__ import annotations

import pytest

from resolver.rulesets.usurper import happenings

from .scoring_support import context, usurper, usurper_rules

RULES = usurper_rules()


def state_at(turn: int) -> dict:
    return {"turn": turn, "factions": {"red": usurper("red"), "blue": usurper("blue")}}


def test_two_different_events_drawn_by_weight() -> None:
    # Spring's table weighs 2, 2, 1, 1: a 5 of 1d6 is the Planting Fair; then of 2, 2, 1 a 3 is Muddy Roads.
    ctx = context(RULES, 1, {"t1/happenings/1": [5], "t1/happenings/2": [3]})
    state = state_at(1)
    happenings.month_start(ctx, state)
    assert state["happenings"]["events"] == ["planting_fair", "muddy_roads"]
    assert state["happenings"]["until"] == 4
    rolls = [r.expr for r in ctx.dice.log]
    assert rolls == ["1d6", "1d5"]  # no Unique Event roll in month 1
    assert ctx.events[0].data["events"] == ["The Planting Fair", "Muddy Roads"]


def test_the_draw_is_the_same_for_the_same_seed_and_turn() -> None:
    first, second = state_at(13), state_at(13)
    happenings.month_start(context(RULES, 13), first)
    happenings.month_start(context(RULES, 13), second)
    assert first["happenings"] == second["happenings"]
    assert len(set(first["happenings"]["events"])) == 2
    assert first["happenings"]["season"] == "Summer"


@pytest.mark.parametrize("turn", [1, 5])
def test_no_unique_event_in_months_one_and_two(turn: int) -> None:
    ctx = context(RULES, turn, {f"t{turn}/unique_event": [1]})
    state = state_at(turn)
    happenings.month_start(ctx, state)
    assert "unique_events" not in state
    assert not any("unique_event" in r.label for r in ctx.dice.log)


def test_unique_event_on_ten_percent_once_per_game() -> None:
    ctx = context(RULES, 9, {"t9/unique_event": [10]})  # month 3, spring
    state = state_at(9)
    happenings.month_start(ctx, state)
    assert list(state["unique_events"]) == ["spring_trial"]
    assert [e.data["name"] for e in ctx.events if e.kind == "unique_event"] == ["The Trial of the Green Road"]
    # Spring's event has happened: a second hit in spring brings nothing.
    state["turn"] = 9
    ctx = context(RULES, 9, {"t9/unique_event": [1]})
    happenings.month_start(ctx, state)
    assert list(state["unique_events"]) == ["spring_trial"]
    assert not [e for e in ctx.events if e.kind == "unique_event"]


def test_eleven_brings_no_unique_event() -> None:
    state = state_at(13)
    happenings.month_start(context(RULES, 13, {"t13/unique_event": [11]}), state)
    assert "unique_events" not in state


def test_effects_last_the_month_and_leaders_double_or_ignore() -> None:
    state = state_at(1)
    happenings.month_start(context(RULES, 1, {"t1/happenings/1": [1], "t1/happenings/2": [3]}), state)
    assert state["happenings"]["events"] == ["thaw", "planting_fair"]
    assert [m.value for m in happenings.action_modifiers(RULES, state, "red", "harvest")] == [15]
    assert happenings.price_percent(RULES, state, "red", "foodstuffs") == -50
    # Red leads one category the next month: by default it ignores the harmful event, Muddy Roads.
    state.update(turn=5, scores={"red": {"leads": ["might"]}, "blue": {"leads": []}})
    happenings.month_start(context(RULES, 5, {"t5/happenings/1": [1], "t5/happenings/2": [1]}), state)
    assert state["happenings"]["events"] == ["thaw", "muddy_roads"]
    assert state["factions"]["red"]["happening_choices"] == {"muddy_roads": "ignore"}
    assert happenings.action_modifiers(RULES, state, "red", "scout") == []
    assert [m.value for m in happenings.action_modifiers(RULES, state, "blue", "scout")] == [-15]
    # A policy naming an event to double comes first.
    state["factions"]["red"]["standing"] = {"policies": {"happenings_double": ["thaw"]}}
    happenings.month_start(context(RULES, 5, {"t5/happenings/1": [1], "t5/happenings/2": [1]}), state)
    assert state["factions"]["red"]["happening_choices"] == {"thaw": "double"}
    assert [m.value for m in happenings.action_modifiers(RULES, state, "red", "harvest")] == [30]
    # After the month, nothing is in force.
    state["turn"] = 9
    assert happenings.action_modifiers(RULES, state, "blue", "scout") == []
