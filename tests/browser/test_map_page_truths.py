"""The map page and the deadline as a reader meets them (issue 20, points 18 and 19): "Back to top" never
covers the map's turn bar on a phone, Escape closes a map popup, the words under the map say which turn
the slider shows, place names on the map are readable on every terrain, and a weekly deadline shows as
its next date in the reader's own time zone. Every ruleset's demo site."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from .conftest import Served, watched_tab
from .test_accessibility import VIEWPORTS


def test_back_to_top_never_covers_the_maps_turn_bar_on_a_phone(browser: Any, demo_served: Served) -> None:
    with watched_tab(browser, *VIEWPORTS["phone"], touch=True) as (tab, _):
        tab.goto(demo_served.base + "map/", wait_until="load")
        frame_element = tab.locator("iframe.ck-map")
        frame_element.scroll_into_view_if_needed()
        frame = frame_element.element_handle().content_frame()
        assert frame is not None
        frame.locator(".cm-slider-label").wait_for()
        # Scroll past the map's top, then back up a little: the theme shows "Back to top" as one scrolls up,
        # just as the map's turn bar comes under the page's header.
        top = tab.evaluate(
            "() => document.querySelector('iframe.ck-map').getBoundingClientRect().top + scrollY"
        )
        tab.evaluate("y => window.scrollTo(0, y)", top + 200)
        tab.wait_for_timeout(300)
        tab.mouse.wheel(0, -250)
        tab.wait_for_timeout(600)
        button = tab.locator(".md-top")
        label = frame.locator(".cm-slider-label").bounding_box()
        shown = tab.evaluate(
            "() => { const b = document.querySelector('.md-top'); const s = getComputedStyle(b);"
            " return !b.hidden && s.visibility !== 'hidden' && s.display !== 'none'"
            " && Number(s.opacity) > 0; }"
        )
        if shown:
            box = button.bounding_box()
            assert box is not None and label is not None
            apart = box["y"] + box["height"] <= label["y"] or label["y"] + label["height"] <= box["y"]
            assert apart, (box, label)


def test_escape_closes_a_map_popup_and_the_focus_returns_to_its_marker(
    browser: Any, demo_served: Served
) -> None:
    with watched_tab(browser, *VIEWPORTS["laptop"]) as (tab, _):
        tab.goto(demo_served.base + "map/world.html", wait_until="load")
        marker = tab.locator(".cm-piece").first
        marker.wait_for()
        marker.focus()
        tab.keyboard.press("Enter")
        tab.locator(".leaflet-popup").wait_for()
        tab.keyboard.press("Escape")
        tab.locator(".leaflet-popup").wait_for(state="detached")
        assert tab.evaluate("() => document.activeElement.classList.contains('cm-piece')")


def test_the_words_under_the_map_say_which_turn_the_slider_shows(browser: Any, demo_served: Served) -> None:
    with watched_tab(browser, *VIEWPORTS["laptop"]) as (tab, _):
        tab.goto(demo_served.base + "map/", wait_until="load")
        last = int(re.search(r"after turn (\d+)", tab.locator("h2").first.inner_text())[1])  # type: ignore[index]
        shown = tab.locator(".ck-map-shown")
        assert shown.is_hidden()
        frame_element = tab.locator("iframe.ck-map")
        frame_element.scroll_into_view_if_needed()
        frame = tab.frame_locator("iframe.ck-map")
        frame.locator(".cm-step").first.click()  # the previous turn
        shown.wait_for(state="visible")
        said = shown.inner_text()
        assert f"shows turn {last - 1} " in said and "the latest turn" in said, said
        href = shown.locator("a").get_attribute("href")
        assert href is not None and href.endswith(f"chronicle/turn-{last - 1}/")
        frame.locator(".cm-step").last.click()  # back to the latest turn
        shown.wait_for(state="hidden")


# The contrast of a place's name against the tile under it, without the white glow around the letters
# (WCAG counts the text's own colour against what is behind it).
CONTRASTS = """() => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const channel = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const painted = el => el.tagName === 'path' && (el.getAttribute('fill') || 'none') !== 'none'
    && Number(el.getAttribute('fill-opacity') ?? 1) > 0;
  const found = [];
  for (const label of document.querySelectorAll('.leaflet-tooltip.cm-place, .cm-label span')) {
    const box = label.getBoundingClientRect();
    if (!box.width || getComputedStyle(label).visibility === 'hidden') continue;
    const middle = [box.left + box.width / 2, box.top + box.height / 2];
    const under = document.elementsFromPoint(...middle).find(painted);
    if (!under) continue;
    const ink = rgb(getComputedStyle(label).color);
    const fill = under.getAttribute('fill');
    const ground = fill.startsWith('#') ? [1, 3, 5].map(i => parseInt(fill.slice(i, i + 2), 16)) : rgb(fill);
    found.push([label.textContent, fill, ratio(ink, ground)]);
  }
  return found;
}"""


def test_place_names_on_the_map_are_readable_on_every_terrain(browser: Any, demo_served: Served) -> None:
    with watched_tab(browser, 1366, 900) as (tab, _):
        tab.goto(demo_served.base + "map/world.html", wait_until="load")
        tab.locator("path.leaflet-interactive").first.wait_for()
        for _ in range(2):  # closer, so that every name shows
            tab.locator(".leaflet-control-zoom-in").click()
            tab.wait_for_timeout(400)
        found = tab.evaluate(CONTRASTS)
        assert found, "no place name lies over a tile"
        weak = [(name, fill, round(ratio, 2)) for name, fill, ratio in found if ratio < 4.5]
        assert not weak, weak


def test_a_weekly_deadline_shows_its_next_date_in_the_readers_zone(browser: Any, demo_served: Served) -> None:
    """The demo is no git repository, so its deadline is the rule "every Friday at 18:00 UTC": the page
    finds the next Friday on the reader's clock and shows it in the reader's zone."""
    context = browser.new_context(timezone_id="Asia/Tokyo", locale="en-GB", service_workers="block")
    try:
        tab = context.new_page()
        tab.clock.set_fixed_time(dt.datetime(2024, 1, 3, 9, 0, tzinfo=dt.UTC))  # a Wednesday
        for path in ("", "play/"):
            tab.goto(demo_served.base + path, wait_until="load")
            assert "every Friday at 18:00 UTC" in tab.locator(".ck-deadline-rule").inner_text()
            local = tab.locator(".ck-deadline-rule + .ck-local-time").inner_text()
            assert "Sat" in local and "6 Jan 2024" in local and "03:00" in local and "GMT+9" in local, local
        tab.clock.set_fixed_time(dt.datetime(2024, 1, 5, 18, 30, tzinfo=dt.UTC))  # in the hour of grace
        tab.goto(demo_served.base, wait_until="load")
        local = tab.locator(".ck-deadline-rule + .ck-local-time").inner_text()
        assert "passed" in local and "6 Jan 2024" in local and "late orders" in local, local
    finally:
        context.close()
