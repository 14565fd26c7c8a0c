"""The standard map as drawn for the site: every province has one simple outline, the outlines tile the
sheet without overlapping, two provinces share a border in the drawing exactly when they are neighbours on
the board, and every label and coast point lies inside its own province."""

from __future__ import annotations

import importlib.util
import math
from itertools import combinations
from pathlib import Path

import pytest

from resolver.core.world import Point
from resolver.rulesets.diplomacy import geometry
from resolver.rulesets.diplomacy.board import standard_board

BOARD = standard_board()
WORLD = geometry.standard_world(BOARD)
WIDTH, HEIGHT = geometry.sheet_size()


def area(polygon: tuple[Point, ...]) -> float:
    """The signed area (shoelace): positive for a counter-clockwise ring."""
    return (
        sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True))
        / 2
    )


def inside(point: Point, polygon: tuple[Point, ...]) -> bool:
    """Even-odd ray casting: whether the point lies strictly inside the ring (a point on it may go either way,
    so the tests sample points that are not on any border)."""
    x, y = point
    found = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            found = not found
    return found


def distance_to_ring(point: Point, polygon: tuple[Point, ...]) -> float:
    best = math.inf
    px, py = point
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy or 1)))
        best = min(best, math.hypot(px - x1 - t * dx, py - y1 - t * dy))
    return best


def edges(polygon: tuple[Point, ...]) -> set[frozenset[Point]]:
    return {frozenset(pair) for pair in zip(polygon, polygon[1:] + polygon[:1], strict=True)}


