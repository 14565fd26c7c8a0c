"""Diplomacy order files through the real checker (``engine.validate.check_order_file``): the notation
and the field form read the same; every unreadable word is an error at its line and column with the fix
(and a did-you-mean for a place); an order the rules forbid names the province and the rule; another
power's unit and two orders for one unit are refused; each order belongs to its phase; the echo is the
canonical notation with full names; the template lists each unit with what it may do."""

from __future__ import annotations

from typing import Any

import jinja2
import jsonschema
import pytest
import yaml

from resolver.core.orders import Order as Written
from resolver.core.orders import order_file_schema
from resolver.engine import gm
from resolver.engine.ruleset import Game, get_ruleset
from resolver.engine.validate import check_order_file
from resolver.rulesets.diplomacy import orders
from resolver.rulesets.diplomacy.pieces import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from resolver.store.store import ENGINE_TEMPLATES, yaml_value
from resolver.store.views import order_template_context

RULESET = get_ruleset("diplomacy")
RULES = RULESET.default_rules()
POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
GAME = Game("test", "Test", 1, RULESET, RULES, {}, RULESET.generate_world(1, RULES, 7), POWERS)
SPRING = {"year": 1901, "season": "spring", "kind": "movement"}
RETREATS = {"year": 1901, "season": "spring", "kind": "retreat"}
WINTER = {"year": 1901, "season": "winter", "kind": "adjustment"}


def unit(owner: str, kind: str, location: str) -> dict[str, str]:
    return {"owner": owner, "kind": kind, "location": location}


def opening() -> dict[str, dict[str, str]]:
    """The units of Spring 1901."""
    board = orders.m.board(GAME)
    return {
        f"{u.power}-u{index}": unit(u.power, u.kind, u.location)
        for index, u in enumerate(board.starting_units(), start=1)
    }


def state(phase: dict[str, Any] = SPRING, units: dict | None = None, **more: Any) -> dict[str, Any]:
    partial = {"units": opening() if units is None else units, "phase": dict(phase), **more}
    return RULESET.fill_state(RULES, partial, list(POWERS))


def home_centres() -> dict[str, str]:
    board = orders.m.board(GAME)
    return {centre: power for power in POWERS for centre in board.home_centres(power)}


def check(lines: str, position: dict[str, Any] | None = None, power: str = "france"):
    raw = f"campaign: test\nturn: 1\nfaction: {power}\norders:\n{lines}".encode()
    return check_order_file(GAME, position or state(), raw, f"orders/{power}.yaml")


def read(lines: str, position: dict[str, Any] | None = None, power: str = "france") -> list:
    position = position or state()
    of = check(lines, position, power)
    assert of.ok, [issue.format() for issue in of.issues]
    return orders.read_orders(GAME, position, power, of.orders)


def only_error(of) -> tuple[int, int, str, str]:
    assert len(of.errors) == 1, [issue.format() for issue in of.issues]
    issue = of.errors[0]
    return issue.line, issue.col, issue.message, issue.hint


def column_of(of, line: int, word: str) -> int:
    """The 1-based column of ``word`` on ``line`` of the file."""
    return of.raw.decode().splitlines()[line - 1].index(word) + 1


# --- both forms read the same ----------------------------------------------------------------------------

MOVEMENT_PAIRS = [
    ("A PAR - BUR", "{unit: A PAR, move: BUR}"),
    ("A PAR H", "{unit: A PAR, hold: true}"),
    ("A MAR S A PAR - BUR", "{unit: A MAR, support: A PAR - BUR}"),
    ("A PAR S F BRE", "{unit: A PAR, support: F BRE}"),
    ("F BRE - MAO", "{action: move, unit: F BRE, move: MAO}"),
    ("A PAR - BUR", "{order: A PAR - BUR}"),
    ("Army Paris -> Burgundy", "{unit: Army Paris, move: Burgundy}"),
]


@pytest.mark.parametrize(("text", "fields"), MOVEMENT_PAIRS)
def test_notation_and_fields_read_the_same_in_spring(text: str, fields: str) -> None:
    as_text, as_fields = read(f"  - {text}\n"), read(f"  - {fields}\n")
    assert as_text == as_fields and len(as_text) == 1
    assert check(f"  - {text}\n").echo == check(f"  - {fields}\n").echo


