"""One order, read against a state: who acts, with whom, on what, at what cost.

``Reader.plan`` is the single reading of an order. The checker calls it on a sketch of the faction's
position played forward through its file; the resolver calls it on the live state when the action's turn
comes. A ``Reject`` is an error for the checker, and for the resolver the signal to fall back on the
pre-planned backup.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.fields import choice_hint, named_suggestion, with_name
from ...core.orders import Order
from ...core.phases import State
from ...engine.plans import Reading, Reject
from ...engine.ruleset import Game, TurnMemory
from . import model as m
from .catalogue import Action, catalogue

GAINED = "gained:"  # a unit gained by an earlier order of the same file: gained:2


@dataclass
class Plan:
    number: int
    action: Action
    args: Mapping[str, Any]
    faction: str
    lieutenant: m.Asset
    locale: str
    units: list[m.Asset] = field(default_factory=list)
    gathered: list[m.Asset] = field(default_factory=list)  # Move Minion: units swept along from a location
    location: str | None = None  # the target location
    npc: str | None = None  # the NPC faction involved
    target: str | None = None  # the faction acted against, or the holder of the target location
    asset: m.Asset | None = None  # own asset sold, concealed or trained
    type_name: str | None = None  # asset or unit type built, bought or recruited
    project: dict[str, Any] | None = None
    costs: dict[str, Any] = field(default_factory=dict)  # everything the action may cost, price included
    price: int = 0  # Purchase Units: capital paid only if the deal is made
    relies_on_gains: bool = False  # it uses a unit an earlier order is to gain
    hide_from_influencers: bool = False  # discretion paid
    hide_from_others: bool = False

    @property
    def stealthy(self) -> bool:
        return bool(self.args.get("stealthy"))

    @property
    def destination(self) -> str:
        """Where the lieutenant stands after the action."""
        if self.action.target == "destination":
            return str(self.args["to"])
        return str(self.args.get("end_at") or self.lieutenant["location"])

    @property
    def units_destination(self) -> str | None:
        if self.action.target == "destination":
            return str(self.args["to"])
        return self.args.get("units_end_at")

    def end(self, state: State) -> None:
        """Minions end the action where the order says (anywhere in the locale that lets them in, checked
        with the order); those lost on the way stay lost."""
        if self.lieutenant["id"] in state["assets"]:
            self.lieutenant["location"] = self.destination
        for unit in self.units + self.gathered:
            if unit["id"] in state["assets"] and self.units_destination:
                unit["location"] = self.units_destination


@dataclass
class FactionsTurn(TurnMemory):
    """What the phases of a factions turn tell each other."""

    queues: dict[str, list[Order]] = field(default_factory=dict)  # each faction's orders, in its order
    assigned: dict[str, tuple[str, int]] = field(default_factory=dict)  # unit -> (faction, order number)
    gained: dict[tuple[str, int], str] = field(default_factory=dict)  # (faction, order) -> unit it gained
    results: dict[tuple[str, int], tuple[str, Plan]] = field(default_factory=dict)  # the band each got


class Position:
    """A faction's own position as its orders unfold, for the checker's sketch and the bot's draft: a
    copy of the state with the turn's income paid (income is the turn's first step, so the actions can
    already spend it), the units that already serve a lieutenant, and a ``Reader`` over both."""

    def __init__(self, game: Game, state: State, faction: str, gained: Callable[[int], str | None]) -> None:
        self.game, self.rules, self.faction = game, game.rules, faction
        self.state = copy.deepcopy(state)
        for stock, n in m.income_of(self.rules, state, faction).items():
            m.gain(self.state, faction, stock, n)
        self.assigned: set[str] = set()
        self.reader = Reader(game, self.state, faction, gained=gained, busy=self.assigned.__contains__)

    def take(self, plan: Plan) -> None:
        """What an order surely does to the position: it pays, its units serve, its minions move."""
        m.spend(self.state, self.faction, plan.costs)
        self.assigned.update(unit["id"] for unit in plan.units + plan.gathered)
        plan.end(self.state)


class Reader(Reading):
    """Reads one faction's orders against one state (a sketch at check time, the live state later)."""

    def __init__(
        self,
        game: Game,
        state: State,
        faction: str,
        *,
        gained: Callable[[int], str | None] = lambda n: f"{GAINED}{n}",
        busy: Callable[[str], bool] = lambda unit: False,
    ) -> None:
        super().__init__(game, state, faction)
        self.actions = catalogue(game.rules)
        self.gained = gained  # order number -> the id of the unit it gained, if any
        self.busy = busy  # whether a unit already serves another lieutenant this turn

    # -- the order ------------------------------------------------------------------------------------

    def plan(self, number: int, args: Mapping[str, Any]) -> Plan:
        action = self.actions[args["action"]]
        lieutenant = self._mine("lieutenant", args.get("lieutenant"), ("lieutenant",))
        plan = Plan(number, action, args, self.faction, lieutenant, self.locale(lieutenant["location"]))
        plan.units = self._units(plan)
        self._target(plan)
        self._flags(plan)
        self._endings(plan)
        plan.costs = self._costs(plan)
        return plan

    def locale(self, location: str) -> str:
        return m.locale_of(self.state, location)

    def _mine(self, name: str, aid: Any, kinds: tuple[str, ...], ref: Any = None) -> m.Asset:
        """The faction's asset of one of ``kinds`` that an order names by id (``ref`` as written)."""
        asset = self.state["assets"].get(aid)
        if asset is None or asset["owner"] != self.faction or m.kind_of(self.rules, asset) not in kinds:
            mine = [
                a["id"]
                for a in m.assets_of(self.state, self.rules, self.faction)
                if m.kind_of(self.rules, a) in kinds
            ]
            written = aid if ref is None else ref
            raise Reject(
                name, f"you have no {' or '.join(kinds)} '{written}'", f"yours: {', '.join(mine) or 'none'}"
            )
        return asset

    def _units(self, plan: Plan) -> list[m.Asset]:
        refs = list(plan.args.get("units") or [])
        limit = m.cohesion(self.state, self.faction)
        if len(refs) > limit:
            raise Reject(
                "units", f"a lieutenant commands at most {limit} units (your Cohesion); {len(refs)} given"
            )
        units = []
        for ref in refs:
            aid = ref
            if str(ref).startswith(GAINED):
                number = int(str(ref).removeprefix(GAINED)) if str(ref).removeprefix(GAINED).isdigit() else 0
                if not 0 < number < plan.number:
                    raise Reject("units", f"'{ref}' must name an earlier order, e.g. {GAINED}1")
                aid = self.gained(number)
                plan.relies_on_gains = True
                if aid is None:
                    raise Reject("units", f"order {number} gained no unit")
            unit = self._mine("units", aid, ("unit",), ref)
            if self.busy(unit["id"]) or unit in units:
                raise Reject("units", f"unit {ref} already serves another lieutenant this turn")
            if self.locale(unit["location"]) != plan.locale:
                raise Reject(
                    "units",
                    f"unit {ref} is in {self.locale(unit['location'])}, "
                    f"not in {plan.locale} with the lieutenant",
                    "only units in the lieutenant's locale can be assigned; move them with move_minion first",
                )
            rating = plan.action.rating
            if rating and rating not in m.competencies(self.rules, unit):
                raise Reject(
                    "units",
                    f"unit {ref} ({m.name_of(self.rules, unit)}) has no {rating} competency and cannot aid",
                    f"units with {rating}: "
                    + ", ".join(
                        a["id"]
                        for a in m.assets_of(self.state, self.rules, self.faction, "unit")
                        if rating in m.competencies(self.rules, a)
                    ),
                )
            units.append(unit)
        return units

    # -- what it is aimed at --------------------------------------------------------------------------

    def _location(self, plan: Plan, name: str = "location", *, in_locale: bool = True) -> str:
        where = plan.args.get(name)
        if where not in self.state["locations"]:
            raise Reject(name, f"there is no location '{where}'", self._locations_hint(plan, str(where)))
        if in_locale and self.locale(where) != plan.locale:
            raise Reject(
                name,
                f"{where} is not in {plan.locale}, where {plan.lieutenant['id']} is",
                "an action happens in the acting lieutenant's locale; move there first with move_minion",
            )
        return str(where)

    def _locations_hint(self, plan: Plan, where: str) -> str:
        """The locations of the locale the order names (LOCALE/PLACE); the lieutenant's own locale's
        when it names none; the locales themselves when the one named does not exist."""
        named = where.split("/", 1)[0] if "/" in where else plan.locale
        locales = sorted({str(location["locale"]) for location in self.state["locations"].values()})
        if named not in locales:
            return f"a location is LOCALE/PLACE, and no locale is called '{named}': " + choice_hint(
                named, locales
            )
        here, names = m.locations_in(self.state, named), self.names_of("locations")
        # A name may be of any locale ("Tavern of Gendgate"): it is guessed among all, the locale's listed.
        guess = named_suggestion(where, names, here if "/" in where else sorted(self.state["locations"]))
        listed = ", ".join(with_name(lid, names) for lid in here)
        return f"{guess + ' L' if guess else 'l'}ocations in {named}: {listed}"

    def _own(self, plan: Plan, name: str, kinds: tuple[str, ...]) -> m.Asset:
        asset = self._mine(name, plan.args.get(name), kinds)
        if self.locale(asset["location"]) != plan.locale:
            raise Reject(name, f"{asset['id']} is not in {plan.locale}, the acting lieutenant's locale")
        return asset

    def _target(self, plan: Plan) -> None:
        kind, rules, state = plan.action.target, self.rules, self.state
        if kind == "npc":
            plan.npc = self._npc_here(plan)
            if plan.action.id == "ally" and m.allied(state, self.faction, plan.npc):
                raise Reject("npc", f"you are already allied with {m.npc_name(rules, plan.npc)}")
        elif kind == "npc_location":
            plan.location = self._location(plan)
            holder = m.holder_of(state, plan.location)
            if not m.is_npc(rules, holder):
                raise Reject("location", f"{plan.location} is not held by an NPC faction")
            plan.npc = holder
        elif kind in ("faction", "faction_location"):
            rival = plan.args.get("target")
            others = [f for f in self.game.factions if f != self.faction]
            if rival not in others:
                raise Reject(
                    "target", f"'{rival}' is not another faction", self.hint_among(rival, "factions", others)
                )
            if state["factions"][rival].get("status", "active") != "active":
                raise Reject("target", f"{rival} is out of the game")
            plan.target = str(rival)
            if kind == "faction_location":
                plan.location = self._location(plan)
        elif kind in ("holder_location", "location"):
            plan.location = self._location(plan)
            holder = m.holder_of(state, plan.location)
            if kind == "holder_location" and holder in (None, self.faction):
                raise Reject(
                    "location",
                    f"{plan.location} is {'yours' if holder else 'held by nobody'}",
                    "choose a location held by another faction or an NPC faction",
                )
            plan.target = holder if holder != self.faction else None
            plan.npc = holder if m.is_npc(rules, holder) else None
        elif kind == "own_asset":
            plan.asset = self._own(plan, "asset", ("unit", "static") if plan.action.id == "sell" else m.KINDS)
        elif kind == "own_unit":
            plan.asset = self._own(plan, "unit", ("unit",))
            training = [p for p in m.projects_of(state, self.faction) if p["action"] == "train"]
            plan.project = next((p for p in training if p["asset"] == plan.asset["id"]), None)
        elif kind == "static_type":
            self._build(plan)
        elif kind in ("unit_type", "recruit_type"):
            plan.type_name = str(plan.args["unit_type"])
            if kind == "recruit_type":
                plan.location = (
                    self._location(plan) if plan.args.get("location") else plan.lieutenant["location"]
                )
                if not m.admits(state, rules, plan.location, self.faction):
                    raise Reject(
                        "location",
                        f"{plan.location} does not let you in",
                        "recruit somewhere public or your own",
                    )
                holder = m.holder_of(state, plan.location)
                plan.target = holder if holder != self.faction else None
        elif kind == "destination":
            self._move(plan)

    def _npc_here(self, plan: Plan) -> str:
        npc = str(plan.args["npc"])
        held = m.holdings_of(self.state, npc)
        if not any(self.locale(lid) == plan.locale for lid in held):
            where = sorted({self.locale(lid) for lid in held})
            raise Reject(
                "npc",
                f"{m.npc_name(self.rules, npc)} holds no location in {plan.locale}",
                f"meet them where they are: {', '.join(where) or 'nowhere'}",
            )
        return npc

    def _build(self, plan: Plan) -> None:
        if plan.args.get("project"):
            project = self.state["projects"].get(plan.args["project"])
            if project is None or project["owner"] != self.faction or project["action"] != "build":
                mine = [p["id"] for p in self.state["projects"].values() if p["owner"] == self.faction]
                raise Reject(
                    "project",
                    f"you have no building project '{plan.args['project']}'",
                    f"yours: {', '.join(mine) or 'none'}",
                )
            if self.locale(project["location"]) != plan.locale:
                raise Reject("project", f"{project['id']} is built in another locale than {plan.locale}")
            plan.project, plan.location, plan.type_name = project, project["location"], project["asset_type"]
            return
        if not plan.args.get("asset_type") or not plan.args.get("location"):
            raise Reject(
                None, "build needs either 'project' (to continue one) or both 'asset_type' and 'location'"
            )
        plan.type_name = str(plan.args["asset_type"])
        plan.location = self._location(plan)
        holder = m.holder_of(self.state, plan.location)
        if holder not in (None, self.faction):
            raise Reject(
                "location",
                f"{plan.location} is held by {holder}",
                "build at a public location or at your own",
            )

    def _move(self, plan: Plan) -> None:
        plan.location = self._location(plan, "to", in_locale=False)
        reach = int(self.rules["move_minion"]["range"])
        there = self.locale(plan.location)
        if there not in self.game.world.within(plan.locale, reach):
            raise Reject("to", f"{plan.location} is more than {reach} locale(s) away from {plan.locale}")
        if not m.admits(self.state, self.rules, plan.location, self.faction):
            raise Reject(
                "to",
                f"{plan.location} does not let you in",
                "choose a public location, your own, or one of an NPC faction you have influence with",
            )
        if plan.args.get("gather"):
            source = self._location(plan, "gather")
            swept = [
                a
                for a in m.assets_at(self.state, source)
                if a["owner"] == self.faction
                and m.kind_of(self.rules, a) == "unit"
                and not self.busy(a["id"])
            ]
            room = m.cohesion(self.state, self.faction) - len(plan.units)
            plan.gathered = [a for a in swept if a not in plan.units][: max(0, room)]

    # -- how it is done -------------------------------------------------------------------------------

    def _flags(self, plan: Plan) -> None:
        args, action = plan.args, plan.action
        if args.get("stealthy") and args.get("discreet"):
            raise Reject(
                "discreet",
                "an action is either stealthy or paid for discretion, not both",
                "drop one of them",
            )
        item = args.get("item")
        if item:
            have = self.state["factions"][self.faction].get("items", {}).get(item, 0)
            if not have:
                raise Reject("item", f"you have no '{item}'")
            spec = self.rules["items"].get(item)
            if spec is None or action.id not in spec["actions"]:
                used = ", ".join(spec["actions"]) if spec else "nothing in the rules"
                raise Reject("item", f"'{item}' gives no bonus to {action.id}", f"it helps: {used}")
        if args.get("spend_influence") and not plan.npc:
            raise Reject("spend_influence", "influence buys a bonus only on actions involving an NPC faction")
        if args.get("spend_influence", 0) > int(self.rules["influence"]["max_spend"]):
            raise Reject(
                "spend_influence", f"at most {self.rules['influence']['max_spend']} influence per action"
            )
        if args.get("discreet") and plan.npc:
            plan.hide_from_influencers = plan.hide_from_others = True
        elif action.discretion and plan.npc:
            plan.hide_from_others = self._discretion_price(plan)["everyone_else"] == 0

    def _endings(self, plan: Plan) -> None:
        """Where minions end an action other than Move Minion: a location of the locale they acted in.
        Only Move Minion takes them further, up to its range (``_move``)."""
        for name in ("end_at", "units_end_at"):
            where = plan.args.get(name)
            if not where:
                continue
            if where not in self.state["locations"]:
                raise Reject(name, f"there is no location '{where}'", self._locations_hint(plan, str(where)))
            if self.locale(where) != plan.locale:
                here = ", ".join(m.locations_in(self.state, plan.locale))
                raise Reject(
                    name,
                    f"{where} is not in {plan.locale}, where the action happens",
                    f"minions end in the locale where they acted ({here}); "
                    "to go further, give a move_minion order",
                )
            if not m.admits(self.state, self.rules, where, self.faction):
                raise Reject(name, f"{where} does not let you in")

    def _discretion_price(self, plan: Plan) -> dict[str, int]:
        d = self.rules["discretion"]
        bump = (
            0 if m.influence_with(self.state, self.faction, plan.npc or "") else int(d["without_influence"])
        )
        return {
            "factions_with_influence": int(d["factions_with_influence"]) + bump,
            "everyone_else": int(d["everyone_else"]) + bump,
        }

    def _costs(self, plan: Plan) -> dict[str, Any]:
        action, parts = plan.action, []
        fixed = {k: v for k, v in action.cost.items() if k != "influence"}
        parts.append(fixed)
        if action.cost.get("influence"):
            parts.append({"influence": {plan.npc: int(action.cost["influence"])}})
        if action.data.get("price") and plan.type_name and plan.project is None:
            plan.price = m.price_of(self.rules, plan.type_name)
            parts.append({"capital": plan.price})
        if plan.args.get("spend_influence"):
            parts.append({"influence": {plan.npc: int(plan.args["spend_influence"])}})
        if action.discretion and plan.npc:
            price = self._discretion_price(plan)
            amount = (price["factions_with_influence"] if plan.hide_from_influencers else 0) + (
                price["everyone_else"] if plan.hide_from_others else 0
            )
            if amount:
                has = m.influence_with(self.state, self.faction, plan.npc)
                parts.append(
                    {"influence": {plan.npc: amount}}
                    if has
                    else {self.rules["discretion"]["fallback_currency"]: amount}
                )
        return m.add_costs(*parts)
