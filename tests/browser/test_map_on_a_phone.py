"""The world map on a phone, and the provinces' holders drawn in a browser (issue 22): every ruleset's demo.

- The first view of the map shows the whole world at phone sizes: every tile, and every name, piece and
  mark shown on it, lies inside the map's frame (a phone's first view used to cut the names of the east
  edge's provinces off).
- When the frame changes size (a phone turned upright, a window narrowed), a view the reader never moved
  fits the whole world again; a view the reader zoomed keeps its zoom.
- Where the ruleset's provinces are held (seasons), each held province is tinted and edged in the colour
  the legend gives its holder, its tooltip names the holder, and the legend says so in words; axe finds
  no violation on the map with its legend and a province's tooltip open. Turn by turn, the holders are
  the campaign state's, read from the store.
"""

from __future__ import annotations

from typing import Any

import pytest

from resolver.core import canonical
from resolver.store.store import Store

from .conftest import Served, watched_tab
from .test_accessibility import ARTIFACTS, describe, open_page, run_axe

PHONES = [(390, 844), (360, 640), (320, 568)]

# Where the world and what is drawn on it lie, in the map frame's own coordinates: the tiles' outer box,
# and everything a reader reads or taps (names, pieces, marks) that lies past the frame's edges.
OUTSIDE = """() => {
  const frame = document.querySelector('.folium-map').getBoundingClientRect();
  const tiles = [...document.querySelectorAll('.leaflet-overlay-pane path.leaflet-interactive')]
    .map(el => el.getBoundingClientRect());
  const world = {
    left: Math.min(...tiles.map(t => t.left)), right: Math.max(...tiles.map(t => t.right)),
    top: Math.min(...tiles.map(t => t.top)), bottom: Math.max(...tiles.map(t => t.bottom)),
  };
  const past = [];
  const read = '.leaflet-tooltip.cm-place, .cm-label span, .cm-piece, .cm-mark';
  for (const el of document.querySelectorAll(read)) {
    const shown = el.closest('.cm-hidden') === null && getComputedStyle(el).display !== 'none'
      && getComputedStyle(el).visibility !== 'hidden';
    const box = el.getBoundingClientRect();
    if (!shown || !box.width) continue;
    if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.top < frame.top - 0.5
        || box.bottom > frame.bottom + 0.5)
      past.push([el.textContent || el.getAttribute('aria-label'), ...[box.left, box.right].map(Math.round)]);
  }
  const round = box => [box.left, box.top, box.right, box.bottom].map(Math.round);
  return {frame: round(frame), world: round(world), past: past};
}"""


def map_frame(tab: Any, path: str) -> Any:
    """The frame the map is drawn in, once its tiles are: the page itself, or the map page's iframe."""
    if path.endswith(".html"):
        frame = tab.main_frame
    else:
        element = tab.locator("iframe.ck-map")
        element.scroll_into_view_if_needed()
        frame = element.element_handle().content_frame()
        assert frame is not None
    frame.locator("path.leaflet-interactive").first.wait_for()
    tab.wait_for_timeout(400)  # the names are laid out once the zoom has settled
    return frame


def assert_whole_world_inside(found: dict[str, Any], where: str) -> None:
    left, top, right, bottom = found["frame"]
    w_left, w_top, w_right, w_bottom = found["world"]
    assert left <= w_left and w_right <= right and top <= w_top and w_bottom <= bottom, (where, found)
    assert not found["past"], (where, "shown past the frame's edge", found["past"])


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_a_phones_first_view_shows_the_whole_world(
    browser: Any, demo_served: Served, size: tuple[int, int]
) -> None:
    with watched_tab(browser, *size, touch=True) as (tab, _):
        for path in ("map/", "map/world.html"):
            tab.goto(demo_served.base + path, wait_until="load")
            frame = map_frame(tab, path)
            assert_whole_world_inside(frame.evaluate(OUTSIDE), f"{path} at {size}")
            if size == PHONES[0]:
                folder = ARTIFACTS / "map-on-a-phone"
                folder.mkdir(parents=True, exist_ok=True)
                name = f"{demo_served.site.root.name}-{path.strip('/').replace('/', '-')}-phone.png"
                tab.screenshot(path=str(folder / name))


