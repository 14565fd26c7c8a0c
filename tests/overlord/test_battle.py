"""Battles on the grid (spec §7.3): the manual's numbers, the ways a battle ends, the rout, loot, heroes,
determinism of the labelled dice, and who joins a battle."""

from __future__ import annotations

import hashlib
from fnmatch import fnmatch
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.rulesets.overlord import grid, strikes
from resolver.rulesets.overlord.battle import Fighter, Tactic, fight, title_heir
from resolver.rulesets.overlord.engagement import Presence, Trigger, engage

RULES_FILE = Path(__file__).parents[2] / "resolver/rulesets/overlord/rules/combat.yaml"


@pytest.fixture(scope="module")
def rules() -> dict[str, Any]:
    return yaml.safe_load(RULES_FILE.read_text())


class Dice:
    """A fake labelled die: a hash of a seed and the label, unless a pattern forces the face."""

    def __init__(self, seed: int = 0, force: dict[str, int] | None = None) -> None:
        self.seed, self.force = seed, force or {}
        self.log: list[tuple[str, int, int]] = []

    def __call__(self, label: str, sides: int) -> int:
        face = None
        for pattern, value in self.force.items():
            if fnmatch(label, pattern):
                face = max(1, min(sides, value))
                break
        if face is None:
            digest = hashlib.sha256(f"{self.seed}:{label}".encode()).digest()
            face = int.from_bytes(digest[:8], "big") % sides + 1
        self.log.append((label, sides, face))
        return face


# -- the manual's numbers ---------------------------------------------------------------------------------


def test_six_against_four_hits_three_times_in_four() -> None:
    assert strikes.reduced(6, 4) == (3, 1)
    assert strikes.hit_odds(6, 4) == Fraction(3, 4)


def test_two_against_seven_is_odds_of_one_to_six_so_one_in_seven() -> None:
    # The manual prints "16 %" (1/6); the reduction gives odds 1 : 6, and we read odds as A'/(A'+D').
    assert strikes.reduced(2, 7) == (1, 6)
    assert strikes.hit_odds(2, 7) == Fraction(1, 7)


def test_zero_attack_misses_and_zero_defense_is_always_hit() -> None:
    assert strikes.hit_odds(0, 5) == 0
    assert strikes.hit_odds(3, 0) == 1


def test_missile_defense_is_a_third_rounded_down(rules: dict[str, Any]) -> None:
    combat = rules["combat"]
    assert strikes.missile_defense(combat, 3) == 1
    assert strikes.missile_defense(combat, 8) == 2
    assert strikes.missile_defense(combat, 2) == 0


def test_strike_deadly_and_dodge_chances(rules: dict[str, Any]) -> None:
    combat = rules["combat"]
    assert strikes.strike_chance(combat, 0) == 40
    assert strikes.strike_chance(combat, 5) == 60
    assert strikes.deadly_chance(combat, 2) == 60
    assert strikes.dodge_chance(combat, stealth=4, observation=1) == 30
    assert strikes.dodge_chance(combat, stealth=1, observation=4) == 0
    assert strikes.flying_modifiers(combat, True, False, missile=False) == (1, 0)
    assert strikes.flying_modifiers(combat, False, True, missile=False) == (0, 5)
    assert strikes.flying_modifiers(combat, False, True, missile=True) == (0, 2)


def test_the_grid_has_six_ranks_with_the_two_fronts_facing() -> None:
    assert grid.place("attackers", "front", "left") == (2, 0)
    assert grid.place("defenders", "front", "left") == (3, 2)  # they face each other: left meets right
    assert grid.place("defenders", "rear", "right") == (5, 0)
    assert grid.place("attackers", "center", "middle") == (1, 1)  # the other passage's names
    assert grid.distance((2, 0), (3, 1)) == 2  # a diagonal square is two away


# -- battles ----------------------------------------------------------------------------------------------

SURE_BLOWS = {"*/strike": 1, "*/hit": 1, "*/deadly": 1, "*/dodge": 100, "*/heal": 1}


