"""Issue 10 point 5: one procedure several times in the phase table, with its own numbers and seasons."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from resolver.core.calendar import Calendar
from resolver.core.phases import State, build_table, by_season
from resolver.engine.ruleset import get_ruleset
from resolver.workflow import default_factions, new_campaign

from ..test_house_rules import rules_page

CALENDAR = Calendar.from_rules({"periods": ["Spring", "Summer", "Autumn", "Winter"]})


def trade(ctx: object, state: State, successes: int = 0) -> State:
    """A stand-in for seasons' trade roll: it records the modifier it was given."""
    return {**state, "trade": [*state.get("trade", []), successes]}


def muster(ctx: object, state: State) -> State:
    return {**state, "mustered": state.get("mustered", 0) + 1}


DECLARED = [
    {"id": "muster", "title": "Muster", "summary": "Every season."},
    {
        "id": "trade_spring",
        "procedure": "trade",
        "title": "Spring trade",
        "summary": "The trade roll, one success easier.",
        "when": {"seasons": ["Spring"]},
        "params": {"successes": 1},
    },
    {
        "id": "trade_winter",
        "procedure": "trade",
        "title": "Winter trade",
        "summary": "The trade roll, two successes harder.",
        "when": {"seasons": ["Winter"]},
        "params": {"successes": -2},
    },
    {
        "id": "trade_summer",
        "procedure": "trade",
        "title": "Summer trade",
        "summary": "Plain.",
        "when": {"seasons": ["Summer"]},
    },
]


def run_year(phases: tuple) -> list[State]:
    states = []
    for turn in range(1, 5):
        state: State = {}
        for phase in phases:
            if phase.runs_on(CALENDAR.date(turn)):
                state = phase.run(None, state)
        states.append(state)
    return states


def test_one_procedure_runs_in_its_seasons_with_each_entrys_numbers() -> None:
    phases = build_table(DECLARED, {"trade": trade, "muster": muster})
    spring, summer, autumn, winter = run_year(phases)
    assert spring == {"mustered": 1, "trade": [1]}
    assert summer == {"mustered": 1, "trade": [0]}  # no params: the function's default
    assert autumn == {"mustered": 1}
    assert winter == {"mustered": 1, "trade": [-2]}
    assert [(p.id, p.procedure, dict(p.params)) for p in phases][1] == (
        "trade_spring",
        "trade",
        {"successes": 1},
    )


def test_params_the_procedure_does_not_take_are_refused_when_the_table_is_built() -> None:
    wrong = [*DECLARED[:1], {**DECLARED[1], "params": {"sucesses": 1}}]
    with pytest.raises(ValueError, match="trade_spring: trade cannot take params"):
        build_table(wrong, {"trade": trade, "muster": muster})
    with pytest.raises(ValueError, match="not declared"):
        build_table(DECLARED[:1], {"trade": trade, "muster": muster})


def test_turn_sequence_per_season_only_when_some_phase_is_seasonal() -> None:
    phases = build_table(DECLARED, {"trade": trade, "muster": muster})
    seasons = by_season(phases, CALENDAR)
    assert seasons is not None
    assert {s: [p.id for p in steps] for s, steps in seasons.items()} == {
        "Spring": ["muster", "trade_spring"],
        "Summer": ["muster", "trade_summer"],
        "Autumn": ["muster"],
        "Winter": ["muster", "trade_winter"],
    }
    assert by_season(phases[:1], CALENDAR) is None


def test_rules_page_shows_each_seasons_sequence(tmp_path: Path) -> None:
    root = tmp_path / "realm"
    new_campaign(root, "nations", 3, default_factions(2, 3))
    sequence = get_ruleset("nations").default_rules()["turn_sequence"]
    winter_stores = {
        "id": "winter_stores",
        "procedure": "income",
        "title": "Winter stores",
        "summary": "A second harvest, in winter only.",
        "when": {"seasons": ["Winter"]},
    }
    (root / "campaign/rules.yaml").write_text(yaml.safe_dump({"turn_sequence": [*sequence, winter_stores]}))
    page = rules_page(root)
    assert "each season has its own sequence" in page
    winter = next(line for line in page.splitlines() if line.startswith("| Winter |"))
    spring = next(line for line in page.splitlines() if line.startswith("| Spring |"))
    assert "Winter stores" in winter and "Winter stores" not in spring
    assert spring.count("Income") == 1 and "1. GM rulings" in spring
    plain = tmp_path / "plain"
    new_campaign(plain, "nations", 3, default_factions(2, 3))
    assert "each season has its own sequence" not in rules_page(plain)
