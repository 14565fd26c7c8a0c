"""What the rolls and experience tests share: the usurper rules data, a turn context whose dice can be
forced by label, and a small usurper's record as the state contract lays it out."""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

from resolver.core.calendar import GameDate
from resolver.core.clock import in_first_month
from resolver.core.dice import Dice, TurnSeed
from resolver.engine.context import TurnContext
from resolver.rulesets.usurper import RULESET
from resolver.rulesets.usurper.acting import UsurperWeek

ROOMS = ("throne", "barracks", "warehouse")


def usurper_rules() -> dict[str, Any]:
    """The ruleset's rules data, all chapters merged as the engine merges them."""
    return RULESET.default_rules()


RULES = usurper_rules()


def context(
    rules: dict[str, Any] | None = None,
    *,
    turn: int = 5,
    forced: dict[str, list[int]] | None = None,
    seed: int = 7,
) -> TurnContext:
    """A turn context for week ``turn`` (4 weeks a month: turns 1-4 are the first month)."""
    week = (turn - 1) % 4 + 1
    month = (turn - 1) // 4 + 1
    date = GameDate(turn=turn, year=1, period=f"Month {month}", season="Spring", step=week, label=f"t{turn}")
    dice = Dice(TurnSeed(seed, turn, {"red": "-"}), forced=forced or {})
    game = SimpleNamespace(rules=rules if rules is not None else RULES)
    # The turn table's first-month step, as the week would have run it.
    memory = UsurperWeek(first_month=in_first_month(date))
    # A usurper campaign is sealed by default: each usurper's doings are told to it alone.
    return TurnContext(
        game=game, turn=turn, date=date, dice=dice, orders={}, posting_order=[], memory=memory, sealed=True
    )  # type: ignore[arg-type]


def unit(uid: str, **fields: Any) -> dict[str, Any]:
    record = {
        "id": uid, "name": f"Unit {uid[-1]}", "race": "dwarves", "level": 0, "xp": 0, "pax": 10,
        "offense": 1, "defense": 1, "strength": 1, "speed": {"combat": "M", "overland": 2}, "max_tools": 2,
        "max_weapons": 2, "skills": {}, "tools": [], "weapons": [], "armor": None, "mount": None,
        "lair": "red-lair1", "grumpy": False, "unpaid": False, "replacements": [],
    }  # fmt: skip
    record.update(fields)
    return record


def leader(lid: str, **fields: Any) -> dict[str, Any]:
    record = {
        "id": lid, "name": f"Leader {lid[-1]}", "role": "chief", "race": "humans", "bonus": "herald", "hp": 2,
        "healing": 0, "skills": {}, "spells": [], "carried": None, "donkey": False, "lair": "red-lair1",
    }  # fmt: skip
    record.update(fields)
    return record


def state(*, units: list[dict] = (), leaders: list[dict] = (), **known: Any) -> dict[str, Any]:  # type: ignore[assignment]
    lair = {
        "id": "red-lair1", "grid": "Z26", "obscurity": {"current": 150, "max": 150},
        "rooms": [{"type": room, "level": 1, "renovations": []} for room in ROOMS],
        "storage": {"lumber": 0, "stone": 0, "iron": 0, "foodstuffs": 0},
        "items": [], "gems": [], "prisoners": [],
    }  # fmt: skip
    faction = {
        "name": "The Red Hand", "color": "#aa3333", "status": "active", "gold": 100,
        "leaders": {r["id"]: copy.deepcopy(r) for r in leaders},
        "units": {r["id"]: copy.deepcopy(r) for r in units},
        "lairs": {"red-lair1": lair},
        "known": {"scouted": [], "settlements": {}, "nodes": {}, "encounters": {}, "pf_memory": [], **known},
        "policies": {},
    }  # fmt: skip
    return {"turn": 5, "cities": {}, "scores": {}, "factions": {"red": faction}}


def pairs(ledger: Any) -> list[tuple[str, int]]:
    return [(m.source, m.value) for m in ledger]
