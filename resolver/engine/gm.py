"""GM orders: ``orders/gm.yaml`` works the same in every ruleset.

The GM grants and takes stock and items, sets modifiers (for good or for some
turns), places and removes pieces, narrates events, rules on what the rules leave
open, sets relations between factions and brings in a faction mid-campaign. Every
GM order becomes an event, so the archive shows each intervention. In a sealed campaign the event is
told only to the factions it concerns, unless the GM writes ``public: true`` on the order.

Each order is one ``GmOrder``: its fields, one reading that both ``campaign check`` and the GM phase run
(so the check cannot accept what the phase refuses), its echo in words, its effect and its examples for
the GM's template. ``orders(game)`` is the table of them: the engine's own, then the ruleset's, which a
ruleset package declares in a ``gm`` module (``ORDERS``, and ``items`` for the items its rules define).
"""

from __future__ import annotations

import copy
import math
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core import factions as faction_records
from ..core import relations
from ..core.fields import ActionSpec, Field, choice_hint
from ..core.issues import CampaignError
from ..core.orders import FieldPath, Order, OrderFile
from ..core.phases import State
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
# A narration says who reads it in 'to': everyone when it is left out.
_NARRATION_PUBLIC = Field("public", "bool", "True: everyone reads it; the same as leaving out 'to'.")
_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


class Refusal(NamedTuple):
    """What a reading finds wrong with an order: the field, the problem, and how to fix it."""

    field: FieldPath
    message: str
    hint: str = ""


class GmOrderRefused(CampaignError):
    """A GM order the phase cannot carry out as things stand. The check runs the same reading and
    refuses the file first, so this is met only when the state changed under a checked file; the turn
    is then not resolved, and the GM is told which order and why."""


Examples = Callable[[Game, State], list[dict[str, Any]]]


def _no_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return []


def _always(game: Game) -> bool:
    return True


@dataclass(frozen=True)
class GmOrder:
    """One GM order, whole: what the GM writes (``fields``), the one reading of it into a plan that
    both the check and the GM phase run (``read``, which tells what is wrong through the reading), its
    echo in words (``sentence``), what it does (``apply``, given the plan) and the template's examples.
    ``offered`` says whether a campaign has it at all (relations only where the rules define some)."""

    name: str
    summary: str
    fields: Callable[[Game], tuple[Field, ...]]
    read: Callable[[GmReading, Order], Any]
    sentence: Callable[[Game, State, Mapping[str, Any]], str]
    apply: Callable[[TurnContext, State, Any], None]
    examples: Examples = _no_examples
    offered: Callable[[Game], bool] = _always
    public: Field = _PUBLIC  # how the order's 'public' field reads

    def spec(self, game: Game) -> ActionSpec:
        # Every GM order, a ruleset's own included, says whether a sealed campaign publishes it.
        return ActionSpec(self.name, self.summary, (*self.fields(game), self.public), cost="GM")

    def told_everyone(self, order: Mapping[str, Any]) -> bool:
        """Whether the echo adds that a sealed campaign tells everyone (a narration says so itself)."""
        return bool(order.get("public")) and self.public is _PUBLIC


