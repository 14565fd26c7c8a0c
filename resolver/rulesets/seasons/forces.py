"""A nation organises its forces: it hires commanders, forms, splits and merges armies, stations them in its
provinces, puts them under commanders, sends recruits where it wants them and names the army that invades.

Each order is read once (``engine/plans.py``): the checker reads the file in order against a copy of the
state that the earlier orders change, the organize step reads the same orders against the live state, so
what one accepts the other carries out. A plan's ``carry_out`` makes the change on the state it was read
against and returns what the event needs; the resolver alone rolls a new Marshal's attributes and emits.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...core.factions import next_id
from ...core.fields import ActionSpec, Field
from ...core.orders import Order, OrderFile
from ...core.phases import State
from ...core.words import plural
from ...engine.plans import Reading, Reject, plan_or_error, plan_or_failure
from ...engine.ruleset import Game
from . import allies, diplomacy
from . import model as m
from .commanders import display_name, fresh_name, roll_attributes

# The orders carried out at the season's organize step, in the order the file gives them.
ORGANISING = ("hire", "form_army", "split_army", "merge_armies", "station", "command")
ARMY_KIND = "a"  # new armies are numbered per nation: red-a2, red-a3 …
COMMANDER_KIND = "c"  # hired commanders: red-c1 …


def action_specs(rules: Mapping[str, Any], when: Callable[[str], str]) -> list[ActionSpec]:
    """The organising orders, with ``when`` giving the seasons each belongs to in words."""
    hiring, tiers = rules["hiring"], rules["commanders"]["marshal_tiers"]
    # Armies and commanders are named as text, not as references to the state: an order may name the army
    # or the commander an earlier order of the same file forms or hires (the reading checks them).
    army = Field("army", "text", "One of your armies.", required=True, names="armies")
    units = Field(
        "units", "list", "The ids of the units, as your template lists them.", required=True, minimum=1
    )
    leader = Field(
        "commander", "text", "A commander of yours who leads no army (optional).", names="commanders"
    )
    return [
        ActionSpec(
            "hire",
            f"Hire a commander: as many Captains as you like, one Marshal a nation. {when('hire')}",
            (
                Field("rank", "choice", "captain or marshal.", required=True, choices=("captain", "marshal")),
                Field(
                    "tier",
                    "choice",
                    "For a Marshal: how many attributes he rolls ("
                    + ", ".join(f"{tier} {count}" for tier, count in tiers.items())
                    + ").",
                    choices=tuple(tiers),
                ),
            ),
            cost=f"{hiring['captain']['cost']} resource a Captain, {hiring['marshal']['cost']} a Marshal",
            example={"action": "hire", "rank": "captain"},
        ),
        ActionSpec(
            "form_army",
            f"Form a new army from units standing in one of your provinces. {when('form_army')}",
            (Field("province", "ref", "Your province.", required=True, ref="provinces"), units, leader),
            example={"action": "form_army", "province": "p-example", "units": ["red-a1-u1"]},
        ),
        ActionSpec(
            "split_army",
            f"Split some units off an army into a new army where it stands. {when('split_army')}",
            (army, units, leader),
            example={"action": "split_army", "army": "red-a1", "units": ["red-a1-u2"]},
        ),
        ActionSpec(
            "merge_armies",
            f"Merge an army into another of yours in the same province. {when('merge_armies')}",
            (army, Field("into", "text", "The army that takes its units.", required=True, names="armies")),
            example={"action": "merge_armies", "army": "red-a2", "into": "red-a1"},
        ),
        ActionSpec(
            "station",
            f"Send an army to a province you hold, over your own land. {when('station')}",
            (army, Field("province", "ref", "Your province.", required=True, ref="provinces")),
            example={"action": "station", "army": "red-a1", "province": "p-example"},
        ),
        ActionSpec(
            "command",
            f"Put an army under one of your commanders. {when('command')}",
            (army, Field("commander", "text", "Your commander.", required=True, names="commanders")),
            example={"action": "command", "army": "red-a1", "commander": "red-captain"},
        ),
    ]


@dataclass
class Plan:
    """One order as read against one view of the state: its echo, and the change it makes there."""

    echo: str
    kind: str = ""  # the event the resolver emits when the change is made
    place: str | None = None
    public: bool = False
    carry_out: Callable[[State], dict[str, Any]] = field(default=lambda state: {})


class ForcesReading(Reading):
    """A nation's organising orders read against a copy of the state (checker) or the live state."""

    def __init__(self, game: Game, state: State, nation: str, checked: OrderFile | None = None) -> None:
        super().__init__(game, state, nation, checked)
        self.invasions = 0  # invade orders read so far: one a season

    def army(self, order: Order, name_field: str = "army") -> dict[str, Any]:
        name = str(order[name_field])
        army = self.state["armies"].get(name)
        mine = [a["id"] for a in m.armies_of(self.state, self.faction) if a["units"] and not a.get("levy")]
        gone = f"army {name} is no longer yours"
        if army is None or army["owner"] != self.faction or army.get("levy") or not army["units"]:
            raise Reject(
                name_field,
                f"you have no army '{name}' at this point of your orders",
                self.hint_among(name, "armies", mine) if mine else "you have no armies",
                failure=gone,
            )
        return army

    def free_army(self, order: Order, name_field: str = "army") -> dict[str, Any]:
        """An army that may be reorganised: not shut in a fort, not holding a siege."""
        army = self.army(order, name_field)
        if army.get("in_fort") or army.get("besieging"):
            where = "is shut in its fort" if army.get("in_fort") else "holds a siege"
            raise Reject(name_field, f"army {army['id']} {where}", "leave it as it is until that ends")
        return army

    def own_province(self, order: Order, name_field: str = "province") -> str:
        province = str(order[name_field])
        held = m.provinces_of(self.state, self.faction)
        if province not in held:
            raise Reject(
                name_field,
                f"'{province}' is not a province of yours",
                self.hint_among(province, "provinces", held),
                failure=f"{self.game.place_label(province)} is no longer yours",
            )
        return province

    def commander(self, order: Order, name_field: str = "commander") -> dict[str, Any]:
        chosen = str(order[name_field])
        record = self.state["commanders"].get(chosen)
        mine = sorted(c["id"] for c in self.state["commanders"].values() if c["owner"] == self.faction)
        if record is None or record["owner"] != self.faction or record.get("levy"):
            raise Reject(
                name_field,
                f"you have no commander '{chosen}'",
                self.hint_among(chosen, "commanders", mine) if mine else "hire one first with 'hire'",
                failure=f"{chosen} no longer serves you",
            )
        if not m.available(record):
            raise Reject(name_field, f"{display_name(record)} is wounded or a captive and commands nobody")
        return record

    def free_commander(self, order: Order) -> dict[str, Any] | None:
        """The commander an order puts at the head of a new army: one who leads no army, or nobody."""
        if order.get("commander") is None:
            return None
        record = self.commander(order)
        if _leading(self.state, record["id"]) is not None:
            free = [c for c in free_commanders(self.state, self.faction)]
            raise Reject(
                "commander",
                f"{display_name(record)} leads another army already",
                "name one who leads none: " + (", ".join(free) or "hire a Captain first"),
            )
        return record

    def units_of(self, order: Order, armies: list[dict[str, Any]]) -> list[str]:
        """The units an order names, each standing in one of ``armies`` and named once."""
        named = [str(u) for u in order["units"]]
        here = [u["id"] for a in armies for u in a["units"]]
        strays = [u for u in named if u not in here]
        if strays:
            raise Reject(
                "units",
                f"no unit {', '.join(strays)} stands there at this point of your orders",
                "units there: " + (", ".join(here) or "none"),
                failure=f"unit {strays[0]} is no longer there",
            )
        if len(set(named)) < len(named):
            raise Reject("units", "a unit is named twice", "name each unit once")
        return named

    def pay(self, cost: int, what: str) -> None:
        stock = int(self.state["factions"][self.faction]["stock"]["resources"])
        if stock < cost:
            raise Reject(
                None,
                f"{what} costs {plural(cost, 'resource')} and you will have {stock}",
                "leave it out, or buy fewer recruiting rolls",
                failure=f"only {plural(stock, 'resource')} left for {what}",
            )


