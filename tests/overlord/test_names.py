"""A name where an id goes inside an order line (STANCE "Menfell" HOSTILE): read once by the checker as
the id it names, kept with that id in the order and the queue, echoed with it, and resolved the same way;
a name slightly off gets a did-you-mean with the id and its name."""

from __future__ import annotations

from typing import Any

from resolver.core.programs import parse_line
from resolver.engine.ruleset import Game
from resolver.rulesets.overlord import language

from .support import game, month, order_file, start, unit_of


def named_game() -> tuple[Game, dict[str, Any]]:
    g = game()
    state = start(g)
    state["factions"]["blue"]["name"] = "Menfell"
    return g, state


def unit_block(unit: str, lines: list[str]) -> list[dict[str, Any]]:
    return [{"action": "unit", "unit": unit, "orders": lines}]


def test_a_quoted_faction_name_is_read_as_its_id_and_the_line_keeps_the_id() -> None:
    g, state = named_game()
    hero = unit_of(state, "red", "hero")
    written = ['-@STANCE  "menfell" HOSTILE # a note', "STANCE Menfell ENEMY"]
    of = order_file(g, state, "red", unit_block(hero, written))
    assert of.ok, [issue.format() for issue in of.errors]
    # The order now holds the ids, the rest of each line as the player wrote it.
    assert of.orders[0]["orders"] == ["-@STANCE  blue HOSTILE # a note", "STANCE blue ENEMY"]
    assert "-@STANCE blue HOSTILE; STANCE blue ENEMY" in of.echo_lines()[0]
    by_id = order_file(g, state, "red", unit_block(hero, of.orders[0]["orders"]))
    assert by_id.echo_lines() == of.echo_lines()


def test_the_month_runs_the_line_a_name_was_written_in_as_the_line_with_the_id() -> None:
    g, state = named_game()
    hero = unit_of(state, "red", "hero")
    result = month(g, state, {"red": unit_block(hero, ['STANCE "Menfell" HOSTILE'])})
    assert result.state["factions"]["red"]["stances"]["blue"] == "hostile"


def test_an_own_unit_is_named_by_its_name_and_another_faction_s_only_by_its_id() -> None:
    g, state = named_game()
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    state["units"][men]["name"] = "Iron Fists"
    theirs = unit_of(state, "blue", "hero")
    state["units"][theirs]["name"] = "Grey Wolves"
    of = order_file(g, state, "red", unit_block(hero, ['GIVE "Iron Fists" coin 5']))
    assert of.ok, [issue.format() for issue in of.errors]
    assert of.orders[0]["orders"] == [f"GIVE {men} coin 5"]
    refused = order_file(g, state, "red", unit_block(hero, ['GIVE "Grey Wolves" coin 5']))
    assert [issue.message for issue in refused.errors] == ["'Grey Wolves' is not a unit"]


def test_a_name_slightly_off_is_refused_at_its_column_with_the_id_and_its_name() -> None:
    g, state = named_game()
    hero = unit_of(state, "red", "hero")
    of = order_file(g, state, "red", unit_block(hero, ['STANCE "Menfel" HOSTILE']))
    [issue] = of.errors
    assert issue.message == "'Menfel' is not a faction"
    assert issue.hint.startswith("did you mean 'blue' (Menfell)?")
    line = of.raw.decode().splitlines()[issue.line - 1]
    assert line[issue.col - 1 :].startswith('"Menfel"')


def test_a_place_is_named_by_its_name_unless_two_places_share_it() -> None:
    g, state = named_game()
    hero = unit_of(state, "red", "hero")
    place, names = next((key, found) for key, found in g.ruleset.names("places", g, state).items() if found)
    of = order_file(g, state, "red", unit_block(hero, [f'AT "{names[0].upper()}"']))
    assert of.ok, [issue.format() for issue in of.errors]
    assert of.orders[0]["orders"] == [f"AT {place}"]
    # Two places of one name: the name names neither, and only an id will do.
    twins = {"location": {"L1": ("Twin Fords",), "L2": ("Twin Fords",)}}
    known = language.Vocabulary.from_rules(g.rules, state["factions"], twins)
    reading = language.read(parse_line('AT "Twin Fords"'), known)
    assert [problem.problem for problem in reading.problems] == [
        "'Twin Fords' is not a location or a structure"
    ]
