"""The site as readers read it (issue 13): prose a person would write, a battle told round by round,
varied headlines, formatted articles, the feed, per-faction articles, the home page's deadline and
orders, link previews, the orders and places archives, and chart keys. Checked on built pages."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver import workflow
from resolver.engine.bots import bot_order_file
from resolver.core import canonical
from resolver.publish.site import build_site
from resolver.publish.pages import read_welcome, repository_links
from resolver.store.store import Store

from .demo import TURNS, DemoSite, play_campaign
from .hostile import HostileSite, hostile_site
from .pagecheck import read_page
from resolver.store import replay

NAMES = {"red": "Thornwyn", "blue": "Ashgrove", "green": "Velloran", "gold": "Marrowgate"}
FORMATTED = (
    "We **stand** firm and *wait*.\n\n- first point\n- second point\n\n"
    "Read [the charter](https://example.org/charter) or [this](javascript:alert(9)) <b>bold</b> {{ 7*7 }}"
)
SITE_URL = "https://example.org/camp/"
REPOSITORY = "https://github.com/example/campaign"
FACTION_TURNS = 3
INTERNAL_ID = re.compile(r"\b(?:red|blue|green|gold)-[a-z]\d+\b|\bstatic_assets\b")


@dataclass(frozen=True)
class FactionSite:
    root: Path
    public: Path


@pytest.fixture(scope="module")
def factions_site(tmp_path_factory: pytest.TempPathFactory) -> FactionSite:
    """A factions campaign with plain names, a formatted article and one without a body, a repository and
    a site_url in its settings, and one faction's orders for the current turn already in orders/."""
    root = tmp_path_factory.mktemp("prose") / "campaign"
    players = {"factions": {f: {"name": n} for f, n in NAMES.items()}}

    def edit(turn: int, faction: str, doc: dict[str, Any]) -> None:
        if turn == 2 and faction == "red":
            doc["press"] = [
                {"headline": "A word from Thornwyn", "body": FORMATTED},
                {"headline": "Thornwyn says nothing more", "body": ""},
            ]

    play_campaign(root, "factions", 5, "Prose Test", players, FACTION_TURNS, edit, lambda *_: [])
    config_path = root / "campaign" / "campaign.yaml"
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    config.update(repository=REPOSITORY, site_url=SITE_URL)
    config_path.write_text(yaml.safe_dump(config), encoding="utf-8")
    store = Store(root)
    state = store.state()
    game = store.game(state)
    canonical.write_atomic(store.orders_dir / "blue.yaml", bot_order_file(game, state, "blue").raw)
    report = build_site(root)
    assert report.out is not None
    return FactionSite(root, report.out)


def article_text(path: Path) -> str:
    """The words of a page's main article, as a reader sees them."""
    page = path.read_text(encoding="utf-8")
    body = page[page.index("<article") : page.index("</article>")]
    return read_page(body).text


def chronicle_pages(public: Path) -> list[Path]:
    return sorted(public.glob("chronicle/turn-*/index.html"))


# -- the chronicle ----------------------------------------------------------------------------------------


def test_chronicle_and_newspaper_name_things_never_by_internal_id(
    site: DemoSite, factions_site: FactionSite
) -> None:
    pages = [
        *chronicle_pages(site.public),
        *chronicle_pages(factions_site.public),
        *sorted(site.public.glob("newspaper/turn-*/index.html")),
        *sorted(factions_site.public.glob("newspaper/turn-*/index.html")),
    ]
    assert len(pages) == 2 * (TURNS + FACTION_TURNS)
    for path in pages:
        text = article_text(path)
        assert not INTERNAL_ID.search(text), (path, INTERNAL_ID.search(text))
        assert not re.search(r"population (?:red|blue|green|gold) loses", text), path


def test_counts_agree_with_their_nouns(site: DemoSite) -> None:
    singular_wrong = re.compile(r"\b1 (?:units|troops|rounds|hits|attacks|resources|successes)\b")
    texts = [article_text(p) for p in [*chronicle_pages(site.public), site.public / "map" / "index.html"]]
    for text in texts:
        assert not singular_wrong.search(text), singular_wrong.search(text)
    assert any(re.search(r"\b1 (?:unit|troop|round|hit|attack)\b", t) for t in texts)


