"""Diplomacy's orders in the project's order file: the action models, one reading of an order file's
entries into the orders of ``pieces.py`` (for the checker and the phases alike), and the checker.

Players write an order as the game's notation, a plain line under ``orders:``::

    orders:
      - A PAR - BUR
      - F NTH C A LON - NWY
      - A MUN S A BER - SIL
      - A VIE H

or the same as fields, one field naming what the unit does: ``{unit: A PAR, move: BUR}``, ``{unit: F NTH,
convoy: A LON - NWY}``, ``{unit: A MUN, support: A BER - SIL}``, ``{unit: A VIE, hold: true}``,
``{unit: A SER, retreat: ALB}``, ``{disband: A SER}``, ``{build: F STP/NC}``, ``{remove: A PAR}``,
``{waive: true}``. Neither form needs ``action:`` (the envelope reads the action from the form:
``ActionSpec.text_field`` and ``key_field``); a file may still write ``action: move`` and the fields.

Both forms are put back into one line of notation and read by ``notation.read_order``, so they cannot read
differently. A field form remembers which field each stretch of that line came from, so a word the reader
cannot read is reported in the field the player wrote it in, at its column.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.fields import ActionSpec, Field
from ...core.orders import Order as Written
from ...core.orders import OrderFile
from ...core.phases import State
from ...engine.ruleset import Game
from . import legality
from . import model as m
from .board import Board
from .notation import NotationError, read_order, write_order
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

TEXT = "order"  # the action (and its field) of an order written as notation

# The actions a phase takes: the notation in every phase, and the field forms that belong to it (a move
# written in a retreat phase is read as the retreat it can only be).
PHASE_ACTIONS: dict[PhaseKind, tuple[str, ...]] = {
    "movement": (TEXT, "hold", "move", "support", "convoy"),
    "retreat": (TEXT, "retreat", "move", "disband"),
    "adjustment": (TEXT, "build", "remove", "waive"),
}


def _unit_field(help_text: str = "The unit: its letter and its province, e.g. 'A PAR' or 'F NTH'.") -> Field:
    return Field("unit", "text", help_text, required=True, max_length=80)


def action_specs(rules: Mapping[str, Any]) -> dict[str, ActionSpec]:
    """The orders of every phase. Each field form is its own action, found by its key field; the plain
    notation is the action ``order``. The phase a form belongs to is checked by the reader, which names the
    phase it belongs to."""
    specs = [
        ActionSpec(
            TEXT,
            "An order in the game's notation, written as a line of its own: 'A PAR - BUR', 'A VIE H', "
            "'A MUN S A BER - SIL', 'F NTH C A LON - NWY'; in retreats 'A SER - ALB' or 'A SER DISBAND'; in "
            "winter 'BUILD F STP/NC', 'REMOVE A PAR' or 'WAIVE'.",
            (
                Field(
                    TEXT,
                    "text",
                    "The order in notation: unit letter (A or F), province, then what it does.",
                    required=True,
                    max_length=200,
                ),
            ),
            example={TEXT: "A PAR - BUR"},
            text_field=TEXT,
            key_field=TEXT,
        ),
        ActionSpec(
            "hold",
            "The unit stays where it is (movement). A unit given no order holds as well.",
            (_unit_field(), Field("hold", "bool", "true: the unit holds.", required=True)),
            example={"unit": "A VIE", "hold": True},
            key_field="hold",
        ),
        ActionSpec(
            "move",
            "The unit moves to a province next to it, or an army goes by convoy (movement; in a retreat "
            "phase the dislodged unit retreats there).",
            (
                _unit_field(),
                Field("move", "text", "Where it goes, e.g. 'BUR' or 'SPA/NC'.", required=True, max_length=80),
                Field("via_convoy", "bool", "true: the army goes by convoy even where it could walk."),
            ),
            example={"unit": "A PAR", "move": "BUR"},
            key_field="move",
        ),
        ActionSpec(
            "support",
            "The unit supports another unit holding where it stands, or moving to a province the supporter "
            "could move to itself (movement).",
            (
                _unit_field(),
                Field(
                    "support",
                    "text",
                    "The supported unit, and '- PROVINCE' for a move: 'A BER - SIL', or 'A BER'.",
                    required=True,
                    max_length=120,
                ),
            ),
            example={"unit": "A MUN", "support": "A BER - SIL"},
            key_field="support",
        ),
        ActionSpec(
            "convoy",
            "A fleet at sea carries an army from one coast to another (movement).",
            (
                _unit_field("The convoying fleet, e.g. 'F NTH'."),
                Field(
                    "convoy",
                    "text",
                    "The army and where it goes: 'A LON - NWY'.",
                    required=True,
                    max_length=120,
                ),
            ),
            example={"unit": "F NTH", "convoy": "A LON - NWY"},
            key_field="convoy",
        ),
        ActionSpec(
            "retreat",
            "A dislodged unit retreats to a province next to it (retreats).",
            (
                _unit_field("The dislodged unit, e.g. 'A SER'."),
                Field("retreat", "text", "Where it retreats, e.g. 'ALB'.", required=True, max_length=80),
            ),
            example={"unit": "A SER", "retreat": "ALB"},
            key_field="retreat",
        ),
        ActionSpec(
            "disband",
            "A dislodged unit is disbanded instead of retreating (retreats).",
            (Field("disband", "text", "The unit, e.g. 'A SER'.", required=True, max_length=80),),
            example={"disband": "A SER"},
            key_field="disband",
        ),
        ActionSpec(
            "build",
            "A new unit on one of your own home supply centres, owned and empty (winter).",
            (
                Field(
                    "build",
                    "text",
                    "The unit to build: 'A PAR', or a fleet with its coast where there are two: 'F STP/NC'.",
                    required=True,
                    max_length=80,
                ),
            ),
            example={"build": "F STP/NC"},
            key_field="build",
        ),
        ActionSpec(
            "remove",
            "One of your units leaves the board, when you have more units than supply centres (winter).",
            (Field("remove", "text", "The unit, e.g. 'A PAR'.", required=True, max_length=80),),
            example={"remove": "A PAR"},
            key_field="remove",
        ),
        ActionSpec(
            "waive",
            "A build you may make and choose not to (winter).",
            (Field("waive", "bool", "true: one build is waived.", required=True),),
            example={"waive": True},
            key_field="waive",
        ),
    ]
    return {spec.name: spec for spec in specs}


# --- reading ---------------------------------------------------------------------------------------------


class Unreadable(ValueError):
    """An order the notation cannot read, located in what the player wrote: ``field`` is the order's field
    the bad word is in, ``index`` its 0-based offset inside that field's text."""

    def __init__(self, field: str, index: int, problem: str, fix: str) -> None:
        super().__init__(f"{field}, character {index + 1}: {problem}; {fix}")
        self.field, self.index, self.problem, self.fix = field, index, problem, fix


