"""GM orders: ``orders/gm.yaml`` works the same in every ruleset.

The GM grants and takes stock and items, sets modifiers (for good or for some
turns), places and removes pieces, narrates events, rules on what the rules leave
open, sets relations between factions and brings in a faction mid-campaign. Every
GM order becomes an event, so the archive shows each intervention. In a sealed campaign the event is
told only to the factions it concerns, unless the GM writes ``public: true`` on the order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..core import factions as faction_records
from ..core import relations
from ..core.fields import ActionSpec, Field, choice_hint
from ..core.orders import OrderFile
from ..core.phases import State

if TYPE_CHECKING:
    from .context import TurnContext
    from .ruleset import Game

_FACTION = Field(
    "faction", "text", "The faction concerned, by id or by name.", required=True, names="factions"
)
_VISIBILITY = Field("to", "list", "Factions who see it; leave out for a public event.")
_REASON = Field(
    "reason",
    "text",
    "Why: told in the faction's report and, when the event is public, the chronicle.",
    max_length=400,
)
_TURNS = Field("turns", "int", "How many turns it lasts, this one included; leave out for good.", minimum=1)
_PUBLIC = Field(
    "public",
    "bool",
    "Sealed campaigns: true tells everyone (chronicle, newspaper); left out, only the factions it "
    "concerns hear of it. Open campaigns show every event.",
)


def actions(game: Game) -> dict[str, ActionSpec]:
    stock = game.ruleset.stock_names(game)
    kinds = tuple(game.ruleset.entity_kinds)
    stock_fields = (
        _FACTION,
        Field("resource", "choice", "Which stock.", required=True, choices=stock),
        Field("amount", "int", "How much.", required=True, minimum=1),
        _REASON,
    )
    item_fields = (
        _FACTION,
        Field("item", "text", "The item's name.", required=True),
        Field("count", "int", "How many.", default=1, minimum=1),
        _REASON,
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
                _TURNS,
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
                Field("text", "text", "What happened.", max_length=4000, multiline=True),
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
                Field(
                    "ruling", "text", "The ruling in words, for the chronicle.", required=True, multiline=True
                ),
                Field("grants", "mapping", "The mechanical effect, as the ruleset understands it."),
            ),
            cost="GM",
        ),
    ]
    known = relations.kinds(game.rules)
    if known:
        specs.append(
            ActionSpec(
                "relation",
                "Set the relation of two factions (war, peace, tribute…), for good or for some turns.",
                (
                    Field("faction", "ref", "One faction.", required=True, ref="factions"),
                    Field("other", "ref", "The other faction.", required=True, ref="factions"),
                    Field("kind", "choice", "The relation.", required=True, choices=known),
                    _TURNS,
                    _REASON,
                ),
                cost="GM",
            )
        )
    if game.ruleset.can_add_factions:
        specs.append(
            ActionSpec(
                "add_faction",
                "Bring a new faction into the campaign with its starting pieces (a late joiner, or raiders "
                "the bot plays).",
                (
                    Field("id", "text", "Its new id: lower-case letters, digits and dashes.", required=True),
                    Field("name", "text", "Its name.", required=True, max_length=120),
                    Field("color", "text", "Its colour on the map, e.g. '#7d3c98'.", default="#7d3c98"),
                    Field(
                        "kind",
                        "choice",
                        "Who plays it: a player, or the ruleset's bot (npc).",
                        choices=faction_records.KINDS,
                        default=faction_records.PLAYER,
                    ),
                ),
                cost="GM",
            )
        )
    # Every GM order, a ruleset's own included, says whether a sealed campaign publishes it.
    return {s.name: replace(s, fields=(*s.fields, _public_field(s.name))) for s in specs}


def _public_field(action: str) -> Field:
    if action == "narrate":  # a narration says who reads it in 'to': everyone when it is left out
        return Field("public", "bool", "True: everyone reads it; the same as leaving out 'to'.")
    return _PUBLIC


def examples(game: Game, state: State) -> list[dict[str, Any]]:
    """One example of every GM order for the GM's template, naming this campaign's own factions, stocks
    and pieces so each example reads as something the GM could send."""
    faction = game.factions[0] if game.factions else "FACTION"
    stock = next(iter(game.ruleset.stock_names(game)), "STOCK")
    kind, piece_id, piece = next(
        (
            (kind, pid, dict(data))
            for kind, collection in game.ruleset.entity_kinds.items()
            for pid, data in sorted(state.get(collection, {}).items())
        ),
        ("KIND", "ID", {}),
    )
    piece = placeable_copy(game, piece, f"{piece_id}-gm")
    judged, subjects = next(
        ((f, found) for f in game.factions if (found := game.ruleset.judgement_subjects(game, state, f))),
        (faction, []),
    )
    narrate: dict[str, Any] = {"action": "narrate", "headline": "A storm comes in from the sea"}
    narrate["text"] = "Roads flood and the harvest is late."
    if piece.get("location") in game.world:  # a piece may stand inside a location (a factions' locale)
        narrate["place"] = piece["location"]
    other = game.factions[1] if len(game.factions) > 1 else faction
    extra: list[dict[str, Any]] = []
    if relations.kinds(game.rules):
        relation = relations.kinds(game.rules)[-1]
        extra.append(
            {
                "action": "relation",
                "faction": faction,
                "other": other,
                "kind": relation,
                "turns": 4,
                "reason": "Terms of the peace",
            }
        )
    if game.ruleset.can_add_factions:
        extra.append({"action": "add_faction", "id": "raiders", "name": "The Raiders", "kind": "npc"})
    return [
        {"action": "grant", "faction": faction, "resource": stock, "amount": 5,
         "reason": "A salt caravan pays tribute"},
        {"action": "take", "faction": faction, "resource": stock, "amount": 2,
         "reason": "Floods spoil the stores"},
        {"action": "give_item", "faction": faction, "item": "silver chalice", "count": 1,
         "reason": "Found in the old crypt"},
        {"action": "take_item", "faction": faction, "item": "silver chalice",
         "reason": "Stolen in the night"},
        {"action": "modifier", "target": faction, "name": "defence", "value": 1},
        {"action": "place", "kind": kind, "id": f"{piece_id}-gm", "data": piece},
        {"action": "remove", "kind": kind, "id": piece_id},
        narrate,
        {"action": "narrate", "headline": "A secret letter", "text": "Only its reader knows what it says.",
         "to": [faction]},
        # Only something that awaits a ruling can be ruled on: without one, the example would be refused.
        *([_judge_example(game, state, judged, subjects[0])] if subjects else []),
        *extra,
    ]  # fmt: skip


def _judge_example(game: Game, state: State, faction: str, subject: str) -> dict[str, Any]:
    order = {"action": "judge", "faction": faction, "subject": subject}
    order["ruling"] = "What the GM decides, in words for the chronicle"
    grants = game.ruleset.judgement_example(game, state, faction, subject)
    return {**order, "grants": grants} if grants else order


def placeable_copy(game: Game, piece: Mapping[str, Any], new_id: str) -> dict[str, Any]:
    """A real piece made into one the GM could place beside it, for the template's example: kept short
    (one element of each list, an army's first unit, say), each part with an id of its own, and without
    the fields that name a record only one piece may have (``Ruleset.unshared_fields``)."""
    copied: dict[str, Any] = {}
    for key, value in piece.items():
        if key == "id" or key in game.ruleset.unshared_fields:
            continue
        if isinstance(value, list):
            value = [
                {**item, "id": f"{new_id}-{number}"} if isinstance(item, dict) and "id" in item else item
                for number, item in enumerate(value[:1], 1)
            ]
        copied[key] = value
    return copied


def awaiting_rulings(game: Game, state: State) -> list[str]:
    """What each faction has that the GM may rule on with ``judge`` this turn, one line a faction."""
    lines = []
    for faction in game.factions:
        if not faction_records.is_active(state, faction):
            continue
        subjects = game.ruleset.judgement_subjects(game, state, faction)
        if subjects:
            lines.append(f"{faction} ({game.name_of(faction)}): {', '.join(subjects)}")
    return lines


_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


def _find_piece(game: Game, state: State, kind: str, piece: str) -> Mapping[str, Any] | None:
    collection = game.ruleset.entity_kinds.get(kind, "")
    return state.get(collection, {}).get(piece)


def unstorable(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Where data read from YAML holds what the state cannot: the canonical writer takes plain
    text, whole numbers, finite numbers, booleans, null, lists and mappings, nothing else."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from unstorable(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from unstorable(item, (*path, index))
    elif isinstance(value, float) and not math.isfinite(value):
        yield path, f"{value!r} is not a number the state can hold"
    elif value is not None and not isinstance(value, str | int | float):
        yield path, f"{value!s} is a {type(value).__name__}, which the state cannot hold; quote it as text"


class Pieces:
    """The pieces on the map as the GM's file unfolds: the GM phase carries out the orders one after the
    other, so each order is checked against what the orders above it leave (a piece removed by one is
    gone for the next, a piece placed by one is there for the next)."""

    def __init__(self, game: Game, state: State) -> None:
        self.kinds = game.ruleset.entity_kinds
        self.present = {kind: set(state.get(collection, {})) for kind, collection in self.kinds.items()}
        self.removed_by: dict[tuple[str, str], int] = {}  # (kind, id) -> the order that removes it
        self.placed_by: dict[tuple[str, str], int] = {}

    def exists(self, kind: str, piece: str) -> bool:
        return piece in self.present.get(kind, set())

    def any_kind(self, piece: str) -> str | None:
        return next((kind for kind in self.kinds if self.exists(kind, piece)), None)

    def removed(self, piece: str) -> int | None:
        """The order of the file that removed this piece (asked of a piece that is not there now)."""
        return next((number for (_, pid), number in self.removed_by.items() if pid == piece), None)

    def place(self, kind: str, piece: str, number: int) -> None:
        self.present.setdefault(kind, set()).add(piece)
        self.placed_by[(kind, piece)] = number

    def remove(self, kind: str, piece: str, number: int) -> None:
        self.present.get(kind, set()).discard(piece)
        self.removed_by[(kind, piece)] = number


def check(game: Game, state: State, of: OrderFile) -> None:
    """Semantic checks of the GM's file, run by both ``check`` and ``resolve``: as strict as a player's,
    so that a file the check accepts is one the GM phase carries out."""
    factions = list(game.factions)
    joining: list[str] = []  # factions added by earlier orders of this file
    pieces = Pieces(game, state)
    ruled: dict[tuple[str, str], int] = {}  # (faction, subject) -> the order that rules on it
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
            if target not in state["factions"] and pieces.any_kind(target) is None:
                gone = pieces.removed(target)
                if gone is not None:
                    of.error(
                        o,
                        "target",
                        f"order {gone} removes '{target}' before this one, so nothing is left to modify",
                        "set the modifier before the remove order, or drop it",
                    )
                else:
                    of.error(
                        o, "target", f"no faction or piece is called '{target}'", "use a faction or piece id"
                    )
            elif o.get("turns") and not o["value"]:
                of.error(o, "turns", "a modifier of 0 is removed at once, so it cannot last", "drop turns")
        elif o.action == "place":
            if pieces.exists(o["kind"], o["id"]):
                earlier = pieces.placed_by.get((o["kind"], o["id"]))
                said = (
                    f"order {earlier} places a {o['kind']} '{o['id']}' already"
                    if earlier
                    else (f"there is already a {o['kind']} '{o['id']}'")
                )
                of.error(o, "id", said, "choose a new id")
            bad = list(unstorable(o["data"]))
            for where, problem in bad:
                of.error(o, ("data", *where), problem, "write a whole number, or text in quotes")
            if not bad:
                for problem in game.ruleset.check_entity(o["kind"], o["data"], game, state):
                    of.error(o, "data", problem, f"correct the {o['kind']}'s fields under 'data'")
            pieces.place(o["kind"], o["id"], o.number)
        elif o.action == "remove":
            if not pieces.exists(o["kind"], o["id"]):
                earlier = pieces.removed_by.get((o["kind"], o["id"]))
                said = (
                    f"order {earlier} removes {o['kind']} '{o['id']}' already"
                    if earlier
                    else (f"there is no {o['kind']} '{o['id']}'")
                )
                of.error(o, "id", said, "drop this order" if earlier else "check the id in the state")
            pieces.remove(o["kind"], o["id"], o.number)
        elif o.action == "narrate":
            for f in o.get("to", []):
                if f not in factions:
                    of.error(o, "to", f"unknown faction '{f}'", choice_hint(f, factions))
            if o.get("to") and o.get("public"):
                of.error(
                    o, "public", "a narration told to some factions is not public", "drop 'public' or 'to'"
                )
            elif not o.get("to") and o.get("public") is False:
                of.error(
                    o,
                    "public",
                    "a narration without 'to' is read by everyone",
                    "to tell some factions only, list them under 'to'",
                )
            if o.get("place") and o["place"] not in game.world:
                of.error(o, "place", f"no location is called '{o['place']}'")
        elif o.action == "relation":
            if o["faction"] == o["other"]:
                of.error(o, "other", "a relation joins two different factions", "name another faction")
        elif o.action == "add_faction":
            taken = faction_records.id_problem(o["id"], [*state["factions"], *joining])
            joining.append(o["id"])
            for problem in [taken] if taken else game.ruleset.join_problems(game, state, o["id"]):
                of.error(
                    o, "id", problem, "choose another id" if taken else "make room first, or wait a turn"
                )
            if not _COLOR.fullmatch(o["color"]):
                of.error(o, "color", f"'{o['color']}' is not a colour", "write '#' and six hex digits")
        elif o.action == "judge":
            subjects = game.ruleset.judgement_subjects(game, state, o["faction"])
            if o["subject"] not in subjects:
                hint = choice_hint(o["subject"], subjects) if subjects else "nothing is waiting for a ruling"
                of.error(o, "subject", f"nothing of {o['faction']} awaits a ruling on '{o['subject']}'", hint)
            for problem in game.ruleset.judgement_problems(game, o["subject"], o.get("grants") or {}):
                of.error(o, "grants", problem)
            earlier = ruled.setdefault((o["faction"], o["subject"]), o.number)
            if earlier != o.number:
                of.error(o, "subject", f"order {earlier} rules on it already", "write one ruling for it")
        told = "; told to everyone in a sealed campaign" if o.get("public") and o.action != "narrate" else ""
        of.echo[o.number] = sentence(game, state, o.args) + told


def sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    """A GM order in words, as the check echoes it: what the GM will do, to whom, and why."""
    action = order["action"]
    who = f"{game.name_of(order['faction'])} ({order['faction']})" if "faction" in order else ""
    why = f": {order['reason']}" if order.get("reason") else ""
    if action in ("grant", "take", "give_item", "take_item"):
        giving = action in ("grant", "give_item")
        what = (
            f"{order['amount']} {order['resource']}"
            if "amount" in order
            else f"{order['count']} × {order['item']}"
        )
        return f"{'give' if giving else 'take'} {what} {'to' if giving else 'from'} {who}{why}"
    if action == "modifier":
        if not order["value"]:
            return f"remove the modifier '{order['name']}' from {order['target']}"
        lasting = f" for {order['turns']} turn(s)" if order.get("turns") else ""
        return f"set the modifier '{order['name']}' of {order['target']} to {order['value']:+d}{lasting}"
    if action == "relation":
        lasting = f" for {order['turns']} turn(s)" if order.get("turns") else ""
        pair = f"{game.name_of(order['faction'])} and {game.name_of(order['other'])}"
        return f"set the relation of {pair} to {order['kind']}{lasting}{why}"
    if action == "add_faction":
        played = "played by the bot" if order.get("kind") == faction_records.NPC else "for a player"
        return f"bring in {order['name']} ({order['id']}), {played}, with its starting pieces"
    if action == "place":
        data = order["data"]
        # The echo also describes refused orders, whose fields may be of any type.
        location, owner_id = data.get("location"), data.get("owner")
        where = f" at {game.place_label(location)}" if isinstance(location, str) and location else ""
        owner = f" for {game.name_of(owner_id)}" if isinstance(owner_id, str) and owner_id else ""
        return f"place {order['kind']} '{order['id']}'{where}{owner}"
    if action == "remove":
        piece = _find_piece(game, state, order["kind"], order["id"]) or {}
        known = [str(piece[k]) for k in ("name",) if piece.get(k)]
        if piece.get("location"):
            known.append(f"at {game.place_label(piece['location'])}")
        return f"remove {order['kind']} '{order['id']}'" + (f" ({' '.join(known)})" if known else "")
    if action == "narrate":
        seen = ", ".join(game.name_of(f) for f in order.get("to") or []) or "everyone"
        where = f" at {game.place_label(order['place'])}" if order.get("place") else ""
        return f"tell the chronicle “{order['headline']}”{where}, seen by {seen}"
    return f"rule on {order['subject']} for {who}: {order['ruling']}"  # judge


def audience(ctx: TurnContext, order: Mapping[str, Any], concerned: Iterable[str]) -> list[str] | None:
    """Who hears of a GM order: everyone in an open campaign, whose state is public anyway; in a sealed
    one the factions it concerns (none: the GM alone), unless the GM wrote ``public: true``."""
    if not ctx.sealed or order.get("public"):
        return None
    return sorted(set(concerned))


def owners(state: State, piece: Mapping[str, Any]) -> list[str]:
    """The factions a piece concerns: the one that owns it, and the one that holds it (a location)."""
    return sorted(
        {str(piece[key]) for key in ("owner", "holder") if isinstance(piece.get(key), str)}
        & set(state["factions"])
    )


def tell_of_piece(
    ctx: TurnContext,
    order: Mapping[str, Any],
    kind: str,
    concerned: list[str],
    *,
    concealed: bool,
    actors: Iterable[str] = (),
    place: str | None = None,
    **data: Any,
) -> None:
    """A GM event about one piece. Nothing public may name a concealed piece or say where it is, even
    when the GM makes the order public: its owners hear the whole of it, everyone else only that the
    GM did this to a hidden piece."""
    told = audience(ctx, order, concerned)
    if not (concealed and told is None):
        ctx.emit(kind, actors=actors, place=place, visible_to=told, **data)
        return
    ctx.emit(kind, actors=actors, place=place, visible_to=concerned, **data)
    unnamed = {key: value for key, value in data.items() if key not in ("id", "target")}
    ctx.emit(kind, actors=actors, concealed=True, **unnamed)


def is_concealed(ctx: TurnContext, state: State, piece: str) -> bool:
    """Whether a sealed campaign's piece is concealed (an open campaign conceals nothing from anyone)."""
    return ctx.sealed and piece in ctx.game.ruleset.concealed_pieces(state)


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
                visible_to=audience(ctx, a, [a["faction"]]),
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
            # Older archives have no reason on item events; one is recorded only when the GM gave it.
            why = {"reason": a["reason"]} if a.get("reason") else {}
            ctx.emit(
                f"gm_{o.action}",
                actors=[a["faction"]],
                visible_to=audience(ctx, a, [a["faction"]]),
                faction=a["faction"],
                item=a["item"],
                count=count,
                **why,
            )
        elif o.action == "modifier":
            collection = next(
                c
                for c in ("factions", *game.ruleset.entity_kinds.values())
                if a["target"] in state.get(c, {})
            )
            holder = state[collection][a["target"]]
            concerned = [a["target"]] if collection == "factions" else owners(state, holder)
            told = audience(ctx, a, concerned)
            # A new setting replaces the old one and its timer; a timed one starts its own.
            relations.drop_effect(state, collection, a["target"], a["name"])
            mods = holder.setdefault("modifiers", {})
            if a.get("turns"):
                effect = relations.add_effect(
                    state, collection, a["target"], a["name"], a["value"], ctx.turn, a["turns"]
                )
                if told is not None:  # those who were told of it alone see it, and hear when it ends
                    effect[relations.SEEN_BY] = told
                timed = {"until": effect["until"]}
            elif a["value"]:
                mods[a["name"]] = a["value"]
                timed = {}
            else:
                mods.pop(a["name"], None)
                timed = {}
            tell_of_piece(
                ctx,
                a,
                "gm_modifier",
                concerned,
                concealed=is_concealed(ctx, state, a["target"]),
                target=a["target"],
                name=a["name"],
                value=a["value"],
                **timed,
            )
        elif o.action == "relation":
            entry = relations.set_relation(
                state, game.rules, a["faction"], a["other"], a["kind"], ctx.turn, a.get("turns")
            )
            ctx.emit(
                "gm_relation",
                actors=sorted((a["faction"], a["other"])),
                visible_to=audience(ctx, a, [a["faction"], a["other"]]),
                relation=a["kind"],
                until=(entry or {}).get("until", 0),
                reason=a.get("reason", ""),
            )
        elif o.action == "add_faction":
            what = game.ruleset.join_faction(game, state, a["id"], a["name"], a["color"], a["kind"])
            ctx.emit(
                "gm_add_faction",
                actors=[a["id"]],
                visible_to=audience(ctx, a, [a["id"]]),
                faction=a["id"],
                name=a["name"],
                played_by=a["kind"],
                pieces=what,
            )
        elif o.action == "place":
            piece = dict(a["data"], id=a["id"])
            state.setdefault(game.ruleset.entity_kinds[a["kind"]], {})[a["id"]] = piece
            tell_of_piece(
                ctx,
                a,
                "gm_place",
                owners(state, piece),
                concealed=is_concealed(ctx, state, a["id"]),
                actors=[piece["owner"]] if piece.get("owner") else [],
                place=piece.get("location"),
                what=a["kind"],
                id=a["id"],
            )
        elif o.action == "remove":
            concealed = is_concealed(ctx, state, a["id"])
            piece = state[game.ruleset.entity_kinds[a["kind"]]].pop(a["id"])
            tell_of_piece(
                ctx,
                a,
                "gm_remove",
                owners(state, piece),
                concealed=concealed,
                place=piece.get("location"),
                what=a["kind"],
                id=a["id"],
            )
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
                visible_to=audience(ctx, a, [a["faction"]]),
                faction=a["faction"],
                subject=a["subject"],
                ruling=a["ruling"],
                effect=ruling,
            )
    return state