def test_a_convoy_reads_the_same_in_both_forms() -> None:
    units = {"e1": unit("england", "fleet", "nth"), "e2": unit("england", "army", "lon")}
    position = state(units=units)
    text = read("  - F NTH C A LON - NWY\n  - A LON - NWY\n", position, "england")
    fields = read(
        "  - {unit: F NTH, convoy: A LON - NWY}\n  - {unit: A LON, move: NWY}\n", position, "england"
    )
    assert (
        text
        == fields
        == [Convoy("england", "nth", "lon", "nwy", "fleet"), Move("england", "lon", "nwy", "army")]
    )


def test_the_reader_gives_the_pieces_orders() -> None:
    assert read("  - A PAR - BUR\n  - A MAR S A PAR - BUR\n  - F BRE H\n") == [
        Move("france", "par", "bur", "army"),
        Support("france", "mar", "par", "bur", "army", "army"),
        Hold("france", "bre", "fleet"),
    ]


def dislodged_serbia() -> dict[str, Any]:
    units = {"t1": unit("turkey", "army", "bul"), "a2": unit("austria", "army", "bud")}
    dislodged = {"ser": {"id": "a1", **unit("austria", "army", "ser"), "attacker_from": "bul"}}
    return state(RETREATS, units, dislodged=dislodged)


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("A SER - ALB", "{unit: A SER, retreat: ALB}"),
        ("A SER - ALB", "{unit: A SER, move: ALB}"),
        ("A SER DISBAND", "{disband: A SER}"),
    ],
)
def test_notation_and_fields_read_the_same_in_retreats(text: str, fields: str) -> None:
    position = dislodged_serbia()
    as_text = read(f"  - {text}\n", position, "austria")
    assert as_text == read(f"  - {fields}\n", position, "austria")
    assert as_text in ([Retreat("austria", "ser", "alb", "army")], [Disband("austria", "ser", "army")])


def winter(units: dict | None = None, centres: dict | None = None) -> dict[str, Any]:
    return state(
        WINTER, units if units is not None else {}, centres=home_centres() if centres is None else centres
    )


@pytest.mark.parametrize(
    ("text", "fields", "expected"),
    [
        ("Build F STP/NC", "{build: F STP/NC}", Build("russia", "fleet", "stp/nc")),
        ("BUILD A MOS", "{build: A MOS}", Build("russia", "army", "mos")),
        ("Waive", "{waive: true}", Waive("russia")),
    ],
)
def test_notation_and_fields_read_the_same_in_winter(text: str, fields: str, expected: Any) -> None:
    position = winter()
    assert (
        read(f"  - {text}\n", position, "russia") == read(f"  - {fields}\n", position, "russia") == [expected]
    )


def test_a_removal_reads_the_same_in_both_forms() -> None:
    centres = {**home_centres(), "par": "germany"}
    position = winter(
        {
            "f1": unit("france", "army", "par"),
            "f2": unit("france", "army", "mar"),
            "f3": unit("france", "fleet", "bre"),
        },
        centres,
    )
    assert read("  - Remove A PAR\n", position) == read("  - {remove: A PAR}\n", position)
    assert read("  - Remove A PAR\n", position) == [Disband("france", "par", "army")]


# --- unreadable orders: the line, the column of the bad word, the fix --------------------------------------


def test_an_unknown_province_is_found_at_its_column_with_did_you_mean() -> None:
    of = check("  - A PAR - BUR\n  - A MAR - SPAN\n")
    line, col, message, hint = only_error(of)
    assert (line, col) == (6, column_of(of, 6, "SPAN"))
    assert "no place called 'SPAN'" in message and hint == "did you mean Spain?"


def test_inside_quotes_the_column_is_still_the_word() -> None:
    of = check('  - "A MAR - SPAN"\n')
    assert only_error(of)[:2] == (5, column_of(of, 5, "SPAN"))


def test_in_the_field_form_the_column_is_inside_the_field() -> None:
    of = check("  - {unit: A PRS, move: BUR}\n")
    line, col, message, hint = only_error(of)
    assert (line, col) == (5, column_of(of, 5, "PRS")) and "'PRS'" in message
    assert "Paris" in hint and hint.startswith("did you mean")
    of = check("  - {unit: A PAR, move: BRG}\n")
    assert only_error(of)[:2] == (5, column_of(of, 5, "BRG"))
    of = check("  - {unit: A MAR, support: A PAR - Burgandy}\n")
    line, col, _, hint = only_error(of)
    assert (line, col) == (5, column_of(of, 5, "Burgandy")) and "Burgundy" in hint


