"""Overlord's order table (``language.py``): every order of the manual has a row and a valid example, and
a bad argument is refused at its column with the fix, in words."""

from __future__ import annotations

from typing import Any

import pytest

from resolver.core.programs import Timing, parse_line
from resolver.engine.ruleset import get_ruleset
from resolver.rulesets.overlord import language
from resolver.rulesets.overlord.language import Reading, Vocabulary, read

RULES = get_ruleset("overlord").default_rules()
KNOWN = Vocabulary.from_rules(RULES, ["red", "blue", "imperials", "citizens", "outlaws", "creatures"])

# Spec 2.11's reference, keyword by keyword, with its Time column (Half reads as immediate).
MANUAL_UNIT_ORDERS = {
    **dict.fromkeys(
        ["AT", "DAY", "HAVE", "LEADER", "LEADING", "SEE", "SIZE", "SKILL", "SYNCHRO", "WAIT"],
        Timing.CONDITION,
    ),
    **dict.fromkeys(
        ["ATTACK", "BUILD", "CLAIM", "PILLAGE", "STUDY", "TEACH", "USE", "WORK"], Timing.FULL_DAY
    ),
    **dict.fromkeys(["CARAVAN", "MARCH", "MOVE"], Timing.MOVEMENT),
    **dict.fromkeys(
        [
            "ACCEPT",
            "BESTOW",
            "BUY",
            "CANCEL",
            "CHRISTEN",
            "COMBAT",
            "DESCRIBE",
            "DISBAND",
            "DROP",
            "EJECT",
            "ENTER",
            "EQUIP",
            "EXIT",
            "FORGET",
            "GET",
            "GIVE",
            "GUARD",
            "PATROL",
            "LEAVE",
            "MERGE",
            "NAME",
            "OATH",
            "PROMOTE",
            "RECRUIT",
            "RETREAT",
            "SELL",
            "SETTING",
            "SPLIT",
            "STACK",
            "STANCE",
            "STAY",
            "SWAP",
            "TACTIC",
            "TARGET",
            "UNSTACK",
            "WITHDRAW",
            "YIELD",
        ],
        Timing.IMMEDIATE,
    ),
}
MANUAL_FACTION_ORDERS = {"EMAIL", "NAME", "PASSWORD", "RESIGN", "SETTING", "RESHOW"}


def reading(text: str, faction: bool = False) -> Reading:
    return read(parse_line(text), KNOWN, faction=faction)


def test_every_order_of_the_manual_has_a_row_with_its_timing() -> None:
    assert set(language.ORDERS) == set(MANUAL_UNIT_ORDERS)
    assert {k: o.timing for k, o in language.ORDERS.items()} == MANUAL_UNIT_ORDERS
    assert set(language.FACTION_TABLE) == MANUAL_FACTION_ORDERS
    for order in language.UNIT_ORDERS + language.FACTION_ORDERS:
        assert order.kind in (language.CONDITION, language.ONE_SHOT, language.SPECIAL, language.PLAIN)
        assert order.who in language.WHO
        assert order.summary and order.example.lstrip("@").startswith(order.keyword)


@pytest.mark.parametrize("order", language.UNIT_ORDERS, ids=lambda o: o.keyword)
def test_each_unit_order_reads_its_own_example(order: language.Order) -> None:
    got = reading(order.example)
    assert got.ok, got.problems
    assert got.order is order
    assert language.timing(parse_line(order.example)) is order.timing


@pytest.mark.parametrize("order", language.FACTION_ORDERS, ids=lambda o: o.keyword)
def test_each_faction_order_reads_its_own_example(order: language.Order) -> None:
    got = reading(order.example, faction=True)
    assert got.ok, got.problems


