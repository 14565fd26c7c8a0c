"""``campaign site``: write the generated pages into ``site/``, then build them with MkDocs.

Layout of a campaign folder (the repository, or ``.demo/nations``):

- ``site/`` is MkDocs' docs_dir. ``campaign site`` owns the paths in ``GENERATED`` and
  rewrites them on every run; everything else there is hand-written and committed:
  ``site/welcome.md`` (the text at the top of the home page) and any other page, such
  as ``site/notes/house-notes.md``, which the menu lists under "Notes".
- ``mkdocs.generated.yml`` holds the generated settings (menu, plugins, offline assets).
- ``mkdocs.yml`` is the GM's: it inherits the generated settings (``INHERIT``) and wins
  over them. ``campaign site`` writes a minimal one when there is none.
- The built site goes to ``public/`` (or ``--out``); both it and the generated files are
  git-ignored.
"""

from __future__ import annotations

import calendar as calmod
import contextlib
import html
import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..core.issues import CampaignError
from ..store.punctuality import Arrival
from ..store.store import Store
from .history import History, load_history
from .layout import (
    CONFIG,
    CONFIG_STUB,
    DOCS_DIR,
    GENERATED,
    OUT_DIR,
    SETTINGS,
    WELCOME,
    generated,
    ignore_generated_files,
    undeclared,
)
from .pages import ASSETS, FEED, MARKER, ON_DEMAND, OpenedAt, SitePages, read_welcome, site_url, turn_date


@dataclass
class SiteReport:
    root: Path
    docs_dir: Path
    out: Path | None
    turns: int
    pages: int
    changed: int
    removed: int
    seconds: dict[str, float] = field(default_factory=dict)
    ignores: list[str] = field(default_factory=list)  # ignore files that gained lines: to be committed


def build_site(
    root: Path,
    out: Path | None = None,
    *,
    run_mkdocs: bool = True,
    strict: bool = True,
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda xs: xs,
    opened_at: OpenedAt | None = None,
    on_time: Mapping[str, list[Arrival]] | None = None,
) -> SiteReport:
    """Write the site's pages into the campaign's docs folder and build it. ``opened_at`` tells when a
    turn began (the command layer reads it from git), so the pages can date the current deadline;
    ``on_time`` is each faction's on-time record, read from git's history too."""
    store = Store(root)
    store.require()
    docs = root / DOCS_DIR
    timings: dict[str, float] = {}
    start = time.perf_counter()
    history = load_history(store, progress)
    timings["replay"] = time.perf_counter() - start

    start = time.perf_counter()
    adopt_legacy_index(docs)
    pages = SitePages(
        store,
        history,
        _welcome(read_welcome(docs)),
        address=own_site_url(root),
        opened_at=opened_at,
        on_time=on_time,
    )
    files = pages.build()
    stray = undeclared(list(files))
    if stray:  # neither ignored by git nor cleaned up by the next build: a page kind missing in GENERATED
        raise RuntimeError(f"the site build writes {', '.join(stray)}, which layout.GENERATED omits")
    ignores = ignore_generated_files(root)
    changed, removed = sync(docs, files)
    notes = hand_written_pages(docs)
    write_settings(root, settings(history, pages, notes))
    ensure_config(root)
    timings["pages"] = time.perf_counter() - start

    target = out if out is not None else root / OUT_DIR
    if run_mkdocs:
        start = time.perf_counter()
        run_build(root / CONFIG, target, strict=strict, epoch=_epoch(history))
        timings["mkdocs"] = time.perf_counter() - start
    return SiteReport(
        root,
        docs,
        target if run_mkdocs else None,
        len(history.turns),
        sum(1 for p in files if p.endswith(".md")),
        changed,
        removed,
        timings,
        ignores,
    )


def _welcome(text: str) -> str:
    """The welcome text sits under the home page's title: its headings move one level down."""
    return re.sub(r"^(#{1,5}) ", r"#\1 ", text, flags=re.MULTILINE).strip()


def adopt_legacy_index(docs: Path) -> None:
    """A hand-written site/index.md from before the generated home page becomes site/welcome.md."""
    index, welcome = docs / "index.md", docs / WELCOME
    if index.is_file() and MARKER not in index.read_text(encoding="utf-8") and not welcome.exists():
        index.rename(welcome)


def sync(docs: Path, files: dict[str, bytes]) -> tuple[int, int]:
    """Write files that changed, remove generated files that are no longer generated.

    Unchanged files keep their modification time, so ``mkdocs serve`` and later builds see what moved.
    Only paths under ``GENERATED`` are ever removed: hand-written pages are safe.
    """
    changed = 0
    for rel, data in files.items():
        path = docs / rel
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        changed += 1
    removed = 0
    for top in GENERATED:
        base = docs / top
        for path in sorted(_walk(base), reverse=True):
            rel = path.relative_to(docs).as_posix()
            if path.is_file() and rel not in files:
                path.unlink()
                removed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return changed, removed


def _walk(base: Path) -> Iterator[Path]:
    if base.is_file():
        yield base
    elif base.is_dir():
        yield from base.rglob("*")


def hand_written_pages(docs: Path) -> list[str]:
    """Markdown pages in site/ that ``campaign site`` does not write (the welcome text aside)."""
    found = []
    for path in sorted(docs.rglob("*.md")) if docs.is_dir() else []:
        rel = path.relative_to(docs).as_posix()
        if rel == WELCOME or generated(rel):
            continue
        if any(part.startswith(".") for part in path.relative_to(docs).parts):
            continue
        found.append(rel)
    return found


