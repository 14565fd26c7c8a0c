"""Order programs: a unit's queue of order lines that it works through, day after day.

Some games give every unit a list of orders that outlives the turn: lines run when they can, wait when
they cannot, repeat, count down, hang on a condition above them or stand as an alternative until
something else happens. This module is that machinery, with no game in it: a ruleset says which of its
orders take no time and which fill a day (``timing``), and carries each one out (``execute``); the queue
rules are all here, so that the checker reads a program exactly as the resolver runs it.

A line is written with its prefixes first, always in this order:

- ``-`` (any number, glued): the line waits on the line above it; each dash is one more level of waiting;
- ``+`` (glued): an alternative, thrown away as soon as a line above it runs;
- ``@`` (glued to what follows) to repeat for ever, or a whole number of days as its own word
  (``10 USE digg``); the two do not mix;
- ``D<n>`` (its own word): the line may run on day n only;

then the order's keyword and its arguments. A double-quoted string is one argument, and ``#`` outside
quotes starts a comment. ``-+@D17 STUDY cmbt 1`` and ``-5 STUDY cmbt`` are lines.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, MutableMapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

MAX_LINES = 50  # the longest queue a unit keeps; lines beyond it are dropped when it is read

_KEYWORD = re.compile(r"[A-Za-z][A-Za-z_]*")
_DAY_GATE = re.compile(r"[Dd]([0-9]+)")
_NUMBER = re.compile(r"[0-9]+")
_PREFIX_CHARS = "-+@"


class Timing(Enum):
    """When a line may run in the day. Conditions and immediate orders take no time and run in the
    passes before the day's work; a full-day order fills the unit's one slot of the day; a movement is a
    full-day order that lasts several days once begun, so a count of days on it means nothing."""

    CONDITION = "condition"
    IMMEDIATE = "immediate"
    FULL_DAY = "full_day"
    MOVEMENT = "movement"


class Result(Enum):
    """What happened when a line was tried (see ``run_day`` for what the queue then does)."""

    SKIPPED = "skipped"  # it cannot run today: kept as it is, and the next line is tried
    RAN = "ran"  # it ran once: removed, unless '@' keeps it or a count of days is left
    CONTINUES = "continues"  # it ran and its own goal is not reached yet: kept (a count still runs down)
    FINISHED = "finished"  # it ran and is done: removed, whatever '@' or count it carries
    INVALID = "invalid"  # it can never run: removed, and the lines waiting on it are freed


class ProgramError(ValueError):
    """A line that cannot be read: where (1-based column in the line), what is wrong, and the fix.
    ``index`` is the line's place in its program when the error comes from reading a whole program."""

    def __init__(self, column: int, problem: str, fix: str, index: int | None = None) -> None:
        super().__init__(f"column {column}: {problem} ({fix})")
        self.column, self.problem, self.fix, self.index = column, problem, fix, index


@dataclass(frozen=True)
class Line:
    """One line of a program, read. ``count`` is the days left of a duration (None: no duration), ``day``
    the only day of the month it may run on (None: any day). ``columns`` (where the keyword and each
    argument started in the text read) serve error messages only, and take no part in comparisons."""

    depth: int
    plus: bool
    repeat: bool
    count: int | None
    day: int | None
    keyword: str
    args: tuple[str, ...] = ()
    columns: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def render(self) -> str:
        """The line written back in its canonical form, which ``parse_line`` reads as the same line."""
        head = "-" * self.depth + ("+" if self.plus else "")
        if self.repeat:
            head += "@"
        elif self.count is not None:
            head += f"{self.count} "
        if self.day is not None:
            head += f"D{self.day} "
        return " ".join([head + self.keyword, *map(_quoted, self.args)])

    def with_args(self, *args: str) -> Line:
        """The same line with other arguments (a BUY that bought part of what it asked for)."""
        return dataclasses.replace(self, args=tuple(args), columns=())


def _quoted(token: str) -> str:
    """An argument as it must be written to be read back as one argument."""
    if token == "" or token[0] == '"' or any(ch.isspace() or ch == "#" for ch in token):
        return f'"{token}"'
    return token


