"""A campaign may log its rolls compactly (``dice_log: compact``, core.roll_log): a line a roll instead of a
mapping. Such turns replay exactly, their public rolls are drawn again without the key, a roll edited after
the fact is named, the chronicle's dice fold says the same words, and each roll takes far fewer bytes.
Every shipped ruleset is played both ways with the same seed, so the two archives hold the same rolls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from resolver import workflow
from resolver.core import canonical, roll_log
from resolver.core.dice import Dice, TurnSeed, roll_label
from resolver.core.events import Event
from resolver.engine.ruleset import RULESETS, get_ruleset
from resolver.publish.history import load_history
from resolver.publish.text import dice_summary, roll_lines
from resolver.store import replay, sealing
from resolver.store.store import PUBLIC_EVENTS, Store

TURNS = 3  # nations rolls its first dice in turn 3
# The compact form's bound, in bytes a roll (the line, its indent and quotes, and the event's share of the
# label start it states once), on any turn of any shipped ruleset: the full form takes 190 to 300 bytes a
# roll on the same turns. Factions' rolls (averaged over the campaign's turns) come nearest, with their
# ledgers and long words of what they decided (some 120 bytes). The names of a roll's modifiers are the
# ruleset's words, not the form's: a usurper action stacks every bonus that applies, each named for its
# reader ("Leader Presence (Grug)"), so the bound counts the line without those names (each is written
# once in either form; the full form's share of them is in its 190 to 300 bytes too).
COMPACT_BYTES_PER_ROLL = 130
HEAVY_BYTES_PER_ROLL = 70  # a battle-heavy turn: hundreds of shots under one event


def play(base: Path, ruleset: str, *, compact: bool, sealed: bool) -> Path:
    """A demo-like campaign of ``ruleset`` (seed 1, four bot factions) after ``TURNS`` bot turns, with the
    roll log's form set by a house rule: a ruleset's rules data may ask for either (usurper's, whose weeks
    roll a die for every action of every usurper, asks for the compact one)."""
    root = base / f"{ruleset}-{'compact' if compact else 'full'}-{'sealed' if sealed else 'open'}"
    workflow.prepare_demo_folder(root)
    factions = workflow.default_factions(4, 1)
    key, players = None, None
    if sealed:
        key = workflow.write_demo_key(root / workflow.DEMO_KEY, 1, "campaign")
        sealing.use_key_file(root / workflow.DEMO_KEY)
        players = workflow.demo_player_keys(root, [f.id for f in factions], 1)
    workflow.new_campaign(
        root, ruleset, 1, factions, name="Dice", key=key, sealed=sealed, players=players,
        beacon_name="test" if sealed else None,
    )  # fmt: skip
    (root / "campaign/rules.yaml").write_text(f"dice_log: {'compact' if compact else 'full'}\n")
    for _ in range(TURNS):
        workflow.play_bot_turn(root)
    return root


# The rulesets that roll dice, whose rules data says how their rolls are logged (diplomacy rolls none).
ROLLING = [ruleset for ruleset in RULESETS if "dice_log" in get_ruleset(ruleset).default_rules()]


@pytest.fixture(scope="module", params=ROLLING)
def both_forms(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same sealed campaign played with each roll form; each test reads, none changes them."""
    base = tmp_path_factory.mktemp(f"rolls-{request.param}")
    return {
        "full": play(base, request.param, compact=False, sealed=True),
        "compact": play(base, request.param, compact=True, sealed=True),
    }


def turn_folder(root: Path, turn: int) -> Path:
    return root / "campaign/turns" / f"{turn:04d}"


def events_of(root: Path, turn: int) -> dict[str, Any]:
    """A turn's events.yaml as written (opened with the campaign key when sealed)."""
    return canonical.load(Store(root).read_secret(turn_folder(root, turn) / "events.yaml") or b"")


def rolls_of(document: dict[str, Any]) -> list[Any]:
    return [r for e in document["events"] for r in e.get("rolls") or []] + list(
        document.get("unattached_rolls") or []
    )


