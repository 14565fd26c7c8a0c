"""One deadline gives one turn, whatever the command (issue 20 point 3). A plain ``campaign resolve`` run
right after another refuses the turn that has only begun, which nobody has sent orders for; runs that
overlap, plain or with ``--commit``, wait for each other's lock and the second finds the turn done. No
commit ever holds two turns, and no tag or message names another turn than the one resolved.

The overlapping runs are real processes. The test holds a lock that the runs need and lets go once
each run is waiting at its own lock: the kernel's table of locks (/proc/locks) shows a process blocked
on the campaign's lock, and a process that polls for the clone's lock holds its lock file open."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.core import factions as faction_records
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import RULESETS
from resolver.git import flow as gitflow
from resolver.store import store
from resolver.store.store import Store

from .gitsim import Campaign, cli

CAMPAIGN = shutil.which("campaign", path=str(Path(sys.executable).parent)) or "campaign"
ALL = ("red", "blue", "green")


def send_everyones_orders(root: Path) -> None:
    state = Store(root).state()
    game = Store(root).game(state)
    for faction in faction_records.awaited(state, game.factions):  # the bot plays NPC factions
        (root / "orders" / f"{faction}.yaml").write_bytes(bot_order_file(game, state, faction).raw)


def state_turn(root: Path) -> int:
    return int(canonical.read_yaml(root / "campaign/state.yaml")["turn"])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_plain_resolve_right_after_another_refuses_the_turn_nobody_has_ordered(
    tmp_path: Path, ruleset: str
) -> None:
    root = tmp_path / "campaign"
    assert cli("new", "--root", root, "--ruleset", ruleset, "--factions", "2", "--open").code == 0
    send_everyones_orders(root)
    first = cli("resolve", "--root", root)
    assert first.code == 0, first.err
    again = cli("resolve", "--root", root)  # pressed a second time
    assert again.code == 1
    assert (
        "error: turn 2 was not resolved: no order file has come for it, neither a faction's nor the GM's"
        in again.err
    )
    assert "turn 1 is resolved and turn 2 has only begun" in again.err and "--force" in again.err
    assert Store(root).archived_turns() == [1] and state_turn(root) == 2
    # The next step, as the refusal says: a faction's orders for turn 2 come in, and turn 2 resolves.
    faction = canonical.read_yaml(root / "campaign/players.yaml")["factions"].popitem()[0]
    written = cli("template", faction, "--root", root, "-o", root / "orders" / f"{faction}.yaml")
    assert written.code == 0, written.err
    second = cli("resolve", "--root", root)
    assert second.code == 0 and "Turn 2 resolved" in second.out, second.err
    # Or the GM resolves a turn with nobody's orders on purpose.
    forced = cli("resolve", "--root", root, "--force")
    assert forced.code == 0 and "Turn 3 resolved" in forced.out, forced.err
    assert cli("verify", "--root", root, "--all").code == 0


# -- runs side by side ------------------------------------------------------------------------------------


def start(root: Path, *args: str) -> subprocess.Popen[str]:
    env = {name: value for name, value in os.environ.items() if name != store.CRASH_VARIABLE}
    return subprocess.Popen(
        [CAMPAIGN, "resolve", "--root", str(root), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def wait_for(condition: Callable[[], bool], what: str, run: subprocess.Popen[str]) -> None:
    end = time.monotonic() + 60
    while not condition():
        if run.poll() is not None:
            out, err = run.communicate()
            raise AssertionError(f"the run ended before it {what}:\n{out}{err}")
        assert time.monotonic() < end, f"the run never {what}"
        time.sleep(0.02)


def blocked_on_the_campaign_lock(run: subprocess.Popen[str]) -> Callable[[], bool]:
    """The run waits in flock for ``campaign/``, the lock the test holds: /proc/locks lists it behind
    an arrow."""

    def check() -> bool:
        lines = Path("/proc/locks").read_text(encoding="utf-8").splitlines()
        return any("->" in line.split() and str(run.pid) in line.split() for line in lines)

    return check


def polling_for_the_clone_lock(root: Path, run: subprocess.Popen[str]) -> Callable[[], bool]:
    """The run holds the clone's lock file open: it has read the turn it means to resolve and waits."""
    lock = (root / ".git" / gitflow.LOCK_FILE).resolve()

    def check() -> bool:
        try:
            fds = list(Path(f"/proc/{run.pid}/fd").iterdir())
        except FileNotFoundError:
            return False
        for fd in fds:
            try:
                if os.readlink(fd) == str(lock):
                    return True
            except FileNotFoundError:
                continue
        return False

    return check


