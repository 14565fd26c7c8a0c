"""Issue 20 point 6: building the site leaves the GM's clone clean, so the next local
`campaign resolve --commit` is not refused for a dirty tree.

Every path the build writes is ignored by git: in a campaign `campaign new` made, in this repository
itself, and in a campaign whose ignore file predates a page kind (the build adds the missing lines and
says to commit them).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from resolver.engine.ruleset import RULESETS
from resolver.publish.layout import GENERATED

from .gitsim import Campaign, cli

REPO = Path(__file__).resolve().parents[2]
# site/.gitignore as it was before the feed and the place pages were ignored.
OLD_PATTERNS = ("/index.md", "/chronicle/", "/newspaper/", "/map/", "/factions/", "/rules/", "/play/")
OLD_SITE_IGNORE = "".join(f"{line}\n" for line in (*OLD_PATTERNS, "/assets/campaign/"))


def status(world: Campaign, clone: Path) -> str:
    return world.git(clone, "status", "--porcelain", "--untracked-files=all")


def played(tmp_path: Path, ruleset: str) -> tuple[Campaign, Path]:
    """A campaign made by `campaign new` and pushed, with one turn resolved by CI; the GM's clone at main."""
    world = Campaign.create(tmp_path, options=("--ruleset", ruleset, "--open"))  # usurper: sealed by default
    for faction in world.factions():  # red, blue and green, or the sides the ruleset seats them in
        world.submit(faction)
    assert world.resolve("--if-due", "--commit").code == 0
    gm = world.clone("dora")
    world.sync(gm)
    return world, gm


def resolve_next_turn_locally(world: Campaign, gm: Path) -> None:
    """The GM's next step after looking at the site: a local resolution, committed; it must not be
    refused for a dirty tree."""
    done = cli("resolve", "--root", gm, "--commit", "--force")
    assert done.code == 0, done.out + done.err
    assert "dirty" not in done.err
    assert world.git(gm, "log", "-1", "--format=%s") == "Turn 2 resolved"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_site_of_a_new_campaign_leaves_the_clone_clean(tmp_path: Path, ruleset: str) -> None:
    world, gm = played(tmp_path, ruleset)
    built = cli("site", "--root", gm)
    assert built.code == 0, built.out + built.err
    written = {p.relative_to(gm / "site").parts[0] for p in (gm / "site").rglob("*") if p.is_file()}
    assert {"feed.xml", "places", "chronicle"} <= written  # the page kinds the issue found untracked
    assert (gm / "public" / "index.html").is_file()
    assert status(world, gm) == ""
    resolve_next_turn_locally(world, gm)


def test_every_generated_path_is_in_the_repositorys_site_ignore_file() -> None:
    lines = (REPO / "site" / ".gitignore").read_text(encoding="utf-8").splitlines()
    for path in GENERATED:
        assert f"/{path}" in lines or f"/{path}/" in lines, path


def test_make_site_in_this_repository_leaves_its_clone_clean(tmp_path: Path) -> None:
    """The repository's own campaign, as `make site` builds it: a copy of every tracked file, committed."""
    world = Campaign(tmp_path)
    clone = tmp_path / "kit"
    tracked = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=True
    ).stdout.decode()
    for rel in filter(None, tracked.split("\0")):
        source = REPO / rel
        if source.is_file():  # a file deleted in the working tree but not yet in git is skipped
            (clone / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, clone / rel)
    world.git(tmp_path, "init", "--quiet", "--initial-branch=main", str(clone))
    world.commit(clone, "dora", "the kit")
    built = cli("site", "--root", clone)
    assert built.code == 0, built.out + built.err
    assert (clone / "site" / "feed.xml").is_file() and (clone / "site" / "places").is_dir()
    assert status(world, clone) == ""


def test_a_campaign_with_an_older_ignore_file_is_told_what_to_commit(tmp_path: Path) -> None:
    """A campaign forked before the feed and the place pages existed: the build adds the lines its
    site/.gitignore lacks and says so; once that is committed, the tree is clean and a turn commits."""
    world, gm = played(tmp_path, "nations")
    (gm / "site" / ".gitignore").write_text(OLD_SITE_IGNORE, encoding="utf-8")
    world.commit(gm, "dora", "an ignore file from an older kit")
    built = cli("site", "--root", gm)
    assert built.code == 0, built.out + built.err
    assert "commit site/.gitignore" in built.out
    assert status(world, gm) == "M site/.gitignore"
    world.commit(gm, "dora", "ignore the whole generated site")
    assert cli("site", "--root", gm).code == 0
    assert status(world, gm) == ""
    resolve_next_turn_locally(world, gm)
