"""Nations orders, each read once: against a sketch of the nation's own position by the checker, against
the live state by the resolver when the order's turn comes.

A plan names what the order acts on (the army, the settlement, the tiles of a march), what it costs (action
points and resources) and how the checker echoes it; ``sure`` plays its certain consequences on the view it
was read against (an army split, a march noted). What only happens in the resolver (battles, dice, events)
is in ``phases``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...core import canonical, stillness
from ...core.fields import choice_hint
from ...core.orders import Order, OrderFile
from ...core.phases import State
from ...engine.plans import Reading, Reject
from ...engine.ruleset import Game
from . import agreements as ag
from . import model as m
from .memory import NationsTurn
from .sketch import SketchArmies, sketch_armies


def sketch_of(state: State, nation: str) -> State:
    """The state as a nation's own orders may change it for the checker: its armies, stock and counters
    copied, the rest shared (nothing else is written on a sketch), so checking a file costs what the
    nation owns, not what the whole map holds."""
    factions = {**state["factions"], nation: canonical.plain_copy(state["factions"][nation])}
    read_in_part = sketch_armies(state["armies"], nation)  # armies read one by one (campaign check)
    if read_in_part is not None:
        return {**state, "armies": read_in_part, "factions": factions}
    # A sketch moves, renames, splits and merges armies, but never changes a unit.
    mine = {key: {**a, "units": list(a["units"])} for key, a in m.army_entries_of(state, nation)}
    if stillness.is_held(state["armies"]):
        # Checking every file of a big campaign: the nation's copies over the armies as they are, rather
        # than a copy of every army for each file, which made checking grow with the square of the map.
        return {**state, "armies": SketchArmies(state["armies"], mine), "factions": factions}
    return {**state, "armies": {**state["armies"], **mine}, "factions": factions}


def _nothing() -> None:
    """Most orders change nothing for sure until the resolver carries them out."""


@dataclass
class Plan:
    """One order as read against one view of the state: what it acts on, what it costs, what it means."""

    order: Order
    nation: str
    echo: str  # the order as the checker understood it
    actions: int = 0  # action points it takes
    resources: int = 0  # resources paid before it happens
    paying_for: str = ""  # what the cost buys, in the checker's words
    sure: Callable[[], None] = _nothing  # its certain consequences on the view it was read against
    army: m.Army | None = None
    settlement: m.Settlement | None = None  # the settlement it acts on (assaulted, when an attack)
    project: dict[str, Any] | None = None  # the project worked on, or the one a new work begins
    enemy: str = ""  # the nation attacked
    defenders: list[m.Army] = field(default_factory=list)
    tiles: list[str] = field(default_factory=list)  # every tile a march enters, in order
    where: str = ""  # the tile of a road, or where a march meets foreign forces
    details: dict[str, Any] = field(default_factory=dict)  # what the reading settled, for the event


class NationReading(Reading):
    """A nation's orders read against a sketch (checker) or the live state (resolver), with the turn's
    memory: the armies by name and place, and what earlier orders of the turn have done."""

    def __init__(
        self, game: Game, state: State, nation: str, memory: NationsTurn, checked: OrderFile | None = None
    ) -> None:
        super().__init__(game, state, nation, checked)
        self.memory = memory
        self.per_turn = int(self.rules["actions"]["per_turn"])
        self.actions_left = self.per_turn  # counted by the checker; the resolver trusts the numbers it wrote

    def army(self, order: Order, name_field: str = "army") -> m.Army:
        name = order[name_field]
        army = self.memory.armies.named(self.faction, name)
        gone = f"army {name} no longer exists"
        if army is None:
            mine = [a["name"] for a in m.armies_of(self.state, self.faction) if a["units"]]
            named = m.pieces_where(self.state["armies"], "id", name)  # reads only the army found
            owner = named[0]["owner"] if named else None
            if owner is not None and owner != self.faction:
                raise Reject(
                    name_field,
                    f"army '{name}' belongs to {self.game.name_of(owner)}, not to you",
                    f"your armies: {', '.join(mine) or 'none'}",
                    failure=gone,
                )
            hint = choice_hint(name, mine) if mine else "you have no armies"
            raise Reject(
                name_field, f"you have no army '{name}' at this point of your orders", hint, failure=gone
            )
        if not army["units"]:
            raise Reject(name_field, f"army {name} has no units left", failure=gone)
        return army

    def settlement_at(self, tile: str) -> m.Settlement | None:
        return self.memory.settlement_at(self.state, tile)

    def settlement_named(self, name: str) -> m.Settlement | None:
        return self.memory.settlement_named(self.state, name)

    def own_settlement(self, order: Order, name_field: str) -> m.Settlement:
        name = order[name_field]
        s = self.settlement_named(name)
        if s is None or s["owner"] != self.faction:
            mine = [x["name"] for x in m.settlements_of(self.state, self.faction)]
            problem = (
                f"no settlement is called '{name}'"
                if s is None
                else f"{s['name']} belongs to {self.game.name_of(s['owner'])}, not to you"
            )
            hint = choice_hint(name, mine) if mine else "you have no settlements"
            raise Reject(name_field, problem, hint, failure=f"{name} is no longer yours")
        return s

    def foreign_settlement(self, order: Order, name_field: str) -> m.Settlement:
        name = order[name_field]
        s = self.settlement_named(name)
        gone = f"{name} is no longer a foreign settlement"
        if s is None:
            names = [x["name"] for x in self.state["settlements"].values() if x["owner"] != self.faction]
            hint = choice_hint(name, names) if names else "check the map"
            raise Reject(name_field, f"no settlement is called '{name}'", hint, failure=gone)
        if s["owner"] == self.faction:
            raise Reject(name_field, f"{s['name']} is your own settlement", failure=gone)
        return s

    def plan(
        self, echo: str, actions: int = 0, resources: int = 0, paying_for: str = "", **found: Any
    ) -> Plan:
        """The plan of the order being read: its echo, its cost, and what the reading found."""
        assert self.order is not None  # set by plan_or_error and plan_or_failure before the reading
        return Plan(self.order, self.faction, echo, actions, resources, paying_for, **found)

    def pay(self, plan: Plan) -> Plan:
        """Take the plan's cost from the view: its resources, and while checking its action points out of
        the turn's (the resolver trusts the numbers the checker wrote); or say what is short."""
        stock = self.state["factions"][self.faction]["stock"]
        left = int(stock.get("resources", 0))

        def actions() -> None:
            if self.checking and plan.actions > self.actions_left:
                raise Reject(
                    "actions" if "actions" in plan.order.args else None,
                    f"{plan.paying_for} needs {plan.actions} action point(s), but only {self.actions_left} "
                    f"of your {self.per_turn} are left",
                    "drop an order or put fewer actions in; unfinished work carries over to the next turn",
                )

        def resources() -> None:
            if plan.resources > left:
                raise Reject(
                    None,
                    f"{plan.paying_for} costs {plan.resources} resources, but you have {left} left after the "
                    "orders above",
                    "drop or postpone an order; income arrives at the end of the turn",
                    failure=f"it costs {plan.resources} resources and only {left} are left",
                )

        self.each(actions, resources)  # both shortfalls are reported at once
        if self.checking:
            self.actions_left -= plan.actions
        stock["resources"] = left - plan.resources
        return plan

    def paid(self, order: Order) -> Plan:
        """The order read and paid for, as the resolver carries it out."""
        return self.pay(PLANS[order.action](self, order))

    def actions_now(self, order: Order, needed: int) -> int:
        """The action points an order of multi-turn work puts in now: as written, or else what is left (at
        least one, so a nation with none left hears so). The checker writes the number into the order, so
        the resolver carries out exactly what the check echoed."""
        written = order.get("actions")
        return min(int(written) if written is not None else max(self.actions_left, 1), needed)

    def label(self, tile: str) -> str:
        return self.game.world[tile].label


