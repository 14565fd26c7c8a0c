"""The factions ruleset's own GM orders and items, which the engine's GM module takes through its hook.

``items`` names the items the rules define (``rules.yaml``'s ``items``): the GM may still give any
keepsake, but the check warns when a given item is none of them, and the GM's template offers one.
``ORDERS`` adds ``hand_over``: the city's locations change hands by deeds (claim, raid), and the GM
needs a way to settle a holding the rules leave open.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.fields import Field, choice_hint
from ...core.orders import Order
from ...core.phases import State
from ...engine.context import TurnContext
from ...engine.gm import GmOrder, GmReading, audience
from ...engine.ruleset import Game
from . import model as m


def items(game: Game) -> tuple[str, ...]:
    return tuple(sorted(game.rules.get("items") or {}))


def _hand_over_fields(game: Game) -> tuple[Field, ...]:
    return (
        Field("location", "text", "The location's id, e.g. p-beldale/manor.", required=True),
        Field(
            "holder",
            "text",
            "Who holds it from now on: a faction, or one of the city's own powers (npc_factions); "
            "leave out for nobody.",
        ),
        Field("reason", "text", "Why, for those who hear of it.", max_length=400),
    )


def _holders(game: Game) -> list[str]:
    """Who may hold a location: the campaign's factions, then the city's own powers."""
    return [*game.factions, *sorted(game.rules.get("npc_factions") or {})]


def _read_hand_over(reading: GmReading, order: Order) -> Mapping[str, Any]:
    location, holder = order["location"], order.get("holder")
    if not reading.pieces.exists("location", location):
        gone = reading.pieces.removed(location)
        reading.refuse(
            "location",
            f"order {gone} removes location '{location}' before this one"
            if gone is not None
            else f"there is no location '{location}'",
            "hand it over before removing it" if gone is not None else "use a location id from the state",
        )
    elif holder is not None and reading.state["locations"].get(location, {}).get("holder") == holder:
        reading.warn("holder", f"'{holder}' holds '{location}' already", "drop this order")
    if holder is not None and holder not in _holders(reading.game):
        reading.refuse("holder", f"nobody is called '{holder}'", choice_hint(holder, _holders(reading.game)))
    return order.args


def _holder_name(game: Game, holder: str | None) -> str:
    if not holder:
        return "nobody"
    if m.is_npc(game.rules, holder):
        return m.npc_name(game.rules, holder)
    return game.name_of(holder)


def _hand_over_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    location = str(order["location"])
    label = m.location_label(state, location) if location in state.get("locations", {}) else location
    why = f": {order['reason']}" if order.get("reason") else ""
    return f"hand {label} ({location}) to {_holder_name(game, order.get('holder'))}{why}"


def _apply_hand_over(ctx: TurnContext, state: State, a: Mapping[str, Any]) -> None:
    location = state["locations"][a["location"]]
    was, holder = location.get("holder"), a.get("holder")
    location["holder"] = holder
    # The factions that gain or lose it are concerned; the city's own powers read no reports.
    concerned = [f for f in (was, holder) if f in state["factions"]]
    ctx.emit(
        "gm_hand_over",
        actors=[holder] if holder in state["factions"] else [],
        place=location.get("locale"),
        visible_to=audience(ctx, a, concerned),
        location=a["location"],
        location_name=str(location["name"]),
        holder=holder or "",
        holder_name=_holder_name(ctx.game, holder),
        was_name=_holder_name(ctx.game, was),
        reason=a.get("reason", ""),
    )


def _hand_over_examples(game: Game, state: State) -> list[dict[str, Any]]:
    location = next(iter(sorted(state.get("locations", {}))), "LOCATION")
    faction = game.factions[0] if game.factions else "FACTION"
    return [{"action": "hand_over", "location": location, "holder": faction, "reason": "A debt is settled"}]


ORDERS = (
    GmOrder(
        "hand_over",
        "Hand a location to a faction or to one of the city's own powers, or leave it to nobody.",
        _hand_over_fields,
        _read_hand_over,
        _hand_over_sentence,
        _apply_hand_over,
        _hand_over_examples,
    ),
)
