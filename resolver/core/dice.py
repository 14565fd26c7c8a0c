"""Labelled, logged dice for one turn.

A roll is named by a label such as ``t7/combat/red-1/round2/u3``. Its dice come
from an HMAC stream keyed by the factions the roll concerns: the campaign seed,
the turn, and the digests of *those factions'* order files. Hence a player cannot
know a battle's dice before the opponent's orders are final, and yet editing one
faction's orders leaves every roll that does not concern that faction unchanged.
Rolls that concern no faction use the turn seed, which covers every order file.

Expressions:

``NdX``, ``NdX+M``, ``NdX-M``
    sum of N dice with X sides, plus a modifier
``d100!96``
    open-ended: each die showing 96 or more is rolled again and added;
    ``d6!6^1`` allows at most one extra roll per die, and ``4d6!6^1@1`` lets only
    the first die of the pool explode
``0d6+2``
    a pool of no dice: nothing is drawn and the total is the modifier
``5d6s<=3`` / ``4d6s>=5``
    count the dice that succeed (the total is the number of successes)
``1d10>=6`` / ``d100<=60``
    a target number: the roll succeeds when the total meets it
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .rng import Stream, derive_key

_EXPR = re.compile(
    r"""^(?P<n>\d*)d(?P<sides>\d+)
        (?:!(?P<explode>\d+)(?:\^(?P<cap>\d+))?(?:@(?P<first>\d+))?)?
        (?:s(?P<scmp><=|>=)(?P<sval>\d+))?
        (?P<mod>[+-]\d+)?
        (?:(?P<tcmp><=|>=)(?P<target>-?\d+))?$""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Expression:
    count: int
    sides: int
    explode_at: int | None = None
    explode_cap: int | None = None
    explode_first: int | None = None  # only this many leading dice may explode
    success_cmp: str | None = None
    success_value: int = 0
    modifier: int = 0
    target_cmp: str | None = None
    target: int | None = None

    @classmethod
    def parse(cls, text: str) -> Expression:
        m = _EXPR.match(text.replace(" ", ""))
        if not m:
            raise ValueError(f"not a dice expression: {text!r}")
        count = int(m["n"] or 1)
        sides = int(m["sides"])
        if sides < 2:
            raise ValueError(f"dice need 2 or more sides: {text!r}")
        explode_at = int(m["explode"]) if m["explode"] else None
        if explode_at is not None and explode_at <= 1:
            raise ValueError(f"an explosion threshold of {explode_at} would never stop: {text!r}")
        return cls(
            count=count,
            sides=sides,
            explode_at=explode_at,
            explode_cap=int(m["cap"]) if m["cap"] else None,
            explode_first=int(m["first"]) if m["first"] else None,
            success_cmp=m["scmp"],
            success_value=int(m["sval"] or 0),
            modifier=int(m["mod"] or 0),
            target_cmp=m["tcmp"],
            target=int(m["target"]) if m["target"] is not None else None,
        )

    def verdict(self, total: int) -> bool | None:
        """Whether ``total`` meets the expression's target number; None when it names none."""
        if self.target_cmp is None or self.target is None:
            return None
        return _meets(total, self.target_cmp, self.target)


_SEGMENT = re.compile(r"[A-Za-z0-9_.:-]+")


class RollLabel(str):
    """A roll label built by :func:`roll_label`; the turn context takes no other kind of label."""

    __slots__ = ()


LabelPart = str | int | list[str] | tuple[str, ...] | set[str] | frozenset[str]


def roll_label(*parts: LabelPart) -> RollLabel:
    """Join stable identities into a roll label, e.g. ``battle/D4/red:o2/blue+red/r1/red-u3/1``.

    A label may hold only what cannot change when an unrelated faction changes its orders: the turn,
    a tile, faction, army and unit ids, an order's number in its own faction's file, a round. Counters
    of earlier events are exactly what must never appear, and nothing here can tell a counter from an
    id, so the callers name their parts; this helper makes the spelling canonical and refuses parts
    that cannot be spelt canonically (floats, booleans, empty or separator-bearing text). A collection
    (the two sides of a battle) is sorted, so the order its members were found in does not matter.
    """
    if not parts:
        raise ValueError("a roll label needs at least one part")
    return RollLabel("/".join(_label_segment(part) for part in parts))


def _label_segment(part: LabelPart) -> str:
    if isinstance(part, RollLabel):
        return str(part)  # already canonical: a label extended by further parts
    if isinstance(part, (bool, float)):
        raise TypeError(f"roll label parts are ids or whole numbers, not {type(part).__name__}: {part!r}")
    if isinstance(part, int):
        return str(part)
    if isinstance(part, str):
        if not _SEGMENT.fullmatch(part):
            raise ValueError(f"roll label part {part!r} must be letters, digits and _ . : - only")
        return part
    if isinstance(part, (list, tuple, set, frozenset)):
        if not part or any(isinstance(member, Collection) and not isinstance(member, str) for member in part):
            raise ValueError(f"a roll label collection holds one or more plain ids: {part!r}")
        return "+".join(sorted({_label_segment(member) for member in part}))
    raise TypeError(f"roll label parts are ids or whole numbers, not {type(part).__name__}: {part!r}")


