"""A campaign's deadline in its own time zone (schedule.time_zone): the weekday and time, and a number
of days after a resolution, are counted on that zone's clock, through daylight saving time."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from resolver.core.issues import CampaignError
from resolver.publish.pages import deadline_rule
from resolver.store.schedule import Settings, deadline, default_settings, due


def settings(time_zone: str, deadline: dict[str, object] | None = None) -> Settings:
    base = default_settings()["schedule"]
    return Settings.from_config(
        {"schedule": {**base, "time_zone": time_zone, "deadline": deadline or base["deadline"]}}
    )


def test_friday_18_00_in_paris_follows_daylight_saving_time() -> None:
    paris = settings("Europe/Paris").schedule
    # Winter time (UTC+1) until Sunday 29 March 2026, summer time (UTC+2) after.
    assert deadline(paris, 1, datetime(2026, 3, 23, 9, tzinfo=UTC)) == datetime(2026, 3, 27, 17, tzinfo=UTC)
    assert deadline(paris, 2, datetime(2026, 3, 30, 9, tzinfo=UTC)) == datetime(2026, 4, 3, 16, tzinfo=UTC)
    assert paris.describe() == "every Friday at 18:00 Europe/Paris, then 1 hour of grace"


def test_the_weekday_is_the_zones_own() -> None:
    """Friday 01:00 in Tokyo is still Thursday in UTC: a turn that began on Thursday at 15:00 UTC (already
    Friday 00:00 in Tokyo) has its deadline an hour later, not a week later."""
    tokyo = settings("Asia/Tokyo", {"weekday": "friday", "time": "01:00"}).schedule
    began = datetime(2026, 3, 5, 15, 0, tzinfo=UTC)  # Friday 6 March 00:00 in Tokyo
    assert deadline(tokyo, 1, began) == datetime(2026, 3, 5, 16, 0, tzinfo=UTC)
    assert deadline(settings("UTC", {"weekday": "friday", "time": "01:00"}).schedule, 1, began) == datetime(
        2026, 3, 6, 1, 0, tzinfo=UTC
    )


def test_days_after_a_resolution_keep_the_local_hour() -> None:
    week = settings("Europe/Paris", {"days_after_resolution": 7}).schedule
    resolved = datetime(2026, 3, 25, 19, 0, tzinfo=UTC)  # 20:00 in Paris, winter time
    assert deadline(week, 1, resolved) == datetime(2026, 4, 1, 18, 0, tzinfo=UTC)  # 20:00, summer time


def test_a_time_the_clock_skips_falls_an_hour_later() -> None:
    night = settings("Europe/Paris", {"weekday": "sunday", "time": "02:30"}).schedule
    # 02:30 does not exist in Paris on 29 March 2026: it is read as 03:30 summer time (01:30 UTC).
    assert deadline(night, 1, datetime(2026, 3, 23, 9, tzinfo=UTC)) == datetime(
        2026, 3, 29, 1, 30, tzinfo=UTC
    )


def test_due_ness_uses_the_zone() -> None:
    paris = settings("Europe/Paris")
    began = datetime(2026, 3, 23, 9, tzinfo=UTC)
    before = due(paris, 1, began, datetime(2026, 3, 27, 17, 59, tzinfo=UTC), ["red"], [])
    after = due(paris, 1, began, datetime(2026, 3, 27, 18, 0, tzinfo=UTC), ["red"], [])
    assert not before.due and after.due  # 17:00 UTC deadline plus an hour of grace


def test_utc_is_the_default_and_any_spelling_of_it() -> None:
    assert Settings.from_config({}).schedule.zone_name == "UTC"
    for name in ("UTC", "utc", "Etc/UTC"):
        assert settings(name).schedule == Settings().schedule


@pytest.mark.parametrize("value", ["Europe/Pariss", "../etc/passwd", "", 5])
def test_an_unknown_zone_is_refused_with_the_fix(value: object) -> None:
    with pytest.raises(CampaignError) as caught:
        settings(value)  # type: ignore[arg-type]
    assert "schedule.time_zone" in str(caught.value)
    assert "Europe/Paris" in caught.value.hint


def test_the_sites_browser_rule_is_left_out_for_a_zone_other_than_utc() -> None:
    """The home page's script counts a weekly rule in UTC; in another zone the page keeps the words."""
    utc = deadline_rule({"schedule": default_settings()["schedule"]})
    assert utc == {"weekday": 4, "time": "18:00", "grace": "1"}
    assert deadline_rule({"schedule": {**default_settings()["schedule"], "time_zone": "Europe/Paris"}}) == {}
