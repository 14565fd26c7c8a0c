"""What one unit, and one faction, sees of another's units (spec §1.7): the one reading of the rule that the
report, the sealed views (``Overlord.sees``), the guards, the enemies that attack on sight, the chronicle's
arrivals and departures and the bot all ask.

A unit sees another where its observation reaches the other's stealth, a travelling watcher counting the
movement chapter's ``moving_observation`` less, or where the other announces itself. A faction sees another
faction's unit in a place where one of its own units there sees it, or where the unit shows itself: it
guards, it uses a skill that draws coins from the place or harvests an item with weight there (the report
chapter's ``shown_by_use``), or it is stacked directly under or over one of the faction's units. It knows
whose unit it is when the unit advertises, holds a title or guards, or when its best observation there
passes the unit's stealth by the report chapter's ``recognition`` margin.

This module sits below movement and guards (it imports only the stats, the burden's movement rules and the
order language), so both can ask it without importing each other.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from ...core.programs import Line, ProgramError, Timing, parse_line
from . import language, stats
from .burden import movement_rules

Rules = Mapping[str, Any]
Unit = Mapping[str, Any]
State = Mapping[str, Any]


# ---- one unit looking at another ---------------------------------------------------------------------


def observation_change(rules: Rules, unit: Unit) -> int:
    """A travelling unit spots less: its observation counts this much lower (spec §1.7)."""
    return int(movement_rules(rules).get("moving_observation", 0)) if unit.get("moving") else 0


def observation(rules: Rules, unit: Unit) -> int:
    """How well the unit spots others today: its stats' observation, less while it travels."""
    return stats.unit_stats(rules, unit)["observation"] + observation_change(rules, unit)


def stealth(rules: Rules, unit: Unit) -> int:
    """How well the unit hides: its stats' stealth (the manual's travel modifiers are left out, as in the
    alpha, so a travelling unit hides as well as a standing one)."""
    return stats.unit_stats(rules, unit)["stealth"]


def announces(state: State, unit: Unit) -> bool:
    """ANNOUNCE, set on the unit or on its whole faction: everyone present sees it, whatever its stealth."""
    faction = (state.get("factions") or {}).get(unit.get("owner")) or {}
    return bool(
        (unit.get("settings") or {}).get("announce") or (faction.get("settings") or {}).get("announce")
    )


def unit_sees(rules: Rules, state: State, watcher: Unit, unit: Unit) -> bool:
    """Whether ``watcher`` sees ``unit`` (both in one place): the unit announces itself, or the watcher's
    observation (one less on the road) reaches the unit's stealth."""
    return announces(state, unit) or observation(rules, watcher) >= stealth(rules, unit)


# ---- a unit showing itself to everyone present -------------------------------------------------------


def is_guarding(rules: Rules, unit: Unit) -> bool:
    """Guarded today: the guard effect a day of GUARD leaves on the unit, and it is not on the road."""
    effect = rules["guarding"]["effect"]
    return int((unit.get("effects") or {}).get(effect, 0)) > 0 and not unit.get("moving")


def _live_lines(unit: Unit) -> Iterable[Line]:
    """The unit's queue lines that run on their own (not waiting on another line's outcome), in order."""
    for text in unit.get("orders") or []:
        try:
            line = parse_line(str(text))
        except ProgramError:
            continue  # a line the checker refused never reached the queue; a stray one shows nothing
        if line.depth == 0:
            yield line


def on_guard(rules: Rules, unit: Unit) -> bool:
    """Guarding today, or keeping a guard order live in its queue (a day's guard ends with the day, so at
    the month's end the queue tells who guards)."""
    if "guarding" not in rules:
        return False
    if is_guarding(rules, unit):
        return True
    keywords = set(rules["guarding"]["orders"])
    return any(line.keyword in keywords for line in _live_lines(unit))


def day_work(unit: Unit) -> Line | None:
    """The full-day line the unit works at: the first live line of its queue that fills a day (the one a
    day of its month runs first), or None when it only works."""
    for line in _live_lines(unit):
        if language.timing(line) in (Timing.FULL_DAY, Timing.MOVEMENT):
            return line
    return None


