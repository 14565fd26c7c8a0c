"""Orders for a faction nobody plays: a purposeful month for each of its units, in the manual's language.

The hero draws coins in a city while it is short, studies combat and then blades once study exists, and
works otherwise; followers work all month (``@WORK``, so the template shows their queue). Once travelling
exists the hero sets out now and then, on a day drawn from the seed. The bot writes only orders whose
keyword has an executor, and rewrites a queue only when it would change it.
"""

from __future__ import annotations

from typing import Any

from ...core.phases import State
from ...core.rng import stream
from ...engine.ruleset import Game
from . import executors
from . import model as m
from .orders import UNIT

COINS_AT_HAND = 100  # below this the hero draws coins from the fund in a city
DRAW = 200  # what it draws
STUDIES = (("cmbt", 1), ("blde", 1))  # the General's first month: combat, then blades


def orders_for(game: Game, state: State, faction: str) -> dict[str, Any]:
    turn = int(state["turn"])
    rng = stream(game.seed, f"overlord/bot/{faction}/turn{turn}")
    written: list[dict[str, Any]] = []
    for unit_id, unit in m.owned(state, faction).items():
        lines = _hero_month(game, state, unit_id, unit, rng) if m.is_leader(unit) else ["@WORK"]
        if lines != list(unit.get("orders") or []):
            written.append({"action": UNIT, "unit": unit_id, "orders": lines})
    return {"orders": written, "press": _press(game, state, faction, rng), "rumors": []}


def _hero_month(game: Game, state: State, unit_id: str, unit: dict[str, Any], rng: Any) -> list[str]:
    lines: list[str] = []
    location = str(unit.get("location"))
    in_city = (
        location in game.world and game.world[location].terrain in game.rules["economy"]["withdraw_places"]
    )
    if in_city and int((unit.get("items") or {}).get("coin", 0)) < COINS_AT_HAND:
        lines.append(f"WITHDRAW {DRAW}")
    if "STUDY" in executors.EXECUTORS:
        for skill, level in STUDIES:
            if m.unit_level(game.rules, unit, skill) < level:
                lines.append(f"STUDY {skill} {level}")
                break
    if "MOVE" in executors.EXECUTORS and not unit.get("moving") and rng.unit() < 0.3:
        neighbours = sorted(game.world.neighbours(location)) if location in game.world else []
        if neighbours:
            lines.append(f"DAY {rng.between(5, 25)}")
            lines.append(f"-MOVE {rng.choice(neighbours)}")
    lines.append("@WORK")
    return lines


def _press(game: Game, state: State, faction: str, rng: Any) -> list[dict[str, str]]:
    """Now and then a signed word on how the faction fares."""
    mine = m.owned(state, faction)
    if not mine or rng.unit() >= 0.35:
        return []
    figures = sum(int(unit.get("figures", 0)) for unit in mine.values())
    name = game.name_of(faction)
    return [
        {
            "headline": f"{name} stands ready",
            "body": f"{name} musters {figures} souls under its banner and pays every one of them on time.",
        }
    ]
