"""Every ruleset's demo site, read on a phone (touch screen) and on a laptop: axe-core finds no
accessibility failure at all.

axe-core comes from the npm registry: `make install` runs `npm ci` in tools/axe. The tests inject it into
every frame of a page (the page and its map), run it from the top frame with the WCAG 2.0, 2.1 and 2.2
A and AA rules (2.2's 24-pixel target size included) and the best practices, and fail on any violation,
whatever its impact (the moderate ones too: unnamed landmarks, a frame without a main landmark or a
heading). Each page type is photographed at each size into the artifacts folder
(``$PYTEST_ARTIFACTS``, or tests/artifacts/), with every violation axe found, whatever its impact.

Which pages (``sweep``). On the phone, every page of the chronicle, the newspaper's turns, the maps and
the rules, since each turn's map holds other marks and pieces and each turn's or chapter's text other
headings and tables, so one page of a type does not stand for the others; of the kinds filled from one
record through one template, without a map (a place, a faction, its press, the orders of a turn), the first
and the last. The phone is the harder reader: a narrow column, a touch screen, the navigation in a drawer.
On the laptop, the first and the last page of every kind: the width moves the navigation, the tables and
the maps, while the names, roles and colours a page gives its content are the same at any width, and the
phone's sweep has read them on every page.

On the same visit the tables are measured (``TABLE_PROBLEMS``): each fits the page whole, neither the page
nor a table scrolls sideways, no column is lost and no word broken. On the phone on every page, whose text
decides whether a table fits; on the laptop on the pages of its axe sweep (``table_sweep``).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from .conftest import Served, serve, watched_tab

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


def in_order(path: str) -> list[Any]:
    """A page's path with its numbers as numbers: turn 10 comes after turn 9."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path)]


def kind_ends(pages: list[str]) -> set[str]:
    """The first and the last page of each kind (the first and last turn's chronicle, place...)."""
    kinds: dict[str, list[str]] = {}
    for path in sorted(pages, key=in_order):
        kinds.setdefault(page_type(path, pages), []).append(path)
    return {end for same in kinds.values() for end in (same[0], same[-1])}


# Kinds of page filled from one record each, through one template and with no map (a place, a faction, its
# press, one turn's orders): their first and last page stand for the others in the axe sweep.
ONE_RECORD_KINDS = ("places/", "factions/", "newspaper/factions/", "chronicle/orders/")


def sweep(pages: list[str], viewport: str) -> list[str]:
    """The pages the open sweep checks: on the laptop, the first and the last of each kind; on the phone,
    every page but those of a one-record kind between its ends."""
    ends = kind_ends(pages)
    if viewport == "laptop":
        return sorted(ends, key=in_order)
    sampled = [p for p in pages if p.startswith(ONE_RECORD_KINDS) and p not in ONE_RECORD_KINDS]
    return sorted((set(pages) - set(sampled)) | (set(sampled) & ends), key=in_order)


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


def table_sweep(pages: list[str], viewport: str) -> list[str]:
    """The pages whose tables the sweep measures: on the phone, every page, since a table's text decides
    whether it fits the narrow column; on the laptop, the first and the last of each kind, as the axe
    sweep: its column is twice the phone's, and the script that shows a table too wide for it as cards is
    the same on every page."""
    return sorted(kind_ends(pages) if viewport == "laptop" else pages, key=in_order)


def open_page(tab: Any, url: str) -> None:
    """Load a page and every frame in it. A map's frame loads once scrolled near; it is told to load now
    instead, since scrolling would hide the theme's tabs and scrolling back fade them in."""
    response = tab.goto(url, wait_until="load")
    assert response is not None and response.status == 200, url
    tab.evaluate(EAGER)
    for frame_element in tab.locator("iframe").all():
        frame = frame_element.element_handle().content_frame()
        assert frame is not None, url
        frame.wait_for_function("location.href !== 'about:blank' && document.readyState === 'complete'")


# The hand-off on-demand.js makes when a map's frame scrolls near (test_site_in_chromium scrolls to it).
EAGER = """() => document.querySelectorAll("iframe.ck-map[data-src]").forEach(frame => {
    frame.src = frame.getAttribute("data-src");
    frame.removeAttribute("data-src");
})"""
SETTLED = """async () => {
    await new Promise(next => requestAnimationFrame(() => requestAnimationFrame(next)));
    const ending = document.getAnimations().filter(a => isFinite(a.effect?.getComputedTiming().endTime));
    await Promise.all(ending.map(a => a.finished.catch(() => null)));
}"""


