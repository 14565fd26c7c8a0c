"""A whole month's execution sequence (spec §2.13) in one month that has something in every step: press
rewards and faction orders before day 1, each day's orders then battles, markets and recruits, the
control check on day 1, and after day 30 taxes, wages, upkeep, loyalty, the places' change and knowledge.
The events come out in the turn table's order, each stamped with its day."""

from __future__ import annotations

import copy
from typing import Any

from resolver.core.orders import Article
from resolver.engine.turn import resolve_turn
from resolver.rulesets.overlord import control

from .support import game, give_title, month, order_file, start, unit_of

# The engine's own phases around the ruleset's turn table: missing order files first, the press last.
ENGINE = ("gm", "press")


def _sequence(rules: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """The turn table's phases: those before the day block, the day's own, and those after it."""
    before, day, after, seen_block = [], [], [], False
    for row in rules["turn_sequence"]:
        if "block" in row:
            day, seen_block = [phase["id"] for phase in row["phases"]], True
        else:
            (after if seen_block else before).append(row["id"])
    return before, day, after


def test_a_month_runs_the_turn_table_in_order_with_each_day_s_steps_in_theirs() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    blue_men = unit_of(state, "blue", "man")
    give_title(state, hero)
    # A blue envoy standing apart, who keeps out of battles: the recruits will swear to blue before it.
    envoy = f"U{state['next_ids']['unit']}"
    state["next_ids"]["unit"] += 1
    state["units"][envoy] = {
        **copy.deepcopy(state["units"][unit_of(state, "blue", "hero")]),
        "race": "ldr", "stack": None, "items": {}, "equipped": {}, "name": "Envoy", "arrival": 99,
        "tactic": {"battle": "avoid", "rank": "rear", "file": "center", "move": "stand"},
    }  # fmt: skip
    state["units"][hero]["items"]["coin"] = 2000
    state["units"][men]["skills"]["cmbt"] = 45
    ours = [
        {"action": "faction", "orders": ['NAME "The Punctual Empire"']},
        {"action": "unit", "unit": hero, "orders": ["BUY 2 swrd 200", "DAY 3", "-RECRUIT rednU01 5 man 0"]},
        {"action": "unit", "unit": men, "orders": ["D2 UNSTACK", f"D2 ATTACK {blue_men}"]},
        {"action": "unit", "unit": "rednU01", "orders": [f"OATH {envoy}"]},
    ]
    files = {"red": order_file(g, state, "red", ours)}
    assert files["red"].ok, [issue.format() for issue in files["red"].errors]
    files["red"].press.append(Article(headline="On time", body="Every day in its order."))
    result = resolve_turn(g, state, files, sealed=True)
    before, day, after = _sequence(g.rules)

    def key(event: Any) -> tuple[int, int, int]:
        if event.phase in ENGINE:
            return (0, -1, 0) if event.phase == "gm" else (3, 0, 0)
        if event.phase in before:
            return (0, before.index(event.phase), 0)
        if event.phase in day:
            return (1, event.tick, day.index(event.phase))
        return (2, after.index(event.phase), 0)

    keys = [key(e) for e in result.events]
    assert {e.phase for e in result.events} >= {
        *before,
        "orders",
        "battles",
        "markets",
        "recruits",
        *after,
    } - {"month_end"}
    assert keys == sorted(keys), "an event came out of the turn table's order"
    first = {}
    for event in result.events:
        first.setdefault(event.kind, (event.phase, event.tick))
    assert first["press_reward"] == ("press_rewards", 0)
    assert first["faction_named"] == ("faction_orders", 0)
    assert first["bought"][0] == "markets" and first["bought"][1] in g.rules["markets"]["days"]
    assert first["recruited"] == ("recruits", 3)
    assert first["battle"] == ("battles", 2)
    assert first["wages"] == ("wages", 0) and first["upkeep"] == ("upkeep", 0)
    assert first["taxes_collected"] == ("taxes", 0)
    assert first["oath_sworn"] == ("orders", 4)  # the recruit of day 3 takes its first order on day 4
    assert first["loyalty_changed"] == ("loyalty", 0)
    assert first["knowledge_gained"] == ("knowledge", 0)


def test_the_control_check_counts_the_recruits_of_day_one() -> None:
    """Spec §2.13: the control check comes after the whole of day 1 (step 3, between day 1 and days 2-30),
    so a unit recruited on day 1 counts: here it takes red one point over what it may command."""
    g = game()
    data = copy.deepcopy(g.rules)
    probe = start(g)
    data["control_points"]["base"] = control.required(probe, g.rules, "red")  # red exactly at its limit
    g = game(rules=data)
    state = start(g)
    hero = unit_of(state, "red", "hero")
    state["units"][hero]["items"]["coin"] = 1000
    orders = {"red": [{"action": "unit", "unit": hero, "orders": ["RECRUIT rednU01 1 man 0"]}]}
    result = month(g, state, orders)
    red = [e for e in result.events if e.actors == ["red"]]
    recruited = [(e.phase, e.tick) for e in red if e.kind == "recruited"]
    checked = [(e.phase, e.tick, e.data["missing"]) for e in red if e.kind == "control_exceeded"]
    assert recruited == [("recruits", 1)] and checked == [("control", 1, 1)]
    kinds = [e.kind for e in red]
    assert kinds.index("recruited") < kinds.index("control_exceeded")
