"""World graphs: square grids, hex grids and province maps, with geometry.

Rules only see ids and adjacency; maps only see polygons. Every generator is a pure
function of its arguments: all randomness comes from labelled streams in
``resolver.core.rng``, so the same seed always rebuilds the same world.

Map units: x grows east and y grows NORTH, so a Leaflet ``CRS.Simple`` map shows north
up. Rings are counter-clockwise with the first point not repeated (``to_geojson``
repeats it, as GeoJSON requires).

A world may also hold places inside places (a city inside a hex territory): an inner
location names its ``parent``, stands at its parent's coordinates, and is drawn as a small
disc inside the parent's outline. A world that tells travel times carries a ``travel``
table and, on each location, its ``routes`` (walking and sailing days to each neighbour);
``travel_days`` reads both. These keys are written only when present, so the worlds of
rulesets without them read, write and digest exactly as before.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from resolver.core import canonical
from resolver.core.rng import Stream, stream

Point = tuple[float, float]
Cell = tuple[int, int]
TerrainTable = Sequence[tuple[str, float]]

# Ordered from the lowest noise values to the highest.
DEFAULT_TERRAIN: tuple[tuple[str, float], ...] = (
    ("water", 0.15),
    ("plains", 0.35),
    ("forest", 0.20),
    ("hills", 0.18),
    ("mountains", 0.12),
)
WATER = "water"  # named places are never put on this terrain

# Square steps as (d_col, d_row); rows grow southwards, row 1 is the north edge.
SQUARE_STEPS: dict[str, Cell] = {
    "N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
    "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1),
}  # fmt: skip
# Flat-topped hexes, axial (d_q, d_r); r grows southwards, odd columns sit half a hex lower.
HEX_STEPS: dict[str, Cell] = {
    "N": (0, -1), "NE": (1, -1), "SE": (1, 0), "S": (0, 1), "SW": (-1, 1), "NW": (-1, 0),
}  # fmt: skip

_SQRT3_HALF = math.sqrt(3) / 2
# A flat-topped hexagon of circumradius 1, counter-clockwise from east; y in units of sqrt(3)/2.
_HEX_CORNERS: tuple[tuple[float, int], ...] = ((1, 0), (0.5, 1), (-0.5, 1), (-1, 0), (-0.5, -1), (0.5, -1))
# The 8 cells around a cell, counter-clockwise from east.
_RING8: tuple[Cell, ...] = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_SIDES4: tuple[Cell, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))


@dataclass(frozen=True)
class Route:
    """The way from a location to one neighbour: walking days (None: not on foot) and sailing days
    (None: no water way). A route with neither is impassable to all but fliers."""

    to: str
    walk: int | None = None
    sail: int | None = None


@dataclass(frozen=True)
class Location:
    id: str
    label: str
    terrain: str  # a territory's terrain; an inner location's kind (city, village, mage tower...)
    center: Point
    polygon: tuple[Point, ...]
    neighbours: tuple[str, ...]
    coords: Cell  # (col, row) 0-based for square, axial (q, r) for hex, (0, index) for provinces
    place: str | None = None
    parent: str | None = None  # the location an inner location lies inside
    region: str | None = None  # a ruleset's name for the part of the world it lies in
    routes: tuple[Route, ...] | None = None  # travel days to neighbours (not to inner or outer places)

    def route_to(self, other: str) -> Route | None:
        return next((route for route in self.routes or () if route.to == other), None)


@dataclass(frozen=True)
class World:
    kind: str  # "square" | "hex" | "province"
    seed: int
    width: int
    height: int
    locations: MutableMapping[str, Location]  # insertion order is the canonical order
    travel: Mapping[str, Any] | None = None  # the travel table ``travel_days`` reads (see TRAVEL_KEYS)

    def __getitem__(self, loc_id: str) -> Location:
        return self.locations[loc_id]

    def __contains__(self, loc_id: object) -> bool:
        return loc_id in self.locations

    def __iter__(self) -> Iterator[str]:
        return iter(self.locations)

    def __len__(self) -> int:
        return len(self.locations)

    def neighbours(self, loc_id: str) -> tuple[str, ...]:
        return self.locations[loc_id].neighbours

    def directions(self) -> tuple[str, ...]:
        return tuple(_steps(self.kind))

    def step(self, loc_id: str, direction: str) -> str | None:
        """The location one step away in a compass direction, or None off the map."""
        if self.kind == "province":
            raise ValueError("province maps have no compass directions; use neighbours()")
        steps = _steps(self.kind)
        if direction not in steps:
            raise ValueError(f"unknown direction {direction!r}; expected one of {', '.join(steps)}")
        a, b = self.locations[loc_id].coords
        da, db = steps[direction]
        return self._id_at(a + da, b + db)

    def _id_at(self, a: int, b: int) -> str | None:
        col, row = (a, b) if self.kind == "square" else _axial_to_offset(a, b)
        if not (0 <= col < self.width and 0 <= row < self.height):
            return None
        return square_id(col, row) if self.kind == "square" else hex_id(col, row, self.width, self.height)

    def distance(self, a: str, b: str) -> int:
        (qa, ra), (qb, rb) = self.locations[a].coords, self.locations[b].coords
        if self.kind == "square":
            return max(abs(qa - qb), abs(ra - rb))
        if self.kind == "hex":
            return (abs(qa - qb) + abs(ra - rb) + abs(qa + ra - qb - rb)) // 2
        hops = self._hops(a)
        if b not in hops:
            raise ValueError(f"{b} cannot be reached from {a}")
        return hops[b]

    def _hops(self, start: str, limit: int | None = None) -> dict[str, int]:
        """Breadth-first hop counts from start, stopping at limit hops."""
        hops = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if limit is not None and hops[here] >= limit:
                continue
            for there in self.locations[here].neighbours:
                if there not in hops:
                    hops[there] = hops[here] + 1
                    queue.append(there)
        return hops

    def within(self, loc_id: str, radius: int) -> list[str]:
        """Ids at distance <= radius (the location itself included), in canonical order."""
        if self.kind == "province":
            reach = self._hops(loc_id, radius)
            return [i for i in self.locations if i in reach]
        return [i for i in self.locations if self.distance(loc_id, i) <= radius]

    def inner(self, loc_id: str) -> list[str]:
        """The inner locations directly inside a location, in canonical order."""
        return [
            other for other in self.locations[loc_id].neighbours if self.locations[other].parent == loc_id
        ]

    def territory(self, loc_id: str) -> str:
        """The outermost location holding a location (itself when it lies inside nothing)."""
        while (parent := self.locations[loc_id].parent) is not None:
            loc_id = parent
        return loc_id

    def bounds(self) -> tuple[float, float, float, float]:
        xs = [x for loc in self.locations.values() for x, _ in loc.polygon]
        ys = [y for loc in self.locations.values() for _, y in loc.polygon]
        return min(xs), min(ys), max(xs), max(ys)

    @cached_property
    def water_bodies(self) -> dict[str, int]:
        """Each water territory's body (the travel table names the water terrains): connected water
        territories share a number, the canonical index of the body's first one. Computed once."""
        if self.travel is None:
            raise ValueError("this world tells no travel times (it has no travel table)")
        water = set(self.travel["water"])
        bodies: dict[str, int] = {}
        for index, (loc_id, loc) in enumerate(self.locations.items()):
            if loc.terrain not in water or loc.parent is not None or loc_id in bodies:
                continue
            bodies[loc_id] = index
            queue = deque([loc_id])
            while queue:
                for there in self.locations[queue.popleft()].neighbours:
                    other = self.locations[there]
                    if there not in bodies and other.terrain in water and other.parent is None:
                        bodies[there] = index
                        queue.append(there)
        return bodies

    @cached_property
    def digest(self) -> str:
        """The digest of the world's canonical data, which every turn's inputs record. A world never
        changes, so a replay of hundreds of turns serialises it once rather than once a turn."""
        return canonical.data_digest(self.to_data())

    def vouch_digest(self, recorded: str, raw: bytes) -> bool:
        """Take ``recorded``, the digest a turn archive holds for this world, as the world's digest when
        ``raw``, the file the world was read from, has exactly that digest: the file is then what the
        canonical writer made of a world with that digest, and it reads back to the same data (see
        ``canonical``), so serialising a big world again only to hash it (a tenth of a resolve) is
        skipped. Returns whether it was taken; a file laid out otherwise keeps the digest of its data."""
        if canonical.digest(raw) != recorded:
            return False
        self.__dict__["digest"] = recorded  # the cached property's slot (the dataclass is frozen)
        return True

    def to_data(self) -> dict[str, Any]:
        """Plain str/int/float/list data; a location without a place has no "place" key."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "seed": self.seed,
            "width": self.width,
            "height": self.height,
        }
        if self.travel is not None:  # only worlds that tell travel times carry the key
            data["travel"] = _plain(self.travel)
        data["locations"] = [_location_data(loc) for loc in self.locations.values()]
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> World:
        return cls.from_items(data, {str(item["id"]): item for item in data["locations"]})

    @classmethod
    def from_items(
        cls, data: dict[str, Any], items: dict[str, Any], read_item: Callable[[str, Any], Any] | None = None
    ) -> World:
        """A world from its data and its location items by id, as ``canonical.read_yaml_keyed`` reads
        them (with ``read_item``): each item is made into a ``Location`` only when it is first looked at."""
        locations = ReadLocations(items, read_item)
        travel = data.get("travel")
        return cls(
            str(data["kind"]), int(data["seed"]), int(data["width"]), int(data["height"]), locations, travel
        )

    def to_geojson(self) -> dict[str, Any]:
        features = []
        for loc in self.locations.values():
            ring = [[x, y] for x, y in loc.polygon]
            features.append(
                {
                    "type": "Feature",
                    "id": loc.id,
                    "geometry": {"type": "Polygon", "coordinates": [[*ring, ring[0]]]},
                    "properties": {
                        "id": loc.id,
                        "label": loc.label,
                        "terrain": loc.terrain,
                        "place": loc.place,
                    },
                }
            )
        return {"type": "FeatureCollection", "features": features}


class ReadLocations(MutableMapping[str, Location]):
    """A world's locations as read from its data, each made into a ``Location`` on first use.

    A big map holds tens of thousands of locations, and ``campaign check`` of one order file looks at
    a handful of them: building every one up front was a third of that command at 400 factions. The
    mapping keeps the data's order (a later item with the same id replaces an earlier one in its
    place, as a dict would), and gives exactly the locations ``Location(...)`` built eagerly gave."""

    def __init__(self, items: dict[str, Any], read_item: Callable[[str, Any], Any] | None = None) -> None:
        self._items = items
        self._read_item = read_item
        self._made: dict[str, Location] = {}

    def __getitem__(self, loc_id: str) -> Location:
        made = self._made.get(loc_id)
        if made is None:
            item = self._items[loc_id]
            if self._read_item is not None:
                item = self._read_item(loc_id, item)
            made = self._made[loc_id] = _location_from(item)
        return made

    def __setitem__(self, loc_id: str, location: Location) -> None:
        self._items.setdefault(loc_id, {})  # keeps an existing id's place; a new one goes last
        self._made[loc_id] = location

    def __delitem__(self, loc_id: str) -> None:
        del self._items[loc_id]
        self._made.pop(loc_id, None)

    def __contains__(self, loc_id: object) -> bool:
        return loc_id in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


def _location_from(item: dict[str, Any]) -> Location:
    return Location(
        id=str(item["id"]),
        label=str(item["label"]),
        terrain=str(item["terrain"]),
        center=_pt(*item["center"]),
        polygon=tuple(_pt(*p) for p in item["polygon"]),
        neighbours=tuple(item["neighbours"]),
        coords=(int(item["coords"][0]), int(item["coords"][1])),
        place=item.get("place"),
        parent=item.get("parent"),
        region=item.get("region"),
        routes=None
        if item.get("routes") is None
        else tuple(Route(str(r["to"]), r.get("walk"), r.get("sail")) for r in item["routes"]),
    )


def _steps(kind: str) -> dict[str, Cell]:
    return {"square": SQUARE_STEPS, "hex": HEX_STEPS}.get(kind, {})


def _pt(x: float, y: float) -> Point:
    # Rounded at creation so to_data() loses nothing; "+ 0.0" turns -0.0 into 0.0.
    return round(float(x), 3) + 0.0, round(float(y), 3) + 0.0


def _location_data(loc: Location) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": loc.id,
        "label": loc.label,
        "terrain": loc.terrain,
        "center": list(_pt(*loc.center)),
        "polygon": [list(_pt(*p)) for p in loc.polygon],
        "neighbours": list(loc.neighbours),
        "coords": list(loc.coords),
    }
    if loc.place is not None:
        data["place"] = loc.place
    # The keys of places inside places and of travel times: only where a ruleset's world has them.
    if loc.parent is not None:
        data["parent"] = loc.parent
    if loc.region is not None:
        data["region"] = loc.region
    if loc.routes is not None:
        data["routes"] = [_route_data(route) for route in loc.routes]
    return data


def _route_data(route: Route) -> dict[str, Any]:
    data: dict[str, Any] = {"to": route.to}
    if route.walk is not None:
        data["walk"] = int(route.walk)
    if route.sail is not None:
        data["sail"] = int(route.sail)
    return data


def _plain(value: Any) -> Any:
    """Mappings as plain dicts and sequences as lists, so the canonical writer takes the travel table."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


