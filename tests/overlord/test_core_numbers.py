"""Numbers of the minimum core (spec §9.2) that no other module showed at work: the faction fund a new
faction starts with, the daily price of studying each costly skill, the days each level takes, the
initiative of a parry and of a flyer, the hundred rounds that end any battle, and a storm at sea.
``test_scope.CORE`` maps every number of §9.2 to the test that proves it; these are the ones it lacked."""

from __future__ import annotations

import copy

import pytest
import yaml

from resolver.core.world import travel_days
from resolver.rulesets.overlord import learning, stats
from resolver.rulesets.overlord.battle import Fighter, fight
from resolver.rulesets.overlord.learning import STUDIED, Teaching

from .support import game, start
from .test_battle import RULES_FILE as BATTLE_RULES
from .test_battle import SURE_BLOWS, Dice, brutes, sheep
from .test_world import sample_world
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


# ---------------------------------------------------------------- combat: PARRY and flyers first, 100 rounds


def _combat() -> dict:
    return yaml.safe_load(BATTLE_RULES.read_text(encoding="utf-8"))


def _order_of_round_one(fighters: list[Fighter], data: dict) -> list[tuple[str, str]]:
    result = fight(fighters, data, Dice(force={**SURE_BLOWS, "*/morale": 1}), "t1/d1/L1/b9")
    return [(action["unit"], action["kind"]) for action in result.summaries[0].actions]


def test_a_parry_comes_two_initiative_earlier_and_a_flyer_strikes_two_earlier() -> None:
    data = _combat()
    assert (
        data["combat"]["actions"]["parry"]["initiative"] == 2 and data["combat"]["flying"]["initiative"] == 2
    )
    # A brute at initiative 1 strikes first against sheep at 0 and kills all three in its blow.
    assert _order_of_round_one([brutes(figures=3, initiative=1), sheep(figures=3, melee=5)], data) == [
        ("U10", "melee")
    ]
    # COMBAT PARRY: the sheep's parry at 0 + 2 comes before the brute's blow at 1.
    parrying = sheep(figures=3, melee=5, actions=("parry",))
    assert _order_of_round_one([brutes(figures=3, initiative=1), parrying], data)[0] == ("U20", "parry")
    # Flying sheep strike at 0 + 2, before the brute, and kill it first.
    flying = sheep(figures=3, melee=5, flying=True)
    assert _order_of_round_one([brutes(figures=3, initiative=1), flying], data) == [("U20", "melee")]


def test_a_battle_ends_after_its_hundredth_round_whatever_else() -> None:
    data = _combat()
    assert data["combat"]["max_rounds"] == 100
    tough = [brutes(figures=2, life=10_000), sheep(figures=2, melee=5, life=10_000)]
    result = fight(tough, data, Dice(force={**SURE_BLOWS, "*/morale": 1}), "t1/d1/L1/b9")
    assert (result.end, result.winner, result.rounds) == ("rounds", None, 100)


# ---------------------------------------------------------------- sailing weather


def test_wind_takes_a_quarter_and_a_storm_a_tenth_off_a_sailing_leg_rounded_up() -> None:
    world = sample_world()
    # The manual's coast-to-coast leg of 18 days (twice the 9 days' walk).
    days = {sky: travel_days(world, "L216", "L214", "sail", sky) for sky in ("fair", "wind", "storm", "rain")}
    assert days == {"fair": 18, "wind": 14, "storm": 17, "rain": 18}  # 13.5 and 16.2 rounded up


# ---------------------------------------------------------------- TEACH: fifty figures, no dilution beyond


def test_a_teacher_doubles_the_speed_of_a_unit_of_more_than_fifty_figures_undiluted() -> None:
    """House rule study.bonuses.teach_figures: the manual's pro-rating above fifty figures was not in its
    alpha server (spec §8.1 #10), so sixty followers taught learn as fast as ten."""
    r = rules()
    assert r["study"]["bonuses"]["teach_figures"] == 50
    for figures in (10, 50, 60):
        men = unit(figures=figures, items={"coin": 1000}, skills={"cmbt": 15})
        day = learning.study_day(r, men, "cmbt", None, fund=0, in_city=False, teacher=Teaching("U1", 3))
        assert day.outcome == STUDIED and day.taught and day.gained == 2, figures
