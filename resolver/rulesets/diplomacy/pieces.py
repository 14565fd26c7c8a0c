"""The pieces of a Diplomacy phase as the adjudicator reads them: units on the board, the orders given to
them, and what became of each order.

Every module of the ruleset speaks in these types, so the notation reader, the checker, the adjudicator, the
DATC fixtures and the bot agree on one reading of an order. Locations are the board's ids: a province id
(``par``, ``nth``) or, for a fleet on a split coast, the province id with its coast (``stp/sc``,
``spa/nc``). An order names the unit it is given to by the province it stands in, without a coast: the
board holds at most one unit a province.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

UnitKind = Literal["army", "fleet"]  # written A and F
PhaseKind = Literal["movement", "retreat", "adjustment"]


@dataclass(frozen=True)
class Unit:
    power: str  # a power id: austria, england, france, germany, italy, russia, turkey
    kind: UnitKind
    location: str  # a province id, with the coast for a fleet on a split coast


# Orders of a movement phase. ``power`` is the power that wrote the order (an order for another power's
# unit is illegal); ``kind`` is the unit's kind as written (None when the writer left it out).


@dataclass(frozen=True)
class Hold:
    power: str
    unit: str
    kind: UnitKind | None = None


@dataclass(frozen=True)
class Move:
    power: str
    unit: str
    destination: str  # with the coast when the writer named one
    kind: UnitKind | None = None
    via_convoy: bool = False  # "via convoy" written: the army goes by sea even where it could walk


@dataclass(frozen=True)
class Support:
    power: str
    unit: str
    supported: str  # the province of the supported unit
    destination: str | None = None  # None supports the unit where it stands (a hold, a support, a convoy)
    kind: UnitKind | None = None
    supported_kind: UnitKind | None = None


@dataclass(frozen=True)
class Convoy:
    power: str
    unit: str  # the fleet
    army: str  # the province of the convoyed army
    destination: str
    kind: UnitKind | None = None


# Orders of a retreat phase: the unit named is a dislodged one.


@dataclass(frozen=True)
class Retreat:
    power: str
    unit: str
    destination: str
    kind: UnitKind | None = None


@dataclass(frozen=True)
class Disband:
    """A dislodged unit disbanded in a retreat phase, or a unit removed in an adjustment phase."""

    power: str
    unit: str
    kind: UnitKind | None = None


# Orders of an adjustment phase.


@dataclass(frozen=True)
class Build:
    power: str
    kind: UnitKind
    location: str  # with the coast for a fleet built on a split coast


@dataclass(frozen=True)
class Waive:
    """A build the power may make and chooses not to."""

    power: str


Order = Hold | Move | Support | Convoy | Retreat | Disband | Build | Waive


@dataclass(frozen=True)
class Resolution:
    """What became of one order. ``reason`` is a short word for why an order failed or was void, one of
    ``REASONS``; it is empty when the order succeeded."""

    order: Order
    succeeded: bool
    reason: str = ""


REASONS = (
    "illegal",  # the order breaks a rule of the game: the unit holds (the checker names the rule)
    "bounced",  # a move met equal or stronger strength
    "cut",  # a support cut by an attack on the supporter
    "dislodged",  # the unit was dislodged (its support or convoy fails with it)
    "no convoy",  # a convoyed move found no unbroken chain of fleets
    "void",  # a support or convoy whose supported or convoyed unit did something else
    "paradox",  # a convoy caught in a convoy paradox: by the Szykman rule the fleet holds instead
    "no retreat",  # a retreat to a place it may not go, or two retreats to the same place
    "no build",  # a build beyond the power's count, on an occupied or foreign centre
)


@dataclass(frozen=True)
class MovementOutcome:
    resolutions: tuple[Resolution, ...]  # one for each order given, in the order given
    units: tuple[Unit, ...]  # the units after the phase, dislodged ones excluded
    # province -> (the dislodged unit, the province its attacker came from)
    dislodged: dict[str, tuple[Unit, str]]
    contested: frozenset[str]  # provinces left empty by a standoff: nobody may retreat there
    # the provinces armies left by convoy this phase: a unit one of them dislodged may retreat to where it
    # came from (2023 rules; DATC 4.A.5, choice b), which a unit dislodged over land may not
    convoyed: frozenset[str] = frozenset()


@dataclass(frozen=True)
class PhaseOutcome:
    """The outcome of a retreat or an adjustment phase."""

    resolutions: tuple[Resolution, ...]
    units: tuple[Unit, ...]  # the units after the phase
