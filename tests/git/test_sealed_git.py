"""A sealed `factions` campaign played through git: sealed orders, the keyless check, merges, and
resolutions with the key in CI's environment; no secret ever reaches the repository in plain text."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any
from unittest import mock

import pyrage
import yaml

from resolver.core import canonical
from resolver.engine.bots import bot_order_file
from resolver.store import sealing
from resolver.store.store import Store

from .gitsim import LOGIN_OF, PLAYERS, Campaign, PullRequest, cli

STEALTH = "MARKER-STEALTH-c41f"
GM_WORD = "MARKER-GMSAYS-9b2e"
SECRET_ORDER = "MARKER-ORDER-77aa"
PLACED: list[str] = []  # the markers the orders really carried


def identities(base: Path) -> tuple[dict[str, Path], dict[str, Any]]:
    """Each player's identity file and the roster listing their public keys: red and green use age
    keys, blue the SSH key it already has."""
    paths, roster = {}, yaml.safe_load(yaml.safe_dump(PLAYERS))
    for faction in ("red", "green"):
        identity = pyrage.x25519.Identity.generate()
        paths[faction] = base / f"{faction}-key.txt"
        paths[faction].write_text(f"{identity}\n", encoding="utf-8")
        roster["factions"][faction]["recipients"] = [str(identity.to_public())]
    paths["blue"] = base / "blue-ssh"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(paths["blue"])], check=True)
    roster["factions"]["blue"]["recipients"] = [paths["blue"].with_suffix(".pub").read_text().strip()]
    return paths, roster


def sealed_world(tmp_path: Path) -> tuple[dict[str, Path], Campaign]:
    """A sealed factions campaign on origin, its key in the GM's folder (outside every clone)."""
    ids, roster = identities(tmp_path)
    world = Campaign.create(
        tmp_path / "game",
        roster=roster,
        options=(
            "--ruleset",
            "factions",
            "--sealed",
            "--beacon",
            "test",
            "--key-file",
            str(tmp_path / "game" / "gm-key.txt"),
        ),
    )
    return ids, world


def with_key(world: Campaign) -> Any:
    key = sealing.read_key_text((world.base / "gm-key.txt").read_text(encoding="utf-8"))
    return mock.patch.dict(os.environ, {sealing.KEY_VARIABLE: key})


def player_orders(world: Campaign, faction: str, turn: int) -> bytes:
    """Legal orders for the faction, with a marker in a stealthy action (red) or in a plan (blue)."""
    with with_key(world):
        store = Store(world.ci)
        state = store.state()
        game = store.game(state)
        data = canonical.load(bot_order_file(game, state, faction).raw)
    fields = {name: {f.name for f in spec.fields} for name, spec in game.actions.items()}
    planned = [o for o in data.get("orders") or [] if "plan" in fields[o["action"]]]
    sneaky = [o for o in planned if "stealthy" in fields[o["action"]]]
    if faction == "red" and (sneaky or planned):
        order = (sneaky or planned)[0]
        order["plan"] = f"{STEALTH} turn {turn}"
        if sneaky:
            order["stealthy"] = True
        PLACED.append(STEALTH)
    if faction == "blue" and planned:
        planned[0]["plan"] = f"{SECRET_ORDER} turn {turn}"
        PLACED.append(SECRET_ORDER)
    data.pop("press", None)  # press is public by design; the markers must stay secret
    return canonical.dump(data)


