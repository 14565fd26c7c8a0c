"""Scenario tests as data, in the manner of an adjudicator test suite.

A fixture is a YAML file: a small hand-made world, the state before the turn, each
faction's orders, the rolls to force, and what must come out (check results, state
values, events). The harness builds the game, runs the real validator and the real
resolver, and compares.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from resolver.core.canonical import dump
from resolver.core.houserules import merge_rules
from resolver.core.orders import OrderFile
from resolver.core.world import Location, World, generate_hex, generate_square
from resolver.engine.ruleset import Game, get_ruleset
from resolver.engine.turn import TurnResult, resolve_turn
from resolver.engine.validate import check_order_file


def build_world(spec: dict[str, Any]) -> World:
    """A grid of plains (``kind``: square, the default, or hex), except the tiles listed per terrain;
    named places by tile.

    With ``locales`` (each locale id and the ids it borders), a province world instead: a row of
    unit squares, adjacent as listed in either direction, of the terrain ``terrain`` lists them under
    (``lanes`` if unlisted).
    """
    if "locales" in spec:
        return build_province_world(spec["locales"], spec.get("terrain"))
    generate = {"square": generate_square, "hex": generate_hex}[spec.get("kind", "square")]
    base = generate(
        0, int(spec.get("width", 8)), int(spec.get("height", 8)), terrain=(("plains", 1.0),), place_share=0.0
    )
    terrain = {tile: name for name, tiles in spec.get("terrain", {}).items() for tile in tiles}
    places = spec.get("places", {})
    locations = {
        lid: replace(loc, terrain=terrain.get(lid, "plains"), place=places.get(lid))
        for lid, loc in base.locations.items()
    }
    return World(base.kind, base.seed, base.width, base.height, locations)


def build_province_world(
    locales: dict[str, list[str] | None], terrains: dict[str, list[str]] | None = None
) -> World:
    terrain = {locale: name for name, listed in (terrains or {}).items() for locale in listed}
    borders: dict[str, set[str]] = {locale: set() for locale in locales}
    for locale, neighbours in locales.items():
        for other in neighbours or []:
            borders[locale].add(other)
            borders.setdefault(other, set()).add(locale)
    locations = {}
    for i, locale in enumerate(borders):
        square = ((i, 0.0), (i + 1, 0.0), (i + 1, 1.0), (i, 1.0))
        label = locale.capitalize()
        locations[locale] = Location(
            locale,
            label,
            terrain.get(locale, "lanes"),
            (i + 0.5, 0.5),
            square,
            tuple(sorted(borders[locale])),
            (0, i),
            label,
        )
    return World("province", 0, len(locations), 1, locations)


class Scenario:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = yaml.safe_load(path.read_text(encoding="utf-8"))
        ruleset = get_ruleset(self.data.get("ruleset", "nations"))
        rules = merge_rules(ruleset.default_rules(), self.data.get("rules") or {})
        factions = list(self.data.get("factions", ["red", "blue"]))
        self.state = ruleset.fill_state(rules, self.data.get("state") or {}, factions)
        self.game = Game(
            campaign="scenario",
            name=self.data.get("title", path.stem),
            seed=int(self.data.get("seed", 1)),
            ruleset=ruleset,
            rules=rules,
            house_rules=self.data.get("rules") or {},
            world=build_world(self.data.get("world") or {}),
            factions=tuple(factions),
        )

    def order_files(self) -> dict[str, OrderFile]:
        files = {}
        for faction, orders in (self.data.get("orders") or {}).items():
            raw = dump(
                {
                    "campaign": "scenario",
                    "turn": int(self.state["turn"]),
                    "faction": faction,
                    "orders": orders or [],
                    **(self.data.get("standing") or {}).get(faction, {}),  # e.g. policies: {...}
                }
            )
            files[faction] = check_order_file(self.game, self.state, raw, f"orders/{faction}.yaml")
        return files

    @property
    def sealed(self) -> bool:
        """Whether the turn runs as a sealed campaign's: the fixture's ``sealed``, else the ruleset's own
        default (usurper's campaigns are sealed unless the GM opens them)."""
        return bool(self.data.get("sealed", self.game.rules.get("sealed_by_default", False)))

    def resolve(self, files: dict[str, OrderFile]) -> TurnResult:
        return resolve_turn(
            self.game,
            self.state,
            files,
            self.data.get("posting_order"),
            self.data.get("rolls"),
            sealed=self.sealed,
        )


def lookup(data: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if isinstance(data, list):
            data = data[int(part)]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            raise KeyError(f"{dotted}: no '{part}'")
    return data


def matches(actual: Any, expected: Any) -> bool:
    """Subset match: every key of ``expected`` must be in ``actual`` with a matching value."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and matches(actual[k], v) for k, v in expected.items()
        )
    if isinstance(expected, list) and expected and isinstance(expected[0], dict):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(matches(a, e) for a, e in zip(actual, expected, strict=True))
        )
    return actual == expected


def resolve_accepted(path: Path, fixture: dict[str, Any]) -> TurnResult:
    """Write a fixture made in a test to ``path``, check that every order file is accepted, resolve it."""
    path.write_text(yaml.safe_dump(fixture, sort_keys=False), encoding="utf-8")
    scenario = Scenario(path)
    files = scenario.order_files()
    rejected = {f: [i.message for i in of.errors] for f, of in files.items() if not of.ok}
    assert not rejected, rejected
    return scenario.resolve(files)
