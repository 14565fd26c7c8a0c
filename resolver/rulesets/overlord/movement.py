"""Travel over the month, stacks and structures: the executors of MOVE, MARCH, CARAVAN, RETREAT, STAY,
STACK, UNSTACK, EJECT, PROMOTE, ENTER, LEAVE, EXIT and ACCEPT, and the daily advance of every trip.

A trip lives in ``unit.moving`` (the same record on every unit of the travelling stack):
``{from, to, mode, days, done, order, march}``. A stack sets out in the full-day pass of its day d with
``done: 0``; at the start of each later day ``done`` grows by one, the stack counts as standing at its
destination once ``done`` reaches half the days (rounded down; the arrival checks run then), and the trip
ends when ``done`` reaches ``days``, before that day's orders. So a trip of t days begun on day d leaves the
stack free to act on day d + t, which past day 30 falls in the next month: the record stays in the state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import replace
from typing import Any, Protocol

from ...core import programs as queues
from ...core import world as core_world
from ...core.programs import Line, Program, Result
from ...core.world import World
from . import labour, sight, stances
from . import structures as kinds
from .burden import MODES, Leg, choose_leg, movement_rules, race_kind, skill_level, stack_burden


class Month(Protocol):
    """What the movement executors read of the month (``month.Month``): the turn context (its game's
    world, its rules and events), the live state, the day and the units' programs."""

    @property
    def ctx(self) -> Any: ...
    @property
    def state(self) -> dict[str, Any]: ...
    @property
    def day(self) -> int: ...
    @property
    def programs(self) -> MutableMapping[str, Program]: ...


def _world(month: Month) -> World:
    return month.ctx.game.world


# Hooks other parts fill. An arrival hook runs when a stack counts as entering its destination (half-way):
# the guards of the titles part check it there and may call ``bar_entry`` or ``turn_back``. A hold-back
# check says whether a stacked unit stays behind when its stack sets out (the market part's "recruited
# today"); the same check on the stack's leader keeps the whole stack at home that day.
ArrivalHook = Callable[[Month, str], None]
HoldBack = Callable[[Month, str], bool]
ARRIVAL_HOOKS: list[ArrivalHook] = []
HOLD_BACK_CHECKS: list[HoldBack] = []

MODE_WORDS = {"walk": "walk", "ride": "ride", "sail": "voyage", "fly": "flight"}


def travel_days(world: World, origin: str, destination: str, mode: str, weather: str) -> int | None:
    """The world's travel time for one leg in one mode (None: closed to that mode). A world that carries no
    travel table (one made before the world chapter's generator) has no ways at all."""
    if world.travel is None:
        return None
    return core_world.travel_days(world, origin, destination, mode, weather)


def _adjacent(world: World, here: str, there: str) -> bool:
    """A neighbour, the place around an inner place, or an inner place of this one."""
    return there in world and there != here and there in world.neighbours(here)


def destination(world: World, here: str, where: str) -> str | None:
    """Where a MOVE's argument leads from ``here``: a direction (N, NorthEast…), Out, or a neighbour's id."""
    return core_world.toward(world, here, where)


def place_name(world: World, loc: str | None) -> str:
    if loc is None:
        return ""
    return world[loc].label if loc in world else loc


def weather_at(state: Mapping[str, Any], world: World, rules: Mapping[str, Any], loc: str) -> str:
    """This month's weather of the territory a place lies in (an inner place shelters in its territory)."""
    record = (state.get("places") or {}).get(world.territory(loc)) or {}
    default = str(movement_rules(rules).get("weather_default", "fair"))
    return str((record.get("weather") or {}).get("now") or default)


# ---------------------------------------------------------------- stacks


