"""The map as a reader sees it, on both rulesets' demos, on a 390×844 phone and a 1366×900 laptop.

What happened in the turn is drawn (arrows, marks, outlines) from the ruleset's ``map_events``; a grid
names its columns and rows; the factions map draws each locale's locations and stands each piece in its
own; names never overlap; the turn bar covers no piece; a tooltip never shows with a popup; every piece
is big enough to tap; the slider comes before the pieces in tab order and tiles are no tab stops; the
map waits until it scrolls into view and the search index until the reader searches.

Screenshots of each map go to ``$PYTEST_ARTIFACTS`` (default ``tests/artifacts/``, not in git).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from resolver.core.world import axis_labels, generate_hex
from resolver.engine.ruleset import Game, Ruleset
from resolver.publish.history import TurnRecord, load_history
from resolver.publish.maps import world_map_html
from resolver.publish.site import build_site
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign, play_bot_turn

from .conftest import LOCAL_BASES, serve

RULESETS = ("nations", "factions")
VIEWPORTS = {"phone": (390, 844), "laptop": (1366, 900)}
TURNS = 8  # as `make demo` plays
ARTIFACTS = Path(os.environ.get("PYTEST_ARTIFACTS") or Path(__file__).parents[1] / "artifacts") / "maps"


@dataclass
class Demo:
    ruleset: str
    root: Path
    base: str
    game: Game


_BUILT: dict[str, Path] = {}


def built(ruleset: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ruleset's demo as `campaign demo` makes it (seed 1, 4 bot factions, 8 turns), built once."""
    root = tmp_path_factory.getbasetemp() / "map-demos" / ruleset
    if ruleset not in _BUILT:
        new_campaign(root, ruleset, 1, default_factions(4, 1), name=f"Demo of {ruleset}")
        for _ in range(TURNS):
            play_bot_turn(root)
        report = build_site(root)
        assert report.out is not None
        _BUILT[ruleset] = report.out
    return root


@pytest.fixture(scope="session", params=RULESETS)
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    root = built(request.param, tmp_path_factory)
    with serve(_BUILT[request.param]) as base:
        yield Demo(request.param, root, base, Store(root).game())


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request: pytest.FixtureRequest) -> str:
    return request.param


@dataclass
class Tab:
    page: Any
    requests: list[str]


@pytest.fixture
def tab(browser: Any, viewport: str) -> Iterator[Tab]:
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    errors: list[str] = []
    outside: list[str] = []
    requests: list[str] = []

    def route(route: Any) -> None:
        url = route.request.url
        if url.startswith((*LOCAL_BASES, "data:", "blob:", "about:")):
            requests.append(url)
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield Tab(page, requests)
    finally:
        context.close()
    assert not outside, f"requests left the site: {outside}"
    assert not errors, f"console errors: {errors}"


def open_map(tab: Tab, demo: Demo, turn: int | None = None) -> Any:
    page = tab.page
    page.goto(demo.base + "map/world.html" + (f"#turn={turn}" if turn is not None else ""), wait_until="load")
    page.locator("path.leaflet-interactive").first.wait_for()
    return page


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def show_turn(page: Any, index: int) -> None:
    """Move the turn slider to its index-th stop, as a reader's keyboard does."""
    slider = page.locator("#cm-turn")
    slider.focus()
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    assert page.locator(".folium-map").get_attribute("data-turn") == str(index)


def rects(page: Any, selector: str) -> list[dict[str, float]]:
    """Bounding boxes of the matching elements that a reader can see."""
    return page.eval_on_selector_all(
        selector,
        """els => els.filter(el => {
            const style = getComputedStyle(el);
            const box = el.getBoundingClientRect();
            const drawn = box.width > 0 && box.height > 0;
            return style.visibility === "visible" && style.display !== "none" && drawn;
        }).map(el => {
            const b = el.getBoundingClientRect();
            const text = el.textContent, label = el.getAttribute("aria-label");
            return {left: b.left, top: b.top, right: b.right, bottom: b.bottom, text: text, label: label};
        })""",
    )


