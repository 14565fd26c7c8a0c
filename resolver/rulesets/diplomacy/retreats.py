"""The retreat phase: each unit dislodged in the movement phase retreats or is disbanded.

A dislodged unit may retreat to a place next to it (a fleet coast-exact, an army by land: there are no
convoys in a retreat) that is empty after the movement, was not left empty by a standoff, and is not the
province its attacker came from. The one exception is the 2023 rulebook's (DATC 4.A.5, 6.H.11): an
attacker that came by convoy did not cross that border, so the unit may retreat to where the attacker
started. Two or more retreats to one province all fail and those units are disbanded; a dislodged unit
given no order, or no order it may follow, is disbanded too.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board
from .pieces import (
    Convoy,
    Disband,
    Move,
    MovementOutcome,
    Order,
    PhaseOutcome,
    Resolution,
    Retreat,
    Unit,
)


def adjudicate_retreats(board: Board, movement: MovementOutcome, orders: Sequence[Order]) -> PhaseOutcome:
    """The retreats of the phase after ``movement``. ``resolutions`` holds one entry for each order, in
    the order given, then one ``Disband`` (succeeded) for each dislodged unit that had no order, in the
    order of ``movement.dislodged``. ``units`` is the units after the movement, then the units that
    retreated, in the order of their orders."""
    occupied = {board.province(unit.location) for unit in movement.units}
    verdicts: list[Resolution | None] = [None] * len(orders)
    chosen: dict[str, int] = {}  # the dislodged unit's province -> the index of its one order
    destinations: dict[int, str] = {}  # the index of a retreat that may go -> its location

    # First, each order on its own: is it an order a dislodged unit of that power may follow?
    for index, order in enumerate(orders):
        if not isinstance(order, (Retreat, Disband)) or order.unit not in movement.dislodged:
            verdicts[index] = Resolution(order, False, "illegal")
            continue
        unit, attacker_origin = movement.dislodged[order.unit]
        if order.power != unit.power:
            verdicts[index] = Resolution(order, False, "illegal")
            continue
        if isinstance(order, Retreat):
            destination = retreat_location(board, unit, order.destination)
            allowed = destination is not None and board.province(destination) not in (
                occupied | set(movement.contested)
            )
            if allowed and board.province(order.destination) == attacker_origin:
                allowed = _came_by_convoy(board, movement, order.unit, attacker_origin)
            if not allowed or destination is None:
                verdicts[index] = Resolution(order, False, "no retreat")
                continue
            destinations[index] = destination
        # Two different orders for one unit (DATC 4.D.3, choice c): neither is followed, and as a unit
        # without an order the dislodged unit is disbanded. The same order twice is one order.
        if order.unit in chosen:
            earlier = chosen[order.unit]
            if earlier >= 0 and orders[earlier] != order:
                verdicts[earlier] = Resolution(orders[earlier], False, "illegal")
                destinations.pop(earlier, None)
                chosen[order.unit] = -1
            verdicts[index] = Resolution(order, False, "illegal")
            destinations.pop(index, None)
            continue
        chosen[order.unit] = index

    # Then the retreats together: two or more to the same province all fail.
    arrivals: dict[str, list[int]] = {}
    for index, destination in destinations.items():
        arrivals.setdefault(board.province(destination), []).append(index)
    retreated: list[Unit] = []
    for index, order in enumerate(orders):
        if verdicts[index] is not None:
            continue
        if isinstance(order, Disband):
            verdicts[index] = Resolution(order, True)
            continue
        destination = destinations[index]
        if len(arrivals[board.province(destination)]) > 1:
            verdicts[index] = Resolution(order, False, "no retreat")
            continue
        verdicts[index] = Resolution(order, True)
        unit = movement.dislodged[order.unit][0]
        retreated.append(Unit(unit.power, unit.kind, destination))

    resolutions = [verdict for verdict in verdicts if verdict is not None]
    # A unit whose retreat succeeded, whose disband was followed, or whose retreat failed on its merits
    # is accounted for by its own order; every other dislodged unit is disbanded by the rules.
    accounted = {
        resolution.order.unit
        for resolution in resolutions
        if isinstance(resolution.order, (Retreat, Disband))
        and (resolution.succeeded or resolution.reason == "no retreat")
    }
    for province, (unit, _) in movement.dislodged.items():
        if province not in accounted:
            resolutions.append(Resolution(Disband(unit.power, province, unit.kind), True))
    return PhaseOutcome(tuple(resolutions), (*movement.units, *retreated))


def retreat_location(board: Board, unit: Unit, destination: str) -> str | None:
    """Where the unit would stand after retreating to ``destination``, or None if it cannot get there in
    one step. A fleet that names no coast of a province of two goes to the one coast it reaches (DATC
    4.B.2); a coast that it cannot reach makes the retreat impossible (4.B.3). An army ignores coasts."""
    if not board.is_location(destination):
        return None
    if unit.kind == "army":
        province = board.province(destination)
        return province if board.adjacent("army", unit.location, province) else None
    if board.coasts(destination) and not board.coast(destination):
        reachable = [
            place for place in board.coasts(destination) if board.adjacent("fleet", unit.location, place)
        ]
        return reachable[0] if len(reachable) == 1 else None
    return destination if board.adjacent("fleet", unit.location, destination) else None


def _came_by_convoy(board: Board, movement: MovementOutcome, province: str, origin: str) -> bool:
    """Whether the army that dislodged the unit in ``province`` came from ``origin`` by sea. It did when
    its move said "via convoy", when it could not have walked there, or when a fleet of its own power was
    ordered, legally, to convoy it there (the 2023 rulebook's reading of a convoy to a neighbour)."""
    moves = [
        resolution.order
        for resolution in movement.resolutions
        if isinstance(resolution.order, Move)
        and resolution.succeeded
        and resolution.order.unit == origin
        and board.province(resolution.order.destination) == province
    ]
    if not moves:
        return False
    move = moves[0]
    attacker = next((unit for unit in movement.units if board.province(unit.location) == province), None)
    if attacker is not None and attacker.kind != "army":
        return False
    if move.via_convoy or not board.adjacent("army", origin, province):
        return True
    return any(
        isinstance(resolution.order, Convoy)
        and resolution.reason != "illegal"
        and resolution.order.power == move.power
        and resolution.order.army == origin
        and board.province(resolution.order.destination) == province
        for resolution in movement.resolutions
    )
