"""Absences mute reminders: a faction declared away owes no orders, so nobody reminds or @mentions it,
and the ledger keeps nothing for it (taken back, it hears the news like anyone else). The deadline told
is the one the resolve workflow holds the turn to: moved back under the ``pause`` policy, none while the
GM has paused the campaign, and then no reminder goes out.

The campaign and its players are those of ``test_notify_git``: alice (red, House Alder, Discord), Bob
(blue, House Brook, Slack, no GitHub mention), carol (green, House Crane, GitHub, quiet 13:00-15:00 in New
York); the table has a Matrix room. Turn 1 opens on Monday 2 March 2026; its deadline is Friday 6 March,
18:00 UTC.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock

import pytest

from resolver.core import canonical
from tests.git.gitsim import Campaign, cli
from tests.git.sealedsim import merge_sealed_orders, sealed_campaign

from .server import REPOSITORY, Stand
from .test_notify_git import LEDGER, ROSTER, SETTINGS, ledger, run


def gm_does(world: Campaign, message: str, *command: str) -> str:
    """The GM runs a command in their clone, commits campaign/ and pushes it to main."""
    gm = world.clone("dora")
    world.sync(gm)
    done = cli(*command, "--root", gm)
    assert done.code == 0, done.out + done.err
    world.commit(gm, "dora", message)
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    return done.out


def away(world: Campaign, faction: str, first: int, last: int) -> None:
    gm_does(world, f"{faction} is away", "absence", faction, "--from", str(first), "--to", str(last))


def factions_in_ledger(world: Campaign) -> set[str]:
    path = world.ci / LEDGER
    return {entry.get("faction", "") for entry in ledger(world)["sent"]} if path.is_file() else set()


def make(tmp_path: Path, **settings: object) -> Campaign:
    world = Campaign.create(tmp_path, roster=ROSTER, settings={**SETTINGS, **settings})
    world.sync(world.ci)
    return world


def test_a_faction_away_is_neither_reminded_nor_mentioned_and_one_back_is(
    stand: Stand, tmp_path: Path
) -> None:
    world = make(tmp_path)
    away(world, "green", 1, 2)

    opened = run(stand, world, "notify", "2026-03-02T10:00Z")
    (issue,) = stand.to("/api/")
    text = issue.body["body"]
    assert "- House Alder @alice:" in text and "- House Brook\n" in text
    assert "House Crane @" not in text and "@carol" not in text and "- House Crane" not in text
    assert "Orders awaited from 2 factions:" in text
    assert (
        "Away, as declared: House Crane. They owe no orders and are not reminded; their forces hold." in text
    )
    (table,) = stand.to("/hooks/table/")
    assert "Orders awaited from: House Alder, House Brook." in table.body["text"]
    assert "Away, as declared: House Crane." in table.body["text"]
    assert "away, as declared, and left alone: House Crane" in opened.out
    assert "green" not in factions_in_ledger(world)  # nothing recorded: it can still hear the news

    # The 24-hour reminder: alice on GitHub and Discord, Bob on Slack, the table; carol nowhere.
    stand.requests.clear()
    run(stand, world, "remind", "2026-03-05T20:30Z")
    (comment,) = stand.to("/api/")
    assert "@alice" in comment.body["body"] and "@carol" not in comment.body["body"]
    assert sorted(r.path.split("/")[2] for r in stand.to("/hooks/")) == ["blue-slack", "red-discord", "table"]
    assert "green" not in factions_in_ledger(world)

    # Everyone but green has sent orders: the 3-hour reminder has nobody to remind, and says why.
    world.submit("red")
    world.submit("blue")
    stand.requests.clear()
    quiet = run(stand, world, "remind", "2026-03-06T15:30Z")
    assert stand.requests == []
    assert (
        "every faction that is not away has sent its orders; no reminder "
        "(away, as declared, and not reminded: House Crane)" in quiet.out
    )

    # The GM takes green's absence back before the deadline: carol gets her reminder, once.
    gm_does(world, "green is back", "absence", "green", "--cancel")
    back = run(stand, world, "remind", "2026-03-06T15:35Z")
    (comment,) = stand.to("/api/")
    assert comment.path == f"/api/repos/{REPOSITORY}/issues/42/comments"
    assert "- House Crane @carol: Friday 6 March 2026, 13:00 EST on your clock" in comment.body["body"]
    assert "Away, as declared" not in comment.body["body"]
    assert "left alone" not in back.out
    assert ("reminder 3h", "green", "github") in {
        (e["event"], e.get("faction", ""), e["channel"]) for e in ledger(world)["sent"]
    }
    stand.requests.clear()
    again = run(stand, world, "remind", "2026-03-06T15:40Z")  # a rerun, or the next hour's run
    assert stand.requests == [] and "nothing to send" in again.out
    events = [(e["event"], e.get("faction", ""), e["channel"]) for e in ledger(world)["sent"]]
    assert len(events) == len(set(events))


def test_back_between_reminders_hears_the_turn_open_at_the_next_run(stand: Stand, tmp_path: Path) -> None:
    """The announcement left green out; once its absence is taken back, the next hourly run brings it the
    news the others had, and the reminders after that."""
    world = make(tmp_path)
    away(world, "green", 1, 1)
    run(stand, world, "notify", "2026-03-02T10:00Z")
    stand.requests.clear()
    nothing = run(stand, world, "remind", "2026-03-03T12:00Z")
    assert stand.requests == [] and "nothing to send" in nothing.out

    gm_does(world, "green is back", "absence", "green", "--cancel")
    run(stand, world, "remind", "2026-03-03T12:30Z")
    (comment,) = stand.to("/api/")
    assert comment.body["body"].startswith("**Git Test: turn 1 is open**")
    assert "- House Crane @carol:" in comment.body["body"] and "@alice" not in comment.body["body"]
    assert [(e["event"], e["channel"]) for e in ledger(world)["sent"] if e.get("faction") == "green"] == [
        ("opened", "github")
    ]


@pytest.mark.parametrize(
    ("policy", "fate"),
    [("hold", "their forces hold"), ("stand_in", "the ruleset's bot plays for them")],
)
def test_under_hold_and_stand_in_those_away_owe_nothing_and_the_deadline_stays(
    stand: Stand, tmp_path: Path, policy: str, fate: str
) -> None:
    world = make(tmp_path, absences={"policy": policy})
    away(world, "red", 1, 3)
    away(world, "blue", 1, 1)
    run(stand, world, "notify", "2026-03-02T10:00Z")
    (issue,) = stand.to("/api/")
    assert issue.body["title"] == "Turn 1: orders due Fri 2026-03-06 18:00 UTC"
    assert (
        f"Away, as declared: House Alder, House Brook. They owe no orders and are not reminded; {fate}."
        in (issue.body["body"])
    )
    assert "Orders awaited from 1 faction:\n- House Crane @carol:" in issue.body["body"]
    assert stand.to("/hooks/red-discord/") == [] and stand.to("/hooks/blue-slack/") == []
    assert factions_in_ledger(world) == {"", "green"}

    # What the resolver does agrees: with green's orders in, the turn is due at once, not waiting for
    # the two away (and the bot plays red and blue under stand_in).
    world.submit("green")
    resolved = world.resolve("--if-due", "--commit", now=datetime(2026, 3, 2, 12, 0, tzinfo=UTC))
    assert resolved.code == 0, resolved.out + resolved.err
    assert "turn-1" in world.tags()


def test_when_enough_are_away_the_deadline_moves_back_and_reminders_count_from_it(
    stand: Stand, tmp_path: Path
) -> None:
    world = make(tmp_path, absences={"policy": "pause", "pause_at": 2, "pause_hours": 168})
    away(world, "red", 1, 1)
    away(world, "green", 1, 1)
    run(stand, world, "notify", "2026-03-02T10:00Z")
    (issue,) = stand.to("/api/")
    assert issue.body["title"] == "Turn 1: orders due Fri 2026-03-13 18:00 UTC"
    text = issue.body["body"]
    assert "Orders for turn 1 are due by Fri 2026-03-13 18:00 UTC." in text
    assert (
        "The deadline moved back 168 hours because 2 factions are away (the campaign pauses for absences)."
        in (text)
    )
    assert "Away, as declared: House Alder, House Crane." in text
    (slack,) = stand.to("/hooks/blue-slack/")
    assert "The deadline moved back 168 hours" in slack.body["text"]

    # The schedule's Friday passes: no reminder counts from it, and the turn is not resolved either.
    stand.requests.clear()
    run(stand, world, "remind", "2026-03-05T18:30Z")
    run(stand, world, "remind", "2026-03-06T15:30Z")
    assert stand.requests == []
    waiting = world.resolve("--if-due", "--commit", now=datetime(2026, 3, 6, 19, 30, tzinfo=UTC))
    assert waiting.code == 0 and "turn-1" not in world.tags(), waiting.out + waiting.err

    # A day before the moved deadline: Bob, the one who owes orders, is reminded, and the table.
    run(stand, world, "remind", "2026-03-12T18:30Z")
    (slack,) = stand.to("/hooks/blue-slack/")
    assert "The deadline is <!date^" in slack.body["text"] and "in 23h 30m" in slack.body["text"]
    assert "|Fri 2026-03-13 18:00 UTC>" in slack.body["text"]
    assert sorted(r.path.split("/")[2] for r in stand.to("/hooks/")) == ["blue-slack", "table"]
    assert stand.to("/api/") == []  # Bob asked for no GitHub mention, and nobody else owes orders
    assert factions_in_ledger(world) == {"", "blue"}


def test_while_the_gm_pauses_the_campaign_nothing_reminds_and_the_news_says_so(
    stand: Stand, tmp_path: Path
) -> None:
    world = make(tmp_path, schedule={"paused": True})
    run(stand, world, "notify", "2026-03-02T10:00Z")
    (issue,) = stand.to("/api/")
    assert issue.body["title"] == "Turn 1: deadline paused"
    assert (
        "The deadline is paused: the GM has paused the campaign, and no reminder goes out until it resumes."
        in issue.body["body"]
    )
    assert "due by" not in issue.body["body"]
    stand.requests.clear()
    for moment in ("2026-03-05T18:30Z", "2026-03-06T15:30Z", "2026-03-06T19:30Z"):
        paused = run(stand, world, "remind", moment)
        assert "the GM has paused the campaign; no reminder until it resumes" in paused.out
    assert stand.requests == []

    gm = world.clone("dora")
    world.sync(gm)
    world.set_settings(gm, {"schedule": {"paused": False}})
    world.commit(gm, "dora", "Resume")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    run(stand, world, "remind", "2026-03-06T15:35Z")
    assert sorted(r.path.split("/")[2] for r in stand.to("/hooks/")) == [
        "blue-slack",
        "red-discord",
        "table",
    ]


def test_a_sealed_campaign_mutes_those_away_without_its_key_and_says_nothing_else(
    stand: Stand, tmp_path: Path
) -> None:
    _, world = sealed_campaign(tmp_path)
    key = tmp_path / "game" / "gm-key.txt"
    assert key.is_file()
    away(world, "green", 1, 2)
    # red's sealed order file is merged; what it holds (an absence for later turns, perhaps) is sealed.
    merge_sealed_orders(world, "red")
    env = {"GITHUB_TOKEN": "ghs_test-token", "GITHUB_REPOSITORY": REPOSITORY, "GITHUB_API_URL": stand.api}
    with mock.patch.dict(os.environ, env):
        os.environ.pop("CAMPAIGN_AGE_KEY", None)
        key.rename(tmp_path / "elsewhere.txt")  # no key anywhere near the run
        done = cli("notify", "--root", world.ci, "--now", "2026-03-02T10:00Z")
    assert done.code == 0, done.out + done.err
    (issue,) = stand.to("/api/")
    assert issue.body["title"] == "Turn 1: orders due Fri 2026-03-06 18:00 UTC"
    # Every word of it: the turn, the deadline, who owes orders and who is away, by name; nothing more.
    assert issue.body["body"] == (
        "**Git Test: turn 1 is open**\n"
        "\n"
        "Orders for turn 1 are due by Fri 2026-03-06 18:00 UTC.\n"
        "Away, as declared: House Crane. They owe no orders and are not reminded; their forces hold.\n"
        "\n"
        "Orders awaited from 1 faction:\n"
        "- House Brook @Bob\n"
        "\n"
        "<!-- campaign-kit:notify turn=1 event=opened -->\n"
    )
    assert "left alone: House Crane" in done.out and "green" not in done.out
    entries = canonical.read_yaml(world.ci / LEDGER)["sent"]
    assert [(e["event"], e.get("faction")) for e in entries] == [("opened", "blue")]


def test_a_pause_that_begins_mid_turn_moves_the_reminders_with_the_deadline(
    stand: Stand, tmp_path: Path
) -> None:
    """red is away from the start; the 24-hour reminder goes to Bob, carol and the table. Then the GM
    declares green away too: two away, the deadline moves back a week, and Bob (the only one who still
    owes orders) is reminded again a day before the new deadline, once."""
    world = make(tmp_path, absences={"policy": "pause", "pause_at": 2, "pause_hours": 168})
    away(world, "red", 1, 1)
    run(stand, world, "notify", "2026-03-02T10:00Z")
    assert stand.to("/api/")[0].body["title"] == "Turn 1: orders due Fri 2026-03-06 18:00 UTC"
    run(stand, world, "remind", "2026-03-05T20:30Z")
    first = [(e["event"], e.get("faction", ""), e["channel"]) for e in ledger(world)["sent"]]
    assert ("reminder 24h", "blue", "slack:blue-slack") in first
    assert ("reminder 24h", "green", "github") in first

    away(world, "green", 1, 1)
    stand.requests.clear()
    run(stand, world, "remind", "2026-03-06T15:30Z")  # the old deadline's 3-hour mark: no longer a reminder
    assert stand.requests == []
    run(stand, world, "remind", "2026-03-12T18:30Z")
    (slack,) = stand.to("/hooks/blue-slack/")
    assert "|Fri 2026-03-13 18:00 UTC>, in 23h 30m." in slack.body["text"]
    assert "The deadline moved back 168 hours because 2 factions are away" in slack.body["text"]
    assert sorted(r.path.split("/")[2] for r in stand.to("/hooks/")) == ["blue-slack", "table"]
    stand.requests.clear()
    run(stand, world, "remind", "2026-03-12T19:30Z")
    assert stand.requests == []
    sent = [(e["event"], e.get("faction", ""), e["channel"]) for e in ledger(world)["sent"]]
    assert sent.count(("reminder 24h", "blue", "slack:blue-slack")) == 2
    assert sent.count(("reminder 24h", "green", "github")) == 1  # green is away now: not again


def test_the_words_for_those_away_follow_the_count_and_the_policy() -> None:
    from datetime import timedelta

    from resolver.notify import messages

    def news(away: tuple[str, ...], policy: str, moved: float) -> messages.News:
        at = datetime(2026, 3, 2, tzinfo=UTC)
        return messages.News("T", 1, "opened", at, at, "", (), away, policy, timedelta(hours=moved))

    one = news(("House Alder",), "pause", 48)
    assert messages.moved_words(one) == (
        "The deadline moved back 48 hours because 1 faction is away (the campaign pauses for absences)."
    )
    assert messages.names(one) == "nobody: every faction that is not away has sent its orders"
    assert messages.away_words(news(("A", "B"), "stand_in", 0)) == (
        "Away, as declared: A, B. They owe no orders and are not reminded; the ruleset's bot plays for them."
    )
    assert messages.moved_words(news(("A", "B"), "hold", 0)) == ""
    assert messages.away_words(news((), "hold", 0)) == ""
    assert messages.names(news((), "hold", 0)) == "nobody: every faction's orders are in"
