"""campaign rekey: a sealed campaign whose key leaked, or that the GM lost hold of, is sealed to a new key
from the current turn on; the new key alone still opens and verifies the whole archive."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver import workflow
from resolver.store import sealing
from resolver.store.store import Store

from .sealed_play import run


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def sealed_demo(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    code, out = run("demo", "--ruleset", "factions", "--sealed", "--turns", "2", "--root", root, "--quiet")
    assert code == 0, out
    return root


def play(root: Path, key_file: Path, turns: int) -> None:
    sealing.use_key_file(key_file)
    try:
        for _ in range(turns):
            workflow.play_bot_turn(root)
    finally:
        sealing.forget_key()


def test_after_a_rekey_the_new_key_alone_verifies_everything_and_the_old_one_opens_nothing_new(
    sealed_demo: Path, tmp_path: Path
) -> None:
    old, new = sealed_demo / workflow.DEMO_KEY, tmp_path / "new-key.txt"
    code, out = run("rekey", "--root", sealed_demo, "--key-file", old, "--new-key-file", new)
    assert code == 0 and "From turn 3 on" in out, out
    assert oct(new.stat().st_mode & 0o777) == "0o600"
    play(sealed_demo, new, 2)
    code, out = run("verify", "--root", sealed_demo, "--key-file", new)
    assert code == 0 and "4 of 4 turn(s) replay byte-identically" in out, out
    code, out = run("verify", "--root", sealed_demo)  # anyone, without a key: the salt was committed again
    assert code == 0 and "4 of 4 sealed turn(s) match in their public parts" in out, out
    old_key = sealing.read_key_text(old.read_text(encoding="utf-8"))
    campaign = sealed_demo / "campaign"
    later = [campaign / "state.yaml.age", *sorted((campaign / "turns").glob("000[34]/**/*.age"))]
    assert len(later) > 10
    for path in later:  # a leaked old key reads nothing sealed since the rekey
        with pytest.raises(sealing.SealedError):
            sealing.decrypt_with_key(path.read_bytes(), old_key)
    new_key = sealing.read_key_text(new.read_text(encoding="utf-8"))
    with pytest.raises(sealing.SealedError):  # the new key opens the old turns through the kept keys only
        sealing.decrypt_with_key((campaign / "turns/0001/events.yaml.age").read_bytes(), new_key)


def test_rekey_refuses_without_the_current_key_and_never_overwrites_a_key(
    sealed_demo: Path, tmp_path: Path
) -> None:
    before = tree(sealed_demo)
    stranger = tmp_path / "stranger.txt"
    stranger.write_text(sealing.new_key()[0] + "\n", encoding="utf-8")
    code, out = run("rekey", "--root", sealed_demo, "--key-file", stranger, "--new-key-file", tmp_path / "n")
    assert code == 2 and "not this campaign's key" in out, out
    old = sealed_demo / workflow.DEMO_KEY
    code, out = run("rekey", "--root", sealed_demo, "--key-file", old, "--new-key-file", old)
    assert code == 2 and "exists already" in out, out
    assert tree(sealed_demo) == before
    assert Store(sealed_demo).key_epochs()[-1]["from_turn"] == 1