def bytes_per_roll(document: dict[str, Any]) -> float:
    """What the rolls add to an events file, divided by their number."""
    bare = {
        **document,
        "events": [
            {k: v for k, v in e.items() if k not in ("rolls", roll_log.EVENT_PREFIX_KEY)}
            for e in document["events"]
        ],
        "unattached_rolls": [],
    }
    bare.pop(roll_log.FORM_KEY, None)
    return (len(canonical.dump(document)) - len(canonical.dump(bare))) / len(rolls_of(document))


def test_compact_turns_hold_the_same_rolls_as_lines_and_replay(both_forms: dict[str, Path]) -> None:
    compact, full = both_forms["compact"], both_forms["full"]
    lines = []
    for turn in range(1, TURNS + 1):
        written = events_of(compact, turn)
        assert written[roll_log.FORM_KEY] == "compact"
        lines += rolls_of(written)
        as_full = events_of(full, turn)
        assert roll_log.FORM_KEY not in as_full  # the full form is written as it always was
        assert roll_log.in_full(written, "events.yaml") == as_full
    assert lines and all(isinstance(line, str) for line in lines)  # every shipped roll fits on a line
    sealing.use_key_file(compact / workflow.DEMO_KEY)
    checks = list(replay.replay_archive(Store(compact), TURNS))
    assert [c.problems for c in checks] == [[]] * TURNS


def test_compact_public_rolls_are_drawn_again_without_the_key(both_forms: dict[str, Path]) -> None:
    root = both_forms["compact"]
    checks = replay.verify_public(Store(root), range(1, TURNS + 1))
    assert all(c.ok for c in checks), [c.problems for c in checks]
    checked = [
        int(n.split()[0]) for c in checks for n in c.notes if "drawn again from the public record" in n
    ]
    public = [canonical.read_yaml(turn_folder(root, t) / PUBLIC_EVENTS) for t in range(1, TURNS + 1)]
    assert all(d[roll_log.FORM_KEY] == "compact" for d in public)
    assert checked == [len(rolls_of(d)) for d in public] and sum(checked) > 0


def test_an_edited_compact_public_roll_is_named(both_forms: dict[str, Path], tmp_path: Path) -> None:
    root = both_forms["compact"]
    # The last turn with a public roll: nations rolls its first in turn 3; usurper's public dice are the
    # month's events, drawn in its first week, while each usurper's own rolls are sealed.
    turn = max(
        t
        for t in range(1, TURNS + 1)
        if any(e.get("rolls") for e in canonical.read_yaml(turn_folder(root, t) / PUBLIC_EVENTS)["events"])
    )
    folder = turn_folder(root, turn)
    copy = tmp_path / "turn"
    copy.mkdir()
    public = canonical.read_yaml(folder / PUBLIC_EVENTS)
    event = next(e for e in public["events"] if e.get("rolls"))
    line = event["rolls"][0]
    start = roll_log.turn_prefix(turn) + event.get(roll_log.EVENT_PREFIX_KEY, "")
    roll = roll_log.roll_from_line(line, start)
    faces = ",".join(str(d % 6 + 1) for d in roll["dice"])
    head, _, tail = line.partition(" [")
    event["rolls"][0] = f"{head} [{faces}]" + tail.partition("]")[2]
    canonical.write_yaml(copy / PUBLIC_EVENTS, public)
    inputs = canonical.read_yaml(folder / "inputs.yaml")
    problems, _ = replay.public_roll_problems(inputs, copy, "turn 1")
    assert problems == [f"turn 1/{PUBLIC_EVENTS}: the roll {roll['label']} is not the one its seed draws"]
    event["rolls"][0] = "a line that is no roll"
    canonical.write_yaml(copy / PUBLIC_EVENTS, public)
    problems, _ = replay.public_roll_problems(inputs, copy, "turn 1")
    assert len(problems) == 1 and "'a line that is no roll'" in problems[0], problems


def test_the_dice_fold_says_the_same_words_in_either_form(both_forms: dict[str, Path]) -> None:
    shown: dict[str, list[Any]] = {}
    for form, root in both_forms.items():
        sealing.use_key_file(root / workflow.DEMO_KEY)
        history = load_history(Store(root))
        decision = history.game.ruleset.decision
        shown[form] = [
            (dice_summary(e, rec.names, decision), roll_lines(e, rec.names, decision))
            for rec in history.turns
            for e in rec.events
            if e.get("rolls")
        ]
    assert shown["compact"] == shown["full"] and shown["full"]


