"""What the public pull-request check says of keys: nothing about who shares a sealed file, and, in a
GM's pull request that changes the players, every recipient read, so a key that cannot be read (or a
secret key pasted by mistake) is refused there, with its line, and never reaches a resolution."""

from __future__ import annotations

import re
from pathlib import Path

import pyrage
import pytest
import yaml

from resolver.engine.ruleset import RULESETS
from resolver.store import sealing
from resolver.store.store import Store

from .gitsim import Campaign, cli
from .sealedsim import sealed_campaign


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_comment_says_nothing_of_who_else_can_read_a_sealed_file(tmp_path: Path, ruleset: str) -> None:
    """Red (alice's faction) shares its orders with blue (bob's, an SSH key) and green (carol's, an age
    key): the file's header shows it to anyone who reads it, but the kit's public comment does not point
    it out."""
    ids, world = sealed_campaign(tmp_path, ruleset)
    red, blue, green = (world.faction_of(login) for login in ("alice", "bob", "carol"))
    alice = world.clone("alice")
    world.sync(alice)
    assert cli("view", "--root", alice, "--identity", ids[red]).code == 0
    plain = alice / "orders" / f"{red}.yaml"
    assert cli("template", red, "--root", alice, "-o", plain).code == 0
    everyone = Store(alice).recipients([red, blue, green])
    assert any(r.startswith("ssh-") for r in everyone)
    shared = sealing.encrypt(plain.read_bytes(), everyone, sealing.ORDER_FILE_SIZE)
    pr = world.pull_request("alice", "shared", {f"orders/{red}.yaml.age": shared})
    done = world.check(pr)
    assert done.code == 0, done.comment
    public = done.out + done.comment
    for telling in ("recipients", "SSH key", "not your faction", "encrypted to", "someone else"):
        assert telling not in public, telling


def players_with(world: Campaign, faction: str, recipient: str) -> tuple[bytes, int]:
    """origin's players file with ``recipient`` added to ``faction``, and the line it is on."""
    world.sync(world.ci)
    data = yaml.safe_load((world.ci / "campaign" / "players.yaml").read_text(encoding="utf-8"))
    data["factions"][faction]["recipients"].append(recipient)
    text = yaml.safe_dump(data, width=1000)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if recipient in row)
    return text.encode(), line


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_a_gms_unreadable_recipient_is_refused_with_its_line(tmp_path: Path, ruleset: str) -> None:
    _, world = sealed_campaign(tmp_path, ruleset)
    green = world.faction_of("carol")
    raw, line = players_with(world, green, "age1thisisnotakey")
    done = world.check(world.pull_request("dora", "new-key", {"campaign/players.yaml": raw}))
    assert done.code == 1, done.comment
    assert re.search(rf"::error file=campaign/players.yaml,line={line},col=\d+,", done.out), done.out
    assert f"faction {green}: recipient 2" in done.comment
    assert "is not an age recipient" in done.comment and "fix: paste the public key itself" in done.comment


def test_a_pasted_secret_key_is_refused_and_never_shown(tmp_path: Path) -> None:
    _, world = sealed_campaign(tmp_path)
    secret = str(pyrage.x25519.Identity.generate())
    raw, line = players_with(world, "red", secret)
    done = world.check(world.pull_request("dora", "oops", {"campaign/players.yaml": raw}))
    assert done.code == 1
    assert f"file=campaign/players.yaml,line={line}," in done.out
    assert "this is a secret key, not a public one" in done.comment
    body = secret.removeprefix("AGE-SECRET-KEY-1")
    for output in (done.out, done.err, done.comment):
        assert "AGE-SECRET-KEY" not in output.upper()
        assert not [body[i : i + 8] for i in range(len(body) - 7) if body[i : i + 8] in output]


def test_a_broken_players_file_is_named_without_quoting_its_text(tmp_path: Path) -> None:
    """PyYAML's own error text quotes the lines around the fault, cut to a width: the middle of a pasted
    key could show there without the prefix that marks it as a key. The check gives the place only."""
    _, world = sealed_campaign(tmp_path)
    secret = str(pyrage.x25519.Identity.generate())
    world.sync(world.ci)
    text = (world.ci / "campaign" / "players.yaml").read_text(encoding="utf-8")
    broken = text.replace("factions:", f"factions: [{secret}: x\n", 1)
    done = world.check(world.pull_request("dora", "typo", {"campaign/players.yaml": broken}))
    assert done.code == 1 and "campaign/players.yaml is not valid YAML: line" in done.comment
    body = secret.removeprefix("AGE-SECRET-KEY-1")
    for output in (done.out, done.comment):
        assert not [body[i : i + 8] for i in range(len(body) - 7) if body[i : i + 8] in output]


def test_an_ssh_recipient_passes_with_advice_to_prefer_an_age_key(tmp_path: Path) -> None:
    ids, world = sealed_campaign(tmp_path)
    ssh = (ids["blue"].with_suffix(".pub")).read_text(encoding="utf-8").strip()
    raw, _ = players_with(world, "green", ssh)
    done = world.check(world.pull_request("dora", "ssh-key", {"campaign/players.yaml": raw}))
    assert done.code == 0, done.comment
    assert "faction green: recipient 2 is an SSH key" in done.comment
    assert "prefer an age key" in done.comment
