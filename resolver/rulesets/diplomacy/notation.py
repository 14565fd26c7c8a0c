"""Orders as text: the long form the DATC and the rulebook print (``F North Sea Convoys A London - Norway``)
and the short form players type (``F NTH C A LON - NWY``), read into the pieces of ``pieces.py`` and written
back in the short form.

The reader is about words only: it names the column of the first thing it cannot read, what is wrong there
and how to write it. Whether the order is possible on the board (a fleet in Paris, a move to a place too
far, an order for a unit that is not there) is for the checker (``legality``), which knows the position. A
few orders are read as the DATC prefers where a writer left something out: no unit letter (4.C.1), a
nationality in a support (4.C.5, ignored), a convoy path (4.A.6, ignored: the last place is the
destination), a build without a unit letter (4.C.3: an army inland, a fleet on a named coast).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.words import series
from .board import Board, UnknownPlace
from .pieces import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    PhaseKind,
    Retreat,
    Support,
    Unit,
    UnitKind,
    Waive,
)


class NotationError(ValueError):
    """An order the reader cannot read: ``column`` is 1-based into the text, ``problem`` says what is wrong
    there and ``fix`` how to write it."""

    def __init__(self, column: int, problem: str, fix: str) -> None:
        self.column = column
        self.problem = problem
        self.fix = fix
        super().__init__(f"column {column}: {problem}; {fix}")


KINDS: dict[str, UnitKind] = {"a": "army", "army": "army", "f": "fleet", "fleet": "fleet"}
HOLD = {"h", "hold", "holds", "stand", "stands"}
MOVE = {"-", "->", "→", "=>", "m", "move", "moves"}
SUPPORT = {"s", "support", "supports", "sup", "supp"}
CONVOY = {"c", "convoy", "convoys"}
RETREAT = {"r", "retreat", "retreats"}
DISBAND = {"d", "disband", "disbands", "remove", "removes"}
BUILD = {"b", "build", "builds"}
WAIVE = {"waive", "waives"}
VIA = {"via", "by"}
# A word that ends a place name: what follows a place in any order.
STOPS = HOLD | MOVE | SUPPORT | CONVOY | RETREAT | DISBAND | BUILD | VIA | {"to"}
LONGEST_NAME = 8  # tokens in the longest place a writer may spell out: "St. Petersburg ( north coast )"
# Words, and the signs that stand alone: brackets, a slash, a comma, a hyphen and the arrows.
_TOKEN = re.compile(r"->|=>|→|[()/,\-]|[^\s()/,\-→=]+|=")
_SEPARATORS = {"(", ")", "/", ",", "-", "->", "=>", "→", "="}
PHASE_WORDS = {"movement": "a movement phase", "retreat": "a retreat phase", "adjustment": "the adjustments"}


@dataclass(frozen=True)
class _Token:
    text: str
    start: int  # 0-based offset into the order's text

    @property
    def word(self) -> str:
        return self.text.casefold()


class _Reader:
    """One order's tokens and a cursor over them."""

    def __init__(self, board: Board, text: str) -> None:
        self.board = board
        self.text = text
        self.tokens = [_Token(match.group(), match.start()) for match in _TOKEN.finditer(text)]
        self.at = 0

    # --- the cursor ---------------------------------------------------------------------------------

    def word(self) -> str:
        return self.tokens[self.at].word if self.at < len(self.tokens) else ""

    def column(self) -> int:
        if self.at < len(self.tokens):
            return self.tokens[self.at].start + 1
        return len(self.text.rstrip()) + 1 if self.text.strip() else 1

    def done(self) -> bool:
        return self.at >= len(self.tokens)

    def take(self, words: set[str]) -> bool:
        if self.word() in words:
            self.at += 1
            return True
        return False

    def end(self, fix: str = "end the order there: one order a line") -> None:
        if not self.done():
            raise NotationError(
                self.column(), f"{self.tokens[self.at].text!r} is more than the order says", fix
            )

    # --- the parts of an order ----------------------------------------------------------------------

    def kind(self) -> UnitKind | None:
        kind = KINDS.get(self.word())
        if kind is not None:
            self.at += 1
        return kind

    def nationality(self) -> None:
        """Skip a nationality written before a supported or convoyed unit (DATC 4.C.5: it is ignored)."""
        board = self.board
        names = {board.power_adjective(power).casefold() for power in board.powers}
        names |= {board.power_name(power).casefold() for power in board.powers}
        if self.word() in names and KINDS.get(
            self.tokens[self.at + 1].word if self.at + 1 < len(self.tokens) else ""
        ):
            self.at += 1

    def place(self, what: str) -> str:
        """The location spelled from the cursor, the longest spelling the board reads."""
        if self.done() or self.word() in _SEPARATORS or self.word() in STOPS:
            raise NotationError(
                self.column(), f"{what} is missing here", "write a province's name or its abbreviation"
            )
        first = self.tokens[self.at]
        last = self.at + 1
        while last < min(len(self.tokens), self.at + LONGEST_NAME) and not self.ends_name(last):
            last += 1
        for stop in range(last, self.at, -1):
            if self.tokens[stop - 1].text in {"-", "(", "/", ","}:
                continue  # a name never ends in a sign that joins it to what follows
            span = self.text[first.start : self.tokens[stop - 1].start + len(self.tokens[stop - 1].text)]
            try:
                location = self.board.lookup(span)
            except UnknownPlace:
                continue
            self.at = stop
            self.no_coast_left(first)
            return location
        raise self._unknown(first, last)

    def no_coast_left(self, first: _Token) -> None:
        """After a place, a bracket or a slash the board did not read is a coast it does not know: say so
        there, rather than call the bracket an order."""
        if self.word() not in {"(", "/"}:
            return
        stop = self.at + 1
        while stop < len(self.tokens) and self.tokens[stop - 1].text != ")" and not self.ends_name(stop):
            stop += 1
            if self.tokens[self.at].text == "/":
                break
        span = self.text[first.start : self.tokens[stop - 1].start + len(self.tokens[stop - 1].text)]
        try:
            self.board.lookup(span)
        except UnknownPlace as unknown:
            fix = (
                f"did you mean {series(list(unknown.names), 'or')}?"
                if unknown.names
                else "leave out the coast"
            )
            raise NotationError(self.column(), unknown.problem, fix) from None

    def ends_name(self, index: int) -> bool:
        """Whether the token at ``index`` cannot be part of the place before it: an arrow, or a hyphen
        with a space on either side (``Mid-Atlantic`` holds one, ``Rome - Venice`` is a move)."""
        token = self.tokens[index]
        if token.text in {"->", "=>", "→", "="}:
            return True
        if token.text != "-":
            return False
        before = self.text[token.start - 1] if token.start else " "
        after = self.text[token.start + 1] if token.start + 1 < len(self.text) else " "
        return before.isspace() or after.isspace()

    def _unknown(self, first: _Token, last: int) -> NotationError:
        """The error for a place the board does not read, spelled from ``first`` up to the next word that
        follows a place in an order."""
        stop = self.at + 1
        while stop < last and self.tokens[stop].word not in STOPS - {"-"}:
            stop += 1
        span = self.text[first.start : self.tokens[stop - 1].start + len(self.tokens[stop - 1].text)]
        try:
            self.board.lookup(span)
        except UnknownPlace as unknown:
            if unknown.names:
                return NotationError(
                    first.start + 1, unknown.problem, f"did you mean {series(list(unknown.names), 'or')}?"
                )
            return NotationError(
                first.start + 1, unknown.problem, "write a province's name or its three-letter abbreviation"
            )
        return NotationError(first.start + 1, f"cannot read {span!r} as a place", "write one place here")


