"""Resolving survives being killed at any step, a full disk and read-only folders (issue 8, point 9).

Each named step of a resolution (``resolver.store.checkpoint``) is a place where the crash tests kill
the process with SIGKILL, as a cancelled CI job or a power cut would. The next plain run must end with
exactly the resolved turn: one commit, its tag, a clean tree, and an archive that verifies.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.git import flow as gitflow
from resolver.store import store

from ..conftest import tree_bytes
from .gitsim import Campaign, cli

GIT_STEPS = [
    "marked",
    "staged",
    "journaled",
    "archive-moved",
    "state-replaced",
    "orders-removed",
    "templates-written",
    "finished",
    "switched",
    "added",
    "committed",
    "tagged",
]
PLAIN_STEPS = GIT_STEPS[1:8]
CAMPAIGN = shutil.which("campaign", path=str(Path(sys.executable).parent)) or "campaign"


def campaign_command(root: Path, *args: str, kill_at: str = "") -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if name != store.CRASH_VARIABLE}
    if kill_at:
        env[store.CRASH_VARIABLE] = kill_at
    return subprocess.run(
        [CAMPAIGN, *args, "--root", str(root)], capture_output=True, text=True, env=env, timeout=120
    )


def ready(world: Campaign) -> str:
    for faction in ("red", "blue", "green"):
        world.submit(faction)
    world.sync(world.ci)
    return world.head()


def resolved_tree(root: Path) -> dict[str, bytes]:
    return {
        name: raw
        for name, raw in tree_bytes(root).items()
        if name.startswith(("campaign/", "orders/")) and not name.endswith(".md")
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The campaign after an uninterrupted resolution of the same turn."""
    world = Campaign.create(tmp_path_factory.mktemp("reference"))
    ready(world)
    done = campaign_command(world.ci, "resolve", "--if-due", "--commit")
    assert done.returncode == 0, done.stderr
    return resolved_tree(world.ci)


def assert_resolved_once(world: Campaign, before: str, reference: dict[str, bytes]) -> None:
    assert world.git(world.ci, "rev-list", "--count", f"{before}..HEAD") == "1"
    assert world.git(world.ci, "log", "-1", "--format=%s") == "Turn 1 resolved"
    assert world.tags() == ["turn-1"]
    assert world.git(world.ci, "rev-parse", "turn-1^{commit}") == world.head()
    assert world.git(world.ci, "status", "--porcelain", "--untracked-files=all") == ""
    assert not (Path(world.ci) / ".git" / gitflow.MARKER_FILE).exists()
    assert resolved_tree(world.ci) == reference
    verified = cli("verify", "--root", world.ci, "--all")
    assert verified.code == 0 and "1 of 1 turn(s) replay byte-identically" in verified.out


def test_the_steps_are_the_ones_a_resolution_passes(world: Campaign, monkeypatch: pytest.MonkeyPatch) -> None:
    passed: list[str] = []
    monkeypatch.setattr(store, "checkpoint", passed.append)
    monkeypatch.setattr(gitflow, "checkpoint", passed.append)
    ready(world)
    assert cli("resolve", "--root", world.ci, "--if-due", "--commit").code == 0
    assert passed == GIT_STEPS


@pytest.mark.parametrize("step", GIT_STEPS)
def test_a_kill_at_any_step_is_finished_or_undone_by_the_next_run(
    world: Campaign, reference: dict[str, bytes], step: str
) -> None:
    before = ready(world)
    killed = campaign_command(world.ci, "resolve", "--if-due", "--commit", kill_at=step)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    if step == "marked":  # killed inside a git command as well: its lock file is left behind
        (Path(world.ci) / ".git" / "index.lock").touch()
    again = campaign_command(world.ci, "resolve", "--if-due", "--commit")
    assert again.returncode == 0, again.stderr
    if step in ("committed", "tagged"):
        assert "Turn 1 had been resolved and committed by an interrupted run" in again.stdout
    else:
        assert "Turn 1 resolved: commit" in again.stdout
    assert_resolved_once(world, before, reference)
    # And the run after that finds nothing to do.
    third = campaign_command(world.ci, "resolve", "--if-due", "--commit")
    assert third.returncode == 0 and "Turn 2 is not due" in third.stdout
    assert world.tags() == ["turn-1"]


@pytest.mark.parametrize("step", PLAIN_STEPS)
def test_a_plain_resolve_killed_at_any_step_leaves_one_whole_turn(world: Campaign, step: str) -> None:
    root = world.ci
    ready(world)
    killed = campaign_command(root, "resolve", kill_at=step)
    assert killed.returncode == -signal.SIGKILL
    again = campaign_command(root, "resolve")
    assert again.returncode == 0, again.stderr
    state = canonical.read_yaml(root / "campaign/state.yaml")
    assert state["turn"] == 2 and store.Store(root).archived_turns() == [1]
    assert (
        not (root / "campaign" / store.STAGING).exists() and not (root / "campaign" / store.FINISHED).exists()
    )
    if step != "staged":
        assert "Turn 1 had been resolved by an interrupted run" in again.stdout
    assert not list((root / "orders").glob("*.yaml"))
    assert cli("verify", "--root", root, "--all").code == 0