# -- one plan per action ----------------------------------------------------------------------------------


def move(r: NationReading, o: Order) -> Plan:
    army, name, rules = r.army(o), o["army"], r.rules
    if army["id"] in r.memory.moved:
        raise Reject("army", f"army {name} has already moved this turn", "give each army one move order")
    if army["id"] in r.memory.engaged:
        raise Reject("army", f"army {name} was attacked on its tile and cannot move this turn")
    speed = m.army_speed(army, rules, r.state)  # the slowest unit, plus a GM 'move' modifier on the army
    limit = speed * (2 if o["fast"] else 1)
    if len(o["path"]) > limit:
        raise Reject(
            "path",
            f"army {name} can move {limit} tile(s) this turn, the path has {len(o['path'])}",
            "shorten the path" + ("" if o["fast"] else ", or add 'fast: true' for 1 action"),
        )
    tiles, problem = m.walk(r.game.world, rules, army["location"], o["path"])
    if problem:
        raise Reject("path", problem, "choose another route")
    # The first tile short of the end where foreign forces stand: the march halts there.
    halt = next((t for t in tiles[:-1] if foreign_forces(r, t)), "")
    if halt:
        r.warn(
            "path",
            f"{r.label(halt)} holds foreign forces now; the move stops there if "
            "they are still there when it is carried out",
            "nothing to fix if that risk is fine; otherwise choose a path around that tile",
        )
    route = " → ".join(r.label(t) for t in [army["location"], *tiles])
    return r.plan(
        f"army {name} moves {', '.join(o['path'])}: {route}" + (" (fast)" if o["fast"] else ""),
        actions=int(rules["actions"]["fast_movement"]) if o["fast"] else 0,
        paying_for="fast movement",
        sure=lambda: r.memory.moved.add(army["id"]),
        army=army,
        tiles=tiles,
        where=halt,
    )


