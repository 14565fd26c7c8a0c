"""Orders for a faction nobody plays: a purposeful month for each of its units, in the manual's language.

Player factions (in the demo, or in civil disorder) play a General's month (``bot_plans.hero_month``):
coins drawn in the city, followers hired and armed from the market, study toward the next level, a vacant
title claimed when the hero qualifies, stances changed now and then, journeys out to the neighbouring land
and home again, and for an aggressive faction an attack on a weaker force it sees. The outlaws' and the
creatures' bands roam and attack (``bot_plans.band_month``); the imperials' and citizens' standing units
(the Emperor, the guards, the militia: ``npcs.place_posts``) guard their posts and go back to them
(``bot_plans.post_month``).

A queue is rewritten only when the month's plan differs from what the unit already carries, so a
half-done ``15 STUDY cmbt 1`` keeps its counter. Press: a signed article and now and then a rumour,
drawn from what the faction did and holds. Every roll is labelled by faction, month, unit and purpose
(``bot_plans.Plan.roll``).
"""

from __future__ import annotations

from typing import Any

from ...core.phases import State
from ...core.rng import stream
from ...engine.ruleset import Game
from . import model as m
from . import titles
from .bot_plans import Plan, band_month, follower_month, hero_month, post_month
from .orders import UNIT

BANDS = ("outlaws", "creatures")  # non-player factions whose bands roam and fight


def orders_for(game: Game, state: State, faction: str) -> dict[str, Any]:
    plan = Plan(game, state, faction)
    record = state["factions"].get(faction) or {}
    player = record.get("kind", "player") == "player"
    aggressive = player and _aggressive(game, faction)
    for unit_id, unit in m.owned(state, faction).items():
        if faction in BANDS:
            if unit.get("stack") is None:
                plan.lines[unit_id] = band_month(plan, unit_id, unit)
        elif not player:
            if unit.get("home"):
                plan.lines[unit_id] = post_month(plan, unit_id, unit)  # a standing unit keeps its post
        elif unit.get("moving"):
            continue  # on the road: its queue carries the rest of the journey (a claim at its end)
        elif m.is_leader(unit) and unit.get("stack") is None:
            plan.lines[unit_id] = hero_month(plan, unit_id, unit, aggressive)
        elif unit.get("race") == "man":
            plan.lines[unit_id] = follower_month(plan, unit_id, unit)
    written: list[dict[str, Any]] = []
    for unit_id, lines in plan.lines.items():
        unit = m.unit(state, unit_id) or {}
        if not _same_plan(lines, list(unit.get("orders") or [])):
            written.append({"action": UNIT, "unit": unit_id, "orders": lines})
    for temporary, lines in plan.new_units.items():
        written.append({"action": UNIT, "unit": temporary, "orders": lines})
    press, rumors = _press(game, state, faction) if player else ([], [])
    return {"orders": written, "press": press, "rumors": rumors}


def _aggressive(game: Game, faction: str) -> bool:
    """A faction's temper, drawn once from the seed and its id: the same all campaign."""
    share = int(game.rules["bot"]["aggressive_percent"])
    return stream(game.seed, f"overlord/bot/{faction}/temper").below(100) < share


def _same_plan(planned: list[str], held: list[str]) -> bool:
    """Whether a unit's queue already does what the plan asks: the same orders, whatever counter a
    half-done line shows now (``11 STUDY cmbt 1`` still is the plan's ``15 STUDY cmbt 1``)."""

    def bare(text: str) -> str:
        head, _, rest = text.partition(" ")
        return rest if head.lstrip("-").isdigit() else text

    return [bare(line) for line in planned] == [bare(line) for line in held]


# --- press -----------------------------------------------------------------------------------------

# A bot's article is printed for every reader of a sealed campaign, so it says nothing private: no unit,
# no place a unit stands, no strength, no coin. What it may name is public: its faction, the month, and the
# titles the faction holds (a title and its place are on every map).
ARTICLES = (
    (
        "{faction} keeps the roads open",
        "{faction} swears that no honest traveller will be troubled on its watch this {month}.",
    ),
    (
        "Word from {faction}",
        "{faction} reports its companies drilled and paid, and warns any band that troubles its friends.",
    ),
    (
        "{faction} speaks",
        "In {month}, {faction} tells the crowds it has enough loyal followers to hold what is its own, and "
        "that more are coming.",
    ),
)
TITLED = (
    "{faction} holds {titles}",
    "{faction} reminds every reader that it holds {titles}, and that it means to keep {them}.",
)
RUMORS = (
    "They say the coffers of {faction} run lower than its captains admit.",
    "A merchant swears he saw riders of {faction} counting swords long after dark.",
    "Some say {faction} pays its followers in promises.",
)


def _press(game: Game, state: State, faction: str) -> tuple[list[dict[str, str]], list[str]]:
    """A signed article most months, and now and then an anonymous rumour about another faction."""
    turn = int(state["turn"])
    numbers = game.rules["bot"]
    mine = m.owned(state, faction)
    hero = next((u for u in mine.values() if m.is_leader(u)), None)  # a faction without a leader writes none
    press: list[dict[str, str]] = []
    rumors: list[str] = []  # a rumour is a short text, unsigned
    if hero is None:
        return press, rumors
    rng = stream(game.seed, f"overlord/bot/{faction}/turn{turn}/press")
    held = [
        f"{titles.title_name(game.rules, tag)} of {game.place_label(place)}"
        for place, record in sorted((state.get("places") or {}).items())
        if isinstance(record.get("title"), dict) and record["title"].get("holder") in mine
        for tag in [record["title"]["tag"]]
    ]
    facts = {
        "faction": game.name_of(faction),
        "month": game.calendar.date(turn).period,
        "titles": ", ".join(held),
        "them": "it" if len(held) == 1 else "them",
    }
    if rng.below(100) < int(numbers["press_chance"]):
        headline, body = rng.choice(list(ARTICLES) + ([TITLED] if held else []))
        press.append({"headline": headline.format(**facts), "body": body.format(**facts)})
    rivals = sorted(
        f
        for f, record in state["factions"].items()
        if f != faction and record.get("kind") == "player" and record.get("status", "active") == "active"
    )
    rumour_rng = stream(game.seed, f"overlord/bot/{faction}/turn{turn}/rumor")
    if rivals and rumour_rng.below(100) < int(numbers["rumor_chance"]):
        text = rumour_rng.choice(list(RUMORS))
        rumors.append(text.format(faction=game.name_of(rumour_rng.choice(rivals))))
    return press, rumors
