"""Orders for a power nobody plays: legal, and sensible enough to make a game of it.

Pure: a position in, a power's orders out (``pieces`` orders), using the board, the checker and the
adjudicators' own rules, nothing else. The bot is greedy, not clever. In a movement phase every unit's
options (stay, each move the checker allows, a convoyed move where only a convoy reaches a centre) are
scored by ``rules/bot.yaml``'s weights and the best taken first, each province claimed by one unit only: a
centre it does not own (neutral ones first, then foreign ones weakly held), one of its own centres an
enemy could enter, or else a place nearer the centres still to take. Units left standing then support its
moves into contested provinces, or support a threatened unit of its own in holding, or hold. In a retreat
phase a dislodged unit goes to the best free place or is disbanded; in winter a power builds on its free
home centres (the kind its home's surroundings call for) or removes the units farthest from its centres.

Deterministic: every choice between equal options is broken by stable identities (the unit's province and
where it would go), or, when a ``seed`` is given, by a hash of the seed with those identities, so two
campaigns may differ while one position always gives the same orders. No global random, no clock. A
unit's order depends on the units a few provinces around it, and on the rest of the board only through
which centres are still to take (the nearest one it heads for): a unit added far away changes nothing.

Every order is checked with ``legality.problem`` before it is returned; one the checker refuses (none
should be) is replaced by a hold, so the bot never writes an illegal order.
"""

from __future__ import annotations

import functools
import hashlib
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...core import canonical
from .adjustments import balance, civil_disorder_order
from .board import Board
from .legality import Position, problem, problems
from .pieces import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOutcome,
    Order,
    PhaseKind,
    Retreat,
    Support,
    Unit,
    UnitKind,
    Waive,
)
from .retreats import retreat_problem

WEIGHTS_FILE = Path(__file__).parent / "rules" / "bot.yaml"


@dataclass(frozen=True)
class Weights:
    """The bot's tuning, read from ``rules/bot.yaml`` (which says what each number means)."""

    neutral_centre: float
    foreign_centre: float
    defend_autumn: float
    defend_spring: float
    per_contender: float
    occupied: float
    convoy_bonus: float
    reach: int
    longest_convoy: int
    supports_per_attack: int
    most_fleets_per_army: int


@functools.cache
def standard_weights() -> Weights:
    return Weights(**canonical.read_yaml(WEIGHTS_FILE)["bot"])


def orders_for_power(
    board: Board,
    units: Sequence[Unit],
    owners: Mapping[str, str],
    power: str,
    phase: PhaseKind,
    *,
    season: str = "spring",
    movement: MovementOutcome | None = None,
    seed: str = "",
    weights: Weights | None = None,
) -> tuple[Order, ...]:
    """The orders ``power`` gives in this phase. ``units`` is the position before the phase (in a retreat
    phase, the units that stayed on the board: ``movement.units``); ``owners`` maps each owned supply
    centre to its power; ``season`` (spring, autumn, winter) weighs defence; ``movement`` is the movement
    outcome a retreat phase follows. In winter the balance of builds and removals comes from ``units`` and
    ``owners``, as the adjudicator counts it."""
    weights = weights or standard_weights()
    if phase == "movement":
        return _Movement(board, units, owners, power, season, seed, weights).orders()
    if phase == "retreat":
        if movement is None:
            raise TypeError("a retreat phase follows a movement: pass movement=")
        return retreat_orders(board, movement, owners, power, season, seed, weights)
    return adjustment_orders(board, units, owners, power, weights)


# --- the map as each kind of unit sees it ----------------------------------------------------------------


@functools.cache
def _graph(board: Board, kind: UnitKind) -> dict[str, tuple[str, ...]]:
    """Where a unit of that kind steps to: for an army, province -> provinces (over land); for a fleet,
    location -> locations, coast-exact (a fleet on the south coast of St Petersburg does not reach
    Norway)."""
    graph: dict[str, tuple[str, ...]] = {}
    for province in board.provinces:
        if kind == "army":
            if board.kind(province) != "sea":
                graph[province] = tuple(
                    place for place in board.locations_next_to("army", province) if board.kind(place) != "sea"
                )
        else:
            for place in board.fleet_locations(province):
                graph[place] = board.locations_next_to("fleet", place)
    return graph


