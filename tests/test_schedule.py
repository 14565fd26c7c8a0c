"""Deadlines and due-ness as pure functions of the settings and a given moment; the settings file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.core.issues import CampaignError
from resolver.engine.absence import AbsentPolicy
from resolver.store.schedule import (
    Settings,
    breaker_trips,
    deadline,
    default_settings,
    due,
    parse_moment,
    span,
)

WEDNESDAY = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
FACTIONS = ("red", "blue", "green", "gold")


def settings(**config: object) -> Settings:
    return Settings.from_config({**default_settings(), **config})


def test_campaign_new_writes_the_defaults(campaign: Path) -> None:
    config = canonical.read_yaml(campaign / "campaign/campaign.yaml")
    for key, value in default_settings().items():
        assert config[key] == value
    assert Settings.from_config(config) == Settings()
    assert b'time: "18:00"' in (campaign / "campaign/campaign.yaml").read_bytes()


def test_a_campaign_without_settings_takes_the_defaults() -> None:
    assert Settings.from_config({"campaign": "old", "seed": 1}) == Settings()


def test_weekday_deadline_is_the_next_one_after_the_turn_began() -> None:
    s = settings().schedule
    assert deadline(s, 1, WEDNESDAY) == datetime(2026, 3, 6, 18, 0, tzinfo=UTC)
    # A turn that began on Friday after the hour waits for the next Friday; before it, the same day.
    assert deadline(s, 1, datetime(2026, 3, 6, 18, 0, tzinfo=UTC)) == datetime(2026, 3, 13, 18, 0, tzinfo=UTC)
    assert deadline(s, 1, datetime(2026, 3, 6, 17, 59, tzinfo=UTC)) == datetime(2026, 3, 6, 18, 0, tzinfo=UTC)


def test_deadline_in_days_and_extension_for_one_turn() -> None:
    s = settings(
        schedule={"deadline": {"days_after_resolution": 3}, "extend": {"turn": 4, "hours": 12}}
    ).schedule
    assert deadline(s, 3, WEDNESDAY) == WEDNESDAY + timedelta(days=3)
    assert deadline(s, 4, WEDNESDAY) == WEDNESDAY + timedelta(days=3, hours=12)


def test_due_when_everyone_is_in_or_after_deadline_and_grace() -> None:
    s = settings()
    friday = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)
    everyone = due(s, 2, WEDNESDAY, WEDNESDAY, FACTIONS, FACTIONS)
    assert everyone.due and "every active faction has sent orders" in everyone.reason
    waiting = due(s, 2, WEDNESDAY, friday + timedelta(minutes=59), FACTIONS, ["red"])
    assert not waiting.due and waiting.missing == ("blue", "green", "gold")
    assert "resolved after Fri 2026-03-06 19:00 UTC (in 1m)" in waiting.reason
    late = due(s, 2, WEDNESDAY, friday + timedelta(hours=1), FACTIONS, ["red"])
    assert late.due and late.deadline == friday and late.resolves_after == friday + timedelta(hours=1)


def test_paused_and_finished_campaigns_never_resolve() -> None:
    paused = settings(schedule={"paused": True})
    assert not due(paused, 1, WEDNESDAY, WEDNESDAY + timedelta(days=60), FACTIONS, FACTIONS).due
    assert not due(settings(), 9, WEDNESDAY, WEDNESDAY + timedelta(days=60), (), ()).due


def test_circuit_breaker() -> None:
    s = settings(circuit_breaker={"max_missing_share": 0.5})
    assert not breaker_trips(s, 4, 2) and breaker_trips(s, 4, 3)
    assert breaker_trips(settings(circuit_breaker={"max_missing_share": 0}), 4, 1)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"schedule": {"deadline": {"weekday": "caturday"}}}, "unknown weekday 'caturday'"),
        (
            {"schedule": {"deadline": {"weekday": "friday", "time": 1080}}},
            'put the time in quotes: time: "18:00"',
        ),
        ({"schedule": {"deadline": {"weekday": "friday", "days_after_resolution": 2}}}, "either weekday"),
        ({"schedule": {"grace_hours": -1}}, "'schedule.grace_hours' must be a number of at least 0"),
        ({"schedule": {"paused": "yes please"}}, "'schedule.paused' must be true or false"),
        ({"schedule": {"deadlines": {}}}, "unknown key(s) under 'schedule': deadlines"),
        ({"absent_players": {"policy": "vanish"}}, "unknown absent-player policy 'vanish'"),
        ({"absent_players": {"policy": "eliminate", "eliminate_after": 0}}, "at least 1"),
        ({"circuit_breaker": {"max_missing_share": 2}}, "a share between 0 and 1"),
        ({"circuit_breaker": []}, "'circuit_breaker' must be a mapping"),
    ],
)
def test_bad_settings_are_explained(config: dict, message: str) -> None:
    with pytest.raises(CampaignError) as error:
        Settings.from_config(config)
    assert message in error.value.format()
    assert error.value.message.startswith("campaign/campaign.yaml:")


def test_absent_policy_round_trips() -> None:
    policy = AbsentPolicy("eliminate", 2)
    assert AbsentPolicy.from_data(policy.to_data()) == policy
    assert AbsentPolicy.from_data(None) == AbsentPolicy()


def test_moments_and_spans() -> None:
    assert parse_moment("2026-03-06T18:30Z") == datetime(2026, 3, 6, 18, 30, tzinfo=UTC)
    assert parse_moment("2026-03-06 18:30") == datetime(2026, 3, 6, 18, 30, tzinfo=UTC)
    with pytest.raises(CampaignError):
        parse_moment("next friday")
    assert span(timedelta(days=2, hours=3, minutes=4)) == "2d 3h 4m"
    assert span(timedelta(minutes=-5)) == "0m"


def test_bad_settings_stop_a_plain_resolve_before_anything_is_written(campaign: Path, run) -> None:
    from .conftest import tree_bytes

    path = campaign / "campaign/campaign.yaml"
    path.write_text(path.read_text().replace("policy: hold", "policy: vanish"))
    before = tree_bytes(campaign)
    code, _, err = run("resolve", "--root", campaign)
    assert code == 1 and "unknown absent-player policy 'vanish'" in err
    assert tree_bytes(campaign) == before
