"""Issue 21 point 3: a turn made of ticks. The test ruleset in ``tests/clock`` plays a month of three days:
a muster, then each day a patrol (with a blessing on day 1 that lasts to the close of day 2), then a
tally. It is loaded from its own package; no campaign can choose it."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from resolver.core.houserules import merge_rules
from resolver.core.world import World
from resolver.engine.ruleset import RULESETS, Game, ruleset_at
from resolver.engine.turn import TurnResult, resolve_turn
from resolver.publish.turntable import turn_sequence_markdown

FACTIONS = ("blue", "red")


def clock_game(house_rules: dict[str, Any] | None = None) -> Game:
    ruleset = ruleset_at("tests.clock")
    rules = merge_rules(ruleset.default_rules(), house_rules or {})
    world = World("province", 0, 0, 0, {})
    return Game("clock", "Clock", 7, ruleset, rules, house_rules or {}, world, FACTIONS)


def play(game: Game, turn: int = 1) -> TurnResult:
    state = {"turn": turn, "factions": {f: {"name": f.capitalize()} for f in FACTIONS}}
    return resolve_turn(game, state, {})


def archived(result: TurnResult, kind: str) -> list[dict[str, Any]]:
    return [e.to_data() for e in result.events if e.kind == kind]


def test_events_inside_the_block_carry_their_tick_and_the_rest_none() -> None:
    result = play(clock_game())
    assert [(e["tick"], e["actors"]) for e in archived(result, "patrol")] == [
        (1, ["blue"]), (1, ["red"]), (2, ["blue"]), (2, ["red"]), (3, ["blue"]), (3, ["red"]),
    ]  # fmt: skip
    # A step outside the block runs once a turn, on no tick: its events are written as they always were.
    for kind in ("mustered", "tallied", "orders_missing"):
        assert [("tick" in e) for e in archived(result, kind)] == [False], kind
    assert archived(result, "tallied")[0]["data"] == {"day": 0}
    # Each day's patrol rolls its own die, under a label that names the day.
    labels = [r.label for r in result.rolls]
    assert labels[:2] == ["t1/tick1/patrol/blue", "t1/tick1/patrol/red"] and len(set(labels)) == 6


def test_a_phase_with_when_tick_1_runs_on_the_first_day_only() -> None:
    result = play(clock_game())
    assert [e["tick"] for e in archived(result, "dawn")] == [1]
    order = [(e.kind, e.tick) for e in result.events if e.kind in ("dawn", "patrol")]
    assert order[:2] == [("dawn", 1), ("patrol", 1)]  # in the block's order, within the day


def test_an_effect_that_ends_at_tick_2_is_there_on_day_2_and_gone_on_day_3() -> None:
    result = play(clock_game())
    blessed = {(e["tick"], e["actors"][0]): e["data"]["blessed"] for e in archived(result, "patrol")}
    assert blessed == {
        (1, "blue"): True, (1, "red"): True,
        (2, "blue"): True, (2, "red"): True,
        (3, "blue"): False, (3, "red"): False,
    }  # fmt: skip
    ended = archived(result, "effect_expired")
    assert [(e["tick"], e["phase"], e["actors"]) for e in ended] == [
        (2, "expiry", ["blue"]),
        (2, "expiry", ["red"]),
    ]
    assert "effects" not in result.state
    assert all(
        "modifiers" not in record or not record["modifiers"] for record in result.state["factions"].values()
    )


def test_the_count_of_ticks_is_rules_data_a_campaign_may_change() -> None:
    result = play(clock_game({"ticks": 5}))
    assert sorted({e["tick"] for e in archived(result, "patrol")}) == [1, 2, 3, 4, 5]


def test_the_rules_page_prints_the_block_once_with_its_repeat_and_conditions() -> None:
    text = str(turn_sequence_markdown(clock_game()))
    steps = [
        line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ") and ". " in line
    ]
    assert steps == [
        "1. GM rulings", "2. Missing orders", "3. Standing orders", "4. Muster", "5. Each day, 3 times",
        "6. Tally", "7. Press and rumours", "8. Expiring effects",
    ]  # fmt: skip
    block = next(line for line in text.splitlines() if "Each day, 3 times" in line)
    # The page is Markdown, so the numbering's brackets are escaped.
    assert "1\\) Blessing, only on day 1: " in block and "2\\) Patrol: Every host patrols" in block
    assert text.count("Patrol") == 1 and text.count("Blessing") == 1


def test_the_test_ruleset_is_not_one_a_campaign_can_choose() -> None:
    assert "clockwork" not in RULESETS and ruleset_at("tests.clock").id == "clockwork"


def with_sequence(change: Any) -> dict[str, Any]:
    rules = copy.deepcopy(ruleset_at("tests.clock").default_rules())
    change(rules["turn_sequence"])
    return rules


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda seq: seq[1]["phases"][1].update(when={"day": [1]}),
            "phase patrol: 'when' has no condition 'day'",
        ),
        (lambda seq: seq[1].update(repeat="days"), "block 'day': repeat must be 'ticks'"),
        (lambda seq: seq[1].update(repeat=0), "block 'day': repeat must be 'ticks'"),
        (
            lambda seq: seq[0].update(when={"tick": [1]}),
            "phase muster: 'when: tick' applies only to a phase inside",
        ),
        (lambda seq: seq[1].update(every=2), "block 'day': a block has no field every"),
        (lambda seq: seq.append({"engine": "newspaper"}), "the engine has no step 'newspaper'"),
        (
            lambda seq: seq[1]["phases"].append({"engine": "press"}),
            "block 'day': a block holds plain phases only",
        ),
    ],
)
def test_a_wrong_when_or_block_is_refused_naming_the_entry(change: Any, said: str) -> None:
    ruleset = ruleset_at("tests.clock")
    with pytest.raises(ValueError, match=f"^{said}"):
        ruleset.phases(with_sequence(change))


def test_ticks_must_be_a_whole_number_of_at_least_one() -> None:
    rules = {**ruleset_at("tests.clock").default_rules(), "ticks": 0}
    with pytest.raises(ValueError, match="'ticks' must be a whole number of at least 1, not 0"):
        ruleset_at("tests.clock").phases(rules)