@pytest.mark.parametrize(
    ("text", "args"),
    [
        ("GIVE U5 swrd 20", {"unit": "U5", "item": "swrd", "count": 20, "kept": None}),
        ("give u5 SWRD 0 5", {"unit": "U5", "item": "swrd", "count": 0, "kept": 5}),
        ("GIVE rednU01 hrse", {"unit": "rednU01", "item": "hrse", "count": None, "kept": None}),
        (
            "GET U7 100 iron",
            {"source": "U7", "source_kind": "unit", "count": 100, "item": "iron", "left": None},
        ),
        (
            "GET L47 0 coin 50",
            {"source": "L47", "source_kind": "location", "count": 0, "item": "coin", "left": 50},
        ),
        (
            "GET U7 iron",
            {"source": "U7", "source_kind": "unit", "count": None, "item": "iron", "left": None},
        ),
        ("MOVE NorthEast", {"to": "NE", "to_kind": "direction"}),
        ("MOVE out", {"to": "Out", "to_kind": "direction"}),
        ("MOVE L216", {"to": "L216", "to_kind": "location"}),
        ("STANCE Blue enemy", {"faction": "blue", "stance": "enemy"}),
        (
            "TACTIC fight center middle charge",
            {"battle": "FIGHT", "rank": "MIDDLE", "file": "CENTER", "move": "CHARGE"},
        ),
        ("SKILL CMBT 2 LEVEL", {"skill": "cmbt", "count": 2, "measure": "LEVEL"}),
        ("SKILL cmbt 30 days", {"skill": "cmbt", "count": 30, "measure": "DAYS"}),
        (
            "TEACH U11 cmbt U12 blde U110 cmbt",
            {"pairs": (("U11", "cmbt"), ("U12", "blde"), ("U110", "cmbt"))},
        ),
        ("CARAVAN L1 L2 L3", {"stops": ("L1", "L2", "L3")}),
        ("COMBAT RANGED arch swrd", {"actions": ("RANGED", "arch", "swrd")}),
        ("NAME The Iron Guard", {"name": "The Iron Guard"}),
        ('DESCRIBE "Grim men"', {"text": "Grim men"}),
        ("DESCRIBE", {"text": None}),
        ("CLAIM shrf L12 free", {"title": "shrf", "location": "L12", "free": "FREE"}),
        ("RECRUIT rednU99 0 man 0", {"unit": "rednU99", "count": 0, "race": "man", "price": 0}),
        ("STACK", {"unit": None}),
        ("AT B3", {"place": "B3", "place_kind": "structure"}),
        (
            "BUILD buil fort 3",
            {
                "skill": "buil",
                "construction": "fort",
                "construction_kind": "structure_type",
                "new": None,
                "count": 3,
            },
        ),
        (
            "BUILD buil fort rednB01 3",
            {
                "skill": "buil",
                "construction": "fort",
                "construction_kind": "structure_type",
                "new": "rednB01",
                "count": 3,
            },
        ),
        (
            "BUILD buil rednB01",
            {
                "skill": "buil",
                "construction": "rednB01",
                "construction_kind": "structure",
                "new": None,
                "count": None,
            },
        ),
        ("BUILD buil 3", {"skill": "buil", "construction": None, "new": None, "count": 3}),
        ("WITHDRAW 500", {"count": 500, "item": None}),
        ("ATTACK blue", {"target": "blue", "target_kind": "faction"}),
    ],
)
def test_arguments_come_back_typed(text: str, args: dict[str, Any]) -> None:
    got = reading(text)
    assert got.ok, got.problems
    assert dict(got.args) == args


@pytest.mark.parametrize(
    ("text", "column", "problem", "fix"),
    [
        (
            "GIVE U5 sword 20",
            9,
            "'sword' is not an item tag",
            "did you mean 'swrd'? GIVE takes a unit, an item tag",
        ),
        (
            "GIVE U5",
            1,
            "GIVE needs an item tag",
            "GIVE takes a unit, an item tag and optionally a count and a number to keep: GIVE U5 swrd 20",
        ),
        ("GIVE U6 0 IRON 10", 9, "GIVE names the item before the count", "write GIVE U6 iron 0 10"),
        ("GIVE 206 swrd", 6, "'206' is a bare number", "write a unit with its U: U206"),
        ("GIVE U5 swrd -3", 14, "'-3' is not a whole number", "write the number in digits"),
        ("GIVE U5 swrd 1 2 3", 18, "'3' is one argument too many", "GIVE takes"),
        ("GIVE REDNU01 swrd", 6, "not written as a temporary id", "temporary ids keep their case: rednU01"),
        ("STUDDY cmbt", 1, "'STUDDY' is not an order", "did you mean 'STUDY'?"),
        ("-@D3 GIVE U5 sword", 14, "'sword' is not an item tag", "GIVE takes"),
        ("DAY 31", 5, "31 is out of range", "write a number from 1 to 30"),
        ("D31 GUARD", 1, "there is no day 31", "a month has 30 days"),
        (
            "STANCE blue CROSS",
            13,
            "'CROSS' is not one of ALLY, FRIENDLY, NEUTRAL, HOSTILE, ENEMY",
            "STANCE takes",
        ),
        ("TACTIC FIGHT FRONT UP ADVANCE", 20, "'UP' is not one of LEFT, CENTER, RIGHT", "TACTIC takes"),
        ("TEACH U11 cmbt U12", 16, "in pairs", "TEACH takes one or more pairs"),
        ("TEACH U11 U12 cmbt blde", 11, "'U12' is not a skill tag", "TEACH takes"),
        ("CARAVAN L1", 1, "CARAVAN needs two or more locations", "CARAVAN L12 L13 L20"),
        ("MOVE NNE", 6, "'NNE' is not a direction or a location", "MOVE takes a direction or a location"),
        ("SETTING TERSE ON", 9, "TERSE is a faction setting", "give it among the faction's orders"),
        ("DISBAND", 1, "DISBAND needs the word CONFIRM", "DISBAND CONFIRM"),
        ("SPLIT U7 10", 7, "'U7' is not a new unit's temporary id", "SPLIT rednU02 10"),
        ("RECRUIT rednU100 1 ldr 0", 9, "'rednU100' is not a unit", "RECRUIT takes"),
        ("UNIT U5", 1, "UNIT is not written among a unit's orders", "unit action's 'unit:' field"),
        ("RESIGN red", 1, "RESIGN is an order for the faction", "write it in the faction's action"),
        ("HAVE food 0", 11, "0 is out of range", "write a number 1 or more"),
    ],
)
def test_a_bad_argument_is_refused_at_its_column_with_the_fix(
    text: str, column: int, problem: str, fix: str
) -> None:
    got = reading(text)
    assert not got.ok
    first = got.problems[0]
    assert first.column == column, first
    assert problem in first.problem, first
    assert fix in first.fix, first


