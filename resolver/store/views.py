"""Views of a turn for people: event sentences, faction reports, order templates.

They read archived (serialised) events and the state; they never change either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core import canonical, relations, standing
from ..core.checks import ledger_text
from ..core.events import visible
from ..core.orders import GM
from ..core.phases import State
from ..engine import gm
from ..engine.ruleset import Game, Ruleset
from ..engine.turn import TurnResult

if TYPE_CHECKING:
    import jinja2  # loaded by the store when a report is written: `campaign check` starts faster without it


def event_lines(game: Game, events: list[dict[str, Any]], faction: str | None = None) -> list[str]:
    """Sentences for the events one faction saw (all public events when ``faction`` is None)."""
    shown = (
        [e for e in events if e["visibility"] == "public"] if faction is None else visible(events, faction)
    )
    return [game.ruleset.describe(e, game) for e in shown]


@dataclass
class TurnLine:
    """One line of a turn's log: one deed, however many events tell it. ``told`` are the events whose
    sentences it holds (each of them, for a line said several times), which the demo counts; an event
    that only retells the deed (a street headline) adds no words, and is not counted."""

    text: str
    told: list[Mapping[str, Any]] = field(default_factory=list)


def turn_lines(game: Game, events: Iterable[Mapping[str, Any]]) -> list[TurnLine]:
    """The turn's public events as the log prints them (campaign demo, campaign resolve): one line a
    deed, in the order the deeds began (``Ruleset.deed_of``), and a line said several times once, with
    how often."""
    public = [e for e in events if e["visibility"] == "public"]
    deeds: list[TurnLine] = []
    line_of: dict[int, int] = {}  # an event's index -> the index of its line
    for index, event in enumerate(public):
        found = game.ruleset.deed_of(event, public[:index])
        if found is None:
            line_of[index] = len(deeds)
            deeds.append(TurnLine(game.ruleset.describe_deed(event, game), [event]))
            continue
        earlier, retold = found
        line_of[index] = line_of[earlier]
        if not retold:
            deed = deeds[line_of[earlier]]
            deed.text = f"{deed.text} {game.ruleset.describe(event, game)}"
            deed.told.append(event)
    return merge_repeated(deeds)


def merge_repeated(lines: list[TurnLine]) -> list[TurnLine]:
    """Each distinct line once, where it first appears, telling every event of its repeats."""
    merged: dict[str, TurnLine] = {}
    for line in lines:
        if line.text in merged:
            merged[line.text].told.extend(line.told)
        else:
            merged[line.text] = TurnLine(line.text, list(line.told))
    counts = dict(zip(merged, merge_repeats(line.text for line in lines), strict=True))
    return [TurnLine(counts[text], line.told) for text, line in merged.items()]


def merge_repeats(sentences: Iterable[str]) -> list[str]:
    """Each distinct sentence once, where it first appears, with how often it was said: three identical
    musters read "Menfell musters Levy at Castfell (3 times).", not three lines."""
    counts: dict[str, int] = {}
    for sentence in sentences:
        counts[sentence] = counts.get(sentence, 0) + 1
    merged = []
    for sentence, count in counts.items():
        if count > 1:
            body = sentence.rstrip(".!?")
            how_often = "twice" if count == 2 else f"{count} times"
            sentence = f"{body} ({how_often}){sentence[len(body) :]}"
        merged.append(sentence)
    return merged


def roll_summary(event: dict[str, Any]) -> str:
    rolls = event.get("rolls", [])
    if not rolls:
        return ""
    return "; ".join(
        f"{r['expr']} → {r['dice']}"
        + (f" = {r['total']}" if len(r["dice"]) > 1 else "")
        + (f" ({ledger_text(r)})" if ledger_text(r) else "")
        for r in rolls[:6]
    ) + (" …" if len(rolls) > 6 else "")


def private_events(events: list[dict[str, Any]], factions: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """Each faction's events that were not public, in the turn's order: what it alone (or with a few
    others) saw. One pass over the events, however many factions there are."""
    seen: dict[str, list[dict[str, Any]]] = {faction: [] for faction in factions}
    for event in events:
        if event["visibility"] != "public":
            for faction in event["visibility"]:
                if faction in seen:
                    seen[faction].append(event)
    return seen


def _seen_by(events: list[dict[str, Any]], factions: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
    """Each faction's events, public ones and those shown to it, in the turn's order, in one pass."""
    seen: dict[str, list[dict[str, Any]]] = {faction: [] for faction in factions}
    for event in events:
        shown = seen if event["visibility"] == "public" else event["visibility"]
        for faction in shown:
            if faction in seen:
                seen[faction].append(event)
    return seen


def render_reports(
    templates: jinja2.Environment,
    game: Game,
    result: TurnResult,
    events: list[dict[str, Any]] | None = None,
) -> dict[str, str]:
    """Each faction's report: the events it saw that were not public, and where it stands. The public
    events are the same for everyone, so a report counts them and points to the turn's chronicle page
    instead of copying them (copied, they made every report as long as the whole turn). ``events`` are
    the turn's events as archived, when the caller has them already; ``templates`` is the campaign's
    template environment (the store's), in which the GM may have replaced the report's template."""
    events = [e.to_data() for e in result.events] if events is None else events
    public = sum(1 for e in events if e["visibility"] == "public")
    seen = private_events(events, game.factions)
    # The events each faction saw, public and its own, in the turn's order: what a ruleset's own report
    # sections read (only when it writes some, so the others pay nothing for them).
    own_sections = type(game.ruleset).report_sections is not Ruleset.report_sections
    saw = _seen_by(events, game.factions) if own_sections else {}
    described: dict[int, dict[str, Any]] = {}  # each event described once, however many factions saw it
    template = templates.get_template("report.md.j2")
    reports = {}
    for faction in game.factions:
        for event in seen[faction]:
            if id(event) not in described:
                described[id(event)] = {
                    "text": game.ruleset.describe(event, game),
                    "dice": roll_summary(event),
                }
        reports[faction] = template.render(
            game=game,
            faction=faction,
            name=game.name_of(faction),
            turn=result.turn,
            date=game.calendar.date(result.turn).label,
            next_date=game.date_in(result.state, result.turn + 1).label,
            events=[described[id(event)] for event in seen[faction]],
            public=public,
            chronicle=f"chronicle/turn-{result.turn}/",
            status=game.ruleset.status_lines(game, result.state, faction),
            sections=game.ruleset.report_sections(game, result.state, faction, saw[faction])
            if own_sections
            else [],
            missed=faction in result.missing and faction not in result.refused,
            refused=faction in result.refused,
        )
    return reports


def order_template_context(game: Game, state: State, faction: str) -> dict[str, Any]:
    """What the order template shows a faction, or the GM (``faction`` is ``gm``): its position, every
    order it may give, and examples."""
    turn = int(state["turn"])
    playing_gm = faction == GM
    specs = gm.actions(game) if playing_gm else game.actions
    can = None if playing_gm else set(game.ruleset.orderable(game, state, faction))
    examples = []
    for spec in specs.values():
        if can is not None and spec.name not in can:
            continue  # a ruleset whose orders depend on the season lists only this turn's
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
    if playing_gm:
        status = [
            f"{f}: {game.name_of(f)}, {state['factions'][f].get('status', 'active')}" for f in game.factions
        ]
    return {
        "standing": [] if playing_gm else standing_blocks(game, state, faction),
        "game": game,
        "faction": faction,
        "name": "the GM" if playing_gm else game.name_and_id(faction),
        "turn": turn,
        "date": game.calendar.date(turn).label,
        "file": f"orders/{faction}.yaml",  # where the faction's orders go
        "in_place": False,  # whether this copy is that file already (campaign template -o)
        "schema": "../orders.schema.json",  # from orders/templates/, where the templates are kept
        "sealed": False,  # the store knows: a sealed campaign's orders are sealed before they are sent
        "status": status
        if playing_gm
        else [
            *game.ruleset.status_lines(game, state, faction),
            *relations.lines_for(state, faction, game.name_and_id),
        ],
        "places": [] if playing_gm else game.ruleset.places_lines(game, state, faction),
        "rulings": gm.awaiting_rulings(game, state) if playing_gm else [],
        "actions": examples,
        "examples": gm.examples(game, state)
        if playing_gm
        else game.ruleset.order_examples(game, state, faction),
    }


def standing_blocks(game: Game, state: State, faction: str) -> list[dict[str, Any]]:
    """Each standing section for the faction's template: what its fields mean, and the section as YAML,
    pre-filled with what the faction has in force (left commented out while it keeps the defaults, so
    sending the template changes nothing)."""
    blocks = []
    written = standing.stored(state, faction)
    for name, section in game.standing.items():
        if name in written:
            text = canonical.dump({name: written[name]}).decode()
        else:
            shown = canonical.dump({name: section.defaults()}).decode()
            text = "".join(f"# {line}\n" for line in shown.splitlines())
        fields = section.field_words()
        blocks.append({"name": name, "summary": section.summary, "fields": fields, "text": text})
    return blocks
