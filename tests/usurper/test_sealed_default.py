"""A usurper campaign is sealed unless the GM asks for an open one: `campaign new` refuses without a key and
says how to go on, `--open` makes an open one, a key makes a sealed one; the demo stays open unless
`--sealed`. The README's own commands are typed here as a GM would type them."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from resolver.cli import main
from resolver.core import canonical
from resolver.engine.ruleset import RULESETS, get_ruleset
from resolver.store import sealing

from ..sides import sealed_by_default

README = Path(__file__).resolve().parents[2] / "README.md"


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = main(list(args))
        except SystemExit as stop:  # argparse's own refusals
            code = int(stop.code or 0)
    sealing.forget_key()
    return code, out.getvalue()


def config(root: Path) -> dict:
    return canonical.read_yaml(root / "campaign" / "campaign.yaml")


def readme_commands(start: str) -> list[list[str]]:
    """The README's commands in backticks that begin with ``start``, each as its words."""
    text = README.read_text(encoding="utf-8")
    return [shlex.split(found) for found in re.findall(r"`(" + re.escape(start) + r"[^`]*)`", text)]


def test_the_rules_data_says_usurper_is_sealed_by_default_and_no_other_ruleset_is() -> None:
    assert get_ruleset("usurper").default_rules()["sealed_by_default"] is True
    for other in ("nations", "factions", "seasons"):
        assert not get_ruleset(other).default_rules().get("sealed_by_default")


def test_without_a_key_or_open_it_refuses_and_names_the_fix(tmp_path: Path) -> None:
    code, out = run("new", "--ruleset", "usurper", "--root", str(tmp_path))
    assert code == 2
    assert "a Usurper campaign is sealed by default" in out
    assert "--key-file FILE" in out and "--open" in out
    assert "Traceback" not in out
    assert not (tmp_path / "campaign").exists()  # nothing made


def test_the_readme_commands_make_what_the_readme_says(tmp_path: Path) -> None:
    commands = readme_commands("campaign new --ruleset usurper")
    assert len(commands) == 2, commands
    by_flag = {"--open" if "--open" in words else "--key-file": words for words in commands}
    sealed_root, open_root = tmp_path / "sealed" / "repo", tmp_path / "open" / "repo"
    for root in (sealed_root, open_root):
        root.mkdir(parents=True)
    # The key file is named relative to the repository, as the README writes it: `--root` stands in for
    # the GM's cd, so the path is made relative to the same folder.
    sealed_words = [
        str(sealed_root.parent / w.removeprefix("../")) if w.startswith("../") else w
        for w in by_flag["--key-file"][1:]
    ]
    code, out = run(*sealed_words, "--root", str(sealed_root))
    assert code == 0, out
    assert config(sealed_root).get("sealed") is True
    assert (sealed_root.parent / "campaign-key.txt").is_file()
    assert "sealed, as every Usurper campaign is unless made with --open" in out
    code, out = run(*by_flag["--open"][1:], "--root", str(open_root))
    assert code == 0, out
    assert "sealed" not in config(open_root)
    assert (open_root / "orders" / "templates").is_dir()  # an open campaign publishes its templates


def test_open_and_sealed_cannot_both_be_asked_for(tmp_path: Path) -> None:
    code, out = run("new", "--ruleset", "usurper", "--open", "--sealed", "--root", str(tmp_path))
    assert code == 2 and "not allowed with argument" in out


def test_other_rulesets_stay_open_by_default(tmp_path: Path) -> None:
    code, out = run("new", "--ruleset", "nations", "--root", str(tmp_path))
    assert code == 0, out
    assert "sealed" not in config(tmp_path)


@pytest.mark.parametrize("sealed", [False, True])
def test_the_usurper_demo_is_open_unless_asked_to_be_sealed(tmp_path: Path, sealed: bool) -> None:
    args = ["demo", "--ruleset", "usurper", "--turns", "1", "--quiet", "--root", str(tmp_path)]
    code, out = run(*args, *(["--sealed"] if sealed else []))
    assert code == 0, out
    assert bool(config(tmp_path).get("sealed")) is sealed


def test_the_help_says_so() -> None:
    code, out = run("new", "--help")
    assert code == 0
    words = " ".join(out.split())
    sealed = [ruleset for ruleset in RULESETS if sealed_by_default(ruleset)]
    assert "usurper" in sealed
    told = re.search(r"An? ([a-z ,]+) campaign is sealed by default", words)
    assert told and set(re.split(r", | or ", told.group(1))) == set(sealed), words
    offered = re.search(
        r"an open campaign, for a ruleset whose campaigns are sealed by default \(([^)]*)\)", words
    )
    assert offered and set(offered.group(1).split(", ")) == set(sealed), words


def test_the_readmes_usurper_demo_plays_twelve_weeks_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`campaign demo --ruleset usurper`, typed in a fresh folder as the README says: an open demo of twelve
    weeks in .demo/usurper."""
    typed = {tuple(words) for words in readme_commands("campaign demo --ruleset usurper")}
    assert ("campaign", "demo", "--ruleset", "usurper") in typed
    command = ["campaign", "demo", "--ruleset", "usurper"]
    monkeypatch.chdir(tmp_path)
    code, out = run(*command[1:])
    assert code == 0, out
    root = tmp_path / ".demo" / "usurper"
    assert sorted(p.name for p in (root / "campaign" / "turns").iterdir())[-1] == "0012"
    assert not config(root).get("sealed")