def finish(run: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = run.communicate(timeout=120)
    return run.returncode, out, err


def ready(world: Campaign) -> str:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    return world.head()


def committed_turns(world: Campaign, rev: str) -> list[str]:
    listed = world.git(world.ci, "ls-tree", "--name-only", f"{rev}:campaign/turns")
    return listed.split()


def test_plain_resolves_side_by_side_resolve_one_turn(world: Campaign) -> None:
    root = world.ci
    ready(world)
    repo = gitflow.open_repo(root)
    with gitflow.resolve_lock(repo):
        runs = [start(root) for _ in range(3)]
        for run in runs:
            wait_for(polling_for_the_clone_lock(root, run), "waited for the clone's lock", run)
    done = [finish(run) for run in runs]
    assert [code for code, _, _ in done] == [0, 0, 0], done
    said = [out for _, out, _ in done]
    assert sum("Turn 1 resolved; archived in campaign/turns/0001/" in out for out in said) == 1, said
    assert (
        sum(
            "Turn 1 was resolved by another run while this one waited; nothing to do. Turn 2 is the one "
            "being played now: it waits for its orders." in out
            for out in said
        )
        == 2
    ), said
    assert Store(root).archived_turns() == [1] and state_turn(root) == 2
    assert cli("verify", "--root", root, "--all").code == 0


def test_a_plain_resolve_waits_for_a_commit_run_and_finds_the_turn_done(world: Campaign) -> None:
    root = world.ci
    before = ready(world)
    with Store(root).lock():  # the commit run gets as far as resolving, and waits there
        committing = start(root, "--if-due", "--commit")
        wait_for(blocked_on_the_campaign_lock(committing), "waited for the campaign's lock", committing)
        plain = start(root)
        wait_for(polling_for_the_clone_lock(root, plain), "waited for the clone's lock", plain)
    code, out, err = finish(committing)
    assert code == 0 and "Turn 1 resolved: commit" in out and "tag turn-1" in out, out + err
    code, out, err = finish(plain)
    assert code == 0, err
    assert "Turn 1 was resolved by another run while this one waited; nothing to do." in out
    assert world.git(root, "rev-list", "--count", f"{before}..HEAD") == "1"
    assert world.git(root, "log", "-1", "--format=%s") == "Turn 1 resolved"
    assert world.tags() == ["turn-1"] and world.git(root, "rev-parse", "turn-1^{commit}") == world.head()
    assert committed_turns(world, "HEAD") == ["0000", "0001"]
    assert world.git(root, "status", "--porcelain", "--untracked-files=all") == ""


def test_a_commit_run_that_waited_for_a_plain_resolve_says_so_and_how_to_commit_the_turn(
    world: Campaign,
) -> None:
    root = world.ci
    before = ready(world)
    with Store(root).lock():  # the plain run takes the clone's lock and waits for the campaign's
        plain = start(root)
        wait_for(blocked_on_the_campaign_lock(plain), "waited for the campaign's lock", plain)
        committing = start(root, "--if-due", "--commit")
        wait_for(polling_for_the_clone_lock(root, committing), "waited for the clone's lock", committing)
    code, out, err = finish(plain)
    assert code == 0 and "Turn 1 resolved; archived" in out, out + err
    code, out, err = finish(committing)
    assert code == 1
    assert (
        "error: turn 1 was resolved in this clone by a plain campaign resolve, which does not commit, "
        "while this run waited" in err
    )
    assert world.head() == before and world.tags() == []
    # The next step the error gives: put the clone back, and resolve with --commit again.
    fix = err.split("fix: ", 1)[1]
    undo = fix.split("(", 1)[1].split(")", 1)[0]
    for command in undo.split(" && "):
        world.git(root, *command.split()[1:])
    again = cli("resolve", "--root", root, "--if-due", "--commit")
    assert again.code == 0 and "Turn 1 resolved: commit" in again.out, again.err
    assert world.tags() == ["turn-1"] and committed_turns(world, "HEAD") == ["0000", "0001"]
    assert world.git(root, "status", "--porcelain", "--untracked-files=all") == ""


def test_plain_and_commit_runs_started_together_never_share_a_commit(world: Campaign) -> None:
    """Whichever wins, nothing resolves a second turn, and a commit holds only the turn it names."""
    root = world.ci
    before = ready(world)
    runs = [start(root), start(root, "--if-due", "--commit")]
    (plain_code, plain_out, plain_err), (commit_code, commit_out, commit_err) = [finish(run) for run in runs]
    assert Store(root).archived_turns() == [1] and state_turn(root) == 2
    if "Turn 1 resolved: commit" in commit_out:
        # The plain run waited and found turn 1 done, or came after it and refused turn 2.
        assert (
            plain_code == 0 and "Turn 1 was resolved by another run while this one waited" in plain_out
        ) or (plain_code == 1 and "turn 2 was not resolved: no order file has come for it" in plain_err)
        assert world.git(root, "log", "-1", "--format=%s") == "Turn 1 resolved"
        assert world.tags() == ["turn-1"] and committed_turns(world, "HEAD") == ["0000", "0001"]
    else:
        assert plain_code == 0 and "Turn 1 resolved; archived" in plain_out
        assert commit_code == 1 and "by a plain campaign resolve" in commit_err
        assert world.head() == before and world.tags() == []
