"""The engine's places inside places and travel times (core.world): old worlds unchanged, new keys read
and written only when present, travel_days by mode and weather, directions as a report lists them."""

from __future__ import annotations

import copy

import pytest

from resolver.core import canonical
from resolver.core.world import (
    OUT,
    Location,
    Route,
    World,
    _inside,
    axis_labels,
    directions,
    generate_hex,
    generate_provinces,
    generate_square,
    inner_disc,
    toward,
    travel_days,
    travel_times,
)
from resolver.publish.maps import TERRAIN_COLORS, cell_size, map_data
from tests.site.test_maps import fake_history

# A literal travel table: the engine's service reads whatever numbers a ruleset puts in its world.
TABLE = {
    "inner": 1,
    "ride_cut": 3,
    "coast_factor": 2,
    "water": ["ocean", "lake"],
    "fly": {"fair": 4, "sun": 4, "rain": 6, "wind": 5, "storm": 15},
    "walk_weather": {"rain": 20, "storm": 50},
    "sail_weather": {"wind": -25, "storm": -10},
}

# The digests of three small worlds as the code before places inside places made them (main 7168728).
OLD_DIGESTS = {
    "hex": "125050964f1580842c6f1e7fc6e019e17d3e9a5ce05ce272b55c7cb30db65dd3",
    "square": "2ffc3b834b62f8beb3ca98da7ed53f9ec98c853c0924ec6c36de77c5d3039706",
    "province": "bce6a188ea57e3c1f635dbda81d1fbe51a9f41d2dea83803c4234c917e7304e6",
}


def old_worlds() -> dict[str, World]:
    return {
        "hex": generate_hex(7, 6, 5),
        "square": generate_square(7, 5, 4),
        "province": generate_provinces(7, 6, 12, 9),
    }


def _hex(
    loc_id: str, label: str, terrain: str, q: int, r: int, routes: list[Route], extra: tuple[str, ...] = ()
) -> Location:
    centre = (1.5 * q, -(r + q / 2) * 1.732)
    corners = ((1, 0), (0.5, 0.866), (-0.5, 0.866), (-1, 0), (-0.5, -0.866), (0.5, -0.866))
    ring = tuple((centre[0] + dx, centre[1] + dy) for dx, dy in corners)
    return Location(
        loc_id, label, terrain, centre, ring, (*(r.to for r in routes), *extra), (q, r),
        region="test", routes=tuple(routes),
    )  # fmt: skip


def sample_world() -> World:
    """The manual's sample (spec 1.6.7): the city Massada inside Tholian Plains, a bay to the south-west,
    a road to the north-east, hills to the south-east and mountains to the south."""
    locs = [
        _hex("L216", "Tholian Plains", "plains", 0, 0, [
            Route("L213", walk=9), Route("L214", walk=9), Route("L215", walk=7),
            Route("L280", walk=12), Route("L281"), Route("L282", sail=6),
        ], ("L278",)),
        _hex("L213", "Tholian Plains", "plains", 0, -1, [Route("L216", walk=9)]),
        _hex("L214", "Tholian Plains", "plains", -1, 0, [Route("L216", walk=9), Route("L282", sail=6)]),
        _hex("L215", "Tholian Road", "plains", 1, -1, [Route("L216", walk=7)]),
        _hex("L280", "Massada Pass", "hills", 1, 0, [Route("L216", walk=7)]),
        _hex("L281", "Massada Highs", "mountains", 0, 1, [Route("L216")]),
        _hex("L282", "Massada Bay", "ocean", -1, 1, [
            Route("L216", sail=6), Route("L214", sail=6), Route("L278", sail=4),
        ]),
    ]  # fmt: skip
    parent = locs[0]
    centre, disc = inner_disc(parent, 0, 1)
    city = Location(
        "L278", "Massada", "city", centre, disc, ("L216", "L282"), parent.coords,
        parent="L216", region="test", routes=(Route("L282", sail=4),),
    )  # fmt: skip
    return World("hex", 1, 3, 3, {loc.id: loc for loc in [*locs, city]}, copy.deepcopy(TABLE))


