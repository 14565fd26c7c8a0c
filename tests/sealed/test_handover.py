"""Issue 25 section 2: the GM hands a sealed campaign's faction to a new player with `campaign handover`.

The new player gets new keys and the faction's newest view, so they can play at once; the old player's
earlier reports stay closed to them unless the GM names them; the old player opens nothing sealed
afterwards; players.yaml records who played which turns. Shared by every ruleset."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from resolver.engine.ruleset import RULESETS
from resolver.store import sealing
from resolver.store.handover import stints

from ..sides import faction_of, sides
from .sealed_play import run
from .test_replaced_player import TURNS, archive_bytes, keygen, play


@pytest.fixture(scope="module", params=RULESETS)
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sealed campaign of the ruleset, alice's faction and bob's each with their own age key (in
    ``alice-key.txt``, ``bob-key.txt``), after two turns."""
    base = tmp_path_factory.mktemp(f"handover-{request.param}")
    roster = {"gm": {"logins": ["dora"]}, "factions": {}}
    for faction, login in zip(sides(request.param, 2), ("alice", "bob"), strict=True):
        public = keygen(base / f"{login}-key.txt")
        roster["factions"][faction] = {
            "name": faction.title(), "logins": [login], "ids": [100 + len(login)], "recipients": [public]
        }  # fmt: skip
    (base / "players.yaml").write_text(yaml.safe_dump(roster), encoding="utf-8")
    root = base / "game"
    code, out = run(
        "new", "--root", root, "--ruleset", request.param, "--players", base / "players.yaml",
        "--sealed", "--beacon", "test", "--key-file", base / "gm-key.txt",
    )  # fmt: skip
    assert code == 0, out
    play(root, TURNS)
    return root


@pytest.fixture
def game(played: Path, tmp_path: Path) -> Path:
    for key in played.parent.glob("*-key.txt"):
        shutil.copy(key, tmp_path / key.name)
    root = tmp_path / "game"
    shutil.copytree(played, root)
    return root


def players(root: Path) -> dict:
    return yaml.safe_load((root / "campaign/players.yaml").read_text(encoding="utf-8"))


def test_handover_gives_the_new_player_the_view_but_not_the_old_players_reports(game: Path) -> None:
    newcomer, leaver = game.parent / "newcomer-key.txt", game.parent / "bob-key.txt"
    blue = faction_of(game, "bob")
    public = keygen(newcomer)
    archive = archive_bytes(game)
    code, out = run(
        "handover", "--root", game, blue, "--login", "Erin", "--recipient", public,
        "--key-file", game.parent / "gm-key.txt",
    )  # fmt: skip
    assert code == 0, out
    assert f"{blue} is played by Erin from turn {TURNS + 1} on." in out
    assert f"Recorded in campaign/players.yaml: bob: turns 1 to {TURNS}." in out
    assert f"the view of turn {TURNS + 1}, and none of the earlier reports" in out
    entry = players(game)["factions"][blue]
    assert entry["logins"] == ["erin"] and entry["recipients"] == [public] and "ids" not in entry
    assert entry["played_by"] == [{"logins": ["bob"], "from": 1, "to": TURNS}] and entry["since"] == TURNS + 1
    assert [s.describe() for s in stints(entry)] == [f"bob: turns 1 to {TURNS}", f"erin: turn {TURNS + 1} on"]
    assert archive_bytes(game) == archive  # the archive is never touched
    resealed = sorted((game / "campaign/resealed" / blue).rglob(f"*{sealing.SUFFIX}"))
    assert [p.relative_to(game / "campaign").as_posix() for p in resealed] == [
        f"resealed/{blue}/{TURNS:04d}/view.yaml.age"
    ]
    with pytest.raises(sealing.SealedError):  # the copy is the new player's, not the leaver's
        sealing.decrypt(resealed[0].read_bytes(), [sealing.load_identity(leaver)])

    code, out = run("view", "--root", game, "--identity", newcomer)
    assert code == 0, out
    assert f"Your view as {blue} of turn {TURNS + 1}" in out
    assert f"{TURNS} were sealed before your key was added" in out  # the old reports stay closed
    assert not (game / sealing.VIEW_DIR / "reports").exists() or not any(
        (game / sealing.VIEW_DIR / "reports").iterdir()
    )

    # The next turn is sealed to the newcomer alone.
    play(game, 1)
    code, out = run("view", "--root", game, "--identity", leaver)
    assert code == 1 and f"no faction's view of turn {TURNS + 2} opens" in out
    code, out = run("view", "--root", game, "--identity", newcomer)
    assert code == 0 and f"Your view as {blue} of turn {TURNS + 2}" in out, out
    code, out = run("verify", "--root", game, "--key-file", game.parent / "gm-key.txt")
    assert code == 0 and f"{TURNS + 1} of {TURNS + 1} turn(s) replay byte-identically" in out, out


def test_the_gm_may_hand_over_chosen_reports(game: Path) -> None:
    newcomer = game.parent / "newcomer-key.txt"
    public, blue = keygen(newcomer), faction_of(game, "bob")
    code, out = run(
        "handover", "--root", game, blue, "--login", "erin", "--recipient", public, "--reports", "2",
        "--key-file", game.parent / "gm-key.txt",
    )  # fmt: skip
    assert code == 0 and "and the reports of turn 2" in out, out
    code, out = run("view", "--root", game, "--identity", newcomer)
    assert code == 0 and "Opened 1 of 2 reports" in out, out


GM_KEY = ("--key-file", "gm-key.txt")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("blue", "--login", "erin", *GM_KEY), "needs keys of their own"),
        (("blue", "--login", "erin", "--recipient", "NEW"), "campaign handover needs the campaign key"),
        (
            ("blue", "--login", "erin", "--recipient", "SECRET", "--key-file", "gm-key.txt"),
            "is not a public key",
        ),
        (("nobody", "--login", "erin", "--recipient", "NEW", *GM_KEY), "unknown faction"),
    ],
)
def test_handover_refuses_a_mistake_and_changes_nothing(
    game: Path, arguments: tuple[str, ...], message: str
) -> None:
    before = (game / "campaign/players.yaml").read_bytes()
    public, secret = keygen(game.parent / "newcomer-key.txt"), sealing.new_key()[0]
    values = {"NEW": public, "SECRET": secret, "blue": faction_of(game, "bob")}  # bob's, in this ruleset
    given = [game.parent / a if a.endswith("-key.txt") else values.get(a, a) for a in arguments]
    code, out = run("handover", "--root", game, *given)
    assert code == 2 and message in out, out
    assert "AGE-SECRET-KEY" not in out and "Traceback" not in out
    assert (game / "campaign/players.yaml").read_bytes() == before
    assert not (game / "campaign/resealed").exists()
