from collections import Counter

import pytest

from resolver.core.dice import Dice, Expression, TurnSeed, roll_label
from resolver.core.rng import Stream, derive_key


def dice(digests=None, forced=None) -> Dice:
    return Dice(TurnSeed(7, 3, digests or {"red": "aa", "blue": "bb"}), forced or {})


def test_expression_grammar() -> None:
    e = Expression.parse("3d6+2")
    assert (e.count, e.sides, e.modifier) == (3, 6, 2)
    e = Expression.parse("d100!96")
    assert (e.count, e.sides, e.explode_at, e.explode_cap) == (1, 100, 96, None)
    e = Expression.parse("5d6s<=3")
    assert (e.success_cmp, e.success_value) == ("<=", 3)
    e = Expression.parse("1d10>=6")
    assert (e.target_cmp, e.target) == (">=", 6)
    e = Expression.parse("4d6!6^1@1")
    assert (e.explode_at, e.explode_cap, e.explode_first) == (6, 1, 1)
    assert Expression.parse("0d6+2").count == 0  # an empty pool (issue 10): nothing drawn, total 2
    for bad in ("d", "3x6", "d1", "d6!1", "2d6+", "hello", "3d6@1"):
        with pytest.raises(ValueError):
            Expression.parse(bad)


def test_sum_and_modifier_stay_in_range() -> None:
    d = dice()
    for i in range(200):
        r = d.roll(f"sum/{i}", "2d6+1")
        assert len(r.dice) == 2 and all(1 <= f <= 6 for f in r.dice)
        assert r.total == sum(r.dice) + 1


def test_target_number_decides_success() -> None:
    d = dice(forced={"a": [6], "b": [5]})
    assert d.roll("a", "1d10>=6").success is True
    assert d.roll("b", "1d10>=6").success is False


def test_success_counting_on_d6() -> None:
    r = dice(forced={"pool": [1, 3, 4, 6, 2]}).roll("pool", "5d6s<=3")
    assert r.total == 3  # 1, 3 and 2 succeed


def test_d100_explodes_on_96_to_100_and_chains() -> None:
    r = dice(forced={"x": [97, 98, 12]}).roll("x", "d100!96")
    assert r.total == 97 + 98 + 12
    # Drawn rolls explode while they show 96+: find one that did, and check the arithmetic.
    d = dice()
    exploded = [r for i in range(3000) if len((r := d.roll(f"e/{i}", "d100!96")).dice) > 1]
    assert exploded, "in 3000 rolls at 5% some must explode"
    for r in exploded:
        assert all(f >= 96 for f in r.dice[:-1]) and r.dice[-1] < 96 and r.total == sum(r.dice)


def test_explosion_cap_limits_extra_dice() -> None:
    d = dice()
    for i in range(2000):
        r = d.roll(f"c/{i}", "d6!6^1")
        assert len(r.dice) <= 2


def test_same_label_same_faces_and_labels_are_unique() -> None:
    assert dice().roll("t3/x", "4d6").dice == dice().roll("t3/x", "4d6").dice
    d = dice()
    d.roll("once", "d6")
    with pytest.raises(ValueError):
        d.roll("once", "d6")


def test_rolls_of_one_faction_ignore_other_factions_orders() -> None:
    before = dice({"red": "r1", "blue": "b1"}).roll("explore/red", "3d10", factions=["red"])
    after = dice({"red": "r1", "blue": "CHANGED"}).roll("explore/red", "3d10", factions=["red"])
    assert before.dice == after.dice
    shared_before = dice({"red": "r1", "blue": "b1"}).roll("battle", "6d10", factions=["red", "blue"])
    shared_after = dice({"red": "r1", "blue": "CHANGED"}).roll("battle", "6d10", factions=["red", "blue"])
    assert shared_before.dice != shared_after.dice


def test_turn_seed_covers_every_order_file() -> None:
    a = TurnSeed(7, 3, {"red": "r1", "blue": "b1"}).hex
    assert a != TurnSeed(7, 3, {"red": "r1", "blue": "b2"}).hex
    assert a != TurnSeed(7, 4, {"red": "r1", "blue": "b1"}).hex
    assert a != TurnSeed(8, 3, {"red": "r1", "blue": "b1"}).hex


def test_every_roll_is_logged_with_label_and_decision() -> None:
    d = dice(forced={"f": [2]})
    d.roll("f", "1d6", decided="who moves first")
    d.roll("g", "2d6")
    assert [r.label for r in d.log] == ["f", "g"]
    data = d.log[0].to_data()
    assert data == {
        "label": "f",
        "expr": "1d6",
        "dice": [2],
        "total": 2,
        "decided": "who moves first",
        "forced": True,
        "scope": [],
    }


def test_rejection_sampling_is_unbiased_enough() -> None:
    s = Stream(derive_key("bias"), "d6")
    counts = Counter(s.between(1, 6) for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(n - 10000) < 500 for n in counts.values()), counts


def test_roll_label_joins_stable_identities_canonically() -> None:
    assert roll_label("battle", "D4", "red", "order", 2) == "battle/D4/red/order/2"
    # The sides of a battle are a set: found in either order, they spell the same label.
    assert roll_label("battle", {"red", "blue"}, ["red-a2", "blue-a1"]) == "battle/blue+red/blue-a1+red-a2"
    assert roll_label("battle", ("blue", "red")) == roll_label("battle", ["red", "blue", "red"])
    # A label extends a label without being re-checked part by part.
    assert roll_label(roll_label("battle", "D4"), "r1", "u3", 1) == "battle/D4/r1/u3/1"


@pytest.mark.parametrize(
    "part",
    [1.0, float("nan"), True, None, "", "a/b", "a+b", "two words", "é", [], [["nested"]], {"k": 1.5}],
)
def test_roll_label_refuses_parts_that_are_not_plain_ids(part) -> None:
    with pytest.raises((TypeError, ValueError)):
        roll_label("battle", part)


def test_turn_context_takes_only_labels_built_by_the_helper() -> None:
    from resolver.engine.context import TurnContext

    ctx = TurnContext(game=None, turn=4, date=None, dice=dice(), orders={}, posting_order=[])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ctx.roll("battle1/red-a1", "1d10")  # type: ignore[arg-type]
    assert ctx.roll(roll_label("battle", "D4"), "1d10").label == "t4/battle/D4"