def _units(state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return state["units"]


def _name(state: Mapping[str, Any], uid: str) -> str:
    unit = _units(state).get(uid) or {}
    return str(unit.get("name") or uid)


def children(state: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each leader's units directly under it, in report order (arrival, then id)."""
    # Asked once per travelling stack each day: the stacked units are gathered first and only each
    # leader's few members sorted, rather than every unit of the state (the leaders keep the order of
    # their first member, as a sort of all units gave them).
    units = _units(state)

    def order(uid: str) -> tuple[int, str]:
        return (int(units[uid].get("arrival", 0)), uid)

    below: dict[str, list[str]] = {}
    for uid, record in units.items():
        leader = record.get("stack")
        if leader is not None:
            below.setdefault(str(leader), []).append(uid)
    for members in below.values():
        members.sort(key=order)
    return dict(sorted(below.items(), key=lambda item: order(item[1][0])))


def substack(state: Mapping[str, Any], uid: str, below: Mapping[str, list[str]] | None = None) -> list[str]:
    """The unit and every unit stacked under it at any depth, each right after its leader."""
    below = children(state) if below is None else below
    found: list[str] = []

    def walk(leader: str) -> None:
        found.append(leader)
        for member in below.get(leader, ()):
            walk(member)

    walk(uid)
    return found


def leaders_above(state: Mapping[str, Any], uid: str) -> list[str]:
    """The unit's leader, its leader's leader, … up to the top of the stack."""
    chain: list[str] = []
    units = _units(state)
    leader = units[uid].get("stack")
    while leader is not None and leader not in chain and leader in units:
        chain.append(str(leader))
        leader = units[str(leader)].get("stack")
    return chain


def top_of(state: Mapping[str, Any], uid: str) -> str:
    chain = leaders_above(state, uid)
    return chain[-1] if chain else uid


def may_set_out(rules: Mapping[str, Any], unit: Mapping[str, Any]) -> bool:
    """Leaders and heroes; followers with 1st scouting; creatures whose race allows it (house rule)."""
    movers = movement_rules(rules).get("movers", {})
    race = str(unit.get("race", ""))
    kind = race_kind(rules, race)
    if kind in movers.get("kinds", ("leader", "hero")):
        return True
    if kind == "follower":
        skill = str(movers.get("follower_skill", "scou"))
        return skill_level(rules, unit, skill) >= int(movers.get("follower_level", 1))
    flag = str(movers.get("creature_flag", "moves"))
    return bool((rules.get("races", {}).get(race) or {}).get(flag))


def may_lead(rules: Mapping[str, Any], unit: Mapping[str, Any]) -> bool:
    """Only leaders and heroes head stacks (spec §4.5)."""
    kinds = movement_rules(rules).get("movers", {}).get("kinds", ("leader", "hero"))
    return race_kind(rules, str(unit.get("race", ""))) in kinds


def _present(state: Mapping[str, Any], uid: str, other: str) -> bool:
    units = _units(state)
    if other not in units or other == uid:
        return False
    mine, theirs = units[uid], units[other]
    return mine.get("location") == theirs.get("location") and not theirs.get("moving")


def _live(program: Program | None, keyword: str, day: int) -> list[Line]:
    """The lines of a keyword that could run today: not dashed, day gate open."""
    if program is None:
        return []
    return [
        line
        for line in program.lines
        if line.keyword == keyword and not line.depth and (line.day is None or line.day == day)
    ]


def _unstack(state: dict[str, Any], uid: str) -> str | None:
    """The unit leaves its stack, keeping the units under it; returns the leader it left."""
    unit = _units(state)[uid]
    leader = unit.get("stack")
    unit["stack"] = None
    return None if leader is None else str(leader)


def _figures(state: Mapping[str, Any], uids: Iterable[str]) -> int:
    return sum(int(_units(state)[uid].get("figures", 1)) for uid in uids)


def _factions(state: Mapping[str, Any], uids: Iterable[str]) -> list[str]:
    return sorted({str(_units(state)[uid]["owner"]) for uid in uids})


def _onlookers(month: Month, uid: str) -> set[str]:
    """The factions that see the unit (a stack's leader) where the state puts it (spec §1.7): a stealthy
    unit's comings and goings reach only those whose observation finds it."""
    return sight.factions_seeing(month.ctx.rules, month.state, uid)


# ---------------------------------------------------------------- events


def _blocked(month: Month, uid: str, reason: str, **data: Any) -> None:
    """Tell the unit's faction once a month why an order of this unit waits or was dropped."""
    unit = _units(month.state)[uid]
    owner = str(unit["owner"])
    for event in month.ctx.events:
        said = (event.kind, event.data.get("uid"), event.data.get("reason"))
        if said == ("move_blocked", uid, reason):
            return
    month.ctx.emit(
        "move_blocked",
        actors=[owner],
        place=unit.get("location"),
        visible_to=[owner],
        uid=uid,
        unit=_name(month.state, uid),
        reason=reason,
        **data,
    )


def _tell(month: Month, kind: str, uid: str, others: Iterable[str] = (), **data: Any) -> None:
    """An event of a unit told to its own faction, the factions of the other units it names, and every
    faction that sees it where it stands."""
    state = month.state
    unit = _units(state)[uid]
    loc = unit.get("location")
    involved = [uid, *others]
    month.ctx.emit(
        kind,
        actors=[str(unit["owner"])],
        place=loc,
        visible_to=sorted(set(_factions(state, involved)) | _onlookers(month, uid)),
        unit=_name(state, uid),
        **data,
    )


# ---------------------------------------------------------------- setting out


def _held(month: Month, uid: str) -> str | None:
    """Why a unit cannot leave today: an order of the hold-back list waiting, or a hold-back check."""
    program = month.programs.get(uid)
    for keyword in movement_rules(month.ctx.rules).get("hold_back", ()):
        if _live(program, str(keyword), month.day):
            return str(keyword).lower()
    if any(check(month, uid) for check in HOLD_BACK_CHECKS):
        return "busy"
    return None


def stays_behind(month: Month, uid: str) -> str | None:
    """Why a stacked unit leaves its stack as it sets out: a STAY, a waiting SELL, a hold-back check."""
    if _live(month.programs.get(uid), "STAY", month.day):
        return "stay"
    return _held(month, uid)


def plan_leg(month: Month, members: list[str], here: str, there: str) -> Leg:
    """The mode and days of a leg for these units as one caravan, with the weather of the place left."""
    rules, state, world = month.ctx.rules, month.state, _world(month)
    burden = stack_burden(rules, (_units(state)[uid] for uid in members))
    weather = weather_at(state, world, rules, here)
    times = {mode: travel_days(world, here, there, mode, weather) for mode in MODES}
    return choose_leg(rules, burden, times)


def set_out(month: Month, uid: str, there: str, order: str, march: bool = False) -> Result:
    """The unit (leaving its stack first) sets out for an adjacent place with everyone under it."""
    state, world = month.state, _world(month)
    unit = _units(state)[uid]
    here = str(unit["location"])
    if not may_set_out(month.ctx.rules, unit):
        _blocked(month, uid, "cannot_travel", order=order)
        return Result.INVALID
    if _held(month, uid):
        _blocked(month, uid, "held", order=order, to=place_name(world, there))
        return Result.SKIPPED
    below = children(state)
    members = substack(state, uid, below)
    staying = {member: why for member in members[1:] if (why := stays_behind(month, member))}
    travellers = [m for m in members if not any(m == s or s in leaders_above(state, m) for s in staying)]
    leg = plan_leg(month, travellers, here, there)
    if not leg.possible:
        data = {"to": place_name(world, there), "days": leg.days, "excess": leg.excess_percent}
        _blocked(month, uid, str(leg.refused), order=order, **data)
        return Result.INVALID if leg.refused == "impassable" else Result.SKIPPED
    left = _unstack(state, uid)
    if left is not None:
        _tell(month, "unstacks", uid, [left], leader=_name(state, left), why="move")
    for member, why in sorted(staying.items()):
        leader = _unstack(state, member)
        if why == "stay":
            for line in _live(month.programs.get(member), "STAY", month.day)[:1]:
                queues.remove(month.programs[member], line)
        _tell(month, "stays_behind", member, [uid], leader=_name(state, leader or uid), why=why)
    trip = {
        "from": here,
        "to": there,
        "mode": leg.mode,
        "days": int(leg.days or 0),
        "done": 0,
        "order": order,
        "march": march,
    }
    for member in travellers:
        record = _units(state)[member]
        record["moving"] = dict(trip)
        record["structure"] = None
        _lose_work(month, member)
    month.ctx.emit(
        "departs",
        actors=_factions(state, [uid]),
        place=here,
        visible_to=sorted(set(_factions(state, travellers)) | _onlookers(month, uid)),
        unit=_name(state, uid),
        followers=_figures(state, travellers[1:]),
        units=len(travellers) - 1,
        origin=place_name(world, here),
        destination=place_name(world, there),
        days=trip["days"],
        mode=MODE_WORDS.get(str(leg.mode), str(leg.mode)),
        excess=leg.excess_percent,
        order=order,
    )
    if trip["days"] // 2 == 0:
        _cross(month, uid, travellers)
    return Result.RAN


def _lose_work(month: Month, uid: str) -> None:
    """A unit leaving its place loses its work in hand and the inputs it took (the production chapter's
    labour.lose_work); its faction hears which skills' work is gone."""
    unit = _units(month.state)[uid]
    lost = labour.lose_work(unit)
    if not lost:
        return
    skills = month.ctx.rules.get("skills") or {}
    month.ctx.emit(
        "work_lost",
        actors=[str(unit["owner"])],
        place=unit.get("location"),  # still the place it leaves
        visible_to=[str(unit["owner"])],
        unit=_name(month.state, uid),
        skills=[str((skills.get(tag) or {}).get("name", tag)) for tag in lost],
    )


def _cross(month: Month, uid: str, members: list[str]) -> None:
    """Half-way: the stack now counts as standing at its destination, where its arrival is checked."""
    state = month.state
    for member in members:
        record = _units(state)[member]
        record["location"] = record["moving"]["to"]
    for hook in ARRIVAL_HOOKS:
        if _units(state).get(uid, {}).get("moving"):
            hook(month, uid)


def _members_moving(
    state: Mapping[str, Any], uid: str, below: Mapping[str, list[str]] | None = None
) -> list[str]:
    return [m for m in substack(state, uid, below) if _units(state)[m].get("moving")]


# ---------------------------------------------------------------- the daily advance


def _tops(units: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The travelling units that head their caravan (their leader, if any, is not travelling)."""
    return [
        uid
        for uid in sorted(units)
        if units[uid].get("moving")
        and not (units[uid].get("stack") and (units.get(str(units[uid]["stack"])) or {}).get("moving"))
    ]


def advance(month: Month) -> None:
    """Start of a day: every trip goes one day further (crossing half-way, arriving); then, on the day
    RETREAT is read, each travelling unit whose queue starts with it turns back (a stacked one breaks off
    with the units under it)."""
    state = month.state
    units = _units(state)
    # The stacks are read once for all the trips of the day: a day's progress and an arrival move units
    # but change no stack; only the hooks run at a crossing may, so the stacks are read again after one.
    below: dict[str, list[str]] | None = None
    for uid in _tops(units):
        if below is None:
            below = children(state)
        members = _members_moving(state, uid, below)
        for member in members:
            units[member]["moving"]["done"] += 1
        trip = units[uid]["moving"]
        if units[uid]["location"] != trip["to"] and trip["done"] >= trip["days"] // 2:
            _cross(month, uid, members)
            below = None
        trip = units[uid].get("moving")
        if trip and trip["done"] >= trip["days"]:
            _arrive(month, uid, members)
    if month.day != int(movement_rules(month.ctx.rules).get("retreat_day", 1)):
        return
    for uid in sorted(units):
        program = month.programs.get(uid)
        if units[uid].get("moving") and program and program.lines and program.lines[0].keyword == "RETREAT":
            first = program.lines[0]
            turn_back(month, uid, "order")
            queues.remove(program, first)


def _arrive(month: Month, uid: str, members: list[str]) -> None:
    state = month.state
    trip = dict(_units(state)[uid]["moving"])
    for member in members:
        record = _units(state)[member]
        record["location"] = trip["to"]
        record["moving"] = None
    world = _world(month)
    month.ctx.emit(
        "arrives",
        actors=_factions(state, [uid]),
        place=trip["to"],
        visible_to=sorted(set(_factions(state, members)) | _onlookers(month, uid)),
        unit=_name(state, uid),
        followers=_figures(state, members[1:]),
        units=len(members) - 1,
        origin=place_name(world, trip["from"]),
        destination=place_name(world, trip["to"]),
        days=trip["days"],
        order=trip["order"],
    )


def turn_back(month: Month, uid: str, reason: str) -> bool:
    """The travelling stack of ``uid`` turns round and walks back as long as it has travelled so far.
    A stack already turning back cannot turn again. ``reason``: 'order' (RETREAT) or a guard's word."""
    state = month.state
    units = _units(state)
    trip = units[uid].get("moving")
    if not trip:
        return False
    if trip["order"] == "RETREAT":
        _blocked(month, uid, "retreat_twice")
        return False
    left = _unstack(state, uid) if units[uid].get("stack") else None
    members = _members_moving(state, uid)
    back = {
        "from": trip["to"],
        "to": trip["from"],
        "mode": trip["mode"],
        "days": int(trip["done"]),
        "done": 0,
        "order": "RETREAT",
        "march": False,
    }
    for member in members:
        units[member]["moving"] = dict(back)
    world = _world(month)
    month.ctx.emit(
        "turns_back",
        actors=_factions(state, [uid]),
        place=units[uid]["location"],
        visible_to=_factions(state, members),
        unit=_name(state, uid),
        destination=place_name(world, back["to"]),
        days=back["days"],
        reason=reason,
        broke_off=left is not None,
    )
    if back["days"] == 0:
        _arrive(month, uid, members)
    elif back["days"] // 2 == 0 and units[uid]["location"] != back["to"]:
        _cross(month, uid, members)
    return True


def bar_entry(month: Month, uid: str) -> None:
    """A guard bars the way: the stack stays where it set out from and its trip ends there."""
    state = month.state
    units = _units(state)
    trip = units[uid].get("moving")
    if not trip:
        return
    members = _members_moving(state, uid)
    for member in members:
        units[member]["location"] = trip["from"]
        units[member]["moving"] = None
    month.ctx.emit(
        "entry_barred",
        actors=_factions(state, [uid]),
        place=trip["from"],
        visible_to=_factions(state, members),
        unit=_name(state, uid),
        destination=place_name(_world(month), trip["to"]),
    )


# ---------------------------------------------------------------- executors


def move(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """MOVE direction|OUT|place: set out with the unit's stack (leaving its own stack first)."""
    return _go(month, uid, line, "MOVE", march=False)


def march(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """MARCH: as MOVE, but the marchers fight a guard that bars their way."""
    return _go(month, uid, line, "MARCH", march=True)


def _go(month: Month, uid: str, line: Line, order: str, march: bool) -> tuple[Result, Line | None]:
    unit = _units(month.state)[uid]
    where = str(month.read(line).args["to"])
    there = destination(_world(month), str(unit["location"]), where)
    if there is None:
        _blocked(month, uid, "no_way", order=order, where=where)
        # A repeated move runs on until it is blocked (spec: "@MOVE NE keeps moving NE"), then ends.
        return (Result.FINISHED if line.repeat else Result.INVALID), None
    result = set_out(month, uid, there, order, march)
    if result is Result.INVALID and line.repeat:
        return Result.FINISHED, None
    return result, None


def caravan(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """CARAVAN L1 L2 … Ln: from a listed place, set out for the next one; setting out for the last turns
    the list round and ends the order, which with '@' then runs the route back (a shuttle)."""
    unit = _units(month.state)[uid]
    here = str(unit["location"])
    route = list(month.read(line).args["stops"])
    if here == route[-1] and here not in route[:-1]:
        route.reverse()
    if here not in route[:-1]:
        _blocked(month, uid, "off_route", order="CARAVAN")
        return Result.SKIPPED, None
    index = route.index(here)
    there = route[index + 1]
    if not _adjacent(_world(month), here, there):
        _blocked(month, uid, "no_way", order="CARAVAN", where=there)
        return Result.INVALID, None
    result = set_out(month, uid, there, "CARAVAN")
    if result is not Result.RAN:
        return result, None
    if index + 1 == len(route) - 1:
        return Result.RAN, replace(line, args=tuple(reversed(route)))
    return Result.CONTINUES, (replace(line, args=tuple(route)) if route != list(line.args) else None)


def retreat(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """RETREAT counts only as the first order of a travelling unit's month (see ``advance``); a unit that
    reads it standing still has no trip to turn back from, and the line is dropped."""
    _blocked(month, uid, "no_trip")
    return Result.INVALID, None


def stay(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """STAY waits until the unit's stack sets out (see ``set_out``)."""
    return Result.SKIPPED, None


def accept(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """ACCEPT waits until the named unit stacks under this one (see ``stack``)."""
    return Result.SKIPPED, None


def stack(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """STACK [unit]: leave any stack, then stack under the unit if its faction holds ours as an Ally or
    it ACCEPTs this unit; without an argument, only leave the stack."""
    state, rules = month.state, month.ctx.rules
    units = _units(state)
    target = month.read(line).args["unit"]
    if target is None:
        return unstack(month, uid, line)
    if target not in units:
        return Result.SKIPPED, None  # a unit not yet recruited, or out of sight: wait for it
    if not _present(state, uid, target):
        return Result.SKIPPED, None
    if target in substack(state, uid) or not may_lead(rules, units[target]):
        _blocked(month, uid, "cannot_lead", leader=_name(state, target))
        return Result.INVALID, None
    if units[uid].get("stack") == target:
        return Result.FINISHED, None
    mine, theirs = str(units[uid]["owner"]), str(units[target]["owner"])
    live = _live(month.programs.get(target), "ACCEPT", month.day)
    accepting = [line for line in live if month.read(line).args.get("unit") == uid]
    if not (stances.may(state, rules, mine, theirs, "stack") or accepting):
        _blocked(month, uid, "stack_refused", leader=_name(state, target))
        return Result.SKIPPED, None
    for accepted in accepting[:1]:
        queues.remove(month.programs[target], accepted)
    left = _unstack(state, uid)
    units[uid]["stack"] = target
    units[uid]["structure"] = units[target].get("structure")
    others = [target] + ([left] if left else [])
    _tell(month, "stacks", uid, others, leader=_name(state, target))
    return Result.FINISHED, None


def unstack(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """UNSTACK: leave the stack; units under this one stay with it as a stack of their own."""
    left = _unstack(month.state, uid)
    if left is not None:
        _tell(month, "unstacks", uid, [left], leader=_name(month.state, left), why="order")
    return Result.FINISHED, None


def eject(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """EJECT unit: a unit directly under this leader leaves it; under a stacked leader it moves up a level."""
    state = month.state
    units = _units(state)
    target = month.read(line).args["unit"]
    if target not in units or units[target].get("stack") != uid:
        return Result.SKIPPED, None
    units[target]["stack"] = units[uid].get("stack")
    _follow(state, target, uid)
    _tell(month, "ejects", uid, [target], other=_name(state, target))
    return Result.RAN, None


def _reorder(state: dict[str, Any], moved: str, anchor: str, before: bool) -> None:
    """Put ``moved`` just before (or after) ``anchor`` in its place's report order, keeping the arrival
    numbers the place already uses so no other place's order changes."""
    units = _units(state)
    loc = units[moved].get("location")
    here = sorted(
        (u for u in units if units[u].get("location") == loc),
        key=lambda u: (int(units[u].get("arrival", 0)), u),
    )
    numbers = sorted(int(units[u].get("arrival", 0)) for u in here)
    here.remove(moved)
    here.insert(here.index(anchor) + (0 if before else 1), moved)
    for uid, number in zip(here, numbers, strict=True):
        units[uid]["arrival"] = number


def _follow(state: dict[str, Any], moved: str, anchor: str) -> None:
    _reorder(state, moved, anchor, before=False)


def promote(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """PROMOTE unit: a unit here at the same stack level and listed after this one moves just before it."""
    state = month.state
    units = _units(state)
    target = month.read(line).args["unit"]
    if target not in units:
        return Result.SKIPPED, None
    mine, theirs = units[uid], units[target]
    same_level = mine.get("stack") == theirs.get("stack") and mine.get("structure") == theirs.get("structure")
    if not _present(state, uid, target) or not same_level:
        return Result.SKIPPED, None
    if (int(theirs.get("arrival", 0)), target) < (int(mine.get("arrival", 0)), uid):
        return Result.FINISHED, None  # already ahead of this unit
    _reorder(state, target, uid, before=True)
    _tell(month, "promotes", uid, [target], other=_name(state, target))
    return Result.FINISHED, None


def enter(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """ENTER structure: into a finished structure here, if its owner's faction holds ours Friendly."""
    state, rules = month.state, month.ctx.rules
    units = _units(state)
    structures = state.get("structures") or {}
    target = month.read(line).args["structure"]
    record = structures.get(target)
    if record is None:
        return Result.SKIPPED, None  # not built yet (a new structure's id), or not here to see
    unit = units[uid]
    if record.get("location") != unit.get("location") or not record.get("complete", False):
        return Result.SKIPPED, None
    if unit.get("structure") == target:
        return Result.FINISHED, None
    owner = kinds.door_keeper(rules, state, target)  # its owner, if the owner has anyone here to keep it
    refused = not stances.may(state, rules, str(unit["owner"]), owner, "enter")
    if refused and not _slips_in(month, uid, target, owner):
        _blocked(month, uid, "enter_refused", structure=record.get("name") or target)
        return Result.SKIPPED, None
    left = _unstack(state, uid)
    for member in substack(state, uid):
        units[member]["structure"] = target
    _tell(month, "enters", uid, [left] if left else [], structure=record.get("name") or target)
    return Result.FINISHED, None


def _slips_in(month: Month, uid: str, structure: str, owner: str | None) -> bool:
    """Stealth entry: every unit of the entering stack hides better than the owner's best watcher inside
    the structure sees, by more than the rules' margin (no margin: never)."""
    rules, units = month.ctx.rules, _units(month.state)
    margin = movement_rules(rules).get("stealth_entry")
    if margin is None:
        return False
    watchers = [u for u in units.values() if u.get("structure") == structure and u.get("owner") == owner]
    best = max((sight.observation(rules, u) for u in watchers), default=0)
    return all(sight.stealth(rules, units[m]) > best + int(margin) for m in substack(month.state, uid))


def leave(month: Month, uid: str, line: Line) -> tuple[Result, Line | None]:
    """LEAVE / EXIT: out of the structure into the place around it (an argument is accepted and ignored)."""
    state = month.state
    units = _units(state)
    inside = units[uid].get("structure")
    if inside is None:
        return Result.FINISHED, None
    record = (state.get("structures") or {}).get(inside) or {}
    left = _unstack(state, uid)
    for member in substack(state, uid):
        units[member]["structure"] = None
    _tell(month, "leaves", uid, [left] if left else [], structure=record.get("name") or inside)
    return Result.FINISHED, None


EXECUTORS: dict[str, Callable[[Month, str, Line], tuple[Result, Line | None]]] = {
    "MOVE": move,
    "MARCH": march,
    "CARAVAN": caravan,
    "RETREAT": retreat,
    "STAY": stay,
    "ACCEPT": accept,
    "STACK": stack,
    "UNSTACK": unstack,
    "EJECT": eject,
    "PROMOTE": promote,
    "ENTER": enter,
    "LEAVE": leave,
    "EXIT": leave,
}
