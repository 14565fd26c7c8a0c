"""What the scouting and harvest tests share: the usurper rules data, a turn context with forced dice,
and a small state of two usurpers built to the state contract."""

from __future__ import annotations

import copy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from resolver.core import canonical
from resolver.core.dice import Dice, TurnSeed
from resolver.engine.context import TurnContext

PACKAGE = Path(__file__).resolve().parents[2] / "resolver" / "rulesets" / "usurper"

# The combat chapter's encounter numbers, used only while that chapter is not in this branch.
COMBAT_ENCOUNTERS = {
    "encounters": {
        "units": {"min": 2, "max": 3},
        "tiers": {0: {"level": 0}, 200: {"level": 1}, 600: {"level": 2}, 800: {"level": 3}},
    }
}


def usurper_rules() -> dict[str, Any]:
    """The usurper rules data as the engine merges it (its rules.yaml once the lead's skeleton has one)."""
    if (PACKAGE / "rules.yaml").exists():
        from resolver.engine.ruleset import rules_data

        rules = rules_data(PACKAGE)
    else:
        rules = {}
        for path in sorted((PACKAGE / "rules").glob("*.yaml")):
            for key, value in (canonical.read_yaml(path) or {}).items():
                if isinstance(value, list):
                    rules[key] = [*rules.get(key, []), *value]
                else:
                    rules[key] = {**rules.get(key, {}), **value}
    rules.setdefault("combat", copy.deepcopy(COMBAT_ENCOUNTERS))
    return rules


def context(turn: int = 5, forced: dict[str, list[int]] | None = None, seed: int = 7) -> TurnContext:
    """A turn context whose dice are forced by label (the context prefixes t<turn>/ to each label)."""
    game = SimpleNamespace(rules=usurper_rules(), seed=seed, hidden_seed=seed * 1000 + 1, setup_seed=None)
    dice = Dice(TurnSeed(seed, turn, {}), forced=forced or {})
    # sealed, as a usurper campaign is by default
    return TurnContext(game=game, turn=turn, date=None, dice=dice, orders={}, posting_order=[], sealed=True)  # type: ignore[arg-type]


def unit(uid: str, race: str = "dwarves", lair: str = "red-lair1", **skills: int) -> dict[str, Any]:
    return {
        "id": uid,
        "name": uid,
        "race": race,
        "level": 0,
        "xp": 0,
        "pax": 10,
        "skills": {name: {"rank": rank, "xp": 0} for name, rank in skills.items()},
        "tools": [],
        "weapons": [],
        "lair": lair,
    }


def leader(lid: str, bonus: str = "craftsman", **skills: int) -> dict[str, Any]:
    return {
        "id": lid,
        "name": lid,
        "role": "chief",
        "race": "humans",
        "bonus": bonus,
        "hp": 2,
        "healing": 0,
        "skills": {name: {"rank": rank, "xp": 0} for name, rank in skills.items()},
        "lair": "red-lair1",
    }


def lair(lid: str, grid: str, obscurity: int = 150, renovations: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "id": lid,
        "grid": grid,
        "obscurity": {"current": obscurity, "max": max(150, obscurity)},
        "rooms": [
            {"type": "throne", "level": 1, "renovations": []},
            {"type": "barracks", "level": 1, "renovations": []},
            {"type": "warehouse", "level": 1, "renovations": []},
            {"type": "watchtower", "level": 1, "renovations": list(renovations)},
        ],
        "storage": {"lumber": 0, "stone": 0, "iron": 0, "foodstuffs": 0},
        "items": [],
        "gems": [],
        "prisoners": [],
    }


def state() -> dict[str, Any]:
    """Red scouts and harvests from Z26; blue's lair is at B2, seen from C4 in the seed's diagrams."""
    return {
        "turn": 5,
        "cities": {"K12": {"name": "Varos", "size": "small_town", "races": ["humans", "dwarves"]}},
        "factions": {
            "red": {
                "name": "The Red Hand",
                "status": "active",
                "gold": 100,
                "leaders": {"red-l1": leader("red-l1"), "red-l2": leader("red-l2", bonus="pioneer")},
                "units": {
                    "red-u1": unit("red-u1"),
                    "red-u2": unit("red-u2"),
                    "red-u3": unit("red-u3", "goblins"),
                },
                "lairs": {"red-lair1": lair("red-lair1", "Z26")},
            },
            "blue": {
                "name": "Blue",
                "status": "active",
                "gold": 100,
                "leaders": {"blue-l1": leader("blue-l1")},
                "units": {"blue-u1": unit("blue-u1", lair="blue-lair1")},
                "lairs": {"blue-lair1": lair("blue-lair1", "B2", obscurity=155)},
            },
        },
    }
