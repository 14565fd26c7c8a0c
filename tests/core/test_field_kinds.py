"""Richer order fields: a nested order, a typed record and a reference to an id in the state.

Each is checked by the one field checker (positions and fixes), described by the JSON Schema editors
complete from, and put in words for the rules pages.
"""

from __future__ import annotations

from typing import Any

import jsonschema

from resolver.core.fields import ActionSpec, Field, FieldChecker, ids_in, kind_words
from resolver.core.orders import Expectation, order_file_schema, parse_order_file
from resolver.core.standing import StandingSection

STATE = {"armies": {"red-a1": {}, "red-a2": {}, "blue-a1": {}}, "factions": {"red": {}, "blue": {}}}
TARGET = Field("target", "ref", "The army to shadow.", required=True, ref="armies")
OTHERWISE = Field("otherwise", "order", "What to do instead.", inherits=("army",))
ESCORT = Field(
    "escort",
    "record",
    "Who guards the march.",
    fields=(
        Field("army", "text", "The escorting army.", required=True),
        Field("distance", "int", "How far behind.", default=1, minimum=0, maximum=3),
    ),
)
ACTIONS = {
    "march": ActionSpec(
        "march", "March.", (Field("army", "text", "The army.", required=True), ESCORT, OTHERWISE)
    ),
    "shadow": ActionSpec(
        "shadow", "Shadow an army.", (Field("army", "text", "The army.", required=True), TARGET, OTHERWISE)
    ),
    "hold": ActionSpec("hold", "Hold.", (Field("army", "text", "The army.", required=True),)),
}
POLICIES = StandingSection(
    "policies",
    "Standing policies.",
    (
        Field(
            "retreat_at_losses", "int", "Percent lost before breaking off.", default=0, minimum=0, maximum=100
        ),
    ),
)


def parse(text: str, standing: dict[str, StandingSection] | None = None, with_ids: bool = True):
    head = "campaign: c\nturn: 1\nfaction: red\n"
    return parse_order_file(
        (head + text).encode(),
        "orders/red.yaml",
        Expectation("c", 1, ("red", "blue")),
        ACTIONS,
        {},
        standing,
        ids_in(STATE) if with_ids else None,
    )


def messages(of: Any) -> list[str]:
    return [issue.format() for issue in of.issues]


def test_a_nested_order_is_checked_like_any_order_and_inherits_its_army() -> None:
    of = parse("orders:\n  - {action: march, army: '1', otherwise: {action: hold}}\n")
    assert of.ok, messages(of)
    assert of.orders[0]["otherwise"] == {"action": "hold", "army": "1"}


def test_a_nested_order_with_an_unknown_action_suggests_the_nearest() -> None:
    of = parse("orders:\n  - action: march\n    army: '1'\n    otherwise: {action: hlod}\n")
    (issue,) = of.errors
    assert issue.message == "unknown action 'hlod'" and "did you mean 'hold'?" in issue.hint
    assert (issue.line, issue.col) == (7, 25)
    assert of.orders == []  # an order with a bad backup is not carried out


def test_a_nested_order_may_not_hold_another_nor_change_what_it_inherits() -> None:
    twice = parse(
        "orders:\n  - action: march\n    army: '1'\n    otherwise:\n      action: shadow\n"
        "      target: red-a2\n      otherwise: {action: hold}\n"
    )
    assert any("one level deep only" in m for m in messages(twice))
    other_army = parse("orders:\n  - {action: march, army: '1', otherwise: {action: hold, army: '2'}}\n")
    (issue,) = other_army.errors
    assert issue.message == "'otherwise' takes 'army' from its order (1)"
    assert issue.hint == "leave 'army' out of 'otherwise'"


def test_a_record_checks_its_own_fields_with_positions() -> None:
    good = parse("orders:\n  - {action: march, army: '1', escort: {army: '2'}}\n")
    assert good.ok and good.orders[0]["escort"] == {"army": "2", "distance": 1}
    bad = parse(
        "orders:\n  - action: march\n    army: '1'\n    escort:\n      army: '2'\n      distanse: 2\n"
    )
    (issue,) = bad.errors
    assert issue.message == "'escort' has no field 'distanse'" and "did you mean 'distance'?" in issue.hint
    assert (issue.line, issue.col) == (9, 7)
    too_far = parse("orders:\n  - {action: march, army: '1', escort: {army: '2', distance: 9}}\n")
    assert [i.message for i in too_far.errors] == ["'distance' must be at most 3, got 9"]
    not_a_mapping = parse("orders:\n  - {action: march, army: '1', escort: '2'}\n")
    assert "'escort' must be a mapping with the fields: army, distance" in messages(not_a_mapping)[0]


