"""The standings of every ruleset's demo site: a whole table on a laptop and a card a faction on a phone.
(That every table of every page fits it is read in test_accessibility's sweep, on the same visit as axe.)"""

from __future__ import annotations

from typing import Any

from .conftest import Served, watched_tab
from .test_accessibility import ARTIFACTS, VIEWPORTS

STANDINGS = ("", "factions/")  # the pages that show the standings


def test_the_standings_are_a_whole_table_on_a_laptop(browser: Any, demo_served: Served) -> None:
    """At 1366 px every column of the standings shows, as a table, on the home page and the factions page."""
    with watched_tab(browser, *VIEWPORTS["laptop"]) as (tab, _):
        for path in STANDINGS:
            tab.goto(demo_served.base + path, wait_until="load")
            table = tab.locator(".ck-standings table")
            assert table.get_attribute("data-ck-stacked") is None, path
            right = table.evaluate("t => t.getBoundingClientRect().right")
            frame = table.evaluate("t => t.closest('.md-typeset__scrollwrap').getBoundingClientRect().right")
            assert right <= frame + 1, (path, right, frame)


def test_on_a_phone_each_faction_of_the_standings_is_a_card(browser: Any, demo_served: Served) -> None:
    """On a phone the standings read one faction at a time, each number after its column's name, and a
    screen reader still hears a table with its column headers."""
    with watched_tab(browser, *VIEWPORTS["phone"], touch=True) as (tab, _):
        response = tab.goto(demo_served.base, wait_until="load")
        assert response is not None and response.status == 200
        table = tab.locator(".ck-standings table")
        assert table.get_attribute("data-ck-stacked") == ""
        assert table.get_attribute("role") == "table"
        headers = table.locator("thead th").all_inner_texts()
        first = table.locator("tbody tr").first
        assert first.get_attribute("role") == "row"
        cells = first.locator("td")
        assert cells.count() == len(headers)
        for index, header in enumerate(headers):
            cell = cells.nth(index)
            assert cell.get_attribute("data-label") == header.strip()
            assert cell.get_attribute("role") == "cell"
            box = cell.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS["phone"][0]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=ARTIFACTS / f"{demo_served.site.root.name}-phone-standings.png")