class GmReading:
    """The GM's file read order by order against one state: the state before the turn when checking
    (``checked`` is the file), the live state when the GM phase carries the orders out. The phase
    carries out one order after the other, so each is read against what the orders above it leave: a
    piece removed by one is gone for the next, a faction brought in by one is taken for the next."""

    def __init__(self, game: Game, state: State, checked: OrderFile | None = None) -> None:
        self.game, self.state, self.checked = game, state, checked
        self.factions = list(game.factions)
        self.joining: list[str] = []  # factions brought in by earlier orders of this file
        self.pieces = Pieces(game, state)
        self.ruled: dict[tuple[str, str], int] = {}  # (faction, subject) -> the order that rules on it
        self.order: Order | None = None  # the order being read
        self.refusals: list[Refusal] = []

    def refuse(self, field: FieldPath, message: str, hint: str = "") -> None:
        """Something that keeps the order from being carried out; the reading goes on, so that the
        GM hears of every problem of the order at once."""
        self.refusals.append(Refusal(field, message, hint))

    def warn(self, field: FieldPath, message: str, hint: str) -> None:
        """Something the GM should know of an order that stands; at run time nobody is told."""
        if self.checked is not None:
            self.checked.warn(self.order, field, message, hint)

    def names_unknown_faction(self, order: Order) -> bool:
        return "faction" in order.args and order["faction"] not in self.factions

    def plan(self, unit: GmOrder, order: Order) -> tuple[Any, list[Refusal]]:
        """The order's plan, and what is wrong with it (nothing, for an order that can be carried out).
        An order for a faction that is not there is read no further."""
        self.order, self.refusals = order, []
        if self.names_unknown_faction(order):
            unknown = f"unknown faction '{order['faction']}'"
            return None, [Refusal("faction", unknown, choice_hint(order["faction"], self.factions))]
        return unit.read(self, order), self.refusals


class _Memo:
    """One value per Game, made once. A Game is a frozen dataclass holding dicts, so it cannot be
    hashed: the memo is keyed by identity and forgets a Game when it is collected."""

    def __init__(self, make: Callable[[Game], Any]) -> None:
        self.make = make
        self.made: dict[int, Any] = {}

    def __call__(self, game: Game) -> Any:
        key = id(game)
        if key not in self.made:
            self.made[key] = self.make(game)
            weakref.finalize(game, self.made.pop, key, None)
        return self.made[key]


def _build_table(game: Game) -> dict[str, GmOrder]:
    declared = game.ruleset.module("gm").ORDERS if game.ruleset.has_module("gm") else ()
    table: dict[str, GmOrder] = {}
    for unit in (*ENGINE_ORDERS, *declared):
        if unit.name in table:
            raise ValueError(f"the {game.ruleset.id} ruleset declares the GM order '{unit.name}' twice")
        if unit.offered(game):
            table[unit.name] = unit
    return table


_orders = _Memo(_build_table)
_actions = _Memo(lambda game: {name: unit.spec(game) for name, unit in orders(game).items()})


def orders(game: Game) -> dict[str, GmOrder]:
    """The GM's orders in this campaign, by name: the engine's, then the ruleset's (its ``gm`` module's
    ``ORDERS``), built once per Game: every order file checked (a replay checks thousands) needs them."""
    return dict(_orders(game))


def actions(game: Game) -> dict[str, ActionSpec]:
    """The GM's orders as the order files, the template and the schema show them."""
    return dict(_actions(game))


def ruleset_items(game: Game) -> tuple[str, ...]:
    """The items the ruleset's rules define (its ``gm`` module's ``items``), none when it defines none."""
    if not game.ruleset.has_module("gm"):
        return ()
    named = getattr(game.ruleset.module("gm"), "items", None)
    return tuple(named(game)) if named else ()


def check(game: Game, state: State, of: OrderFile) -> None:
    """Semantic checks of the GM's file, run by both ``check`` and ``resolve``: as strict as a player's,
    so that a file the check accepts is one the GM phase carries out."""
    table = orders(game)
    reading = GmReading(game, state, checked=of)
    for o in of.orders:
        unit = table[o.action]
        _, refusals = reading.plan(unit, o)
        for refusal in refusals:
            of.error(o, refusal.field, refusal.message, refusal.hint)
        if reading.names_unknown_faction(o):
            continue  # no sentence can name a faction that is not there
        told = "; told to everyone in a sealed campaign" if unit.told_everyone(o.args) else ""
        of.echo[o.number] = unit.sentence(game, state, o.args) + told


def sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    """A GM order in words, as the check echoes it: what the GM will do, to whom, and why."""
    return orders(game)[order["action"]].sentence(game, state, order)


