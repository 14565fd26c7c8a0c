"""The nations turn, phase by phase (the table itself is in rules.yaml).

Orders run nation by nation in posting order, each file top to bottom. An order
that the checker accepted can still fail here, because another nation acted
first: the army was destroyed, the settlement captured, the stock marauded. It
then becomes a private ``order_failed`` event for its nation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.checks import Check
from ...core.dice import RollLabel, roll_label
from ...core.orders import Order
from ...core.phases import State
from . import model as m
from .agreements import run_agreements
from .combat import Battle, fight, losses

if TYPE_CHECKING:
    from ...engine import TurnContext


class OrderFailed(Exception):
    """An accepted order that cannot be carried out as things now stand."""


def run_orders(ctx: TurnContext, state: State) -> State:
    ctx.scratch.update(
        moved=set(), engaged=set(), marauded=set(), explored={}, sieges_laid=set(), armies=m.ArmyIndex(state)
    )
    for army in state["armies"].values():
        army.pop("stance", None)
    # Stances are declared with the orders but hold from the start of the turn, before anyone moves.
    for nation, of in ctx.orders.items():
        for o in of.orders:
            if o.action == "defend" and (army := ctx.scratch["armies"].named(nation, o["army"])):
                army["stance"] = "defend"
    for nation in ctx.posting_order:
        of = ctx.orders.get(nation)
        if of is None:
            continue
        for o in of.orders:
            try:
                EXECUTE[o.action](ctx, state, nation, o)
            except OrderFailed as failure:
                ctx.order_failed(nation, o, str(failure))
    _drop_empty_armies(state)
    return state


def _index(ctx: TurnContext) -> m.ArmyIndex:
    return ctx.scratch["armies"]


def _army(ctx: TurnContext, nation: str, o: Order, key: str = "army") -> dict[str, Any]:
    army = _index(ctx).named(nation, o[key])
    if army is None or not army["units"]:
        raise OrderFailed(f"army {o[key]} no longer exists")
    return army


def _pay(state: State, nation: str, resources: int) -> None:
    stock = state["factions"][nation]["stock"]
    if stock.get("resources", 0) < resources:
        raise OrderFailed(f"it costs {resources} resources and only {stock.get('resources', 0)} are left")
    stock["resources"] = stock.get("resources", 0) - resources


def _move(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    army = _army(ctx, nation, o)
    if army["id"] in ctx.scratch["engaged"]:
        raise OrderFailed(f"army {o['army']} was attacked on its tile and cannot move this turn")
    world, rules = ctx.game.world, ctx.rules
    start = army["location"]
    here, visited, stopped = start, [], ""
    for direction in o["path"]:
        nxt = world.step(here, direction)
        if nxt is None or not m.passable(world, rules, nxt):
            stopped = "blocked"
            break
        here = nxt
        visited.append(here)
        foreign = _index(ctx).foreign_at(here, nation) or [
            s for s in [m.settlement_at(state, here)] if s and s["owner"] != nation
        ]
        if rules["movement"]["stop_at_foreigners"] and foreign and len(visited) < len(o["path"]):
            stopped = "foreigners"
            break
    _index(ctx).move(army, here)
    ctx.scratch["moved"].add(army["id"])
    for tile in visited:
        _meet(ctx, state, nation, tile)
    ctx.emit(
        "march",
        actors=[nation],
        place=here,
        army=army["name"],
        units=len(army["units"]),
        start=start,
        path=visited,
        fast=o["fast"],
        stopped=stopped,
    )


def _meet(ctx: TurnContext, state: State, nation: str, location: str) -> None:
    """Note whom a marching army meets: a tile shared even for part of a turn opens diplomacy."""
    others = {a["owner"] for a in _index(ctx).foreign_at(location, nation) if a["units"]}
    s = m.settlement_at(state, location)
    if s and s["owner"] != nation:
        others.add(s["owner"])
    ctx.scratch.setdefault("met", []).extend((location, nation, other) for other in sorted(others))


def _step(nation: str, o: Order) -> RollLabel:
    """The stable identity of one order for roll labels: its nation and its place in that nation's file.

    Neither depends on anything another nation does, so an unrelated battle, march or recruit earlier in
    the posting order cannot move the dice of this order's rolls.
    """
    return roll_label(nation, "order", o.number)


def _attack(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    army = _army(ctx, nation, o)
    where = army["location"]
    target = o["target"]
    named = m.settlement_named(state, target)
    enemy = target if target in ctx.game.factions else (named["owner"] if named else "")
    settlement = m.settlement_at(state, where)
    if settlement and settlement["owner"] == enemy:
        _assault(ctx, state, nation, settlement, o["on_fall"], _step(nation, o))
        return
    defenders = [a for a in _index(ctx).at(where) if a["owner"] == enemy and a["units"]]
    if not defenders:
        raise OrderFailed(f"{ctx.game.name_of(enemy)} has nothing at {ctx.game.world[where].label} to attack")
    in_own = m.settlement_at(state, where)
    bonus = m.settlement_defence(ctx.rules, state, in_own) if in_own and in_own["owner"] == enemy else 0
    _battle(ctx, state, nation, [army], defenders, where, bonus, _step(nation, o), kind="battle")
    # A counter-attack out of a besieged settlement forfeits its defence bonus for the rest of the siege.
    if in_own and in_own["owner"] == nation and (in_own.get("siege") or {}).get("owner") == enemy:
        in_own["siege"]["bonus_lost"] = True


def _battle(
    ctx: TurnContext,
    state: State,
    nation: str,
    attackers: list[dict],
    defenders: list[dict],
    where: str,
    bonus: int,
    step: RollLabel,
    kind: str,
    **extra: Any,
) -> bool:
    """Fight and record it; True when the defenders are wiped out and an attacker survives."""
    # The place and the attack order name the battle; the sides and armies make the log readable.
    label = roll_label(
        "battle",
        where,
        step,
        {army["owner"] for army in attackers + defenders},
        {army["id"] for army in attackers + defenders},
    )
    before = {a["id"]: len(a["units"]) for a in attackers + defenders}
    battle = fight(ctx, state, attackers, defenders, where, bonus, label)
    for a in defenders:
        ctx.scratch["engaged"].add(a["id"])
    won = not battle.side("defender") and bool(battle.side("attacker"))
    enemy = defenders[0]["owner"]
    ctx.emit(
        kind,
        actors=[nation, enemy],
        place=where,
        rolls=battle.rolls,
        attacker=nation,
        defender=enemy,
        attacking_units=sum(before[a["id"]] for a in attackers),
        defending_units=sum(before[a["id"]] for a in defenders),
        losses=losses(battle),
        rounds=battle.rounds,
        defence_bonus=bonus,
        result=_outcome(battle),
        **extra,
    )
    return won


def _outcome(battle: Battle) -> str:
    attackers, defenders = bool(battle.side("attacker")), bool(battle.side("defender"))
    if attackers and defenders:
        return "undecided"
    if not attackers and not defenders:
        return "mutual"
    return "attacker" if attackers else "defender"


def _assault(
    ctx: TurnContext, state: State, nation: str, settlement: dict, on_fall: str, step: RollLabel
) -> None:
    rules = ctx.rules
    attackers = [a for a in _index(ctx).at(settlement["location"]) if a["owner"] == nation and a["units"]]
    weight = sum(m.unit_weight(u, rules) for a in attackers for u in a["units"])
    need = attackers_needed = m.attackers_needed(rules, settlement)
    falls_at_once = rules["settlements"][settlement["type"]].get("falls_at_once", False)
    defenders = [
        a for a in _index(ctx).at(settlement["location"]) if a["owner"] == settlement["owner"] and a["units"]
    ]
    if not defenders and falls_at_once:
        need = 1
    if weight < need:
        ctx.emit(
            "assault_repulsed",
            actors=[nation, settlement["owner"]],
            place=settlement["location"],
            settlement=settlement["name"],
            owner=settlement["owner"],
            strength=weight,
            needed=need,
        )
        return
    if defenders:
        bonus = m.settlement_defence(rules, state, settlement)
        won = _battle(
            ctx,
            state,
            nation,
            attackers,
            defenders,
            settlement["location"],
            bonus,
            step,
            kind="assault",
            settlement=settlement["name"],
            needed=attackers_needed,
        )
        if not won:
            return
    _fall(ctx, state, nation, settlement, on_fall, step)


def _fall(
    ctx: TurnContext, state: State, nation: str, settlement: dict, on_fall: str, step: RollLabel
) -> None:
    rules = ctx.rules
    owner, level = settlement["owner"], settlement["level"]
    base = dict(
        actors=[nation, owner],
        place=settlement["location"],
        settlement=settlement["name"],
        owner=owner,
        type=settlement["type"],
        level=level,
        choice=on_fall,
    )
    settlement.pop("siege", None)
    for p in [p for p in state["projects"].values() if p.get("settlement") == settlement["id"]]:
        del state["projects"][p["id"]]
    if on_fall == "raid":
        roll = ctx.roll(
            roll_label("raid", settlement["id"], step),
            f"{level}d{rules['siege']['raid_die']}",
            factions=[nation, owner],
            decided=f"resources {nation} takes from {settlement['name']}",
        )
        stock = state["factions"][nation]["stock"]
        stock["resources"] = stock.get("resources", 0) + roll.total
        ctx.emit("settlement_falls", rolls=[roll], gained=roll.total, **base)
    elif on_fall == "raze":
        roll = ctx.roll(
            roll_label("raze", settlement["id"], step),
            f"{level}d{rules['siege']['raze_die']}",
            factions=[nation, owner],
            decided=f"population {owner} loses",
        )
        stock = state["factions"][owner]["stock"]
        lost = min(stock.get("population", 0), roll.total)
        stock["population"] = stock.get("population", 0) - lost
        del state["settlements"][settlement["id"]]
        state.setdefault("ruins", {})[settlement["location"]] = {
            "name": settlement["name"],
            "razed_by": nation,
            "turn": ctx.turn,
        }
        ctx.emit("settlement_falls", rolls=[roll], population_lost=lost, **base)
    else:
        settlement["owner"] = nation
        if (
            settlement["type"] == "capital"
            and m.has_capital(state, nation)
            and sum(1 for s in m.settlements_of(state, nation) if s["type"] == "capital") > 1
        ):
            demoted = rules["siege"]["captured_capital_becomes"]
            settlement["type"] = demoted
            settlement["level"] = min(level, int(rules["settlements"][demoted]["max_level"]))
        ctx.emit("settlement_falls", **base)


def _siege(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    army = _army(ctx, nation, o)
    settlement = m.settlement_named(state, o["settlement"])
    rules = ctx.rules
    if settlement is None or settlement["owner"] == nation:
        raise OrderFailed(f"{o['settlement']} is no longer a foreign settlement")
    if army["location"] != settlement["location"]:
        raise OrderFailed(f"army {o['army']} is not at {settlement['name']}")
    if len(army["units"]) < int(rules["siege"]["min_units"]):
        raise OrderFailed(f"army {o['army']} has fewer than {rules['siege']['min_units']} units left")
    held = settlement.get("siege")
    if held and held["owner"] != nation:
        raise OrderFailed(f"{settlement['name']} is already besieged by {ctx.game.name_of(held['owner'])}")
    if not held:
        settlement["siege"] = {"army": army["id"], "owner": nation, "turns": 0, "since": ctx.turn}
        ctx.scratch["sieges_laid"].add(settlement["id"])
        ctx.emit(
            "siege_laid",
            actors=[nation, settlement["owner"]],
            place=settlement["location"],
            settlement=settlement["name"],
            owner=settlement["owner"],
            army=army["name"],
            units=len(army["units"]),
        )


def _split(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    army = _army(ctx, nation, o)
    wanted = set(o["units"])
    going = [u for u in army["units"] if u["id"] in wanted]
    staying = [u for u in army["units"] if u["id"] not in wanted]
    if not going or not staying:
        raise OrderFailed(f"army {o['army']} no longer has those units to split off")
    go_name, stay_name = m.split_names(state, nation, army["name"])
    # The units named leave as a new army; the rest keep the army's id (and any siege it holds).
    new = {
        **army,
        "id": m.new_id(state, nation, "a"),
        "name": go_name,
        "units": going,
        "modifiers": dict(army.get("modifiers", {})),
    }
    army["units"] = staying
    _index(ctx).rename(army, stay_name)
    state["armies"][new["id"]] = new
    _index(ctx).add(new)
    if army["id"] in ctx.scratch["moved"]:
        ctx.scratch["moved"].add(new["id"])
    ctx.emit(
        "army_split",
        actors=[nation],
        place=army["location"],
        visible_to=[nation],
        army=o["army"],
        stay=stay_name,
        go=go_name,
        units=len(going),
    )


def _merge(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    army = _army(ctx, nation, o)
    into = _army(ctx, nation, o, "into")
    if army["location"] != into["location"]:
        raise OrderFailed(f"armies {o['army']} and {o['into']} are no longer on the same tile")
    into["units"].extend(army["units"])
    army["units"] = []
    _index(ctx).remove(army)
    if army["id"] in ctx.scratch["moved"]:
        ctx.scratch["moved"].add(into["id"])
    ctx.emit(
        "army_merged",
        actors=[nation],
        place=into["location"],
        visible_to=[nation],
        army=o["army"],
        into=o["into"],
    )


def _settlement(state: State, nation: str, name: str) -> dict[str, Any]:
    s = m.settlement_named(state, name)
    if s is None or s["owner"] != nation:
        raise OrderFailed(f"{name} is no longer yours")
    return s


def _project(state: State, nation: str, kind: str, title: str, needed: int, **fields: Any) -> dict[str, Any]:
    pid = m.new_id(state, nation, "p")
    project = {
        "id": pid,
        "name": "p" + pid.rsplit("-p", 1)[1],
        "owner": nation,
        "kind": kind,
        "title": title,
        "needed": needed,
        "progress": 0,
        **fields,
    }
    state["projects"][pid] = project
    return project


def _advance_project(ctx: TurnContext, state: State, nation: str, project: dict, actions: int) -> None:
    per_action = int(project.get("resources_per_action", 0))
    _pay(state, nation, per_action * actions)
    project["progress"] = int(project["progress"]) + actions
    project["worked"] = ctx.turn
    ctx.emit(
        "work",
        actors=[nation],
        visible_to=[nation],
        project=project["name"],
        title=project["title"],
        actions=actions,
        progress=project["progress"],
        needed=project["needed"],
    )


def _recruit(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    s = _settlement(state, nation, o["settlement"])
    if s.get("siege"):
        raise OrderFailed(f"{s['name']} came under siege: no recruiting there")
    cls = ctx.rules["unit_classes"][o["class"]]
    _pay(state, nation, int(cls["resources"]))
    traits = [o["trait"]] if o.get("trait") else []
    p = _project(
        state,
        nation,
        "recruit",
        f"{o['class']} {o['name']} at {s['name']}",
        int(cls["turns"]),
        settlement=s["id"],
        unit={"class": o["class"], "name": o["name"], "traits": traits, "stats": dict(o.get("stats", {}))},
    )
    _advance_project(ctx, state, nation, p, 1)


def _build(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    army = _army(ctx, nation, o)
    where = army["location"]
    if m.settlement_at(state, where):
        raise OrderFailed(f"there is already a settlement at {ctx.game.world[where].label}")
    b = ctx.rules["build"]
    _pay(state, nation, int(b["resources"]))
    p = _project(
        state,
        nation,
        "build",
        f"{o['type']} settlement {o['name']}",
        int(b["actions"]),
        location=where,
        type=o["type"],
        settlement_name=o["name"],
    )
    _advance_project(ctx, state, nation, p, min(o["actions"], int(b["actions"])))


def _upgrade(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    s = _settlement(state, nation, o["settlement"])
    to = s["level"] + 1
    needed, upfront, per_action = m.upgrade_cost(ctx.rules, to)
    _pay(state, nation, upfront)
    p = _project(
        state,
        nation,
        "upgrade",
        f"{s['name']} to level {to}",
        needed,
        settlement=s["id"],
        level=to,
        resources_per_action=per_action,
    )
    _advance_project(ctx, state, nation, p, min(o["actions"], needed))


def _advance(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    name = o["advancement"].strip().lower()
    current = state["factions"][nation].get("advancements", {}).get(name, {}).get("level", 0)
    needed, cost = m.advancement_cost(ctx.rules, current + 1)
    _pay(state, nation, cost)
    p = _project(
        state,
        nation,
        "advance",
        f"advancement {name} level {current + 1}",
        needed,
        advancement=name,
        level=current + 1,
        note=o.get("note", ""),
    )
    _advance_project(ctx, state, nation, p, min(o["actions"], needed))


def _work(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    p = m.project_named(state, nation, o["project"])
    if p is None:
        raise OrderFailed(f"project {o['project']} no longer exists")
    if p["kind"] == "recruit":
        s = state["settlements"].get(p["settlement"])
        if s is None or s["owner"] != nation or s.get("siege"):
            raise OrderFailed("its settlement is lost or under siege")
    _advance_project(ctx, state, nation, p, min(o["actions"], int(p["needed"]) - int(p["progress"])))


def _explore(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    army = _army(ctx, nation, o)
    where = army["location"]
    place = ctx.game.world[where].place
    check = Check.from_rules(ctx.rules, "exploration")
    label = roll_label("explore", where, _step(nation, o))
    bonus = [check.modifier("named_place")] if place else []
    explored = check.roll(ctx, label, modifiers=bonus, factions=[nation])
    roll, entry = explored.roll, explored.row
    outcome, amount, rolls = entry.result, 0, [roll]
    stock = state["factions"][nation]["stock"]
    if outcome in ("resources", "population"):
        found = ctx.roll(
            roll_label(label, "find"), str(entry.get("dice")), factions=[nation], decided=f"{outcome} found"
        )
        amount = found.total
        rolls.append(found)
        stock[outcome] = stock.get(outcome, 0) + amount
    elif outcome in ("recruits", "hero"):
        cls = "troops" if outcome == "recruits" else "hero"
        count = int(entry.get("units", 1))
        points = int(ctx.rules["unit_classes"][cls]["stat_points"])
        stats = {"attack": points // 2, "defence": points - points // 2}
        for _ in range(count):
            name = "Volunteers" if cls == "troops" else f"Hero of {place or ctx.game.world[where].label}"
            army["units"].append(m.make_unit(state, nation, ctx.rules, cls, name, [], stats))
        amount = count
    state["factions"][nation].setdefault("explored", []).append(where)
    state["factions"][nation]["explored"].sort()
    ctx.emit(
        "exploration",
        actors=[nation],
        place=where,
        rolls=rolls,
        army=army["name"],
        outcome=outcome,
        amount=amount,
        site=place or "",
    )


def _maraud(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    army = _army(ctx, nation, o)
    s = m.settlement_named(state, o["settlement"])
    if s is None or s["owner"] == nation:
        raise OrderFailed(f"{o['settlement']} is no longer a foreign settlement")
    if ctx.game.world.distance(army["location"], s["location"]) > int(ctx.rules["marauding"]["range"]):
        raise OrderFailed(f"army {o['army']} is too far from {s['name']}")
    if s.get("siege"):
        raise OrderFailed(f"{s['name']} is under siege")
    if s["id"] in ctx.scratch["marauded"]:
        raise OrderFailed(f"{s['name']} was already marauded this turn")
    ctx.scratch["marauded"].add(s["id"])
    rules = ctx.rules["marauding"]
    victim = state["factions"][s["owner"]]["stock"]
    stolen = min(int(rules["resources"]), victim.get("resources", 0))
    killed = min(int(rules["population"]), victim.get("population", 0))
    victim["resources"] = victim.get("resources", 0) - stolen
    victim["population"] = victim.get("population", 0) - killed
    mine = state["factions"][nation]["stock"]
    mine["resources"] = mine.get("resources", 0) + stolen
    # Marauders standing on a road also skim the trade that passes along it (agreements phase).
    ctx.scratch.setdefault("marauders", []).append(
        {"owner": nation, "name": army["name"], "location": army["location"]}
    )
    ctx.emit(
        "maraud",
        actors=[nation, s["owner"]],
        place=army["location"],
        settlement=s["name"],
        owner=s["owner"],
        stolen=stolen,
        killed=killed,
    )


def _road(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    where = o["location"]
    roads = state.setdefault("roads", {})
    rules = ctx.rules["roads"]
    if o["destroy"]:
        if where not in roads:
            raise OrderFailed(f"there is no road on {where} any more")
        _pay(state, nation, int(rules["destroy_cost"]))
        del roads[where]
        ctx.emit("road_destroyed", actors=[nation], place=where)
        return
    if where in roads:
        raise OrderFailed(f"{where} already has a road")
    _pay(state, nation, int(rules["build_cost"]))
    roads[where] = nation
    ctx.emit("road_built", actors=[nation], place=where)


def _noop(ctx: TurnContext, state: State, nation: str, o: Order) -> None:
    """Defend stances are set before anyone moves (see run_orders); agreements have a phase of their own."""


EXECUTE: dict[str, Callable[[TurnContext, State, str, Order], None]] = {
    "move": _move,
    "attack": _attack,
    "siege": _siege,
    "defend": _noop,
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
    "agree": _noop,
}


def _drop_empty_armies(state: State) -> None:
    for aid in [aid for aid, a in state["armies"].items() if not a["units"]]:
        del state["armies"][aid]


# -- the phases after the orders ---------------------------------------------------------------------------


def run_sieges(ctx: TurnContext, state: State) -> State:
    moved = ctx.scratch.get("moved", set())
    laid = ctx.scratch.get("sieges_laid", set())
    for s in sorted(state["settlements"].values(), key=lambda s: s["id"]):
        siege = s.get("siege")
        if not siege:
            continue
        army = state["armies"].get(siege["army"])
        held = (
            army is not None
            and army["units"]
            and army["location"] == s["location"]
            and (s["id"] in laid or army["id"] not in moved)
        )
        if not held:
            del s["siege"]
            ctx.emit(
                "siege_lifted",
                actors=[siege["owner"], s["owner"]],
                place=s["location"],
                settlement=s["name"],
                besieger=siege["owner"],
            )
            continue
        siege["turns"] += 1
        ctx.emit(
            "siege_tightens",
            actors=[siege["owner"], s["owner"]],
            place=s["location"],
            settlement=s["name"],
            besieger=siege["owner"],
            turns=siege["turns"],
            needed=m.attackers_needed(ctx.rules, s),
            defence=m.settlement_defence(ctx.rules, state, s),
        )
    return state


def run_completion(ctx: TurnContext, state: State) -> State:
    rules = ctx.rules
    for pid in sorted(state["projects"]):
        p = state["projects"][pid]
        if int(p["progress"]) < int(p["needed"]):
            continue
        nation = p["owner"]
        del state["projects"][pid]
        if p["kind"] == "build":
            if m.settlement_at(state, p["location"]):
                ctx.emit(
                    "order_failed",
                    actors=[nation],
                    visible_to=[nation],
                    order=0,
                    action="build",
                    reason=f"{p['settlement_name']} could not be founded: the site is taken",
                )
                continue
            sid = m.new_id(state, nation, "s")
            state["settlements"][sid] = {
                "id": sid,
                "name": p["settlement_name"],
                "owner": nation,
                "type": p["type"],
                "level": 1,
                "location": p["location"],
            }
            state.get("ruins", {}).pop(p["location"], None)
            ctx.emit(
                "settlement_founded",
                actors=[nation],
                place=p["location"],
                settlement=p["settlement_name"],
                type=p["type"],
            )
        elif p["kind"] == "upgrade":
            s = state["settlements"].get(p["settlement"])
            if s is None or s["owner"] != nation:
                continue
            s["level"] = int(p["level"])
            ctx.emit(
                "settlement_upgraded",
                actors=[nation],
                place=s["location"],
                settlement=s["name"],
                level=s["level"],
                type=s["type"],
            )
        elif p["kind"] == "advance":
            advs = state["factions"][nation].setdefault("advancements", {})
            name = p["advancement"]
            known = name in rules["advancements"]
            entry: dict[str, Any] = {"level": int(p["level"])}
            if p.get("note"):
                entry["note"] = p["note"]
            if not known:
                # Outside the catalogue the GM decides what each level grants (GM order 'judge').
                entry["pending"] = True
                if advs.get(name, {}).get("grants"):
                    entry["grants"] = advs[name]["grants"]
            advs[name] = entry
            ctx.emit(
                "advancement_gained",
                actors=[nation],
                advancement=name,
                level=int(p["level"]),
                pending=not known,
            )
        elif p["kind"] == "recruit":
            s = state["settlements"].get(p["settlement"])
            if s is None or s["owner"] != nation:
                continue
            spec = p["unit"]
            unit = m.make_unit(
                state, nation, rules, spec["class"], spec["name"], spec["traits"], spec["stats"]
            )
            army = next(
                (
                    a
                    for a in sorted(m.armies_at(state, s["location"]), key=lambda a: a["name"])
                    if a["owner"] == nation
                ),
                None,
            )
            if army is None:
                aid = m.new_id(state, nation, "a")
                army = {
                    "id": aid,
                    "owner": nation,
                    "name": m.next_army_name(state, nation),
                    "location": s["location"],
                    "units": [],
                }
                state["armies"][aid] = army
            army["units"].append(unit)
            ctx.emit(
                "unit_mustered",
                actors=[nation],
                place=s["location"],
                unit=unit["name"],
                cls=unit["class"],
                army=army["name"],
                settlement=s["name"],
            )
    return state


def run_income(ctx: TurnContext, state: State) -> State:
    rules = ctx.rules
    for nation in ctx.game.factions:
        gained: dict[str, int] = {}
        bonus = m.income_bonus(state, rules, nation)
        for s in sorted(m.settlements_of(state, nation), key=lambda s: s["id"]):
            if s.get("siege") and rules["siege"]["blocks_income"]:
                continue
            yields = m.level_stats(rules, s)
            for stock in rules["stock"]:
                gained[stock] = gained.get(stock, 0) + int(yields.get(stock, 0)) + bonus.get(stock, 0)
        stock = state["factions"][nation]["stock"]
        for key, n in gained.items():
            stock[key] = stock.get(key, 0) + n
        if any(gained.values()):
            ctx.emit(
                "income", actors=[nation], visible_to=[nation], **{k: v for k, v in sorted(gained.items())}
            )
    return state


def run_contact(ctx: TurnContext, state: State) -> State:
    meetings = [
        (location, a, b)
        for location, nations in m.nations_at(state)
        for a in sorted(nations)
        for b in sorted(nations)
        if a < b
    ]
    # Tiles shared only during the orders count too, e.g. where one side's army was destroyed.
    meetings += [(location, *sorted((a, b))) for location, a, b in ctx.scratch.get("met", [])]
    for location, a, b in meetings:
        contacts = state["factions"][a].setdefault("contacts", [])
        if b not in contacts:
            contacts.append(b)
            contacts.sort()
            other = state["factions"][b].setdefault("contacts", [])
            if a not in other:
                other.append(a)
                other.sort()
            ctx.emit("contact", actors=[a, b], place=location)
    for nation in ctx.game.factions:
        f = state["factions"][nation]
        if (
            f.get("status", "active") == "active"
            and not m.armies_of(state, nation)
            and not m.settlements_of(state, nation)
        ):
            f["status"] = "eliminated"
            for pid in [p["id"] for p in m.projects_of(state, nation)]:
                del state["projects"][pid]
            ctx.emit("eliminated", actors=[nation])
    return state


PHASES = {
    "orders": run_orders,
    "sieges": run_sieges,
    "completion": run_completion,
    "income": run_income,
    "agreements": run_agreements,
    "contact": run_contact,
}