def foreign_forces(r: NationReading, tile: str) -> bool:
    """Whether a march entering the tile meets another nation's army or settlement there."""
    settlement = r.settlement_at(tile)
    return bool(r.memory.armies.foreign_at(tile, r.faction)) or bool(
        settlement and settlement["owner"] != r.faction
    )


def attack(r: NationReading, o: Order) -> Plan:
    army, game, target = r.army(o), r.game, o["target"]
    where = army["location"]
    named = r.settlement_named(target)
    if target in game.factions:
        if target == r.faction:
            raise Reject("target", "you cannot attack yourself")
        enemy = target
    elif named is not None:
        if named["owner"] == r.faction:
            raise Reject("target", f"{named['name']} is your own settlement")
        enemy = named["owner"]
        if named["location"] != where:
            r.warn(
                "target",
                f"{named['name']} is at {r.label(named['location'])}, but army {o['army']} will "
                f"be at {r.label(where)}",
                "move onto the settlement's tile first",
            )
    else:
        raise Reject(
            "target",
            f"'{target}' is neither a nation nor a settlement",
            r.hint_among(target, "factions", [f for f in game.factions if f != r.faction]),
            failure=f"{target} no longer stands",
        )
    settlement = r.settlement_at(where)
    assault = settlement if settlement and settlement["owner"] == enemy else None
    defenders = m.forces_at(r.memory.armies, where, enemy)
    if assault is None and not defenders:
        r.doubt(
            "target",
            f"{game.name_of(enemy)} has nothing at {r.label(where)} right now; the "
            "attack happens only if it is there when your orders are carried out",
            "keep it if you expect them to arrive first; otherwise target a nation on your army's tile",
            failure=f"{game.name_of(enemy)} has nothing at {r.label(where)} to attack",
        )
    what = (
        f"assault on {assault['name']} ({o['on_fall']} if it falls)"
        if assault
        else f"attack on {game.name_of(enemy)}"
    )
    echo = f"army {o['army']} at {r.label(where)}: {what}"
    return r.plan(echo, army=army, settlement=assault, enemy=enemy, defenders=defenders)