def all_objects(world: Campaign) -> bytes:
    """Every object of every commit, branch and tag on origin, as git stores them (uncompressed)."""
    done = subprocess.run(
        ["git", "-C", str(world.origin), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True,
        check=True,
    )
    return done.stdout


def test_three_sealed_turns_through_git_keep_every_secret(tmp_path: Path) -> None:
    ids, world = sealed_world(tmp_path)
    gm = world.clone("dora")
    assert (gm / "campaign" / "state.yaml.age").is_file()
    assert not list((gm / "orders").glob("templates/*.yaml"))  # templates would show positions
    outputs = []
    for turn in (1, 2, 3):
        world.sync(world.ci)
        for faction in ("red", "blue", "green"):
            clone = world.clone(LOGIN_OF[faction])
            world.sync(clone)
            viewed = cli("view", "--root", clone, "--identity", ids[faction])
            assert viewed.code == 0, viewed.err
            assert f"as {faction} of turn {turn}" in viewed.out
            path = clone / "orders" / f"{faction}.yaml"
            template = cli("template", faction, "--root", clone, "-o", path)
            assert template.code == 0, template.err
            if faction == "green" and turn == 2:
                # A file that passes the envelope check but not the full one, sealed by hand.
                bad = b"campaign: nope\nturn: 2\nfaction: green\norders:\n  - action: fly\n"
                raw = sealing.encrypt(bad, Store(clone).recipients(["green"]), sealing.ORDER_FILE_SIZE)
                (clone / "orders" / "green.yaml.age").write_bytes(raw)
            else:
                path.write_bytes(player_orders(world, faction, turn))
                checked = cli("check", "--root", clone, path)
                assert checked.code == 0, checked.out + checked.err
                sealed = cli("seal", "--root", clone, path)
                assert sealed.code == 0, sealed.err
            pr = world.pull_request(LOGIN_OF[faction], f"{faction}-t{turn}", {})
            assert (
                world.git(clone, "show", "--name-only", "--format=", pr.head) == f"orders/{faction}.yaml.age"
            )
            result = world.check(pr)
            assert result.code == 0, result.out + result.comment
            assert "not checked" in result.comment and "sealed" in result.comment
            world.merge(pr)
        # The GM tells red alone a secret, in sealed GM orders.
        world.sync(gm)
        gm_orders = {
            "campaign": canonical.read_yaml(gm / "campaign" / "campaign.yaml")["campaign"],
            "turn": turn,
            "faction": "gm",
            "orders": [{"action": "narrate", "headline": f"{GM_WORD} {turn}", "to": ["red"]}],
        }
        (gm / "orders" / "gm.yaml").write_bytes(canonical.dump(gm_orders))
        with with_key(world):
            assert cli("seal", "--root", gm, gm / "orders" / "gm.yaml").code == 0
        world.commit(gm, "dora", "GM orders")
        world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
        with with_key(world):
            done = world.resolve("--commit", "--force")
        assert done.code == 0, done.err
        outputs.append(done.out + done.err)
    assert world.tags()[-1] == "turn-3"
    assert {STEALTH, SECRET_ORDER} <= set(PLACED)
    everything = all_objects(world)
    for marker in (STEALTH, GM_WORD, SECRET_ORDER):
        assert marker.encode() not in everything, marker
        assert all(marker not in output for output in outputs)
    assert b"action: fly" not in everything
    # Each player reads their own: red its secret from the GM, blue nothing of it.
    for faction in ("red", "blue", "green"):
        clone = world.clone(LOGIN_OF[faction])
        world.sync(clone)
        assert cli("view", "--root", clone, "--identity", ids[faction]).code == 0
        reports = "".join(p.read_text() for p in sorted((clone / ".view" / "reports").glob("*.md")))
        assert (GM_WORD in reports) == (faction == "red"), faction
        with with_key(world):
            full = Store(world.ci).state()
            game = Store(world.ci).game(full)
        view = canonical.read_yaml(clone / ".view" / "state.yaml")
        assert view == game.ruleset.faction_view(game, full, faction)
        if faction == "green":
            assert "were refused at resolution" in reports  # turn 2's bad file, told to green alone
    assert "refused" not in "".join(outputs)
    # With the key, every turn replays; without it, the public parts check.
    with with_key(world):
        assert cli("verify", "--root", world.ci).code == 0
    public = cli("verify", "--root", world.ci)
    assert public.code == 0 and "public parts match" in public.out


def test_a_plain_order_file_is_refused_in_a_sealed_campaign(tmp_path: Path) -> None:
    _, world = sealed_world(tmp_path)
    # .gitignore keeps plain drafts out of commits; a player who forces one in is still refused.
    alice = world.clone("alice")
    (alice / "orders" / "red.yaml").write_bytes(b"faction: red\n")
    world.git(alice, "checkout", "--quiet", "-b", "plain")
    world.git(alice, "add", "--force", "orders/red.yaml")
    head = world.commit(alice, "alice", "plain orders")
    world.git(alice, "push", "--quiet", "origin", "HEAD:refs/heads/plain")
    refused = world.check(PullRequest("plain", "alice", head))
    assert refused.code == 1
    assert "orders/red.yaml.age" in refused.comment
    garbage = world.pull_request("alice", "junk", {"orders/red.yaml.age": b"not age at all\n"}, "junk")
    refused = world.check(garbage)
    assert refused.code == 1 and "is not a sealed order file" in refused.comment
