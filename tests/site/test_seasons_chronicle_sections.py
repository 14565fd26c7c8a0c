"""The seasons chronicle's sections (issue 22, section 2): no two sections of a turn share a title (winter
checks national morale twice), and a Marshal's attributes are not told under "Recruiting rolls". Checked
on the seasons bot demo's site."""

from __future__ import annotations

import html as markup
import re
from collections import Counter

import pytest

from .demo import DemoSite, bot_demo_site


@pytest.fixture(scope="module")
def seasons(tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / "seasons", "seasons")


def _title(heading: str) -> str:
    """A heading's words, without its tags and the permalink mark the site adds to it."""
    return markup.unescape(re.sub(r"<[^>]+>", "", heading)).replace("¶", "").strip()


def _sections(html: str) -> dict[str, str]:
    """Each ``<h2>`` section of a page by its title (the text of the heading), up to the next one."""
    found = list(re.finditer(r"<h2[^>]*>(.*?)</h2>", html, flags=re.S))
    return {
        _title(m[1]): html[m.end() : found[i + 1].start() if i + 1 < len(found) else None]
        for i, m in enumerate(found)
    }


def test_no_chronicle_page_has_two_sections_of_one_title(seasons: DemoSite) -> None:
    pages = sorted(seasons.public.glob("chronicle/turn-*/index.html"))
    assert len(pages) >= 5
    winters = 0
    for page in pages:
        html = page.read_text(encoding="utf-8")
        titles = [_title(m) for m in re.findall(r"<h2[^>]*>(.*?)</h2>", html, flags=re.S)]
        doubled = [title for title, count in Counter(titles).items() if count > 1]
        assert not doubled, (page.parent.name, doubled)
        winters += any(title.startswith("Disband or not") for title in titles)
    assert winters, "the demo plays no winter"


def test_a_marshals_attributes_are_not_told_under_recruiting_rolls(seasons: DemoSite) -> None:
    html = (seasons.public / "chronicle" / "turn-1" / "index.html").read_text(encoding="utf-8")
    sections = _sections(html)
    told = [title for title, body in sections.items() if "is known for:" in body]
    assert told, "the demo names no Marshal in turn 1"
    assert "Recruiting rolls" not in told, told