def _distances(board: Board, kind: UnitKind | None, sources: frozenset[str]) -> dict[str, int]:
    """Borders from each place to the nearest of the provinces ``sources``: by province over land and sea
    alike when ``kind`` is None (how an army that may be convoyed sees the map), by province over land for
    an army, by location (coast-exact) over water for a fleet."""
    if kind is None:
        return board.distances(sources)
    graph = _graph(board, kind)
    found = {place: 0 for place in sorted(graph) if board.province(place) in sources}
    queue = deque(found)
    while queue:
        here = queue.popleft()
        for there in graph[here]:
            if there not in found:
                found[there] = found[here] + 1
                queue.append(there)
    return found


def _reachable(board: Board, unit: Unit) -> frozenset[str]:
    """The provinces the unit could move into by itself."""
    return frozenset(board.province(place) for place in _graph(board, unit.kind).get(unit.location, ()))


def _tie(seed: str, *identities: str) -> str:
    """What breaks a tie between equal options: nothing but the identities themselves without a seed
    (they sort after it), a hash of the seed with them otherwise."""
    if not seed:
        return ""
    return hashlib.sha256("/".join((seed, *identities)).encode()).hexdigest()


# --- movement -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Option:
    score: float
    unit: str  # the province of the unit
    province: str  # the province it ends in: its own for a stay
    order: Hold | Move
    purpose: str  # "centre" (takes or retakes one), "defend", or "position"
    fleets: tuple[str, ...] = ()  # the fleets (provinces) that convoy it


