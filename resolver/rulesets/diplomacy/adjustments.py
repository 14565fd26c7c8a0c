"""The winter adjustments: each power's units are brought to the number of supply centres it owns.

A power with more centres than units builds, one unit a build, on its own home centres that it still owns
and that are empty; it may waive builds, and builds it does not order are lost. A power with more units
than centres removes the difference; if it orders too few removals, the rules remove the rest for it (civil
disorder, by the 2023 rulebook as the DATC's 6.J reads it):

1. the unit farthest from the nearest supply centre the power owns goes first, the distance counted in
   borders crossed, over land and sea alike, whatever the unit's kind;
2. between units as far, a fleet before an army;
3. between units of one kind as far, the one whose province comes first in English alphabetical order.

Orders are taken one by one in the order given (DATC 4.D.4, 4.D.5, 4.D.6: the first legal orders count,
the rest fail), so a build beyond the count, a second build in one place or a removal beyond the count
fails and the earlier ones stand.

An order the position alone rules out (a build outside the power's owned, empty home centres, a fleet
inland, a removal of a unit that is not the power's, any build by a power owed none) is illegal in the
DATC's sense (4.E.1): ``adjustment_problem`` names the rule and says it in words, for the checker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...core.words import series
from .board import Board
from .pieces import Build, Disband, Order, PhaseOutcome, Resolution, Unit, Waive

# The rules an adjustment order can break, as the short fixed phrases a program may test for.
NOT_AN_ADJUSTMENT = "not an adjustment order"
NO_BUILDS_DUE = "no builds due"
NO_REMOVALS_DUE = "no removals due"
NOT_A_HOME = "not a home centre"
NOT_OWNED = "not owned"
OCCUPIED = "occupied"
FLEET_INLAND = "fleet inland"
COAST_NEEDED = "coast needed"
NO_UNIT = "no unit"
NOT_YOURS = "not yours"


def adjudicate_adjustments(
    board: Board, units: Sequence[Unit], owners: Mapping[str, str], orders: Sequence[Order]
) -> PhaseOutcome:
    """The adjustments of a winter. ``owners`` maps each owned supply centre to its power. ``resolutions``
    holds one entry for each order, in the order given, then one ``Disband`` (succeeded) for each unit the
    rules removed in civil disorder. ``units`` keeps the order of ``units`` less the removed ones, then
    the new builds in the order of their orders.

    Reasons for a failed order: ``illegal`` for an order ``adjustment_problem`` refuses; ``no build`` for
    a legal build beyond the power's count or in a centre built in already this winter; ``void`` for a
    legal removal or waiver beyond the count, or a second removal of one unit."""
    owed = {
        power: balance(units, owners, power) for power in {*board.powers, *(order.power for order in orders)}
    }
    built: dict[str, Unit] = {}  # province -> the unit built there this winter
    removed: set[str] = set()
    used = dict.fromkeys(owed, 0)  # builds, waivers or removals each power has made
    resolutions: list[Resolution] = []
    for order in orders:
        if adjustment_problem(board, units, owners, order) is not None:
            resolutions.append(Resolution(order, False, "illegal"))
        elif isinstance(order, Build):
            if used[order.power] >= owed[order.power] or board.province(order.location) in built:
                resolutions.append(Resolution(order, False, "no build"))
                continue
            used[order.power] += 1
            built[board.province(order.location)] = Unit(order.power, order.kind, _built_at(board, order))
            resolutions.append(Resolution(order, True))
        elif isinstance(order, Waive):
            if used[order.power] >= owed[order.power]:
                resolutions.append(Resolution(order, False, "void"))
                continue
            used[order.power] += 1
            resolutions.append(Resolution(order, True))
        elif isinstance(order, Disband):
            if order.unit in removed or used[order.power] >= -owed[order.power]:
                resolutions.append(Resolution(order, False, "void"))
                continue
            used[order.power] += 1
            removed.add(order.unit)
            resolutions.append(Resolution(order, True))

    for power in sorted(owed):
        short = -owed[power] - used[power]
        if owed[power] >= 0 or short <= 0:
            continue
        remaining = [
            unit for unit in units if unit.power == power and board.province(unit.location) not in removed
        ]
        for unit in civil_disorder_order(board, remaining, _owned(owners, power))[:short]:
            removed.add(board.province(unit.location))
            resolutions.append(Resolution(Disband(power, board.province(unit.location), unit.kind), True))

    after = [unit for unit in units if board.province(unit.location) not in removed]
    return PhaseOutcome(tuple(resolutions), (*after, *built.values()))


def balance(units: Sequence[Unit], owners: Mapping[str, str], power: str) -> int:
    """The power's supply centres less its units: how many it may build (above zero) or must remove."""
    return sum(1 for owner in owners.values() if owner == power) - sum(
        1 for unit in units if unit.power == power
    )


