"""The bot sends a winter diplomat only when it has a reason (issue 22): alliance talks to finish, an
enemy at war, or a neighbour stronger than itself; a nation at peace among weaker ones stays home."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from resolver.engine.ruleset import Game
from resolver.rulesets.seasons import bot
from resolver.rulesets.seasons import model as m
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign

WINTER = 4


@pytest.fixture
def winter(tmp_path: Path) -> tuple[Game, dict[str, Any]]:
    root = tmp_path / "seasons"
    new_campaign(root, "seasons", 3, default_factions(4, 3))
    state = copy.deepcopy(Store(root).state())
    state["turn"] = WINTER
    return Store(root).game(state), state


def _diplomats(game: Game, state: dict[str, Any], nation: str) -> list[str]:
    orders = bot.orders_for(game, state, nation)["orders"]
    return [order["nation"] for order in orders if order["action"] == "diplomat"]


def _strengthen(state: dict[str, Any], nation: str, times: int) -> None:
    army = m.armies_of(state, nation)[0]
    army["units"] = army["units"] * times


def test_the_strongest_nation_at_peace_sends_no_diplomat(winter: tuple[Game, dict[str, Any]]) -> None:
    game, state = winter
    _strengthen(state, "red", 5)
    assert _diplomats(game, state, "red") == []


def test_a_nation_at_war_sends_its_diplomat_to_its_strongest_enemy(
    winter: tuple[Game, dict[str, Any]],
) -> None:
    game, state = winter
    _strengthen(state, "red", 5)
    enemies = [n for n in m.nations(state) if n != "red"][:2]
    _strengthen(state, enemies[1], 2)
    state["factions"]["red"]["wars"] = list(enemies)
    assert _diplomats(game, state, "red") == [enemies[1]]


def test_a_weaker_nation_visits_the_strongest_neighbour(winter: tuple[Game, dict[str, Any]]) -> None:
    game, state = winter
    neighbours = sorted(n for n in m.neighbours_of(game.world, state, "red") if n in m.nations(state))
    assert neighbours
    _strengthen(state, neighbours[-1], 3)
    assert _diplomats(game, state, "red") == [neighbours[-1]]


def test_alliance_talks_come_first(winter: tuple[Game, dict[str, Any]]) -> None:
    game, state = winter
    neighbours = sorted(n for n in m.neighbours_of(game.world, state, "red") if n in m.nations(state))
    _strengthen(state, neighbours[-1], 3)
    friend = next(n for n in m.nations(state) if n not in ("red", neighbours[-1]))
    state["factions"]["red"]["modifiers"] = {f"alliance_talks:{friend}": 1}
    assert _diplomats(game, state, "red") == [friend]
