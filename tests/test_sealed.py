"""A sealed demo and the dice salt: what the archive publishes, and what nobody can foresee."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from resolver import workflow
from resolver.cli import main
from resolver.core import canonical
from resolver.engine.turn import resolve_turn
from resolver.engine.validate import check_order_file
from resolver.store import beacon, replay, resolution, sealing
from resolver.store.store import Store


def run(*args: str | Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main([str(a) for a in args])
    return code, out.getvalue()


@pytest.fixture(scope="module")
def sealed_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sealed") / "demo"
    code, out = run("demo", "--ruleset", "factions", "--sealed", "--turns", "3", "--root", root, "--quiet")
    assert code == 0, out
    return root


def test_the_sealed_demo_archive_holds_no_plain_secret(sealed_demo: Path) -> None:
    campaign = sealed_demo / "campaign"
    assert (sealed_demo / workflow.DEMO_KEY).is_file()  # the key: in the demo folder, outside campaign/
    assert not (campaign / sealing.PUBLISHED_KEY).exists()
    for turn in ("0001", "0002", "0003"):
        folder = campaign / "turns" / turn
        plain = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
        assert plain >= {"orders.yaml.age", "events.yaml.age", "public-events.yaml", "public-state.yaml"}
        assert not {"orders.yaml", "events.yaml", "state.yaml"} & plain
        assert not [p for p in plain if p.startswith(("reports/", "views/")) and not p.endswith(".age")]
        public = canonical.read_yaml(folder / "public-events.yaml")["events"]
        assert public and all(e["visibility"] == "public" for e in public)
    key = sealing.read_key_text((sealed_demo / workflow.DEMO_KEY).read_text())
    events = canonical.load(
        sealing.decrypt_with_key((campaign / "turns/0001/events.yaml.age").read_bytes(), key)
    )
    assert any(e["visibility"] != "public" for e in events["events"])  # there were secrets to keep
    assert (campaign / "state.yaml.age").is_file()


def test_the_sealed_demo_verifies_with_the_key_then_after_unseal_without_it(sealed_demo: Path) -> None:
    key = sealed_demo / workflow.DEMO_KEY
    code, out = run("verify", "--root", sealed_demo, "--key-file", key)
    assert code == 0 and "3 of 3 turn(s) replay byte-identically" in out, out
    code, out = run("verify", "--root", sealed_demo)
    assert code == 0 and "public parts match" in out, out
    assert run("unseal", "--root", sealed_demo, "--key-file", key)[0] == 0
    try:
        code, out = run("verify", "--all", "--root", sealed_demo)
        assert code == 0 and "3 of 3 turn(s) replay byte-identically" in out, out
    finally:
        (sealed_demo / "campaign" / sealing.PUBLISHED_KEY).unlink()


def test_every_revealed_salt_matches_its_commitments_and_each_forgery_is_caught(sealed_demo: Path) -> None:
    """A sealed turn's salt is the key holder's part, committed when the turn opened, mixed with the beacon
    round the turn committed to; anyone checks all three without the key, and each forgery is named."""
    store = Store(sealed_demo)
    for turn in store.archived_turns():
        inputs = canonical.read_yaml(store.turns_dir / f"{turn:04d}" / "inputs.yaml")
        assert sealing.salt_commitment(inputs["dice_secret"]) == store.salt_commitment(turn)
        assert inputs["beacon"]["round"] == store.committed_beacon_round(turn)
        randomness = beacon.BeaconRound.from_data(inputs["beacon"], "inputs").verify().randomness
        assert (
            inputs["salt"] == sealing.beacon_salt(inputs["dice_secret"], randomness) != inputs["dice_secret"]
        )
        assert replay.salt_problems(store, turn, inputs, f"turn {turn}") == []
    forged = store.turns_dir / "0002" / "inputs.yaml"
    original = forged.read_bytes()
    honest = canonical.load(original)
    other_round = beacon.fetch(beacon.TEST, 7, now=beacon.time_of(beacon.TEST, 8)).to_data()
    forgeries = {
        "does not follow from its revealed part": {"salt": "0" * 64},
        "does not match its commitment": {"dice_secret": "1" * 64},
        "not round 2": {"beacon": other_round},
        "does not verify": {"beacon": {**honest["beacon"], "signature": other_round["signature"]}},
    }
    try:
        for said, change in forgeries.items():
            inputs = {**honest, **change}
            forged.write_bytes(canonical.dump(inputs))
            try:
                problems = replay.salt_problems(store, 2, inputs, "turn 2")
            except beacon.BeaconError as error:  # a signature that does not verify is refused outright
                problems = [error.message]
            assert problems and said in problems[0], (said, problems)
        code, out = run("verify", "--root", sealed_demo)
        assert code != 0 and "does not verify" in out, out
    finally:
        forged.write_bytes(original)


def test_neither_a_player_nor_the_key_holder_can_foresee_any_roll(sealed_demo: Path) -> None:
    """The attacker knows everything but the salt: the state (say, after the game), the other orders,
    and may edit their own file at will; the key's holder also knows its own part of the salt. Every roll
    they compute before the beacon round differs from the dice really rolled."""
    key = sealing.read_key_text((sealed_demo / workflow.DEMO_KEY).read_text())
    sealing.use_key_file(sealed_demo / workflow.DEMO_KEY)
    try:
        store = Store(sealed_demo)
        replayed = list(replay.replay_archive(store, 2))
        state = replayed[0].result.state
        game = store.game(state)
        archived = canonical.load(store.read_secret(store.turns_dir / "0002" / "orders.yaml") or b"")
        files = {
            f: check_order_file(game, state, canonical.dump(entry), f"orders/{f}.yaml")
            for f, entry in archived["orders"].items()
        }
        inputs = canonical.read_yaml(store.turns_dir / "0002" / "inputs.yaml")
        salt = inputs["salt"]
        order, rumors = replayed[1].result.posting_order, archived["rumors"]
        commit = store.commitments(2)
        real = resolve_turn(
            game, state, files, order, salt=salt, rumors=rumors,
            commitments=resolution.order_commitments(commit, files),
        )  # fmt: skip
        # The archived turn is exactly this resolution: the revealed salt reproduces every roll.
        assert real.seed.hex == inputs["turn_seed"]
        # Red tries every version of its file it likes (here: as sent, and with its last order dropped),
        # computing the turn with each salt it could guess; the dice really rolled for that version
        # follow from the secret salt, and none of their streams is the one red computed.
        edited = dict(archived["orders"]["red"], orders=archived["orders"]["red"]["orders"][:-1])
        for version in (archived["orders"]["red"], edited):
            tried = {
                **files,
                "red": check_order_file(game, state, canonical.dump(version), "orders/red.yaml"),
            }
            published = resolution.order_commitments(commit, tried)
            truth = resolve_turn(game, state, tried, order, salt=salt, rumors=rumors, commitments=published)
            assert truth.rolls
            # A player guesses; the key's holder knows its own part of the salt, but not the beacon round
            # that completes it, which is published only after the deadline.
            holder = sealing.turn_salt(key, game.campaign, 2)
            for guess in ("", sealing.turn_salt("AGE-SECRET-KEY-1GUESS", game.campaign, 2), holder):
                foreseen = resolve_turn(
                    game, state, tried, order, salt=guess, rumors=rumors, commitments=published
                )
                drawn = {r.label: r.dice for r in foreseen.rolls}
                for roll in truth.rolls:
                    assert truth.seed.key_for(roll.scope) != foreseen.seed.key_for(roll.scope), roll.label
                assert [r.dice for r in truth.rolls] != [drawn.get(r.label) for r in truth.rolls]
    finally:
        sealing.forget_key()


def test_resolve_warns_when_the_dice_are_predictable(tmp_path: Path) -> None:
    assert run("new", "--root", tmp_path, "--ruleset", "factions", "--factions", "2")[0] == 0
    code, out = run("resolve", "--root", tmp_path)
    assert code == 0 and "dice are predictable" in out


def test_a_key_given_at_new_salts_an_open_campaign(tmp_path: Path) -> None:
    key = tmp_path / "key.txt"
    root = tmp_path / "c"
    assert run("new", "--root", root, "--factions", "2", "--key-file", key)[0] == 0
    code, out = run("resolve", "--root", root)
    assert code == 2 and "needs the campaign key" in out  # the dice were committed: no key, no turn
    code, out = run("resolve", "--root", root, "--key-file", key)
    assert code == 0 and "predictable" not in out, out
    assert run("verify", "--root", root)[0] == 0


def test_show_key_refuses_to_print_into_a_log(tmp_path: Path) -> None:
    code, out = run("new", "--root", tmp_path, "--sealed", "--show-key")
    assert code == 2 and "only on a terminal" in out
    assert "AGE-SECRET-KEY" not in out


def test_the_key_file_may_not_go_into_campaign(tmp_path: Path) -> None:
    code, out = run("new", "--root", tmp_path, "--sealed", "--key-file", tmp_path / "campaign" / "key.txt")
    assert code == 2 and "inside campaign/" in out
    assert not (tmp_path / "campaign" / "key.txt").exists()


def test_the_envelope_check_reads_recipients_without_a_key() -> None:
    from resolver.git.prcheck import envelope_issues

    campaign, _ = sealing.new_key()
    player, _ = sealing.new_key()
    own = [sealing.public_of(player)]
    sealed = sealing.encrypt(b"orders: []\n", [sealing.public_of(campaign), *own], sealing.ORDER_FILE_SIZE)
    stanzas = sealing.read_header(sealed)
    assert [s.kind for s in stanzas if s.kind in sealing.RECIPIENT_TYPES] == ["X25519", "X25519"]
    assert envelope_issues(sealed, "orders/red.yaml.age") == []
    # Sealed to three keys while the faction has one: the public check says nothing of it, since how
    # many read a file tells who shares it with whom.
    extra, _ = sealing.new_key()
    wide = sealing.encrypt(
        b"x", [sealing.public_of(k) for k in (campaign, player, extra)], sealing.ORDER_FILE_SIZE
    )
    assert envelope_issues(wide, "orders/red.yaml.age") == []
    # Sealed without its padding (with age by hand, say): its length would say how much it holds. Refused.
    bare = sealing.encrypt(b"orders: []\n", [sealing.public_of(campaign), *own])
    assert "one length of a sealed order file" in envelope_issues(bare, "orders/red.yaml.age")[0].message
    # Not age at all, or too large: refused.
    assert envelope_issues(b"orders: []\n", "orders/red.yaml.age")[0].is_error
    assert envelope_issues(b"x" * 200_000, "orders/red.yaml.age")[0].is_error


def test_an_ssh_recipient_opens_its_file_and_the_public_check_names_no_ssh_key(tmp_path: Path) -> None:
    import subprocess

    from resolver.git.prcheck import envelope_issues

    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "id")], check=True)
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / "other")], check=True)
    mine = (tmp_path / "id.pub").read_text().strip()
    other = (tmp_path / "other.pub").read_text().strip()
    campaign, _ = sealing.new_key()
    sealed = sealing.encrypt(b"x", [sealing.public_of(campaign), mine], sealing.ORDER_FILE_SIZE)
    assert envelope_issues(sealed, "orders/blue.yaml.age") == []
    stranger = sealing.encrypt(b"x", [sealing.public_of(campaign), other], sealing.ORDER_FILE_SIZE)
    assert envelope_issues(stranger, "orders/blue.yaml.age") == []
    # The player's own SSH identity opens what was sealed to them.
    identity = sealing.load_identity(tmp_path / "id")
    assert sealing.decrypt(sealed, [identity]) == b"x"


def test_an_open_campaign_sealed_in_mid_game_keeps_its_past_and_seals_its_future(tmp_path: Path) -> None:
    root, key = tmp_path / "c", tmp_path / "key.txt"
    assert run("new", "--root", root, "--ruleset", "factions", "--factions", "2")[0] == 0
    assert run("resolve", "--root", root)[0] == 0
    code, out = run("seal-campaign", "--root", root, "--key-file", key)
    assert code == 0, out
    assert not list((root / "orders" / "templates").glob("*.yaml"))
    assert (root / "campaign" / "state.yaml.age").is_file()
    assert "/.view/" in (root / ".gitignore").read_text()
    code, out = run("resolve", "--root", root, "--key-file", key, "--force")  # nobody's orders, on purpose
    assert code == 0, out
    assert (root / "campaign" / "turns" / "0001" / "events.yaml").is_file()  # the open turn stays as it was
    assert (root / "campaign" / "turns" / "0002" / "events.yaml.age").is_file()
    code, out = run("verify", "--root", root, "--key-file", key)
    assert code == 0 and "2 of 2 turn(s) replay byte-identically" in out, out
    code, out = run("verify", "--root", root)
    assert code == 0 and "public parts match" in out, out


def test_check_reads_plain_drafts_in_a_sealed_campaign(sealed_demo: Path, tmp_path: Path) -> None:
    """A player's `campaign check` (no argument) checks their plain draft, never the sealed files."""
    (sealed_demo / "orders" / "red.yaml.age").write_bytes(b"sealed\n")
    try:
        code, out = run("check", "--root", sealed_demo, "--key-file", sealed_demo / workflow.DEMO_KEY)
        assert code == 0 and "No order files" in out, out
    finally:
        (sealed_demo / "orders" / "red.yaml.age").unlink()


