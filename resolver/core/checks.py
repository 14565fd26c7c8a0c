"""Checks as rules data: which dice, how to read them, what modifies them, and the table of results.

A check is declared once in a ruleset's ``rules.yaml`` under ``checks`` and serves both the resolver
(through :meth:`Check.roll`) and the rules page (``resolver.core.rulesdoc.check_table``)::

    checks:
      task:
        dice: 2d6                  # or d6 with count: WR (the caller says how many), or 1d100
        read: sum                  # sum (default) | successes (with success: "<=3") | face
        explode: {at: 96}          # optional: open-ended; {at: 6, times: 1, first: 1, from_pool: 3}
        short: none                # a pool below one die: none (roll nothing) | subtract
        modifiers: {named_place: 3}   # declared modifiers, picked by name with Check.modifier
        table:
          - {up_to: 3, result: complete_failure}
          - {min: 4, max: 6, result: failure}
          - {face: 7, result: odd}   # an exact total
          - {result: complete_success}   # no bound: everything after the row before

Rows are read top to bottom and must follow each other without gaps; a bound left out continues from
the row before (``up_to`` is the same as ``max``). A total beyond the first or the last row reads that
row, so a table never leaves a roll without a result.

Every modifier is a (source, value) pair; all of them stack (usurper's "Bronze rule") and the roll keeps
the list as its ledger, logged with it and shown in reports and the chronicle.

Pools below one die (a penalty of "-2 dice" on a pool of one) follow one documented rule, chosen per
check with ``short``: ``none`` (the default) rolls no dice, so the total is the flat modifiers alone;
``subtract`` (usurper's fill) rolls the missing dice and takes them off the modifiers, never below 0.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .dice import Modifier, Roll, RollLabel, roll_label

__all__ = [
    "Check",
    "CheckResult",
    "Modifier",
    "Opposed",
    "Pool",
    "Roller",
    "Row",
    "ledger_text",
    "opposed",
    "roll_pool",
]

_DICE = re.compile(r"^(?P<count>\d*)d(?P<sides>\d+)$")
_SUCCESS = re.compile(r"^(?P<cmp><=|>=)(?P<value>\d+)$")
READS = ("sum", "successes", "face")
SHORT_RULES = ("none", "subtract")


class Roller(Protocol):
    """What rolls a check: the engine's turn context (it prefixes the turn and logs the roll)."""

    def roll(
        self, label: RollLabel, expr: str, *, factions: Iterable[str] = (), decided: str = ""
    ) -> Roll: ...


@dataclass(frozen=True)
class Pool:
    """N dice to roll at once, how they explode, how they are read, and the modifiers on them."""

    count: int
    sides: int = 6
    success: str = ""  # "<=3": the total is the number of dice that meet it, not their sum
    explode_at: int | None = None  # a die showing this or more is rolled again and added
    explode_times: int | None = None  # extra rolls a die may make; None is open-ended
    explode_first: int | None = None  # only this many leading dice may explode
    explode_from: int = 0  # explosions only in a pool of at least this many dice
    short: str = "none"  # what a pool below one die does (see the module's docstring)
    modifiers: tuple[Modifier, ...] = ()

    @property
    def flat(self) -> int:
        return sum(modifier.value for modifier in self.modifiers)

    def dice_expression(self, count: int) -> str:
        """The dice part of the expression for ``count`` dice, without the modifiers."""
        expr = f"{count}d{self.sides}"
        if self.explode_at is not None and count >= max(self.explode_from, 1):
            expr += f"!{self.explode_at}"
            if self.explode_times is not None:
                expr += f"^{self.explode_times}"
            if self.explode_first is not None:
                expr += f"@{self.explode_first}"
        if self.success:
            expr += f"s{self.success}"
        return expr


def roll_pool(
    roller: Roller, label: RollLabel, pool: Pool, *, factions: Iterable[str] = (), decided: str = ""
) -> Roll:
    """Roll a pool with its modifiers summed in and kept as the roll's ledger."""
    if pool.short not in SHORT_RULES:
        raise ValueError(f"a pool's short rule is one of {', '.join(SHORT_RULES)}, not {pool.short!r}")
    flat = pool.flat
    if pool.count < 0 and pool.short == "subtract":
        roll = roller.roll(label, pool.dice_expression(-pool.count), factions=factions, decided=decided)
        roll.total = max(0, flat - roll.total)
        roll.expr = f"{flat}-{roll.expr}"
    else:
        expr = pool.dice_expression(max(pool.count, 0)) + (f"{flat:+d}" if flat else "")
        roll = roller.roll(label, expr, factions=factions, decided=decided)
    roll.modifiers = list(pool.modifiers)
    return roll


