"""The procedures of a Diplomacy turn. A turn plays one phase of the game's year, the one ``state.phase``
names: a movement, its retreats, or the winter adjustments. Each procedure below runs only in its own
kind of phase, calls the pure adjudicator of that phase on every power's orders, emits one ``order`` event
for each order given or assumed (public: the turn is resolved), and changes the units. ``next_phase`` then
passes supply centres after an autumn, looks for a winner and for powers that are out, and finds the next
phase in which anyone has a choice, which is the campaign's next turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.phases import State
from ...engine.context import TurnContext
from . import model as m
from .adjudication import adjudicate
from .adjustments import adjudicate_adjustments, balance
from .board import Board
from .legality import problems
from .notation import write_order
from .orders import read_orders
from .pieces import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOutcome,
    Order,
    PhaseKind,
    Resolution,
    Retreat,
    Support,
    Unit,
    Waive,
)
from .retreats import adjudicate_retreats, retreat_problem
from .setup import place_unit

Context = TurnContext[Any]

ORDER_TYPES: dict[type, str] = {
    Hold: "hold",
    Move: "move",
    Support: "support",
    Convoy: "convoy",
    Retreat: "retreat",
    Disband: "disband",
    Build: "build",
    Waive: "waive",
}


# --- reading the orders ---------------------------------------------------------------------------


def given_orders(ctx: Context, state: State) -> list[Order]:
    """Every power's orders, the powers in the board's order and each power's in its file's order."""
    board = m.board(ctx.game)
    orders: list[Order] = []
    for power in board.powers:
        order_file = ctx.orders.get(power)
        if order_file is not None and power in state["factions"]:
            orders += read_orders(ctx.game, state, power, order_file.orders)
    return orders


# --- the order events --------------------------------------------------------------------------------


def _emit_order(
    ctx: Context,
    board: Board,
    resolution: Resolution,
    reason: str | None,
    assumed: bool,
    phase: PhaseKind,
    standing: Mapping[str, Unit],
) -> None:
    """One ``order`` event. ``standing``: the units the phase's orders name, by province, so the event
    gives the unit's own place and kind (a fleet's coast) whatever the order wrote."""
    order = resolution.order
    unit_kind = getattr(order, "kind", None)
    unit = getattr(order, "unit", None)
    if unit in standing:
        unit_kind, unit = standing[unit].kind, standing[unit].location
    destination = getattr(order, "destination", None)
    if isinstance(order, Build):
        unit, destination = None, order.location
    if isinstance(order, Convoy):
        destination = order.destination
    supported = None
    if isinstance(order, Support):
        supported = order.supported
    elif isinstance(order, Convoy):
        supported = order.army
    result = (
        "succeeded" if resolution.succeeded else "illegal" if resolution.reason == "illegal" else "failed"
    )
    order_type = ORDER_TYPES[type(order)]
    if isinstance(order, Disband) and phase == "adjustment":
        order_type = "remove"
    ctx.emit(
        "order",
        actors=[order.power],
        place=board.province(unit) if unit else board.province(destination) if destination else None,
        power=order.power,
        unit_kind=unit_kind,
        unit=unit,
        order_type=order_type,
        destination=destination,
        supported=supported,
        result=result,
        reason=reason,
        reason_code=resolution.reason or None,
        assumed=assumed,
        order=write_order(board, order),
    )


def _by_province(board: Board, units: Sequence[Unit]) -> dict[str, Unit]:
    return {board.province(unit.location): unit for unit in units}


def _reason(ctx: Context, resolution: Resolution, problem: str | None) -> str | None:
    """Why an order failed, in words: the rule it broke for an illegal one, else the rules data's words
    for the adjudicator's reason."""
    if resolution.succeeded:
        return None
    if resolution.reason == "illegal" and problem:
        return problem
    return str(ctx.rules["reasons"].get(resolution.reason, resolution.reason))


# --- movement -----------------------------------------------------------------------------------------