def run_phase(ctx: TurnContext, state: State) -> State:
    """The GM phase: each order of the checked file read again against the live state, then done."""
    of = ctx.gm_orders
    if of is None:
        return state
    table = orders(ctx.game)
    reading = GmReading(ctx.game, state)
    for o in of.orders:
        unit = table[o.action]
        plan, refusals = reading.plan(unit, o)
        if refusals:
            _, message, hint = refusals[0]
            raise GmOrderRefused(f"{of.path}: GM order {o.number} ({o.action}): {message}", hint)
        unit.apply(ctx, state, plan)
    return state


def examples(game: Game, state: State) -> list[dict[str, Any]]:
    """Examples of every GM order for the GM's template, naming this campaign's own factions, stocks
    and pieces so each example reads as something the GM could send."""
    return [example for unit in orders(game).values() for example in unit.examples(game, state)]


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


# -- the engine's GM orders ---------------------------------------------------------------------------------


def _who(game: Game, order: Mapping[str, Any]) -> str:
    return f"{game.name_of(order['faction'])} ({order['faction']})" if "faction" in order else ""


def _why(order: Mapping[str, Any]) -> str:
    return f": {order['reason']}" if order.get("reason") else ""


def _first_faction(game: Game) -> str:
    return game.factions[0] if game.factions else "FACTION"


def _first_stock(game: Game) -> str:
    return next(iter(game.ruleset.stock_names(game)), "STOCK")


def _first_piece(game: Game, state: State) -> tuple[str, str, dict[str, Any]]:
    """The kind, id and record of the first piece on the map, for the examples that name one."""
    return next(
        (
            (kind, pid, dict(data))
            for kind, collection in game.ruleset.entity_kinds.items()
            for pid, data in sorted(state.get(collection, {}).items())
        ),
        ("KIND", "ID", {}),
    )


# grant, take: a faction's stock


def _stock_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field("resource", "choice", "Which stock.", required=True, choices=game.ruleset.stock_names(game)),
        Field("amount", "int", "How much.", required=True, minimum=1),
        _REASON,
    )


def _read_as_given(reading: GmReading, order: Order) -> Mapping[str, Any]:
    return order.args


def _read_take(reading: GmReading, order: Order) -> Mapping[str, Any]:
    account, key = reading.game.ruleset.stock_account(reading.state, order["faction"], order["resource"])
    have = account.get(key, 0)
    if have < order["amount"]:
        reading.warn(
            "amount",
            f"{order['faction']} has only {have} {order['resource']}; the take stops at zero",
            f"take at most {have}, or leave it if emptying the stock is what you mean",
        )
    return order.args


def _moved_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    """grant, take, give_item, take_item: what goes to or from whom, and why."""
    giving = order["action"] in ("grant", "give_item")
    what = (
        f"{order['amount']} {order['resource']}"
        if "amount" in order
        else f"{order['count']} × {order['item']}"
    )
    return (
        f"{'give' if giving else 'take'} {what} {'to' if giving else 'from'} {_who(game, order)}{_why(order)}"
    )


def _apply_stock(ctx: TurnContext, state: State, a: Mapping[str, Any]) -> None:
    granting = a["action"] == "grant"
    stock, key = ctx.game.ruleset.stock_account(state, a["faction"], a["resource"])
    have = stock.get(key, 0)
    amount = a["amount"] if granting else min(a["amount"], have)
    stock[key] = have + amount if granting else have - amount
    ctx.emit(
        f"gm_{a['action']}",
        actors=[a["faction"]],
        visible_to=audience(ctx, a, [a["faction"]]),
        faction=a["faction"],
        resource=a["resource"],
        amount=amount,
        reason=a.get("reason", ""),
    )


def _grant_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {"action": "grant", "faction": _first_faction(game), "resource": _first_stock(game), "amount": 5,
         "reason": "A salt caravan pays tribute"},
    ]  # fmt: skip


