"""Overlord's magic and enchantments (spec §7.1, §4.8): mana regeneration and the decay bands, meditation,
elements per level of magecraft, the seasons' bonuses, a targeted spell, and effects that wear off,
dilute, split and carry dissent."""

from __future__ import annotations

from resolver.core.programs import Result
from resolver.rulesets.overlord import effects, magic, production, stats

from .production_support import day_end, events, month, rules, run, unit


def mage(uid: str = "U1", **skills: float) -> dict:
    return unit(uid, race="ldr", skills={"mage": 30, **skills})


def month_of_changes(mana: int, maximum: int, days: int) -> list[int]:
    data, seen = rules(), []
    for day in range(1, days + 1):
        mana += magic.mana_change(data, mana, maximum, day)
        seen.append(mana)
    return seen


def test_below_the_maximum_a_mana_every_second_day() -> None:
    assert month_of_changes(0, 4, 10) == [0, 1, 1, 2, 2, 3, 3, 4, 4, 4]


def test_decay_above_the_maximum_by_bands_of_fifty_percent() -> None:
    assert month_of_changes(14, 10, 4) == [14, 13, 13, 12]  # 40 % over: 1 every 2 days
    assert month_of_changes(17, 10, 2) == [16, 15]  # 70 % over: 1 a day
    assert month_of_changes(22, 10, 2) == [21, 19]  # 120 % over: 3 every 2 days
    assert month_of_changes(27, 10, 2) == [25, 23]  # 170 % over: 2 a day
    assert month_of_changes(11, 10, 4) == [11, 10, 10, 10]  # never below the maximum


def test_the_maximum_is_the_sum_of_magic_levels() -> None:
    data = rules()
    assert stats.max_mana(data, mage(medi=15, eart=15, fert=15)) == 4  # the manual's example


def test_mana_day_moves_every_mage() -> None:
    m = month(
        {
            "U1": {**mage(eart=15), "mana": 0},
            "U2": {**mage(), "skills": {"mage": 90}, "mana": 3},
            "U3": unit("U3"),
        }
    )
    m.ctx.tick = 2
    magic.mana_day(m)
    # U1 regains one below its maximum of 2; U2 stands 50 % over its 2 and loses one a day.
    assert [m.state["units"][uid].get("mana", 0) for uid in ("U1", "U2", "U3")] == [1, 2, 0]


def test_meditation_turns_a_herb_into_a_mana_per_level_even_past_the_maximum() -> None:
    m = month({"U1": {**mage(medi=45), "mana": 2, "items": {"herb": 1}}})
    assert run(m, "U1", "@USE medi") == (Result.RAN, None)
    assert m.state["units"]["U1"]["mana"] == 4 and m.state["units"]["U1"]["items"] == {}
    assert run(m, "U1", "@USE medi")[0] is Result.SKIPPED  # no herbs left


def test_one_element_per_level_of_magecraft() -> None:
    data = rules()
    assert magic.element_refusal(data, mage(), "eart") == ""
    assert "magecraft" in magic.element_refusal(data, mage(eart=15), "fire")
    assert magic.element_refusal(data, mage(eart=15), "stsk") == ""  # a spell of its own element
    assert magic.element_refusal(data, {**mage(eart=15), "skills": {"mage": 90, "eart": 15}}, "fire") == ""


def test_the_seasons_element_and_void_in_storms_go_faster() -> None:
    data = rules()
    assert magic.season_percent(data, "stsk", "Spring", "fair") == 10
    assert magic.season_percent(data, "fire", "spring", "storm") == 0
    assert magic.season_percent(data, "void", "autumn", "storm") == 20
    assert magic.season_percent(data, "cmbt", "spring", "sun") == 0


def test_a_targeted_spell_needs_its_target_here_pays_mana_at_the_start_and_leaves_an_enchantment() -> None:
    m = month({"U1": {**mage(eart=15, stsk=15), "mana": 5}, "U2": unit("U2", figures=10)}, season="Winter")
    assert run(m, "U1", "TARGET U2") == (Result.FINISHED, None)
    m.state["units"]["U2"]["location"] = "L2"
    assert run(m, "U1", "USE stsk")[0] is Result.SKIPPED  # its target is away
    m.state["units"]["U2"]["location"] = "L1"
    for _ in range(2):
        assert run(m, "U1", "USE stsk")[0] is Result.CONTINUES
        day_end(m)
    assert m.state["units"]["U1"]["mana"] == 3  # paid once, on the first day (no regeneration above 3 of 3)
    assert run(m, "U1", "USE stsk") == (Result.FINISHED, None)
    assert m.state["units"]["U2"]["effects"] == {"stsk": 30}
    assert stats.unit_stats(m.rules, m.state["units"]["U2"])["defense"] == 2
    assert events(m, "spell_cast")[0]["spell"] == "stone skin"


def test_a_new_target_mid_casting_loses_half_the_days_and_the_mana_is_paid_again() -> None:
    m = month(
        {"U1": {**mage(eart=15, stsk=15), "mana": 6}, "U2": unit("U2"), "U3": unit("U3")}, season="Summer"
    )
    run(m, "U1", "TARGET U2")
    run(m, "U1", "USE stsk")
    run(m, "U1", "USE stsk")
    assert m.state["units"]["U1"]["progress"]["stsk"]["work"] == 2 and m.state["units"]["U1"]["mana"] == 4
    run(m, "U1", "TARGET U3")
    assert m.state["units"]["U1"]["progress"]["stsk"]["work"] == 1
    run(m, "U1", "USE stsk")
    assert (
        m.state["units"]["U1"]["mana"] == 2 and m.state["units"]["U1"]["progress"]["stsk"]["target"] == "U3"
    )


def test_fertility_on_the_place_speeds_its_live_harvests() -> None:
    m = month({"U1": {**mage(eart=15, fert=15), "mana": 3, "figures": 1}})
    for _ in range(5):
        run(m, "U1", "USE fert")
    assert m.state["places"]["L1"]["effects"] == {"fert": 30}
    assert production.harvest_percent(m.rules, m.state, "farm", "L1", "spring") == 120


def test_effects_wear_off_a_day_at_a_time_and_permanent_ones_never() -> None:
    data = rules()
    held = {"stsk": 2, "ward": 100000}
    assert effects.tick(data, held) == [] and held == {"stsk": 1, "ward": 100000}
    assert effects.tick(data, held) == ["stsk"] and held == {"ward": 100000}


def test_effects_dilute_on_merge_split_keeps_them_and_dissent_goes_with_the_figures() -> None:
    data = rules()
    target = {"figures": 10, "effects": {"stsk": 30}}
    effects.merge(data, {"effects": {}, "dissent": True}, target, 10)
    assert target["effects"] == {"stsk": 15} and target["dissent"] is True
    both = {"figures": 10, "effects": {"stsk": 30, "ward": 100000}}
    effects.merge(data, {"effects": {"stsk": 10, "ward": 100000}}, both, 30)
    assert both["effects"] == {"stsk": 15, "ward": 100000}
    new: dict = {}
    effects.split({"effects": {"stsk": 12}, "dissent": True}, new)
    assert new == {"effects": {"stsk": 12}, "dissent": True}


def test_the_day_end_tells_a_faction_its_enchantment_faded() -> None:
    m = month({"U1": {**unit("U1"), "effects": {"stsk": 1}}})
    effects.effects_day(m)
    assert m.state["units"]["U1"]["effects"] == {}
    assert events(m, "effect_ended")[0]["effect"] == "stone skin"
