"""The site bench's MkDocs floor is built like the site it is set against: the same pages, menu and
theme (with the features that decide how much of the menu each page renders), so the ratio `make bench`
prints compares the site with the least MkDocs can do for it, not with a different site."""

from __future__ import annotations

from pathlib import Path

import yaml

from resolver.bench.site import FloorRun, floor_rows, floor_target, mkdocs_floor
from resolver.publish.site import SETTINGS

from .demo import DemoSite


def test_the_floor_has_the_sites_pages_menu_and_theme(site: DemoSite, tmp_path: Path) -> None:
    pages = mkdocs_floor(site.root, tmp_path / "floor")
    generated = yaml.safe_load((site.root / SETTINGS).read_text(encoding="utf-8"))
    floor = yaml.safe_load((tmp_path / "floor" / "mkdocs.yml").read_text(encoding="utf-8"))
    sources = sorted(p.relative_to(site.root / "site") for p in (site.root / "site").rglob("*.md"))
    written = sorted(
        p.relative_to(tmp_path / "floor" / "docs") for p in (tmp_path / "floor" / "docs").rglob("*.md")
    )
    assert pages == len(sources) and written == sources
    assert floor["nav"] == generated["nav"] and floor["theme"] == generated["theme"]
    assert "navigation.prune" in floor["theme"]["features"]
    assert floor["plugins"] == ["search"] and "hooks" not in floor and "markdown_extensions" not in floor


def test_the_target_is_judged_on_the_best_cpu_seconds_of_the_longest_run() -> None:
    short = FloorRun(50, 200, sites=[(9.0, 3.0)], floors=[(1.0, 1.0)])
    long = FloorRun(500, 1600, sites=[(90.0, 30.0), (40.0, 35.0)], floors=[(60.0, 20.0), (10.0, 18.0)])
    lines = floor_rows([short, long])
    assert lines[-2] == "Targets (issue 26):"
    assert (
        " ".join(lines[-1].split())
        == "500-turn site build ÷ MkDocs floor, CPU 1.67× (target ≤ 2×): met (wall 4.00×)"
    )
    # At the limit is met; over it is not, and says so.
    assert floor_target([FloorRun(500, 1, sites=[(1.0, 4.0)], floors=[(1.0, 2.0)])]).met
    over = floor_target([FloorRun(500, 1, sites=[(1.0, 4.1)], floors=[(1.0, 2.0)])])
    assert not over.met and ": NOT MET" in over.line()
    assert "1.50×, 1.94×" in lines[3]  # every round's CPU ratio, to show how steady it is
