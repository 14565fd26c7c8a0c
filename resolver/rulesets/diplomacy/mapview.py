"""What a Diplomacy turn looks like on the site's map (the ``Ruleset`` map hooks): every unit as a piece in
its power's colour, each supply centre tinted by its owner, and each order of the turn drawn from its
``order`` event: a move or a retreat as an arrow, a support or a convoy as a thin arrow at the move it
helps (or at the unit it helps hold), a hold as a ring round the unit. What became of the order picks the
line: solid when it succeeded, dashed and crossed out when it failed, dotted grey and crossed out when it
broke a rule. A battle (a bounce or a dislodgement), a dislodged unit, a unit built and a unit disbanded
get a mark; so does a centre changing hands. Pieces stand at their province's label point (the world's
centre of it), but a fleet on one of two coasts stands at that coast's point (``geometry.coast_points``)
and is named with its coast in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...core.phases import State
from ...engine.ruleset import Game, MapMark
from . import geometry
from . import model as m
from .board import Board

Describe = Callable[[Mapping[str, Any]], str]

# The order types an event may carry -> the map mark that draws it (waive: nothing to draw).
ORDER_MARKS = {
    "hold": "hold",
    "move": "march",
    "retreat": "march",
    "support": "support",
    "convoy": "convoy",
    "disband": "disband",
    "remove": "disband",
    "build": "build",
}
# Other events that stand on the map: event kind -> mark kind. ``built`` is drawn from its build order.
# A battle (a bounce, a dislodgement) is marked where it was fought.
EVENT_MARKS = {
    "battle": "battle",
    "dislodged": "dislodged",
    "disbanded": "disband",
    "centre_changed": "capture",
}
UNIT_WORDS = {"army": "army", "fleet": "fleet"}


def map_pieces(game: Game, state: State) -> list[dict[str, Any]]:
    """Every unit on the board, then every dislodged unit waiting to retreat (it shares its province with
    the unit that dislodged it until the retreats are played)."""
    board = m.board(game)
    pieces = [_piece(board, record, waiting=False) for _, record in sorted(m.unit_records(state).items())]
    for _, record in sorted((state.get("dislodged") or {}).items()):
        pieces.append(_piece(board, record, waiting=True))
    return pieces


def _piece(board: Board, record: Mapping[str, Any], waiting: bool) -> dict[str, Any]:
    kind = "fleet" if record["kind"] == "fleet" else "army"
    location = str(record["location"])
    power = str(record["owner"])
    detail = f"{board.power_adjective(power)} {UNIT_WORDS[kind]} in {board.name(location)}"
    if waiting:
        detail += ", dislodged: it must retreat or be disbanded"
    piece: dict[str, Any] = {
        "kind": kind,
        "location": board.province(location),
        "owner": power,
        "label": "A" if kind == "army" else "F",
        "detail": detail,
        "size": 1,
    }
    if board.coast(location):  # a fleet on one of two coasts stands by that coast
        piece["point"] = list(geometry.point_of(location))
    return piece


def map_holders(game: Game, state: State) -> dict[str, str | None]:
    """Each supply centre and its owner (None: neutral); the other provinces are nobody's to hold."""
    return dict(m.centres(state))


def map_marked_places(game: Game) -> frozenset[str]:
    """The 34 supply centres: the map rings their names, as the board marks them."""
    return m.board(game).supply_centres


def map_events(game: Game, events: Sequence[Mapping[str, Any]], describe: Describe) -> list[MapMark]:
    """The turn's orders as arrows and rings, from its ``order`` events alone, then the dislodged and
    disbanded units and the centres that changed hands, each with the chronicle's sentence."""
    board = m.board(game)
    marks = []
    for event in events:
        data = event.get("data") or {}
        if event.get("kind") == "order":
            mark = _order_mark(board, data, describe(event))
        elif event.get("kind") in EVENT_MARKS:
            mark = _event_mark(board, str(event["kind"]), data, describe(event))
        else:
            mark = None
        if mark is not None:
            marks.append(mark)
    return marks


def _province(board: Board, location: Any) -> str | None:
    """The world location (province) of a board location, or None for a place the board does not know."""
    return board.province(str(location)) if location and board.is_location(str(location)) else None


def _order_mark(board: Board, data: Mapping[str, Any], text: str) -> MapMark | None:
    kind = ORDER_MARKS.get(str(data.get("order_type")))
    if kind is None:
        return None
    unit, destination, supported = (
        _province(board, data.get(key)) for key in ("unit", "destination", "supported")
    )
    result = data.get("result")
    outcome = str(result) if result in ("succeeded", "failed", "illegal") else None
    power = str(data["power"]) if data.get("power") else None
    if kind == "build":
        path: tuple[str, ...] = (destination,) if destination else ()
    elif kind == "march":
        path = (unit, destination) if unit and destination else (unit,) if unit else ()
        if len(path) == 1:
            kind = "hold"  # a move that names no place it could go: drawn where the unit stayed
    elif kind in ("support", "convoy"):
        if not unit or not supported:
            return None
        path = (
            (unit, supported, destination) if destination and destination != supported else (unit, supported)
        )
    else:
        path = (unit,) if unit else ()
    if not path:
        return None
    return MapMark(kind, path, power, text, outcome)


def _event_mark(board: Board, kind: str, data: Mapping[str, Any], text: str) -> MapMark | None:
    where = data.get("province") if kind in ("centre_changed", "battle") else data.get("unit")
    place = _province(board, where)
    if place is None:
        return None
    owner = data.get("winner") if kind == "battle" else data.get("power")  # a battle: its winner's colour
    power = str(owner) if owner else None
    return MapMark(EVENT_MARKS[kind], (place,), power, text)
