"""The pages tell the season's story in words (issue 22, section 2): a winter's tests summed up per
nation with one box of dice each, no internal id or snake_case word in any page's text, a page for every
province, the relations and commanders on the faction pages, NPCs apart from the players on the home
page, and bots that write press. Checked on each ruleset's bot demo site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from resolver.engine.ruleset import RULESETS
from resolver.store.store import Store

from ..conftest import archived_events
from .demo import DemoSite, bot_demo_site
from .pagecheck import read_page


@pytest.fixture(scope="module", params=list(RULESETS))
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    """Each ruleset's bot demo, as `campaign demo` and `campaign site` build it (shared with the other
    site and browser tests when they run in one session)."""
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / request.param, request.param)


@pytest.fixture(scope="module")
def seasons(tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / "seasons", "seasons")


def article(path: Path) -> str:
    page = path.read_text(encoding="utf-8")
    return page[page.index("<article") : page.index("</article>")]


def words_of(html: str) -> str:
    """What a reader reads, leaving out code and preformatted blocks: the order keywords and ids a player
    types into an order file are shown there on purpose."""
    html = re.sub(r"<(code|pre)\b.*?</\1>", " ", html, flags=re.S)
    return read_page(html).text


def section(html: str, title: str) -> str:
    """The HTML of a page's ``<h2>`` section by its title, up to the next ``<h2>``."""
    start = re.search(rf"<h2[^>]*>{re.escape(title)}", html)
    assert start, title
    rest = html[start.end() :]
    end = rest.find("<h2")
    return rest if end < 0 else rest[:end]


# -- a winter's tests ---------------------------------------------------------------------------------


def test_a_winter_sums_up_each_nations_tests_with_one_box_of_dice(seasons: DemoSite) -> None:
    body = article(seasons.public / "chronicle" / "turn-4" / "index.html")
    winter = section(body, "Disband or not")
    tested = {e["actors"][0] for e in _events(seasons.root, 4) if e["kind"] == "disband_test"}
    assert len(tested) >= 3
    assert winter.count('class="ck-dice"') == len(tested), "one box of dice per nation"
    text = words_of(winter)
    assert len(re.findall(r"tests (?:\w+) units? for the winter", text)) == len(tested)
    assert "'s unit of" not in text, "no unit is told on its own"


def _events(root: Path, turn: int) -> list[dict]:
    return [e for e in archived_events(root) if e["turn"] == turn]


# -- words, not internals -----------------------------------------------------------------------------

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
DICE_OF_NONE = re.compile(r"\b0d\d")
# "REP + 1 hits" and "+1 resources income" are bonuses added to a number, not counts.
ONE_PLURAL = re.compile(
    r"(?<![+\-−])(?<![+\-−] )\b1 (?:units|resources|rounds|hits|successes|dice|rolls|provinces|armies)\b"
)


def internal_ids(root: Path) -> set[str]:
    """Every id of the campaign's state a reader must never see: armies, units, commanders, provinces."""
    store = Store(root)
    state = store.state()
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("id"), str) and "-" in value["id"]:
                found.add(value["id"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk({k: v for k, v in state.items() if k != "factions"})
    return found | {loc for loc in store.game(state).world if "-" in loc}


def test_no_page_shows_an_internal_id_or_a_snake_case_word(demo: DemoSite) -> None:
    ids = internal_ids(demo.root)
    pages = sorted(demo.public.rglob("*.html"))
    checked = 0
    for path in pages:
        html = path.read_text(encoding="utf-8")
        if "<article" not in html:
            continue
        text = words_of(article(path))
        checked += 1
        where = path.relative_to(demo.public)
        assert not SNAKE.search(text), (where, SNAKE.search(text))
        assert not DICE_OF_NONE.search(text), (where, "dice of none")
        assert not ONE_PLURAL.search(text), (where, ONE_PLURAL.search(text))
        shown = {i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)}
        assert not shown, (where, sorted(shown)[:5])
    assert checked > 20


# -- a page for every province ------------------------------------------------------------------------


def test_every_province_has_a_place_page_with_its_holder(seasons: DemoSite) -> None:
    state = Store(seasons.root).state()
    game = Store(seasons.root).game(state)
    index = words_of(article(seasons.public / "places" / "index.html"))
    assert "No place yet" not in index
    for pid in state["provinces"]:
        assert game.place_label(pid) in index, pid
    taken = {e["place"] for e in archived_events(seasons.root) if e["kind"] == "province_taken"}
    assert taken, "the demo takes no province"
    for pid in taken:
        label = game.place_label(pid)
        pages = [
            p
            for p in seasons.public.glob("places/*/index.html")
            if re.search(rf"<h1[^>]*>{re.escape(label)}", article(p))
        ]
        text = words_of(article(pages[0])) if pages else ""
        assert "Who held it when" in text and "What happened at" in text, pid


# -- relations and commanders on the faction pages ----------------------------------------------------


def test_faction_pages_show_relations_with_their_end_and_the_commanders_fallen_too(seasons: DemoSite) -> None:
    state = Store(seasons.root).state()
    game = Store(seasons.root).game(state)
    for faction in state["factions"]:
        html = article(seasons.public / "factions" / faction / "index.html")
        relations = words_of(section(html, "Relations"))
        for relation in state["relations"].values():
            if faction in relation["parties"]:
                assert f"until turn {relation['until']}" in relation_text(relations, game, relation, faction)
        commanders = words_of(section(html, "Commanders"))
        for commander in state["commanders"].values():
            if commander["owner"] == faction and not commander.get("levy"):
                assert commander["name"] in commanders, (faction, commander["name"])
    fallen = [
        e
        for e in archived_events(seasons.root)
        if (e["kind"] == "leader_check" and e["data"]["died"])
        or (e["kind"] == "marshal_fate" and e["data"]["result"] == "died")
    ]
    for event in fallen:
        page = words_of(
            section(article(seasons.public / "factions" / event["actors"][0] / "index.html"), "Commanders")
        )
        assert f"{event['data']['commander_name']}, " in page and f"died in turn {event['turn']}" in page


def relation_text(text: str, game, relation: dict, faction: str) -> str:  # type: ignore[no-untyped-def]
    other = next(p for p in relation["parties"] if p != faction)
    return next(line for line in text.splitlines() if game.name_of(other) in line)