def ledger_names(document: dict[str, Any]) -> int:
    """The bytes of the names of every modifier of every roll (in the full form, where they are plain)."""
    return sum(
        len(str(modifier["source"]).encode("utf-8"))
        for roll in rolls_of(document)
        for modifier in roll.get("modifiers") or []
    )


def test_a_compact_roll_takes_fewer_bytes_than_the_bound(both_forms: dict[str, Path]) -> None:
    root = both_forms["compact"]
    compact_bytes = full_bytes = names = rolls = 0.0
    for turn in range(1, TURNS + 1):
        written = events_of(root, turn)
        if rolls_of(written):
            count = len(rolls_of(written))
            full = roll_log.in_full(written, "events.yaml")
            compact_bytes += bytes_per_roll(written) * count
            full_bytes += bytes_per_roll(full) * count
            names += ledger_names(full)
            rolls += count
    assert rolls and (compact_bytes - names) / rolls < COMPACT_BYTES_PER_ROLL
    assert compact_bytes < full_bytes / 2


def test_a_battle_heavy_turn_takes_fewer_bytes_a_roll_than_the_bound() -> None:
    dice = Dice(TurnSeed(1, 7, {"blue": "a" * 64, "red": "b" * 64}))
    events = []
    for battle in range(4):
        shots = []
        for round_ in range(1, 6):
            for unit in range(1, 21):
                label = roll_label(
                    "t7", "battle", f"D{battle}", "red:o2", ["blue", "red"], f"r{round_}", unit
                )
                decided = f"red-u{unit} hits blue-u{unit}"
                shots.append(dice.roll(label, "1d10>=6", factions=["blue", "red"], decided=decided))
        events.append(
            Event("battle", "orders", ["blue", "red"], f"D{battle}", {"winner": "red"}, rolls=shots)
        )
    full = {"turn": 7, "events": [e.to_data() for e in events], "unattached_rolls": []}
    compact = roll_log.logged(full, {"dice_log": "compact"})
    assert len(rolls_of(compact)) == 400 and all(isinstance(r, str) for r in rolls_of(compact))
    assert bytes_per_roll(compact) < HEAVY_BYTES_PER_ROLL < bytes_per_roll(full) / 2
    assert roll_log.in_full(canonical.load(canonical.dump(compact)), "events.yaml") == full


def test_a_roll_no_line_can_hold_keeps_its_mapping() -> None:
    # An expression written with spaces would split into other fields: that roll stays a mapping.
    dice = Dice(TurnSeed(1, 3, {}))
    spaced = dice.roll(roll_label("t3", "odd", 1), "2d6 + 1", decided="a spaced expression")
    plain = dice.roll(roll_label("t3", "odd", 2), "2d6+1")
    full = {"turn": 3, "events": [Event("odd", rolls=[spaced, plain]).to_data()], "unattached_rolls": []}
    compact = roll_log.logged(full, {"dice_log": "compact"})
    assert [type(r) for r in rolls_of(compact)] == [dict, str]
    assert roll_log.in_full(compact, "events.yaml") == full


@pytest.mark.parametrize("ruleset", ROLLING)
def test_verify_names_a_compact_roll_edited_after_the_turn(ruleset: str, tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = play(tmp_path, ruleset, compact=True, sealed=False)
    code, out, _ = run("verify", "--root", root, "--all")
    assert code == 0, out
    path = turn_folder(root, TURNS) / "events.yaml"
    written = canonical.read_yaml(path)
    # the first roll written as a line (a roll whose ledger names a source with spaces keeps its mapping)
    event = next(e for e in written["events"] if e.get("rolls") and isinstance(e["rolls"][0], str))
    roll = roll_log.in_full(written, "events.yaml")["events"][written["events"].index(event)]["rolls"][0]
    event["rolls"][0] = event["rolls"][0].replace(f" ={roll['total']}", f" ={roll['total'] + 1}", 1)
    canonical.write_yaml(path, written)
    code, out, _ = run("verify", "--root", root, "--all")
    assert code == 1 and f"turn {TURNS}: MISMATCH" in out, out
    assert f"the roll {roll['label']} is not the one the turn drew" in out, out
