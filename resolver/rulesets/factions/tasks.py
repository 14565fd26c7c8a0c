"""Task resolution: the task check (2d6 plus modifiers, read in four bands); forces that combine by doubling.

The modifier is (force level + rating) - (opposition level + rating). A force is a lieutenant and the units
aiding it: assets within one level of each other combine as the lowest of them plus a bonus that grows by 2
with each doubling of their number, and a combined group counts as one asset of its new level, so lower
units can first combine to reach the higher ones.

>>> rules = {"forces": {"per_doubling": 2, "between_doublings": 1, "spread": 1}}
>>> best_force(rules, [1, 1], lead=3).working()
'(1 + 1) + 3 = 5'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ...core.checks import Check, Modifier
from ...core.dice import Roll, RollLabel
from . import model as m

if TYPE_CHECKING:
    from ...engine.context import TurnContext

Rules = Mapping[str, Any]


# -- force combination ------------------------------------------------------------------------------------


def combination_bonus(rules: Rules, count: int) -> int:
    """Levels gained by `count` assets acting together: 2 → +2, 3 → +3, 4 → +4, 6 → +5, 8 → +6 …"""
    if count < 2:
        return 0
    forces = rules["forces"]
    doublings = count.bit_length() - 1
    halfway = 2 * count >= 3 * (1 << doublings)  # 3, 6, 12 … sit halfway to the next doubling
    return int(forces["per_doubling"]) * doublings + (int(forces["between_doublings"]) if halfway else 0)


@dataclass(frozen=True)
class Group:
    """One asset, or assets combined into one: its effective level and what it is made of."""

    level: int
    parts: tuple[Group, ...] = ()
    lead: bool = False  # holds the acting lieutenant

    def working(self) -> str:
        """How the level came about, in the seed's notation: '(1 + 1) + 3 = 5'."""
        if not self.parts:
            return str(self.level)
        return f"{self._terms()} = {self.level}"

    def _terms(self) -> str:
        shown = sorted(self.parts, key=lambda p: (p.level, not p.parts))  # combined groups first among equals
        return " + ".join(f"({p._terms()})" if p.parts else str(p.level) for p in shown)

    def merges(self) -> int:
        return 0 if not self.parts else 1 + sum(p.merges() for p in self.parts)

    def size(self) -> int:
        return 1 if not self.parts else sum(p.size() for p in self.parts)


def _order(group: Group) -> tuple[int, bool]:
    return group.level, group.lead


def _merges(items: tuple[Group, ...], spread: int) -> Iterator[tuple[Group, ...]]:
    """Every distinct choice of two or more items within `spread` levels of each other."""
    seen: set[tuple[tuple[int, bool], ...]] = set()
    for low in sorted({g.level for g in items}):
        window = [g for g in items if low <= g.level <= low + spread]
        for size in range(2, len(window) + 1):
            for chosen in combinations(window, size):
                signature = tuple(_order(g) for g in chosen)
                if chosen[0].level == low and signature not in seen:
                    seen.add(signature)
                    yield chosen


def best_force(rules: Rules, units: Sequence[int], lead: int | None = None) -> Group:
    """The highest level the assets reach together.

    With a ``lead`` (the acting lieutenant's level) the answer is the best group that includes the
    lieutenant: units that cannot combine with it do not help. Without one (defenders), the best group
    of any of them. Every way of combining is tried, so the rules' "lower units first" falls out; between
    equally strong ways, the one with the fewest combinations is kept, as it reads best in an event.
    """
    spread = int(rules["forces"]["spread"])
    start = [Group(level) for level in units] + ([Group(lead, lead=True)] if lead is not None else [])
    if not start:
        return Group(0)
    memo: dict[tuple[tuple[int, bool, int, int], ...], tuple[int, int, int]] = {}

    def merged(chosen: tuple[Group, ...]) -> Group:
        level = min(g.level for g in chosen) + combination_bonus(rules, len(chosen))
        return Group(level, chosen, any(g.lead for g in chosen))

    def after(items: tuple[Group, ...], chosen: tuple[Group, ...]) -> tuple[Group, ...]:
        rest = list(items)
        for g in chosen:
            rest.remove(g)
        return tuple(sorted([*rest, merged(chosen)], key=_order))

    def rank(group: Group) -> tuple[int, int, int]:
        # Strongest first; between equals the simplest working, then the one that shows every asset.
        return group.level, -group.merges(), group.size()

    def stop(items: tuple[Group, ...]) -> Group:
        return max((g for g in items if g.lead or lead is None), key=rank)

    def value(items: tuple[Group, ...]) -> tuple[int, int, int]:
        """The rank of the best group reachable from here; it depends on the items' shapes only."""
        key = tuple((g.level, g.lead, g.size(), g.merges()) for g in items)
        if key not in memo:
            memo[key] = max([rank(stop(items))] + [value(after(items, c)) for c in _merges(items, spread)])
        return memo[key]

    items = tuple(sorted(start, key=_order))
    while rank(stop(items)) != value(items):
        goal = value(items)
        items = next(after(items, c) for c in _merges(items, spread) if value(after(items, c)) == goal)
    return stop(items)


