"""SYNCHRO: two units' lines fire together, on the day both are live, or not at all (spec §2.11)."""

from __future__ import annotations

from .support import game, month, start, unit_of


def _named(result, unit: str) -> list[int]:
    return [e.tick for e in result.events if e.kind == "unit_named" and e.data.get("unit") == unit]


def test_two_lines_fire_together_on_the_day_both_are_live_and_free_the_lines_waiting_on_them() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    orders = {
        "red": [
            {
                "action": "unit",
                "unit": hero,
                "orders": [f"SYNCHRO {men}", '-NAME "Ada the Punctual"', "@WORK"],
            },
            {
                "action": "unit",
                "unit": men,
                "orders": ["DAY 5", f"-SYNCHRO {hero}", '--NAME "The Fifth"', "@WORK"],
            },
        ]
    }
    result = month(g, state, orders)
    assert _named(result, hero) == [5] and _named(result, men) == [5]
    assert [e.tick for e in result.events if e.kind == "synchronised"] == [5]
    assert result.state["units"][hero]["orders"] == ["@WORK"] == result.state["units"][men]["orders"]


def test_a_synchro_without_its_mirror_never_fires_and_waits_in_the_queue() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    queue = [f"SYNCHRO {men}", '-NAME "Ada the Patient"', "@WORK"]
    result = month(g, state, {"red": [{"action": "unit", "unit": hero, "orders": queue}]})
    assert _named(result, hero) == [] and result.state["units"][hero]["orders"] == queue


def test_units_of_two_factions_synchronise_only_where_both_stand() -> None:
    g = game()
    state = start(g)
    red, blue = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    apart = next(loc for loc, place in g.world.locations.items() if place.parent is None)
    state["units"][blue]["location"] = apart
    orders = {
        "red": [{"action": "unit", "unit": red, "orders": [f"SYNCHRO {blue}", '-NAME "Red Waits"']}],
        "blue": [{"action": "unit", "unit": blue, "orders": [f"SYNCHRO {red}", '-NAME "Blue Waits"']}],
    }
    assert _named(month(g, state, orders), red) == []
    state["units"][blue]["location"] = state["units"][red]["location"]
    assert _named(month(g, state, orders), red) == [1]