class _Movement:
    def __init__(
        self,
        board: Board,
        units: Sequence[Unit],
        owners: Mapping[str, str],
        power: str,
        season: str,
        seed: str,
        weights: Weights,
    ) -> None:
        self.board, self.units, self.owners, self.power = board, units, owners, power
        self.season, self.seed, self.weights = season, seed, weights
        self.position = Position(board, units)
        self.mine = {
            board.province(unit.location): unit
            for unit in sorted(units, key=lambda unit: unit.location)
            if unit.power == power
        }
        # How many enemy units could move into each province this phase (a convoy is not counted).
        self.threats: dict[str, int] = {}
        for unit in units:
            if unit.power != power:
                for there in _reachable(board, unit):
                    self.threats[there] = self.threats.get(there, 0) + 1
        self.owned = frozenset(centre for centre, owner in owners.items() if owner == power)
        targets = frozenset(board.supply_centres - self.owned)
        open_targets = targets - set(self.mine)  # centres to take that no unit of its own stands on yet
        self.distance: dict[UnitKind, dict[str, int]] = {
            "army": _distances(board, None, open_targets),
            "fleet": _distances(board, "fleet", open_targets),
        }

    # Scores

    def value(self, unit: Unit, place: str, staying: bool) -> tuple[float, str]:
        """What it is worth for the unit to stand at ``place`` after the phase, and why: ``centre`` (it
        takes or retakes one), ``defend`` (it keeps one an enemy could enter) or ``position``."""
        weights, board = self.weights, self.board
        province = board.province(place)
        occupant = None if staying else self.position.unit(province)
        enemy_there = occupant is not None and occupant.power != self.power
        target = province in board.supply_centres and province not in self.owned
        # A centre still to take is as close as a place gets, even with its own unit on it already.
        away = 0 if target else self.distance[unit.kind].get(place if unit.kind == "fleet" else province)
        score, purpose = float(max(0, weights.reach - (weights.reach if away is None else away))), "position"
        if target or (province in self.owned and enemy_there):
            if province in self.owned:  # its own centre, with an enemy unit standing in it
                score += self._defend()
            else:
                score += (
                    weights.neutral_centre if self.owners.get(province) is None else weights.foreign_centre
                )
            purpose = "centre"
        elif province in self.owned and self.threats.get(province) and (staying or province not in self.mine):
            # Its own centre an enemy could enter, kept by the unit on it or covered by one moving in.
            score += self._defend()
            purpose = "defend"
        if not staying:
            # Other powers' units that could move there too: the move may bounce.
            score -= weights.per_contender * self.threats.get(province, 0)
        if enemy_there and not self._outnumbers(unit, province):
            score -= weights.occupied
        return score, purpose

    def _outnumbers(self, attacker: Unit, province: str) -> bool:
        """Whether its other units that could support a move into ``province`` outnumber the enemy units
        that could support the one standing there: then an attack is worth making (the supports are given
        after the plan, by units with nothing better to do, so it may still bounce)."""
        board = self.board
        helpers = sum(
            1
            for here, unit in self.mine.items()
            if unit is not attacker and here != province and board.reaches(unit.kind, unit.location, province)
        )
        return min(helpers, self.weights.supports_per_attack) > self.threats.get(province, 0)

    def _defend(self) -> float:
        return self.weights.defend_autumn if self.season == "autumn" else self.weights.defend_spring

    def options(self, province: str, unit: Unit) -> list[_Option]:
        board = self.board
        score, purpose = self.value(unit, unit.location, staying=True)
        found = [_Option(score, province, province, Hold(self.power, province, unit.kind), purpose)]
        for place in board.locations_next_to(unit.kind, unit.location):
            if unit.kind == "army" and board.kind(place) == "sea":
                continue
            move = Move(self.power, province, place, unit.kind)
            if problem(board, self.units, move, "movement", position=self.position) is not None:
                continue
            score, purpose = self.value(unit, place, staying=False)
            found.append(_Option(score, province, board.province(place), move, purpose))
        if unit.kind == "army" and board.kind(province) == "coast":
            found.extend(self.convoys(province, unit))
        return found

    def convoys(self, province: str, unit: Unit) -> list[_Option]:
        """Moves to centres the army cannot walk to, through a chain of its own fleets at sea."""
        board = self.board
        fleets = sorted(
            place
            for place, other in self.mine.items()
            if other.kind == "fleet" and board.kind(place) == "sea"
        )
        if not fleets:
            return []
        routes = self._routes(province, fleets)
        found = []
        for destination, chain in sorted(routes.items()):
            if destination in self.mine or board.adjacent("army", unit.location, destination):
                continue
            score, purpose = self.value(unit, destination, staying=False)
            if purpose != "centre":
                continue  # the bot takes a fleet off its own business only to carry an army to a centre
            move = Move(self.power, province, destination, unit.kind)
            if problem(board, self.units, move, "movement", position=self.position) is not None:
                continue
            found.append(
                _Option(score + self.weights.convoy_bonus, province, destination, move, purpose, chain)
            )
        return found

    def _routes(self, origin: str, fleets: list[str]) -> dict[str, tuple[str, ...]]:
        """Each coastal centre the fleets could carry an army from ``origin`` to, with the shortest chain."""
        board = self.board
        chains: dict[str, tuple[str, ...]] = {}
        queue = deque((sea,) for sea in fleets if board.reaches("fleet", sea, origin))
        seen = {chain[0] for chain in queue}
        routes: dict[str, tuple[str, ...]] = {}
        while queue:
            chain = queue.popleft()
            chains[chain[-1]] = chain
            for centre in sorted(board.supply_centres):
                if (
                    centre != origin
                    and board.kind(centre) == "coast"
                    and centre not in routes
                    and board.reaches("fleet", chain[-1], centre)
                ):
                    routes[centre] = chain
            if len(chain) >= self.weights.longest_convoy:
                continue
            for sea in fleets:
                if sea not in seen and board.reaches("fleet", chain[-1], sea):
                    seen.add(sea)
                    queue.append((*chain, sea))
        return routes

    # The plan

    def orders(self) -> tuple[Order, ...]:
        if not self.mine:
            return ()
        options = [option for province, unit in self.mine.items() for option in self.options(province, unit)]
        options.sort(
            key=lambda option: (
                -option.score,
                _tie(self.seed, self.power, option.unit, option.province),
                option.order.__class__.__name__ != "Hold",  # between equals, staying put first
                option.unit,
                option.province,
            )
        )
        plan: dict[str, _Option | Convoy] = {}
        claimed: dict[str, str] = {}  # province -> the unit (its province) that will stand there
        for option in options:
            if option.unit in plan or option.province in claimed:
                continue
            if any(fleet in plan for fleet in option.fleets):
                continue
            if not self._may_follow(option, plan):
                continue
            plan[option.unit] = option
            claimed[option.province] = option.unit
            move = option.order
            for fleet in option.fleets:
                assert isinstance(move, Move)
                plan[fleet] = Convoy(self.power, fleet, option.unit, move.destination, "fleet")
                claimed[fleet] = fleet
        given = self._supports(plan, claimed)
        return self._checked(given)

    def _may_follow(self, option: _Option, plan: Mapping[str, _Option | Convoy]) -> bool:
        """A move into a province one of its own units stands in only behind that unit's move away (never
        a swap, which bounces): otherwise the power would bounce itself."""
        if option.province == option.unit or option.province not in self.mine:
            return True
        ahead = plan.get(option.province)
        return isinstance(ahead, _Option) and isinstance(ahead.order, Move) and ahead.province != option.unit

    def _supports(self, plan: dict[str, _Option | Convoy], claimed: dict[str, str]) -> dict[str, Order]:
        """The orders of the plan, with units that would only hold or edge closer turned to supports: first
        of its moves into contested provinces to take or cover a centre, best first; then of its threatened
        units holding."""
        board = self.board
        given: dict[str, Order] = {
            unit: entry if isinstance(entry, Convoy) else entry.order for unit, entry in plan.items()
        }

        def free(province: str) -> bool:
            """A unit that may give a support instead: one holding, or one moving only to edge closer and
            that no unit of its own is following."""
            entry = plan[province]
            if isinstance(entry, Convoy) or isinstance(given[province], Support):
                return False
            if isinstance(entry.order, Hold):
                return True  # a unit supporting defends its own province as well as one holding
            return entry.purpose == "position" and claimed.get(province) in (None, province)

        attacks = sorted(
            (
                entry
                for entry in plan.values()
                if isinstance(entry, _Option)
                and isinstance(entry.order, Move)
                and entry.purpose in ("centre", "defend")
                and entry.province not in self.mine
                and (self.threats.get(entry.province) or self.position.unit(entry.province) is not None)
            ),
            key=lambda entry: (-entry.score, entry.unit),
        )
        for attack in attacks:
            helpers = sorted(
                (
                    province
                    for province in plan
                    if province != attack.unit
                    and free(province)
                    and province != attack.province
                    and board.reaches(self.mine[province].kind, self.mine[province].location, attack.province)
                ),
                key=lambda province: (isinstance(given[province], Move), province),
            )
            for helper in helpers[: self.weights.supports_per_attack]:
                kinds = (self.mine[helper].kind, self.mine[attack.unit].kind)
                support = Support(self.power, helper, attack.unit, attack.province, *kinds)
                if problem(board, self.units, support, "movement", position=self.position) is not None:
                    continue
                entry = plan[helper]
                if isinstance(entry, _Option) and entry.province != helper:
                    del claimed[entry.province]
                    claimed[helper] = helper
                given[helper] = support
        for province, order in sorted(given.items()):
            if not isinstance(order, Hold):
                continue
            unit = self.mine[province]
            steady = sorted(
                (
                    -self.threats.get(other, 0),
                    other not in board.supply_centres,
                    other,
                )
                for other, held in given.items()
                if other != province
                and not isinstance(held, Move)
                and self.threats.get(other)
                and board.reaches(unit.kind, unit.location, other)
            )
            if steady:
                other = steady[0][2]
                support = Support(self.power, province, other, None, unit.kind, self.mine[other].kind)
                if problem(board, self.units, support, "movement", position=self.position) is None:
                    given[province] = support
        return given

    def _checked(self, given: Mapping[str, Order]) -> tuple[Order, ...]:
        """The orders in the order of the units' provinces, any the checker would refuse made a hold."""
        orders = [given[province] for province in sorted(given)]
        found = problems(self.board, self.units, orders, "movement")
        return tuple(
            order if trouble is None else Hold(self.power, province, self.mine[province].kind)
            for order, trouble, province in zip(orders, found, sorted(given), strict=True)
        )