def overlap(a: dict[str, float], b: dict[str, float], slack: float = 0.5) -> bool:
    return (
        a["left"] + slack < b["right"]
        and b["left"] + slack < a["right"]
        and a["top"] + slack < b["bottom"]
        and b["top"] + slack < a["bottom"]
    )


def expected_marks(demo: Demo) -> list[tuple[dict[str, list[tuple[str, str]]], list[str]]]:
    """Per turn (the start first): what happened at each place (kind and sentence, a march at its end),
    and the sentences of the marches drawn as arrows."""
    history = load_history(Store(demo.root))
    game = history.game
    areas = {a["id"]: a["label"] for a in game.ruleset.map_areas(game, history.state)}
    turns = []
    for record in history.records:
        places: dict[str, list[tuple[str, str]]] = {}
        marches = []
        for mark in game.ruleset.map_events(game, record.events):
            if mark.kind == "march" and len(mark.path) > 1:
                marches.append(mark.text)
            end = mark.path[-1]
            place = areas.get(end) or game.world[end].label
            places.setdefault(place, []).append((mark.kind, mark.text))
        turns.append((places, sorted(marches)))
    return turns


# Everything a reader can point at, tap or reach with the tab key on the map.
TARGETS = ".cm-piece, .cm-mark"


def told(page: Any) -> dict[str, list[tuple[str, str]]]:
    """What the map's targets tell happened, by place: (kind, sentence) for each event."""
    places: dict[str, list[tuple[str, str]]] = {}
    for events in page.eval_on_selector_all(
        "[data-events]", "els => els.map(e => JSON.parse(e.dataset.events))"
    ):
        for place, kind, sentence in events:
            places.setdefault(place, []).append((kind, sentence))
    return places


# Kinds of mark the demos show somewhere in their eight turns (seed 1).
DEMO_MARKS = {
    "nations": {"march", "battle", "siege", "capture", "raze", "founded", "change"},
    "factions": {"battle", "raid"},
}


def test_the_map_shows_what_happened_in_each_turn(tab: Tab, demo: Demo, viewport: str) -> None:
    page = open_map(tab, demo)
    screenshot(page, f"{demo.ruleset}-{viewport}-map")
    seen: set[str] = set()
    for index, (places, marches) in enumerate(expected_marks(demo)):
        show_turn(page, index)
        shown = told(page)
        assert {place: sorted(events) for place, events in shown.items()} == {
            place: sorted(events) for place, events in places.items()
        }, f"turn {index}"
        # Each march is an arrow with a head that points the way: drawn only, never a target.
        assert page.locator("path.cm-arrow").count() == len(marches)
        heads = page.locator(".cm-arrowhead")
        assert heads.count() == len(marches)
        for head in heads.all():
            assert head.get_attribute("aria-hidden") == "true"
            assert head.get_attribute("tabindex") is None and head.get_attribute("role") is None
            assert head.evaluate("el => getComputedStyle(el).pointerEvents") == "none"
        # Every place where something happened is outlined (a march's end too).
        assert page.locator("path.cm-highlight").count() == len(places), f"turn {index}"
        seen |= {kind for events in shown.values() for kind, _ in events}
    assert DEMO_MARKS[demo.ruleset] <= seen, seen


def test_a_mark_tells_what_happened_there(tab: Tab, demo: Demo, viewport: str) -> None:
    page = open_map(tab, demo)
    expected = expected_marks(demo)
    index = max(range(len(expected)), key=lambda i: len(expected[i][0]))
    show_turn(page, index)
    mark = page.locator("[data-events]").first  # a mark, or a piece that tells what happened at its place
    mark.dispatch_event("click")
    popup = page.locator(".leaflet-popup-content .cm-event")
    popup.first.wait_for()
    places = {place for place, _, _ in json.loads(mark.get_attribute("data-events"))}
    sentences = [text for place in places for _, text in expected[index][0][place]]
    assert sorted(popup.all_inner_texts()) == sorted(sentences)
    screenshot(page, f"{demo.ruleset}-{viewport}-mark-popup")