def test_repeated_events_are_told_once(site: DemoSite) -> None:
    merged = 0
    for path in chronicle_pages(site.public):
        for paragraph in re.findall(r"<p>(.*?)</p>", path.read_text(encoding="utf-8"), re.S):
            paragraph = read_page(paragraph).text
            sentences = [s.strip() for s in re.split(r"(?<=\.)\s+", paragraph) if s.strip()]
            repeats = [s for i, s in enumerate(sentences[1:]) if s == sentences[i]]
            assert not repeats, (path, repeats)
        merged += len(
            re.findall(r"musters (?:two|three|four|five|six|seven|eight|nine|ten) ", article_text(path))
        )
    assert merged, "no muster of several units was told as one sentence"


def test_a_battle_gets_a_paragraph_with_its_rounds_and_its_dice_in_a_fold(site: DemoSite) -> None:
    told = []
    battle = r"<p>(.*?)</p>\s*<ul>(.*?)</ul>\s*<details class=\"ck-dice\">(.*?)</details>"
    for path in chronicle_pages(site.public):
        page = path.read_text(encoding="utf-8")
        for found in re.finditer(battle, page, re.S):
            if "Round 1:" in found[2]:
                told.append((path, read_page(found[2]).text, read_page(found[3]).text))
    assert told, "no battle or assault paragraph with its rounds"
    for path, rounds, dice in told:
        assert re.search(r"Round 1: .+ lands \d+ hits? in \d+ attacks?", rounds), rounds
        assert re.search(r"\(1d10, \d+ or more needed: \d+\)", dice), dice
        assert not INTERNAL_ID.search(dice), (path, dice)


def test_headlines_vary_from_turn_to_turn_and_stay_put_on_a_rebuild(site: DemoSite) -> None:
    store = Store(site.root)
    game = store.game()
    event = {
        "kind": "settlement_founded",
        "phase": "orders",
        "actors": ["red"],
        "place": next(iter(game.world.locations)) if hasattr(game.world, "locations") else "A1",
        "data": {"settlement": "Unach", "type": "farming"},
        "visibility": "public",
    }
    worded = {game.ruleset.headline(event, game, turn)[1] for turn in range(1, 13)}  # type: ignore[index]
    assert len(worded) >= 2, worded
    assert game.ruleset.headline(event, game, 4) == game.ruleset.headline(event, game, 4)
    # The same headlines on every build: the site's own rebuild test compares every byte; here, the pages.
    first = [article_text(p) for p in sorted(site.public.glob("newspaper/turn-*/index.html"))]
    build_site(site.root)
    assert first == [article_text(p) for p in sorted(site.public.glob("newspaper/turn-*/index.html"))]


def test_the_interpretation_does_not_repeat_in_brief(factions_site: FactionSite) -> None:
    for path in chronicle_pages(factions_site.public):
        page = path.read_text(encoding="utf-8")
        brief = page[page.index("In brief") : page.index("</div>", page.index("In brief"))]
        lines = [html.unescape(li) for li in re.findall(r"<li>(.*?)</li>", brief)]
        assert lines, path
        text = article_text(path)
        for line in lines:
            assert text.count(read_page(line).text) == 1, (path, line)


# -- the newspaper ----------------------------------------------------------------------------------------


def issue(public: Path, turn: int) -> str:
    return (public / "newspaper" / f"turn-{turn}" / "index.html").read_text(encoding="utf-8")


def test_articles_keep_a_safe_subset_of_formatting(factions_site: FactionSite) -> None:
    page = issue(factions_site.public, 2)
    boxes = [part[: part.index("</div>")] for part in page.split('<div class="ck-press">')[1:]]
    box = next(b for b in boxes if "stand" in b)  # the player's article, among the bots'
    assert "<strong>stand</strong>" in box and "<em>wait</em>" in box
    assert "<ul><li>first point</li><li>second point</li></ul>" in box
    assert '<a href="https://example.org/charter" rel="nofollow noopener ugc">the charter</a>' in box
    assert "javascript:" not in re.sub(r"\[this\]\(javascript:alert\(9\)\)", "", box)
    assert "[this](javascript:alert(9))" in box  # shown as the text it is
    assert "&lt;b&gt;bold&lt;/b&gt;" in box and "<b>" not in box
    assert "&#123;&#123; 7*7 &#125;&#125;" in box and "49" not in box


