"""A sealed campaign is reminded without its key, from what everyone sees; the commands explain themselves;
the reminder workflow keeps its promises."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path
from textwrap import indent
from unittest import mock

import pytest
import yaml

from resolver.cli import main
from resolver.core import canonical
from resolver.notify.settings import read_settings
from tests.git.gitsim import cli
from tests.git.sealedsim import merge_sealed_orders, sealed_campaign
from tests.git.test_workflows import ENGINE_INSTALL, install_lines

from .server import REPOSITORY, Stand

REPO = Path(__file__).resolve().parents[2]


def test_a_sealed_campaign_is_reminded_without_its_key(tmp_path: Path, stand: Stand) -> None:
    _, world = sealed_campaign(tmp_path)
    merge_sealed_orders(world, "red")
    env = {
        "GITHUB_TOKEN": "ghs_test-token",
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_API_URL": stand.api,
    }
    with mock.patch.dict(os.environ, env):
        os.environ.pop("CAMPAIGN_AGE_KEY", None)
        done = cli("remind", "--root", world.ci, "--now", "2026-03-06T16:00Z")
    assert done.code == 0, done.err
    issue, comment = stand.to("/api/")
    assert issue.body["title"].startswith("Turn 1: orders due")
    text = comment.body["body"]
    assert "The deadline of turn 1 is Fri 2026-03-06 18:00 UTC, in 2h 0m." in text
    assert "@alice" not in text  # red's orders are in
    assert "@Bob" in text and "@carol" in text
    entries = canonical.read_yaml(world.ci / "campaign" / "notifications.yaml")["sent"]
    assert {(e["event"], e["faction"]) for e in entries} == {
        ("reminder 3h", "blue"),
        ("reminder 3h", "green"),
    }


def help_of(*words: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stopped:
        main([*words, "--help"])
    assert stopped.value.code == 0
    return " ".join(out.getvalue().split())


def test_notify_and_remind_explain_themselves() -> None:
    for command in ("notify", "remind"):
        text = help_of(command)
        assert "CAMPAIGN_WEBHOOKS" in text and "campaign/notifications.yaml" in text
        assert "--now WHEN" in text and "--dry-run" in text
    assert "never in a player's quiet hours" in help_of("remind")
    assert "announce the turn being played" in help_of()
    assert "remind the factions whose orders are not in" in help_of()


def test_the_reminder_workflow_holds_no_key_and_installs_the_engine_alone() -> None:
    text = (REPO / ".github" / "workflows" / "remind.yml").read_text()
    assert (REPO / "resolver" / "github_workflows" / "remind.yml").read_text() == text
    flow = yaml.safe_load(text)
    assert flow[True] == {"schedule": [{"cron": "43 * * * *"}], "workflow_dispatch": None}
    assert flow["permissions"] == {}
    assert flow["concurrency"] == {"group": "campaign-notify", "cancel-in-progress": False}
    (job,) = flow["jobs"].values()
    assert job["permissions"] == {"contents": "read", "issues": "write"}
    assert "CAMPAIGN_AGE_KEY" not in text
    remind = next(step for step in job["steps"] if step.get("name") == "Remind")
    assert remind["run"] == ".venv/bin/python -m resolver.cli remind"
    assert remind["env"] == {
        "GITHUB_TOKEN": "${{ github.token }}",
        "CAMPAIGN_WEBHOOKS": "${{ secrets.CAMPAIGN_WEBHOOKS }}",
    }
    installs = [line for step in job["steps"] for line in install_lines(step.get("run", ""))]
    assert installs == [ENGINE_INSTALL]
    resolve = yaml.safe_load((REPO / ".github" / "workflows" / "resolve.yml").read_text())
    announce = resolve["jobs"]["announce"]
    assert announce["needs"] == ["resolve", "deploy"]
    assert announce["concurrency"]["group"] == "campaign-notify"
    assert any(step.get("run") == ".venv/bin/python -m resolver.cli notify" for step in announce["steps"])


def test_the_readme_explains_notifications_with_settings_the_kit_accepts() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Notifications\n") : readme.index("## Open and sealed campaigns")]
    blocks = re.findall(r"```yaml\n(.*?)```", section, re.DOTALL)
    campaign, player, secret = blocks[0], blocks[1], blocks[2]
    settings = read_settings(
        f"name: The Salt Marches\n{campaign}".encode(), ("factions:\n" + indent(player, "  ")).encode()
    )
    assert settings.reminders == (24.0, 3.0)
    assert [hook.channel for hook in settings.players["red"].webhooks] == [
        "discord:red-discord",
        "slack:red-slack",
        "matrix:red-matrix",
    ]
    named = {hook.name for hook in settings.webhooks} | {
        hook.name for hook in settings.players["red"].webhooks
    }
    assert named == set(re.findall(r"^([a-z-]+):", secret, re.MULTILINE))
    for promise in ("CAMPAIGN_WEBHOOKS", "campaign/notifications.yaml", "quiet hours", "--dry-run"):
        assert promise in section
    assert "**remind.yml**" in readme and "[Notifications](#notifications)" in readme