@dataclass(frozen=True)
class Opposed:
    """Two pools rolled against each other: ``margin`` is the first total minus the second."""

    first: Roll
    second: Roll

    @property
    def margin(self) -> int:
        return self.first.total - self.second.total

    def first_wins(self, ties: str = "second") -> bool:
        """Whether the first pool wins; ``ties`` says who takes a tie (usurper: a tied attack misses)."""
        return self.margin > 0 or (self.margin == 0 and ties == "first")


def opposed(
    roller: Roller,
    label: RollLabel,
    pools: Sequence[tuple[str, Pool]],
    *,
    factions: Iterable[str] = (),
    decided: str = "",
) -> Opposed:
    """Roll two named pools (``[("attack", a), ("defence", d)]``), each under the label plus its name."""
    if len(pools) != 2 or pools[0][0] == pools[1][0]:
        raise ValueError("an opposed roll compares exactly two pools with different names")
    first, second = (
        roll_pool(
            roller, roll_label(label, name), pool, factions=factions, decided=f"{decided} {name}".strip()
        )
        for name, pool in pools
    )
    return Opposed(first, second)


@dataclass(frozen=True)
class Row:
    """One row of a check's table: the totals it covers and what it gives."""

    result: str
    low: int | None  # None: open below
    high: int | None  # None: open above
    data: Mapping[str, Any] = field(default_factory=dict)  # the row's other values (dice, units …)

    def holds(self, total: int) -> bool:
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)

    def span(self) -> str:
        """The totals in words for the rules page: '3 or less', '4–6', '13', '10 or more'."""
        if self.low is None and self.high is None:
            return "any"
        if self.low is None:
            return f"{self.high} or less"
        if self.high is None:
            return f"{self.low} or more"
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


@dataclass(frozen=True)
class CheckResult:
    roll: Roll
    row: Row

    @property
    def result(self) -> str:
        return self.row.result

    @property
    def total(self) -> int:
        return self.roll.total


@dataclass(frozen=True)
class Check:
    """A check of the rules data (see the module's docstring for its fields)."""

    id: str
    sides: int
    table: tuple[Row, ...]
    count: int | None = None  # None: the caller gives the count (``count_from`` names where it comes from)
    count_from: str = ""
    read: str = "sum"
    success: str = ""
    explode: Mapping[str, int] = field(default_factory=dict)
    short: str = "none"
    declared: Mapping[str, int] = field(default_factory=dict)  # modifiers the rules data names

    @classmethod
    def from_rules(cls, rules: Mapping[str, Any], check_id: str) -> Check:
        checks = rules.get("checks") or {}
        if check_id not in checks:
            raise ValueError(f"the rules data declare no check '{check_id}' under checks")
        return cls.parse(check_id, checks[check_id])

    @classmethod
    def parse(cls, check_id: str, data: Mapping[str, Any]) -> Check:
        where = f"checks.{check_id}"
        match = _DICE.match(str(data.get("dice", "")).replace(" ", ""))
        if not match:
            raise ValueError(f"{where}.dice: write the dice as 2d6, d6 or 1d100, not {data.get('dice')!r}")
        count_from = str(data.get("count", ""))
        if match["count"] and count_from:
            raise ValueError(f"{where}: give the number of dice in dice ({data['dice']}) or count, not both")
        read = str(data.get("read", "sum"))
        success = str(data.get("success", ""))
        if read not in READS:
            raise ValueError(f"{where}.read: one of {', '.join(READS)}, not {read!r}")
        if (read == "successes") != bool(_SUCCESS.match(success)):
            raise ValueError(f"{where}.success: a successes check names its target as <=3 or >=5")
        if read == "face" and (count_from or int(match["count"] or 1) != 1):
            raise ValueError(f"{where}.read: a face is read from one die, not {data['dice']}")
        short = str(data.get("short", "none"))
        if short not in SHORT_RULES:
            raise ValueError(f"{where}.short: one of {', '.join(SHORT_RULES)}, not {short!r}")
        return cls(
            id=check_id,
            sides=int(match["sides"]),
            table=_rows(where, data.get("table") or []),
            count=None if count_from else int(match["count"] or 1),
            count_from=count_from,
            read=read,
            success=success,
            explode={str(k): int(v) for k, v in (data.get("explode") or {}).items()},
            short=short,
            declared={str(k): int(v) for k, v in (data.get("modifiers") or {}).items()},
        )

    def modifier(self, name: str) -> Modifier:
        """A modifier the rules data declare for this check, by name."""
        if name not in self.declared:
            raise ValueError(f"check '{self.id}' declares no modifier '{name}'")
        return Modifier(name, self.declared[name])

    def dice_text(self) -> str:
        """The dice in words for the rules page: '2d6', 'WR d6', '1d100, open-ended from 96'."""
        text = f"{self.count_from} d{self.sides}" if self.count_from else f"{self.count}d{self.sides}"
        if self.read == "successes":
            bound = _SUCCESS.match(self.success)
            assert bound is not None  # parse() refuses a successes check without a target
            side = "or less" if bound["cmp"] == "<=" else "or more"
            text += f", each die showing {bound['value']} {side} counting as a success"
        if "at" in self.explode:
            which = "the first die" if self.explode.get("first") == 1 else "each die"
            times = " once" if self.explode.get("times") == 1 else ""
            text += f"; {which} showing {self.explode['at']} or more is rolled again and added{times}"
            if self.explode.get("from_pool"):
                text += f" (in a pool of {self.explode['from_pool']} or more dice)"
        return text

    def pool(self, count: int | None, modifiers: Iterable[Modifier]) -> Pool:
        if (count is None) != (self.count is not None):
            raise ValueError(f"check '{self.id}' takes its dice count from {self.count_from or 'its dice'}")
        return Pool(
            count=self.count if count is None else count,
            sides=self.sides,
            success=self.success,
            explode_at=self.explode.get("at"),
            explode_times=self.explode.get("times"),
            explode_first=self.explode.get("first"),
            explode_from=self.explode.get("from_pool", 0),
            short=self.short,
            modifiers=tuple(modifiers),
        )

    def row(self, total: int) -> Row:
        """The row a total reads; beyond either end of the table, the end row."""
        if total < (self.table[0].low if self.table[0].low is not None else total):
            return self.table[0]
        return next((row for row in self.table if row.holds(total)), self.table[-1])

    def roll(
        self,
        roller: Roller,
        label: RollLabel,
        *,
        modifiers: Iterable[Modifier] = (),
        count: int | None = None,
        factions: Iterable[str] = (),
        decided: str = "",
    ) -> CheckResult:
        """Roll the check, apply every modifier, read the row and log all of it with the roll."""
        roll = roll_pool(roller, label, self.pool(count, modifiers), factions=factions)
        row = self.row(roll.total)
        roll.check, roll.result = self.id, row.result
        roll.decided = f"{decided or self.id}: {row.result.replace('_', ' ')}"
        return CheckResult(roll, row)