def _take_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {"action": "take", "faction": _first_faction(game), "resource": _first_stock(game), "amount": 2,
         "reason": "Floods spoil the stores"},
    ]  # fmt: skip


# give_item, take_item: a faction's items


def _item_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field("item", "text", "The item's name.", required=True),
        Field("count", "int", "How many.", default=1, minimum=1),
        _REASON,
    )


def _read_give_item(reading: GmReading, order: Order) -> Mapping[str, Any]:
    known = ruleset_items(reading.game)
    if known and order["item"] not in known:
        reading.warn(
            "item",
            f"the rules define no item '{order['item']}': it is given, but as a keepsake with no effect",
            choice_hint(order["item"], known),
        )
    return order.args


def _apply_items(ctx: TurnContext, state: State, a: Mapping[str, Any]) -> None:
    giving = a["action"] == "give_item"
    items = state["factions"][a["faction"]].setdefault("items", {})
    have = items.get(a["item"], 0)
    count = a["count"] if giving else min(a["count"], have)
    items[a["item"]] = have + count if giving else have - count
    if not items[a["item"]]:
        del items[a["item"]]
    # Older archives have no reason on item events; one is recorded only when the GM gave it.
    why = {"reason": a["reason"]} if a.get("reason") else {}
    ctx.emit(
        f"gm_{a['action']}",
        actors=[a["faction"]],
        visible_to=audience(ctx, a, [a["faction"]]),
        faction=a["faction"],
        item=a["item"],
        count=count,
        **why,
    )


def _example_item(game: Game) -> str:
    return next(iter(ruleset_items(game)), "silver chalice")


def _give_item_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {"action": "give_item", "faction": _first_faction(game), "item": _example_item(game), "count": 1,
         "reason": "Found in the old crypt"},
    ]  # fmt: skip


def _take_item_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {"action": "take_item", "faction": _first_faction(game), "item": _example_item(game),
         "reason": "Stolen in the night"},
    ]  # fmt: skip


# modifier


def _modifier_fields(game: Game) -> tuple[Field, ...]:
    return (
        Field("target", "text", "A faction id or a piece id.", required=True),
        Field("name", "text", "The modifier, e.g. attack, defence, income.", required=True),
        Field("value", "int", "Its value.", required=True),
        _TURNS,
    )


class ModifierPlan(NamedTuple):
    order: Mapping[str, Any]
    collection: str  # where the target is kept: factions, or the collection of its kind of piece


def _read_modifier(reading: GmReading, order: Order) -> ModifierPlan:
    target = order["target"]
    kind = reading.pieces.any_kind(target)
    if target not in reading.state["factions"] and kind is None:
        gone = reading.pieces.removed(target)
        if gone is not None:
            reading.refuse(
                "target",
                f"order {gone} removes '{target}' before this one, so nothing is left to modify",
                "set the modifier before the remove order, or drop it",
            )
        else:
            reading.refuse("target", f"no faction or piece is called '{target}'", "use a faction or piece id")
    elif order.get("turns") and not order["value"]:
        reading.refuse("turns", "a modifier of 0 is removed at once, so it cannot last", "drop turns")
    in_factions = target in reading.state["factions"]
    return ModifierPlan(
        order.args, "factions" if in_factions else reading.game.ruleset.entity_kinds.get(kind or "", "")
    )


def _modifier_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    if not order["value"]:
        return f"remove the modifier '{order['name']}' from {order['target']}"
    lasting = f" for {order['turns']} turn(s)" if order.get("turns") else ""
    return f"set the modifier '{order['name']}' of {order['target']} to {order['value']:+d}{lasting}"


def _apply_modifier(ctx: TurnContext, state: State, plan: ModifierPlan) -> None:
    a, collection = plan
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


def _modifier_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [{"action": "modifier", "target": _first_faction(game), "name": "defence", "value": 1}]