@dataclass(frozen=True)
class _Piece:
    """A stretch of the line of notation an order is read as: its text and the field it came from (a
    field's own text, or a word the form stands for, charged to the field that says it)."""

    text: str
    field: str
    literal: bool = False


def _line(written: Written) -> list[_Piece]:
    """An entry of the order file as the line of notation it stands for, in pieces."""
    args, action = written.args, written.action

    def said(field: str) -> _Piece:
        return _Piece(str(args[field]).strip(), field)

    def word(text: str, field: str) -> _Piece:
        return _Piece(text, field, literal=True)

    if action == TEXT:
        return [said(TEXT)]
    if action == "hold":
        return [said("unit"), word(" H", "hold")]
    if action == "move":
        via = [word(" VIA CONVOY", "via_convoy")] if args.get("via_convoy") else []
        return [said("unit"), word(" - ", "move"), said("move"), *via]
    if action in ("support", "convoy"):
        return [said("unit"), word(" S " if action == "support" else " C ", action), said(action)]
    if action == "retreat":
        return [said("unit"), word(" R ", "retreat"), said("retreat")]
    if action in ("disband", "remove", "build"):
        return [word(f"{action.upper()} ", action), said(action)]
    return [word("WAIVE", "waive")]


def _false_flag(written: Written) -> str:
    """The field of a yes-or-no form written false ('hold: false'), which orders nothing."""
    for flag in ("hold", "waive"):
        if written.action == flag and written.args.get(flag) is False:
            return flag
    return ""


