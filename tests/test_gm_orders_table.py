"""The GM's orders are one table: the engine's own, then those a ruleset declares in its ``gm`` module.
A ruleset's own GM order is checked, echoed and carried out as the engine's are; a ruleset without the
hook offers the GM the engine's orders alone."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from resolver.engine import gm
from resolver.engine.ruleset import RULESETS, get_ruleset
from resolver.store.store import Store

from .gm_orders import new, write_gm

DECLARING = [r for r in RULESETS if get_ruleset(r).has_module("gm")]


def test_a_ruleset_is_declared_with_gm_orders_of_its_own() -> None:
    """Without one, the tests below would check nothing: factions declares hand_over."""
    assert "factions" in DECLARING
    assert [unit.name for unit in get_ruleset("factions").module("gm").ORDERS] == ["hand_over"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_gm_has_the_engines_orders_and_the_rulesets_own(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path / "c", ruleset)
    game = Store(root).game()
    declared = [u.name for u in game.ruleset.module("gm").ORDERS] if ruleset in DECLARING else []
    engine = [u.name for u in gm.ENGINE_ORDERS if u.offered(game)]
    assert list(gm.actions(game)) == engine + declared
    code, template, _ = run("template", "gm", "--root", root)
    assert code == 0
    for name in declared:
        assert f'#   - action: "{name}"' in template
    schema = (root / "orders/orders.schema.json").read_text()
    for name in declared:
        assert f'"{name}"' in schema


@pytest.mark.parametrize("ruleset", DECLARING)
def test_a_rulesets_own_gm_order_is_checked_echoed_and_carried_out(run, tmp_path: Path, ruleset: str) -> None:
    root = new(run, tmp_path / "c", ruleset)
    store = Store(root)
    game, state = store.game(), store.state()
    for unit in get_ruleset(ruleset).module("gm").ORDERS:
        examples = unit.examples(game, state)
        assert examples, f"{unit.name} has no example for the GM's template"
        gm_file = write_gm(root, examples)
        code, out, err = run("check", "--root", root, gm_file)
        assert code == 0, out + err
        for number, example in enumerate(examples, 1):
            assert f"  {number}. {unit.name}: {unit.sentence(game, state, example)}" in out
        # Refused like the engine's: an order without its required fields names the field.
        write_gm(root, [{"action": unit.name}])
        code, out, _ = run("check", "--root", root, gm_file)
        assert code == 1 and "orders/gm.yaml:5:" in out and "error" in out
    write_gm(
        root, [ex for unit in get_ruleset(ruleset).module("gm").ORDERS for ex in unit.examples(game, state)]
    )
    code, out, err = run("resolve", "--root", root)
    assert code == 0, err
    events = yaml.safe_load((root / "campaign/turns/0001/events.yaml").read_text())
    assert any(e["phase"] == "gm" for e in events["events"])
    assert run("verify", "--root", root, "--all")[0] == 0


def test_the_gm_hands_a_location_over_in_factions(run, tmp_path: Path) -> None:
    root = new(run, tmp_path / "c", "factions")
    store = Store(root)
    game, state = store.game(), store.state()
    location = sorted(state["locations"])[0]
    name = state["locations"][location]["name"]
    red = game.factions[0]
    gm_file = write_gm(root, [{"action": "hand_over", "location": "p-nowhere/inn", "holder": "nobody-here"}])
    before = (root / "campaign/state.yaml").read_bytes()
    code, out, _ = run("check", "--root", root, gm_file)
    assert code == 1
    assert "there is no location 'p-nowhere/inn'" in out and "nobody is called 'nobody-here'" in out
    assert run("resolve", "--root", root)[0] == 1
    assert (root / "campaign/state.yaml").read_bytes() == before

    write_gm(
        root, [{"action": "hand_over", "location": location, "holder": red, "reason": "A debt is settled"}]
    )
    code, out, _ = run("check", "--root", root, gm_file)
    assert code == 0, out
    assert f"1. hand_over: hand {name} ({location}) to {game.name_of(red)}: A debt is settled" in out
    code, out, err = run("resolve", "--root", root)
    assert code == 0, err
    was = state["locations"][location]["holder"]
    holders = {**{n: npc["name"] for n, npc in game.rules["npc_factions"].items()}, **game.faction_names}
    taken = f", taking it from {holders[was]}" if was else ""
    assert f"The GM hands the {name} to {game.name_of(red)}{taken}: A debt is settled." in out
    assert Store(root).state()["locations"][location]["holder"] == red


def test_an_item_the_factions_rules_do_not_define_is_given_with_a_warning(run, tmp_path: Path) -> None:
    root = new(run, tmp_path / "c", "factions")
    red = Store(root).game().factions[0]
    gm_file = write_gm(root, [{"action": "give_item", "faction": red, "item": "forged writ"}])
    code, out, _ = run("check", "--root", root, gm_file)
    assert code == 0, out
    assert "the rules define no item 'forged writ'" in out and "forged-writ" in out
    write_gm(root, [{"action": "give_item", "faction": red, "item": "forged-writ"}])
    code, out, _ = run("check", "--root", root, gm_file)
    assert code == 0 and "define no item" not in out