def settings(history: History, pages: SitePages, notes: list[str]) -> dict[str, Any]:
    game = history.game
    nav: list[Any] = [
        {"Home": "index.md"},
        {
            "Chronicle": [
                *pages.nav.chronicle[:1],
                {"Orders": "chronicle/orders/index.md"},
                *pages.nav.chronicle[1:],
            ]
        },
        {
            "Newspaper": [
                "newspaper/index.md",
                {"All issues": "newspaper/issues.md"},
                {"By faction": "newspaper/factions/index.md"},
            ]
        },
        {"Map": ["map/index.md", {"Places": "places/index.md"}]},
        {"Factions": pages.nav.factions},
        {"Rules": [*pages.nav.rules, {"Orders": "rules/orders.md"}, {"House rules": "rules/house-rules.md"}]},
        {"How to play": ["play/index.md", {"Templates": "play/templates.md"}]},
    ]
    if notes:
        nav.append({"Notes": notes})
    name = html.escape(game.name)  # the theme prints these as HTML
    title = html.escape(game.ruleset.title)
    found: dict[str, Any] = {
        "site_name": name,
        "site_description": f"{name}: a play-by-post campaign of {title}",
        "docs_dir": DOCS_DIR,
        "site_dir": OUT_DIR,
        "use_directory_urls": True,  # the iframe and image URLs in pages.py assume directory URLs
        "copyright": f"{name}, a campaign of {title}, published from its turn archive",
        "theme": {
            "name": "material",
            "language": "en",
            "font": False,  # no Google Fonts: the site loads nothing from outside
            "icon": {"logo": "material/castle"},
            "palette": [
                {
                    "media": "(prefers-color-scheme: light)",
                    "scheme": "default",
                    "primary": "brown",
                    "accent": "deep orange",
                    "toggle": {"icon": "material/weather-night", "name": "Dark mode"},
                },
                {
                    "media": "(prefers-color-scheme: dark)",
                    "scheme": "slate",
                    "primary": "brown",
                    "accent": "orange",
                    "toggle": {"icon": "material/weather-sunny", "name": "Light mode"},
                },
            ],
            "features": [
                "navigation.tabs",
                "navigation.indexes",
                "navigation.prune",
                "navigation.top",
                "navigation.footer",
                "search.suggest",
                "search.highlight",
                "toc.follow",
                "content.code.copy",
            ],
        },
        "plugins": ["search"],
        "hooks": [str(Path(__file__).with_name("mkdocs_hooks.py"))],
        "markdown_extensions": [
            "attr_list",
            "md_in_html",
            "admonition",
            "tables",
            "fenced_code",
            {"toc": {"permalink": True}},
        ],
        "extra_css": ["assets/campaign/campaign.css"],
        "extra_javascript": [f"{ASSETS}/{ON_DEMAND}", f"{ASSETS}/campaign.js"],
        "extra": {"generator": False, "campaign": {"feed": FEED}},
        "exclude_docs": f"/{WELCOME}\n",
        "nav": nav,
    }
    url = site_url(history.config)
    if url:  # absolute addresses for the sitemap, canonical links and link previews (see mkdocs_hooks)
        found["site_url"] = url
    return found


def write_settings(root: Path, data: dict[str, Any]) -> None:
    header = "# Written by `campaign site` on every run: change mkdocs.yml instead, which inherits this.\n"
    text = header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)
    path = root / SETTINGS
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def own_site_url(root: Path) -> str:
    """``site_url:`` as the GM's own mkdocs.yml sets it (its settings win over the generated ones, so the
    feed's links must follow it too), or "" when it sets none or cannot be read: MkDocs then reports the
    broken file itself."""
    path = root / CONFIG
    if not path.is_file():
        return ""
    from mkdocs.utils.yaml import get_yaml_loader  # MkDocs' own reading: !ENV and its other tags

    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=get_yaml_loader())
    except (yaml.YAMLError, OSError, UnicodeDecodeError, ValueError, TypeError):
        return ""
    return site_url(data) if isinstance(data, dict) else ""


def ensure_config(root: Path) -> None:
    path = root / CONFIG
    if not path.exists():
        path.write_text(CONFIG_STUB, encoding="utf-8")
        return
    data = path.read_text(encoding="utf-8")
    if not re.search(rf"^INHERIT:\s*['\"]?{re.escape(SETTINGS)}", data, flags=re.MULTILINE):
        raise CampaignError(
            f"{path} does not inherit the generated settings",
            f"add the line 'INHERIT: {SETTINGS}' to it (settings in {CONFIG} still win), "
            "or delete it to get the default one",
            code=2,
        )


def _epoch(history: History) -> int:
    day = turn_date(history.last.turn)
    return calmod.timegm(day.timetuple())


@contextlib.contextmanager
def _environ(**values: str) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def run_build(config_file: Path, out: Path, *, strict: bool, epoch: int) -> None:
    """``mkdocs build``, in this process (no second start-up of Python and MkDocs)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    # The sitemap's dates come from SOURCE_DATE_EPOCH: the latest turn's date, not the clock.
    with _environ(SOURCE_DATE_EPOCH=str(epoch), NO_MKDOCS_2_WARNING="1"):
        logger = logging.getLogger("mkdocs")
        handler = logging.StreamHandler()
        handler.setLevel(logging.WARNING)
        handler.setFormatter(logging.Formatter("mkdocs %(levelname)s: %(message)s"))
        logger.addHandler(handler)
        try:
            cfg = load_config(config_file=str(config_file), site_dir=str(out.resolve()), strict=strict)
            cfg.plugins.on_startup(command="build", dirty=False)
            try:
                build(cfg)
            finally:
                cfg.plugins.on_shutdown()
        except MkDocsException as error:
            raise CampaignError(
                f"mkdocs could not build the site: {error}",
                "see the mkdocs messages above; pages are in site/, settings in mkdocs.yml",
            ) from None
        finally:
            logger.removeHandler(handler)
