"""The month's events and the Unique Events (spec §9.1, §9.2), from the authored table of
``rules/happenings.yaml``.

At the start of a month two different events of the season are drawn by weight, with logged dice; they
are public (``state["happenings"]``) and last to the month's end. A category leader's double-or-ignore
choices are fixed at the same time from its standing policies and kept in its own record (private). The
actions read the month's effects through :func:`action_modifiers` and :func:`price_percent`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.dice import Modifier, Roll, roll_label
from ...engine.context import TurnContext
from . import scoring
from .acting import told

State = dict[str, Any]


def month_of(rules: Mapping[str, Any], turn: int) -> tuple[int, int]:
    """(year, month) of a turn, the month counted 1.. within its year."""
    per = int(rules["calendar"].get("turns_per_period", 4))
    months = len(rules["calendar"]["periods"])
    index = (turn - 1) // per
    return index // months + 1, index % months + 1


def table(rules: Mapping[str, Any], season: str) -> list[Mapping[str, Any]]:
    return list(rules["happenings"]["seasons"].get(season) or [])


def draw(ctx: TurnContext, season: str, rolls: list[Roll] | None = None) -> list[Mapping[str, Any]]:
    """The month's events, each different, drawn by weight: one die of the weights left per draw (each
    added to ``rolls``, for the public event that tells them, so anyone can draw them again)."""
    left = table(ctx.rules, season)
    drawn = []
    for number in range(1, int(ctx.rules["happenings"]["per_month"]) + 1):
        if not left:
            break
        weights = sum(int(event["weight"]) for event in left)
        roll = ctx.roll(roll_label("happenings", number), f"1d{weights}", decided="the month's events")
        if rolls is not None:
            rolls.append(roll)
        point = roll.total
        if rolls is not None:
            rolls.append(roll)
        for event in left:
            point -= int(event["weight"])
            if point <= 0:
                drawn.append(event)
                left.remove(event)
                break
    return drawn


def month_start(ctx: TurnContext, state: State) -> State:
    """Week 1: the month's events, the Unique Event's roll, and the leaders' choices."""
    if (state.get("victory") or {}).get("winners"):
        return state
    rules = ctx.rules
    year, month = month_of(rules, ctx.turn)
    season = ctx.date.season
    rolls: list[Roll] = []
    events = draw(ctx, season, rolls)
    state["happenings"] = {
        "year": year,
        "month": month,
        "season": season,
        "events": [event["id"] for event in events],
        "until": ctx.turn + int(rules["calendar"].get("turns_per_period", 4)) - 1,
    }
    ctx.emit(
        "happenings", rolls=rolls, events=[event["name"] for event in events], season=season, month=month
    )
    _unique_event(ctx, state, season, month)
    _choices(ctx, state, events)
    return state


def _unique_event(ctx: TurnContext, state: State, season: str, month: int) -> None:
    data = ctx.rules["unique_events"]
    if month in data["not_in_months"]:
        return  # no roll at all: the first two months never bring one
    roll = ctx.roll(roll_label("unique_event"), f"1d100<={int(data['chance'])}", decided="a Unique Event")
    if not roll.success:
        return
    held = state.setdefault("unique_events", {})
    event = next((e for e in data["events"] if e["season"] == season), None)
    if event is None or event["id"] in held:
        return  # the season's event has had its day: nothing happens
    held[event["id"]] = {"name": event["name"], "turn": ctx.turn, "places": []}
    ctx.emit("unique_event", name=event["name"], season=season, rolls=[roll])


def _choices(ctx: TurnContext, state: State, events: list[Mapping[str, Any]]) -> None:
    """Each category leader's doubled and ignored events for the month, one per category it leads."""
    scores = state.get("scores") or {}
    for faction in scoring.playing(state):
        record = state["factions"][faction]
        record.pop("happening_choices", None)
        leads = len((scores.get(faction) or {}).get("leads") or [])
        if not leads or not events:
            continue
        choices = choose(ctx.rules, state, faction, events, leads)
        record["happening_choices"] = choices
        ctx.emit(
            "happening_choices",
            actors=[faction],
            visible_to=told(ctx, faction),
            doubled=[_name(events, e) for e, c in choices.items() if c == "double"],
            ignored=[_name(events, e) for e, c in choices.items() if c == "ignore"],
        )


def _name(events: list[Mapping[str, Any]], event_id: str) -> str:
    return next(str(e["name"]) for e in events if e["id"] == event_id)


def choose(
    rules: Mapping[str, Any],
    state: Mapping[str, Any],
    faction: str,
    events: list[Mapping[str, Any]],
    count: int,
) -> dict[str, str]:
    """Up to ``count`` choices among the month's events: those the policies name first (doubles, then
    ignores), then by default a harmful event ignored, else a helpful one doubled; each event once."""
    month = {event["id"]: event for event in events}
    wanted = [(e, "double") for e in scoring.policy(rules, state, faction, "happenings_double")]
    wanted += [(e, "ignore") for e in scoring.policy(rules, state, faction, "happenings_ignore")]
    wanted += [(e["id"], "ignore") for e in events if e.get("mood") == "bane"]
    wanted += [(e["id"], "double") for e in events if e.get("mood") == "boon"]
    choices: dict[str, str] = {}
    for event_id, choice in wanted:
        if len(choices) == count:
            break
        if event_id in month and event_id not in choices:
            choices[event_id] = choice
    return choices


def _in_force(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str) -> list[tuple[Mapping, int]]:
    """The month's events with the factor each has for a usurper: 1, 2 when doubled, 0 when ignored."""
    month = state.get("happenings") or {}
    if not month or int(month.get("until", 0)) < int(state.get("turn", 0)):
        return []
    by_id = {e["id"]: e for events in rules["happenings"]["seasons"].values() for e in events}
    choices = (state["factions"].get(faction) or {}).get("happening_choices") or {}
    factor = {"double": 2, "ignore": 0}
    return [(by_id[e], factor.get(choices.get(e, ""), 1)) for e in month.get("events") or [] if e in by_id]


def action_modifiers(
    rules: Mapping[str, Any], state: Mapping[str, Any], faction: str, action: str
) -> list[Modifier]:
    """The month's modifiers to a usurper's roll for an action, each named after its event."""
    return [
        Modifier(str(event["name"]), int(event["effect"]["value"]) * factor)
        for event, factor in _in_force(rules, state, faction)
        if event["effect"].get("action") == action and factor
    ]


def price_percent(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str, good: str) -> int:
    """How much dearer (or, below 0, cheaper) a good is this month for a usurper, in percent."""
    return sum(
        int(event["effect"]["percent"]) * factor
        for event, factor in _in_force(rules, state, faction)
        if event["effect"].get("price") == good
    )