# --- retreats -------------------------------------------------------------------------------------------


def retreat_orders(
    board: Board,
    movement: MovementOutcome,
    owners: Mapping[str, str],
    power: str,
    season: str,
    seed: str,
    weights: Weights,
) -> tuple[Order, ...]:
    """A retreat for each of its dislodged units to the best place it may go, two never to one place (they
    would both be disbanded); a unit with nowhere to go is disbanded. The best place is a centre it does
    not own (in autumn it becomes its own), then one of its own centres left empty, then the place nearest
    the centres still to take."""
    dislodged = sorted(
        (province, unit) for province, (unit, _) in movement.dislodged.items() if unit.power == power
    )
    if not dislodged:
        return ()
    owned = frozenset(centre for centre, owner in owners.items() if owner == power)
    standing = {board.province(unit.location) for unit in movement.units}
    targets = frozenset(board.supply_centres - owned) - standing
    distance = {"army": _distances(board, None, targets), "fleet": _distances(board, "fleet", targets)}
    options: list[tuple[float, str, str, str, Retreat]] = []
    for province, unit in dislodged:
        for place in board.locations_next_to(unit.kind, unit.location):
            order = Retreat(power, province, place, unit.kind)
            if retreat_problem(board, movement, order) is not None:
                continue
            there = board.province(place)
            score = float(max(0, weights.reach - distance[unit.kind].get(there, weights.reach)))
            if there in board.supply_centres and there not in owned:
                score += weights.neutral_centre if owners.get(there) is None else weights.foreign_centre
            elif there in owned:
                score += weights.defend_autumn if season == "autumn" else weights.defend_spring
            options.append((-score, _tie(seed, power, province, there), province, there, order))
    options.sort(key=lambda option: option[:4])
    chosen: dict[str, Order] = {}
    taken: set[str] = set()
    for _, _, province, there, order in options:
        if province in chosen or there in taken:
            continue
        chosen[province] = order
        taken.add(there)
    for province, unit in dislodged:
        chosen.setdefault(province, Disband(power, province, unit.kind))
    orders = [chosen[province] for province, _ in dislodged]
    return tuple(
        order if retreat_problem(board, movement, order) is None else Disband(power, order.unit)
        for order in orders
        if isinstance(order, (Retreat, Disband))
    )