def siege(r: NationReading, o: Order) -> Plan:
    army, s = r.each(lambda: r.army(o), lambda: r.foreign_settlement(o, "settlement"))
    need = int(r.rules["siege"]["min_units"])
    if len(army["units"]) < need:
        raise Reject(
            "army",
            f"a siege needs an army of {need} units; army {o['army']} has {len(army['units'])}",
            "merge armies or recruit first",
            failure=f"army {o['army']} has fewer than {need} units left",
        )
    if army["location"] != s["location"]:
        r.doubt(
            "settlement",
            f"{s['name']} is at {r.label(s['location'])}; army {o['army']} will be at "
            f"{r.label(army['location'])}",
            "move onto the settlement's tile in an earlier order",
            failure=f"army {o['army']} is not at {s['name']}",
        )
    besieger = (s.get("siege") or {}).get("owner")
    if besieger and besieger != r.faction:
        raise Reject("settlement", f"{s['name']} is already besieged by {r.game.name_of(besieger)}")
    return r.plan(f"army {o['army']} besieges {s['name']}", army=army, settlement=s)


def defend(r: NationReading, o: Order) -> Plan:
    army = r.army(o)
    if r.settlement_at(army["location"]):
        r.warn(
            "army",
            "the defend bonus does not apply to units in a settlement",
            "drop the defend order; the settlement's own bonus defends them",
        )
    echo = f"army {o['army']} holds at {r.label(army['location'])} and defends (+1 defence)"
    return r.plan(echo, army=army)


def split(r: NationReading, o: Order) -> Plan:
    army, name = r.army(o), o["army"]
    ids = [u["id"] for u in army["units"]]
    wanted = o["units"]
    if r.checking:  # at run time a unit lost in an earlier battle simply stays out of the split
        for uid in wanted:
            owner = next(
                (a["owner"] for a in r.state["armies"].values() for u in a["units"] if u["id"] == uid), None
            )
            if owner is not None and owner != r.faction:
                raise Reject(
                    "units",
                    f"unit {uid} belongs to {r.game.name_of(owner)}, not to you",
                    f"army {name} has: {', '.join(ids)}",
                )
            if uid not in ids:
                raise Reject("units", f"army {name} has no unit '{uid}'", choice_hint(uid, ids))
    going = [u for u in army["units"] if u["id"] in wanted]
    staying = [u for u in army["units"] if u["id"] not in wanted]
    if not going or not staying:
        raise Reject(
            "units",
            "a split must leave at least one unit behind",
            "name fewer units",
            failure=f"army {name} no longer has those units to split off",
        )
    go, stay = m.split_names(r.state, r.faction, name)

    def sure() -> None:
        # The units named leave as a new army; the rest keep the army's id (and any siege it holds).
        new = {
            **army,
            "id": m.new_id(r.state, r.faction, "a", owned=r.memory.armies.owned(r.faction)),
            "name": go,
            "units": going,
            "modifiers": dict(army.get("modifiers", {})),
        }
        army["units"] = staying
        r.memory.armies.rename(army, stay)
        r.state["armies"][new["id"]] = new
        r.memory.armies.add(new)
        if army["id"] in r.memory.moved:
            r.memory.moved.add(new["id"])

    echo = (
        f"army {name} splits: {go} takes {', '.join(wanted)}, "
        f"{stay} keeps the other {len(ids) - len(set(wanted))} unit(s)"
    )
    return r.plan(echo, sure=sure, army=army, details={"stay": stay, "go": go, "units": len(going)})


