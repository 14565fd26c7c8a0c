"""Views of a turn for people: event sentences, faction reports, order templates.

They read archived (serialised) events and the state; they never change either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core.events import visible
from .core.phases import State
from .engine import TurnResult
from .ruleset import Game

if TYPE_CHECKING:
    from .store import Store


def event_lines(game: Game, events: list[dict[str, Any]], faction: str | None = None) -> list[str]:
    """Sentences for the events one faction saw (all public events when ``faction`` is None)."""
    shown = (
        [e for e in events if e["visibility"] == "public"] if faction is None else visible(events, faction)
    )
    return [game.ruleset.describe(e, game) for e in shown]


def roll_summary(event: dict[str, Any]) -> str:
    rolls = event.get("rolls", [])
    if not rolls:
        return ""
    return "; ".join(
        f"{r['expr']} → {r['dice']}" + (f" = {r['total']}" if len(r["dice"]) > 1 else "") for r in rolls[:6]
    ) + (" …" if len(rolls) > 6 else "")


def render_reports(store: Store, game: Game, result: TurnResult) -> dict[str, str]:
    events = [e.to_data() for e in result.events]
    # Each event is described once, however many factions saw it.
    described = [
        {
            "text": game.ruleset.describe(e, game),
            "dice": roll_summary(e),
            "phase": e["phase"],
            "visibility": e["visibility"],
        }
        for e in events
    ]
    template = store.templates().get_template("report.md.j2")
    reports = {}
    for faction in game.factions:
        reports[faction] = template.render(
            game=game,
            faction=faction,
            name=game.name_of(faction),
            turn=result.turn,
            date=game.calendar.date(result.turn).label,
            next_date=game.calendar.date(result.turn + 1).label,
            events=visible(described, faction),
            status=game.ruleset.status_lines(game, result.state, faction),
            missed=faction in result.missing,
        )
    return reports


def order_template_context(game: Game, state: State, faction: str) -> dict[str, Any]:
    turn = int(state["turn"])
    examples = []
    for spec in game.actions.values():
        fields = ", ".join(f"{f.name}{'' if f.required else '?'}" for f in spec.fields)
        examples.append(
            {
                "name": spec.name,
                "summary": spec.summary,
                "cost": spec.cost,
                "fields": fields,
                "example": spec.example,
            }
        )
    return {
        "game": game,
        "faction": faction,
        "name": game.name_of(faction),
        "turn": turn,
        "date": game.calendar.date(turn).label,
        "status": game.ruleset.status_lines(game, state, faction),
        "places": game.ruleset.places_lines(game, state, faction),
        "actions": examples,
        "examples": game.ruleset.order_examples(game, state, faction),
    }