@pytest.mark.parametrize(
    "before", [(1366, 900), (844, 390)], ids=["a window narrowed", "a phone turned upright"]
)
def test_the_map_fits_the_whole_world_again_when_its_frame_changes_size(
    browser: Any, demo_served: Served, before: tuple[int, int]
) -> None:
    with watched_tab(browser, *before, touch=before[0] < 1000) as (tab, _):
        for path in ("map/", "map/world.html"):
            tab.set_viewport_size({"width": before[0], "height": before[1]})
            tab.goto(demo_served.base + path, wait_until="load")
            frame = map_frame(tab, path)
            tab.set_viewport_size({"width": 390, "height": 844})
            tab.wait_for_timeout(600)
            found = frame.evaluate(OUTSIDE)
            assert_whole_world_inside(found, f"{path} from {before}")
            # The legend the wide frame opened closes on the narrow one: open, it would cover the east.
            assert not frame.evaluate("() => document.querySelector('.cm-legend').open"), path
            # Not a speck either: the world takes most of the phone's width.
            assert found["world"][2] - found["world"][0] > 0.6 * (found["frame"][2] - found["frame"][0]), (
                found
            )


def test_a_view_the_reader_zoomed_keeps_its_zoom_when_the_frame_changes_size(
    browser: Any, demo_served: Served
) -> None:
    with watched_tab(browser, 844, 390, touch=True) as (tab, _):
        tab.goto(demo_served.base + "map/world.html", wait_until="load")
        frame = map_frame(tab, "map/world.html")
        tab.locator(".leaflet-control-zoom-in").click()
        tab.wait_for_timeout(500)
        zoom = tab.evaluate("() => map_world.getZoom()")
        tab.set_viewport_size({"width": 390, "height": 844})
        tab.wait_for_timeout(600)
        assert frame.evaluate("() => map_world.getZoom()") == zoom


# A point inside a province's tile where the reader's pointer meets the tile itself (no piece, mark or name
# above it): the holder shape over it is drawn only, the tile has the tooltip.
POINT_IN = """tile => {
  const shape = document.querySelector(`path.leaflet-interactive[data-tile="${CSS.escape(tile)}"]`);
  if (!shape) return null;
  const box = shape.getBoundingClientRect();
  const toShape = shape.getScreenCTM().inverse();
  for (let fy = 0.1; fy < 1; fy += 0.1) {
    for (let fx = 0.1; fx < 1; fx += 0.1) {
      const x = box.left + fx * box.width, y = box.top + fy * box.height;
      if (!shape.isPointInFill(new DOMPoint(x, y).matrixTransform(toShape))) continue;
      if (document.elementFromPoint(x, y) === shape) return [x, y];
    }
  }
  return null;
}"""

HOLDER_SHAPES = """() => Object.fromEntries([...document.querySelectorAll('path.cm-holder')].map(
  el => [el.dataset.tile, [el.dataset.holder, el.getAttribute('fill'), el.getAttribute('stroke')]]))"""

LEGEND = """() => Object.fromEntries([...document.querySelectorAll('.cm-legend li')].map(li => {
  const swatch = li.querySelector('.cm-swatch');
  return [li.textContent.trim(), swatch ? getComputedStyle(swatch).backgroundColor : null];
}))"""


