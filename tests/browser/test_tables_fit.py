"""Tables on every page of every ruleset's demo site, on a phone (touch screen) and on a laptop: each fits
the page whole, neither the page nor a table scrolls sideways, no column is lost and no word broken; the
standings are a whole table on a laptop and a card a faction on a phone. (Apart from the axe sweep of
test_accessibility, so that the two long sweeps can run on two workers at once.)"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Served, watched_tab
from .test_accessibility import ARTIFACTS, TOUCH, VIEWPORTS, site_pages

# Tables on a page, as a reader gets them: each fits its column whole (a table too wide for it is shown as
# cards, one a row), so the page never scrolls sideways and no table scrolls inside its box; no cell's
# content overflows it, and no word is broken across lines (a break after a hyphen or a slash is normal).
TABLE_PROBLEMS = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const page = document.documentElement.scrollWidth;
  if (page > width + 1) problems.push(`the page scrolls sideways: ${page} px on a screen ${width} px wide`);
  const tables = [...document.querySelectorAll('.md-content table')];
  tables.forEach((table, index) => {
    const name = `table ${index + 1} (${(table.querySelector('th') || table).innerText.trim().slice(0, 30)})`;
    for (let el = table.parentElement; el && el !== document.body; el = el.parentElement) {
      const scroller = ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
      if (scroller && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`${name} scrolls sideways in its box: ${el.scrollWidth} px in ${el.clientWidth} px`);
        break;
      }
    }
    const box = table.getBoundingClientRect();
    const [left, right] = [Math.round(box.left), Math.round(box.right)];
    if (box.width && (left < -1 || right > width + 1))
      problems.push(`${name} is cut off: it spans ${left} to ${right} px of a page ${width} px wide`);
    for (const cell of table.querySelectorAll('th, td')) {
      // A card layout keeps the column names for screen readers only; a closed fold shows nothing.
      if (!cell.getClientRects().length || (table.hasAttribute('data-ck-stacked') && cell.closest('thead')))
        continue;
      const text = cell.innerText.trim().slice(0, 40);
      if (cell.scrollWidth > cell.clientWidth + 1)
        problems.push(`${name}: cell "${text}" overflows its column`);
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.data.matchAll(/[^\\s\\-\\u2010-\\u2014\\/]+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const boxes = [...range.getClientRects()].filter(r => r.width > 0);
          const lines = new Set(boxes.map(r => Math.round(r.top)));
          if (lines.size > 1) problems.push(`${name}: the word "${word[0]}" is broken across lines`);
        }
      }
    }
  });
  return problems;
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_every_table_fits_the_page_without_scrolling_sideways(
    browser: Any, demo_served: Served, viewport: str
) -> None:
    pages = site_pages(demo_served.folder)
    problems: list[str] = []
    tables = 0
    with watched_tab(browser, *VIEWPORTS[viewport], touch=TOUCH[viewport]) as (tab, _):
        for path in pages:
            response = tab.goto(demo_served.base + path, wait_until="load")
            assert response is not None and response.status == 200, path
            tables += tab.locator(".md-content table").count()
            problems += [f"{path}: {problem}" for problem in tab.evaluate(TABLE_PROBLEMS)]
    assert tables > 10  # standings, rules fields, faction facts: the check saw the tables it is about
    assert not problems, "\n".join(problems[:60])


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
