"""The movement phase: every move, support and convoy of a season resolved together.

Orders in Diplomacy have no sequence: all are carried out at once, and whether one succeeds depends on others
that may depend on it in turn. The adjudicator follows the method of the DATC's chapter 5 (Lucas
Kruijswijk's): each order is a decision, succeed or fail, written as a condition on other decisions (the
strengths below); a decision is resolved by recursion into the decisions it needs, and where the recursion
comes back to a decision still being resolved, that decision's answer is guessed, once "fails" and once
"succeeds". One consistent answer settles it. Two answers, or none, mean a cycle the rules settle by a
backup rule:

- a cycle of moves only is circular movement, and every move in it succeeds;
- a cycle with a convoy is a convoy paradox, and by the Szykman rule (the DATC's preference, issue 4.A.2,
  consistent with the 2023 rules) the convoying fleets in it do not convoy: they hold, and the army they
  would have carried neither moves nor cuts a support.

Choices where the rules are silent or disputed follow the DATC's preferences, each named in a comment with
its issue number.
"""

from __future__ import annotations

from collections.abc import Sequence

from .legality import (
    Geography,
    Position,
    Problem,
    move_target,
    problems,
)
from .pieces import (
    Convoy,
    Hold,
    Move,
    MovementOutcome,
    Order,
    Resolution,
    Support,
    Unit,
)

# The disputed points of the rules this checker and adjudicator settle, with the DATC issue (chapter 4) each
# follows, for the rules page: (issue, the question, the answer here). The DATC's preference every time.
CHOICES: tuple[tuple[str, str, str], ...] = (
    ("4.A.1", "A convoy with several routes loses one", "The army still goes while any route is unbroken."),
    (
        "4.A.2",
        "A convoy paradox",
        "The Szykman rule: the convoying fleets caught in the paradox hold, and the army neither moves nor "
        "cuts support.",
    ),
    (
        "4.A.3",
        "An army next to its destination with a convoy offered",
        'It goes by sea only if its order says "via convoy" or a fleet of its own power is ordered to '
        "convoy it; then a broken convoy leaves it where it is, with no fall back to the land route.",
    ),
    (
        "4.A.4",
        "A convoyed army attacks a unit supporting an attack on the army's own province",
        "The support is not cut: the army attacks from where it started.",
    ),
    (
        "4.A.5",
        "Retreat after being dislodged by a convoyed army",
        "The unit may retreat to the province the army set out from.",
    ),
    (
        "4.A.7",
        "A unit dislodged by a convoyed army it was moving against",
        "No head-to-head battle took place, so it can still bounce a third unit.",
    ),
    ("4.B.1", "A fleet order to a split coast with both coasts in reach and none named", "Illegal."),
    ("4.B.2", "The same with only one coast in reach", "The fleet goes to that coast."),
    (
        "4.B.3",
        "A fleet order naming a coast it cannot reach",
        "Illegal, even if the other coast is in reach.",
    ),
    (
        "4.B.4",
        "A support naming no coast for a fleet's move to a split coast",
        "Allowed, for any power's fleet; a coast named must be the fleet's.",
    ),
    ("4.B.5", "The wrong coast written for the ordered fleet", "Ignored: the province names the unit."),
    ("4.B.6", "A coast written for an army, or a coast that does not exist", "Ignored."),
    ("4.B.7", "A fleet built on a split coast without a coast", "The build fails."),
    ("4.C.1, 4.C.2", "A unit kind missing or wrong in an order", "The order is followed."),
    ("4.C.4", "A fleet ordered built inland", "The build fails; no army is built instead."),
    ("4.C.5, 4.C.6", "The nationality of a supported unit missing or wrong", "The support stands."),
    ("4.D.3", "Two different orders for one unit", "Both are refused and the unit holds."),
    ("4.D.4, 4.D.5, 4.D.6", "Too many builds or removals", "The first legal ones written count."),
    (
        "4.E.1",
        "An illegal order",
        "It is ignored: the unit holds and may be supported in holding. A move that needs a convoy is "
        "legal when fleets now at sea could make one; a convoy order by a fleet no route would need is not.",
    ),
)


