"""Player names and texts are never template source, HTML or Markdown, on any page or on the map.

Every name and text a player (or the GM) chooses, in every ruleset, carries the probes of
``hostile.PROBES``. The site must build, and each probe must show on the pages as written.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from resolver.engine.ruleset import RULESETS
from resolver.store.store import Store

from .hostile import EVERY_PROBE, HEADLINE, PROBE_MARKS, PROBES, HostileSite, first_side, hostile_site
from .pagecheck import URL_ATTRIBUTES, Page, map_page_data, read_page


@pytest.fixture(scope="module", params=RULESETS)
def hostile(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> HostileSite:
    return hostile_site(tmp_path_factory.getbasetemp() / "hostile-sites", request.param)


def pages(site: HostileSite) -> dict[str, Page]:
    found = {
        path.relative_to(site.public).as_posix(): read_page(path.read_text(encoding="utf-8"))
        for path in sorted(site.public.rglob("*.html"))
    }
    assert "map/world.html" in found and "index.html" in found
    return found


def search_entries(site: HostileSite) -> dict[str, Page]:
    """The search index: the theme shows each entry's title and text as HTML."""
    index = json.loads((site.public / "search" / "search_index.json").read_text(encoding="utf-8"))
    return {
        f"search: {doc['location']} {part}": read_page(doc[part])
        for doc in index["docs"]
        for part in ("title", "text")
    }


def shown_as_written(where: str, page: Page) -> dict[str, int]:
    """Wherever a probe's first word shows, the whole probe shows: never "Probe 42", never a probe cut
    short by a template, a tag or Markdown (a missing ``*`` or backtick means emphasis or code)."""
    assert "Probe 42" not in page.text, where
    found = {}
    for probe, mark in zip(PROBES, PROBE_MARKS, strict=True):
        found[probe] = page.text.count(probe)
        assert page.text.count(mark) == found[probe], (where, probe, _around(page.text, mark))
    return found


def inert(where: str, page: Page) -> None:
    """The probes' scripts, event handlers and javascript: link are nowhere a browser would run them."""
    for tag, attrs in page.tags:
        for attr, value in attrs.items():
            if attr.startswith("on"):
                assert "ckHostile" not in value, (where, tag, attr, value)
            if attr in URL_ATTRIBUTES:
                assert not value.strip().lower().startswith("javascript:"), (where, tag, attr, value)
        assert not (tag == "img" and attrs.get("src") == "x"), where
    for attrs, body in page.scripts:
        if attrs.get("type") == "application/json":
            continue  # data, never run; see test_the_map_carries_every_name_as_data
        assert "ckHostile" not in body and "{{" not in body and "{%" not in body, (where, body[:200])


def test_every_page_shows_each_probe_exactly_as_written(hostile: HostileSite) -> None:
    seen: dict[str, int] = dict.fromkeys(PROBES, 0)
    for where, page in pages(hostile).items():
        for probe, count in shown_as_written(where, page).items():
            seen[probe] += count
    assert all(seen.values()), seen


def test_no_probe_becomes_an_element_a_link_or_a_script(hostile: HostileSite) -> None:
    for where, page in pages(hostile).items():
        inert(where, page)


def test_the_search_index_holds_names_as_text(hostile: HostileSite) -> None:
    seen: dict[str, int] = dict.fromkeys(PROBES, 0)
    for where, entry in search_entries(hostile).items():
        inert(where, entry)
        for probe, count in shown_as_written(where, entry).items():
            seen[probe] += count
    assert all(seen.values()), seen


