"""What a Marshal's attributes change: each acts on the one check the seed names (rules.yaml
``attribute_effects``), through one procedure that puts its modifier in the check's ledger with the
attribute as the source; in battle, the melee dice of the CinC's own unit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from resolver.rulesets.seasons import RULESET
from resolver.rulesets.seasons.battle import modifier_name
from resolver.rulesets.seasons.commanders import attribute_modifiers

from ..scenarios.harness import resolve_accepted

RULES = RULESET.default_rules()
MELEE = ("melee_attack", "melee_defence")
EVERYTHING = {
    "attacking",
    "defending",
    "first_round",
    "cinc_unit",
    "half_lost",
    "not_facing_cinc",
    "greedy_sulk",
}

# The seed's effects, one line each: the check an attribute changes, by how much, and on which army's
# test (True: the opponent's). Charisma, Poor charisma and Unremarkable change the zone of command, and
# a weapon the War Rating, not a check's ledger (tests/seasons/test_commanders.py).
SEED = {
    "logistic": {("foraging", 1, False)},
    "courage": {("melee_defence", 1, False)},
    "siege_master": {("siege", 1, False)},
    "attack_expert": {("melee_attack", 1, False)},
    "scout": {("movement", 1, False)},
    "defensive_expert": {("melee_defence", 1, False)},
    "war_movement_advocate": {("movement", 1, False)},
    "treasure_hunter": {("loot", 1, False)},
    "ambush": {("ambush", 1, False)},
    "friendly_with_foes_foe": {("melee_attack", 1, False)},
    "hammer_and_anvil": {("melee_attack", 1, False)},
    "favored_by_the_king": {("melee_defence", 1, False)},
    "ever_ready": {("ambush", -1, True)},
    "lucky": {("marshal_fate_won", 1, False), ("marshal_fate_lost", 1, False)},
    "temerity": {("retreat", -1, False)},
    "fighting_for_reputation": {("melee_attack", -1, False)},
    "greedy": {("melee_defence", -1, False)},
    "lazy_attacker": {("melee_attack", -1, False)},
    "undecided": {("melee_attack", -1, False)},
    "heavy_drinker": {("melee_defence", -1, False)},
    "coward": {("retreat", 1, False), ("melee_attack", -1, False)},
    "never_ready": {("ambush", 1, True)},
}


@pytest.mark.parametrize("attribute", sorted(SEED))
def test_each_attribute_changes_only_its_check(attribute: str) -> None:
    """Asked for every check of the rules (and both melee rolls) with every condition holding, an
    attribute gives its modifier, sourced to itself, to its own check and to no other."""
    found = set()
    for check_id in [*RULES["checks"], *MELEE]:
        for opponent in (False, True):
            for test in ("failed", "passed"):
                mods = attribute_modifiers(
                    RULES,
                    [attribute],
                    check_id,
                    situation=EVERYTHING,
                    tests={attribute: test},
                    opponent=opponent,
                )
                assert all(mod.source == attribute for mod in mods)
                found |= {(check_id, mod.value, opponent) for mod in mods}
    assert found == SEED[attribute]


@pytest.mark.parametrize(
    ("attribute", "check_id", "holding", "test"),
    [
        ("attack_expert", "melee_attack", {"defending", "cinc_unit"}, ""),
        ("lazy_attacker", "melee_attack", {"defending", "cinc_unit"}, ""),
        ("defensive_expert", "melee_defence", {"attacking", "cinc_unit"}, ""),
        ("courage", "melee_defence", {"attacking", "cinc_unit"}, ""),  # after the charge
        ("favored_by_the_king", "melee_defence", {"attacking", "first_round"}, ""),  # not his unit
        ("heavy_drinker", "melee_defence", {"cinc_unit"}, "passed"),
        ("undecided", "melee_attack", {"cinc_unit"}, "passed"),
        ("friendly_with_foes_foe", "melee_attack", {"cinc_unit"}, "failed"),
        ("fighting_for_reputation", "melee_attack", {"cinc_unit"}, ""),  # facing the enemy CinC
        ("coward", "melee_attack", {"cinc_unit"}, ""),  # less than half his army lost
        ("greedy", "melee_defence", {"cinc_unit"}, ""),  # no poor loot
    ],
)
def test_a_conditional_attribute_does_nothing_when_its_condition_fails(
    attribute: str, check_id: str, holding: set[str], test: str
) -> None:
    tests = {attribute: test} if test else {}
    assert attribute_modifiers(RULES, [attribute], check_id, situation=holding, tests=tests) == []


# -- in battle, through the real resolver -----------------------------------------------------------------


def _battle(red: list[str], blue: list[str], rolls: dict[str, list[int]], blue_units: Any = None) -> dict:
    """Spring, one round: red's Marshal (WR 2) invades blue's capital, held by blue's Marshal (WR 2);
    blue's ambush fails. Neither side tests to retreat."""
    return {
        "ruleset": "seasons",
        "rules": {"battle": {"rounds": 1}},
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": 1,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
            "factions": {"red": {"wars": ["blue"], "attacking": ["blue"]}, "blue": {"wars": ["red"]}},
            "commanders": {
                "rm": {"owner": "red", "rank": "marshal", "reputation": 2, "attributes": red},
                "bm": {"owner": "blue", "rank": "marshal", "reputation": 2, "attributes": blue},
            },
            "armies": {
                "ra": {
                    "owner": "red",
                    "location": "r0",
                    "commander": "rm",
                    "units": [{"code": "FF"} for _ in range(2)],
                },
                "ba": {
                    "owner": "blue",
                    "location": "b0",
                    "commander": "bm",
                    "units": blue_units or [{"code": "FF"} for _ in range(2)],
                },
            },
        },
        "orders": {"red": [], "blue": []},
        "standing": {side: {"instructions": {"retreat_at_losses": 0}} for side in ("red", "blue")},
        "rolls": {"t1/ambush/b0/ba": [6, 6], "t1/ambush/b0/ra": [1, 1], **rolls},
    }