def _tokens(text: str) -> list[tuple[int, str]]:
    """The words of a line with their 0-based columns, up to a comment. A quoted string is one word
    (without its quotes, which a word left unquoted may not hold)."""
    words: list[tuple[int, str]] = []
    pos, size = 0, len(text)
    while pos < size:
        char = text[pos]
        if char.isspace():
            pos += 1
        elif char == "#":
            break
        elif char == '"':
            end = text.find('"', pos + 1)
            if end < 0:
                raise ProgramError(
                    pos + 1, "this quoted text has no closing quote", 'end it with " on this line'
                )
            if end + 1 < size and not text[end + 1].isspace() and text[end + 1] != "#":
                raise ProgramError(
                    end + 2, "a quoted text runs straight into more text", "put a space after it"
                )
            words.append((pos, text[pos + 1 : end]))
            pos = end + 1
        else:
            start = pos
            while pos < size and not text[pos].isspace() and text[pos] != "#":
                if text[pos] == '"':
                    raise ProgramError(pos + 1, "a quote inside a word", "put the whole text in quotes")
                pos += 1
            words.append((start, text[start:pos]))
    return words


def parse_line(text: str) -> Line:
    """Read one line; raise ``ProgramError`` (column, problem, fix) when it cannot be read."""
    words = _tokens(text)
    if not words:
        raise ProgramError(1, "the line holds no order", "write an order, or take the line out")
    index, depth, plus, repeat, count, day = 0, 0, False, False, None, None
    column, word = words[0]
    # The glued prefixes of the first word: dashes, then '+', then '@' or a duration.
    at = 0
    while at < len(word) and word[at] == "-":
        depth, at = depth + 1, at + 1
    if word[at : at + 1] == "+":
        plus, at = True, at + 1
    if word[at : at + 1] in ("-", "+"):
        raise ProgramError(
            column + at + 1, f"'{word[at]}' out of place", "write the prefixes in the order - + @ D"
        )
    if word[at : at + 1] == "@":
        repeat, at = True, at + 1
        after = word[at : at + 1]
        if after.isdigit():
            raise ProgramError(
                column + at + 1,
                "'@' and a number of days cannot be combined (repeat for ever, or for so many days)",
                "keep either '@' or the number of days",
            )
        if after in ("@", "-", "+"):
            problem = "one '@' is enough" if after == "@" else "'@' must come after any - and +"
            raise ProgramError(column + at + 1, problem, "write the prefixes in the order - + @ D, once each")
    else:
        digits = _NUMBER.match(word, at)
        if digits:
            if digits.end() != len(word):
                raise ProgramError(
                    column + digits.end() + 1,
                    "a number of days runs straight into the order",
                    f"put a space after it: {word[: digits.end()]} {word[digits.end() :]}",
                )
            count = int(digits.group())
            if count == 0:
                raise ProgramError(
                    column + at + 1, "a duration of 0 days never runs", "write 1 or more, or leave it out"
                )
            at = len(word)
    rest = word[at:]
    if rest:
        words[0] = (column + at, rest)
    else:
        index = 1
    if index < len(words) and words[index][1].startswith("@"):
        where = words[index][0] + 1
        if count is not None:
            raise ProgramError(
                where,
                "'@' and a number of days cannot be combined (repeat for ever, or for so many days)",
                "keep one of them",
            )
        raise ProgramError(where, "'@' must be glued to the prefixes before it", "write for example -@USE")
    if index < len(words) and (gate := _DAY_GATE.fullmatch(words[index][1])):
        day = int(gate.group(1))
        if day == 0:
            raise ProgramError(words[index][0] + 1, "there is no day 0", "days are counted from 1")
        index += 1
    if index >= len(words):
        raise ProgramError(
            len(text.rstrip()) + 1, "the prefixes are not followed by an order", "write the order"
        )
    column, keyword = words[index]
    if keyword[0] in _PREFIX_CHARS or _NUMBER.fullmatch(keyword) or _DAY_GATE.fullmatch(keyword):
        raise ProgramError(
            column + 1, f"'{keyword}' out of place", "write the prefixes in the order - + @ D, once each"
        )
    if not _KEYWORD.fullmatch(keyword):
        raise ProgramError(
            column + 1, f"'{keyword}' is not an order", "start with the order's name, e.g. STUDY"
        )
    return Line(
        depth=depth,
        plus=plus,
        repeat=repeat,
        count=count,
        day=day,
        keyword=keyword.upper(),
        args=tuple(token for _, token in words[index + 1 :]),
        columns=tuple(col + 1 for col, _ in words[index:]),
    )


