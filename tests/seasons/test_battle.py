"""The battle's own rules, unit by unit: flanks and rear from spare units, each unit skill's dice, the
zone of command in routs, the defender's retreat to the nearest fort, an Armored army that cannot
ambush, and what becomes of a dead bearer's weapon."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from resolver.core.checks import Modifier
from resolver.rulesets.seasons import RULESET
from resolver.rulesets.seasons.battle import (
    Side,
    attack_modifiers,
    defence_modifiers,
    rout_at,
    surrounding,
    zone_units,
)

from ..scenarios.harness import Scenario, resolve_accepted

RULES = RULESET.default_rules()
FIXTURES = Path(__file__).parent.parent / "scenarios" / "seasons"


def _events(result: Any, kind: str) -> list[dict]:
    return [e.to_data() for e in result.events if e.kind == kind]


def _pairs(mods: list[Modifier]) -> list[tuple[str, int]]:
    return [(mod.source, mod.value) for mod in mods]


@pytest.mark.parametrize(
    ("behind", "expected"),
    [
        (0, []),
        (1, [("flank", 1)]),
        (2, [("flank", 1), ("flank", 1)]),
        (3, [("flank", 1), ("flank", 1), ("rear", 2)]),
        (4, [("flank", 1), ("flank", 1), ("rear", 2), ("outnumbering", 1)]),
        (9, [("flank", 1), ("flank", 1), ("rear", 2), ("outnumbering", 4)]),
    ],
)
def test_spare_units_strike_the_flanks_then_the_rear_then_outnumber(behind: int, expected: list) -> None:
    assert _pairs(surrounding(RULES, behind)) == expected


def _rules_with(code: str, skills: list[str], mounted: bool = False) -> dict[str, Any]:
    rules = copy.deepcopy(RULES)
    rules["units"][code] = {"name": code, "mounted": mounted, "morale": "Normal", "skills": skills}
    return rules


FOOT = {"code": "FF", "id": "enemy"}


@pytest.mark.parametrize(
    ("skills", "season", "terrain", "attack", "defence"),
    [
        ([], "Spring", "plains", [], []),
        (
            ["defensive"],
            "Spring",
            "plains",
            [("defensive", -1)],
            [("defensive", 1), ("defensive_position", 2)],
        ),
        (["offensive"], "Spring", "plains", [("offensive", 1)], [("offensive", -1)]),
        ([], "Winter", "plains", [("winter", -1)], []),
        (["winter"], "Winter", "plains", [], []),
        (["terrain_desert"], "Winter", "plains", [], []),  # the seed gives Desert the winter waiver
        ([], "Spring", "swamp", [("swamp", -3)], []),
        (["terrain_swamp"], "Spring", "swamp", [], []),
        ([], "Spring", "jungle", [("jungle", -2)], []),
        (["terrain_jungle"], "Spring", "jungle", [], []),
        ([], "Spring", "wood", [], [("wood", 1)]),
        (["terrain_wood"], "Spring", "wood", [], [("wood", 1)]),  # no penalty to waive in a wood
        (["missile"], "Spring", "plains", [("missile", -1)], []),
    ],
)
def test_each_skill_and_terrain_changes_the_dice_as_the_seed_says(
    skills: list[str], season: str, terrain: str, attack: list, defence: list
) -> None:
    rules = _rules_with("XX", skills)
    unit = {"code": "XX", "id": "u"}
    side = Side("red", [FOOT, unit], attacking=False)  # not active, and not the CinC's unit
    assert (
        _pairs(attack_modifiers(rules, unit, FOOT, side, extra=0, season=season, terrain=terrain)) == attack
    )
    assert _pairs(defence_modifiers(rules, unit, side, terrain=terrain)) == [("not_active", 1), *defence]


def test_an_ambushing_unit_strikes_a_flank_in_the_first_round_unless_armored() -> None:
    rules = _rules_with("XX", ["armored"])
    foot, armored = {"code": "FF", "id": "f"}, {"code": "XX", "id": "a"}
    side = Side("blue", [FOOT, foot, armored], attacking=True, ambushing=True)
    first = attack_modifiers(
        rules, foot, FOOT, side, extra=0, season="Spring", terrain="plains", first_round=True
    )
    later = attack_modifiers(rules, foot, FOOT, side, extra=0, season="Spring", terrain="plains")
    heavy = attack_modifiers(
        rules, armored, FOOT, side, extra=0, season="Spring", terrain="plains", first_round=True
    )
    assert _pairs(first) == [("active", 1), ("flank", 1)]
    assert _pairs(later) == [("active", 1)]
    assert _pairs(heavy) == [("active", 1)]


def test_both_armies_attacking_lose_every_defensive_benefit_but_keep_the_offensive_penalty() -> None:
    rules = _rules_with("XX", ["defensive", "offensive"])
    unit = {"code": "XX", "id": "u"}
    side = Side("red", [unit], attacking=True, in_fort=True, defence_benefits=False)
    assert _pairs(defence_modifiers(rules, unit, side, terrain="wood")) == [("offensive", -1)]


def test_the_zone_of_command_reaches_one_unit_more_per_frontage_and_holds_a_rout_one_hit() -> None:
    frontage = int(RULES["battle"]["zone_of_command"]["frontage"])
    assert [zone_units(RULES, zone) for zone in (0, frontage - 1, frontage, 12, 16)] == [1, 1, 2, 3, 3]
    foot = {"code": "FF", "morale": "Normal"}
    assert rout_at(RULES, foot, in_zone=False) == 4 and rout_at(RULES, foot, in_zone=True) == 5


def _duel(turn: int = 1) -> dict[str, Any]:
    return {
        "ruleset": "seasons",
        "rules": {"battle": {"rounds": 1}},
        "world": {"locales": {"r0": ["b0"], "b0": ["b1"], "b1": ["b2"], "b2": []}},
        "state": {
            "turn": turn,
            "provinces": {
                "r0": {"owner": "red", "capital": True},
                "b0": {"owner": "blue", "capital": True},
                "b1": {"owner": "blue", "fort": True},
                "b2": {"owner": "blue", "fort": True},
            },
            "factions": {"red": {"wars": ["blue"], "attacking": ["blue"]}, "blue": {"wars": ["red"]}},
            "armies": {},
        },
        "orders": {"red": [], "blue": []},
        "rolls": {},
    }


def test_units_in_the_zone_of_command_stand_a_hit_longer(tmp_path: Path) -> None:
    """Red's Captain (reputation 2, zone 6) covers his own unit and the next; the three Free foot each
    reach 4 hits, their REP: only the third, outside the zone, routs."""
    fixture = _duel()
    fixture["state"]["commanders"] = {"rc": {"owner": "red", "reputation": 2}}
    fixture["state"]["armies"] = {
        "ra": {
            "owner": "red",
            "location": "r0",
            "commander": "rc",
            "units": [{"code": "FF", "hits": 3} for _ in range(3)],
        },
        "ba": {"owner": "blue", "location": "b0", "units": [{"code": "FF"} for _ in range(3)]},
    }
    fixture["standing"] = {"red": {"instructions": {"retreat_at_losses": 0}}}
    rolls = fixture["rolls"]
    rolls.update({"t1/ambush/b0/ba": [6], "t1/ambush/b0/ra": [6, 6]})
    for number in (1, 2, 3):
        rolls[f"t1/battle/b0/ra-u{number}/r1/attack"] = [6] * (4 if number == 1 else 3)
        rolls[f"t1/battle/b0/ba-u{number}/r1/defence"] = [6, 6, 6]
        rolls[f"t1/battle/b0/ba-u{number}/r1/attack"] = [1, 6]
        rolls[f"t1/battle/b0/ra-u{number}/r1/defence"] = [6, 6]
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [battle] = _events(result, "battle")
    assert battle["data"]["routed"] == ["ra-u3"]
    assert battle["data"]["hits"] == {"ba-u1": 0, "ba-u2": 0, "ba-u3": 0, "ra-u1": 4, "ra-u2": 4, "ra-u3": 4}


def test_a_defender_without_a_fort_retreats_to_its_nearest_fort(tmp_path: Path) -> None:
    """Blue loses half its units; its Captain's 1 die fails, but its two Defensive units make it 2
    successes: it leaves b0, which has no fort, for b1, the nearest fort (b2 is further), and red takes
    b0."""
    fixture = _duel()
    fixture["state"]["commanders"] = {"bc": {"owner": "blue", "reputation": 1}}
    fixture["state"]["armies"] = {
        "ra": {"owner": "red", "location": "r0", "units": [{"code": "FF"}, {"code": "FF"}]},
        "ba": {
            "owner": "blue",
            "location": "b0",
            "commander": "bc",
            "units": [{"code": "DE"}, {"code": "DE", "hits": 1}],
        },
    }
    fixture["rolls"] = {
        "t1/ambush/b0/ba": [6],
        "t1/ambush/b0/ra": [6],
        "t1/battle/b0/ra-u1/r1/attack": [6, 6, 6],
        "t1/battle/b0/ba-u1/r1/defence": [6] * 6,  # 2 + not active 1 + Defensive 1 + dug in 2
        "t1/battle/b0/ba-u1/r1/attack": [6, 6],
        "t1/battle/b0/ra-u1/r1/defence": [6, 6],
        "t1/battle/b0/ra-u2/r1/attack": [1, 1, 1],
        "t1/battle/b0/ba-u2/r1/defence": [6] * 6,
        "t1/battle/b0/ba-u2/r1/attack": [6],
        "t1/battle/b0/ra-u2/r1/defence": [6, 6],
        "t1/retreat/b0/ba": [6],
        "t1/loot/b0/red": [6],
        "t1/recover/b0/red/ba-u2": [1, 1],
    }
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [retreat] = _events(result, "retreat")
    assert retreat["data"]["result"] == "retreat" and retreat["data"]["to"] == "b1"
    assert retreat["rolls"][0]["total"] == 2
    assert result.state["armies"]["ba"]["location"] == "b1"
    assert result.state["provinces"]["b0"]["owner"] == "red"
    assert not result.state["armies"]["ba"].get("in_fort")


def test_an_army_of_armored_units_only_does_not_try_to_ambush() -> None:
    scenario = Scenario(FIXTURES / "ambush_foiled.yaml")
    result = scenario.resolve(scenario.order_files())
    assert [e["place"] for e in _events(result, "ambush")] == ["b0"]  # green's cavalry at g0 never tries
    assert {e["place"] for e in _events(result, "battle")} == {"b0", "g0"}


def _marshal_falls(bc_weapon: str | None) -> dict[str, Any]:
    """Red's Marshal (reputation 2, +1 WR for his weapon) sees his unit rout and the battle lost; his
    fate roll of three 6s − 1 for the lost battle reads 'died'."""
    fixture = _duel()
    fixture["state"]["commanders"] = {
        "rm": {"owner": "red", "rank": "marshal", "reputation": 2, "weapon": "w-red"},
        "bc": {"owner": "blue", "reputation": 3, "weapon": bc_weapon},
    }
    fixture["state"]["armies"] = {
        "ra": {"owner": "red", "location": "r0", "commander": "rm", "units": [{"code": "FF", "hits": 4}]},
        "ba": {"owner": "blue", "location": "b0", "commander": "bc", "units": [{"code": "FF"}]},
    }
    blue_wr = 4 if bc_weapon else 3
    fixture["rolls"] = {
        "t1/ambush/b0/ba": [6] * blue_wr,
        "t1/ambush/b0/ra": [6, 6, 6],
        "t1/battle/b0/ra-u1/r1/attack": [6, 6, 6, 6],
        "t1/battle/b0/ba-u1/r1/defence": [6, 6, 6],
        "t1/battle/b0/ba-u1/r1/attack": [1, 6, 6],  # 5 hits: the Marshal's unit routs
        "t1/battle/b0/ra-u1/r1/defence": [6, 6],
        "t1/fate/rm": [6, 6, 6],
        "t1/loot/b0/blue": [6] * blue_wr,
        "t1/recover/b0/red/ra-u1": [6, 6],
    }
    return fixture


def test_a_bearer_killed_in_battle_leaves_his_weapon_to_the_enemy_cinc(tmp_path: Path) -> None:
    result = resolve_accepted(tmp_path / "f.yaml", _marshal_falls(None))
    [fate] = _events(result, "marshal_fate")
    assert fate["data"]["result"] == "died"
    [passed] = _events(result, "weapon_passed")
    assert passed["data"] == {
        "bearer": "rm",
        "bearer_name": "rm",
        "taker": "bc",
        "taker_name": "bc",
        "attributes": [],
        "attribute_names": [],
    } and passed["actors"] == ["red", "blue"]
    assert result.state["commanders"]["bc"]["weapon"] == "w-red"
    assert "rm" not in result.state["commanders"]


CARRIED_OFF: dict[str, list[str]] = {"attributes": [], "attribute_names": []}  # and nothing handed on


def test_a_weapon_with_no_free_hand_to_take_it_is_carried_off(tmp_path: Path) -> None:
    result = resolve_accepted(tmp_path / "f.yaml", _marshal_falls("w-blue"))
    [passed] = _events(result, "weapon_passed")
    assert (
        passed["data"]
        == {"bearer": "rm", "bearer_name": "rm", "taker": None, "taker_name": None} | CARRIED_OFF
    )
    assert result.state["commanders"]["bc"]["weapon"] == "w-blue"  # a bearer has only one weapon
    assert not any(c.get("weapon") == "w-red" for c in result.state["commanders"].values())


def test_a_bearer_dead_in_his_bed_leaves_his_weapon_to_an_adventurer(tmp_path: Path) -> None:
    fixture = _duel(turn=4)
    fixture["state"]["factions"] = {"red": {}, "blue": {}}
    fixture["state"]["commanders"] = {
        "rc": {"owner": "red", "reputation": 3, "weapon": "w-red"},
        "bc": {"owner": "blue", "reputation": 3},
    }
    fixture["rolls"] = {"t4/death/rc": [6, 6], "t4/death/bc": [1, 1]}
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [passed] = _events(result, "weapon_passed")
    assert (
        passed["data"]
        == {"bearer": "rc", "bearer_name": "rc", "taker": None, "taker_name": None} | CARRIED_OFF
    )
    assert result.state["commanders"]["bc"]["weapon"] is None


def test_two_nations_cannot_invade_one_province_in_one_season(tmp_path: Path) -> None:
    """Regression: gold and red both invaded b0; after a drawn first battle blue's units fought again
    under the same dice labels and the turn crashed. Now gold (first in order) invades and red's order
    fails with a reason."""
    fixture = _duel()
    fixture["factions"] = ["red", "blue", "gold"]
    fixture["world"] = {"locales": {"r0": ["b0"], "d0": ["b0"], "b0": []}}
    fixture["state"]["provinces"] = {
        "r0": {"owner": "red", "capital": True},
        "d0": {"owner": "gold", "capital": True},
        "b0": {"owner": "blue", "capital": True},
    }
    fixture["state"]["factions"] = {
        "red": {"wars": ["blue"], "attacking": ["blue"]},
        "gold": {"wars": ["blue"], "attacking": ["blue"]},
        "blue": {"wars": ["gold", "red"]},
    }
    fixture["state"]["armies"] = {
        "ra": {"owner": "red", "location": "r0", "units": [{"code": "FF"}]},
        "da": {"owner": "gold", "location": "d0", "units": [{"code": "FF"}]},
        "ba": {"owner": "blue", "location": "b0", "units": [{"code": "CA"}]},
    }
    fixture["orders"] = {
        "red": [{"action": "invade", "province": "b0"}],
        "gold": [{"action": "invade", "province": "b0"}],
        "blue": [],
    }
    fixture["rolls"] = {
        "t1/battle/b0/da-u1/r1/attack": [6, 6, 6],
        "t1/battle/b0/ba-u1/r1/defence": [6, 6, 6],
        "t1/battle/b0/ba-u1/r1/attack": [6, 6, 6, 6],
        "t1/battle/b0/da-u1/r1/defence": [6, 6],
    }
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    assert [e["actors"] for e in _events(result, "invaded")] == [["gold", "blue"]]
    [failed] = _events(result, "order_failed")
    assert failed["actors"] == ["red"] and "another army invades" in str(failed["data"])
    assert [e["data"]["winner"] for e in _events(result, "battle")] == [None]
