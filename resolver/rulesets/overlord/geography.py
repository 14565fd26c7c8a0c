"""Overlord's world (spec 5.1-5.3): a hex map of territories named after their nearest place, the Imperial
City near the middle with border cities round it, colonial cities on the frontier, villages, roads, and
the walking and sailing days of every way between neighbours. A pure function of the seed, the rules data
and the number of factions; every number comes from ``rules/world.yaml``.

Ids: the territories are ``L1..Ln`` in reading order (north to south, west to east), then the places
inside them, numbered on in the order of their territories (a territory's city before its other places).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ...core.rng import stream
from ...core.world import Location, Route, World, check_travel_table, generate_hex, inner_disc, make_names

Rules = Mapping[str, Any]
NOISE_WATER = "water"  # the noise band the terrain table's water entry names, split into ocean and lake
CITY = "city"
VILLAGE = "village"


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    (qa, ra), (qb, rb) = a, b
    return (abs(qa - qb) + abs(ra - rb) + abs(qa + ra - qb - rb)) // 2


def _number(loc_id: str) -> int:
    return int(loc_id[1:])


def map_size(geo: Rules, factions: int) -> tuple[int, int]:
    """Width and height of the hex rectangle for so many factions."""
    count = int(geo["territories"]["base"]) + int(geo["territories"]["per_faction"]) * max(factions, 1)
    across, down = (int(n) for n in geo["aspect"])
    width = max(3, math.ceil(math.sqrt(count * across / down)))
    return width, max(3, math.ceil(count / width))


def generate(seed: int, rules: Rules, factions: int) -> World:
    geo = rules["geography"]
    travel = {key: value for key, value in rules["travel"].items()}
    check_travel_table(travel)
    width, height = map_size(geo, factions)
    raw = generate_hex(seed, width, height, [(str(t), float(s)) for t, s in geo["terrain"]], place_share=0)
    ids = {old: f"L{index}" for index, old in enumerate(raw, start=1)}
    coords = {ids[old]: raw[old].coords for old in raw}
    near = {ids[old]: sorted((ids[n] for n in raw[old].neighbours), key=_number) for old in raw}
    terrain = _seas_and_lakes({ids[old]: raw[old].terrain for old in raw}, near, geo)
    territories = list(terrain)

    settled = set(geo["settled"])
    land = [t for t in territories if terrain[t] in settled]
    if not land:
        raise ValueError("the map has no settled land: the terrain shares leave none")
    middle = raw[list(raw)[(height // 2) * width + width // 2]].coords
    capital = min(land, key=lambda t: (_distance(coords[t], middle), _number(t)))
    radius = int(geo["imperial_radius"])
    region = {
        t: "capital"
        if t == capital
        else "imperial"
        if _distance(coords[t], coords[capital]) <= radius
        else "frontier"
        for t in territories
    }
    spacing = geo["spacing"]
    border = _spread(
        seed, "border", [t for t in land if region[t] == "imperial"], [capital],
        int(geo["border_cities"]), int(spacing["border"]), coords,
    )  # fmt: skip
    colonial_count = math.ceil(max(factions, 1) / int(geo["colonial_fill"])) + int(geo["colonial_spare"])
    frontier = [t for t in land if region[t] == "frontier"] or [
        t for t in land if t not in (capital, *border)
    ]
    colonial = _spread(
        seed, "colonial", frontier, [capital, *border], colonial_count, int(spacing["colonial"]), coords
    )
    with_city = {capital, *border, *colonial}
    rest = [t for t in land if t not in with_city]
    stream(seed, "overlord/world/villages").shuffle(rest)
    villages = sorted(rest[: round(float(geo["village_share"]) * len(rest))], key=_number)

    walking = geo["walking"]
    roads = _roads(capital, border, near, terrain, walking)
    kinds: dict[str, list[str]] = {t: [] for t in territories}
    kinds[capital] = [str(k) for k in geo["capital_places"]]
    for t in (*border, *colonial):
        kinds[t] = [CITY]
    for t in villages:
        kinds[t] = [VILLAGE]

    named = [t for t in territories if kinds[t]]
    centres = _naming_centres(seed, named, territories, coords, int(geo["name_radius"]))
    names = make_names(seed, len(centres), "overlord/world/names")
    stem = {centre: names[index] for index, centre in enumerate(centres)}
    words = geo["terrain_words"]

    locations: dict[str, Location] = {}
    centre_of = {
        t: min(centres, key=lambda c: (_distance(coords[c], coords[t]), centres.index(c)))
        for t in territories
    }
    labels = {
        t: f"{stem[centre_of[t]]} {words['road'] if t in roads else words[terrain[t]]}" for t in territories
    }
    labels = _distinct_labels(
        labels, centre_of, {t: raw[list(raw)[_number(t) - 1]].center for t in territories}
    )
    for t in territories:
        routes = tuple(_route(t, n, terrain, roads, geo) for n in near[t])
        old = raw[list(raw)[_number(t) - 1]]
        locations[t] = Location(
            t, labels[t], terrain[t], old.center, old.polygon, tuple(near[t]), coords[t],
            region=region[t], routes=routes,
        )  # fmt: skip

    water = set(geo["water"])
    next_number = len(territories) + 1
    for t in territories:
        places = kinds[t]
        for index, kind in enumerate(places):
            place_id = f"L{next_number}"
            next_number += 1
            parent = locations[t]
            if t == capital and kind == CITY:
                label = str(geo["capital_name"])
            elif kind in (CITY, VILLAGE):
                label = stem[t]
            else:
                label = f"{stem[t]} {kind.title()}"
            port: list[Route] = []
            if kind in geo["port_kinds"]:
                for n in near[t]:
                    if terrain[n] in water:
                        days = max(1, int(geo["sailing"][terrain[n]]) - int(geo["port_saving"]))
                        port.append(Route(n, sail=days))
                        back = locations[n]
                        locations[n] = _joined(back, place_id, Route(place_id, sail=days))
            centre_point, disc = inner_disc(parent, index, len(places))
            locations[place_id] = Location(
                place_id, label, kind, centre_point, disc, (t, *(r.to for r in port)), coords[t],
                parent=t, region=region[t], routes=tuple(port),
            )  # fmt: skip
            locations[t] = _joined(locations[t], place_id, None)
    return World("hex", seed, width, height, locations, travel)


def _distinct_labels(
    labels: Mapping[str, str], centre_of: Mapping[str, str], centre_point: Mapping[str, tuple[float, float]]
) -> dict[str, str]:
    """Every territory's name told apart from the others: where several share one (two plains named after
    the same town), the one the name comes from keeps it, and each other one takes the compass word of
    where it lies from there ("North Brunstead Plains"), then "Far" and "Outer" if two still share it, then
    a number. A reader of
    a chronicle sees names, not ids, so no two places may answer to one name."""
    found = dict(labels)
    by_label: dict[str, list[str]] = {}
    for t, label in labels.items():
        by_label.setdefault(label, []).append(t)
    for label, sharing in by_label.items():
        if len(sharing) < 2:
            continue
        centre = centre_of[sharing[0]]
        home = centre if centre in sharing else None
        taken = {label} if home else set()
        for t in sorted(
            sharing, key=lambda t: (math.dist(centre_point[t], centre_point[centre]), _number(t))
        ):
            if t == home:
                continue
            (x, y), (cx, cy) = centre_point[t], centre_point[centre]
            word = COMPASS[round(math.degrees(math.atan2(x - cx, y - cy)) / 60) % 6]
            options = [f"{reach}{word} {label}" for reach in ("", "Far ", "Outer ")]
            name = next((o for o in options if o not in taken and o not in labels.values()), "")
            count = 2
            while not name or name in taken or name in labels.values():
                name, count = f"{word} {label} {count}", count + 1
            taken.add(name)
            found[t] = name
    return found


# The six hex directions from north, clockwise (map y grows northward), for telling namesakes apart.
COMPASS = ("North", "Northeast", "Southeast", "South", "Southwest", "Northwest")


def _joined(loc: Location, other: str, route: Route | None) -> Location:
    """A location with one more neighbour (and its route, if it has one)."""
    routes = loc.routes if route is None else (*(loc.routes or ()), route)
    return Location(
        loc.id, loc.label, loc.terrain, loc.center, loc.polygon, (*loc.neighbours, other), loc.coords,
        loc.place, loc.parent, loc.region, routes,
    )  # fmt: skip


def _seas_and_lakes(terrain: dict[str, str], near: Mapping[str, list[str]], geo: Rules) -> dict[str, str]:
    """The noise's water band: a body that reaches the map's edge is ocean, one closed in by land a lake."""
    ocean, lake = (str(w) for w in geo["water"])
    result = dict(terrain)
    seen: set[str] = set()
    for start in terrain:
        if terrain[start] != NOISE_WATER or start in seen:
            continue
        body, queue = [start], [start]
        seen.add(start)
        while queue:
            for n in near[queue.pop()]:
                if terrain[n] == NOISE_WATER and n not in seen:
                    seen.add(n)
                    body.append(n)
                    queue.append(n)
        open_sea = any(len(near[w]) < 6 for w in body)  # an edge hex has fewer than six neighbours
        for w in body:
            result[w] = ocean if open_sea else lake
    return result


def _spread(
    seed: int,
    purpose: str,
    candidates: Sequence[str],
    taken: Sequence[str],
    count: int,
    spacing: int,
    coords: Mapping[str, tuple[int, int]],
) -> list[str]:
    """Up to ``count`` candidates drawn from the seed, at least ``spacing`` hexes from each other and
    from ``taken``; the spacing eases one hex at a time when the map is too cramped for it."""
    order = list(candidates)
    stream(seed, f"overlord/world/{purpose}").shuffle(order)
    chosen: list[str] = []
    for gap in range(spacing, 0, -1):
        for t in order:
            if len(chosen) == count:
                break
            if t not in chosen and all(_distance(coords[t], coords[o]) >= gap for o in (*taken, *chosen)):
                chosen.append(t)
    return sorted(chosen, key=_number)


def _walk_days(
    origin: str, destination: str, terrain: Mapping[str, str], walking: Mapping[str, Any]
) -> int | None:
    days_in, days_out = walking.get(terrain[destination]), walking.get(terrain[origin])
    return None if days_in is None or days_out is None else int(days_in)


def _roads(
    capital: str,
    cities: Sequence[str],
    near: Mapping[str, list[str]],
    terrain: Mapping[str, str],
    walking: Mapping[str, Any],
) -> set[str]:
    """The territories on the quickest walking way from the capital to each border city."""
    best = {capital: 0}
    came: dict[str, str] = {}
    heap = [(0, _number(capital), capital)]
    while heap:
        days, _, here = heapq.heappop(heap)
        if days > best[here]:
            continue
        for there in near[here]:
            step = _walk_days(here, there, terrain, walking)
            if step is not None and days + step < best.get(there, days + step + 1):
                best[there] = days + step
                came[there] = here
                heapq.heappush(heap, (days + step, _number(there), there))
    road: set[str] = set()
    for city in cities:
        if city not in best:
            continue  # no way on foot: the city is cut off by mountains or water
        while city != capital:
            road.add(city)
            city = came[city]
        road.add(capital)
    return road


def _route(origin: str, destination: str, terrain: Mapping[str, str], roads: set[str], geo: Rules) -> Route:
    water = set(geo["water"])
    if terrain[origin] in water or terrain[destination] in water:
        wet = destination if terrain[destination] in water else origin
        return Route(destination, sail=int(geo["sailing"][terrain[wet]]))
    days = _walk_days(origin, destination, terrain, geo["walking"])
    if days is not None and origin in roads and destination in roads:
        days = max(1, days - int(geo["road_saving"]))
    return Route(destination, walk=days)


def _naming_centres(
    seed: int,
    named: Sequence[str],
    territories: Sequence[str],
    coords: Mapping[str, tuple[int, int]],
    radius: int,
) -> list[str]:
    """The territories whose names the others take: every one with a place inside, then, drawn from the
    seed, enough others that no territory lies more than ``radius`` hexes from one."""
    centres = list(named)
    others = [t for t in territories if t not in centres]
    stream(seed, "overlord/world/regions").shuffle(others)
    for t in others:
        if all(_distance(coords[t], coords[c]) > radius for c in centres):
            centres.append(t)
    return centres


def cities(world: World) -> list[str]:
    """The inner cities, in the world's order."""
    return [loc for loc in world if world[loc].parent is not None and world[loc].terrain == CITY]


def start_cities(world: World, rules: Rules, choices: Sequence[str]) -> list[str]:
    """The city each faction starts in, for the start choices of spec 3.6 in sign-up order: the Imperial
    City; the border cities dealt in turn; the colonial cities filled ``colonial_fill`` factions at a time,
    starting over when all are full. A choice whose cities the map lacks starts in any city."""
    geo = rules["geography"]
    fill = int(geo["colonial_fill"])
    by_region: dict[str, list[str]] = {}
    for city in cities(world):
        by_region.setdefault(str(world[city].region), []).append(city)
    every = cities(world)
    if not every:
        raise ValueError("the map has no city to start in")
    counts: dict[str, int] = {}
    result = []
    for choice in choices:
        region = geo["starts"].get(choice)
        if region is None:
            raise ValueError(f"unknown start choice {choice!r}; expected one of {', '.join(geo['starts'])}")
        places = by_region.get(str(region)) or every
        nth = counts.get(choice, 0)
        counts[choice] = nth + 1
        result.append(places[(nth // fill if region == "frontier" else nth) % len(places)])
    return result
