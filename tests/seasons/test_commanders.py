"""Commanders through the real checker and resolver: a Marshal's attribute rolls (every row of the
marshal-attribute, strength and weakness tables), what they change (War Rating, zone of command), and
the Marshal's fate after a battle, both columns row by row with every modifier."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from resolver.rulesets.seasons import RULESET, commanders
from resolver.rulesets.seasons import model as m
from resolver.rulesets.seasons.battle import zone_units
from resolver.rulesets.seasons.naming import said

from ..scenarios.harness import Scenario, resolve_accepted

STRENGTHS = [
    "logistic_or_courage", "siege_master", "attack_expert", "scout", "charisma", "defensive_expert",
    "war_movement_advocate", "treasure_hunter", "minor_weapon", "major_weapon", "ambush",
    "friendly_with_foes_foe", "hammer_and_anvil", "favored_by_the_king", "ever_ready", "lucky",
]  # fmt: skip
WEAKNESSES = [
    "temerity", "fighting_for_reputation", "greedy", "poor_charisma", "lazy_attacker", "undecided",
    "heavy_drinker", "gut_feeling", "coward", "unremarkable", "never_ready",
]  # fmt: skip


def _events(result: Any, kind: str) -> list[dict]:
    return [e.to_data() for e in result.events if e.kind == kind]


def _three_dice(total: int) -> list[int]:
    first = max(1, total - 12)
    second = max(1, total - first - 6)
    return [first, second, total - first - second]


def _spring(rolls: dict[str, list[int]], attributes: int = 1) -> dict[str, Any]:
    """Turn 1: red's Marshal, named at the campaign's start, rolls his attributes at the first step."""
    return {
        "ruleset": "seasons",
        "rules": {"commanders": {"marshal_tiers": {"star": attributes}}},
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": 1,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
            "commanders": {"red-m": {"owner": "red", "rank": "marshal", "reputation": 4, "attributes": None}},
        },
        "orders": {"red": [], "blue": []},
        "rolls": rolls,
    }


def _strength_rolls(face: int) -> dict[str, list[int]]:
    return {"t1/attribute/red-m/1": [3, 3], "t1/attribute/red-m/1/strength": _three_dice(face)}


@pytest.mark.parametrize(("face", "name"), list(enumerate(STRENGTHS, 3)), ids=STRENGTHS)
def test_every_row_of_the_strength_table(tmp_path: Path, face: int, name: str) -> None:
    rolls = _strength_rolls(face)
    expected = [name]
    if name == "logistic_or_courage":
        rolls["t1/attribute/red-m/1/strength/split"] = [4]  # 4–6: Courage
        expected = ["courage"]
    if name == "minor_weapon":  # the weapon's one attribute: a weakness, Temerity
        rolls["t1/attribute/red-m/1/strength/weapon/1"] = [1, 1]
        rolls["t1/attribute/red-m/1/strength/weapon/1/weakness"] = [1, 1]
        expected = ["temerity", "minor_weapon"]
    if name == "major_weapon":  # two attributes: Scout and Lucky
        rolls["t1/attribute/red-m/1/strength/weapon/1"] = [3, 3]
        rolls["t1/attribute/red-m/1/strength/weapon/1/strength"] = [1, 2, 3]
        rolls["t1/attribute/red-m/1/strength/weapon/2"] = [6, 6]
        rolls["t1/attribute/red-m/1/strength/weapon/2/strength"] = [6, 6, 6]
        expected = ["scout", "lucky", "major_weapon"]
    result = resolve_accepted(tmp_path / "f.yaml", _spring(rolls))
    marshal = result.state["commanders"]["red-m"]
    assert marshal["attributes"] == expected
    [event] = _events(result, "marshal_attributes")
    assert event["data"]["attributes"] == expected
    game = Scenario(tmp_path / "f.yaml").game
    sentence = RULESET.describe(event, game)
    # in the words of rules data result_names where the id's own would not read (Friendly with foe's foe)
    assert sentence.startswith(f"red-m, Marshal of red, is known for: {said(game.rules, expected[0])}")
    assert event["rolls"][1]["result"] == name
    weapon = name in ("minor_weapon", "major_weapon")
    assert bool(marshal["weapon"]) == weapon
    # the weapon keeps what it gave, its own row first, to hand it on with the weapon
    assert marshal.get("weapon_attributes") == ([expected[-1], *expected[:-1]] if weapon else None)
    # War Rating = reputation, +1 reputation for a minor weapon, +1 for bearing any weapon
    war_rating = 4 + (name == "minor_weapon") + weapon
    assert marshal["reputation"] == 4 + (name == "minor_weapon")
    [counted] = [e for e in _events(result, "recruiting_rolls") if e["actors"] == ["red"]]
    assert counted["data"]["war_rating"] == war_rating


def test_the_lowest_strength_total_can_read_logistic(tmp_path: Path) -> None:
    rolls = {**_strength_rolls(3), "t1/attribute/red-m/1/strength/split": [3]}
    result = resolve_accepted(tmp_path / "f.yaml", _spring(rolls))
    assert result.state["commanders"]["red-m"]["attributes"] == ["logistic"]


@pytest.mark.parametrize(("face", "name"), list(enumerate(WEAKNESSES, 2)), ids=WEAKNESSES)
def test_every_row_of_the_weakness_table(tmp_path: Path, face: int, name: str) -> None:
    dice = [max(1, face - 6), face - max(1, face - 6)]
    rolls = {"t1/attribute/red-m/1": [1, 1], "t1/attribute/red-m/1/weakness": dice}
    result = resolve_accepted(tmp_path / "f.yaml", _spring(rolls))
    assert result.state["commanders"]["red-m"]["attributes"] == [name]


@pytest.mark.parametrize(
    ("dice", "side"), [([1, 1], "weakness"), ([2, 2], "weakness"), ([2, 3], "strength"), ([6, 6], "strength")]
)
def test_every_row_of_the_marshal_attribute_table(tmp_path: Path, dice: list[int], side: str) -> None:
    """2–4 reads the weakness table, 5–12 the strength table; a Marshal rolls two attributes."""
    rolls = {"t1/attribute/red-m/1": dice, "t1/attribute/red-m/2": dice}
    result = resolve_accepted(tmp_path / "f.yaml", _spring(rolls, attributes=2))
    [event] = _events(result, "marshal_attributes")
    tables = [r["check"] for r in event["rolls"] if r["check"] in ("strength", "weakness")]
    assert tables == [side, side]


def test_the_demo_nations_marshals_roll_two_attributes_at_the_start(tmp_path: Path) -> None:
    from resolver.engine.ruleset import get_ruleset

    ruleset = get_ruleset("seasons")
    rules = ruleset.default_rules()
    assert rules["commanders"]["marshal_tiers"]["star"] == 2 and rules["commanders"]["first_tier"] == "star"
    world = ruleset.generate_world(1, rules, 2)
    from resolver.engine.ruleset import FactionSetup

    factions = [FactionSetup("red", "Red", "#aa0000"), FactionSetup("blue", "Blue", "#0000aa")]
    state = ruleset.initial_state(world, rules, factions, 1)
    assert state["commanders"]["red-marshal"]["attributes"] is None  # rolled at the first step
    assert state["commanders"]["red-captain"]["attributes"] == []  # Captains roll none


# -- the zone of command ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reputation", "attributes", "reached"),
    [
        (4, [], 3),
        (3, [], 2),
        (3, ["charisma"], 3),
        (4, ["poor_charisma"], 2),
        (6, [], 4),
        (6, ["unremarkable"], 3),
    ],
    ids=["rep4-3x", "rep3-3x", "rep3-charisma-4x", "rep4-poor-charisma-2x", "rep6-3x", "rep6-unremarkable"],
)
def test_the_zone_of_command_reaches_units_in_battle_and_not_the_disband_test(
    tmp_path: Path, reputation: int, attributes: list[str], reached: int
) -> None:
    """The CinC's unit and one more for every 6 inches of his zone (3 × reputation; 4 × with Charisma,
    2 × with Poor charisma, 2 inches less when Unremarkable): 12 → 3 units, 9 → 2, 12 → 3, 8 → 2, 18 → 4,
    16 → 3. The zone's +1 is for the battlefield's morale tests: the winter disband test of the same
    army has no modifier from it (issue 22)."""
    commander = {"id": "red-c", "reputation": reputation, "attributes": attributes}
    assert zone_units(RULESET.default_rules(), m.zone_of_command(commander)) == reached
    fixture = {
        "ruleset": "seasons",
        "world": {"locales": {"r0": []}},
        "state": {
            "turn": 4,
            "provinces": {"r0": {"owner": "red", "capital": True}},
            "commanders": {"red-c": {"owner": "red", "reputation": reputation, "attributes": attributes}},
            "armies": {
                "a": {
                    "owner": "red",
                    "location": "r0",
                    "commander": "red-c",
                    "units": [{"code": "EF"} for _ in range(6)],
                }
            },
        },
        "orders": {"red": []},
        "rolls": {f"t4/disband/a-u{n}": [1, 1] for n in range(1, 7)},
    }
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    tests = _events(result, "disband_test")
    assert len(tests) == 6 and not [e for e in tests if e["rolls"][0].get("modifiers")]


# -- the Marshal's fate -------------------------------------------------------------------------------------


def _battle(
    *, won: bool, fate: list[int], hits: int = 0, attributes: list[str] | None = None
) -> dict[str, Any]:
    """Summer: red's Cavalry attacks b0 and routs the first unit of blue's army, the Marshal's own. With
    two more Free foot blue still wins (2 units standing against 1); alone, blue loses."""
    blue_units = [{"code": "FF", "hits": hits}] + ([{"code": "FF"}, {"code": "FF"}] if won else [])
    rolls = {
        "t2/battle/b0/ra-u1/r1/attack": [1] * 5,  # REP 5: 3 dice, active +1, mounted against foot +1
        "t2/battle/b0/ba-u1/r1/defence": [6] * 3,  # REP 4: 2 dice, not active +1
        "t2/battle/b0/ba-u1/r1/attack": [6] * (5 if won else 3),  # 2, CinC +1 (and outnumbering +2)
        "t2/battle/b0/ra-u1/r1/defence": [6] * 2,
        "t2/fate/blue-m": fate,
    }
    return {
        "ruleset": "seasons",
        "rules": {"battle": {"rounds": 1}},
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": 2,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
            "factions": {"red": {"wars": ["blue"], "attacking": ["blue"]}, "blue": {"wars": ["red"]}},
            "commanders": {
                "blue-m": {
                    "owner": "blue",
                    "rank": "marshal",
                    "reputation": len(fate),
                    "attributes": attributes or [],
                },
                "blue-c": {"owner": "blue", "rank": "captain", "reputation": 3},
            },
            "armies": {
                "ra": {"owner": "red", "location": "r0", "units": [{"code": "CA"}]},
                "ba": {"owner": "blue", "location": "b0", "commander": "blue-m", "units": blue_units},
            },
        },
        "orders": {"red": [], "blue": []},
        "rolls": rolls,
    }


FATES = [
    # (won, the Marshal's WR dice, his unit's hits before the battle, attributes, row, ledger)
    (True, [1, 6], 0, [], "recovered", {"won": 1}),
    (True, [1, 1, 1], 0, [], "recovered", {"won": 1}),
    (True, [6, 6], 0, [], "wounded_minus_wr", {"won": 1}),
    (True, [6, 6], 8, [], "recovers_in_seasons", {"won": 1, "unit_destroyed": -1}),
    (False, [1, 1, 1, 1], 0, [], "escaped", {"lost": -1}),
    (False, [1, 1, 1, 6], 0, [], "captured", {"lost": -1}),
    (False, [1, 1, 6, 6], 0, [], "captured_wounded", {"lost": -1}),
    (False, [1, 6, 6, 6], 0, [], "died", {"lost": -1}),
    (False, [1, 1, 6, 6], 0, ["lucky"], "captured", {"lost": -1, "lucky": 1}),
]


@pytest.mark.parametrize(
    ("won", "fate", "hits", "attributes", "row", "ledger"),
    FATES,
    ids=[f"{f[4]}-{len(f[1])}-{f[3]}" for f in FATES],
)
def test_every_row_of_the_marshals_fate(
    tmp_path: Path, won: bool, fate: list[int], hits: int, attributes: list[str], row: str, ledger: dict
) -> None:
    fixture = _battle(won=won, fate=fate, hits=hits, attributes=attributes)
    rolls = fixture["rolls"]
    if row in ("recovers_in_seasons", "captured_wounded"):
        rolls["t2/fate/blue-m/seasons"] = [3]
    if row == "captured_wounded":
        rolls["t2/fate/blue-m/weakness"] = [3, 3]  # 6: Lazy attacker
    if row == "died":  # the best Captain takes his place, Bigger than life: one attribute
        rolls.update(
            {
                "t2/attribute/blue-c/1": [3, 3],
                "t2/attribute/blue-c/1/strength": [1, 3, 3],  # 7: Charisma
            }
        )
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [battle] = _events(result, "battle")
    assert battle["data"]["winner"] == ("blue" if won else "red")
    assert "ba-u1" in battle["data"]["routed"]
    [event] = _events(result, "marshal_fate")
    assert event["data"]["result"] == row
    assert {m["source"]: m["value"] for m in event["rolls"][0]["modifiers"]} == ledger
    commanders = result.state["commanders"]
    if row == "died":
        assert "blue-m" not in commanders
        assert commanders["blue-c"]["rank"] == "marshal"
        assert commanders["blue-c"]["attributes"] == ["charisma"]
        assert commanders["blue-c"]["tier"] == "bigger-than-life"
        assert not [roll for roll in result.rolls if roll.label.startswith("t2/attribute/blue-c/2")]
        return
    marshal = commanders["blue-m"]
    effects = result.state.get("effects", {})
    if row.startswith("captured"):  # house rule: held this season and a year more, then released
        assert marshal["modifiers"]["captive"] == 1
        assert effects["commanders/blue-m/captive"]["until"] == 6
    else:
        assert "commanders/blue-m/captive" not in effects
    if row in ("recovers_in_seasons", "captured_wounded"):  # this season and the 3 rolled
        assert marshal["modifiers"]["recovering"] == 1
        assert effects["commanders/blue-m/recovering"]["until"] == 5
    else:
        assert "commanders/blue-m/recovering" not in effects
    if row == "captured_wounded":
        assert marshal["attributes"] == ["lazy_attacker"]
        [weakness] = _events(result, "weakness_gained")
        sentence = RULESET.describe(weakness, Scenario(tmp_path / "f.yaml").game)
        assert sentence == "blue-m of blue, wounded in captivity, gains a weakness: lazy attacker."
    if row == "wounded_minus_wr":  # −1 WR through the next season, then it ends by itself
        assert marshal["modifiers"] == {"war_rating": -1}
        assert result.state["effects"]["commanders/blue-m/war_rating"]["until"] == 3


@pytest.mark.parametrize(("dice", "found"), [([5, 6], False), ([1, 6], False), ([1, 2], True)])
def test_hero_availability_rows(tmp_path: Path, dice: list[int], found: bool) -> None:
    """House rule: each spring 2 dice; with 2 successes a hero serves the nation for the year."""
    fixture = _spring({"t1/hero/red": dice})
    fixture["state"]["commanders"] = {}
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    assert result.state["factions"]["red"]["hero"] is found
    [event] = [e for e in _events(result, "hero") if e["actors"] == ["red"]]
    assert event["data"]["found"] is found


def _out_of_command(name: str) -> dict[str, Any]:
    """Spring: blue's Marshal (WR 4) is recovering or held captive; his army still names him."""
    return {
        "ruleset": "seasons",
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": 5,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
            "commanders": {
                "blue-m": {"owner": "blue", "rank": "marshal", "reputation": 4, "attributes": []},
                "blue-c": {"owner": "blue", "rank": "captain", "reputation": 2},
            },
            "armies": {"ba": {"owner": "blue", "location": "b0", "commander": "blue-m", "units": []}},
            "effects": {
                f"commanders/blue-m/{name}": {
                    "id": f"commanders/blue-m/{name}",
                    "collection": "commanders",
                    "target": "blue-m",
                    "name": name,
                    "value": 1,
                    "since": 2,
                    "until": 6,
                }
            },
        },
        "orders": {"red": [], "blue": []},
        "rolls": {},
    }


