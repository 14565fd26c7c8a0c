"""Diplomacy's rules pages, from the rules data and the board: the year's phases and how each becomes a
turn, the map's facts (provinces, supply centres, each power's home centres and first units), victory, and
each point where the rules are silent or disputed with the answer this ruleset gives (the DATC's issues,
from ``adjudication.CHOICES``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.rulesdoc import RulesSection, RulesTable
from ...core.words import series
from . import model as m
from .adjudication import CHOICES

KINDS_IN_WORDS = {"movement": "movement", "retreat": "retreats", "adjustment": "adjustments"}
WHAT_HAPPENS = {
    "movement": "every unit holds, moves, supports or convoys; all orders are carried out at once",
    "retreat": "each dislodged unit retreats or is disbanded",
    "adjustment": "each power builds or removes units until its units match its supply centres",
}
WHEN_SKIPPED = {
    "movement": "never: every movement is a turn",
    "retreat": "when no dislodged unit has anywhere to go (such a unit is disbanded at once)",
    "adjustment": "when no power has a build it can make or a unit to remove",
}


def introduction(rules: Mapping[str, Any]) -> str:
    board = m.board()
    return (
        f"Diplomacy for {len(board.powers)} powers on the map of Europe in {rules['start']['year']}. Every "
        "power writes its orders in secret; all are revealed and carried out at once, and no dice are "
        "rolled. "
        f"The first power to hold {rules['victory']['centres']} of the {len(board.supply_centres)} supply "
        "centres wins. Each phase of the game's year is a turn of its own."
    )


def sections(rules: Mapping[str, Any]) -> list[RulesSection]:
    return [_phases(rules), _map(rules), _victory(rules), _reasons(rules), _choices()]


def _phases(rules: Mapping[str, Any]) -> RulesSection:
    rows = tuple(
        (
            str(row["label"]).format(year=rules["start"]["year"]),
            KINDS_IN_WORDS[row["kind"]],
            WHAT_HAPPENS[row["kind"]],
            WHEN_SKIPPED[row["kind"]],
        )
        for row in rules["phases"]
    )
    text = (
        "A year of the game has five phases, and each is one turn of the campaign, because each needs the "
        "outcome of the one before: a player retreats knowing which units were dislodged and builds knowing "
        "which centres are held. A phase in which nobody has a choice is no turn, so a year is two to five "
        "turns. Orders are secret until the turn is resolved; then every order and what became of it is "
        "published. A unit given no order holds; a dislodged unit given none is disbanded; a power that "
        "removes too few units in winter has the rest removed for it, farthest from its centres first; a "
        "build not ordered is waived. An order against the rules is refused when the file is checked; one "
        "that reaches the resolver anyway leaves its unit holding, and the power's other orders stand."
    )
    table = RulesTable("The phases of a year", ("Turn", "Phase", "What happens", "Skipped"), rows)
    return RulesSection("Phases and turns", (text, table), keys=("phases",))


def _map(rules: Mapping[str, Any]) -> RulesSection:
    board = m.board()
    kinds = {
        kind: sum(1 for province in board.provinces if board.kind(province) == kind)
        for kind in ("land", "coast", "sea")
    }
    text = (
        f"The map has {len(board.provinces)} provinces: {kinds['land']} inland, {kinds['coast']} on the "
        f"coast and {kinds['sea']} at sea. Armies move on land and coast, fleets on coast and sea; "
        f"{series([board.name(p) for p in board.provinces if board.coasts(p)])} each have two coasts, and a "
        f"fleet there stands on one of them. {len(board.supply_centres)} provinces are supply centres; "
        f"{sum(len(board.home_centres(power)) for power in board.powers)} of them are the powers' home "
        "centres and the others start neutral. A centre changes hands only when a unit stands in it after "
        "an autumn's movement and retreats."
    )
    starting = {power: [] for power in board.powers}
    for unit in board.starting_units():
        starting[unit.power].append(
            f"{'army' if unit.kind == 'army' else 'fleet'} in {board.name(unit.location)}"
        )
    rows = tuple(
        (
            board.power_name(power),
            series(sorted(board.name(home) for home in board.home_centres(power))),
            series(starting[power]),
        )
        for power in board.powers
    )
    neutral = sorted(board.name(c) for c in board.supply_centres if board.home_power(c) is None)
    table = RulesTable("The powers at the start", ("Power", "Home centres", "Units"), rows)
    return RulesSection(
        "The map", (text, table, f"Neutral supply centres: {series(neutral)}."), keys=("map",)
    )


def _victory(rules: Mapping[str, Any]) -> RulesSection:
    text = (
        f"A power holding {rules['victory']['centres']} supply centres after an autumn has won the game. A "
        "power with no unit and no supply centre left is out of the game."
    )
    return RulesSection("Victory and elimination", (text,), keys=("victory",))


def _reasons(rules: Mapping[str, Any]) -> RulesSection:
    rows = tuple((str(code).capitalize(), str(words)) for code, words in rules["reasons"].items())
    table = RulesTable("Why an order fails", ("Outcome", "As the chronicle says it"), rows)
    return RulesSection("Failed orders", (table,), keys=("reasons",))


def _choices() -> RulesSection:
    text = (
        "Where the rules are silent or disputed, this ruleset follows the preference of the Diplomacy "
        "Adjudicator Test Cases (DATC, version 3.0) and the 2023 rulebook. Each question, by its DATC issue:"
    )
    rows = tuple((issue, question, answer) for issue, question, answer in CHOICES)
    return RulesSection(
        "Disputed points", (text, RulesTable("Choices", ("DATC issue", "Question", "Answer"), rows))
    )
