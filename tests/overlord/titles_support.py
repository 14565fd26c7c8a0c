"""Fixtures for the titles chapter's tests: the merged rules data, a
small world of places inside places, a fake turn context with forced rolls, and a month holding state."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from resolver.core.dice import Roll
from resolver.core.programs import Line
from resolver.engine.ruleset import rules_data
from resolver.rulesets.overlord import titles
from resolver.rulesets.overlord.language import Reading

from .support import read_line

CHAPTER = Path(__file__).parents[2] / "resolver" / "rulesets" / "overlord" / "rules" / "titles.yaml"


def rules() -> dict[str, Any]:
    """The overlord rules data as the engine merges it (every chapter), a copy each test may change."""
    return copy.deepcopy(rules_data(CHAPTER.parents[1]))


@dataclass(frozen=True)
class Place:
    id: str
    neighbours: tuple[str, ...]
    parent: str | None = None


class World:
    """Hexes in a row, P1 - P2 - P3 - P4 - P5, 10 days' walk apart; a city C1 inside P1 and a keep K1
    inside C1, each one day in or out."""

    def __init__(self) -> None:
        row = ["P1", "P2", "P3", "P4", "P5"]
        places = {}
        for i, pid in enumerate(row):
            near = tuple(
                p for p in (row[i - 1] if i else None, row[i + 1] if i + 1 < len(row) else None) if p
            )
            places[pid] = Place(pid, near + (("C1",) if pid == "P1" else ()))
        places["C1"] = Place("C1", ("P1", "K1"), "P1")
        places["K1"] = Place("K1", ("C1",), "C1")
        self.places = places

    def __iter__(self):
        return iter(self.places)

    def __getitem__(self, pid: str) -> Place:
        return self.places[pid]

    def neighbours(self, pid: str) -> tuple[str, ...]:
        return self.places[pid].neighbours

    def days(self, a: str, b: str) -> int | None:
        if b not in self.places[a].neighbours:
            return None
        return 1 if self.places[a].parent == b or self.places[b].parent == a else 10


def reach() -> titles.Reach:
    world = World()
    return titles.Reach(world, world.days)


def unit(owner: str, location: str, race: str = "ldr", figures: int = 1, **extra: Any) -> dict[str, Any]:
    record = {
        "owner": owner, "name": f"{owner} {race}", "race": race, "figures": figures, "location": location,
        "structure": None, "stack": None, "arrival": 1, "items": {}, "equipped": {}, "skills": {},
        "orders": [], "title": None, "settings": {}, "effects": {}, "idle": False, "moving": None,
    }  # fmt: skip
    record.update(extra)
    return record


def state(**units: dict[str, Any]) -> dict[str, Any]:
    factions = {
        f: {
            "name": f.title(),
            "kind": "player",
            "fund": 5000,
            "stances": {"default": "neutral"},
            "missed_turns": 0,
        }
        for f in ("red", "blue", "green")
    }
    for npc in ("imperials", "citizens", "outlaws", "creatures"):
        factions[npc] = {"name": npc.title(), "kind": "npc", "fund": 0, "stances": {}}
    return {
        "turn": 1,
        "places": {
            "C1": {"population": 5000, "taxes": 10000, "title": {"tag": "mayo", "holder": None}},
            "K1": {"population": 0, "taxes": 0, "title": {"tag": "barn", "holder": None}},
            "P3": {"population": 2000, "taxes": 4000, "title": {"tag": "shrf", "holder": None}},
            "P5": {"population": 1000, "taxes": 2000},
        },
        "structures": {},
        "factions": factions,
        "units": dict(units),
    }


def hold(st: dict[str, Any], location: str, unit_id: str) -> None:
    """Give a unit the title of a place, as a claim would."""
    st["places"][location]["title"]["holder"] = unit_id
    st["units"][unit_id]["title"] = {"tag": st["places"][location]["title"]["tag"], "location": location}


@dataclass
class Date:
    season: str = "Summer"


@dataclass
class Ctx:
    """A turn context's few parts these modules use; ``forced`` gives the die of each label."""

    forced: dict[str, int] = field(default_factory=dict)
    orders: dict[str, Any] = field(default_factory=dict)
    sealed: bool = True
    turn: int = 1
    date: Date = field(default_factory=Date)
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    rolled: list[str] = field(default_factory=list)

    def roll(self, label: Any, expr: str, *, factions: Any = (), decided: str = "") -> Roll:
        self.rolled.append(str(label))
        face = self.forced[str(label)]
        return Roll(label=str(label), expr=expr, dice=[face], total=face)

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append((kind, data))


@dataclass
class Month:
    state: dict[str, Any]
    rules: dict[str, Any]
    day: int = 1
    battles: list[Any] = field(default_factory=list)

    def read(self, line: Line) -> Reading:
        return read_line(self.rules, self.state, line)