@pytest.mark.parametrize("name", ["recovering", "captive"])
def test_a_marshal_out_of_command_lends_no_war_rating_to_recruiting(tmp_path: Path, name: str) -> None:
    with_marshal = _out_of_command(name)
    with_marshal["state"]["effects"] = {}
    fixture = _out_of_command(name)
    fixture["state"]["commanders"]["blue-m"]["modifiers"] = {name: 1}
    counts = {}
    for key, case in (("out", fixture), ("in", with_marshal)):
        result = resolve_accepted(tmp_path / f"{key}.yaml", case)
        [counted] = [e for e in _events(result, "recruiting_rolls") if e["actors"] == ["blue"]]
        counts[key] = counted["data"]
    assert counts["in"]["war_rating"] == 4
    assert counts["out"]["war_rating"] == 0
    assert counts["out"]["rolls_total"] == counts["in"]["rolls_total"] - 4


@pytest.mark.parametrize("name", ["recovering", "captive"])
def test_a_captain_stands_in_for_a_marshal_out_of_command(name: str) -> None:
    """His army's CinC, for battle and every test reading it, is the best free Captain meanwhile."""
    from resolver.rulesets.seasons import model

    state = _out_of_command(name)["state"]
    state["commanders"]["blue-m"]["modifiers"] = {name: 1}
    for cid, commander in state["commanders"].items():
        commander["id"] = cid
    army = state["armies"]["ba"]
    assert model.commander(state, army)["id"] == "blue-c"
    assert model.war_rating(model.commander(state, army)) == 2
    state["armies"]["ca"] = {"owner": "blue", "location": "b0", "commander": "blue-c", "units": []}
    assert model.commander(state, army) is None  # the only Captain leads an army of his own
    state["commanders"]["blue-m"]["modifiers"] = {}
    assert model.commander(state, army)["id"] == "blue-m"  # back in command once it has ended


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("recovering", "blue-m has recovered from his wounds and takes his command back."),
        ("captive", "blue-m is released by his captors and takes his command back."),
    ],
)
def test_a_marshal_back_in_command_is_announced(tmp_path: Path, name: str, sentence: str) -> None:
    fixture = _out_of_command(name)
    fixture["state"]["commanders"]["blue-m"]["modifiers"] = {name: 1}
    fixture["state"]["effects"][f"commanders/blue-m/{name}"]["until"] = 5
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [ended] = _events(result, "effect_expired")
    assert RULESET.describe(ended, Scenario(tmp_path / "f.yaml").game) == sentence
    assert not result.state["commanders"]["blue-m"].get("modifiers")


@pytest.mark.parametrize("name", ["", "recovering", "captive"])
def test_a_marshal_out_of_command_leads_no_battle(tmp_path: Path, name: str) -> None:
    """Blue's Marshal is Favored by the king (+1 defending die on his own unit). Recovering or held
    captive, he is not at the battle: his Captain leads, without the bonus, and no fate is tested."""
    fixture = _battle(won=True, fate=[1, 6], attributes=["favored_by_the_king"])
    if name:
        fixture["state"]["commanders"]["blue-m"]["modifiers"] = {name: 1}
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [battle] = _events(result, "battle")
    defence = next(r for r in battle["rolls"] if r["label"] == "t2/battle/b0/ba-u1/r1/defence")
    assert ("Favored by the king +1" in defence["decided"]) == (not name)
    assert len(_events(result, "marshal_fate")) == (0 if name else 1)


def test_the_status_says_who_is_out_of_command_and_until_when() -> None:
    state = _out_of_command("captive")["state"]
    state["commanders"]["blue-m"]["id"] = "blue-m"
    lines = commanders.status_lines(state, "blue")
    assert lines == ["blue-m is held captive until the end of turn 6; a Captain leads his army meanwhile."]
    assert commanders.status_lines(state, "red") == []
