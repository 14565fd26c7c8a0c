"""World graphs: determinism, adjacency, distances, geometry and serialisation."""

from __future__ import annotations

import json
import math
from collections import Counter, deque

import pytest

from resolver.core.world import (
    DEFAULT_TERRAIN,
    WATER,
    Location,
    World,
    generate_hex,
    generate_provinces,
    generate_square,
    make_names,
)

Point = tuple[float, float]


def shoelace(ring: tuple[Point, ...]) -> float:
    return sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1] for i in range(len(ring))) / 2


def inside(point: Point, ring: tuple[Point, ...]) -> bool:
    """Even-odd ray casting; only used on points that are never on an edge."""
    x, y = point
    hit = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def hops_from(world: World, start: str) -> dict[str, int]:
    hops = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in world.neighbours(here):
            if there not in hops:
                hops[there] = hops[here] + 1
                queue.append(there)
    return hops


def assert_symmetric(world: World) -> None:
    for loc in world.locations.values():
        assert list(loc.neighbours) == sorted(set(loc.neighbours))
        assert loc.id not in loc.neighbours
        for other in loc.neighbours:
            assert loc.id in world.neighbours(other)


# --- determinism -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: generate_square(seed, 12, 9),
        lambda seed: generate_hex(seed, 10, 8),
        lambda seed: generate_provinces(seed, 10, 24, 18),
    ],
    ids=["square", "hex", "province"],
)
def test_same_seed_same_world_and_other_seed_other_terrain(make) -> None:
    assert make(7).to_data() == make(7).to_data()
    assert make(7) == make(7)
    terrain_7 = [loc.terrain for loc in make(7).locations.values()]
    terrain_8 = [loc.terrain for loc in make(8).locations.values()]
    assert terrain_7 != terrain_8


def test_make_names_is_deterministic_unique_and_pronounceable() -> None:
    names = make_names(5, 200, "factions/settlements")
    assert names == make_names(5, 200, "factions/settlements")
    assert names != make_names(5, 200, "another/label")
    assert len({name.lower() for name in names}) == 200
    for name in names:
        assert name.isalpha() and name[0].isupper() and name[1:].islower()
        assert 3 <= len(name) <= 16


# --- square grids ------------------------------------------------------------------------------


def test_square_ids_labels_and_canonical_order() -> None:
    world = generate_square(1, 28, 3)
    assert list(world)[:3] == ["A1", "B1", "C1"]
    assert list(world)[27:29] == ["AB1", "A2"]
    assert len(world) == 28 * 3
    assert world["AA2"].label == "AA2"
    assert world["C2"].coords == (2, 1)


def test_square_neighbours_count_on_corner_edge_and_interior() -> None:
    world = generate_square(1, 6, 5)
    assert world.neighbours("A1") == ("A2", "B1", "B2")
    assert len(world.neighbours("F5")) == 3
    assert len(world.neighbours("C1")) == 5
    assert len(world.neighbours("C3")) == 8
    assert_symmetric(world)


def test_square_steps_follow_the_compass_with_row_one_north() -> None:
    world = generate_square(1, 6, 5)
    assert world.step("B2", "NW") == "A1"
    assert world.step("B2", "N") == "B1"
    assert world.step("B2", "SE") == "C3"
    assert world.step("A1", "N") is None
    assert world.step("A1", "W") is None
    assert world.step("F5", "S") is None
    assert world.directions() == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    # North is up on the map: row 1 has the largest y.
    assert world["A1"].center[1] > world["A2"].center[1]
    with pytest.raises(ValueError):
        world.step("B2", "UP")


def test_square_distance_is_chebyshev_and_matches_graph_hops() -> None:
    world = generate_square(1, 8, 6)
    assert world.distance("A1", "A1") == 0
    assert world.distance("A1", "C2") == 2
    assert world.distance("B2", "E6") == 4
    assert world.distance("H6", "A1") == 7
    hops = hops_from(world, "C3")
    assert all(world.distance("C3", other) == hops[other] for other in world)


