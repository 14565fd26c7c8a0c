"""What a reader of `campaign demo` and `campaign resolve` sees: words, not the engine's names."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

from resolver.cli import main
from resolver.core import canonical
from resolver.core.words import amount, plural
from resolver.engine.ruleset import get_ruleset
from resolver.store.store import Store
from resolver.store.views import merge_repeats

RESOLVER = Path(__file__).resolve().parents[2] / "resolver"
# A plural noun after the number one: "1 units", "1 resources", "1 rounds", "1 orders failed".
ONE_OF_MANY = re.compile(
    r"(?<![\d.,/])\b1 (units|resources|rounds|defenders|attackers|orders|turns|successes|assets|"
    r"marches|battles|rumours|armies|settlements|explorations|press articles)\b"
)
INTERNAL_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")  # snake_case: a key of the engine's data
# An engine id: a unit, army or levy ("red-a1-u3", "levy-p-x-t1-u2") or a commander ("alweg-captain1").
ENGINE_ID = re.compile(r"\b[a-z]+(?:-[a-z]+)*-(?:[a-z]*\d+|marshal|captain)\b")
# Words the closing summary of each ruleset's demo must count, each a kind it always has.
SUMMARY_WORDS = {
    "nations": ("rumour", "marches"),
    "factions": ("rumour", "turns of building"),
    "seasons": ("winter disband tests", "musters"),
}
RULESETS = tuple(SUMMARY_WORDS)


@pytest.fixture(scope="module", params=RULESETS)
def demo(request, tmp_path_factory) -> tuple[str, list[str]]:
    """The lines `campaign demo` prints for 8 turns of a ruleset (the default demo)."""
    root = tmp_path_factory.mktemp(f"demo-{request.param}") / "scratch"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--ruleset", request.param, "--root", str(root), "--seed", "1"]) == 0
    lines = out.getvalue().splitlines()
    # The first and last lines name the scratch folder, whose path is not the engine's to word.
    return request.param, lines[1:-1]


def test_the_demo_shows_no_internal_names(demo: tuple[str, list[str]]) -> None:
    _, lines = demo
    leaks = [line for line in lines if INTERNAL_NAME.search(line) or ENGINE_ID.search(line)]
    assert leaks == []


def test_the_demo_repeats_no_sentence_within_a_turn(demo: tuple[str, list[str]]) -> None:
    _, lines = demo
    turn: list[str] = []
    for line in [*lines, "== end =="]:
        if line.startswith("=="):
            assert len(turn) == len(set(turn)), [s for s in turn if turn.count(s) > 1]
            turn = []
        elif line.startswith("  - "):
            turn.append(line)


def test_the_demo_counts_in_correct_plurals(demo: tuple[str, list[str]]) -> None:
    _, lines = demo
    assert [line for line in lines if ONE_OF_MANY.search(line)] == []


def test_the_demo_summary_counts_events_in_words(demo: tuple[str, list[str]]) -> None:
    ruleset_id, lines = demo
    summary = lines[-1]
    assert summary.startswith("In 8 turns: ") and summary.endswith(".")
    assert all(words in summary for words in SUMMARY_WORDS[ruleset_id]), summary
    assert " events" not in summary  # every kind has its own words
    counts = [int(part.split()[0]) for part in summary.removeprefix("In 8 turns: ").rstrip(".").split(", ")]
    assert counts == sorted(counts, reverse=True)  # the most frequent first


def test_every_event_kind_with_a_sentence_has_words_for_its_count() -> None:
    shared = set(canonical.read_yaml(RESOLVER / "engine" / "events.yaml"))
    for ruleset_id in RULESETS:
        ruleset = get_ruleset(ruleset_id)
        kinds = shared | set(canonical.read_yaml(ruleset.folder / "events.yaml"))
        for kind in sorted(kinds):
            for count in (1, 2):
                words = ruleset.tally(kind, count)
                assert not INTERNAL_NAME.search(words), (ruleset_id, kind, words)
                assert (kind, count, words) != (kind, count, f"{count} {kind.replace('_', ' ')} event")


def test_tallies_count_in_words() -> None:
    nations = get_ruleset("nations")
    assert nations.tally("order_failed", 2) == "2 orders failed"
    assert nations.tally("order_failed", 1) == "1 order failed"
    assert nations.tally("rumor", 1) == "1 rumour"
    assert nations.tally("unheard_of", 3) == "3 unheard of events"  # no entry: still words


def test_repeated_sentences_are_counted_once() -> None:
    sentences = ["A musters.", "B marches.", "A musters.", "A musters.", "Rumour: salt!", "Rumour: salt!"]
    assert merge_repeats(sentences) == ["A musters (3 times).", "B marches.", "Rumour: salt (twice)!"]
    assert merge_repeats(["One.", "Two."]) == ["One.", "Two."]


def test_words_count_nouns_and_stocks() -> None:
    assert [plural(n, "unit") for n in (0, 1, 2)] == ["0 units", "1 unit", "2 units"]
    assert plural(1, "success") == "1 success" and plural(3, "success") == "3 successes"
    assert plural(2, "army") == "2 armies"
    assert amount(1, "resources") == "1 resource" and amount(5, "resources") == "5 resources"
    assert amount(1, "population") == "1 population" and amount(1, "capital") == "1 capital"


def describe(root: Path, kind: str, **data: Any) -> str:
    store = Store(root)
    game = store.game()
    actors = list(game.factions)[:2]
    event = {"kind": kind, "actors": actors, "place": None, "data": data, "visibility": "public"}
    return game.ruleset.describe(event, game)


def test_nations_sentences_say_one_in_the_singular(campaign: Path) -> None:
    red, blue = "red", "blue"
    battle = describe(
        campaign,
        "battle",
        attacker=red,
        defender=blue,
        attacking_units=1,
        defending_units=1,
        defence_bonus=0,
        rounds=1,
        losses={red: 0, blue: 1},
        result="attacker",
    )
    assert "(1 unit) attacks" in battle and "(1 unit); after 1 round" in battle
    found = describe(campaign, "exploration", outcome="resources", amount=1)
    assert "finds 1 resource." in found
    assert "1 resource stolen" in describe(
        campaign, "maraud", settlement="Rinfell", owner=blue, stolen=1, killed=0
    )
    assert describe(campaign, "income", resources=1, population=1) == "Income: 1 resource, 1 population."
    assert "with 1 unit against 1 defender" in describe(
        campaign,
        "assault",
        attacker=red,
        defender=blue,
        settlement="Rinfell",
        attacking_units=1,
        defending_units=1,
        defence_bonus=0,
        losses={},
        result="defender",
    )
    assert describe(campaign, "siege_laid", settlement="Rinfell", owner=blue, units=1).endswith(
        " with 1 unit."
    )
    assert "The GM grants 1 resource to" in describe(
        campaign, "gm_grant", amount=1, resource="resources", faction=red
    )
    assert "for 1 turn in a row" in describe(campaign, "abandoned", missed_turns=1)


def test_factions_sentences_say_one_in_the_singular(tmp_path: Path, run) -> None:
    root = tmp_path / "city"
    assert run("new", "--root", root, "--ruleset", "factions", "--factions", "2")[0] == 0
    game = Store(root).game()
    red = game.factions[0]
    trained = describe(
        root,
        "train",
        faction=red,
        lieutenant="Gramgate",
        asset="Thugs",
        band="success",
        progress=1,
        needed=1,
    )
    assert "1 of 1 success" in trained and "successes" not in trained
    done = describe(root, "project_completed", faction=red, title="a Guildhall", needed=1, started=2)
    assert "after 1 success (begun" in done
    strike = describe(
        root,
        "attack",
        faction=red,
        lieutenant="Gramgate",
        target=game.factions[1],
        location_name="Manor",
        band="success",
    )
    assert "Gramgate strikes" in strike  # one lieutenant strikes; unknown attackers strike
    unknown = describe(root, "raid", location_name="Manor", band="failure")
    assert unknown.startswith("Unknown raiders raid the Manor")
