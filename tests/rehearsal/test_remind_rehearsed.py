"""The "Remind players" workflow (remind.yml), run as written through act: at the 24-hour reminder, the
factions whose orders are not on main are mentioned on the turn's tracking issue and on their own
webhooks, the table's room hears who is awaited, and nobody else is told anything; a webhook that
answers 500 (or with bytes that are not HTTP) is written in the ledger as failed and the job still
succeeds; the ledger is committed and pushed to main; a second run in the same hour sends nothing; once
another faction's orders are merged, the 3-hour reminder goes to the one faction still owing.

The campaign starts on Monday 2 March 2026 with its deadline on Friday 6 March, 18:00 UTC, and the
first two runs are told it is Thursday 5 March, 22:00 UTC (CAMPAIGN_NOTIFY_NOW, through act's --env:
the workflow file has no --now), 20 hours before the deadline. alice (red) has her orders merged;
Bob (blue) and carol (green) have not.
"""

from __future__ import annotations

import base64
import copy
import re
from datetime import UTC, datetime
from pathlib import Path

import yaml

from ..git.gitsim import PLAYERS
from .act import Rehearsal, schedule_event
from .conftest import fork_of_the_kit
from .github_api import GitHub, Server
from .webhooks import Webhooks

LEDGER = "campaign/notifications.yaml"
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
NOW = "2026-03-05T22:00Z"  # 20 hours before the deadline: the 24-hour reminder is due, the 3-hour one not
BOT_TOKEN = "rehearsal-bot-token"
ROSTER = copy.deepcopy(PLAYERS)
ROSTER["factions"]["red"]["notify"] = {
    "webhooks": [{"kind": "discord", "webhook": "red-discord", "mention": "312345678901234567"}]
}
ROSTER["factions"]["blue"]["notify"] = {
    "webhooks": [{"kind": "slack", "webhook": "blue-slack", "mention": "U024BE7LH"}]
}
ROSTER["factions"]["green"]["notify"] = {
    "timezone": "America/New_York",
    "webhooks": [
        {"kind": "discord", "webhook": "green-discord", "mention": "498765432109876543"},
        {"kind": "matrix", "webhook": "green-matrix", "mention": "@carol:example.org"},
    ],
}
SETTINGS = {
    "schedule": {"deadline": {"weekday": "friday", "time": "18:00"}},
    "notifications": {"reminders": [24, 3], "webhooks": [{"kind": "matrix", "webhook": "table"}]},
}
HOOKS = ("red-discord", "blue-slack", "green-discord", "green-matrix", "table")


