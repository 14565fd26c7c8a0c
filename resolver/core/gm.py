"""GM orders: ``orders/gm.yaml`` works the same in every ruleset.

The GM grants and takes stock and items, sets modifiers, places and removes
pieces, narrates events and rules on what the rules leave open. Every GM order
becomes an event, so the archive shows each intervention.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .fields import ActionSpec, Field, choice_hint
from .orders import OrderFile
from .phases import State

if TYPE_CHECKING:
    from ..engine import TurnContext
    from ..ruleset import Game

_FACTION = Field("faction", "text", "The faction concerned.", required=True)
_VISIBILITY = Field("to", "list", "Factions who see it; leave out for a public event.")


def actions(game: Game) -> dict[str, ActionSpec]:
    stock = game.ruleset.stock_names(game)
    kinds = tuple(game.ruleset.entity_kinds)
    stock_fields = (
        _FACTION,
        Field("resource", "choice", "Which stock.", required=True, choices=stock),
        Field("amount", "int", "How much.", required=True, minimum=1),
        Field("reason", "text", "Why, for the chronicle."),
    )
    item_fields = (
        _FACTION,
        Field("item", "text", "The item's name.", required=True),
        Field("count", "int", "How many.", default=1, minimum=1),
    )
    specs = [
        ActionSpec(
            "grant", "Give a faction some of a stock (resources, population…).", stock_fields, cost="GM"
        ),
        ActionSpec(
            "take", "Take some of a faction's stock away (never below zero).", stock_fields, cost="GM"
        ),
        ActionSpec("give_item", "Give a faction an item.", item_fields, cost="GM"),
        ActionSpec("take_item", "Take an item from a faction.", item_fields, cost="GM"),
        ActionSpec(
            "modifier",
            "Set a named modifier on a faction or a piece (0 removes it).",
            (
                Field("target", "text", "A faction id or a piece id.", required=True),
                Field("name", "text", "The modifier, e.g. attack, defence, income.", required=True),
                Field("value", "int", "Its value.", required=True),
            ),
            cost="GM",
        ),
        ActionSpec(
            "place",
            "Put a piece on the map (an army, a settlement…).",
            (
                Field("kind", "choice", "What kind of piece.", required=True, choices=kinds),
                Field("id", "text", "A new, unique id.", required=True),
                Field("data", "mapping", "The piece's fields, as the ruleset stores them.", required=True),
            ),
            cost="GM",
        ),
        ActionSpec(
            "remove",
            "Take a piece off the map.",
            (
                Field("kind", "choice", "What kind of piece.", required=True, choices=kinds),
                Field("id", "text", "The piece's id.", required=True),
            ),
            cost="GM",
        ),
        ActionSpec(
            "narrate",
            "Tell of an event in the chronicle.",
            (
                Field("headline", "text", "A short title.", required=True, max_length=120),
                Field("text", "text", "What happened.", max_length=4000),
                Field("place", "text", "Where (a location id)."),
                _VISIBILITY,
            ),
            cost="GM",
        ),
        ActionSpec(
            "judge",
            "Rule on something the rules leave to the GM, e.g. what an advancement grants.",
            (
                _FACTION,
                Field("subject", "text", "What is ruled on, e.g. advancement:irrigation.", required=True),
                Field("ruling", "text", "The ruling in words, for the chronicle.", required=True),
                Field("grants", "mapping", "The mechanical effect, as the ruleset understands it."),
            ),
            cost="GM",
        ),
    ]
    return {s.name: s for s in specs}


def _find_piece(game: Game, state: State, kind: str, piece: str) -> Mapping[str, Any] | None:
    collection = game.ruleset.entity_kinds.get(kind, "")
    return state.get(collection, {}).get(piece)


def check(game: Game, state: State, of: OrderFile) -> None:
    """Semantic checks of the GM's file, run by both ``check`` and ``resolve``."""
    factions = list(game.factions)
    for o in of.orders:
        if "faction" in o.args and o["faction"] not in factions:
            of.error(o, "faction", f"unknown faction '{o['faction']}'", choice_hint(o["faction"], factions))
            continue
        if o.action == "take":
            account, key = game.ruleset.stock_account(state, o["faction"], o["resource"])
            have = account.get(key, 0)
            if have < o["amount"]:
                of.warn(
                    o,
                    "amount",
                    f"{o['faction']} has only {have} {o['resource']}; the take stops at zero",
                    f"take at most {have}, or leave it if emptying the stock is what you mean",
                )
        elif o.action == "modifier":
            target = o["target"]
            if target not in state["factions"] and not any(
                target in state.get(c, {}) for c in game.ruleset.entity_kinds.values()
            ):
                of.error(
                    o, "target", f"no faction or piece is called '{target}'", "use a faction or piece id"
                )
        elif o.action == "place":
            if _find_piece(game, state, o["kind"], o["id"]) is not None:
                of.error(o, "id", f"there is already a {o['kind']} '{o['id']}'", "choose a new id")
            for problem in game.ruleset.check_entity(o["kind"], o["data"], game, state):
                of.error(o, "data", problem)
        elif o.action == "remove":
            if _find_piece(game, state, o["kind"], o["id"]) is None:
                of.error(o, "id", f"there is no {o['kind']} '{o['id']}'", "check the id in the state")
        elif o.action == "narrate":
            for f in o.get("to", []):
                if f not in factions:
                    of.error(o, "to", f"unknown faction '{f}'", choice_hint(f, factions))
            if o.get("place") and o["place"] not in game.world:
                of.error(o, "place", f"no location is called '{o['place']}'")
        elif o.action == "judge":
            subjects = game.ruleset.judgement_subjects(game, state, o["faction"])
            if o["subject"] not in subjects:
                hint = choice_hint(o["subject"], subjects) if subjects else "nothing is waiting for a ruling"
                of.error(o, "subject", f"nothing of {o['faction']} awaits a ruling on '{o['subject']}'", hint)
            for problem in game.ruleset.judgement_problems(game, o["subject"], o.get("grants") or {}):
                of.error(o, "grants", problem)
        of.echo[o.number] = f"GM {o.action}: " + ", ".join(
            f"{k}={v}" for k, v in o.args.items() if k != "action"
        )


