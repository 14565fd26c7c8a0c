"""A world read from its file makes each location on first use, and gives exactly the world an
eager read gave: from the file, from the read cache, after a hand edit, and from a broken cache."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from resolver.core import canonical
from resolver.core.world import Location, World, generate_hex, generate_provinces, generate_square

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def eager(data: dict) -> dict[str, Location]:
    """The locations as the reader before lazy locations built them: every one at once, in order."""
    built: dict[str, Location] = {}
    for item in data["locations"]:
        built[str(item["id"])] = Location(
            id=str(item["id"]),
            label=str(item["label"]),
            terrain=str(item["terrain"]),
            center=(round(float(item["center"][0]), 3) + 0.0, round(float(item["center"][1]), 3) + 0.0),
            polygon=tuple((round(float(x), 3) + 0.0, round(float(y), 3) + 0.0) for x, y in item["polygon"]),
            neighbours=tuple(item["neighbours"]),
            coords=(int(item["coords"][0]), int(item["coords"][1])),
            place=item.get("place"),
        )
    return built


@pytest.fixture(autouse=True)
def small_cache_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small worlds go through the read cache too, so the tests stay quick."""
    monkeypatch.setattr(canonical, "CACHED_SIZE", 20_000)


def written(folder: Path, world: World) -> tuple[World, Path]:
    path = folder / "world.yaml"
    canonical.write_yaml(path, world.to_data())
    return world, path


def read(path: Path) -> World:
    return World.from_items(*canonical.read_yaml_keyed(path, "locations", "id"))


@pytest.mark.parametrize(
    "world",
    [generate_square(3, 20, 15), generate_hex(4, 20, 15), generate_provinces(5, 60, 30, 20)],
    ids=["square", "hex", "provinces"],
)
def test_a_big_world_reads_the_same_from_its_file_and_from_the_read_cache(
    world: World, tmp_path: Path, read_cache: Path
) -> None:
    path = tmp_path / "world.yaml"
    canonical.write_yaml(path, world.to_data())
    assert path.stat().st_size >= canonical.CACHED_SIZE  # big enough to go through the cache
    expected = eager(yaml.load(path.read_bytes(), Loader=_Loader))
    cold = read(path)
    assert any(name.name.endswith("-locations-by-id.json") for name in read_cache.iterdir())
    warm = read(path)
    for got in (cold, warm):
        assert list(got.locations) == list(expected)
        assert dict(got.locations.items()) == expected
        assert got.to_data() == world.to_data()
        assert got.digest == world.digest
        assert got == world


def test_a_hand_edited_world_is_read_again_rather_than_from_the_cache(
    tmp_path: Path, read_cache: Path
) -> None:
    world, path = written(tmp_path, generate_square(3, 20, 15))
    first = next(iter(world))
    assert read(path)[first].terrain != "swamp"
    text = path.read_text()
    path.write_text(text.replace(f"  terrain: {world[first].terrain}\n", "  terrain: swamp\n", 1))
    assert read(path)[first].terrain == "swamp"


@pytest.mark.parametrize("entry", [b"not json", b"[1, 2]", b'{"rest": {}, "items": "x"}'])
def test_a_broken_cache_entry_is_ignored(tmp_path: Path, read_cache: Path, entry: bytes) -> None:
    world, path = written(tmp_path, generate_square(3, 20, 15))
    read(path)
    (cached,) = read_cache.glob("*-locations-by-id.json")
    cached.write_bytes(entry)
    assert read(path) == world


def test_a_repeated_id_keeps_its_first_place_and_its_last_data() -> None:
    data = generate_square(3, 4, 3).to_data()
    first, second = data["locations"][0], data["locations"][1]
    data["locations"].append({**first, "terrain": "swamp"})
    world = World.from_data(data)
    assert list(world.locations) == list(eager(data))
    assert world[first["id"]].terrain == "swamp"
    assert world[second["id"]] == eager(data)[second["id"]]


def test_locations_can_still_be_replaced_and_added_in_place() -> None:
    world = World.from_data(generate_square(3, 4, 3).to_data())
    ids = list(world.locations)
    world.locations[ids[1]] = replace(world[ids[1]], label="Ford")
    world.locations["Z9"] = replace(world[ids[0]], id="Z9")
    assert list(world.locations) == [*ids, "Z9"]
    assert world[ids[1]].label == "Ford"
    del world.locations["Z9"]
    assert "Z9" not in world and len(world) == len(ids)


