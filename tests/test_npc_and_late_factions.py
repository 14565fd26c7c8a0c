"""Factions the engine owns (issue 10 point 6): one record with a kind, NPC factions played by the bot every
turn, and factions the GM brings in mid-campaign with their starting pieces."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.store.replay import verify
from resolver.store.resolution import resolve
from resolver.store.store import Store
from resolver.workflow import check, default_factions, new_campaign, play_bot_turn


def gm_file(root: Path, body: str) -> None:
    state = Store(root).state()
    campaign = canonical.read_yaml(root / "campaign/campaign.yaml")["campaign"]
    text = f"campaign: {campaign}\nturn: {state['turn']}\nfaction: gm\norders:\n{body}"
    (root / "orders/gm.yaml").write_text(text, encoding="utf-8")


@pytest.fixture
def nations(tmp_path: Path) -> Path:
    root = tmp_path / "nations"
    new_campaign(root, "nations", 7, default_factions(2, 7))
    return root


def test_a_late_joining_player_gets_a_capital_an_army_a_template_and_plays_the_next_turn(
    nations: Path,
) -> None:
    gm_file(nations, "  - {action: add_faction, id: violet, name: The Violet March, color: '#7d3c98'}\n")
    game, result = resolve(nations)
    assert result.events[0].kind == "gm_add_faction"
    state = Store(nations).state()
    assert (
        state["factions"]["violet"]["name"] == "The Violet March"
        and "kind" not in state["factions"]["violet"]
    )
    capital = next(s for s in state["settlements"].values() if s["owner"] == "violet")
    army = next(a for a in state["armies"].values() if a["owner"] == "violet")
    assert capital["type"] == "capital" and army["location"] == capital["location"]
    others = [s["location"] for s in state["settlements"].values() if s["owner"] != "violet"]
    assert capital["location"] not in others
    sentence = game.ruleset.describe(result.events[0].to_data(), game)
    assert sentence.startswith(f"The Violet March enters the campaign: capital {capital['name']} at ")
    assert (nations / "orders/templates/violet.yaml").exists()
    # A player like any other: silent, it is missing; with orders, its orders are carried out.
    _, silent = resolve(nations)
    assert "violet" in silent.missing
    _, played = play_bot_turn(nations)
    assert "violet" in played.posting_order and not played.missing
    assert any("violet" in e.actors for e in played.events if e.kind != "orders_missing")
    assert all(turn.ok for turn in verify(nations))


def test_an_npc_faction_needs_no_file_and_refuses_one(nations: Path) -> None:
    gm_file(nations, "  - {action: add_faction, id: raiders, name: Raiders, kind: npc}\n")
    resolve(nations)
    assert not (nations / "orders/templates/raiders.yaml").exists()
    _, result = resolve(nations)  # nobody sent orders: the players are missing, the raiders are not
    assert "raiders" not in result.missing and set(result.missing) == {"red", "blue"}
    assert set(result.npc_orders) == {"raiders"} and result.npc_orders["raiders"].ok
    assert (nations / "campaign/turns/0002/npc-orders/raiders.yaml").exists()
    state = Store(nations).state()
    assert state["factions"]["raiders"]["missed_turns"] == 0
    (nations / "orders/raiders.yaml").write_text(
        result.npc_orders["raiders"].raw.decode().replace("turn: 2", "turn: 3"), encoding="utf-8"
    )
    (refused,) = check(nations)
    assert [i.message for i in refused.errors] == [
        "Raiders is played by the bot every turn and takes no order file"
    ]
    assert refused.errors[0].hint.startswith("delete this file")


def test_add_faction_is_checked_before_anything_changes(nations: Path) -> None:
    gm_file(
        nations,
        "  - {action: add_faction, id: red, name: Again}\n"
        "  - {action: add_faction, id: Bad Id, name: Bad}\n"
        "  - {action: add_faction, id: teal, name: Teal, color: teal}\n"
        "  - {action: add_faction, id: sky, name: Sky}\n"
        "  - {action: add_faction, id: sky, name: Sky again}\n",
    )
    (of,) = check(nations)
    assert [i.message for i in of.errors] == [
        "there is already a faction 'red'",
        "'Bad Id' is not a usable faction id: lower-case letters, digits and dashes, starting with a letter; "
        "not 'gm'",
        "'teal' is not a colour",
        "there is already a faction 'sky'",
    ]
    assert all(i.hint for i in of.errors)


def test_a_ruleset_without_late_joiners_offers_no_add_faction(tmp_path: Path) -> None:
    root = tmp_path / "factions"
    new_campaign(root, "factions", 3, default_factions(2, 3))
    gm_file(root, "  - {action: add_faction, id: violet, name: Violet}\n")
    (of,) = check(root)
    assert of.errors[0].message == "unknown action 'add_faction'"


def test_both_rulesets_make_their_records_with_the_one_function(tmp_path: Path) -> None:
    for ruleset in ("nations", "factions"):
        root = tmp_path / ruleset
        new_campaign(root, ruleset, 3, default_factions(2, 3))
        for record in Store(root).state()["factions"].values():
            assert {"name", "color", "status", "missed_turns"} <= set(record) and "kind" not in record
