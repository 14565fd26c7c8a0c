"""Scenario tests as data, in the manner of an adjudicator test suite.

A fixture is a YAML file: a small hand-made world, the state before the turn, each
faction's orders, the rolls to force, and what must come out (check results, state
values, events). The harness builds the game, runs the real validator and the real
resolver, and compares.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from resolver.core.canonical import dump
from resolver.core.orders import OrderFile
from resolver.core.world import Location, World, generate_square
from resolver.engine import TurnResult, resolve_turn
from resolver.ruleset import Game, get_ruleset, merge_rules
from resolver.validate import check_order_file

BLANK_FACTION = {
    "status": "active",
    "missed_turns": 0,
    "stock": {"resources": 0, "population": 0},
    "items": {},
    "modifiers": {},
    "advancements": {},
    "contacts": [],
    "explored": [],
    "counters": {},
}


def fill_factions(state: dict, factions: list[str], blank: dict, extra: dict) -> None:
    """Each faction is the blank, then ``extra``, then what the fixture gives (mappings merge one level)."""
    given = state.setdefault("factions", {})
    for f in factions:
        merged = copy.deepcopy(blank)
        merged.update({"name": f.capitalize(), "color": "#888888", **extra})
        for key, value in (given.get(f) or {}).items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = {**merged[key], **value}
            else:
                merged[key] = value
        given[f] = merged


def build_world(spec: dict[str, Any]) -> World:
    """All plains, except the tiles listed per terrain; named places by tile.

    With ``locales`` (each locale id and the ids it borders), a province world instead: a row of
    unit squares, adjacent as listed in either direction.
    """
    if "locales" in spec:
        return build_province_world(spec["locales"])
    base = generate_square(
        0, int(spec.get("width", 8)), int(spec.get("height", 8)), terrain=(("plains", 1.0),), place_share=0.0
    )
    terrain = {tile: name for name, tiles in spec.get("terrain", {}).items() for tile in tiles}
    places = spec.get("places", {})
    locations = {
        lid: replace(loc, terrain=terrain.get(lid, "plains"), place=places.get(lid))
        for lid, loc in base.locations.items()
    }
    return World(base.kind, base.seed, base.width, base.height, locations)


def build_province_world(locales: dict[str, list[str] | None]) -> World:
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
            locale, label, "lanes", (i + 0.5, 0.5), square, tuple(sorted(borders[locale])), (0, i), label
        )
    return World("province", 0, len(locations), 1, locations)


def build_state(ruleset_id: str, rules: dict[str, Any], spec: dict[str, Any], factions: list[str]) -> dict:
    if ruleset_id == "factions":
        return build_factions_state(rules, spec, factions)
    if ruleset_id == "seasons":
        return build_seasons_state(rules, spec, factions)
    state = copy.deepcopy(spec)
    state.setdefault("turn", 1)
    for key in ("armies", "settlements", "projects", "roads", "ruins"):
        state.setdefault(key, {})
    fill_factions(state, factions, BLANK_FACTION, {})
    classes = rules.get("unit_classes", {})
    for aid, army in state["armies"].items():
        army.setdefault("id", aid)
        for i, unit in enumerate(army.get("units", [])):
            base = dict(classes.get(unit.get("class", "troops"), {}).get("base", {}))
            filled = {
                "class": "troops",
                "name": unit.get("class", "troops").capitalize(),
                "traits": [],
                **base,
            }
            filled.update(unit)
            filled.setdefault("id", f"{army['owner']}-{aid}-u{i + 1}")
            army["units"][i] = filled
    for sid, s in state["settlements"].items():
        s.setdefault("id", sid)
        s.setdefault("name", sid.capitalize())
    for pid, p in state["projects"].items():
        p.setdefault("id", pid)
    return state


FACTIONS_BLANK = {
    "status": "active",
    "missed_turns": 0,
    "stock": {"capital": 0, "reach": 0},
    "influence": {},
    "allies": [],
    "items": {},
    "modifiers": {},
    "counters": {},
}


def build_factions_state(rules: dict[str, Any], spec: dict[str, Any], factions: list[str]) -> dict:
    """Fill a hand-written factions state: locations from their ids (locale/kind), assets from their types."""
    state = copy.deepcopy(spec)
    state.setdefault("turn", 1)
    for key in ("locations", "assets", "projects"):
        state.setdefault(key, {})
    fill_factions(state, factions, FACTIONS_BLANK, {"cohesion": rules["start"]["cohesion"]})
    for lid, loc in state["locations"].items():
        locale, kind = lid.split("/", 1)
        loc.setdefault("id", lid)
        loc.setdefault("locale", locale)
        loc.setdefault("kind", kind)
        loc.setdefault("name", f"{kind.capitalize()} of {locale.capitalize()}")
        loc.setdefault("holder", None)
    for aid, asset in state["assets"].items():
        asset.setdefault("id", aid)
        if rules["asset_types"][asset["type"]]["kind"] == "unit":
            asset.setdefault("level", rules["asset_types"][asset["type"]].get("level", 1))
    for pid, project in state["projects"].items():
        project.setdefault("id", pid)
    return state


SEASONS_BLANK = {
    "status": "active",
    "missed_turns": 0,
    "stock": {"resources": 0},
    "tech": 1,
    "defence": 1,
    "morale": 4,
    "shaken": 0,
    "unrest": 0,
    "enforced_peace": None,
    "interest": "colonizing",
    "wars": [],
    "rolls": 0,
    "season": {},
    "year": {},
    "diplomacy": {},
    "hero": False,
    "column": "A",
}


def build_seasons_state(rules: dict[str, Any], spec: dict[str, Any], factions: list[str]) -> dict:
    """Fill a hand-written seasons state: provinces default to plain land, units to their code's morale,
    commanders to captains of reputation 3; the capital is the province marked ``capital``."""
    state = copy.deepcopy(spec)
    state.setdefault("turn", 1)
    for key in ("provinces", "armies", "commanders", "sieges"):
        state.setdefault(key, {})
    for province in state["provinces"].values():
        for flag in ("capital", "pole", "fort", "looted", "conquered"):
            province.setdefault(flag, False)
        province.setdefault("owner", None)
    fill_factions(state, factions, SEASONS_BLANK, {})
    for faction, record in state["factions"].items():
        capital = next(
            (p for p, v in sorted(state["provinces"].items()) if v["capital"] and v["owner"] == faction), None
        )
        record.setdefault("capital", capital)
    for aid, army in state["armies"].items():
        army.setdefault("id", aid)
        army.setdefault("commander", None)
        for number, unit in enumerate(army.get("units", []), 1):
            unit.setdefault("id", f"{aid}-u{number}")
            unit.setdefault("morale", rules["units"][unit["code"]]["morale"])
            unit.setdefault("wins", 0)
            unit.setdefault("hits", 0)
    for cid, commander in state["commanders"].items():
        commander.setdefault("id", cid)
        commander.setdefault("rank", "captain")
        commander.setdefault("reputation", 3)
        commander.setdefault("attributes", [])
        commander.setdefault("weapon", None)
        commander.setdefault("wounded", 0)
    return state


class Scenario:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.data = yaml.safe_load(path.read_text(encoding="utf-8"))
        ruleset = get_ruleset(self.data.get("ruleset", "nations"))
        rules = merge_rules(ruleset.default_rules(), self.data.get("rules") or {})
        factions = list(self.data.get("factions", ["red", "blue"]))
        self.state = build_state(ruleset.id, rules, self.data.get("state") or {}, factions)
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

    def resolve(self, files: dict[str, OrderFile]) -> TurnResult:
        return resolve_turn(
            self.game, self.state, files, self.data.get("posting_order"), self.data.get("rolls")
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
