"""Small truths a reader trips over on the built site (issue 20, point 19): page descriptions that read as
sentences, a place's history told as the chronicle tells it, missing orders apart from the GM's rulings,
battle dice in words that follow the roll and agree with the unit's name, a battle's rounds as a list
rather than a wall of text, and a feed whose links follow the site_url the GM set in mkdocs.yml."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from resolver import workflow
from resolver.publish.site import build_site
from resolver.publish.site import CONFIG_STUB
from resolver.engine.ruleset import RULESETS
from resolver.store.store import Store

from .demo import DemoSite, bot_demo_site
from .pagecheck import read_page

MOST_WORDS = 45  # the longest paragraph a chronicle page may hold: about six lines on a phone


@pytest.fixture(scope="module", params=list(RULESETS))
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    """Each ruleset's bot demo, as `campaign demo` and `campaign site` build it (shared with the browser
    tests when both run in one session)."""
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / request.param, request.param)


def article(path: Path) -> str:
    page = path.read_text(encoding="utf-8")
    return page[page.index("<article") : page.index("</article>")]


def description(path: Path) -> str:
    found = re.search(r'<meta name="description" content="([^"]*)"', path.read_text(encoding="utf-8"))
    assert found, path
    return html.unescape(found[1])


def brief(path: Path) -> list[str]:
    """The headlines a chronicle page lists "In brief"."""
    box = article(path)
    box = box[box.index('class="admonition brief"') :]
    box = box[: box.index("</ul>")]
    return [read_page(item).text.strip() for item in re.findall(r"<li>(.*?)</li>", box, re.S)]


def test_page_descriptions_read_as_sentences(demo: DemoSite) -> None:
    """A link to a turn pasted into a chat shows its headlines as sentences: "A. B.", never "A.; B"."""
    pages = sorted(demo.public.glob("chronicle/turn-*/index.html"))
    assert pages
    for page in pages:
        said = description(page)
        assert ".;" not in said and "!;" not in said and "?;" not in said, (page, said)
        assert said[-1] in ".!?…", (page, said)
        for line in brief(page)[:3]:
            assert (line if line[-1] in ".!?…" else line + ".") in said, (page, line, said)
        issue = demo.public / "newspaper" / page.parent.name / "index.html"
        assert description(issue) == said, issue


def place_events(page: Path) -> list[str]:
    """The lines under "What happened at …" on a place page."""
    body = article(page)
    body = body[body.index("What happened at") :]
    return [read_page(item).text.strip() for item in re.findall(r"<li>(.*?)</li>", body, re.S)]


def test_a_place_page_tells_each_event_as_the_chronicle_does(demo: DemoSite) -> None:
    """The chronicle tells three Levies mustered together in one sentence; the place's page does too,
    rather than the same line three times over."""
    pages = sorted(demo.public.glob("places/*/index.html"))
    assert bool(pages) == bool(Store(demo.root).game().ruleset.place_kinds)  # seasons names no places
    told = 0
    for page in pages:
        lines = place_events(page)
        told += len(lines)
        repeated = [line for i, line in enumerate(lines[1:]) if line == lines[i]]
        assert not repeated, (page, repeated)
        chronicle = {
            turn: read_page(article(demo.public / "chronicle" / f"turn-{turn}" / "index.html")).text
            for turn in {int(re.match(r"Turn (\d+):", line)[1]) for line in lines}  # type: ignore[index]
        }
        for line in lines:
            turn, sentence = re.match(r"Turn (\d+): (.*)", line, re.S).groups()  # type: ignore[union-attr]
            assert " ".join(sentence.split()) in " ".join(chronicle[int(turn)].split()), (page, line)
    assert told or not pages


def missing_orders_campaign(root: Path, ruleset: str) -> Path:
    """A turn in which one faction sends nothing and the GM tells a tale: the chronicle's source page."""
    workflow.new_campaign(root, ruleset, 2, workflow.default_factions(3, 2), name="Missing Orders")
    store = Store(root)
    game = store.game()
    silent = game.factions[-1]
    tale = {"campaign": game.campaign, "turn": 1, "faction": "gm"}
    comet = {"action": "narrate", "headline": "A comet", "text": "It burns over the hills for three nights."}
    tale["orders"] = [comet]  # type: ignore[assignment]
    (store.orders_dir / "gm.yaml").write_text(yaml.safe_dump(tale), encoding="utf-8")
    workflow.play_bot_turn(root, [f for f in game.factions if f != silent])
    build_site(root, run_mkdocs=False)
    return root / "site" / "chronicle" / "turn-1.md"


