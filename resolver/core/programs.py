"""Persistent order programs: one queue of order lines per unit, run day by day (an engine service).

MINIMAL STAND-IN: the ``programs`` helper owns this module (branch h24-programs); this copy implements the
agreed API only so that the overlord skeleton runs before that branch lands, and is to be replaced by it.

A line is written with its prefixes in a fixed order, ``-+@Dn KEYWORD args``: each leading dash is a
pending condition (the line is inert until released), ``+`` marks an alternative that is deleted when an
order above it executes, ``@`` repeats it forever, a bare number before the keyword is a duration counter,
and ``D<n>`` lets it run only on day n.
"""

from __future__ import annotations

import re
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

MAX_LINES = 50  # a unit's queue holds at most this many lines; the rest are dropped


class Timing(Enum):
    CONDITION = "condition"
    IMMEDIATE = "immediate"
    FULL_DAY = "full_day"
    MOVEMENT = "movement"  # full-day, lasts several days, ignores counters


class Result(Enum):
    SKIPPED = "skipped"  # requirements unmet today: kept as it is
    RAN = "ran"  # executed once: '@', a counter or plain removal decides what is left
    CONTINUES = "continues"  # executed, goal not reached: kept (a counter still counts down)
    FINISHED = "finished"  # executed and done: removed whatever it carries
    INVALID = "invalid"  # can never run: removed, its dependants released


class ProgramError(ValueError):
    """A line that cannot be read: where (1-based column), what is wrong, and the fix."""

    def __init__(self, column: int, problem: str, fix: str) -> None:
        super().__init__(f"column {column}: {problem} ({fix})")
        self.column, self.problem, self.fix = column, problem, fix


@dataclass(frozen=True)
class Line:
    depth: int
    plus: bool
    repeat: bool
    count: int | None
    day: int | None
    keyword: str
    args: tuple[str, ...] = ()

    def render(self) -> str:
        prefix = "-" * self.depth + ("+" if self.plus else "") + ("@" if self.repeat else "")
        if self.count is not None:
            prefix += f"{self.count} "
        if self.day is not None:
            prefix += f"D{self.day} "
        words = [f'"{arg}"' if (not arg or re.search(r"\s|#", arg)) else arg for arg in self.args]
        return " ".join([prefix + self.keyword, *words])


_TOKEN = re.compile(r'"([^"]*)"|(\S+)')
_DAY = re.compile(r"^[Dd](\d+)$")


def _tokens(text: str) -> list[tuple[int, str, bool]]:
    """Each token with its 1-based column, and whether it was quoted; '#' outside quotes ends the line."""
    found: list[tuple[int, str, bool]] = []
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        if text[position] == "#":
            break
        if text[position] == '"':
            end = text.find('"', position + 1)
            if end < 0:
                raise ProgramError(
                    position + 1, "a quoted text is not closed", 'end it with a double quote "'
                )
            found.append((position + 1, text[position + 1 : end], True))
            position = end + 1
            continue
        end = position
        while end < len(text) and not text[end].isspace() and text[end] not in '#"':
            end += 1
        found.append((position + 1, text[position:end], False))
        position = end
    return found


def parse_line(text: str) -> Line:
    tokens = _tokens(text)
    if not tokens:
        raise ProgramError(1, "the line holds no order", "write an order, e.g. STUDY cmbt 1")
    column, first, _ = tokens[0]
    stripped = first.lstrip("-")
    depth = len(first) - len(stripped)
    plus = stripped.startswith("+")
    stripped = stripped[1:] if plus else stripped
    repeat = stripped.startswith("@")
    stripped = stripped[1:] if repeat else stripped
    offset = len(first) - len(stripped)
    rest = [(column + offset, stripped, False)] if stripped else []
    rest += tokens[1:]
    count: int | None = None
    day: int | None = None
    if rest and rest[0][1].isdigit() and not rest[0][2]:
        if repeat:
            raise ProgramError(rest[0][0], "'@' and a number of days cannot go together", "keep one of them")
        count = int(rest.pop(0)[1])
    if rest and not rest[0][2] and (gate := _DAY.match(rest[0][1])):
        day = int(gate.group(1))
        rest.pop(0)
    if not rest or rest[0][2]:
        where = rest[0][0] if rest else len(text) + 1
        raise ProgramError(where, "the order's keyword is missing", "write the keyword after the prefixes")
    keyword = rest[0][1].upper()
    if not keyword.isalpha():
        raise ProgramError(rest[0][0], f"'{rest[0][1]}' is not an order", "start with the order's keyword")
    return Line(depth, plus, repeat, count, day, keyword, tuple(token for _, token, _ in rest[1:]))