def test_targets_stand_apart_at_every_zoom(tab: Tab, demo: Demo, viewport: str) -> None:
    """WCAG 2.2's target size: every piece and mark is at least 24 px wide and no two of them overlap,
    so each keeps its whole box to a finger, on every turn, zoomed out as far as zoomed in."""
    page = open_map(tab, demo)

    def clashes() -> list[tuple[str, str]]:
        boxes = rects(page, TARGETS)
        assert boxes
        small = [b for b in boxes if b["right"] - b["left"] < 24 or b["bottom"] - b["top"] < 24]
        assert small == []
        return [
            (a["label"], b["label"]) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if overlap(a, b, 0)
        ]

    for index in range(TURNS + 1):
        show_turn(page, index)
        assert clashes() == [], f"turn {index}"
    for button in (".leaflet-control-zoom-out", ".leaflet-control-zoom-in", ".leaflet-control-zoom-in"):
        page.locator(button).click()
        page.wait_for_timeout(400)
        assert clashes() == [], button
    screenshot(page, f"{demo.ruleset}-{viewport}-targets")


def test_every_event_is_reachable_from_the_keyboard(tab: Tab, demo: Demo, viewport: str) -> None:
    """What happened in the turn, marches included, is in the names of the map's tab stops, and Enter on
    one opens its popup with the same sentences."""
    page = open_map(tab, demo)
    expected = expected_marks(demo)
    index = max(range(len(expected)), key=lambda i: len(expected[i][0]) + len(expected[i][1]))
    show_turn(page, index)
    wanted = sorted(text for events in expected[index][0].values() for _, text in events)
    assert set(expected[index][1]) <= set(wanted)
    assert wanted and (expected[index][1] or demo.ruleset == "factions")  # the nations demo's has marches
    heard: list[str] = []
    opened = False
    for _ in range(120):
        page.keyboard.press("Tab")
        stop = page.evaluate(
            """() => {
                const el = document.activeElement;
                if (!el.matches(".cm-piece, .cm-mark")) return null;
                return {label: el.getAttribute("aria-label"), events: JSON.parse(el.dataset.events || "[]")};
            }"""
        )
        if stop is None:
            if heard:
                break  # past the last target
            continue
        sentences = [sentence for _, _, sentence in stop["events"]]
        for sentence in sentences:
            assert sentence in stop["label"]
        heard += sentences
        if sentences and not opened:
            page.keyboard.press("Enter")
            popup = page.locator(".leaflet-popup-content .cm-event")
            popup.first.wait_for()
            assert sorted(popup.all_inner_texts()) == sorted(sentences)
            opened = True
            page.keyboard.press("Escape")
    assert opened
    assert sorted(heard) == wanted


def test_grids_name_their_columns_and_rows(tab: Tab, demo: Demo, viewport: str) -> None:
    page = open_map(tab, demo)
    columns, rows = axis_labels(demo.game.world)
    shown = [r["text"] for r in rects(page, ".cm-coord span")]
    assert sorted(shown) == sorted(name for name, _ in (*columns, *rows))
    if demo.game.world.kind == "square":
        assert {"A", "L", "1", "12"} <= set(shown)  # tile "A10" reads as column A, row 10
    else:
        assert shown == []  # a city of locales has no grid