# --- winter ---------------------------------------------------------------------------------------------


def adjustment_orders(
    board: Board, units: Sequence[Unit], owners: Mapping[str, str], power: str, weights: Weights
) -> tuple[Order, ...]:
    """Builds on its free home centres, nearest the centres still to take first, and a waiver for each
    build it has no place for; or the removals its count calls for, farthest from its centres first (the
    order the rules would remove them in, so a bot and civil disorder agree)."""
    owed = balance(units, owners, power)
    mine = [unit for unit in units if unit.power == power]
    owned = frozenset(centre for centre, owner in owners.items() if owner == power)
    if owed < 0:
        removed = civil_disorder_order(board, mine, owned)[:-owed]
        return tuple(Disband(power, board.province(unit.location), unit.kind) for unit in removed)
    if owed == 0:
        return ()
    standing = {board.province(unit.location) for unit in units}
    free = [home for home in board.home_centres(power) if owners.get(home) == power and home not in standing]
    targets = frozenset(board.supply_centres - owned)
    land = _distances(board, "army", targets)
    sea = _distances(board, "fleet", frozenset(centre for centre in targets if board.kind(centre) != "land"))
    far = len(board.provinces) + 1
    free.sort(key=lambda home: (min(land.get(home, far), sea.get(home, far)), home))
    fleets = sum(1 for unit in mine if unit.kind == "fleet")
    armies = len(mine) - fleets
    orders: list[Order] = []
    for home in free[:owed]:
        kind = _kind_to_build(board, home, land, sea, fleets, armies, weights)
        location = home
        if kind == "fleet":
            fleets += 1
            coasts = board.fleet_locations(home)
            location = min(coasts, key=lambda coast: (_fleet_reach(board, coast, sea, far), coast))
        else:
            armies += 1
        orders.append(Build(power, kind, location))
    orders.extend(Waive(power) for _ in range(owed - len(orders)))
    return tuple(
        order if problem(board, units, order, "adjustment", owners=owners) is None else Waive(power)
        for order in orders
    )


def _kind_to_build(
    board: Board,
    home: str,
    land: Mapping[str, int],
    sea: Mapping[str, int],
    fleets: int,
    armies: int,
    weights: Weights,
) -> UnitKind:
    """An army inland; on a coast, the kind that is nearer the centres still to take, a fleet while the
    power has few enough fleets for its armies when both are as near (or neither reaches any)."""
    if board.kind(home) == "land":
        return "army"
    far = len(board.provinces) + 1
    by_land, by_sea = land.get(home, far), sea.get(home, far)
    if by_land < by_sea:
        return "army"
    if by_sea < by_land:
        # Counting the army it may build as one it has, so a power of fleets alone still builds a few.
        return "fleet" if fleets <= weights.most_fleets_per_army * (armies + 1) else "army"
    return "fleet" if fleets < armies else "army"


def _fleet_reach(board: Board, coast: str, sea: Mapping[str, int], far: int) -> int:
    """How near a fleet built on that coast stands to the centres still to take: its nearest next place."""
    return min(
        (sea.get(board.province(place), far) for place in board.locations_next_to("fleet", coast)),
        default=far,
    )
