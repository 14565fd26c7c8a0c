"""Titles: claiming and challenging, bestowing, yielding, cancelling, ranges and the land they own.

A title sits on a place (``places.<id>.title: {tag, holder}``, holder null while vacant) and its holder
carries ``title: {tag, location}``. The catalogue (``titles`` in the rules data) gives each title its tier,
requirement, cost, range, keep distance, challenge shares and the titles it may cancel.

Ranges are days' walk along the shortest path in fair weather (a house rule), measured with the world's
``travel_days``. The functions here change the state and say what happened as an :class:`Outcome`; the
executors (``title_orders``) turn outcomes into results and events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from ...core import world as core_world
from . import stances

__all__ = [
    "Outcome",
    "Reach",
    "bestow",
    "cancel",
    "claim",
    "held_titles",
    "land_owners",
    "lose_out_of_range",
    "skill_days",
    "skill_level",
    "title_at",
    "transfer",
    "vacate",
    "yield_title",
]

State = MutableMapping[str, Any]
Rules = Mapping[str, Any]
Days = Callable[[str, str], "int | None"]  # walking days between two adjacent places, None if impassable


@dataclass
class Outcome:
    """What one title order did. ``done`` False: its requirements are unmet today (``reason`` says which,
    for the bot and the tests; the manual keeps such orders silently)."""

    done: bool
    reason: str = ""
    won: bool | None = None  # a claim: whether the title changed hands
    paid: int = 0
    holder: str | None = None  # the holder challenged, cancelled, or handed the title
    holder_share: int = 0
    percent: int | None = None  # the challenger's experience as a share of the holder's
    threshold: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


# --- reading units and places ----------------------------------------------------------------------


def skill_days(unit: Mapping[str, Any], skill: str) -> int:
    return int((unit.get("skills") or {}).get(skill, 0))


def skill_level(rules: Rules, unit: Mapping[str, Any], skill: str) -> int:
    """The level the unit's days of experience reach, from the skills chapter's cumulative thresholds."""
    days = skill_days(unit, skill)
    thresholds = ((rules.get("skills") or {}).get(skill) or {}).get("levels") or []
    return sum(1 for needed in thresholds if days >= int(needed))


def title_spec(rules: Rules, tag: str) -> Mapping[str, Any]:
    return rules["titles"][tag]


def title_name(rules: Rules, tag: str) -> str:
    return str(title_spec(rules, tag)["name"])


def title_at(state: Mapping[str, Any], location: str) -> Mapping[str, Any] | None:
    return ((state.get("places") or {}).get(location) or {}).get("title")


def seat_kind(world: Any, place: str) -> str:
    """The kind of seat a place is, in the words of the titles' ``places`` lists: an inner place's kind
    (``mage tower`` -> ``mage_tower``), and ``imperial_city`` for the city in the capital's territory."""
    location = world[place]
    kind = str(location.terrain).replace(" ", "_")
    parent = world[location.parent] if location.parent else None
    if kind == "city" and parent is not None and parent.region == "capital":
        return "imperial_city"
    return kind


def initial_titles(world: Any, rules: Rules) -> dict[str, str]:
    """Each inner place's title, vacant at the start: the title whose ``places`` name the place's kind."""
    seats = {str(kind): str(tag) for tag, spec in rules["titles"].items() for kind in spec.get("places", [])}
    found = {}
    for place, location in world.locations.items():
        if location.parent is not None and seat_kind(world, place) in seats:
            found[place] = seats[seat_kind(world, place)]
    return found