def test_a_field_form_spread_over_lines_points_at_its_field() -> None:
    of = check("  - unit: A PAR\n    move: Burgandy\n")
    line, col, _, hint = only_error(of)
    assert (line, col) == (6, column_of(of, 6, "Burgandy")) and "Burgundy" in hint


@pytest.mark.parametrize(
    ("order", "word", "problem", "fix"),
    [
        ("A PAR X BUR", "X", "'X' is not an order", "'A PAR - BUR'"),
        ("A PAR - BUR NOW", "NOW", "is more than the order says", "one order a line"),
        ("A PAR -", None, "the destination is missing", "province"),
        ("A PAR", None, "says nothing after", "'A PAR - BUR'"),
        ("F STP/XC - BOT", "/", "no coast called", "did you mean"),
    ],
)
def test_each_unreadable_order_is_located_with_its_fix(
    order: str, word: str | None, problem: str, fix: str
) -> None:
    of = check(f"  - {order}\n")
    line, col, message, hint = only_error(of)
    text_end = column_of(of, 5, order) + len(order)
    assert line == 5 and col == (column_of(of, 5, word) if word else text_end)
    assert problem in message and fix in hint


def test_a_unit_field_that_says_more_than_the_unit_is_refused() -> None:
    of = check("  - {unit: A PAR - BUR, move: PIC}\n")
    line, col, message, hint = only_error(of)
    assert (line, col) == (5, column_of(of, 5, "A PAR - BUR")) and "says more" in message
    assert "'A PAR'" in hint


def test_hold_false_orders_nothing() -> None:
    of = check("  - {unit: A PAR, hold: false}\n")
    _, _, message, hint = only_error(of)
    assert "'hold: false' gives no order" in message and "hold: true" in hint


def test_two_kinds_of_order_in_one_entry_are_refused() -> None:
    of = check("  - {unit: A PAR, move: BUR, support: A MAR}\n")
    line, _, message, _ = only_error(of)
    assert line == 5 and "'move' and 'support'" in message


# --- the rules: the province and the rule named ------------------------------------------------------------


@pytest.mark.parametrize(
    ("order", "names", "rule"),
    [
        ("A PAR - MUN", ["Paris", "Munich"], "not adjacent"),
        ("F BRE - PAR", ["Paris"], "fleet inland"),
        ("A PAR - ENG", ["English Channel"], "army to sea"),
        ("A MAR S A PAR - PIC", ["Marseilles", "Picardy"], "support out of reach"),
        ("F BRE C A PAR - LON", ["Brest"], "convoy from a coast"),
    ],
)
def test_an_order_the_rules_forbid_names_the_province_and_the_rule(
    order: str, names: list[str], rule: str
) -> None:
    of = check(f"  - {order}\n")
    line, col, message, hint = only_error(of)
    assert line == 5 and col == column_of(of, 5, order)
    assert all(name in message for name in names), message
    assert hint.endswith(f"(rule: {rule})")


def test_a_fleet_to_a_split_coast_must_name_it() -> None:
    units = {"f1": unit("france", "fleet", "mao")}
    of = check("  - F MAO - SPA\n", state(units=units))
    _, _, message, hint = only_error(of)
    assert "Spain (north coast)" in message and "Spain (south coast)" in message
    assert "(rule: coast needed)" in hint
    assert check("  - F MAO - SPA/NC\n", state(units=units)).ok


def test_another_powers_unit_is_refused() -> None:
    of = check("  - F LON - NTH\n")
    _, _, message, hint = only_error(of)
    assert "London" in message and "England" in message and "(rule: not yours)" in hint
    of = check("  - {unit: F LON, hold: true}\n")
    assert "(rule: not yours)" in only_error(of)[3]


def test_supporting_another_powers_unit_is_allowed() -> None:
    assert check("  - A MUN S A PAR - BUR\n", power="germany").ok


def test_another_powers_dislodged_unit_or_unit_in_winter_is_refused() -> None:
    of = check("  - A SER - ALB\n", dislodged_serbia(), "turkey")
    assert "(rule: not yours)" in only_error(of)[3]
    centres = {**home_centres(), "ber": "france"}
    germans = {
        "g1": unit("germany", "army", "ber"),
        "g2": unit("germany", "army", "mun"),
        "g3": unit("germany", "fleet", "kie"),
    }
    of = check("  - Remove A BER\n", winter(germans, centres), "france")
    assert "(rule: not yours)" in only_error(of)[3]


