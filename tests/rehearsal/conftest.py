"""The rehearsals' set-up: a campaign repository as a GM's fork of the kit would hold it (the engine,
its lock files, its workflows and a new campaign) on a bare origin, the stand-in GitHub API on
127.0.0.1, and act's home. git reads no configuration of the machine's user."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from ..git.gitsim import PLAYERS, Campaign, cli, forget_git_configuration
from .act import Rehearsal, copy_kit
from .github_api import GitHub, Server
from .webhooks import Webhooks


@pytest.fixture(autouse=True)
def quiet_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    forget_git_configuration(tmp_path_factory.getbasetemp(), monkeypatch)


def fork_of_the_kit(
    base: Path,
    *,
    seed: int = 7,
    name: str = "The Salt Marches",
    options: tuple[str, ...] = (),
    started: timedelta = timedelta(hours=2),
    clock: datetime | None = None,
    roster: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
) -> Campaign:
    """A campaign of three players (alice: red, bob: blue, carol: green) and a GM (dora) on a bare
    origin, whose main holds the kit's engine and workflows beside the campaign; ``options`` go to
    campaign new (--sealed, ...), ``roster`` replaces the players file, ``settings`` are merged into
    campaign.yaml. ``clock`` fixes when it starts, for a run told the time (the reminders')."""
    # act's runs read the wall clock (the resolve job decides by it), so the campaign starts ``started``
    # ago with a deadline a week after that: by default, whatever the day, the deadline is still ahead.
    world = Campaign(base, clock=clock or datetime.now(UTC).replace(microsecond=0) - started)
    base.mkdir(parents=True, exist_ok=True)
    world.git(base, "init", "--quiet", "--bare", "--initial-branch=main", str(world.origin))
    gm = world.clone("dora")
    copy_kit(gm)
    players = base / "players.yaml"
    players.write_text(yaml.safe_dump(roster or PLAYERS), encoding="utf-8")
    done = cli("new", "--root", gm, "--players", players, "--seed", str(seed), "--name", name, *options)
    assert done.code == 0, done.err
    world.set_settings(gm, {"schedule": {"deadline": {"days_after_resolution": 7}}, **(settings or {})})
    world.commit(gm, "dora", "Start the campaign")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    return world


@pytest.fixture
def world(tmp_path: Path) -> Campaign:
    return fork_of_the_kit(tmp_path / "game")


@pytest.fixture
def github() -> Iterator[tuple[GitHub, Server]]:
    api = GitHub()
    with Server(api) as server:
        yield api, server


@pytest.fixture
def rehearsal(tmp_path: Path, world: Campaign, github: tuple[GitHub, Server]) -> Rehearsal:
    return Rehearsal(tmp_path / "act", world.origin, github[1].url)


@pytest.fixture
def webhooks() -> Iterator[Webhooks]:
    """Chat webhooks on 127.0.0.1 (for the reminders' rehearsal): give ``webhooks.url("/discord")`` to
    the workflow as its secret, then read ``webhooks.to("/discord")``."""
    with Webhooks() as hooks:
        yield hooks
