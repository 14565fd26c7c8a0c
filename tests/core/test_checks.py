"""Issue 10 points 1–3: checks as rules data, the modifier ledger, dice pools and opposed rolls."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from resolver.core.checks import Check, Modifier, Pool, ledger_text, opposed, roll_pool
from resolver.core.dice import Dice, Roll, RollLabel, TurnSeed, roll_label
from resolver.core.rulesdoc import check_modifiers, check_table
from resolver.engine.ruleset import get_ruleset

TASK = {
    "dice": "2d6",
    "table": [
        {"up_to": 3, "result": "complete_failure"},
        {"up_to": 6, "result": "failure"},
        {"up_to": 9, "result": "success"},
        {"result": "complete_success"},
    ],
}
# The seasons ruleset's kind of check: WR d6, 1–3 succeeds, read the successes on a table.
RECRUITING = {
    "dice": "d6",
    "count": "WR",
    "read": "successes",
    "success": "<=3",
    "modifiers": {"winter": -2, "summer": 1},
    "table": [
        {"max": 0, "result": "nobody_comes"},
        {"face": 1, "result": "one_unit", "units": 1},
        {"min": 2, "result": "two_units", "units": 2},
    ],
}
# Usurper's d100: open-ended from 96, read in threshold bands.
D100 = {
    "dice": "1d100",
    "explode": {"at": 96},
    "table": [
        {"up_to": 25, "result": "complete_failure"},
        {"up_to": 49, "result": "partial_failure"},
        {"up_to": 74, "result": "partial_success"},
        {"up_to": 100, "result": "success"},
        {"result": "significant"},
    ],
}


class Context:
    """The part of the engine's turn context that a check uses: a labelled, logged roll."""

    def __init__(self, forced: dict[str, list[int]] | None = None) -> None:
        self.dice = Dice(TurnSeed(5, 1, {"red": "aa", "blue": "bb"}), forced or {})

    def roll(self, label: RollLabel, expr: str, *, factions: Iterable[str] = (), decided: str = "") -> Roll:
        return self.dice.roll(str(label), expr, factions=factions, decided=decided)


def test_task_check_sums_modifiers_reads_the_band_and_logs_the_ledger() -> None:
    ctx = Context({"red/l1/attack": [3, 4]})
    check = Check.parse("task", TASK)
    ledger = [Modifier("force", 3), Modifier("opposition", -2), Modifier("plan", 0), Modifier("stealth", -3)]
    result = check.roll(ctx, roll_label("red", "l1", "attack"), modifiers=ledger, decided="l1: attack")
    assert result.total == 3 + 4 + 3 - 2 - 3 == 5 and result.result == "failure"
    data = ctx.dice.log[0].to_data()
    assert data["expr"] == "2d6-2" and data["check"] == "task" and data["result"] == "failure"
    assert data["modifiers"] == [
        {"source": "force", "value": 3},
        {"source": "opposition", "value": -2},
        {"source": "plan", "value": 0},
        {"source": "stealth", "value": -3},
    ]
    assert data["decided"] == "l1: attack: failure"
    assert ledger_text(data) == "force +3, opposition −2, stealth −3"


def test_band_edges_and_totals_beyond_the_table() -> None:
    check = Check.parse("task", TASK)
    reads = [check.row(total).result for total in (-4, 3, 4, 6, 7, 9, 10, 30)]
    assert (
        reads
        == ["complete_failure", "complete_failure", "failure", "failure", "success", "success"]
        + ["complete_success"] * 2
    )
    exploration = Check.parse(
        "x", {"dice": "1d10", "table": [{"min": 1, "max": 4, "result": "a"}, {"min": 5, "result": "b"}]}
    )
    assert exploration.row(0).result == "a"  # below the first row: the first row


def test_success_counting_pool_from_a_stat_with_declared_modifiers() -> None:
    ctx = Context({"t/recruit": [1, 3, 4, 6, 2]})
    check = Check.parse("recruiting", RECRUITING)
    result = check.roll(ctx, roll_label("t", "recruit"), count=5, modifiers=[check.modifier("winter")])
    assert ctx.dice.log[0].expr == "5d6s<=3-2"
    assert result.total == 3 - 2 and result.result == "one_unit" and result.row.get("units") == 1
    with pytest.raises(ValueError, match="count"):
        check.roll(ctx, roll_label("t", "again"))  # the count comes from WR: the caller must give it
    with pytest.raises(ValueError, match="declares no modifier"):
        check.modifier("spring")


def test_open_ended_d100_chains_explosions() -> None:
    ctx = Context({"a": [97, 98, 12]})
    result = Check.parse("d100", D100).roll(ctx, roll_label("a"))
    assert result.total == 207 and result.result == "significant"
    # Drawn, not forced: each 96+ is rolled again; the faces stay in range.
    drawn = Context()
    for i in range(300):
        roll = roll_pool(drawn, roll_label("d", i), Pool(1, 100, explode_at=96))
        assert all(1 <= face <= 100 for face in roll.dice)
        assert all(face >= 96 for face in roll.dice[:-1]) and roll.dice[-1] < 96