@dataclass
class Program:
    lines: list[Line] = field(default_factory=list)
    dropped: int = 0  # lines beyond MAX_LINES, which the checker reports

    @classmethod
    def from_data(cls, texts: list[str]) -> Program:
        lines = [parse_line(text) for text in texts]
        return cls(lines[:MAX_LINES], max(0, len(lines) - MAX_LINES))

    def to_data(self) -> list[str]:
        return [line.render() for line in self.lines]


Execute = Callable[[str, Line], tuple[Result, Line | None]]


def _prune(lines: list[Line], index: int) -> None:
    """Delete the '+' alternatives after an executed line, skipping its dependent block."""
    j = index + 1
    while j < len(lines):
        if lines[j].depth == 0 and lines[j].plus:
            del lines[j]
        elif lines[j].depth > 0:
            j += 1
        else:
            break


def _release(lines: list[Line], index: int) -> None:
    """A line at ``index`` was removed: each following dashed line loses one dash, up to a plain one."""
    j = index
    while j < len(lines) and lines[j].depth > 0:
        lines[j] = replace(lines[j], depth=lines[j].depth - 1)
        j += 1


def _apply(lines: list[Line], index: int, result: Result, new: Line | None, timing: Timing) -> Line:
    line = new if new is not None else lines[index]
    lines[index] = line
    if result is Result.INVALID:
        del lines[index]
        _release(lines, index)
        return line
    _prune(lines, index)
    remove = result is Result.FINISHED or (timing is Timing.CONDITION and result is Result.RAN)
    if not remove and result is not Result.CONTINUES and not line.repeat and line.count is None:
        remove = True
    if not remove and line.count is not None and timing is not Timing.MOVEMENT:
        left = line.count - 1
        if left <= 0:
            remove = True
        else:
            line = lines[index] = replace(line, count=left)
    if remove:
        del lines[index]
        _release(lines, index)
    return line


def run_day(
    day: int,
    actors: Sequence[str],
    programs: MutableMapping[str, Program],
    timing: Callable[[Line], Timing],
    execute: Execute,
    busy: Callable[[str], bool],
    default: Line,
) -> None:
    """One day: immediate passes until a pass executes nothing, then one full-day pass."""
    done: list[Line] = []  # lines executed today, by identity

    def ran(line: Line) -> bool:
        return any(line is seen for seen in done)

    def first(actor: str, timings: tuple[Timing, ...]) -> bool:
        program = programs.get(actor)
        if program is None:
            return False
        for line in list(program.lines):
            if line.depth or ran(line) or (line.day is not None and line.day != day):
                continue
            kind = timing(line)
            if kind not in timings:
                continue
            result, new = execute(actor, line)
            if result is Result.SKIPPED:
                continue
            if not any(line is held for held in program.lines):
                return True  # the executor itself rewrote the queue
            index = next(i for i, held in enumerate(program.lines) if held is line)
            done.append(_apply(program.lines, index, result, new, kind))
            done.append(line)
            return True
        return False

    quick = (Timing.CONDITION, Timing.IMMEDIATE)
    while True:
        executed = False
        for actor in actors:
            if not busy(actor) and first(actor, quick):
                executed = True
        if not executed:
            break
    for actor in actors:
        if not busy(actor) and not first(actor, (Timing.FULL_DAY, Timing.MOVEMENT)):
            execute(actor, default)


def rewrite_ids(programs: MutableMapping[str, Program], old: str, new: str) -> None:
    """A temporary id became permanent: every queue's references to it (and its own queue) follow."""
    if old in programs:
        programs[new] = programs.pop(old)
    for program in programs.values():
        program.lines = [
            replace(line, args=tuple(new if arg == old else arg for arg in line.args))
            for line in program.lines
        ]


def drop_references(programs: MutableMapping[str, Program], old: str) -> None:
    """A temporary id was never created: its queue and every line naming it go, releasing dependants."""
    programs.pop(old, None)
    for program in programs.values():
        index = 0
        while index < len(program.lines):
            if old in program.lines[index].args:
                del program.lines[index]
                _release(program.lines, index)
            else:
                index += 1
