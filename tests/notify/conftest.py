"""The notification tests: real git as in tests/git, and a local server in place of GitHub and webhooks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..git.gitsim import forget_git_configuration
from .server import Stand, serving


@pytest.fixture(autouse=True)
def quiet_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """git reads no configuration of the machine's user, as in tests/git."""
    forget_git_configuration(tmp_path_factory.getbasetemp(), monkeypatch, "GITHUB_TOKEN", "CAMPAIGN_WEBHOOKS")
    monkeypatch.delenv("CAMPAIGN_NOTIFY_NOW", raising=False)  # the moment comes from each test's --now


@pytest.fixture
def stand() -> Iterator[Stand]:
    with serving() as running:
        yield running
