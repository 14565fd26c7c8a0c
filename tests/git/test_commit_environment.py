"""What the machine hands ``campaign resolve --commit`` (issue 20 point 11): a GIT_COMMITTER_DATE in a form
git reads dates the turn's commit; one git cannot read is refused by name before anything is written;
a disk that fills up as the tag is made is said to be full, and the clone is put back at the previous
commit, ready for the next run once there is room."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest

from resolver.git import flow as gitflow

from .gitsim import Campaign, cli

ALL = ("red", "blue", "green")


def ready(world: Campaign) -> str:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    return world.head()


def resolve_with(world: Campaign, dates: dict[str, str]) -> tuple[int, str, str]:
    """The resolve workflow's step, with the environment's dates as given (and no others)."""
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE")}
    with mock.patch.dict(os.environ, {**env, **dates}, clear=True):
        done = cli("resolve", "--root", world.ci, "--if-due", "--commit", "--now", world.clock.isoformat())
    return done.code, done.out, done.err


def untouched(world: Campaign, before: str) -> None:
    assert world.head() == before and world.tags() == []
    assert world.git(world.ci, "status", "--porcelain", "--untracked-files=all") == ""
    assert not (world.ci / ".git" / gitflow.MARKER_FILE).exists()


@pytest.mark.parametrize(
    ("given", "dated"),
    [
        ("2026-10-06T15:00:00Z", "2026-10-06T15:00:00+00:00"),
        ("2026-10-06T17:00:00+02:00", "2026-10-06T17:00:00+02:00"),
    ],
)
def test_a_committer_date_git_reads_dates_the_turn(world: Campaign, given: str, dated: str) -> None:
    ready(world)
    code, out, err = resolve_with(world, {"GIT_COMMITTER_DATE": given, "GIT_AUTHOR_DATE": given})
    assert code == 0, out + err
    assert "Turn 1 resolved: commit" in out
    assert world.git(world.ci, "log", "-1", "--format=%cI %aI") == f"{dated} {dated}"
    assert world.tags() == ["turn-1"]


def test_a_date_git_cannot_read_is_refused_before_anything_is_written(world: Campaign) -> None:
    before = ready(world)
    code, _, err = resolve_with(world, {"GIT_COMMITTER_DATE": "next friday-ish"})
    assert code == 2
    assert err.startswith(
        "error: the environment variable GIT_COMMITTER_DATE is 'next friday-ish', which git does not read "
        "as a date (invalid date format: next friday-ish)"
    ), err
    assert "fix: unset GIT_COMMITTER_DATE, or give a date git reads, such as 2026-10-06T15:00:00Z" in err
    assert "bug in the engine" not in err
    untouched(world, before)
    # The next step the error gives: a date git reads.
    code, out, err = resolve_with(world, {"GIT_COMMITTER_DATE": "2026-10-06T15:00:00Z"})
    assert code == 0 and "Turn 1 resolved: commit" in out, err


# -- a full disk when the tag is made ----------------------------------------------------------------------


@contextlib.contextmanager
def small_disk(folder: Path) -> Iterator[bool]:
    """A 24 MB tmpfs at ``folder`` where this process may mount one (root in a container)."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = (
        os.geteuid() == 0
        and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(folder)]).returncode == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], check=False)


def fill_leaving_one_page(disk: Path) -> Path:
    """Fill the disk, then free one page: room for git's tag object, none for the ref's lock file."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as handle, contextlib.suppress(OSError):
        while handle.write(b"\0" * 4096):
            pass
    os.truncate(filler, max(0, filler.stat().st_size - 4096))
    return filler


def test_a_disk_that_fills_as_the_tag_is_made_is_said_to_be_full_and_the_clone_is_put_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a real small disk where one can be mounted. Elsewhere git's own failure is replayed: the same
    words git printed on that disk, and a disk with no room left."""
    disk = tmp_path / "disk"
    with small_disk(disk) as mounted:
        world = Campaign.create(disk / "game")
        before = ready(world)
        real_tag = gitflow.tag_turn
        filled: list[Path] = []

        def tag_on_a_full_disk(repo, tag, commit, message):  # type: ignore[no-untyped-def]
            if mounted:
                filled.append(fill_leaving_one_page(disk))
                return real_tag(repo, tag, commit, message)
            lock = Path(repo.git_dir) / "refs" / "tags" / f"{tag}.lock"
            full = os.statvfs_result((4096, 4096, 6144, 0, 0, 100, 0, 0, 0, 255))
            monkeypatch.setattr(os, "statvfs", lambda path: full)
            raise gitflow.git.GitCommandError(
                ["git", "tag"],
                128,
                stderr=f"fatal: cannot update ref 'refs/tags/{tag}': couldn't write '{lock}'",
            )

        monkeypatch.setattr(gitflow, "tag_turn", tag_on_a_full_disk)
        code, out, err = resolve_with(world, {})
        monkeypatch.undo()
        lock = world.ci / ".git" / "refs" / "tags" / "turn-1.lock"
        assert code == 1, out + err
        assert err.startswith(f"error: disk full: git could not write {lock} ("), err
        assert "KiB free on its disk)" in err and "fix: free space" in err
        assert "bug in the engine" not in err and "Traceback" not in err
        for filler in filled:
            filler.unlink()
        untouched(world, before)
        # The next step: with room again, the same run resolves the turn.
        code, out, err = resolve_with(world, {})
        assert code == 0 and "Turn 1 resolved: commit" in out, err
        assert world.tags() == ["turn-1"]