def test_a_reference_names_an_id_the_state_holds_and_suggests_the_nearest() -> None:
    assert parse("orders:\n  - {action: shadow, army: '1', target: blue-a1}\n").ok
    of = parse("orders:\n  - {action: shadow, army: '1', target: blue-a2}\n")
    (issue,) = of.errors
    assert issue.message == "'target': there is no 'blue-a2' among the armies"
    assert issue.hint == "did you mean 'blue-a1'?"
    # Without the state (an editor's structural check) a reference is text, nothing more.
    assert parse("orders:\n  - {action: shadow, army: '1', target: blue-a2}\n", with_ids=False).ok


def test_standing_sections_are_read_beside_the_orders() -> None:
    of = parse("orders: []\npolicies: {retreat_at_losses: 50}\n", {"policies": POLICIES})
    assert of.ok and of.standing == {"policies": {"retreat_at_losses": 50}}
    assert "policies (standing until you change it): retreat_at_losses 50" in of.echo_lines()
    empty = parse("orders: []\npolicies:\n", {"policies": POLICIES})
    assert empty.standing == {"policies": {"retreat_at_losses": 0}}  # the defaults again
    bad = parse("orders: []\npolicies: {retreat_at_losses: 150}\n", {"policies": POLICIES})
    (issue,) = bad.errors
    assert issue.format().startswith("orders/red.yaml:5:31: error: 'retreat_at_losses' must be at most 100")
    assert bad.standing == {}
    unknown = parse("orders: []\npolicy: {}\n", {"policies": POLICIES})
    assert "did you mean 'policies'?" in unknown.errors[0].hint
    # A ruleset without standing sections refuses the key, as before.
    assert not parse("orders: []\npolicies: {}\n").ok


def test_the_schema_covers_nested_orders_records_references_and_standing_sections() -> None:
    schema = order_file_schema(
        "T", "c", ("red", "blue"), ACTIONS, {"hold": ACTIONS["hold"]}, {"policies": POLICIES}, ids_in(STATE)
    )
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    head = {"campaign": "c", "turn": 1, "faction": "red"}

    def errors(**doc: Any) -> list[str]:
        return [e.message for e in validator.iter_errors({**head, **doc})]

    assert not errors(
        orders=[
            {"action": "march", "army": "1", "escort": {"army": "2"}, "otherwise": {"action": "hold"}},
            {"action": "shadow", "army": "1", "target": "blue-a1"},
        ],
        policies={"retreat_at_losses": 50},
    )
    assert errors(orders=[{"action": "march", "army": "1", "otherwise": {"action": "fly"}}])
    assert errors(orders=[{"action": "march", "army": "1", "escort": {"distance": 1}}])  # army required
    assert errors(policies={"retreat_at_losses": 101})
    shadow = next(
        s for s in schema["else"]["properties"]["orders"]["items"]["oneOf"] if s["title"] == "shadow"
    )
    assert shadow["properties"]["target"]["examples"] == ["blue-a1", "red-a1", "red-a2"]  # for completion
    nested = schema["definitions"]["nested-order-army"]["oneOf"]
    assert all("army" not in s["required"] and "otherwise" not in s["properties"] for s in nested)


def test_the_rules_pages_name_each_kind_in_words() -> None:
    assert kind_words(TARGET) == "id of one of the armies"
    assert (
        kind_words(OTHERWISE)
        == "order: another action with its fields, taken instead; it takes army from its order"
    )
    assert kind_words(ESCORT) == "record of army (text), distance (int (from 0 to 3), optional)"


def test_the_checker_alone_reports_an_order_field_without_specs_as_a_mapping_check() -> None:
    from resolver.core.yamlsafe import Located

    checker = FieldChecker(Located({"otherwise": 3}), "f.yaml")
    values = checker.check_record("'x'", (OTHERWISE,), {"otherwise": 3}, (), None)
    assert (
        values == {} and checker.issues[0].message == "'otherwise' must be an order: 'action:' and its fields"
    )