def test_a_sealed_file_swapped_after_the_turn_is_caught_without_the_key(sealed_demo: Path) -> None:
    """Even re-sealing the very same report changes its bytes, which digest.yaml binds."""
    report = sealed_demo / "campaign" / "turns" / "0002" / "reports" / "red.md.age"
    original = report.read_bytes()
    key = sealing.read_key_text((sealed_demo / workflow.DEMO_KEY).read_text())
    text = sealing.decrypt_with_key(original, key)
    report.write_bytes(sealing.encrypt(text, Store(sealed_demo).recipients(["red"])))
    try:
        code, out = run("verify", "--root", sealed_demo)
        assert code == 1 and "the sealed files differ" in out, out
    finally:
        report.write_bytes(original)


def test_a_faction_sees_its_own_pieces_and_nothing_concealed_of_the_others(sealed_demo: Path) -> None:
    sealing.use_key_file(sealed_demo / workflow.DEMO_KEY)
    try:
        store = Store(sealed_demo)
        state = store.state()
        game = store.game(state)
    finally:
        sealing.forget_key()
    hidden = next(a for a in state["assets"].values() if a["owner"] == "blue")
    hidden["concealed"] = True
    mine = game.ruleset.faction_view(game, state, "blue")
    theirs = game.ruleset.faction_view(game, state, "red")
    public = game.ruleset.faction_view(game, state, None)
    assert hidden["id"] in mine["assets"]
    assert hidden["id"] not in theirs["assets"] and hidden["id"] not in public["assets"]
    assert mine["factions"]["blue"] == state["factions"]["blue"]
    assert "stock" not in theirs["factions"]["blue"] and "stock" not in public["factions"]["blue"]
    assert theirs["factions"]["red"] == state["factions"]["red"]
    assert all(a["owner"] == "red" or not a.get("concealed") for a in theirs["assets"].values())


def test_a_replay_checks_each_turn_against_the_beacon_round_the_turn_before_committed_to(
    sealed_demo: Path,
) -> None:
    """A long replay takes the beacon round a turn committed to from the turn before's inputs as it just
    read them, not from the file again: the same round, and a wrong one is still refused."""
    sealing.use_key_file(sealed_demo / workflow.DEMO_KEY)
    store = Store(sealed_demo)
    replayed = list(replay.replay_archive(store, 3))
    assert [r.problems for r in replayed] == [[], [], []]
    for earlier in replayed[:2]:
        assert earlier.next_beacon_round == store.committed_beacon_round(earlier.turn + 1) is not None
    earlier = replayed[0]
    earlier.next_beacon_round += 1  # type: ignore[operator]
    again = replay.replay_turn(store, 2, earlier.result.state, earlier=earlier)  # type: ignore[union-attr]
    assert any("to which turn 2 was committed when it opened" in p for p in again.problems), again.problems
