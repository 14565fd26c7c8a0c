"""Numbers of the minimum core (spec §9.2) that no other module showed at work: the faction fund a new
faction starts with, the daily price of studying each costly skill, and the days each level takes.
``test_scope.CORE`` maps every number of §9.2 to the test that proves it; these are the ones it lacked."""

from __future__ import annotations

import copy

import pytest

from resolver.rulesets.overlord import learning, stats
from resolver.rulesets.overlord.learning import STUDIED

from .support import game, start
from .units_support import rules, unit


@pytest.mark.parametrize(("place", "fund"), [("colonial", 5000), ("border", 5500), ("imperial", 6000)])
def test_a_new_faction_s_fund_is_5000_and_1000_more_in_the_imperial_city_500_in_a_border_city(
    place: str, fund: int
) -> None:
    g = game()
    data = copy.deepcopy(g.rules)
    data["start"]["place"] = place
    state = start(game(rules=data))
    assert {f["fund"] for f in state["factions"].values() if f["kind"] == "player"} == {fund}


@pytest.mark.parametrize(
    ("tag", "coins"),
    [("cmbt", 1), ("lumb", 1), ("obse", 2), ("stea", 2), ("mage", 3), ("tact", 5), ("stra", 10)],
)
def test_a_day_of_study_costs_each_figure_what_the_skill_asks(tag: str, coins: int) -> None:
    r = rules()
    parents = {p: 1000 for p in stats.parents(r, tag)}
    figures = 1 if tag in ("mage", "tact", "stra") else 4  # magic, tactics and strategy: leaders
    race = "ldr" if figures == 1 else "man"
    student = unit(race=race, figures=figures, items={"coin": 10_000}, skills=dict(parents))
    day = learning.study_day(r, student, tag, None, fund=0, in_city=False)
    assert day.outcome == STUDIED and day.skill == tag
    assert day.cost == coins * figures and student["items"]["coin"] == 10_000 - coins * figures


@pytest.mark.parametrize(
    ("tag", "level", "days"),
    [
        ("lumb", 1, 15), ("cmbt", 1, 15), ("obse", 1, 30), ("fowk", 1, 30), ("swwk", 1, 30), ("ambu", 1, 30),
        ("stea", 1, 30), ("tact", 1, 30), ("cmbt", 2, 45), ("fana", 1, 45), ("stra", 1, 60), ("tact", 2, 90),
        ("tact", 3, 180), ("nobl", 1, 5), ("mage", 1, 30),
    ],
)  # fmt: skip
def test_each_level_takes_the_core_s_days_of_experience(tag: str, level: int, days: int) -> None:
    r = rules()
    assert stats.skill_level(r, unit(skills={tag: days - 1}), tag) == level - 1
    assert stats.skill_level(r, unit(skills={tag: days}), tag) == level
