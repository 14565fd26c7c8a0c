"""Browser tests: the demo site served from 127.0.0.1 and read by Debian's Chromium through Playwright.

Chromium comes from the system (CI's .ci/run installs Debian's `chromium`); Playwright never downloads
a browser here. Without it these tests fail, with the command that installs it: they are never skipped.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from resolver.engine.ruleset import RULESETS

from ..site.demo import DemoSite, bot_demo_site, demo_site
from ..site.hostile import HostileSite, hostile_site

CHROMIUM = Path("/usr/bin/chromium")
AXE = Path(__file__).resolve().parents[2] / "tools/axe/node_modules/axe-core/axe.min.js"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--mute-audio"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        # A tab that moves on before a file has been sent closes the connection: a reader does that too.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@dataclass
class Served:
    site: DemoSite
    base: str  # "http://127.0.0.1:PORT/"
    folder: Path


LOCAL_BASES: list[str] = []  # every server the tests started: the only places a page may load from


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve a folder from 127.0.0.1 on a free port; yields the base URL."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    LOCAL_BASES.append(base)
    try:
        yield base
    finally:
        LOCAL_BASES.remove(base)
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    site = demo_site(tmp_path_factory.getbasetemp() / "demo-site")
    with serve(site.public) as base:
        yield Served(site, base, site.public)


@dataclass
class HostileServed:
    site: HostileSite
    base: str


@pytest.fixture(scope="session", params=RULESETS)
def hostile_served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HostileServed]:
    site = hostile_site(tmp_path_factory.getbasetemp() / "hostile-sites", request.param)
    with serve(site.public) as base:
        yield HostileServed(site, base)


@pytest.fixture(scope="session", params=RULESETS)
def demo_served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The bots' demo campaign of each ruleset, as `make demo` builds it, with its site served; its
    folder is named after its ruleset."""
    site = bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / request.param, request.param)
    with serve(site.public) as base:
        yield Served(site, base, site.public)


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core, to inject into every page the accessibility tests read (see test_accessibility)."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `make install` (it runs npm ci in tools/axe)", pytrace=False)
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests need Debian's Chromium. Install it with "
            "`apt-get install -y chromium` (as root), then run the tests again.",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: run `make install` (it is a dev dependency)", pytrace=False)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Watch:
    """What a page did that it must not: errors in its console, requests that left the site."""

    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


@contextlib.contextmanager
def watched_tab(
    browser: Any, width: int = 1280, height: int = 900, touch: bool = False, axe: str | None = None
) -> Iterator[tuple[Any, Watch]]:
    """A fresh browser tab of the given size that may load only from the local servers; on leaving,
    fails on any console error, script dialog or request that left the site. ``touch`` makes it a phone's
    tab: a touch screen and no mouse to hover with, which the theme's scripts ask about. ``axe`` is
    axe-core's source, for a tab that sweeps many pages: the browser then runs it in every frame as the
    frame is made, rather than receiving half a megabyte per frame and page (a third of a sweep's time)."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        service_workers="block",
        has_touch=touch,
        is_mobile=touch,
    )
    if axe is not None:
        context.add_init_script(script=axe)
    watch = Watch()

    def route(route: Any) -> None:
        url = route.request.url
        if url.startswith(tuple(LOCAL_BASES)) or url.startswith(("data:", "blob:", "about:")):
            route.continue_()
        else:
            watch.outside.append(url)
            route.abort()

    context.route("**/*", route)
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    # A failed load's message does not name what failed; its location does.
    tab.on(
        "console",
        lambda m: watch.errors.append(f"{m.text} ({m.location.get('url')})") if m.type == "error" else None,
    )
    tab.on("pageerror", lambda e: watch.errors.append(str(e)))
    tab.on("dialog", lambda d: (watch.dialogs.append(d.message), d.dismiss()))
    try:
        yield tab, watch
    finally:
        context.close()
    assert not watch.outside, f"requests left the site: {watch.outside}"
    assert not watch.errors, f"console errors: {watch.errors}"
    assert not watch.dialogs, f"a script ran and opened a dialog: {watch.dialogs}"


@pytest.fixture
def page(browser: Any, served: Served) -> Iterator[tuple[Any, Watch]]:
    with watched_tab(browser) as tab_and_watch:
        yield tab_and_watch
