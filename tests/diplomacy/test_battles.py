"""Diplomacy's battles (issue 27): a province two powers fought over in a movement turn is a public
``battle`` event: a standoff (every move into an empty province bounced), an attack held off by the unit
there, a move that beat the others in, a unit dislodged. A move into a province nobody else wanted is no
battle, and nor is a power bouncing off its own unit. Each battle is marked on the map, told in the
chronicle and headlined in words that follow how it ended."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from resolver.core import canonical
from resolver.engine.ruleset import Game
from resolver.store.store import Store

from .test_turns import Run, events_of, new_campaign, play


def battles(root: Path, turn: int) -> dict[str, dict[str, Any]]:
    """The turn's battles, by province."""
    return {event["data"]["province"]: event["data"] for event in events_of(root, turn, "battle")}


def public_events(root: Path, turn: int) -> list[dict[str, Any]]:
    events = canonical.read_yaml(root / f"campaign/turns/{turn:04d}/events.yaml")["events"]
    return [event for event in events if event.get("visibility") == "public"]


def headlines_of(game: Game, event: dict[str, Any]) -> set[str]:
    found = game.ruleset.headline_options(event, game)
    return set(found[1]) if found else set()


@pytest.fixture
def root(tmp_path: Path, run: Run) -> Path:
    folder = tmp_path / "dip"
    new_campaign(run, folder)
    return folder


SPRING_1901 = {
    # Burgundy: France moves in with support and Germany bounces: France won it.
    "france": ["A MAR - BUR", "A PAR S A MAR - BUR"],
    "germany": ["A MUN - BUR"],
    # Galicia: Russia and Austria both move in and both bounce: a standoff, the province stays empty.
    "russia": ["A WAR - GAL"],
    # Trieste: the Austrian fleet holds and the Italian army bounces off it: held.
    "italy": ["A VEN - TRI"],
    "austria": ["A VIE - GAL", "F TRI H"],
    # Constantinople: a Turkish army bounces off a Turkish army: no battle.
    "turkey": ["A SMY - CON"],
}


def test_bounces_are_battles_with_who_won_and_who_lost(root: Path, run: Run) -> None:
    out = play(run, root, SPRING_1901)
    fought = battles(root, 1)
    assert sorted(fought) == ["bur", "gal", "tri"]  # no battle in Constantinople, nor where a move was free
    assert fought["bur"]["result"] == "won"
    assert (fought["bur"]["winner"], fought["bur"]["losers"]) == ("france", ["germany"])
    assert fought["gal"]["result"] == "standoff"
    assert fought["gal"]["winner"] is None and fought["gal"]["attackers"] == ["austria", "russia"]
    assert fought["tri"]["result"] == "held"
    assert (fought["tri"]["winner"], fought["tri"]["defender"], fought["tri"]["losers"]) == (
        "austria",
        "austria",
        ["italy"],
    )
    # The chronicle's words follow the outcome, with names, never ids.
    assert "Battle for Burgundy: France got in, and Germany bounced." in out
    assert "Standoff in Galicia: the moves of Austria and Russia bounced, and it stays empty." in out
    assert "Battle for Trieste: the Austrian fleet there held off Italy." in out
    assert not re.search(r"\b(bur|gal|tri|con)\b", out)


def test_a_dislodgement_is_a_battle_won_and_its_headline_says_who_was_driven_out(
    root: Path, run: Run
) -> None:
    play(run, root, {"italy": ["A VEN - TYR", "A ROM - VEN"]})
    play(run, root, {"italy": ["A TYR - TRI", "A VEN S A TYR - TRI"], "austria": ["F TRI H"]})
    fought = battles(root, 2)
    assert fought["tri"]["result"] == "dislodged"
    assert (fought["tri"]["winner"], fought["tri"]["defender"], fought["tri"]["defender_kind"]) == (
        "italy",
        "austria",
        "fleet",
    )
    game = Store(root).game()
    event = next(e for e in public_events(root, 2) if e["kind"] == "battle")
    lines = headlines_of(game, event)
    assert lines == {"Italy drives Austria out of Trieste", "Austrian fleet driven out of Trieste"}
    # The dislodgement is told once in the news: the battle's headline, not a second one of its own.
    dislodged = next(e for e in public_events(root, 2) if e["kind"] == "dislodged")
    assert not headlines_of(game, dislodged)


def test_each_outcome_has_its_own_headlines(root: Path, run: Run) -> None:
    play(run, root, SPRING_1901)
    game = Store(root).game()
    lines = {
        e["data"]["province"]: headlines_of(game, e) for e in public_events(root, 1) if e["kind"] == "battle"
    }
    assert lines["bur"] == {"France wins the race for Burgundy", "French move into Burgundy beats its rivals"}
    assert lines["gal"] == {"Standoff in Galicia", "Armies bounce over Galicia"}
    assert lines["tri"] == {"Austria holds Trieste against Italy", "Trieste stands firm"}


def test_every_battle_is_marked_on_the_map_in_its_winners_colour(root: Path, run: Run) -> None:
    play(run, root, SPRING_1901)
    game = Store(root).game()
    events = public_events(root, 1)
    marks = [mark for mark in game.ruleset.map_events(game, events) if mark.kind == "battle"]
    told = {game.ruleset.describe(e, game) for e in events if e["kind"] == "battle"}
    assert {(mark.path, mark.owner) for mark in marks} == {
        (("bur",), "france"),
        (("gal",), None),
        (("tri",), "austria"),
    }
    assert {mark.text for mark in marks} == told