def merge(r: NationReading, o: Order) -> Plan:
    army, into = r.each(lambda: r.army(o), lambda: r.army(o, "into"))
    if o["army"] == o["into"]:
        raise Reject("into", "an army cannot merge into itself")
    if army["location"] != into["location"]:
        raise Reject(
            "into",
            f"army {o['into']} is not on the same tile as army {o['army']}",
            "move them together first",
            failure=f"armies {o['army']} and {o['into']} are no longer on the same tile",
        )

    def sure() -> None:
        into["units"].extend(army["units"])
        army["units"] = []
        r.memory.armies.remove(army)
        if army["id"] in r.memory.moved:
            r.memory.moved.add(into["id"])

    echo = f"army {o['army']} merges into army {o['into']}"
    return r.plan(echo, sure=sure, army=into, details={"into": o["into"]})


def recruit(r: NationReading, o: Order) -> Plan:
    s, rules = r.own_settlement(o, "settlement"), r.rules
    cls = rules["unit_classes"][o["class"]]
    if not cls.get("recruitable"):
        raise Reject(
            "class",
            f"{o['class']} units cannot be recruited: they are found by exploring or granted by the GM",
            "recruit " + " or ".join(c for c, d in rules["unit_classes"].items() if d.get("recruitable")),
        )
    if s.get("siege"):
        raise Reject(
            "settlement",
            f"{s['name']} is under siege: no recruiting there",
            "recruit elsewhere",
            failure=f"{s['name']} came under siege: no recruiting there",
        )
    points = m.stat_point_cost(rules, o.get("stats", {}))
    if points > int(cls["stat_points"]):
        raise Reject(
            "stats",
            f"{o['class']} have {cls['stat_points']} stat point(s); these stats cost {points}",
            "attack and defence cost 1 point each; move, hp and attacks cost 2",
        )
    if points < int(cls["stat_points"]):
        r.warn(
            "stats",
            f"{int(cls['stat_points']) - points} stat point(s) left unspent",
            "spend them with 'stats', e.g. stats: {attack: 1}",
        )
    if not o.get("trait") and int(cls.get("traits", 0)):
        r.warn(
            "trait",
            f"{o['class']} have {cls['traits']} trait(s); none given",
            "add 'trait:', e.g. trait: stealth, or any word for flavour",
        )
    turns = int(cls["turns"])
    when = "musters at the end of this turn" if turns == 1 else f"turn 1 of {turns}; give it 'work' each turn"
    echo = (
        f"recruit {o['class']} '{o['name']}' at {s['name']}: {cls['resources']} resources, 1 action; {when}"
    )
    traits = [o["trait"]] if o.get("trait") else []
    return r.plan(
        echo,
        1,
        int(cls["resources"]),
        f"recruiting {o['class']}",
        project={
            "kind": "recruit",
            "title": f"{o['class']} {o['name']} at {s['name']}",
            "needed": turns,
            "settlement": s["id"],
            "unit": {
                "class": o["class"],
                "name": o["name"],
                "traits": traits,
                "stats": dict(o.get("stats", {})),
            },
        },
    )


def build(r: NationReading, o: Order) -> Plan:
    army, rules, world, state = r.army(o), r.rules, r.game.world, r.state
    where = army["location"]
    if o["type"] == "capital" and (
        m.has_capital(state, r.faction) or m.project_of_kind(state, r.faction, "build", type="capital")
    ):
        raise Reject("type", "a nation has one capital", "build a standard, farming or military settlement")
    if m.settlement_named(state, o["name"]) or any(
        p.get("settlement_name", "").casefold() == o["name"].casefold() for p in state["projects"].values()
    ):
        raise Reject("name", f"the name '{o['name']}' is taken", "choose another name")
    gap = int(rules["build"]["min_distance"])
    near = [s for s in state["settlements"].values() if world.distance(s["location"], where) < gap]
    building = [t for t in [*m.build_sites(state), *r.memory.sites] if world.distance(t, where) < gap]
    if near or building:
        what = near[0]["name"] if near else "another settlement being built"
        raise Reject(
            "army",
            f"{r.label(where)} is too close to {what}: settlements must be {gap} tiles apart",
            "move the army further away first",
            failure=f"there is already a settlement at {r.label(where)}"
            if m.settlement_at(state, where)
            else "",
        )
    b = rules["build"]
    actions = r.actions_now(o, int(b["actions"]))
    left = int(b["actions"]) - actions
    echo = (
        f"found {o['type']} settlement '{o['name']}' at {r.label(where)}: {b['resources']} resources, "
        f"{actions} action(s) now" + (f", {left} more to finish" if left else ", finished this turn")
    )
    return r.plan(
        echo,
        actions,
        int(b["resources"]),
        "founding a settlement",
        sure=lambda: r.memory.sites.add(where),
        project={
            "kind": "build",
            "title": f"{o['type']} settlement {o['name']}",
            "needed": int(b["actions"]),
            "location": where,
            "type": o["type"],
            "settlement_name": o["name"],
        },
    )