def brutes(figures: int = 3, **extra: Any) -> Fighter:
    stats = {"melee": 5, "defense": 5, "base_combat": 2, **extra}
    return Fighter("U10", "red", "attackers", figures, **stats)


def sheep(unit: str = "U20", figures: int = 10, **extra: Any) -> Fighter:
    return Fighter(unit, "blue", "defenders", figures, **{"melee": 0, "defense": 1, **extra})


def test_a_side_that_loses_half_and_fails_morale_breaks_then_routs(rules: dict[str, Any]) -> None:
    dice = Dice(force={**SURE_BLOWS, "*/morale": 100, "*/forgets-parry": 100})
    result = fight([brutes(), sheep()], rules, dice, "t1/d4/L7/b1")
    # 3 a round die: 30 % after round 1, 60 % after round 2, when the morale roll of 100 fails.
    assert (result.end, result.winner, result.rounds) == ("morale", "attackers", 3)
    rout = result.summaries[-1]
    assert rout.rout and not result.summaries[0].rout
    assert {"kind": "parry", "unit": "U20"} in rout.actions  # the beaten side only parries
    assert result.units["U20"].routed and result.units["U20"].figures_lost == 9
    assert [label for label, _, _ in dice.log if label.endswith("/morale")] == [
        "t1/d4/L7/b1/r2/defenders/morale"
    ]


def test_a_passing_morale_check_keeps_the_side_fighting_to_the_last(rules: dict[str, Any]) -> None:
    dice = Dice(force={**SURE_BLOWS, "*/morale": 1})
    result = fight([brutes(), sheep()], rules, dice, "t1/d4/L7/b1")
    assert (result.end, result.winner) == ("wiped", "attackers")
    assert result.units["U20"].destroyed and result.rounds == 4


def test_five_rounds_without_a_blow_end_in_a_draw(rules: dict[str, Any]) -> None:
    unarmed = Fighter("U10", "red", "attackers", 4, melee=0, defense=2)
    result = fight([unarmed, sheep()], rules, Dice(seed=3), "t1/d4/L7/b2")
    assert (result.end, result.winner, result.rounds) == ("quiet", None, rules["combat"]["quiet_rounds"])
    assert result.loot == [] and not any(summary.rout for summary in result.summaries)
    assert result.units["U10"].experience == {"cmbt": 5 * rules["combat"]["experience"]["novice_per_round"]}


def test_rout_negates_stealth_so_the_hidden_are_struck_first(rules: dict[str, Any]) -> None:
    hidden = sheep("U21", figures=5, stealth=3)
    plain = sheep("U22", figures=5)
    dice = Dice(force={**SURE_BLOWS, "*/morale": 100, "*/forgets-parry": 1})
    result = fight([brutes(), hidden, plain], rules, dice, "t2/d9/L3/b1")
    first = next(action for action in result.summaries[0].actions if action["kind"] == "melee")
    assert first["targets"] == ["U22"]  # stealth 0 before stealth 3
    rout = result.summaries[-1]
    assert rout.rout
    struck = next(action for action in rout.actions if action["kind"] == "melee" and action["unit"] == "U10")
    assert struck["targets"][0] == "U21"  # stealth -3 now comes first
    assert {"kind": "forgets_parry", "unit": "U21"} in rout.terse()


def test_loot_goes_half_to_winners_that_can_carry_it(rules: dict[str, Any]) -> None:
    laden = Fighter(
        "U11",
        "red",
        "attackers",
        1,
        melee=0,
        defense=9,
        load=100,
        capacity=100,
        tactic=Tactic(rank="rear", move="stand"),
    )
    strong = brutes(load=50, capacity=200)
    victim = sheep(figures=2, items={"swrd": 5, "coin": 301})
    dice = Dice(force={**SURE_BLOWS, "*/morale": 1})
    result = fight([strong, laden, victim], rules, dice, "t1/d2/L1/b1", weights={"swrd": 4})
    lots = {(lot.item, lot.count, lot.receiver) for lot in result.loot}
    swords = [lot for lot in result.loot if lot.item == "swrd"]
    assert swords and swords[0].count == 2 and swords[0].receiver == "U10"  # U11 has no room for 8 weight
    assert ("coin", 150) in {(item, count) for item, count, _ in lots}


