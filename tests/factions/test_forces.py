"""Force combination against the seed's table, row by row, straight from the code the resolver uses."""

from __future__ import annotations

import pytest

from resolver.rulesets.factions import RULESET
from resolver.rulesets.factions.tasks import band_of, best_force, combination_bonus

RULES = RULESET.default_rules()

# The table's first columns: how many assets act together, and the level they add.
INCREASES = [(2, 2), (3, 3), (4, 4), (5, 4), (6, 5), (7, 5), (8, 6)]

# Its other columns: which levels combine, the total, and how (in our notation).
COMBINATIONS = [
    ([1, 2], 3, "1 + 2 = 3"),
    ([2, 3], 4, "2 + 3 = 4"),
    ([3, 4], 5, "3 + 4 = 5"),
    ([1, 3], 3, "3"),  # 1 is not within one level of 3, so it does not combine
    ([1, 1, 3], 5, "(1 + 1) + 3 = 5"),
    ([1, 1, 2], 4, "1 + 1 + 2 = 4"),  # the seed's (1 + 1) + 2 gives the same 4
    ([1, 2, 3], 5, "(1 + 2) + 3 = 5"),
]


@pytest.mark.parametrize(("assets", "increase"), INCREASES)
def test_level_increase_by_number_of_assets(assets: int, increase: int) -> None:
    assert combination_bonus(RULES, assets) == increase
    assert best_force(RULES, [2] * assets).level == 2 + increase


def test_each_doubling_adds_two() -> None:
    assert [combination_bonus(RULES, n) for n in (1, 2, 4, 8, 16, 32)] == [0, 2, 4, 6, 8, 10]


@pytest.mark.parametrize(("levels", "total", "working"), COMBINATIONS)
def test_combinations_of_the_table(levels: list[int], total: int, working: str) -> None:
    group = best_force(RULES, levels)
    assert (group.level, group.working()) == (total, working)


def test_the_seeds_worked_examples() -> None:
    # Three level 3 units and a level 3 lieutenant: level 7.
    assert best_force(RULES, [3, 3, 3], lead=3).level == 7
    # Two level 2 units, a level 3 unit and a level 3 lieutenant: 2 for the lowest + 4 = 6.
    assert best_force(RULES, [2, 2, 3], lead=3).working() == "2 + 2 + 3 + 3 = 6"
    # Two level 1 units combine to 3, then join a level 3 lieutenant: 5.
    assert best_force(RULES, [1, 1], lead=3).working() == "(1 + 1) + 3 = 5"


def test_a_force_must_include_its_lieutenant() -> None:
    # Two level 3 units would make 5 on their own, but they cannot combine with a level 1 lieutenant.
    assert best_force(RULES, [3, 3], lead=1).level == 1
    assert best_force(RULES, [3, 3]).level == 5


def test_bands() -> None:
    assert [band_of(RULES, t) for t in (-2, 3, 4, 6, 7, 9, 10, 15)] == [
        "complete_failure",
        "complete_failure",
        "failure",
        "failure",
        "success",
        "success",
        "complete_success",
        "complete_success",
    ]


def test_house_rules_change_the_table() -> None:
    steeper = {**RULES, "forces": {**RULES["forces"], "per_doubling": 3}}
    assert best_force(steeper, [2, 2]).level == 5
    strict = {**RULES, "forces": {**RULES["forces"], "spread": 0}}
    assert best_force(strict, [1, 2]).working() == "2"