def test_square_within_and_geometry() -> None:
    world = generate_square(1, 6, 5)
    assert world.within("C3", 1) == ["B2", "C2", "D2", "B3", "C3", "D3", "B4", "C4", "D4"]
    assert world.within("A1", 0) == ["A1"]
    assert world.bounds() == (0.0, 0.0, 6.0, 5.0)
    assert world["A1"].polygon == ((0.0, 4.0), (1.0, 4.0), (1.0, 5.0), (0.0, 5.0))
    assert all(shoelace(loc.polygon) == 1.0 for loc in world.locations.values())


# --- hex grids ---------------------------------------------------------------------------------


def axial(col: int, row: int) -> tuple[int, int]:
    """Odd-q offset (1-based, as in the ids) to axial, written independently of the module."""
    q = col - 1
    return q, (row - 1) - (q - (q % 2)) // 2


def test_hex_neighbours_are_six_inside_and_symmetric() -> None:
    world = generate_hex(1, 8, 7)
    assert len(world) == 56
    assert list(world)[:3] == ["0101", "0201", "0301"]
    assert len(world.neighbours("0404")) == 6
    assert len(world.neighbours("0303")) == 6
    assert len(world.neighbours("0101")) == 2
    assert_symmetric(world)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("0101", "0102"),
        ("0101", "0201"),
        ("0101", "0301"),
        ("0101", "0505"),
        ("0207", "0801"),
        ("0404", "0404"),
    ],
)
def test_hex_distance_matches_the_axial_formula(a: str, b: str) -> None:
    world = generate_hex(1, 8, 7)
    (qa, ra), (qb, rb) = axial(int(a[:2]), int(a[2:])), axial(int(b[:2]), int(b[2:]))
    expected = (abs(qa - qb) + abs(ra - rb) + abs(qa + ra - qb - rb)) // 2
    assert world.distance(a, b) == expected
    assert world.distance(a, b) == hops_from(world, a)[b]


def test_hex_known_distances() -> None:
    world = generate_hex(1, 8, 7)
    assert world.distance("0101", "0201") == 1
    assert world.distance("0101", "0301") == 2
    assert world.distance("0101", "0505") == 6


def test_hex_steps_point_the_way_they_say_on_the_map() -> None:
    world = generate_hex(1, 8, 7)
    assert world.directions() == ("N", "NE", "SE", "S", "SW", "NW")
    for start in ("0303", "0404"):
        x0, y0 = world[start].center
        seen = set()
        for direction in world.directions():
            target = world.step(start, direction)
            assert target is not None
            seen.add(target)
            dx, dy = world[target].center[0] - x0, world[target].center[1] - y0
            assert math.isclose(math.hypot(dx, dy), math.sqrt(3), abs_tol=0.01)
            assert (dy > 0) == ("N" in direction) and (dy < 0) == ("S" in direction)
            assert (dx > 0) == ("E" in direction) and (dx < 0) == ("W" in direction)
        assert seen == set(world.neighbours(start))
    assert world.step("0101", "N") is None
    assert world.step("0101", "NW") is None


def test_hex_polygons_are_regular_with_circumradius_one() -> None:
    world = generate_hex(1, 5, 4)
    for loc in world.locations.values():
        cx, cy = loc.center
        assert len(loc.polygon) == 6
        assert all(math.isclose(math.hypot(x - cx, y - cy), 1.0, abs_tol=0.002) for x, y in loc.polygon)
        assert shoelace(loc.polygon) > 0  # counter-clockwise
    min_x, min_y, _, _ = world.bounds()
    assert (min_x, min_y) == (0.0, 0.0)


