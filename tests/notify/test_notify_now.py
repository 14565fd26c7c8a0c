"""The moment ``campaign notify`` and ``campaign remind`` judge by: ``--now``, else the variable
CAMPAIGN_NOTIFY_NOW (how the rehearsals tell a workflow file the time, since the file passes no --now),
else the clock. The campaign's deadline is Friday 6 March 2026, 18:00 UTC."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.git.gitsim import Campaign, cli


def test_the_variable_sets_the_moment_and_now_overrides_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = Campaign.create(tmp_path)
    world.sync(world.ci)
    monkeypatch.setenv("CAMPAIGN_NOTIFY_NOW", "2026-03-05T22:00Z")  # 20 hours before the deadline
    told = cli("remind", "--root", world.ci, "--dry-run")
    assert told.code == 0, told.err
    assert "turn 1, reminder 24h:" in told.out, told.out
    after = cli("remind", "--root", world.ci, "--dry-run", "--now", "2026-03-06T19:00Z")
    assert after.code == 0, after.err
    assert after.out.startswith("turn 1: the deadline has passed; nothing to send"), after.out

    monkeypatch.setenv("CAMPAIGN_NOTIFY_NOW", "next friday")
    wrong = cli("remind", "--root", world.ci, "--dry-run")
    assert wrong.code == 2 and wrong.out == ""
    assert wrong.err == (
        "error: CAMPAIGN_NOTIFY_NOW: 'next friday' is not a date and time\n"
        "    fix: write it as ISO 8601, e.g. 2026-03-06T18:30Z, or unset it to use the clock\n"
    )
    assert not (world.ci / "campaign" / "notifications.yaml").exists()
