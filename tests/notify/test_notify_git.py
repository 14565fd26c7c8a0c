"""A turn's news and reminders, end to end: a campaign on a local git origin, ``campaign notify`` and
``campaign remind`` run as the workflows run them, and a local server on 127.0.0.1 answering for GitHub
(recorded responses) and for the Discord, Slack and Matrix webhooks.

The campaign opens on Monday 2 March 2026; turn 1's deadline is Friday 6 March, 18:00 UTC. Reminders
come 24 and 3 hours before it. alice (red, House Alder) lives in Paris and wants Discord too; Bob (blue,
House Brook) wants Slack and no GitHub mention; carol (green, House Crane) wants GitHub only and is not
to be disturbed from 13:00 to 15:00 in New York (18:00 to 20:00 UTC that week). The table has a Matrix
room.
"""

from __future__ import annotations

import copy
import os
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

import pytest

from resolver.core import canonical
from tests.git.gitsim import PLAYERS, Campaign, Result, cli
from tests.git.test_merging_without_update_branch import runs_on_push

from .server import REPOSITORY, Stand

LEDGER = "campaign/notifications.yaml"
DEADLINE = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)
ROSTER = copy.deepcopy(PLAYERS)
ROSTER["factions"]["red"]["notify"] = {
    "timezone": "Europe/Paris",
    "quiet_hours": "23:00-07:00",
    "webhooks": [{"kind": "discord", "webhook": "red-discord", "mention": "312345678901234567"}],
}
ROSTER["factions"]["blue"]["notify"] = {
    "github": False,
    "webhooks": [{"kind": "slack", "webhook": "blue-slack", "mention": "U024BE7LH"}],
}
ROSTER["factions"]["green"]["notify"] = {"timezone": "America/New_York", "quiet_hours": "13:00-15:00"}
SETTINGS = {
    "site_url": "https://example.org/iron-coast",
    "notifications": {"reminders": [24, 3], "webhooks": [{"kind": "matrix", "webhook": "table"}]},
}


@pytest.fixture
def world(tmp_path: Path) -> Campaign:
    made = Campaign.create(tmp_path, roster=ROSTER, settings=SETTINGS)
    made.sync(made.ci)
    return made