def _did_you_mean(unknown: UnknownPlace) -> str:
    return "did you mean " + series(list(unknown.names), "or") + "?"


def read_order(board: Board, power: str, text: str, phase: PhaseKind) -> Order:
    """The order a power wrote, read for the phase it was written in. Raises ``NotationError``."""
    reader = _Reader(board, text)
    if reader.done():
        raise NotationError(1, "the order is empty", _what_to_write(phase))
    if reader.word() in WAIVE:
        _phase(reader, phase, {"adjustment"}, "a build is waived")
        reader.at += 1
        reader.take(BUILD)
        reader.end()
        return Waive(power)
    if reader.word() in BUILD:
        _phase(reader, phase, {"adjustment"}, "a unit is built")
        reader.at += 1
        kind = reader.kind()
        location = reader.place("the place to build in")
        reader.end()
        return _build(board, power, kind, location, reader)
    if reader.word() in DISBAND:
        _phase(reader, phase, {"retreat", "adjustment"}, "a unit is disbanded")
        reader.at += 1
        kind = reader.kind()
        unit = board.province(reader.place("the unit to disband"))
        reader.end()
        return Disband(power, unit, kind)
    kind = reader.kind()
    unit_column = reader.column()
    location = reader.place("the unit's place")
    unit = board.province(location)
    if reader.done():
        raise NotationError(
            reader.column(), f"the order says nothing after {text.strip()!r}", _what_to_write(phase)
        )
    action_column, action = reader.column(), reader.word()
    if reader.take(HOLD):
        _phase_at(action_column, phase, {"movement", "retreat"}, "a unit holds")
        reader.end()
        return Hold(power, unit, kind)
    if reader.take(MOVE) or reader.take(RETREAT):
        if action in RETREAT:
            _phase_at(action_column, phase, {"retreat"}, "a unit retreats")
        else:
            _phase_at(action_column, phase, {"movement", "retreat"}, "a unit moves")
        reader.take(MOVE | {"to"})
        destination = reader.place("the destination")
        while reader.take(MOVE):  # a convoy's path (DATC 4.A.6): read, and only the last place counts
            destination = reader.place("the destination")
        via_column = reader.column()
        via_convoy = _via_convoy(reader)
        reader.end()
        if phase == "retreat":
            if via_convoy:
                raise NotationError(
                    via_column, "a retreating unit is never convoyed", "leave out 'via convoy'"
                )
            return Retreat(power, unit, destination, kind)
        return Move(power, unit, destination, kind, via_convoy)
    if reader.take(SUPPORT):
        _phase_at(action_column, phase, {"movement", "retreat"}, "a unit supports")
        reader.nationality()
        supported_kind = reader.kind()
        supported = board.province(reader.place("the supported unit"))
        destination = None
        if reader.take(MOVE):
            reader.take({"to"})
            destination = reader.place("where the supported unit goes")
        else:
            reader.take(HOLD)
        reader.end()
        return Support(power, unit, supported, destination, kind, supported_kind)
    if reader.take(CONVOY):
        _phase_at(action_column, phase, {"movement", "retreat"}, "a fleet convoys")
        reader.nationality()
        army_column = reader.column()
        if reader.kind() == "fleet":
            raise NotationError(army_column, "only an army is convoyed", "write A before the convoyed army")
        army = board.province(reader.place("the convoyed army"))
        if not reader.take(MOVE):
            raise NotationError(
                reader.column(), "a convoy names where the army goes", "write - and the army's destination"
            )
        reader.take({"to"})
        destination = reader.place("where the army goes")
        reader.end()
        return Convoy(power, unit, army, destination, kind)
    if reader.take(DISBAND):
        _phase_at(action_column, phase, {"retreat", "adjustment"}, "a unit is disbanded")
        reader.end()
        return Disband(power, unit, kind)
    if reader.take(BUILD):
        _phase_at(action_column, phase, {"adjustment"}, "a unit is built")
        reader.end()
        return _build(board, power, kind, location, reader, unit_column)
    raise NotationError(
        action_column, f"{reader.tokens[reader.at].text!r} is not an order", _what_to_write(phase)
    )