def read_one(board: Board, power: str, written: Written, phase: PhaseKind) -> Order:
    """One entry of ``power``'s order file, read for ``phase``. Raises ``Unreadable``."""
    flag = _false_flag(written)
    if flag:
        raise Unreadable(
            flag, 0, f"'{flag}: false' gives no order", f"write '{flag}: true', or leave the order out"
        )
    pieces = _line(written)
    text = "".join(piece.text for piece in pieces)
    try:
        order = read_order(board, power, text, phase)
    except NotationError as error:
        field, index = _locate(pieces, error.column - 1)
        raise Unreadable(field, index, error.problem, error.fix) from None
    if written.action != TEXT and "unit" in written.args:
        _unit_alone(board, power, str(written.args["unit"]).strip())
    return order


def _locate(pieces: Sequence[_Piece], offset: int) -> tuple[str, int]:
    """The field and the offset inside it of a character of the whole line (past the end: the last
    field's end)."""
    start = 0
    for piece in pieces:
        if offset < start + len(piece.text):
            return piece.field, 0 if piece.literal else offset - start
        start += len(piece.text)
    last = next((piece for piece in reversed(pieces) if not piece.literal), pieces[-1])
    return last.field, 0 if last.literal else len(last.text)


def _unit_alone(board: Board, power: str, unit: str) -> None:
    """A field form's ``unit`` names a unit and nothing more ('A PAR', not 'A PAR - BUR'): what it does is
    the other field's to say."""
    try:
        order = read_order(board, power, f"{unit} H", "movement")
    except NotationError as error:
        if error.column - 1 < len(unit):
            raise Unreadable("unit", error.column - 1, error.problem, error.fix) from None
        order = None
    if not isinstance(order, Hold):
        raise Unreadable(
            "unit",
            0,
            f"'unit' names a unit, and {unit!r} says more",
            "write the unit's letter and province alone, e.g. 'A PAR', and what it does in the other field",
        )


def read_orders(game: Game, state: State, faction: str, orders: Sequence[Written]) -> list[Order]:
    """The orders of ``faction``'s checked file, read for the phase ``state`` is in, in the file's order:
    what the phases hand the adjudicator. An entry the checker would refuse as unreadable is left out (the
    resolver takes only checked files, so there is none); an illegal order is kept, for the adjudicator to
    resolve as illegal (the unit holds)."""
    board, phase = m.board(game), m.phase_kind(state)
    found = []
    for written in orders:
        try:
            found.append(read_one(board, faction, written, phase))
        except Unreadable:
            continue
    return found


# --- checking --------------------------------------------------------------------------------------------

