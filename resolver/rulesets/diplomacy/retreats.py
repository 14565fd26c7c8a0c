"""The retreat phase: each unit dislodged in the movement phase retreats or is disbanded.

A dislodged unit may retreat to a place next to it (a fleet coast-exact, an army by land: there are no
convoys in a retreat) that is empty after the movement, was not left empty by a standoff, and is not the
province its attacker came from. The one exception is the 2023 rulebook's (DATC 4.A.5, 6.H.11): an
attacker that came by convoy did not cross that border, so the unit may retreat to where the attacker
started. Two or more retreats to one province all fail and those units are disbanded; a dislodged unit
given no order, or no order it may follow, is disbanded too.

An order that breaks one of these rules is illegal whatever the other orders say (the DATC's sense of the
word, 4.E.1): ``retreat_problem`` names the rule and says it in words, for the checker to refuse it with.
Two retreats to one place are each legal, and fail together (``no retreat``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Board
from .pieces import Disband, MovementOutcome, Order, PhaseOutcome, Resolution, Retreat, Unit

# The rules a retreat-phase order can break, as the short fixed phrases a program may test for.
NOT_A_RETREAT = "not a retreat order"
NOT_DISLODGED = "not dislodged"
NOT_YOURS = "not yours"
OUT_OF_REACH = "out of reach"
OCCUPIED = "occupied"
STANDOFF = "standoff"
ATTACKER = "attacker's origin"


def adjudicate_retreats(board: Board, movement: MovementOutcome, orders: Sequence[Order]) -> PhaseOutcome:
    """The retreats of the phase after ``movement``. ``resolutions`` holds one entry for each order, in
    the order given, then one ``Disband`` (succeeded) for each dislodged unit the rules disband for want
    of an order it may follow, in the order of ``movement.dislodged``. ``units`` is the units after the
    movement, then the units that retreated, in the order of their orders.

    Reasons: ``illegal`` for an order ``retreat_problem`` refuses, and for both of two different orders to
    one unit (DATC 4.D.3, choice c: neither is followed, so the unit is disbanded); ``no retreat`` for
    retreats to one province that fail together."""
    verdicts: list[Resolution | None] = [None] * len(orders)
    chosen: dict[str, int] = {}  # a dislodged unit's province -> the index of its one order, -1 if refused
    for index, order in enumerate(orders):
        if retreat_problem(board, movement, order) is not None:
            verdicts[index] = Resolution(order, False, "illegal")
            continue
        assert isinstance(order, (Retreat, Disband))
        earlier = chosen.get(order.unit)
        if earlier is None:
            chosen[order.unit] = index
            continue
        # The same order twice is one order; two different orders cancel each other.
        verdicts[index] = Resolution(order, False, "illegal")
        if earlier >= 0 and orders[earlier] != order:
            verdicts[earlier] = Resolution(orders[earlier], False, "illegal")
            chosen[order.unit] = -1

    destinations: dict[int, str] = {}  # the index of a retreat still standing -> where the unit would go
    for index in chosen.values():
        order = orders[index] if index >= 0 else None
        if isinstance(order, Retreat) and verdicts[index] is None:
            unit = movement.dislodged[order.unit][0]
            destination = retreat_location(board, unit, order.destination)
            assert destination is not None  # retreat_problem checked it
            destinations[index] = destination
    arrivals: dict[str, int] = {}
    for destination in destinations.values():
        arrivals[board.province(destination)] = arrivals.get(board.province(destination), 0) + 1

    retreated: list[Unit] = []
    gone: set[str] = set()  # dislodged units whose own order accounts for them
    for index, order in enumerate(orders):
        if verdicts[index] is not None or not isinstance(order, (Retreat, Disband)):
            continue
        gone.add(order.unit)
        if index in destinations and arrivals[board.province(destinations[index])] > 1:
            verdicts[index] = Resolution(order, False, "no retreat")
            continue
        verdicts[index] = Resolution(order, True)
        if index in destinations:
            unit = movement.dislodged[order.unit][0]
            retreated.append(Unit(unit.power, unit.kind, destinations[index]))

    resolutions = [verdict for verdict in verdicts if verdict is not None]
    for province, (unit, _) in movement.dislodged.items():
        if province not in gone:
            resolutions.append(Resolution(Disband(unit.power, province, unit.kind), True))
    return PhaseOutcome(tuple(resolutions), (*movement.units, *retreated))


def retreat_problem(board: Board, movement: MovementOutcome, order: Order) -> tuple[str, str] | None:
    """The rule the order breaks in the retreat phase after ``movement``, as (rule, message in full
    names), or None when it is legal."""
    if not isinstance(order, (Retreat, Disband)):
        return (
            NOT_A_RETREAT,
            "In a retreat phase a dislodged unit retreats or disbands; no other order is taken.",
        )
    if order.unit not in movement.dislodged:
        return (
            NOT_DISLODGED,
            f"No unit was dislodged from {board.name(order.unit)}: only dislodged units retreat.",
        )
    unit, attacker_origin = movement.dislodged[order.unit]
    the_unit = f"The {unit.kind} dislodged from {board.name(unit.location)}"
    if order.power != unit.power:
        return NOT_YOURS, f"{the_unit} is {board.power_name(unit.power)}'s to order."
    if isinstance(order, Disband):
        return None
    destination = retreat_location(board, unit, order.destination)
    if destination is None:
        return OUT_OF_REACH, f"{the_unit} cannot reach {board.name(order.destination)} in one move" + (
            " (an army retreats over land only)." if unit.kind == "army" else "."
        )
    province = board.province(destination)
    place = board.name(province)
    if any(board.province(other.location) == province for other in movement.units):
        return OCCUPIED, f"{the_unit} cannot retreat to {place}: a unit stands there."
    if province in movement.contested:
        return STANDOFF, f"{the_unit} cannot retreat to {place}, left empty by a standoff this turn."
    if province == attacker_origin and attacker_origin not in movement.convoyed:
        return ATTACKER, f"{the_unit} cannot retreat to {place}, where its attacker came from."
    return None


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
