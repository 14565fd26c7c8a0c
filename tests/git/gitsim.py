"""A campaign played through git, the way GitHub would host it, without GitHub.

``origin.git`` is a bare repository standing in for GitHub. The GM and each player have a clone;
players push branches (their pull requests); the GM merges them into ``main`` with merge commits, as
GitHub's merge button does. ``ci/`` is the runner's clone: it checks pull requests and resolves turns
with the real ``campaign`` command, then pushes the bot's commit and tag back to origin.

Commits carry dates from a fake clock, so a simulated campaign produces the same history every time.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml

from resolver.cli import main
from resolver.core import canonical
from resolver.core.orders import GM
from resolver.engine.bots import bot_order_file
from resolver.store.store import Store

from .. import sides

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday; the default deadline is Friday 18:00 UTC
PLAYERS: dict[str, Any] = {
    "gm": {"logins": ["dora"]},
    "factions": {
        "red": {"name": "House Alder", "color": "#c0392b", "logins": ["alice"]},
        "blue": {"name": "House Brook", "color": "#2e6fbd", "logins": ["Bob"]},
        "green": {"name": "House Crane", "color": "#2e8b57", "logins": ["carol"]},
    },
}
LOGIN_OF = {"red": "alice", "blue": "bob", "green": "carol", "gm": "dora"}


def forget_git_configuration(base: Path, environment: pytest.MonkeyPatch, *also_unset: str) -> None:
    """git reads no configuration of the machine's user, and no variable points it at another repository:
    the tests see git as it comes. ``also_unset`` names more variables to clear (a token, a secret) that
    a developer's shell may hold."""
    empty = base / "gitconfig"
    empty.touch()
    environment.setenv("GIT_CONFIG_GLOBAL", str(empty))
    environment.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", *also_unset):
        environment.delenv(name, raising=False)


@dataclass
class PullRequest:
    branch: str
    author: str
    head: str


@dataclass
class Result:
    code: int
    out: str
    err: str
    comment: str = ""


