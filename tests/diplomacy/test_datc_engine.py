"""The DATC's 164 test cases (chapter 6, version 3.0) through the engine, as a campaign plays them: the
issue's done-when. ``test_datc.py`` runs the same fixtures through the pure adjudicators; this one goes the
way a player's orders go.

For each phase of a case the runner:

- sets the position up as a campaign state (``Ruleset.fill_state``: the seven powers, the units as state
  records, the supply centres the fixture gives, the phase to play); a retreat phase plays on the state the
  movement turn before it left (its dislodged units, standoffs and convoys), as a campaign would;
- writes every power's orders as that power's order file, each order a line of notation, and checks each
  file with the real checker (``engine.validate.check_order_file``, which ``campaign check`` and
  ``campaign resolve`` call): an order the fixture calls ``illegal`` must be refused with the rule it
  breaks named (``rule: ...`` in the fix), and no other order may be refused;
- resolves the turn with the real resolver (``engine.turn.resolve_turn``) on every order as written, the
  refused ones too: the design's case of a file that reaches the resolver anyway (the deadline passed with
  the file merged as it was, or a GM forced it), where an illegal order leaves its unit holding and the
  power's other orders stand. Each ``order`` event's result is then the order's outcome (``succeeded``,
  ``failed``, ``illegal``), compared with the fixture's; the ``dislodged`` events with the provinces the
  fixture says; and the units of the state after the turn with ``units_after`` where the fixture gives it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from resolver.core.orders import OrderFile
from resolver.engine.ruleset import Game, get_ruleset
from resolver.engine.turn import resolve_turn
from resolver.engine.validate import check_order_file
from resolver.rulesets.diplomacy import model as m
from resolver.rulesets.diplomacy.board import Board
from resolver.rulesets.diplomacy.notation import NotationError, read_order
from tests.diplomacy.datc_cases import Case, Phase, load_cases
from tests.diplomacy.test_datc import read_unit, read_units

CASES = load_cases()
RULESET = get_ruleset("diplomacy")
RESULTS = {"succeeded": "succeeds", "failed": "fails", "illegal": "illegal"}
SEASONS = {"movement": "spring", "retreat": "spring", "adjustment": "winter"}


def new_game() -> Game:
    rules = RULESET.default_rules()
    board = m.board()
    return Game(
        campaign="datc",
        name="DATC",
        seed=1,
        ruleset=RULESET,
        rules=rules,
        house_rules={},
        world=RULESET.generate_world(1, rules, len(board.powers)),
        factions=tuple(board.powers),
    )


def position(game: Game, board: Board, phase: Phase, before: dict[str, Any] | None) -> dict[str, Any]:
    """The campaign state the phase plays on: the fixture's units and centres, or for a retreat phase the
    state the movement turn left."""
    if phase.kind == "retreat":
        assert before is not None, "a retreat phase follows a movement phase"
        state = dict(before)
    else:
        units = {}
        for number, unit in enumerate(read_units(board, phase.units), start=1):
            units[f"{unit.power}-u{number}"] = {
                "owner": unit.power,
                "kind": unit.kind,
                "location": unit.location,
            }
        centres = {
            board.province(board.lookup(centre)): power
            for power, centres in phase.centres.items()
            for centre in centres
        }
        state = RULESET.fill_state(game.rules, {"units": units, "centres": centres}, list(game.factions))
    state["phase"] = {"year": 1901, "season": SEASONS[phase.kind], "kind": phase.kind}
    m.record_date(game.rules, state, int(state["turn"]))
    return state


def order_files(game: Game, state: dict[str, Any], phase: Phase) -> dict[str, OrderFile]:
    """Each power's orders as its order file, checked by the real checker."""
    files = {}
    for power in game.factions:
        texts = [order.text for order in phase.orders if order.power == power]
        if not texts:
            continue
        body = "".join(f"  - {json.dumps(text)}\n" for text in texts)
        raw = f"campaign: datc\nturn: {state['turn']}\nfaction: {power}\norders:\n{body}".encode()
        files[power] = check_order_file(game, state, raw, f"orders/{power}.yaml")
    return files


