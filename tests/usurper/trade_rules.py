"""The rules data the trade tests read: the usurper ruleset's own, merged from its chapter files.

Until the other chapters (dice, entities, world, items, rooms) are merged beside the trade chapter, the
sections this part reads from them are given here from the spec, and only where the ruleset's data does
not hold them yet; once it does, the ruleset's own numbers are the ones tested.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from resolver.engine.ruleset import rules_data

FOLDER = Path(__file__).resolve().parents[2] / "resolver" / "rulesets" / "usurper"

_BANDS = ["complete_failure", "partial_failure", "partial_success", "success", "significant", "astounding"]
_BANDS += ["epic", "legendary"]
_BOUNDS = [(None, 25), (26, 49), (50, 74), (75, 100), (101, 149), (150, 199), (200, 249), (250, None)]
_STANDARD = ("dwarves", "elves", "gnomes", "goblins", "humans", "lizardfolk", "orcs")


def _row(result: str, low: int | None, high: int | None, **data: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"result": result, **data}
    if low is not None:
        row["min"] = low
    if high is not None:
        row["max"] = high
    return row


def _stand_ins() -> dict[str, Any]:
    action = [_row(b, lo, hi) for b, (lo, hi) in zip(_BANDS, _BOUNDS, strict=True)]
    loyalty = [
        _row("embittered", None, 25, leaves=True, obscurity=-5),
        _row("faith_lost", 26, 49, leaves=True),
        _row("grumpy", 50, 74, leaves=False, idle_until_paid=True),
        _row("tenacious", 75, 100, leaves=False, unpaid_penalty=True),
        _row("steadfast", 101, None, leaves=False, unpaid_penalty=False),
    ]
    return {
        "checks": {
            "action": {"dice": "1d100", "explode": {"at": 96}, "table": action},
            "loyalty": {
                "dice": "1d100",
                "explode": {"at": 96},
                "modifiers": {"throne_room": 3, "inspiring_banner": 3, "medallion": 4},
                "table": loyalty,
            },
        },
        "action_roll": {"max_pax": 10, "banner_renovations": {"loyalty": "inspiring_banner_loyalty"}},
        "city_sizes": {
            "small_town": {"diplomacy": 6},
            "large_town": {"diplomacy": 8},
            "principality": {"diplomacy": 12},
            "metropolis": {"diplomacy": 15},
        },
        "settlement_sizes": {
            "camp": {"diplomacy": 1},
            "hamlet": {"diplomacy": 2},
            "village": {"diplomacy": 3},
            "colony": {"diplomacy": 4},
        },
        "items": {
            "racial_totem": {"name": "Racial Totem", "bonus": 4},
            "horses": {"name": "Horses", "kind": "mount", "eats": 1},
            "iron": {"name": "Iron", "kind": "resource"},
        },
        "market": {
            "spyglass": {"price": 4, "quantity": 1},
            "melee_weapons": {"price": 20, "quantity": 1},
            "horses": {"price": 20, "quantity": 1},
            "donkey": {"price": 5, "quantity": 1},
        },
        "races": {
            race: {
                "kind": "standard",
                "offense": 1,
                "defense": 2 if race == "lizardfolk" else 1,
                "strength": 1,
                "speed": {"combat": "M", "overland": 2},
                "max_tools": 2,
                "max_weapons": 2,
            }
            for race in _STANDARD
        },
        "leader_bonuses": {
            "herald": {"name": "Herald", "global": {"recruit_below_friendly": True}},
            "craftsman": {"name": "Craftsman", "global": {"savings_bands_up": 1}},
        },
    }


def rules() -> dict[str, Any]:
    """The usurper rules data as merged by the engine, completed by the spec's numbers it lacks yet."""
    if (FOLDER / "rules.yaml").exists():
        data = rules_data(FOLDER)
    else:  # before the lead's skeleton: this chapter alone
        data = yaml.safe_load((FOLDER / "rules" / "trade.yaml").read_text())
    for key, value in _stand_ins().items():
        held = data.setdefault(key, {})
        for name, part in value.items():
            held.setdefault(name, copy.deepcopy(part))
    return data
