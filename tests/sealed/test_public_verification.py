"""What anyone checks of a sealed campaign without its key, and what a player checks with their own key:
every public roll drawn again from the public record, each player's orders, view and report against the
turn's commitments, and dice that wait for the beacon round the turn committed to."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from resolver import workflow
from resolver.core import canonical
from resolver.store import beacon, replay, sealing
from resolver.store.store import PUBLIC_EVENTS, RECEIPTS, Store

from .sealed_play import run


@pytest.fixture(scope="module")
def sealed_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("verification") / "demo"
    code, out = run("demo", "--ruleset", "seasons", "--sealed", "--turns", "2", "--root", root, "--quiet")
    assert code == 0, out
    return root


def test_anyone_draws_every_public_roll_again_without_the_key(sealed_demo: Path) -> None:
    code, out = run("verify", "--root", sealed_demo)
    assert code == 0 and "public roll(s) drawn again from the public record" in out, out
    folder = sealed_demo / "campaign" / "turns" / "0001"
    inputs = canonical.read_yaml(folder / "inputs.yaml")
    problems, note = replay.public_roll_problems(inputs, folder, "turn 1")
    assert problems == [] and int(note.split()[0]) > 10
    # A roll published with other faces than its seed draws is named (the digest check aside).
    events = canonical.read_yaml(folder / PUBLIC_EVENTS)
    roll = next(r for e in events["events"] for r in e.get("rolls") or [])
    original = (folder / PUBLIC_EVENTS).read_bytes()
    roll["dice"] = [7 - d for d in roll["dice"]]
    try:
        canonical.write_yaml(folder / PUBLIC_EVENTS, events)
        problems, _ = replay.public_roll_problems(inputs, folder, "turn 1")
        assert problems == [f"turn 1/{PUBLIC_EVENTS}: the roll {roll['label']} is not the one its seed draws"]
    finally:
        (folder / PUBLIC_EVENTS).write_bytes(original)
    # A turn seed that does not follow from the published commitments and salt is named.
    forged = {**inputs, "salt": "0" * 64}
    assert "turn seed does not follow" in replay.public_roll_problems(forged, folder, "turn 1")[0][0]


def test_a_player_checks_their_own_orders_view_and_report_and_nobody_elses(sealed_demo: Path) -> None:
    keys = sealed_demo / workflow.DEMO_PLAYER_KEYS
    code, out = run("verify", "--root", sealed_demo, "--identity", keys / "red.txt")
    assert code == 0, out
    assert out.count("the orders, view and report of red match what the turn committed to") == 2
    folder = sealed_demo / "campaign" / "turns" / "0002"
    identity = sealing.load_identity(keys / "red.txt")
    receipt = canonical.load(sealing.decrypt((folder / RECEIPTS / "red.yaml.age").read_bytes(), [identity]))
    assert replay.own_commitment_problems(folder, "red", receipt, identity) == []
    # Orders other than those the turn committed to, or another key: each is caught.
    tampered = {**receipt, "orders": {**receipt["orders"], "orders": []}}
    problems = replay.own_commitment_problems(folder, "red", tampered, identity)
    assert problems and "orders does not match" in problems[0]
    other = {**receipt, "commitment_key": "11" * 32}
    assert len(replay.own_commitment_problems(folder, "red", other, identity)) == 3
    # Red's key opens red's receipt alone: it holds no key to anyone else's commitments.
    for path in (folder / RECEIPTS).glob("*.age"):
        if path.name != "red.yaml.age":
            with pytest.raises(sealing.SealedError):
                sealing.decrypt(path.read_bytes(), [identity])


def test_a_turn_waits_for_its_beacon_round_and_writes_nothing_before(tmp_path: Path) -> None:
    """A sealed campaign on drand's beacon: the round its first turn committed to comes after the deadline,
    so resolving now stops with when to try again, and leaves every file as it was."""
    root = tmp_path / "campaign"
    code, out = run("new", "--root", root, "--sealed", "--key-file", tmp_path / "key.txt")
    assert code == 0, out
    store = Store(root)
    committed = store.committed_beacon_round(1)
    assert committed is not None and store.beacon_network() == beacon.QUICKNET
    assert beacon.time_of(beacon.QUICKNET, committed) > datetime.now(UTC)
    before = {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    code, out = run("resolve", "--root", root, "--key-file", tmp_path / "key.txt")
    assert code == 1 and f"round {committed} of drand's quicknet beacon is published at" in out, out
    assert "run the resolve again after" in out
    assert {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()} == before