# How to put right an order that breaks each rule (legality's, retreats' and adjustments' rule phrases).
FIXES = {
    legality.NO_UNIT: "order one of your own units; the template lists them",
    legality.NOT_YOURS: "order only your own units; you may support another power's unit",
    legality.WRONG_PHASE: "in a movement phase a unit holds, moves, supports or convoys",
    legality.SAME_PLACE: "move it to another province, or order it to hold",
    legality.NOT_ADJACENT: "move to a province next to it, or convoy an army across the sea",
    legality.FLEET_INLAND: "move the fleet along a coast or at sea, or move an army inland",
    legality.ARMY_AT_SEA: "move the army over land, or have fleets at sea convoy it to another coast",
    legality.COAST_NEEDED: "name the coast: e.g. 'SPA/NC' or 'SPA/SC'",
    legality.COAST_UNREACHABLE: "name the coast the fleet can reach",
    legality.NO_CONVOY_ROUTE: "move it over land, or put fleets at sea between the two coasts first",
    legality.FLEET_CONVOYED: "leave out 'via convoy': a fleet moves on its own",
    legality.SUPPORT_OUT_OF_REACH: "support with a unit that could move to that province itself",
    legality.SUPPORT_OWN_PLACE: "support another unit, or hold",
    legality.SUPPORTED_MOVE_IMPOSSIBLE: "support a move the supported unit can make",
    legality.SUPPORT_OF_NOTHING: "name the province of the unit you support",
    legality.CONVOY_BY_ARMY: "only a fleet at sea convoys: order the army to move",
    legality.CONVOY_FROM_COAST: "move the fleet to sea first; from a coast it cannot convoy",
    legality.CONVOY_OF_FLEET: "convoy an army, or order the fleet to move",
    legality.CONVOY_OF_NOTHING: "name the province of the army you convoy",
    legality.CONVOY_NOT_NEEDED: "convoy only along a chain of fleets at sea between the two coasts",
    legality.TWO_ORDERS: "keep one order for the unit and remove the other",
    legality.UNKNOWN_PLACE: "name a province on the map",
}
RETREAT_FIXES = {
    "not a retreat order": "in a retreat phase a dislodged unit retreats (A SER - ALB) or disbands",
    "not dislodged": "order only your dislodged units; the template lists them",
    "not yours": "order only your own dislodged units",
    "out of reach": "retreat to a province next to the unit; the template lists where it may go",
    "occupied": "retreat to an empty province; the template lists where it may go",
    "standoff": "retreat elsewhere: a province left empty by a standoff is closed to retreats",
    "attacker's origin": "retreat elsewhere: the unit cannot go back where its attacker came from",
}
ADJUSTMENT_FIXES = {
    "not an adjustment order": "in winter a power builds (BUILD A PAR), removes (REMOVE A PAR) or waives",
    "no builds due": "build only when you own more supply centres than you have units",
    "no removals due": "remove a unit only when you have more units than supply centres",
    "not a home centre": "build on one of your home supply centres; the template lists them",
    "not owned": "build only on a home centre you still own",
    "occupied": "build on an empty home centre",
    "fleet inland": "build an army there, or a fleet on a coast",
    "coast needed": "name the coast: e.g. 'BUILD F STP/NC'",
    "no unit": "remove one of your own units; the template lists them",
    "not yours": "remove only your own units",
}
TWO_ORDERS_HERE = "two orders for one unit"


def _context(state: State, phase: PhaseKind) -> dict[str, Any]:
    """What ``legality.problem`` needs of the phase besides the units."""
    if phase == "retreat":
        movement = m.movement_outcome(state)
        return {"movement": movement if movement is not None else _no_movement(state)}
    if phase == "adjustment":
        return {"owners": m.owners(state)}
    return {}


def _no_movement(state: State) -> MovementOutcome:
    return MovementOutcome((), m.units(state), {}, frozenset())


def _fix(rule: str, phase: PhaseKind) -> str:
    table = {"movement": FIXES, "retreat": RETREAT_FIXES, "adjustment": ADJUSTMENT_FIXES}[phase]
    return table.get(rule) or FIXES.get(rule) or "change the order, or remove it: the unit then holds"


def _unit_key(board: Board, order: Order) -> str | None:
    """The province of the unit an order is for (a build: the province built in), to find two orders
    for one unit; a waiver is for no unit."""
    if isinstance(order, Build):
        return board.province(order.location)
    return None if isinstance(order, Waive) else board.province(order.unit)


def check_orders(game: Game, state: State, of: OrderFile) -> None:
    """Each order read (an unreadable word: an error at its column with the fix), judged by the rules of
    the phase (the rule and the province named), and echoed in notation and in words."""
    board, phase, power = m.board(game), m.phase_kind(state), of.faction or ""
    units = m.units(state)
    read: list[tuple[Written, Order]] = []
    for written in of.orders:
        try:
            read.append((written, read_one(board, power, written, phase)))
        except Unreadable as bad:
            of.echo[written.number] = "".join(piece.text for piece in _line(written))  # as written
            of.error_in_text(written, bad.field, bad.index, bad.problem, bad.fix)
    context = _context(state, phase)
    found = list(legality.problems(board, units, [order for _, order in read], phase, **context))
    if phase == "retreat":
        _two_orders_for_one_unit(board, read, found)
    for (written, order), problem in zip(read, found, strict=True):
        field = _field_of(written)
        # Echoed as understood even when refused, so the player sees the reading the rule was judged on.
        of.echo[written.number] = echo(board, units, order, phase, context)
        if problem is not None:
            of.error(written, field, problem.message, f"{_fix(problem.rule, phase)} (rule: {problem.rule})")
            continue
        if phase == "movement":
            for note in legality.notes(board, units, order):
                of.warn(written, field, note, "write the unit's letter as it stands on the board")
    if phase == "adjustment":
        _count_adjustments(board, units, context["owners"], power, of, read, found)