def sections(markdown: str) -> dict[str, str]:
    parts = re.split(r"^## (.+)$", markdown, flags=re.MULTILINE)
    return {title.strip(): body for title, body in zip(parts[1::2], parts[2::2], strict=True)}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_missing_orders_are_not_listed_as_gm_rulings(tmp_path: Path, ruleset: str) -> None:
    page = sections(missing_orders_campaign(tmp_path / ruleset, ruleset).read_text(encoding="utf-8"))
    assert "It burns over the hills" in page["GM rulings"]
    assert "No orders arrived from" not in page["GM rulings"]
    assert "No orders arrived from" in page["Missing orders"]


def battle_rolls(root: Path) -> list[tuple[int, dict]]:
    """Every logged shot of every battle and assault of a nations campaign, with its turn."""
    found = []
    for turn_folder in sorted((root / "campaign" / "turns").glob("0*")):
        events = yaml.safe_load((turn_folder / "events.yaml").read_text(encoding="utf-8")) if (
            turn_folder / "events.yaml"
        ).is_file() else {"events": []}
        for event in events["events"]:
            if event["kind"] in ("battle", "assault") and event.get("visibility") == "public":
                found += [(int(turn_folder.name), roll) for roll in event.get("rolls") or []]
    return found


@pytest.fixture(scope="module")
def nations_demo(tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / "nations", "nations")


def test_each_battle_shot_reads_as_a_hit_or_a_miss_whatever_the_units_are_called(nations_demo: DemoSite) -> None:
    """"Goldford's Spearmen misses" is bad grammar: each shot reads "A hit by … on …" or "A miss by … on …",
    as the die decided it."""
    shots = battle_rolls(nations_demo.root)
    assert shots, "the demo has no battle"
    for turn in sorted({turn for turn, _ in shots}):
        text = read_page(article(nations_demo.public / "chronicle" / f"turn-{turn}" / "index.html")).text
        assert not re.search(r"\b(?:hits|misses) [A-Z]", text), turn  # "Spearmen misses Hindach's …"
        lines = [line for line in text.splitlines() if re.match(r"\s*A (?:hit|miss) by ", line)]
        rolls = [roll for t, roll in shots if t == turn]
        assert len(lines) == len(rolls), turn
        for line, roll in zip(lines, rolls, strict=True):
            verdict = "A hit by " if roll["success"] else "A miss by "
            assert line.strip().startswith(verdict), (line, roll)
            assert f"needed: {roll['dice'][0]})" in line, (line, roll)


def paragraphs(page: Path) -> list[str]:
    return [read_page(p).text for p in re.findall(r"<p>(.*?)</p>", article(page), re.S)]


def test_no_chronicle_paragraph_is_a_wall_of_text_on_a_phone(demo: DemoSite) -> None:
    pages = sorted(demo.public.glob("chronicle/turn-*/index.html"))
    for page in pages:
        for paragraph in paragraphs(page):
            assert len(paragraph.split()) <= MOST_WORDS, (page, paragraph)


def test_a_battle_is_told_round_by_round_one_line_each(nations_demo: DemoSite) -> None:
    turns = sorted({turn for turn, _ in battle_rolls(nations_demo.root)})
    assert turns
    for turn in turns:
        body = article(nations_demo.public / "chronicle" / f"turn-{turn}" / "index.html")
        rounds = [read_page(item).text for item in re.findall(r"<li>(Round \d+:.*?)</li>", body, re.S)]
        assert rounds and rounds[0].startswith("Round 1:"), turn
        assert all(len(line.split()) <= MOST_WORDS for line in rounds)


def test_the_feed_links_the_site_url_the_gm_set_in_mkdocs_yml(tmp_path: Path) -> None:
    """The generated settings' site_url comes from campaign.yaml, but mkdocs.yml wins over them: the
    canonical links follow it, and so must the feed, or a feed reader gets links that lead nowhere."""
    root = tmp_path / "campaign"
    workflow.new_campaign(root, "nations", 2, workflow.default_factions(2, 2), name="Feed Test")
    workflow.play_bot_turn(root)
    (root / "mkdocs.yml").write_text(CONFIG_STUB + "site_url: https://example.org/war/\n", encoding="utf-8")
    build_site(root, run_mkdocs=False)
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ET.fromstring((root / "site" / "feed.xml").read_bytes())
    links = {link.get("rel"): link.get("href") for link in feed.findall(f"{atom}link")}
    assert links["self"] == "https://example.org/war/feed.xml"
    entry = feed.findall(f"{atom}entry")[0]
    hrefs = {link.get("rel"): link.get("href") for link in entry.findall(f"{atom}link")}
    assert hrefs == {
        "alternate": "https://example.org/war/newspaper/turn-1/",
        "related": "https://example.org/war/chronicle/turn-1/",
    }
    assert 'href="https://example.org/war/chronicle/turn-1/"' in html.unescape(entry.findtext(f"{atom}content", ""))