def rgb(hex_color: str) -> str:
    red, green, blue = (int(hex_color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


def expected_holders(site: Served, turn: int | None) -> dict[str, str | None]:
    """The holder of every world location by its label, from the campaign's store: after ``turn``, or now.
    Empty for a ruleset whose locations are not held."""
    store = Store(site.site.root)
    game = store.game()
    state = (
        store.state() if turn is None else canonical.read_yaml(store.turns_dir / f"{turn:04d}" / "state.yaml")
    )
    holders = game.ruleset.map_holders(game, state)
    return {
        game.world[location].label: (game.name_of(owner) if owner else None)
        for location, owner in holders.items()
    }


@pytest.mark.parametrize("turn", [0, None], ids=["at the start", "after the latest turn"])
def test_each_held_province_is_drawn_in_its_holders_colour_and_its_tooltip_names_the_holder(
    browser: Any, demo_served: Served, turn: int | None
) -> None:
    expected = expected_holders(demo_served, turn)
    with watched_tab(browser, 1366, 900) as (tab, _):
        tab.goto(
            demo_served.base + "map/world.html" + ("" if turn is None else f"#turn={turn}"), wait_until="load"
        )
        map_frame(tab, "map/world.html")
        shapes = tab.evaluate(HOLDER_SHAPES)
        legend = tab.evaluate(LEGEND)
        if not expected:
            assert not shapes, "a world whose locations nobody holds has no holder layer"
            assert not any("holder" in line or "held by" in line for line in legend), legend
            return
        held = {tile: name for tile, name in expected.items() if name}
        assert held, "the demo's provinces are held"
        assert {tile: shape[0] for tile, shape in shapes.items()} == held
        for tile, (name, fill, stroke) in shapes.items():
            assert rgb(fill) == rgb(stroke) == legend[name], (tile, name, fill, legend.get(name))
        # The legend says in words what the tint means.
        assert "Tint and edge: the province's holder" in legend and "No tint: held by nobody" in legend, (
            legend
        )
        # Every province's tooltip names its holder, or nobody.
        pointed = 0
        for tile, name in expected.items():
            point = tab.evaluate(POINT_IN, tile)
            if point is None:
                continue  # covered all over by its pieces and names at this zoom
            tab.mouse.move(*point)
            # The tile's own name, whole: "Northwest Hasawood Plains" is also part of "Far Northwest …".
            tip = tab.locator(".leaflet-tooltip table.cm-tile").filter(has=tab.get_by_text(tile, exact=True))
            tip.wait_for()
            rows = dict(
                zip(tip.locator("th").all_inner_texts(), tip.locator("td").all_inner_texts(), strict=True)
            )
            # A tile, or a place inside one (overlord's towns and cities), by its own name.
            where = rows.get("Tile", rows.get("Place"))
            assert where == tile and rows["Held by"] == (name or "nobody"), rows
            pointed += 1
        assert pointed >= len(expected) * 3 // 4, (
            f"only {pointed} of {len(expected)} provinces could be pointed at"
        )
        tab.mouse.move(5, 5)


@pytest.mark.parametrize("viewport", ["phone", "laptop"])
def test_axe_finds_no_violation_on_the_map_with_its_legend_and_a_provinces_tooltip_open(
    browser: Any, demo_served: Served, axe_source: str, viewport: str
) -> None:
    size, touch = {"phone": ((390, 844), True), "laptop": ((1366, 900), False)}[viewport]
    folder = ARTIFACTS / "map-on-a-phone"
    folder.mkdir(parents=True, exist_ok=True)
    findings: list[str] = []
    with watched_tab(browser, *size, touch=touch) as (tab, _):
        open_page(tab, demo_served.base + "map/world.html")
        map_frame(tab, "map/world.html")
        held = tab.evaluate(
            "() => [...document.querySelectorAll('path.cm-holder')].map(el => el.dataset.tile)"
        )
        for tile in held:
            point = tab.evaluate(POINT_IN, tile)
            if point is not None:
                tab.mouse.move(*point)
                tab.locator(".leaflet-tooltip table.cm-tile").filter(has_text=tile).wait_for()
                break
        else:
            assert not held, "no held province could be pointed at"
        # The legend opened from the keyboard, so that the pointer stays on the province.
        legend = tab.locator(".cm-legend")
        if not legend.evaluate("el => el.open"):
            legend.locator("summary").focus()
            tab.keyboard.press("Enter")
        tab.locator(".cm-legend li").first.wait_for()
        if held:
            tab.locator(".leaflet-tooltip table.cm-tile").wait_for()
        tab.screenshot(path=str(folder / f"{demo_served.site.root.name}-world-{viewport}-legend.png"))
        for violation in run_axe(tab, axe_source):
            findings += describe("map/world.html", violation)
    assert not findings, "\n".join(findings)
