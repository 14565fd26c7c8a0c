"""Agreements between nations: trade along roads, one-off payments, alliances.

The seed leaves diplomacy to talk outside the game; here the talk ends in orders. Both
nations order the same agreement with each other (``agree``), each from its own side:
what it gives and what it gets. The agreement is made only when the two orders mirror
each other; then it is public. A trade runs for a number of turns: each turn both
sides' goods travel along the agreed road route, and an army of a third nation that
marauds from a road tile of that route carries off a share of them (the seed's half).
Either side ends a trade or an alliance on its own.
An alliance is also the nations' relation (``core.relations``): making one sets the pair's relation to
``alliance``, ending it sets the default again.

``terms_of`` is the one reading of an ``agree`` order: the checker echoes it and the
resolver matches it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ...core import relations
from ...core.orders import Order
from ...core.phases import State
from .memory import NationsTurn

if TYPE_CHECKING:
    from ...engine.context import TurnContext

    Context = TurnContext[NationsTurn]  # a turn of this ruleset, with its typed memory

KINDS = ("trade", "payment", "alliance")
STANDING = ("trade", "alliance")  # kinds that last beyond the turn they are made


@dataclass(frozen=True)
class Terms:
    """One side's reading of an agreement."""

    nation: str
    partner: str
    kind: str
    give: int  # resources this side hands over (each turn for a trade)
    get: int  # resources this side expects in return
    route: tuple[str, ...]  # road tiles the trade travels along
    turns: int  # how many turns a trade runs
    end: bool  # ends the standing agreement of this kind instead
    note: str  # what the payment is for (mercenaries, tribute...), kept for the record

    @property
    def pair(self) -> tuple[str, str]:
        return (self.nation, self.partner) if self.nation < self.partner else (self.partner, self.nation)

    def mismatch(self, other: Terms) -> str:
        """Why the partner's order does not mirror this one, in words; empty when it does."""
        if other.kind != self.kind:
            return f"{other.nation} ordered a {other.kind}, not a {self.kind}"
        if (self.give, self.get) != (other.get, other.give):
            return (
                f"{self.nation} gives {self.give} and gets {self.get}, but {other.nation} gives "
                f"{other.give} and gets {other.get}"
            )
        if self.kind == "trade" and self.route not in (other.route, tuple(reversed(other.route))):
            return f"the routes differ: {'–'.join(self.route)} and {'–'.join(other.route)}"
        if self.kind == "trade" and self.turns != other.turns:
            return f"one side says {self.turns} turn(s), the other {other.turns}"
        return ""

    def describe(self) -> str:
        if self.end:
            return f"end the {self.kind} with {self.partner}"
        if self.kind == "alliance":
            return f"alliance with {self.partner}"
        if self.kind == "payment":
            return f"payment with {self.partner}: give {self.give}, get {self.get} resources" + (
                f" ({self.note})" if self.note else ""
            )
        return (
            f"trade with {self.partner} for {self.turns} turn(s): give {self.give}, get {self.get} resources "
            f"a turn along {'–'.join(self.route)}"
        )


def terms_of(nation: str, order: Order) -> Terms:
    return Terms(
        nation=nation,
        partner=str(order["partner"]),
        kind=str(order["kind"]),
        give=int(order.get("give") or 0),
        get=int(order.get("get") or 0),
        route=tuple(order.get("route") or ()),
        turns=int(order.get("turns") or 1),
        end=bool(order.get("end")),
        note=str(order.get("note") or ""),
    )


def standing_between(state: State, a: str, b: str, kind: str) -> dict[str, Any] | None:
    pair = sorted((a, b))
    return next(
        (g for g in state.get("agreements", {}).values() if g["parties"] == pair and g["kind"] == kind),
        None,
    )


def agreements_of(state: State, nation: str) -> list[dict[str, Any]]:
    return sorted(
        (g for g in state.get("agreements", {}).values() if nation in g["parties"]), key=lambda g: g["id"]
    )


def allied(state: State, a: str, b: str) -> bool:
    return standing_between(state, a, b, "alliance") is not None


# -- the phase --------------------------------------------------------------------------------------------


def run_agreements(ctx: Context, state: State) -> State:
    """End, make, then carry out agreements; the orders were checked, the state may have moved since."""
    offers: dict[tuple[str, str, str], dict[str, Terms]] = {}
    for nation in ctx.posting_order:
        of = ctx.orders.get(nation)
        for order in of.orders if of else []:
            if order.action != "agree":
                continue
            terms = terms_of(nation, order)
            if terms.end:
                _end(ctx, state, terms)
            else:
                offers.setdefault((*terms.pair, terms.kind), {})[nation] = terms
    for (a, b, _kind), sides in sorted(offers.items()):
        if len(sides) < 2:
            (terms,) = sides.values()
            _unmatched(ctx, terms, f"{terms.partner} did not order it this turn")
            continue
        why = sides[a].mismatch(sides[b])
        if why:
            for terms in sides.values():
                _unmatched(ctx, terms, why)
            continue
        _make(ctx, state, sides[a], sides[b])
    for agreement in sorted(state.get("agreements", {}).values(), key=lambda g: g["id"]):
        if agreement["kind"] == "trade":
            _deliver(ctx, state, agreement)
    return state