def test_two_orders_for_one_unit_are_refused() -> None:
    of = check("  - A PAR - BUR\n  - {unit: A PAR, move: PIC}\n")
    assert [(issue.line, "(rule: two orders for one unit)" in issue.hint) for issue in of.errors] == [
        (5, True),
        (6, True),
    ]
    assert "Paris" in of.errors[0].message
    # the same order written twice is one order
    assert check("  - A PAR - BUR\n  - {unit: A PAR, move: BUR}\n").ok


def test_two_orders_for_one_dislodged_unit_are_refused() -> None:
    of = check("  - A SER - ALB\n  - A SER DISBAND\n", dislodged_serbia(), "austria")
    assert len(of.errors) == 2 and all("two orders for one unit" in issue.hint for issue in of.errors)
    assert "Serbia" in of.errors[0].message


def test_a_second_order_for_one_province_in_winter_is_warned_as_failing() -> None:
    position = winter(
        {"r1": unit("russia", "army", "war")}, {"mos": "russia", "stp": "russia", "war": "russia"}
    )
    of = check("  - Build A STP\n  - Build F STP/NC\n  - Build A MOS\n  - Build A MOS\n", position, "russia")
    assert of.ok and [issue.line for issue in of.warnings] == [6, 8]
    assert "order 1 already builds in or removes from St Petersburg" in of.warnings[0].message
    assert orders.read_orders(GAME, position, "russia", of.orders)[:2] == [
        Build("russia", "army", "stp"),
        Build("russia", "fleet", "stp/nc"),
    ]


def test_builds_beyond_the_count_are_warned() -> None:
    position = winter({"r1": unit("russia", "army", "mos")}, {"mos": "russia", "stp": "russia"})
    of = check("  - Build F STP/NC\n  - Waive\n", position, "russia")
    assert of.ok and [issue.line for issue in of.warnings] == [6]
    assert "due 1 build" in of.warnings[0].message


# --- phases ------------------------------------------------------------------------------------------------


def test_a_build_in_spring_is_refused() -> None:
    for order, word in (("Build A PAR", "Build"), ("{build: A PAR}", "A PAR")):
        of = check(f"  - {order}\n")
        line, col, message, hint = only_error(of)
        assert (line, col) == (
            5,
            column_of(of, 5, word),
        ) and "only in the adjustments, and this is a movement phase" in message
        assert "'A PAR - BUR'" in hint


def test_a_retreat_outside_a_retreat_phase_is_refused() -> None:
    for order, word in (("A PAR R BUR", "R"), ("{unit: A PAR, retreat: BUR}", "retreat")):
        of = check(f"  - {order}\n")
        line, col, message, _ = only_error(of)
        assert line == 5 and "only in a retreat phase, and this is a movement phase" in message
        if word == "R":
            assert col == column_of(of, 5, " R ") + 1


def test_a_move_in_winter_and_a_support_in_retreats_are_refused() -> None:
    of = check("  - A PAR - BUR\n", winter(), "france")
    assert "this is the adjustments" in only_error(of)[2]
    of = check("  - A BUD S A SER\n", dislodged_serbia(), "austria")
    assert "(rule: not a retreat order)" in only_error(of)[3]


def test_a_retreat_the_rules_forbid_names_the_rule() -> None:
    of = check("  - A SER - BUL\n", dislodged_serbia(), "austria")
    _, _, message, hint = only_error(of)
    assert "Serbia" in message and "Bulgaria" in message and "(rule: occupied)" in hint


def test_a_build_the_rules_forbid_names_the_rule() -> None:
    of = check("  - Build A PAR\n", winter(), "russia")
    _, _, message, hint = only_error(of)
    assert "Paris" in message and "(rule: not a home centre)" in hint


# --- the echo ----------------------------------------------------------------------------------------------


def test_the_echo_is_the_notation_with_full_names() -> None:
    of = check("  - army paris - burgundy\n  - {unit: F BRE, move: MAO}\n  - A MAR S A PAR - BUR\n")
    assert of.echo == {
        1: "A PAR - BUR: the army in Paris moves to Burgundy",
        2: "F BRE - MAO: the fleet in Brest moves to Mid-Atlantic Ocean",
        3: "A MAR S A PAR - BUR: the army in Marseilles supports the army in Paris moving to Burgundy",
    }
    assert "1. order: A PAR - BUR: the army in Paris moves to Burgundy" in of.echo_lines()
    russia = check("  - build f st petersburg north coast\n  - {remove: A MOS}\n", winter(), "russia")
    assert russia.echo[1] == "BUILD F STP/NC: a fleet is built in St Petersburg (north coast)"
    position = winter({"f1": unit("france", "army", "par")}, {})
    assert check("  - {remove: A PAR}\n", position).echo == {
        1: "REMOVE A PAR: the army in Paris is disbanded"
    }


