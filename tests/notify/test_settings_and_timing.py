"""Notification settings, refused at their line with a fix; which reminder is due when; quiet hours."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from resolver.core.issues import CampaignError
from resolver.notify.run import reminder_due
from resolver.notify.settings import NotifySettings, Preference, read_settings, webhook_urls

CONFIG = b"campaign: test\nname: The Iron Coast\n"
PLAYERS = b"""\
factions:
  red:
    name: House Alder
    logins: [alice]
    notify:
      timezone: Europe/Paris
      quiet_hours: "22:30-07:00"
      webhooks:
        - {kind: discord, webhook: red-discord, mention: "312345678901234567"}
"""


def test_a_players_wishes_are_read() -> None:
    settings = read_settings(
        CONFIG + b"notifications:\n  reminders: [3, 24, 0.5]\n  tracking_issue: false\n", PLAYERS
    )
    assert settings.reminders == (24.0, 3.0, 0.5)
    assert settings.tracking_issue is False
    assert settings.title == "The Iron Coast"
    red = settings.players["red"]
    assert (red.name, red.logins, red.zone, red.quiet) == (
        "House Alder",
        ("alice",),
        "Europe/Paris",
        (time(22, 30), time(7, 0)),
    )
    assert red.channels(tracking_issue=True) == ["github", "discord:red-discord"]
    assert red.channels(tracking_issue=False) == ["discord:red-discord"]


def test_defaults_without_any_setting() -> None:
    settings = read_settings(CONFIG, b"factions:\n  red: {name: House Alder, logins: [alice]}\n")
    assert settings.reminders == (24.0, 3.0) and settings.tracking_issue and settings.webhooks == ()
    assert settings.players["red"] == Preference("red", "House Alder", ("alice",))


@pytest.mark.parametrize(
    ("players", "where", "said", "fix"),
    [
        (
            PLAYERS.replace(b"webhook: red-discord", b"webhook: https://discord.com/api/webhooks/1/abc"),
            "campaign/players.yaml:9:36",
            "'webhook' must name a webhook, not be a URL",
            "never put the URL here: players.yaml is public",
        ),
        (
            PLAYERS.replace(b"Europe/Paris", b"Europe/Pariss"),
            "campaign/players.yaml:6:17",
            "unknown time zone 'Europe/Pariss'",
            "an IANA zone name",
        ),
        (
            PLAYERS.replace(b'"22:30-07:00"', b'"22:30"'),
            "campaign/players.yaml:7:20",
            "quiet hours must be two different local times",
            'quiet_hours: "22:00-07:30"',
        ),
        (
            PLAYERS.replace(b"kind: discord", b"kind: telegram"),
            "campaign/players.yaml:9:18",
            "unknown webhook kind 'telegram'",
            "one of: discord, slack, matrix",
        ),
        (
            PLAYERS.replace(b'mention: "312345678901234567"', b"mention: alice#1234"),
            "campaign/players.yaml:9:58",
            "'alice#1234' is not a discord member id",
            "Copy User ID",
        ),
        (
            PLAYERS.replace(b"      timezone", b"      time_zone"),
            "campaign/players.yaml:6:7",
            "unknown key 'time_zone' under 'notify'",
            "the keys are: github, timezone, quiet_hours, webhooks",
        ),
    ],
)
def test_a_mistake_in_players_yaml_is_refused_at_its_place(
    players: bytes, where: str, said: str, fix: str
) -> None:
    with pytest.raises(CampaignError) as raised:
        read_settings(CONFIG, players)
    assert raised.value.message.startswith(f"{where}: {said}"), raised.value.message
    assert fix in raised.value.hint


def test_a_mistake_in_the_campaigns_settings_is_refused_at_its_place() -> None:
    with pytest.raises(CampaignError) as raised:
        read_settings(CONFIG + b"notifications:\n  reminders: [24, -3]\n", PLAYERS)
    assert raised.value.message.startswith("campaign/campaign.yaml:4:14: 'reminders' must list hours")
    assert "reminders: [24, 3]" in raised.value.hint


def test_the_webhooks_secret_is_read_and_never_quoted() -> None:
    assert webhook_urls("red-discord: https://discord.com/api/webhooks/1/abc\n") == {
        "red-discord": "https://discord.com/api/webhooks/1/abc"
    }
    assert webhook_urls(None) == {} and webhook_urls("  ") == {}
    with pytest.raises(CampaignError) as raised:
        webhook_urls("https://hooks.slack.com/services/T000/B000/XXXXsecret")
    assert "XXXXsecret" not in raised.value.format()
    assert "is not a mapping of webhook names to URLs" in raised.value.message
    # A URL in plain http would cross the network readable by anyone on the way; only this machine may.
    with pytest.raises(CampaignError) as raised:
        webhook_urls("red-discord: http://discord.com/api/webhooks/1/plainsecret\n")
    assert "plainsecret" not in raised.value.format() and "https://" in raised.value.hint
    assert webhook_urls("table: http://127.0.0.1:8123/hook\n") == {"table": "http://127.0.0.1:8123/hook"}


DEADLINE = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("before", "due"),
    [
        (timedelta(hours=30), ""),
        (timedelta(hours=24), "reminder 24h"),
        (timedelta(hours=23, minutes=59), "reminder 24h"),
        (timedelta(hours=3, minutes=1), "reminder 24h"),
        (timedelta(hours=3), "reminder 3h"),  # two hours have passed: the later one alone
        (timedelta(minutes=1), "reminder 3h"),
        (timedelta(0), ""),  # at the deadline: too late to remind
        (-timedelta(hours=1), ""),
    ],
)
def test_which_reminder_is_due(before: timedelta, due: str) -> None:
    assert reminder_due(NotifySettings(reminders=(24.0, 3.0)), DEADLINE, DEADLINE - before) == due


def test_no_reminder_while_paused_or_when_none_is_asked() -> None:
    assert reminder_due(NotifySettings(), None, DEADLINE - timedelta(hours=1)) == ""
    assert reminder_due(NotifySettings(reminders=()), DEADLINE, DEADLINE - timedelta(hours=1)) == ""


def test_quiet_hours_are_read_on_the_players_clock_and_may_wrap_past_midnight() -> None:
    paris = Preference("red", "House Alder", zone="Europe/Paris", quiet=(time(22, 30), time(7, 0)))
    assert paris.is_quiet(datetime(2026, 3, 5, 21, 30, tzinfo=UTC))  # 22:30 in Paris
    assert not paris.is_quiet(datetime(2026, 3, 5, 21, 29, tzinfo=UTC))
    assert paris.is_quiet(datetime(2026, 3, 6, 5, 59, tzinfo=UTC))  # 06:59
    assert not paris.is_quiet(datetime(2026, 3, 6, 6, 0, tzinfo=UTC))  # 07:00: awake
    # Summer time moves the same local hours an hour earlier in UTC.
    assert paris.is_quiet(datetime(2026, 7, 6, 20, 30, tzinfo=UTC))
    day = Preference("green", "House Crane", zone="America/New_York", quiet=(time(13, 0), time(15, 0)))
    assert day.is_quiet(datetime(2026, 3, 5, 18, 30, tzinfo=UTC)) and not day.is_quiet(
        datetime(2026, 3, 5, 20, 0, tzinfo=UTC)
    )
    assert not Preference("blue", "House Brook").is_quiet(datetime(2026, 3, 5, 3, 0, tzinfo=UTC))
