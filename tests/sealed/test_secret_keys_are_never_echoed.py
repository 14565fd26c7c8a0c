"""A secret key pasted where it does not belong is never repeated: not by the check quoting a bad
value, not by an error about a recipient, not by a YAML error's excerpt, not by the resolve whose output
is a public log. Each test pastes a fresh age secret key somewhere and looks for any 8 characters of it
in everything the command printed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from unittest import mock

import pyrage
import pytest
import yaml

from resolver.core import canonical
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import RULESETS
from resolver.store import sealing
from resolver.store.store import Store

from ..sides import sides
from .sealed_play import run


def new_secret() -> str:
    return str(pyrage.x25519.Identity.generate())


def shown(secret: str, output: str) -> list[str]:
    """The parts of ``secret`` that ``output`` repeats: its prefix, or any 8 characters of its body."""
    body = secret.removeprefix(sealing.SECRET_PREFIX)
    parts = [body[i : i + 8] for i in range(len(body) - 7)]
    found = [part for part in parts if part in output or part.lower() in output]
    return found + (["AGE-SECRET-KEY"] if "AGE-SECRET-KEY" in output.upper() else [])


def players_file(tmp_path: Path, recipients: dict[str, list[str]]) -> Path:
    roster = {
        "gm": {"logins": ["dora"]},
        "factions": {f: {"name": f.title(), "logins": [f], "recipients": r} for f, r in recipients.items()},
    }
    path = tmp_path / "players.yaml"
    path.write_text(yaml.safe_dump(roster, width=1000), encoding="utf-8")
    return path


def order_files(root: Path, faction: str, secret: str) -> list[Path]:
    """Order files of ``faction`` that carry the secret where a player might paste anything: the
    envelope, an action, a field of an order, one of the bot's orders written as the ruleset writes
    them (a mapping, or Diplomacy's line of text), press, a rumour; and one whose YAML breaks on the line
    that holds it."""
    template = root / "orders" / "templates" / f"{faction}.yaml"
    data = yaml.safe_load(template.read_text(encoding="utf-8"))
    variants = {
        "campaign": {**data, "campaign": secret},
        "faction": {**data, "faction": secret},
        "action": {**data, "orders": [{"action": secret}]},
        "field": {
            **data,
            "orders": [{"action": first_action(root), "to": secret, "plan": secret}],
        },
        # Under the faction's own file name, so that the check reads the order itself.
        faction: {**data, "orders": [pasted(first_order(root, faction), secret)]},
        "press": {**data, "press": [{"headline": secret, "body": f"A note: {secret}"}], "rumors": [secret]},
    }
    paths = []
    for name, variant in variants.items():
        path = root / "orders" / f"{name}.yaml"
        path.write_text(yaml.safe_dump(variant, width=1000), encoding="utf-8")
        paths.append(path)
    broken = root / "orders" / "broken.yaml"
    broken.write_text(template.read_text(encoding="utf-8") + f"plan: {{{secret}: [\n", encoding="utf-8")
    return [*paths, broken]


def first_action(root: Path) -> str:
    store = Store(root)
    return sorted(store.game(store.state()).actions)[0]


def first_order(root: Path, faction: str) -> Any:
    store = Store(root)
    state = store.state()
    return canonical.load(bot_order_file(store.game(state), state, faction).raw)["orders"][0]


def pasted(order: Any, secret: str) -> Any:
    """``order`` with the secret where its destination goes: a mapping's ``to``, or a text order's last
    word (Diplomacy's "A vie - bud" becomes "A vie - AGE-SECRET-KEY-...")."""
    if isinstance(order, str):
        return f"{order.rsplit(' ', 1)[0]} {secret}"
    return {**order, "to": secret}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_check_quotes_no_pasted_secret_key(tmp_path: Path, ruleset: str) -> None:
    root, secret = tmp_path / "c", new_secret()
    red, blue = sides(ruleset, 2)
    players = players_file(tmp_path, {red: [], blue: []})
    assert run("new", "--root", root, "--ruleset", ruleset, "--players", players, "--open")[0] == 0
    # A player's own key file, given to the check by mistake, is a place the secret is pasted too.
    key_file = tmp_path / "red-key.txt"
    key_file.write_text(f"# created: today\n# public key: age1…\n{secret}\n", encoding="utf-8")
    for path in [*order_files(root, red, secret), key_file]:
        for extra in ((), ("--format", "json")):
            code, out = run("check", "--root", root, *extra, path)
            assert code == 1, out  # every one of them is wrong somewhere
            assert not shown(secret, out), (path.name, extra, out)


def test_a_secret_key_given_as_a_recipient_is_named_as_such_and_not_shown(tmp_path: Path) -> None:
    secret = new_secret()
    players = players_file(tmp_path, {"red": [secret], "blue": []})
    code, out = run("new", "--root", tmp_path / "c", "--ruleset", "factions", "--players", players,
                    "--sealed", "--beacon", "test", "--key-file", tmp_path / "key.txt")  # fmt: skip
    assert code == 1
    assert "this is a secret key, not a public one" in out
    assert not shown(secret, out), out
    # A recipient that is merely wrong is quoted (in part), as before: the player sees what they typed.
    players = players_file(tmp_path, {"red": ["age1notakey"], "blue": []})
    code, out = run("new", "--root", tmp_path / "d", "--ruleset", "factions", "--players", players,
                    "--sealed", "--beacon", "test", "--key-file", tmp_path / "key2.txt")  # fmt: skip
    assert code == 1 and "'age1notakey' is not an age recipient" in out
    # An open campaign reads its recipients all the same; and a GM's players file broken on the line
    # that holds the key is named by its place, never by its text.
    players = players_file(tmp_path, {"red": [secret], "blue": []})
    code, out = run("new", "--root", tmp_path / "e", "--ruleset", "factions", "--players", players)
    assert code == 1 and not shown(secret, out), out
    root = tmp_path / "f"
    assert run("new", "--root", root, "--ruleset", "factions", "--factions", "2")[0] == 0
    roster = root / "campaign" / "players.yaml"
    roster.write_text(roster.read_text(encoding="utf-8").replace("factions:", f"factions: [{secret}: x\n", 1))
    code, out = run("check", "--root", root)
    assert code != 0 and not shown(secret, out), out


def test_sealing_an_open_campaign_whose_players_hold_a_secret_key_shows_none_and_changes_nothing(
    tmp_path: Path,
) -> None:
    root, secret = tmp_path / "c", new_secret()
    players = players_file(tmp_path, {"red": [], "blue": []})
    assert run("new", "--root", root, "--ruleset", "factions", "--players", players)[0] == 0
    roster = yaml.safe_load((root / "campaign" / "players.yaml").read_text(encoding="utf-8"))
    roster["factions"]["blue"]["recipients"] = [secret]
    (root / "campaign" / "players.yaml").write_text(yaml.safe_dump(roster), encoding="utf-8")
    before = {path: path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}
    code, out = run("seal-campaign", "--root", root, "--key-file", tmp_path / "key.txt")
    assert code == 1
    assert "campaign/players.yaml: faction blue: recipient 1: this is a secret key" in out
    assert not shown(secret, out), out
    assert {path: path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()} == before
    assert not (tmp_path / "key.txt").exists()  # no key was made for a campaign that was not sealed


def test_a_resolve_stopped_by_a_pasted_secret_recipient_prints_nothing_of_it(tmp_path: Path) -> None:
    """The resolve's output is the public Actions log: a secret merged into the players file stops the
    resolution, and the log says where, not what."""
    root, key, secret = tmp_path / "c", tmp_path / "key.txt", new_secret()
    players = players_file(tmp_path, {"red": [], "blue": []})
    code, out = run(
        "new",
        "--root",
        root,
        "--ruleset",
        "factions",
        "--players",
        players,
        "--sealed",
        "--beacon",
        "test",
        "--key-file",
        key,
    )
    assert code == 0, out
    roster = yaml.safe_load((root / "campaign" / "players.yaml").read_text(encoding="utf-8"))
    roster["factions"]["red"]["recipients"] = [secret]
    (root / "campaign" / "players.yaml").write_text(yaml.safe_dump(roster), encoding="utf-8")
    campaign_key = sealing.read_key_text(key.read_text(encoding="utf-8"))
    with mock.patch.dict(os.environ, {sealing.KEY_VARIABLE: campaign_key}):
        code, out = run("resolve", "--root", root)
    assert code != 0
    assert "secret key" in out
    assert not shown(secret, out), out
    assert not shown(campaign_key, out), out
