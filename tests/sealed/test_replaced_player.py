"""A faction's player is replaced in mid-game: the newcomer reads what was sealed to them, the GM hands
over the rest with `campaign reseal`, and the player who left opens nothing sealed afterwards."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from resolver import workflow
from resolver.engine.ruleset import RULESETS
from resolver.store import sealing

from ..sides import faction_of, sides
from .sealed_play import run

TURNS = 2  # turns played before the player is replaced


def keygen(path: Path) -> str:
    """A player's age key file; returns its public line (campaign keygen has tests of its own)."""
    secret, public = sealing.new_key()
    path.write_text(f"# public key: {public}\n{secret}\n", encoding="utf-8")
    return public


def play(root: Path, turns: int) -> None:
    """Resolve turns with bot orders, the GM's key in hand (as CI holds it)."""
    sealing.use_key_file(root.parent / "gm-key.txt")
    try:
        for _ in range(turns):
            workflow.play_bot_turn(root)
    finally:
        sealing.forget_key()


@pytest.fixture(scope="module", params=RULESETS)
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sealed campaign of the ruleset, alice's faction and bob's each with their own age key (in
    ``alice-key.txt``, ``bob-key.txt``), after two turns."""
    base = tmp_path_factory.mktemp(f"replaced-{request.param}")
    roster = {"gm": {"logins": ["dora"]}, "factions": {}}
    for faction, login in zip(sides(request.param, 2), ("alice", "bob"), strict=True):
        public = keygen(base / f"{login}-key.txt")
        roster["factions"][faction] = {"name": faction.title(), "logins": [login], "recipients": [public]}
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
    """This test's own copy of the played campaign, its keys beside it."""
    for key in played.parent.glob("*-key.txt"):
        shutil.copy(key, tmp_path / key.name)
    root = tmp_path / "game"
    shutil.copytree(played, root)
    return root


def replace_blue(root: Path) -> Path:
    """The GM lists a newcomer's key for bob's faction in place of bob's; returns the newcomer's key
    file."""
    newcomer = root.parent / "newcomer-key.txt"
    public = keygen(newcomer)
    players = root / "campaign" / "players.yaml"
    data = yaml.safe_load(players.read_text(encoding="utf-8"))
    data["factions"][faction_of(root, "bob")]["recipients"] = [public]
    players.write_text(yaml.safe_dump(data), encoding="utf-8")
    return newcomer


def archive_bytes(root: Path) -> dict[str, bytes]:
    turns = root / "campaign" / "turns"
    return {p.relative_to(turns).as_posix(): p.read_bytes() for p in sorted(turns.rglob("*")) if p.is_file()}


def test_a_newcomers_view_opens_what_was_sealed_to_them_and_counts_the_rest(game: Path) -> None:
    newcomer, blue = replace_blue(game), faction_of(game, "bob")
    play(game, 1)  # turn 3 is the first sealed to the newcomer
    code, out = run("view", "--root", game, "--identity", newcomer)
    assert code == 0, out
    assert f"Your view as {blue} of turn 4" in out
    assert (
        "Opened 1 of 3 reports; 2 were sealed before your key was added: ask the GM to reseal them "
        f"(campaign reseal --faction {blue})." in out
    )
    view = game / sealing.VIEW_DIR
    assert yaml.safe_load((view / "state.yaml").read_text(encoding="utf-8"))["turn"] == 4
    assert sorted(p.name for p in (view / "reports").iterdir()) == ["0003.md"]


def test_a_newcomer_whose_view_was_sealed_before_them_is_told_to_ask_for_a_reseal(game: Path) -> None:
    newcomer, blue = replace_blue(game), faction_of(game, "bob")
    code, out = run("view", "--root", game, "--identity", newcomer)
    assert code == 1
    assert f"your key is among the recipients of {blue}" in out
    assert f"campaign reseal --faction {blue}" in out
    assert not (game / sealing.VIEW_DIR).exists()