@dataclass
class Program:
    """One unit's queue. ``dropped`` counts the lines read past ``MAX_LINES`` and thrown away, so the
    checker can say so. The lines run today are remembered by identity (a line may appear twice)."""

    lines: list[Line] = field(default_factory=list)
    dropped: int = 0
    ran_today: list[Line] = field(default_factory=list, compare=False, repr=False)
    # (old line, the line that replaced it) for today's rewrites, so a line being run can be found again.
    renamed: list[tuple[Line, Line]] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def from_data(cls, texts: Iterable[str]) -> Program:
        texts = list(texts)
        lines = []
        for index, text in enumerate(texts[:MAX_LINES]):
            try:
                lines.append(parse_line(str(text)))
            except ProgramError as error:
                raise ProgramError(error.column, error.problem, error.fix, index) from None
        return cls(lines, dropped=max(0, len(texts) - MAX_LINES))

    def to_data(self) -> list[str]:
        return [line.render() for line in self.lines]

    def _ran(self, line: Line) -> bool:
        return any(seen is line for seen in self.ran_today)

    def _find(self, line: Line) -> int | None:
        """Where a line stands now, following today's rewrites; None once it has left the queue."""
        target: Line | None = line
        while target is not None:
            for index, held in enumerate(self.lines):
                if held is target:
                    return index
            target = next((new for old, new in self.renamed if old is target), None)
        return None

    def _put(self, index: int, new: Line) -> None:
        """Replace a line in place, keeping what today knows of it (that it ran, where it went)."""
        old = self.lines[index]
        self.lines[index] = new
        self.renamed.append((old, new))
        if self._ran(old):
            self.ran_today.append(new)

    def _release(self, index: int) -> None:
        """Take one dash off each waiting line from ``index`` down to the first that was not waiting."""
        while index < len(self.lines) and self.lines[index].depth > 0:
            self._put(index, dataclasses.replace(self.lines[index], depth=self.lines[index].depth - 1))
            index += 1

    def _prune(self, index: int) -> None:
        """Throw away the '+' alternatives after the line at ``index``, which just ran, walking over the
        lines waiting below it and stopping at the next plain line."""
        after = index + 1
        while after < len(self.lines):
            line = self.lines[after]
            if line.depth == 0 and line.plus:
                del self.lines[after]
            elif line.depth > 0:
                after += 1
            else:
                break

    def _remove(self, index: int) -> None:
        del self.lines[index]
        self._release(index)


def _apply(program: Program, line: Line, result: Result, replacement: Line | None, timing: Timing) -> None:
    """The queue rules after a line was run (spec §2.7): alternatives pruned first, then the line removed
    or kept, then the lines waiting on a removed line freed by one level."""
    index = program._find(line)
    if index is None:  # the order took its own line away (a unit that disbanded, a queue wiped)
        return
    if result is Result.INVALID:
        program._remove(index)
        return
    if replacement is not None and replacement is not program.lines[index]:
        program._put(index, replacement)
    current = program.lines[index]
    program.ran_today.append(current)
    program._prune(index)
    if result is Result.FINISHED or (timing is Timing.CONDITION and result is Result.RAN):
        program._remove(index)  # a condition never repeats and takes no count
        return
    left = current.count if timing in (Timing.IMMEDIATE, Timing.FULL_DAY) else None  # movements ignore it
    if left is not None:
        if left <= 1:
            program._remove(index)
        else:
            program._put(index, dataclasses.replace(current, count=left - 1))
    elif result is Result.RAN and not current.repeat:
        program._remove(index)


def settle(program: Program, line: Line, result: Result, timing: Timing = Timing.IMMEDIATE) -> bool:
    """Apply the queue rules to a line that ran outside its own turn (a trade settled at the day's end, a
    partner's line that fired with this one, a journey's line done on arrival): as if the scheduler had
    run it. False when the line has left the queue already."""
    if program._find(line) is None:
        return False
    _apply(program, line, result, None, timing)
    return True


