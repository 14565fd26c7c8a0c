"""The checker reads Build, Renovate and Craft as the resolver will: tools on a unit taking part (or
equipped from the warehouse by the order), the lair at the target, the rooms and renovations allowed, the
resources in store; each refusal says what to do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from resolver.core.orders import OrderFile
from resolver.core.world import World
from resolver.engine.ruleset import Game, get_ruleset

from ..scenarios.harness import Scenario

THREE_ROOMS = [{"type": t, "level": 1, "renovations": []} for t in ("throne", "barracks", "warehouse")]


def _scenario(tmp_path: Path, orders: list[dict[str, Any]], **lair: Any) -> Scenario:
    home = {
        "grid": "B2",
        "rooms": THREE_ROOMS,
        "storage": {"lumber": 40, "stone": 10, "iron": 0, "foodstuffs": 0},
    }
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 10, "height": 10, "places": {"C3": "Varos"}},
        "factions": ["red", "blue"],
        "state": {
            "turn": 2,
            "cities": {"C3": {"name": "Varos", "size": "small_town", "races": ["humans"]}},
            "factions": {
                "red": {
                    "gold": 50,
                    "lairs": {"red-lair1": {**home, **lair}},
                    "leaders": {"red-l1": {"name": "Grug", "bonus": "craftsman"}},
                    "units": {
                        "red-u1": {"name": "Iron Fists", "race": "dwarves"},
                        "red-u2": {"name": "Cowled Rangers", "race": "elves"},
                    },
                },
                "blue": {"lairs": {"blue-lair1": {"grid": "H8"}}, "units": {"blue-u1": {"race": "orcs"}}},
            },
        },
        "orders": {"red": orders, "blue": []},
    }
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


def _errors(of: OrderFile) -> list[tuple[str, str]]:
    return [(issue.message, issue.hint) for issue in of.errors]


def test_a_build_without_saws_is_refused_with_the_fix(tmp_path: Path) -> None:
    files = _scenario(tmp_path, [{"action": "build", "by": "red-u1", "rooms": ["watchtower"]}]).order_files()
    assert _errors(files["red"]) == [
        ("no unit taking part has Saws", "equip Saws on one of the units: equip: [saws]")
    ]


def test_saws_equipped_from_the_warehouse_make_the_build_good(tmp_path: Path) -> None:
    orders = [{"action": "build", "by": "red-u1", "rooms": ["watchtower"], "equip": ["saws"]}]
    files = _scenario(tmp_path, orders, items=[{"item": "saws", "quality": "standard"}]).order_files()
    assert files["red"].ok, _errors(files["red"])


def test_the_checker_names_what_is_short_and_what_is_not_allowed(tmp_path: Path) -> None:
    saws = [{"item": "saws", "quality": "standard"}] * 3
    orders = [
        {"action": "build", "by": "red-u1", "rooms": ["warehouse"], "equip": ["saws"]},
        {"action": "renovate", "by": "red-u2", "room": "warehouse", "renovation": "expanded_hold", "times": 2,
         "equip": ["saws"]},
    ]  # fmt: skip
    files = _scenario(tmp_path, orders, items=saws).order_files()
    assert _errors(files["red"]) == [
        (
            "the lair already has a Warehouse, and only one is allowed",
            "renovate it instead, or build a room the lair lacks",
        ),
        (
            "Renovate needs 15 Stone more in the Warehouse of the lair at B2",
            "harvest or buy what is missing, or attempt less this week",
        ),
    ]


def test_crafting_needs_a_workshop_in_the_lair_at_the_target(tmp_path: Path) -> None:
    orders = [
        {"action": "craft", "by": "red-u1", "items": ["light_armor"]},
        {"action": "craft", "by": "red-u2", "target": "C3", "items": ["shovels"]},
    ]
    files = _scenario(tmp_path, orders).order_files()
    [(workshop, _), (elsewhere, hint)] = _errors(files["red"])
    assert workshop == "the lair at B2 has no Workshop 'workshop'"
    assert elsewhere == "you have no lair at C3" and hint == "target one of your lairs: B2"


def test_a_crafted_item_is_named_in_the_sentence_and_the_headline() -> None:
    """The event's ``items`` (the words of what was made) is read as the field, never as the mapping's own
    method of that name, which once printed '<built-in method items ...>' in the chronicle."""
    ruleset = get_ruleset("usurper")
    game = Game("c", "C", 1, ruleset, ruleset.default_rules(), {}, World("square", 1, 1, 1, {}), ("red",))
    done = {
        "kind": "crafted",
        "actors": ["red"],
        "place": None,
        "data": {
            "done": True,
            "items": "Light Armor",
            "quality": "Mild",
            "band": "Success",
            "total": 80,
            "spent": "",
            "saved": "",
        },
    }
    assert "crafts Light Armor of Mild quality" in ruleset.describe(done, game)
    options = ruleset.headline_options(done, game)
    assert options is not None and any("crafts Light Armor" in text for text in options[1])
