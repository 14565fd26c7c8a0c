"""Every page of every ruleset's demo site, read on a phone (touch screen) and on a laptop: axe-core finds no
accessibility failure at all, and tables fit the page whole: neither the page nor a table scrolls sideways,
no column is lost and no word broken.

axe-core comes from the npm registry: `make install` runs `npm ci` in tools/axe. The tests inject it into
every frame of a page (the page and its map), run it from the top frame with the WCAG 2.0, 2.1 and 2.2
A and AA rules (2.2's 24-pixel target size included) and the best practices, and fail on any violation,
whatever its impact (the moderate ones too: unnamed landmarks, a frame without a main landmark or a
heading). Each page type is photographed at each size into the artifacts folder
(``$PYTEST_ARTIFACTS``, or tests/artifacts/), with every violation axe found, whatever its impact.
Every page is checked at both sizes: each turn's map holds other marks and pieces, so one page of a type
does not stand for the others.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from .conftest import Served, watched_tab

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("PYTEST_ARTIFACTS") or ROOT / "tests/artifacts")
VIEWPORTS = {"phone": (390, 844), "laptop": (1366, 900)}
# A phone has a touch screen and no mouse: the theme then makes a code block that scrolls sideways no tab
# stop (it asks the browser whether it can hover), which a laptop-sized window alone never shows.
TOUCH = {"phone": True, "laptop": False}
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
    "resultTypes": ["violations"],  # passes and incomplete results are not read: skip building them
}


def site_pages(public: Path) -> list[str]:
    """Every page the build wrote, so pages added later are checked without naming them here."""
    return sorted(
        page.relative_to(public).as_posix().removesuffix("index.html") for page in public.rglob("*.html")
    )


def page_type(path: str, every: list[str]) -> str:
    """What a page is an instance of: "chronicle/turn-N/" for every turn; "factions/each/" when a
    folder holds three or more pages with names rather than numbers (one per faction, or per place)."""
    kind = re.sub(r"(?<=-)\d+", "N", path)
    parts = kind.rstrip("/").split("/")
    if len(parts) >= 2 and "N" not in parts[-1]:
        parent = "/".join(parts[:-1]) + "/"
        siblings = {p for p in every if p.startswith(parent) and p.count("/") == path.count("/")}
        if len(siblings) >= 3:
            return parent + "each" + ("/" if kind.endswith("/") else "")
    return kind


def open_page(tab: Any, url: str) -> None:
    """Load a page and every frame in it (maps may load only once scrolled into view)."""
    response = tab.goto(url, wait_until="load")
    assert response is not None and response.status == 200, url
    for frame_element in tab.locator("iframe").all():
        frame_element.scroll_into_view_if_needed()
        frame = frame_element.element_handle().content_frame()
        assert frame is not None, url
        frame.wait_for_function("location.href !== 'about:blank' && document.readyState === 'complete'")
    tab.evaluate("window.scrollTo(0, 0)")


def run_axe(tab: Any, source: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page and in its frames: each frame gets its own copy of axe, and the
    top frame's run collects theirs (a frame's findings then carry a target of two selectors)."""
    for frame in tab.frames:
        frame.add_script_tag(content=source)
    return tab.evaluate("options => axe.run(document, options).then(found => found.violations)", AXE_OPTIONS)


def describe(path: str, violation: dict[str, Any]) -> list[str]:
    return [
        f"{path}: {violation['id']} ({node['impact']}) at {' >> '.join(map(str, node['target']))}: "
        + node["failureSummary"].splitlines()[-1].strip()
        for node in violation["nodes"]
    ]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_axe_finds_no_violation_on_any_page(
    browser: Any, demo_served: Served, axe_source: str, viewport: str
) -> None:
    pages = site_pages(demo_served.folder)
    assert len(pages) > 20, pages
    folder = ARTIFACTS / f"{demo_served.site.root.name}-{viewport}"
    folder.mkdir(parents=True, exist_ok=True)
    counts: Counter[str] = Counter()  # "rule-id impact": how many elements
    findings: list[str] = []
    photographed: set[str] = set()
    with watched_tab(browser, *VIEWPORTS[viewport], touch=TOUCH[viewport]) as (tab, _):
        for path in pages:
            open_page(tab, demo_served.base + path)
            for violation in run_axe(tab, axe_source):
                for node in violation["nodes"]:
                    counts[f"{violation['id']} {node['impact']}"] += 1
                findings += describe(path, violation)
            kind = page_type(path, pages)
            if kind not in photographed:
                photographed.add(kind)
                name = re.sub(r"[^A-Za-z0-9]+", "-", kind).strip("-") or "home"
                # a long page on a busy machine takes more than the default 10 s to photograph whole
                tab.screenshot(path=folder / f"{name}.png", full_page=True, timeout=60_000)
    report = {"pages": len(pages), "counts": dict(sorted(counts.items())), "findings": findings}
    (folder / "axe.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    assert not findings, f"{len(findings)} violations:\n" + "\n".join(findings[:60])


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
