"""Relations between factions and timed effects, ended by the engine at the turn boundary."""

from __future__ import annotations

from typing import Any

import pytest

from resolver.core import relations

RULES = {
    "relations": {
        "default": "neutral",
        "kinds": {"neutral": "", "war": "", "enforced_peace": "", "tribute": ""},
    }
}


def recorder() -> tuple[list[tuple[str, dict[str, Any]]], Any]:
    events: list[tuple[str, dict[str, Any]]] = []
    return events, lambda kind, **data: events.append((kind, data))


def test_a_pair_starts_in_the_default_and_a_relation_is_mutual() -> None:
    state: dict[str, Any] = {}
    assert relations.between(state, RULES, "red", "blue") == "neutral"
    relations.set_relation(state, RULES, "red", "blue", "war", turn=2)
    assert relations.between(state, RULES, "blue", "red") == "war"
    assert state["relations"] == {"blue/red": {"parties": ["blue", "red"], "kind": "war", "since": 2}}
    assert relations.of_faction(state, "red") == [state["relations"]["blue/red"]]
    relations.set_relation(state, RULES, "blue", "red", "neutral", turn=3)
    assert "relations" not in state  # the state keeps only what differs from the default


def test_unknown_relations_and_a_faction_with_itself_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown relation"):
        relations.set_relation({}, RULES, "red", "blue", "alliance", turn=1)
    with pytest.raises(ValueError, match="two different factions"):
        relations.set_relation({}, RULES, "red", "red", "war", turn=1)


def test_a_timed_relation_ends_after_its_last_turn_with_an_event() -> None:
    state: dict[str, Any] = {}
    entry = relations.set_relation(state, RULES, "red", "blue", "enforced_peace", turn=3, turns=2)
    assert entry is not None and entry["until"] == 4
    events, emit = recorder()
    relations.expire(emit, state, 3, "neutral")
    assert events == [] and relations.between(state, RULES, "red", "blue") == "enforced_peace"
    relations.expire(emit, state, 4, "neutral")
    assert relations.between(state, RULES, "red", "blue") == "neutral" and "relations" not in state
    assert events == [
        ("relation_expired", {"actors": ["blue", "red"], "relation": "enforced_peace", "now": "neutral"})
    ]


def test_a_timed_modifier_is_taken_off_after_its_last_turn() -> None:
    state: dict[str, Any] = {"factions": {"red": {"modifiers": {}}}, "armies": {"a1": {"owner": "red"}}}
    relations.add_effect(state, "factions", "red", "attack", 1, turn=5, turns=1)
    relations.add_effect(state, "armies", "a1", "defence", 2, turn=5, turns=3)
    assert state["factions"]["red"]["modifiers"] == {"attack": 1}
    events, emit = recorder()
    relations.expire(emit, state, 5, "neutral")
    assert state["factions"]["red"]["modifiers"] == {} and state["armies"]["a1"]["modifiers"] == {
        "defence": 2
    }
    assert events == [("effect_expired", {"actors": ["red"], "target": "red", "name": "attack", "value": 1})]
    relations.expire(emit, state, 7, "neutral")
    assert state["armies"]["a1"]["modifiers"] == {} and "effects" not in state
    assert events[-1][1]["actors"] == ["red"]  # a piece's effect is its owner's news


def test_an_effect_on_a_named_piece_tells_its_name() -> None:
    state: dict[str, Any] = {"commanders": {"red-marshal": {"owner": "red", "name": "Aldric"}}}
    relations.add_effect(state, "commanders", "red-marshal", "captive", 1, turn=5, turns=1)
    events, emit = recorder()
    relations.expire(emit, state, 5, "neutral")
    assert events[0][1]["target"] == "red-marshal" and events[0][1]["target_name"] == "Aldric"


def test_a_modifier_changed_before_its_timer_runs_out_is_left_alone() -> None:
    state: dict[str, Any] = {"factions": {"red": {}}}
    relations.add_effect(state, "factions", "red", "income", -2, turn=1, turns=2)
    state["factions"]["red"]["modifiers"]["income"] = 3  # set again by hand
    relations.expire(lambda *a, **k: None, state, 2, "neutral")
    assert state["factions"]["red"]["modifiers"] == {"income": 3}
    relations.add_effect(state, "factions", "red", "income", -2, turn=3, turns=2)
    relations.drop_effect(state, "factions", "red", "income")
    assert "effects" not in state
