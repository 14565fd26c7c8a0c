"""The built site in a real browser: pages load, maps draw and move, search works, nothing leaks.

Every test also fails (in the ``page`` fixture) on a console error, a script dialog or any request
that leaves the local server.
"""

from __future__ import annotations

import re
from typing import Any

from resolver.core.world import generate_hex, generate_provinces
from resolver.engine.ruleset import Ruleset
from resolver.publish.history import TurnRecord
from resolver.publish.maps import world_map_html
from resolver.store.store import Store

from ..site.demo import HOSTILE_NAME, SCRIPT, TURNS
from .conftest import Served, Watch

Page = tuple[Any, Watch]


def heading(locator: Any) -> str:
    """A heading's text without the permalink sign the table of contents adds."""
    return locator.inner_text().removesuffix("¶").strip()


def visit(page: Page, served: Served, path: str) -> Any:
    tab, _ = page
    response = tab.goto(served.base + path, wait_until="load")
    assert response is not None and response.status == 200, path
    return tab


def test_home_page_loads_with_standings_and_map(page: Page, served: Served) -> None:
    tab = visit(page, served, "")
    assert heading(tab.locator("h1").first) == "Test of the Site"
    game = Store(served.site.root).game()
    assert tab.locator(".ck-standings table tbody tr").count() == len(game.factions)
    tab.locator("iframe.ck-map").scroll_into_view_if_needed()  # the map loads as it comes into view
    frame = tab.frame_locator("iframe.ck-map")
    frame.locator("path.leaflet-interactive").first.wait_for()
    assert frame.locator("path.leaflet-interactive").count() == len(game.world)


def test_every_resolved_turn_has_a_chronicle_page_and_a_newspaper_issue(page: Page, served: Served) -> None:
    tab, _ = page
    for turn in range(1, TURNS + 1):
        for path, says in (
            (f"chronicle/turn-{turn}/", rf"<h1[^>]*>Turn {turn}:"),
            (f"newspaper/turn-{turn}/", rf"<em>Issue {turn} of the newspaper\."),
        ):
            response = tab.request.get(served.base + path)  # through the browser's network stack
            assert response.status == 200, path
            assert re.search(says, response.text()), path
    # The newest of each is read in full, and the lists link every turn.
    assert heading(visit(page, served, f"chronicle/turn-{TURNS}/").locator("h1")).startswith(f"Turn {TURNS}:")
    issue = visit(page, served, f"newspaper/turn-{TURNS}/")
    assert issue.locator(".md-content em", has_text=f"Issue {TURNS} of the newspaper").count() == 1
    for listing, pattern in (("newspaper/issues/", "newspaper/turn-"), ("chronicle/", "chronicle/turn-")):
        tab = visit(page, served, listing)
        hrefs = tab.eval_on_selector_all(".md-content a[href]", "links => links.map(a => a.href)")
        assert {f"{served.base}{pattern}{t}/" for t in range(1, TURNS + 1)} <= set(hrefs), listing


def shown_pieces(tab: Any) -> int:
    """The pieces the markers stand for: a stack of pieces too close to tell apart is one marker."""
    counts = tab.eval_on_selector_all(".cm-piece", "els => els.map(el => Number(el.dataset.count))")
    return sum(counts)


def test_map_draws_every_polygon_and_the_slider_changes_the_pieces(page: Page, served: Served) -> None:
    tab = visit(page, served, "map/world.html")
    world = Store(served.site.root).game().world
    tab.locator("path.leaflet-interactive").first.wait_for()
    assert tab.locator("path.leaflet-interactive").count() == len(world)
    container = tab.locator(".folium-map")
    assert container.get_attribute("data-turn") == str(TURNS)
    slider = tab.get_by_label("Turn 5: Spring, Year 2")
    slider.focus()
    tab.keyboard.press("Home")
    assert container.get_attribute("data-turn") == "0"
    start = (int(container.get_attribute("data-pieces")), shown_pieces(tab))
    assert start[0] == start[1] > 0
    tab.keyboard.press("End")
    assert container.get_attribute("data-turn") == str(TURNS)
    end = (int(container.get_attribute("data-pieces")), shown_pieces(tab))
    assert end[0] == end[1]
    assert end != start, "the slider must change what stands on the map"
    tab.get_by_role("button", name="Previous turn").click()
    assert container.get_attribute("data-turn") == str(TURNS - 1)
    assert "Winter, Year 1" in tab.locator(".cm-slider-label").inner_text()