def test_only_the_first_die_explodes_once_and_only_in_big_pools() -> None:
    pool = Pool(4, 6, explode_at=6, explode_times=1, explode_first=1, explode_from=3)
    ctx = Context({"p": [6, 6, 6, 6, 6]})
    roll = roll_pool(ctx, roll_label("p"), pool)
    assert roll.expr == "4d6!6^1@1" and roll.total == 30
    drawn = Context()
    for i in range(300):
        faces = roll_pool(drawn, roll_label("q", i), pool).dice
        # one extra face at most, and only straight after a first die of 6
        assert len(faces) == 4 or (len(faces) == 5 and faces[0] == 6)
    assert Pool(2, 6, explode_at=6, explode_first=1, explode_from=3).dice_expression(2) == "2d6"


def test_pools_below_one_die() -> None:
    ctx = Context({"sub": [4, 5]})
    empty = roll_pool(ctx, roll_label("none"), Pool(-1, modifiers=(Modifier("flat", 2),)))
    assert empty.dice == [] and empty.total == 2 and empty.expr == "0d6+2"
    subtract = Pool(-2, short="subtract", modifiers=(Modifier("armour", 12),))
    roll = roll_pool(ctx, roll_label("sub"), subtract)
    assert roll.total == 12 - 9 and roll.expr == "12-2d6"
    floored = Context({"sub": [6, 6]})
    assert roll_pool(floored, roll_label("sub"), Pool(-2, short="subtract")).total == 0


def test_opposed_pools_compare_and_name_their_rolls() -> None:
    ctx = Context({"b/attack": [5, 6], "b/defence": [4, 4, 3]})
    attack = Pool(2, modifiers=(Modifier("aggressor", 2),))
    result = opposed(ctx, roll_label("b"), [("attack", attack), ("defence", Pool(3))])
    assert (result.first.total, result.second.total, result.margin) == (13, 11, 2)
    assert result.first_wins()
    tie = opposed(Context({"c/a": [3], "c/d": [3]}), roll_label("c"), [("a", Pool(1)), ("d", Pool(1))])
    assert not tie.first_wins() and tie.first_wins(ties="first")
    with pytest.raises(ValueError):
        opposed(ctx, roll_label("x"), [("a", Pool(1)), ("a", Pool(1))])


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"dice": "2x6", "table": [{"result": "a"}]}, "dice"),
        ({"dice": "2d6", "table": []}, "table"),
        ({"dice": "2d6", "table": [{"up_to": 3}]}, "result"),
        ({"dice": "2d6", "table": [{"up_to": 3, "result": "a"}, {"min": 6, "result": "b"}]}, "gaps"),
        ({"dice": "2d6", "table": [{"result": "a"}, {"result": "b"}]}, "open above"),
        ({"dice": "2d6", "read": "successes", "table": [{"result": "a"}]}, "success"),
        ({"dice": "2d6", "count": "WR", "table": [{"result": "a"}]}, "not both"),
        ({"dice": "2d6", "short": "borrow", "table": [{"result": "a"}]}, "short"),
        ({"dice": "2d6", "read": "face", "table": [{"result": "a"}]}, "one die"),
    ],
)
def test_bad_check_data_is_refused_with_its_path(data: dict, problem: str) -> None:
    with pytest.raises(ValueError, match=problem) as refused:
        Check.parse("broken", data)
    assert "checks.broken" in str(refused.value)


def test_rules_page_table_comes_from_the_same_data() -> None:
    table = check_table(Check.parse("recruiting", RECRUITING), "Recruiting")
    assert table.columns == ("Successes", "Result", "Units")
    assert table.rows == (
        ("0 or less", "Nobody comes", "—"),
        ("1", "One unit", 1),
        ("2 or more", "Two units", 2),
    )
    assert check_modifiers(Check.parse("recruiting", RECRUITING)) == "-2 winter, +1 summer"
    assert (
        Check.parse("d100", D100).dice_text()
        == "1d100; each die showing 96 or more is rolled again and added"
    )


@pytest.mark.parametrize("ruleset", ["nations", "factions"])
def test_every_check_of_the_shipped_rules_parses(ruleset: str) -> None:
    rules = get_ruleset(ruleset).default_rules()
    assert rules["checks"]
    for check_id in rules["checks"]:
        assert Check.from_rules(rules, check_id).table


def test_a_ruleset_without_its_own_rules_words_still_shows_every_check_as_a_table() -> None:
    from resolver.core.rulesdoc import generic_sections

    sections = generic_sections({"checks": {"recruiting": RECRUITING}, "upkeep": {"gold": 1}})
    recruiting = sections[0]
    assert recruiting.title == "Recruiting" and recruiting.keys == ("checks.recruiting",)
    assert (
        recruiting.blocks[0]
        == "Roll WR d6, each die showing 3 or less counting as a success; modifiers: -2 winter, +1 summer."
    )
    assert recruiting.blocks[1] == check_table(Check.parse("recruiting", RECRUITING), "Recruiting")
    assert [s.title for s in sections] == ["Recruiting", "Upkeep"]
