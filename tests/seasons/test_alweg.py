"""Alweg (issue 11): an NPC realm with Captains only, played by the bot as a non-Nation; it recruits
on its best Captain's War Rating, defends its provinces, never goes to war nor sends a diplomat."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from resolver.rulesets.seasons import bot
from resolver.rulesets.seasons import model as m
from resolver.store.resolution import resolve
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign

from ..scenarios.harness import resolve_accepted


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    root = tmp_path / "seasons"
    new_campaign(root, "seasons", 3, default_factions(4, 3))
    return root


def test_a_new_campaign_has_alweg_as_an_npc_with_captains_only(campaign: Path) -> None:
    state = Store(campaign).state()
    rules = Store(campaign).game(state).rules
    alweg = state["factions"]["alweg"]
    assert alweg["kind"] == "npc" and alweg["name"] == "Alweg"
    assert "Alweg" not in " ".join(rules["nation_names"])  # no player nation borrows its name
    ranks = [c["rank"] for c in state["commanders"].values() if c["owner"] == "alweg"]
    assert ranks and set(ranks) == {"captain"} and m.marshal_of(state, "alweg") is None
    held = m.provinces_of(state, "alweg")
    assert len(held) == int(rules["alweg"]["provinces"])
    assert state["provinces"][alweg["capital"]]["fort"] and alweg["capital"] in held
    [army] = m.armies_of(state, "alweg")
    assert state["commanders"][army["commander"]]["rank"] == "captain"
    assert [unit["code"] for unit in army["units"]] == list(rules["alweg"]["units"])
    assert "alweg" in m.nations(state) and "alweg" not in m.npcs(state)  # a realm, not a raiding people


def test_alweg_is_never_missing_needs_no_file_and_recruits_on_its_captains_rating(campaign: Path) -> None:
    assert not (campaign / "orders/templates/alweg.yaml").exists()
    _, result = resolve(campaign)  # nobody sent orders: the four nations are missing, Alweg is not
    assert "alweg" not in result.missing and len(result.missing) == 4
    assert result.npc_orders["alweg"].ok
    [rolls] = [e for e in result.events if e.kind == "recruiting_rolls" and e.actors == ["alweg"]]
    assert rolls.data["war_rating"] == 3  # its Captains' reputation (rules.yaml alweg.reputation)
    named = [e for e in result.events if e.kind == "marshal_attributes"]
    assert named and all("alweg" not in e.actors for e in named)  # the nations' Marshals roll, Alweg none
    assert Store(campaign).state()["factions"]["alweg"]["missed_turns"] == 0


def test_the_bot_never_has_alweg_declare_war_or_send_a_diplomat(campaign: Path) -> None:
    state = Store(campaign).state()
    game = Store(campaign).game(state)
    # Rich and strong, the way the bot's nations go to war; a player nation in its place would.
    rich = copy.deepcopy(state)
    for nation in ("alweg", "red"):
        rich["factions"][nation]["stock"]["resources"] = 20
        rich["factions"][nation]["rolls"] = 3
        army = m.armies_of(rich, nation)[0]
        army["units"] = army["units"] * 3
    for turn in range(1, 9):
        rich["turn"] = turn
        alweg = {order["action"] for order in bot.orders_for(game, rich, "alweg")["orders"]}
        assert not alweg & {"declare_war", "diplomat"}, turn
    red_actions = set()
    # a reason for red's diplomat (the bot sends one only with a reason): alliance talks with the others
    others = [n for n in m.nations(rich) if n != "red"]
    rich["factions"]["red"]["modifiers"] = {f"alliance_talks:{other}": 1 for other in others}
    for turn in range(1, 9):
        rich["turn"] = turn
        red_actions |= {order["action"] for order in bot.orders_for(game, rich, "red")["orders"]}
    assert {"declare_war", "diplomat"} <= red_actions  # the same bot plays a nation's war and diplomacy
    rich["turn"] = 1
    assert "recruit" in {order["action"] for order in bot.orders_for(game, rich, "alweg")["orders"]}


def _invasion() -> dict[str, Any]:
    """Red invades Alweg's province a0, held by an army under Alweg's Captain (reputation 3)."""
    return {
        "ruleset": "seasons",
        "rules": {"battle": {"rounds": 1}},
        "world": {"locales": {"r0": ["a0"], "a0": []}},
        "factions": ["red", "alweg"],
        "state": {
            "turn": 1,
            "provinces": {"r0": {"owner": "red", "capital": True}, "a0": {"owner": "alweg", "capital": True}},
            "factions": {
                "red": {"wars": ["alweg"], "attacking": ["alweg"]},
                "alweg": {"kind": "npc", "realm": True, "wars": ["red"]},
            },
            "commanders": {
                "rm": {"owner": "red", "rank": "marshal", "reputation": 4},
                "ac": {"owner": "alweg", "rank": "captain", "reputation": 3},
            },
            "armies": {
                "ra": {"owner": "red", "location": "r0", "commander": "rm", "units": [{"code": "FF"}]},
                "aa": {"owner": "alweg", "location": "a0", "commander": "ac", "units": [{"code": "FF"}]},
            },
        },
        "orders": {"red": [{"action": "invade", "province": "a0"}]},
        "standing": {"red": {"instructions": {"retreat_at_losses": 0}}},
        "rolls": {
            "t1/ambush/a0/aa": [6, 6, 6],  # the Captain's WR 3: three dice, none a success
            "t1/ambush/a0/ra": [6, 6, 6, 6],
            "t1/battle/a0/ra-u1/r1/attack": [1, 1, 1, 1],
            "t1/battle/a0/aa-u1/r1/defence": [6, 6, 6],
            "t1/battle/a0/aa-u1/r1/attack": [6, 6, 6],
            "t1/battle/a0/ra-u1/r1/defence": [6, 6],
        },
    }


def test_an_invasion_of_alweg_is_fought_with_its_captain_as_cinc(tmp_path: Path) -> None:
    result = resolve_accepted(tmp_path / "alweg.yaml", _invasion())
    [battle] = [e.to_data() for e in result.events if e.kind == "battle"]
    assert battle["place"] == "a0" and battle["actors"] == ["red", "alweg"]
    ambush = {r.label: r for e in result.events for r in e.rolls if "/ambush/" in r.label}
    assert ambush["t1/ambush/a0/aa"].expr == "3d6s<=3"  # Alweg's Captain leads: his WR 3 in dice
    assert not [e for e in result.events if e.kind == "marshal_fate" and "alweg" in e.actors]


@pytest.mark.parametrize(
    ("turn", "order"),
    [(1, {"action": "declare_war", "nation": "alweg"}), (4, {"action": "diplomat", "nation": "alweg"})],
)
def test_players_may_go_to_war_with_alweg_and_send_it_diplomats(
    tmp_path: Path, turn: int, order: dict[str, str]
) -> None:
    """House rule: Alweg is a target and a neighbour like any nation, though it never acts abroad."""
    fixture = _invasion()
    fixture["state"]["turn"] = turn
    for record in fixture["state"]["factions"].values():
        record.update(wars=[], attacking=[])
    fixture["orders"] = {"red": [order]}
    fixture["rolls"] = {}
    result = resolve_accepted(tmp_path / "alweg.yaml", fixture)
    kind = "war_test" if order["action"] == "declare_war" else "diplomacy"
    assert any(e.kind == kind and "alweg" in str(e.to_data()) for e in result.events)