# --- ids ---------------------------------------------------------------------------------------


def column_letters(col: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA" (spreadsheet-style column names)."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def square_id(col: int, row: int) -> str:
    return f"{column_letters(col)}{row + 1}"


def hex_id(col: int, row: int, width: int, height: int) -> str:
    digits = max(2, len(str(max(width, height))))
    return f"{col + 1:0{digits}d}{row + 1:0{digits}d}"


def _offset_to_axial(col: int, row: int) -> Cell:
    return col, row - (col - (col & 1)) // 2  # odd-q: odd columns are pushed half a hex south


def _axial_to_offset(q: int, r: int) -> Cell:
    return q, r + (q - (q & 1)) // 2


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# --- names -------------------------------------------------------------------------------------

_ONSETS = (
    "", "", "b", "br", "c", "d", "dr", "f", "g", "gr", "h", "k",
    "l", "m", "n", "p", "r", "s", "st", "t", "th", "v", "w",
)  # fmt: skip
_MIDDLES = ("ba", "da", "la", "le", "li", "ma", "na", "ne", "ra", "ri", "ro", "sa", "ta", "va", "ve")
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ae", "ea", "ai")
_CODAS = ("", "", "l", "n", "r", "s", "sh", "m", "nd", "rn", "ld", "st")
_ENDINGS = (
    "ford", "wick", "dale", "mere", "holm", "by", "ton", "stead", "marrow", "fell",
    "moor", "wyn", "haven", "ley", "ham", "thorpe", "bury", "gate", "wood", "ach",
)  # fmt: skip


def _join(word: str, piece: str) -> str:
    # "Tom" + "more" reads better as "Tomore" than "Tommore".
    return word + piece[1:] if word and piece and word[-1] == piece[0] else word + piece


def place_name(rng: Stream) -> str:
    """A pronounceable place name such as "Ashford" or "Kelmarrow"."""
    word = rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
    if word[-1] in "aeiou" and rng.below(2) == 0:  # an open syllable may take a short middle one
        word += rng.choice(_MIDDLES)
    return _join(word, rng.choice(_ENDINGS)).capitalize()


def make_names(seed: int, count: int, label: str) -> list[str]:
    """`count` distinct place names (also distinct ignoring case), deterministic in seed and label."""
    rng = stream(seed, label)
    names: list[str] = []
    seen: set[str] = set()
    for _ in range(50 * count + 100):
        if len(names) == count:
            break
        name = place_name(rng)
        if name.lower() not in seen:
            seen.add(name.lower())
            names.append(name)
    if len(names) < count:
        raise ValueError(f"cannot make {count} distinct names")
    return names


# --- terrain and places ------------------------------------------------------------------------


class _ValueNoise:
    """Octaves of lattice value noise; each octave's lattice comes from its own stream."""

    OCTAVES = 3

    def __init__(self, seed: int, width: float, height: float) -> None:
        base = max(width, height, 4.0) / 2.5  # about two or three large features across the map
        self.layers: list[tuple[float, int, int, list[float], float]] = []
        for octave in range(1, self.OCTAVES + 1):
            spacing = base / 2 ** (octave - 1)
            cols, rows = int(width / spacing) + 2, int(height / spacing) + 2
            rng = stream(seed, f"world/terrain/octave{octave}")
            values = [rng.unit() for _ in range(cols * rows)]
            self.layers.append((spacing, cols, rows, values, 0.5 ** (octave - 1)))

    def __call__(self, x: float, y: float) -> float:
        total = 0.0
        for spacing, cols, rows, values, amplitude in self.layers:
            gx, gy = x / spacing, y / spacing
            ix, iy = min(int(gx), cols - 2), min(int(gy), rows - 2)
            tx, ty = _smoothstep(gx - ix), _smoothstep(gy - iy)
            v00, v10 = values[iy * cols + ix], values[iy * cols + ix + 1]
            v01, v11 = values[(iy + 1) * cols + ix], values[(iy + 1) * cols + ix + 1]
            top, bottom = v01 + (v11 - v01) * tx, v00 + (v10 - v00) * tx
            total += amplitude * (bottom + (top - bottom) * ty)
        return total


def _smoothstep(t: float) -> float:
    return t * t * (3 - 2 * t)


def _terrain_for(seed: int, points: Sequence[Point], extent: Point, table: TerrainTable) -> list[str]:
    """Cut the noise at quantiles so each terrain gets its share of the points."""
    if not table or any(share <= 0 for _, share in table):
        raise ValueError("terrain table needs at least one entry and positive shares")
    noise = _ValueNoise(seed, *extent)
    values = [noise(x, y) for x, y in points]
    total, cumulative, ranked = sum(share for _, share in table), 0.0, []
    for name, share in table:
        cumulative += share
        ranked += [name] * (round(cumulative / total * len(points)) - len(ranked))
    result = [""] * len(points)
    for rank, index in enumerate(sorted(range(len(points)), key=lambda i: (values[i], i))):
        result[index] = ranked[rank]
    return result


def _places(seed: int, terrains: Sequence[str], share: float) -> list[str | None]:
    if not 0 <= share <= 1:
        raise ValueError(f"place_share must be within [0, 1], got {share}")
    land = [i for i, terrain in enumerate(terrains) if terrain != WATER]
    stream(seed, "world/places").shuffle(land)
    chosen = sorted(land[: round(share * len(land))])
    places: list[str | None] = [None] * len(terrains)
    for index, name in zip(chosen, make_names(seed, len(chosen), "world/place-names"), strict=True):
        places[index] = name
    return places


# --- grids -------------------------------------------------------------------------------------


def _check_size(width: int, height: int) -> None:
    if width < 1 or height < 1:
        raise ValueError(f"world size must be at least 1x1, got {width}x{height}")


def _grid_world(
    kind: str,
    seed: int,
    size: Cell,
    cells: list[tuple[str, Cell, Point, tuple[Point, ...], tuple[str, ...]]],
    extent: Point,
    terrain: TerrainTable,
    place_share: float,
) -> World:
    terrains = _terrain_for(seed, [centre for _, _, centre, _, _ in cells], extent, terrain)
    places = _places(seed, terrains, place_share)
    locations = {
        ident: Location(ident, ident, terrains[i], centre, polygon, neighbours, coords, places[i])
        for i, (ident, coords, centre, polygon, neighbours) in enumerate(cells)
    }
    return World(kind, seed, size[0], size[1], locations)


def generate_square(
    seed: int, width: int, height: int, terrain: TerrainTable = DEFAULT_TERRAIN, place_share: float = 0.08
) -> World:
    """A width x height grid of 1x1 squares; 8 neighbours; ids "A1" (north-west corner) onwards."""
    _check_size(width, height)
    cells = []
    for row in range(height):
        for col in range(width):
            bottom = height - row - 1  # row 0 is the north edge, at the top of the map
            polygon = (_pt(col, bottom), _pt(col + 1, bottom), _pt(col + 1, bottom + 1), _pt(col, bottom + 1))
            neighbours = sorted(
                square_id(col + dc, row + dr)
                for dc, dr in SQUARE_STEPS.values()
                if 0 <= col + dc < width and 0 <= row + dr < height
            )
            centre = _pt(col + 0.5, bottom + 0.5)
            cells.append((square_id(col, row), (col, row), centre, polygon, tuple(neighbours)))
    return _grid_world("square", seed, (width, height), cells, (width, height), terrain, place_share)


def generate_hex(
    seed: int, width: int, height: int, terrain: TerrainTable = DEFAULT_TERRAIN, place_share: float = 0.08
) -> World:
    """Flat-topped hexes of circumradius 1 in an odd-q offset rectangle; ids "CCRR" from "0101"."""
    _check_size(width, height)
    cells = []
    for row in range(height):
        for col in range(width):
            q, r = _offset_to_axial(col, row)
            cx, half_y = 1 + 1.5 * col, 2 * (height - row) - (col & 1)  # y counted in sqrt(3)/2 units
            polygon = tuple(_pt(cx + dx, (half_y + dy) * _SQRT3_HALF) for dx, dy in _HEX_CORNERS)
            neighbours = []
            for dq, dr in HEX_STEPS.values():
                ncol, nrow = _axial_to_offset(q + dq, r + dr)
                if 0 <= ncol < width and 0 <= nrow < height:
                    neighbours.append(hex_id(ncol, nrow, width, height))
            centre = _pt(cx, half_y * _SQRT3_HALF)
            cells.append(
                (hex_id(col, row, width, height), (q, r), centre, polygon, tuple(sorted(neighbours)))
            )
    extent = (1.5 * width + 0.5, (2 * height + 1) * _SQRT3_HALF)
    return _grid_world("hex", seed, (width, height), cells, extent, terrain, place_share)


# --- provinces ---------------------------------------------------------------------------------


def generate_provinces(
    seed: int, count: int, width: int = 40, height: int = 30, terrain: TerrainTable = DEFAULT_TERRAIN
) -> World:
    """`count` named provinces carved out of a width x height grid of unit cells ((0, 0) is south-west)."""
    _check_size(width, height)
    if not 1 <= count <= width * height:
        raise ValueError(f"province count must be within [1, {width * height}], got {count}")
    seeds = _province_seeds(seed, count, width, height)
    owner = [[_nearest(seeds, (x, y)) for x in range(width)] for y in range(height)]
    _drop_fragments(owner, seeds)
    _regrow(owner, seeds)
    members: list[set[Cell]] = [set() for _ in seeds]
    for y, row in enumerate(owner):
        for x, p in enumerate(row):
            members[p].add((x, y))
    names = make_names(seed, count, "world/province-names")
    ids = [f"p-{_slug(name)}" for name in names]
    centres = [_central_cell(cells) for cells in members]
    terrains = _terrain_for(seed, centres, (width, height), terrain)
    adjacent = _adjacency(owner, count)
    locations = {}
    for i, name in enumerate(names):
        neighbours = tuple(sorted(ids[j] for j in adjacent[i]))
        outline = _trace_outline(members[i])
        locations[ids[i]] = Location(ids[i], name, terrains[i], centres[i], outline, neighbours, (0, i), name)
    return World("province", seed, width, height, locations)


def _province_seeds(seed: int, count: int, width: int, height: int) -> list[Cell]:
    """One seed cell in each of `count` blocks of a coarse grid, so seeds are spread out."""
    cols = min(width, max(1, round(math.sqrt(count * width / height))))
    rows = math.ceil(count / cols)
    if rows > height:
        rows = height
        cols = math.ceil(count / rows)
    rng = stream(seed, "world/province-seeds")
    blocks = [(c, r) for r in range(rows) for c in range(cols)]
    rng.shuffle(blocks)
    seeds = [
        (
            _jitter(rng, c * width // cols, (c + 1) * width // cols),
            _jitter(rng, r * height // rows, (r + 1) * height // rows),
        )
        for c, r in blocks[:count]
    ]
    return sorted(seeds, key=lambda s: (-s[1], s[0]))  # reading order: north to south, west to east


def _jitter(rng: Stream, low: int, high: int) -> int:
    margin = (high - low) // 4  # keep away from block edges so neighbouring seeds are not crammed
    return low + margin + rng.below(high - low - 2 * margin)


def _nearest(seeds: Sequence[Cell], cell: Cell) -> int:
    # Integer squared distances, ties to the lowest index: exact and platform independent.
    return min(
        range(len(seeds)), key=lambda i: ((cell[0] - seeds[i][0]) ** 2 + (cell[1] - seeds[i][1]) ** 2, i)
    )


def _owner_at(owner: list[list[int]], x: int, y: int) -> int:
    return owner[y][x] if 0 <= y < len(owner) and 0 <= x < len(owner[0]) else -2


def _drop_fragments(owner: list[list[int]], seeds: Sequence[Cell]) -> None:
    """Unclaim (-1) every cell that is not edge-connected to its own province's seed."""
    keep: set[Cell] = set()
    for p, start in enumerate(seeds):
        queue = deque([start])
        keep.add(start)
        while queue:
            x, y = queue.popleft()
            for dx, dy in _SIDES4:
                cell = (x + dx, y + dy)
                if cell not in keep and _owner_at(owner, *cell) == p:
                    keep.add(cell)
                    queue.append(cell)
    for y, row in enumerate(owner):
        for x in range(len(row)):
            if (x, y) not in keep:
                row[x] = -1


def _keeps_disk(owner: list[list[int]], x: int, y: int, p: int) -> bool:
    """Whether adding cell (x, y) to province p keeps it one piece with one simple outline.

    True when the cell's border touches p along exactly one connected arc containing an edge:
    gluing a square to a disk along one arc gives a disk (no hole, no corner-only pinch).
    """
    e, ne, n, nw, w, sw, s, se = (_owner_at(owner, x + dx, y + dy) == p for dx, dy in _RING8)
    if not (e or n or w or s):
        return False
    border = (e, e or ne or n, n, n or nw or w, w, w or sw or s, s, s or se or e)  # edges and corners
    arcs = sum(1 for i in range(8) if border[i] and not border[i - 1])
    return arcs <= 1  # 0 arcs: the whole border touches p


def _regrow(owner: list[list[int]], seeds: Sequence[Cell]) -> None:
    """Hand unclaimed cells to the nearest seed that can take them and stay a single simple region."""
    heap: list[tuple[int, int, Cell]] = []

    def offer_around(x: int, y: int) -> None:
        for dx, dy in _RING8:
            cx, cy = x + dx, y + dy
            if _owner_at(owner, cx, cy) == -1:
                p = owner[y][x]
                heapq.heappush(heap, ((cx - seeds[p][0]) ** 2 + (cy - seeds[p][1]) ** 2, p, (cx, cy)))

    for y, row in enumerate(owner):
        for x, p in enumerate(row):
            if p >= 0:
                offer_around(x, y)
    while True:
        while heap:
            _, p, (x, y) = heapq.heappop(heap)
            if owner[y][x] == -1 and _keeps_disk(owner, x, y, p):
                owner[y][x] = p
                offer_around(x, y)
        stuck = [(x, y) for y, row in enumerate(owner) for x, p in enumerate(row) if p == -1]
        if not stuck:
            return
        # Safety net (not hit in 2,100 trial maps): every cell must belong somewhere.
        for x, y in stuck:
            sides = [_owner_at(owner, x + dx, y + dy) for dx, dy in _SIDES4]
            claimants = [p for p in sides if p >= 0]
            if claimants:
                owner[y][x] = min(claimants, key=lambda p: (-claimants.count(p), p))
                offer_around(x, y)
                break


def _central_cell(cells: set[Cell]) -> Point:
    """Centre of the member cell nearest the centroid: always inside the province."""
    cx = sum(x for x, _ in cells) / len(cells)
    cy = sum(y for _, y in cells) / len(cells)
    x, y = min(cells, key=lambda c: ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, c[1], c[0]))
    return _pt(x + 0.5, y + 0.5)


def _adjacency(owner: list[list[int]], count: int) -> list[set[int]]:
    adjacent: list[set[int]] = [set() for _ in range(count)]
    for y, row in enumerate(owner):
        for x, p in enumerate(row):
            for q in (_owner_at(owner, x + 1, y), _owner_at(owner, x, y + 1)):
                if q >= 0 and q != p:
                    adjacent[p].add(q)
                    adjacent[q].add(p)
    return adjacent


def _trace_outline(cells: set[Cell]) -> tuple[Point, ...]:
    """The outer boundary of a union of unit cells, counter-clockwise, corners only."""
    exits: dict[Cell, list[Cell]] = {}
    for x, y in cells:  # directed edges with the region on their left
        for (dx, dy), start, end in (
            ((0, -1), (x, y), (x + 1, y)),
            ((1, 0), (x + 1, y), (x + 1, y + 1)),
            ((0, 1), (x + 1, y + 1), (x, y + 1)),
            ((-1, 0), (x, y + 1), (x, y)),
        ):
            if (x + dx, y + dy) not in cells:
                exits.setdefault(start, []).append(end)
    start = min(exits, key=lambda v: (v[1], v[0]))  # the lowest-left corner is on the outer ring
    ring = [start, exits[start][0]]
    while ring[-1] != start:
        (px, py), (x, y) = ring[-2], ring[-1]
        left = (x - (y - py), y + (x - px))  # at a corner-only pinch, hug the region
        options = exits[(x, y)]
        ring.append(left if left in options else options[0])
    ring.pop()
    corners = [v for i, v in enumerate(ring) if not _collinear(ring[i - 1], v, ring[(i + 1) % len(ring)])]
    return tuple(_pt(x, y) for x, y in corners)


def _collinear(a: Cell, b: Cell, c: Cell) -> bool:
    return (b[0] - a[0]) * (c[1] - b[1]) == (b[1] - a[1]) * (c[0] - b[0])


# --- what the site's maps draw: grid coordinates and the parts of a province -------------------

AXIS_MARGIN = 0.45  # how far outside the grid, in map units, the column and row names sit


def _offset_of(world: World, loc: Location) -> Cell:
    """(column, row) of a grid tile, 0-based, rows counted from the north edge."""
    return loc.coords if world.kind == "square" else _axial_to_offset(*loc.coords)


def axis_labels(world: World) -> tuple[list[tuple[str, Point]], list[tuple[str, Point]]]:
    """The names of a grid's columns and rows, each with the point where a map prints it: column names
    above the top row, row names left of the first column. Tile ids are these names joined ("A10" is
    column A, row 10; hex "0305" is column 03, row 05). A province map has neither."""
    if world.kind not in ("square", "hex"):
        return [], []
    digits = max(2, len(str(max(world.width, world.height))))
    first = next(iter(world.locations.values()), None)
    if first is not None and first.id != _grid_name(world, first, digits):
        return [], []  # tiles named otherwise (L1, L2...): column and row names would name nothing
    columns: dict[int, tuple[float, float]] = {}  # column -> (centre x, top edge y)
    rows: dict[int, tuple[float, float]] = {}  # row -> (left edge x, centre y) of the first column
    for loc in world.locations.values():
        if loc.parent is not None:  # an inner location is drawn inside its tile: it names no row
            continue
        col, row = _offset_of(world, loc)
        top = max(y for _, y in loc.polygon)
        if col not in columns or top > columns[col][1]:
            columns[col] = (loc.center[0], top)
        if col == 0:
            rows[row] = (min(x for x, _ in loc.polygon), loc.center[1])
    if world.kind == "square":
        column_names = {col: column_letters(col) for col in columns}
        row_names = {row: str(row + 1) for row in rows}
    else:
        column_names = {col: f"{col + 1:0{digits}d}" for col in columns}
        row_names = {row: f"{row + 1:0{digits}d}" for row in rows}
    return (
        [(column_names[col], _pt(x, top + AXIS_MARGIN)) for col, (x, top) in sorted(columns.items())],
        [(row_names[row], _pt(left - AXIS_MARGIN, y)) for row, (left, y) in sorted(rows.items())],
    )


def _grid_name(world: World, loc: Location, digits: int) -> str:
    col, row = _offset_of(world, loc)
    return square_id(col, row) if world.kind == "square" else f"{col + 1:0{digits}d}{row + 1:0{digits}d}"


def _inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd rule; the points tested here are cell centres, never on an edge."""
    x, y = point
    inside = False
    for i, (x1, y1) in enumerate(polygon):
        x2, y2 = polygon[i - 1]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def province_cells(location: Location) -> list[Cell]:
    """The unit cells of a province, read back from its outline (provinces are unions of whole cells)."""
    xs = [x for x, _ in location.polygon]
    ys = [y for _, y in location.polygon]
    return [
        (x, y)
        for y in range(math.floor(min(ys)), math.ceil(max(ys)))
        for x in range(math.floor(min(xs)), math.ceil(max(xs)))
        if _inside((x + 0.5, y + 0.5), location.polygon)
    ]


@dataclass(frozen=True)
class Part:
    """One of the parts a province is split into, for a map: its outline and the centres of its cells,
    nearest its middle first (where a map stands what is in the part)."""

    polygon: tuple[Point, ...]
    spots: tuple[Point, ...]


def split_province(location: Location, parts: int) -> list[Part]:
    """Split a province into ``parts`` connected parts of about equal size, each one piece with a simple
    outline, in reading order (north to south, west to east). A pure function of the outline: the same
    province always splits the same way. Fewer parts come back when the province has fewer cells."""
    cells = province_cells(location)
    if parts < 1 or not cells:
        return []
    x0, y0 = min(x for x, _ in cells) - 1, min(y for _, y in cells) - 1
    width, height = max(x for x, _ in cells) - x0 + 2, max(y for _, y in cells) - y0 + 2
    owner = [[-3] * width for _ in range(height)]  # -3: outside the province, never claimed
    for x, y in cells:
        owner[y - y0][x - x0] = -1
    local = sorted(((x - x0, y - y0) for x, y in cells), key=lambda c: (-c[1], c[0]))
    # Seeds spread out: each next seed is the cell farthest from those already chosen.
    cx, cy = _central_cell({(x, y) for x, y in local})
    seeds = [max(local, key=lambda c: (c[0] + 0.5 - cx) ** 2 + (c[1] + 0.5 - cy) ** 2)]
    while len(seeds) < min(parts, len(local)):
        seeds.append(max(local, key=lambda c: min((c[0] - s[0]) ** 2 + (c[1] - s[1]) ** 2 for s in seeds)))
    for _ in range(3):  # a few Lloyd steps move each seed to the middle of its share, evening the sizes
        shares: list[set[Cell]] = [set() for _ in seeds]
        for cell in local:
            shares[_nearest(seeds, cell)].add(cell)
        seeds = [(int(px), int(py)) for px, py in (_central_cell(share) for share in shares if share)]
    seeds.sort(key=lambda s: (-s[1], s[0]))
    for p, (x, y) in enumerate(seeds):
        owner[y][x] = p
    _regrow(owner, seeds)
    members: list[set[Cell]] = [set() for _ in seeds]
    for y, row in enumerate(owner):
        for x, p in enumerate(row):
            if p >= 0:
                members[p].add((x, y))
    result = []
    for member in members:
        mx, my = _central_cell(member)
        spots = sorted(member, key=lambda c: ((c[0] + 0.5 - mx) ** 2 + (c[1] + 0.5 - my) ** 2, -c[1], c[0]))
        outline = _trace_outline({(x + x0, y + y0) for x, y in member})
        result.append(Part(outline, tuple(_pt(x + x0 + 0.5, y + y0 + 0.5) for x, y in spots)))
    return result


# --- places inside places and travel times -----------------------------------------------------

# The travel table a world carries (``World.travel``); a ruleset's generator copies it from its rules
# data, so every number is the ruleset's own.
TRAVEL_KEYS = (
    "inner",  # days into or out of an inner location, whatever the mode and the weather
    "ride_cut",  # riding saves floor(walking days / ride_cut)
    "coast_factor",  # coast-to-coast sailing takes this many times the walking days
    "water",  # the terrains that are water: their connected groups are the water bodies
    "fly",  # flying days per territory, by weather
    "walk_weather",  # percent added to walking and riding days, by weather
    "sail_weather",  # percent added (negative: taken off) to sailing days, by weather
)
MODES = ("walk", "ride", "sail", "fly")
OUT = "Out"  # the way from an inner location to the one around it
IN = "In"  # the way into an inner location (orders name the place's id instead)
# The six hex directions in the order a report lists equal travel times, with their words.
DIRECTION_WORDS: dict[str, str] = {
    "N": "North", "NE": "NorthEast", "SE": "SouthEast", "S": "South", "SW": "SouthWest", "NW": "NorthWest",
}  # fmt: skip
_STEP_NAMES = {step: name for name, step in HEX_STEPS.items()}
WeatherArg = str | Mapping[str, str] | None


def check_travel_table(table: Mapping[str, Any]) -> None:
    """Raise ValueError naming the first missing or malformed key of a travel table."""
    for key in TRAVEL_KEYS:
        if key not in table:
            raise ValueError(f"the travel table has no {key!r}; it needs {', '.join(TRAVEL_KEYS)}")
    for key in ("inner", "ride_cut", "coast_factor"):
        if not isinstance(table[key], int) or isinstance(table[key], bool) or table[key] < 1:
            raise ValueError(f"travel table {key!r} must be a whole number of at least 1, got {table[key]!r}")
    if "fair" not in table["fly"]:
        raise ValueError(
            "the travel table's flying days need a 'fair' entry (the weather when none is given)"
        )


def _table(world: World) -> Mapping[str, Any]:
    if world.travel is None:
        raise ValueError("this world tells no travel times (it has no travel table)")
    return world.travel


def weather_at(world: World, loc_id: str, weather: WeatherArg) -> str:
    """The weather that governs a leg setting out from a location: a single weather word as given, or a
    territory's entry in a mapping (an inner location shelters, so its territory's weather counts)."""
    if weather is None:
        return "fair"
    if isinstance(weather, str):
        return weather
    return str(weather.get(world.territory(loc_id), "fair"))


def _scaled(days: int, percent: int) -> int:
    """Days changed by a percentage, a part of a day counting as a whole one (never under one day)."""
    return max(1, -(-days * (100 + percent) // 100))


def is_inner_step(world: World, origin: str, destination: str) -> bool:
    return world[origin].parent == destination or world[destination].parent == origin


def travel_days(
    world: World, origin: str, destination: str, mode: str, weather: WeatherArg = None
) -> int | None:
    """Days a stack needs from ``origin`` to the neighbouring ``destination`` in ``mode`` (walk, ride,
    sail or fly) under ``weather`` (a word, or a mapping of territory to weather read at the origin's
    territory); None when that way cannot be taken in that mode (impassable, or not a neighbour).

    Into or out of an inner location: the table's ``inner`` days in every mode. Walking: the route's days,
    rain and storm adding their percentage. Riding: the walking days less a third of them, rounded down.
    Flying: the table's days per territory for the weather, over any terrain. Sailing: the route's water
    days, or between two land territories on one water body the walking days times ``coast_factor``;
    wind and storm take their percentage off. Every percentage rounds up to whole days."""
    if mode not in MODES:
        raise ValueError(f"unknown travel mode {mode!r}; expected one of {', '.join(MODES)}")
    table = _table(world)
    if destination not in world[origin].neighbours:
        return None
    if is_inner_step(world, origin, destination):
        return int(table["inner"])
    route = world[origin].route_to(destination)
    if route is None:
        return None
    sky = weather_at(world, origin, weather)
    if mode == "fly":
        fly = table["fly"]
        return int(fly.get(sky, fly["fair"]))
    if mode in ("walk", "ride"):
        if route.walk is None:
            return None
        days = _scaled(route.walk, int(table["walk_weather"].get(sky, 0)))
        return days - days // int(table["ride_cut"]) if mode == "ride" else days
    days = route.sail if route.sail is not None else _coast_days(world, origin, destination, route, table)
    return None if days is None else _scaled(days, int(table["sail_weather"].get(sky, 0)))


def _coast_days(
    world: World, origin: str, destination: str, route: Route, table: Mapping[str, Any]
) -> int | None:
    """Sailing along the coast between two land territories that border one water body."""
    if route.walk is None:  # no walking time to double: a ship goes round by the water instead
        return None
    bodies = world.water_bodies
    if origin in bodies or destination in bodies:
        return None
    shores = [{bodies[n] for n in world[place].neighbours if n in bodies} for place in (origin, destination)]
    return route.walk * int(table["coast_factor"]) if shores[0] & shores[1] else None


def direction_word(world: World, origin: str, destination: str) -> str:
    """How a report names the way from origin to a neighbour: Out, In, a compass word, or the id."""
    if world[origin].parent == destination:
        return OUT
    if world[destination].parent == origin:
        return IN
    if world.kind == "hex":
        (qa, ra), (qb, rb) = world[origin].coords, world[destination].coords
        step = _STEP_NAMES.get((qb - qa, rb - ra))
        if step is not None:
            return DIRECTION_WORDS[step]
    return destination


def toward(world: World, origin: str, direction: str) -> str | None:
    """The neighbour an order's direction names: N/NE/... or their words (any case), Out, or a
    neighbour's id; None when no neighbour lies that way."""
    wanted = direction.strip()
    if wanted in world[origin].neighbours:
        return wanted
    upper = wanted.upper()
    words = {word.upper(): short for short, word in DIRECTION_WORDS.items()}
    name = OUT if upper == OUT.upper() else DIRECTION_WORDS.get(words.get(upper, upper))
    if name is None:
        return None
    return next((n for n in world[origin].neighbours if direction_word(world, origin, n) == name), None)


@dataclass(frozen=True)
class Direction:
    """One line of a location's directions: the way, the place, and the days on foot, by water when
    the way is only by water (mode "sail"), or None days when impassable (mode None)."""

    word: str
    to: str
    mode: str | None
    days: int | None


def directions(world: World, loc_id: str, weather: WeatherArg = None) -> list[Direction]:
    """The ways out of a location as a report lists them: by increasing days, impassable last, ties
    in compass order (N, NE, SE, S, SW, NW, then Out). The inner locations inside it are not among them
    (a report lists those apart)."""
    order = [*DIRECTION_WORDS.values(), OUT]
    found = []
    for there in world[loc_id].neighbours:
        if world[there].parent == loc_id:
            continue
        walk = travel_days(world, loc_id, there, "walk", weather)
        route = world[loc_id].route_to(there)
        if walk is not None:
            found.append(Direction(direction_word(world, loc_id, there), there, "walk", walk))
        elif route is not None and route.sail is not None:
            found.append(Direction(direction_word(world, loc_id, there), there, "sail",
                                   travel_days(world, loc_id, there, "sail", weather)))  # fmt: skip
        else:
            found.append(Direction(direction_word(world, loc_id, there), there, None, None))

    def rank(line: Direction) -> tuple[int, int, int, str]:
        place = order.index(line.word) if line.word in order else len(order)
        return (line.days is None, line.days or 0, place, line.to)

    return sorted(found, key=rank)


def shortest_paths(
    ways: Callable[[str], Iterable[str]],
    step: Callable[[str, str], int | None],
    origin: str,
    limit: int | None = None,
    order: Callable[[str], Any] = str,
) -> dict[str, tuple[int, str | None]]:
    """The fewest days from ``origin`` to every place reachable through ``ways`` (a place's next places),
    each step costing ``step(here, there)`` days (None: no way), up to ``limit`` days: place -> (days,
    the place before it on the quickest way, None for the origin). Ties go to the place first in ``order``,
    so the answer never depends on dict or heap order (Dijkstra)."""
    best: dict[str, tuple[int, str | None]] = {origin: (0, None)}
    heap: list[tuple[int, Any, str]] = [(0, order(origin), origin)]
    while heap:
        days, _, here = heapq.heappop(heap)
        if days > best[here][0]:
            continue
        for there in ways(here):
            cost = step(here, there)
            if cost is None:
                continue
            total = days + int(cost)
            if (limit is None or total <= limit) and (there not in best or total < best[there][0]):
                best[there] = (total, here)
                heapq.heappush(heap, (total, order(there), there))
    return best


def travel_times(
    world: World, origin: str, mode: str, weather: WeatherArg = None, limit: int | None = None
) -> dict[str, int]:
    """The fewest days from origin to every place reachable in ``mode`` (the origin at 0), up to
    ``limit`` days, in the world's order."""
    best = shortest_paths(
        lambda here: world[here].neighbours,
        lambda here, there: travel_days(world, here, there, mode, weather),
        origin,
        limit,
    )
    return {loc: best[loc][0] for loc in world.locations if loc in best}


def inner_disc(
    parent: Location, index: int, count: int, radius: float = 0.2
) -> tuple[Point, tuple[Point, ...]]:
    """Where a map draws the ``index``-th of ``count`` inner locations of ``parent``: a small disc (an
    octagon) inside the parent's outline, alone at its middle or spread round it starting north. The
    sizes are fractions of the parent's size (its centre's distance to its first corner)."""
    cx, cy = parent.center
    size = math.dist(parent.center, parent.polygon[0]) if parent.polygon else 1.0
    if count <= 1:
        x, y = cx, cy
    else:
        angle = math.pi / 2 + 2 * math.pi * index / count
        x, y = cx + 0.45 * size * math.cos(angle), cy + 0.45 * size * math.sin(angle)
    r = radius * size
    ring = tuple(_pt(x + r * math.cos(math.pi * k / 4), y + r * math.sin(math.pi * k / 4)) for k in range(8))
    return _pt(x, y), ring
