"""One reading of each order, shared by the checker and the resolver.

A ruleset reads an order once, into a plan, against a view of the state: a sketch of the faction's own
position when ``campaign check`` plays its file forward, the live state when the resolver reaches the
order. Both run the same reading, so what the checker accepts is what the resolver carries out.

What the reading finds wrong is a ``Reject``: an error with its fix for the player at check time, the
reason of a private ``order_failed`` event at run time. What only other factions' orders decide (is the
enemy still there?) is a doubt: a warning when checking, a failure when carrying out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..core.fields import named_hint
from ..core.orders import FieldPath, Order, OrderFile
from ..core.phases import State
from .context import TurnContext
from .ruleset import Game

P = TypeVar("P")
T = TypeVar("T")


class Reject(Exception):
    """An order that cannot be carried out as things stand: which field, what is wrong, how to fix it.

    ``failure`` words the same fact for the resolver, when it differs from what the player is told
    while writing orders ("army 1 no longer exists" rather than "you have no army '1'").
    """

    def __init__(self, field: FieldPath | None, message: str, hint: str = "", *, failure: str = "") -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.hint = hint
        self.failure = failure or message
        self.others: list[Reject] = []  # more problems found by the same reading, each with its own field


class Reading:
    """One faction's orders read against one view of the state; ``checked`` is the file being checked,
    or None when the resolver carries the orders out."""

    def __init__(self, game: Game, state: State, faction: str, checked: OrderFile | None = None) -> None:
        self.game, self.rules, self.state, self.faction = game, game.rules, state, faction
        self.checked = checked
        self.order: Order | None = None  # the order being read, for the warnings
        self.names_of = game.ruleset.names_of(game, state)

    def hint_among(self, word: str, kind: str, options: list[str]) -> str:
        """The fix for a word that names none of ``options``, ids of a ``kind`` of thing (see
        ``Ruleset.names``): the nearest id or name, and the choices with their names."""
        return named_hint(str(word), self.names_of(kind), options)

    @property
    def checking(self) -> bool:
        return self.checked is not None

    def warn(self, field: FieldPath | None, message: str, hint: str) -> None:
        """Something the player should know about an order that stands; at run time nobody is told."""
        if self.checked is not None:
            self.checked.warn(self.order, field, message, hint)

    def each(self, *reads: Callable[[], T]) -> tuple[T, ...]:
        """Read several independent things an order names (an army and a settlement), so that when more
        than one is wrong the player hears of all of them at once."""
        found, rejects = [], []
        for read in reads:
            try:
                found.append(read())
            except Reject as reject:
                rejects.append(reject)
        if rejects:
            rejects[0].others = rejects[1:]
            raise rejects[0]
        return tuple(found)

    def doubt(self, field: FieldPath | None, message: str, hint: str, *, failure: str) -> None:
        """A condition other factions' orders may still change: a warning now, a failure if it holds then."""
        if self.checking:
            self.warn(field, message, hint)
        else:
            raise Reject(field, failure)


def plan_or_error(of: OrderFile, reading: Reading, order: Order, read: Callable[[Order], P]) -> P | None:
    """At check time: the order's plan, or None with what is wrong reported on the order."""
    reading.order = order
    try:
        return read(order)
    except Reject as reject:
        for problem in [reject, *reject.others]:
            of.error(order, problem.field, problem.message, problem.hint)
        return None


def plan_or_failure(ctx: TurnContext, reading: Reading, order: Order, read: Callable[[Order], P]) -> P | None:
    """At run time: the order's plan, or None with an ``order_failed`` event telling its faction why."""
    reading.order = order
    try:
        return read(order)
    except Reject as reject:
        ctx.order_failed(reading.faction, order, reject.failure)
        return None
