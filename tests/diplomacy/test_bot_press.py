"""The Diplomacy bot's press and rumours: short, true to the public board, in words (no province or unit
ids), and the same for the same campaign and phase."""

from __future__ import annotations

import copy
import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from resolver.engine.ruleset import Game
from resolver.rulesets.diplomacy import bot
from resolver.rulesets.diplomacy import model as m
from resolver.store.store import Store

from .test_turns import Run, new_campaign

PROVINCE_IDS = frozenset(m.board().provinces)  # "par", "stp", "nth": never in a reader's text
UNIT_ID = re.compile(r"\b[a-z]+-u\d+\b")  # "france-u3"


@pytest.fixture
def start(tmp_path: Path, run: Run) -> tuple[Game, dict[str, Any]]:
    root = tmp_path / "dip"
    new_campaign(run, root)
    store = Store(root)
    state = store.state()
    return store.game(state), state


def writings(game: Game, state: dict[str, Any], power: str, seeds: range) -> list[dict[str, Any]]:
    """What the power's bot writes for the newspaper in campaigns of each seed, the board being the same."""
    return [
        bot.orders_for(dataclasses.replace(game, seed=seed), copy.deepcopy(state), power) for seed in seeds
    ]


def ids_in(text: str) -> list[str]:
    """The board's ids a text shows: a province's, with or without its coast, or a unit's."""
    words = re.findall(r"[a-z]+(?:/[a-z]+)?", text)
    return [w for w in words if w.split("/")[0] in PROVINCE_IDS] + UNIT_ID.findall(text)


def test_a_power_whose_home_centre_was_taken_says_so_and_names_the_taker(
    start: tuple[Game, dict[str, Any]],
) -> None:
    game, state = start
    state["centres"]["par"] = "germany"  # Germany has taken Paris, a French home centre
    written = writings(game, state, "france", range(1, 40))
    articles = [article for one in written for article in one["press"]]
    assert len(articles) >= 10, "a bot writes an article one phase in two or so"
    told = [a for a in articles if "Paris" in a["headline"] + a["body"]]
    assert told and all("Germany" in a["body"] for a in told)
    for article in articles:
        assert not ids_in(article["headline"] + " " + article["body"]), article
        assert "{" not in article["body"] and len(article["body"]) > 40


def test_a_rumour_names_a_rival_and_its_true_count_of_centres(start: tuple[Game, dict[str, Any]]) -> None:
    game, state = start
    rumours = [rumour for one in writings(game, state, "england", range(1, 40)) for rumour in one["rumors"]]
    assert rumours, "now and then a bot whispers"
    counts = {game.name_of(power): m.centre_count(state, power) for power in state["factions"]}
    words = {3: "three", 4: "four", 5: "five"}
    for rumour in rumours:
        assert "England" not in rumour, "a rumour is not about its own writer"
        rival = next(name for name in counts if name in rumour)
        if "supply centres" in rumour:
            assert f"{words[counts[rival]]} supply centres" in rumour, rumour
        assert not ids_in(rumour), rumour


def test_the_same_campaign_and_phase_write_the_same_words(start: tuple[Game, dict[str, Any]]) -> None:
    game, state = start
    first = writings(game, state, "turkey", range(1, 12))
    assert first == writings(game, state, "turkey", range(1, 12))
    assert len({str(one["press"]) for one in first}) > 1, "another campaign tells other stories"
