"""A sealed campaign's site in Chromium: it loads, no private text is anywhere in it, and axe-core finds no
accessibility failure, on a phone or a laptop, on the pages of each ruleset's sealed demo that a sealed
campaign words differently, nor on its first and last turn (the open demos' sweep in test_accessibility
reads every other kind of page)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from resolver import workflow
from resolver.core import canonical
from resolver.engine.ruleset import RULESETS
from resolver.publish.site import build_site
from resolver.store import sealing
from resolver.store.store import Store

from ..sealed import demos
from .conftest import serve, watched_tab
from .test_accessibility import (
    ARTIFACTS,
    TOUCH,
    VIEWPORTS,
    describe,
    in_order,
    kind_ends,
    open_page,
    page_type,
    run_axe,
    site_pages,
)

SECRET = "MARKER-PRIVATE-5e1d"
TURNS = 3


@pytest.fixture(scope="module")
def sealed_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, list[str]]]:
    root = tmp_path_factory.mktemp("sealed-site")
    key, _ = sealing.new_key()
    factions = workflow.default_factions(3, 4)
    workflow.new_campaign(
        root, "factions", 4, factions, name="Sealed Site", key=key, sealed=True, beacon_name="test"
    )
    (root / "key.txt").write_text(key + "\n")
    sealing.use_key_file(root / "key.txt")
    try:
        store = Store(root)
        for turn in range(1, TURNS + 1):
            gm = {
                "campaign": store.game().campaign,
                "turn": turn,
                "faction": "gm",
                "orders": [{"action": "narrate", "headline": f"{SECRET} {turn}", "to": ["red"]}],
            }
            sealed = sealing.encrypt(canonical.dump(gm), store.recipients())
            (root / "orders" / "gm.yaml.age").write_bytes(sealed)
            workflow.play_bot_turn(root)
        game = store.game()
        private = []
        for turn in range(1, TURNS + 1):
            events = canonical.load(store.read_secret(store.turns_dir / f"{turn:04d}" / "events.yaml") or b"")
            private += [
                game.ruleset.describe(e, game) for e in events["events"] if e["visibility"] != "public"
            ]
    finally:
        sealing.forget_key()
    build_site(root, None)  # without the key, as CI's site job would
    with serve(root / "public") as base:
        yield base, root / "public", private


def test_no_private_text_in_any_file_of_the_sealed_site(sealed_site: tuple[str, Path, list[str]]) -> None:
    _, public, private = sealed_site
    assert any(SECRET in sentence for sentence in private)  # the secrets exist, in the sealed archive
    texts = [
        p.read_text(errors="replace")
        for p in public.rglob("*")
        if p.suffix in (".html", ".json", ".xml", ".js", ".yaml")
    ]
    assert texts
    everything = "\n".join(texts)
    assert SECRET not in everything
    distinct = {s for s in private if len(s) > 40 and SECRET not in s}
    leaked = [s for s in distinct if s in everything]
    assert not leaked, leaked[:3]


def test_the_sealed_site_reads_in_chromium_without_private_text(
    browser: Any, sealed_site: tuple[str, Path, list[str]]
) -> None:
    base, _, _ = sealed_site
    context = browser.new_context(service_workers="block")
    errors: list[str] = []
    try:
        tab = context.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        for path in ("", *(f"chronicle/turn-{t}/" for t in range(1, TURNS + 1)), "newspaper/", "play/"):
            response = tab.goto(base + path, wait_until="load")
            assert response is not None and response.status == 200, path
            assert SECRET not in tab.locator("body").inner_text(), path
        assert "sealed" in tab.locator("body").inner_text().lower()  # How to play explains the mode
    finally:
        context.close()
    assert not errors


# The pages a sealed campaign words differently from an open one: the standings (the home page and the
# factions page), each faction's page (the charts of its public numbers), the orders page (the orders are
# sealed), the templates page (none is published), How to play and the rules, and the rules page that holds
# the table of what the seal keeps secret (a chapter of its own in a ruleset of many chapters).
SEALED_WORDING = ("", "factions/", "chronicle/orders/", "play/", "play/templates/", "rules/")
FOG_TABLE = "Only its owner sees"  # a heading of the table of what a sealed campaign keeps secret
# The turns' pages are filled from the public events alone (and a quiet turn's headline says no news
# reached the public): their first and last turn stand for the others.
PUBLIC_TURNS = ("chronicle/turn-N/", "newspaper/turn-N/")


def sealed_sweep(public: Path, pages: list[str]) -> list[str]:
    """The pages the sealed sweep checks: those a sealed campaign words differently (the factions' pages
    by their first and last), and the first and the last turn of the chronicle and the newspaper. The
    other pages come from the templates and the rules data an open campaign's pages come from, and
    test_accessibility reads them there."""
    ends = kind_ends(pages)
    # Each faction's page is filled from one record through one template: its first and last stand for
    # the others, as in the open sweep.
    chosen = {p for p in pages if p in SEALED_WORDING or (p.startswith("factions/") and p in ends)}
    fog = {p for p in pages if p.endswith("/") and FOG_TABLE in (public / p / "index.html").read_text()}
    assert fog, "no page holds the table of what a sealed campaign keeps secret"
    turns = {p for p in ends if page_type(p, pages) in PUBLIC_TURNS}
    assert len(turns) == 4, turns
    return sorted(chosen | fog | turns, key=in_order)


@pytest.fixture(scope="module", params=RULESETS)
def sealed_demo_served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str, Path]]:
    """The site of each ruleset's sealed demo (`campaign demo --sealed --turns 8`), built without the key."""
    public = demos.sealed_site(tmp_path_factory.getbasetemp() / "sealed-demos", request.param)
    with serve(public) as base:
        yield request.param, base, public


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_axe_finds_no_violation_on_any_page_of_a_sealed_site(
    browser: Any, sealed_demo_served: tuple[str, str, Path], axe_source: str, viewport: str
) -> None:
    """The pages a sealed campaign words differently (its standings, the sealed orders, the templates it
    does not publish, the charts of public numbers, what the seal keeps secret) and its first and last
    turn are checked as the open ones are."""
    ruleset, base, public = sealed_demo_served
    every = site_pages(public)
    assert {"", "chronicle/orders/", "play/templates/", "factions/"} <= set(every)
    pages = sealed_sweep(public, every)
    folder = ARTIFACTS / f"sealed-{ruleset}-{viewport}"
    folder.mkdir(parents=True, exist_ok=True)
    findings: list[str] = []
    photographed: set[str] = set()
    with watched_tab(browser, *VIEWPORTS[viewport], touch=TOUCH[viewport], axe=axe_source) as (tab, _):
        for path in pages:
            open_page(tab, base + path)
            for violation in run_axe(tab, axe_source):
                findings += describe(path, violation)
            kind = page_type(path, every)
            if kind not in photographed:
                photographed.add(kind)
                name = re.sub(r"[^A-Za-z0-9]+", "-", kind).strip("-") or "home"
                tab.screenshot(
                    path=folder / f"{name}.png", full_page=True, timeout=60_000
                )  # a long page takes its time
    (folder / "axe.json").write_text(json.dumps({"pages": pages, "findings": findings}, indent=1))
    assert not findings, f"{len(findings)} violations:\n" + "\n".join(findings[:60])