def test_a_hex_grid_names_its_columns_and_rows(
    tab: Tab, viewport: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    built("nations", tmp_path_factory)
    world = generate_hex(8, 9, 7)
    history = type("H", (), {})()
    history.game = type(
        "G", (), {"world": world, "factions": ("red",), "name_of": staticmethod(str), "ruleset": Ruleset()}
    )()
    history.state = {}
    history.colors = {"red": "#c0392b"}
    piece = {"kind": "army", "owner": "red", "label": "A", "detail": "", "size": 2, "location": "0101"}
    history.records = [TurnRecord(0, None, [], [], [piece])]
    folder = _BUILT["nations"] / "map"
    (folder / "test-hex-axes.html").write_text(world_map_html(history, "../assets/campaign", "hex"), "utf-8")
    with serve(_BUILT["nations"]) as base:
        tab.page.goto(base + "map/test-hex-axes.html", wait_until="load")
        tab.page.locator("path.leaflet-interactive").first.wait_for()
        shown = [r["text"] for r in rects(tab.page, ".cm-coord span")]
        screenshot(tab.page, f"hex-{viewport}-axes")
    assert sorted(shown) == sorted([f"{c:02d}" for c in range(1, 10)] + [f"{r:02d}" for r in range(1, 8)])


def test_the_factions_map_draws_locations_and_stands_pieces_in_them(
    tab: Tab, demo: Demo, viewport: str
) -> None:
    page = open_map(tab, demo)
    state = Store(demo.root).state()
    areas = demo.game.ruleset.map_areas(demo.game, state)
    assert page.locator("path.cm-area").count() == len(areas)
    if demo.ruleset == "nations":
        assert not areas
        return
    assert len(areas) == len(state["locations"]) > len(demo.game.world)
    # Each marker's middle lies inside the outline of its own location.
    misplaced = page.eval_on_selector_all(
        ".cm-piece",
        """els => els.filter(el => {
            const b = el.getBoundingClientRect();
            const under = document.elementsFromPoint(b.left + b.width / 2, b.top + b.height / 2);
            return !under.some(u => u.classList.contains("cm-area") && u.dataset.area === el.dataset.area);
        }).map(el => el.getAttribute("aria-label"))""",
    )
    assert page.locator(".cm-piece").count() > 0
    assert misplaced == []
    screenshot(page, f"{demo.ruleset}-{viewport}-locations")


def test_names_never_overlap(tab: Tab, demo: Demo, viewport: str) -> None:
    page = open_map(tab, demo)
    labels = ".cm-coord span, .cm-label span, .leaflet-tooltip.cm-place"
    for index in range(TURNS + 1):
        show_turn(page, index)
        boxes = rects(page, labels)  # on a phone every name may wait for a closer zoom (checked below)
        clashes = [
            (a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if overlap(a, b)
        ]
        assert clashes == [], f"turn {index}"
    for _ in range(2):
        page.locator(".leaflet-control-zoom-in").click()
        page.wait_for_timeout(400)
        boxes = rects(page, labels)
        assert boxes, "zoomed in, the map shows names"
        clashes = [
            (a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if overlap(a, b)
        ]
        assert clashes == [], "zoomed in"
    screenshot(page, f"{demo.ruleset}-{viewport}-zoomed")


def test_the_turn_bar_covers_no_piece(tab: Tab, demo: Demo, viewport: str) -> None:
    page = open_map(tab, demo)
    for index in (0, TURNS):
        show_turn(page, index)
        bar = rects(page, ".cm-bar")
        assert len(bar) == 1
        pieces = rects(page, ".cm-piece, .cm-mark")
        assert pieces
        assert [p for p in pieces if overlap(p, bar[0], slack=0)] == []


def test_a_tooltip_never_shows_with_a_popup(tab: Tab, demo: Demo, viewport: str) -> None:
    page = open_map(tab, demo)
    tips = ".leaflet-tooltip:not(.cm-place)"
    piece = page.locator(".cm-piece").first
    piece.hover()
    page.locator(tips).first.wait_for()
    assert len(rects(page, tips)) == 1 and len(rects(page, ".leaflet-popup")) == 0
    piece.click()
    page.locator(".leaflet-popup").wait_for()
    assert len(rects(page, ".leaflet-popup")) == 1
    assert rects(page, tips) == []
    # Pointing elsewhere while the popup is open shows no tile tooltip either.
    box = page.locator(".folium-map").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 20)
    page.mouse.move(box["x"] + box["width"] / 2 + 5, box["y"] + box["height"] - 25)
    assert len(rects(page, ".leaflet-popup")) == 1 and rects(page, tips) == []
    screenshot(page, f"{demo.ruleset}-{viewport}-popup")


def test_every_piece_is_big_enough_to_tap(tab: Tab, demo: Demo, viewport: str) -> None:
    page = open_map(tab, demo)
    for index in (0, TURNS):
        show_turn(page, index)
        small = [
            r
            for r in rects(page, ".cm-piece, .cm-mark, .cm-step, #cm-turn")
            if r["right"] - r["left"] < 24 or r["bottom"] - r["top"] < 24
        ]
        assert small == [], f"turn {index}"
        # No mark lies over the middle of a piece, where a reader points or taps.
        covered = page.eval_on_selector_all(
            ".cm-piece",
            """els => els.filter(el => {
                const b = el.getBoundingClientRect();
                const top = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
                return top && top.closest(".cm-mark");
            }).map(el => el.getAttribute("aria-label"))""",
        )
        assert covered == [], f"turn {index}"


def test_the_slider_comes_before_the_pieces_and_tiles_are_no_tab_stops(
    tab: Tab, demo: Demo, viewport: str
) -> None:
    page = open_map(tab, demo)
    focused = []
    for _ in range(40):
        page.keyboard.press("Tab")
        focused.append(
            page.evaluate(
                """() => {
                    const el = document.activeElement;
                    if (el.id === "cm-turn") return "slider";
                    if (el.classList.contains("cm-piece") || el.classList.contains("cm-mark")) return "piece";
                    return el.tagName.toLowerCase();
                }"""
            )
        )
    assert "slider" in focused and "piece" in focused, focused
    assert focused.index("slider") < focused.index("piece")
    assert "path" not in focused and "svg" not in focused
    assert page.locator(".leaflet-overlay-pane [tabindex]:not([tabindex='-1'])").count() == 0


def test_a_map_in_a_page_loads_when_it_scrolls_into_view(tab: Tab, demo: Demo, viewport: str) -> None:
    page = tab.page
    page.goto(demo.base, wait_until="networkidle")  # the first page of this tab: nothing else in flight
    frame = page.locator("iframe.ck-map")
    assert frame.bounding_box()["y"] > VIEWPORTS[viewport][1] + 100, (
        "the home map is meant to start below the fold"
    )
    page.wait_for_timeout(500)
    assert not [url for url in tab.requests if "/map/world.html" in url]
    frame.scroll_into_view_if_needed()
    page.frame_locator("iframe.ck-map").locator("path.leaflet-interactive").first.wait_for()
    assert [url for url in tab.requests if "/map/world.html" in url]
    for path in ("", f"chronicle/turn-{TURNS}/", "map/"):
        page.goto(demo.base + path, wait_until="load")
        assert page.locator("iframe.ck-map").count() == 1
        assert page.locator("iframe.ck-map").get_attribute("loading") == "lazy", path


def test_the_search_index_waits_until_the_reader_searches(tab: Tab, demo: Demo, viewport: str) -> None:
    page = tab.page
    page.goto(demo.base + f"chronicle/turn-{TURNS}/", wait_until="networkidle")
    page.wait_for_timeout(500)
    assert not [url for url in tab.requests if "search_index.json" in url]
    page.keyboard.press("s")  # the theme's search key: opens the search, on a phone as on a laptop
    # Typed key by key as a reader does: the theme searches on keyup (a bare fill() sends none) and again
    # when its index is ready, so whichever comes last, the results show.
    page.locator("[data-md-component=search-query]").press_sequentially("turn")
    # The index is fetched and read only now: on a busy machine that takes a while.
    page.locator(".md-search-result__item").first.wait_for(timeout=30_000)
    assert [url for url in tab.requests if "search_index.json" in url]
