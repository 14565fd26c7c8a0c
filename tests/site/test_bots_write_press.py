"""Bots write press (issue 22): a demo's newspaper, in every ruleset, carries signed articles with bodies,
and the paper does not print the same articles in issue after issue."""

from __future__ import annotations

import itertools
import re

import pytest

from resolver.engine.ruleset import RULESETS

from .demo import DemoSite, bot_demo_site

ARTICLE = re.compile(r'<div class="ck-press">\s*(.*?)\s*</div>', re.S)


@pytest.fixture(scope="module", params=list(RULESETS))
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    # The same folder as the other tests over every ruleset's demo, so the demo is built once.
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / request.param, request.param)


def issues(demo: DemoSite) -> dict[int, str]:
    pages = sorted((demo.root / "site/newspaper").glob("turn-*.md"))
    assert pages, "the demo has no newspaper"
    return {int(p.stem.split("-")[1]): p.read_text(encoding="utf-8") for p in pages}


def test_the_demo_newspaper_has_signed_articles_with_bodies(demo: DemoSite) -> None:
    papers = issues(demo)
    with_articles = {turn: ARTICLE.findall(text) for turn, text in papers.items() if ARTICLE.search(text)}
    # A bot tells a story now and then: most issues of a four-faction demo carry at least one.
    assert len(with_articles) * 2 >= len(papers), f"articles in turns {sorted(with_articles)} only"
    for turn, bodies in with_articles.items():
        text = papers[turn]
        assert "## From the factions" in text and "Signed: " in text, turn
        assert all(len(body) > 40 for body in bodies), (turn, bodies)
        # Words, not internals: no braces left unfilled, no snake_case, no id of a piece or a place.
        for body in bodies:
            assert not re.search(r"[{}]|\b[a-z]+_[a-z]+\b|\bp-[a-z]", body), (turn, body)


def test_the_articles_differ_from_issue_to_issue(demo: DemoSite) -> None:
    bodies = [(turn, tuple(ARTICLE.findall(text))) for turn, text in sorted(issues(demo).items())]
    bodies = [(turn, found) for turn, found in bodies if found]
    for (before, earlier), (after, later) in itertools.pairwise(bodies):
        assert earlier != later, f"the issues of turns {before} and {after} print the same articles"
    every = [body for _, found in bodies for body in found]
    assert len(set(every)) * 3 >= len(every) * 2, "most articles should be told once"
