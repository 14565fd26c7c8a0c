"""War through the real checker and resolver: recovery after a battle, foraging instead of upkeep, the
loot roll, a local lord's levy and the Piorad's winter raid."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..scenarios.harness import resolve_accepted


def _events(result: Any, kind: str) -> list[dict]:
    return [e.to_data() for e in result.events if e.kind == kind]


def _war(turn: int = 1) -> dict[str, Any]:
    return {
        "ruleset": "seasons",
        "rules": {"battle": {"rounds": 1}},
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": turn,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
            "factions": {"red": {"wars": ["blue"], "attacking": ["blue"]}, "blue": {"wars": ["red"]}},
            "armies": {},
        },
        "orders": {"red": [], "blue": []},
        "rolls": {},
    }


def test_recovery_every_row_and_modifier(tmp_path: Path) -> None:
    """Red's six Free foot come out of a one-round battle in which no die succeeds, carrying the hits
    they had: 0, 5 (REP to 2 × REP, no modifier), 9 (beyond 2 × REP, −1), 13 (beyond 3 × REP,
    destroyed), 1 (within REP +1, not routed +1) and 6. Two units with one success each merge."""
    fixture = _war()
    hits = [0, 5, 9, 13, 1, 6]
    fixture["state"]["armies"] = {
        "ra": {"owner": "red", "location": "r0", "units": [{"code": "FF", "hits": h} for h in hits]},
        "ba": {"owner": "blue", "location": "b0", "units": [{"code": "FF"} for _ in hits]},
    }
    rolls = fixture["rolls"]
    for number in range(1, 7):
        rolls[f"t1/battle/b0/ra-u{number}/r1/attack"] = [6, 6, 6]
        rolls[f"t1/battle/b0/ba-u{number}/r1/defence"] = [6, 6, 6]
        rolls[f"t1/battle/b0/ba-u{number}/r1/attack"] = [6, 6]
        rolls[f"t1/battle/b0/ra-u{number}/r1/defence"] = [6, 6]
    rolls.update(
        {
            "t1/recover/b0/red/ra-u2": [1, 6],  # 1: merge
            "t1/recover/b0/red/ra-u3": [1, 2],  # 2 − 1 heavy damage = 1: merge with u2
            "t1/recover/b0/red/ra-u5": [6, 6],  # 0 + light 1 + not routed 1 = 2: recovered
            "t1/recover/b0/red/ra-u6": [6, 6],  # 0: lost
            "t1/loot/b0/blue": [2],
            "t1/ambush/b0/ba": [6],  # no ambush
            "t1/ambush/b0/ra": [1],
        }
    )
    fixture["standing"] = {"red": {"instructions": {"retreat_at_losses": 0}}}  # red fights it out
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [battle] = _events(result, "battle")
    assert battle["data"]["winner"] == "blue"
    [recovery] = _events(result, "recovery")
    assert recovery["data"]["outcomes"] == {
        "ra-u2": "merge",
        "ra-u3": "merge",
        "ra-u4": "destroyed",
        "ra-u5": "recovered",
        "ra-u6": "lost",
    }
    ledgers = {r["label"]: r.get("modifiers", []) for r in recovery["rolls"]}
    assert ledgers["t1/recover/b0/red/ra-u2"] == []
    assert ledgers["t1/recover/b0/red/ra-u3"] == [{"source": "heavy_damage", "value": -1}]
    assert ledgers["t1/recover/b0/red/ra-u5"] == [
        {"source": "light_damage", "value": 1},
        {"source": "not_routed", "value": 1},
    ]
    kept = [u["id"] for u in result.state["armies"]["ra"]["units"]]
    assert kept == ["ra-u1", "ra-u2", "ra-u5"]  # u2 absorbed u3
    assert result.state["armies"]["ra"]["location"] == "r0"
    [loot] = _events(result, "loot")
    assert loot["data"]["resources"] == 1 and loot["rolls"][0]["result"] == "loot"


def test_foraging_rows_and_the_standing_instruction(tmp_path: Path) -> None:
    fixture = _war()
    fixture["state"]["factions"] = {"red": {"stock": {"resources": 10}}, "blue": {}}
    fixture["state"]["commanders"] = {"red-c": {"owner": "red", "attributes": ["logistic"]}}
    fixture["state"]["armies"] = {
        "ra": {"owner": "red", "location": "r0", "units": [{"code": "FF"}, {"code": "FF"}, {"code": "CA"}]},
        "rb": {"owner": "red", "location": "r0", "commander": "red-c", "units": [{"code": "FF"}]},
    }
    fixture["standing"] = {"red": {"instructions": {"forage": True}}}
    fixture["rolls"] = {
        "t1/forage/ra-u1": [5, 6],  # nothing: red pays its half resource
        "t1/forage/ra-u2": [1, 6],  # exhausted, but fed
        "t1/forage/ra-u3": [1, 2],  # foraged
        "t1/forage/rb-u1": [5, 6],  # 0 + Logistic 1 = 1: exhausted
        "t1/trade/r0": [5, 6],
        "t1/trade/b0": [5, 6],
    }
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    assert [e["data"]["result"] for e in _events(result, "forage")] == [
        "nothing",
        "exhausted",
        "foraged",
        "exhausted",
    ]
    assert _events(result, "forage")[3]["rolls"][0]["modifiers"] == [{"source": "logistic", "value": 1}]
    [upkeep] = [e for e in _events(result, "upkeep") if e["actors"] == ["red"]]
    assert upkeep["data"] == {"cost": 1, "units": 1}
    assert result.state["armies"]["ra"]["units"][1]["exhausted"] is True
    # without the instruction, the default: every unit is paid for (2 foot halves + 1 mounted + 1 foot)
    del fixture["standing"]
    result = resolve_accepted(tmp_path / "g.yaml", fixture)
    assert not _events(result, "forage")
    assert next(e for e in _events(result, "upkeep") if e["actors"] == ["red"])["data"] == {
        "cost": 3,
        "units": 4,
    }


def test_a_local_lord_raises_a_unit_for_each_recruiting_roll(tmp_path: Path) -> None:
    """The seed's 8 recruiting rolls (+1 in summer) raise a unit each, as a nation's rolls do (issue 22:
    no halving house rule)."""
    fixture = _war(turn=2)
    fixture["state"]["armies"] = {"ra": {"owner": "red", "location": "r0", "units": [{"code": "PC"}]}}
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [levy] = _events(result, "levy_raised")
    assert levy["data"]["units"] == 9 and len(levy["rolls"]) == 1 + 9  # the column, then one per unit


def test_a_levy_defends_an_undefended_province_and_may_stay_at_war(tmp_path: Path) -> None:
    fixture = _war(turn=2)  # summer: 8 + 1 rolls, here four units (half a unit a roll, to keep it small)
    fixture["rules"] = {**fixture.get("rules", {}), "defensive_army": {"units_per_roll": 0.5}}
    fixture["state"]["armies"] = {"ra": {"owner": "red", "location": "r0", "units": [{"code": "PC"}]}}
    rolls = fixture["rolls"]
    rolls["t2/levy/b0/column"] = [5]  # type C
    for number, face in enumerate([5, 5, 6, 6], 1):  # EF, EF, CA, CA
        rolls[f"t2/levy/b0/{number}"] = [face]
    rolls.update(
        {
            "t2/battle/b0/ra-u1/r1/attack": [6, 6],  # PC: 2 + active 1 − defensive 1
            "t2/battle/b0/levy-b0-t2-u1/r1/defence": [6, 6, 6],
            "t2/battle/b0/levy-b0-t2-u1/r1/attack": [1] * 8,  # 3 + 3 outnumbering + offensive 1 + CinC 1
            "t2/battle/b0/ra-u1/r1/defence": [6, 6],
            "t2/stay/levy-b0-t2": [1, 2],  # 2 successes: the veterans go to the capital
            "t2/loot/b0/blue": [1, 6],  # the levy's Captain: WR 3 − 1 = 2 dice
            "t2/ambush/b0/levy-b0-t2": [6, 6],  # no ambush
            "t2/ambush/b0/ra": [1],
        }
    )
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [levy] = _events(result, "levy_raised")
    assert levy["data"] == {"units": 4, "army_type": "C"}
    [battle] = _events(result, "battle")
    assert battle["data"]["winner"] == "blue" and battle["data"]["hits"]["ra-u1"] == 8
    [stay] = _events(result, "staying_at_war")
    assert stay["data"] == {"result": "veterans_to_capital", "kept": 4}
    assert not any(a.get("levy") for a in result.state["armies"].values())
    assert [u["code"] for u in result.state["factions"]["blue"]["recruits"]] == ["EF", "EF", "CA", "CA"]
    # the lord's veterans are the nation's own units, not hired: no mercenary's −1 on its loot tests
    assert not any(u.get("mercenary") for u in result.state["factions"]["blue"]["recruits"])
    assert _events(result, "loot")[0]["data"]["resources"] == 1


def test_the_piorad_raid_in_winter_loot_and_go_home(tmp_path: Path) -> None:
    fixture = {
        "ruleset": "seasons",
        "factions": ["red", "piorad"],
        "world": {"locales": {"r0": ["p0"], "p0": []}},
        "state": {
            "turn": 4,
            "provinces": {
                "r0": {"owner": "red", "capital": True},
                "p0": {"owner": "piorad", "capital": True},
            },
            "factions": {"piorad": {"kind": "npc", "interest": "loot"}, "red": {"stock": {"resources": 3}}},
            "commanders": {"pc": {"owner": "piorad", "reputation": 2}},
            "armies": {
                "pa": {"owner": "piorad", "location": "p0", "commander": "pc", "units": [{"code": "CA"}]},
                "ra": {"owner": "red", "location": "r0", "units": [{"code": "PC"}]},
            },
        },
        "orders": {"red": []},
        "rules": {"battle": {"rounds": 1}},
        "rolls": {
            "t4/war/piorad": [1, 6],  # 1 success + loot interest 1 = 2: war
            "t4/battle/r0/pa-u1/r1/attack": [1, 1, 1, 1],
            "t4/battle/r0/ra-u1/r1/defence": [6, 6],
            "t4/battle/r0/ra-u1/r1/attack": [6, 6],
            "t4/battle/r0/pa-u1/r1/defence": [6, 6, 6],
            "t4/loot/r0/piorad": [1, 2],  # 2 successes − 1 for the Piorad = 1
            "t4/ambush/r0/ra": [6],  # no ambush
            "t4/ambush/r0/pa": [6, 6],
        },
    }
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    [war] = _events(result, "war_test")
    assert war["data"]["war"] and war["rolls"][0]["modifiers"] == [{"source": "loot_interest", "value": 1}]
    [battle] = _events(result, "battle")
    assert battle["data"]["winner"] == "piorad"
    [loot] = _events(result, "loot")
    assert (
        loot["rolls"][0]["modifiers"] == [{"source": "piorad", "value": -1}]
        and loot["data"]["resources"] == 1
    )
    assert result.state["provinces"]["r0"]["owner"] == "red"  # the Piorad never hold land
    assert result.state["armies"]["pa"]["location"] == "p0"
    assert result.state["factions"]["piorad"]["wars"] == []
