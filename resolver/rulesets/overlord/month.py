"""What the phases of one overlord month share, and what an executor of an order line is handed.

``OverlordMonth`` is the turn memory (``ctx.memory``): the units' programs, parsed once at the start of
the month and written back to the state at the end of every day, and the queues written for temporary ids
that no unit carries yet. ``Month`` is the view an executor gets: the turn context, the live state and the
day, with the small helpers every executor needs (the unit, its faction, an event stamped with the day).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ...core.events import Event
from ...core.phases import State
from ...core.programs import Line, Program, Result
from ...engine.context import TurnContext
from ...engine.ruleset import TurnMemory
from . import language
from . import model as m
from .bids import Bid


@dataclass
class OverlordMonth(TurnMemory):
    programs: dict[str, Program] = field(default_factory=dict)  # unit id (or temporary id) -> its queue
    temporary: set[str] = field(default_factory=set)  # temporary ids written this month, not yet created
    started: bool = False  # the programs were read from the state and the order files
    bids: list[Bid] = field(default_factory=list)  # today's trade and recruit requests (markets.py)
    battles: list[Any] = field(default_factory=list)  # battles queued for the day's battle phase (guards.py)
    # Each unit's queue as day._store last wrote it (its lines, and the texts written), so that an
    # unchanged queue is not rendered again.
    written: dict[str, tuple[tuple[Line, ...], list[str]]] = field(default_factory=dict)
    reach: Any = None  # the month's remembered walking ranges (titles.Reach), made when first asked
    # Each queue line read once against the order table (``Month.read``), and what that reading knows.
    readings: dict[Line, language.Reading] = field(default_factory=dict)
    known: language.Vocabulary | None = None


Context = TurnContext[OverlordMonth]


@dataclass
class Month:
    """The month as an executor sees it on one day."""

    ctx: Context
    state: State

    @property
    def day(self) -> int:
        return self.ctx.tick

    @property
    def rules(self) -> dict[str, Any]:
        return self.ctx.rules

    @property
    def programs(self) -> dict[str, Program]:
        return self.ctx.memory.programs

    def read(self, line: Line) -> language.Reading:
        """The line's typed arguments, as the checker read them (``language.read``), once a month for
        each distinct line. The queues hold ids (the check put them in place of names), so no name is
        read here."""
        memory = self.ctx.memory
        found = memory.readings.get(line)
        if found is None:
            if memory.known is None:
                memory.known = language.Vocabulary.from_rules(self.rules, self.state.get("factions") or {})
            found = memory.readings[line] = language.read(line, memory.known)
        return found

    def unreadable(self, unit_id: str, line: Line) -> bool:
        """Whether the order table cannot read the line (the checker refuses such a line, so only a queue
        written some other way holds one): then it never runs, and the unit's faction hears why."""
        reading = self.read(line)
        if not reading.ok:
            self.tell("line_failed", unit_id, order=line.render(), reason=reading.problems[0].problem)
        return not reading.ok

    def unit(self, unit_id: str) -> dict[str, Any] | None:
        return m.unit(self.state, unit_id)

    def owner(self, unit_id: str) -> str:
        return str((self.unit(unit_id) or {}).get("owner", ""))

    def is_city(self, location: str) -> bool:
        """Whether a location is a city (where WITHDRAW reaches the fund), by its kind in the world."""
        world = self.ctx.game.world
        kinds = self.rules["economy"]["withdraw_places"]
        return location in world and world[location].terrain in kinds

    def tell(self, kind: str, unit_id: str, *, to: Iterable[str] | None = None, **data: Any) -> Event:
        """An event of a unit's deed, private to its faction unless ``to`` says otherwise, naming the unit
        by its name (``unit_name``) beside its id."""
        owner = self.owner(unit_id)
        record = self.unit(unit_id) or {}
        return self.ctx.emit(
            kind,
            actors=[owner] if owner else [],
            place=record.get("location"),
            visible_to=[owner] if to is None else to,
            unit=unit_id,
            unit_name=m.unit_name(self.state, unit_id),
            **data,
        )


Executor = Callable[[Month, str, Line], tuple[Result, Line | None]]
