"""Issue 20 point 9: the command that the README and the check's comment give for updating a stale
branch works on a git that nobody configured, and the player's next step (a plain push) goes through.

`git pull origin main` stops on git 2.27 and newer, unconfigured, when the branch has commits of its
own ("Need to specify how to reconcile divergent branches"). The test runs the advice literally, as
printed, with the machine's git in an empty home folder: no user configuration at all.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

from resolver.core import canonical

from .gitsim import Campaign

REPO = Path(__file__).resolve().parents[2]
PULL = re.compile(r"`?(git pull [^`,)]+?)`?(?=[,)]|$)", re.MULTILINE)


def default_git(home: Path) -> dict[str, str]:
    """The environment of a player whose git was never configured: an empty home, no system file. Only
    the identity of their commits is given, as their repository's own configuration would."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    home.mkdir(exist_ok=True)
    return {**env, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "GIT_CONFIG_NOSYSTEM": "1"}


def run_as_printed(command: str, clone: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        shlex.split(command), cwd=clone, env=env, capture_output=True, text=True, timeout=60, check=False
    )


def readme_advice() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Submitting orders") : text.index("## Running a campaign")]
    found = sorted(set(re.findall(r"`(git pull [^`]+)`", section)))
    assert len(found) == 1, found
    return found[0]


def comment_advice(comment: str) -> str:
    found = sorted({m.strip() for m in PULL.findall(comment)})
    assert len(found) == 1, comment
    return found[0]


def gm_changes_the_state(world: Campaign) -> None:
    """The GM gives blue some resources during the turn, straight on main."""
    gm = world.clone("dora")
    world.sync(gm)
    path = gm / "campaign" / "state.yaml"
    state = canonical.read_yaml(path)
    state["factions"]["blue"]["stock"]["resources"] += 5
    canonical.write_yaml(path, state)
    world.commit(gm, "dora", "GM: a gift for blue")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")


def test_the_printed_update_command_works_on_an_unconfigured_git(world: Campaign, tmp_path: Path) -> None:
    pr = world.pull_request("alice", "red-orders", {"orders/red.yaml": world.bot_orders("red")})
    clone = world.clone("alice")
    world.git(clone, "push", "--quiet", "--set-upstream", "origin", "red-orders")
    gm_changes_the_state(world)

    stale = world.check(pr)
    assert stale.code == 1
    assert "stale branch" in stale.comment and "the GM has changed the campaign's state" in stale.comment
    command = comment_advice(stale.comment)
    assert command == readme_advice()  # the README and the comment give the same advice

    env = default_git(tmp_path / "home")
    version = run_as_printed("git --version", clone, env).stdout
    assert not run_as_printed("git config --global --list", clone, env).stdout  # nothing configured
    pulled = run_as_printed(command, clone, env)
    assert pulled.returncode == 0, f"{version}{pulled.stdout}{pulled.stderr}"
    assert "divergent" not in pulled.stderr

    # The player's next step: check the orders against the new state, then push again, plainly.
    checked = subprocess.run(
        [str(Path(os.sys.executable).parent / "campaign"), "check", "orders/red.yaml"],
        cwd=clone, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    pushed = run_as_printed("git push", clone, env)
    assert pushed.returncode == 0, pushed.stderr
    head = world.git(clone, "rev-parse", "HEAD")
    assert world.git(world.origin, "rev-parse", "refs/heads/red-orders") == head

    # The check, run again on the pushed branch, lets the orders through.
    pr.head = head
    passed = world.check(pr)
    assert passed.code == 0, passed.comment