def test_a_draw_leaves_no_loot_and_no_rout(rules: dict[str, Any]) -> None:
    result = fight(
        [Fighter("U1", "red", "attackers", 1), Fighter("U2", "blue", "defenders", 1)],
        rules,
        Dice(force={"*/strike": 100}),
        "t1/d1/L1/b1",
    )
    assert result.winner is None and result.loot == []


@pytest.mark.parametrize(("face", "promoted"), [(30, True), (31, False)])
def test_a_leader_becomes_a_hero_by_his_best_factor(rules: dict[str, Any], face: int, promoted: bool) -> None:
    leader = Fighter(
        "U12", "red", "attackers", 1, melee=30, missile=4, initiative=7, defense=9, race="ldr", base_combat=2
    )
    dice = Dice(force={**SURE_BLOWS, "*/morale": 1, "*/U12/hero": face})
    result = fight([leader, sheep(figures=1)], rules, dice, "t1/d1/L1/b9")
    assert result.units["U12"].promoted is promoted
    assert result.promoted == (["U12"] if promoted else [])


def test_followers_are_never_promoted(rules: dict[str, Any]) -> None:
    dice = Dice(force={**SURE_BLOWS, "*/morale": 1})
    result = fight([brutes(), sheep(figures=1)], rules, dice, "t1/d1/L1/b9")
    assert result.promoted == [] and not any(label.endswith("/hero") for label, _, _ in dice.log)


def test_experience_per_round_for_striking_and_parrying(rules: dict[str, Any]) -> None:
    veteran = brutes(skills={"cmbt": 45, "parr": 15})
    dice = Dice(force={**SURE_BLOWS, "*/morale": 1})
    result = fight([veteran, sheep(figures=6)], rules, dice, "t1/d1/L1/b3")
    rounds = result.units["U10"].experience["cmbt"]
    assert result.units["U10"].experience == {"cmbt": rounds, "mele": rounds}  # struck every round
    assert "parr" not in result.units["U20"].experience  # no parry skill, no parry experience


def test_a_unit_with_two_hits_strikes_again_one_initiative_later(rules: dict[str, Any]) -> None:
    double = brutes(figures=1, hits=2)
    dice = Dice(force={**SURE_BLOWS, "*/morale": 1})
    result = fight([double, sheep(figures=4)], rules, dice, "t1/d1/L1/b4")
    first_round = [a for a in result.summaries[0].actions if a["unit"] == "U10"]
    assert [a["kind"] for a in first_round] == ["melee", "melee"]
    assert any("/melee-x1/" in label for label, _, _ in dice.log)


def test_tactical_advantage_lets_the_better_tactician_strike_first(rules: dict[str, Any]) -> None:
    captain = Fighter("U30", "blue", "defenders", 1, tactics=2, defense=20, tactic=Tactic(rank="rear"))
    even = [brutes(figures=3), sheep(figures=3, melee=5, base_combat=2)]
    dice = Dice(force={**SURE_BLOWS, "*/morale": 1})
    plain = fight(even, rules, dice, "t1/d1/L1/b5")
    led = fight([*even, captain], rules, Dice(force={**SURE_BLOWS, "*/morale": 1}), "t1/d1/L1/b5")
    strikers = lambda result: [a["unit"] for a in result.summaries[0].actions if a["kind"] == "melee"]  # noqa: E731
    assert strikers(plain) == ["U10", "U20"]  # simultaneous at one initiative: both sides strike
    assert strikers(led) == ["U20"]  # +2 in round 1: the defenders kill all three before they strike


# -- determinism ------------------------------------------------------------------------------------------


