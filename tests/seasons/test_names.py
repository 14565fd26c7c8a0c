"""Readers see commanders by name and units by kind, never the engine's ids (issue: names in seasons)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from resolver.rulesets.seasons import commanders
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign


def test_every_commander_of_a_new_campaign_has_his_own_name_from_the_rules(tmp_path: Path) -> None:
    root = tmp_path / "seasons"
    new_campaign(root, "seasons", 3, default_factions(4, 3))
    state = Store(root).state()
    names = [commander["name"] for commander in state["commanders"].values()]
    listed = Store(root).game(state).rules["commanders"]["names"]
    assert len(names) == len(set(names)) and set(names) <= set(listed)


def test_a_new_commander_takes_the_first_free_name_then_the_list_comes_round_with_an_epithet() -> None:
    rules: dict[str, Any] = {"commanders": {"names": ["Aldric", "Berengar"]}}
    state: dict[str, Any] = {"commanders": {"c1": {"id": "c1", "name": "Aldric"}}}
    assert commanders.fresh_name(rules, state) == "Berengar"
    state["commanders"]["c2"] = {"id": "c2", "name": "Berengar"}
    assert commanders.fresh_name(rules, state) == "Aldric the Younger"
    assert commanders.display_name({"id": "old-captain"}) == "old-captain"  # a record without a name
