"""Nations orders: the order models and the checks ``campaign check`` and ``resolve`` share.

The checker plays a nation's orders forward on a sketch of its own position
(armies, action points, resources) so later orders are checked against what the
earlier ones leave: an army split into 1a and 1b, a stock already spent. What it
cannot know, the moves of other nations, turns into warnings, not errors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ...core.fields import ActionSpec, Field, choice_hint
from ...core.orders import Order, OrderFile
from ...core.phases import State
from ...ruleset import Game
from . import agreements as ag
from . import model as m

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


def action_specs(rules: Rules, directions: tuple[str, ...]) -> dict[str, ActionSpec]:
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
            "Move an army one tile per movement point, in any of eight directions.",
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
                Field("target", "text", "The nation attacked, or the name of its settlement.", required=True),
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
                Field("location", "text", "The tile, e.g. C4.", required=True),
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
                Field("partner", "text", "The other nation, by id.", required=True),
                Field("kind", "choice", "trade, payment or alliance.", required=True, choices=ag.KINDS),
                Field(
                    "give", "int", "Resources you hand over (each turn, for a trade).", default=0, minimum=0
                ),
                Field("get", "int", "Resources you receive (each turn, for a trade).", default=0, minimum=0),
                Field("route", "list", "A trade's road tiles, next to each other, e.g. [D4, E4, F5]."),
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
            cost=(
                f"{agree_ap} action{'s' if agree_ap != 1 else ''}; resources as agreed"
                if agree_ap
                else "free; resources as agreed"
            ),
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


@dataclass
class Sketch:
    """A nation's own position as its orders unfold, for checking."""

    nation: str
    ap: int
    resources: int
    per_turn: int
    armies: dict[str, dict[str, Any]]  # name -> {location, units, modifiers, moved, defend}
    explored: int = 0
    marauded: set[str] = field(default_factory=set)
    worked: set[str] = field(default_factory=set)  # projects given actions this turn
    new_projects: dict[str, dict[str, Any]] = field(default_factory=dict)
    building: set[str] = field(default_factory=set)  # locations of settlements begun this turn
    roads: set[str] = field(default_factory=set)
    agreed: set[tuple[str, str]] = field(default_factory=set)  # (partner, kind) ordered so far
    # The name of the nation owning another nation's army id; asked only when an army name is wrong.
    foreign_owner: Callable[[str], str | None] = lambda army_id: None


def check_orders(game: Game, state: State, of: OrderFile) -> None:
    nation = of.faction or ""
    rules = game.rules
    sk = Sketch(
        nation=nation,
        ap=int(rules["actions"]["per_turn"]),
        per_turn=int(rules["actions"]["per_turn"]),
        resources=int(state["factions"][nation]["stock"].get("resources", 0)),
        armies={
            a["name"]: {
                "location": a["location"],
                "units": list(a["units"]),
                "modifiers": dict(a.get("modifiers", {})),
                "moved": False,
                "defend": False,
            }
            for a in m.armies_of(state, nation)
        },
        foreign_owner=lambda army_id: _foreign_owner(game, state, nation, army_id),
    )
    defend_names = {o["army"] for o in of.orders if o.action == "defend"}
    for order in of.orders:
        CHECKS[order.action](game, state, of, sk, order)
        if order.action == "move" and order["army"] in defend_names:
            of.error(
                order,
                "army",
                f"army {order['army']} is ordered to defend, so it cannot move this turn",
                "drop either the defend or the move order",
            )
    if sk.ap > 0 and not any(o.action in ("work",) for o in of.orders):
        pending = [p["name"] for p in m.projects_of(state, nation)]
        if pending:
            of.warn(
                None,
                "orders",
                f"{sk.ap} action point(s) unused while work is unfinished: {', '.join(pending)}",
                "put them into a project with 'work'",
            )


# -- helpers --------------------------------------------------------------------------------------------