def works_openly(rules: Rules, unit: Unit) -> bool:
    """Whether the unit's day work shows it: a USE of a skill whose use is of a kind the report chapter
    lists (taxing draws coins from the place), a harvest only when what it yields has weight."""
    line = day_work(unit)
    if line is None or line.keyword != "USE" or not line.args:
        return False
    tag = line.args[0].lower()
    use = (rules["skills"].get(tag) or {}).get("use") or {}
    kind = use.get("kind")
    if kind not in set((rules.get("report") or {}).get("shown_by_use") or ()):
        return False
    if kind != "harvest":
        return True
    return any(int((rules["items"].get(item) or {}).get("weight", 0)) > 0 for item in use.get("output") or {})


def shows_itself(rules: Rules, state: State, unit: Unit) -> bool:
    """Seen by every faction present, whatever its stealth: it announces, guards, or works openly."""
    return announces(state, unit) or on_guard(rules, unit) or works_openly(rules, unit)


# ---- a faction looking at a unit ---------------------------------------------------------------------


def watchers(state: State, faction: str, location: Any) -> list[Unit]:
    """The faction's units standing in a place (a travelling unit counts where the state puts it)."""
    return [
        unit
        for unit in (state.get("units") or {}).values()
        if unit.get("owner") == faction and unit.get("location") == location
    ]


def faction_sees(
    rules: Rules,
    state: State,
    faction: str | None,
    unit_id: str,
    looking: Iterable[Unit] | None = None,
    led: Collection[Any] | None = None,
) -> bool:
    """Whether ``faction`` sees the unit where it stands (None: the public, which stands nowhere and sees
    no unit). ``looking``: the faction's units there, when the caller already has them; ``led``: the
    ``stack`` of every unit of the faction, when the caller asks of many units."""
    units = state.get("units") or {}
    unit = units[unit_id]
    if faction is None:
        return False
    if unit.get("owner") == faction:
        return True
    present = list(watchers(state, faction, unit.get("location")) if looking is None else looking)
    if not present:
        return False
    leader = units.get(unit.get("stack") or "")
    if leader is not None and leader.get("owner") == faction:
        return True
    if unit_id in (led if led is not None else {other.get("stack") for other in present}):
        return True
    if shows_itself(rules, state, unit):
        return True
    hidden = stealth(rules, unit)
    return any(observation(rules, watcher) >= hidden for watcher in present)


def factions_seeing(rules: Rules, state: State, unit_id: str) -> set[str]:
    """Every faction that sees the unit where it stands, its own among them."""
    units = state.get("units") or {}
    where = units[unit_id].get("location")
    present = {str(u.get("owner")) for u in units.values() if u.get("location") == where}
    return {faction for faction in present if faction_sees(rules, state, faction, unit_id)}


def advertises(state: State, unit: Unit) -> bool:
    """ADVERTISE, set on the unit or on its whole faction: whoever sees it knows whose it is."""
    faction = (state.get("factions") or {}).get(unit.get("owner")) or {}
    own = (unit.get("settings") or {}).get("advertise")
    return bool(own or (faction.get("settings") or {}).get("advertise"))


def faction_recognises(
    rules: Rules, state: State, faction: str, unit_id: str, looking: Iterable[Unit] | None = None
) -> bool:
    """Whether ``faction`` knows whose unit this is: its own; one that advertises; a title holder or a
    guard; or one whose stealth its best observation in the place passes by the recognition margin.
    ``looking``: the faction's units there, when the caller already has them."""
    unit = (state.get("units") or {})[unit_id]
    if unit.get("owner") == faction or unit.get("title") or on_guard(rules, unit) or advertises(state, unit):
        return True
    present = watchers(state, faction, unit.get("location")) if looking is None else looking
    needed = stealth(rules, unit) + int(rules["report"]["recognition"])
    return any(observation(rules, watcher) >= needed for watcher in present)