def test_a_refused_order_is_echoed_as_read_and_an_unreadable_one_as_written() -> None:
    of = check("  - F BRE - PAR\n  - A MAR - SPAN\n")
    lines = of.echo_lines()
    assert lines[0] == "1. order: F BRE - PAR: the fleet in Brest moves to Paris"
    assert "(rule: fleet inland)" in lines[2]
    assert lines[3] == "2. order: A MAR - SPAN"


def test_the_echo_of_a_retreat_and_a_convoy() -> None:
    assert check("  - A SER - ALB\n", dislodged_serbia(), "austria").echo == {
        1: "A SER - ALB: the army in Serbia retreats to Albania"
    }
    units = {"e1": unit("england", "fleet", "nth"), "e2": unit("england", "army", "lon")}
    assert check("  - F NTH C A LON - NWY\n", state(units=units), "england").echo == {
        1: "F NTH C A LON - NWY: the fleet in North Sea convoys the army in London to Norway"
    }


# --- the template ------------------------------------------------------------------------------------------


def test_each_unit_is_listed_with_what_it_may_do() -> None:
    lines = orders.unit_lines(GAME, state(), "france")
    assert lines[0].startswith(
        "F BRE (Brest): hold (F BRE H), or move (F BRE - ...) to ENG (English Channel)"
    )
    assert any(line.startswith("A PAR (Paris):") and "BUR (Burgundy)" in line for line in lines)
    assert not any("ENG" in line for line in lines if line.startswith("A PAR"))
    assert orders.unit_lines(GAME, dislodged_serbia(), "austria") == [
        "A SER (Serbia) was dislodged: retreat (A SER - ...) to ALB (Albania), GRE (Greece), RUM (Rumania), "
        "TRI (Trieste), or disband (A SER DISBAND)"
    ]
    builds = orders.unit_lines(GAME, winter(), "russia")[0]
    assert "you may build 4 (or WAIVE)" in builds and "BUILD F STP/NC" in builds and "BUILD A MOS" in builds
    assert orders.orderable(GAME, winter(), "russia") == ["order", "build", "remove", "waive"]


@pytest.mark.parametrize(
    ("position", "power"),
    [(state(), "france"), (state(), "england"), (dislodged_serbia(), "austria"), (winter(), "russia")],
)
def test_the_template_examples_check_clean(position: dict[str, Any], power: str) -> None:
    examples = orders.order_examples(GAME, position, power)
    assert examples
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(ENGINE_TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    environment.filters["yaml_value"] = yaml_value
    context = order_template_context(GAME, position, power)
    context.update(examples=examples, status=orders.unit_lines(GAME, position, power))
    text = environment.get_template("orders.yaml.j2").render(context)
    example = text.split("# orders:\n", 1)[1].split("press: []", 1)[0]
    written = yaml.safe_load("\n".join(line[len("#   ") :] for line in example.splitlines()))
    assert written == examples
    of = check("".join(f"  - {yaml_value(entry)}\n" for entry in examples), position, power)
    assert of.ok, [issue.format() for issue in of.issues]


def test_the_reader_leaves_out_what_it_cannot_read() -> None:
    written = [
        Written(1, "order", {"action": "order", "order": "A PAR - BUR"}),
        Written(2, "order", {"action": "order", "order": "A PAR - NOWHERE"}),
    ]
    assert orders.read_orders(GAME, state(), "france", written) == [Move("france", "par", "bur", "army")]


def test_the_schema_takes_both_forms() -> None:
    schema = order_file_schema("Diplomacy", "test", POWERS, GAME.actions, gm.actions(GAME))
    written = [
        "A PAR - BUR",
        {"unit": "A MAR", "support": "A PAR - BUR"},
        {"unit": "F NTH", "convoy": "A LON - NWY"},
        {"unit": "A VIE", "hold": True},
        {"unit": "A LON", "move": "NWY", "via_convoy": True},
        {"build": "F STP/NC"},
        {"remove": "A PAR"},
        {"waive": True},
        {"order": "A PAR H"},
        {"action": "move", "unit": "A PAR", "move": "BUR"},
    ]
    jsonschema.validate({"campaign": "test", "turn": 1, "faction": "france", "orders": written}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {"campaign": "test", "turn": 1, "faction": "france", "orders": [{"unit": "A PAR", "go": "BUR"}]},
            schema,
        )