def adjudicate(board: Geography, units: Sequence[Unit], orders: Sequence[Order]) -> MovementOutcome:
    """Resolve one movement phase: ``units`` is the position before it, ``orders`` every order given.

    An illegal order (``legality.problems``) is ignored and its unit holds; so is a unit given two different
    legal orders (DATC 4.D.3, choice c), and a unit given no order. The same order written twice counts
    once. The result lists a resolution for each order, in the order given, and the position after."""
    found = problems(board, units, orders, "movement")
    position = Position(board, units)
    active: dict[str, Hold | Move | Support | Convoy] = {}
    for order, trouble in zip(orders, found, strict=True):
        if trouble is None and isinstance(order, (Hold, Move, Support, Convoy)):
            active.setdefault(board.province(order.unit), order)
    phase = _Phase(board, position, active)
    phase.resolve_all()
    return phase.outcome(units, orders, found)


class _Phase:
    """The decisions of one phase, keyed by the province of the unit that makes them (one order a unit)."""

    def __init__(
        self, board: Geography, position: Position, active: dict[str, Hold | Move | Support | Convoy]
    ) -> None:
        self.board = board
        self.units = position.at
        self.orders = active
        self.target: dict[str, str] = {}  # a move's origin -> the location it goes to (coast resolved)
        self.into: dict[str, list[str]] = {}  # a province -> the origins of the moves into it
        self.by_convoy: set[str] = set()  # origins of the moves that go by sea
        self.route: dict[str, frozenset[str]] = {}  # a convoyed move's origin -> the fleets that can carry it
        # a supported province -> its supporters whose order matches what the supported unit does
        self.supporters: dict[str, list[str]] = {}
        self.support_target: dict[str, str] = {}  # a supporter -> the province it supports into
        self.void: set[str] = set()  # supports and convoys whose unit did not order what they back
        self._read_moves()
        self._read_supports()
        self._read_convoys()
        # The state of the resolution (DATC 5.F, the guess algorithm).
        self.resolution: dict[str, bool] = {}
        self.resolved: set[str] = set()
        self.visited: set[str] = set()
        self.cycle: list[str] = []
        self.guess_based = False
        self.recursion_hits = 0
        self.paradox: set[str] = set()  # convoys the Szykman rule stopped

    # Reading the orders

    def _read_moves(self) -> None:
        board = self.board
        for origin, order in sorted(self.orders.items()):
            if not isinstance(order, Move):
                continue
            unit = self.units[origin]
            destination = board.province(order.destination)
            if unit.kind == "army" and (
                order.via_convoy
                or not board.adjacent("army", unit.location, destination)
                or self._own_convoy(origin)
            ):
                # By sea: the army cannot walk there, or it says "via convoy", or a fleet of its own power is
                # ordered to convoy it there. An army next to its destination goes by land otherwise, even if
                # foreign fleets offer to carry it (2023 rules; DATC 4.A.3: no kidnapping, no fallback to
                # the land route when the convoy fails).
                self.target[origin] = destination
                self.by_convoy.add(origin)
            else:
                target = move_target(board, unit, order.destination)
                assert not isinstance(target, Problem), "legality lets only possible moves through"
                self.target[origin] = target
            self.into.setdefault(board.province(self.target[origin]), []).append(origin)

    def _own_convoy(self, origin: str) -> bool:
        order = self.orders[origin]
        assert isinstance(order, Move)
        destination = self.board.province(order.destination)
        return any(
            isinstance(other, Convoy)
            and self.units[fleet].power == order.power
            and self.board.province(other.army) == origin
            and self.board.province(other.destination) == destination
            for fleet, other in self.orders.items()
        )

    def _read_supports(self) -> None:
        board = self.board
        for supporter, order in sorted(self.orders.items()):
            if not isinstance(order, Support):
                continue
            supported = board.province(order.supported)
            backed = self.orders.get(supported)
            if order.destination is None:
                # A hold support backs a unit that does not move: it holds, supports, convoys or has no order.
                matches = not isinstance(backed, Move)
                self.support_target[supporter] = supported
            else:
                destination = board.province(order.destination)
                matches = (
                    isinstance(backed, Move)
                    and board.province(self.target[supported]) == destination
                    # A coast named in the support must be the coast the fleet goes to; a support naming no
                    # coast backs the move to either (DATC 4.B.4, 6.B.9, 6.B.15). For an army a coast means
                    # nothing and is not compared (DATC 4.B.6).
                    and (
                        self.units[supported].kind == "army"
                        or order.destination in (destination, self.target[supported])
                    )
                )
                self.support_target[supporter] = destination
            if matches:
                self.supporters.setdefault(supported, []).append(supporter)
            else:
                self.void.add(supporter)

    def _read_convoys(self) -> None:
        board = self.board
        carriers: dict[str, set[str]] = {}
        for fleet, order in sorted(self.orders.items()):
            if not isinstance(order, Convoy):
                continue
            army = board.province(order.army)
            if army in self.by_convoy and board.province(self.target[army]) == board.province(
                order.destination
            ):
                carriers.setdefault(army, set()).add(fleet)
            else:
                self.void.add(fleet)
        for army in self.by_convoy:
            fleets = frozenset(carriers.get(army, ()))
            destination = self.target[army]
            # Only the fleets on a chain joining both ends can ever carry the army.
            self.route[army] = _reach(board, fleets, army) & _reach(board, fleets, destination)

    # The resolution (DATC 5.F: guess, check, and the backup rule for cycles)

    def resolve_all(self) -> None:
        for province in sorted(self.orders):
            if isinstance(self.orders[province], (Move, Support, Convoy)):
                self.resolve(province)

    def resolve(self, decision: str) -> bool:
        if decision in self.resolved:
            return self.resolution[decision]
        if decision in self.cycle:
            # Part of a cycle not settled yet: its last answer stands, as a guess.
            self.guess_based = True
            return self.resolution[decision]
        if decision in self.visited:
            # The recursion came back to a decision under way: a cycle. Answer with the guess.
            self.cycle.append(decision)
            self.guess_based = True
            self.recursion_hits += 1
            return self.resolution[decision]
        self.visited.add(decision)
        old_cycle = len(self.cycle)
        old_guess_based = self.guess_based
        old_hits = self.recursion_hits
        self.guess_based = False
        self.resolution[decision] = False
        first = self._adjudicate(decision)
        if not self.guess_based:
            return self._settle(decision, first, old_guess_based, old_hits)
        if decision in self.cycle:
            self.recursion_hits -= 1
        if self.recursion_hits == old_hits:
            # This decision is where the whole cycle began: try the other guess.
            del self.cycle[old_cycle:]
            self.resolution[decision] = True
            second = self._adjudicate(decision)
            if first == second:
                del self.cycle[old_cycle:]
                return self._settle(decision, first, old_guess_based, old_hits)
            # No single answer: the backup rule decides the cycle, and the decision is resolved again.
            self._backup_rule(self.cycle[old_cycle:] or [decision])
            del self.cycle[old_cycle:]
            self.guess_based = old_guess_based
            self.recursion_hits = old_hits
            self.visited.discard(decision)
            return self.resolve(decision)
        # The cycle began further up: leave this decision open, with its answer for now.
        if decision not in self.cycle:
            self.cycle.append(decision)
        self.resolution[decision] = first
        self.visited.discard(decision)
        return first

    def _settle(self, decision: str, answer: bool, old_guess_based: bool, old_hits: int) -> bool:
        self.guess_based = old_guess_based
        self.recursion_hits = old_hits
        self.resolution[decision] = answer
        self.resolved.add(decision)
        self.visited.discard(decision)
        return answer

    def _backup_rule(self, cycle: list[str]) -> None:
        convoys = [decision for decision in cycle if isinstance(self.orders[decision], Convoy)]
        if convoys:
            # A convoy paradox: the Szykman rule (DATC 4.A.2, the preferred choice) - the convoys of the
            # cycle fail as if the fleets held; the other decisions are then resolved as usual.
            for decision in convoys:
                self.resolution[decision] = False
                self.resolved.add(decision)
                self.paradox.add(decision)
            return
        # Circular movement: every move in the circle succeeds (DATC 5.B.9). A cycle of anything else cannot
        # arise on the standard map; should one, its orders fail, as the DATC advises for variants.
        circular = all(isinstance(self.orders[decision], Move) for decision in cycle)
        for decision in cycle:
            self.resolution[decision] = circular
            self.resolved.add(decision)

    def _adjudicate(self, decision: str) -> bool:
        order = self.orders[decision]
        if isinstance(order, Move):
            return self._move_succeeds(decision)
        if isinstance(order, Support):
            return self._support_holds(decision)
        return self._convoy_holds(decision)

    # The conditions (DATC 5.B)

    def _move_succeeds(self, origin: str) -> bool:
        attack = self._attack(origin)
        if attack == 0:
            return False
        destination = self.board.province(self.target[origin])
        opponent = self._head_to_head(origin)
        if opponent is not None:
            if attack <= self._defend(opponent):
                return False
        elif attack <= self._hold(destination):
            return False
        return all(attack > self._prevent(rival) for rival in self.into[destination] if rival != origin)

    def _support_holds(self, supporter: str) -> bool:
        if supporter in self.void:
            return False
        power = self.units[supporter].power
        attackers = [origin for origin in self.into.get(supporter, ()) if self.units[origin].power != power]
        for origin in attackers:
            # Cut by any attack from a foreign unit with a way there, except an attack from the province the
            # support is given into (the attacked cannot cut the support against it). An army convoyed from
            # there comes from there too: DATC 4.A.4, choice a (Calhamer's reading), so it does not cut.
            if origin != self.support_target[supporter] and self._path(origin):
                return False
        # And cut when the supporter is dislodged, by whatever attack.
        return not any(self.resolve(origin) for origin in attackers)

    def _convoy_holds(self, fleet: str) -> bool:
        if fleet in self.void:
            return False
        # The convoy holds unless the fleet is dislodged. The moves into its sea are adjudicated here rather
        # than resolved as decisions of their own, so that a convoy paradox forms one clean cycle of the
        # convoy and the support it hangs on (DATC 5.D, Pandin's paradox).
        for origin in self.into.get(fleet, ()):
            if origin in self.resolved:
                if self.resolution[origin]:
                    return False
            elif self._move_succeeds(origin):
                return False
        return True

    def _path(self, origin: str) -> bool:
        if origin not in self.by_convoy:
            return True
        fleets = self.route[origin]
        if not fleets:
            return False
        board = self.board
        destination = self.target[origin]
        reached: set[str] = set()
        frontier = [fleet for fleet in sorted(fleets) if board.reaches("fleet", fleet, origin)]
        while frontier:
            fleet = frontier.pop(0)
            if fleet in reached or not self.resolve(fleet):
                continue
            if board.reaches("fleet", fleet, destination):
                return True
            reached.add(fleet)
            frontier.extend(
                other for other in sorted(fleets - reached) if board.reaches("fleet", fleet, other)
            )
        return False

    def _head_to_head(self, origin: str) -> str | None:
        """The unit moving the other way along the same border, if any. Moves by convoy meet no one on a
        border, so a convoyed swap is no head-to-head battle (DATC 4.A.7, choice b)."""
        destination = self.board.province(self.target[origin])
        if origin in self.by_convoy or destination not in self.target or destination in self.by_convoy:
            return None
        return destination if self.board.province(self.target[destination]) == origin else None

    def _supports(self, province: str, against: str | None = None) -> int:
        """How many of the supports of ``province`` hold, leaving out those of ``against``'s power."""
        return sum(
            1
            for supporter in self.supporters.get(province, ())
            if (against is None or self.units[supporter].power != against) and self.resolve(supporter)
        )

    def _attack(self, origin: str) -> int:
        if not self._path(origin):
            return 0
        destination = self.board.province(self.target[origin])
        occupant = self.units.get(destination)
        if occupant is None or (
            destination in self.target and self._head_to_head(origin) is None and self.resolve(destination)
        ):
            return 1 + self._supports(origin)
        if occupant.power == self.units[origin].power:
            return 0  # no unit dislodges one of its own power
        # Supports from the power of the unit attacked do not count against it (DATC 6.D.12, 6.E.3).
        return 1 + self._supports(origin, against=occupant.power)

    def _hold(self, province: str) -> int:
        if province not in self.units:
            return 0
        if province in self.target:
            return 0 if self.resolve(province) else 1
        return 1 + self._supports(province)

    def _defend(self, origin: str) -> int:
        return 1 + self._supports(origin)

    def _prevent(self, origin: str) -> int:
        if not self._path(origin):
            return 0
        opponent = self._head_to_head(origin)
        if opponent is not None and self.resolve(opponent):
            return 0  # beaten in a head-to-head battle: no effect on the province its victor left
        return 1 + self._supports(origin)

    # The result

    def outcome(
        self, units: Sequence[Unit], orders: Sequence[Order], found: Sequence[Problem | None]
    ) -> MovementOutcome:
        board = self.board
        moved = {origin for origin in self.target if self.resolution[origin]}
        dislodged: dict[str, tuple[Unit, str]] = {}
        for province, unit in sorted(self.units.items()):
            if province in moved:
                continue
            winners = [origin for origin in self.into.get(province, ()) if origin in moved]
            if winners:
                dislodged[province] = (unit, winners[0])
        after: list[Unit] = []
        for unit in units:
            province = board.province(unit.location)
            if province in dislodged:
                continue
            if province in moved:
                unit = Unit(unit.power, unit.kind, self.target[province])
            after.append(unit)
        occupied = {board.province(unit.location) for unit in after}
        contested = frozenset(
            province
            for province, origins in self.into.items()
            if province not in occupied and any(self._prevent(origin) > 0 for origin in origins)
        )
        resolutions = tuple(
            self._resolution(order, trouble, dislodged) for order, trouble in zip(orders, found, strict=True)
        )
        return MovementOutcome(
            resolutions=resolutions,
            units=tuple(after),
            dislodged=dislodged,
            contested=contested,
            convoyed=frozenset(origin for origin in moved if origin in self.by_convoy),
        )

    def _resolution(
        self, order: Order, trouble: Problem | None, dislodged: dict[str, tuple[Unit, str]]
    ) -> Resolution:
        if trouble is not None or not isinstance(order, (Hold, Move, Support, Convoy)):
            return Resolution(order, False, "illegal")
        province = self.board.province(order.unit)
        if isinstance(order, Hold):
            return Resolution(order, province not in dislodged, "dislodged" if province in dislodged else "")
        if self.resolution[province]:
            return Resolution(order, True)
        if isinstance(order, Move):
            return Resolution(order, False, "bounced" if self._path(province) else "no convoy")
        if province in self.void:
            return Resolution(order, False, "void")
        if province in self.paradox:
            return Resolution(order, False, "paradox")
        return Resolution(order, False, "dislodged" if province in dislodged else "cut")


def _reach(board: Geography, fleets: frozenset[str], start: str) -> frozenset[str]:
    """The seas of ``fleets`` joined to the location ``start`` through one another."""
    reached = {fleet for fleet in fleets if board.reaches("fleet", fleet, board.province(start))}
    frontier = sorted(reached)
    while frontier:
        fleet = frontier.pop()
        for other in sorted(fleets - reached):
            if board.reaches("fleet", fleet, other):
                reached.add(other)
                frontier.append(other)
    return frozenset(reached)
