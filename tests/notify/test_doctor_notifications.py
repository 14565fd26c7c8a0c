"""``campaign doctor`` checks the notification settings: a mistake in ``notifications:`` or a faction's
``notify:`` is a problem named at its file, line and column with its fix, as the notify run would refuse
it; what would make the settings useless (webhooks with no remind.yml, a faction no channel reaches,
quiet hours read in UTC, a reminder before the turn opens, a webhook two factions share, a name missing
from the CAMPAIGN_WEBHOOKS secret) is a warning or a problem with its fix; no URL is ever printed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from unittest import mock

import pytest

from resolver.core import canonical
from tests.git.gitsim import cli

REPO = Path(__file__).resolve().parents[2]
KIT_REMIND = REPO / "resolver" / "github_workflows" / "remind.yml"
# Written by hand so that each place below is known: line 10, column 36 is red's webhook name.
PLAYERS = """\
gm:
  logins: [dora]
factions:
  red:
    name: House Alder
    logins: [alice]
    notify:
      quiet_hours: "22:30-07:00"
      webhooks:
        - {kind: discord, webhook: red-discord, mention: "312345678901234567"}
  blue:
    name: House Brook
    logins: [bob]
    notify:
      github: false
  green:
    name: House Crane
    logins: [carol]
    notify:
      timezone: America/New_York
      webhooks:
        - {kind: slack, webhook: red-discord}
"""
PLAIN = """\
gm:
  logins: [dora]
factions:
  red: {name: House Alder, logins: [alice]}
  blue: {name: House Brook, logins: [bob]}
"""


def git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "dora", "GIT_AUTHOR_EMAIL": "dora@example.org"}
    env |= {"GIT_COMMITTER_NAME": "dora", "GIT_COMMITTER_EMAIL": "dora@example.org"}
    subprocess.run(["git", "-C", str(root), *args], capture_output=True, env=env, check=True)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """An open campaign set up as the README says: the kit's workflows, everything committed."""
    roster = tmp_path / "players.yaml"
    roster.write_text(PLAIN, encoding="utf-8")
    root = tmp_path / "game"
    done = cli("new", "--root", root, "--players", roster)
    assert done.code == 0, done.err
    shutil.copytree(REPO / ".github" / "workflows", root / ".github" / "workflows")
    git(root, "init", "--quiet", "--initial-branch=main")
    git(root, "add", "--all")
    git(root, "commit", "--quiet", "-m", "set-up")
    return root


def notifications(root: Path, **environ: str) -> tuple[int, list[str]]:
    """doctor's lines about notifications, each with its fix joined to it."""
    with mock.patch.dict(os.environ, environ):
        os.environ.pop("CAMPAIGN_WEBHOOKS", None) if "CAMPAIGN_WEBHOOKS" not in environ else None
        done = cli("doctor", "--root", root)
    lines = done.out.splitlines()
    found = []
    for number, line in enumerate(lines):
        if line.split()[:2][1:] == ["notifications:"]:
            after = lines[number + 1].strip() if number + 1 < len(lines) else ""
            found.append(line.strip() + (" | " + after if after.startswith("fix:") else ""))
    assert "secret-token" not in done.out + done.err and "example.org" not in done.out + done.err
    return done.code, found


def settings(root: Path, **values: object) -> None:
    path = root / "campaign" / "campaign.yaml"
    canonical.write_yaml(path, {**canonical.read_yaml(path), **values})


def test_a_campaign_left_at_the_defaults_passes(game: Path) -> None:
    code, found = notifications(game)
    assert code == 0
    assert found == [
        "ok       notifications: reminders 24 h, 3 h before the deadline, a tracking issue per turn; "
        "no webhooks"
    ]


def test_each_useless_setting_is_named_at_its_place_with_its_fix(game: Path) -> None:
    (game / "campaign" / "players.yaml").write_text(PLAYERS, encoding="utf-8")
    code, found = notifications(game)
    assert code == 0, found  # warnings: the turn goes on
    assert found == [
        "warning  notifications: campaign/players.yaml:11:3: House Brook hears of no turn and no reminder: "
        "it asked for no GitHub mention (notify.github: false) and names no webhook | fix: add its "
        "player's login under logins, or a webhook under notify: webhooks:",
        "warning  notifications: campaign/players.yaml:8:20: House Alder's quiet hours 22:30-07:00 are "
        "read in UTC, since no timezone is given | fix: add timezone: with the player's zone under notify:, "
        "e.g. timezone: Europe/Paris (or timezone: UTC, if UTC is meant)",
        "warning  notifications: campaign/players.yaml:22:34: webhook 'red-discord' is named by House "
        "Alder and House Crane: each of them reads the others' reminders there, and the room gets the news "
        "once for each | fix: give each player their own webhook name (and URL), unless they share that "
        "room on purpose",
    ]