def test_a_world_the_archive_vouches_for_is_cut_into_items_read_when_looked_at(
    tmp_path: Path, read_cache: Path
) -> None:
    world, path = written(tmp_path, generate_hex(4, 20, 15))
    rest, items, read_item = canonical.read_yaml_keyed(
        path, "locations", "id", canonical.digest(path.read_bytes())
    )
    assert all(isinstance(item, str) for item in items.values())  # texts, not yet read
    assert not list(read_cache.iterdir())  # nothing parsed, so nothing cached
    got = World.from_items(rest, items, read_item)
    assert dict(got.locations.items()) == eager(yaml.load(path.read_bytes(), Loader=_Loader))
    assert got == world and got.digest == world.digest


def test_a_digest_that_does_not_match_reads_the_world_whole(tmp_path: Path, read_cache: Path) -> None:
    _, path = written(tmp_path, generate_hex(4, 20, 15))
    _, items, _ = canonical.read_yaml_keyed(path, "locations", "id", "0" * 64)
    assert all(isinstance(item, dict) for item in items.values())


def test_an_item_that_does_not_read_alone_comes_from_the_whole_file(tmp_path: Path) -> None:
    world = generate_square(3, 20, 15)
    path = tmp_path / "world.yaml"
    first = next(iter(world))
    text = canonical.dump(world.to_data()).decode()
    # A note in the first location: the digest vouches for these bytes, yet the item is not canonical.
    path.write_text(text.replace(f"  id: {first}\n", f"  # a note\n  id: {first}\n", 1))
    rest, items, read_item = canonical.read_yaml_keyed(
        path, "locations", "id", canonical.digest(path.read_bytes())
    )
    got = World.from_items(rest, items, read_item)
    assert dict(got.locations.items()) == eager(yaml.load(path.read_bytes(), Loader=_Loader))


def test_a_warm_read_parses_only_the_locations_looked_at(
    tmp_path: Path, read_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, path = written(tmp_path, generate_square(3, 20, 15))
    read(path)  # the cold read keeps the keyed entry
    (cached,) = read_cache.glob("*-locations-by-id.json")
    parsed: list[bytes] = []
    loads = canonical.json.loads
    monkeypatch.setattr(canonical.json, "loads", lambda text: parsed.append(text) or loads(text))
    warm = read(path)
    first = next(iter(world))
    assert warm[first] == world[first]
    # The entry's first line (ids and places), then the one location's text: never the whole entry.
    assert len(parsed) == 2 and sum(map(len, parsed)) < cached.stat().st_size / 4


def shifted_spans(entry: bytes) -> bytes:
    """The entry with each item's span moved one item on: every text read belongs to another id."""
    line, texts = entry.split(b"\n", 1)
    head = json.loads(line)
    head["keys"] = [*head["keys"][1:], head["keys"][0]]
    return json.dumps(head).encode() + b"\n" + texts


@pytest.mark.parametrize(
    "tamper",
    [
        shifted_spans,
        lambda entry: entry[:-10],  # cut short
        lambda entry: entry.replace(b'"format": 2', b'"format": 1', 1),
        lambda entry: entry.replace(b'"ends": [', b'"ends": ["x", ', 1),
        lambda entry: entry.split(b"\n", 1)[0] + b"\n" + entry.split(b"\n", 1)[1].replace(b'"', b"'"),
    ],
    ids=["spans of other ids", "cut short", "another format", "an end that is no number", "no JSON"],
)
def test_a_tampered_keyed_entry_gives_the_worlds_own_locations(
    tmp_path: Path, read_cache: Path, tamper: Callable[[bytes], bytes]
) -> None:
    world, path = written(tmp_path, generate_square(3, 20, 15))
    read(path)
    (cached,) = read_cache.glob("*-locations-by-id.json")
    cached.write_bytes(tamper(cached.read_bytes()))
    got = read(path)
    assert dict(got.locations.items()) == eager(yaml.load(path.read_bytes(), Loader=_Loader))
    assert got == world