def movement(ctx: Context, state: State) -> State:
    """A spring or autumn movement: every order resolved at once; units without an order hold."""
    if m.phase_kind(state) != "movement":
        return state
    board = m.board(ctx.game)
    records = m.unit_records(state)
    ids = sorted(records, key=lambda unit_id: (records[unit_id]["owner"], records[unit_id]["location"]))
    units = [m.unit_of(records[unit_id]) for unit_id in ids]
    orders = given_orders(ctx, state)
    found = problems(board, units, orders, "movement")
    ordered = {
        board.province(order.unit) for order in orders if isinstance(order, (Hold, Move, Support, Convoy))
    }
    assumed = [
        Hold(unit.power, board.province(unit.location), unit.kind)
        for unit in units
        if board.province(unit.location) not in ordered
    ]
    outcome = adjudicate(board, units, [*orders, *assumed])
    for index, resolution in enumerate(outcome.resolutions):
        given = index < len(orders)
        problem = found[index].message if given and found[index] is not None else None
        reason = _reason(ctx, resolution, problem)
        _emit_order(ctx, board, resolution, reason, not given, "movement", _by_province(board, units))
    _battles(ctx, board, units, outcome)
    _apply_movement(ctx, state, board, ids, units, outcome)
    return state


def _battles(ctx: Context, board: Board, units: Sequence[Unit], outcome: MovementOutcome) -> None:
    """One public ``battle`` event for each province two powers fought over this movement: a move into it
    bounced (off a unit that stayed, or off another move) or dislodged the unit there. A move that walked
    into a province nobody else wanted is no battle, and nor is a power bouncing off its own unit.
    ``result`` says how the attack ended: ``dislodged`` (the unit there was driven out), ``won`` (one move
    beat the others into the province), ``held`` (the unit there stood) or ``standoff`` (every move into
    the province bounced and it stays empty)."""
    standing = {board.province(unit.location): unit for unit in units}
    moved_away = {
        board.province(resolution.order.unit)
        for resolution in outcome.resolutions
        if isinstance(resolution.order, Move) and resolution.succeeded
    }
    tried: dict[str, list[Resolution]] = {}
    for resolution in outcome.resolutions:
        order = resolution.order
        if isinstance(order, Move) and (resolution.succeeded or resolution.reason == "bounced"):
            tried.setdefault(board.province(order.destination), []).append(resolution)
    rank = {power: index for index, power in enumerate(board.powers)}
    for province in sorted(tried):
        moves = tried[province]
        winners = [resolution.order.power for resolution in moves if resolution.succeeded]
        bounced = [resolution.order.power for resolution in moves if not resolution.succeeded]
        defender = standing.get(province) if province not in moved_away else None
        if province in outcome.dislodged:
            defender = outcome.dislodged[province][0]
            result = "dislodged"
        elif winners and bounced:
            result = "won"
        elif winners:
            continue  # it walked in: nobody stood there or tried to
        else:
            result = "held" if defender is not None else "standoff"
        attackers = sorted(set(winners + bounced), key=rank.__getitem__)
        sides = set(attackers) | ({defender.power} if defender is not None else set())
        if len(sides) < 2:
            continue  # a power's units got in each other's way: no fight
        winner = winners[0] if winners else defender.power if result == "held" and defender else None
        losers = sorted(sides - {winner}, key=rank.__getitem__)
        ctx.emit(
            "battle",
            actors=[*([winner] if winner else []), *losers],
            place=province,
            province=province,
            result=result,
            winner=winner,
            losers=losers,
            attackers=attackers,
            defender=defender.power if defender is not None else None,
            defender_kind=defender.kind if defender is not None else None,
            defender_unit=defender.location if defender is not None else None,
        )


def _apply_movement(
    ctx: Context, state: State, board: Board, ids: list[str], units: list[Unit], outcome: MovementOutcome
) -> None:
    records = m.unit_records(state)
    standing = [
        unit_id
        for unit_id, unit in zip(ids, units, strict=True)
        if board.province(unit.location) not in outcome.dislodged
    ]
    for unit_id, after in zip(standing, outcome.units, strict=True):
        records[unit_id]["location"] = after.location
    dislodged: dict[str, Any] = {}
    by_province = {board.province(unit.location): unit_id for unit_id, unit in zip(ids, units, strict=True)}
    for province, (_unit, attacker_from) in sorted(outcome.dislodged.items()):
        unit_id = by_province[province]
        record = records.pop(unit_id)
        dislodged[province] = {**record, "attacker_from": attacker_from}
    state["dislodged"] = dislodged
    state["contested"] = sorted(outcome.contested)
    state["convoyed"] = sorted(outcome.convoyed)
    if not dislodged:
        return
    after = m.retreat_position(state)
    for province in sorted(dislodged):
        unit, attacker_from = after.dislodged[province]
        options = retreat_options(board, after, province)
        ctx.emit(
            "dislodged",
            actors=[unit.power],
            place=province,
            power=unit.power,
            unit_kind=unit.kind,
            unit=unit.location,
            attacker_from=attacker_from,
            retreats=list(options),
        )
        if not options:  # nowhere to go: no choice to make, so it is disbanded at once
            del state["dislodged"][province]
            ctx.emit(
                "disbanded",
                actors=[unit.power],
                place=province,
                power=unit.power,
                unit_kind=unit.kind,
                unit=unit.location,
                why="no_retreat",
            )


