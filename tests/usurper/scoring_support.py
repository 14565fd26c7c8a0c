"""What the scoring, magic, landmark and happening tests share: the usurper rules data, a turn context over
it with forced dice, and a small usurper built by hand."""

from __future__ import annotations

import copy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from resolver.core.calendar import Calendar
from resolver.core.canonical import read_yaml
from resolver.core.dice import Dice, TurnSeed
from resolver.engine.context import TurnContext
from resolver.engine.ruleset import rules_data

FOLDER = Path(__file__).resolve().parents[2] / "resolver" / "rulesets" / "usurper"

# What the other chapters of the rules data hold and these tests read, for as long as they may be absent
# from this branch: the calendar, races' costs, market prices, which items are tools, the loyalty check.
OTHER_CHAPTERS: dict[str, Any] = {
    "calendar": {"periods": [f"Month {n}" for n in range(1, 11)], "turns_per_period": 4},
    "races": {race: {"cost": 10} for race in ("dwarves", "elves", "gnomes", "goblins", "humans", "orcs")},
    "market": {
        item: {"price": price}
        for item, price in {
            "spyglass": 4,
            "shovels": 4,
            "saws": 4,
            "hammers": 10,
            "melee_weapons": 20,
            "ranged_weapons": 10,
            "shields": 10,
            "light_armor": 4,
            "medium_armor": 10,
            "heavy_armor": 20,
        }.items()
    },
    "items": {tool: {"kind": "tool"} for tool in ("spyglass", "shovels", "saws", "hammers")},
    "checks": {
        "loyalty": {
            "dice": "1d100",
            "table": [
                {"up_to": 25, "result": "embittered"},
                {"up_to": 49, "result": "faith_lost"},
                {"up_to": 74, "result": "grumpy"},
                {"result": "tenacious"},
            ],
        }
    },
}


def usurper_rules() -> dict[str, Any]:
    if (FOLDER / "rules.yaml").exists():
        rules = rules_data(FOLDER)
    else:  # before the lead's rules.yaml: the chapters alone, merged the same way
        rules = {}
        for path in sorted((FOLDER / "rules").glob("*.yaml")):
            for key, value in (read_yaml(path) or {}).items():
                held = rules.get(key)
                rules[key] = [*held, *value] if isinstance(held, list) else {**(held or {}), **value}
    for key, value in OTHER_CHAPTERS.items():
        if key not in rules:
            rules[key] = copy.deepcopy(value)
        elif isinstance(value, dict):
            for name, entry in value.items():
                rules[key].setdefault(name, copy.deepcopy(entry))
    return rules


def context(rules: dict[str, Any], turn: int, forced: dict[str, list[int]] | None = None) -> TurnContext:
    calendar = Calendar.from_rules(rules["calendar"])
    game = SimpleNamespace(rules=rules, calendar=calendar, seed=7)
    return TurnContext(
        game=game,  # type: ignore[arg-type]
        turn=turn,
        date=calendar.date(turn),
        dice=Dice(TurnSeed(7, turn, {}), forced=forced or {}),
        orders={},
        posting_order=[],
        sealed=True,  # as a usurper campaign is by default
    )


def usurper(faction: str = "red", **changes: Any) -> dict[str, Any]:
    """A usurper as the skeleton starts one: two leaders, one unit, 100 gold, a lair of three rooms."""
    record: dict[str, Any] = {
        "name": faction.capitalize(),
        "color": "#aa3333",
        "status": "active",
        "gold": 100,
        "leaders": {
            f"{faction}-l1": {
                "id": f"{faction}-l1",
                "name": "Grug",
                "role": "chief",
                "race": "humans",
                "hp": 2,
                "skills": {},
                "spells": [],
                "lair": f"{faction}-lair1",
            },
            f"{faction}-l2": {
                "id": f"{faction}-l2",
                "name": "Bob",
                "role": "cohort",
                "race": "dwarves",
                "hp": 2,
                "skills": {},
                "spells": [],
                "lair": f"{faction}-lair1",
            },
        },
        "units": {
            f"{faction}-u1": {
                "id": f"{faction}-u1",
                "name": "Iron Fists",
                "race": "dwarves",
                "level": 0,
                "xp": 0,
                "pax": 10,
                "skills": {},
                "tools": [],
                "weapons": [],
                "armor": None,
                "lair": f"{faction}-lair1",
            },
        },
        "lairs": {
            f"{faction}-lair1": {
                "id": f"{faction}-lair1",
                "grid": "Z26",
                "obscurity": {"current": 150, "max": 150},
                "rooms": [
                    {"type": "throne", "level": 1, "renovations": []},
                    {"type": "barracks", "level": 1, "renovations": []},
                    {"type": "warehouse", "level": 1, "renovations": []},
                ],
                "storage": {"lumber": 0, "stone": 0, "iron": 0, "foodstuffs": 0},
                "items": [],
                "gems": [],
                "prisoners": [],
            }
        },
        "known": {"scouted": [], "settlements": {}, "nodes": {}, "encounters": {}, "pf_memory": []},
        "policies": {},
    }
    record.update(changes)
    return record