def remove(program: Program, line: Line) -> bool:
    """Take a line out of a queue as the queue rules do: the lines waiting on it lose one dash each.
    False when the line has left the queue already."""
    index = program._find(line)
    if index is None:
        return False
    program._remove(index)
    return True


def ran_today(program: Program, line: Line) -> bool:
    """Whether this very line ran today (a line runs at most once a day)."""
    return program._ran(line)


Execute = Callable[[str, Line], tuple[Result, Line | None]]


def _step(
    day: int,
    actor: str,
    programs: MutableMapping[str, Program],
    timing: Callable[[Line], Timing],
    execute: Execute,
    wanted: tuple[Timing, ...],
) -> bool:
    """Try one unit's free lines of the wanted timing in order (no dash, no other day's gate, not run
    today), and run the first that does not skip. True when one ran or was found invalid; False when all
    skipped (then, in the full-day pass, the default runs)."""
    program = programs.get(actor)
    if program is None:
        return False
    index = 0
    while index < len(program.lines):
        line = program.lines[index]
        kind = timing(line)
        if (
            line.depth
            or (line.day is not None and line.day != day)
            or kind not in wanted
            or program._ran(line)
        ):
            index += 1
            continue
        result, replacement = execute(actor, line)
        if result is Result.SKIPPED:
            index += 1
            continue
        # The line was tried (even one found invalid: the unit spent its turn finding that out).
        if programs.get(actor) is program:  # else the order replaced or removed the unit's whole queue
            _apply(program, line, result, replacement, kind)
        return True
    return False


def run_day(
    day: int,
    actors: Sequence[str],
    programs: MutableMapping[str, Program],
    timing: Callable[[Line], Timing],
    execute: Execute,
    busy: Callable[[str], bool],
    default: Line,
) -> None:
    """One day of every actor's program (spec §2.13).

    First the passes of orders that take no time: in each pass every actor, in the order given, runs the
    first free line of its queue (no dash, no other day's gate, not yet run today) that can run; passes
    follow each other until one runs nothing, so an order made possible by another unit's order runs in
    the next pass. Then one full-day pass: every actor runs one day of its first full-day line that can
    run, or ``default`` (the unit's work) when none can; a line found invalid takes its pass or its day
    all the same (the unit spent it finding that out). A busy actor (travelling, idle) takes no order.
    ``actors`` is read afresh at each pass, so a unit created today by an order joins the next pass.
    """
    for program in programs.values():
        program.ran_today.clear()
        program.renamed.clear()
    instant = (Timing.CONDITION, Timing.IMMEDIATE)
    while True:
        ran = False
        for actor in list(actors):
            if not busy(actor) and _step(day, actor, programs, timing, execute, instant):
                ran = True
        if not ran:
            break
    for actor in list(actors):
        if busy(actor):
            continue
        if not _step(day, actor, programs, timing, execute, (Timing.FULL_DAY, Timing.MOVEMENT)):
            execute(actor, default)


def _rewritten(line: Line, old: str, new: str) -> Line | None:
    if old not in line.args:
        return None
    return dataclasses.replace(line, args=tuple(new if arg == old else arg for arg in line.args))


def rewrite_ids(programs: MutableMapping[str, Program], old: str, new: str) -> None:
    """A temporary id became a real one: every argument naming it, in every queue, names the new id
    (ids compare exactly: temporary ids are case-sensitive), and the queue written for the temporary id
    becomes the new unit's."""
    for program in programs.values():
        for index, line in enumerate(program.lines):
            changed = _rewritten(line, old, new)
            if changed is not None:
                program._put(index, changed)
    if old in programs:
        if new in programs and programs[new].lines:
            raise ValueError(f"{new} already has orders: {old}'s queue cannot become its own")
        programs[new] = programs.pop(old)


def drop_references(programs: MutableMapping[str, Program], old: str) -> None:
    """A temporary id was never created this turn: its queue goes, and so does every line that names it,
    as an order that can never run (the lines waiting on it are freed)."""
    programs.pop(old, None)
    for program in programs.values():
        index = 0
        while index < len(program.lines):
            if old in program.lines[index].args:
                program._remove(index)
            else:
                index += 1