def retreat_options(board: Board, movement_outcome: MovementOutcome, province: str) -> tuple[str, ...]:
    """Every place the unit dislodged from ``province`` may retreat to, sorted."""
    unit, _ = movement_outcome.dislodged[province]
    return tuple(
        place
        for place in board.locations_next_to(unit.kind, unit.location)
        if retreat_problem(board, movement_outcome, Retreat(unit.power, province, place, unit.kind)) is None
    )


# --- retreats -----------------------------------------------------------------------------------------


def retreats(ctx: Context, state: State) -> State:
    """The retreats after a movement: each dislodged unit retreats or is disbanded."""
    if m.phase_kind(state) != "retreat":
        return state
    board = m.board(ctx.game)
    before = m.movement_outcome(state)
    assert before is not None
    orders = given_orders(ctx, state)
    outcome = adjudicate_retreats(board, before, orders)
    dislodged = dict(state.get("dislodged") or {})
    dislodged_units = {province: unit for province, (unit, _) in before.dislodged.items()}
    for index, resolution in enumerate(outcome.resolutions):
        given = index < len(orders)
        found = retreat_problem(board, before, resolution.order) if given else None
        reason = _reason(ctx, resolution, found[1] if found else None)
        _emit_order(ctx, board, resolution, reason, not given, "retreat", dislodged_units)
        order = resolution.order
        if not resolution.succeeded and given:
            continue
        record = dislodged.get(getattr(order, "unit", ""))
        if record is None:
            continue
        if isinstance(order, Retreat) and resolution.succeeded:
            target = next(u.location for u in outcome.units[len(before.units) :] if _same(board, u, order))
            moved = {key: value for key, value in record.items() if key != "attacker_from"}
            moved["location"] = target
            m.unit_records(state)[str(record["id"])] = moved
            del dislodged[order.unit]
        elif isinstance(order, Disband):
            del dislodged[order.unit]
            ctx.emit(
                "disbanded",
                actors=[record["owner"]],
                place=order.unit,
                power=record["owner"],
                unit_kind=record["kind"],
                unit=record["location"],
                why="ordered" if given else "no_order",
            )
    # A unit whose retreat failed (two to one place) is disbanded too.
    for province, record in sorted(dislodged.items()):
        ctx.emit(
            "disbanded",
            actors=[record["owner"]],
            place=province,
            power=record["owner"],
            unit_kind=record["kind"],
            unit=record["location"],
            why="retreat_failed",
        )
    state["dislodged"], state["contested"], state["convoyed"] = {}, [], []
    return state


def _same(board: Board, unit: Unit, order: Retreat) -> bool:
    return unit.power == order.power and board.province(unit.location) == board.province(order.destination)


# --- adjustments --------------------------------------------------------------------------------------


def adjustments(ctx: Context, state: State) -> State:
    """The winter: builds on empty owned home centres, removals, civil disorder for removals not made."""
    if m.phase_kind(state) != "adjustment":
        return state
    board = m.board(ctx.game)
    units = list(m.units(state))
    owners = m.owners(state)
    orders = given_orders(ctx, state)
    outcome = adjudicate_adjustments(board, units, owners, orders)
    found = problems(board, units, orders, "adjustment", owners=owners)
    used: dict[str, int] = {}
    for index, resolution in enumerate(outcome.resolutions):
        given = index < len(orders)
        problem = found[index].message if given and found[index] is not None else None
        reason = _reason(ctx, resolution, problem)
        _emit_order(ctx, board, resolution, reason, not given, "adjustment", _by_province(board, units))
        order = resolution.order
        if not resolution.succeeded:
            continue
        if isinstance(order, (Build, Waive)):
            used[order.power] = used.get(order.power, 0) + 1
        if isinstance(order, Build):
            unit_id = place_unit(state, order.power, order.kind, _built_location(outcome.units, board, order))
            ctx.emit(
                "built",
                actors=[order.power],
                place=board.province(order.location),
                power=order.power,
                unit_kind=order.kind,
                unit=m.unit_records(state)[unit_id]["location"],
            )
        elif isinstance(order, Disband):
            unit_id = m.unit_id_at(state, order.unit)
            assert unit_id is not None
            record = m.unit_records(state).pop(unit_id)
            ctx.emit(
                "disbanded",
                actors=[order.power],
                place=order.unit,
                power=order.power,
                unit_kind=record["kind"],
                unit=record["location"],
                why="ordered" if given else "civil_disorder",
            )
    # Builds a power could make and did not order are waived.
    for power in board.powers:
        if power not in state["factions"]:
            continue
        unused = min(balance(units, owners, power), len(build_sites(board, units, owners, power)))
        for _ in range(unused - used.get(power, 0)):
            _emit_order(ctx, board, Resolution(Waive(power), True), None, True, "adjustment", {})
    return state


