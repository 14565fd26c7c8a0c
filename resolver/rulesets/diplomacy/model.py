"""Reading and changing a Diplomacy campaign's state. The other modules (orders, the bot, the map) read
the state only through the functions here, so its layout can change in one place.

The state beside the engine's own fields (``turn``, ``factions``)::

    units:     {austria-u1: {id, owner, kind: army|fleet, location: vie}, ...}   # location: a board id
    centres:   {par: france, bel: null, ...}      # all 34 supply centres, null for a neutral one
    phase:     {year: 1901, season: spring, kind: movement}   # the phase the next turn plays
    dislodged: {ser: {id, owner, kind, location: ser, attacker_from: bud}, ...}  # before a retreat turn
    contested: [gal, ...]   # provinces left empty by a standoff: no retreat goes there
    convoyed:  [lon, ...]   # provinces an army left by convoy: a unit it dislodged may retreat there

Units are a mapping by id, as every ruleset keeps its pieces, so the engine's fog of war, the GM's orders
and the site read them like any other pieces.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ...core.phases import State
from ...engine.ruleset import Game
from .board import Board, standard_board
from .pieces import MovementOutcome, PhaseKind, Unit, UnitKind

SEASONS = ("spring", "autumn", "winter")
PHASE_KINDS: tuple[PhaseKind, ...] = ("movement", "retreat", "adjustment")


@functools.cache
def the_board() -> Board:
    """The standard board, read once a process (``rules/map.yaml``)."""
    return standard_board()


def board(game: Game | None = None) -> Board:
    """The standard board. Every campaign plays on it; ``game`` is taken so that a later map variant can
    be read from the campaign's rules without changing the callers."""
    return the_board()


def _unit(record: Mapping[str, Any]) -> Unit:
    kind: UnitKind = "fleet" if record["kind"] == "fleet" else "army"
    return Unit(str(record["owner"]), kind, str(record["location"]))


unit_of = _unit  # a unit record of the state read as the adjudicator's Unit


def unit_records(state: State) -> dict[str, dict[str, Any]]:
    return state.setdefault("units", {})


def units(state: State) -> tuple[Unit, ...]:
    """The units on the board (dislodged ones excluded), by power then location, the same every time."""
    found = [_unit(record) for record in (state.get("units") or {}).values()]
    return tuple(sorted(found, key=lambda unit: (unit.power, unit.location)))


def unit_id_at(state: State, province: str) -> str | None:
    """The id of the unit standing in ``province`` (any coast of it), or None."""
    for unit_id, record in sorted((state.get("units") or {}).items()):
        if str(record["location"]).split("/", 1)[0] == province:
            return str(unit_id)
    return None


def centres(state: State) -> dict[str, str | None]:
    """Every supply centre and its owner (None for a neutral one)."""
    return dict(state.get("centres") or {})


def owners(state: State) -> dict[str, str]:
    """Supply centre -> power, for the owned centres only (the adjudicator's reading)."""
    return {centre: str(owner) for centre, owner in sorted((state.get("centres") or {}).items()) if owner}


def phase(state: State) -> dict[str, Any]:
    return dict(state["phase"])


def phase_kind(state: State) -> PhaseKind:
    kind = str(state["phase"]["kind"])
    return next(known for known in PHASE_KINDS if known == kind)


def season(state: State) -> str:
    return str(state["phase"]["season"])


def year(state: State) -> int:
    return int(state["phase"]["year"])


def movement_outcome(state: State) -> MovementOutcome | None:
    """In a retreat phase, what the retreats read of the movement before it: the units standing, the
    dislodged ones and where their attackers came from, the provinces left empty by a standoff and the
    provinces armies left by convoy. None in any other phase."""
    if phase_kind(state) != "retreat":
        return None
    return retreat_position(state)


def retreat_position(state: State) -> MovementOutcome:
    """What the retreats read of the state as a movement left it (``movement_outcome`` without asking
    which phase is next: the movement turn reads it to find where its dislodged units may go)."""
    dislodged = {
        str(province): (_unit(record), str(record["attacker_from"]))
        for province, record in sorted((state.get("dislodged") or {}).items())
    }
    return MovementOutcome(
        resolutions=(),
        units=units(state),
        dislodged=dislodged,
        contested=frozenset(state.get("contested") or ()),
        convoyed=frozenset(state.get("convoyed") or ()),
    )


def powers(game: Game, state: State) -> list[str]:
    """The powers of the campaign in the game's order."""
    return game.factions_in(state)


def centre_count(state: State, power: str) -> int:
    return sum(1 for owner in (state.get("centres") or {}).values() if owner == power)


def unit_count(state: State, power: str) -> int:
    return sum(1 for record in (state.get("units") or {}).values() if record["owner"] == power)


def phase_label(rules: Mapping[str, Any], phase: Mapping[str, Any]) -> str:
    """The turn's label, "Spring 1901 retreats", from the rules data's table of phases."""
    row = next(
        row for row in rules["phases"] if row["season"] == phase["season"] and row["kind"] == phase["kind"]
    )
    return str(row["label"]).format(year=phase["year"])


def record_date(rules: Mapping[str, Any], state: State, turn: int) -> None:
    """Write the date of ``turn``, the phase ``state.phase`` says it plays, into the state's ``dates``
    (turn 1 first), which the engine's calendar reads for the turn's label."""
    dates = state.setdefault("dates", [])
    phase = state["phase"]
    entry = {
        "year": int(phase["year"]),
        "season": str(phase["season"]).capitalize(),
        "label": phase_label(rules, phase),
    }
    del dates[turn - 1 :]
    while len(dates) < turn - 1:
        dates.append(None)
    dates.append(entry)