def _unmatched(ctx: Context, terms: Terms, why: str) -> None:
    ctx.emit(
        "agreement_unmatched",
        actors=[terms.nation, terms.partner],
        visible_to=[terms.nation],
        partner=terms.partner,
        deal=terms.kind,
        reason=why,
    )


def _end(ctx: Context, state: State, terms: Terms) -> None:
    agreement = standing_between(state, terms.nation, terms.partner, terms.kind)
    if agreement is None:
        ctx.emit(
            "order_failed",
            actors=[terms.nation],
            visible_to=[terms.nation],
            order=0,
            action="agree",
            reason=f"there is no {terms.kind} with {terms.partner} to end",
        )
        return
    del state["agreements"][agreement["id"]]
    if agreement["kind"] == "alliance":
        _record_relation(ctx, state, agreement["parties"], relations.default(ctx.rules))
    ctx.emit("agreement_ended", actors=agreement["parties"], deal=agreement["kind"], by=terms.nation)


def _make(ctx: Context, state: State, first: Terms, second: Terms) -> None:
    parties = list(first.pair)
    if first.kind == "payment":
        paid = {first.nation: first.give, second.nation: second.give}
        short = [n for n, amount in paid.items() if _stock(state, n) < amount]
        if short:
            for terms in (first, second):
                _unmatched(ctx, terms, f"{short[0]} cannot pay {paid[short[0]]} resources")
            return
        for payer, amount in paid.items():
            _add(state, payer, -amount)
            _add(state, second.nation if payer == first.nation else first.nation, amount)
        ctx.emit(
            "agreement_made",
            actors=parties,
            deal="payment",
            gives={n: paid[n] for n in parties},
            note=" / ".join(t.note for t in (first, second) if t.note),
        )
        return
    agreements = state.setdefault("agreements", {})
    old = standing_between(state, first.nation, first.partner, first.kind)
    if old is not None:
        del agreements[old["id"]]  # renewed terms replace the old ones
    agreement: dict[str, Any] = {
        "id": f"{parties[0]}-{parties[1]}-{first.kind}",
        "kind": first.kind,
        "parties": parties,
        "since": ctx.turn,
    }
    if first.kind == "trade":
        agreement.update(
            gives={first.nation: first.give, second.nation: second.give},
            route=list(first.route),
            until=ctx.turn + first.turns - 1,
        )
    agreements[agreement["id"]] = agreement
    if first.kind == "alliance":
        _record_relation(ctx, state, parties, "alliance")
    details = {k: v for k, v in agreement.items() if k not in ("parties", "kind", "id")}
    ctx.emit("agreement_made", actors=parties, deal=first.kind, **details)


def _record_relation(ctx: Context, state: State, parties: list[str], kind: str) -> None:
    """Keep the pair's relation in step with its alliance, when the rules data knows the relation."""
    if kind in relations.kinds(ctx.rules):
        relations.set_relation(state, ctx.rules, parties[0], parties[1], kind, ctx.turn)


def _deliver(ctx: Context, state: State, agreement: dict[str, Any]) -> None:
    """One turn of a trade: each side's goods travel the route; a marauder on it takes its share."""
    rules = ctx.rules["agreements"]
    roads = state.get("roads", {})
    parties = agreement["parties"]
    route = agreement["route"]
    broken = [tile for tile in route if tile not in roads]
    marauder = _marauder_on(ctx, route, parties)
    received: dict[str, int] = {}
    skimmed = 0
    if not broken:
        for giver, amount in sorted(agreement["gives"].items()):
            receiver = parties[1] if giver == parties[0] else parties[0]
            sent = min(amount, _stock(state, giver))
            share = sent * int(rules["marauder_share_percent"]) // 100 if marauder else 0
            _add(state, giver, -sent)
            _add(state, receiver, sent - share)
            received[receiver] = sent - share
            skimmed += share
        if marauder and skimmed:
            _add(state, marauder["owner"], skimmed)
    ctx.emit(
        "trade",
        actors=parties,
        place=route[0],
        visible_to=[*parties, marauder["owner"]] if marauder else parties,
        received=received,
        blocked=broken[0] if broken else "",
        marauder=marauder["owner"] if marauder else "",
        marauder_army=marauder["name"] if marauder else "",
        skimmed=skimmed,
    )
    if agreement["until"] <= ctx.turn:
        del state["agreements"][agreement["id"]]
        ctx.emit("agreement_ended", actors=parties, deal="trade", by="")


def _marauder_on(ctx: Context, route: list[str], parties: list[str]) -> dict[str, Any] | None:
    """The first army of a third nation that marauded this turn from a road tile of the route."""
    marauders = ctx.memory.marauders
    return next((a for a in marauders if a["location"] in route and a["owner"] not in parties), None)


def _stock(state: State, nation: str) -> int:
    return int(state["factions"][nation]["stock"].get("resources", 0))


def _add(state: State, nation: str, amount: int) -> None:
    """Add resources to the nation's stock (take them away, when negative)."""
    state["factions"][nation]["stock"]["resources"] = _stock(state, nation) + amount


def route_problem(world: Any, route: tuple[str, ...]) -> str:
    """Why a route cannot be a road route on this map; empty when it can."""
    for tile in route:
        if tile not in world:
            return f"there is no tile '{tile}'"
    if len(set(route)) != len(route):
        return "the route visits a tile twice"
    for here, there in pairwise(route):
        if world.distance(here, there) != 1:
            return f"{here} and {there} are not next to each other"
    return ""