def crosses(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd cross or touch (segments that share an end are not asked)."""

    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True

    def on(p: Point, q: Point, r: Point, o: float) -> bool:
        return (
            o == 0
            and min(p[0], q[0]) <= r[0] <= max(p[0], q[0])
            and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])
        )

    return on(a, b, c, o1) or on(a, b, d, o2) or on(c, d, a, o3) or on(c, d, b, o4)


def test_every_province_of_the_board_is_drawn_once_in_the_boards_order() -> None:
    assert WORLD.kind == "province"
    assert tuple(WORLD) == BOARD.provinces
    assert len(WORLD) == 75
    for province in BOARD.provinces:
        location = WORLD[province]
        assert location.label == BOARD.name(province)
        assert location.terrain == BOARD.kind(province)
        assert location.neighbours == BOARD.neighbours(province)
        assert len(location.polygon) >= 3


def test_outlines_are_counter_clockwise_and_on_the_sheet() -> None:
    for province in BOARD.provinces:
        polygon = WORLD[province].polygon
        assert area(polygon) > 1.0, province
        for x, y in polygon:
            assert 0 <= x <= WIDTH and 0 <= y <= HEIGHT, province


@pytest.mark.parametrize("province", BOARD.provinces)
def test_each_outline_is_simple(province: str) -> None:
    polygon = WORLD[province].polygon
    assert len(set(polygon)) == len(polygon), f"{province} passes a point twice"
    sides = list(zip(polygon, polygon[1:] + polygon[:1], strict=True))
    for (i, (a, b)), (j, (c, d)) in combinations(enumerate(sides), 2):
        if j == i + 1 or (i == 0 and j == len(sides) - 1):
            continue  # sides that follow each other share a corner
        assert not crosses(a, b, c, d), f"{province}: side {i} meets side {j}"


def test_provinces_share_a_border_exactly_when_the_board_makes_them_neighbours() -> None:
    sides = {province: edges(WORLD[province].polygon) for province in BOARD.provinces}
    drawn = {frozenset(pair) for pair in combinations(BOARD.provinces, 2) if sides[pair[0]] & sides[pair[1]]}
    board = {frozenset((p, n)) for p in BOARD.provinces for n in BOARD.neighbours(p)}
    assert sorted(map(sorted, board - drawn)) == [], "neighbours on the board drawn apart"
    assert sorted(map(sorted, drawn - board)) == [], "provinces drawn touching that are not neighbours"


def test_the_outlines_tile_the_sheet_without_overlap_leaving_only_switzerland_blank() -> None:
    polygons = [WORLD[p].polygon for p in BOARD.provinces]
    boxes = [
        (min(x for x, _ in q), min(y for _, y in q), max(x for x, _ in q), max(y for _, y in q))
        for q in polygons
    ]
    blank = []
    step = 0.9
    y = 0.173
    while y < HEIGHT:
        x = 0.211
        while x < WIDTH:
            holders = [
                i
                for i, (x0, y0, x1, y1) in enumerate(boxes)
                if x0 <= x <= x1 and y0 <= y <= y1 and inside((x, y), polygons[i])
            ]
            assert len(holders) <= 1, f"({x:.2f}, {y:.2f}) lies in {[BOARD.provinces[i] for i in holders]}"
            if not holders:
                blank.append((x, y))
            x += step
        y += step
    # The areas agree: what is not drawn is one small patch (Switzerland), between Burgundy and Tyrolia.
    drawn = sum(area(q) for q in polygons)
    assert 0 < WIDTH * HEIGHT - drawn < 0.01 * WIDTH * HEIGHT
    assert blank
    bur, tyr = WORLD["bur"].center, WORLD["tyr"].center
    for x, y in blank:
        assert bur[0] - 2 < x < tyr[0] + 2 and min(bur[1], tyr[1]) - 6 < y < max(bur[1], tyr[1]) + 6


def test_every_label_point_lies_well_inside_its_province() -> None:
    for province in BOARD.provinces:
        location = WORLD[province]
        assert inside(location.center, location.polygon), province
        assert distance_to_ring(location.center, location.polygon) > 0.8, province


def test_each_split_coast_has_a_point_inside_its_province_on_its_own_side() -> None:
    points = geometry.coast_points()
    split = {place for province in BOARD.provinces for place in BOARD.coasts(province)}
    assert set(points) == split == {"spa/nc", "spa/sc", "stp/nc", "stp/sc", "bul/ec", "bul/sc"}
    for place, point in points.items():
        province = BOARD.province(place)
        assert inside(point, WORLD[province].polygon), place
        # Nearer the seas only this coast reaches than the other coast's point is.
        others = [other for other in BOARD.coasts(province) if other != place]
        mine = {BOARD.province(p) for p in BOARD.locations_next_to("fleet", place)}
        theirs = {BOARD.province(p) for other in others for p in BOARD.locations_next_to("fleet", other)}
        for sea in sorted(mine - theirs):
            if BOARD.kind(sea) != "sea":
                continue
            ring = WORLD[sea].polygon
            assert distance_to_ring(point, ring) < min(distance_to_ring(points[o], ring) for o in others), (
                place,
                sea,
            )
    assert geometry.point_of("stp/nc") == points["stp/nc"]
    assert geometry.point_of("par") == WORLD["par"].center


def test_every_province_is_named_on_the_map() -> None:
    assert all(WORLD[province].place == BOARD.name(province) for province in BOARD.provinces)


def test_a_drawing_that_misses_a_province_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    drawing = geometry._drawing()
    trimmed = {**drawing, "provinces": {k: v for k, v in drawing["provinces"].items() if k != "par"}}
    monkeypatch.setattr(geometry, "_drawing", lambda: trimmed)
    with pytest.raises(ValueError, match="par"):
        geometry.standard_world(BOARD)


def test_the_drawing_is_the_one_its_seeds_draw() -> None:
    """rules/geometry.yaml is what tools/draw_diplomacy_map.py draws from its seeds, byte for byte, with no
    border wrong: nobody edited the outlines by hand, and the tool still agrees with the board."""
    tool = Path(__file__).resolve().parents[2] / "tools" / "draw_diplomacy_map.py"
    spec = importlib.util.spec_from_file_location("draw_diplomacy_map", tool)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text, problems = module.draw()
    assert problems == []
    assert text == geometry.GEOMETRY_FILE.read_text(encoding="utf-8")