def test_a_reminder_run_mentions_exactly_the_factions_that_owe_orders_once(
    tmp_path: Path, github: tuple[GitHub, Server], webhooks: Webhooks
) -> None:
    world = fork_of_the_kit(tmp_path / "game", clock=START, roster=ROSTER, settings=SETTINGS)
    world.submit("red")  # alice's orders are merged into main; Bob's and carol's are not
    api, server = github
    webhooks.failing = {"/green-discord": 500}  # carol's Discord answers with a server error,
    webhooks.garbled = {"/green-matrix"}  # and her Matrix bridge with something that is not HTTP
    secret = "".join(f"{name}: {webhooks.url('/' + name)}\n" for name in HOOKS)
    rehearsal = Rehearsal(tmp_path / "act", world.origin, server.url)
    rehearsal.secrets = {"CAMPAIGN_WEBHOOKS": secret, "CAMPAIGN_BOT_TOKEN": BOT_TOKEN}
    rehearsal.unmasked = True  # act's masking off: what stays out of the log, the workflow kept out
    rehearsal.env = {"CAMPAIGN_NOTIFY_NOW": NOW}
    before = world.git(world.origin, "rev-parse", "main")

    run = rehearsal.act("remind.yml", "schedule", schedule_event("43 * * * *"))
    assert run.code == 0, run.log  # the failed webhook does not fail the job
    assert run.jobs == {"remind": "success"}, run.log
    said = run.printed("remind")
    assert "turn 1, reminder 24h: House Crane by Discord webhook 'green-discord': failed (HTTP 500)" in said
    assert "House Crane by Matrix webhook 'green-matrix': failed (not an HTTP answer)" in said, said
    assert "4 messages sent, 2 failed, 0 held for quiet hours." in said, said

    # GitHub: the turn had no issue yet, so the run opens it (the turn's news, nobody @mentioned) and
    # mentions the two factions that owe orders in a comment; alice is neither mentioned nor named.
    assert api.unexpected == [], api.unexpected
    assert [(r.method, r.path) for r in api.requests] == [
        ("POST", "/repos/example/campaign/issues"),
        ("POST", "/repos/example/campaign/issues/1/comments"),
    ]
    (issue,) = api.issues
    assert issue["title"] == "Turn 1: orders due Fri 2026-03-06 18:00 UTC"
    assert "@" not in issue["body"], issue["body"]
    (comment,) = api.comments[1]
    text = comment["body"]
    assert "**The Salt Marches: turn 1 reminder**" in text
    assert "- House Brook @Bob\n" in text, text
    assert "- House Crane @carol: Friday 6 March 2026, 13:00 EST on your clock\n" in text, text
    assert sorted(re.findall(r"@[A-Za-z0-9-]+", text)) == ["@Bob", "@carol"], text
    assert "Alder" not in issue["body"] + text and "alice" not in issue["body"] + text

    # The webhooks: each owing faction's own, with its member pinged; the table's room with who is
    # awaited; red's Discord hears nothing.
    assert webhooks.to("/red-discord") == []
    (slack,) = webhooks.to("/blue-slack")
    assert slack["text"].startswith("<@U024BE7LH> *The Salt Marches: turn 1 reminder*"), slack
    assert "The orders of House Brook for turn 1 are not on the main branch yet." in slack["text"]
    (discord,) = webhooks.to("/green-discord")  # delivered, and answered 500
    assert discord["content"].startswith("<@498765432109876543> **The Salt Marches: turn 1 reminder**")
    assert discord["allowed_mentions"] == {"parse": [], "users": ["498765432109876543"]}
    (matrix,) = webhooks.to("/green-matrix")  # delivered, and answered with what is not HTTP
    assert matrix["text"].startswith("@carol:example.org: The Salt Marches: turn 1 reminder"), matrix
    (table,) = webhooks.to("/table")
    assert "Orders awaited from: House Brook, House Crane." in table["text"], table

    # The ledger is committed on top of main and pushed to the origin, the failure in it, no URL.
    assert world.git(world.origin, "log", "-1", "--format=%s", "main") == "Notifications sent"
    assert world.git(world.origin, "rev-parse", "main^") == before
    pushed = world.git(world.origin, "show", f"main:{LEDGER}")
    ledger = yaml.safe_load(pushed)
    assert ledger["issues"] == {1: 1}
    assert {
        (e.get("faction", ""), e["channel"], e["status"], e.get("detail", "")) for e in ledger["sent"]
    } == {
        ("blue", "github", "sent", "issue #1"),
        ("green", "github", "sent", "issue #1"),
        ("blue", "slack:blue-slack", "sent", "HTTP 204"),
        ("green", "discord:green-discord", "failed", "HTTP 500"),
        ("green", "matrix:green-matrix", "failed", "not an HTTP answer"),
        ("", "matrix:table", "sent", "HTTP 204"),
    }
    assert {(e["turn"], e["event"], e["at"]) for e in ledger["sent"]} == {
        (1, "reminder 24h", "2026-03-05T22:00:00Z")
    }
    assert "127.0.0.1" not in pushed

    # Neither the webhooks' URLs nor the bot token reach the log, act's masking off.
    port = webhooks.url("/").removesuffix("/")
    assert port not in run.log and BOT_TOKEN not in run.log
    header = base64.b64encode(f"x-access-token:{BOT_TOKEN}".encode()).decode()
    assert header not in run.log  # nor the push's authorization header

    # The next run in the same hour finds everything in the ledger: nothing is sent, nothing pushed.
    head = world.git(world.origin, "rev-parse", "main")
    deliveries, requests = len(webhooks.deliveries), len(api.requests)
    again = rehearsal.act("remind.yml", "schedule", schedule_event("43 * * * *"))
    assert again.code == 0, again.log
    assert again.jobs == {"remind": "success"}, again.log
    said = again.printed("remind")
    assert "turn 1, reminder 24h: nothing to send; everything due was sent before" in said, said
    assert "0 messages sent, 0 failed" in said and "nothing was sent; the ledger is unchanged" in said
    assert len(webhooks.deliveries) == deliveries and len(api.requests) == requests
    assert world.git(world.origin, "rev-parse", "main") == head

    # Bob's orders are merged. At the 3-hour reminder carol alone still owes orders, and she alone is
    # reminded (on the same issue, and again on both her webhooks: a new reminder is a new message).
    world.submit("blue")
    rehearsal.env = {"CAMPAIGN_NOTIFY_NOW": "2026-03-06T15:30Z"}
    webhooks.deliveries.clear()
    api.requests.clear()
    third = rehearsal.act("remind.yml", "schedule", schedule_event("43 * * * *"))
    assert third.code == 0, third.log
    assert third.jobs == {"remind": "success"}, third.log
    assert [(r.method, r.path) for r in api.requests] == [
        ("POST", "/repos/example/campaign/issues/1/comments")
    ]
    text = api.comments[1][-1]["body"]
    assert "**The Salt Marches: turn 1 reminder**" in text and "in 2h 30m" in text, text
    assert re.findall(r"@[A-Za-z0-9-]+", text) == ["@carol"] and "Brook" not in text, text
    assert sorted(d.path for d in webhooks.deliveries) == ["/green-discord", "/green-matrix", "/table"]
    (table,) = webhooks.to("/table")
    assert "Orders awaited from: House Crane." in table["text"], table
    ledger = yaml.safe_load(world.git(world.origin, "show", f"main:{LEDGER}"))
    assert {
        (e.get("faction", ""), e["channel"], e["status"])
        for e in ledger["sent"]
        if e["event"] == "reminder 3h"
    } == {
        ("green", "github", "sent"),
        ("green", "discord:green-discord", "failed"),
        ("green", "matrix:green-matrix", "failed"),
        ("", "matrix:table", "sent"),
    }
    assert api.unexpected == [], api.unexpected  # the stand-in knew every call the three runs made