def test_webhooks_without_the_reminder_workflow_are_a_warning_with_the_copy_to_make(game: Path) -> None:
    (game / "campaign" / "players.yaml").write_text(PLAYERS, encoding="utf-8")
    (game / ".github" / "workflows" / "remind.yml").unlink()
    _, found = notifications(game)
    assert found[0] == (
        "warning  notifications: campaign/players.yaml:10:36: webhook 'red-discord' (House Alder) is "
        "named, but .github/workflows/remind.yml is missing: no reminder will reach it, nor any news held "
        f"back by quiet hours | fix: copy the kit's: cp {KIT_REMIND} .github/workflows/"
    )
    # The fix, as printed, puts the workflow back and the warning goes.
    subprocess.run(f"cp {KIT_REMIND} .github/workflows/", shell=True, cwd=game, check=True)
    assert not any("remind.yml" in line for line in notifications(game)[1])


def test_reminders_without_the_workflow_or_longer_than_a_turn(game: Path) -> None:
    (game / ".github" / "workflows" / "remind.yml").unlink()
    _, found = notifications(game)
    assert found == [
        "warning  notifications: campaign/campaign.yaml:1:1: reminders 24 h, 3 h before the deadline are "
        "set (or left at the default), but .github/workflows/remind.yml is missing: none will be sent | "
        f"fix: copy the kit's: cp {KIT_REMIND} .github/workflows/; or write reminders: [] under "
        "notifications: to send none"
    ]
    settings(game, notifications={"reminders": []})
    assert notifications(game)[1] == [
        "ok       notifications: reminders none before the deadline, a tracking issue per turn; no webhooks"
    ]

    shutil.copy(KIT_REMIND, game / ".github" / "workflows")
    settings(game, notifications={"reminders": [200, 3]})
    (line,) = notifications(game)[1]
    assert line.startswith("warning  notifications: campaign/campaign.yaml:")
    assert (
        "a reminder 200 hours before the deadline comes before the turn opens (a turn lasts at most 168"
        in (line)
    )
    assert line.endswith("fix: choose hours under 168, for example reminders: [24, 3]")


@pytest.mark.parametrize(
    ("file", "text", "expected"),
    [
        (
            "players.yaml",
            PLAIN.replace(
                "{name: House Alder, logins: [alice]}",
                "\n    name: House Alder\n    notify:\n      webhooks:\n"
                "        - {kind: discord, webhook: https://discord.com/api/webhooks/secret-token}",
            ),
            "problem  notifications: campaign/players.yaml:8:36: 'webhook' must name a webhook, not be a URL "
            "| fix: never put the URL here: players.yaml is public. Name an entry of the CAMPAIGN_WEBHOOKS "
            "secret, e.g. webhook: red-discord",
        ),
        (
            "players.yaml",
            PLAIN.replace("logins: [bob]}", "logins: [bob], notify: {timezone: Mars/Olympus}}"),
            "problem  notifications: campaign/players.yaml:5:63: unknown time zone 'Mars/Olympus' | fix: an "
            "IANA zone name such as Europe/Paris or America/New_York",
        ),
        (
            "campaign.yaml",
            "notifications:\n  reminders: 24\n",
            "problem  notifications: campaign/campaign.yaml:{line}:14: 'reminders' must list hours before "
            "the deadline, each more than 0 and at most 672 (four weeks) | fix: for example reminders: "
            "[24, 3]; an empty list [] sends none",
        ),
    ],
)
def test_a_mistake_is_a_problem_at_its_place_and_no_url_is_printed(
    game: Path, file: str, text: str, expected: str
) -> None:
    path = game / "campaign" / file
    if file == "campaign.yaml":  # the settings campaign new wrote, then the wrong lines
        before = path.read_text(encoding="utf-8")
        text, expected = before + text, expected.replace("{line}", str(before.count("\n") + 2))
    path.write_text(text, encoding="utf-8")
    code, found = notifications(game)
    assert code == 1 and found == [expected]


def test_the_secret_in_the_environment_must_name_every_webhook(game: Path) -> None:
    (game / "campaign" / "players.yaml").write_text(
        PLAYERS.replace("webhook: red-discord}", "webhook: crane}"), "utf-8"
    )
    code, found = notifications(
        game, CAMPAIGN_WEBHOOKS="red-discord: https://discord.com/api/webhooks/secret-token\n"
    )
    assert code == 1
    assert found[-1] == (
        "problem  notifications: campaign/players.yaml:22:34: webhook 'crane' (House Crane) has no entry in "
        "the CAMPAIGN_WEBHOOKS secret | fix: add a line 'crane: https://…' to the CAMPAIGN_WEBHOOKS secret "
        "(Settings → Secrets and variables → Actions)"
    )
    code, found = notifications(game, CAMPAIGN_WEBHOOKS="red-discord http://example.org/secret-token")
    assert code == 1 and found[-1].startswith(
        "problem  notifications: the CAMPAIGN_WEBHOOKS secret is not a mapping of webhook names to URLs (its "
        "text is not shown"
    )
