"""Real git for the git-flow tests: a bare origin, the GM's clone, players' clones and their branches.

Every repository lives under pytest's tmp_path, and git reads no configuration of the machine's user
(GIT_CONFIG_GLOBAL points at an empty file), so the tests behave the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from .gitsim import Campaign


@pytest.fixture(autouse=True)
def quiet_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path_factory.getbasetemp() / "gitconfig"
    empty.touch()
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def world(tmp_path: Path) -> Campaign:
    """A campaign of three players (alice: red, bob: blue, carol: green) and a GM (dora), on origin."""
    return Campaign.create(tmp_path)


@pytest.fixture
def make_world(tmp_path: Path) -> Callable[..., Campaign]:
    def _make(**settings: object) -> Campaign:
        return Campaign.create(tmp_path, settings=settings)

    return _make