def held_titles(state: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(location, tag, holder) of every held title, by location id."""
    held = []
    # Picked out before sorting: a few places hold a title, and every trade and recruit asks.
    for location, place in (state.get("places") or {}).items():
        title = (place or {}).get("title")
        if title and title.get("holder"):
            held.append((location, str(title["tag"]), str(title["holder"])))
    return sorted(held, key=lambda entry: entry[0])


def may_hold(rules: Rules, unit: Mapping[str, Any]) -> bool:
    return unit.get("race") in rules["title_rules"]["who"]


def meets_requirement(rules: Rules, unit: Mapping[str, Any], tag: str) -> bool:
    need = title_spec(rules, tag)["requirement"]
    return skill_level(rules, unit, need["skill"]) >= int(need["level"])


def _at(unit: Mapping[str, Any], location: str) -> bool:
    """Present at a place: standing there (in it or in a structure of it), not on the road."""
    return unit.get("location") == location and not unit.get("moving")


# --- geography -----------------------------------------------------------------------------------


def parent_of(world: Any, place: str) -> str | None:
    return getattr(world[place], "parent", None)


class Reach:
    """Days' walk over one world, remembered: the same ranges are asked for every place, every day.

    ``days`` gives the walking days between two adjacent places (None: impassable); by default the
    world's travel times in fair weather (:func:`fair_walk`)."""

    def __init__(self, world: Any, days: Days | None = None) -> None:
        self.world = world
        self.days = days if days is not None else fair_walk(world)
        self._distances: dict[tuple[str, int], dict[str, int]] = {}
        self._covered: dict[tuple[str, str], frozenset[str]] = {}
        self.children: dict[str, list[str]] = {}
        for place in world:
            parent = parent_of(world, place)
            if parent is not None:
                self.children.setdefault(parent, []).append(place)

    def inside(self, place: str) -> list[str]:
        """Every place inside ``place``, at any depth."""
        found, todo = [], [place]
        while todo:
            for child in self.children.get(todo.pop(), ()):
                found.append(child)
                todo.append(child)
        return found

    def ways(self, place: str) -> list[str]:
        """The places one step away: neighbours, the place around it, the places inside it."""
        ways = list(self.world.neighbours(place))
        parent = parent_of(self.world, place)
        if parent is not None:
            ways.append(parent)
        return ways + self.children.get(place, [])

    def distances(self, origin: str, limit: int) -> dict[str, int]:
        """Shortest days' walk from ``origin`` to every place within ``limit`` days (Dijkstra)."""
        key = (origin, limit)
        if key not in self._distances:
            found = core_world.shortest_paths(self.ways, self.days, origin, limit)
            self._distances[key] = {place: days for place, (days, _) in found.items()}
        return self._distances[key]

    def covered(self, rules: Rules, location: str, tag: str) -> frozenset[str]:
        """The places a land title owns: its own place and what is inside it (area titles), or every
        place within its range with everything inside those (ranged titles)."""
        key = (location, tag)
        if key not in self._covered:
            spec = title_spec(rules, tag)
            if not spec.get("land"):
                places: set[str] = set()
            elif spec["range"] == "area":
                places = {location, *self.inside(location)}
            else:
                places = set(self.distances(location, int(spec["range"])))
                for place in list(places):
                    places.update(self.inside(place))
            self._covered[key] = frozenset(places)
        return self._covered[key]

    def in_keep(self, rules: Rules, location: str, tag: str, where: str) -> bool:
        """Whether a holder standing at ``where`` keeps the title of ``location``."""
        keep = title_spec(rules, tag)["keep"]
        if keep is None:
            return True
        if keep == "area":
            return where in {location, parent_of(self.world, location), *self.inside(location)}
        return where in self.distances(location, int(keep))


def fair_walk(world: Any) -> Days:
    """Walking days between two adjacent places in fair weather, from the world's travel times. A world
    with no travel table (made before the world chapter's generator) has no ways: a ranged title then
    owns its own place and what lies inside it."""
    if getattr(world, "travel", None) is None:
        return lambda a, b: None
    return lambda a, b: core_world.travel_days(world, a, b, "walk", None)


def land_owners(
    state: Mapping[str, Any],
    rules: Rules,
    reach: Reach,
    location: str,
    held: list[tuple[str, str, str]] | None = None,
) -> list[tuple[str, str, str]]:
    """Every (faction, title location, tag) whose land title covers ``location``, the most local first:
    the place's own title, then shorter ranges, then the nearer title (then by id). ``held``: the held titles
    (``held_titles``) when the caller asks for many places while no title changes hands."""
    found = []
    for title_location, tag, holder in held_titles(state) if held is None else held:
        if location not in reach.covered(rules, title_location, tag):
            continue
        spec = title_spec(rules, tag)
        span = 0 if spec["range"] == "area" else int(spec["range"])
        own = 0 if title_location == location else 1
        near = reach.distances(title_location, span).get(location, span)
        owner = state["units"][holder]["owner"]
        found.append(((own, span, near, title_location), (str(owner), title_location, tag)))
    return [entry for _, entry in sorted(found)]


# --- changing hands ------------------------------------------------------------------------------


def transfer(state: State, rules: Rules, location: str, new_holder: str | None) -> str | None:
    """Hand the title of ``location`` to ``new_holder`` (None: vacant); returns the previous holder.
    The Overlord's NPC allies change their minds about both factions."""
    title = state["places"][location]["title"]
    old = title.get("holder")
    if old and old in state["units"]:
        state["units"][old]["title"] = None
    title["holder"] = new_holder
    # The holder's faction is public (the manual shows it to everyone): the place's record names it, so
    # that a sealed campaign's public view tells whose the title is without showing the unit.
    title["faction"] = state["units"][new_holder]["owner"] if new_holder is not None else None
    if new_holder is not None:
        state["units"][new_holder]["title"] = {"tag": title["tag"], "location": location}
    spec = title_spec(rules, str(title["tag"]))
    old_faction = state["units"][old]["owner"] if old and old in state["units"] else None
    new_faction = state["units"][new_holder]["owner"] if new_holder else None
    if old_faction != new_faction:
        for npc in spec.get("npc_allies") or ():
            if npc not in state.get("factions", {}):
                continue
            if old_faction is not None:
                stances.set_stance(state, rules, npc, old_faction, "enemy")
            if new_faction is not None:
                stances.set_stance(state, rules, npc, new_faction, "ally")
    return old


def vacate(state: State, rules: Rules, location: str) -> str | None:
    return transfer(state, rules, location, None)


def _pay(unit: MutableMapping[str, Any], amount: int) -> bool:
    items = unit.setdefault("items", {})
    if int(items.get("coin", 0)) < amount:
        return False
    items["coin"] = int(items.get("coin", 0)) - amount
    if not items["coin"]:
        del items["coin"]
    return True


def claim(state: State, rules: Rules, unit_id: str, tag: str, location: str, free: bool = False) -> Outcome:
    """CLAIM: a leader at the title's place pays its cost and takes it if vacant, or challenges the holder
    on experience in the title's skill (more than 110 % of the holder's when present, at least the
    absent share when not); the holder's faction gets half the fee either way."""
    unit = state["units"][unit_id]
    title = title_at(state, location)
    if title is None or title.get("tag") != tag:
        return Outcome(False, "no such title there")
    if not may_hold(rules, unit):
        return Outcome(False, "only leaders and heroes hold titles")
    if not _at(unit, location):
        return Outcome(False, "not at the title's place")
    holder = title.get("holder")
    if holder == unit_id:
        return Outcome(True, "already held", won=True)
    if unit.get("title"):
        return Outcome(False, "already holds a title")
    spec = title_spec(rules, tag)
    if holder and (free or spec.get("vacant_only") or not spec.get("challenge")):
        return Outcome(False, "the title is held")
    if not meets_requirement(rules, unit, tag):
        return Outcome(False, "requirement not met")
    cost = int(spec["cost"])
    if not _pay(unit, cost):
        return Outcome(False, "not enough coins in hand")
    if not holder:
        transfer(state, rules, location, unit_id)
        return Outcome(True, won=True, paid=cost)
    held_by = state["units"][holder]
    share = cost * int(rules["title_rules"]["holder_share"]) // 100
    fund_owner = state["factions"][held_by["owner"]]
    fund_owner["fund"] = int(fund_owner.get("fund", 0)) + share
    skill = spec["requirement"]["skill"]
    mine, theirs = skill_days(unit, skill), skill_days(held_by, skill)
    present = _at(held_by, location)
    threshold = int(spec["challenge"]["present" if present else "absent"])
    # Integer arithmetic: 'more than 110 %' and 'at least 90 %' without rounding either side.
    won = mine * 100 > theirs * threshold if present else mine * 100 >= theirs * threshold
    percent = mine * 100 // theirs if theirs else None
    if won:
        transfer(state, rules, location, unit_id)
    return Outcome(
        True, won=won, paid=cost, holder=holder, holder_share=share, percent=percent, threshold=threshold,
        data={"present": present},
    )  # fmt: skip


def bestow(state: State, rules: Rules, unit_id: str, target_id: str, sees_faction: bool = True) -> Outcome:
    """BESTOW: the holder hands its title to a leader at the same place who holds none. Another
    faction's leader must be willing, as for a gift."""
    unit = state["units"][unit_id]
    target = state["units"].get(target_id)
    held = unit.get("title")
    if not held:
        return Outcome(False, "holds no title")
    if target is None or target_id == unit_id:
        return Outcome(False, "no such unit")
    if not may_hold(rules, target) or target.get("title"):
        return Outcome(False, "the receiver cannot hold it")
    if target.get("location") != unit.get("location") or target.get("moving") or unit.get("moving"):
        return Outcome(False, "the receiver is not here")
    if not stances.may(state, rules, unit["owner"], target["owner"], "give", known=sees_faction):
        return Outcome(False, "the receiver's faction refuses it")
    transfer(state, rules, held["location"], target_id)
    return Outcome(True, holder=target_id, data={"tag": held["tag"], "location": held["location"]})


def yield_title(state: State, rules: Rules, unit_id: str, tag: str | None = None) -> Outcome:
    """YIELD: the holder gives up its title (the one named, when a tag is given)."""
    held = state["units"][unit_id].get("title")
    if not held or (tag is not None and held["tag"] != tag):
        return Outcome(False, "holds no such title")
    vacate(state, rules, held["location"])
    return Outcome(True, data={"tag": held["tag"], "location": held["location"]})


def cancel(state: State, rules: Rules, reach: Reach, unit_id: str, tag: str, location: str) -> Outcome:
    """CANCEL: a holder whose title may revoke ``tag`` does so at its place, within its own range, when
    it has more experience in the cancel skill than that title's holder. Free; the title falls vacant."""
    unit = state["units"][unit_id]
    held = unit.get("title")
    if not held or tag not in (title_spec(rules, held["tag"]).get("cancels") or ()):
        return Outcome(False, "its title gives no such power")
    title = title_at(state, location)
    if title is None or title.get("tag") != tag:
        return Outcome(False, "no such title there")
    if not title.get("holder"):
        return Outcome(True, "already vacant")
    if not _at(unit, location):
        return Outcome(False, "not at the title's place")
    if location not in reach.covered(rules, held["location"], held["tag"]):
        return Outcome(False, "beyond its range")
    holder = str(title["holder"])
    skill = rules["title_rules"]["cancel_skill"]
    if skill_days(unit, skill) <= skill_days(state["units"][holder], skill):
        return Outcome(False, "not more experienced than the holder")
    vacate(state, rules, location)
    return Outcome(True, holder=holder)


def lose_out_of_range(state: State, rules: Rules, reach: Reach) -> list[tuple[str, str, str]]:
    """Vacate every title whose holder stands beyond its keep distance; (location, tag, holder) of each."""
    lost = []
    for location, tag, holder in held_titles(state):
        unit = state["units"].get(holder)
        if unit is None:
            vacate(state, rules, location)
            lost.append((location, tag, holder))
            continue
        if not reach.in_keep(rules, location, tag, str(unit.get("location"))):
            vacate(state, rules, location)
            lost.append((location, tag, holder))
    return lost


def titles_of(state: Mapping[str, Any], faction: str) -> Iterable[tuple[str, str, str]]:
    return [t for t in held_titles(state) if state["units"][t[2]]["owner"] == faction]
