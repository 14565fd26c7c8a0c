"""What a factions player sees while writing orders: the city in the template, hints that name places."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.rulesets.factions import model as m
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign


@pytest.fixture
def city(tmp_path: Path) -> Path:
    root = tmp_path / "city"
    new_campaign(root, "factions", 3, default_factions(2, 3))
    return root


def test_the_template_lists_every_location_and_who_holds_it(city: Path) -> None:
    store = Store(city)
    state, game = store.state(), store.game()
    template = (city / "orders/templates/red.yaml").read_text()
    assert "# Locations and who holds them:" in template
    for lid, location in state["locations"].items():
        holder = location.get("holder")
        who = {None: "public", "red": "yours"}.get(holder) or (
            f"{m.npc_name(game.rules, holder)} [{holder}]"
            if m.is_npc(game.rules, holder)
            else f"{game.name_of(holder)} [{holder}]"
        )
        assert f"{lid} ({who})" in template, lid


def test_an_unknown_location_hint_lists_the_locale_named(city: Path, run) -> None:
    state = Store(city).state()
    here = m.locale_of(state, state["assets"]["red-l1"]["location"])
    there = next(loc["locale"] for loc in state["locations"].values() if loc["locale"] != here)
    typo = f"{m.locations_in(state, there)[0]}x"
    (city / "orders/red.yaml").write_text(
        "campaign: factions-campaign-3\nturn: 1\nfaction: red\norders:\n"
        f"  - action: surveil\n    lieutenant: red-l1\n    location: {typo}\n"
    )
    code, out, _ = run("check", "--root", city)
    assert code == 1
    fix = next(line.strip() for line in out.splitlines() if line.strip().startswith("fix:"))
    listed = ", ".join(f"{lid} ({state['locations'][lid]['name']})" for lid in m.locations_in(state, there))
    assert f"Locations in {there}: {listed}" in fix
    assert f"did you mean '{typo[:-1]}' ({state['locations'][typo[:-1]]['name']})?" in fix
    assert not any(lid in fix for lid in m.locations_in(state, here))
