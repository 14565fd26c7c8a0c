"""`campaign keygen`: a player makes the age key a sealed campaign seals to, with the kit alone; the
secret goes into a file only they can read, and never onto a screen or into a log unasked."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from resolver.store import sealing

from .sealed_play import run


def test_keygen_writes_a_key_only_its_owner_can_read_and_prints_its_public_half(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no campaign here: keygen needs none
    permissive = os.umask(0)  # even with a umask that lets everyone read new files, the key stays private
    try:
        code, out = run("keygen", "-o", "keys/me.txt")
    finally:
        os.umask(permissive)
    assert code == 0, out
    path = tmp_path / "keys" / "me.txt"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    secret = sealing.read_key_text(path.read_text(encoding="utf-8"))
    public = sealing.public_of(secret)
    assert [line.strip() for line in out.splitlines() if line.strip().startswith("age1")] == [public]
    assert "AGE-SECRET-KEY" not in out
    # The file is an identity the kit reads (campaign view --identity), and age itself would read it.
    sealed = sealing.encrypt(b"your view\n", [public])
    assert sealing.decrypt(sealed, [sealing.load_identity(path)]) == b"your view\n"
    assert f"# public key: {public}\n" in path.read_text(encoding="utf-8")


def test_keygen_never_overwrites_a_file(tmp_path: Path) -> None:
    path = tmp_path / "me.txt"
    path.write_text("the only copy of an older key\n", encoding="utf-8")
    code, out = run("keygen", "-o", path)
    assert code == 2 and "exists already" in out, out
    assert path.read_text(encoding="utf-8") == "the only copy of an older key\n"


@pytest.mark.parametrize("arguments", [(), ("--show-key",)])
def test_keygen_prints_no_secret_into_a_log(arguments: tuple[str, ...]) -> None:
    code, out = run("keygen", *arguments)
    assert code == 2, out
    assert "AGE-SECRET-KEY" not in out
    assert "-o FILE" in out


def test_keygen_refuses_a_file_inside_a_campaign_repository(tmp_path: Path) -> None:
    assert run("new", "--root", tmp_path / "game", "--factions", "2")[0] == 0
    target = tmp_path / "game" / "orders" / "my-key.txt"
    code, out = run("keygen", "-o", target)
    assert code == 2 and "inside the campaign repository" in out, out
    assert not target.exists()
