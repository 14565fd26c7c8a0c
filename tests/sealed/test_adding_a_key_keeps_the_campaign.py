"""Issue 20 point 7: an open campaign started without a key (as the README's recipe used to start one)
gets its campaign key without being started again, and the warning on every resolve says how.

The turn being played when the key is added opened without a commitment to a dice salt, and none can
be made for it afterwards: it resolves unsalted, and its resolution commits the next turn's salt.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.engine.ruleset import RULESETS
from resolver.store import sealing

from .sealed_play import run

REPO = Path(__file__).resolve().parents[2]


def inputs(root: Path, turn: int) -> dict:
    return canonical.read_yaml(root / "campaign" / "turns" / f"{turn:04d}" / "inputs.yaml")


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_running_campaign_gets_its_key_and_salts_from_the_next_turn(tmp_path: Path, ruleset: str) -> None:
    root, key = tmp_path / "c", tmp_path / "campaign-key.txt"
    assert run("new", "--root", root, "--ruleset", ruleset, "--factions", "2", "--open")[0] == 0
    code, out = run("resolve", "--root", root)
    assert code == 0, out
    # The warning names a fix that keeps the campaign, and the fix is a command that exists.
    assert "dice are predictable" in out
    fix = re.search(r"fix: .*?(campaign add-key --key-file FILE)", out)
    assert fix, out
    assert "campaign new" not in out

    before = tree(root)
    code, out = run("add-key", "--root", root, "--key-file", key)
    assert code == 0, out
    public = sealing.public_of(sealing.read_key_text(key.read_text()))
    assert canonical.read_yaml(root / "campaign" / "campaign.yaml")["recipient"] == public
    assert "Turn 2 keeps unsalted dice" in out and "turn 3's salt" in out
    assert sealing.SECRET_PREFIX not in out  # the secret stays in its file
    after = tree(root)
    assert {name for name in after if after[name] != before.get(name)} == {"campaign/campaign.yaml"}

    # Without the key, the next resolve refuses and writes nothing: the next salt must be committed.
    code, out = run("resolve", "--root", root)
    assert code == 2 and "needs it" in out, out
    assert tree(root) == after

    code, out = run("resolve", "--root", root, "--force", "--key-file", key)
    assert code == 0, out
    assert "predictable" not in out
    assert "turn 2's dice had no secret salt" in out and "turn 3's salt is committed now" in out
    assert not inputs(root, 2).get("salt")  # nothing was committed when turn 2 opened
    committed = inputs(root, 2)["next_salt_commitment"]

    code, out = run("resolve", "--root", root, "--force", "--key-file", key)
    assert code == 0, out
    assert "no secret salt" not in out and "predictable" not in out
    assert sealing.salt_commitment(inputs(root, 3)["salt"]) == committed

    code, out = run("verify", "--root", root, "--all")
    assert code == 0 and "3 of 3 turn(s) replay byte-identically" in out, out
    code, out = run("doctor", "--root", root, "--key-file", key)
    assert "the key is the campaign's and made the commitment to turn 4's dice" in out, out


def test_another_key_than_the_one_added_is_refused(tmp_path: Path) -> None:
    root, key, other = tmp_path / "c", tmp_path / "key.txt", tmp_path / "other.txt"
    assert run("new", "--root", root, "--factions", "2")[0] == 0
    assert run("add-key", "--root", root, "--key-file", key)[0] == 0
    assert run("keygen", "-o", other)[0] == 0
    code, out = run("resolve", "--root", root, "--force", "--key-file", other)
    assert code == 2 and "not this campaign's" in out, out
    assert not (root / "campaign" / "turns" / "0001").exists()
    assert run("resolve", "--root", root, "--force", "--key-file", key)[0] == 0


def test_a_campaign_with_a_key_is_not_given_another(tmp_path: Path) -> None:
    root, key = tmp_path / "c", tmp_path / "key.txt"
    assert run("new", "--root", root, "--factions", "2", "--key-file", key)[0] == 0
    code, out = run("add-key", "--root", root, "--key-file", tmp_path / "second.txt")
    assert code == 2 and "has a key already" in out, out
    assert not (tmp_path / "second.txt").exists()
    sealed = tmp_path / "s"
    made = run("new", "--root", sealed, "--factions", "2", "--sealed", "--key-file", tmp_path / "s.txt")
    assert made[0] == 0
    code, out = run("add-key", "--root", sealed, "--key-file", tmp_path / "third.txt")
    assert code == 2 and "campaign rekey" in out, out


def test_sealing_a_keyless_campaign_salts_from_the_next_turn_as_adding_a_key_does(tmp_path: Path) -> None:
    root, key = tmp_path / "c", tmp_path / "key.txt"
    assert run("new", "--root", root, "--ruleset", "factions", "--factions", "2")[0] == 0
    assert run("resolve", "--root", root)[0] == 0
    code, out = run("seal-campaign", "--root", root, "--key-file", key)
    assert code == 0 and "This turn's dice stay unsalted" in out, out
    for _ in range(2):
        code, out = run("resolve", "--root", root, "--force", "--key-file", key)
        assert code == 0, out
    assert not inputs(root, 2).get("salt")
    assert sealing.salt_commitment(inputs(root, 3)["salt"]) == inputs(root, 2)["next_salt_commitment"]
    code, out = run("verify", "--root", root, "--key-file", key)
    assert code == 0 and "3 of 3 turn(s) replay byte-identically" in out, out


def test_the_readmes_recipe_makes_the_key_and_names_add_key() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    recipe = readme[readme.index("## Start your own campaign") : readme.index("### Campaign settings")]
    new = re.search(r"`\.venv/bin/campaign new [^`]*`", recipe)
    assert new and "--key-file ../campaign-key.txt" in new.group(0)
    assert "CAMPAIGN_AGE_KEY" in recipe and "campaign add-key --key-file" in recipe
    assert "campaign add-key --key-file FILE" in readme  # in the table of commands
