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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .board import Board
from .pieces import Build, Disband, Order, PhaseOutcome, Resolution, Unit, Waive


def adjudicate_adjustments(
    board: Board, units: Sequence[Unit], owners: Mapping[str, str], orders: Sequence[Order]
) -> PhaseOutcome:
    """The adjustments of a winter. ``owners`` maps each owned supply centre to its power. ``resolutions``
    holds one entry for each order, in the order given, then one ``Disband`` (succeeded) for each unit the
    rules removed in civil disorder. ``units`` keeps the order of ``units`` less the removed ones, then
    the new builds in the order of their orders.

    Reasons for a failed order: ``no build`` for any build that is not made; ``illegal`` for an order no
    adjustment phase takes (a move, a support) and a removal of a unit that is not there or not the
    power's own; ``void`` for a removal or a waiver the power does not owe (more than its count, or the
    same unit twice)."""
    centres = {power: 0 for power in board.powers}
    for power in owners.values():
        centres[power] = centres.get(power, 0) + 1
    strength = {power: 0 for power in board.powers}
    for unit in units:
        strength[unit.power] = strength.get(unit.power, 0) + 1
    owed = {power: centres.get(power, 0) - strength.get(power, 0) for power in set(centres) | set(strength)}

    standing = {board.province(unit.location): unit for unit in units}
    built: dict[str, Unit] = {}  # province -> the unit built there this winter
    removed: set[str] = set()
    used = dict.fromkeys(owed, 0)  # builds, waivers or removals each power has used
    used.update({order.power: 0 for order in orders if order.power not in used})
    resolutions: list[Resolution] = []
    for order in orders:
        if isinstance(order, Build):
            failure = _build_failure(board, order, owners, standing, built)
            if failure is None and used[order.power] >= owed.get(order.power, 0):
                failure = "no build"
            if failure is None:
                used[order.power] += 1
                built[board.province(order.location)] = Unit(order.power, order.kind, _built_at(board, order))
            resolutions.append(Resolution(order, failure is None, failure or ""))
        elif isinstance(order, Waive):
            owes = owed.get(order.power, 0) - used.get(order.power, 0) > 0
            if owes:
                used[order.power] += 1
            resolutions.append(Resolution(order, owes, "" if owes else "void"))
        elif isinstance(order, Disband):
            unit = standing.get(order.unit)
            if unit is None or unit.power != order.power:
                resolutions.append(Resolution(order, False, "illegal"))
            elif order.unit in removed or used[order.power] >= -owed.get(order.power, 0):
                resolutions.append(Resolution(order, False, "void"))
            else:
                used[order.power] += 1
                removed.add(order.unit)
                resolutions.append(Resolution(order, True))
        else:
            resolutions.append(Resolution(order, False, "illegal"))

    for power in sorted(owed):
        short = -owed[power] - (used[power] if owed[power] < 0 else 0)
        if short <= 0:
            continue
        remaining = [
            unit for unit in units if unit.power == power and board.province(unit.location) not in removed
        ]
        for unit in civil_disorder_order(board, remaining, _owned(owners, power))[:short]:
            removed.add(board.province(unit.location))
            resolutions.append(Resolution(Disband(power, board.province(unit.location), unit.kind), True))

    after = [unit for unit in units if board.province(unit.location) not in removed]
    return PhaseOutcome(tuple(resolutions), (*after, *built.values()))


def _owned(owners: Mapping[str, str], power: str) -> frozenset[str]:
    return frozenset(centre for centre, owner in owners.items() if owner == power)


def _build_failure(
    board: Board,
    order: Build,
    owners: Mapping[str, str],
    standing: Mapping[str, Unit],
    built: Mapping[str, Unit],
) -> str | None:
    """Why the build cannot be made, whatever the count, or None. A build goes on a home centre of the
    power, owned by it, with no unit on either coast (DATC 6.I.3 to 6.I.7); a fleet needs a coast, and the
    coast named where the province has two (4.B.7, 4.C.4)."""
    if not board.is_location(order.location):
        return "no build"
    province = board.province(order.location)
    if province not in board.home_centres(order.power) or owners.get(province) != order.power:
        return "no build"
    if province in standing or province in built:
        return "no build"
    if order.kind == "fleet":
        if board.kind(province) == "land":
            return "no build"
        if board.coasts(province) and not board.coast(order.location):
            return "no build"
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