# place, remove: pieces on the map


def _kind_field(game: Game, description: str = "What kind of piece.") -> Field:
    return Field("kind", "choice", description, required=True, choices=tuple(game.ruleset.entity_kinds))


def _place_fields(game: Game) -> tuple[Field, ...]:
    return (
        _kind_field(game),
        Field("id", "text", "A new, unique id.", required=True),
        Field("data", "mapping", "The piece's fields, as the ruleset stores them.", required=True),
    )


def _read_place(reading: GmReading, order: Order) -> Mapping[str, Any]:
    pieces = reading.pieces
    if pieces.exists(order["kind"], order["id"]):
        earlier = pieces.placed_by.get((order["kind"], order["id"]))
        said = (
            f"order {earlier} places a {order['kind']} '{order['id']}' already"
            if earlier
            else (f"there is already a {order['kind']} '{order['id']}'")
        )
        reading.refuse("id", said, "choose a new id")
    game = reading.game
    for problem in game.ruleset.piece_id_problems(
        order["kind"], order["id"], order["data"], game, reading.state
    ):
        reading.refuse("id", problem, f"give the {order['kind']} an id that can take it")
    bad = list(unstorable(order["data"]))
    for where, problem in bad:
        reading.refuse(("data", *where), problem, "write a whole number, or text in quotes")
    if not bad:
        for problem in game.ruleset.check_entity(order["kind"], order["data"], game, reading.state):
            reading.refuse("data", problem, f"correct the {order['kind']}'s fields under 'data'")
    pieces.place(order["kind"], order["id"], order.number)
    return order.args


def _place_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    data = order["data"]
    # The echo also describes refused orders, whose fields may be of any type.
    location, owner_id = data.get("location"), data.get("owner")
    where = f" at {game.place_label(location)}" if isinstance(location, str) and location else ""
    owner = f" for {game.name_of(owner_id)}" if isinstance(owner_id, str) and owner_id else ""
    return f"place {order['kind']} '{order['id']}'{where}{owner}"


def _apply_place(ctx: TurnContext, state: State, a: Mapping[str, Any]) -> None:
    # A deep copy: a ruleset that changes a piece's inner records (a unit's purse) in place must not change
    # the GM's order, whose archived text the turn's digest binds.
    piece = dict(copy.deepcopy(a["data"]), id=a["id"])
    state.setdefault(ctx.game.ruleset.entity_kinds[a["kind"]], {})[a["id"]] = piece
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


def _place_examples(game: Game, state: State) -> list[dict[str, Any]]:
    kind, piece_id, piece = _first_piece(game, state)
    own = game.ruleset.placed_example(game, state, kind, piece_id, piece) if piece else None
    new_id, data = own or (f"{piece_id}-gm", placeable_copy(game, piece, f"{piece_id}-gm"))
    return [{"action": "place", "kind": kind, "id": new_id, "data": data}]


def _remove_fields(game: Game) -> tuple[Field, ...]:
    return (_kind_field(game), Field("id", "text", "The piece's id.", required=True))


def _read_remove(reading: GmReading, order: Order) -> Mapping[str, Any]:
    pieces = reading.pieces
    if not pieces.exists(order["kind"], order["id"]):
        earlier = pieces.removed_by.get((order["kind"], order["id"]))
        said = (
            f"order {earlier} removes {order['kind']} '{order['id']}' already"
            if earlier
            else (f"there is no {order['kind']} '{order['id']}'")
        )
        reading.refuse("id", said, "drop this order" if earlier else "check the id in the state")
    pieces.remove(order["kind"], order["id"], order.number)
    return order.args


def _remove_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    piece = _find_piece(game, state, order["kind"], order["id"]) or {}
    known = [str(piece[k]) for k in ("name",) if piece.get(k)]
    if piece.get("location"):
        known.append(f"at {game.place_label(piece['location'])}")
    return f"remove {order['kind']} '{order['id']}'" + (f" ({' '.join(known)})" if known else "")


