"""Reader features that need a browser: the deadline in the reader's own time zone (issue 13)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from resolver.cli import main
from resolver.git.flow import opening_moments
from resolver.publish.site import build_site

from ..site.demo import commit_new_campaign
from .conftest import serve


def test_the_deadline_shows_in_the_readers_time_zone_too(browser: Any, tmp_path: Path) -> None:
    root = tmp_path / "camp"
    assert main(["new", "--root", str(root), "--seed", "2", "--factions", "2"]) == 0
    commit_new_campaign(root, tmp_path)  # the deadline: Friday 18:00 UTC, so Saturday 03:00 in Tokyo
    build_site(root, tmp_path / "out", opened_at=opening_moments(root))  # as `campaign site` builds it
    with serve(tmp_path / "out") as base:
        context = browser.new_context(timezone_id="Asia/Tokyo", locale="en-GB", service_workers="block")
        try:
            tab = context.new_page()
            tab.goto(base, wait_until="load")
            deadline = tab.locator("time.ck-deadline")
            assert deadline.get_attribute("datetime") == "2024-01-05T18:00:00Z"
            assert "Fri 2024-01-05 18:00 UTC" in deadline.inner_text()
            local = tab.locator(".ck-local-time").inner_text()
            assert "Sat" in local and "6 Jan 2024" in local and "03:00" in local and "GMT+9" in local, local
        finally:
            context.close()
