"""Orders written without 'action:' (``ActionSpec.text_field`` and ``key_field``): a game whose players
write orders in a notation of their own ('- A PAR - BUR', '- {unit: A PAR, move: BUR}') declares which action
a plain text is and which field names an action, and the envelope reads the action from the form. A
ruleset that declares neither reads its files exactly as before.

The actions here are made up for the test, so the envelope is shown to be general, not diplomacy's.
"""

from __future__ import annotations

import jsonschema

from resolver.core.fields import ActionSpec, Field
from resolver.core.orders import Expectation, order_file_schema, parse_order_file

EXPECT = Expectation("c", 1, ("red",))
SAY = ActionSpec(
    "say", "A line of text.", (Field("line", "text", "The line.", required=True),), text_field="line"
)
MARCH = ActionSpec(
    "march",
    "March.",
    (Field("army", "text", "The army.", required=True), Field("to", "text", "Where.", required=True)),
    key_field="to",
)
DIG = ActionSpec("dig", "Dig in.", (Field("army", "text", "The army.", required=True),), key_field="dig_in")
DIG_FIELDS = ActionSpec(
    "dig",
    "Dig in.",
    (Field("army", "text", "The army.", required=True), Field("dig_in", "bool", "Yes.", required=True)),
    key_field="dig_in",
)
ACTIONS = {"say": SAY, "march": MARCH, "dig": DIG_FIELDS}
PLAIN = {"march": ActionSpec("march", "March.", MARCH.fields)}  # the same action, with no implied forms


def parse(orders: str, actions: dict[str, ActionSpec] = ACTIONS):
    raw = f"campaign: c\nturn: 1\nfaction: red\norders:\n{orders}".encode()
    return parse_order_file(raw, "orders/red.yaml", EXPECT, actions, {})


def test_plain_text_is_the_action_that_reads_text() -> None:
    of = parse('  - hello there\n  - "quoted words"\n')
    assert of.ok, [issue.format() for issue in of.issues]
    assert [(o.action, dict(o.args)) for o in of.orders] == [
        ("say", {"action": "say", "line": "hello there"}),
        ("say", {"action": "say", "line": "quoted words"}),
    ]
    assert of.actions_written == {1: "say", 2: "say"}


def test_a_mapping_without_action_is_the_action_whose_key_field_it_holds() -> None:
    of = parse(
        "  - {army: a1, to: ford}\n  - army: a2\n    dig_in: true\n  - {action: march, army: a3, to: hill}\n"
    )
    assert of.ok, [issue.format() for issue in of.issues]
    assert [o.action for o in of.orders] == ["march", "dig", "march"]
    assert of.orders[0]["to"] == "ford" and of.orders[1]["dig_in"] is True


def test_two_key_fields_in_one_order_are_refused_with_both_named() -> None:
    of = parse("  - {army: a1, to: ford}\n  - {army: a1, to: ford, dig_in: true}\n")
    assert [issue.line for issue in of.errors] == [6]
    issue = of.errors[0]
    assert "'to' and 'dig_in'" in issue.message and issue.order == 2
    assert "keep one of 'to' or 'dig_in'" in issue.hint
    assert [o.number for o in of.orders] == [1]


def test_a_mapping_with_no_key_field_still_needs_its_action() -> None:
    of = parse("  - {army: a1}\n")
    assert of.errors[0].message == "order 1 has no 'action'"
    assert "or write one of the fields to, dig_in" in of.errors[0].hint


def test_without_implied_forms_files_read_as_before() -> None:
    of = parse("  - hello there\n  - {army: a1, to: ford}\n", PLAIN)
    assert [issue.message for issue in of.errors] == [
        "order 1 must be a mapping that starts with 'action:'",
        "order 2 has no 'action'",
    ]
    assert "or write one of the fields" not in of.errors[1].hint


def test_an_error_inside_a_text_points_at_the_word() -> None:
    of = parse('  - hello there\n  - "quoted words"\n  - {army: a1, to: far away}\n')
    plain, quoted, field = of.orders
    of.error_in_text(plain, "line", 6, "no 'there' here", "write 'here'")
    of.error_in_text(quoted, "line", 7, "no 'words' here", "write 'word'")
    of.error_in_text(field, "to", 4, "no 'away' here", "write 'near'")
    assert [(issue.line, issue.col, issue.order) for issue in of.errors] == [
        (5, 11, 1),
        (6, 13, 2),
        (7, 24, 3),
    ]
    lines = of.raw.decode().splitlines()
    assert lines[4][10:].startswith("there")
    assert lines[5][12:].startswith("words")
    assert lines[6][23:].startswith("away")


def test_the_schema_offers_the_implied_forms() -> None:
    schema = order_file_schema("T", "c", ("red",), ACTIONS, PLAIN)
    base = {"campaign": "c", "turn": 1, "faction": "red"}
    for orders in (
        ["hello there"],
        [{"army": "a1", "to": "ford"}],
        [{"army": "a1", "dig_in": True}],
        [{"action": "march", "army": "a1", "to": "ford"}],
    ):
        jsonschema.validate({**base, "orders": orders}, schema)
    for wrong in ([{"army": "a1"}], [{"army": "a1", "to": "ford", "dig_in": True}]):
        try:
            jsonschema.validate({**base, "orders": wrong}, schema)
        except jsonschema.ValidationError:
            continue
        raise AssertionError(f"the schema took {wrong}")
    plain = order_file_schema("T", "c", ("red",), PLAIN, PLAIN)
    try:
        jsonschema.validate({**base, "orders": ["hello there"]}, plain)
    except jsonschema.ValidationError:
        return
    raise AssertionError("a schema without a text action took plain text")