def upgrade(r: NationReading, o: Order) -> Plan:
    s, rules = r.own_settlement(o, "settlement"), r.rules
    if s["level"] >= int(rules["settlements"][s["type"]]["max_level"]):
        raise Reject("settlement", f"{s['name']} is already at its highest level ({s['level']})")
    running = m.project_of_kind(r.state, r.faction, "upgrade", settlement=s["id"])
    if running:
        raise Reject(
            "settlement",
            f"{s['name']} is already being upgraded as project {running['name']}",
            f"use: action: work, project: {running['name']}",
        )
    if (r.faction, s["id"]) in r.memory.begun:
        raise Reject("settlement", f"{s['name']} already has an upgrade ordered above")
    to = s["level"] + 1
    needed, upfront, per_action = m.upgrade_cost(rules, to)
    actions = r.actions_now(o, needed)
    echo = (
        f"upgrade {s['name']} to level {to}: {needed} actions and {upfront + per_action * needed} resources "
        f"in all; {actions} action(s) now"
    )
    return r.plan(
        echo,
        actions,
        upfront + per_action * actions,
        f"upgrading {s['name']}",
        sure=lambda: r.memory.begun.add((r.faction, s["id"])),
        project={
            "kind": "upgrade",
            "title": f"{s['name']} to level {to}",
            "needed": needed,
            "settlement": s["id"],
            "level": to,
            "resources_per_action": per_action,
        },
    )


def advance(r: NationReading, o: Order) -> Plan:
    rules, name = r.rules, o["advancement"].strip().lower()
    current = r.state["factions"][r.faction].get("advancements", {}).get(name, {}).get("level", 0)
    top = int(rules["advancement"]["max_level"])
    if current >= top:
        raise Reject("advancement", f"{name} is already at level {top}, the highest")
    running = m.project_of_kind(r.state, r.faction, "advance", advancement=name)
    if running or (r.faction, f"adv:{name}") in r.memory.begun:
        hint = f"use: action: work, project: {running['name']}" if running else "order it once"
        raise Reject("advancement", f"{name} is already being developed", hint)
    level = current + 1
    needed, cost = m.advancement_cost(rules, level)
    actions = r.actions_now(o, needed)
    if name not in rules["advancements"]:
        r.warn(
            "advancement",
            f"'{name}' is not in the catalogue; the GM will rule on what it grants",
            "catalogue: " + ", ".join(rules["advancements"]),
        )
    echo = f"advancement {name} level {level}: {cost} resources, {needed} action(s) in all, {actions} now"
    return r.plan(
        echo,
        actions,
        cost,
        f"advancement {name} level {level}",
        sure=lambda: r.memory.begun.add((r.faction, f"adv:{name}")),
        project={
            "kind": "advance",
            "title": f"advancement {name} level {level}",
            "needed": needed,
            "advancement": name,
            "level": level,
            "note": o.get("note", ""),
        },
    )


