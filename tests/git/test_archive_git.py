"""A pending edit of an order file can never reach the archive (issue 8, point 6).

The resolve commit deletes ``orders/red.yaml`` and archives the turn's orders in one sealed file,
``campaign/turns/NNNN/orders.yaml``, nothing like any order file; git has no rename to follow, so a
branch that edits the old file meets a conflict on ``orders/red.yaml`` instead of editing the archive.
"""

from __future__ import annotations

import subprocess

from resolver.core import canonical

from .gitsim import Campaign


def pull(world: Campaign, login: str, *args: str) -> subprocess.CompletedProcess[str]:
    """A git command in a player's clone that may fail, as a player would type it."""
    return subprocess.run(
        ["git", "-C", str(world.clone(login)), *args],
        capture_output=True,
        text=True,
        env=world.env(login),
        check=False,
    )


def test_a_stale_edit_pulled_after_the_resolve_stays_out_of_the_archive(world: Campaign) -> None:
    first = world.bot_orders("red")
    world.submit("red")
    # Alice opens a second pull request to change her merged orders.
    edited = first.replace(b"turn: 1", b"turn: 1\n# second thoughts")
    pending = world.pull_request("alice", "red-second-thoughts", {"orders/red.yaml": edited})
    # Meanwhile the others send theirs and the turn resolves.
    world.submit("blue")
    world.submit("green")
    assert world.resolve("--if-due", "--commit").code == 0
    world.sync(world.ci)
    archive_before = world.git(world.ci, "rev-parse", "HEAD:campaign/turns")
    # The resolve commit is no rename, whatever git's rename detection is asked to find.
    renames = world.git(world.ci, "diff", "-M10%", "-C10%", "--name-status", "HEAD~1", "HEAD")
    assert not [line for line in renames.splitlines() if line.startswith(("R", "C"))], renames

    # The README's fix for a stale branch: git pull --no-rebase --no-edit origin main (as "Update branch").
    pulled = pull(world, "alice", "pull", "--no-rebase", "--no-edit", "origin", "main")
    assert pulled.returncode != 0
    assert "CONFLICT (modify/delete): orders/red.yaml" in pulled.stdout + pulled.stderr
    # Her next step: keep her file and finish the merge.
    assert pull(world, "alice", "add", "orders/red.yaml").returncode == 0
    assert pull(world, "alice", "commit", "--no-edit").returncode == 0
    clone = world.clone("alice")
    changed = world.git(clone, "diff", "--name-only", "origin/main", "HEAD").splitlines()
    assert changed == ["orders/red.yaml"]
    assert world.git(clone, "rev-parse", "HEAD:campaign/turns") == archive_before
    world.git(clone, "push", "--quiet", "--force", "origin", "HEAD:refs/heads/red-second-thoughts")

    # The check still refuses the file: it is for a turn that is over.
    head = world.git(clone, "rev-parse", "HEAD")
    refused = world.check(type(pending)(pending.branch, "alice", head))
    assert refused.code == 1
    assert "turn 1" in refused.comment.lower()
    # The archive holds the orders as they were merged, sealed, and verify agrees.
    archived = canonical.read_yaml(world.ci / "campaign/turns/0001/orders.yaml")["orders"]["red"]
    assert archived["orders"] == canonical.load(first)["orders"]
    assert "second thoughts" not in (world.ci / "campaign/turns/0001/orders.yaml").read_text()