def test_faction_orders_are_read_as_the_factions() -> None:
    assert reading('NAME "The Empire"', faction=True).args == {"name": "The Empire"}
    assert reading("SETTING terse on", faction=True).args == {"setting": "TERSE", "switch": "ON"}
    assert reading("RESIGN Imperials", faction=True).args == {"faction": "imperials"}
    refused = reading("RESIGN blue", faction=True).problems[0]
    assert (
        "cannot take a faction's units" in refused.problem and "imperials, citizens, outlaws" in refused.fix
    )
    assert "takes no prefixes" in reading("@SETTING TERSE ON", faction=True).problems[0].problem
    assert "changes nothing here" in reading("PASSWORD hunter2", faction=True).notes[0]
    assert (
        reading("RESHOW ALL", faction=True).ok
        and reading("RESHOW give", faction=True).args["topic"] == "GIVE"
    )
    assert "an order for a unit" in reading("STUDY cmbt", faction=True).problems[0].problem


def test_what_a_line_carries_in_vain_is_noted_not_refused() -> None:
    for text, words in [
        ("@HAVE food 5", "'@' changes nothing on HAVE"),
        ("5 NAME Bob", "the 5 days change nothing on NAME"),
        ("3 MOVE N", "a journey lasts as long as it takes"),
        ("EXIT B220", "EXIT takes no argument: 'B220' is ignored"),
        ("YIELD shrf", "YIELD takes no argument"),
    ]:
        got = reading(text)
        assert got.ok, got.problems
        assert any(words in note for note in got.notes), got.notes
    assert reading("@MOVE NE").notes == ()  # '@' keeps moving the same way: it means something there


def test_who_may_give_an_order() -> None:
    orders = language.ORDERS
    assert language.may_give(orders["BUY"], "hero") and not language.may_give(orders["BUY"], "follower")
    assert language.may_give(orders["MERGE"], "creature") and not language.may_give(orders["MERGE"], "leader")
    assert not language.may_give(orders["STUDY"], "creature") and language.may_give(
        orders["MOVE"], "creature"
    )
    assert language.WHO[orders["RECRUIT"].who] == "leaders and heroes"


def test_the_language_chapter_explains_each_choice_in_a_house_rule() -> None:
    rules = {note["rule"] for note in RULES["house_rules"]}
    chosen = "give_count_first tactic.aliases ignored_argument skill_measure_default teach_pairs"
    for path in f"{chosen} immediate_once_per bare_unit_numbers inert_faction_orders resign_to".split():
        assert f"language.{path}" in rules


def test_the_order_file_check_reads_each_line_against_the_table_at_file_line_col() -> None:
    from resolver.engine.validate import check_order_file

    from .support import game, start, unit_of

    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    raw = (
        f"campaign: overlord-test\nturn: 1\nfaction: red\norders:\n  - action: unit\n    unit: {hero}\n"
        "    orders:\n      - GIVE U5 sword 2\n      - TACTIC FIGHT FRONT CENTER ADVANCE\n"
        "      - SETTING SILENT MAYBE\n"
    ).encode()
    of = check_order_file(g, state, raw, "orders/red.yaml")
    found = [(issue.line, issue.col, issue.message) for issue in of.errors]
    assert found == [
        (8, 17, "'sword' is not an item tag"),
        (10, 24, "'MAYBE' is not one of ON, OFF"),
    ]
    assert "did you mean 'swrd'?" in of.errors[0].hint