def _owned(owners: Mapping[str, str], power: str) -> frozenset[str]:
    return frozenset(centre for centre, owner in owners.items() if owner == power)


def adjustment_problem(
    board: Board, units: Sequence[Unit], owners: Mapping[str, str], order: Order
) -> tuple[str, str] | None:
    """The rule the order breaks in the winter adjustments of this position, as (rule, message in full
    names), or None when it is legal. A build goes on a home centre of the power, owned by it, with no
    unit on either coast (DATC 6.I.3 to 6.I.6); a fleet needs a coast, and the coast named where the
    province has two (4.B.7, 4.C.4)."""
    if not isinstance(order, (Build, Waive, Disband)):
        return (
            NOT_AN_ADJUSTMENT,
            "In the winter adjustments a power builds, removes or waives a build; units do not move.",
        )
    power = board.power_name(order.power) if order.power in board.powers else order.power
    owed = balance(units, owners, order.power)
    if isinstance(order, (Build, Waive)) and owed <= 0:
        return NO_BUILDS_DUE, f"{power} has no builds this winter: it has no more supply centres than units."
    if isinstance(order, Waive):
        return None
    if isinstance(order, Disband):
        unit = next((unit for unit in units if board.province(unit.location) == order.unit), None)
        if unit is None:
            return NO_UNIT, f"No unit stands in {board.name(order.unit)}."
        if unit.power != order.power:
            return (
                NOT_YOURS,
                f"The {unit.kind} in {board.name(unit.location)} is {board.power_name(unit.power)}'s.",
            )
        if owed >= 0:
            return (
                NO_REMOVALS_DUE,
                f"{power} need not remove a unit this winter: it has a supply centre for each.",
            )
        return None
    province = board.province(order.location)
    place = board.name(province)
    homes = board.home_centres(order.power) if order.power in board.powers else ()
    if province not in homes:
        if not homes:
            return NOT_A_HOME, f"{power} has no home centres to build in."
        where = series([board.name(home) for home in homes])
        return NOT_A_HOME, f"{place} is not a home centre of {power}, which builds only in {where}."
    if owners.get(province) != order.power:
        return NOT_OWNED, f"{power} does not own {place} now: a power builds only on home centres it holds."
    if any(board.province(unit.location) == province for unit in units):
        return OCCUPIED, f"A unit stands in {place}: a unit is built only in an empty centre."
    if order.kind == "fleet" and board.kind(province) == "land":
        return FLEET_INLAND, f"A fleet cannot be built in {place}, which has no coast."
    if order.kind == "fleet" and board.coasts(province) and not board.coast(order.location):
        coasts = series([board.name(coast) for coast in board.coasts(province)], "or")
        return COAST_NEEDED, f"Name the coast for a fleet built in {place}: {coasts}."
    return None


def _built_at(board: Board, order: Build) -> str:
    """Where the new unit stands: an army in the province (a coast written for it is ignored), a fleet on
    the coast named."""
    return board.province(order.location) if order.kind == "army" else order.location


def civil_disorder_order(board: Board, units: Sequence[Unit], owned: frozenset[str]) -> list[Unit]:
    """The units in the order the rules remove them when their power orders too few removals: farthest
    from an owned supply centre first, a fleet before an army as far, then by the province's English
    name. A unit that can reach no owned centre (a power with none left) counts as farthest of all."""
    distances = board.distances(owned)
    beyond = len(board.provinces) + 1

    def key(unit: Unit) -> tuple[int, int, str]:
        province = board.province(unit.location)
        return (
            -distances.get(province, beyond),
            0 if unit.kind == "fleet" else 1,
            board.name(province).casefold(),
        )

    return sorted(units, key=key)