def test_chronicle_map_opens_at_its_own_turn(page: Page, served: Served) -> None:
    tab = visit(page, served, "chronicle/turn-2/")
    tab.locator("iframe.ck-map").scroll_into_view_if_needed()
    frame = tab.frame_locator("iframe.ck-map")
    frame.locator("path.leaflet-interactive").first.wait_for()
    assert frame.locator(".folium-map").get_attribute("data-turn") == "2"


def test_hex_and_province_worlds_draw_too(page: Page, served: Served) -> None:
    for name, world in (("hex", generate_hex(8, 9, 7)), ("province", generate_provinces(8, 14, 30, 20))):
        first, second = list(world.locations)[:2]
        piece = {"kind": "army", "owner": "red", "label": "A", "detail": "", "size": 2}
        history = type("H", (), {})()
        history.game = type(
            "G",
            (),
            {"world": world, "factions": ("red",), "name_of": staticmethod(str), "ruleset": Ruleset()},
        )()
        history.state = {}
        history.colors = {"red": "#c0392b"}
        history.records = [
            TurnRecord(0, None, [], [], [{**piece, "location": first}]),
            TurnRecord(1, type("D", (), {"label": "Spring"})(), [], [], [{**piece, "location": second}]),
        ]
        (served.folder / "map" / f"test-{name}.html").write_text(
            world_map_html(history, "../assets/campaign", f"{name} world"), encoding="utf-8"
        )
        tab = visit(page, served, f"map/test-{name}.html")
        tab.locator("path.leaflet-interactive").first.wait_for()
        assert tab.locator("path.leaflet-interactive").count() == len(world), name
        assert tab.locator(".cm-piece").count() == 1


def test_search_finds_a_faction_by_name(page: Page, served: Served) -> None:
    tab = visit(page, served, "")
    box = tab.locator("input.md-search__input")
    box.click()
    box.press_sequentially("Kessmark")  # typed, as a reader would: the search listens to key presses
    hit = tab.locator(".md-search-result__item a[href*='factions/green/']").first
    hit.wait_for(timeout=10_000)
    hit.click()
    tab.wait_for_url("**/factions/green/**")
    assert "Kessmark" in tab.locator("h1").inner_text()


def test_the_script_press_article_is_shown_as_text(page: Page, served: Served) -> None:
    tab = visit(page, served, f"newspaper/turn-{served.site.press_turn}/")
    headline = tab.locator("h3", has_text=SCRIPT)
    assert headline.count() == 1 and heading(headline) == SCRIPT
    # the player's article, among the bots'
    shown = [box.inner_text() for box in tab.locator(".ck-press").all()]
    assert any(SCRIPT in text for text in shown), shown
    assert tab.evaluate("[...document.scripts].every(s => !s.textContent.includes('alert('))")
    assert tab.locator(".md-content img").count() == 0  # the article's image syntax stayed text


def test_a_hostile_faction_name_is_text_everywhere(page: Page, served: Served) -> None:
    tab = visit(page, served, "factions/blue/")
    assert heading(tab.locator("h1")) == HOSTILE_NAME
    assert tab.title().startswith(HOSTILE_NAME)
    tab = visit(page, served, "map/world.html")
    if not tab.locator(".cm-legend[open]").count():
        tab.locator(".cm-legend summary").click()
    assert tab.get_by_text(HOSTILE_NAME, exact=True).count() >= 1


def test_main_pages_load_cleanly(page: Page, served: Served) -> None:
    for path in (
        "rules/",
        "rules/orders/",
        "rules/house-rules/",
        "play/",
        "play/templates/",
        "factions/",
        "chronicle/",
        "chronicle/year-1/",
        "newspaper/",
        "map/",
        "notes/house-notes/",
    ):
        if path == "notes/house-notes/" and not (served.folder / "notes").exists():
            continue
        tab = visit(page, served, path)
        assert tab.locator("h1").count() == 1, path
