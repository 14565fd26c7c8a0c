"""Study, teaching and forgetting (spec §4.9.3-§4.9.8, §9.2 Study): costs, limits, bonuses, spill."""

from __future__ import annotations

import pytest

from resolver.rulesets.overlord import learning, stats
from resolver.rulesets.overlord.learning import NEVER, REACHED, STUDIED, WAITING, Teaching

from .units_support import rules, unit


def test_fifty_men_studying_combat_pay_fifty_coins_a_day() -> None:
    r = rules()
    men = unit(figures=50, items={"coin": 120})
    day = learning.study_day(r, men, "cmbt", None, fund=0, in_city=False)
    assert (day.outcome, day.cost, day.from_fund, day.gained) == (STUDIED, 50, 0, 1)
    assert men["items"]["coin"] == 70 and men["skills"]["cmbt"] == 1


def test_the_fund_pays_what_is_missing_only_in_a_city() -> None:
    r = rules()
    men = unit(figures=50, items={"coin": 20})
    away = learning.study_day(r, men, "cmbt", None, fund=5000, in_city=False)
    assert away.outcome == WAITING and men["items"]["coin"] == 20 and not men["skills"]
    home = learning.study_day(r, men, "cmbt", None, fund=5000, in_city=True)
    assert (home.outcome, home.from_fund) == (STUDIED, 30) and "coin" not in men["items"]
    broke = learning.study_day(r, unit(figures=50), "cmbt", None, fund=10, in_city=True)
    assert broke.outcome == WAITING


def test_stacked_under_a_knowing_leader_in_a_teaching_place_and_taught_is_260_percent() -> None:
    r = rules()
    student = unit("U2", race="ldr", items={"coin": 10}, skills={"cmbt": 15})
    leader = unit("U1", race="hero", skills={"cmbt": 90, "blde": 90})
    day = learning.study_day(
        r, student, "blde", 2, fund=0, in_city=False, leaders_above=[leader],
        teaching_place={"blde": 1}, teacher=Teaching("U1", 3),
    )  # fmt: skip
    assert day.speed == 260 and day.gained == 2.6 and day.taught
    assert student["skills"]["blde"] == 2.6
    assert student["skills"]["cmbt"] == 15.26  # 10 % of the days gained spill to the skill below


def test_a_leader_bonus_only_when_the_leader_knows_the_skill_better() -> None:
    r = rules()
    leader = unit("U1", race="hero", skills={"cmbt": 10})
    student = unit("U2", skills={"cmbt": 10}, items={"coin": 5})
    up = [leader]
    assert learning.study_day(r, student, "cmbt", None, fund=0, in_city=False, leaders_above=up).speed == 100
    student["skills"]["cmbt"] = 5
    assert learning.study_day(r, student, "cmbt", None, fund=0, in_city=False, leaders_above=up).speed == 110


def test_study_toward_a_level_stops_there_and_announces_it() -> None:
    r = rules()
    men = unit(figures=2, items={"coin": 100}, skills={"cmbt": 14})
    day = learning.study_day(r, men, "cmbt", 1, fund=0, in_city=False)
    assert (day.outcome, day.level_before, day.level_after) == (REACHED, 0, 1)
    assert learning.study_day(r, men, "cmbt", 1, fund=0, in_city=False).outcome == REACHED
    assert men["items"]["coin"] == 98  # the second day costs nothing: the goal was already met


def test_missing_prerequisites_are_studied_first_and_teachers_do_not_help_with_them() -> None:
    r = rules()
    leader = unit(race="ldr", items={"coin": 100})
    day = learning.study_day(r, leader, "blde", 1, fund=0, in_city=False, teacher=Teaching("U9", 3))
    assert (day.outcome, day.skill, day.taught, day.speed) == (STUDIED, "cmbt", False, 100)
    assert leader["skills"] == {"cmbt": 1}


