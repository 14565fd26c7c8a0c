"""The standard map drawn: a polygon, a label point and the neighbours of each of the 75 provinces, and a
point for each split coast, read from ``rules/geometry.yaml`` (which ``tools/draw_diplomacy_map.py``
draws). The board (``rules/map.yaml``) says who may go where; this file only says where things are drawn,
so the world's neighbours come from the board, never from the drawing (the tests check that the two
agree: provinces share a border in the drawing exactly when they are neighbours on the board)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ...core import canonical
from ...core.world import Location, Point, World
from .board import Board

GEOMETRY_FILE = Path(__file__).parent / "rules" / "geometry.yaml"


@functools.cache
def _drawing() -> dict[str, Any]:
    return canonical.read_yaml(GEOMETRY_FILE)


def _point(value: Any) -> Point:
    return (float(value[0]), float(value[1]))


def sheet_size() -> tuple[int, int]:
    """The width and height of the sheet the map is drawn on (x east, y north)."""
    sheet = _drawing()["sheet"]
    return int(sheet["width"]), int(sheet["height"])


def outline(province: str) -> tuple[Point, ...]:
    """The province's polygon, counter-clockwise, first point not repeated."""
    return tuple(_point(p) for p in _drawing()["provinces"][province]["outline"])


def label_point(province: str) -> Point:
    """Where the province's name (and a unit standing in it) is drawn: a point inside it."""
    return _point(_drawing()["provinces"][province]["label"])


def coast_points() -> dict[str, Point]:
    """Where a fleet on each coast of a split province is drawn: ``{"stp/sc": (x, y), ...}``."""
    found = {}
    for province, entry in _drawing()["provinces"].items():
        for coast, point in (entry.get("coasts") or {}).items():
            found[f"{province}/{coast}"] = _point(point)
    return found


def point_of(location: str) -> Point:
    """Where a unit at a board location is drawn: a split coast's own point, else the province's."""
    return coast_points().get(location) or label_point(location.split("/", 1)[0])


def standard_world(board: Board) -> World:
    """The board as a province world for the site's maps: one location per province, in the board's order,
    with its name, kind (land, coast or sea, as the terrain), label point, outline and neighbours. Every
    province carries its name as a place, so the map writes it, as the board does (the ruleset's
    ``map_marked_places`` adds the supply centres' rings)."""
    width, height = sheet_size()
    provinces = _drawing()["provinces"]
    missing = [province for province in board.provinces if province not in provinces]
    if missing:
        raise ValueError(f"rules/geometry.yaml draws no outline for {', '.join(missing)}")
    locations = {}
    for index, province in enumerate(board.provinces):
        name = board.name(province)
        locations[province] = Location(
            id=province,
            label=name,
            terrain=board.kind(province),
            center=label_point(province),
            polygon=outline(province),
            neighbours=board.neighbours(province),
            coords=(0, index),
            place=name,
        )
    return World("province", 0, width, height, locations)