def _field_of(written: Written) -> str:
    """Where an order's rule problem is shown: on the unit it orders, or the field that says it all."""
    if "unit" in written.args:
        return "unit"
    return written.action if written.action in written.args else TEXT


def _two_orders_for_one_unit(
    board: Board, read: Sequence[tuple[Written, Order]], found: list[legality.Problem | None]
) -> None:
    """In a retreat phase, two different orders for one dislodged unit: both refused, as the retreat
    adjudication ignores both (DATC 4.D.3, choice c); the same order twice is one order."""
    by_unit: dict[str, list[int]] = {}
    for index, (_, order) in enumerate(read):
        key = _unit_key(board, order)
        if key is not None and found[index] is None:
            by_unit.setdefault(key, []).append(index)
    for province, indices in by_unit.items():
        if len({read[index][1] for index in indices}) < 2:
            continue
        for index in indices:
            found[index] = legality.Problem(
                TWO_ORDERS_HERE,
                f"The unit dislodged from {board.name(province)} is given {len(indices)} different orders, "
                "so neither would be followed and it would be disbanded.",
            )


def _count_adjustments(
    board: Board,
    units: Sequence[Unit],
    owners: Mapping[str, str],
    power: str,
    of: OrderFile,
    read: Sequence[tuple[Written, Order]],
    found: Sequence[legality.Problem | None],
) -> None:
    """Adjustment orders are taken one by one and the first legal ones count (DATC 4.D.4 to 4.D.6): a
    second order for one province, or orders beyond the builds or removals due, will fail. Warned, not
    refused, since the earlier orders stand."""
    seen: dict[str, int] = {}
    counted: list[Written] = []  # the legal orders that use up a build or a removal, if any is left
    for (written, order), problem in zip(read, found, strict=True):
        key = _unit_key(board, order)
        if problem is not None:
            continue
        if key is None or key not in seen:
            counted.append(written)
        if key is None:
            continue
        if key in seen:
            of.warn(
                written,
                _field_of(written),
                f"order {seen[key]} already builds in or removes from {board.name(key)}: this one will fail",
                "remove this order",
            )
        else:
            seen[key] = written.number
    owed = sum(1 for owner in owners.values() if owner == power) - sum(1 for u in units if u.power == power)
    due = abs(owed)
    for written in counted[due:]:
        what = "build" if owed > 0 else "removal"
        of.warn(
            written,
            _field_of(written),
            f"{board.power_name(power)} is due {due} {what}{'' if due == 1 else 's'} this winter, and this "
            "order is beyond them: it will fail",
            "remove this order, or another before it",
        )


# --- the echo --------------------------------------------------------------------------------------------

_ARTICLE = {"army": "the army", "fleet": "the fleet"}


def echo(
    board: Board, units: Sequence[Unit], order: Order, phase: PhaseKind, context: Mapping[str, Any]
) -> str:
    """The order as the engine understood it: the canonical notation, then in words with full names
    ('A PAR - BUR: the army in Paris moves to Burgundy')."""
    return f"{canonical(board, order, phase)}: {in_words(board, units, order, context)}"


def canonical(board: Board, order: Order, phase: PhaseKind) -> str:
    """The order in the short notation, with the unit's letter and, in winter, a removal as 'REMOVE'."""
    if phase == "adjustment" and isinstance(order, Disband):
        kind = f"{'AF'[order.kind == 'fleet']} " if order.kind else ""
        return f"REMOVE {kind}{order.unit.upper()}"
    return write_order(board, order)