def run_phase(ctx: TurnContext, state: State) -> State:
    of = ctx.gm_orders
    if of is None:
        return state
    game = ctx.game
    for o in of.orders:
        a = o.args
        if o.action in ("grant", "take"):
            stock, key = game.ruleset.stock_account(state, a["faction"], a["resource"])
            have = stock.get(key, 0)
            amount = a["amount"] if o.action == "grant" else min(a["amount"], have)
            stock[key] = have + amount if o.action == "grant" else have - amount
            ctx.emit(
                f"gm_{o.action}",
                actors=[a["faction"]],
                faction=a["faction"],
                resource=a["resource"],
                amount=amount,
                reason=a.get("reason", ""),
            )
        elif o.action in ("give_item", "take_item"):
            items = state["factions"][a["faction"]].setdefault("items", {})
            have = items.get(a["item"], 0)
            count = a["count"] if o.action == "give_item" else min(a["count"], have)
            items[a["item"]] = have + count if o.action == "give_item" else have - count
            if not items[a["item"]]:
                del items[a["item"]]
            ctx.emit(
                f"gm_{o.action}", actors=[a["faction"]], faction=a["faction"], item=a["item"], count=count
            )
        elif o.action == "modifier":
            target = state["factions"].get(a["target"]) or next(
                state[c][a["target"]]
                for c in game.ruleset.entity_kinds.values()
                if a["target"] in state.get(c, {})
            )
            mods = target.setdefault("modifiers", {})
            if a["value"]:
                mods[a["name"]] = a["value"]
            else:
                mods.pop(a["name"], None)
            ctx.emit("gm_modifier", target=a["target"], name=a["name"], value=a["value"])
        elif o.action == "place":
            piece = dict(a["data"], id=a["id"])
            state.setdefault(game.ruleset.entity_kinds[a["kind"]], {})[a["id"]] = piece
            ctx.emit(
                "gm_place",
                actors=[piece["owner"]] if piece.get("owner") else [],
                place=piece.get("location"),
                what=a["kind"],
                id=a["id"],
            )
        elif o.action == "remove":
            piece = state[game.ruleset.entity_kinds[a["kind"]]].pop(a["id"])
            ctx.emit("gm_remove", place=piece.get("location"), what=a["kind"], id=a["id"])
        elif o.action == "narrate":
            ctx.emit(
                "gm_narrate",
                place=a.get("place"),
                visible_to=a.get("to") or None,
                headline=a["headline"],
                text=a.get("text", ""),
            )
        elif o.action == "judge":
            ruling = game.ruleset.apply_judgement(
                game, state, a["faction"], a["subject"], a.get("grants") or {}
            )
            ctx.emit(
                "gm_judgement",
                actors=[a["faction"]],
                faction=a["faction"],
                subject=a["subject"],
                ruling=a["ruling"],
                effect=ruling,
            )
    return state