def _built_location(after: Sequence[Unit], board: Board, order: Build) -> str:
    return next(
        unit.location
        for unit in after
        if unit.power == order.power and board.province(unit.location) == board.province(order.location)
    )


def build_sites(board: Board, units: Sequence[Unit], owners: Mapping[str, str], power: str) -> list[str]:
    """The power's home centres it owns with no unit in them: where it may build."""
    occupied = {board.province(unit.location) for unit in units}
    return [home for home in board.home_centres(power) if owners.get(home) == power and home not in occupied]


# --- the next phase -----------------------------------------------------------------------------------


def next_phase(ctx: Context, state: State) -> State:
    """Centres after an autumn, the winner, powers out, and the next phase anyone has a choice in."""
    board = m.board(ctx.game)
    played = m.phase(state)
    table = [dict(row) for row in ctx.rules["phases"]]
    index = next(
        i
        for i, row in enumerate(table)
        if row["season"] == played["season"] and row["kind"] == played["kind"]
    )
    year = int(played["year"])
    while True:
        index += 1
        if index == len(table):
            index, year = 0, year + 1
        candidate = table[index]
        passed = table[index - 1]
        if passed["season"] == "autumn" and passed["kind"] == "retreat":  # the autumn is over
            _take_centres(ctx, state, board)
            _eliminations(ctx, state)
            if _victory(ctx, state):
                state["phase"] = {"year": year, "season": candidate["season"], "kind": candidate["kind"]}
                break
        if _has_choice(board, state, str(candidate["kind"])):
            state["phase"] = {"year": year, "season": candidate["season"], "kind": candidate["kind"]}
            break
    m.record_date(ctx.rules, state, ctx.turn + 1)
    return state


def _has_choice(board: Board, state: State, kind: str) -> bool:
    """Whether anyone has a choice in a phase of that kind, in this state (else it is no turn)."""
    return kind == "movement" or any(
        has_choice(board, state, kind, power)
        for power in board.powers
        if power in state["factions"]  # type: ignore[arg-type]
    )


def has_choice(board: Board, state: State, kind: str, power: str) -> bool:
    """Whether ``power`` has anything to decide in a phase of that kind: a unit to order in a movement, a
    dislodged unit in the retreats, a build it can make or a unit to remove in the winter."""
    if kind == "movement":
        return any(unit.power == power for unit in m.units(state))
    if kind == "retreat":
        return any(record["owner"] == power for record in (state.get("dislodged") or {}).values())
    units, owners = m.units(state), m.owners(state)
    owed = balance(units, owners, power)
    return owed < 0 or (owed > 0 and bool(build_sites(board, units, owners, power)))


def _take_centres(ctx: Context, state: State, board: Board) -> None:
    """Every supply centre with a unit in it passes to that unit's power."""
    centres = state["centres"]
    for unit in m.units(state):
        province = board.province(unit.location)
        if province in centres and centres[province] != unit.power:
            previous = centres[province]
            centres[province] = unit.power
            ctx.emit(
                "centre_changed",
                actors=[unit.power, *([previous] if previous else [])],
                place=province,
                province=province,
                power=unit.power,
                previous=previous,
            )


def _victory(ctx: Context, state: State) -> bool:
    wanted = int(ctx.rules["victory"]["centres"])
    for power in sorted(state["factions"]):
        held = m.centre_count(state, power)
        if held >= wanted and not state.get("winner"):
            state["winner"] = power
            ctx.emit("victory", actors=[power], power=power, centres=held)
    return bool(state.get("winner"))


def _eliminations(ctx: Context, state: State) -> None:
    for power in sorted(state["factions"]):
        record = state["factions"][power]
        if record.get("status", "active") != "active":
            continue
        if m.unit_count(state, power) == 0 and m.centre_count(state, power) == 0:
            record["status"] = "eliminated"
            ctx.emit("eliminated", actors=[power], power=power)


PHASES = {"movement": movement, "retreats": retreats, "adjustments": adjustments, "next_phase": next_phase}
