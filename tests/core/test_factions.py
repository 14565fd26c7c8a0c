"""The one faction record, its kind, and which factions a turn waits for."""

from __future__ import annotations

import pytest

from resolver.core import factions


def test_new_faction_records_share_their_fields_and_mark_only_npc_factions() -> None:
    player = factions.new_faction("red", "Red", "#c0392b", stock={"resources": 5})
    assert player == {
        "name": "Red",
        "color": "#c0392b",
        "status": "active",
        "missed_turns": 0,
        "stock": {"resources": 5},
    }
    npc = factions.new_faction("raiders", "Raiders", "#000000", kind=factions.NPC)
    assert npc["kind"] == "npc"
    with pytest.raises(ValueError):
        factions.new_faction("x", "X", "#000000", kind="robot")


def test_a_turn_waits_for_active_players_only() -> None:
    state = {
        "factions": {
            "red": factions.new_faction("red", "Red", "#111111"),
            "raiders": factions.new_faction("raiders", "Raiders", "#222222", kind=factions.NPC),
            "gone": {**factions.new_faction("gone", "Gone", "#333333"), "status": "eliminated"},
        }
    }
    order = ["raiders", "gone", "red"]
    assert factions.active(state, order) == ["raiders", "red"]
    assert factions.awaited(state, order) == ["red"]
    assert factions.npcs(state, order) == ["raiders"]
    assert factions.kind_of(state, "red") == "player"


def test_new_ids_must_be_usable_and_free() -> None:
    assert factions.id_problem("raiders", ["red"]) == ""
    assert "already a faction" in factions.id_problem("red", ["red"])
    for bad in ("gm", "Red", "9lives", "a b"):
        assert "not a usable faction id" in factions.id_problem(bad, [])


def test_next_ids_count_per_kind_and_skip_ids_already_in_use() -> None:
    state = {"factions": {"red": factions.new_faction("red", "Red", "#111111")}}
    placed = {"red-u1", "red-u2"}  # placed by the GM before the faction made any unit
    assert factions.next_id(state, "red", "u", placed.__contains__) == "red-u3"
    assert factions.next_id(state, "red", "u", placed.__contains__) == "red-u4"
    assert factions.next_id(state, "red", "p", placed.__contains__) == "red-p1"
    assert state["factions"]["red"]["counters"] == {"u": 4, "p": 1}
