"""Headlines: the turn's public events read as news (the "interpretation" step).

Which events are news, how much, and in what words is the ruleset's business
(``Ruleset.headline``); this module only ranks them and keeps a few.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..engine.ruleset import Game

NOT_NEWS = ("press", "rumor")  # the newspaper prints these in full, under their own headings


def headlines(game: Game, events: Iterable[Mapping[str, Any]], turn: int = 0, limit: int = 6) -> list[str]:
    """The most newsworthy lines of a turn, best first; events of equal weight keep their order."""
    ranked: list[tuple[int, int, str]] = []
    for i, event in enumerate(events):
        if event.get("visibility") != "public" or event["kind"] in NOT_NEWS:
            continue
        found = game.ruleset.headline(event, game, turn)
        if found:
            ranked.append((-found[0], i, found[1]))
    seen: set[str] = set()
    lines = []
    for _, _, text in sorted(ranked):
        if text not in seen:
            seen.add(text)
            lines.append(text)
    return lines[:limit]
