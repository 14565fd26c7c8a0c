"""Goods and figures changing hands (spec §2.11, §4.9.8, §4.11): give, get, drop, equip, split, merge,
disband, as changes to the state."""

from __future__ import annotations

from resolver.rulesets.overlord import stats, transfers

from .units_support import rules, unit


def _state(*units: dict) -> dict:
    return {
        "factions": {
            "red": {"stances": {"default": "neutral"}},
            "blue": {"stances": {"default": "neutral", "red": "friendly"}},
            "green": {"stances": {"default": "hostile", "red": "ally"}},
        },
        "units": {u["id"]: u for u in units},
        "places": {"L1": {"population": 100, "ground": {"iron": 3}}},
    }


def _u(uid: str, **fields) -> dict:
    return {**unit(uid, **fields), "id": uid}


def test_counts_and_numbers_kept_read_as_the_manual_says() -> None:
    assert transfers.amount(30, None, None) == 30  # no count: everything
    assert transfers.amount(30, 0, 5) == 25  # GIVE U882 swrd 0 5: all but 5
    assert transfers.amount(30, 20, 15) == 15  # never below the number kept
    assert transfers.amount(3, 20, None) == 3
    assert transfers.amount(3, 0, 5) == 0


def test_gifts_need_the_receivers_friendly_stance() -> None:
    state, r = _state(), rules()
    assert transfers.accepts(state, r, "red", "red")
    assert transfers.accepts(state, r, "blue", "red") and transfers.accepts(state, r, "green", "red")
    assert not transfers.accepts(state, r, "red", "blue")


def test_giving_takes_unequipped_items_first() -> None:
    giver, taker = unit("U1", figures=5, items={"swrd": 5}, equipped={"swrd": 3}), unit("U2")
    transfers.hand_over(giver, taker, "swrd", 2)
    assert giver["items"] == {"swrd": 3} and giver["equipped"] == {"swrd": 3}
    transfers.hand_over(giver, taker, "swrd", 2)
    assert (
        giver["items"] == {"swrd": 1} and giver["equipped"] == {"swrd": 1} and taker["items"] == {"swrd": 4}
    )


def test_get_from_the_ground_and_drop_onto_it() -> None:
    state = _state(_u("U1", items={"wood": 2}))
    digger = state["units"]["U1"]
    transfers.take_from_ground(state, digger, "L1", "iron", 3)
    assert digger["items"]["iron"] == 3 and state["places"]["L1"]["ground"] == {}
    transfers.drop(state, digger, "wood", 2)
    assert state["places"]["L1"]["ground"] == {"wood": 2} and "wood" not in digger["items"]


def test_equip_needs_the_skill_and_clamps_to_the_category_limit() -> None:
    r = rules()
    men = unit(figures=20, items={"swrd": 30, "baxe": 10, "hrse": 5}, skills={"cmbt": 15})
    assert "1st blades" in transfers.equip_problem(r, men, "swrd")
    assert "not equipment" in transfers.equip_problem(r, men, "iron")
    men["skills"]["blde"] = 15
    assert transfers.equip(r, men, "baxe", None) == 10
    assert transfers.equip(r, men, "swrd", 25) == 10  # 20 figures may wear any mix of 20 weapons
    assert transfers.equip(r, men, "hrse", None) == 5
    assert transfers.equip(r, men, "baxe", 4) == 4 and transfers.equip(r, men, "swrd", None) == 16
    assert transfers.equip(r, men, "swrd", 0) == 0 and "swrd" not in men["equipped"]
    assert transfers.equip_problem(r, unit(skills={"cmbt": 1}), "leat") == ""  # a novice wears a jerkin


def test_split_moves_unequipped_figures_first_and_keeps_experience() -> None:
    r = rules()
    men = unit(figures=30, items={"swrd": 10, "coin": 50}, equipped={"swrd": 10}, skills={"cmbt": 20},
               effects={"ward": 9})  # fmt: skip
    part = transfers.split(r, men, 15, "U9")
    assert part["figures"] == 15 and men["figures"] == 15
    assert part["items"] == {} and men["items"] == {"swrd": 10, "coin": 50}
    more = transfers.split(r, men, 10, "U10")  # 5 unarmed figures left, then 5 with their swords
    assert more["items"] == {"swrd": 5} and more["equipped"] == {"swrd": 5}
    assert men["items"] == {"swrd": 5, "coin": 50} and men["equipped"] == {"swrd": 5}
    assert more["skills"] == {"cmbt": 20} and more["effects"] == {"ward": 9}


def test_merge_ten_at_second_combat_into_twenty_with_none_gives_first_combat() -> None:
    r = rules()
    veterans = unit("U1", figures=10, skills={"cmbt": 45}, items={"swrd": 3})
    recruits = unit("U2", figures=20)
    assert transfers.merge(r, veterans, recruits, 10) == []
    assert recruits["figures"] == 30 and recruits["skills"] == {"cmbt": 15}
    assert stats.skill_level(r, recruits, "cmbt") == 1
    assert veterans["figures"] == 0 and veterans["items"] == {"swrd": 3}  # a stockpile keeps the goods


def test_merge_with_everything_and_with_a_second_basic_skill() -> None:
    r = rules()
    woodsmen = unit("U1", figures=10, skills={"fore": 15, "lumb": 30, "cmbt": 15}, items={"wood": 4})
    miners = unit("U2", figures=10, skills={"digg": 30}, effects={"ward": 10})
    assert sorted(transfers.merge(r, woodsmen, miners, 0)) == ["fore", "lumb"]
    assert miners["skills"] == {"digg": 15, "cmbt": 7.5} and miners["items"] == {"wood": 4}
    assert miners["effects"] == {"ward": 5} and woodsmen["figures"] == 0
    scouts = unit("U3", figures=5, skills={"scou": 15, "cmbt": 15})
    fighters = unit("U4", figures=5, skills={"cmbt": 45})
    assert transfers.merge(r, scouts, fighters, 5) == []  # scouting and combat live together


def test_disband_returns_men_to_the_population_and_unstacks_those_beneath() -> None:
    r = rules()
    state = _state(_u("U1", race="ldr"), _u("U2", figures=12, stack="U1"), _u("U3", race="gobl", figures=4))
    assert transfers.disband(r, state, "U2") == 12 and state["places"]["L1"]["population"] == 112
    state["units"]["U4"] = _u("U4", stack="U1")
    assert transfers.disband(r, state, "U1") == 1 and state["units"]["U4"]["stack"] is None
    assert transfers.disband(r, state, "U3") == 0 and state["places"]["L1"]["population"] == 113
