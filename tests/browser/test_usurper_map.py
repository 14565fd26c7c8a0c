"""Usurper's map in Chromium, open and sealed: the landmarks and the cities stand on it for every reader,
each named beside its marker; each kind of usurper piece has a shape of its own in the legend; and a
sealed campaign's public map holds those public places alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from resolver.store.store import Store

from ..sealed import demos
from ..site.demo import bot_demo_site
from .conftest import serve, watched_tab


@pytest.fixture(scope="module", params=["open", "sealed"])
def usurper_map(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The world map of usurper's demo (the bots' five weeks, open) or of its sealed demo, served; with the
    state whose public places it must show."""
    base = tmp_path_factory.getbasetemp()
    if request.param == "open":
        site = bot_demo_site(base / "demos" / "usurper", "usurper")
        public, state = site.public, Store(site.root).state()
    else:
        public = demos.sealed_site(base / "sealed-demos", "usurper")
        state = Store(public.parent).public_state()
    with serve(public) as url:
        yield request.param, url, state


def open_world_map(tab: Any, url: str) -> None:
    response = tab.goto(url + "map/world.html", wait_until="load")
    assert response is not None and response.status == 200
    tab.locator(".cm-piece").first.wait_for()
    if not tab.locator(".cm-legend[open]").count():
        tab.locator(".cm-legend summary").click()


def test_every_landmark_and_city_stands_on_the_map_with_its_name(browser: Any, usurper_map: Any) -> None:
    mode, url, state = usurper_map
    places = {str(landmark["name"]) for landmark in state["landmarks"].values()}
    places |= {str(city["name"]) for city in state["cities"].values()}
    assert len(places) >= 4 + 6  # the four landmarks of the round and the demo's cities
    with watched_tab(browser, 1366, 900) as (tab, _):
        open_world_map(tab, url)
        labels = tab.locator(".cm-piece").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
        # A marker stands for one piece ("name, tile": no owner, a place is everyone's) or a stack
        # ("2 pieces: name, tile; name, owner, tile").
        for name in places:
            named = re.compile(f"(^|: |; ){re.escape(name)}, [A-Z]")
            assert any(named.search(label) for label in labels), (mode, name, labels)
        # Each place's name is printed beside its marker (names that would overlap wait, hidden).
        shown = set(tab.locator(".cm-label span").all_text_contents())
        assert set(state["landmarks"][grid]["name"] for grid in state["landmarks"]) <= shown, (mode, shown)
        legend = tab.locator(".cm-legend li").all_inner_texts()
        assert {"City", "Landmark"} <= {text.strip() for text in legend}
        # One shape a kind: no two kinds of piece share a marker in the legend.
        shapes = tab.locator(".cm-legend li .cm-key svg").evaluate_all("els => els.map(e => e.innerHTML)")
        assert len(shapes) == len(set(shapes)), shapes
        if mode == "sealed":
            kinds = tab.locator(".cm-piece").evaluate_all(
                "els => [...new Set(els.map(e => [...e.classList].find(c => c.startsWith('cm-') &&"
                " !['cm-piece', 'cm-changed', 'cm-stack'].includes(c))))]"
            )
            assert set(kinds) == {"cm-city", "cm-landmark"}, kinds


def test_a_landmarks_popup_names_it_and_says_what_it_is(browser: Any, usurper_map: Any) -> None:
    _, url, state = usurper_map
    oracle = next(landmark["name"] for landmark in state["landmarks"].values() if landmark["id"] == "oracle")
    with watched_tab(browser, 1366, 900) as (tab, _):
        open_world_map(tab, url)
        named = re.compile(f"(^|: |; ){re.escape(oracle)}, [A-Z]")
        labelled = [
            m for m in tab.locator(".cm-landmark").all() if named.search(m.get_attribute("aria-label"))
        ]
        assert labelled
        labelled[0].dispatch_event("click")
        popup = tab.locator(".leaflet-popup-content .cm-info")
        popup.first.wait_for()
        text = popup.first.inner_text()
        assert oracle in text and "Landmark" in text and "ritual" in text, text
