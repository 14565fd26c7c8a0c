"""Standing orders in the state: stored under the faction, only what differs from the defaults."""

from __future__ import annotations

from typing import Any

from resolver.core.fields import Field
from resolver.core.standing import StandingSection, in_force, record, stored

POLICIES = StandingSection(
    "policies",
    "Policies.",
    (
        Field("retreat_at_losses", "int", "Percent.", default=0, minimum=0, maximum=100),
        Field("defend_settlements", "bool", "Stay home.", default=False),
    ),
)
SECTIONS = {"policies": POLICIES}


def recorder() -> tuple[list[tuple[str, dict[str, Any]]], Any]:
    events: list[tuple[str, dict[str, Any]]] = []
    return events, lambda kind, **data: events.append((kind, data))


def test_a_section_written_is_stored_without_its_defaults_and_reported_to_its_faction() -> None:
    state: dict[str, Any] = {"factions": {"red": {}, "blue": {}}}
    events, emit = recorder()
    record(
        emit, state, {"red": {"policies": {"retreat_at_losses": 50, "defend_settlements": False}}}, SECTIONS
    )
    assert state["factions"]["red"]["standing"] == {"policies": {"retreat_at_losses": 50}}
    assert "standing" not in state["factions"]["blue"]
    assert in_force(state, "red", POLICIES) == {"retreat_at_losses": 50, "defend_settlements": False}
    assert in_force(state, "blue", POLICIES) == {"retreat_at_losses": 0, "defend_settlements": False}
    ((kind, data),) = events
    assert kind == "standing_orders" and data["visible_to"] == ["red"]
    assert data["text"] == "retreat_at_losses 50"


def test_writing_the_same_section_again_changes_nothing_and_says_nothing() -> None:
    state: dict[str, Any] = {"factions": {"red": {"standing": {"policies": {"retreat_at_losses": 50}}}}}
    events, emit = recorder()
    record(
        emit, state, {"red": {"policies": {"retreat_at_losses": 50, "defend_settlements": False}}}, SECTIONS
    )
    assert events == [] and stored(state, "red") == {"policies": {"retreat_at_losses": 50}}


def test_a_section_of_defaults_clears_the_faction_s_standing_orders() -> None:
    state: dict[str, Any] = {"factions": {"red": {"standing": {"policies": {"retreat_at_losses": 50}}}}}
    events, emit = recorder()
    record(
        emit, state, {"red": {"policies": {"retreat_at_losses": 0, "defend_settlements": False}}}, SECTIONS
    )
    assert "standing" not in state["factions"]["red"]
    assert events[0][1]["text"] == "the defaults"


def test_a_file_without_the_section_leaves_it_in_force() -> None:
    state: dict[str, Any] = {"factions": {"red": {"standing": {"policies": {"retreat_at_losses": 50}}}}}
    events, emit = recorder()
    record(emit, state, {"red": {}}, SECTIONS)
    assert events == [] and stored(state, "red") == {"policies": {"retreat_at_losses": 50}}