def _via_convoy(reader: _Reader) -> bool:
    if not reader.take(VIA):
        return False
    if not reader.take({"convoy", "sea"}):
        raise NotationError(reader.column(), "'via' says how the army goes", "write 'via convoy'")
    return True


def _build(
    board: Board, power: str, kind: UnitKind | None, location: str, reader: _Reader, column: int = 0
) -> Build:
    """A build, its unit read as the DATC prefers where the letter is left out (4.C.3): an army in an
    inland province, a fleet where a coast is named; elsewhere the writer must say which."""
    if kind is None:
        if board.kind(location) == "land":
            kind = "army"
        elif board.coast(location):
            kind = "fleet"
        else:
            name = board.name(location)
            raise NotationError(
                column or 1,
                f"the build does not say whether it is an army or a fleet in {name}",
                f"write 'Build A {name}' or 'Build F {name}'",
            )
    return Build(power, kind, location)


def _phase(reader: _Reader, phase: PhaseKind, allowed: set[str], what: str) -> None:
    _phase_at(reader.column(), phase, allowed, what)


def _phase_at(column: int, phase: PhaseKind, allowed: set[str], what: str) -> None:
    if phase not in allowed:
        when = " or ".join(
            PHASE_WORDS[name] for name in ("movement", "retreat", "adjustment") if name in allowed
        )
        raise NotationError(
            column, f"{what} only in {when}, and this is {PHASE_WORDS[phase]}", _what_to_write(phase)
        )