def test_a_commit_without_its_tag_gets_the_tag(world: Campaign) -> None:
    """A run of an older engine stopped between commit and tag, leaving no marker: the tag is added."""
    before = ready(world)
    assert campaign_command(world.ci, "resolve", "--if-due", "--commit", kill_at="committed").returncode < 0
    (Path(world.ci) / ".git" / gitflow.MARKER_FILE).unlink()
    done = campaign_command(world.ci, "resolve", "--if-due", "--commit")
    assert done.returncode == 0, done.stderr
    assert "The tag turn-1 was missing; added it to the commit that resolved turn 1." in done.stdout
    assert "Turn 2 is not due" in done.stdout
    assert world.git(world.ci, "rev-parse", "turn-1^{commit}") == world.head()
    assert world.git(world.ci, "rev-parse", "HEAD~1") == before


# -- full disks and read-only folders -----------------------------------------------------------------


@contextlib.contextmanager
def small_filesystem(folder: Path, size: str) -> Iterator[bool]:
    """A tmpfs of ``size`` at ``folder`` when this process may mount one (root in a container);
    yields False, mounting nothing, where it may not."""
    folder.mkdir(parents=True, exist_ok=True)
    mounted = (
        os.geteuid() == 0
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True
        ).returncode
        == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path, leave: int) -> Path:
    """Fill the filesystem, then free ``leave`` bytes."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as handle, contextlib.suppress(OSError):
        while handle.write(b"\0" * 4096):
            pass
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - leave))
    return filler


@pytest.mark.parametrize("leave", [0, 4 * 1024, 16 * 1024, 32 * 1024, 64 * 1024])
def test_a_full_disk_says_so_and_the_next_run_finishes(tmp_path: Path, leave: int) -> None:
    disk = tmp_path / "disk"
    with small_filesystem(disk, "24m") as mounted:
        if not mounted:
            pytest.skip("mounting a tmpfs needs root; test_full_disk_by_injection covers the same path")
        world = Campaign.create(disk / "game")
        before = ready(world)
        filler = fill(disk, leave)
        done = campaign_command(world.ci, "resolve", "--if-due", "--commit")
        assert done.returncode == 1, done.stdout + done.stderr
        assert done.stderr.startswith("error: disk full: "), done.stderr
        assert "bug in the engine" not in done.stderr and "Traceback" not in done.stderr
        assert world.head() == before and world.tags() == []
        filler.unlink()
        again = campaign_command(world.ci, "resolve", "--if-due", "--commit")
        assert again.returncode == 0, again.stderr
        assert world.git(world.ci, "rev-list", "--count", f"{before}..HEAD") == "1"
        assert world.tags() == ["turn-1"]
        assert world.git(world.ci, "status", "--porcelain", "--untracked-files=all") == ""
        assert cli("verify", "--root", world.ci, "--all").code == 0


def test_full_disk_by_injection(world: Campaign, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no filesystem can be mounted: the disk fills in the middle of writing the archive, and
    undoing it fails as well; both are said, the first one first."""
    before = ready(world)
    real_write = canonical.write_atomic
    writes = []

    def write_until_full(path: Path, raw: bytes) -> None:
        writes.append(path)
        if len(writes) > 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real_write(path, raw)

    def rollback_fails(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "index")

    monkeypatch.setattr(canonical, "write_atomic", write_until_full)
    monkeypatch.setattr(gitflow, "rollback", rollback_fails)
    done = cli("resolve", "--root", world.ci, "--if-due", "--commit")
    assert done.code == 1
    first, _, second = done.err.partition("; putting the clone back failed as well")
    assert first.startswith("error: disk full: ") and "No space left on device" in first
    assert second.startswith(" (disk full: index: No space left on device)")
    assert "bug in the engine" not in done.err
    monkeypatch.undo()
    again = cli("resolve", "--root", world.ci, "--if-due", "--commit")
    assert again.code == 0, again.err
    assert world.git(world.ci, "rev-list", "--count", f"{before}..HEAD") == "1" and world.tags() == ["turn-1"]
    assert world.git(world.ci, "status", "--porcelain", "--untracked-files=all") == ""


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """``folder`` read-only: a read-only bind mount as root (who ignores file modes), else chmod."""
    if os.geteuid() == 0:
        subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        try:
            yield
        finally:
            subprocess.run(["umount", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)


@pytest.mark.parametrize("folder", ["campaign/turns", "orders/templates", "campaign"])
def test_a_read_only_folder_says_so_and_changes_nothing(world: Campaign, folder: str) -> None:
    before = ready(world)
    files = tree_bytes(world.ci / "campaign")
    try:
        with read_only(world.ci / folder):
            done = campaign_command(world.ci, "resolve", "--if-due", "--commit")
    except subprocess.CalledProcessError:
        pytest.skip("this machine refuses bind mounts")
    assert done.returncode == 1, done.stderr
    assert "error: read-only file system: " in done.stderr or "error: permission denied: " in done.stderr
    assert "bug in the engine" not in done.stderr
    assert world.head() == before and world.tags() == [] and tree_bytes(world.ci / "campaign") == files
    again = campaign_command(world.ci, "resolve", "--if-due", "--commit")
    assert again.returncode == 0, again.stderr
    assert world.tags() == ["turn-1"]
