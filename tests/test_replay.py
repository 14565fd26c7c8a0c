"""Determinism end to end: the demo campaign, replayed, compared, and pinned by a golden file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from resolver.core import canonical
from resolver.store.resolution import resolve
from resolver.workflow import play_bot_turn

from .conftest import check_golden, tree_bytes

GOLDEN = Path(__file__).parent / "golden" / "nations-demo-seed1.yaml"
DEMO_TURNS = 8


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from resolver.cli import main

    root = tmp_path_factory.mktemp("demo") / "nations"
    assert main(["demo", "--root", str(root), "--quiet", "--seed", "1", "--turns", str(DEMO_TURNS)]) == 0
    return root


def archived_events(root: Path) -> list[dict]:
    events = []
    for folder in sorted((root / "campaign/turns").iterdir()):
        if (folder / "events.yaml").exists():
            events.extend(yaml.safe_load((folder / "events.yaml").read_text())["events"])
    return events


def test_same_seed_gives_byte_identical_campaigns(demo: Path, tmp_path: Path) -> None:
    from resolver.cli import main

    again = tmp_path / "again"
    assert main(["demo", "--root", str(again), "--quiet", "--seed", "1", "--turns", str(DEMO_TURNS)]) == 0
    assert tree_bytes(demo / "campaign") == tree_bytes(again / "campaign")


def test_another_seed_gives_another_campaign(demo: Path, tmp_path: Path) -> None:
    from resolver.cli import main

    other = tmp_path / "other"
    assert main(["demo", "--root", str(other), "--quiet", "--seed", "2", "--turns", "2"]) == 0
    ours = tree_bytes(demo / "campaign")
    theirs = tree_bytes(other / "campaign")
    assert ours["world.yaml"] != theirs["world.yaml"]
    assert ours["turns/0001/events.yaml"] != theirs["turns/0001/events.yaml"]


def test_verify_all_replays_the_demo(demo: Path, run) -> None:
    code, out, _ = run("verify", "--root", demo, "--all")
    assert code == 0 and f"{DEMO_TURNS} of {DEMO_TURNS} turn(s) replay byte-identically" in out


def test_demo_shows_the_whole_game(demo: Path) -> None:
    kinds = {e["kind"] for e in archived_events(demo)}
    for kind in (
        "unit_mustered",
        "settlement_founded",
        "settlement_upgraded",
        "march",
        "siege_laid",
        "settlement_falls",
        "exploration",
        "press",
    ):
        assert kind in kinds, kind
    assert kinds & {"battle", "assault"}


def test_golden_replay(demo: Path) -> None:
    """Pins the demo's results. After a deliberate rules change, run: UPDATE_GOLDEN=1 make test."""
    check_golden(demo, GOLDEN, DEMO_TURNS)


def test_one_factions_orders_do_not_move_other_factions_rolls(demo: Path, tmp_path: Path) -> None:
    """Edit red's orders for turn 3 and resolve again: every roll not keyed by red stays the same."""
    base = tmp_path / "base"
    shutil.copytree(demo, base)
    # Rewind the copy to the start of turn 3: restore state 2 by replaying turns 1-2 from the archive.
    for turn in range(3, DEMO_TURNS + 1):
        shutil.rmtree(base / f"campaign/turns/{turn:04d}")
    edited = tmp_path / "edited"
    shutil.copytree(base, edited)
    from resolver.store.replay import verify

    state = _state_after(base, 2)
    for root in (base, edited):
        canonical.write_yaml(root / "campaign/state.yaml", state)
        for stale in (root / "orders").glob("*.yaml"):
            stale.unlink()
    assert [(c.name, c.ok) for c in verify(base)] == [
        ("turn 1", True),
        ("turn 2", True),
        ("campaign/state.yaml", True),
    ]
    _, first = play_bot_turn(base)
    archived = canonical.read_yaml(base / "campaign/turns/0003/orders.yaml")["orders"]
    for faction in ("blue", "green", "gold"):
        canonical.write_yaml(edited / f"orders/{faction}.yaml", archived[faction])
    red = archived["red"]
    red["press"] = [{"headline": "A different file, a different digest"}]
    red["orders"] = red["orders"][:-1]
    canonical.write_yaml(edited / "orders/red.yaml", red)
    _, second = resolve(edited, posting_order=first.posting_order)
    assert first.seed.hex != second.seed.hex
    before = {r.label: r for r in first.rolls}
    after = {r.label: r for r in second.rolls}
    unrelated = [label for label, r in before.items() if "red" not in r.scope and label in after]
    assert unrelated, "the turn must have rolls that do not concern red"
    for label in unrelated:
        assert before[label].dice == after[label].dice, label


def _state_after(root: Path, turn: int) -> dict:
    from resolver.store.replay import replay_archive
    from resolver.store.store import Store

    replayed = list(replay_archive(Store(root), turn))
    assert [r.problems for r in replayed] == [[]] * turn
    return replayed[-1].result.state


def test_every_roll_is_archived_once_with_label_expression_result_and_decision(demo: Path) -> None:
    labels = []
    for folder in sorted((demo / "campaign/turns").iterdir()):
        if not (folder / "events.yaml").exists():
            continue
        data = yaml.safe_load((folder / "events.yaml").read_text())
        rolls = [r for e in data["events"] for r in e.get("rolls", [])] + data["unattached_rolls"]
        for r in rolls:
            assert r["label"].startswith(f"t{data['turn']}/") and r["expr"] and r["dice"] and r["decided"], r
        labels += [r["label"] for r in rolls]
    assert labels and len(labels) == len(set(labels))
