"""Control points: the manual's examples, titles' bonuses, the day-1 check and the battle refusal."""

from __future__ import annotations

from resolver.rulesets.overlord import control

from .titles_support import Ctx, hold, rules, state, unit


def test_the_manuals_examples() -> None:
    r = rules()
    assert control.unit_cost(r, unit("red", "C1", race="ldr")) == 1
    assert control.unit_cost(r, unit("red", "C1", race="man", figures=20)) == 1
    assert control.unit_cost(r, unit("red", "C1", race="gobl", figures=21)) == 2
    # A hero with seven levels of magic skills (maximum mana 7): 1 + 1 + 2.
    mage = unit("red", "C1", race="hero", skills={"mage": 90, "fire": 45, "eart": 45, "medi": 15})
    assert control.max_mana(r, mage) == 7
    assert control.unit_cost(r, mage) == 4
    assert control.unit_cost(r, unit("red", "C1", race="man", figures=0)) == 0  # a stockpile


def test_available_points_add_the_titles_tiers() -> None:
    r = rules()
    st = state(U1=unit("red", "C1"), U2=unit("red", "K1"))
    assert control.available(st, r, "red") == 200
    hold(st, "C1", "U1")  # Mayor: minor
    hold(st, "K1", "U2")  # Baron: standard
    assert control.available(st, r, "red") == 200 + 5 + 10
    assert control.available(st, r, "blue") == 200


def over_by(missing: int) -> dict:
    """Red with one unit per point: 200 leaders cost 200, and each extra one puts red a point over."""
    return state(**{f"U{i}": unit("red", "C1") for i in range(200 + missing)})


def test_day_one_check_idles_each_unit_with_missing_percent() -> None:
    r, st = rules(), over_by(3)
    assert control.missing(st, r, "red") == 3
    forced = {f"control/U{i}": 50 for i in range(203)}
    forced["control/U7"] = 3  # 3 or less: refuses
    forced["control/U8"] = 4
    ctx = Ctx(forced=forced)
    assert control.control_check(ctx, st, r) == {"red": ["U7"]}
    assert st["units"]["U7"]["idle"] and not st["units"]["U8"]["idle"]
    kind, data = ctx.events[0]
    assert kind == "control_exceeded" and data["visible_to"] == ["red"] and data["missing"] == 3
    control.clear_idle(st)
    assert not st["units"]["U7"]["idle"]


def test_no_check_within_bounds() -> None:
    r, st = rules(), over_by(0)
    ctx = Ctx()
    assert control.control_check(ctx, st, r) == {} and ctx.rolled == [] and ctx.events == []


def test_battle_refusal_is_five_times_missing_and_never_for_the_target() -> None:
    r, st = rules(), over_by(4)
    ctx = Ctx(forced={"battle-refusal/b1/U1": 20, "battle-refusal/b1/U2": 21})
    assert control.refuses_battle(ctx, st, r, "b1", "U1", targeted=False)
    assert not control.refuses_battle(ctx, st, r, "b1", "U2", targeted=False)
    assert not control.refuses_battle(ctx, st, r, "b1", "U3", targeted=True)
    assert ctx.rolled == ["battle-refusal/b1/U1", "battle-refusal/b1/U2"]