def _leading(state: State, commander_id: str) -> dict[str, Any] | None:
    return next((a for _, a in sorted(state["armies"].items()) if a.get("commander") == commander_id), None)


def free_commanders(state: State, nation: str) -> list[str]:
    """The nation's commanders who lead no army and can take one, by id."""
    return [
        c["id"]
        for _, c in sorted(state["commanders"].items())
        if c["owner"] == nation and not c.get("levy") and m.available(c) and _leading(state, c["id"]) is None
    ]


def peek_army_id(state: State, nation: str) -> str:
    """The id the nation's next new army will take, without counting it (the bot names it in its orders)."""
    return next_id(
        copy.deepcopy({"factions": {nation: state["factions"][nation]}}),
        nation,
        ARMY_KIND,
        lambda key: key in state["armies"],
    )


def new_army(state: State, nation: str, location: str, units: list[dict], leader: str | None) -> dict:
    army_id = next_id(state, nation, ARMY_KIND, lambda key: key in state["armies"])
    army = {"id": army_id, "owner": nation, "location": location, "commander": leader, "units": units}
    state["armies"][army_id] = army
    return army


def _take_units(state: State, armies: list[dict[str, Any]], ids: list[str]) -> list[dict[str, Any]]:
    """Take the named units out of their armies, in the order named; an army left empty is gone."""
    taken = []
    for unit_id in ids:
        for army in armies:
            unit = next((u for u in army["units"] if u["id"] == unit_id), None)
            if unit is not None:
                army["units"].remove(unit)
                taken.append(unit)
    for army in armies:
        if not army["units"]:
            del state["armies"][army["id"]]
    return taken


