"""The nations turn, phase by phase (the table itself is in rules.yaml).

Orders run nation by nation in posting order, each file top to bottom. Each order is read again with the
plan the checker used (``plans``), now against the live state: an order the checker accepted can still
fail, because another nation acted first (the army was destroyed, the settlement captured, the stock
marauded). It then becomes a private ``order_failed`` event for its nation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.checks import Check
from ...core.dice import RollLabel, roll_label
from ...core.orders import Order
from ...core.phases import State
from ...engine.plans import plan_or_failure
from . import model as m
from .agreements import run_agreements
from .combat import fight, losses
from .fighters import Battle
from .memory import NationsTurn
from .plans import NationReading, Plan

if TYPE_CHECKING:
    from ...engine.context import TurnContext

    Context = TurnContext[NationsTurn]  # a turn of this ruleset, with its typed memory


def run_orders(ctx: Context, state: State) -> State:
    memory = ctx.memory
    memory.armies = m.ArmyIndex(state)
    memory.settlements = m.SettlementIndex(state)
    for army in state["armies"].values():
        army.pop("stance", None)
    # Stances are declared with the orders but hold from the start of the turn, before anyone moves.
    for nation, of in ctx.orders.items():
        for order in of.orders:
            if order.action == "defend" and (army := memory.armies.named(nation, order["army"])):
                army["stance"] = "defend"
    for nation in ctx.posting_order:
        of = ctx.orders.get(nation)
        reading = NationReading(ctx.game, state, nation, memory)
        for order in of.orders if of else []:
            effect = EFFECTS.get(order.action)
            if effect is None:
                continue  # a defend stance is already set; agreements are made in a phase of their own
            plan = plan_or_failure(ctx, reading, order, reading.paid)
            if plan is None:
                continue
            plan.sure()
            effect(ctx, state, plan)
    _drop_empty_armies(state)
    memory.settlements = None  # the phases after the orders found settlements: they ask the state
    return state


def _move(ctx: Context, state: State, plan: Plan) -> None:
    army, nation, rules = plan.army or {}, plan.nation, ctx.rules
    start, visited, stopped = army["location"], plan.tiles, ""
    if plan.where and rules["movement"]["stop_at_foreigners"]:
        visited, stopped = plan.tiles[: plan.tiles.index(plan.where) + 1], "foreigners"
    here = visited[-1]
    ctx.memory.armies.move(army, here)
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
        fast=plan.order["fast"],
        stopped=stopped,
    )


def _meet(ctx: Context, state: State, nation: str, location: str) -> None:
    """Note whom a marching army meets: a tile shared even for part of a turn opens diplomacy."""
    others = {a["owner"] for a in ctx.memory.armies.foreign_at(location, nation) if a["units"]}
    s = ctx.memory.settlement_at(state, location)
    if s and s["owner"] != nation:
        others.add(s["owner"])
    ctx.memory.met.extend((location, nation, other) for other in sorted(others))


def _step(nation: str, o: Order) -> RollLabel:
    """The stable identity of one order for roll labels: its nation and its place in that nation's file.

    Neither depends on anything another nation does, so an unrelated battle, march or recruit earlier in
    the posting order cannot move the dice of this order's rolls.
    """
    return roll_label(nation, "order", o.number)


def _attack(ctx: Context, state: State, plan: Plan) -> None:
    army, nation, enemy, o = plan.army or {}, plan.nation, plan.enemy, plan.order
    where = army["location"]
    if plan.settlement:
        _assault(ctx, state, nation, plan.settlement, o["on_fall"], _step(nation, o))
        return
    in_own = ctx.memory.settlement_at(state, where)
    bonus = m.settlement_defence(ctx.rules, state, in_own) if in_own and in_own["owner"] == enemy else 0
    _battle(ctx, state, nation, [army], plan.defenders, where, bonus, _step(nation, o), kind="battle")
    # A counter-attack out of a besieged settlement forfeits its defence bonus for the rest of the siege.
    if in_own and in_own["owner"] == nation and (in_own.get("siege") or {}).get("owner") == enemy:
        in_own["siege"]["bonus_lost"] = True


def _battle(
    ctx: Context,
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
        ctx.memory.engaged.add(a["id"])
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
    ctx: Context, state: State, nation: str, settlement: dict, on_fall: str, step: RollLabel
) -> None:
    rules = ctx.rules
    attackers = m.forces_at(ctx.memory.armies, settlement["location"], nation)
    defenders = m.forces_at(ctx.memory.armies, settlement["location"], settlement["owner"])
    weight = sum(m.unit_weight(u, rules) for a in attackers for u in a["units"])
    need = m.assault_need(rules, settlement, defended=bool(defenders))
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
            needed=m.attackers_needed(rules, settlement),
        )
        if not won:
            return
    _fall(ctx, state, nation, settlement, on_fall, step)


def _fall(ctx: Context, state: State, nation: str, settlement: dict, on_fall: str, step: RollLabel) -> None:
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
    if on_fall in ("raid", "raze"):
        roll = ctx.roll(
            roll_label(on_fall, settlement["id"], step),
            f"{level}d{rules['siege'][on_fall + '_die']}",
            factions=[nation, owner],
            decided=f"resources {nation} takes from {settlement['name']}"
            if on_fall == "raid"
            else f"population {owner} loses",
        )
    if on_fall == "raid":
        stock = state["factions"][nation]["stock"]
        stock["resources"] = stock.get("resources", 0) + roll.total
        ctx.emit("settlement_falls", rolls=[roll], gained=roll.total, **base)
    elif on_fall == "raze":
        stock = state["factions"][owner]["stock"]
        lost = min(stock.get("population", 0), roll.total)
        stock["population"] = stock.get("population", 0) - lost
        del state["settlements"][settlement["id"]]
        if ctx.memory.settlements is not None:
            ctx.memory.settlements.remove(settlement)
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


def _siege(ctx: Context, state: State, plan: Plan) -> None:
    army, settlement, nation = plan.army or {}, plan.settlement or {}, plan.nation
    if not settlement.get("siege"):
        settlement["siege"] = {"army": army["id"], "owner": nation, "turns": 0, "since": ctx.turn}
        ctx.memory.sieges_laid.add(settlement["id"])
        ctx.emit(
            "siege_laid",
            actors=[nation, settlement["owner"]],
            place=settlement["location"],
            settlement=settlement["name"],
            owner=settlement["owner"],
            army=army["name"],
            units=len(army["units"]),
        )


def _regroup(ctx: Context, state: State, plan: Plan) -> None:
    """A split or a merge (the plan made it): only its nation hears of it."""
    ctx.emit(
        "army_split" if plan.order.action == "split" else "army_merged",
        actors=[plan.nation],
        place=(plan.army or {})["location"],
        visible_to=[plan.nation],
        army=plan.order["army"],
        **plan.details,
    )


def _project(
    ctx: Context, state: State, nation: str, kind: str, title: str, needed: int, **fields: Any
) -> dict[str, Any]:
    pid = m.new_id(state, nation, "p", owned=ctx.memory.armies.owned(nation))
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


def _work(ctx: Context, state: State, plan: Plan) -> None:
    """Put the plan's action points into its project (its resources are paid); an order other than
    'work' begins the project it describes (a recruit, a settlement, an upgrade, an advancement)."""
    project = plan.project or {}
    if plan.order.action != "work":
        project = _project(ctx, state, plan.nation, **project)
    project["progress"] = int(project["progress"]) + plan.actions
    project["worked"] = ctx.turn
    ctx.emit(
        "work",
        actors=[plan.nation],
        visible_to=[plan.nation],
        project=project["name"],
        title=project["title"],
        actions=plan.actions,
        progress=project["progress"],
        needed=project["needed"],
    )


def _explore(ctx: Context, state: State, plan: Plan) -> None:
    army, nation, o = plan.army or {}, plan.nation, plan.order
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
            owned = ctx.memory.armies.owned(nation)
            army["units"].append(m.make_unit(state, nation, ctx.rules, cls, name, [], stats, owned=owned))
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


def _maraud(ctx: Context, state: State, plan: Plan) -> None:
    army, s, nation = plan.army or {}, plan.settlement or {}, plan.nation
    rules = ctx.rules["marauding"]
    victim = state["factions"][s["owner"]]["stock"]
    stolen = min(int(rules["resources"]), victim.get("resources", 0))
    killed = min(int(rules["population"]), victim.get("population", 0))
    victim["resources"] = victim.get("resources", 0) - stolen
    victim["population"] = victim.get("population", 0) - killed
    mine = state["factions"][nation]["stock"]
    mine["resources"] = mine.get("resources", 0) + stolen
    # Marauders standing on a road also skim the trade that passes along it (agreements phase).
    ctx.memory.marauders.append({"owner": nation, "name": army["name"], "location": army["location"]})
    ctx.emit(
        "maraud",
        actors=[nation, s["owner"]],
        place=army["location"],
        settlement=s["name"],
        owner=s["owner"],
        stolen=stolen,
        killed=killed,
    )


def _road(ctx: Context, state: State, plan: Plan) -> None:
    roads = state.setdefault("roads", {})
    if plan.order["destroy"]:
        del roads[plan.where]
        ctx.emit("road_destroyed", actors=[plan.nation], place=plan.where)
    else:
        roads[plan.where] = plan.nation
        ctx.emit("road_built", actors=[plan.nation], place=plan.where)


# What the resolver does with each plan once it is paid for. A defend stance takes hold before anyone
# moves (``run_orders``) and agreements are made in their own phase, so neither has an effect here.
EFFECTS: dict[str, Callable[[Context, State, Plan], None]] = {
    "move": _move,
    "attack": _attack,
    "siege": _siege,
    "split": _regroup,
    "merge": _regroup,
    "recruit": _work,
    "build": _work,
    "upgrade": _work,
    "advance": _work,
    "work": _work,
    "explore": _explore,
    "maraud": _maraud,
    "road": _road,
}


def _drop_empty_armies(state: State) -> None:
    for aid in [aid for aid, a in state["armies"].items() if not a["units"]]:
        del state["armies"][aid]


# -- the phases after the orders ---------------------------------------------------------------------------


def run_sieges(ctx: Context, state: State) -> State:
    moved, laid = ctx.memory.moved, ctx.memory.sieges_laid
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
        about = dict(
            actors=[siege["owner"], s["owner"]],
            place=s["location"],
            settlement=s["name"],
            besieger=siege["owner"],
        )
        if not held:
            del s["siege"]
            ctx.emit("siege_lifted", **about)
            continue
        siege["turns"] += 1
        ctx.emit(
            "siege_tightens",
            **about,
            turns=siege["turns"],
            needed=m.attackers_needed(ctx.rules, s),
            defence=m.settlement_defence(ctx.rules, state, s),
        )
    return state


def run_completion(ctx: Context, state: State) -> State:
    rules = ctx.rules
    # Nothing moves or dies while projects complete, so the units and armies by tile are gathered once
    # and kept in step with what this phase adds, rather than scanned for each new piece.
    unit_ids = m.all_unit_ids(state)
    armies_by_tile: dict[str, list[m.Army]] = {}
    armies_by_owner: dict[str, list[m.Army]] = {}
    for army in state["armies"].values():
        armies_by_tile.setdefault(army["location"], []).append(army)
        armies_by_owner.setdefault(army["owner"], []).append(army)
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
            sid = m.new_id(state, nation, "s", unit_ids)
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
                state, nation, rules, spec["class"], spec["name"], spec["traits"], spec["stats"], unit_ids
            )
            army = next(
                (
                    a
                    for a in sorted(armies_by_tile.get(s["location"], []), key=lambda a: a["name"])
                    if a["owner"] == nation
                ),
                None,
            )
            if army is None:
                aid = m.new_id(state, nation, "a", unit_ids)
                army = {
                    "id": aid,
                    "owner": nation,
                    "name": m.next_army_name(state, nation, armies_by_owner.get(nation, [])),
                    "location": s["location"],
                    "units": [],
                }
                state["armies"][aid] = army
                armies_by_tile.setdefault(army["location"], []).append(army)
                armies_by_owner.setdefault(nation, []).append(army)
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


def run_income(ctx: Context, state: State) -> State:
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


def run_contact(ctx: Context, state: State) -> State:
    meetings = [
        (location, a, b)
        for location, nations in m.nations_at(state)
        for a in sorted(nations)
        for b in sorted(nations)
        if a < b
    ]
    # Tiles shared only during the orders count too, e.g. where one side's army was destroyed.
    meetings += [(location, *sorted((a, b))) for location, a, b in ctx.memory.met]
    # Each nation's contacts as a set while the meetings are gone through, and those made this turn put
    # into its sorted list once at the end: searching and sorting the list at every meeting grew with the
    # square of the nations a scattered nation meets.
    known: dict[str, set[str]] = {}
    made: dict[str, list[str]] = {}

    def contacts_of(nation: str) -> set[str]:
        if nation not in known:
            known[nation] = set(state["factions"][nation].setdefault("contacts", []))
        return known[nation]

    for location, a, b in meetings:
        if b in contacts_of(a):
            continue
        for nation, other in ((a, b), (b, a)):
            if other not in contacts_of(nation):
                known[nation].add(other)
                made.setdefault(nation, []).append(other)
        ctx.emit("contact", actors=[a, b], place=location)
    for nation, others in made.items():
        contacts = state["factions"][nation]["contacts"]
        contacts.extend(others)
        contacts.sort()
    # Who still has an army or a settlement, gathered once: elimination removes neither.
    standing = {a["owner"] for a in state["armies"].values()} | {
        s["owner"] for s in state["settlements"].values()
    }
    for nation in ctx.game.factions:
        f = state["factions"][nation]
        if f.get("status", "active") == "active" and nation not in standing:
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
