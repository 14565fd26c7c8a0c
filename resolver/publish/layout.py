"""Where ``campaign site`` writes, and the ignore files that keep what it generates out of git.

This module imports nothing beyond the standard library, so that ``campaign new`` (which writes the
ignore files) works on the engine-only install, without the site tools. ``resolver.publish.site``
takes every name below from here: the list of generated paths is declared once, and both the site
build (which refuses to write anywhere else) and the ignore files follow from it.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

DOCS_DIR = "site"  # MkDocs' docs_dir: generated pages beside the GM's own
OUT_DIR = "public"  # the built site
SETTINGS = "mkdocs.generated.yml"  # the generated settings, which the GM's mkdocs.yml inherits
CONFIG = "mkdocs.yml"  # the GM's settings: written once when missing, then theirs to commit
WELCOME = "welcome.md"
FEED = "feed.xml"
ASSETS = "assets/campaign"
IGNORE_FILE = ".gitignore"
# Everything `campaign site` writes into site/, by its path there: each entry is a file or a folder
# that the build owns whole. The build writes nothing else there (``undeclared`` says so).
GENERATED = (
    "index.md",
    "chronicle",
    "newspaper",
    "map",
    "places",
    "factions",
    "rules",
    "play",
    ASSETS,
    FEED,
)
# What the build writes at the campaign's root, besides the GM's mkdocs.yml.
GENERATED_AT_ROOT = (SETTINGS, OUT_DIR)

CONFIG_STUB = f"""\
# Settings of the campaign site. `campaign site` writes the generated pages into {DOCS_DIR}/ and the
# generated settings (menu, plugins, offline assets) into {SETTINGS}, which this file
# inherits. Whatever is set here wins over them: a palette, a logo, extra CSS, a site_url.
INHERIT: {SETTINGS}
"""
DOCS_IGNORE_HEADER = (
    "# Pages written by `campaign site` on every run (see resolver/publish/layout.py). Hand-written pages "
    "stay\n# tracked: welcome.md (the home page's text) and any other page, such as notes/house-notes.md."
)
ROOT_IGNORE_HEADER = "# Written by `campaign site` on every run: the generated settings and the built site."


def ignore_pattern(path: str) -> str:
    """The .gitignore line for one generated path, anchored to the folder of the ignore file: a name
    with a suffix is a file (``/feed.xml``), any other a folder with all it holds (``/places/``)."""
    return f"/{path}" if PurePosixPath(path).suffix else f"/{path}/"


def docs_ignores() -> tuple[str, ...]:
    """The lines of ``site/.gitignore``: one per generated path."""
    return tuple(ignore_pattern(path) for path in GENERATED)


def root_ignores() -> tuple[str, ...]:
    """The lines of the root ``.gitignore`` that concern the site build."""
    return tuple(ignore_pattern(path) for path in GENERATED_AT_ROOT)


def generated(rel: str) -> bool:
    """Whether a path under site/ belongs to what the build generates."""
    return any(rel == top or rel.startswith(top + "/") for top in GENERATED)


def undeclared(paths: list[str]) -> list[str]:
    """The paths the build was about to write under site/ that ``GENERATED`` does not declare: they
    would be neither ignored by git nor cleaned up by the next build."""
    return sorted(rel for rel in paths if not generated(rel))


def ignore_generated_files(root: Path) -> list[str]:
    """Make sure git ignores everything the site build writes in the campaign at ``root``: adds to
    ``site/.gitignore`` and to the root ``.gitignore`` the lines they lack, keeping every other line.
    Returns the files it changed (relative to ``root``), so that the caller can say what to commit."""
    changed = []
    for folder, patterns, header in (
        (root / DOCS_DIR, docs_ignores(), DOCS_IGNORE_HEADER),
        (root, root_ignores(), ROOT_IGNORE_HEADER),
    ):
        path = folder / IGNORE_FILE
        if add_lines(path, patterns, header):
            changed.append(path.relative_to(root).as_posix())
    return changed


def add_lines(path: Path, patterns: tuple[str, ...], header: str) -> bool:
    """Append to ``path`` the patterns it lacks (under ``header``, unless the file holds it already);
    True if the file changed."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    missing = [line for line in patterns if line not in lines]
    if not missing:
        return False
    heading = [] if header.splitlines()[0] in lines else header.splitlines()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*lines, *heading, *missing]) + "\n", encoding="utf-8")
    return True


def write_config_stub(root: Path) -> bool:
    """The GM's ``mkdocs.yml`` when there is none, so that it is committed with the campaign rather than
    left untracked by the first site build. True if it was written."""
    path = root / CONFIG
    if path.exists():
        return False
    path.write_text(CONFIG_STUB, encoding="utf-8")
    return True
