"""What stands at a faction's order-file path (issue 20 point 13). A folder, a named pipe or a link (to a
device, or to anything) where ``orders/red.yaml`` belongs is refused by name, by ``campaign check`` and
``campaign resolve``, and the turn is not resolved without red's orders; ``orders/red.yml`` is resolved
like ``orders/red.yaml`` and removed with it, so it never holds up the next turn. The pull-request check
says how to put either right."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.core import factions as faction_records
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import RULESETS
from resolver.store.store import Store

from .gitsim import Campaign, PullRequest, cli


def player_factions(root: Path) -> list[str]:
    state = Store(root).state()
    return faction_records.awaited(state, Store(root).game(state).factions)


def orders_of(root: Path, faction: str) -> bytes:
    state = Store(root).state()
    return bot_order_file(Store(root).game(state), state, faction).raw


def a_folder(path: Path) -> str:
    path.mkdir()
    (path / "orders.yaml").write_text("faction: red\n", encoding="utf-8")
    return "a folder"


def a_named_pipe(path: Path) -> str:
    os.mkfifo(path)
    return "a named pipe (FIFO)"


def a_link_to_a_device(path: Path) -> str:
    path.symlink_to("/dev/null")
    return "a link"


def a_link_to_a_file(path: Path) -> str:
    target = path.parent.parent / "elsewhere.yaml"
    target.write_bytes(b"")
    path.symlink_to(target)
    return "a link"


KINDS: dict[str, Callable[[Path], str]] = {
    "folder": a_folder,
    "fifo": a_named_pipe,
    "device link": a_link_to_a_device,
    "file link": a_link_to_a_file,
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_what_is_not_a_file_at_an_order_path_is_refused_and_the_turn_waits(
    tmp_path: Path, ruleset: str, kind: str
) -> None:
    root = tmp_path / "campaign"
    assert cli("new", "--root", root, "--ruleset", ruleset, "--factions", "2", "--open").code == 0
    first, second = player_factions(root)
    (root / "orders" / f"{second}.yaml").write_bytes(orders_of(root, second))
    path = root / "orders" / f"{first}.yaml"
    what = KINDS[kind](path)
    said = f"error: orders/{first}.yaml is {what}, not an order file"
    fix = f"fix: an order file is an ordinary file: remove this one (rm -r orders/{first}.yaml)"
    for command in ("check", "resolve"):
        done = cli(command, "--root", root)
        assert done.code == 1, done.out + done.err
        assert said in done.err and fix in done.err, done.err
    assert Store(root).archived_turns() == [] and Store(root).state()["turn"] == 1
    # The next step: the thing removed, the orders saved as an ordinary file; the turn resolves with them.
    if path.is_dir() and not path.is_symlink():
        for inside in path.iterdir():
            inside.unlink()
        path.rmdir()
    else:
        path.unlink()
    path.write_bytes(orders_of(root, first))
    assert cli("check", "--root", root).code == 0
    resolved = cli("resolve", "--root", root)
    assert resolved.code == 0, resolved.err
    assert canonical.read_yaml(root / "campaign/turns/0001/inputs.yaml")["missing"] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_orders_saved_as_yml_are_resolved_and_removed_and_the_next_turn_goes_on(
    tmp_path: Path, ruleset: str
) -> None:
    root = tmp_path / "campaign"
    assert cli("new", "--root", root, "--ruleset", ruleset, "--factions", "2", "--open").code == 0
    first, second = player_factions(root)
    for faction in (first, second):
        (root / "orders" / f"{faction}.yml").write_bytes(orders_of(root, faction))
    checked = cli("check", "--root", root)
    assert checked.code == 0, checked.out + checked.err
    assert (
        f"orders/{first}.yml: warning: the pull-request check takes this file only by the name "
        f"orders/{first}.yaml" in checked.out
    )
    assert f"fix: rename it: git mv orders/{first}.yml orders/{first}.yaml" in checked.out
    assert cli("resolve", "--root", root).code == 0
    assert canonical.read_yaml(root / "campaign/turns/0001/inputs.yaml")["missing"] == []
    assert not list((root / "orders").glob("*.yml"))  # resolved, so gone like any order file
    # Turn 2: nothing of turn 1 is left to stop it.
    for faction in (first, second):
        (root / "orders" / f"{faction}.yaml").write_bytes(orders_of(root, faction))
    assert cli("check", "--root", root).code == 0
    again = cli("resolve", "--root", root)
    assert again.code == 0 and "Turn 2 resolved" in again.out, again.err


# -- the pull-request check and CI -------------------------------------------------------------------------


def test_a_pull_request_with_orders_under_another_name_or_in_a_folder_is_told_the_fix(
    world: Campaign,
) -> None:
    orders = world.bot_orders("red")
    renamed = world.check(world.pull_request("alice", "red-yml", {"orders/red.yml": orders}))
    assert renamed.code == 1
    assert (
        "orders/red.yml is not the name of an order file: this pull request may bring orders/red.yaml only"
        in (renamed.comment)
    )
    assert "rename it: git mv orders/red.yml orders/red.yaml, then commit and push" in renamed.comment
    foldered = world.check(world.pull_request("alice", "red-folder", {"orders/red.yaml/mine.yaml": orders}))
    assert foldered.code == 1
    assert (
        "orders/red.yaml must be a file, but this pull request makes it a folder (orders/red.yaml/mine.yaml)"
        in foldered.comment
    )
    assert "git rm -r orders/red.yaml, save your orders as the file orders/red.yaml" in foldered.comment
    # The next step, as the comment says: the file renamed on the same branch, pushed again.
    alice = world.clone("alice")
    world.git(alice, "checkout", "--quiet", "red-yml")
    world.git(alice, "mv", "orders/red.yml", "orders/red.yaml")
    head = world.commit(alice, "alice", "rename")
    world.git(alice, "push", "--quiet", "--force", "origin", "HEAD:refs/heads/red-yml")
    accepted = world.check(PullRequest("red-yml", "alice", head))
    assert accepted.code == 0, accepted.comment


def test_a_link_merged_past_the_check_stops_the_hourly_run_by_name(world: Campaign) -> None:
    """The check refuses a link; a GM who merges it anyway gets a resolve that says what is wrong,
    rather than a turn resolved without red."""
    for faction in ("blue", "green"):
        world.submit(faction)
    alice = world.clone("alice")
    world.git(alice, "fetch", "--quiet", "origin")
    world.git(alice, "checkout", "--quiet", "-B", "link", "origin/main")
    (alice / "orders/red.yaml").symlink_to("/dev/null")
    head = world.commit(alice, "alice", "a link")
    world.git(alice, "push", "--quiet", "origin", "HEAD:refs/heads/link")
    pr = PullRequest("link", "alice", head)
    assert world.check(pr).code == 1
    before = world.merge(pr)
    stopped = world.resolve("--if-due", "--commit")
    assert stopped.code == 1
    assert "error: orders/red.yaml is a link, not an order file" in stopped.err
    world.sync(world.ci)
    assert world.head() == before and world.tags() == []
    # The GM's fix: the link replaced by red's orders, merged; the turn resolves with them.
    orders = world.bot_orders("red")
    world.git(alice, "fetch", "--quiet", "origin")
    world.git(alice, "checkout", "--quiet", "-B", "red-orders", "origin/main")
    (alice / "orders/red.yaml").unlink()
    (alice / "orders/red.yaml").write_bytes(orders)
    head = world.commit(alice, "alice", "red's orders, as a file")
    world.git(alice, "push", "--quiet", "origin", "HEAD:refs/heads/red-orders")
    fix = PullRequest("red-orders", "alice", head)
    assert world.check(fix).code == 0
    world.merge(fix)
    done = world.resolve("--if-due", "--commit")
    assert done.code == 0, done.err
    assert canonical.read_yaml(world.ci / "campaign/turns/0001/inputs.yaml")["missing"] == []
