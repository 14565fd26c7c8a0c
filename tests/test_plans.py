"""One reading per order (resolver/engine/plans.py) and the typed turn memory, on both rulesets.

The checker and the resolver read an order with the same plan; what differs is only who hears of a
problem: the player as an error or a warning with its fix, or the faction as an ``order_failed`` event.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import pytest

from resolver.core.orders import Order, OrderFile
from resolver.core.phases import PhaseFn, State
from resolver.engine.context import TurnContext
from resolver.engine.plans import Reading, Reject, plan_or_error, plan_or_failure
from resolver.rulesets.factions.plans import FactionsTurn
from resolver.rulesets.nations.memory import NationsTurn

from .scenarios.harness import Scenario

FIXTURES = Path(__file__).parent / "scenarios"
ORDER = Order(1, "attack", {"army": "1", "target": "blue"})


class Context:
    """What ``plan_or_failure`` needs of a turn: somewhere to report a failed order."""

    def __init__(self) -> None:
        self.failed: list[tuple[str, int, str]] = []

    def order_failed(self, faction: str, order: Order, reason: str) -> None:
        self.failed.append((faction, order.number, reason))


def _reading(checked: OrderFile | None) -> Reading:
    game = Scenario(FIXTURES / "nations/move_halts_at_foreign_forces.yaml").game
    return Reading(game, {}, "red", checked)


def _doubtful(reading: Reading) -> str:
    reading.doubt("target", "blue may not be there", "wait for them", failure="blue has nothing here")
    return "read"


def test_a_doubt_is_a_warning_for_the_checker_and_a_failure_for_the_resolver() -> None:
    of = OrderFile("orders/red.yaml", b"", faction="red")
    checking = _reading(of)
    assert plan_or_error(of, checking, ORDER, lambda order: _doubtful(checking)) == "read"
    assert [(i.severity, i.message, i.hint) for i in of.issues] == [
        ("warning", "blue may not be there", "wait for them")
    ]
    ctx = Context()
    live = _reading(None)
    assert plan_or_failure(ctx, live, ORDER, lambda order: _doubtful(live)) is None
    assert ctx.failed == [("red", 1, "blue has nothing here")]


def _two_problems(reading: Reading) -> tuple[str, ...]:
    def army() -> str:
        raise Reject("army", "you have no army '9'", "yours: 1", failure="army 9 no longer exists")

    def settlement() -> str:
        raise Reject("settlement", "Oakham is your own settlement")

    return reading.each(army, settlement)


def test_every_thing_an_order_names_wrongly_is_an_error_of_its_own() -> None:
    of = OrderFile("orders/red.yaml", b"", faction="red")
    reading = _reading(of)
    assert plan_or_error(of, reading, ORDER, lambda order: _two_problems(reading)) is None
    assert [(i.severity, i.message) for i in of.issues] == [
        ("error", "you have no army '9'"),
        ("error", "Oakham is your own settlement"),
    ]
    ctx = Context()  # the resolver tells the faction the first reason, in its own words
    live = _reading(None)
    assert plan_or_failure(ctx, live, ORDER, lambda order: _two_problems(live)) is None
    assert ctx.failed == [("red", 1, "army 9 no longer exists")]


@pytest.mark.parametrize(
    ("fixture", "memory"),
    [
        ("nations/siege_held_when_besiegers_stay.yaml", NationsTurn),
        ("factions/recruit_unidentified_where_held.yaml", FactionsTurn),
    ],
)
def test_every_phase_of_a_turn_shares_the_memory_its_ruleset_declares(fixture: str, memory: type) -> None:
    sc = Scenario(FIXTURES / fixture)
    seen: list[object] = []

    def watch(run: PhaseFn) -> PhaseFn:
        def watched(ctx: TurnContext, state: State) -> State:
            seen.append(ctx.memory)
            return run(ctx, state)

        return watched

    sc.game.__dict__["phases"] = tuple(replace(p, run=watch(p.run)) for p in sc.game.phases)
    sc.resolve(sc.order_files())
    assert seen and all(m is seen[0] for m in seen)  # one memory for the whole turn
    assert type(seen[0]) is memory


@pytest.mark.parametrize(
    "fixture",
    [
        "nations/move_seed_example_split_1a_1b.yaml",
        "nations/move_merge_armies.yaml",
        "nations/roads_build_five_destroy_three.yaml",
    ],
)
def test_checking_plays_orders_on_a_sketch_and_leaves_the_state_alone(fixture: str) -> None:
    sc = Scenario(FIXTURES / fixture)
    before = copy.deepcopy(sc.state)
    files = sc.order_files()
    assert all(f.ok for f in files.values()) and any(f.echo for f in files.values())
    assert sc.state == before
