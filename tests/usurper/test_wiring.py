"""Issue 23, the seams between the parts: spells, the month's events, the landmarks' gifts, Oracle tokens and
Extras in the action roll; Napoleon, the combat spells and Forced March; event prices in trade; the ritual
at a landmark as a leader's Diplomacy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from resolver.rulesets.usurper import combat, fight, rolls, trading, upkeep
from resolver.rulesets.usurper.entities import participants

from ..scenarios.harness import Scenario
from .rolls_support import RULES, context, leader, pairs, state, unit


def _ledger(
    st: dict[str, Any], action: str = "scout", by: str = "red-u1", assist=()
) -> list[tuple[str, int]]:
    group = participants(st, "red", by, assist)
    return pairs(rolls.action_ledger(RULES, st, group, action=action, grid="X25", turn=5))


# --- the action roll's ledger --------------------------------------------------------------------------


def test_a_spell_of_a_leader_taking_part_counts_in_the_roll() -> None:
    st = state(units=[unit("red-u1")], leaders=[leader("red-l1", spells=["seer"])])
    assert ("Seer", 10) in _ledger(st, assist=["red-l1"])
    assert ("Seer", 10) not in _ledger(st)  # the leader stays home: no spell


def test_the_months_event_counts_and_a_doubled_one_twice() -> None:
    st = state(units=[unit("red-u1")])
    st["happenings"] = {"events": ["muddy_roads"], "until": 8}
    assert ("Muddy Roads", -15) in _ledger(st)
    st["factions"]["red"]["happening_choices"] = {"muddy_roads": "ignore"}
    assert not [s for s, _ in _ledger(st) if s == "Muddy Roads"]
    st["turn"] = 9  # the month is over
    st["factions"]["red"].pop("happening_choices")
    assert not [s for s, _ in _ledger(st) if s == "Muddy Roads"]


def test_a_landmark_gift_counts_only_with_its_tool() -> None:
    spyglass = [{"item": "spyglass", "quality": "standard"}]
    st = state(units=[unit("red-u1", abilities=["cartographer"]), unit("red-u2", abilities=["cartographer"])])
    st["factions"]["red"]["units"]["red-u2"]["tools"] = spyglass
    st["factions"]["red"]["abilities"] = ["pathfinders"]
    ledger = _ledger(st, assist=["red-u2"])
    assert ledger.count(("Cartographer", 20)) == 1  # red-u2 has the spyglass, red-u1 has none
    assert ("Pathfinders", 10) in ledger


def test_an_oracle_token_is_spent_only_when_the_order_asks() -> None:
    st = state(units=[unit("red-u1")])
    st["factions"]["red"]["oracle_tokens"] = [
        {"value": 25, "from": 5, "until": 8},
        {"value": 40, "from": 5, "until": 9},
    ]
    order = {"action": "scout", "by": "red-u1", "target": "X25"}
    kept = rolls.action_roll(context(forced={"t5/red/red-u1/scout/X25": [60]}), st, "red", action="scout",
                             by="red-u1", grid="X25", order=order)  # fmt: skip
    assert "Oracle token" not in [m.source for m in kept.ledger]
    assert len(st["factions"]["red"]["oracle_tokens"]) == 2
    spent = rolls.action_roll(context(forced={"t5/red/red-u1/scout/X25": [60]}), st, "red", action="scout",
                              by="red-u1", grid="X25", order={**order, "oracle": True})  # fmt: skip
    assert ("Oracle token", 40) in pairs(spent.ledger) and spent.total == 100
    assert st["factions"]["red"]["oracle_tokens"] == [{"value": 25, "from": 5, "until": 8}]


# --- Extras ---------------------------------------------------------------------------------------------


def _extra(**fields: Any) -> dict[str, Any]:
    return {"id": "red-x1", "name": "Mirela", "tier": 2, "skills": {"scout": {"rank": 3, "xp": 0}},
            "spells": [], "helps": ["scout"], "bonus": 10, "trains": False, **fields}  # fmt: skip


def test_an_extra_named_under_assist_adds_its_bonus_and_skills() -> None:
    st = state(units=[unit("red-u1")])
    st["factions"]["red"]["extras"] = {"red-x1": _extra()}
    order = {"action": "scout", "by": "red-u1", "assist": ["mirela"], "target": "X25"}
    rolled = rolls.action_roll(context(forced={"t5/red/red-u1/scout/X25": [30]}), st, "red", action="scout",
                               by="red-u1", grid="X25", order=order)  # fmt: skip
    ledger = pairs(rolled.ledger)
    assert ("Mirela (Extra)", 10) in ledger
    assert any(source.startswith("Scout 3 (Mirela)") for source, _ in ledger)


def _scenario(tmp_path: Path, turn: int, orders: list[dict[str, Any]], rolls_: dict[str, Any],
              red: dict[str, Any] | None = None, lair: str = "B2") -> Scenario:  # fmt: skip
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 12, "height": 12, "terrain": {"forests": ["C2", "C3"]}},
        "factions": ["red", "blue"],
        "rolls": rolls_,
        "state": {
            "turn": turn,
            "factions": {
                "red": {
                    "gold": 100,
                    "lairs": {"red-lair1": {"grid": lair, "rooms": [{"type": "warehouse", "level": 1}]}},
                    "leaders": {"red-l1": {"name": "Grug", "bonus": "herald"}},
                    "units": {"red-u1": {"name": "Iron Fists", "race": "dwarves"}},
                    **(red or {}),
                },
                "blue": {"lairs": {"blue-lair1": {"grid": "H8"}}, "units": {"blue-u1": {"race": "orcs"}}},
            },
        },
        "orders": {"red": orders, "blue": []},
    }
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


QUIET_MONTH = {
    "t5/happenings/1": [1],
    "t5/happenings/2": [3],
}  # Thaw and the Planting Fair: no scout, no price


def test_the_checker_refuses_an_extra_that_does_not_help_the_action(tmp_path: Path) -> None:
    extras = {"extras": {"red-x1": _extra(helps=["harvest"])}}
    order = [{"action": "scout", "by": "red-u1", "assist": ["Mirela"], "target": "C2"}]
    scenario = _scenario(tmp_path, 5, order, {}, extras)
    [error] = scenario.order_files()["red"].errors
    assert error.message == "Mirela is an Extra who helps only with: harvest"


def test_an_extra_helps_one_action_a_week(tmp_path: Path) -> None:
    units = {"red-u1": {"name": "A", "race": "dwarves"}, "red-u2": {"name": "B", "race": "dwarves"}}
    extras = {"extras": {"red-x1": _extra()}, "units": units}
    orders = [
        {"action": "scout", "by": "red-u1", "assist": ["red-x1"], "target": "C2"},
        {"action": "scout", "by": "red-u2", "assist": ["red-x1"], "target": "C3"},
    ]
    [error] = _scenario(tmp_path, 5, orders, {}, extras).order_files()["red"].errors
    assert error.message == "Mirela already helps this week (order 1)"


def test_an_extra_in_a_resolved_scout(tmp_path: Path) -> None:
    extras = {"extras": {"red-x1": _extra()}}
    orders = [{"action": "scout", "by": "red-u1", "assist": ["red-x1"], "target": "C2"}]
    scenario = _scenario(tmp_path, 5, orders, {"t5/red/red-u1/scout/C2": [50], **QUIET_MONTH}, extras)
    files = scenario.order_files()
    assert files["red"].ok, [i.message for i in files["red"].errors]
    [event] = [e for e in scenario.resolve(files).events if e.kind == "scouted"]
    assert event.data["total"] == 50 + 10 + 3 * int(RULES["skills"]["scout"]["per_rank"])


# --- Morale, Loyalty, the fight, the reach -------------------------------------------------------------


def test_napoleon_counts_in_upkeeps_loyalty_for_the_units_sharing_its_lair() -> None:
    st = state(units=[unit("red-u1")], leaders=[leader("red-l1", spells=["napoleon"])])
    checked = upkeep.loyalty_check(
        context(forced={"t5/red/red-u1/loyalty/upkeep": [40]}), st, "red", "red-u1"
    )
    assert ("Napoleon", 10) in pairs(checked.roll.modifiers) and checked.total >= 50
    st["factions"]["red"]["leaders"]["red-l1"]["lair"] = "red-lair2"
    checked = upkeep.loyalty_check(
        context(forced={"t5/red/red-u1/loyalty/upkeep": [40]}), st, "red", "red-u1"
    )
    assert "Napoleon" not in [m.source for m in checked.roll.modifiers]


def _plan(st: dict[str, Any], leaders: list[dict[str, Any]]) -> Any:
    from resolver.rulesets.usurper.acting import Plan

    units = list(st["factions"]["red"]["units"].values())
    lair = st["factions"]["red"]["lairs"]["red-lair1"]
    return Plan("red", "attack", {}, "red-u1", [], leaders, units, "Z26", "X25", "Z26", lair)  # type: ignore[arg-type]


def test_the_combat_spells_give_the_forces_first_unit_more_dice_and_napoleon_its_morale() -> None:
    st = state(units=[unit("red-u1"), unit("red-u2")])
    caster = leader("red-l1", spells=["might", "stalwart", "napoleon"])
    side = combat.usurper_side(RULES, st, "red", _plan(st, [caster]))
    first, second = side.fighters
    assert (first.off, first.defense, first.strength) == (1, 2, 2)
    assert (second.off, second.defense, second.strength) == (1, 1, 1)
    plain = combat.usurper_side(RULES, st, "red", _plan(st, []))
    assert (plain.fighters[0].defense, plain.fighters[0].strength) == (1, 1)
    enemy = fight.Side("enc", [], attacking=False)
    battle = fight.Fight("t5/x", (side, enemy))
    assert ("Napoleon", 10) in pairs(fight.morale_modifiers(RULES, battle, first))
    battle = fight.Fight("t5/x", (plain, enemy))
    assert "Napoleon" not in [m.source for m in fight.morale_modifiers(RULES, battle, plain.fighters[0])]


def test_forced_march_takes_the_units_of_its_leader_one_grid_further(tmp_path: Path) -> None:
    # The unit's overland speed is 2 (dwarves); E2 is 3 grids from B2.
    order = [{"action": "scout", "by": "red-u1", "target": "E2"}]
    [error] = _scenario(tmp_path, 5, order, {}).order_files()["red"].errors
    assert "E2 is 3 away" in error.message
    marched = [{"action": "scout", "by": "red-u1", "assist": ["red-l1"], "target": "E2"}]
    leaders = {"leaders": {"red-l1": {"name": "Grug", "bonus": "herald", "spells": ["forced_march"]}}}
    files = _scenario(tmp_path, 5, marched, {}, leaders).order_files()
    assert [i.message for i in files["red"].errors] == [
        "Grug can go 2 grids from its lair at B2; E2 is 3 away"
    ]
    # a leader goes 2 grids: Forced March is for the units it takes along
    near = [{"action": "scout", "by": "red-u1", "assist": ["red-l1"], "target": "D2"}]
    assert _scenario(tmp_path, 5, near, {}, leaders).order_files()["red"].ok


# --- trade and rituals ----------------------------------------------------------------------------------


def test_a_months_event_moves_the_price_bought_and_sold() -> None:
    plain = trading.trade_visit(RULES, status="standard", cap=None, gold=500, stock={"foodstuffs": 10},
                                buy={"iron": 1}, sell={"foodstuffs": 1})  # fmt: skip
    dear = trading.trade_visit(RULES, status="standard", cap=None, gold=500, stock={"foodstuffs": 10},
                               buy={"iron": 1}, sell={"foodstuffs": 1},
                               percent={"iron": 100, "foodstuffs": -50})  # fmt: skip
    bought = {d.kind: d.gold for d in plain.deals}
    moved = {d.kind: d.gold for d in dear.deals}
    assert moved["buy"] == bought["buy"] * 2
    assert moved["sell"] == bought["sell"] // 2


def test_an_iron_shortage_doubles_irons_price_at_a_city(tmp_path: Path) -> None:
    red = {"known": {}}
    cities = {"C3": {"name": "Varos", "size": "small_town", "races": ["humans"]}}
    order = [{"action": "diplomacy", "by": "red-l1", "target": "C3", "buy": {"iron": 1}}]
    scenario = _scenario(tmp_path, 13, order, {"t13/red/red-l1/diplomacy/C3": [60]}, red)
    fixture = yaml.safe_load(scenario.path.read_text(encoding="utf-8"))
    fixture["state"]["cities"] = cities
    fixture["rolls"].update(
        {"t13/happenings/1": [6], "t13/happenings/2": [1]}
    )  # Summer: the shortage, Long Days
    scenario.path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    scenario = Scenario(scenario.path)
    files = scenario.order_files()
    assert files["red"].ok, [i.message for i in files["red"].errors]
    result = scenario.resolve(files)
    [event] = [e for e in result.events if e.kind == "diplomacy"]
    standard = int(RULES["trade"]["buy"]["standard"]["iron"]["gold"])
    assert result.state["happenings"]["events"][0] == "iron_shortage"
    assert event.data["bought"][0]["gold"] == 2 * standard


def test_a_leaders_diplomacy_at_a_landmark_is_its_ritual(tmp_path: Path) -> None:
    # Talonrel's Oracle stands at C7; the lair at C5 is 2 grids away. 60 + 25 = 85: a Success.
    order = [{"action": "diplomacy", "by": "red-l1", "target": "C7"}]
    scenario = _scenario(tmp_path, 5, order, {"t5/red/red-l1/diplomacy/C7": [60], **QUIET_MONTH}, lair="C5")
    files = scenario.order_files()
    assert files["red"].ok, [i.message for i in files["red"].errors]
    result = scenario.resolve(files)
    [event] = [e for e in result.events if e.kind == "ritual"]
    assert event.data["band"] == "success" and event.rolls and event.visible_to == ["red"]
    tokens = result.state["factions"]["red"]["oracle_tokens"]
    assert [t["value"] for t in tokens] == [25, 25]
    assert not [e for e in result.events if e.kind == "diplomacy"]


def test_a_ritual_takes_no_trade(tmp_path: Path) -> None:
    order = [{"action": "diplomacy", "by": "red-l1", "target": "C7", "buy": {"iron": 1}}]
    [error] = _scenario(tmp_path, 5, order, {}, lair="C5").order_files()["red"].errors
    assert error.message == "C7 is Talonrel's Oracle, a landmark: a Diplomacy there is its ritual"
