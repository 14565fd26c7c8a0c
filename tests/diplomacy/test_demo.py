"""The Diplomacy demo (issue 27): `campaign demo --ruleset diplomacy` plays two years of the game, spring
1901 to the winter of 1902, with the seven powers played by the bot, open and sealed; both replay byte for
byte with `campaign verify --all` (the sealed one with its key), and the open one is the game the golden
file records."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver import workflow
from resolver.cli import main
from resolver.core import canonical
from resolver.store import sealing
from resolver.store.store import Store

from ..conftest import archived_events, check_golden

GOLDEN = Path(__file__).parent.parent / "golden" / "diplomacy-demo-seed1.yaml"
POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
# What two years of seven bots always show, by the kinds of event that show it.
SHOWN = {
    "a battle (a bounce or a dislodgement)": {"battle"},
    "a unit dislodged": {"dislodged"},
    "a supply centre changing hands": {"centre_changed"},
    "a unit built": {"built"},
    "signed press": {"press"},
    "a rumour": {"rumor"},
}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo") / "diplomacy"
    assert main(["demo", "--ruleset", "diplomacy", "--root", str(root), "--quiet", "--seed", "1"]) == 0
    return root


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sealed") / "diplomacy"
    args = ["demo", "--ruleset", "diplomacy", "--root", str(root), "--quiet", "--seed", "1", "--sealed"]
    try:
        assert main(args) == 0
    finally:
        sealing.forget_key()
    return root


def labels(root: Path) -> tuple[list[str], str, tuple[str, ...]]:
    """Each archived turn's label, the label of the turn to come, and the campaign's factions."""
    store = Store(root)
    state = store.state()
    game = store.game(state)
    played = store.archived_turns()
    assert played == list(range(1, len(played) + 1))
    return (
        [game.date_in(state, turn).label for turn in played],
        game.date_in(state, len(played) + 1).label,
        game.factions,
    )


def kinds_in(root: Path, key: str | None = None) -> set[str]:
    """The kinds of the events of every turn; a sealed archive is read with its campaign key."""
    if key is None:
        return {event["kind"] for event in archived_events(root)}
    return {
        event["kind"]
        for sealed in sorted((root / "campaign/turns").glob("*/events.yaml.age"))
        for event in canonical.load(sealing.decrypt_with_key(sealed.read_bytes(), key))["events"]
    }


def assert_two_years_of_seven_powers(root: Path) -> None:
    played, next_turn, factions = labels(root)
    assert played[0] == "Spring 1901" and played[-1] == "Winter 1902", played
    assert {label.split()[1] for label in played} == {"1901", "1902"}, played
    assert next_turn == "Spring 1903"
    assert "Autumn 1901" in played and "Spring 1902" in played and "Autumn 1902" in played
    assert sorted(factions) == sorted(POWERS)


def test_the_demo_plays_two_years_of_the_seven_powers(demo: Path) -> None:
    assert_two_years_of_seven_powers(demo)
    first = canonical.read_yaml(demo / "campaign/turns/0001/orders.yaml")["orders"]
    assert sorted(first) == sorted(POWERS), "every power's bot wrote orders in spring 1901"


def test_the_demo_shows_battles_press_and_rumours(demo: Path) -> None:
    kinds = kinds_in(demo)
    missing = [what for what, shown_by in SHOWN.items() if not kinds & shown_by]
    assert not missing, f"the demo never shows {', '.join(missing)}"


def test_the_demo_replays_byte_for_byte_and_matches_its_golden_file(demo: Path) -> None:
    """Every archived turn replays to the same bytes, and the seed-1 demo is the game the golden file
    records (regenerate it with UPDATE_GOLDEN=1 after a change that means to change the game)."""
    assert main(["verify", "--all", "--root", str(demo)]) == 0
    check_golden(demo, GOLDEN, len(Store(demo).archived_turns()))


def test_the_sealed_demo_plays_two_years_and_verifies_with_its_key(sealed: Path) -> None:
    key_file = sealed / workflow.DEMO_KEY
    assert (sealed / "campaign/state.yaml.age").is_file(), "the sealed demo keeps its state sealed"
    try:
        assert main(["verify", "--all", "--root", str(sealed), "--key-file", str(key_file)]) == 0
        sealing.use_key_file(key_file)
        assert_two_years_of_seven_powers(sealed)
    finally:
        sealing.forget_key()
    kinds = kinds_in(sealed, sealing.read_key_text(key_file.read_text()))
    missing = [what for what, shown_by in SHOWN.items() if not kinds & shown_by]
    assert not missing, f"the sealed demo never shows {', '.join(missing)}"