def _apply_remove(ctx: TurnContext, state: State, a: Mapping[str, Any]) -> None:
    concealed = is_concealed(ctx, state, a["id"])
    piece = state[ctx.game.ruleset.entity_kinds[a["kind"]]].pop(a["id"])
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


def _remove_examples(game: Game, state: State) -> list[dict[str, Any]]:
    kind, piece_id, _ = _first_piece(game, state)
    return [{"action": "remove", "kind": kind, "id": piece_id}]


# narrate


def _narrate_fields(game: Game) -> tuple[Field, ...]:
    return (
        Field("headline", "text", "A short title.", required=True, max_length=120),
        Field("text", "text", "What happened.", max_length=4000, multiline=True),
        Field("place", "text", "Where (a location id)."),
        _VISIBILITY,
    )


def _read_narrate(reading: GmReading, order: Order) -> Mapping[str, Any]:
    for f in order.get("to", []):
        if f not in reading.factions:
            reading.refuse("to", f"unknown faction '{f}'", choice_hint(f, reading.factions))
    if order.get("to") and order.get("public"):
        reading.refuse("public", "a narration told to some factions is not public", "drop 'public' or 'to'")
    elif not order.get("to") and order.get("public") is False:
        reading.refuse(
            "public",
            "a narration without 'to' is read by everyone",
            "to tell some factions only, list them under 'to'",
        )
    if order.get("place") and order["place"] not in reading.game.world:
        reading.refuse("place", f"no location is called '{order['place']}'")
    return order.args


def _narrate_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    seen = ", ".join(game.name_of(f) for f in order.get("to") or []) or "everyone"
    where = f" at {game.place_label(order['place'])}" if order.get("place") else ""
    return f"tell the chronicle “{order['headline']}”{where}, seen by {seen}"


def _apply_narrate(ctx: TurnContext, state: State, a: Mapping[str, Any]) -> None:
    ctx.emit(
        "gm_narrate",
        place=a.get("place"),
        visible_to=a.get("to") or None,
        headline=a["headline"],
        text=a.get("text", ""),
    )


def _narrate_examples(game: Game, state: State) -> list[dict[str, Any]]:
    faction = _first_faction(game)
    _, _, piece = _first_piece(game, state)
    narrate: dict[str, Any] = {"action": "narrate", "headline": "A storm comes in from the sea"}
    narrate["text"] = "Roads flood and the harvest is late."
    if piece.get("location") in game.world:  # a piece may stand inside a location (a factions' locale)
        narrate["place"] = piece["location"]
    secret = {
        "action": "narrate",
        "headline": "A secret letter",
        "text": "Only its reader knows what it says.",
    }
    return [narrate, {**secret, "to": [faction]}]


# judge


def _judge_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field("subject", "text", "What is ruled on, e.g. advancement:irrigation.", required=True),
        Field("ruling", "text", "The ruling in words, for the chronicle.", required=True, multiline=True),
        Field("grants", "mapping", "The mechanical effect, as the ruleset understands it."),
    )


def _read_judge(reading: GmReading, order: Order) -> Mapping[str, Any]:
    game = reading.game
    subjects = game.ruleset.judgement_subjects(game, reading.state, order["faction"])
    if order["subject"] not in subjects:
        hint = choice_hint(order["subject"], subjects) if subjects else "nothing is waiting for a ruling"
        reading.refuse(
            "subject", f"nothing of {order['faction']} awaits a ruling on '{order['subject']}'", hint
        )
    for problem in game.ruleset.judgement_problems(game, order["subject"], order.get("grants") or {}):
        reading.refuse("grants", problem)
    earlier = reading.ruled.setdefault((order["faction"], order["subject"]), order.number)
    if earlier != order.number:
        reading.refuse("subject", f"order {earlier} rules on it already", "write one ruling for it")
    return order.args


