"""A sealed order file that fails at resolution was merged for all to see: the public is told that its
faction's orders could not be used, never that none arrived, and never why; the faction alone reads the
reason. Through the CI path (``campaign resolve --commit``), whose output and commit are public."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from resolver.core.factions import awaited
from resolver.engine.ruleset import RULESETS

from .sealed_play import (
    full_state,
    key_file,
    order_file,
    public_events,
    public_text,
    report,
    run,
    sealed_demo,
    send_sealed,
)

BAD_ACTION = "marker-fly-to-the-moon-d41"  # no ruleset has it: the file fails the full check


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=GM", "-c", "user.email=gm@example.org", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture(scope="module", params=RULESETS)
def refused_turn(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A sealed campaign of each ruleset in git, whose turn 2 one faction's sealed file cannot be used;
    resolved as CI resolves it."""
    root = sealed_demo(tmp_path_factory.mktemp("refused"), request.param)
    game, state = full_state(root)
    refused = awaited(state, game.factions)[0]  # a faction a player sends orders for
    send_sealed(root, refused, order_file(root, refused, [{"action": BAD_ACTION}]))
    git(root, "init", "--quiet", "--initial-branch", "main")
    git(root, "add", "--all")
    git(root, "commit", "--quiet", "--message", "turn 2 orders")
    code, printed = run("resolve", "--commit", "--force", "--root", root, "--key-file", key_file(root))
    assert code == 0, printed
    return {
        "root": root,
        "printed": printed,
        "refused": refused,
        "name": game.name_of(refused),
        "message": git(root, "log", "-1", "--format=%B"),
    }


def test_the_public_hears_its_orders_could_not_be_used_not_that_none_came(
    refused_turn: dict[str, Any],
) -> None:
    refused, name = refused_turn["refused"], refused_turn["name"]
    events = public_events(refused_turn["root"], 2)
    missing = [e for e in events if e["kind"] == "orders_missing"]
    assert not [e for e in missing if refused in e["actors"]]
    assert [e["actors"] for e in events if e["kind"] == "orders_unusable"] == [[refused]]
    printed = refused_turn["printed"]
    assert f"The sealed orders of {name} could not be used" in printed
    assert not [line for line in printed.splitlines() if "No orders arrived" in line and name in line]
    message = refused_turn["message"]
    assert f"Sealed orders that could not be used: {refused}." in message
    assert not [
        line for line in message.splitlines() if line.startswith("No orders from") and refused in line
    ]


def test_why_it_was_refused_is_the_faction_s_alone(refused_turn: dict[str, Any]) -> None:
    root = refused_turn["root"]
    assert BAD_ACTION not in public_text(root, refused_turn["printed"] + refused_turn["message"])
    mine = report(root, 2, refused_turn["refused"])
    assert BAD_ACTION in mine
    assert "Your sealed orders could not be used this turn" in mine
    assert "No orders arrived from you" not in mine
