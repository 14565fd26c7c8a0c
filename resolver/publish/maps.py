"""The interactive world map: one folium page for the whole campaign, with a turn slider.

folium lays out the page and loads Leaflet; everything drawn on the map (the terrain
polygons, named places, and what stands on the map, the ruleset's ``map_pieces``, per
turn) is compact JSON data drawn by ``campaign-map.js``, which the slider re-runs for the
chosen turn. Pages embed the same file in an iframe with ``#turn=N``, so a chronicle of
500 turns shares one map file.

No name ever passes through folium: branca renders what a folium element outputs a second
time, as the *source* of a new, unsandboxed Jinja template, so a settlement called
``{{ 6*7 }}`` would print 42 and one called ``{{`` would break the build. The data is
written into the finished page instead (``DATA_ID``), as JSON that the script reads and
shows with ``textContent``.

Offline: Leaflet comes from the ``xstatic-leaflet`` package (the version folium pins) and
is copied into the site; folium's CDN links (jQuery, Bootstrap, Font Awesome) are dropped,
since nothing here uses them: tooltips and popups are plain Leaflet.
"""

from __future__ import annotations

import json
import math
import re
from html import escape
from pathlib import Path
from typing import Any

import folium
import xstatic.pkg.leaflet as xstatic_leaflet
from branca.element import Element, Figure, MacroElement
from jinja2 import Template

from ..core.world import AXIS_MARGIN, Part, World, axis_labels, split_province
from ..engine.ruleset import DRAWN_KINDS, MARK_KINDS
from .history import History


def folium_leaflet_version() -> str:
    """The Leaflet version folium's own pages would load from a CDN: the vendored copy must match it."""
    url = dict(folium.Map.default_js)["leaflet"]
    found = re.search(r"leaflet@([0-9.]+)/", url)
    return found.group(1) if found else ""


TERRAIN_COLORS = {
    "water": "#9ec5e8",
    "plains": "#e9e2b8",
    "forest": "#8fb888",
    "hills": "#c9ab7f",
    "mountains": "#a39a93",
    "desert": "#f0d59c",
    "swamp": "#9fb5a0",
    "tundra": "#dfe6ea",
    "river": "#b7d4ee",  # lighter than open water: land that a river runs through
    "ocean": "#9ec5e8",
    "lake": "#aed0ee",
    # A board game's provinces by kind (diplomacy): seas, provinces on the sea, provinces inland.
    "sea": "#9ec5e8",
    "coast": "#ece4bf",
    "land": "#dccf9f",
    # Inner places (a city inside its hex): darker than any land, so the small disc stands out.
    "city": "#8c5a4a",
    "village": "#a8836a",
    "castle": "#6e6a7a",
    "mage tower": "#7a5a8c",
    "marketplace": "#b08a3a",
    "guild": "#5a7a8c",
}
_SPARE_COLORS = ("#d8c8e8", "#f2c6a0", "#c8dca0", "#e0b8b8", "#b8d8d8")


def terrain_color(terrain: str) -> str:
    if terrain in TERRAIN_COLORS:
        return TERRAIN_COLORS[terrain]
    if terrain.endswith("s") and terrain[:-1] in TERRAIN_COLORS:  # a ruleset that names them in the plural
        return TERRAIN_COLORS[terrain[:-1]]
    return _SPARE_COLORS[sum(map(ord, terrain)) % len(_SPARE_COLORS)]  # stable across runs, unlike hash()


def leaflet_files() -> dict[str, bytes]:
    """Leaflet's script, stylesheet and marker images, by path in the vendor folder."""
    wanted = folium_leaflet_version()
    if wanted != xstatic_leaflet.VERSION:
        raise RuntimeError(
            f"xstatic-leaflet {xstatic_leaflet.VERSION} is installed; folium uses Leaflet {wanted}"
        )
    src = Path(xstatic_leaflet.BASE_DIR)
    files = {name: (src / name).read_bytes() for name in ("leaflet.js", "leaflet.css")}
    for path in sorted((src / "images").iterdir()):
        files[f"images/{path.name}"] = path.read_bytes()
    return files


