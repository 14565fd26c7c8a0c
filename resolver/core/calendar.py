"""In-game dates. Each ruleset describes the shape of its year in its rules data.

A year is a list of periods (seasons or months), and a turn is one period or a
fraction of one (``turns_per_period: 4`` gives weekly turns in four-week months).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameDate:
    turn: int
    year: int
    period: str
    season: str
    step: int | None  # week within the period, for games with several turns per period
    label: str


@dataclass(frozen=True)
class Calendar:
    periods: tuple[str, ...]
    seasons: tuple[str, ...]  # season of each period, same length
    turns_per_period: int = 1
    step_name: str = "Week"
    start_year: int = 1
    year_name: str = "Year"
    # The dates a game recorded turn by turn (turn 1 first; None where none was), for a game whose turns
    # are not a fixed share of its year (a phase that nobody has a choice in is skipped): the ruleset keeps
    # them in its state's ``dates``, and they win over the count of periods.
    recorded: tuple[GameDate | None, ...] = ()

    @classmethod
    def from_rules(cls, data: Mapping[str, Any]) -> Calendar:
        periods = tuple(p["name"] if isinstance(p, Mapping) else str(p) for p in data["periods"])
        seasons = tuple(
            (p.get("season") or p["name"]) if isinstance(p, Mapping) else str(p) for p in data["periods"]
        )
        return cls(
            periods=periods,
            seasons=seasons,
            turns_per_period=int(data.get("turns_per_period", 1)),
            step_name=str(data.get("step_name", "Week")),
            start_year=int(data.get("start_year", 1)),
            year_name=str(data.get("year_name", "Year")),
        )

    @property
    def turns_per_year(self) -> int:
        return len(self.periods) * self.turns_per_period

    def with_recorded(self, dates: Any) -> Calendar:
        """This calendar with the dates a state recorded (``state["dates"]``: a list of ``{year, season,
        label}`` by turn, null where a turn has none)."""
        if not dates:
            return self
        recorded = tuple(
            GameDate(turn, int(d["year"]), str(d["season"]), str(d["season"]), None, str(d["label"]))
            if isinstance(d, Mapping)
            else None
            for turn, d in enumerate(dates, 1)
        )
        return Calendar(
            self.periods,
            self.seasons,
            self.turns_per_period,
            self.step_name,
            self.start_year,
            self.year_name,
            recorded,
        )

    def date(self, turn: int) -> GameDate:
        if turn < 1:
            raise ValueError("turns start at 1")
        if turn <= len(self.recorded) and self.recorded[turn - 1] is not None:
            return self.recorded[turn - 1]  # type: ignore[return-value]
        index = turn - 1
        year = self.start_year + index // self.turns_per_year
        within = index % self.turns_per_year
        p = within // self.turns_per_period
        period, season = self.periods[p], self.seasons[p]
        year_text = f"{self.year_name} {year}".strip()
        if self.turns_per_period == 1:
            return GameDate(turn, year, period, season, None, f"{period}, {year_text}")
        step = within % self.turns_per_period + 1
        return GameDate(turn, year, period, season, step, f"{self.step_name} {step}, {period}, {year_text}")
