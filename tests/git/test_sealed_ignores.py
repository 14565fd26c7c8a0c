"""A sealed campaign's plain files stay out of git in every clone, not only in the GM's: the ignore
rules are committed with the campaign by the README's own first commit, and `campaign view` writes a
folder that ignores itself. Checked with git itself, in a player's fresh clone, for every ruleset."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pyrage
import pytest
import yaml

from resolver.engine.ruleset import RULESETS

from ..sides import sides
from .gitsim import cli

REPO = Path(__file__).resolve().parents[2]


def git(where: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def readme_first_commit() -> list[str]:
    """What the README's set-up has the GM stage for the first commit, word for word."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"`(git add [^`]*?) && git commit -m \"Start the campaign\"", text)
    assert found, "the README no longer shows the first commit"
    return shlex.split(found.group(1))[1:]  # the words after "git"


def commit_all_the_readme_says(clone: Path, message: str) -> None:
    git(clone, *readme_first_commit())
    git(clone, "-c", "user.name=GM", "-c", "user.email=gm@example.org", "commit", "--quiet", "-m", message)
    git(clone, "push", "--quiet", "origin", "HEAD:refs/heads/main")


def roster(tmp_path: Path, ruleset: str) -> tuple[Path, dict[str, Path]]:
    """A players file in which each of two factions (red and blue, or the ruleset's first two sides) has
    an age key, and the key files (outside every clone) by faction."""
    keys, data = {}, {"gm": {"logins": ["dora"]}, "factions": {}}
    for faction in sides(ruleset, 2):
        identity = pyrage.x25519.Identity.generate()
        keys[faction] = tmp_path / f"{faction}-key.txt"
        keys[faction].write_text(f"{identity}\n", encoding="utf-8")
        data["factions"][faction] = {
            "name": faction.title(),
            "logins": [faction],
            "recipients": [str(identity.to_public())],
        }
    players = tmp_path / "players.yaml"
    players.write_text(yaml.safe_dump(data), encoding="utf-8")
    return players, keys


def gm_makes_a_sealed_campaign(tmp_path: Path, ruleset: str, how: str) -> tuple[Path, dict[str, Path]]:
    """origin.git holding a sealed campaign, made with ``campaign new --sealed`` or sealed later with
    ``campaign seal-campaign``, committed as the README says."""
    origin, gm = tmp_path / "origin.git", tmp_path / "gm"
    git(tmp_path, "init", "--quiet", "--bare", "--initial-branch=main", str(origin))
    git(tmp_path, "clone", "--quiet", str(origin), str(gm))
    # A fork of this repository already tracks a .gitignore of its own (without any campaign rule).
    (gm / ".gitignore").write_text(".venv/\n__pycache__/\n", encoding="utf-8")
    git(gm, "add", ".gitignore")
    git(gm, "-c", "user.name=GM", "-c", "user.email=gm@example.org", "commit", "--quiet", "-m", "fork")
    players, keys = roster(tmp_path, ruleset)
    key = tmp_path / "campaign-key.txt"
    made = ["new", "--root", gm, "--ruleset", ruleset, "--seed", "3", "--players", players]
    if how == "new --sealed":
        done = cli(*made, "--sealed", "--beacon", "test", "--key-file", key)
        assert done.code == 0, done.err
    else:
        assert cli(*made, "--open").code == 0
        commit_all_the_readme_says(gm, "Start the campaign")
        done = cli("seal-campaign", "--root", gm, "--key-file", key)
        assert done.code == 0, done.err
    commit_all_the_readme_says(gm, "Start the sealed campaign")
    return origin, keys


@pytest.mark.parametrize("how", ["new --sealed", "seal-campaign"])
@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_a_players_clone_leaves_plain_orders_and_the_view_out_of_git_add_all(
    tmp_path: Path, ruleset: str, how: str
) -> None:
    origin, keys = gm_makes_a_sealed_campaign(tmp_path, ruleset, how)
    red = sides(ruleset, 1)[0]
    player = tmp_path / "player"
    git(tmp_path, "clone", "--quiet", str(origin), str(player))
    viewed = cli("view", "--root", player, "--identity", keys[red])
    assert viewed.code == 0, viewed.err
    assert "(git ignores it)" in viewed.out
    assert (player / ".view" / "state.yaml").is_file()
    draft = player / "orders" / f"{red}.yaml"
    assert cli("template", red, "--root", player, "-o", draft).code == 0
    (player / "orders" / f"{red}.yml").write_bytes(draft.read_bytes())
    sealed = cli("seal", "--root", player, draft)
    assert sealed.code == 0, sealed.out + sealed.err
    git(player, "add", "-A")
    staged = git(player, "status", "--porcelain", "--untracked-files=all").splitlines()
    # The one file a player commits is the sealed one; the view and every plain draft stay home.
    assert staged == [f"A  orders/{red}.yaml.age"]


def test_the_view_folder_ignores_itself_whatever_the_clone_ignores(tmp_path: Path) -> None:
    origin, keys = gm_makes_a_sealed_campaign(tmp_path, "factions", "new --sealed")
    player = tmp_path / "player"
    git(tmp_path, "clone", "--quiet", str(origin), str(player))
    for rules in (player / ".gitignore", player / "orders" / ".gitignore"):
        rules.unlink()  # a clone that lost every committed rule: the view is still ignored
    assert cli("view", "--root", player, "--identity", keys["blue"]).code == 0
    (player / ".view" / ".gitignore").unlink()
    assert cli("view", "--root", player, "--identity", keys["blue"]).code == 0  # written again each time
    git(player, "add", "-A")
    staged = git(player, "status", "--porcelain", "--untracked-files=all")
    assert ".view" not in staged


def test_an_open_campaign_made_where_a_sealed_one_was_commits_its_plain_orders(tmp_path: Path) -> None:
    """`campaign new --force` of an open campaign in a sealed campaign's folder drops the rules that
    would leave its players' orders out of their commits, wherever they were: the GM here commits
    everything the folder holds."""
    origin, _ = gm_makes_a_sealed_campaign(tmp_path, "factions", "new --sealed")
    gm = tmp_path / "gm"
    players, _ = roster(tmp_path, "factions")
    assert cli("new", "--root", gm, "--ruleset", "factions", "--players", players, "--force").code == 0
    git(gm, "add", "-A")
    git(
        gm,
        "-c",
        "user.name=GM",
        "-c",
        "user.email=gm@example.org",
        "commit",
        "--quiet",
        "-m",
        "Open campaign",
    )
    git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    player = tmp_path / "player"
    git(tmp_path, "clone", "--quiet", str(origin), str(player))
    (player / "orders" / "red.yaml").write_bytes((player / "orders" / "templates" / "red.yaml").read_bytes())
    git(player, "add", "-A")
    assert "A  orders/red.yaml" in git(player, "status", "--porcelain").splitlines()