@pytest.mark.parametrize(
    ("race", "tag", "days", "limit"),
    [
        ("man", "lumb", 15, 1), ("man", "cmbt", 45, 2), ("ldr", "lumb", 45, 2), ("ldr", "cmbt", 90, 3),
        ("hero", "cmbt", 150, 4), ("ldr", "mage", 30, 1), ("hero", "lumb", 45, 2),
    ],
)  # fmt: skip
def test_limits_by_unit_type(race: str, tag: str, days: int, limit: int) -> None:
    r = rules()
    parents = {p: 1000 for p in stats.parents(r, tag)}
    below = unit(race=race, items={"coin": 1000}, skills={**parents, tag: days - 1})
    assert learning.study_day(r, below, tag, None, fund=0, in_city=False).outcome == STUDIED
    at = unit(race=race, items={"coin": 1000}, skills={**parents, tag: days})
    assert stats.skill_level(r, at, tag) == limit
    day = learning.study_day(r, at, tag, None, fund=0, in_city=False)
    assert day.outcome == NEVER and "as far as study takes" in day.reason


def test_a_teacher_takes_a_small_unit_past_its_limit_but_not_a_big_one() -> None:
    r = rules()
    teacher = Teaching("U1", 3)
    few = unit(figures=10, items={"coin": 100}, skills={"fore": 15, "lumb": 15})
    day = learning.study_day(r, few, "lumb", 2, fund=0, in_city=False, teacher=teacher)
    assert day.outcome == STUDIED and day.taught and day.gained == 2
    many = unit(figures=11, items={"coin": 100}, skills={"fore": 15, "lumb": 15})
    assert learning.study_day(r, many, "lumb", 2, fund=0, in_city=False, teacher=teacher).outcome == NEVER
    # magic stops at 2nd even when taught
    mage = unit(race="ldr", items={"coin": 1000}, skills={"mage": 90})
    taught = learning.study_day(r, mage, "mage", 3, fund=0, in_city=False, teacher=Teaching("U1", 4))
    assert taught.outcome == NEVER


def test_what_can_never_be_studied() -> None:
    r = rules()
    cases = [
        (unit(race="gobl", figures=5), "cmbt", "creatures never study"),
        (unit(race="ldr"), "grop", "talent"),
        (unit(figures=5), "tact", "only leaders and heroes"),
        (unit(figures=5, skills={"fore": 15}), "digg", "one basic skill besides combat"),
    ]
    for who, tag, words in cases:
        day = learning.study_day(r, who, tag, None, fund=100, in_city=True)
        assert day.outcome == NEVER and words in day.reason, tag
    # combat next to a basic craft is allowed; scouts stop at 1st combat
    assert learning.study_day(r, unit(skills={"fore": 15}, items={"coin": 5}), "cmbt", None, fund=0,
                              in_city=False).outcome == STUDIED  # fmt: skip
    scout = unit(skills={"scou": 15, "cmbt": 15}, items={"coin": 5})
    assert learning.own_limit(r, scout, "cmbt") == 1
    assert learning.study_day(r, scout, "cmbt", None, fund=0, in_city=False).outcome == NEVER


def test_a_specialist_skill_waits_for_a_teacher_or_a_place_that_teaches_it() -> None:
    r = rules()
    noble = unit(race="hero", items={"coin": 1000}, skills={"cmbt": 1000, "tact": 1000, "stra": 60})
    assert learning.study_day(r, noble, "nobl", None, fund=0, in_city=False).outcome == WAITING
    day = learning.study_day(r, noble, "nobl", None, fund=0, in_city=False, teaching_place={"nobl": 1})
    assert day.outcome == STUDIED and day.cost == 100 and day.speed == 120


def test_teaching_needs_a_leader_with_a_higher_level() -> None:
    r = rules()
    teacher = unit("U1", race="ldr", skills={"cmbt": 45})
    assert learning.can_teach(r, teacher, unit("U2", skills={"cmbt": 15}), "cmbt") == ""
    assert "higher level" in learning.can_teach(r, teacher, unit("U2", skills={"cmbt": 45}), "cmbt")
    assert "only leaders" in learning.can_teach(r, unit("U3", skills={"cmbt": 90}), unit("U2"), "cmbt")


def test_forget_removes_the_skill_and_its_dependants() -> None:
    r = rules()
    known = {"cmbt": 100, "blde": 20, "tact": 30, "scou": 15, "mane": 15, "cavm": 3}
    fighter = unit(race="ldr", skills=known)
    assert learning.forget(r, fighter, "cmbt") == ["cmbt", "blde", "mane", "cavm", "tact"]
    assert fighter["skills"] == {"scou": 15}
    assert learning.forget(r, fighter, "lumb") == []