def army_called(army: Mapping[str, Any]) -> dict[str, Any]:
    """What an event keeps of an army's name: its number, or the province of a lord's levy. The name a
    reader sees is made when the sentence is told, with the nation's name of that day (see events.yaml),
    so a nation renamed in players.yaml changes no archived event."""
    owner, army_id = str(army["owner"]), str(army["id"])
    if army.get("levy") and army_id.startswith("levy-"):
        return {"levy_of": army_id.removeprefix("levy-").rsplit("-t", 1)[0]}
    number = army_id.removeprefix(f"{owner}-a") if army_id.startswith(f"{owner}-a") else ""
    return {"number": int(number)} if number.isdigit() else {}


def army_name(game: Game, army: Mapping[str, Any]) -> str:
    """An army's name for readers, from its id: ``red-a2`` is "Westmark army 2" and a lord's levy,
    ``levy-p-rearbury-t1``, "Westmark's levy of Rearbury"."""
    owner, army_id = str(army["owner"]), str(army["id"])
    if army.get("levy") and army_id.startswith("levy-"):
        province = army_id.removeprefix("levy-").rsplit("-t", 1)[0]
        return f"{game.name_of(owner)}'s levy of {game.place_label(province)}"
    number = army_id.removeprefix(f"{owner}-a") if army_id.startswith(f"{owner}-a") else ""
    return f"{game.name_of(owner)} army {number}" if number else f"an army of {game.name_of(owner)}"


# -- the readings --------------------------------------------------------------------------------------