def run(stand: Stand, world: Campaign, command: str, when: str, *extra: str) -> Result:
    """The workflow's step: the checkout of main, the token and repository GitHub gives every job, the
    webhooks' secret."""
    world.sync(world.ci)
    secret = "".join(f"{name}: {stand.hook(name)}\n" for name in ("red-discord", "blue-slack", "table"))
    env = {
        "GITHUB_TOKEN": "ghs_test-token",
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_API_URL": stand.api,
        "CAMPAIGN_WEBHOOKS": secret,
    }
    with mock.patch.dict(os.environ, env):
        done = cli(command, "--root", world.ci, "--now", when, *extra)
    assert done.code == 0, done.out + done.err
    assert "secret-token" not in done.out + done.err  # no webhook URL reaches the Actions log
    # The workflow's next step: commit the ledger and push it to main, where the next run finds it.
    if world.git(world.ci, "status", "--porcelain", "--", LEDGER):
        world.git(world.ci, "add", "--", LEDGER)
        world.git(world.ci, "commit", "--quiet", "-m", "Notifications", login="github-actions")
        world.git(world.ci, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    return done


def ledger(world: Campaign) -> dict:
    return canonical.read_yaml(world.ci / "campaign" / "notifications.yaml")


def test_the_opening_tells_everyone_once_each_on_their_channels(stand: Stand, world: Campaign) -> None:
    done = run(stand, world, "notify", "2026-03-02T10:00Z")
    assert "5 messages sent, 0 failed" in done.out

    (issue,) = stand.to("/api/")
    assert (issue.method, issue.path) == ("POST", f"/api/repos/{REPOSITORY}/issues")
    assert issue.headers["Authorization"] == "Bearer ghs_test-token"
    assert issue.body["title"] == "Turn 1: orders due Fri 2026-03-06 18:00 UTC"
    text = issue.body["body"]
    assert "Orders for turn 1 are due by Fri 2026-03-06 18:00 UTC." in text
    assert "https://example.org/iron-coast/" in text
    assert "- House Alder @alice: Friday 6 March 2026, 19:00 CET on your clock" in text
    assert "- House Brook\n" in text and "@Bob" not in text  # blue asked for no GitHub mention
    assert "- House Crane @carol: Friday 6 March 2026, 13:00 EST on your clock" in text

    (discord,) = stand.to("/hooks/red-discord/")
    unix = int(DEADLINE.timestamp())
    assert f"<t:{unix}:F>" in discord.body["content"]  # Discord shows it on each reader's clock
    assert discord.body["content"].startswith("<@312345678901234567> **Git Test: turn 1 is open**")
    assert discord.body["allowed_mentions"] == {"parse": [], "users": ["312345678901234567"]}
    (slack,) = stand.to("/hooks/blue-slack/")
    assert slack.body["text"].startswith("<@U024BE7LH> *Git Test: turn 1 is open*")
    assert f"<!date^{unix}^{{date_long_pretty}} at {{time}}|Fri 2026-03-06 18:00 UTC>" in slack.body["text"]
    (matrix,) = stand.to("/hooks/table/")
    assert "Orders awaited from: House Alder, House Brook, House Crane." in matrix.body["text"]

    record = ledger(world)
    assert record["issues"] == {1: 42}
    sent = {(e["event"], e.get("faction", ""), e["channel"], e["status"]) for e in record["sent"]}
    assert sent == {
        ("opened", "red", "github", "sent"),
        ("opened", "green", "github", "sent"),
        ("opened", "", "matrix:table", "sent"),
        ("opened", "red", "discord:red-discord", "sent"),
        ("opened", "blue", "slack:blue-slack", "sent"),
    }
    assert "secret-token" not in (world.ci / "campaign" / "notifications.yaml").read_text()

    # The workflow reruns, and a remind run comes before any reminder is due: nothing is sent again.
    count = len(stand.requests)
    again = run(stand, world, "notify", "2026-03-02T10:05Z")
    later = run(stand, world, "remind", "2026-03-03T12:00Z")
    assert len(stand.requests) == count
    assert "nothing to send" in again.out and "nothing to send" in later.out
    assert "0 messages sent" in later.out


def test_reminders_go_only_to_those_who_owe_once_a_lead_time_and_never_in_quiet_hours(
    stand: Stand, world: Campaign
) -> None:
    run(stand, world, "notify", "2026-03-02T10:00Z")
    world.submit("red")  # alice's orders are merged into main
    stand.requests.clear()

    # Thursday 18:30 UTC: the 24-hour reminder. carol is in her quiet hours (13:30 in New York).
    first = run(stand, world, "remind", "2026-03-05T18:30Z")
    assert "House Crane is in their quiet hours; a later run sends it" in first.out
    assert stand.to("/hooks/red-discord/") == []  # red's orders are in: no reminder
    (slack,) = stand.to("/hooks/blue-slack/")
    assert "The orders of House Brook for turn 1 are not on the main branch yet." in slack.body["text"]
    assert "in 23h 30m" in slack.body["text"]
    (table,) = stand.to("/hooks/table/")
    assert "Orders awaited from: House Brook, House Crane." in table.body["text"]
    assert stand.to("/api/") == []  # nobody to mention on GitHub yet: blue asked for none, carol is quiet

    stand.requests.clear()
    still_quiet = run(stand, world, "remind", "2026-03-05T19:30Z")
    assert stand.requests == [] and "1 held for quiet hours" in still_quiet.out

    # Her quiet hours are over: her 24-hour reminder now, on the turn's issue, and nobody else's again.
    run(stand, world, "remind", "2026-03-05T20:30Z")
    (comment,) = stand.requests
    assert (comment.method, comment.path) == ("POST", f"/api/repos/{REPOSITORY}/issues/42/comments")
    assert "@carol" in comment.body["body"] and "@alice" not in comment.body["body"]
    assert "Orders awaited from 2 factions:" in comment.body["body"]
    assert "The deadline of turn 1 is Fri 2026-03-06 18:00 UTC, in 21h 30m." in comment.body["body"]
    stand.requests.clear()
    run(stand, world, "remind", "2026-03-05T20:30Z")  # the same run again
    assert stand.requests == []

    # Friday 15:30 UTC: the 3-hour reminder, once more to blue, green and the table; then blue sends.
    run(stand, world, "remind", "2026-03-06T15:30Z")
    assert sorted(r.path.split("/")[2] for r in stand.to("/hooks/")) == ["blue-slack", "table"]
    assert len(stand.to("/api/")) == 1
    world.submit("blue")
    stand.requests.clear()
    run(stand, world, "remind", "2026-03-06T16:30Z")
    assert stand.requests == []
    after = run(stand, world, "remind", "2026-03-06T18:30Z")
    assert stand.requests == [] and "the deadline has passed" in after.out

    events = [(e["event"], e.get("faction", ""), e["channel"]) for e in ledger(world)["sent"]]
    assert len(events) == len(set(events))  # at most once each
    assert ("reminder 24h", "red", "discord:red-discord") not in events
    assert ("reminder 3h", "green", "github") in events


def test_a_failing_webhook_does_not_fail_the_run_and_is_not_sent_twice(stand: Stand, world: Campaign) -> None:
    stand.hook_status["red-discord"] = 500
    done = run(stand, world, "notify", "2026-03-02T10:00Z")
    assert "House Alder by Discord webhook 'red-discord': failed (HTTP 500)" in done.out
    assert "4 messages sent, 1 failed" in done.out
    failed = [e for e in ledger(world)["sent"] if e["status"] == "failed"]
    assert failed == [
        {
            "at": "2026-03-02T10:00:00Z",
            "channel": "discord:red-discord",
            "detail": "HTTP 500",
            "event": "opened",
            "faction": "red",
            "status": "failed",
            "turn": 1,
        }
    ]
    stand.requests.clear()
    run(stand, world, "notify", "2026-03-02T11:00Z")
    assert stand.requests == []


def test_a_webhook_nobody_answers_and_one_missing_from_the_secret(stand: Stand, world: Campaign) -> None:
    world.sync(world.ci)
    env = {"CAMPAIGN_WEBHOOKS": "red-discord: http://127.0.0.1:9/hooks/secret-token-closed\n"}
    with mock.patch.dict(os.environ, env):
        done = cli("notify", "--root", world.ci, "--now", "2026-03-02T10:00Z")
    assert done.code == 0, done.err
    assert "House Alder by Discord webhook 'red-discord': failed (could not connect)" in done.out
    assert "House Brook by Slack webhook 'blue-slack': failed (no entry 'blue-slack' in the" in done.out
    assert "no GitHub token and repository" in done.out
    assert "secret-token" not in done.out + done.err


def test_github_refusing_is_recorded_and_the_turn_goes_on(stand: Stand, world: Campaign) -> None:
    stand.github_fails = True
    done = run(stand, world, "notify", "2026-03-02T10:00Z")
    assert "House Alder by GitHub: failed (opening the turn's issue: HTTP 401)" in done.out
    assert "issues" not in ledger(world) or ledger(world)["issues"] == {}


def test_the_next_turn_links_its_chronicle_and_closes_the_last_issue(stand: Stand, world: Campaign) -> None:
    run(stand, world, "notify", "2026-03-02T10:00Z")
    for faction in ("red", "blue", "green"):
        world.submit(faction)
    resolved = world.resolve("--if-due", "--commit", now=datetime(2026, 3, 2, 12, 0, tzinfo=UTC))
    assert resolved.code == 0, resolved.err
    stand.requests.clear()
    run(stand, world, "notify", "2026-03-02T12:30Z")
    opened, closed = stand.to("/api/")[:2]
    assert opened.body["title"] == "Turn 2: orders due Fri 2026-03-06 18:00 UTC"
    text = opened.body["body"]
    assert (
        "Turn 1 is resolved; read what happened in the chronicle: https://example.org/iron-coast/chronicle/turn-1/"
        in text
    )
    assert (closed.method, closed.path) == ("PATCH", f"/api/repos/{REPOSITORY}/issues/42")
    assert closed.body == {"state": "closed", "state_reason": "completed"}
    assert ledger(world)["issues"] == {1: 42, 2: 43}


def test_a_dry_run_sends_and_writes_nothing(stand: Stand, world: Campaign) -> None:
    done = run(stand, world, "notify", "2026-03-02T10:00Z", "--dry-run")
    assert stand.requests == []
    assert not (world.ci / "campaign" / "notifications.yaml").exists()
    assert "House Alder by Discord webhook 'red-discord': would be sent" in done.out
    assert "(dry run: nothing was sent or written)" in done.out


def test_the_ledgers_commit_leaves_open_pull_requests_alone(stand: Stand, world: Campaign) -> None:
    """A pull request opened before the ledger's commit still passes its check and merges, and the push
    of the ledger does not start the gate reset, which would make every open pull request check again."""
    pr = world.pull_request("carol", "green-orders", {"orders/green.yaml": world.bot_orders("green")})
    before = world.git(world.ci, "rev-parse", "origin/main")
    run(stand, world, "notify", "2026-03-02T10:00Z")
    changed = world.git(world.ci, "diff", "--name-only", before, "origin/main").splitlines()
    assert changed == [LEDGER]
    assert not runs_on_push(changed)
    checked = world.check(pr)
    assert checked.code == 0, checked.out + checked.err
    world.merge(pr)


def test_news_in_a_players_quiet_hours_waits_for_the_morning(stand: Stand, world: Campaign) -> None:
    """The turn opens at 00:30 in Paris: alice is named on the issue without a ping, and her Discord
    stays silent; the first run after 07:00 there brings her the news, once."""
    done = run(stand, world, "notify", "2026-03-02T23:30Z")
    assert "House Alder is in their quiet hours; a later run sends it" in done.out
    (issue,) = stand.to("/api/")
    assert "- House Alder: Friday 6 March 2026, 19:00 CET on your clock" in issue.body["body"]
    assert "@alice" not in issue.body["body"] and "@carol" in issue.body["body"]
    assert stand.to("/hooks/red-discord/") == []

    stand.requests.clear()
    run(stand, world, "remind", "2026-03-03T05:59Z")  # 06:59 in Paris
    assert stand.requests == []
    run(stand, world, "remind", "2026-03-03T06:17Z")
    comment, discord = stand.to("/api/") + stand.to("/hooks/red-discord/")
    assert comment.path.endswith("/issues/42/comments")
    assert comment.body["body"].startswith("**Git Test: turn 1 is open**")
    assert "- House Alder @alice:" in comment.body["body"] and "@carol" not in comment.body["body"]
    assert "turn 1 is open" in discord.body["content"]
    stand.requests.clear()
    run(stand, world, "remind", "2026-03-03T07:17Z")
    assert stand.requests == []
