"""A name where an id goes inside an order line (STANCE "Menfell" HOSTILE): read once by the checker as
the id it names, kept with that id in the order and the queue, echoed with it, and resolved the same way;
a name slightly off gets a did-you-mean with the id and its name."""

from __future__ import annotations

from typing import Any

from resolver.engine.ruleset import Game
from resolver.rulesets.overlord import orders

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
    names = g.ruleset.names("places", g, state)
    owners: dict[str, list[str]] = {}
    for key, found in names.items():
        for name in found:
            owners.setdefault(name.casefold(), []).append(key)
    unique = next(key for key, found in names.items() if found and len(owners[found[0].casefold()]) == 1)
    shared = next(keys for keys in owners.values() if len(keys) > 1)
    alone, twice = names[unique][0], names[shared[0]][0]
    lines = [f'AT "{alone.upper()}"', f'AT "{twice}"']
    of = order_file(g, state, "red", unit_block(hero, lines))
    assert of.orders[0]["orders"][0] == lines[0], "an order with an error is kept as written"
    assert [issue.message for issue in of.errors] == [f"'{twice}' is not a location or a structure"]
    reading = orders.read_order(state, "red", of.orders[0], g.rules, g.ruleset.names_of(g, state))
    assert reading.lines[0].args == (unique,)
