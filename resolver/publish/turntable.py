"""The rules page's turn sequence: every step of the turn table in the order it runs, the engine's own
steps in their places, a repeated block printed once with its count and conditions, and each season's
sequence when some step is seasonal. The site prints this text; tests read the same function."""

from __future__ import annotations

from markupsafe import Markup

from ..core.phases import Block, Step, by_season
from ..engine.ruleset import Game
from ..engine.steps import turn_table
from .text import md

EVERY_TURN = "every turn"


def step_row(step: Step) -> tuple[str, str, str]:
    """A step as the page's table shows it: its title, what happens, and when."""
    if isinstance(step, Block):
        return step.title, step.steps_text(), step.when_text() or EVERY_TURN
    return step.title, step.summary, step.when_text() or EVERY_TURN


def turn_sequence_markdown(game: Game) -> Markup:
    """The page's Markdown: the table's words are escaped here, cell by cell, as the page template would."""
    table = turn_table(game)
    lines = ["| Step | What happens | When |", "|---:|---|---|"]
    for number, step in enumerate(table, 1):
        title, summary, when = step_row(step)
        lines.append(f"| {number}. {md(title)} | {md(summary)} | {md(when)} |")
    seasons = by_season(table, game.calendar)
    if seasons:
        lines += ["", "Some steps happen only in some seasons, so each season has its own sequence:", ""]
        lines += ["| Season | Steps, in order |", "|---|---|"]
        for season, steps in seasons.items():
            listed = "; ".join(f"{number}. {md(step.title)}" for number, step in enumerate(steps, 1))
            lines.append(f"| {md(season)} | {listed} |")
    return Markup("\n".join(lines) + "\n")
