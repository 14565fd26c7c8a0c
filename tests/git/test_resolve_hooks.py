"""No git hook of the runner's clone runs while the resolve job commits the turn (issue 8, point 12)."""

from __future__ import annotations

from .gitsim import Campaign


def test_resolve_commit_runs_no_hook(world: Campaign) -> None:
    for faction in ("red", "blue", "green"):
        world.submit(faction)
    world.sync(world.ci)
    marker = world.base / "a-hook-ran"
    hooks = world.ci / ".git" / "hooks"
    for name in ("pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"):
        hook = hooks / name
        hook.write_text(f"#!/bin/sh\necho {name} >> '{marker}'\nexit 1\n")
        hook.chmod(0o755)
    done = world.resolve("--if-due", "--commit")
    assert done.code == 0, done.out + done.err
    assert not marker.exists(), marker.read_text()
    assert world.tags() == ["turn-1"]
