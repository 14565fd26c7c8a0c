"""The DATC's 164 test cases (chapter 6, version 3.0), each run through the real notation reader, checker and
adjudicator of the diplomacy ruleset: one test per case, named by its number.

Each fixture (``tests/diplomacy/datc/<case>.yaml``, read by ``datc_cases``) gives one or more phases. For
each phase the runner:

- places the units (``units``, in notation: "A Vienna", "F St Petersburg(sc)"); a retreat phase has no units
  of its own, it takes the outcome of the movement phase before it;
- reads every order with ``notation.read_order`` as the power that wrote it. An order the notation cannot
  read (``NotationError``) or that ``legality.problem`` refuses is ``illegal``: it never reaches the
  adjudicator, as the checker refuses it in a real game, and the unit holds for want of an order;
- adjudicates the orders left (``adjudication.adjudicate``, ``retreats.adjudicate_retreats`` or
  ``adjustments.adjudicate_adjustments``) and takes each order's resolution: ``succeeds`` when it succeeded,
  ``illegal`` when the adjudicator itself found it illegal, ``fails`` otherwise;
- compares every order's outcome with the fixture's, the dislodged provinces of a movement phase with
  ``dislodged``, and the units after the phase with ``units_after`` where the fixture gives them.

What the outcome of an order means (the fixtures were written to this): a move, retreat, build or removal
succeeds when it happens; a hold succeeds unless the unit is dislodged; a support succeeds when it is given
(not cut, not void for want of the matching order, its unit not dislodged) whether or not the move it helps
gets through; a convoy succeeds in the same sense, when it is given: the army it names goes by sea to that
place, the fleet is not dislodged and no convoy paradox stops it (the Szykman rule), whether or not the
chain of fleets as a whole holds or the army then bounces.

``illegal`` follows the DATC's definition (issue 4.E.1): an order that could not be valid whatever the
other orders are, because of the position alone. The checker refuses it and names the rule: a move out of
reach, a retreat to the attacker's province, to a standoff or out of reach, a build on a centre that is
not an owned, empty home centre, an order in the wrong phase or for a unit that is not there. An order that
fails only because of the other orders is ``fails``: a bounce, a cut support, two retreats to one place, a
build or removal beyond the power's count (the adjustment module takes them one by one, DATC 4.D.4-6).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from resolver.rulesets.diplomacy.adjudication import adjudicate
from resolver.rulesets.diplomacy.adjustments import adjudicate_adjustments
from resolver.rulesets.diplomacy.board import Board, standard_board
from resolver.rulesets.diplomacy.legality import problem
from resolver.rulesets.diplomacy.notation import NotationError, read_order
from resolver.rulesets.diplomacy.pieces import Disband, MovementOutcome, Order, Resolution, Unit
from resolver.rulesets.diplomacy.retreats import adjudicate_retreats
from tests.diplomacy.datc_cases import Case, ExpectedOrder, Phase, load_cases

CASES = load_cases()
UNIT_KINDS = {"A": "army", "F": "fleet"}


def read_unit(board: Board, power: str, text: str) -> Unit:
    """ "F St Petersburg(sc)" -> a fleet on the south coast; an army stands in the province, never a coast."""
    letter, _, place = text.partition(" ")
    kind = UNIT_KINDS[letter]
    location = board.lookup(place)
    return Unit(power, kind, board.province(location) if kind == "army" else location)


def read_units(board: Board, units: dict[str, tuple[str, ...]]) -> tuple[Unit, ...]:
    return tuple(read_unit(board, power, text) for power, texts in units.items() for text in texts)


def outcome_of(resolution: Resolution) -> str:
    if resolution.succeeded:
        return "succeeds"
    return "illegal" if resolution.reason == "illegal" else "fails"


def describe(expected: ExpectedOrder) -> str:
    return f"{expected.power}: {expected.text}"


class PhaseRun:
    """One phase of a case: the orders read and checked, the outcome of the adjudication, and every order's
    actual outcome next to the expected one."""

    def __init__(self, board: Board, phase: Phase, units: Sequence[Unit], **context: object) -> None:
        self.board = board
        self.actual: dict[int, str] = {}
        self.legal: list[tuple[int, Order]] = []
        for index, expected in enumerate(phase.orders):
            try:
                order = read_order(board, expected.power, expected.text, phase.kind)
            except NotationError:
                self.actual[index] = "illegal"
                continue
            if problem(board, units, order, phase.kind, **context) is not None:
                self.actual[index] = "illegal"
                continue
            self.legal.append((index, order))

    @property
    def orders(self) -> list[Order]:
        return [order for _, order in self.legal]

    def take(self, resolutions: Sequence[Resolution], disbanded: bool = False) -> dict[int, str]:
        """The adjudicator answers one resolution for each order given, in the order given. A retreat or
        adjustment phase then adds one disband for each unit the rules remove (``disbanded``): a dislodged
        unit left without an order, a unit lost to civil disorder. Those are no order's outcome; the
        fixtures check them through the position after the phase."""
        given = resolutions[: len(self.legal)]
        assert len(given) == len(self.legal), "one resolution for each order given"
        for extra in resolutions[len(self.legal) :]:
            assert disbanded and isinstance(extra.order, Disband) and extra.succeeded, f"unasked {extra}"
        for (index, order), resolution in zip(self.legal, given, strict=True):
            assert resolution.order == order, f"resolution {resolution} is not for {order}"
            self.actual[index] = outcome_of(resolution)
        return self.actual


def check_orders(case: Case, number: int, phase: Phase, actual: dict[int, str]) -> list[str]:
    wrong = []
    for index, expected in enumerate(phase.orders):
        if actual[index] != expected.outcome:
            wrong.append(f"{describe(expected)}: expected {expected.outcome}, got {actual[index]}")
    return [f"{case.case} phase {number} ({phase.kind}): {line}" for line in wrong]


def check_units_after(
    board: Board, case: Case, number: int, phase: Phase, units: Sequence[Unit]
) -> list[str]:
    if phase.units_after is None:
        return []
    expected = set(read_units(board, phase.units_after))
    actual = set(units)
    if expected == actual:
        return []
    return [
        f"{case.case} phase {number}: units after: missing {sorted(map(str, expected - actual))}, "
        f"unexpected {sorted(map(str, actual - expected))}"
    ]


def run_case(case: Case) -> list[str]:
    """Every difference between the case's fixture and what the ruleset does with it, one line each."""
    board = standard_board()
    problems: list[str] = []
    movement: MovementOutcome | None = None
    for number, phase in enumerate(case.phases, start=1):
        if phase.kind == "movement":
            units = read_units(board, phase.units)
            run = PhaseRun(board, phase, units)
            movement = adjudicate(board, units, run.orders)
            problems += check_orders(case, number, phase, run.take(movement.resolutions))
            expected = {board.province(board.lookup(place)) for place in phase.dislodged}
            if set(movement.dislodged) != expected:
                problems.append(
                    f"{case.case} phase {number}: dislodged {sorted(movement.dislodged)}, "
                    f"expected {sorted(expected)}"
                )
            problems += check_units_after(board, case, number, phase, movement.units)
        elif phase.kind == "retreat":
            assert movement is not None, f"{case.case}: a retreat phase needs the movement before it"
            dislodged = tuple(unit for unit, _ in movement.dislodged.values())
            run = PhaseRun(board, phase, dislodged, movement=movement)
            outcome = adjudicate_retreats(board, movement, run.orders)
            problems += check_orders(case, number, phase, run.take(outcome.resolutions, disbanded=True))
            problems += check_units_after(board, case, number, phase, outcome.units)
        else:
            units = read_units(board, phase.units)
            owners = {
                board.province(board.lookup(centre)): power
                for power, centres in phase.centres.items()
                for centre in centres
            }
            run = PhaseRun(board, phase, units, owners=owners)
            outcome = adjudicate_adjustments(board, units, owners, run.orders)
            problems += check_orders(case, number, phase, run.take(outcome.resolutions, disbanded=True))
            problems += check_units_after(board, case, number, phase, outcome.units)
    return problems


@pytest.mark.parametrize("case", CASES, ids=[case.case for case in CASES])
def test_datc_case(case: Case):
    problems = run_case(case)
    assert not problems, f"{case.title}\n" + "\n".join(problems)
