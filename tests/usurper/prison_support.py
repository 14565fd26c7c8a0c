"""A small usurper world with a Prison, for the prisons, explore and GM tests: red's lair at B2 with a
Prison, a leader and a unit; blue's lair at H8."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from ..scenarios.harness import Scenario

ROOMS = [
    {"type": "throne", "level": 1, "renovations": []},
    {"type": "barracks", "level": 1, "renovations": []},
    {"type": "warehouse", "level": 1, "renovations": []},
    {"type": "prison", "level": 1, "renovations": []},
]


def prisoner(pid: str, name: str, **fields: Any) -> dict[str, Any]:
    """A captured unit of the game's own powers (no owner), level 0, unless ``fields`` say otherwise."""
    record = {"name": name, "race": "orcs", "level": 0, "pax": 4, "offense": 2, "defense": 1, "strength": 1,
              "speed": {"combat": "M", "overland": 2}, "skills": {}}  # fmt: skip
    return {"id": pid, "name": name, "kind": "unit", "owner": None, "home": None, "taken": 3,
            "record": record, "interrogated": None, **fields}  # fmt: skip


def scenario(
    tmp_path: Path,
    orders: list[dict[str, Any]],
    *,
    prisoners: list[dict[str, Any]] = (),  # type: ignore[assignment]
    rolls: dict[str, list[int]] | None = None,
    policies: dict[str, Any] | None = None,
    rooms: list[dict[str, Any]] | None = None,
    turn: int = 6,
    **red: Any,
) -> Scenario:
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 10, "height": 10, "terrain": {"forests": ["C3"]}, "places": {"D2": "Varos"}},
        "factions": ["red", "blue"],
        "state": {
            "turn": turn,
            "cities": {"D2": {"name": "Varos", "size": "small_town", "races": ["humans"]}},
            "factions": {
                "red": {
                    "gold": 50,
                    "lairs": {"red-lair1": {"grid": "B2", "rooms": copy.deepcopy(rooms or ROOMS),
                                            "prisoners": copy.deepcopy(list(prisoners))}},
                    "leaders": {"red-l1": {"name": "Grug", "bonus": "herald"}},
                    "units": {"red-u1": {"name": "Iron Fists", "race": "dwarves"}},
                    **red,
                },
                "blue": {"lairs": {"blue-lair1": {"grid": "H8"}}, "units": {"blue-u1": {"race": "orcs"}}},
            },
        },
        "orders": {"red": orders, "blue": []},
        "rolls": rolls or {},
    }  # fmt: skip
    if policies:
        fixture["standing"] = {"red": {"policies": policies}}
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


def run(tmp_path: Path, orders: list[dict[str, Any]], **options: Any):
    """Check red's orders (they must pass) and resolve the week."""
    case = scenario(tmp_path, orders, **options)
    files = case.order_files()
    assert files["red"].ok, [(i.message, i.hint) for i in files["red"].errors]
    return case, case.resolve(files)


def events(result: Any, kind: str) -> list[Any]:
    return [event for event in result.events if event.kind == kind]