def _melee(result: Any) -> dict[str, str]:
    """The round's melee rolls by label (unit/attack or unit/defence): the reading with its ledger."""
    [battle] = [e.to_data() for e in result.events if e.kind == "battle"]
    return {"/".join(r["label"].split("/")[3:6:2]): r["decided"] for r in battle["rolls"]}


def _mentions(result: Any, attribute: str) -> list[str]:
    """The labels of every logged roll that names the attribute: its own test, or a ledger."""
    return [
        roll.label
        for roll in result.rolls
        if attribute in roll.label
        or modifier_name(RULES, attribute) in (roll.decided or "")
        or any(m.source == attribute for m in roll.modifiers)
    ]


@pytest.mark.parametrize(
    ("red", "blue", "rolls", "roll", "entry"),
    [
        (["attack_expert"], [], {}, "ra-u1/attack", "Attack expert +1"),
        (["lazy_attacker"], [], {}, "ra-u1/attack", "Lazy attacker −1"),
        (["hammer_and_anvil"], [], {}, "ra-u1/attack", "Hammer and Anvil adept +1"),
        ([], ["defensive_expert"], {}, "ba-u1/defence", "Defensive expert +1"),
        ([], ["favored_by_the_king"], {}, "ba-u1/defence", "Favored by the king +1"),
        (["courage"], [], {}, "ra-u1/defence", "Courage +1"),
        (
            ["friendly_with_foes_foe"],
            [],
            {"t1/attribute_test/b0/rm/friendly_with_foes_foe": [1, 6]},
            "ra-u1/attack",
            "Friendly with foe's foe +1",
        ),
        (["undecided"], [], {"t1/attribute_test/b0/rm/undecided": [6, 6]}, "ra-u1/attack", "Undecided −1"),
        (
            ["heavy_drinker"],
            [],
            {"t1/attribute_test/b0/rm/heavy_drinker": [4, 5]},
            "ra-u1/defence",
            "Heavy drinker −1",
        ),
    ],
)
def test_a_battle_attribute_changes_its_cinc_units_dice(
    tmp_path: Path, red: list[str], blue: list[str], rolls: dict, roll: str, entry: str
) -> None:
    result = resolve_accepted(tmp_path / "f.yaml", _battle(red, blue, rolls))
    melee = _melee(result)
    assert entry in melee[roll]
    [attribute] = red + blue
    tested = [f"t1/attribute_test/b0/rm/{attribute}"] if rolls else []
    assert _mentions(result, attribute) == [*tested, f"t1/battle/b0/{roll.replace('/', '/r1/')}"]


