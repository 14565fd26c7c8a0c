"""The README's order file for usurper players is a real one: taken from the README as it is written, it
checks clean for a usurper whose lair, units and findings fit it, and its week resolves."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ..scenarios.harness import Scenario

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_order_file() -> dict:
    """The first YAML block of the README's section on usurper orders."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### Orders for usurper", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert block, "the README's usurper section has no YAML example"
    return yaml.safe_load(block.group(1))


def _tool(item: str) -> dict[str, str]:
    return {"item": item, "quality": "standard"}


def test_the_readmes_order_file_checks_clean_and_resolves(tmp_path: Path) -> None:
    example = readme_order_file()
    saws = [{"item": "saws", "quality": "standard"}]
    node = {"resource": "lumber", "size": "normal", "dice": "4d4+8", "uses": 3, "harvest_bonus": 0}
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 26, "height": 26, "terrain": {"forests": ["Y26"]}, "places": {"W24": "Varos"}},
        "factions": ["red", "blue"],
        "state": {
            "turn": 5,
            "cities": {"W24": {"name": "Varos", "size": "small_town", "races": ["humans"]}},
            "factions": {
                "red": {
                    "lairs": {
                        "red-lair1": {
                            "grid": "Z26",
                            "storage": {"lumber": 40, "stone": 0, "iron": 0, "foodstuffs": 4},
                            "items": saws,
                        }
                    },
                    "leaders": {
                        "red-l1": {"name": "Grug", "bonus": "herald", "donkey": True},
                        "red-l2": {"name": "Richard", "bonus": "pioneer"},
                    },
                    "units": {
                        "red-u1": {"name": "Unit 1", "race": "goblins", "tools": [_tool("spyglass")]},
                        "red-u2": {"name": "Unit 2", "race": "dwarves", "tools": [_tool("shovels")]},
                        "red-u3": {"name": "Unit 3", "race": "dwarves"},
                    },
                    "known": {"nodes": {"Y26": node}},
                },
                "blue": {"lairs": {"blue-lair1": {"grid": "C3"}}, "units": {"blue-u1": {"race": "orcs"}}},
            },
        },
        "orders": {"red": example["orders"], "blue": []},
        "standing": {"red": {"policies": example["policies"]}},
    }
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    scenario = Scenario(path)
    files = scenario.order_files()
    assert files["red"].ok, [(issue.message, issue.hint) for issue in files["red"].errors]
    result = scenario.resolve(files)
    kinds = {event.kind for event in result.events if "red" in (event.visible_to or [])}
    assert {"scouted", "harvested", "rooms_built", "diplomacy"} <= kinds
