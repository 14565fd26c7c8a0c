"""A month as the production chapter's executors see it, without a whole turn: the real ``Month`` view over
a small turn context that records the events it is handed, a world of a few places and a calendar whose
season the test chooses."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from resolver.core.programs import Line, Program, Result, parse_line
from resolver.rulesets.overlord import production
from resolver.rulesets.overlord.month import Month, OverlordMonth

from .units_support import rules, unit

__all__ = ["Line", "Result", "day_end", "events", "month", "rules", "run", "unit"]


class _World(dict):
    """Places with no ways between them: a title owns its own place only (titles.Reach asks for ways)."""

    def neighbours(self, place: str) -> tuple[str, ...]:
        return ()


@dataclass
class FakeContext:
    rules: dict[str, Any]
    season: str = "Spring"
    terrains: dict[str, str] = field(default_factory=lambda: {"L1": "plains", "L2": "plains", "L9": "ocean"})
    tick: int = 1
    emitted: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.memory = OverlordMonth()
        season = self.season
        calendar = SimpleNamespace(date=lambda turn: SimpleNamespace(season=season))
        world = _World({loc: SimpleNamespace(terrain=terrain) for loc, terrain in self.terrains.items()})
        self.game = SimpleNamespace(world=world, calendar=calendar)

    def emit(self, kind: str, **data: Any) -> SimpleNamespace:
        self.emitted.append((kind, data))
        return SimpleNamespace(kind=kind, data=data)  # an event's data, which a monthly digest adds to


def month(units: dict[str, dict[str, Any]], *, data: dict[str, Any] | None = None, **context: Any) -> Month:
    state: dict[str, Any] = {
        "turn": 1,
        "factions": {"red": {"fund": 0, "stances": {}}, "blue": {"fund": 0, "stances": {}}},
        "units": units,
        "places": {},
        "structures": {},
        "next_ids": {"unit": 100, "structure": 1},
    }
    return Month(FakeContext(data or rules(), **context), state)  # type: ignore[arg-type]


def run(m: Month, unit_id: str, text: str) -> tuple[Result, Line | None]:
    """One line of a unit run through the chapter's executors, as the day's scheduler would."""
    line = parse_line(text)
    m.programs.setdefault(unit_id, Program([line]))
    if m.unreadable(unit_id, line):
        return Result.INVALID, None
    return production.EXECUTORS[line.keyword](m, unit_id, line)


def day_end(m: Month) -> None:
    production.production_day(m)
    m.ctx.tick += 1


def events(m: Month, kind: str) -> list[dict[str, Any]]:
    return [data for name, data in m.ctx.emitted if name == kind]