def test_without_the_bot_token_nothing_is_sent_that_could_not_be_recorded(
    tmp_path: Path, github: tuple[GitHub, Server], webhooks: Webhooks
) -> None:
    """A fork whose GM has not set CAMPAIGN_BOT_TOKEN yet: the ledger could not be pushed, so every hourly
    run would open another tracking issue and ping everyone again. The run fails, says what to set, and
    sends nothing."""
    world = fork_of_the_kit(tmp_path / "game", clock=START, roster=ROSTER, settings=SETTINGS)
    api, server = github
    rehearsal = Rehearsal(tmp_path / "act", world.origin, server.url)
    rehearsal.secrets = {"CAMPAIGN_WEBHOOKS": "".join(f"{n}: {webhooks.url('/' + n)}\n" for n in HOOKS)}
    rehearsal.env = {"CAMPAIGN_NOTIFY_NOW": NOW}
    before = world.git(world.origin, "rev-parse", "main")
    run = rehearsal.act("remind.yml", "schedule", schedule_event("43 * * * *"))
    assert run.code != 0
    assert run.jobs == {"remind": "failure"}, run.log
    assert "the CAMPAIGN_BOT_TOKEN secret is not set, so the record of what is sent could not be" in run.log
    assert api.requests == [] and webhooks.deliveries == []
    assert world.git(world.origin, "rev-parse", "main") == before


def test_the_ledger_is_pushed_after_a_failure_and_no_turn_is_announced_before_it_is_pushed() -> None:
    """A run that sent some messages and then failed has them in its ledger: the commit step runs all
    the same (unless the run was cancelled), or the next run would send them again. And the announce
    job runs only once the resolve job pushed the turn."""
    workflows = Path(__file__).resolve().parents[2] / ".github" / "workflows"
    for name, job in (("remind.yml", "remind"), ("resolve.yml", "announce")):
        steps = yaml.safe_load((workflows / name).read_text(encoding="utf-8"))["jobs"][job]["steps"]
        (push,) = [step for step in steps if step.get("name") == "Commit and push what was sent"]
        assert push.get("if") == "${{ !cancelled() }}", (name, push.get("if"))
        assert steps[-1] is push  # and nothing after it that a failure would skip
    # The announcement waits for the turn to be pushed: a resolve job whose push failed announces nothing.
    resolve = yaml.safe_load((workflows / "resolve.yml").read_text(encoding="utf-8"))
    assert "needs.resolve.result == 'success'" in resolve["jobs"]["announce"]["if"]