def _judge_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    return f"rule on {order['subject']} for {_who(game, order)}: {order['ruling']}"


def _apply_judge(ctx: TurnContext, state: State, a: Mapping[str, Any]) -> None:
    ruling = ctx.game.ruleset.apply_judgement(
        ctx.game, state, a["faction"], a["subject"], a.get("grants") or {}
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


def _judge_examples(game: Game, state: State) -> list[dict[str, Any]]:
    # Only something that awaits a ruling can be ruled on: without one, the example would be refused.
    found = next(
        (
            (f, subjects)
            for f in game.factions
            if (subjects := game.ruleset.judgement_subjects(game, state, f))
        ),
        None,
    )
    if found is None:
        return []
    faction, subjects = found
    order = {"action": "judge", "faction": faction, "subject": subjects[0]}
    order["ruling"] = "What the GM decides, in words for the chronicle"
    grants = game.ruleset.judgement_example(game, state, faction, subjects[0])
    return [{**order, "grants": grants} if grants else order]


# relation: where the rules define kinds of relation


def _relation_fields(game: Game) -> tuple[Field, ...]:
    return (
        Field("faction", "ref", "One faction.", required=True, ref="factions"),
        Field("other", "ref", "The other faction.", required=True, ref="factions"),
        Field("kind", "choice", "The relation.", required=True, choices=relations.kinds(game.rules)),
        _TURNS,
        _REASON,
    )


def _read_relation(reading: GmReading, order: Order) -> Mapping[str, Any]:
    if order["faction"] == order["other"]:
        reading.refuse("other", "a relation joins two different factions", "name another faction")
    return order.args


def _relation_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    lasting = f" for {order['turns']} turn(s)" if order.get("turns") else ""
    pair = f"{game.name_of(order['faction'])} and {game.name_of(order['other'])}"
    return f"set the relation of {pair} to {order['kind']}{lasting}{_why(order)}"


def _apply_relation(ctx: TurnContext, state: State, a: Mapping[str, Any]) -> None:
    entry = relations.set_relation(
        state, ctx.game.rules, a["faction"], a["other"], a["kind"], ctx.turn, a.get("turns")
    )
    ctx.emit(
        "gm_relation",
        actors=sorted((a["faction"], a["other"])),
        visible_to=audience(ctx, a, [a["faction"], a["other"]]),
        relation=a["kind"],
        until=(entry or {}).get("until", 0),
        reason=a.get("reason", ""),
    )


def _relation_examples(game: Game, state: State) -> list[dict[str, Any]]:
    faction = _first_faction(game)
    other = game.factions[1] if len(game.factions) > 1 else faction
    return [
        {
            "action": "relation",
            "faction": faction,
            "other": other,
            "kind": relations.kinds(game.rules)[-1],
            "turns": 4,
            "reason": "Terms of the peace",
        }
    ]


# add_faction: where the ruleset can bring a faction in


def _add_faction_fields(game: Game) -> tuple[Field, ...]:
    return (
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
    )


def _read_add_faction(reading: GmReading, order: Order) -> Mapping[str, Any]:
    taken = faction_records.id_problem(order["id"], [*reading.state["factions"], *reading.joining])
    reading.joining.append(order["id"])
    problems = (
        [taken] if taken else reading.game.ruleset.join_problems(reading.game, reading.state, order["id"])
    )
    for problem in problems:
        reading.refuse("id", problem, "choose another id" if taken else "make room first, or wait a turn")
    if not _COLOR.fullmatch(order["color"]):
        reading.refuse("color", f"'{order['color']}' is not a colour", "write '#' and six hex digits")
    return order.args


def _add_faction_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    played = "played by the bot" if order.get("kind") == faction_records.NPC else "for a player"
    return f"bring in {order['name']} ({order['id']}), {played}, with its starting pieces"


def _apply_add_faction(ctx: TurnContext, state: State, a: Mapping[str, Any]) -> None:
    what = ctx.game.ruleset.join_faction(ctx.game, state, a["id"], a["name"], a["color"], a["kind"])
    ctx.emit(
        "gm_add_faction",
        actors=[a["id"]],
        visible_to=audience(ctx, a, [a["id"]]),
        faction=a["id"],
        name=a["name"],
        played_by=a["kind"],
        pieces=what,
    )


def _add_faction_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [{"action": "add_faction", "id": "raiders", "name": "The Raiders", "kind": "npc"}]


def _has_pieces(game: Game) -> bool:
    """Place and remove only where the ruleset keeps pieces on the map in collections of their own (a
    usurper's units and lairs live inside its record, so there is nothing for them to name)."""
    return bool(game.ruleset.entity_kinds)


def _has_stocks(game: Game) -> bool:
    return bool(game.ruleset.stock_names(game))


ENGINE_ORDERS: tuple[GmOrder, ...] = (
    GmOrder(
        "grant",
        "Give a faction some of a stock (resources, population…).",
        _stock_fields,
        _read_as_given,
        _moved_sentence,
        _apply_stock,
        _grant_examples,
        offered=_has_stocks,  # a ruleset without stocks (Diplomacy) offers no grant or take
    ),
    GmOrder(
        "take",
        "Take some of a faction's stock away (never below zero).",
        _stock_fields,
        _read_take,
        _moved_sentence,
        _apply_stock,
        _take_examples,
        offered=_has_stocks,  # a ruleset without stocks (Diplomacy) offers no grant or take
    ),
    GmOrder(
        "give_item",
        "Give a faction an item.",
        _item_fields,
        _read_give_item,
        _moved_sentence,
        _apply_items,
        _give_item_examples,
    ),
    GmOrder(
        "take_item",
        "Take an item from a faction.",
        _item_fields,
        _read_as_given,
        _moved_sentence,
        _apply_items,
        _take_item_examples,
    ),
    GmOrder(
        "modifier",
        "Set a named modifier on a faction or a piece (0 removes it).",
        _modifier_fields,
        _read_modifier,
        _modifier_sentence,
        _apply_modifier,
        _modifier_examples,
    ),
    GmOrder(
        "place",
        "Put a piece on the map (an army, a settlement…).",
        _place_fields,
        _read_place,
        _place_sentence,
        _apply_place,
        _place_examples,
        offered=_has_pieces,
    ),
    GmOrder(
        "remove",
        "Take a piece off the map.",
        _remove_fields,
        _read_remove,
        _remove_sentence,
        _apply_remove,
        _remove_examples,
        offered=_has_pieces,
    ),
    GmOrder(
        "narrate",
        "Tell of an event in the chronicle.",
        _narrate_fields,
        _read_narrate,
        _narrate_sentence,
        _apply_narrate,
        _narrate_examples,
        public=_NARRATION_PUBLIC,
    ),
    GmOrder(
        "judge",
        "Rule on something the rules leave to the GM, e.g. what an advancement grants.",
        _judge_fields,
        _read_judge,
        _judge_sentence,
        _apply_judge,
        _judge_examples,
    ),
    GmOrder(
        "relation",
        "Set the relation of two factions (war, peace, tribute…), for good or for some turns.",
        _relation_fields,
        _read_relation,
        _relation_sentence,
        _apply_relation,
        _relation_examples,
        offered=lambda game: bool(relations.kinds(game.rules)),
    ),
    GmOrder(
        "add_faction",
        "Bring a new faction into the campaign with its starting pieces (a late joiner, or raiders "
        "the bot plays).",
        _add_faction_fields,
        _read_add_faction,
        _add_faction_sentence,
        _apply_add_faction,
        _add_faction_examples,
        offered=lambda game: game.ruleset.can_add_factions,
    ),
)