def _meets(value: int, cmp: str, bound: int) -> bool:
    return value >= bound if cmp == ">=" else value <= bound


@dataclass(frozen=True)
class Modifier:
    """One line of a roll's modifier ledger: what changed the roll, and by how much."""

    source: str
    value: int

    def to_data(self) -> dict[str, Any]:
        return {"source": self.source, "value": self.value}


@dataclass
class Roll:
    """One logged roll. ``decided`` says in words what it settled; callers may add to it.

    A roll made for a check of the rules data (``resolver.core.checks``) also records the check's id,
    the row of its table it read (``result``), and the ledger of modifiers already summed into ``expr``.
    """

    label: str
    expr: str
    dice: list[int]
    total: int
    success: bool | None = None
    decided: str = ""
    forced: bool = False
    scope: list[str] = field(default_factory=list)  # the factions whose orders key this roll
    check: str = ""
    result: str = ""
    modifiers: list[Modifier] = field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "label": self.label,
            "expr": self.expr,
            "dice": list(self.dice),
            "total": self.total,
            "decided": self.decided,
            "scope": list(self.scope),
        }
        if self.success is not None:
            data["success"] = self.success
        if self.forced:
            data["forced"] = True
        if self.check:
            data["check"] = self.check
            data["result"] = self.result
        if self.modifiers:
            data["modifiers"] = [modifier.to_data() for modifier in self.modifiers]
        return data


@dataclass
class TurnSeed:
    """The inputs every roll of a turn derives from."""

    campaign_seed: int
    turn: int
    digests: Mapping[str, str]  # faction -> sha256 of its order file ("-" when none)
    # The turn's secret salt, revealed in the archive once the turn is resolved; without one (a
    # campaign with no key) every roll is computable in advance from public data.
    salt: str = ""

    def _salted(self, parts: list[str]) -> list[str]:
        return [*parts, f"salt={self.salt}"] if self.salt else parts

    @property
    def hex(self) -> str:
        parts = [f"{f}={d}" for f, d in sorted(self.digests.items())]
        return derive_key("turn", self.campaign_seed, self.turn, *self._salted(parts)).hex()

    def key_for(self, factions: Iterable[str]) -> bytes:
        scope = sorted(set(factions))
        if not scope:
            return bytes.fromhex(self.hex)
        parts = [f"{f}={self.digests.get(f, '-')}" for f in scope]
        return derive_key("scope", self.campaign_seed, self.turn, *self._salted(parts))


@dataclass
class Dice:
    """The dice of one turn: every roll is labelled, unique, and kept in ``log``.

    ``forced`` maps a label to the faces to use instead of drawing (scenario tests
    and GM re-rolls); the log marks such rolls as forced.
    """

    seed: TurnSeed
    forced: Mapping[str, list[int]] = field(default_factory=dict)
    log: list[Roll] = field(default_factory=list)
    _labels: set[str] = field(default_factory=set)

    def roll(self, label: str, expr: str, *, factions: Iterable[str] = (), decided: str = "") -> Roll:
        if label in self._labels:
            raise ValueError(f"dice label used twice in one turn: {label}")
        self._labels.add(label)
        spec = Expression.parse(expr)
        forced = label in self.forced
        faces = list(self.forced[label]) if forced else self._draw(spec, label, factions)
        roll = _score(spec, label, expr, faces)
        roll.decided = decided
        roll.forced = forced
        roll.scope = sorted(set(factions))
        self.log.append(roll)
        return roll

    def _draw(self, spec: Expression, label: str, factions: Iterable[str]) -> list[int]:
        source = Stream(self.seed.key_for(factions), label)
        faces: list[int] = []
        for position in range(spec.count):
            face = source.between(1, spec.sides)
            faces.append(face)
            extra = 0
            may_explode = spec.explode_first is None or position < spec.explode_first
            while may_explode and spec.explode_at is not None and face >= spec.explode_at:
                if spec.explode_cap is not None and extra >= spec.explode_cap:
                    break
                face = source.between(1, spec.sides)
                faces.append(face)
                extra += 1
        return faces


def recompute(seed: TurnSeed, label: str, expr: str, scope: Iterable[str] = ()) -> Roll:
    """The roll a turn with ``seed`` makes under ``label``: how anyone checks a published roll once the
    turn's salt is revealed, with nothing but the public record of the turn."""
    return Dice(seed).roll(label, expr, factions=scope)


def _score(spec: Expression, label: str, expr: str, faces: list[int]) -> Roll:
    if spec.success_cmp:
        total = sum(1 for f in faces if _meets(f, spec.success_cmp, spec.success_value)) + spec.modifier
    else:
        total = sum(faces) + spec.modifier
    success = (
        _meets(total, spec.target_cmp, spec.target) if spec.target_cmp and spec.target is not None else None
    )
    return Roll(label=label, expr=expr, dice=faces, total=total, success=success)