def test_hostile_article_text_is_formatted_but_never_run(site: DemoSite) -> None:
    hostile: HostileSite = hostile_site(site.root.parent.parent / "hostile-sites", "nations")
    pages = [p.read_text(encoding="utf-8") for p in hostile.public.glob("newspaper/turn-*/index.html")]
    box = next(p for p in pages if "Formatted" in p)
    shown = read_page(box).text
    assert "Formatted {% raw %} | em __b__ `c` {{ 6*7 }}" in shown and "<em>em</em>" in box
    assert "<script>window" not in box and "Probe 42" not in shown


def test_an_article_without_a_body_shows_no_empty_box(factions_site: FactionSite) -> None:
    page = issue(factions_site.public, 2)
    article = next(a for a in page.split("<article")[1:] if "Thornwyn says nothing more" in a)
    after = article[article.index("Thornwyn says nothing more") :]
    before_next = re.split(r"</article>|<h3", after, maxsplit=1)[0]  # up to the next article's headline
    assert '<div class="ck-press">' not in before_next
    assert "Signed: Thornwyn" in before_next


def test_the_issue_date_shows_once(site: DemoSite) -> None:
    store = Store(site.root)
    game = store.game()
    for turn in range(1, TURNS + 1):
        label = game.calendar.date(turn).label
        page = issue(site.public, turn)
        main = read_page(page[page.index("<main") : page.index("</main>")]).text
        assert main.count(label) == 1, (turn, main.count(label))


def test_the_feed_is_atom_with_an_entry_per_turn_and_every_page_links_it(factions_site: FactionSite) -> None:
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ET.fromstring((factions_site.public / "feed.xml").read_bytes())
    assert feed.tag == f"{atom}feed"
    entries = feed.findall(f"{atom}entry")
    assert len(entries) == FACTION_TURNS
    for entry, turn in zip(entries, range(FACTION_TURNS, 0, -1), strict=True):
        assert entry.findtext(f"{atom}title", "").startswith(f"Turn {turn}, ")
        links = {link.get("rel"): link.get("href") for link in entry.findall(f"{atom}link")}
        assert links["alternate"] == f"{SITE_URL}newspaper/turn-{turn}/"
        assert links["related"] == f"{SITE_URL}chronicle/turn-{turn}/"
        assert entry.findtext(f"{atom}id") and entry.findtext(f"{atom}updated")
    for path in [factions_site.public / "index.html", *chronicle_pages(factions_site.public)]:
        head = path.read_text(encoding="utf-8").split("</head>")[0]
        assert (
            f'<link rel="alternate" type="application/atom+xml" title="Prose Test: every turn" href="{SITE_URL}feed.xml">'
            in head
        )