def in_words(board: Board, units: Sequence[Unit], order: Order, context: Mapping[str, Any]) -> str:
    """The order in a sentence, every place by its full name."""
    standing = {board.province(unit.location): unit for unit in units}
    movement = context.get("movement")
    if movement is not None:
        standing.update({province: unit for province, (unit, _) in movement.dislodged.items()})

    def unit(province: str, kind: UnitKind | None = None) -> str:
        found = standing.get(province)
        where = board.name(found.location if found else province)
        return f"{_ARTICLE.get(found.kind if found else kind or '', 'the unit')} in {where}"

    match order:
        case Hold():
            return f"{unit(order.unit, order.kind)} holds"
        case Move():
            by = " by convoy" if order.via_convoy else ""
            return f"{unit(order.unit, order.kind)} moves to {board.name(order.destination)}{by}"
        case Support() if order.destination is None:
            supported = unit(order.supported, order.supported_kind)
            return f"{unit(order.unit, order.kind)} supports {supported} where it stands"
        case Support():
            supported = unit(order.supported, order.supported_kind)
            return (
                f"{unit(order.unit, order.kind)} supports {supported} "
                f"moving to {board.name(order.destination or '')}"
            )
        case Convoy():
            return (
                f"{unit(order.unit, order.kind)} convoys {unit(order.army, 'army')} "
                f"to {board.name(order.destination)}"
            )
        case Retreat():
            return f"{unit(order.unit, order.kind)} retreats to {board.name(order.destination)}"
        case Disband():
            return f"{unit(order.unit, order.kind)} is disbanded"
        case Build():
            article = "an army" if order.kind == "army" else "a fleet"
            return f"{article} is built in {board.name(order.location)}"
        case Waive():
            return "one build is waived"
    raise TypeError(f"not an order: {order!r}")


# --- the template ----------------------------------------------------------------------------------------


def orderable(game: Game, state: State, faction: str) -> list[str]:
    """The actions of the phase the next turn plays, for the template's list."""
    return list(PHASE_ACTIONS[m.phase_kind(state)])


def _letter(kind: UnitKind) -> str:
    return "A" if kind == "army" else "F"


def _short(unit: Unit) -> str:
    return f"{_letter(unit.kind)} {unit.location.upper()}"


def _places(board: Board, locations: Sequence[str]) -> str:
    return ", ".join(f"{place.upper()} ({board.name(place)})" for place in locations)


def unit_lines(game: Game, state: State, faction: str) -> list[str]:
    """What each of the power's units may do this phase, in notation, for the template a player starts
    from: the moves of each unit in a movement phase, the retreats of each dislodged unit, the builds or
    removals due in winter."""
    board, phase = m.board(game), m.phase_kind(state)
    own = [unit for unit in m.units(state) if unit.power == faction]
    if phase == "movement":
        return [line for unit in own for line in _movement_lines(board, m.units(state), unit)] or [
            "You have no unit on the board."
        ]
    if phase == "retreat":
        return _retreat_lines(board, state, faction)
    return _adjustment_lines(board, state, faction, own)


def _movement_lines(board: Board, units: Sequence[Unit], unit: Unit) -> list[str]:
    here = f"{_short(unit)} ({board.name(unit.location)})"
    moves = list(board.locations_next_to(unit.kind, unit.location))
    if unit.kind == "army":
        moves = [place for place in moves if board.kind(board.province(place)) != "sea"]
    lines = [f"{here}: hold ({_short(unit)} H), or move ({_short(unit)} - ...) to {_places(board, moves)}"]
    reach = {board.province(place) for place in moves}
    helped = [
        other
        for other in units
        if other != unit and (board.province(other.location) in reach or _reaches_any(board, other, reach))
    ]
    if helped:
        lines.append(
            f"  or support ({_short(unit)} S ...) one of {', '.join(_short(other) for other in helped)} "
            "holding or moving into one of those places"
        )
    if unit.kind == "fleet" and board.kind(board.province(unit.location)) == "sea":
        lines.append(f"  or convoy an army across this sea ({_short(unit)} C A ... - ...)")
    return lines