@pytest.mark.parametrize("kind", sorted(OLD_DIGESTS))
def test_old_worlds_write_and_digest_exactly_as_before(kind: str) -> None:
    world = old_worlds()[kind]
    data = world.to_data()
    assert "travel" not in data
    for item in data["locations"]:
        assert not {"parent", "region", "routes"} & set(item)
    assert world.digest == OLD_DIGESTS[kind]
    again = World.from_data(canonical.load(canonical.dump(data)))
    assert canonical.dump(again.to_data()) == canonical.dump(data)
    assert again.digest == OLD_DIGESTS[kind]


def test_old_hex_world_keeps_its_axis_names_and_cell_size() -> None:
    world = old_worlds()["hex"]
    columns, rows = axis_labels(world)
    assert [name for name, _ in columns] == ["01", "02", "03", "04", "05", "06"]
    assert len(rows) == 5
    assert cell_size(world) == pytest.approx(1.732, abs=0.01)


def test_places_inside_places_round_trip_with_their_routes_and_table() -> None:
    world = sample_world()
    data = world.to_data()
    city = next(item for item in data["locations"] if item["id"] == "L278")
    assert city["parent"] == "L216" and city["routes"] == [{"to": "L282", "sail": 4}]
    mountains = next(item for item in data["locations"] if item["id"] == "L281")
    assert mountains["routes"] == [{"to": "L216"}]  # neither walk nor sail: impassable
    again = World.from_data(canonical.load(canonical.dump(data)))
    assert again.to_data() == data and again.digest == world.digest
    assert again["L278"].parent == "L216" and again.travel == TABLE
    assert again.inner("L216") == ["L278"] and again.inner("L278") == []
    assert again.territory("L278") == "L216" and again.territory("L216") == "L216"


def test_travel_days_by_mode_follow_the_spec_examples() -> None:
    world = sample_world()
    # Coast to coast: a ship in L216 sails to L214 (both on Massada Bay) in twice the 9 walking days.
    assert travel_days(world, "L216", "L214", "walk") == 9
    assert travel_days(world, "L216", "L214", "sail") == 18
    assert travel_days(world, "L216", "L214", "ride") == 6  # 9 less a third, rounded down
    assert travel_days(world, "L216", "L215", "ride") == 5  # 7 - 2
    assert travel_days(world, "L216", "L282", "sail") == 6
    assert travel_days(world, "L278", "L282", "sail") == 4  # the city's own harbour
    assert travel_days(world, "L216", "L282", "walk") is None  # water is closed to walkers
    assert travel_days(world, "L216", "L213", "sail") is None  # L213 borders no water
    assert travel_days(world, "L216", "L281", "walk") is None  # mountains
    assert travel_days(world, "L216", "L281", "fly") == 4  # fliers cross anything
    assert travel_days(world, "L216", "L282", "fly") == 4
    assert travel_days(world, "L213", "L215", "walk") is None  # not neighbours


def test_weather_changes_travel_days_rounding_up() -> None:
    world = sample_world()
    assert travel_days(world, "L216", "L215", "walk", "rain") == 9  # 7 * 1.2 = 8.4 -> 9
    assert travel_days(world, "L216", "L215", "walk", "storm") == 11  # 10.5 -> 11
    assert travel_days(world, "L216", "L215", "ride", "rain") == 6  # 9 - 3
    assert travel_days(world, "L216", "L215", "walk", "wind") == 7  # wind leaves walkers alone
    skies = ("fair", "sun", "rain", "wind", "storm")
    assert [travel_days(world, "L216", "L213", "fly", w) for w in skies] == [4, 4, 6, 5, 15]
    assert travel_days(world, "L216", "L282", "sail", "wind") == 5  # 4.5 -> 5
    assert travel_days(world, "L216", "L282", "sail", "storm") == 6  # 5.4 -> 6
    assert travel_days(world, "L216", "L214", "sail", "wind") == 14  # 18 * 0.75 = 13.5 -> 14
    # A mapping is read at the origin's territory; an inner place takes its territory's weather.
    skies = {"L216": "storm", "L282": "fair"}
    assert travel_days(world, "L216", "L215", "walk", skies) == 11
    assert travel_days(world, "L278", "L282", "sail", skies) == 4  # 4 * 0.9 = 3.6 -> 4
    assert travel_days(world, "L282", "L216", "sail", skies) == 6