def test_same_seed_same_battle_and_labels_are_unique_to_this_battle(rules: dict[str, Any]) -> None:
    army = [brutes(figures=6), sheep(figures=12, melee=2, base_combat=1), sheep("U21", figures=3, missile=3)]
    first, second = Dice(seed=11), Dice(seed=11)
    assert fight(army, rules, first, "t4/d12/L9/b1") == fight(army, rules, second, "t4/d12/L9/b1")
    labels = [label for label, _, _ in first.log]
    assert len(labels) == len(set(labels))
    assert all(label.startswith("t4/d12/L9/b1/") for label in labels)


def test_a_unit_added_to_another_battle_does_not_change_this_one(rules: dict[str, Any]) -> None:
    here = [brutes(figures=6), sheep(figures=12, melee=2, base_combat=1)]
    alone = Dice(seed=5)
    fight(here, rules, alone, "t4/d12/L9/b1")
    shared = Dice(seed=5)
    fight(
        [brutes(figures=2), sheep("U99", figures=4), sheep("U98", figures=1)], rules, shared, "t4/d12/L2/b1"
    )
    elsewhere = len(shared.log)
    fight(here, rules, shared, "t4/d12/L9/b1")
    assert shared.log[elsewhere:] == alone.log


def test_title_of_a_slain_holder(rules: dict[str, Any]) -> None:
    claimants = {"attackers": ["U5", "U3"], "defenders": ["U8"]}
    lost = Dice(force={"*/lost": 50})
    assert title_heir("U1", "defenders", "attackers", claimants, rules, lost, "b") is None
    kept = Dice(force={"*/lost": 51, "*/heir": 2})
    assert title_heir("U1", "defenders", "attackers", claimants, rules, kept, "b") == "U5"  # from the winners
    assert title_heir("U1", "defenders", None, claimants, rules, kept, "b") == "U8"  # a draw: his own side


# -- engagement -------------------------------------------------------------------------------------------

STANCES: dict[str, dict[str, str]] = {
    "red": {"default": "neutral", "blue": "enemy"},
    "blue": {"default": "neutral"},
    "green": {"default": "neutral", "blue": "ally"},
    "grey": {"default": "neutral", "red": "ally", "blue": "ally"},
    "imperials": {"default": "friendly"},
    "outlaws": {"default": "hostile"},
}


def test_an_ally_joins_and_a_friend_on_guard_joins_the_attacked(rules: dict[str, Any]) -> None:
    present = [
        Presence("U1", "red"),
        Presence("U2", "blue"),
        Presence("U3", "green"),
        Presence("U4", "imperials", guarding=True),
        Presence("U5", "outlaws", guarding=True),
        Presence("U6", "imperials"),  # not on guard, but its faction joined through its guard
    ]
    sides = engage(present, STANCES, Trigger("U1", "U2"), rules, Dice(), "b")
    assert sides.attackers == ["U1"]
    assert sides.defenders == ["U2", "U3", "U4", "U6"]
    assert sides.spectators == ["U5"]  # the outlaws' guard is not friendly to blue


def test_a_faction_allied_to_both_sides_withdraws(rules: dict[str, Any]) -> None:
    present = [Presence("U1", "red"), Presence("U2", "blue"), Presence("U7", "grey")]
    sides = engage(present, STANCES, Trigger("U1", "U2"), rules, Dice(), "b")
    assert sides.withdrawn == ["grey"]
    assert (sides.attackers, sides.defenders, sides.spectators) == (["U1"], ["U2"], ["U7"])


def test_avoid_defend_and_the_whole_stack(rules: dict[str, Any]) -> None:
    present = [
        Presence("U1", "red"),
        Presence("U2", "blue", battle="avoid"),  # the target fights even when set to avoid
        Presence("U3", "red", battle="defend"),  # defenders only: stays out of red's attack
        Presence("U4", "red", battle="avoid"),
        Presence("U5", "yellow", stack="U1"),  # an uninvolved faction in the attacker's stack
        Presence("U6", "blue", battle="avoid"),
    ]
    sides = engage(present, STANCES, Trigger("U1", "U2"), rules, Dice(), "b")
    assert sides.attackers == ["U1", "U5"]
    assert sides.defenders == ["U2"]
    assert sides.spectators == ["U3", "U4", "U6"]


