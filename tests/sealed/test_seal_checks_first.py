"""`campaign seal` seals only what would hold at resolution, as far as a player can know: a file with
errors, or orders checked against a view of a turn that is over, are refused before anything is
sealed, with what `campaign check` says and its exit status. A sealed mistake would otherwise be found
only when the turn is resolved, and cost the faction its turn."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pyrage
import pytest
import yaml

from resolver.cli import main
from resolver.engine.ruleset import RULESETS

from ..sides import sides


def run(*args: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def sealed_campaign(tmp_path: Path, ruleset: str) -> tuple[Path, str, Path, Path]:
    """A sealed campaign whose first faction's player (alice) holds an age key: the folder, the faction's
    id (red, or the ruleset's first side), its key, the GM's key."""
    identity = pyrage.x25519.Identity.generate()
    key_file = tmp_path / "alice-key.txt"
    key_file.write_text(f"{identity}\n", encoding="utf-8")
    red, blue = sides(ruleset, 2)
    roster = {
        "gm": {"logins": ["dora"]},
        "factions": {
            red: {"name": "Red", "logins": ["alice"], "recipients": [str(identity.to_public())]},
            blue: {"name": "Blue", "logins": ["bob"]},
        },
    }
    players = tmp_path / "players.yaml"
    players.write_text(yaml.safe_dump(roster), encoding="utf-8")
    root, key = tmp_path / "c", tmp_path / "gm-key.txt"
    code, _, err = run(
        "new",
        "--root",
        root,
        "--ruleset",
        ruleset,
        "--players",
        players,
        "--sealed",
        "--beacon",
        "test",
        "--key-file",
        key,
    )
    assert code == 0, err
    return root, red, key_file, key


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_orders_checked_against_a_view_of_a_turn_that_is_over_are_not_sealed(
    tmp_path: Path, ruleset: str
) -> None:
    root, red, identity, key = sealed_campaign(tmp_path, ruleset)
    assert run("view", "--root", root, "--identity", identity)[0] == 0
    draft = root / "orders" / f"{red}.yaml"
    assert run("template", red, "--root", root, "-o", draft)[0] == 0
    # The turn is resolved while the player writes; their clone's view still shows turn 1.
    code, _, err = run("resolve", "--root", root, "--key-file", key)
    assert code == 0, err
    for command in ("seal", "check"):
        code, out, err = run(command, "--root", root, draft)
        assert code == 1, (command, out, err)
        assert "your view in .view/ is of turn 1, but the campaign is at turn 2" in err
        assert "run campaign view again" in err
    assert not (root / "orders" / f"{red}.yaml.age").exists()
    # With the view of the turn that is open, the orders are written again and sealed.
    assert run("view", "--root", root, "--identity", identity)[0] == 0
    assert run("template", red, "--root", root, "-o", draft)[0] == 0
    code, out, err = run("seal", "--root", root, draft)
    assert code == 0, out + err
    assert (root / "orders" / f"{red}.yaml.age").is_file()


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_a_file_with_errors_is_not_sealed_and_seal_says_what_check_says(tmp_path: Path, ruleset: str) -> None:
    root, red, identity, _ = sealed_campaign(tmp_path, ruleset)
    assert run("view", "--root", root, "--identity", identity)[0] == 0
    draft = root / "orders" / f"{red}.yaml"
    assert run("template", red, "--root", root, "-o", draft)[0] == 0
    data = yaml.safe_load(draft.read_text(encoding="utf-8"))
    draft.write_text(yaml.safe_dump({**data, "orders": [{"action": "fly-to-the-moon"}]}), encoding="utf-8")
    checked = run("check", "--root", root, draft)
    sealed = run("seal", "--root", root, draft)
    assert checked[0] == sealed[0] == 1
    assert sealed[1] == checked[1]  # the same lines, on the same stream
    assert "fly-to-the-moon" in sealed[1]
    assert f"orders/{red}.yaml has errors, so nothing was sealed" in sealed[2]
    assert not (root / "orders" / f"{red}.yaml.age").exists()