# --- province maps -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "count", "width", "height"), [(1, 12, 40, 30), (2, 25, 30, 20), (3, 6, 15, 15)]
)
def test_provinces_partition_the_map_into_simple_connected_regions(
    seed: int, count: int, width: int, height: int
) -> None:
    world = generate_provinces(seed, count, width, height)
    assert len(world) == count
    assert len(set(world)) == count and all(loc_id.startswith("p-") for loc_id in world)
    assert len({loc.label for loc in world.locations.values()}) == count
    assert_symmetric(world)
    cells: Counter[str] = Counter()
    for x in range(width):
        for y in range(height):
            owners = [loc.id for loc in world.locations.values() if inside((x + 0.5, y + 0.5), loc.polygon)]
            assert len(owners) == 1, f"cell {(x, y)} lies in {owners}"
            cells[owners[0]] += 1
    for loc in world.locations.values():
        assert len(loc.neighbours) >= 1
        assert len(set(loc.polygon)) == len(loc.polygon)  # simple ring: no point visited twice
        assert shoelace(loc.polygon) == cells[loc.id]  # counter-clockwise, no holes
        assert inside(loc.center, loc.polygon)
        assert loc.place == loc.label
    assert sum(shoelace(loc.polygon) for loc in world.locations.values()) == width * height
    assert hops_from(world, next(iter(world))).keys() == world.locations.keys()


def test_provinces_distance_within_and_no_compass() -> None:
    world = generate_provinces(4, 12)
    first = next(iter(world))
    neighbour = world.neighbours(first)[0]
    assert world.distance(first, first) == 0
    assert world.distance(first, neighbour) == 1
    hops = hops_from(world, first)
    assert all(world.distance(first, other) == hops[other] for other in world)
    assert world.within(first, 1) == [i for i in world if i == first or i in world.neighbours(first)]
    assert world.directions() == ()
    with pytest.raises(ValueError):
        world.step(first, "N")


# --- terrain and places ------------------------------------------------------------------------


def test_terrain_shares_match_the_table_and_places_avoid_water() -> None:
    world = generate_square(11, 30, 30)
    counts = Counter(loc.terrain for loc in world.locations.values())
    for name, share in DEFAULT_TERRAIN:
        assert abs(counts[name] / 900 - share) <= 0.02
    places = [loc for loc in world.locations.values() if loc.place is not None]
    land = sum(1 for loc in world.locations.values() if loc.terrain != WATER)
    assert all(loc.terrain != WATER for loc in places)
    assert abs(len(places) - 0.08 * land) <= 1
    assert len({loc.place for loc in places}) == len(places)


def test_terrain_is_smooth_not_salt_and_pepper() -> None:
    world = generate_square(11, 30, 30)
    pairs = [(a, b) for a in world for b in world.neighbours(a) if a < b]
    same = sum(1 for a, b in pairs if world[a].terrain == world[b].terrain)
    # Independent draws with these shares would agree about 26% of the time.
    assert same / len(pairs) > 0.6


def test_custom_terrain_table_and_place_share() -> None:
    world = generate_hex(3, 10, 10, terrain=(("sea", 1.0), ("land", 1.0)), place_share=0.0)
    counts = Counter(loc.terrain for loc in world.locations.values())
    assert counts == {"sea": 50, "land": 50}
    assert all(loc.place is None for loc in world.locations.values())


# --- serialisation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "world",
    [generate_square(3, 7, 5), generate_hex(3, 7, 5), generate_provinces(3, 9, 20, 15)],
    ids=["square", "hex", "province"],
)
def test_round_trip_through_plain_data_and_json(world: World) -> None:
    data = world.to_data()
    assert World.from_data(data) == world
    assert World.from_data(json.loads(json.dumps(data))) == world
    assert all(isinstance(loc, Location) for loc in World.from_data(data).locations.values())


@pytest.mark.parametrize(
    "world",
    [generate_square(3, 7, 5), generate_hex(3, 7, 5), generate_provinces(3, 9, 20, 15)],
    ids=["square", "hex", "province"],
)
def test_geojson_has_one_closed_polygon_per_location(world: World) -> None:
    geo = world.to_geojson()
    json.dumps(geo)
    assert geo["type"] == "FeatureCollection"
    assert [f["properties"]["id"] for f in geo["features"]] == list(world)
    for feature in geo["features"]:
        loc = world[feature["properties"]["id"]]
        assert feature["geometry"]["type"] == "Polygon"
        (ring,) = feature["geometry"]["coordinates"]
        assert ring[0] == ring[-1]
        assert len(ring) == len(loc.polygon) + 1
        assert feature["properties"] == {
            "id": loc.id,
            "label": loc.label,
            "terrain": loc.terrain,
            "place": loc.place,
        }