def _foreign_owner(game: Game, state: State, nation: str, army_id: str) -> str | None:
    """The name of the nation owning another nation's army ``army_id``, for the error that says so.
    Asked only when a name is not one of the player's armies, so a valid file never pays for it."""
    army = state["armies"].get(army_id)
    return game.name_of(army["owner"]) if army is not None and army["owner"] != nation else None


def _army(of: OrderFile, sk: Sketch, order: Order, name_field: str = "army") -> dict[str, Any] | None:
    name = order[name_field]
    army = sk.armies.get(name)
    if army is None:
        theirs = list(sk.armies)
        hint = choice_hint(name, theirs) if theirs else "you have no armies"
        other = sk.foreign_owner(name)
        if other:
            of.error(
                order,
                name_field,
                f"army '{name}' belongs to {other}, not to you",
                f"your armies: {', '.join(theirs) or 'none'}",
            )
        else:
            of.error(order, name_field, f"you have no army '{name}' at this point of your orders", hint)
    elif not army["units"]:
        of.error(order, name_field, f"army {name} has no units left")
        return None
    return army


def _spend(of: OrderFile, sk: Sketch, order: Order, ap: int, resources: int, what: str) -> bool:
    ok = True
    if ap > sk.ap:
        of.error(
            order,
            "actions" if "actions" in order.args else None,
            f"{what} needs {ap} action point(s), but only {sk.ap} of your {sk.per_turn} are left",
            "drop an order or put fewer actions in; unfinished work carries over to the next turn",
        )
        ok = False
    if resources > sk.resources:
        of.error(
            order,
            None,
            f"{what} costs {resources} resources, but you have {sk.resources} left after the orders above",
            "drop or postpone an order; income arrives at the end of the turn",
        )
        ok = False
    if ok:
        sk.ap -= ap
        sk.resources -= resources
    return ok


def _actions_now(of: OrderFile, sk: Sketch, o: Order, needed: int) -> int:
    """The action points an order of multi-turn work puts in now: as written, or else what is left (at
    least one, so a nation with none left hears so). The number is written into the order, so the
    resolver carries out exactly what the check echoed."""
    actions = min(int(o["actions"]) if "actions" in o.args else max(sk.ap, 1), needed)
    of.orders[of.orders.index(o)] = replace(o, args={**o.args, "actions": actions})
    return actions


def _own_settlement(game: Game, state: State, of: OrderFile, order: Order, name_field: str) -> dict | None:
    s = m.settlement_named(state, order[name_field])
    mine = [x["name"] for x in m.settlements_of(state, of.faction or "")]
    if s is None:
        of.error(
            order,
            name_field,
            f"no settlement is called '{order[name_field]}'",
            choice_hint(order[name_field], mine) if mine else "you have no settlements",
        )
        return None
    if s["owner"] != of.faction:
        of.error(
            order,
            name_field,
            f"{s['name']} belongs to {game.name_of(s['owner'])}, not to you",
            choice_hint(order[name_field], mine) if mine else "you have no settlements",
        )
        return None
    return s


def _foreign_settlement(
    game: Game, state: State, of: OrderFile, order: Order, name_field: str
) -> dict | None:
    s = m.settlement_named(state, order[name_field])
    if s is None:
        names = [x["name"] for x in state["settlements"].values() if x["owner"] != of.faction]
        of.error(
            order,
            name_field,
            f"no settlement is called '{order[name_field]}'",
            choice_hint(order[name_field], names) if names else "check the map",
        )
        return None
    if s["owner"] == of.faction:
        of.error(order, name_field, f"{s['name']} is your own settlement")
        return None
    return s


# -- one check per action ----------------------------------------------------------------------------------