def test_each_faction_has_a_page_of_its_articles(factions_site: FactionSite) -> None:
    page = (factions_site.public / "newspaper" / "factions" / "red" / "index.html").read_text(
        encoding="utf-8"
    )
    assert "Articles by Thornwyn" in page
    assert "A word from Thornwyn" in page and "Thornwyn says nothing more" in page
    assert "<strong>stand</strong>" in page
    other = (factions_site.public / "newspaper" / "factions" / "green" / "index.html").read_text(
        encoding="utf-8"
    )
    assert "A word from Thornwyn" not in other
    faction_page = (factions_site.public / "factions" / "red" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../newspaper/factions/red/">All articles by Thornwyn</a>' in faction_page
    assert 'href="../factions/red/">all articles by Thornwyn</a>' in issue(factions_site.public, 2)


# -- home and navigation ----------------------------------------------------------------------------------


def test_home_lists_who_sent_orders_which_id_is_whose_and_the_repository(factions_site: FactionSite) -> None:
    text = article_text(factions_site.public / "index.html")
    assert "Ashgrove: sent" in text
    for faction in ("red", "green", "gold"):
        assert f"{NAMES[faction]}: not sent yet" in text
    assert "1 of 4 sent" in text
    for faction, name in NAMES.items():
        assert re.search(rf"{name}\s*{faction}\s*orders/{faction}\.yaml", text), faction
    page = (factions_site.public / "index.html").read_text(encoding="utf-8")
    assert f'href="{REPOSITORY}"' in page and f'href="{REPOSITORY}/compare"' in page


def test_home_without_a_repository_has_no_repository_links(site: DemoSite) -> None:
    page = (site.public / "index.html").read_text(encoding="utf-8")
    assert "opening a pull request" not in page
    assert repository_links({"repository": "javascript:alert(1)"}) == {}
    assert repository_links({"repository": "https://gitlab.com/a/b/"}) == {
        "repository": "https://gitlab.com/a/b",
        "pull_request": "https://gitlab.com/a/b/-/merge_requests/new",
    }


def test_the_home_page_ships_no_placeholder_welcome(site: DemoSite, tmp_path: Path) -> None:
    assert read_welcome(tmp_path) == ""
    assert "This text comes from" not in (site.public / "index.html").read_text(encoding="utf-8")


def test_site_url_gives_canonical_links_previews_and_a_real_sitemap(factions_site: FactionSite) -> None:
    page = (factions_site.public / "chronicle" / "turn-2" / "index.html").read_text(encoding="utf-8")
    head = page.split("</head>")[0]
    url = f"{SITE_URL}chronicle/turn-2/"
    assert f'<link rel="canonical" href="{url}">' in head
    assert f'<meta property="og:url" content="{url}">' in head
    label = Store(factions_site.root).game().calendar.date(2).label
    assert f'<meta property="og:title" content="Turn 2: {label}">' in head
    description = re.search(r'<meta property="og:description" content="([^"]+)">', head)
    assert description and len(description[1]) > 10
    sitemap = (factions_site.public / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<loc>{url}</loc>" in sitemap


# -- archive pages ----------------------------------------------------------------------------------------


def test_each_turn_has_its_orders_as_the_engine_read_them(site: DemoSite) -> None:
    store = Store(site.root)
    replayed = {r.turn: r for r in replay.replay_archive(store, TURNS)}
    for turn in (1, TURNS):
        page = (site.public / "chronicle" / "orders" / f"turn-{turn}" / "index.html").read_text(
            encoding="utf-8"
        )
        assert replayed[turn].orders
        for faction, of in replayed[turn].orders.items():
            lines = of.echo_lines()
            assert lines, faction
            for line in lines:
                assert html.escape(line) in page, (turn, faction, line)
        chronicle = (site.public / "chronicle" / f"turn-{turn}" / "index.html").read_text(encoding="utf-8")
        assert f'href="../orders/turn-{turn}/"' in chronicle


def test_each_settlement_has_a_page_with_who_held_it_when(site: DemoSite) -> None:
    store = Store(site.root)
    state = store.state()
    index = (site.public / "places" / "index.html").read_text(encoding="utf-8")
    for settlement in state["settlements"].values():
        assert html.escape(settlement["name"]) in index, settlement["name"]
    founded = [p for p in sorted(site.public.glob("places/*/index.html")) if "founds" in article_text(p)]
    assert founded, "no place page tells its founding"
    text = article_text(founded[0])
    assert "Who held it when" in text and "settlement, level" in text


def test_faction_charts_have_a_key_for_every_line(factions_site: FactionSite) -> None:
    page = (factions_site.public / "factions" / "red" / "index.html").read_text(encoding="utf-8")
    key = page[page.index('<ul class="ck-key"') : page.index("</ul>", page.index('<ul class="ck-key"'))]
    text = read_page(key).text
    others = [NAMES[f] for f in Store(factions_site.root).game().factions if f != "red"]
    assert "Thornwyn" in text and f"Grey lines: {', '.join(others)}" in text
    # Every chart says what it shows in words: "static assets", never the column's id.
    assert "static_assets" not in article_text(factions_site.public / "factions" / "red" / "index.html")
