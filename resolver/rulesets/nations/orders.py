"""Nations orders: the order models, and the checker, which reads each order with the plan the resolver
uses too (``plans``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from ...core.fields import ActionSpec, Field
from ...core.orders import OrderFile
from ...core.phases import State
from ...core.words import plural
from ...core.world import HEX_STEPS, SQUARE_STEPS
from ...engine.plans import plan_or_error
from ...engine.ruleset import Game
from . import agreements as ag
from . import model as m
from .memory import NationsTurn
from .plans import PLANS, NationReading, sketch_of
from .sketch import army_index

Rules = Mapping[str, Any]

_ARMY = Field("army", "text", "The army's name, e.g. 1 or 1a.", required=True)
# Multi-turn work takes the action points that are left (up to what it still needs) unless the order
# names a number: a player who writes one build order expects the nation's whole turn to go into it.
_ACTIONS = Field(
    "actions",
    "int",
    "Action points to put in now; if left out, all that are left, up to what it needs.",
    minimum=1,
)
ON_FALL = ("capture", "raid", "raze")
_NUMBERS = {6: "six", 8: "eight"}  # the directions of a hex and of a square grid


def action_specs(rules: Rules) -> dict[str, ActionSpec]:
    directions = tuple(HEX_STEPS if rules["world"]["kind"] == "hex" else SQUARE_STEPS)
    classes = tuple(rules["unit_classes"])
    build_types = ("capital", *rules["build"]["types"])
    per_turn = int(rules["actions"]["per_turn"])
    b, fast = rules["build"], rules["actions"]["fast_movement"]
    agree_ap = int(rules["agreements"]["actions"])
    stat_costs = ", ".join(f"{stat} {cost}" for stat, cost in rules["recruit"]["stat_point_cost"].items())
    explorations, reach = rules["exploration"]["per_turn"], rules["marauding"]["range"]
    specs = [
        ActionSpec(
            "move",
            f"Move an army one tile per movement point, in any of {_NUMBERS[len(directions)]} directions.",
            (
                _ARMY,
                Field(
                    "path",
                    "list",
                    "Directions, one per step, e.g. [NW, N].",
                    required=True,
                    items="choice",
                    choices=directions,
                    minimum=1,
                ),
                Field(
                    "fast", "bool", f"Fast movement: double distance for {fast} action point.", default=False
                ),
            ),
            cost=f"free; fast movement {fast} action",
            example={"action": "move", "army": "1", "path": ["NW", "N"]},
        ),
        ActionSpec(
            "attack",
            "Attack a nation's armies on your army's tile, or assault its settlement there.",
            (
                _ARMY,
                Field(
                    "target",
                    "text",
                    "The nation attacked (by id or by name), or the name of its settlement.",
                    required=True,
                    names="factions",
                ),
                Field(
                    "on_fall",
                    "choice",
                    "If the settlement falls: capture, raid or raze.",
                    default="capture",
                    choices=ON_FALL,
                ),
            ),
            cost="free",
            example={"action": "attack", "army": "1", "target": "blue"},
        ),
        ActionSpec(
            "siege",
            f"Lay siege to a settlement on your army's tile (needs {rules['siege']['min_units']} units).",
            (
                _ARMY,
                Field("settlement", "text", "The settlement besieged.", required=True),
            ),
            cost="free",
        ),
        ActionSpec(
            "defend",
            f"Hold and defend: +{rules['combat']['defend_stance_bonus']} defence this turn if the army does "
            "not move and is not in a settlement.",
            (_ARMY,),
            cost="free",
        ),
        ActionSpec(
            "split",
            "Split units off an army: army 1 becomes 1a (the units named) and 1b (the rest).",
            (
                _ARMY,
                Field("units", "list", "Ids of the units that split off.", required=True, minimum=1),
            ),
            cost="free",
        ),
        ActionSpec(
            "merge",
            "Merge an army into another on the same tile.",
            (
                _ARMY,
                Field("into", "text", "The army that absorbs it.", required=True),
            ),
            cost="free",
        ),
        ActionSpec(
            "recruit",
            "Train a unit in a settlement; one action per turn of training.",
            (
                Field("settlement", "text", "Where it trains.", required=True),
                Field("class", "choice", "Unit class.", required=True, choices=classes),
                Field("name", "text", "What the unit is called, e.g. Archers.", required=True, max_length=60),
                Field("trait", "text", "Its trait, e.g. stealth (rules) or any flavour.", max_length=60),
                Field(
                    "stats",
                    "counts",
                    f"Stat points spent; each +1 costs: {stat_costs}.",
                    choices=m.STATS,
                ),
            ),
            cost="1 action; resources by class",
            example={"action": "recruit", "settlement": "Capital", "class": "troops", "name": "Archers"},
        ),
        ActionSpec(
            "build",
            f"Found a settlement where an army stands ({b['actions']} actions, {b['resources']} resources).",
            (
                _ARMY,
                Field("type", "choice", "Settlement type.", required=True, choices=build_types),
                Field("name", "text", "Its name.", required=True, max_length=40),
                replace(_ACTIONS, maximum=per_turn),
            ),
            cost=f"{b['actions']} actions, {b['resources']} resources",
        ),
        ActionSpec(
            "upgrade",
            "Raise a settlement one level.",
            (
                Field("settlement", "text", "The settlement.", required=True),
                replace(_ACTIONS, maximum=per_turn),
            ),
            cost="by level",
        ),
        ActionSpec(
            "advance",
            "Research or build an advancement, or raise one to its next level.",
            (
                Field(
                    "advancement",
                    "text",
                    "Its name: " + ", ".join(rules["advancements"]) + ", or a new one the GM rules on.",
                    required=True,
                    max_length=40,
                ),
                replace(_ACTIONS, maximum=per_turn),
                Field("note", "text", "What you hope it does, for the GM.", max_length=400, multiline=True),
            ),
            cost=f"level × {rules['advancement']['actions_per_level']} action, "
            f"level × {rules['advancement']['resources_per_level']} resources",
        ),
        ActionSpec(
            "work",
            "Put action points into unfinished work: a settlement, an upgrade, an advancement, or "
            "the next turn of a unit's training.",
            (
                Field("project", "text", "The project's name, e.g. p2.", required=True),
                _ACTIONS,
            ),
            cost="actions as given",
        ),
        ActionSpec(
            "explore",
            f"Explore the army's tile ({explorations} army per nation per turn).",
            (_ARMY,),
            cost="free",
            example={"action": "explore", "army": "1"},
        ),
        ActionSpec(
            "maraud",
            f"Raid the land around a foreign settlement within {reach} tile: steal resources, kill "
            "population.",
            (
                _ARMY,
                Field("settlement", "text", "The settlement marauded.", required=True),
            ),
            cost="free",
        ),
        ActionSpec(
            "road",
            "Build a road on a tile next to one of your armies, or destroy one.",
            (
                Field(
                    "location",
                    "text",
                    "The tile, e.g. C4, or its place's name.",
                    required=True,
                    names="places",
                ),
                Field("destroy", "bool", "Destroy the road instead.", default=False),
            ),
            cost=f"{rules['roads']['build_cost']} resources; destroying {rules['roads']['destroy_cost']}",
        ),
        ActionSpec(
            "agree",
            "Make an agreement with a nation you have met: a trade each turn along a road route, a "
            "one-off payment (for mercenaries, say), or an alliance. Both nations order it, each from its "
            "own side; it is made only if the two orders match.",
            (
                Field(
                    "partner", "text", "The other nation, by id or by name.", required=True, names="factions"
                ),
                Field("kind", "choice", "trade, payment or alliance.", required=True, choices=ag.KINDS),
                Field(
                    "give", "int", "Resources you hand over (each turn, for a trade).", default=0, minimum=0
                ),
                Field("get", "int", "Resources you receive (each turn, for a trade).", default=0, minimum=0),
                Field(
                    "route",
                    "list",
                    "A trade's road tiles, next to each other, e.g. [D4, E4, F5].",
                    names="places",
                ),
                Field(
                    "turns",
                    "int",
                    "How many turns a trade runs.",
                    default=1,
                    minimum=1,
                    maximum=int(rules["agreements"]["trade_max_turns"]),
                ),
                Field("end", "bool", "End the trade or alliance you have with the partner.", default=False),
                Field("note", "text", "What a payment is for, for the record.", max_length=200),
            ),
            cost=f"{plural(agree_ap, 'action')}; resources as agreed"
            if agree_ap
            else "free; resources as agreed",
            example={
                "action": "agree",
                "partner": "blue",
                "kind": "trade",
                "give": 2,
                "get": 2,
                "route": ["D4", "E4"],
                "turns": 3,
            },
        ),
    ]
    return {s.name: s for s in specs}


def check_orders(game: Game, state: State, of: OrderFile) -> None:
    """Play the nation's orders forward on a sketch of its own position (armies, action points,
    resources), so later orders are checked against what the earlier ones leave: an army split into 1a
    and 1b, a stock already spent. What it cannot know, the moves of other nations, turns into warnings."""
    nation = of.faction or ""
    sketch = sketch_of(state, nation)
    memory = NationsTurn(armies=army_index(state, sketch, nation))
    reading = NationReading(game, sketch, nation, memory, checked=of)
    defending = {o["army"] for o in of.orders if o.action == "defend"}
    for order in list(of.orders):
        plan = plan_or_error(of, reading, order, partial(PLANS[order.action], reading))
        if plan is not None and game.actions[order.action].field("actions"):
            # Written into the order, so the resolver puts in exactly the action points echoed here.
            of.orders[of.orders.index(order)] = replace(order, args={**order.args, "actions": plan.actions})
        if plan is not None and plan_or_error(of, reading, order, lambda _, plan=plan: reading.pay(plan)):
            plan.sure()
            if plan.tiles:  # the sketch assumes a march goes all the way; the warnings said where it may stop
                memory.armies.move(plan.army or {}, plan.tiles[-1])
            of.echo[order.number] = plan.echo
        if order.action == "move" and order["army"] in defending:
            of.error(
                order,
                "army",
                f"army {order['army']} is ordered to defend, so it cannot move this turn",
                "drop either the defend or the move order",
            )
    if reading.actions_left > 0 and not any(o.action == "work" for o in of.orders):
        pending = [p["name"] for p in m.projects_of(state, nation)]
        if pending:
            of.warn(
                None,
                "orders",
                f"{reading.actions_left} action point(s) unused while work is unfinished: "
                + ", ".join(pending),
                "put them into a project with 'work'",
            )