def _move(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    army = _army(of, sk, o)
    if army is None:
        return
    rules = game.rules
    if army["moved"]:
        of.error(o, "army", f"army {o['army']} has already moved this turn", "give each army one move order")
        return
    speed = m.army_speed(army, rules, state)  # the slowest unit, plus a GM 'move' modifier on the army
    limit = speed * (2 if o["fast"] else 1)
    if len(o["path"]) > limit:
        of.error(
            o,
            "path",
            f"army {o['army']} can move {limit} tile(s) this turn, the path has {len(o['path'])}",
            "shorten the path" + ("" if o["fast"] else ", or add 'fast: true' for 1 action"),
        )
        return
    tiles, problem = m.walk(game.world, rules, army["location"], o["path"])
    if problem:
        of.error(o, "path", problem, "choose another route")
        return
    if o["fast"] and not _spend(of, sk, o, int(rules["actions"]["fast_movement"]), 0, "fast movement"):
        return
    for tile in tiles[:-1]:
        blockers = m.foreign_armies_at(state, tile, sk.nation) or [
            s for s in [m.settlement_at(state, tile)] if s and s["owner"] != sk.nation
        ]
        if blockers:
            of.warn(
                o,
                "path",
                f"{game.world[tile].label} holds foreign forces now; the move stops there if "
                "they are still there when it is carried out",
                "nothing to fix if that risk is fine; otherwise choose a path around that tile",
            )
            break
    start = army["location"]
    army["location"] = tiles[-1]
    army["moved"] = True
    route = " → ".join(game.world[t].label for t in [start, *tiles])
    of.echo[o.number] = f"army {o['army']} moves {', '.join(o['path'])}: {route}" + (
        " (fast)" if o["fast"] else ""
    )


def _attack(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    army = _army(of, sk, o)
    if army is None:
        return
    target = o["target"]
    where = army["location"]
    s = m.settlement_named(state, target)
    if target in game.factions:
        if target == sk.nation:
            of.error(o, "target", "you cannot attack yourself")
            return
        nation = target
    elif s is not None:
        if s["owner"] == sk.nation:
            of.error(o, "target", f"{s['name']} is your own settlement")
            return
        nation = s["owner"]
        if s["location"] != where:
            of.warn(
                o,
                "target",
                f"{s['name']} is at {game.world[s['location']].label}, but army {o['army']} will "
                f"be at {game.world[where].label}",
                "move onto the settlement's tile first",
            )
    else:
        of.error(
            o,
            "target",
            f"'{target}' is neither a nation nor a settlement",
            choice_hint(target, [f for f in game.factions if f != sk.nation]),
        )
        return
    present = m.foreign_armies_at(state, where, sk.nation)
    settlement = m.settlement_at(state, where)
    if not any(a["owner"] == nation for a in present) and not (settlement and settlement["owner"] == nation):
        of.warn(
            o,
            "target",
            f"{game.name_of(nation)} has nothing at {game.world[where].label} right now; the "
            "attack happens only if it is there when your orders are carried out",
            "keep it if you expect them to arrive first; otherwise target a nation on your army's tile",
        )
    what = (
        f"assault on {settlement['name']} ({o['on_fall']} if it falls)"
        if settlement and settlement["owner"] == nation
        else f"attack on {game.name_of(nation)}"
    )
    of.echo[o.number] = f"army {o['army']} at {game.world[where].label}: {what}"


def _siege(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    army = _army(of, sk, o)
    s = _foreign_settlement(game, state, of, o, "settlement")
    if army is None or s is None:
        return
    need = int(game.rules["siege"]["min_units"])
    if len(army["units"]) < need:
        of.error(
            o,
            "army",
            f"a siege needs an army of {need} units; army {o['army']} has {len(army['units'])}",
            "merge armies or recruit first",
        )
        return
    if army["location"] != s["location"]:
        of.warn(
            o,
            "settlement",
            f"{s['name']} is at {game.world[s['location']].label}; army {o['army']} will be at "
            f"{game.world[army['location']].label}",
            "move onto the settlement's tile in an earlier order",
        )
    besieger = (s.get("siege") or {}).get("owner")
    if besieger and besieger != sk.nation:
        of.error(o, "settlement", f"{s['name']} is already besieged by {game.name_of(besieger)}")
        return
    of.echo[o.number] = f"army {o['army']} besieges {s['name']}"


def _defend(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    army = _army(of, sk, o)
    if army is None:
        return
    if m.settlement_at(state, army["location"]):
        of.warn(
            o,
            "army",
            "the defend bonus does not apply to units in a settlement",
            "drop the defend order; the settlement's own bonus defends them",
        )
    army["defend"] = True
    of.echo[o.number] = (
        f"army {o['army']} holds at {game.world[army['location']].label} and defends (+1 defence)"
    )


def _split(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    army = _army(of, sk, o)
    if army is None:
        return
    ids = [u["id"] for u in army["units"]]
    wanted = o["units"]
    for uid in wanted:
        owner = next(
            (a["owner"] for a in state["armies"].values() for u in a["units"] if u["id"] == uid), None
        )
        if owner is not None and owner != sk.nation:
            of.error(
                o,
                "units",
                f"unit {uid} belongs to {game.name_of(owner)}, not to you",
                f"army {o['army']} has: {', '.join(ids)}",
            )
            return
        if uid not in ids:
            of.error(o, "units", f"army {o['army']} has no unit '{uid}'", choice_hint(uid, ids))
            return
    if len(set(wanted)) == len(ids):
        of.error(o, "units", "a split must leave at least one unit behind", "name fewer units")
        return
    go, stay = m.split_names(
        {"armies": {n: {"owner": sk.nation, "name": n} for n in sk.armies}}, sk.nation, o["army"]
    )
    del sk.armies[o["army"]]
    sk.armies[go] = {**army, "units": [u for u in army["units"] if u["id"] in wanted]}
    sk.armies[stay] = {**army, "units": [u for u in army["units"] if u["id"] not in wanted]}
    of.echo[o.number] = (
        f"army {o['army']} splits: {go} takes {', '.join(wanted)}, "
        f"{stay} keeps the other {len(ids) - len(set(wanted))} unit(s)"
    )


def _merge(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    army = _army(of, sk, o)
    into = _army(of, sk, o, "into")
    if army is None or into is None:
        return
    if o["army"] == o["into"]:
        of.error(o, "into", "an army cannot merge into itself")
        return
    if army["location"] != into["location"]:
        of.error(
            o,
            "into",
            f"army {o['into']} is not on the same tile as army {o['army']}",
            "move them together first",
        )
        return
    into["units"] = into["units"] + army["units"]
    into["moved"] = into["moved"] or army["moved"]
    del sk.armies[o["army"]]
    of.echo[o.number] = f"army {o['army']} merges into army {o['into']}"


def _recruit(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    s = _own_settlement(game, state, of, o, "settlement")
    if s is None:
        return
    rules = game.rules
    cls = rules["unit_classes"][o["class"]]
    if not cls.get("recruitable"):
        of.error(
            o,
            "class",
            f"{o['class']} units cannot be recruited: they are found by exploring or granted by the GM",
            "recruit " + " or ".join(c for c, d in rules["unit_classes"].items() if d.get("recruitable")),
        )
        return
    if s.get("siege"):
        of.error(o, "settlement", f"{s['name']} is under siege: no recruiting there", "recruit elsewhere")
        return
    stats = o.get("stats", {})
    points = m.stat_point_cost(rules, stats)
    if points > int(cls["stat_points"]):
        of.error(
            o,
            "stats",
            f"{o['class']} have {cls['stat_points']} stat point(s); these stats cost {points}",
            "attack and defence cost 1 point each; move, hp and attacks cost 2",
        )
        return
    if points < int(cls["stat_points"]):
        of.warn(
            o,
            "stats",
            f"{int(cls['stat_points']) - points} stat point(s) left unspent",
            "spend them with 'stats', e.g. stats: {attack: 1}",
        )
    if not o.get("trait") and int(cls.get("traits", 0)):
        of.warn(
            o,
            "trait",
            f"{o['class']} have {cls['traits']} trait(s); none given",
            "add 'trait:', e.g. trait: stealth, or any word for flavour",
        )
    if not _spend(of, sk, o, 1, int(cls["resources"]), f"recruiting {o['class']}"):
        return
    turns = int(cls["turns"])
    when = "musters at the end of this turn" if turns == 1 else f"turn 1 of {turns}; give it 'work' each turn"
    of.echo[o.number] = (
        f"recruit {o['class']} '{o['name']}' at {s['name']}: {cls['resources']} resources, 1 action; {when}"
    )


def _build(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    army = _army(of, sk, o)
    if army is None:
        return
    rules, world = game.rules, game.world
    where = army["location"]
    label = world[where].label
    if o["type"] == "capital" and (
        m.has_capital(state, sk.nation)
        or any(p["kind"] == "build" and p["type"] == "capital" for p in m.projects_of(state, sk.nation))
    ):
        of.error(o, "type", "a nation has one capital", "build a standard, farming or military settlement")
        return
    if m.settlement_named(state, o["name"]) or any(
        p.get("settlement_name", "").casefold() == o["name"].casefold() for p in state["projects"].values()
    ):
        of.error(o, "name", f"the name '{o['name']}' is taken", "choose another name")
        return
    gap = int(rules["build"]["min_distance"])
    near = [s for s in state["settlements"].values() if world.distance(s["location"], where) < gap]
    near_projects = [
        p
        for p in state["projects"].values()
        if p["kind"] == "build" and world.distance(p["location"], where) < gap
    ] + [loc for loc in sk.building if world.distance(loc, where) < gap]
    if near or near_projects:
        what = near[0]["name"] if near else "another settlement being built"
        of.error(
            o,
            "army",
            f"{label} is too close to {what}: settlements must be {gap} tiles apart",
            "move the army further away first",
        )
        return
    b = rules["build"]
    actions = _actions_now(of, sk, o, int(b["actions"]))
    if not _spend(of, sk, o, actions, int(b["resources"]), "founding a settlement"):
        return
    sk.building.add(where)
    left = int(b["actions"]) - actions
    of.echo[o.number] = (
        f"found {o['type']} settlement '{o['name']}' at {label}: {b['resources']} resources, "
        f"{actions} action(s) now" + (f", {left} more to finish" if left else ", finished this turn")
    )


def _upgrade(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    s = _own_settlement(game, state, of, o, "settlement")
    if s is None:
        return
    rules = game.rules
    if s["level"] >= int(rules["settlements"][s["type"]]["max_level"]):
        of.error(o, "settlement", f"{s['name']} is already at its highest level ({s['level']})")
        return
    running = next(
        (p for p in m.projects_of(state, sk.nation) if p["kind"] == "upgrade" and p["settlement"] == s["id"]),
        None,
    )
    if running:
        of.error(
            o,
            "settlement",
            f"{s['name']} is already being upgraded as project {running['name']}",
            f"use: action: work, project: {running['name']}",
        )
        return
    if s["id"] in sk.new_projects:
        of.error(o, "settlement", f"{s['name']} already has an upgrade ordered above")
        return
    to = s["level"] + 1
    needed, upfront, per_action = m.upgrade_cost(rules, to)
    actions = _actions_now(of, sk, o, needed)
    if not _spend(of, sk, o, actions, upfront + per_action * actions, f"upgrading {s['name']}"):
        return
    sk.new_projects[s["id"]] = {"kind": "upgrade"}
    total = upfront + per_action * needed
    of.echo[o.number] = (
        f"upgrade {s['name']} to level {to}: {needed} actions and {total} resources in all; "
        f"{actions} action(s) now"
    )


def _advance(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    rules = game.rules
    name = o["advancement"].strip().lower()
    current = state["factions"][sk.nation].get("advancements", {}).get(name, {}).get("level", 0)
    top = int(rules["advancement"]["max_level"])
    if current >= top:
        of.error(o, "advancement", f"{name} is already at level {top}, the highest")
        return
    running = next(
        (p for p in m.projects_of(state, sk.nation) if p["kind"] == "advance" and p["advancement"] == name),
        None,
    )
    if running or f"adv:{name}" in sk.new_projects:
        hint = f"use: action: work, project: {running['name']}" if running else "order it once"
        of.error(o, "advancement", f"{name} is already being developed", hint)
        return
    to = current + 1
    needed, cost = m.advancement_cost(rules, to)
    actions = _actions_now(of, sk, o, needed)
    if not _spend(of, sk, o, actions, cost, f"advancement {name} level {to}"):
        return
    sk.new_projects[f"adv:{name}"] = {"kind": "advance"}
    if name not in rules["advancements"]:
        of.warn(
            o,
            "advancement",
            f"'{name}' is not in the catalogue; the GM will rule on what it grants",
            "catalogue: " + ", ".join(rules["advancements"]),
        )
    of.echo[o.number] = (
        f"advancement {name} level {to}: {cost} resources, {needed} action(s) in all, {actions} now"
    )


def _work(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    p = m.project_named(state, sk.nation, o["project"])
    if p is None:
        mine = [x["name"] for x in m.projects_of(state, sk.nation)]
        of.error(
            o,
            "project",
            f"you have no project '{o['project']}'",
            choice_hint(o["project"], mine) if mine else "start work with build, upgrade, advance or recruit",
        )
        return
    if p["name"] in sk.worked:
        of.error(o, "project", f"project {p['name']} already has work ordered above", "order it once")
        return
    left = int(p["needed"]) - int(p["progress"])
    if p["kind"] == "recruit":
        if o.get("actions", 1) != 1:
            of.error(o, "actions", "training takes exactly 1 action each turn", "write actions: 1")
            return
        s = state["settlements"].get(p["settlement"])
        if s and s.get("siege"):
            of.error(o, "project", f"{s['name']} is under siege: training there is halted")
            return
        left = 1
    actions = _actions_now(of, sk, o, left)
    per_action = int(p.get("resources_per_action", 0))
    if not _spend(of, sk, o, actions, per_action * actions, f"work on {p['name']}"):
        return
    sk.worked.add(p["name"])
    of.echo[o.number] = (
        f"work on {p['name']} ({p['title']}): {actions} action(s), "
        f"{int(p['progress']) + actions} of {p['needed']}"
    )


def _explore(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    army = _army(of, sk, o)
    if army is None:
        return
    limit = int(game.rules["exploration"]["per_turn"])
    if sk.explored >= limit:
        of.error(o, None, f"only {limit} army per nation may explore each turn", "drop this explore order")
        return
    where = army["location"]
    if game.rules["exploration"]["once_per_tile"] and where in state["factions"][sk.nation].get(
        "explored", []
    ):
        of.error(o, "army", f"you have already explored {game.world[where].label}", "explore a new tile")
        return
    sk.explored += 1
    of.echo[o.number] = f"army {o['army']} explores {game.place_label(where)}"


def _maraud(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    army = _army(of, sk, o)
    s = _foreign_settlement(game, state, of, o, "settlement")
    if army is None or s is None:
        return
    reach = int(game.rules["marauding"]["range"])
    if game.world.distance(army["location"], s["location"]) > reach:
        of.error(
            o,
            "army",
            f"army {o['army']} will be {game.world.distance(army['location'], s['location'])} "
            f"tiles from {s['name']}; marauding needs {reach}",
            "move closer first",
        )
        return
    if s.get("siege"):
        of.error(o, "settlement", f"{s['name']} is under siege and cannot be marauded")
        return
    if s["id"] in sk.marauded or o["army"] in sk.marauded:
        of.error(o, "settlement", "each settlement, and each army, can maraud once a turn")
        return
    sk.marauded |= {s["id"], o["army"]}
    of.echo[o.number] = f"army {o['army']} marauds around {s['name']}"


def _road(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    world, rules = game.world, game.rules
    where = o["location"]
    if where not in world:
        of.error(o, "location", f"there is no tile '{where}'", "use a tile id such as C4")
        return
    reach = int(rules["roads"]["reach"])
    if not any(world.distance(a["location"], where) <= reach for a in sk.armies.values() if a["units"]):
        of.error(
            o, "location", f"none of your armies is within {reach} tile of {where}", "bring an army closer"
        )
        return
    roads = state.get("roads", {})
    if o["destroy"]:
        if where not in roads:
            of.error(o, "location", f"there is no road on {where}")
            return
        if _spend(of, sk, o, 0, int(rules["roads"]["destroy_cost"]), "destroying a road"):
            of.echo[o.number] = f"destroy the road on {where}"
        return
    if where in roads or where in sk.roads:
        of.error(o, "location", f"{where} already has a road")
        return
    if not m.passable(world, rules, where):
        of.error(o, "location", f"{where} is {world[where].terrain}; roads need land")
        return
    if _spend(of, sk, o, 0, int(rules["roads"]["build_cost"]), "a road"):
        sk.roads.add(where)
        of.echo[o.number] = f"build a road on {where}"


def _agree(game: Game, state: State, of: OrderFile, sk: Sketch, o: Order) -> None:
    terms = ag.terms_of(sk.nation, o)
    others = [f for f in game.factions if f != sk.nation]
    if terms.partner not in others:
        of.error(o, "partner", f"'{terms.partner}' is not another nation", choice_hint(terms.partner, others))
        return
    partner = game.name_of(terms.partner)
    met = state["factions"][sk.nation].get("contacts", [])
    if game.rules["agreements"]["requires_contact"] and terms.partner not in met:
        of.error(
            o,
            "partner",
            f"you have not met {partner}: agreements need a tile shared once",
            "meet them first; nations meet when their units or settlements share a tile",
        )
        return
    key = (terms.partner, terms.kind)
    if key in sk.agreed:
        of.error(o, "kind", f"a {terms.kind} with {partner} is already ordered above", "order it once")
        return
    if terms.end:
        if terms.kind not in ag.STANDING:
            of.error(o, "end", "a payment is made once and has nothing to end", "drop 'end'")
        elif ag.standing_between(state, sk.nation, terms.partner, terms.kind) is None:
            of.error(o, "end", f"you have no {terms.kind} with {partner} to end", "drop this order")
        else:
            sk.agreed.add(key)
            of.echo[o.number] = terms.describe()
        return
    if terms.kind == "alliance":
        extra = [name for name in ("give", "get", "route") if o.get(name)]
        if extra:
            of.error(
                o, extra[0], f"an alliance has no '{extra[0]}'", "use a payment or a trade for resources"
            )
            return
        if ag.allied(state, sk.nation, terms.partner):
            of.warn(o, "kind", f"you are already allied with {partner}; the order renews the alliance")
    elif not terms.give and not terms.get:
        of.error(o, "give", f"a {terms.kind} moves resources: give, get or both", "add give: N or get: N")
        return
    if terms.kind == "trade":
        if not terms.route:
            of.error(o, "route", "a trade needs a road route", "add route: [tile, tile, ...] along roads")
            return
        problem = ag.route_problem(game.world, terms.route)
        if problem:
            of.error(o, "route", problem, "list road tiles in order, each next to the one before")
            return
        roads = state.get("roads", {})
        missing = [t for t in terms.route if t not in roads and t not in sk.roads]
        if missing:
            of.warn(
                o,
                "route",
                f"{missing[0]} has no road now; the goods travel only while every tile of the route has one",
                "build the road first (action: road)",
            )
    elif terms.route:
        of.error(o, "route", f"only a trade has a route, not a {terms.kind}", "drop 'route'")
        return
    what = "the payment" if terms.kind == "payment" else "this turn's trade"
    ap = int(game.rules["agreements"]["actions"])
    if _spend(of, sk, o, ap, terms.give, f"{what} with {partner}"):
        sk.agreed.add(key)
        of.echo[o.number] = terms.describe() + f"; made only if {partner} orders the same from its side"


CHECKS: dict[str, Callable[[Game, State, OrderFile, Sketch, Order], None]] = {
    "move": _move,
    "attack": _attack,
    "siege": _siege,
    "defend": _defend,
    "split": _split,
    "merge": _merge,
    "recruit": _recruit,
    "build": _build,
    "upgrade": _upgrade,
    "advance": _advance,
    "work": _work,
    "explore": _explore,
    "maraud": _maraud,
    "road": _road,
    "agree": _agree,
}
