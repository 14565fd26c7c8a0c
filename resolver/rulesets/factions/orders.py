"""Factions orders: one action per lieutenant, the order models built from the catalogue, and the checker.

The checker plays a faction's file forward on a sketch of its own position: lieutenants and units move,
costs are paid, and what earlier orders may gain (capital, reach, influence, new units) is kept apart as
*hoped* for. An order that needs a hoped-for gain must carry a backup that needs none, which is the seed's
pre-planned plan B.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.fields import ActionSpec, Field
from ...core.orders import Order, OrderFile
from ...core.phases import State
from ...engine.plans import plan_or_error
from ...engine.ruleset import Game
from . import model as m
from .catalogue import Action, catalogue
from .plans import GAINED, Plan, Position, Reject

Rules = Mapping[str, Any]

_LIEUTENANT = Field("lieutenant", "text", "The lieutenant who acts, by id, e.g. red-l1.", required=True)
_UNITS = Field(
    "units",
    "list",
    f"Units that aid, by id (or {GAINED}N for the unit order N gains); at most your Cohesion.",
)
_BACKUP = Field(
    "backup",
    "order",
    "The action the same lieutenant takes instead if this one cannot be carried out.",
    inherits=("lieutenant",),
)
_END_AT = Field(
    "end_at", "text", "Where the lieutenant ends the action: a location of the locale.", names="locations"
)
_UNITS_END_AT = Field("units_end_at", "text", "Where the aiding units end the action.", names="locations")
_PLAN = Field(
    "plan", "text", "Your plan in a sentence or two; the GM may rule a bonus or a penalty.", max_length=600
)
_DISCREET = Field(
    "discreet", "bool", "Pay so the factions with influence over the NPC do not learn of it.", default=False
)
_ITEM = Field("item", "text", "An item of yours that helps this action.")
_PREPARED_BY = Field(
    "prepared_by", "int", "An earlier order of yours at the same target that prepares this one.", minimum=1
)


def _target_fields(rules: Rules, action: Action) -> list[Field]:
    """What an action is aimed at (its catalogue ``target``) decides the fields that name it."""
    types = rules["asset_types"]
    statics = tuple(t for t, d in types.items() if d["kind"] == "static")
    for_sale = tuple(t for t, d in types.items() if d["kind"] == "unit" and d.get("price"))
    recruits = tuple(t for t, d in types.items() if d["kind"] == "unit" and d.get("recruitable"))
    where = Field(
        "location",
        "text",
        "A location of the lieutenant's locale, by id or by name, e.g. p-varnel/tavern.",
        required=True,
        names="locations",
    )
    rival = Field(
        "target", "text", "The faction acted against, by id or by name.", required=True, names="factions"
    )
    npcs = tuple(rules["npc_factions"])
    known = ", ".join(f"{n} ({spec['name']})" for n, spec in rules["npc_factions"].items())
    npc = Field(
        "npc",
        "choice",
        f"An NPC faction holding a location here, by id or by name: {known}.",
        required=True,
        choices=npcs,
        names="npc_factions",
    )
    fields = {
        "npc": [npc],
        "npc_location": [where],
        "faction": [rival],
        "faction_location": [rival, where],
        "holder_location": [where],
        "location": [where],
        "own_asset": [Field("asset", "text", "An asset of yours in the locale, by id.", required=True)],
        "own_unit": [Field("unit", "text", "A unit of yours in the locale, by id.", required=True)],
        "static_type": [
            Field("asset_type", "choice", "A static asset to build or buy.", choices=statics),
            Field(
                "location", "text", "Where: a public location of the locale or your own.", names="locations"
            ),
            Field("project", "text", "A building project of yours to continue instead, e.g. red-p1."),
        ],
        "unit_type": [Field("unit_type", "choice", "The unit.", required=True, choices=for_sale)],
        "recruit_type": [
            Field("unit_type", "choice", "The unit.", required=True, choices=recruits),
            Field("location", "text", "Where (default: the lieutenant's location).", names="locations"),
        ],
        "destination": [
            Field(
                "to",
                "text",
                "The location moved to, up to the move range away.",
                required=True,
                names="locations",
            ),
            Field(
                "gather",
                "text",
                "A location of the locale whose units of yours all come along.",
                names="locations",
            ),
        ],
    }
    return fields[action.target]


def _involves_npc(action: Action) -> bool:
    return action.target in ("npc", "npc_location", "holder_location")


def action_specs(rules: Rules) -> dict[str, ActionSpec]:
    specs = []
    for action in catalogue(rules).values():
        fields = [_LIEUTENANT, _UNITS, *_target_fields(rules, action)]
        if action.can_be_stealthy:
            sneak = f"Act stealthily: a sneak check, and -{rules['stealth']['penalty']} to the task."
            fields.append(Field("stealthy", "bool", sneak, default=False))
        if action.discretion:
            fields.append(_DISCREET)
        if action.extra:
            fields.append(Field("pay_extra", "bool", f"If it arises: {action.extra['text']}", default=False))
        if action.rolls:
            fields.append(_ITEM)
            if _involves_npc(action):
                limit = int(rules["influence"]["max_spend"])
                spend = "Influence with the NPC faction spent for +1 each."
                fields.append(Field("spend_influence", "int", spend, minimum=1, maximum=limit))
            fields += [_PREPARED_BY, _PLAN]
        if action.target != "destination":
            fields += [_END_AT, _UNITS_END_AT]
        fields.append(_BACKUP)
        specs.append(
            ActionSpec(
                action.id,
                f"{action.title}: {action.effects['success']}",
                tuple(fields),
                cost=_cost_words(action),
            )
        )
    return {s.name: s for s in specs}


def _cost_words(action: Action) -> str:
    parts = [
        f"{n} {stock}" if stock != "influence" else f"{n} influence with the NPC faction"
        for stock, n in action.cost.items()
    ]
    if action.data.get("price"):
        parts.append("the price of what is bought")
    return f"{', '.join(parts) or 'free'}; {action.rolled_as()}"


# -- the checker --------------------------------------------------------------------------------------------


class Sketch(Position):
    """A faction's position as its file unfolds: what is sure, and what earlier orders may add."""

    def __init__(self, game: Game, state: State, faction: str) -> None:
        self.gains: dict[int, str] = {}  # order number -> placeholder id of the unit it may gain
        # The position holds placeholders for gained units, and *hoped* stock.
        super().__init__(game, state, faction, gained=self.gains.get)
        f = self.state["factions"][faction]
        self.sure: State = {
            "factions": {faction: {"stock": dict(f["stock"]), "influence": dict(f.get("influence", {}))}}
        }
        self.instructed: dict[str, int] = {}  # lieutenant -> order number
        self.plans: dict[int, Plan] = {}

    def check(self, of: OrderFile, order: Order) -> None:
        accepted = plan_or_error(of, self.reader, order, self._accepted)
        if accepted is None:
            return
        plan, backup, relies = accepted
        self.instructed[order["lieutenant"]] = order.number
        m.spend(self.sure, self.faction, backup.costs if relies and backup else plan.costs)
        self.plans[order.number] = plan
        self._warn(of, order, plan)
        of.echo[order.number] = echo(self.game, self.state, plan) + (
            f"; backup: {echo(self.game, self.state, backup)}" if backup else ""
        )
        self._play(plan)

    def _accepted(self, order: Order) -> tuple[Plan, Plan | None, bool]:
        """The order's plan, its backup's, and whether it relies on what earlier orders may gain; or a
        ``Reject`` with what the file cannot carry at this point."""
        lieutenant = order["lieutenant"]
        if lieutenant in self.instructed:
            raise Reject(
                "lieutenant",
                f"{lieutenant} already has an action (order {self.instructed[lieutenant]}); "
                "each lieutenant gets one",
                "give the other action to another lieutenant",
            )
        plan = self.reader.plan(order.number, order.args)
        hoped_short = m.can_pay(self.state, self.faction, plan.costs)
        if hoped_short:
            raise Reject(
                None,
                f"{plan.action.title} needs {hoped_short} at this point of your orders",
                "drop or reorder an order",
            )
        sure_short = m.can_pay(self.sure, self.faction, plan.costs)
        relies = plan.relies_on_gains or bool(sure_short)
        backup = self._backup(order) if order.get("backup") is not None else None
        if relies and backup is None:
            reason = (
                f"{sure_short} unless earlier orders gain it"
                if sure_short
                else "a unit an earlier order is to gain"
            )
            raise Reject(
                None,
                f"this order relies on {reason}",
                "add a 'backup' action for the same lieutenant, in case the gain is not made",
            )
        self._prepared(order, plan)
        return plan, backup, relies

    def _backup(self, order: Order) -> Plan:
        # The parser checked the backup's fields and gave it the order's lieutenant (a nested order).
        try:
            backup = self.reader.plan(order.number, order["backup"])
        except Reject as r:
            raise Reject(("backup", r.field) if r.field else "backup", f"backup: {r.message}", r.hint) from r
        short = m.can_pay(self.sure, self.faction, backup.costs)
        if short or backup.relies_on_gains:
            raise Reject(
                "backup",
                f"the backup must not rely on earlier gains, but it needs {short or 'a gained unit'}",
                "choose a backup your sure stock pays for",
            )
        return backup

    def _prepared(self, order: Order, plan: Plan) -> None:
        number = order.get("prepared_by")
        if not number:
            return
        earlier = self.plans.get(number)
        if number >= order.number or earlier is None:
            raise Reject("prepared_by", f"order {number} is not an earlier accepted order of this file")
        if not same_target(earlier, plan):
            raise Reject(
                "prepared_by",
                f"order {number} is aimed elsewhere; preparation counts only at the same target",
                "prepare at the same location, NPC faction or rival",
            )

    def _warn(self, of: OrderFile, order: Order, plan: Plan) -> None:
        if (
            plan.action.id == "attack"
            and plan.location
            and not m.known_at(self.state, plan.location, plan.target)
        ):
            of.warn(
                order,
                "location",
                f"no asset of {plan.target} is known to be at {plan.location}",
                "surveil it first",
            )

    def _play(self, plan: Plan) -> None:
        """The sure consequences of an order on the sketch, and the hoped-for gains."""
        action, state = plan.action, self.state
        self.take(plan)
        success = "success"
        if action.id in ("raid", "steal"):
            m.gain(state, self.faction, "capital", int(action.by_band("take", success)))
        elif action.id == "rally":
            for stock, n in action.by_band("gain", success, {}).items():
                m.gain(state, self.faction, stock, int(n))
        elif action.id == "influence" and plan.npc:
            m.gain_influence(state, self.faction, plan.npc, int(action.by_band("influence", success)))
        elif action.id == "sell" and plan.asset:
            share = int(action.by_band("sale_percent", success))
            m.gain(
                state, self.faction, "capital", -(-m.price_of(self.rules, plan.asset["type"]) * share // 100)
            )
            state["assets"].pop(plan.asset["id"], None)
        elif action.id in ("recruit", "purchase_units") and plan.type_name:
            placeholder = f"{GAINED}{plan.number}"
            where = plan.location if action.id == "recruit" else plan.destination
            state["assets"][placeholder] = {
                "id": placeholder,
                "owner": self.faction,
                "type": plan.type_name,
                "location": where,
            }
            self.gains[plan.number] = placeholder


def same_target(a: Plan, b: Plan) -> bool:
    """Whether two actions are aimed at the same place or power, so that one can prepare the other."""
    return any(
        x is not None and x == y for x, y in ((a.location, b.location), (a.npc, b.npc), (a.target, b.target))
    )


def check_orders(game: Game, state: State, of: OrderFile) -> None:
    sketch = Sketch(game, state, of.faction or "")
    for order in of.orders:
        sketch.check(of, order)
    idle = [
        a["id"]
        for a in m.assets_of(state, game.rules, sketch.faction, "lieutenant")
        if a["id"] not in sketch.instructed
    ]
    if idle and of.ok:
        of.warn(
            None,
            "orders",
            f"lieutenant(s) without an action this turn: {', '.join(idle)}",
            "give each of them an order, or leave them idle if that is the plan",
        )


# -- echoes -------------------------------------------------------------------------------------------------


def echo(game: Game, state: State, plan: Plan) -> str:
    """The order as the engine understood it, in one line."""
    rules, action = game.rules, plan.action
    who = f"{m.name_of(rules, plan.lieutenant)} ({plan.lieutenant['id']})"
    text = f"{who}: {action.title}{_aim(game, state, plan)}"
    if plan.units or plan.gathered:
        text += " with " + ", ".join(u["id"] for u in plan.units + plan.gathered)
    text += f"; {action.rolled_as()}"
    if plan.stealthy:
        text += f", stealthily (-{rules['stealth']['penalty']})"
    text += f"; costs {m.cost_text(plan.costs, rules)}"
    if plan.action.discretion and plan.npc:
        text += "; " + (
            "nobody learns of it unless the sneak check fails"
            if plan.stealthy
            else "hidden from everyone"
            if plan.hide_from_influencers
            else "the factions with influence there learn of it"
            if plan.hide_from_others
            else "everyone learns of it"
        )
    if plan.args.get("end_at") or plan.args.get("units_end_at"):
        text += f"; ends at {plan.destination}"
    return text


def _aim(game: Game, state: State, plan: Plan) -> str:
    rules, kind = game.rules, plan.action.target
    if kind == "npc":
        return f" with {m.npc_name(rules, plan.npc or '')}"
    if kind == "npc_location":
        return f" {plan.location} from {m.npc_name(rules, plan.npc or '')}"
    if kind == "faction":
        return f" {game.name_of(plan.target or '')}"
    if kind == "faction_location":
        return f" {game.name_of(plan.target or '')} at {plan.location}"
    if kind in ("holder_location", "location"):
        return f" at {plan.location}"
    if kind in ("own_asset", "own_unit") and plan.asset:
        return f" {m.describe_asset(rules, plan.asset)}"
    if kind == "static_type":
        if plan.project:
            return f" project {plan.project['id']} ({plan.project['progress']} of {plan.project['needed']})"
        return f" a {rules['asset_types'][plan.type_name or '']['name']} at {plan.location}"
    if kind in ("unit_type", "recruit_type"):
        return f" {rules['asset_types'][plan.type_name or '']['name']}"
    return f" to {plan.location}"
