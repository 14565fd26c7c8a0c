"""The rules an order can break, each named with a message a player can act on: chiefly the orders of a
movement phase here; those of retreats and adjustments by the rules of their own modules, through the same
``problem``.

An order is *legal* when, knowing the position but none of the other orders, it could be carried out: the
unit is there and belongs to the writer, the place it moves to or supports is within its reach, and a move
that needs a convoy has a chain of fleets at sea that could carry it. This is the DATC's reading of the
2023 rules (chapter 4.E.1): an illegal order is ignored as if never written, so the unit holds and may be
supported in holding. A legal order may still be *void* when the orders it relies on are not given (a
support for a move nobody ordered): that is the adjudicator's business, not the checker's.

Where the rules leave a choice, the DATC's preference is followed; each choice is named in a comment with
its DATC issue number (chapter 4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .adjustments import adjustment_problem
from .pieces import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    PhaseKind,
    Retreat,
    Support,
    Unit,
    UnitKind,
    Waive,
)
from .retreats import retreat_problem


class Geography(Protocol):
    """What the checker asks of the board (``board.Board`` answers all of it)."""

    def power_name(self, power: str) -> str: ...
    def province(self, location: str) -> str: ...
    def name(self, location: str) -> str: ...
    def kind(self, province: str) -> str: ...
    def coasts(self, province: str) -> tuple[str, ...]: ...
    def home_centres(self, power: str) -> tuple[str, ...]: ...
    def adjacent(self, unit_kind: UnitKind, origin: str, destination: str) -> bool: ...
    def reaches(self, unit_kind: UnitKind, origin: str, province: str) -> bool: ...


@dataclass(frozen=True)
class Problem:
    """The rule an order breaks. ``rule`` is a short fixed phrase a program may test for; ``message``
    tells the player what is wrong in full province names, and how to put it right where there is a way."""

    rule: str
    message: str


# The rules, as the phrases ``Problem.rule`` carries.
NO_UNIT = "no unit"
NOT_YOURS = "not yours"
WRONG_PHASE = "not a movement order"
SAME_PLACE = "move to its own place"
NOT_ADJACENT = "not adjacent"
FLEET_INLAND = "fleet inland"
ARMY_AT_SEA = "army to sea"
COAST_NEEDED = "coast needed"
COAST_UNREACHABLE = "coast out of reach"
NO_CONVOY_ROUTE = "no possible convoy"
FLEET_CONVOYED = "fleet convoyed"
SUPPORT_OUT_OF_REACH = "support out of reach"
SUPPORT_OWN_PLACE = "support into its own place"
SUPPORTED_MOVE_IMPOSSIBLE = "supported move impossible"
SUPPORT_OF_NOTHING = "support of an empty place"
CONVOY_BY_ARMY = "convoy by an army"
CONVOY_FROM_COAST = "convoy from a coast"
CONVOY_OF_FLEET = "convoy of a fleet"
CONVOY_OF_NOTHING = "convoy of an empty place"
CONVOY_NOT_NEEDED = "fleet on no convoy route"
TWO_ORDERS = "two orders for one unit"
UNKNOWN_PLACE = "no such place"


class Position:
    """The units on the board indexed for the questions orders ask: who stands in a province, and which
    sea provinces hold a fleet (the only places a convoy can pass)."""

    def __init__(self, board: Geography, units: Iterable[Unit]) -> None:
        self.board = board
        self.at: dict[str, Unit] = {}
        for unit in units:
            province = board.province(unit.location)
            if province in self.at:
                # Not a player's mistake but a broken state: say so rather than judge a board that cannot be.
                raise ValueError(f"two units stand in {board.name(province)}: {self.at[province]} and {unit}")
            self.at[province] = unit
        self.fleets_at_sea = frozenset(
            province
            for province, unit in self.at.items()
            if unit.kind == "fleet" and board.kind(province) == "sea"
        )

    def unit(self, province: str) -> Unit | None:
        return self.at.get(self.board.province(province))


def problem(
    board: Geography, units: Sequence[Unit], order: Order, phase: PhaseKind, **context: Any
) -> Problem | None:
    """The rule ``order`` breaks in the position ``units``, or None when it is legal.

    ``context`` by phase: in a movement phase, optionally ``position`` (a ``Position`` of the same units,
    built once for many orders); in a retreat phase, ``movement`` (the ``MovementOutcome`` of the phase
    before: who was dislodged, by whom, where the standoffs were), judged by ``retreats.retreat_problem``;
    in an adjustment phase, ``owners`` (supply centre -> power), judged by
    ``adjustments.adjustment_problem``."""
    unknown = _unknown_place(board, order)
    if unknown is not None:
        return unknown
    if phase == "retreat":
        if "movement" not in context:
            raise TypeError("a retreat phase is judged against the movement before it: pass movement=")
        # One set of retreat rules, the retreat module's: the same the retreat phase is adjudicated by.
        found = retreat_problem(board, context["movement"], order)  # type: ignore[arg-type]
        return Problem(*found) if found else None
    if phase == "adjustment":
        if "owners" not in context:
            raise TypeError("an adjustment phase is judged against the centres held: pass owners=")
        found = adjustment_problem(board, units, context["owners"], order)  # type: ignore[arg-type]
        return Problem(*found) if found else None
    position = context.get("position") or Position(board, units)
    return _movement_problem(position, order)


def problems(
    board: Geography,
    units: Sequence[Unit],
    orders: Sequence[Order],
    phase: PhaseKind = "movement",
    **context: Any,
) -> tuple[Problem | None, ...]:
    """The problem of each order of a phase, in the order given (``problem`` for each, with its
    ``context``), and in a movement phase the set judged too: a unit given two different legal orders
    holds, and both orders are refused (DATC 4.D.3, choice c: neither is known to be the one meant, and a
    unit that holds can still be supported). The same order written twice is one order. In a retreat or an
    adjustment phase what fails only because of other orders (two retreats to one place, builds beyond the
    count) is the adjudication's to decide, not the checker's."""
    if phase == "movement":
        context.setdefault("position", Position(board, units))
    found = [problem(board, units, order, phase, **context) for order in orders]
    if phase != "movement":
        return tuple(found)
    by_unit: dict[str, set[Order]] = {}
    for order, trouble in zip(orders, found, strict=True):
        if trouble is None and isinstance(order, (Hold, Move, Support, Convoy)):
            by_unit.setdefault(board.province(order.unit), set()).add(_plain(order))
    for index, order in enumerate(orders):
        if found[index] is None and isinstance(order, (Hold, Move, Support, Convoy)):
            given = by_unit[board.province(order.unit)]
            if len(given) > 1:
                found[index] = Problem(
                    TWO_ORDERS,
                    f"The unit in {board.name(board.province(order.unit))} was given {len(given)} different "
                    "orders, so it holds. Keep one order for it.",
                )
    return tuple(found)


def notes(board: Geography, units: Sequence[Unit], order: Order) -> tuple[str, ...]:
    """Harmless slips in a legal order of a movement phase, worth telling the player though the order is
    followed: a unit kind written wrong, for the unit ordered or the one supported or convoyed (DATC 4.C.2,
    choice b: the province names the unit)."""
    position = Position(board, units)
    found = []
    written = [(getattr(order, "unit", None), getattr(order, "kind", None))]
    if isinstance(order, Support):
        written.append((order.supported, order.supported_kind))
    for province, kind in written:
        unit = position.unit(province) if province else None
        if unit is not None and kind is not None and kind != unit.kind:
            article = {"army": "an army", "fleet": "a fleet"}
            found.append(
                f"The unit in {board.name(unit.location)} is {article[unit.kind]}, not {article[kind]}; "
                "the order is read for it all the same."
            )
    return tuple(found)


def _plain(order: Order) -> Order:
    """The order without the unit kinds written in it, which do not change its meaning (DATC 4.C.1, 4.C.2):
    "A Paris - Burgundy" and "Paris - Burgundy" are the same order, not two."""
    if isinstance(order, Support):
        return Support(order.power, order.unit, order.supported, order.destination)
    if isinstance(order, (Hold, Move, Convoy)):
        return dataclasses.replace(order, kind=None)
    return order


def _unknown_place(board: Geography, order: Order) -> Problem | None:
    """A place id the board does not know (the notation never makes one; an order built another way
    might), so that no rule below trips over it."""
    for field in ("unit", "destination", "supported", "army", "location"):
        place = getattr(order, field, None)
        if place is None:
            continue
        try:
            board.name(place)
        except (KeyError, ValueError):
            return Problem(UNKNOWN_PLACE, f"There is no place {place!r} on the map.")
    return None


def _movement_problem(position: Position, order: Order) -> Problem | None:
    board = position.board
    if isinstance(order, (Retreat, Disband, Build, Waive)):
        what = {Retreat: "A retreat", Disband: "A disband", Build: "A build", Waive: "A waived build"}
        return Problem(
            WRONG_PHASE,
            f"{what[type(order)]} is not an order of a movement phase: order the unit to hold, move, support "
            "or convoy.",
        )
    unit = position.unit(order.unit)
    if unit is None:
        return Problem(NO_UNIT, f"There is no unit in {_place_name(board, order.unit)} to order.")
    if unit.power != order.power:
        return Problem(
            NOT_YOURS,
            f"The {unit.kind} in {board.name(unit.location)} belongs to {board.power_name(unit.power)}; "
            f"{board.power_name(order.power)} can order only its own units.",
        )
    # The unit kind written in the order is not checked: an order naming an army "F" or leaving the kind
    # out still has one meaning, and is followed (DATC 4.C.1 and 4.C.2, choice b). The coast written for
    # the ordered unit is not kept by the notation at all (DATC 4.B.5, choice b: ignored).
    if isinstance(order, Hold):
        return None
    if isinstance(order, Move):
        return _move_problem(position, unit, order)
    if isinstance(order, Support):
        return _support_problem(position, unit, order)
    return _convoy_problem(position, unit, order)


def _place_name(board: Geography, location: str) -> str:
    try:
        return board.name(location)
    except (KeyError, ValueError):
        return location


# Moves


def move_target(board: Geography, unit: Unit, destination: str) -> str | Problem:
    """Where a unit ordered to ``destination`` would go if it moved on its own (no convoy): the location,
    with the coast resolved for a fleet, or the rule the move breaks."""
    province = board.province(destination)
    here = board.name(unit.location)
    if province == board.province(unit.location):
        return Problem(
            SAME_PLACE,
            f"The {unit.kind} in {here} is ordered to move to {board.name(province)}, where it stands.",
        )
    kind = board.kind(province)
    if unit.kind == "army":
        if kind == "sea":
            return Problem(
                ARMY_AT_SEA,
                f"An army cannot move to {board.name(province)}: it is sea. An army crosses water only by "
                "convoy, from one coast to another.",
            )
        # A coast written for an army's destination means nothing and is dropped (DATC 4.B.6, choice b).
        if board.adjacent("army", unit.location, province):
            return province
        return Problem(NOT_ADJACENT, f"The army in {here} cannot reach {board.name(province)} in one move.")
    if kind == "land":
        return Problem(FLEET_INLAND, f"A fleet cannot move to {board.name(province)}: it is inland.")
    coasts = board.coasts(province)
    if not coasts:
        if board.adjacent("fleet", unit.location, province):
            return province
        return Problem(NOT_ADJACENT, f"The fleet in {here} cannot reach {board.name(province)} in one move.")
    reachable = [coast for coast in coasts if board.adjacent("fleet", unit.location, coast)]
    if destination in coasts:
        if destination in reachable:
            return destination
        # A coast the fleet cannot reach makes the order illegal, even where another coast is reachable:
        # the order is precise, and precisely wrong (DATC 4.B.3, choice b).
        other = f"; it can reach {board.name(reachable[0])}" if reachable else ""
        return Problem(
            COAST_UNREACHABLE, f"The fleet in {here} cannot reach {board.name(destination)}{other}."
        )
    if len(reachable) == 1:
        # One coast within reach: the move goes there (DATC 4.B.2, choice a).
        return reachable[0]
    if reachable:
        # Both coasts within reach and none named: the move is illegal (DATC 4.B.1), never a default.
        names = " or ".join(board.name(coast) for coast in reachable)
        return Problem(
            COAST_NEEDED,
            f"The fleet in {here} can reach two coasts of {board.name(province)}: name one ({names}).",
        )
    return Problem(NOT_ADJACENT, f"The fleet in {here} cannot reach {board.name(province)} in one move.")


def _move_problem(position: Position, unit: Unit, order: Move) -> Problem | None:
    board = position.board
    if unit.kind == "fleet" and order.via_convoy:
        return Problem(
            FLEET_CONVOYED, f"Only armies are convoyed; the unit in {board.name(unit.location)} is a fleet."
        )
    if unit.kind == "army" and (order.via_convoy or not _army_adjacent(board, unit, order.destination)):
        return _convoyed_move_problem(position, unit, board.province(order.destination))
    target = move_target(board, unit, order.destination)
    return target if isinstance(target, Problem) else None


def _army_adjacent(board: Geography, unit: Unit, destination: str) -> bool:
    province = board.province(destination)
    return board.kind(province) != "sea" and board.adjacent("army", unit.location, province)


def _convoyed_move_problem(position: Position, unit: Unit, destination: str) -> Problem | None:
    """An army moving where it cannot walk, or "via convoy": legal when fleets now at sea could carry it
    (DATC 6.D.8: a convoy possible before the orders are known; 6.D.32: without the fleets, illegal)."""
    board = position.board
    here = board.name(unit.location)
    if destination == board.province(unit.location):
        return Problem(
            SAME_PLACE,
            f"The army in {here} is ordered to move to {board.name(destination)}, where it stands.",
        )
    kind = board.kind(destination)
    if kind == "sea":
        return Problem(
            ARMY_AT_SEA,
            f"An army cannot move to {board.name(destination)}: it is sea. An army crosses water only by "
            "convoy, from one coast to another.",
        )
    if kind != "coast" or board.kind(board.province(unit.location)) != "coast":
        return Problem(
            NOT_ADJACENT,
            f"The army in {here} cannot reach {board.name(destination)}: it is not next to it, and a convoy "
            "carries an army only from one coast to another.",
        )
    if convoy_possible(board, position.fleets_at_sea, board.province(unit.location), destination):
        return None
    return Problem(
        NO_CONVOY_ROUTE,
        f"The army in {here} cannot reach {board.name(destination)}: "
        + ("it is not next to it, " if not board.adjacent("army", unit.location, destination) else "")
        + "and no chain of fleets at sea could convoy it there.",
    )


# Convoy routes. A route is a chain of sea provinces, each holding a fleet, from the army's coast to the
# destination's. Only fleets at sea convoy (DATC 6.F.1: a fleet on a coast does not).


def convoy_possible(board: Geography, fleets: frozenset[str], origin: str, destination: str) -> bool:
    """Whether the fleets in the sea provinces ``fleets`` could chain from ``origin`` to ``destination``."""
    return bool(_chain(board, fleets, origin) & _chain(board, fleets, destination))


def _chain(board: Geography, fleets: frozenset[str], start: str) -> frozenset[str]:
    """The seas of ``fleets`` reachable from the coastal province ``start`` through one another."""
    reached = {sea for sea in fleets if board.reaches("fleet", sea, start)}
    frontier = list(reached)
    while frontier:
        sea = frontier.pop()
        for other in fleets - reached:
            if board.reaches("fleet", sea, other):
                reached.add(other)
                frontier.append(other)
    return frozenset(reached)


def fleets_on_routes(
    board: Geography, fleets: frozenset[str], origin: str, destination: str
) -> frozenset[str]:
    """The seas of ``fleets`` that lie on some convoy route from ``origin`` to ``destination`` no shorter
    route runs through: each fleet of such a route is needed by it. A fleet ordered to convoy that no such
    route needs is illegal (DATC 4.E.1 and 6.G.19: the order could never matter)."""
    # Routes whose fleets are each needed are exactly the chains without a shortcut: no fleet of the chain
    # touches the origin, the destination or another fleet of it except its neighbours in the chain. The
    # search extends a chain only while it keeps that property, which keeps it small on any real board.
    found: set[str] = set()
    seas = sorted(fleets)
    touches = {
        sea: {other for other in seas if other != sea and board.reaches("fleet", sea, other)} for sea in seas
    }

    def extend(chain: list[str]) -> None:
        last = chain[-1]
        if board.reaches("fleet", last, destination):
            found.update(chain)
            return
        for sea in touches[last]:
            if sea in chain or board.reaches("fleet", sea, origin):
                continue
            if any(sea in touches[earlier] for earlier in chain[:-1]):
                continue
            extend([*chain, sea])

    for sea in seas:
        if board.reaches("fleet", sea, origin):
            extend([sea])
    return frozenset(found)


# Supports


def _support_problem(position: Position, unit: Unit, order: Support) -> Problem | None:
    board = position.board
    here = board.name(unit.location)
    supported = position.unit(order.supported)
    # The nationality and kind written for the supported unit are not checked (DATC 4.C.5 and 4.C.6,
    # choice b; 4.C.2, choice b): the province names the unit.
    if supported is None:
        return Problem(
            SUPPORT_OF_NOTHING,
            f"The {unit.kind} in {here} supports a unit in {_place_name(board, order.supported)}, "
            "but there is none.",
        )
    if supported is unit:
        return Problem(SUPPORT_OWN_PLACE, f"The {unit.kind} in {here} cannot support itself.")
    if order.destination is None:
        target = board.province(supported.location)
        if not board.reaches(unit.kind, unit.location, target):
            return Problem(
                SUPPORT_OUT_OF_REACH,
                f"The {unit.kind} in {here} can support only into places it could move to itself, and it "
                f"cannot move to {board.name(target)}.",
            )
        return None
    target = board.province(order.destination)
    if target == board.province(unit.location):
        # A unit cannot move to where it stands, so it cannot support a move there (DATC 6.D.34).
        return Problem(
            SUPPORT_OWN_PLACE,
            f"The {unit.kind} in {here} cannot support a move into {board.name(target)}, "
            "where it stands itself.",
        )
    if not board.reaches(unit.kind, unit.location, target):
        # The supporter must be able to reach the province; the coast does not matter (DATC 6.B.4).
        return Problem(
            SUPPORT_OUT_OF_REACH,
            f"The {unit.kind} in {here} can support only into places it could move to itself, and it "
            f"cannot move to {board.name(target)}.",
        )
    trouble = _supported_move_problem(position, unit, supported, order.destination)
    if trouble is not None:
        return Problem(
            SUPPORTED_MOVE_IMPOSSIBLE,
            f"The {unit.kind} in {here} supports a move the {supported.kind} in "
            f"{board.name(supported.location)} cannot make: {trouble}",
        )
    return None


def _supported_move_problem(
    position: Position, supporter: Unit, supported: Unit, destination: str
) -> str | None:
    """Why ``supported`` could not move to ``destination`` (a support of an impossible move is illegal:
    DATC 6.D.22 to 6.D.24), or None."""
    board = position.board
    province = board.province(destination)
    if province == board.province(supported.location):
        return f"it already stands in {board.name(province)}."
    if supported.kind == "army":
        if board.kind(province) != "sea" and board.adjacent("army", supported.location, province):
            return None
        # A move only a convoy makes possible: the supporter itself cannot be one of the convoying fleets, as
        # it supports instead (DATC 6.D.31).
        fleets = position.fleets_at_sea - {board.province(supporter.location)}
        origin = board.province(supported.location)
        coastal = board.kind(province) == "coast" and board.kind(origin) == "coast"
        if coastal and convoy_possible(board, fleets, origin, province):
            return None
        return f"no convoy could carry it to {board.name(province)}."
    target = move_target(board, supported, destination)
    if isinstance(target, Problem):
        if target.rule == COAST_NEEDED:
            # A support that names no coast supports the move to whichever coast the fleet goes to: it
            # follows the fleet's own order (DATC 4.B.4, 6.B.7 and 6.B.15: the support succeeds).
            return None
        return target.message
    return None


# Convoys


def _convoy_problem(position: Position, unit: Unit, order: Convoy) -> Problem | None:
    board = position.board
    here = board.name(unit.location)
    if unit.kind == "army":
        return Problem(CONVOY_BY_ARMY, f"Only fleets convoy; the unit in {here} is an army.")
    sea = board.province(unit.location)
    if board.kind(sea) != "sea":
        return Problem(
            CONVOY_FROM_COAST,
            f"The fleet in {here} is on a coast; only a fleet at sea can convoy.",
        )
    army = position.unit(order.army)
    if army is None:
        return Problem(
            CONVOY_OF_NOTHING,
            f"The fleet in {here} convoys a unit in {_place_name(board, order.army)}, but there is none.",
        )
    if army.kind != "army":
        return Problem(
            CONVOY_OF_FLEET, f"Only armies are convoyed; the unit in {board.name(army.location)} is a fleet."
        )
    origin = board.province(army.location)
    destination = board.province(order.destination)
    if origin == destination:
        return Problem(
            SAME_PLACE,
            f"The army in {board.name(origin)} cannot be convoyed to {board.name(destination)}, "
            "where it stands.",
        )
    if board.kind(destination) != "coast" or board.kind(origin) != "coast":
        return Problem(
            CONVOY_NOT_NEEDED,
            f"The fleet in {here} cannot convoy the army in {board.name(origin)} to "
            f"{board.name(destination)}: "
            "a convoy carries an army from one coast to another.",
        )
    if sea not in fleets_on_routes(board, position.fleets_at_sea, origin, destination):
        return Problem(
            CONVOY_NOT_NEEDED,
            f"The fleet in {here} is on no route the army in {board.name(origin)} could take by sea to "
            f"{board.name(destination)}, so its convoy could never carry it.",
        )
    return None