def _rows(where: str, rows: Sequence[Mapping[str, Any]]) -> tuple[Row, ...]:
    if not rows:
        raise ValueError(f"{where}.table: a check needs a table of at least one row")
    parsed: list[Row] = []
    for number, data in enumerate(rows, 1):
        at = f"{where}.table[{number}]"
        if "result" not in data:
            raise ValueError(f"{at}: every row names its result")
        if "face" in data:
            low = high = int(data["face"])
        else:
            high = data.get("max", data.get("up_to"))
            low = data.get("min")
            high = None if high is None else int(high)
            low = int(low) if low is not None else (None if not parsed else _after(at, parsed[-1]))
        if parsed:
            expected = _after(at, parsed[-1])
            if low != expected:
                raise ValueError(f"{at}: rows follow each other without gaps; this one starts at {expected}")
        if low is not None and high is not None and high < low:
            raise ValueError(f"{at}: its highest total {high} is below its lowest {low}")
        extra = {k: v for k, v in data.items() if k not in ("result", "face", "min", "max", "up_to")}
        parsed.append(Row(str(data["result"]), low, high, extra))
    return tuple(parsed)


def _after(at: str, previous: Row) -> int:
    if previous.high is None:
        raise ValueError(f"{at}: the row before it is open above, so no row can follow it")
    return previous.high + 1


def ledger_text(roll: Mapping[str, Any]) -> str:
    """An archived roll's modifier ledger in words, for reports and the chronicle: 'force +3, stealth −3'.
    Modifiers worth nothing are left out; a roll without a ledger gives ''."""
    parts = []
    for entry in roll.get("modifiers") or []:
        value = int(entry["value"])
        if value:
            sign = "+" if value > 0 else "−"
            parts.append(f"{_source_words(str(entry['source']))} {sign}{abs(value)}")
    return ", ".join(parts)


_DATA_ID = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")


def _source_words(source: str) -> str:
    """A modifier's source as a reader reads it: a rules-data id (``named_place``) spelt with spaces; a
    source already in words, which may hold a name a player chose ("Saws (Dwarves of __Ash__)"), as it is."""
    return source.replace("_", " ") if _DATA_ID.fullmatch(source) else source
