"""The pull-request comment says what it checked, in the player's words: a sealed order file is named as
the order file it is, and a branch refused for a conflict still gets the turn line and its faction named
once. Each test then follows the player to the next step the comment gives."""

from __future__ import annotations

import os
from pathlib import Path
from unittest import mock

import pytest
import yaml

from resolver.engine.ruleset import RULESETS
from resolver.store import sealing

from .gitsim import PLAYERS, Campaign, cli
from .sealedsim import sealed_campaign


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_a_sealed_pull_request_is_named_as_the_order_file_it_brings(tmp_path: Path, ruleset: str) -> None:
    ids, world = sealed_campaign(tmp_path, ruleset)
    red = world.faction_of("alice")  # red, or the side the ruleset seats alice in
    alice = world.clone("alice")
    world.sync(alice)
    assert cli("view", "--root", alice, "--identity", ids[red]).code == 0
    plain = alice / "orders" / f"{red}.yaml"
    assert cli("template", red, "--root", alice, "-o", plain).code == 0
    header = plain.read_text(encoding="utf-8").split("\ncampaign:")[0]
    assert cli("check", "--root", alice, plain).code == 0
    assert cli("seal", "--root", alice, plain).code == 0
    pr = world.pull_request("alice", "red-orders", {})
    done = world.check(pr)
    assert done.code == 0, done.comment
    assert "changes no order file" not in done.comment
    assert f"### `orders/{red}.yaml.age`: sealed" in done.comment
    assert "Turn **1**" in done.comment and f"playing {red} (House Alder)" in done.comment
    # The template written in place had said what comes after the check in a sealed campaign.
    assert f"campaign seal orders/{red}.yaml" in header and f"send only orders/{red}.yaml.age" in header

    # The GM merges; the turn resolves with red's sealed orders, so red is not among the missing.
    world.merge(pr)
    key = sealing.read_key_text((world.base / "gm-key.txt").read_text(encoding="utf-8"))
    with mock.patch.dict(os.environ, {sealing.KEY_VARIABLE: key}):
        resolved = world.resolve("--commit", "--force")
    assert resolved.code == 0, resolved.err
    world.sync(world.ci)
    inputs = yaml.safe_load((world.ci / "campaign/turns/0001/inputs.yaml").read_text(encoding="utf-8"))
    others = {world.faction_of("bob"), world.faction_of("carol")}
    assert red not in inputs["missing"] and others <= set(inputs["missing"])


def test_a_conflicting_branch_gets_the_turn_line_and_its_faction_named_once(world: Campaign) -> None:
    orders = world.bot_orders("red")
    late = world.pull_request("alice", "second-thoughts", {"orders/red.yaml": orders + b"# two\n"})
    world.submit("red", orders + b"# one\n")
    refused = world.check(late)
    assert refused.code == 1
    assert "without conflicts (in orders/red.yaml)" in refused.comment
    assert "Turn **1** (" in refused.comment and "of *Git Test*" in refused.comment
    assert "playing red (House Alder)." in refused.comment and "red (red)" not in refused.comment

    # The fix the comment gives: a new branch from main with the orders, and a new pull request.
    assert "make a new branch from main" in refused.comment
    fresh = world.pull_request("alice", "red-orders-again", {"orders/red.yaml": orders + b"# three\n"})
    accepted = world.check(fresh)
    assert accepted.code == 0, accepted.comment
    assert "Turn **1** (" in accepted.comment and "playing red (House Alder)." in accepted.comment


def test_a_faction_whose_name_is_its_id_is_named_once(tmp_path: Path) -> None:
    roster = yaml.safe_load(yaml.safe_dump(PLAYERS))
    for info in roster["factions"].values():
        info.pop("name")  # each faction is then called by its id: red is "Red"
    world = Campaign.create(tmp_path / "game", roster=roster)
    orders = world.bot_orders("red")
    late = world.pull_request("alice", "late", {"orders/red.yaml": orders + b"# two\n"})
    world.submit("red", orders + b"# one\n")
    refused = world.check(late)
    assert refused.code == 1
    assert "playing red." in refused.comment
    assert "red (Red)" not in refused.comment and "red (red)" not in refused.comment
