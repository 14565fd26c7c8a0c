"""What the site's maps draw from a world: grid coordinates and the parts a province splits into."""

from __future__ import annotations

from collections import deque

import pytest

from resolver.core.world import (
    axis_labels,
    generate_hex,
    generate_provinces,
    generate_square,
    province_cells,
    split_province,
)


def test_square_axes_name_the_columns_and_rows_that_tile_ids_are_made_of() -> None:
    world = generate_square(1, 4, 3)
    columns, rows = axis_labels(world)
    assert [name for name, _ in columns] == ["A", "B", "C", "D"]
    assert [name for name, _ in rows] == ["1", "2", "3"]
    assert {c + r for c, _ in columns for r, _ in rows} == set(world)
    # Column names sit above the top row, row names left of the first column.
    xmin, _, _, ymax = world.bounds()
    assert all(y > ymax for _, (_, y) in columns) and all(x < xmin for _, (x, _) in rows)
    assert [x for _, (x, _) in columns] == sorted(x for _, (x, _) in columns)
    assert [y for _, (_, y) in rows] == sorted((y for _, (_, y) in rows), reverse=True)  # row 1 is north


def test_hex_axes_name_the_two_halves_of_a_hex_id() -> None:
    world = generate_hex(1, 5, 4)
    columns, rows = axis_labels(world)
    assert [name for name, _ in columns] == ["01", "02", "03", "04", "05"]
    assert [name for name, _ in rows] == ["01", "02", "03", "04"]
    assert {c + r for c, _ in columns for r, _ in rows} == set(world)


def test_a_province_map_has_no_axes() -> None:
    assert axis_labels(generate_provinces(1, 8, 24, 18)) == ([], [])


def _connected(cells: set[tuple[float, float]]) -> bool:
    start = next(iter(cells))
    seen, queue = {start}, deque([start])
    while queue:
        x, y = queue.popleft()
        for step in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            near = (x + step[0], y + step[1])
            if near in cells and near not in seen:
                seen.add(near)
                queue.append(near)
    return seen == cells


@pytest.mark.parametrize("seed", [1, 2, 3, 7])
@pytest.mark.parametrize("parts", [1, 3, 4])
def test_a_province_splits_into_connected_parts_that_cover_it_once(seed: int, parts: int) -> None:
    world = generate_provinces(seed, 8, 24, 18)
    for location in world.locations.values():
        split = split_province(location, parts)
        assert len(split) == parts
        cells = {(x + 0.5, y + 0.5) for x, y in province_cells(location)}
        spots = [set(part.spots) for part in split]
        assert set().union(*spots) == cells and sum(map(len, spots)) == len(cells)
        assert all(_connected(s) for s in spots)
        sizes = sorted(map(len, spots))
        assert sizes[0] * 4 >= sizes[-1], sizes  # about even: no sliver beside a giant
        assert split == split_province(location, parts)  # the same outline always splits the same way


def test_a_part_stands_its_pieces_from_its_middle_out() -> None:
    location = next(iter(generate_provinces(1, 8, 24, 18).locations.values()))
    for part in split_province(location, 3):
        mx = sum(x for x, _ in part.spots) / len(part.spots)
        my = sum(y for _, y in part.spots) / len(part.spots)
        distances = [(x - mx) ** 2 + (y - my) ** 2 for x, y in part.spots]
        assert distances[0] <= min(distances) + 1.0