def work(r: NationReading, o: Order) -> Plan:
    p = m.project_named(r.state, r.faction, o["project"])
    if p is None:
        mine = [x["name"] for x in m.projects_of(r.state, r.faction)]
        raise Reject(
            "project",
            f"you have no project '{o['project']}'",
            choice_hint(o["project"], mine) if mine else "start work with build, upgrade, advance or recruit",
            failure=f"project {o['project']} no longer exists",
        )
    if p["id"] in r.memory.worked:
        raise Reject("project", f"project {p['name']} already has work ordered above", "order it once")
    left = int(p["needed"]) - int(p["progress"])
    if p["kind"] == "recruit":
        if o.get("actions", 1) != 1:
            raise Reject("actions", "training takes exactly 1 action each turn", "write actions: 1")
        s = r.state["settlements"].get(p["settlement"])
        if s is None or s["owner"] != r.faction or s.get("siege"):
            problem = (
                f"{s['name']} is under siege: training there is halted" if s else "its settlement is lost"
            )
            raise Reject("project", problem, failure="its settlement is lost or under siege")
        left = 1
    actions = r.actions_now(o, left)
    per_action = int(p.get("resources_per_action", 0))
    echo = (
        f"work on {p['name']} ({p['title']}): {actions} action(s), "
        f"{int(p['progress']) + actions} of {p['needed']}"
    )
    return r.plan(
        echo,
        actions,
        per_action * actions,
        f"work on {p['name']}",
        sure=lambda: r.memory.worked.add(p["id"]),
        project=p,
    )


def explore(r: NationReading, o: Order) -> Plan:
    army, rules = r.army(o), r.rules["exploration"]
    done = r.memory.explored.setdefault(r.faction, [])
    limit = int(rules["per_turn"])
    if len(done) >= limit:
        raise Reject(None, f"only {limit} army per nation may explore each turn", "drop this explore order")
    where = army["location"]
    if rules["once_per_tile"] and (
        where in r.state["factions"][r.faction].get("explored", []) or where in done
    ):
        raise Reject("army", f"you have already explored {r.label(where)}", "explore a new tile")
    echo = f"army {o['army']} explores {r.game.place_label(where)}"
    return r.plan(echo, sure=lambda: done.append(where), army=army)


def maraud(r: NationReading, o: Order) -> Plan:
    army, s = r.each(lambda: r.army(o), lambda: r.foreign_settlement(o, "settlement"))
    reach, distance = (
        int(r.rules["marauding"]["range"]),
        r.game.world.distance(army["location"], s["location"]),
    )
    if distance > reach:
        raise Reject(
            "army",
            f"army {o['army']} will be {distance} tiles from {s['name']}; marauding needs {reach}",
            "move closer first",
            failure=f"army {o['army']} is too far from {s['name']}",
        )
    if s.get("siege"):
        raise Reject(
            "settlement",
            f"{s['name']} is under siege and cannot be marauded",
            failure=f"{s['name']} is under siege",
        )
    if s["id"] in r.memory.marauded or army["id"] in r.memory.marauded:
        raise Reject(
            "settlement",
            "each settlement, and each army, can maraud once a turn",
            failure=f"{s['name']} was already marauded this turn",
        )
    return r.plan(
        f"army {o['army']} marauds around {s['name']}",
        sure=lambda: r.memory.marauded.update((s["id"], army["id"])),
        army=army,
        settlement=s,
    )


def road(r: NationReading, o: Order) -> Plan:
    world, rules, where = r.game.world, r.rules["roads"], o["location"]
    if where not in world:
        raise Reject("location", f"there is no tile '{where}'", "use a tile id such as C4")
    reach = int(rules["reach"])
    if not any(
        world.distance(a["location"], where) <= reach for a in m.armies_of(r.state, r.faction) if a["units"]
    ):
        raise Reject(
            "location",
            f"none of your armies is within {reach} tile of {where}",
            "bring an army closer",
            failure=f"none of your armies is within {reach} tile of {where} any more",
        )
    roads = r.state.get("roads", {})
    if o["destroy"]:
        if where not in roads:
            raise Reject(
                "location", f"there is no road on {where}", failure=f"there is no road on {where} any more"
            )
        return r.plan(
            f"destroy the road on {where}",
            0,
            int(rules["destroy_cost"]),
            "destroying a road",
            where=where,
        )
    if where in roads or where in r.memory.roads:
        raise Reject("location", f"{where} already has a road")
    if not m.passable(world, r.rules, where):
        raise Reject("location", f"{where} is {world[where].terrain}; roads need land")
    return r.plan(
        f"build a road on {where}",
        0,
        int(rules["build_cost"]),
        "a road",
        sure=lambda: r.memory.roads.add(where),
        where=where,
    )