def _what_to_write(phase: PhaseKind) -> str:
    if phase == "movement":
        return (
            "write an order such as 'A PAR - BUR', 'A PAR H', 'A MUN S A BER - SIL' or 'F NTH C A LON - NWY'"
        )
    if phase == "retreat":
        return "write a retreat such as 'A PAR - BUR', or 'A PAR DISBAND'"
    return "write 'BUILD A PAR', 'BUILD F STP/NC', 'REMOVE A PAR' or 'WAIVE'"


def read_unit(board: Board, power: str, text: str) -> Unit:
    """A unit as a position lists it: ``A Vienna``, ``F St Petersburg(sc)``, ``F stp/sc``."""
    reader = _Reader(board, text)
    kind = reader.kind()
    if kind is None:
        raise NotationError(
            reader.column(), "a unit starts with its letter", "write A for an army or F for a fleet"
        )
    location = reader.place("the unit's place")
    reader.end("a unit is its letter and its place, nothing more")
    if kind == "army":
        location = board.province(location)
    return Unit(power, kind, location)


# --- writing --------------------------------------------------------------------------------------------


def _letter(kind: UnitKind | None) -> str:
    return {"army": "A ", "fleet": "F "}.get(kind or "", "")


def write_order(board: Board, order: Order) -> str:
    """The short form, abbreviations in capitals: ``A PAR - BUR``, ``F NTH C A LON - NWY``,
    ``A MUN S A BER - SIL``, ``A VIE H``, ``BUILD F STP/NC``, ``A PAR DISBAND``, ``WAIVE``. Read back in the
    phase it belongs to, it gives the same order (a retreat is written as a move)."""

    def place(location: str) -> str:
        return location.upper()

    match order:
        case Hold():
            return f"{_letter(order.kind)}{place(order.unit)} H"
        case Move():
            via = " VIA CONVOY" if order.via_convoy else ""
            return f"{_letter(order.kind)}{place(order.unit)} - {place(order.destination)}{via}"
        case Support():
            supported = f"{_letter(order.supported_kind)}{place(order.supported)}"
            if order.destination is not None:
                supported += f" - {place(order.destination)}"
            return f"{_letter(order.kind)}{place(order.unit)} S {supported}"
        case Convoy():
            convoyed = f"A {place(order.army)} - {place(order.destination)}"
            return f"{_letter(order.kind)}{place(order.unit)} C {convoyed}"
        case Retreat():
            return f"{_letter(order.kind)}{place(order.unit)} - {place(order.destination)}"
        case Disband():
            return f"{_letter(order.kind)}{place(order.unit)} DISBAND"
        case Build():
            return f"BUILD {_letter(order.kind)}{place(order.location)}"
        case Waive():
            return "WAIVE"
    raise TypeError(f"not an order: {order!r}")