def test_an_attribute_test_passed_changes_nothing(tmp_path: Path) -> None:
    """Heavy drinker and Undecided with one success each stay sober and decided: no die lost."""
    rolls = {"t1/attribute_test/b0/rm/heavy_drinker": [3, 6], "t1/attribute_test/b0/rm/undecided": [6, 2]}
    result = resolve_accepted(tmp_path / "f.yaml", _battle(["heavy_drinker", "undecided"], [], rolls))
    [tests] = [e.to_data() for e in result.events if e.kind == "attribute_tests"]
    assert tests["data"]["results"] == {"heavy_drinker": "passed", "undecided": "passed"}
    assert "Heavy drinker" not in _melee(result)["ra-u1/defence"]
    assert "Undecided" not in _melee(result)["ra-u1/attack"]


def test_fighting_for_reputation_loses_a_die_away_from_the_enemy_cinc(tmp_path: Path) -> None:
    """Blue's CinC stands with his Free foot (ba-u1); its Cavalry (ba-u2) is stronger and pairs with
    red's CinC's unit, who only wants the enemy's commander: one attacking die fewer."""
    units = [{"code": "FF"}, {"code": "CA"}]
    result = resolve_accepted(tmp_path / "f.yaml", _battle(["fighting_for_reputation"], [], {}, units))
    assert "Fighting for reputation −1" in _melee(result)["ra-u1/attack"]
    even = resolve_accepted(tmp_path / "g.yaml", _battle(["fighting_for_reputation"], [], {}))
    assert "Fighting for reputation" not in _melee(even)["ra-u1/attack"]  # ra-u1 meets ba-u1, the CinC's


@pytest.mark.parametrize(("face", "active"), [(4, "ba"), (5, "ra")])
def test_gut_feeling_failed_chooses_the_stance(tmp_path: Path, face: int, active: str) -> None:
    """Red's invading Marshal fails his Gut feeling test: 1–4 he fights as the defender (blue becomes
    the active side, red loses its active die), 5–6 as the attacker (nothing changes)."""
    rolls = {"t1/attribute_test/b0/rm/gut_feeling": [6, 6], "t1/gut_feeling/b0/rm": [face]}
    result = resolve_accepted(tmp_path / "f.yaml", _battle(["gut_feeling"], [], rolls))
    [tests] = [e.to_data() for e in result.events if e.kind == "attribute_tests"]
    assert tests["data"]["stance"] == ("defender" if face <= 4 else "attacker")
    melee = _melee(result)
    assert [side for side in ("ra", "ba") if "active side +1" in melee[f"{side}-u1/attack"]] == [active]


def test_a_sulking_greedy_army_loses_a_defending_die_on_every_unit(tmp_path: Path) -> None:
    """After a poor loot (attribute_greedy_poor_loot.yaml) the Greedy Marshal's army sulks: each of its
    units, not only his own, defends with one die fewer while the timed effect lasts."""
    fixture = _battle(["greedy"], [], {})
    fixture["state"]["commanders"]["rm"]["modifiers"] = {"greedy_sulk": 1}
    melee = _melee(resolve_accepted(tmp_path / "f.yaml", fixture))
    assert all("Greedy −1" in melee[f"ra-u{number}/defence"] for number in (1, 2))
    assert not any("greedy" in reading for roll, reading in melee.items() if not roll.endswith("defence"))
    calm = _melee(resolve_accepted(tmp_path / "g.yaml", _battle(["greedy"], [], {})))
    assert not any("greedy" in reading for reading in calm.values())


def test_a_coward_attacks_with_a_die_fewer_once_half_his_army_has_routed(tmp_path: Path) -> None:
    fixture = _battle(["coward"], [], {})
    fixture["state"]["armies"]["ra"]["units"][1]["routed"] = True  # one of his two units is gone
    assert "Coward −1" in _melee(resolve_accepted(tmp_path / "f.yaml", fixture))["ra-u1/attack"]
    whole = _melee(resolve_accepted(tmp_path / "g.yaml", _battle(["coward"], [], {})))
    assert "coward" not in whole["ra-u1/attack"]