def cell_size(world: World) -> float:
    """A typical distance between neighbouring centres, to size and spread the markers."""
    dists = []
    for loc in list(world.locations.values())[:200]:
        if loc.parent is not None:  # an inner location sits inside its parent, not a cell away
            continue
        near = [math.dist(loc.center, world[o].center) for o in loc.neighbours if world[o].parent is None]
        if near:
            dists.append(min(near))
    dists.sort()
    return round(dists[len(dists) // 2], 3) if dists else 1.0


def _latlng(point: tuple[float, float]) -> list[float]:
    return [point[1], point[0]]


def area_parts(history: History) -> dict[str, tuple[str, str, Part]]:
    """The ruleset's map areas (from the current state), each with its part of its world location:
    area id -> (world location, label, part). Parts are handed out in id order within a location."""
    game = history.game
    by_location: dict[str, list[tuple[str, str]]] = {}
    for area in game.ruleset.map_areas(game, history.state):
        if area.get("location") in game.world:
            by_location.setdefault(str(area["location"]), []).append((str(area["id"]), str(area["label"])))
    found: dict[str, tuple[str, str, Part]] = {}
    for location, areas in sorted(by_location.items()):
        areas.sort()
        for (area, label), part in zip(areas, split_province(game.world[location], len(areas)), strict=False):
            found[area] = (location, label, part)
    return found


def map_data(history: History) -> dict[str, Any]:
    """Everything the map script needs, deduplicated: strings and locations are stored once."""
    game, world = history.game, history.game.world
    strings: dict[str, int] = {}
    kinds: dict[str, int] = {}
    factions = list(game.factions)
    faction_index = {faction: i for i, faction in enumerate(factions)}  # not factions.index: once per piece
    used: set[str] = set()
    tile_index = {loc: i for i, loc in enumerate(world.locations)}
    parts = area_parts(history)
    area_index = {area: i for i, area in enumerate(parts)}

    def sid(text: Any) -> int:
        return strings.setdefault(str(text or ""), len(strings))

    def spot(place: str) -> list[Any] | None:
        """[lat, lng, tile index, area index] of a place a mark names: an area's middle or a tile's centre."""
        if place in parts:
            location, _, part = parts[place]
            return [*_latlng(part.spots[0]), tile_index[location], area_index[place]]
        if place in world:
            return [*_latlng(world[place].center), tile_index[place], -1]
        return None

    marks = []
    for rec in history.records:
        turn_marks = []
        for mark in game.ruleset.map_events(game, rec.events):
            path = [at for at in map(spot, mark.path) if at is not None]
            if path:
                owner = faction_index.get(mark.owner, -1)
                row = [MARK_KINDS.index(mark.kind), path, owner, sid(mark.text)]
                if mark.outcome is not None:  # only a mark that tells an outcome carries one
                    row.append(mark.outcome)
                turn_marks.append(row)
        marks.append(turn_marks)

    # Who holds each tile, turn by turn: a faction's index, -1 for nobody; no list at all when the
    # ruleset's locations are not held.
    holders = [
        [faction_index.get(str(rec.holders.get(loc)), -1) for loc in world.locations] if rec.holders else []
        for rec in history.records
    ]

    turns, pieces = [], []
    for rec in history.records:
        label = (
            "Start of the campaign"
            if rec.turn == 0 or rec.date is None
            else f"Turn {rec.turn}: {rec.date.label}"
        )
        turns.append({"turn": rec.turn, "label": label})
        rows = []
        for p in rec.pieces:
            loc = str(p.get("location") or "")
            if loc not in world:
                continue
            used.add(loc)
            owner = p.get("owner")
            rows.append(
                [
                    loc,
                    kinds.setdefault(str(p.get("kind", "piece")), len(kinds)),
                    faction_index.get(owner, -1),
                    sid(p.get("label")),
                    sid(p.get("detail")),
                    int(p.get("size") or 1),
                    area_index.get(str(p.get("area") or ""), -1),
                ]
            )
            point = p.get("point")
            if point is not None:  # where in its location the piece stands (a fleet on one of two coasts)
                rows[-1].append(_latlng((float(point[0]), float(point[1]))))
        pieces.append(rows)
    places = []
    inner = []  # [tile index, its parent's tile index] of each location inside another
    marked = game.ruleset.map_marked_places(game)
    for loc in world.locations.values():
        if loc.place:
            places.append([loc.place, loc.center[1], loc.center[0], loc.label != loc.place])
            if loc.id in marked:  # a ring beside its name (only marked places carry the flag)
                places[-1].append(True)
        elif loc.parent is not None and loc.parent in tile_index:
            # A place inside a hex: its disc is a tile; its name stands beside it, as a settlement's does.
            places.append([loc.label, loc.center[1], loc.center[0], True])
            inner.append([tile_index[loc.id], tile_index[loc.parent]])
    terrains = list(dict.fromkeys(loc.terrain for loc in world.locations.values()))
    tiles = [
        # [[lat, lng], ...], tile label, index in "terrains", place name ("" for none)
        [[[y, x] for x, y in loc.polygon], loc.label, terrains.index(loc.terrain), loc.place or ""]
        for loc in world.locations.values()
    ]
    columns, row_names = axis_labels(world)
    areas = [
        # [[lat, lng], ...], label, tile index, spots [[lat, lng], ...] where its pieces stand
        [
            [_latlng(p) for p in part.polygon],
            sid(label),
            tile_index[location],
            [_latlng(p) for p in part.spots],
        ]
        for location, label, part in parts.values()
    ]
    xmin, ymin, xmax, ymax = world.bounds()
    if columns:  # the grid's names sit outside it: the first view shows them too
        xmin, ymax = xmin - 2 * AXIS_MARGIN, ymax + 2 * AXIS_MARGIN
    drawn: dict[str, Any] = {"inner": inner} if inner else {}  # only a world with inner places has it
    if marked:
        drawn["markedPlaces"] = game.ruleset.marked_place_name
    return {
        **drawn,
        "bounds": [[ymin, xmin], [ymax, xmax]],
        "axes": [[name, *_latlng(at)] for name, at in (*columns, *row_names)],
        "areas": areas,
        "markKinds": list(MARK_KINDS),
        "drawnKinds": list(DRAWN_KINDS),
        "marks": marks,
        "cell": cell_size(world),
        "world": world.kind,
        "factions": [{"id": f, "name": game.name_of(f), "color": history.colors[f]} for f in factions],
        "locations": {loc: [world[loc].center[1], world[loc].center[0]] for loc in sorted(used)},
        "labels": {loc: world[loc].label for loc in sorted(used)},
        "places": places,
        "kinds": list(kinds),
        "terrains": [[t, terrain_color(t)] for t in terrains],
        "tiles": tiles,
        "strings": list(strings),
        "turns": turns,
        "pieces": pieces,
        "holders": holders,
    }


def script_json(data: Any) -> str:
    """JSON that is safe inside a <script> element: no "</script>", no HTML comment openers."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"), sort_keys=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


DATA_ID = "campaign-map-data"
_DATA_SLOT = "</head>"


class _CampaignLayer(MacroElement):
    """Starts campaign-map.js on the folium map. Its template holds no data at all: branca renders a
    MacroElement's output again as template source, so the data goes into the page after rendering."""

    _template = Template(
        """
        {% macro script(this, kwargs) %}
        var data = JSON.parse(document.getElementById("DATA_ID").textContent);
        campaignMap({{ this._parent.get_name() }}, data);
        {% endmacro %}
        """.replace("DATA_ID", DATA_ID)
    )

    def __init__(self) -> None:
        super().__init__()
        self._name = "CampaignLayer"
        self._id = "pieces"


def world_map_html(history: History, assets: str, title: str) -> str:
    """The map page. ``assets`` is the relative URL of the site's campaign assets folder."""
    world = history.game.world
    xmin, ymin, xmax, ymax = world.bounds()
    figure = Figure(title=escape(title))  # branca prints the title as it is (a value, not template source)
    figure._id = "figure"
    fmap = folium.Map(
        crs="Simple",
        tiles=None,
        location=[(ymin + ymax) / 2, (xmin + xmax) / 2],
        zoom_start=0,
        min_zoom=-4,
        max_zoom=8,
        zoom_snap=0.25,
        zoom_delta=0.5,
        control_scale=False,
    )
    fmap._id = "world"
    # folium's default CDN links are replaced by the vendored Leaflet; nothing else is loaded.
    fmap.default_js = [("leaflet", f"{assets}/vendor/leaflet/leaflet.js")]
    fmap.default_css = [
        ("leaflet_css", f"{assets}/vendor/leaflet/leaflet.css"),
        ("campaign_map_css", f"{assets}/campaign-map.css"),
    ]
    figure.add_child(fmap)
    _CampaignLayer().add_to(fmap)
    script = Element(f'<script src="{escape(assets)}/campaign-map.js"></script>')
    script._id = "script"
    figure.header.add_child(script, name="campaign_map_js")
    # No icon of its own: without this line the browser asks the server for /favicon.ico.
    figure.header.add_child(Element('<link rel="icon" href="data:,">'), name="no_favicon")
    html = figure.render()
    # Let readers zoom the page on phones (folium forbids it), and say the page's language.
    html = html.replace(", maximum-scale=1.0, user-scalable=no", "")
    html = html.replace("<html>", '<html lang="en">', 1)
    html = "\n".join(line.rstrip() for line in html.splitlines() if line.strip()) + "\n"
    # The page's landmark and heading: the turn bar and the map live in <main>, named by a heading that
    # only screen readers show (the page around the frame shows its own).
    if html.count("<body>") != 1 or html.count("</body>") != 1:
        raise RuntimeError("folium's page has no single <body> to put the map's landmark in")
    heading = (
        '<main class="cm-main" aria-labelledby="cm-title">'  # a name: the page around it has a <main> too
        f'<h1 class="cm-visually-hidden" id="cm-title">{escape(title)}</h1>'
    )
    html = html.replace("<body>", "<body>\n" + heading, 1).replace("</body>", "</main>\n</body>", 1)
    # Only now, past every template, the data: JSON that cannot end its <script> element.
    if html.count(_DATA_SLOT) != 1:
        raise RuntimeError(f"folium's page has no single {_DATA_SLOT} to put the map data before")
    data = f'<script type="application/json" id="{DATA_ID}">{script_json(map_data(history))}</script>\n'
    return html.replace(_DATA_SLOT, data + _DATA_SLOT)