def agree(r: NationReading, o: Order) -> Plan:
    game, state, terms = r.game, r.state, ag.terms_of(r.faction, o)
    others = [f for f in game.factions if f != r.faction]
    if terms.partner not in others:
        raise Reject(
            "partner",
            f"'{terms.partner}' is not another nation",
            r.hint_among(terms.partner, "factions", others),
        )
    partner = game.name_of(terms.partner)
    met = state["factions"][r.faction].get("contacts", [])
    if r.rules["agreements"]["requires_contact"] and terms.partner not in met:
        raise Reject(
            "partner",
            f"you have not met {partner}: agreements need a tile shared once",
            "meet them first; nations meet when their units or settlements share a tile",
        )
    key = (r.faction, terms.partner, terms.kind)
    if key in r.memory.agreed:
        raise Reject("kind", f"a {terms.kind} with {partner} is already ordered above", "order it once")
    if terms.end:
        if terms.kind not in ag.STANDING:
            raise Reject("end", "a payment is made once and has nothing to end", "drop 'end'")
        if ag.standing_between(state, r.faction, terms.partner, terms.kind) is None:
            raise Reject("end", f"you have no {terms.kind} with {partner} to end", "drop this order")
        return r.plan(terms.describe(), sure=lambda: r.memory.agreed.add(key))
    if terms.kind == "alliance":
        extra = [name for name in ("give", "get", "route") if o.get(name)]
        if extra:
            raise Reject(
                extra[0], f"an alliance has no '{extra[0]}'", "use a payment or a trade for resources"
            )
        if ag.allied(state, r.faction, terms.partner):
            r.warn(
                "kind",
                f"you are already allied with {partner}; the order renews the alliance",
                "nothing to fix if renewing is the aim; otherwise drop the order",
            )
    elif not terms.give and not terms.get:
        raise Reject("give", f"a {terms.kind} moves resources: give, get or both", "add give: N or get: N")
    if terms.kind == "trade":
        if not terms.route:
            raise Reject("route", "a trade needs a road route", "add route: [tile, tile, ...] along roads")
        problem = ag.route_problem(game.world, terms.route)
        if problem:
            raise Reject("route", problem, "list road tiles in order, each next to the one before")
        missing = [t for t in terms.route if t not in state.get("roads", {}) and t not in r.memory.roads]
        if missing:
            r.warn(
                "route",
                f"{missing[0]} has no road now; the goods travel only while every tile of the route has one",
                "build the road first (action: road)",
            )
    elif terms.route:
        raise Reject("route", f"only a trade has a route, not a {terms.kind}", "drop 'route'")
    what = "the payment" if terms.kind == "payment" else "this turn's trade"
    return r.plan(
        terms.describe() + f"; made only if {partner} orders the same from its side",
        int(r.rules["agreements"]["actions"]),
        terms.give,
        f"{what} with {partner}",
        sure=lambda: r.memory.agreed.add(key),
    )


PLANS: dict[str, Callable[[NationReading, Order], Plan]] = {
    "move": move,
    "attack": attack,
    "siege": siege,
    "defend": defend,
    "split": split,
    "merge": merge,
    "recruit": recruit,
    "build": build,
    "upgrade": upgrade,
    "advance": advance,
    "work": work,
    "explore": explore,
    "maraud": maraud,
    "road": road,
    "agree": agree,
}