def test_inner_and_outer_take_one_day_in_every_mode_and_weather() -> None:
    world = sample_world()
    for mode in ("walk", "ride", "sail", "fly"):
        for sky in ("fair", "storm"):
            assert travel_days(world, "L216", "L278", mode, sky) == 1
            assert travel_days(world, "L278", "L216", mode, sky) == 1


def test_directions_list_as_the_manuals_sample_report() -> None:
    world = sample_world()
    inner = [(d.word, d.to, d.mode, d.days) for d in directions(world, "L278")]
    assert inner == [(OUT, "L216", "walk", 1), ("SouthWest", "L282", "sail", 4)]
    outer = [(d.word, d.to, d.mode, d.days) for d in directions(world, "L216")]
    assert outer == [
        ("SouthWest", "L282", "sail", 6),
        ("NorthEast", "L215", "walk", 7),
        ("North", "L213", "walk", 9),
        ("NorthWest", "L214", "walk", 9),
        ("SouthEast", "L280", "walk", 12),
        ("South", "L281", None, None),
    ]


def test_orders_name_a_way_by_word_short_word_out_or_id() -> None:
    world = sample_world()
    assert toward(world, "L216", "sw") == "L282"
    assert toward(world, "L216", "SouthWest") == "L282"
    assert toward(world, "L216", "NORTH") == "L213"
    assert toward(world, "L216", "L278") == "L278"
    assert toward(world, "L278", "out") == "L216"
    assert toward(world, "L278", "N") is None  # the city's only compass way is its harbour's
    assert toward(world, "L216", "up") is None


def test_travel_times_reach_inner_places_and_respect_the_mode() -> None:
    world = sample_world()
    walking = travel_times(world, "L278", "walk")
    assert walking == {"L216": 1, "L213": 10, "L214": 10, "L215": 8, "L280": 13, "L278": 0}
    sailing = travel_times(world, "L278", "sail")
    assert sailing["L282"] == 4 and sailing["L214"] == 10  # round by the bay beats the coast's 1 + 18
    assert travel_times(world, "L216", "walk", limit=7) == {"L215": 7, "L216": 0, "L278": 1}


def test_a_world_without_travel_times_says_so() -> None:
    world = old_worlds()["hex"]
    first, second = list(world)[:2]
    with pytest.raises(ValueError, match="no travel times"):
        travel_days(world, first, second, "walk")
    with pytest.raises(ValueError, match="unknown travel mode"):
        travel_days(sample_world(), "L216", "L213", "swim")


def test_inner_places_are_drawn_inside_their_hex_and_do_not_shrink_the_cell() -> None:
    world = sample_world()
    parent = world["L216"]
    for count in (1, 2, 3):
        for index in range(count):
            centre, disc = inner_disc(parent, index, count)
            assert _inside(centre, parent.polygon)
            assert all(_inside(point, parent.polygon) for point in disc)
    # The city sits at its territory's centre: a cell is still a hex apart, not zero.
    assert cell_size(world) == pytest.approx(1.732, abs=0.01)
    assert axis_labels(world) == ([], [])  # tiles named L216...: no column or row names


def test_the_site_map_draws_inner_places_inside_their_hex_and_old_maps_as_before() -> None:
    world = sample_world()
    data = map_data(fake_history(world))
    tiles = list(world)
    assert data["inner"] == [[tiles.index("L278"), tiles.index("L216")]]
    assert ["Massada", world["L278"].center[1], world["L278"].center[0], True] in data["places"]
    city_tile = data["tiles"][tiles.index("L278")]
    assert city_tile[1] == "Massada" and data["terrains"][city_tile[2]][0] == "city"
    assert "city" in TERRAIN_COLORS  # a colour of its own, darker than the land round it
    for old in old_worlds().values():
        assert "inner" not in map_data(fake_history(old))
