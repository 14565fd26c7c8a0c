"""The world map page: offline, escaped, and drawn for square, hex and province worlds."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import escape
from types import SimpleNamespace

import folium
import pytest
import xstatic.pkg.leaflet as xstatic_leaflet

from resolver.core.world import generate_hex, generate_provinces, generate_square
from resolver.publish.history import TurnRecord
from resolver.engine.ruleset import Ruleset
from resolver.publish.maps import folium_leaflet_version, leaflet_files, map_data, script_json, world_map_html

from .pagecheck import map_page_data

WORLDS = {
    "square": lambda: generate_square(4, 6, 5),
    "hex": lambda: generate_hex(4, 7, 5),
    "province": lambda: generate_provinces(4, 9, 20, 14),
}


def fake_history(world):
    """The parts of a History the map reads: two turns, pieces moving between them."""
    first, second = list(world.locations)[:2]
    piece = {"kind": "army", "owner": "red", "label": "</script><b>Host</b>", "detail": "3 troops", "size": 3}
    town = {
        "kind": "settlement",
        "location": first,
        "owner": None,
        "label": "Oldtown",
        "detail": "",
        "size": 2,
    }
    game = SimpleNamespace(
        world=world, factions=("red",), name_of=lambda f: {"red": "Red <i>"}.get(f, f), ruleset=Ruleset()
    )
    records = [
        TurnRecord(0, None, [], [], [{**piece, "location": first}, town]),
        TurnRecord(1, SimpleNamespace(label="Spring, Year 1"), [], [], [{**piece, "location": second}]),
    ]
    return SimpleNamespace(game=game, colors={"red": "#c0392b"}, records=records, state={})


@pytest.mark.parametrize("kind", WORLDS)
def test_map_data_places_every_piece_on_a_known_location(kind: str) -> None:
    world = WORLDS[kind]()
    data = map_data(fake_history(world))
    assert data["world"] == kind
    assert [len(turn) for turn in data["pieces"]] == [2, 1]
    for turn in data["pieces"]:
        for loc, kind_index, owner, label, _detail, size, _area in turn:
            assert loc in data["locations"] and loc in world
            assert data["kinds"][kind_index] in ("army", "settlement")
            assert owner in (-1, 0) and size >= 1
            assert data["strings"][label]
    (ymin, xmin), (ymax, xmax) = data["bounds"]
    for y, x in data["locations"].values():
        assert xmin <= x <= xmax and ymin <= y <= ymax


@pytest.mark.parametrize("kind", WORLDS)
def test_map_page_loads_only_local_files_and_holds_every_polygon(kind: str) -> None:
    world = WORLDS[kind]()
    page = world_map_html(fake_history(world), "../assets/campaign", "Map <of> it")
    for url in re.findall(r'(?:src|href)="([^"]*)"', page):
        assert url.startswith("../assets/campaign/") or url == "data:,", url  # data:, is "no favicon"
    assert "http://" not in page and "https://" not in page
    assert "</script><b>" not in page  # player text stays inside its JSON string
    data, _ = map_page_data(page)
    assert len(data["tiles"]) == len(world)
    assert {tile[1] for tile in data["tiles"]} == {loc.label for loc in world.locations.values()}
    assert "<title>Map &lt;of&gt; it</title>" in page
    assert "user-scalable=no" not in page and '<html lang="en">' in page


def test_map_page_is_deterministic() -> None:
    history = fake_history(WORLDS["hex"]())
    assert world_map_html(history, "a", "t") == world_map_html(history, "a", "t")


def test_vendored_leaflet_matches_the_version_folium_links() -> None:
    assert folium_leaflet_version() == xstatic_leaflet.VERSION
    assert "leaflet" in dict(folium.Map.default_js)
    files = leaflet_files()
    assert {"leaflet.js", "leaflet.css"} <= set(files) and any(p.startswith("images/") for p in files)


TEMPLATE_PROBES = ("Probe {{ 6*7 }}", "Broken {{", "{%", "{% raw %}", "{#", "}}", "<script>alert(1)</script>")


@pytest.mark.parametrize("kind", WORLDS)  # the seasons' province world too
@pytest.mark.parametrize("probe", TEMPLATE_PROBES)
def test_names_on_the_map_are_data_never_template_source(probe: str, kind: str) -> None:
    """branca renders folium's output again as a Jinja template: no name may be in that output. Before
    the fix, a settlement called "Probe {{ 6*7 }}" showed as "Probe 42" and one called "Broken {{" broke
    the build."""
    world = WORLDS[kind]()
    first = next(iter(world.locations))
    world.locations[first] = replace(world.locations[first], label=probe, place=probe)
    history = fake_history(world)
    history.records[0].pieces[1]["label"] = probe  # the settlement
    history.game.name_of = lambda faction: probe
    page = world_map_html(history, "../assets/campaign", probe)
    assert "Probe 42" not in page
    data, rest = map_page_data(page)
    assert data["factions"][0]["name"] == probe
    assert probe in data["strings"]
    assert any(place[0] == probe for place in data["places"])
    assert any(tile[1] == probe and tile[3] == probe for tile in data["tiles"])
    title = f"<title>{escape(probe)}</title>"  # the page title, a value in branca's template, escaped
    heading = f'id="cm-title">{escape(probe)}</h1>'  # the same, escaped, added after branca's rendering
    assert rest.count(title) == 1 and rest.count(heading) == 1
    outside = rest.replace(title, "").replace(heading, "")
    assert probe not in outside and escape(probe) not in outside


def test_the_map_page_has_a_named_main_landmark_and_a_heading() -> None:
    """Screen readers reach the map page (the map's frame) by its landmark and heading: the turn bar and
    the map are inside one <main>, named by an <h1> that shows only to them."""
    page = world_map_html(fake_history(WORLDS["square"]()), "../assets/campaign", "Map <of> it")
    body = page[page.index("<body>") : page.index("</body>")]
    assert body.count("<main") == 1 and body.count("</main>") == 1 and page.count("<h1") == 1
    main = body[body.index("<main") : body.index("</main>")]
    assert 'aria-labelledby="cm-title"' in main
    assert '<h1 class="cm-visually-hidden" id="cm-title">Map &lt;of&gt; it</h1>' in main
    assert 'class="folium-map"' in main


def test_script_json_cannot_close_the_script_element() -> None:
    text = script_json({"label": "</script><script>alert(1)</script> & <!--"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["label"].startswith("</script>")
