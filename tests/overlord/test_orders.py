"""Overlord's order file: each line read once, errors at file:line:col, ownership, the template's queues."""

from __future__ import annotations

from resolver.rulesets.overlord import setup

from .support import game, order_file, start, unit_of


def test_a_bad_line_is_reported_at_its_line_and_column_with_the_fix() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    raw = (
        "campaign: overlord-test\n"
        "turn: 1\n"
        "faction: red\n"
        "orders:\n"
        "  - action: unit\n"
        f"    unit: {hero}\n"
        "    orders:\n"
        "      - WORK\n"
        '      - "@5 STUDY cmbt"\n'
        "      - STUDDY cmbt 1\n"
    ).encode()
    from resolver.engine.validate import check_order_file

    of = check_order_file(g, state, raw, "orders/red.yaml")
    problems = [(issue.line, issue.col, issue.message, issue.hint) for issue in of.errors]
    assert problems[0][:2] == (9, 11), "the count after '@', inside the quotes"
    assert "'@' and a number" in problems[0][2]
    assert problems[1][:2] == (10, 9)
    assert "STUDY" in problems[1][3], "a did-you-mean for the keyword"
    assert of.errors[0].format().startswith("orders/red.yaml:9:11")


def test_a_player_orders_only_its_own_units_and_its_own_temporary_ids() -> None:
    g = game()
    state = start(g)
    theirs = unit_of(state, "blue", "hero")
    of = order_file(
        g,
        state,
        "red",
        [
            {"action": "unit", "unit": theirs, "orders": ["WORK"]},
            {"action": "unit", "unit": "bluenU01", "orders": ["WORK"]},
            {"action": "unit", "unit": "rednU01", "orders": ["@WORK"]},
            {"action": "unit", "unit": "U9999", "orders": []},
        ],
    )
    messages = [issue.message for issue in of.errors]
    assert messages == [
        f"unit {theirs} is not one of yours",
        "'bluenU01' is another faction's temporary id",
        "there is no unit U9999",
    ]


def test_faction_orders_rename_the_faction_and_set_its_settings_before_day_one() -> None:
    from .support import month

    g = game()
    state = start(g)
    result = month(
        g, state, {"red": [{"action": "faction", "orders": ['NAME "The Empire"', "SETTING SUPPORT ON"]}]}
    )
    record = result.state["factions"]["red"]
    assert record["name"] == "The Empire" and record["settings"] == {"support": True}
    # With SUPPORT the upkeep comes from the fund first.
    upkeep = next(e for e in result.events if e.kind == "upkeep" and e.actors == ["red"])
    assert upkeep.data["from_fund"] == 520
    bad = order_file(g, state, "red", [{"action": "faction", "orders": ["MOVE N", "SETTING LOUD ON"]}])
    assert [issue.message for issue in bad.errors] == [
        "'MOVE' is not a faction order here",
        "SETTING takes a setting's name and ON or OFF",
    ]


def test_the_template_shows_every_unit_of_the_faction_with_its_queue() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    state["units"][hero]["orders"] = ["@STUDY cmbt 2", "-5 USE digg"]
    examples = g.ruleset.order_examples(g, state, "red")
    assert examples == [
        {"action": "unit", "unit": hero, "orders": ["@STUDY cmbt 2", "-5 USE digg"]},
        {"action": "unit", "unit": men, "orders": []},
    ]
    lines = g.ruleset.status_lines(g, state, "red")
    assert any("Queue: @STUDY cmbt 2; -5 USE digg." in line for line in lines)
    # The examples check clean as they stand, so a player may send them back unchanged.
    assert order_file(g, state, "red", examples).ok


def test_a_faction_sees_another_s_units_only_where_one_of_its_own_stands() -> None:
    g = game()
    state = start(g)
    red_hero, blue_hero = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    blue = [uid for uid, u in state["units"].items() if u["owner"] == "blue"]
    # Colonial starts share a city three factions at a time (spec 3.6): send blue's units elsewhere first.
    elsewhere = next(c for c in setup.cities(g.world) if c != state["units"][red_hero]["location"])
    for uid in blue:
        state["units"][uid]["location"] = elsewhere
    assert blue_hero not in g.ruleset.faction_view(g, state, "red")["units"]
    for uid in blue:
        state["units"][uid]["location"] = state["units"][red_hero]["location"]
    view = g.ruleset.faction_view(g, state, "red")["units"]
    assert set(blue) <= set(view)
    assert "orders" not in view[blue_hero] and "items" not in view[blue_hero], "what it carries stays secret"
    assert view[blue_hero]["name"] == state["units"][blue_hero]["name"]
    assert not g.ruleset.faction_view(g, state, None).get("units"), "the public sees no unit"