def run_axe(tab: Any, source: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page and in its frames: each frame gets its own copy of axe (unless
    the tab already runs it in every frame, see watched_tab), and the top frame's run collects theirs (a
    frame's findings then carry a target of two selectors)."""
    for frame in tab.frames:
        if frame.evaluate("typeof axe === 'undefined'"):
            frame.add_script_tag(content=source)
    # axe reads colours as they are drawn: it waits for every transition of the page and of its frames (a
    # button just pressed, the tabs, a map's marks fading in) to end, two frames after the last change,
    # which lets that change start its own.
    for frame in tab.frames:
        frame.evaluate(SETTLED)
    return tab.evaluate("options => axe.run(document, options).then(found => found.violations)", AXE_OPTIONS)


def describe(path: str, violation: dict[str, Any]) -> list[str]:
    return [
        f"{path}: {violation['id']} ({node['impact']}) at {' >> '.join(map(str, node['target']))}: "
        + node["failureSummary"].splitlines()[-1].strip()
        for node in violation["nodes"]
    ]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_page_has_an_accessibility_violation_or_a_table_that_does_not_fit(
    browser: Any, demo_served: Served, axe_source: str, viewport: str
) -> None:
    """One visit a page: axe-core on the pages of the sweep (and their maps), and the tables' fit on the
    pages of the tables' sweep, which hold them all on the phone."""
    every = site_pages(demo_served.folder)
    pages = sweep(every, viewport)
    measured = table_sweep(every, viewport)
    assert len(every) > 20 and len(pages) > 20, pages
    folder = ARTIFACTS / f"{demo_served.site.root.name}-{viewport}"
    folder.mkdir(parents=True, exist_ok=True)
    counts: Counter[str] = Counter()  # "rule-id impact": how many elements
    findings: list[str] = []
    misfits: list[str] = []
    tables = 0
    photographed: set[str] = set()
    with watched_tab(browser, *VIEWPORTS[viewport], touch=TOUCH[viewport], axe=axe_source) as (tab, _):
        for path in sorted(set(pages) | set(measured), key=in_order):
            if path not in pages:  # tables alone: no map to wait for
                response = tab.goto(demo_served.base + path, wait_until="load")
                assert response is not None and response.status == 200, path
            else:
                open_page(tab, demo_served.base + path)
                for violation in run_axe(tab, axe_source):
                    for node in violation["nodes"]:
                        counts[f"{violation['id']} {node['impact']}"] += 1
                    findings += describe(path, violation)
            if path in measured:
                tables += tab.locator(".md-content table").count()
                misfits += [f"{path}: {problem}" for problem in tab.evaluate(TABLE_PROBLEMS)]
            kind = page_type(path, every)
            if path in pages and kind not in photographed:
                photographed.add(kind)
                name = re.sub(r"[^A-Za-z0-9]+", "-", kind).strip("-") or "home"
                # a long page on a busy machine takes more than the default 10 s to photograph whole
                tab.screenshot(path=folder / f"{name}.png", full_page=True, timeout=60_000)
    counted = dict(sorted(counts.items()))
    report = {"pages": len(pages), "of": len(every), "counts": counted, "findings": findings}
    (folder / "axe.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    assert tables > 10  # standings, rules fields, faction facts: the check saw the tables it is about
    assert not findings, f"{len(findings)} violations:\n" + "\n".join(findings[:60])
    assert not misfits, "\n".join(misfits[:60])


@pytest.mark.parametrize("in_every_frame", [True, False], ids=["run-in-every-frame", "sent-per-frame"])
def test_axe_reads_inside_a_pages_frames(
    browser: Any, axe_source: str, tmp_path: Path, in_every_frame: bool
) -> None:
    """The sweeps are only as good as their instrument: a nameless button inside a page's frame (where the
    maps live) is reported, with the frame and the button as its target, whichever way the tab gets axe."""
    (tmp_path / "inner.html").write_text(
        '<!doctype html><html lang="en"><title>Inner</title>'
        '<main aria-label="Inside the frame"><h1>Inner</h1><button></button></main>'
    )
    (tmp_path / "index.html").write_text(
        '<!doctype html><html lang="en"><title>Outer</title>'
        '<main aria-label="The page"><h1>Outer</h1><iframe src="inner.html" title="A frame"></iframe></main>'
    )
    axe = axe_source if in_every_frame else None
    with serve(tmp_path) as base, watched_tab(browser, axe=axe) as (tab, _):
        open_page(tab, base)
        found = run_axe(tab, axe_source)
    targets = [node["target"] for violation in found for node in violation["nodes"]]
    assert [violation["id"] for violation in found] == ["button-name"], found
    assert len(targets) == 1 and len(targets[0]) == 2 and "iframe" in targets[0][0], targets
