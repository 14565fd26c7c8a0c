"""Hostile names and texts in Chromium: the map and every page show them as text, and none of them runs.

The probes' scripts would set ``window.ckHostile``; the ``page`` fixture also fails on any dialog,
console error (an ``<img src=x>`` that became an element would log a failed load) or outside request.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from resolver.core.world import generate_square
from resolver.engine.ruleset import Ruleset
from resolver.publish.history import TurnRecord
from resolver.publish.maps import world_map_html

from ..site.hostile import EVERY_PROBE, PROBES
from .conftest import HostileServed, Served, Watch

Page = tuple[Any, Watch]
NOTHING_RAN = "typeof window.ckHostile === 'undefined'"
# What a page holds when a probe that could run reached it: the probes' own word, in any escaping, or a
# map's frame, which draws the names from its own data.
RUNNABLE = re.compile(r"ckHostile|iframe[^>]*\bck-map\b")


def open_map(tab: Any, url: str) -> None:
    response = tab.goto(url, wait_until="load")
    assert response is not None and response.status == 200, url
    tab.locator("path.leaflet-interactive").first.wait_for()
    if not tab.locator(".cm-legend[open]").count():
        tab.locator(".cm-legend summary").click()


def test_the_map_shows_hostile_names_as_text(page: Page, hostile_served: HostileServed) -> None:
    tab, _ = page
    open_map(tab, hostile_served.base + "map/world.html")
    legend = tab.locator(".cm-legend li span:not(.cm-swatch)").all_inner_texts()
    assert {" ".join(PROBES[:3]), *PROBES[3:]} <= set(legend)  # the faction names
    # Each of the GM's named pieces (settlements and an army, or lieutenants): its marker's label, and its
    # popup once selected, is the name as written.
    labels = tab.locator(".cm-piece").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    ruleset = hostile_served.site.ruleset
    names: tuple[str, ...] = (EVERY_PROBE, *PROBES)
    owners: tuple[str, ...] = ()  # names a marker gives as the owner of its pieces
    if ruleset == "seasons":  # the seasons' pieces have no chosen names
        names = ()
    elif ruleset == "overlord":  # the public sees each faction's force at a place, named after it, no unit
        names = (" ".join(PROBES[:3]), *PROBES[3:])
    elif ruleset == "diplomacy":  # a unit has no name ("A" or "F"): its marker names the power it serves
        names, owners = (), (" ".join(PROBES[:3]), *PROBES[3:])
    # A marker stands for one piece ("name, owner, tile") or a stack ("2 pieces: name, ...; name, ...").
    for probe, said, shown in [
        *((probe, f"(^|: |; ){re.escape(probe)},", "strong") for probe in names),
        *((probe, f", {re.escape(probe)}, ", ".cm-meta") for probe in owners),  # "Army of NAME · Vienna"
    ]:
        named = [label for label in labels if re.search(said, label)]
        assert named, (probe, labels)
        marker = tab.locator(f".cm-piece[aria-label={_css_string(named[0])}]").first
        marker.dispatch_event("click")
        popup = tab.locator(f".leaflet-popup-content .cm-info {shown}")
        popup.first.wait_for()
        texts = popup.all_inner_texts()
        found = probe in texts if shown == "strong" else any(f" of {probe} · " in text for text in texts)
        assert found, texts
        tab.locator(".leaflet-popup-close-button").dispatch_event("click")
        popup.first.wait_for(state="detached")
    if hostile_served.site.ruleset == "nations":  # settlements carry their name under the marker
        shown = tab.locator(".cm-label span").all_text_contents()  # names that would overlap wait, hidden
        assert {EVERY_PROBE, *PROBES} <= set(shown)
    assert tab.locator(".leaflet-container img[src='x'], .leaflet-container script").count() == 0
    assert tab.evaluate(NOTHING_RAN)


def test_no_hostile_text_runs_on_any_page(page: Page, hostile_served: HostileServed) -> None:
    """Every page that holds a probe that could run (its text or a map's frame, which draws the names
    itself) is opened: none runs. A page the probes never reached (a rules chapter) cannot run them."""
    tab, _ = page
    public = hostile_served.site.public
    every = sorted(p.relative_to(public).as_posix() for p in public.rglob("*.html") if p.name != "404.html")
    holding = [path for path in every if RUNNABLE.search((public / path).read_text(encoding="utf-8"))]
    assert len(holding) > 15 and len(holding) < len(every), holding
    for path in holding:
        response = tab.goto(hostile_served.base + path, wait_until="load")
        assert response is not None and response.status == 200, path
        assert tab.evaluate(NOTHING_RAN), path
        assert tab.locator("img[src='x'], a[href^='javascript:']").count() == 0, path
        frames = tab.locator("iframe.ck-map")
        if frames.count():
            frames.first.scroll_into_view_if_needed()
            frame = tab.frame_locator("iframe.ck-map").first
            frame.locator("path.leaflet-interactive").first.wait_for()
            assert frame.locator("body").evaluate(NOTHING_RAN), path


def test_hostile_tile_and_place_names_show_as_text(page: Page, served: Served) -> None:
    """Tile and place names come from the world file, which the GM may edit: the tooltip shows them
    as written."""
    world = generate_square(3, 4, 3)
    first = next(iter(world.locations))
    world.locations[first] = replace(world.locations[first], label=EVERY_PROBE, place=PROBES[0])
    history = type("H", (), {})()
    history.game = type(
        "G", (), {"world": world, "factions": ("red",), "name_of": staticmethod(str), "ruleset": Ruleset()}
    )()
    history.state = {}
    history.colors = {"red": "#c0392b"}
    history.records = [TurnRecord(0, None, [], [], [])]
    (served.folder / "map" / "test-hostile-tiles.html").write_text(
        world_map_html(history, "../assets/campaign", EVERY_PROBE), encoding="utf-8"
    )
    tab, _ = page
    open_map(tab, served.base + "map/test-hostile-tiles.html")
    assert tab.title() == EVERY_PROBE
    assert tab.locator(".cm-place", has_text=PROBES[0]).inner_text() == PROBES[0]
    polygon = tab.locator("path.leaflet-interactive").first
    polygon.hover()
    tooltip = tab.locator(".cm-tile")
    tooltip.wait_for()
    cells = tooltip.locator("td").all_inner_texts()
    assert cells[0] == EVERY_PROBE and cells[2] == PROBES[0]
    assert tab.evaluate(NOTHING_RAN)


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_searching_for_hostile_text_shows_it_as_text(page: Page, hostile_served: HostileServed) -> None:
    tab, _ = page
    response = tab.goto(hostile_served.base, wait_until="load")
    assert response is not None and response.status == 200
    box = tab.locator("input.md-search__input")
    box.click()
    box.press_sequentially("Rawtext")  # typed, as a reader would: the search listens to key presses
    tab.locator(".md-search-result__item").first.wait_for()
    # Which page ranks first depends on how often the word occurs on each; the probe must show as text
    # in the results, wherever it ranks (a page's further matches sit folded under "N more on this page").
    shown = tab.locator(".md-search-result__article").all_inner_texts()
    assert any(PROBES[2] in text for text in shown), shown
    assert (
        tab.locator(".md-search-result a[href^='javascript:'], .md-search-result img[src='x']").count() == 0
    )
    assert tab.evaluate(NOTHING_RAN)