def read_hire(r: ForcesReading, o: Order) -> Plan:
    rank, hiring = str(o["rank"]), r.rules["hiring"]
    tier = str(o.get("tier") or r.rules["commanders"]["first_tier"]) if rank == "marshal" else ""
    if rank == "marshal":
        if m.is_npc_realm(r.state, r.faction):
            raise Reject(
                "rank", f"{r.game.name_of(r.faction)} is no Nation and has Captains only", "hire a captain"
            )
        marshal = m.marshal_of(r.state, r.faction)
        if marshal is not None:
            raise Reject(
                "rank",
                f"a nation has one Marshal, and {display_name(marshal)} is yours",
                "hire a captain instead",
                failure=f"{display_name(marshal)} is your Marshal already",
            )
    elif o.get("tier") is not None:
        raise Reject("tier", "only a Marshal has a tier", "leave tier out for a Captain")
    cost = int(hiring[rank]["cost"])
    title = "a Marshal" if rank == "marshal" else "a Captain"
    r.pay(cost, f"hiring {title}")
    in_use = lambda key: key in r.state["commanders"]  # noqa: E731 - the id test next_id asks for
    preview = next_id(
        copy.deepcopy({"factions": {r.faction: r.state["factions"][r.faction]}}),
        r.faction,
        COMMANDER_KIND,
        in_use,
    )
    name = fresh_name(r.rules, r.state)
    words = f"{tier.replace('-', ' ')} Marshal" if rank == "marshal" else "Captain"

    def carry_out(state: State) -> dict[str, Any]:
        cid = next_id(state, r.faction, COMMANDER_KIND, lambda key: key in state["commanders"])
        reputation = int(r.rules["start"][f"{rank}_reputation"])
        state["commanders"][cid] = {
            "id": cid,
            "name": name,
            "owner": r.faction,
            "rank": rank,
            "reputation": reputation,
            "attributes": None if rank == "marshal" else [],
            "weapon": None,
        }
        stock = state["factions"][r.faction]["stock"]
        stock["resources"] = int(stock["resources"]) - cost
        return {"commander": cid, "commander_name": name, "rank": rank, "tier": tier, "cost": cost}

    echo = f"hire a {words}, {name} ({preview}), for {plural(cost, 'resource')}"
    return Plan(echo, "commander_hired", public=True, carry_out=carry_out)


def _form(r: ForcesReading, o: Order, province: str, sources: list[dict[str, Any]], kind: str) -> Plan:
    ids = r.units_of(o, sources)
    leader = r.free_commander(o)
    new_id = peek_army_id(r.state, r.faction)
    led = f" under {display_name(leader)}" if leader else " without a commander"
    echo = f"form army {new_id} at {r.game.place_label(province)} from {', '.join(ids)}{led}"
    leader_id = leader["id"] if leader else None

    def carry_out(state: State) -> dict[str, Any]:
        armies = [state["armies"][a["id"]] for a in sources]
        army = new_army(state, r.faction, province, _take_units(state, armies, ids), leader_id)
        return {
            "army": army["id"],
            "army_called": army_called(army),
            "units": len(ids),
            "commander_name": display_name(leader) if leader else "",
        }

    return Plan(echo, kind, place=province, carry_out=carry_out)


def read_form_army(r: ForcesReading, o: Order) -> Plan:
    province = r.own_province(o)
    here = [
        a
        for a in m.armies_at(r.state, province)
        if a["owner"] == r.faction and not a.get("levy") and not a.get("in_fort") and not a.get("besieging")
    ]
    return _form(r, o, province, here, "army_formed")


def read_split_army(r: ForcesReading, o: Order) -> Plan:
    army = r.free_army(o)
    ids = r.units_of(o, [army])
    if len(ids) == len(army["units"]):
        raise Reject(
            "units", f"that is every unit of army {army['id']}", "leave one behind, or use 'command'"
        )
    return _form(r, o, str(army["location"]), [army], "army_formed")


