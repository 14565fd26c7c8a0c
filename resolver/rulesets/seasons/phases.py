"""One function per procedure of the seasons' phase table (rules.yaml ``turn_sequence``).

Every test is a check of the rules data (``core.checks``): its dice, modifiers and table live there,
the code only says which modifiers apply. What a season's steps share (the invasions chosen) is kept
in the turn's memory (``SeasonTurn``); what later seasons need (battles won this year, morale shaken)
is kept on the nation's record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ...core import relations
from ...core.checks import Check, CheckResult, Modifier
from ...core.dice import roll_label
from ...core.orders import Order
from ...core.phases import State
from ...core.standing import in_force
from ...engine.ruleset import TurnMemory
from . import allies, commanders, diplomacy, forces
from . import model as m
from .battle import Side, ambushes, fight, modifier_name, movement_tests, zone_units
from .diplomacy import declare as _declare
from .diplomacy import make_peace as _make_peace
from .orders import INSTRUCTIONS
from .setup import new_unit


@dataclass
class SeasonTurn(TurnMemory):
    """What the steps of one season tell each other: the invasions chosen, for the march and the battles."""

    invasions: list[dict[str, str]] = field(default_factory=list)  # {attacker, army, province, from}


def _check(ctx: Any, check_id: str) -> Check:
    return Check.from_rules(ctx.rules, check_id)


def _orders(ctx: Any, nation: str, action: str) -> list[Order]:
    of = ctx.orders.get(nation)
    return [order for order in (of.orders if of else []) if order.action == action]


# -- recruiting ----------------------------------------------------------------------------------------


def recruiting_rolls(ctx: Any, state: State) -> State:
    """Each spring: TECH + WAR RATING (the Marshal's, or with no Marshal the best Captain's) + PROVINCE
    (provinces held) + DEF."""
    per_province = int(ctx.rules["recruiting"]["per_province"])
    commanders.name_marshals(ctx, state)  # a new Marshal's attributes may change his War Rating
    diplomacy.begin_pending_wars(ctx, state)
    for nation in m.nations(state):
        record = state["factions"][nation]
        record["year"] = {}  # a new year: last year's battles are what diplomacy reads, kept apart
        leader = m.leader_of(state, nation)  # Alweg, with no Marshal, recruits on its best Captain's WR
        # a Marshal recovering or held captive lends his War Rating to nobody's recruiting
        war_rating = 0 if leader is not None and not m.available(leader) else m.war_rating(leader)
        provinces = len(m.provinces_of(state, nation))
        rolls = int(record["tech"]) + war_rating + per_province * provinces + int(record["defence"])
        free = int(record.pop("free_rolls", 0))
        record["rolls"] = rolls + free
        ctx.emit(
            "recruiting_rolls",
            actors=[nation],
            visible_to=[nation],
            rolls_total=rolls + free,
            free=free,
            tech=record["tech"],
            war_rating=war_rating,
            provinces=provinces,
            defence=record["defence"],
        )
    return state


def buy_rolls(ctx: Any, state: State) -> State:
    price = int(ctx.rules["recruiting"]["resource_for_roll"])
    for nation in m.nations(state):
        for order in _orders(ctx, nation, "buy_rolls"):
            stock = state["factions"][nation]["stock"]
            bought = min(int(order["rolls"]), int(stock["resources"]) // price)
            if bought < int(order["rolls"]):
                ctx.order_failed(
                    nation, order, f"only {stock['resources']} resources for {order['rolls']} rolls"
                )
            stock["resources"] -= bought * price
            state["factions"][nation]["rolls"] += bought
            if bought:
                ctx.emit(
                    "rolls_bought", actors=[nation], visible_to=[nation], bought=bought, cost=bought * price
                )
    return state


def hero_availability(ctx: Any, state: State) -> State:
    check = _check(ctx, "hero_availability")
    for nation in m.nations(state):
        result = check.roll(ctx, roll_label("hero", nation), factions=[nation])
        state["factions"][nation]["hero"] = result.result == "hero"
        ctx.emit("hero", actors=[nation], rolls=[result.roll], found=result.result == "hero")
    return state


def recruit(ctx: Any, state: State) -> State:
    """Each recruiting roll spent reads the army-type table on the nation's column; under shaken morale an
    opposition die of 6 loses the recruit. New units wait in the capital (``organize`` places them)."""
    army_type, fails_on = _check(ctx, "army_type"), int(ctx.rules["recruiting"]["opposition_fails_on"])
    for nation in m.nations(state):
        record = state["factions"][nation]
        for order in _orders(ctx, nation, "recruit"):
            wanted = min(int(order["rolls"]), int(record["rolls"]))
            for number in range(1, wanted + 1):
                record["rolls"] -= 1
                label = roll_label("recruit", nation, f"o{order.number}", number)
                row = army_type.roll(ctx, label, factions=[nation])
                rolls = [row.roll]
                code = str(row.row.get(record["column"]))
                if int(record.get("opposition", 0)):
                    opposition = ctx.roll(roll_label(label, "opposition"), "1d6", factions=[nation])
                    rolls.append(opposition)
                    if opposition.total >= fails_on:
                        ctx.emit(
                            "recruit_refused", actors=[nation], visible_to=[nation], rolls=rolls, code=code
                        )
                        continue
                record["next_unit"] = int(record.get("next_unit", 0)) + 1
                unit = new_unit(f"{nation}-n{record['next_unit']}", code, ctx.rules)
                unit["order"] = order.number  # where it goes is read at the organize step (forces)
                record.setdefault("recruits", []).append(unit)
                record["season"]["recruited"] = int(record["season"].get("recruited", 0)) + 1
                ctx.emit(
                    "recruited",
                    actors=[nation],
                    visible_to=[nation],
                    rolls=rolls,
                    code=code,
                    unit_name=ctx.rules["units"][code]["name"],
                )
        if ctx.date.season == "Spring":  # every unit, new or carried on, is paid for until next spring
            _pay_upkeep(ctx, state, nation, only_new=False)
    return state


def organize(ctx: Any, state: State) -> State:
    """The nations' organising orders, in the order written (``forces``); then new units join the army or
    the province their recruit order names, else the capital (a new army there if none stands in it)."""
    for nation in m.nations(state):
        forces.carry_out(ctx, state, nation, _organising(ctx, nation))
        record = state["factions"][nation]
        recruits = record.pop("recruits", [])
        recruit_orders = {o.number: o for o in _orders(ctx, nation, "recruit")}
        groups: dict[int | None, list[dict[str, Any]]] = {}
        for unit in recruits:
            groups.setdefault(unit.pop("order", None), []).append(unit)
        for number, units in sorted(groups.items(), key=lambda item: (item[0] is not None, item[0] or 0)):
            where = forces.destination(ctx, state, nation, recruit_orders.get(number) if number else None)
            army = state["armies"].get(where.get("army") or "")
            if army is None:
                army = _garrison(state, nation, str(where["province"]))
            army["units"].extend(units)
            ctx.emit("organized", actors=[nation], place=army["location"], units=len(units))
    return state


def _organising(ctx: Any, nation: str) -> list[Order]:
    of = ctx.orders.get(nation)
    return [order for order in (of.orders if of else []) if order.action in forces.ORGANISING]


def _garrison(state: State, nation: str, province: str) -> dict[str, Any]:
    """The nation's army in ``province`` that new units join: the first standing there free to take them,
    else a new one under a commander who leads no army (or none)."""
    army = next(
        (
            a
            for a in m.armies_at(state, province)
            if a["owner"] == nation and not a.get("levy") and not a.get("besieging")
        ),
        None,
    )
    if army is not None:
        return army
    free = next(iter(forces.free_commanders(state, nation)), None)
    return forces.new_army(state, nation, province, [], free)


def upkeep(ctx: Any, state: State) -> State:
    """This season's recruits cost their upkeep until next spring; spring pays for every unit. A
    nation that cannot pay sees its newest units go home."""
    for nation in m.nations(state):
        _pay_upkeep(ctx, state, nation, only_new=ctx.date.season != "Spring")
    return state


def _pay_upkeep(ctx: Any, state: State, nation: str, *, only_new: bool) -> None:
    """Upkeep in half resources, rounded up for the nation; a nation whose standing instructions say
    ``forage`` lets each army's units forage first, and a unit that forages costs nothing."""
    record, per = state["factions"][nation], int(ctx.rules["maintenance"]["per"])
    foraging = in_force(state, nation, ctx.game.standing[INSTRUCTIONS])["forage"] and not only_new
    units: list[dict[str, Any]] = []
    for army in m.armies_of(state, nation):
        for unit in army["units"]:
            if only_new and unit.get("paid"):
                continue
            if foraging and _forages(ctx, state, army, unit):
                unit["paid"] = True
                continue
            units.append(unit)
    units += [u for u in record.get("recruits", []) if not (only_new and u.get("paid"))]
    halves = sum(m.upkeep_halves(ctx.rules, u) for u in units)
    cost = -(-halves // per)
    record["stock"]["resources"] = max(0, int(record["stock"]["resources"]) - cost)
    for unit in units:
        unit["paid"] = True
    if cost:
        ctx.emit("upkeep", actors=[nation], visible_to=[nation], cost=cost, units=len(units))


def _forages(ctx: Any, state: State, army: Mapping[str, Any], unit: dict[str, Any]) -> bool:
    """Foraging instead of upkeep: the resource found pays for the unit; 1 success tires it (−1 REP in
    its next battle), none finds nothing and the nation pays."""
    check = _check(ctx, "foraging")
    commander = m.commander(state, army)
    mods = commanders.attribute_modifiers(ctx.rules, m.attributes(commander), check.id)
    result = check.roll(ctx, roll_label("forage", unit["id"]), modifiers=mods, factions=[army["owner"]])
    if result.result == "exhausted":
        unit["exhausted"] = True
    ctx.emit(
        "forage",
        actors=[army["owner"]],
        visible_to=[army["owner"]],
        rolls=[result.roll],
        unit=unit["id"],
        unit_name=ctx.rules["units"][unit["code"]]["name"],
        code=unit["code"],
        result=result.result,
    )
    return result.result != "nothing"


# -- war -----------------------------------------------------------------------------------------------


def going_to_war(ctx: Any, state: State) -> State:
    """A nation that orders war on a neighbour tests whether its people follow (house rule)."""
    check = _check(ctx, "going_to_war")
    for nation in m.nations(state):
        for order in _orders(ctx, nation, "declare_war"):
            enemy = str(order["nation"])
            if m.at_war(state, nation, enemy) or enemy not in state["factions"]:
                continue
            if forbidden := diplomacy.forbids_war(state, nation, enemy):
                ctx.order_failed(nation, order, forbidden)
                continue
            _war_test(ctx, state, check, nation, enemy, roll_label("war", nation, enemy))
    return state


def _war_test(ctx: Any, state: State, check: Check, nation: str, enemy: str, label: Any) -> CheckResult:
    record = state["factions"][nation]
    mods = []
    if diplomacy.deceived(state, nation):
        mods.append(check.modifier("deceived"))
    if record["interest"] in ("loot", "conquest"):
        mods.append(check.modifier(f"{record['interest']}_interest"))
    if int(record.get("shaken", 0)):
        mods.append(check.modifier("shaken"))
    if diplomacy.pays_tribute(state, nation):
        mods.append(check.modifier("tribute"))
    result = check.roll(ctx, label, modifiers=mods, factions=[nation])
    if result.result == "goes_to_war":
        _declare(state, nation, enemy)
    ctx.emit("war_test", actors=[nation, enemy], rolls=[result.roll], war=result.result == "goes_to_war")
    return result


def _targets(ctx: Any, state: State, nation: str, *enemies: str) -> list[str]:
    """Enemy provinces next to the nation's own, the fewest defending units first (house rule); a
    diplomat's ±1 on the choice counts as one defending unit less or more, and a nation promised not to
    attack this year is left out."""
    world = ctx.game.world
    own = set(m.provinces_of(state, nation))
    near: list[str] = []
    for enemy in [e for e in enemies if diplomacy.may_invade(state, nation, e)]:
        held = m.provinces_of(state, enemy)
        # no common border: a raid reaches any of the enemy's provinces (the Piorad sail)
        near += [p for p in held if own & set(world.neighbours(p))] or held

    def weakness(province: str) -> tuple[int, str]:
        owner = state["provinces"][province]["owner"]
        defending = sum(len(a["units"]) for a in m.armies_at(state, province))
        return defending - diplomacy.choice_modifier(state, nation, owner), province

    return sorted(near, key=weakness)


def choose_province(ctx: Any, state: State) -> State:
    invasions = ctx.memory.invasions
    for nation in m.nations(state):
        armies = [a for a in m.armies_of(state, nation) if a["units"] and not a.get("besieging")]
        ordered = _orders(ctx, nation, "invade")
        # One invasion a province a season (house rule): a defender fights one battle where it stands.
        taken = {invasion["province"] for invasion in invasions}
        if ordered:  # read as the checker read it (forces): at war, no promise, the army it names
            plan = forces.invasion(ctx, state, nation, ordered[0])
            if plan is None:
                continue
            province = str(plan["province"])
            if not armies:
                ctx.order_failed(nation, ordered[0], "you have no army free to march")
                continue
            army = state["armies"][plan["army"]] if plan["army"] else max(armies, key=_size)
            if province in taken:
                led = next(i for i in invasions if i["province"] == province)
                if allies.joins_invasion(state, nation, led):  # an ally's invasion: march with it
                    led.setdefault("joined", []).append({"army": army["id"], "from": army["location"]})
                    ctx.emit(
                        "joins_invasion",
                        actors=[nation, led["attacker"]],
                        place=province,
                        army=army["id"],
                        army_called=forces.army_called(army),
                    )
                else:
                    ctx.order_failed(nation, ordered[0], "another army invades that province this season")
                continue
        else:  # silent orders: the aggressor invades the weakest border province of its wars
            if not state["factions"][nation]["wars"] or not armies:
                continue
            wars = [
                e
                for e in state["factions"][nation].get("attacking", [])
                if e in state["factions"][nation]["wars"]
            ]
            choices = [p for p in _targets(ctx, state, nation, *wars) if p not in taken]
            if not choices:
                continue
            province = choices[0]
            army = max(armies, key=_size)
        invasions.append(
            {"attacker": nation, "army": army["id"], "province": province, "from": army["location"]}
        )
        ctx.emit("invasion_planned", actors=[nation], visible_to=[nation], place=province)
    return state


def _size(army: Mapping[str, Any]) -> tuple[int, str]:
    """The largest army invades when the orders name none (then the highest id)."""
    return len(army["units"]), str(army["id"])


def invade(ctx: Any, state: State) -> State:
    """Aggressors march on their target; two armies marching on each other's province first take the
    movement test. The defender's standing instructions may refuse the battle; an undefended province
    raises a local lord's army."""
    movement_tests(ctx, state, ctx.memory.invasions)
    for invasion in ctx.memory.invasions:
        army, province = state["armies"][invasion["army"]], invasion["province"]
        owner = state["provinces"][province]["owner"]
        army["location"] = province
        for joined in invasion.get("joined", []):  # allies march with the leading army
            state["armies"][joined["army"]]["location"] = province
        ctx.emit("invaded", actors=[invasion["attacker"], owner], place=province)
        if invasion.get("meeting"):
            continue  # the movement test's tie: the army standing there attacks too, it does not defend
        answer = _answer(ctx, state, province, owner)
        if answer != "fight":  # the holder refuses the battle: its allies there do not fight it alone
            _allies_stand_aside(ctx, state, invasion, owner)
        if answer == "withdraw" and _withdraw(ctx, state, invasion, owner):
            continue
        if allies.defending_armies(state, province, owner, invasion["attacker"]):
            _allies_defend(ctx, state, invasion, owner)
        defenders = [a for a in m.armies_at(state, province) if a["owner"] == owner and a["units"]]
        if not defenders and not allies.defending_armies(state, province, owner, invasion["attacker"]):
            _local_army(ctx, state, province, owner)
            defenders = [a for a in m.armies_at(state, province) if a["owner"] == owner and a["units"]]
        if defenders and answer == "fort":  # a levy obeys the instruction too
            _into_the_fort(ctx, state, invasion, army, defenders[0])
            _refused(ctx, state, owner)
    return state


def _allies_defend(ctx: Any, state: State, invasion: Mapping[str, Any], owner: str) -> None:
    """Allied armies standing in the invaded province join its defence (house rule ``allies``)."""
    province = invasion["province"]
    for army in allies.defending_armies(state, province, owner, invasion["attacker"]):
        if army["owner"] != owner:
            ctx.emit(
                "joins_defence",
                actors=[army["owner"], owner],
                place=province,
                army=army["id"],
                army_called=forces.army_called(army),
            )


def _allies_stand_aside(ctx: Any, state: State, invasion: Mapping[str, Any], owner: str) -> None:
    """The holder refuses the battle (its fort, or withdrawing): its allies' armies in the province fall
    back to their own nations' nearest provinces (house rule ``allies``)."""
    province = invasion["province"]
    for army in allies.defending_armies(state, province, owner, invasion["attacker"]):
        if army["owner"] != owner:
            army["location"] = allies.nearest_own(ctx, state, army["owner"], province) or army["location"]
            ctx.emit(
                "ally_stands_aside",
                actors=[army["owner"], owner],
                place=province,
                army=army["id"],
                army_called=forces.army_called(army),
                to=army["location"],
            )


def _answer(ctx: Any, state: State, province: str, owner: str) -> str:
    """A nation's standing answer to an invasion: ``fight`` (the default), ``fort`` (shut the army in the
    province's fort; without a fort it fights) or ``withdraw`` (leave the province to the invader).
    Either of the last two refuses the battle."""
    if owner not in m.nations(state):
        return "fight"
    answer = str(in_force(state, owner, ctx.game.standing[INSTRUCTIONS])["if_invaded"])
    return "fight" if answer == "fort" and not state["provinces"][province]["fort"] else answer


def _withdraw(ctx: Any, state: State, invasion: Mapping[str, Any], owner: str) -> bool:
    """The nation's armies in the invaded province fall back to its nearest other province and the
    invader takes this one unopposed (no local lord rises for a nation that gave it up). A nation with
    nowhere to go fights."""
    province = invasion["province"]
    refuge = _fallback(ctx, state, owner, province, fort=False)
    if refuge is None:
        return False
    for army in m.armies_at(state, province):
        if army["owner"] == owner:
            army["location"] = refuge
    ctx.emit("battle_refused", actors=[owner, invasion["attacker"]], place=province, refuge=refuge)
    _refused(ctx, state, owner)
    _conquer(ctx, state, province, invasion["attacker"], owner, None)
    return True


def _refused(ctx: Any, state: State, nation: str) -> None:
    """A refused battle is counted over the year; from the ``national_morale.refused_from``-th on, each
    takes a success from the season's will to fight (the seed's "3rd and more occurrence only")."""
    if nation not in m.nations(state):
        return
    year = state["factions"][nation]["year"]
    year["refused"] = int(year.get("refused", 0)) + 1
    m.tally(state, nation, "refused")
    if year["refused"] >= int(ctx.rules["national_morale"]["refused_from"]):
        m.tally(state, nation, "refused_counted")


def _fallback(ctx: Any, state: State, nation: str, province: str, *, fort: bool) -> str | None:
    """The nation's nearest province other than ``province`` (the nearest with a fort, if ``fort`` and
    one can be reached), by steps over the map and then by id; None if it holds no other."""
    world = ctx.game.world
    reach = set(world.within(province, len(world)))
    own = [p for p in m.provinces_of(state, nation) if p != province and p in reach]
    forts = [p for p in own if state["provinces"][p]["fort"]]
    choices = forts if fort and forts else own
    return min(choices, key=lambda p: (world.distance(province, p), p), default=None)


def _into_the_fort(ctx: Any, state: State, invasion: Mapping[str, Any], army: dict, defending: dict) -> None:
    """The defender falls back into the fort; the aggressor lays a siege, except the Piorad, who loot the
    land around it and go home."""
    province = invasion["province"]
    defending["in_fort"] = True
    if not m.is_piorad(ctx.rules, invasion["attacker"]):
        army["besieging"] = province
        state["sieges"][province] = {"attacker": army["id"], "defender": defending["id"], "since": ctx.turn}
    ctx.emit(
        "into_the_fort",
        actors=[defending["owner"], invasion["attacker"]],
        place=province,
        siege=province in state["sieges"],
    )


def sieges(ctx: Any, state: State) -> None:
    """Every siege laid before this season: each unit of both sides tests (Siege skill +1, winter −1,
    summer +1, a Siege master CinC +1); the side left without units loses, and the other's units
    return to their standard morale."""
    check, season = _check(ctx, "siege"), ctx.date.season
    for province, siege in sorted(state["sieges"].items()):
        if siege["since"] == ctx.turn:
            continue
        armies = [state["armies"].get(siege["attacker"]), state["armies"].get(siege["defender"])]
        rolls = []
        for army in [a for a in armies if a]:
            kept = []
            attributes = m.attributes(m.commander(state, army))
            master = commanders.attribute_modifiers(ctx.rules, attributes, check.id)
            for unit in army["units"]:
                mods = [check.modifier("siege_skill")] if "siege" in m.skills(ctx.rules, unit) else []
                mods += [check.modifier(season.lower())] if season.lower() in check.declared else []
                mods += master
                result = check.roll(
                    ctx, roll_label("siege", province, unit["id"]), modifiers=mods, factions=[army["owner"]]
                )
                rolls.append(result.roll)
                if result.result == "morale_down":
                    lower = m.morale_step(ctx.rules, unit["morale"], -1)
                    if lower is None:
                        continue
                    unit["morale"] = lower
                if result.result != "disbanded":
                    kept.append(unit)
            army["units"] = kept
        attacker, defender = armies
        left = {
            "attacker": bool(attacker and attacker["units"]),
            "defender": bool(defender and defender["units"]),
        }
        ctx.emit(
            "siege",
            actors=[a["owner"] for a in armies if a],
            place=province,
            rolls=rolls,
            attacker_units=len(attacker["units"]) if attacker else 0,
            defender_units=len(defender["units"]) if defender else 0,
        )
        if left["attacker"] and left["defender"]:
            continue
        del state["sieges"][province]
        for army in [a for a in armies if a]:
            army.pop("besieging", None)
            army.pop("in_fort", None)
            for unit in army["units"]:
                unit["morale"] = ctx.rules["units"][unit["code"]]["morale"]
        if left["attacker"] and defender is not None:
            _conquer(ctx, state, province, attacker["owner"], defender["owner"], defender)
        ctx.emit(
            "siege_ended",
            actors=[a["owner"] for a in armies if a],
            place=province,
            winner=attacker["owner"] if left["attacker"] else (defender or {}).get("owner"),
        )


def _local_army(ctx: Any, state: State, province: str, owner: str) -> None:
    spec = ctx.rules["defensive_army"]
    rolls = int(spec["rolls"]) + int(spec["season"][ctx.date.season])
    column = _check(ctx, "army_column").roll(ctx, roll_label("levy", province, "column"), factions=[owner])
    army_type = _check(ctx, "army_type")
    units, all_rolls = [], [column.roll]
    for number in range(1, int(rolls * float(spec["units_per_roll"])) + 1):
        row = army_type.roll(ctx, roll_label("levy", province, number), factions=[owner])
        all_rolls.append(row.roll)
        units.append(
            new_unit(f"levy-{province}-t{ctx.turn}-u{number}", str(row.row.get(column.result)), ctx.rules)
        )
    captain = f"levy-{province}-t{ctx.turn}"
    base = int(ctx.rules["start"]["captain_reputation"])
    state["commanders"][captain] = {
        "id": captain,
        "name": commanders.fresh_name(ctx.rules, state),
        "owner": owner,
        "rank": "captain",
        "reputation": base,
        "wr_penalty": int(spec["captain_wr_penalty"]),
        "attributes": [],
        "weapon": None,
        "levy": True,
    }
    state["armies"][captain] = {
        "id": captain,
        "owner": owner,
        "location": province,
        "commander": captain,
        "units": units,
        "levy": True,
    }
    ctx.emit(
        "levy_raised",
        actors=[owner],
        place=province,
        rolls=all_rolls,
        units=len(units),
        army_type=column.result,
    )


def battle(ctx: Any, state: State) -> State:
    """Each invasion is fought; the winner loots; a winning local levy rolls for staying at war."""
    sieges(ctx, state)
    for invasion in ctx.memory.invasions:
        _fight_invasion(ctx, state, invasion)
        _allies_go_home(ctx, state, invasion)
    for army_id in sorted(state["armies"]):
        army = state["armies"][army_id]
        if not army["units"]:
            del state["armies"][army_id]
        elif army.get("in_fort") and not any(s["defender"] == army_id for s in state["sieges"].values()):
            army.pop("in_fort")  # sheltered from a raid that laid no siege: out again once it has passed
    return state


def _allies_go_home(ctx: Any, state: State, invasion: Mapping[str, Any]) -> None:
    """Armies that joined an ally's invasion go back to where they marched from once it is over, won or
    lost: the land taken is the leading invader's, and the siege, if any, its army's (house rule
    ``allies``)."""
    for joined in invasion.get("joined", []):
        army = state["armies"].get(joined["army"])
        if army is not None and army["units"] and army["location"] == invasion["province"]:
            start = joined["from"]
            if state["provinces"][start]["owner"] != army["owner"]:  # taken while it was away
                start = allies.nearest_own(ctx, state, army["owner"], start) or start
            army["location"] = start


def _recover(ctx: Any, state: State, army: dict[str, Any], battle: tuple[str, str]) -> None:
    """Every damaged unit tests against its REP: each die at or under it succeeds (a 6 never does);
    light damage helps, heavy harms, beyond 3 × REP it is destroyed; a unit not routed gets a success.
    Units of one type with one success each merge into one; a unit with one success and no partner
    is lost, like one with none. ``battle`` (the province and the attacker) keeps the labels apart
    when one army fights two battles in a season."""
    base, rules = _check(ctx, "recovery"), ctx.rules
    highest = int(rules["recovery_target"]["max"])
    outcomes: dict[str, str] = {}
    rolls = []
    for unit in army["units"]:
        hits, rep = int(unit.get("hits", 0)), m.rep(rules, unit)
        if not hits:
            continue
        # rolled against the unit's morale (house rule): a die at or under its REP succeeds, and a 6
        # always fails, as in the seed's other test against a level (will to fight)
        check = replace(base, success=f"<={min(rep, highest)}")
        if hits > 3 * rep:
            outcomes[unit["id"]] = "destroyed"
            continue
        mods = [check.modifier("light_damage")] if hits <= rep else []
        mods += [check.modifier("heavy_damage")] if hits > 2 * rep else []
        mods += [] if unit.get("routed") else [check.modifier("not_routed")]
        result = check.roll(
            ctx, roll_label("recover", *battle, unit["id"]), modifiers=mods, factions=[army["owner"]]
        )
        rolls.append(result.roll)
        outcomes[unit["id"]] = result.result
    merging: dict[str, list[dict[str, Any]]] = {}
    for unit in army["units"]:
        if outcomes.get(unit["id"]) == "merge":
            merging.setdefault(unit["code"], []).append(unit)
    kept = []
    for unit in army["units"]:
        outcome = outcomes.get(unit["id"], "unharmed")
        partners = merging.get(unit["code"], [])
        if (
            outcome == "merge"
            and len(partners) >= 2
            and partners.index(unit) % 2 == 0
            and partners.index(unit) + 1 < len(partners)
        ):
            outcome = "merged"  # it absorbs the next unit of its type; that one is gone
        if outcome in ("unharmed", "recovered", "merged"):
            unit["hits"] = 0
            unit.pop("routed", None)
            kept.append(unit)
    if outcomes:
        ctx.emit(
            "recovery",
            actors=[army["owner"]],
            rolls=rolls,
            outcomes=outcomes,
            lost=sorted(u["id"] for u in army["units"] if u not in kept),
            lost_units=[
                m.unit_label(ctx.rules, u)
                for u in sorted(army["units"], key=lambda u: u["id"])
                if u not in kept
            ],
        )
    army["units"] = kept


def _fight_invasion(ctx: Any, state: State, invasion: Mapping[str, Any]) -> None:
    """One battle: the invading army and its allies that joined it against the holder's armies in the
    province and its allies' (house rule ``allies``), each side fighting as one; afterwards each army
    takes its own results, loot, Marshal's fate and recovery."""
    province, attacker = invasion["province"], invasion["attacker"]
    army = state["armies"].get(invasion["army"])
    meeting = state["armies"].get(invasion.get("meeting") or "")
    owner = state["provinces"][province]["owner"]
    own = [meeting] if meeting else m.armies_at(state, province)
    own = [a for a in own if a["owner"] == owner and a["units"]]
    if army is None or not army["units"] or (own and own[0].get("in_fort")) or owner == attacker:
        return  # no one to attack, the defenders shut in the fort, or the province given up to the invader
    # the holder's armies there, then its allies' (house rule allies); in a meeting, the army met
    defenders = own if meeting else allies.defending_armies(state, province, owner, attacker)
    if not defenders:
        return
    attackers = [army] + [
        state["armies"][j["army"]]
        for j in invasion.get("joined", [])
        if j["army"] in state["armies"]
        and state["armies"][j["army"]]["units"]
        and state["armies"][j["army"]]["location"] == province
    ]
    defending = defenders[0]
    first = _side(ctx, state, army, attacking=True)
    second = _side(ctx, state, defending, attacking=bool(meeting))
    second.holds_ground = True  # it stands in the province fought over: its heights, its fort
    if meeting:  # both armies attack: neither has a defender's benefits
        first.defence_benefits = second.defence_benefits = False
    elif ambushes(ctx, state, province, army, defending):
        first.attacking, second.attacking, second.ambushing = False, True, True
        first.disorganised = "ambushed" in ctx.rules["battle"]["disorganised"]  # caught on the march
    if defending.get("levy") and "levy" in ctx.rules["battle"]["disorganised"]:
        second.disorganised = True  # a local lord's ad-hoc army, raised as the enemy comes
    # the holder fights from its fort's walls, unless it left them to spring an ambush
    second.in_fort = bool(state["provinces"][province].get("fort")) and not second.ambushing
    for side, side_army, other in ((first, army, second), (second, defending, first)):
        _attribute_tests(ctx, state, province, side, side_army, other)
    first = allies.together(first, [_side(ctx, state, a, attacking=True) for a in attackers[1:]])
    second = allies.together(second, [_side(ctx, state, a, attacking=True) for a in defenders[1:]])
    outcome = fight(ctx, province, ctx.game.world[province].terrain, first, second)
    # the battle's winner as the invasion reads it: the invader, or the province's holder
    won = None if outcome.winner is None else attacker if outcome.winner == first.owner else owner
    loser = None if won is None else (owner if won == attacker else attacker)
    sides = [(a, True) for a in attackers] + [(a, False) for a in defenders]
    nations = {True: _nations(attackers), False: _nations(defenders)}
    for attacking in (True, False):
        lead_nation = attacker if attacking else owner
        for nation in nations[attacking]:
            result = _result(won, lead_nation)
            if nation in state["factions"] and result != "draw":
                m.tally(state, nation, result)
                year = state["factions"][nation]["year"]
                for enemy in nations[not attacking]:
                    key = f"{result}:{enemy}"
                    year[key] = int(year.get(key, 0)) + 1
    # every unit that fought counts the battle, a routed one too: those lost in recovery take their
    # count with them, and the seed positions the counter of every surviving unit
    for side_army, attacking in sides:
        for unit in side_army["units"]:
            unit.setdefault("results", []).append(_result(won, attacker if attacking else owner))
    ctx.emit(
        "battle",
        actors=[attacker, owner, *[n for n in nations[True] + nations[False] if n not in (attacker, owner)]],
        place=province,
        rolls=outcome.rolls,
        winner=won,
        loser=loser,
        rounds=outcome.rounds,
        hits=dict(sorted(outcome.hits.items())),
        routed=sorted(u["id"] for u in first.units + second.units if u.get("routed")),
        routed_units=[
            m.unit_label(ctx.rules, u)
            for u in sorted(first.units + second.units, key=lambda u: u["id"])
            if u.get("routed")
        ],
        retreated=None
        if outcome.retreated is None
        else attacker
        if outcome.retreated == first.owner
        else owner,
        ambush=second.ambushing,
        **_allied_names(nations, attacker, owner),
        losses={side.owner: _losses(ctx, side, outcome.hits) for side in (first, second)},
    )
    if outcome.retreat is not None:
        leaving = attackers if outcome.retreated == first.owner else defenders
        for index, side_army in enumerate(leaving):
            _retreat(ctx, state, invasion, outcome.retreat, side_army, first_of_side=index == 0)
    if won == attacker:
        there = defending["location"] == province
        if not (there and defending.get("in_fort")):  # a defender shut in the fort is besieged instead
            _conquer(ctx, state, province, attacker, owner, defending if there else None)
            _defenders_leave(ctx, state, province, defenders[1:])
    else:
        if army["location"] == province:
            army["location"] = invasion["from"]
        if won == owner and (meeting or invasion.get("movement") == "attacks_defender_may_take"):
            _take_back(ctx, state, invasion, army, defending)
        if won == owner and defending.get("levy"):
            _staying_at_war(ctx, state, defending)
    if won is not None:
        for index, side_army in enumerate(attackers if won == attacker else defenders):
            if index == 0 or side_army["units"]:  # an ally's army broken up by a retreat loots nothing
                _loot(ctx, state, side_army["owner"], side_army, province, loser, first_of_side=index == 0)
    enemy_cinc = {True: m.commander(state, defending), False: m.commander(state, army)}
    for side_army, attacking in sides:
        for unit in side_army["units"]:
            unit.pop("exhausted", None)
        lead_nation = attacker if attacking else owner
        _marshal_fate(ctx, state, side_army, _result(won, lead_nation), enemy_cinc[attacking])
        _recover(ctx, state, side_army, (province, attacker))


def _nations(armies: list[dict[str, Any]]) -> list[str]:
    """The nations of a side's armies, each once, in the side's order."""
    return list(dict.fromkeys(str(a["owner"]) for a in armies))


def _allied_names(nations: Mapping[bool, list[str]], attacker: str, owner: str) -> dict[str, Any]:
    """For the battle's event: the allies that fought beside the invader and beside the holder."""
    data = {}
    for attacking, key, lead in ((True, "allies_attacking", attacker), (False, "allies_defending", owner)):
        others = [n for n in nations[attacking] if n != lead]
        if others:
            data[key] = others
    return data


def _defenders_leave(ctx: Any, state: State, province: str, armies: list[dict[str, Any]]) -> None:
    """The province is taken: the holder's other armies there fall back to its capital (as its leading
    army does), an ally's to its own nation's nearest province."""
    for army in armies:
        if army["location"] != province or not army["units"]:
            continue
        capital = state["factions"].get(army["owner"], {}).get("capital")
        if capital and state["provinces"].get(capital, {}).get("owner") == army["owner"]:
            army["location"] = capital
        else:
            army["location"] = allies.nearest_own(ctx, state, army["owner"], province) or army["location"]


def _losses(ctx: Any, side: Side, hits: Mapping[str, int]) -> dict[str, Any]:
    """What one side lost in a battle, for its sentence: the hits its units took and the units routed, so
    that a draw, with no winner to name, still tells what it cost each side."""
    return {
        "hits": sum(int(hits.get(unit["id"], 0)) for unit in side.units),
        "routed": [
            m.unit_label(ctx.rules, unit)
            for unit in sorted(side.units, key=lambda u: u["id"])
            if unit.get("routed")
        ],
    }


def _attribute_tests(
    ctx: Any, state: State, province: str, side: Side, army: Mapping[str, Any], other: Side
) -> None:
    """At the start of a battle the CinC's testing attributes roll their test (Heavy drinker, Undecided,
    Friendly with foe's foe, Gut feeling); a failed Gut feeling reads his stance on one die: his side
    becomes the active one (attacker) or not (defender) and the other side takes the other stance,
    whatever the invasion or an ambush made them (house rule)."""
    commander = m.commander(state, army)
    rolls: list[Any] = []
    side.cinc_tests = commanders.attribute_tests(ctx, commander, ("attribute_test", province), rolls)
    if commander is None or not side.cinc_tests:
        return
    stance = None
    if side.cinc_tests.get("gut_feeling") == "failed":
        result = _check(ctx, "gut_feeling").roll(
            ctx, roll_label("gut_feeling", province, commander["id"]), factions=[army["owner"]]
        )
        rolls.append(result.roll)
        stance = result.result
        side.attacking = stance == "attacker"
        other.attacking = not side.attacking
    ctx.emit(
        "attribute_tests",
        actors=[army["owner"]],
        place=province,
        rolls=rolls,
        commander=commander["id"],
        commander_name=commanders.display_name(commander),
        results=dict(sorted(side.cinc_tests.items())),
        stance=stance,
    )


def _side(ctx: Any, state: State, army: Mapping[str, Any], *, attacking: bool) -> Side:
    """An army as a side of a battle: its CinC's WR, traits and zone of command, and when it tests to
    retreat (its nation's standing instructions; the Piorad and a local lord's levy at
    ``battle.npc_retreat_at_losses``)."""
    commander = m.commander(state, army)
    owner = army["owner"]
    if owner in m.nations(state) and not army.get("levy"):
        retreat_at = int(in_force(state, owner, ctx.game.standing[INSTRUCTIONS])["retreat_at_losses"])
    else:
        retreat_at = int(ctx.rules["battle"]["npc_retreat_at_losses"])
    return Side(
        owner,
        army["units"],
        attacking=attacking,
        cinc=commander["id"] if commander else None,
        army=army["id"],
        war_rating=m.war_rating(commander),
        cinc_attributes=tuple(m.attributes(commander)),
        cinc_situation=frozenset(
            {"greedy_sulk"} if (commander or {}).get("modifiers", {}).get("greedy_sulk") else ()
        ),
        retreat_at=retreat_at,
        zone=zone_units(ctx.rules, m.zone_of_command(commander)) if commander else 0,
    )


def _retreat(
    ctx: Any,
    state: State,
    invasion: Mapping[str, Any],
    test: CheckResult,
    army: dict,
    *,
    first_of_side: bool = True,
) -> None:
    """The row of the retreat test, for the army that took it: with 2 successes it leaves in order (a
    defender into the province's fort, where it may be besieged, else to its nation's nearest fort;
    an attacker back to its starting province); with 1 its units below Elite disband and its Elite
    ones join the nation's largest army in a neighbouring province, or else leave in order; with 0
    it disbands. A local lord's levy with no fort to hold goes home (house rule). Every army of a side
    that leaves follows the side's one test: an ally's army joined to the invasion goes back where it
    came from, one defending a province it does not hold falls back to its own nation's nearest
    province (house rule ``allies``); only the first army's event carries the test's roll."""
    province, rules = invasion["province"], ctx.rules
    marched_from = {j["army"]: j["from"] for j in invasion.get("joined", [])}  # allies that joined it
    defending = army["id"] != invasion["army"] and army["id"] not in marched_from
    holder = state["provinces"][province]["owner"] == army["owner"]
    elite = m.morale_rank(rules, "Elite")
    if test.result == "disband":
        gone = list(army["units"])
    elif test.result == "below_elite_disband":
        gone = [u for u in army["units"] if m.morale_rank(rules, u["morale"]) < elite]
    else:
        gone = []
    army["units"] = [u for u in army["units"] if u not in gone]
    joined = None
    if test.result == "below_elite_disband" and army["units"]:
        main = _main_army_near(ctx, state, army, province)
        if main is not None:
            main["units"].extend(army["units"])
            army["units"], joined = [], main["id"]
    fort = state["provinces"][province]["fort"]
    if army["units"] and defending and not holder:  # an ally's army, in a province not its own
        army["location"] = allies.nearest_own(ctx, state, army["owner"], province) or army["location"]
    elif army["units"] and defending and not invasion.get("meeting"):
        if fort:
            _into_the_fort(ctx, state, invasion, state["armies"][invasion["army"]], army)
        elif army.get("levy"):
            gone, army["units"] = gone + army["units"], []
        else:
            army["location"] = _fallback(ctx, state, army["owner"], province, fort=True) or army["location"]
    elif army["units"] and not defending:
        army["location"] = marched_from.get(army["id"], invasion["from"])
    ctx.emit(
        "retreat",
        actors=[army["owner"]],
        place=province,
        rolls=[test.roll] if first_of_side else [],
        result=test.result,
        disbanded=sorted(u["id"] for u in gone),
        joined=joined,
        to=army["location"] if army["units"] else None,
    )


def _main_army_near(ctx: Any, state: State, army: Mapping[str, Any], province: str) -> dict | None:
    """The nation's largest other army in a province next to ``province`` and free to march."""
    near = set(ctx.game.world.neighbours(province))
    armies = [
        a
        for a in m.armies_of(state, army["owner"])
        if a["id"] != army["id"]
        and a["location"] in near
        and a["units"]
        and not a.get("besieging")
        and not a.get("in_fort")
        and not a.get("levy")
    ]
    return max(armies, key=lambda a: (len(a["units"]), a["id"]), default=None)


def _take_back(ctx: Any, state: State, invasion: Mapping[str, Any], army: dict, defending: dict) -> None:
    """After the movement test's 1-success row (or its tie), a beaten attacker cannot go home: the
    winner takes the attacker's starting province unless another army of the attacker holds it."""
    start = invasion["from"]
    held = [a for a in m.armies_at(state, start) if a["owner"] == army["owner"] and a is not army]
    if held or state["provinces"][start]["owner"] != army["owner"]:
        return
    defending["location"] = start
    _conquer(ctx, state, start, defending["owner"], army["owner"], army)
    if army["location"] == start:  # its capital was the province taken: the nearest one left
        army["location"] = _fallback(ctx, state, army["owner"], start, fort=False) or start


def _marshal_fate(
    ctx: Any, state: State, army: dict[str, Any], result: str, enemy: Mapping[str, Any] | None
) -> None:
    """A Marshal whose own unit (the army's first) routed tests his fate on the table of the battle's
    outcome (house rule: in an automated battle his unit's rout is the seed's "kill" result). If he
    dies bearing a weapon, ``enemy`` (the opposing CinC) may take it up."""
    commander = m.commander(state, army)
    if (
        not commander
        or commander["rank"] != "marshal"
        or not army["units"]
        or not army["units"][0].get("routed")
    ):
        return
    won = result == "won"
    check = _check(ctx, "marshal_fate_won" if won else "marshal_fate_lost")
    mods = [check.modifier("won")] if won else []
    mods += [check.modifier("lost")] if result == "lost" else []
    if int(army["units"][0].get("hits", 0)) > 3 * m.rep(ctx.rules, army["units"][0]):
        mods.append(check.modifier("unit_destroyed"))
    mods += commanders.attribute_modifiers(ctx.rules, m.attributes(commander), check.id)
    fate = check.roll(
        ctx,
        roll_label("fate", commander["id"]),
        count=m.war_rating(commander),
        modifiers=mods,
        factions=[army["owner"]],
    )
    rolls = [fate.roll]
    if fate.row.get("seasons"):
        seasons = ctx.roll(
            roll_label("fate", commander["id"], "seasons"),
            str(fate.row.get("seasons")),
            factions=[army["owner"]],
        )
        rolls.append(seasons)
        commanders.out_of_command(ctx, state, commander, "recovering", int(seasons.total))
    if fate.result == "wounded_minus_wr":
        commanders.shaken_marshal(ctx, state, commander, fate.row)
    if fate.row.get("captive"):  # house rule: the seed never says when a captive comes home
        captivity = int(ctx.rules["commanders"]["captivity_seasons"])
        commanders.out_of_command(ctx, state, commander, "captive", captivity)
    if fate.row.get("weakness"):
        commanders.gain_weakness(ctx, commander, "fate")
    ctx.emit(
        "marshal_fate",
        actors=[army["owner"]],
        rolls=rolls,
        commander=commander["id"],
        commander_name=commanders.display_name(commander),
        result=fate.result,
    )
    if fate.result == "died":
        pass_weapon(ctx, state, commander, enemy)
        _bury(ctx, state, commander)


def _result(winner: str | None, nation: str) -> str:
    return "draw" if winner is None else "won" if winner == nation else "lost"


def pass_weapon(ctx: Any, state: State, bearer: dict[str, Any], enemy: Mapping[str, Any] | None) -> None:
    """A bearer dies: an opposing CinC on the battlefield who bears no weapon takes his up (a bearer has
    only one); with none, or off the battlefield (house rule), a soldier carries it off to become an
    adventurer and it is lost until a weapon surfaces again in winter."""
    weapon = bearer.get("weapon")
    if not weapon:
        return
    taker, carried = None, []
    if enemy is not None and not enemy.get("weapon") and not enemy.get("levy") and m.available(enemy):
        taker = state["commanders"][enemy["id"]]
        carried = commanders.hand_over_weapon(ctx.rules, bearer, taker)  # with the weapon's attributes
    else:
        bearer["weapon"] = None
        bearer.pop("weapon_attributes", None)
    ctx.emit(
        "weapon_passed",
        actors=[bearer["owner"], *([taker["owner"]] if taker else [])],
        bearer=bearer["id"],
        bearer_name=commanders.display_name(bearer),
        taker=taker["id"] if taker else None,
        taker_name=commanders.display_name(taker) if taker else None,
        # what the weapon gives is its new bearer's nation's secret in a sealed campaign (fog_of_war)
        **({} if ctx.sealed else _weapon_gifts(ctx, carried)),
    )
    if ctx.sealed and taker and carried:
        ctx.emit("weapon_gifts", actors=[taker["owner"]], visible_to=[taker["owner"]],
                 taker_name=commanders.display_name(taker), **_weapon_gifts(ctx, carried))  # fmt: skip


def _weapon_gifts(ctx: Any, carried: list[str]) -> dict[str, Any]:
    return {
        "attributes": carried,
        "attribute_names": [modifier_name(ctx.rules, attribute) for attribute in carried],
    }


def _conquer(
    ctx: Any, state: State, province: str, attacker: str, owner: str, defending: dict | None
) -> None:
    if m.is_piorad(ctx.rules, attacker):
        return  # the Piorad loot and go home; they never hold land
    state["provinces"][province].update(owner=attacker, conquered=True)
    if owner in state["factions"]:
        m.tally(state, owner, "provinces_lost")
        capital = state["factions"][owner]["capital"]
        if defending is not None and state["provinces"].get(capital, {}).get("owner") == owner:
            defending["location"] = capital
    ctx.emit("province_taken", actors=[attacker, owner], place=province)


def _staying_at_war(ctx: Any, state: State, levy: dict) -> None:
    """A local lord's winning army: most go home; veterans may stay in the nation's service."""
    result = _check(ctx, "staying_at_war").roll(ctx, roll_label("stay", levy["id"]), factions=[levy["owner"]])
    veteran = m.morale_rank(ctx.rules, "Veteran")
    kept = (
        []
        if result.result == "disband"
        else [
            u
            for u in levy["units"]
            if not u.get("routed") and m.morale_rank(ctx.rules, u["morale"]) >= veteran
        ]
    )
    owner = levy["owner"]
    if kept and owner in state["factions"]:
        state["factions"][owner].setdefault("recruits", []).extend(kept)
    levy["units"] = []
    ctx.emit("staying_at_war", actors=[owner], rolls=[result.roll], result=result.result, kept=len(kept))


def _loot(
    ctx: Any,
    state: State,
    winner: str,
    army: dict,
    province: str,
    loser: str | None,
    *,
    first_of_side: bool = True,
) -> None:
    """The winning army rolls for loot; every army of a winning side rolls its own, the first under the
    winner's name, each other under its army's id (house rule ``allies``)."""
    check = _check(ctx, "loot")
    commander = m.commander(state, army)
    mods = []
    if m.is_piorad(ctx.rules, winner):
        mods.append(check.modifier("piorad"))
    mods += commanders.attribute_modifiers(ctx.rules, m.attributes(commander), check.id)
    if any(unit.get("mercenary") for unit in army["units"]):
        mods.append(check.modifier("mercenary"))
    result = check.roll(
        ctx,
        roll_label("loot", province, winner if first_of_side else army["id"]),
        count=m.war_rating(commander),
        modifiers=mods,
        factions=[winner],
    )
    gained = max(0, result.total) * int(result.row.get("resources_per_success", 1))
    if winner in state["factions"]:
        state["factions"][winner]["stock"]["resources"] += gained
    if m.is_piorad(ctx.rules, winner):
        state["provinces"][province]["looted"] = True
    ctx.emit("loot", actors=[winner], place=province, rolls=[result.roll], resources=gained)
    spec = ctx.rules["commanders"]
    if commander and "greedy" in m.attributes(commander) and result.total <= int(spec["poor_loot"]):
        # house rule: the seed's Poor loot is a loot of commanders.poor_loot successes or fewer; his army
        # sulks (greedy_sulk) for the rest of this season and commanders.greedy_seasons more
        seasons = int(spec["greedy_seasons"])
        relations.add_effect(state, "commanders", commander["id"], "greedy_sulk", 1, ctx.turn, seasons + 1)
        ctx.emit(
            "greedy_sulk",
            actors=[winner],
            commander=commander["id"],
            commander_name=commanders.display_name(commander),
            seasons=seasons,
        )


# -- experience and national morale ----------------------------------------------------------------------


def experience(ctx: Any, state: State) -> State:
    """Successful battles raise a unit's morale (2 / 3 / 4 from Poor / Normal / Veteran); a lost battle
    resets its count, a draw does not count."""
    needed = ctx.rules["morale_gain"]
    for army in sorted(state["armies"].values(), key=lambda a: a["id"]):
        for unit in army["units"]:
            for result in unit.pop("results", []):
                if result == "lost":
                    unit["wins"] = 0
                elif result == "won":
                    unit["wins"] = int(unit.get("wins", 0)) + 1
                    if unit["morale"] in needed and unit["wins"] >= int(needed[unit["morale"]]):
                        unit["morale"], unit["wins"] = m.morale_step(ctx.rules, unit["morale"], 1), 0
                        ctx.emit(
                            "unit_veteran",
                            actors=[army["owner"]],
                            unit=unit["id"],
                            unit_name=ctx.rules["units"][unit["code"]]["name"],
                            code=unit["code"],
                            morale=unit["morale"],
                        )
    return state


def morale_adjustment(ctx: Any, state: State) -> State:
    """National morale moves one level: up for a season of victories without defeat, down for defeats
    without victory or a province lost (house rule)."""
    low, high = int(ctx.rules["national_morale"]["min"]), int(ctx.rules["national_morale"]["max"])
    for nation in m.nations(state):
        record = state["factions"][nation]
        won, lost = m.count(state, nation, "won"), m.count(state, nation, "lost")
        step = (
            1
            if won and not lost
            else -1
            if (lost and not won) or m.count(state, nation, "provinces_lost")
            else 0
        )
        new = max(low, min(high, int(record["morale"]) + step))
        if new != record["morale"]:
            ctx.emit("national_morale", actors=[nation], before=record["morale"], after=new)
            record["morale"] = new
    return state


def morale_check(ctx: Any, state: State) -> State:
    """Will to fight: 2 dice against the national morale (a die at or under it succeeds), so a 6 always
    fails and a 1 always succeeds."""
    base = _check(ctx, "will_to_fight")
    bounds = ctx.rules["national_morale"]
    # Who tests is settled before any die: one nation's disaster ends its enemies' wars too.
    testing = [
        n
        for n in m.nations(state)
        if state["factions"][n]["wars"] or m.count(state, n, "lost") or m.count(state, n, "provinces_lost")
    ]
    for nation in testing:
        record = state["factions"][nation]
        level = max(int(bounds["min"]), min(int(bounds["max"]), int(record["morale"])))
        check = replace(base, success=f"<={level}")
        mods = []
        if m.count(state, nation, "won"):
            mods.append(check.modifier("won_battle"))
        if m.count(state, nation, "lost"):
            mods.append(check.modifier("lost_battle"))
        mods += [check.modifier("refused_battle")] * m.count(state, nation, "refused_counted")
        mods += [check.modifier("lost_province")] * m.count(state, nation, "provinces_lost")
        mods += [check.modifier("shaken")] * int(record.get("shaken", 0))
        result = check.roll(ctx, roll_label("will", nation, ctx.phase), modifiers=mods, factions=[nation])
        m.tally(state, nation, "morale_tested")
        if result.result == "carry_on":
            record["shaken"], record["opposition"] = 0, 0
        elif result.result == "shaken":
            record["shaken"], record["opposition"] = int(record.get("shaken", 0)) + 1, 1
            m.tally(state, nation, "opposition_renewed")  # the opposition die is for next season
        else:
            _disaster(ctx, state, nation)
        ctx.emit("will_to_fight", actors=[nation], rolls=[result.roll], result=result.result, morale=level)
    return state


def _morale_at_peace(ctx: Any, state: State, nation: str) -> None:
    """At the season's end: the opposition die, which the seed gives the recruitments of the season
    after a shaken morale, ends unless this season's test shook morale again; and a nation at peace
    that took no will-to-fight test sheds one step of shaken morale (house rule: only a war is tested,
    so a nation at peace could never reach the two successes that end it)."""
    record = state["factions"][nation]
    if int(record.get("opposition", 0)) and not m.count(state, nation, "opposition_renewed"):
        record["opposition"] = 0
        ctx.emit("opposition_ended", actors=[nation], visible_to=[nation])
    if record["wars"] or not int(record.get("shaken", 0)) or m.count(state, nation, "morale_tested"):
        return
    record["shaken"] = int(record["shaken"]) - 1
    ctx.emit("morale_eased", actors=[nation], shaken=record["shaken"])


def _disaster(ctx: Any, state: State, nation: str) -> None:
    record, bounds = state["factions"][nation], ctx.rules["national_morale"]
    record["morale"] = max(int(bounds["min"]), int(record["morale"]) - int(bounds["disaster_drop"]))
    record["unrest"] = int(bounds["unrest_seasons"])
    winner = record["wars"][0] if record["wars"] else None
    for enemy in list(record["wars"]):
        _make_peace(state, nation, enemy)
    if winner:
        diplomacy.enforce_peace(ctx, state, nation, winner)
    record["shaken"] = 0


# -- trade and the season's end ------------------------------------------------------------------------


def trade(
    ctx: Any, state: State, season_successes: int = 0, skip: Sequence[str] = ("conquered", "besieged")
) -> State:
    """Each province rolls for trade; the season adds or takes successes. ``skip`` names the provinces
    that do not trade: just conquered and besieged ones, and in winter, as the seed says, only those
    the Piorad looted and the besieged. This is each season's closing roll, so the season's tallies
    are folded into the year here."""
    check = _check(ctx, "trade")
    world = ctx.game.world
    for nation in m.nations(state):
        record, total, rolls = state["factions"][nation], 0, []
        for pid in m.provinces_of(state, nation):
            province = state["provinces"][pid]
            marks = {"conquered": province["conquered"], "looted": province["looted"]}
            marks["besieged"] = pid in state["sieges"]
            if any(marks[reason] for reason in skip):
                continue
            mods = [Modifier("season", season_successes)] if season_successes else []
            owners_near = {state["provinces"][n]["owner"] for n in world.neighbours(pid)}
            if owners_near & set(record["wars"]):
                mods.append(check.modifier("adjacent_enemy"))
            if not record["wars"]:
                mods.append(check.modifier("at_peace"))
            if province["pole"]:
                mods.append(check.modifier("pole"))
            elif province["capital"]:
                mods.append(check.modifier("capital"))
            if int(record.get("unrest", 0)):
                mods.append(check.modifier("unrest"))
            if owners_near & diplomacy.offended_by(state, nation):
                mods.append(check.modifier("offended_neighbour"))
            result = check.roll(ctx, roll_label("trade", pid), modifiers=mods, factions=[nation])
            total += int(result.row.get("resources", 0))
            rolls.append(result.roll)
        record["stock"]["resources"] += total
        ctx.emit("trade", actors=[nation], visible_to=[nation], rolls=rolls, resources=total)
    diplomacy.pay_season_tribute(ctx, state)
    _end_season(ctx, state)
    return state


def _end_season(ctx: Any, state: State) -> None:
    for province in state["provinces"].values():
        province["conquered"] = province["looted"] = False
    for nation in m.nations(state):
        record = state["factions"][nation]
        _morale_at_peace(ctx, state, nation)
        record["season"] = {}
        record["unrest"] = max(0, int(record.get("unrest", 0)) - 1)


# -- winter: the Piorad, disbanding, leaders, weapons, diplomacy ---------------------------------------------


def piorad_war(ctx: Any, state: State) -> State:
    """The Piorad test for war against the nation holding the most land (the richest prey)."""
    check = _check(ctx, "going_to_war")
    for people in m.npcs(state):
        victims = sorted(m.nations(state), key=lambda n: (-len(m.provinces_of(state, n)), n))
        if victims and m.armies_of(state, people):
            _war_test(ctx, state, check, people, victims[0], roll_label("war", people))
    return state


def piorad_target(ctx: Any, state: State) -> State:
    invasions = ctx.memory.invasions
    for people in m.npcs(state):
        armies = [a for a in m.armies_of(state, people) if a["units"]]
        for enemy in state["factions"][people]["wars"]:
            choices = _targets(ctx, state, people, enemy)
            if choices and armies:
                invasions.append(
                    {
                        "attacker": people,
                        "army": armies[0]["id"],
                        "province": choices[0],
                        "from": armies[0]["location"],
                    }
                )
                ctx.emit("invasion_planned", actors=[people], place=choices[0])
                break
    return state


def piorad_invade(ctx: Any, state: State) -> State:
    return invade(ctx, state)


def piorad_loot(ctx: Any, state: State) -> State:
    """The Piorad withdraw home after the battle, at peace again until next winter; if the defender kept
    to its fort they loot anyway (the battle step loots after a victory)."""
    for invasion in ctx.memory.invasions:
        people = invasion["attacker"]
        if not m.is_piorad(ctx.rules, people):
            continue
        army = state["armies"].get(invasion["army"])
        province = invasion["province"]
        if army is not None and army["location"] == province and not state["provinces"][province]["looted"]:
            _loot(ctx, state, people, army, province, state["provinces"][province]["owner"])
        if army is not None:
            army["location"] = state["factions"][people]["capital"]
        for enemy in list(state["factions"][people]["wars"]):
            _make_peace(state, people, enemy)
        ctx.emit("piorad_withdraw", actors=[people], place=state["factions"][people]["capital"])
    return state


def disband_or_not(ctx: Any, state: State) -> State:
    """Every unit not in a siege tests, the Piorad's too (the seed: "All units shall pass"); the CinC's
    reputation adds or takes a success. On the rows of 1 and 2 successes a unit below the row's floor
    may be kept for the row's resource, as far as the nation's standing ``winter_keep`` allows (house
    rule: the seed's "spend 1 resource to maintain the unit" is a way to save a unit, not a second
    upkeep, since spring's upkeep already pays for every unit until next spring)."""
    check = _check(ctx, "disband")
    testing = set(m.nations(state)) | set(m.npcs(state))
    budget = {
        faction: int(in_force(state, faction, ctx.game.standing[INSTRUCTIONS])["winter_keep"])
        for faction in sorted(testing)
    }
    for army_id in sorted(state["armies"]):
        army = state["armies"][army_id]
        if army.get("besieging") or army.get("in_fort") or army["owner"] not in testing:
            continue
        commander = m.commander(state, army)
        reputation = int(commander["reputation"]) if commander else 0
        mods = [check.modifier("famous_cinc")] if reputation > 6 else []
        mods += [check.modifier("obscure_cinc")] if reputation < 2 else []
        kept = []
        for unit in army["units"]:
            result = check.roll(
                ctx, roll_label("disband", unit["id"]), modifiers=mods, factions=[army["owner"]]
            )
            paid = _keep_price(ctx, state, army["owner"], unit, result, budget)
            goes = paid is None
            if not goes:
                kept.append(unit)
            ctx.emit(
                "disband_test",
                actors=[army["owner"]],
                rolls=[result.roll],
                unit=unit["id"],
                unit_name=ctx.rules["units"][unit["code"]]["name"],
                code=unit["code"],
                result=result.result,
                disbanded=goes,
                # what a nation pays to keep its units is its own (its stock and its instruction are
                # private in a sealed campaign): the public record tells only who stays
                **({} if ctx.sealed else {"paid": paid or 0}),
            )
            if ctx.sealed and paid:
                ctx.emit("unit_kept_for_pay", actors=[army["owner"]], visible_to=[army["owner"]],
                         unit_name=ctx.rules["units"][unit["code"]]["name"], paid=paid)  # fmt: skip
        army["units"] = kept
        if not kept:
            del state["armies"][army_id]
    return state


def _keep_price(
    ctx: Any, state: State, owner: str, unit: Mapping[str, Any], result: CheckResult, budget: dict[str, int]
) -> int | None:
    """What keeping the unit costs (0 when its morale meets the row's floor), or None when it goes
    home: on the row of no success, or below the floor when the owner's ``winter_keep`` budget or its
    stock cannot pay the row's price. The budget is spent in the order the units test."""
    if result.result == "disband":
        return None
    floor = "Veteran" if result.result == "below_veteran_disband" else "Normal"
    if m.morale_rank(ctx.rules, unit["morale"]) >= m.morale_rank(ctx.rules, floor):
        return 0
    stock = state["factions"][owner]["stock"]
    price = int(result.row.get("upkeep", 0))
    if price > min(budget[owner], int(stock["resources"])):
        return None
    stock["resources"] -= price
    budget[owner] -= price
    return price


def leader_death(ctx: Any, state: State) -> State:
    """Every commander of a nation tests (house rule); a dead Marshal's best Captain takes his place."""
    check = _check(ctx, "leader_death")
    for cid in sorted(state["commanders"]):
        commander = state["commanders"][cid]
        if commander.get("levy") or commander["owner"] not in m.nations(state):
            continue
        recovering = commander.get("modifiers", {}).get("recovering")
        mods = [check.modifier("wounded")] if recovering else []
        result = check.roll(ctx, roll_label("death", cid), modifiers=mods, factions=[commander["owner"]])
        if result.result == "dies":
            _bury(ctx, state, commander)
        ctx.emit(
            "leader_check",
            actors=[commander["owner"]],
            rolls=[result.roll],
            commander=cid,
            commander_name=commanders.display_name(commander),
            rank=commander["rank"],
            died=result.result == "dies",
        )
    return state


def _bury(ctx: Any, state: State, commander: dict[str, Any]) -> None:
    pass_weapon(ctx, state, commander, None)  # off the battlefield nobody takes it up (house rule)
    nation = commander["owner"]
    for effect in list(commander.get("modifiers") or {}):  # a dead man is released from nothing later
        relations.drop_effect(state, "commanders", commander["id"], effect)
    del state["commanders"][commander["id"]]
    state["factions"][nation]["year"]["leader_lost"] = 1
    for army in state["armies"].values():
        if army.get("commander") == commander["id"]:
            army["commander"] = None
    if commander["rank"] == "marshal" and not m.is_npc_realm(state, nation):
        captains = sorted(
            (c for c in state["commanders"].values() if c["owner"] == nation and not c.get("levy")),
            key=lambda c: (-int(c["reputation"]), c["id"]),
        )
        if captains:
            commanders.appoint(ctx, state, captains[0])


def weapons(ctx: Any, state: State) -> State:
    """A weapon may surface in each nation; its Marshal (or best Captain) bears it if he bears none."""
    check = _check(ctx, "weapon_found")
    for nation in m.nations(state):
        result = check.roll(ctx, roll_label("weapon", nation), factions=[nation])
        if result.result != "weapon":
            continue
        bearers = sorted(
            (
                c
                for c in state["commanders"].values()
                if c["owner"] == nation and not c.get("weapon") and not c.get("levy")
            ),
            key=lambda c: (c["rank"] != "marshal", -int(c["reputation"]), c["id"]),
        )
        if bearers:
            bearers[0]["weapon"] = f"weapon-{nation}-t{ctx.turn}"
        ctx.emit(
            "weapon",
            actors=[nation],
            rolls=[result.roll],
            bearer=bearers[0]["id"] if bearers else None,
            bearer_name=commanders.display_name(bearers[0]) if bearers else None,
        )
    return state


PHASES = {
    "recruiting_rolls": recruiting_rolls,
    "buy_rolls": buy_rolls,
    "pay_tribute": diplomacy.pay_tribute,
    "hero_availability": hero_availability,
    "recruit": recruit,
    "organize": organize,
    "upkeep": upkeep,
    "going_to_war": going_to_war,
    "choose_province": choose_province,
    "invade": invade,
    "battle": battle,
    "experience": experience,
    "morale_adjustment": morale_adjustment,
    "morale_check": morale_check,
    "trade": trade,
    "piorad_war": piorad_war,
    "piorad_target": piorad_target,
    "piorad_invade": piorad_invade,
    "piorad_loot": piorad_loot,
    "disband_or_not": disband_or_not,
    "leader_death": leader_death,
    "weapons": weapons,
    "diplomacy": diplomacy.diplomacy,
}