def refused_orders(files: dict[str, OrderFile]) -> dict[tuple[str, int], str]:
    """(power, order number) -> the checker's error for it, with its fix."""
    return {
        (power, int(issue.order)): f"{issue.message} ({issue.hint})"
        for power, of in files.items()
        for issue in of.errors
        if issue.order is not None
    }


def run_phase(
    game: Game, case: Case, number: int, phase: Phase, before: dict[str, Any] | None
) -> tuple[list[str], dict[str, Any]]:
    board = m.board(game)
    state = position(game, board, phase, before)
    files = order_files(game, state, phase)
    problems: list[str] = []
    where = f"{case.case} phase {number} ({phase.kind})"

    # The checker: every illegal order refused with its rule named, and no other refused.
    refused = refused_orders(files)
    numbers: dict[str, int] = {}
    expected: list[tuple[str, int, str, str]] = []  # power, number in its file, text, outcome
    for order in phase.orders:
        numbers[order.power] = numbers.get(order.power, 0) + 1
        expected.append((order.power, numbers[order.power], order.text, order.outcome))
        error = refused.get((order.power, numbers[order.power]))
        if order.outcome == "illegal" and (error is None or "rule:" not in error):
            problems.append(
                f"{where}: the checker did not refuse {order.power}: {order.text!r} with its rule"
            )
        if order.outcome != "illegal" and error is not None:
            problems.append(f"{where}: the checker refused {order.power}: {order.text!r}: {error}")

    # The resolver, on the files as written (the refused orders too).
    forced = {power: dataclasses.replace(of, issues=[]) for power, of in files.items()}
    result = resolve_turn(game, state, forced)
    events = [event.to_data() if hasattr(event, "to_data") else event for event in result.events]
    given = [event for event in events if _kind(event) == "order" and not _data(event).get("assumed")]
    by_power: dict[str, list[dict[str, Any]]] = {}
    for event in given:
        by_power.setdefault(_data(event)["power"], []).append(event)
    for power, _number, text, outcome in expected:
        readable = _readable(board, power, text, phase.kind)
        if not readable:  # never reaches the adjudicator: the checker's refusal is its outcome
            if outcome != "illegal":
                problems.append(f"{where}: {power}: {text!r} could not be read")
            continue
        events_of_power = by_power.get(power, [])
        if not events_of_power:
            problems.append(f"{where}: no order event for {power}: {text!r}")
            continue
        actual = RESULTS[_data(events_of_power.pop(0))["result"]]
        if actual != outcome:
            problems.append(f"{where}: {power}: {text}: expected {outcome}, got {actual}")

    if phase.kind == "movement":
        dislodged = {_data(event)["unit"].split("/")[0] for event in events if _kind(event) == "dislodged"}
        wanted = {board.province(board.lookup(place)) for place in phase.dislodged}
        if dislodged != wanted:
            problems.append(f"{where}: dislodged {sorted(dislodged)}, expected {sorted(wanted)}")
    if phase.units_after is not None:
        wanted_units = {
            read_unit(board, power, text) for power, texts in phase.units_after.items() for text in texts
        }
        actual_units = set(m.units(result.state))
        if wanted_units != actual_units:
            problems.append(
                f"{where}: units after: missing {sorted(map(str, wanted_units - actual_units))}, "
                f"unexpected {sorted(map(str, actual_units - wanted_units))}"
            )
    return problems, result.state


def _kind(event: Any) -> str:
    return str(event["kind"] if isinstance(event, dict) else event.kind)


def _data(event: Any) -> dict[str, Any]:
    return dict(event["data"] if isinstance(event, dict) else event.data)


def _readable(board: Board, power: str, text: str, kind: str) -> bool:
    try:
        read_order(board, power, text, kind)  # type: ignore[arg-type]
    except NotationError:
        return False
    return True


def run_case(case: Case) -> list[str]:
    game = new_game()
    problems: list[str] = []
    before: dict[str, Any] | None = None
    for number, phase in enumerate(case.phases, start=1):
        found, before = run_phase(game, case, number, phase, before)
        problems += found
    return problems


@pytest.mark.parametrize("case", CASES, ids=[case.case for case in CASES])
def test_datc_case_through_the_engine(case: Case) -> None:
    problems = run_case(case)
    assert not problems, f"{case.title}\n" + "\n".join(problems)


def test_every_case_is_run() -> None:
    assert len(CASES) == 164
