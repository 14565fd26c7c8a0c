"""Real git for the git-flow tests: a bare origin, the GM's clone, players' clones and their branches.

Every repository lives under pytest's tmp_path, and git reads no configuration of the machine's user
(GIT_CONFIG_GLOBAL points at an empty file), so the tests behave the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from .gitsim import Campaign, forget_git_configuration


@pytest.fixture(autouse=True)
def quiet_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    forget_git_configuration(tmp_path_factory.getbasetemp(), monkeypatch)


@pytest.fixture
def world(tmp_path: Path) -> Campaign:
    """A campaign of three players (alice: red, bob: blue, carol: green) and a GM (dora), on origin."""
    return Campaign.create(tmp_path)


@pytest.fixture
def make_world(tmp_path: Path) -> Callable[..., Campaign]:
    def _make(**settings: object) -> Campaign:
        return Campaign.create(tmp_path, settings=settings)

    return _make