def test_the_map_carries_every_name_as_data(hostile: HostileSite) -> None:
    """The map page holds the names only in its JSON data, which the map script shows as text."""
    page = (hostile.public / "map" / "world.html").read_text(encoding="utf-8")
    data, rest = map_page_data(page)
    game = Store(hostile.root).game()
    assert [f["name"] for f in data["factions"]] == [game.name_of(f) for f in game.factions]
    assert {f["name"] for f in data["factions"]} >= {" ".join(PROBES[:3]), *PROBES[3:]}
    if hostile.ruleset == "seasons":  # no piece has a chosen name: the nations' names are in the details
        for name in {f["name"] for f in data["factions"]} - {"The Piorad"}:
            assert any(text.endswith(f" of {name}") for text in data["strings"]), name
    elif hostile.ruleset == "diplomacy":  # no unit has a name: the powers' show in centres and builds told
        for name in {f["name"] for f in data["factions"]}:
            assert any(name in text for text in data["strings"]), name
    elif hostile.ruleset == "overlord":  # the public sees no unit: the map names them in its battles only
        battles = [text for text in data["strings"] if " attacks " in text]
        assert any(probe in text for text in battles for probe in PROBES), battles
    else:  # nations: the GM's settlements and the army; factions: the GM's lieutenants
        assert {EVERY_PROBE, *PROBES} <= set(data["strings"])
    for mark in PROBE_MARKS:
        assert mark not in rest  # no name anywhere in the page but in the data


def test_press_rumours_and_tales_show_in_full(hostile: HostileSite) -> None:
    found = pages(hostile)
    issue = found["newspaper/turn-1/index.html"].text
    assert HEADLINE in issue and EVERY_PROBE in issue  # a signed article and a rumour
    chronicle = found["chronicle/turn-1/index.html"].text
    assert HEADLINE in chronicle and EVERY_PROBE in chronicle  # the GM's tale, and its gifts' reasons
    first = found[f"factions/{first_side(hostile.ruleset)}/index.html"].text
    assert " ".join(PROBES[:3]) in first and EVERY_PROBE in first  # name, profile, and the GM's pieces
    assert all(probe in found["map/index.html"].text for probe in PROBES)


def _around(text: str, mark: str) -> str:
    at = text.find(mark)
    return text[max(0, at - 60) : at + 80] if at >= 0 else ""


def test_the_probes_reach_every_kind_of_name(hostile: HostileSite) -> None:
    """The campaign really carries the probes where players put names: a check of the test itself."""
    store = Store(hostile.root)
    state = store.state()
    raw = json.dumps(state)
    for probe in PROBES:
        assert probe in raw, probe
    if hostile.ruleset == "nations":
        units = [u["name"] for a in state["armies"].values() for u in a["units"]]
        assert set(PROBES) <= set(units)
        assert any(s["name"] in PROBES for s in state["settlements"].values())
    elif hostile.ruleset in ("seasons", "diplomacy"):  # players name only their nations, or their powers
        names = {record["name"] for record in state["factions"].values()}
        assert {" ".join(PROBES[:3]), *PROBES[3:]} <= names
    elif hostile.ruleset == "usurper":  # the GM's cities and a landmark; the players' notes
        assert {EVERY_PROBE, *PROBES} <= {city["name"] for city in state["cities"].values()}
        assert EVERY_PROBE in {landmark["name"] for landmark in state["landmarks"].values()}
    elif hostile.ruleset == "overlord":  # NAME and DESCRIBE lines of the players, the GM's bands
        units = state["units"].values()
        assert {EVERY_PROBE, *PROBES} <= {unit["name"] for unit in units}
        assert any(u["description"] == EVERY_PROBE and u["owner"] != "red" for u in units)
        assert any(f'CHRISTEN "{EVERY_PROBE}"' in unit["orders"] for unit in units)  # waiting for a structure
        assert EVERY_PROBE in str(Store(hostile.root).campaign_dir.joinpath("players.yaml").read_text("utf-8"))
    else:
        names = {a.get("name") for a in state["assets"].values()}
        assert set(PROBES) <= names
        assert EVERY_PROBE in {loc["name"] for loc in state["locations"].values()}
    orders = "\n".join(
        p.read_text(encoding="utf-8") for p in Path(hostile.root).rglob("turns/*/orders.yaml")
    )
    assert re.search(r"Probe \{\{ 6\*7 \}\}", orders)


def test_generated_markdown_holds_nothing_a_jinja_plugin_would_run(hostile: HostileSite) -> None:
    """A GM may add a plugin that reads every page as a Jinja template (mkdocs-macros): the pages
    ``campaign site`` writes give it no ``{{``, ``{%`` or ``{#``, whatever the players wrote."""
    sources = sorted(hostile.report.docs_dir.rglob("*.md"))
    assert len(sources) > 15
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for opening in ("{{", "{%", "{#"):
            assert opening not in text, (path, _around(text, opening))
