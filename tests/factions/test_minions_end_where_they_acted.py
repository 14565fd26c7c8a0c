"""Factions: ``end_at`` keeps a lieutenant in the locale where it acted, and names a real location.

Only Move Minion takes minions further. ``campaign check``, the pull-request check and the resolver read
the order once, the same way, so what the check accepts is what the turn does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from resolver.rulesets.factions import model as m
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign

from ..git.gitsim import Campaign


def conceal_order(campaign: str, end_at: str) -> str:
    """red-l1 conceals its hideout, then ends the action at ``end_at``."""
    order = {"action": "conceal", "lieutenant": "red-l1", "asset": "red-s1", "end_at": end_at}
    return yaml.safe_dump({"campaign": campaign, "turn": 1, "faction": "red", "orders": [order]})


def places(root: Path) -> tuple[str, str]:
    """Two locations that let red in: one of red-l1's locale other than its own, one of another locale."""
    store = Store(root)
    state, rules = store.state(), store.game().rules
    standing = state["assets"]["red-l1"]["location"]
    here = m.locale_of(state, standing)
    other_here = next(
        lid for lid in m.locations_in(state, here) if lid != standing and m.admits(state, rules, lid, "red")
    )
    elsewhere = next(
        lid
        for lid, loc in sorted(state["locations"].items())
        if loc["locale"] != here and m.admits(state, rules, lid, "red")
    )
    return other_here, elsewhere


@pytest.fixture
def city(tmp_path: Path) -> Path:
    root = tmp_path / "city"
    new_campaign(root, "factions", 3, default_factions(2, 3))
    return root


def test_end_at_beyond_the_locale_is_refused_and_the_player_can_fix_it(city: Path, run) -> None:
    state = Store(city).state()
    here = m.locale_of(state, state["assets"]["red-l1"]["location"])
    inside, elsewhere = places(city)
    orders = city / "orders/red.yaml"

    orders.write_text(conceal_order("factions-campaign-3", elsewhere))
    code, out, err = run("check", "--root", city, orders)
    assert code == 1, err
    assert f"orders/red.yaml:6:11: error: {elsewhere} is not in {here}, where the action happens" in out
    assert "to go further, give a move_minion order" in out
    code, _, err = run("resolve", "--root", city)
    assert code == 1 and "1 order file(s) have errors (orders/red.yaml)" in err
    assert Store(city).state()["assets"]["red-l1"]["location"] == state["assets"]["red-l1"]["location"]

    orders.write_text(conceal_order("factions-campaign-3", inside))
    code, out, err = run("check", "--root", city, orders)
    assert code == 0, out + err
    assert f"ends at {inside}" in out
    code, _, err = run("resolve", "--root", city)
    assert code == 0, err
    assert Store(city).state()["assets"]["red-l1"]["location"] == inside  # the resolver read it the same


@pytest.mark.parametrize("written", ["p-keldby", "red-l1"])
def test_end_at_that_is_no_location_is_an_error_not_a_crash(city: Path, run, written: str) -> None:
    orders = city / "orders/red.yaml"
    orders.write_text(conceal_order("factions-campaign-3", written))
    code, out, err = run("check", "--root", city, orders)
    assert code == 1, err
    assert "internal error" not in err
    assert f"orders/red.yaml:6:11: error: there is no location '{written}'" in out
    assert "ocations in " in out  # the hint lists the locations to choose from


@pytest.mark.parametrize("how_far", ["no location", "another locale"])
def test_the_pull_request_gate_comments_on_a_bad_end_at(tmp_path: Path, how_far: str) -> None:
    world = Campaign.create(tmp_path / "git", options=("--ruleset", "factions"))
    world.sync(world.ci)
    inside, elsewhere = places(world.ci)
    campaign = Store(world.ci).config()["campaign"]
    written = "p-keldby" if how_far == "no location" else elsewhere

    refused = world.check(
        world.pull_request("alice", "red", {"orders/red.yaml": conceal_order(campaign, written)})
    )
    assert refused.code == 1, refused.err
    assert "internal error" not in refused.err
    assert "❌ Orders refused" in refused.comment
    assert "::error file=orders/red.yaml,line=6," in refused.out

    fixed = world.check(
        world.pull_request("alice", "red", {"orders/red.yaml": conceal_order(campaign, inside)})
    )
    assert fixed.code == 0, fixed.comment
    assert "✅ Orders accepted" in fixed.comment