def test_a_third_faction_split_between_the_stacks_withdraws_those_units(rules: dict[str, Any]) -> None:
    present = [
        Presence("U1", "red"),
        Presence("U2", "blue"),
        Presence("U3", "green", stack="U1"),  # green is blue's ally but rides in red's stack
        Presence("U4", "green"),
    ]
    sides = engage(present, STANCES, Trigger("U1", "U2"), rules, Dice(), "b")
    assert sides.withdrawn == ["green"]
    assert (sides.attackers, sides.defenders) == (["U1"], ["U2"])


def test_units_short_of_control_points_may_refuse_but_never_the_target(rules: dict[str, Any]) -> None:
    present = [Presence("U1", "red"), Presence("U8", "red"), Presence("U2", "blue"), Presence("U9", "blue")]
    dice = Dice(force={"b/U8/refuses": 15, "b/U9/refuses": 16})
    short = {"red": 3, "blue": 3}  # 15 % each
    sides = engage(present, STANCES, Trigger("U1", "U2"), rules, dice, "b", missing_control=short)
    assert sides.refused == ["U8"]
    assert "U2" in sides.defenders and "U9" in sides.defenders
    assert not any(label in ("b/U1/refuses", "b/U2/refuses") for label, _, _ in dice.log)


def test_every_combat_house_rule_names_numbers_that_exist(rules: dict[str, Any]) -> None:
    import re

    def lookup(path: str) -> Any:
        node: Any = rules
        for part in path.split("."):
            node = node[part]
        return node

    for entry in rules["house_rules"]:
        lookup(entry["rule"])
        for placeholder in re.findall(r"\{([a-z_.]+)\}", entry["text"]):
            lookup(placeholder)


def test_archers_shoot_only_at_enemies_that_are_not_adjacent(rules: dict[str, Any]) -> None:
    archer = Fighter(
        "U40",
        "red",
        "attackers",
        2,
        missile=3,
        defense=9,
        actions=("ranged",),
        tactic=Tactic(rank="rear", move="stand"),
    )
    wall = Fighter("U41", "red", "attackers", 1, defense=50, tactic=Tactic(move="stand"))
    target = sheep(figures=4, defense=3, tactic=Tactic(move="stand"))
    dice = Dice(force={**SURE_BLOWS, "*/hit": 2, "*/morale": 1})
    result = fight([archer, wall, target], rules, dice, "t1/d1/L1/b6")
    shots = [a for a in result.summaries[0].actions if a["kind"] == "ranged"]
    assert shots and shots[0]["hits"] == 2  # defense 3 counts 1 against missiles: 3 vs 1 -> a 2 of 4 hits
    assert all(
        "/ranged-a/" in label for label, _, _ in dice.log if label.endswith("/hit") and "/U40/" in label
    )


def test_a_fleeing_unit_leaves_after_three_quiet_rounds_at_the_rear(rules: dict[str, Any]) -> None:
    runner = Fighter("U50", "blue", "defenders", 1, defense=40, tactic=Tactic(rank="middle", move="flee"))
    guard = Fighter("U51", "blue", "defenders", 1, defense=40, tactic=Tactic(move="stand"))
    idle = Fighter("U52", "red", "attackers", 1, tactic=Tactic(move="stand"))
    result = fight([runner, guard, idle], rules, Dice(seed=2), "t1/d1/L1/b7")
    # round 1 steps back to the rear rank, round 2 to its flank, then three quiet rounds: it leaves after 5
    fled = [s.number for s in result.summaries if {"kind": "fled", "unit": "U50"} in s.actions]
    assert fled == [2 + rules["combat"]["flee_rounds"]]
    moves = [
        a["square"] for s in result.summaries for a in s.actions if a == {**a, "kind": "move", "unit": "U50"}
    ]
    assert moves == [[5, 1], [5, 0]]
    assert result.units["U50"].fled and not result.units["U51"].fled
