"""A ruleset laid out as the guide says needs no hook that only calls its own modules: the base class
finds ``phases.PHASES``, ``orders.action_specs``, ``setup``, ``bot`` and ``rulesdoc`` by name."""

from __future__ import annotations

import pytest

from resolver.engine.ruleset import Ruleset, filled_state, get_ruleset
from resolver.rulesets.factions import orders, phases, rulesdoc
from resolver.rulesets.nations import setup


class Bare(Ruleset):
    """A ruleset defined outside a package: it has no modules to default to."""

    id = "bare"
    summary = "A bare ruleset."


def test_the_hooks_default_to_the_rulesets_own_modules() -> None:
    factions = get_ruleset("factions")
    rules = factions.default_rules()
    assert factions.phase_functions() is phases.PHASES
    assert factions.actions(rules) == orders.action_specs(rules)
    assert factions.introduction(rules) == rulesdoc.introduction(rules)
    partial = {"settlements": {"oakham": {"owner": "red", "location": "B2"}}}
    nations = get_ruleset("nations")
    assert nations.fill_state(nations.default_rules(), partial, ["red"]) == setup.fill_state(
        nations.default_rules(), partial, ["red"]
    )


def test_a_ruleset_without_the_module_says_which_one_it_lacks() -> None:
    with pytest.raises(NotImplementedError, match="no phases module"):
        Bare().phase_functions()
    assert Bare().introduction({}) == "A bare ruleset."  # the optional ones fall back on the defaults
    assert Bare().fill_state({}, {}, ["red"])["factions"]["red"]["status"] == "active"


def test_a_filled_state_gives_records_their_keys_as_ids_and_keeps_what_was_written() -> None:
    partial = {"turn": 3, "armies": {"a1": {"owner": "red"}, "a2": {"id": "kept", "owner": "red"}}}
    state = filled_state(partial, ["red", "blue"], {"stock": {"gold": 0}}, records=("armies", "projects"))
    assert state["turn"] == 3
    assert state["armies"]["a1"]["id"] == "a1" and state["armies"]["a2"]["id"] == "kept"
    assert state["projects"] == {}
    assert state["factions"]["blue"]["stock"] == {"gold": 0}
    assert "id" not in partial["armies"]["a1"]  # the hand-written part is copied, never changed
