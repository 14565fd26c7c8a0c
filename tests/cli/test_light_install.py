"""A player's install is the runtime alone: no site builder, no map library, no test tools."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from resolver.cli import SITE_MODULES

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SITE_PACKAGES = ("folium", "mkdocs", "mkdocs-material", "xstatic-leaflet")


def requirement_names(requirements: list[str]) -> set[str]:
    return {
        req.split(";")[0].split("[")[0].split("=")[0].split("<")[0].split(">")[0].strip()
        for req in requirements
    }


def test_the_runtime_needs_no_site_package() -> None:
    runtime = requirement_names(PYPROJECT["project"]["dependencies"])
    assert runtime.isdisjoint(SITE_PACKAGES), runtime
    assert {"pyyaml", "jinja2", "gitpython"} <= runtime
    assert set(SITE_PACKAGES) <= requirement_names(PYPROJECT["project"]["optional-dependencies"]["site"])


def test_make_install_still_installs_the_site_and_dev_tools() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[site,dev]'" in makefile


def test_every_data_file_of_the_engine_ships_in_the_package() -> None:
    """A non-editable `pip install .` (the orders-from-issue workflow's) copies only the files package-data
    names: the event sentences, headlines, tallies and rules, a ruleset's chapters of rules data too, must
    all be among them, or a player's install cannot resolve. setuptools globs each pattern in the package,
    where a ``*`` never crosses a folder."""
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["resolver"]
    package = REPO / "resolver"
    data = {p.relative_to(package).as_posix() for kind in ("*.yaml", "*.yml") for p in package.rglob(kind)}
    assert {"engine/events.yaml", "rulesets/nations/rules.yaml", "rulesets/diplomacy/rules/map.yaml"} <= data
    shipped = {p.relative_to(package).as_posix() for pattern in patterns for p in package.glob(pattern)}
    assert sorted(data - shipped) == []


# Runs the CLI in a fresh interpreter where the site's packages cannot be imported, as in a player's
# install, and reports which of them got imported (none may be).
WITHOUT_SITE = textwrap.dedent(
    """
    import sys
    at_start = set(sys.modules)  # a namespace package's .pth file may load a stub before anything runs
    for name in {modules!r}:
        sys.modules[name] = None  # importing it now raises ImportError, as if it were not installed
    from resolver.cli import main
    try:
        status = main({argv!r})
    except SystemExit as done:
        status = done.code
    sys.stdout.flush()
    loaded = sorted(
        m for m in set(sys.modules) - at_start if m.partition(".")[0] in {modules!r} and sys.modules[m]
    )
    print("STATUS", status, "LOADED", loaded, file=sys.stderr)
    """
)


def run_without_site(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    script = WITHOUT_SITE.format(modules=SITE_MODULES, argv=argv)
    return subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True, text=True)


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["check", "--help"],
        ["check"],
        ["template", "red"],
        ["schema", "-o", "-"],
        ["resolve"],
        ["verify"],
    ],
)
def test_player_commands_work_without_the_site_tools(campaign: Path, argv: list[str]) -> None:
    (campaign / "orders/red.yaml").write_bytes((campaign / "orders/templates/red.yaml").read_bytes())
    done = run_without_site(argv, campaign)
    assert done.stderr.strip().endswith("STATUS 0 LOADED []"), done.stderr
    assert done.stdout


def test_building_the_site_without_its_tools_says_what_to_install(campaign: Path) -> None:
    done = run_without_site(["site", "--no-build"], campaign)
    assert "error: building the site needs the site tools" in done.stderr
    assert "pip install '.[site]'" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert "STATUS 2" in done.stderr