def cli(*args: str | Path) -> Result:
    """Run ``campaign`` in this process, as CI would run the console script."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return Result(code, out.getvalue(), err.getvalue())


@dataclass
class Campaign:
    base: Path
    clock: datetime = START
    clones: dict[str, Path] = field(default_factory=dict)
    merged: int = 0

    @property
    def origin(self) -> Path:
        return self.base / "origin.git"

    @property
    def ci(self) -> Path:
        return self.clone("ci")

    # -- set-up ------------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        base: Path,
        *,
        settings: dict[str, Any] | None = None,
        seed: int = 5,
        name: str = "Git Test",
        roster: dict[str, Any] | None = None,
        options: tuple[str, ...] = (),
    ) -> Campaign:
        """``roster`` replaces the players file, ``options`` go to campaign new (--sealed, ...)."""
        world = cls(base)
        base.mkdir(parents=True, exist_ok=True)
        world.git(base, "init", "--quiet", "--bare", "--initial-branch=main", str(world.origin))
        gm = world.clone("dora")
        players = base / "players.yaml"
        players.write_text(yaml.safe_dump(roster or PLAYERS), encoding="utf-8")
        done = cli("new", "--root", gm, "--players", players, "--seed", str(seed), "--name", name, *options)
        assert done.code == 0, done.err
        if settings:
            world.set_settings(gm, settings)
        world.commit(gm, "dora", "Start the campaign")
        world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
        return world

    def set_settings(self, clone: Path, settings: dict[str, Any]) -> None:
        path = clone / "campaign" / "campaign.yaml"
        config = canonical.read_yaml(path)
        for key, value in settings.items():
            if isinstance(value, dict) and isinstance(config.get(key), dict):
                config[key] = {**config[key], **value}
            else:
                config[key] = value
        canonical.write_yaml(path, config)

    # -- git -------------------------------------------------------------------------------------------

    def tick(self, minutes: int = 1) -> datetime:
        self.clock += timedelta(minutes=minutes)
        return self.clock

    def env(self, login: str) -> dict[str, str]:
        stamp = self.tick().strftime("%Y-%m-%dT%H:%M:%S+0000")
        return {
            **os.environ,
            "GIT_AUTHOR_NAME": login,
            "GIT_AUTHOR_EMAIL": f"{login}@players.example",
            "GIT_COMMITTER_NAME": login,
            "GIT_COMMITTER_EMAIL": f"{login}@players.example",
            "GIT_AUTHOR_DATE": stamp,
            "GIT_COMMITTER_DATE": stamp,
        }

    def git(self, where: Path, *args: str, login: str = "nobody") -> str:
        done = subprocess.run(
            ["git", "-C", str(where), *args], capture_output=True, text=True, env=self.env(login), check=False
        )
        if done.returncode:
            raise AssertionError(f"git {' '.join(args)} failed in {where}:\n{done.stdout}{done.stderr}")
        return done.stdout.strip()

    def clone(self, who: str) -> Path:
        if who not in self.clones:
            path = self.base / who
            self.git(self.base, "clone", "--quiet", str(self.origin), str(path))
            self.git(path, "config", "user.name", who)
            self.git(path, "config", "user.email", f"{who}@players.example")
            self.clones[who] = path
        return self.clones[who]

    def commit(self, clone: Path, login: str, message: str) -> str:
        self.git(clone, "add", "--all")
        self.git(clone, "commit", "--quiet", "-m", message, login=login)
        return self.git(clone, "rev-parse", "HEAD")

    def sync(self, clone: Path) -> None:
        """Bring a clone to origin's main, as a fresh CI checkout would be."""
        self.git(clone, "fetch", "--quiet", "--tags", "origin")
        self.git(clone, "checkout", "--quiet", "--force", "-B", "main", "origin/main")

    def head(self, clone: Path | None = None) -> str:
        return self.git(clone or self.ci, "rev-parse", "HEAD")

    def log(self, clone: Path | None = None) -> str:
        return self.git(clone or self.ci, "log", "--oneline", "--decorate", "--graph", "main")

    # -- the campaign ----------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        self.sync(self.ci)
        return Store(self.ci).state()

    def players(self) -> dict[str, Any]:
        """origin's players file, read without touching any clone's work tree."""
        self.git(self.ci, "fetch", "--quiet", "origin")
        return yaml.safe_load(self.git(self.ci, "show", "origin/main:campaign/players.yaml"))

    def factions(self) -> list[str]:
        """The ids of the factions origin's players file lists players for. A ruleset whose sides are
        fixed (Diplomacy's powers) seats the roster's red, blue and green as its own."""
        return sorted(self.players()["factions"])

    def faction_of(self, login: str) -> str:
        """The faction origin's players file seats ``login`` in."""
        return sides.seat_of(self.players(), login)

    def login_of(self, faction: str) -> str:
        """The first login origin's players file lists for ``faction`` (or for the GM)."""
        players = self.players()
        entry = players["gm"] if faction == GM else players["factions"][faction]
        return str(entry["logins"][0]).lower()

    def bot_orders(self, faction: str) -> bytes:
        """Legal orders for the current turn, as a careful player would write them."""
        self.sync(self.ci)
        store = Store(self.ci)
        state = store.state()
        return bot_order_file(store.game(state), state, faction).raw

    def template(self, faction: str) -> bytes:
        self.sync(self.ci)
        return (self.ci / "orders" / "templates" / f"{faction}.yaml").read_bytes()

    def pull_request(
        self, login: str, branch: str, files: dict[str, bytes | str | None], message: str = ""
    ) -> PullRequest:
        """A player's branch from origin's main with ``files`` written (None deletes), pushed to origin."""
        clone = self.clone(login)
        self.git(clone, "fetch", "--quiet", "origin")
        self.git(clone, "checkout", "--quiet", "-B", branch, "origin/main")
        for rel, content in files.items():
            path = clone / rel
            if content is None:
                path.unlink()
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content.encode() if isinstance(content, str) else content)
        head = self.commit(clone, login, message or f"{login}: {', '.join(files)}")
        self.git(clone, "push", "--quiet", "--force", "origin", f"HEAD:refs/heads/{branch}")
        return PullRequest(branch, login, head)

    def check(self, pr: PullRequest, *, base: str = "origin/main") -> Result:
        """The orders-check workflow: the runner fetches and runs the check on the pull request."""
        self.git(self.ci, "fetch", "--quiet", "origin")
        comment = self.base / "comment.md"
        comment.unlink(missing_ok=True)
        done = cli(
            "check", "--pr", "--root", self.ci, "--base", base, "--head", pr.head,
            "--author", pr.author, "--comment", comment,
        )  # fmt: skip
        done.comment = comment.read_text(encoding="utf-8") if comment.exists() else ""
        return done

    def merge(self, pr: PullRequest) -> str:
        """The GM presses the merge button: a merge commit on main, pushed to origin."""
        gm = self.clone("dora")
        self.sync(gm)
        self.merged += 1
        message = f"Merge pull request #{self.merged} from {pr.branch}"
        self.git(gm, "merge", "--quiet", "--no-ff", "-m", message, pr.head, login="dora")
        self.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
        return self.git(gm, "rev-parse", "HEAD")

    def submit(self, faction: str, content: bytes | None = None) -> PullRequest:
        """A player opens a pull request with their orders and the GM merges it once it passes."""
        login = self.login_of(faction)
        pr = self.pull_request(
            login, f"{faction}-orders", {f"orders/{faction}.yaml": content or self.bot_orders(faction)}
        )
        checked = self.check(pr)
        assert checked.code == 0, checked.out + checked.err
        self.merge(pr)
        return pr

    def resolve(self, *args: str, now: datetime | None = None, push: bool = True) -> Result:
        """The resolve workflow: a fresh checkout of main, ``campaign resolve``, then the bot's push."""
        self.sync(self.ci)
        moment = now or self.clock
        # The bot's commit takes the clock's time; git reads that from these variables when set,
        # which is how the simulation's clock stands in for the real one.
        stamp = moment.strftime("%Y-%m-%dT%H:%M:%S+0000")
        dates = {"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        with mock.patch.dict(os.environ, dates):
            done = cli("resolve", "--root", self.ci, "--now", moment.isoformat(), *args)
        self.clock = max(self.clock, moment)
        if push and done.code == 0 and self.head() != self.git(self.ci, "rev-parse", "origin/main"):
            self.git(
                self.ci, "push", "--quiet", "--atomic", "--follow-tags", "origin", "HEAD:refs/heads/main"
            )
        return done

    def tags(self) -> list[str]:
        return self.git(self.ci, "tag", "--list").split()