# -- forces in the state ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a task: its combined level and rating, and who is in it."""

    level: int
    rating: int
    members: tuple[str, ...] = ()  # asset ids
    working: str = ""
    who: str = ""  # a faction or NPC id

    @property
    def strength(self) -> int:
        return self.level + self.rating


NOBODY = Side(0, 0)


def acting_force(rules: Rules, lieutenant: m.Asset, units: Sequence[m.Asset], rating: str) -> Side:
    """The lieutenant and the units that can aid it: only those with the task's competency count."""
    aiding = [u for u in units if rating in m.competencies(rules, u)]
    group = best_force(rules, [m.level_of(rules, u) for u in aiding], lead=m.level_of(rules, lieutenant))
    members = (lieutenant["id"], *(u["id"] for u in aiding))
    return Side(group.level, m.rating_of(lieutenant, rating), members, group.working(), lieutenant["owner"])


def defending_force(
    rules: Rules, state: dict[str, Any], location: str, defender: str | None, competency: str
) -> Side:
    """Who stands against an action at a location.

    A faction defends with its lieutenants there (level and rating) and up to its Cohesion of units there
    with the competency; an NPC faction defends its holdings with its own level and rating.
    """
    if defender is None:
        return NOBODY
    if m.is_npc(rules, defender):
        return npc_force(rules, defender, competency)
    here = [a for a in m.assets_at(state, location) if a["owner"] == defender]
    lieutenants = [a for a in here if m.kind_of(rules, a) == "lieutenant"]
    units = sorted(
        (a for a in here if m.kind_of(rules, a) == "unit" and competency in m.competencies(rules, a)),
        key=lambda a: (-m.level_of(rules, a), a["id"]),
    )[: m.cohesion(state, defender)]
    if not lieutenants and not units:
        return NOBODY
    group = best_force(rules, [m.level_of(rules, a) for a in [*lieutenants, *units]])
    rating = max((m.rating_of(a, competency) for a in lieutenants), default=0)
    members = tuple(a["id"] for a in [*lieutenants, *units])
    return Side(group.level, rating, members, group.working(), defender)


def npc_force(rules: Rules, npc: str, rating: str) -> Side:
    """An NPC faction stands with its own level and rating."""
    spec = rules["npc_factions"][npc]
    return Side(int(spec["level"]), int(spec["ratings"].get(rating, 0)), (), str(spec["level"]), npc)


def rival_force(rules: Rules, state: dict[str, Any], locale: str, rival: str, rating: str) -> Side:
    """A faction's best lieutenant in a locale, for actions aimed at the faction rather than a place."""
    here = [
        a
        for a in m.assets_in_locale(state, locale)
        if a["owner"] == rival and m.kind_of(rules, a) == "lieutenant"
    ]
    if not here:
        return NOBODY
    best = max(here, key=lambda a: (m.level_of(rules, a) + m.rating_of(a, rating), a["id"]))
    level = m.level_of(rules, best)
    return Side(level, m.rating_of(best, rating), (best["id"],), str(level), rival)


# -- the roll -----------------------------------------------------------------------------------------------


def band_of(rules: Rules, total: int) -> str:
    """The band a task total reads in the task check's table."""
    return Check.from_rules(rules, "task").row(total).result


def reaches(band: str, least: str) -> bool:
    return m.BANDS.index(band) >= m.BANDS.index(least)


def roll_task(
    ctx: TurnContext, label: RollLabel, modifiers: Sequence[Modifier], factions: Sequence[str], decided: str
) -> tuple[Roll, str]:
    """The task check of the rules data with its modifier ledger, labelled and logged; the roll and band."""
    task = Check.from_rules(ctx.rules, "task").roll(
        ctx, label, modifiers=modifiers, factions=factions, decided=decided
    )
    return task.roll, task.result