def read_merge_armies(r: ForcesReading, o: Order) -> Plan:
    army, into = r.each(lambda: r.free_army(o), lambda: r.free_army(o, "into"))
    if army["id"] == into["id"]:
        raise Reject("into", "an army cannot merge into itself", "name another army")
    if army["location"] != into["location"]:
        raise Reject(
            "into",
            f"army {army['id']} stands at {r.game.place_label(army['location'])} and army {into['id']} at "
            f"{r.game.place_label(into['location'])}",
            "station one with the other first",
            failure=f"armies {army['id']} and {into['id']} no longer stand together",
        )
    echo = f"merge army {army['id']} into army {into['id']} at {r.game.place_label(into['location'])}"
    gone_id, into_id = army["id"], into["id"]

    def carry_out(state: State) -> dict[str, Any]:
        gone, kept = state["armies"].pop(gone_id), state["armies"][into_id]
        kept["units"].extend(gone["units"])
        return {
            "army_called": army_called(gone),
            "into_called": army_called(kept),
            "units": len(kept["units"]),
        }

    return Plan(echo, "armies_merged", place=str(into["location"]), carry_out=carry_out)


def read_station(r: ForcesReading, o: Order) -> Plan:
    """An army marches to a province of its nation's or of an ally's (house rule ``allies``: there it
    defends the province beside its ally), over its own and its allies' land."""
    army, province = r.each(lambda: r.free_army(o), lambda: _station_province(r, o))
    if army["location"] == province:
        raise Reject("province", f"army {army['id']} stands there already", "name another province")
    if not _over_own_land(r, str(army["location"]), province):
        raise Reject(
            "province",
            f"army {army['id']} cannot reach {r.game.place_label(province)} over your own provinces",
            "station it in a province joined to where it stands by provinces you hold",
        )
    echo = f"station army {army['id']} at {r.game.place_label(province)}"
    army_id, start = army["id"], army["location"]

    def carry_out(state: State) -> dict[str, Any]:
        state["armies"][army_id]["location"] = province
        return {"army_called": army_called(state["armies"][army_id]), "start": start}

    return Plan(echo, "army_stationed", place=province, public=True, carry_out=carry_out)


def _station_province(r: ForcesReading, o: Order) -> str:
    """The province of a station order: one of the nation's, or one of an ally's."""
    province = str(o["province"])
    owner = r.state["provinces"].get(province, {}).get("owner")
    if owner is not None and owner in diplomacy.allies_of(r.state, r.faction):
        return province
    return r.own_province(o)


def _over_own_land(r: ForcesReading, start: str, goal: str) -> bool:
    """Whether a march from ``start`` reaches ``goal`` stepping only on the nation's own provinces and its
    allies'."""
    friends = [r.faction, *diplomacy.allies_of(r.state, r.faction)]
    held = {p for nation in friends for p in m.provinces_of(r.state, nation)}
    seen, frontier = {start}, [start]
    while frontier:
        here = frontier.pop()
        for near in r.game.world.neighbours(here):
            if near == goal:
                return True
            if near in held and near not in seen:
                seen.add(near)
                frontier.append(near)
    return False


def read_command(r: ForcesReading, o: Order) -> Plan:
    army, leader = r.each(lambda: r.army(o), lambda: r.commander(o))
    if army.get("commander") == leader["id"]:
        raise Reject("commander", f"{display_name(leader)} leads army {army['id']} already", "leave it out")
    before = _leading(r.state, leader["id"])
    left = f"; army {before['id']} is left without a commander" if before else ""
    echo = f"put army {army['id']} under {display_name(leader)}{left}"
    army_id, leader_id, before_id = army["id"], leader["id"], before["id"] if before else None

    def carry_out(state: State) -> dict[str, Any]:
        if before_id in state["armies"]:
            state["armies"][before_id]["commander"] = None
        state["armies"][army_id]["commander"] = leader_id
        return {
            "army_called": army_called(state["armies"][army_id]),
            "commander_name": display_name(leader),
        }

    return Plan(echo, "army_commanded", place=str(army["location"]), carry_out=carry_out)