def test_reseal_hands_the_view_and_reports_to_the_new_player_and_not_to_the_old(game: Path) -> None:
    newcomer, leaver, blue = replace_blue(game), game.parent / "bob-key.txt", faction_of(game, "bob")
    archive = archive_bytes(game)
    code, out = run("reseal", "--root", game, "--faction", blue, "--key-file", game.parent / "gm-key.txt")
    assert code == 0, out
    assert f"Resealed the view of turn {TURNS + 1} and 2 reports (turns 1, 2) of {blue}" in out
    assert archive_bytes(game) == archive  # the archive is never touched
    resealed = sorted((game / "campaign" / "resealed" / blue).rglob(f"*{sealing.SUFFIX}"))
    assert [p.relative_to(game / "campaign").as_posix() for p in resealed] == [
        f"resealed/{blue}/0001/report.md.age",
        f"resealed/{blue}/0002/report.md.age",
        f"resealed/{blue}/0002/view.yaml.age",
    ]
    old = sealing.load_identity(leaver)
    for path in resealed:
        with pytest.raises(sealing.SealedError):
            sealing.decrypt(path.read_bytes(), [old])

    code, out = run("view", "--root", game, "--identity", newcomer)
    assert code == 0, out
    assert f"Your view as {blue} of turn {TURNS + 1}" in out and "2 reports" in out and "Opened" not in out
    assert sorted(p.name for p in (game / sealing.VIEW_DIR / "reports").iterdir()) == ["0001.md", "0002.md"]

    # Both kinds of verify still pass: the copies live outside the archive that digest.yaml binds.
    assert run("verify", "--root", game)[0] == 0
    code, out = run("verify", "--root", game, "--key-file", game.parent / "gm-key.txt")
    assert code == 0 and f"{TURNS} of {TURNS} turn(s) replay byte-identically" in out, out

    # The next turn is sealed to the newcomer alone: the player who left cannot read it.
    play(game, 1)
    code, out = run("view", "--root", game, "--identity", leaver)
    assert code == 1 and f"no faction's view of turn {TURNS + 2} opens" in out
    code, out = run("view", "--root", game, "--identity", newcomer)
    assert code == 0 and "3 reports" in out, out


def test_reseal_of_chosen_turns_leaves_the_others_counted_as_unopened(game: Path) -> None:
    newcomer, blue = replace_blue(game), faction_of(game, "bob")
    gm_key = game.parent / "gm-key.txt"
    code, out = run("reseal", "--root", game, "--faction", blue, "--turns", "2", "--key-file", gm_key)
    assert code == 0 and "1 report (turn 2)" in out, out
    code, out = run("view", "--root", game, "--identity", newcomer)
    assert code == 0 and "Opened 1 of 2 reports; 1 was sealed before your key was added" in out, out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--faction", "blue"), "campaign reseal needs the campaign key"),
        (("--faction", "blue", "--key-file", "alice-key.txt"), "that key is not this campaign's key"),
        (("--faction", "nobody", "--key-file", "gm-key.txt"), "unknown faction 'nobody'"),
        (("--faction", "blue", "--turns", "7", "--key-file", "gm-key.txt"), "no sealed report of turn(s) 7"),
        (("--faction", "blue", "--turns", "two", "--key-file", "gm-key.txt"), "is not a turn or a range"),
    ],
)
def test_reseal_refuses_a_mistake_and_writes_nothing(
    game: Path, arguments: tuple[str, ...], message: str
) -> None:
    replace_blue(game)
    # "blue" stands for bob's faction, whatever this ruleset calls it.
    blue = faction_of(game, "bob")
    given = [game.parent / a if a.endswith("-key.txt") else blue if a == "blue" else a for a in arguments]
    code, out = run("reseal", "--root", game, *given)
    assert code == 2 and message in out, out
    assert "AGE-SECRET-KEY" not in out
    assert not (game / "campaign" / "resealed").exists()


def test_reseal_refuses_a_faction_without_recipients(game: Path) -> None:
    players = game / "campaign" / "players.yaml"
    data, blue = yaml.safe_load(players.read_text(encoding="utf-8")), faction_of(game, "bob")
    del data["factions"][blue]["recipients"]
    players.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, out = run("reseal", "--root", game, "--faction", blue, "--key-file", game.parent / "gm-key.txt")
    assert code == 1 and f"{blue} has no recipients" in out and "campaign keygen" in out, out
    assert not (game / "campaign" / "resealed").exists()


def test_reseal_refuses_a_recipient_that_is_no_public_key_and_never_echoes_it(game: Path) -> None:
    secret = sealing.new_key()[0]
    players = game / "campaign" / "players.yaml"
    data, blue = yaml.safe_load(players.read_text(encoding="utf-8")), faction_of(game, "bob")
    data["factions"][blue]["recipients"] = [secret]  # the newcomer pasted the wrong line
    players.write_text(yaml.safe_dump(data), encoding="utf-8")
    code, out = run("reseal", "--root", game, "--faction", blue, "--key-file", game.parent / "gm-key.txt")
    assert code == 1 and f"{blue}'s recipient 1 is not a public key" in out, out
    assert "AGE-SECRET-KEY" not in out and secret[16:26] not in out
    assert not (game / "campaign" / "resealed").exists()


def test_reseal_refuses_an_archived_file_that_is_not_the_one_its_turn_sealed(game: Path) -> None:
    """A swapped report (here another faction's, validly sealed) is never passed on to the newcomer."""
    replace_blue(game)
    red, blue = faction_of(game, "alice"), faction_of(game, "bob")
    reports = game / "campaign" / "turns" / "0001" / "reports"
    shutil.copy(reports / f"{red}.md{sealing.SUFFIX}", reports / f"{blue}.md{sealing.SUFFIX}")
    code, out = run("reseal", "--root", game, "--faction", blue, "--key-file", game.parent / "gm-key.txt")
    assert code == 1 and "is not the file turn 1 sealed" in out, out
    assert not (game / "campaign" / "resealed").exists()
