"""The interactive world map: one folium page for the whole campaign, with a turn slider.

Terrain is drawn once by folium as GeoJSON polygons; what stands on the map (the
ruleset's ``map_pieces``) is stored per turn as compact data and drawn by
``campaign-map.js``, which the slider re-runs for the chosen turn. Pages embed the same
file in an iframe with ``#turn=N``, so a chronicle of 500 turns shares one map file.

Offline: Leaflet comes from the ``xstatic-leaflet`` package (the version folium pins) and
is copied into the site; folium's CDN links (jQuery, Bootstrap, Font Awesome) are dropped,
since nothing here uses them: tooltips and popups are plain Leaflet.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any

import folium
import xstatic.pkg.leaflet as xstatic_leaflet
from branca.element import Element, Figure, MacroElement
from jinja2 import Template

from ..core.world import World
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
}
_SPARE_COLORS = ("#d8c8e8", "#f2c6a0", "#c8dca0", "#e0b8b8", "#b8d8d8")


def terrain_color(terrain: str) -> str:
    if terrain in TERRAIN_COLORS:
        return TERRAIN_COLORS[terrain]
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
        near = [math.dist(loc.center, world[other].center) for other in loc.neighbours]
        if near:
            dists.append(min(near))
    dists.sort()
    return round(dists[len(dists) // 2], 3) if dists else 1.0


def map_data(history: History) -> dict[str, Any]:
    """Everything the map script needs, deduplicated: strings and locations are stored once."""
    game, world = history.game, history.game.world
    strings: dict[str, int] = {}
    kinds: dict[str, int] = {}
    factions = list(game.factions)
    used: set[str] = set()

    def sid(text: Any) -> int:
        return strings.setdefault(str(text or ""), len(strings))

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
                    factions.index(owner) if owner in factions else -1,
                    sid(p.get("label")),
                    sid(p.get("detail")),
                    int(p.get("size") or 1),
                ]
            )
        pieces.append(rows)
    places = []
    for loc in world.locations.values():
        if loc.place:
            places.append([loc.place, loc.center[1], loc.center[0], loc.label != loc.place])
    xmin, ymin, xmax, ymax = world.bounds()
    return {
        "bounds": [[ymin, xmin], [ymax, xmax]],
        "cell": cell_size(world),
        "world": world.kind,
        "factions": [{"id": f, "name": game.name_of(f), "color": history.colors[f]} for f in factions],
        "locations": {loc: [world[loc].center[1], world[loc].center[0]] for loc in sorted(used)},
        "labels": {loc: world[loc].label for loc in sorted(used)},
        "places": places,
        "kinds": list(kinds),
        "terrains": [
            [t, terrain_color(t)] for t in dict.fromkeys(loc.terrain for loc in world.locations.values())
        ],
        "strings": list(strings),
        "turns": turns,
        "pieces": pieces,
    }


def script_json(data: Any) -> str:
    """JSON that is safe inside a <script> element: no "</script>", no HTML comment openers."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"), sort_keys=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


class _CampaignLayer(MacroElement):
    """Hands the per-turn data to campaign-map.js, which draws pieces, slider and legend."""

    _template = Template(
        """
        {% macro script(this, kwargs) %}
        campaignMap({{ this._parent.get_name() }}, {{ this.data }});
        {% endmacro %}
        """
    )

    def __init__(self, data: Mapping[str, Any]) -> None:
        super().__init__()
        self._name = "CampaignLayer"
        self._id = "pieces"
        self.data = script_json(data)


def world_map_html(history: History, assets: str, title: str) -> str:
    """The map page. ``assets`` is the relative URL of the site's campaign assets folder."""
    world = history.game.world
    xmin, ymin, xmax, ymax = world.bounds()
    figure = Figure(title=escape(title))  # branca prints the title as it is
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
    terrain = folium.GeoJson(
        _terrain_geojson(world),
        name="Terrain",
        style_function=lambda f: {
            "fillColor": terrain_color(f["properties"]["terrain"]),
            "fillOpacity": 1.0,
            "color": "#6b6256",
            "weight": 0.6,
            "opacity": 0.5,
        },
        highlight_function=lambda f: {"weight": 2.5, "opacity": 1.0, "color": "#222222"},
        tooltip=folium.GeoJsonTooltip(
            fields=["label", "terrain", "place"], aliases=["Tile", "Terrain", "Place"], labels=True
        ),
        smooth_factor=0,
    )
    terrain._id = "terrain"
    terrain.add_to(fmap)
    layer = _CampaignLayer(map_data(history))
    layer.add_to(fmap)
    script = Element(f'<script src="{assets}/campaign-map.js"></script>')
    script._id = "script"
    figure.header.add_child(script, name="campaign_map_js")
    # No icon of its own: without this line the browser asks the server for /favicon.ico.
    figure.header.add_child(Element('<link rel="icon" href="data:,">'), name="no_favicon")
    html = figure.render()
    # Let readers zoom the page on phones (folium forbids it), and say the page's language.
    html = html.replace(", maximum-scale=1.0, user-scalable=no", "")
    html = html.replace("<html>", '<html lang="en">', 1)
    return "\n".join(line.rstrip() for line in html.splitlines() if line.strip()) + "\n"


def _terrain_geojson(world: World) -> dict[str, Any]:
    collection = world.to_geojson()
    for feature in collection["features"]:
        props = feature["properties"]
        # folium's tooltip writes these with innerHTML: escape them, and show "—" for no place.
        feature["properties"] = {
            "label": escape(str(props["label"])),
            "terrain": escape(str(props["terrain"])),
            "place": escape(str(props["place"])) if props.get("place") else "—",
        }
    return collection