def read_recruits_destination(r: ForcesReading, o: Order, season: str) -> Plan:
    """Where a recruit order's units go: the army it names, or the garrison of the province it names (the
    nation's army there, or a new one without a commander), else the capital. In fall the seed sends
    every new unit to the capital."""
    named = [key for key in ("army", "province") if o.get(key) is not None]
    if len(named) > 1:
        raise Reject("province", "name an army or a province, not both", "leave one of them out")
    if named and season in r.rules["recruits_to_capital"]:
        raise Reject(
            named[0],
            f"in {season} new units gather in the capital",
            f"leave {named[0]} out; form or station armies from them next season",
        )
    if o.get("army") is not None:
        army = r.army(o)
        return Plan(f"recruits join army {army['id']}", carry_out=lambda state: {"army": army["id"]})
    province = (
        r.own_province(o) if o.get("province") is not None else str(r.state["factions"][r.faction]["capital"])
    )
    return Plan(
        f"recruits go to {r.game.place_label(province)}", carry_out=lambda state: {"province": province}
    )


def read_invade(r: ForcesReading, o: Order, declared: list[str]) -> Plan:
    """An invasion: an enemy province of a nation you are at war with (a war declared in the same orders
    is a doubt until its test is rolled), and the army that marches, else your largest."""
    r.invasions += 1
    if r.invasions > 1:
        raise Reject("province", "a nation invades one province a season", "keep one invade order")
    province = str(o["province"])
    owner = r.state["provinces"].get(province, {}).get("owner")
    if not owner or owner == r.faction:
        enemy = [
            p for p, rec in sorted(r.state["provinces"].items()) if rec["owner"] not in (None, r.faction)
        ]
        raise Reject(
            "province", f"'{province}' is not an enemy province", r.hint_among(province, "provinces", enemy)
        )
    who = r.game.name_of(owner)
    if not m.at_war(r.state, r.faction, owner):
        if owner in declared:
            r.doubt(
                "province",
                f"you are not at war with {who} yet",
                "the invasion happens only if your people follow your declaration of war",
                failure=f"you are not at war with {who}",
            )
        else:
            raise Reject(
                "province",
                f"you are not at war with {who}",
                f"declare war on {who} first (declare_war), or leave invade out",
            )
    if not diplomacy.may_invade(r.state, r.faction, owner):
        raise Reject(
            "province",
            f"your diplomats promised not to attack {who} this year",
            "name a province of another enemy, or leave invade out",
        )
    army = r.army(o) if o.get("army") is not None else None
    if army is not None and army.get("besieging"):
        raise Reject("army", f"army {army['id']} holds a siege", "name another army")
    by = f" with army {army['id']}" if army else " with your largest army"
    friends = [r.game.name_of(ally) for ally in allies.invading_allies(r.state, r.faction, owner)]
    # the resolver's reading when an ally invades the same province first (phases.choose_province)
    joining = (
        f"; if {' or '.join(friends)} invades it first, your army joins that invasion" if friends else ""
    )
    echo = f"invade {r.game.place_label(province)} of {who}{by}{joining}"
    return Plan(echo, carry_out=lambda state: {"province": province, "army": army["id"] if army else None})


READERS: dict[str, Callable[[ForcesReading, Order], Plan]] = {
    "hire": read_hire,
    "form_army": read_form_army,
    "split_army": read_split_army,
    "merge_armies": read_merge_armies,
    "station": read_station,
    "command": read_command,
}


