"""A sealed campaign's pull request that ever held plain text is refused for what it is: every commit of
the pull request is read, not only its result, since GitHub keeps each one public on the pull request's
ref. The comment says so plainly, and says what to do; a later commit that deletes the file changes
nothing. Played from a player's clone through git, for every ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.engine.ruleset import RULESETS

from .gitsim import LOGIN_OF, Campaign, PullRequest, cli
from .sealedsim import sealed_campaign

SECRET_ORDER = "MARKER-PLAN-3f1d"


def push(world: Campaign, clone: Path, branch: str, login: str, message: str) -> PullRequest:
    world.git(clone, "commit", "--quiet", "-m", message, login=login)
    head = world.git(clone, "rev-parse", "HEAD")
    world.git(clone, "push", "--quiet", "--force", "origin", f"HEAD:refs/heads/{branch}")
    return PullRequest(branch, login, head)


def assert_refused_as_public(result: object, paths: list[str], first_commit: str) -> None:
    comment = result.comment  # type: ignore[attr-defined]
    assert result.code == 1, comment  # type: ignore[attr-defined]
    flat = " ".join(comment.split())
    for path in paths:
        assert path in comment
    assert "It is now public, and cannot be withdrawn" in flat
    assert f"commit {first_commit[:12]} of this pull request holds plain text of this sealed campaign" in flat
    assert "tell the GM at once" in flat and "write new orders" in flat
    assert "belongs to another faction" not in flat  # the reason given today, and a wrong one


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_plain_orders_and_a_view_in_any_commit_refuse_the_pull_request(tmp_path: Path, ruleset: str) -> None:
    ids, world = sealed_campaign(tmp_path, ruleset)
    red = world.faction_of("alice")  # red, or the side the ruleset seats alice in
    alice = world.clone("alice")
    world.git(alice, "checkout", "--quiet", "-b", "red-orders")
    assert cli("view", "--root", alice, "--identity", ids[red]).code == 0
    plain = alice / "orders" / f"{red}.yaml"
    assert cli("template", red, "--root", alice, "-o", plain).code == 0
    plain.write_text(plain.read_text() + f"# {SECRET_ORDER}\n", encoding="utf-8")
    assert cli("seal", "--root", alice, plain).code == 0
    # A clone made before the campaign's ignore rules, or a forced add: everything goes in at once.
    world.git(alice, "add", "--force", f"orders/{red}.yaml", f"orders/{red}.yaml.age", ".view")
    first = push(world, alice, "red-orders", "alice", "my orders")
    leaked = [f"orders/{red}.yaml", ".view/state.yaml"]
    assert_refused_as_public(world.check(first), leaked, first.head)
    # The player's next step: a commit that deletes the plain files. The pull request's result is now
    # clean, but its first commit is still on its ref, public: still refused, for the same reason.
    world.git(alice, "rm", "--quiet", "-r", "--cached", f"orders/{red}.yaml", ".view")
    second = push(world, alice, "red-orders", "alice", "remove the plain files")
    tree = world.git(alice, "ls-tree", "-r", "--name-only", second.head).splitlines()
    assert f"orders/{red}.yaml" not in tree and not [name for name in tree if name.startswith(".view/")]
    assert_refused_as_public(world.check(second), leaked, first.head)
    # What the fix says: a new branch of main with the sealed file alone passes.
    (alice / "orders" / f"{red}.yaml").unlink()
    sealed = (alice / "orders" / f"{red}.yaml.age").read_bytes()
    fresh = world.pull_request(
        "alice", "red-orders-again", {f"orders/{red}.yaml.age": sealed}, "sealed orders"
    )
    assert world.git(alice, "show", "--name-only", "--format=", fresh.head).splitlines() == [
        f"orders/{red}.yaml.age"
    ]
    done = world.check(fresh)
    assert done.code == 0, done.comment
    assert "cannot be withdrawn" not in done.comment


def test_a_plain_order_file_added_and_removed_in_a_later_commit_on_the_gms_branch_is_refused(
    tmp_path: Path,
) -> None:
    """The GM's own orders are plain text too: the same refusal, with the GM's file named in the fix."""
    _, world = sealed_campaign(tmp_path, "factions")
    dora = world.clone(LOGIN_OF["gm"])
    world.git(dora, "checkout", "--quiet", "-b", "gm-orders")
    (dora / "orders" / "gm.yaml").write_text("faction: gm\norders: []\n", encoding="utf-8")
    world.git(dora, "add", "--force", "orders/gm.yaml")
    first = push(world, dora, "gm-orders", "dora", "gm orders")
    world.git(dora, "rm", "--quiet", "--cached", "orders/gm.yaml")
    second = push(world, dora, "gm-orders", "dora", "oops")
    result = world.check(second)
    assert_refused_as_public(result, ["orders/gm.yaml"], first.head)
    assert "orders/gm.yaml.age" in result.comment