def _reaches_any(board: Board, other: Unit, reach: set[str]) -> bool:
    """Whether ``other`` could move into one of the provinces in ``reach`` (so it may be supported there)."""
    return any(
        board.reaches(other.kind, other.location, province)
        for province in reach
        if province != board.province(other.location)
    )


def _retreat_lines(board: Board, state: State, faction: str) -> list[str]:
    movement = m.movement_outcome(state)
    if movement is None:
        return ["You have no dislodged unit."]
    lines = []
    for province, (unit, _) in sorted(movement.dislodged.items()):
        if unit.power != faction:
            continue
        places = [
            place
            for place in board.locations_next_to(unit.kind, unit.location)
            if retreat_problem(board, movement, Retreat(faction, province, place)) is None
        ]
        where = f"retreat ({_short(unit)} - ...) to {_places(board, places)}, or " if places else ""
        lines.append(
            f"{_short(unit)} ({board.name(unit.location)}) was dislodged: "
            f"{where}disband ({_short(unit)} DISBAND)"
        )
    return lines or ["You have no dislodged unit: nothing to order this phase."]


def _builds_open(board: Board, state: State, faction: str) -> list[str]:
    """Every build the power could order now, in notation."""
    owners, units = m.owners(state), m.units(state)
    found = []
    for home in board.home_centres(faction):
        for kind, places in (("army", (home,)), ("fleet", board.fleet_locations(home))):
            for place in places:
                build = Build(faction, kind, place)  # type: ignore[arg-type]
                if legality.problem(board, units, build, "adjustment", owners=owners) is None:
                    found.append(f"BUILD {_letter(kind)} {place.upper()}")  # type: ignore[arg-type]
    return found


def _owed(state: State, faction: str) -> tuple[int, int]:
    """The power's supply centres and units."""
    centres = sum(1 for owner in m.owners(state).values() if owner == faction)
    return centres, sum(1 for unit in m.units(state) if unit.power == faction)


def _adjustment_lines(board: Board, state: State, faction: str, own: Sequence[Unit]) -> list[str]:
    centres, count = _owed(state, faction)
    counted = f"You own {centres} supply centres and have {count} units"
    if centres > count:
        builds = _builds_open(board, state, faction)
        where = ", ".join(builds) if builds else "none: no home centre of yours is owned and empty"
        return [f"{counted}: you may build {centres - count} (or WAIVE). Builds open: {where}"]
    if centres < count:
        return [
            f"{counted}: remove {count - centres}, from "
            + ", ".join(f"REMOVE {_short(unit)}" for unit in own),
            "Units you do not remove are chosen by the rules (the farthest from your centres first).",
        ]
    return [f"{counted}: nothing to build or remove."]


def order_examples(game: Game, state: State, faction: str) -> list[Any]:
    """Orders for the template's example, naming the power's own units: the notation, and a field form."""
    board, phase = m.board(game), m.phase_kind(state)
    own = [unit for unit in m.units(state) if unit.power == faction]
    if phase == "movement":
        if not own:
            return []
        first = own[0]
        moves = [
            place
            for place in board.locations_next_to(first.kind, first.location)
            if first.kind == "fleet" or board.kind(board.province(place)) != "sea"
        ]
        examples: list[Any] = [f"{_short(first)} - {moves[0].upper()}" if moves else f"{_short(first)} H"]
        if len(own) > 1:
            examples.append({"unit": _short(own[1]), "hold": True})
        return examples
    if phase == "retreat":
        movement = m.movement_outcome(state)
        mine = [
            unit for unit, _ in (movement.dislodged.values() if movement else ()) if unit.power == faction
        ]
        return [f"{_short(mine[0])} DISBAND"] if mine else []
    centres, count = _owed(state, faction)
    if centres > count:
        return [*_builds_open(board, state, faction)[:1], "WAIVE"]
    return [f"REMOVE {_short(own[0])}"] if own and centres < count else []