def check(game: Game, state: State, of: OrderFile, season: str, allowed: list[str]) -> None:
    """The checker's reading: the organising orders in file order on a copy of the state, then where
    recruits go and which army invades, as the organize and invasion steps read them after."""
    nation = of.faction or ""
    sketch = copy.deepcopy(state)
    price = int(game.rules["recruiting"]["resource_for_roll"])
    bought = sum(int(o["rolls"]) for o in of.orders if o.action == "buy_rolls")
    sketch["factions"][nation]["stock"]["resources"] = max(
        0, int(sketch["factions"][nation]["stock"]["resources"]) - bought * price
    )
    reading = ForcesReading(game, sketch, nation, checked=of)
    orders = [o for o in of.orders if o.action in allowed]  # the others are refused for their season
    for order in orders:
        if order.action in READERS:
            plan = plan_or_error(of, reading, order, partial(READERS[order.action], reading))
            if plan is not None:
                plan.carry_out(sketch)
                of.echo[order.number] = plan.echo
    declared = [str(o["nation"]) for o in orders if o.action == "declare_war"]
    for order in orders:
        if order.action == "recruit":
            plan = plan_or_error(of, reading, order, lambda o: read_recruits_destination(reading, o, season))
            if plan is not None:
                of.echo[order.number] = f"recruit: {order['rolls']} roll(s); {plan.echo}"
        elif order.action == "invade":
            plan = plan_or_error(of, reading, order, lambda o: read_invade(reading, o, declared))
            if plan is not None:
                of.echo[order.number] = plan.echo


def carry_out(ctx: Any, state: State, nation: str, orders: list[Order]) -> None:
    """The organize step's reading of the nation's organising orders, in file order."""
    reading = ForcesReading(ctx.game, state, nation)
    for order in orders:
        plan = plan_or_failure(ctx, reading, order, partial(READERS[order.action], reading))
        if plan is None:
            continue
        data = plan.carry_out(state)
        visible = None if plan.public else [nation]
        ctx.emit(plan.kind, actors=[nation], place=plan.place, visible_to=visible, **data)
        if order.action == "hire" and data["rank"] == "marshal":  # his attributes, by his tier
            commander = state["commanders"][data["commander"]]
            commander["tier"] = data["tier"]
            roll_attributes(ctx, commander)


def destination(ctx: Any, state: State, nation: str, order: Order | None) -> dict[str, Any]:
    """Where the units of a recruit order go ({army} or {province}); a failed reading tells the nation why
    and sends them to the capital."""
    capital = {"province": str(state["factions"][nation]["capital"])}
    if order is None:
        return capital
    reading = ForcesReading(ctx.game, state, nation)
    plan = plan_or_failure(
        ctx, reading, order, lambda o: read_recruits_destination(reading, o, ctx.date.season)
    )
    return plan.carry_out(state) if plan is not None else capital


def invasion(ctx: Any, state: State, nation: str, order: Order) -> dict[str, Any] | None:
    """The resolver's reading of an invade order: {province, army or None}, or None when it fails."""
    reading = ForcesReading(ctx.game, state, nation)
    plan = plan_or_failure(ctx, reading, order, lambda o: read_invade(reading, o, []))
    return plan.carry_out(state) if plan is not None else None


def status_lines(game: Game, state: State, nation: str) -> list[str]:
    """For the template: units raised and not yet placed (summer's wait for the organize step, or a
    levy's veterans), and the commanders free to take an army, with what hiring costs."""
    lines = []
    waiting = state["factions"][nation].get("recruits") or []
    if waiting:
        units = ", ".join(f"{u['id']} {u['code']} {u['morale']}" for u in waiting)
        lines.append(
            f"Raised and waiting to join an army (at this season's muster, else the capital): {units}."
        )
    free = [display_name(state["commanders"][c]) + f" [{c}]" for c in free_commanders(state, nation)]
    hiring = game.rules["hiring"]
    lines.append(
        "Commanders leading no army: "
        + (", ".join(free) or "none")
        + f". Hiring a Captain costs {plural(int(hiring['captain']['cost']), 'resource')}, "
        + f"a Marshal {plural(int(hiring['marshal']['cost']), 'resource')}."
    )
    return lines
