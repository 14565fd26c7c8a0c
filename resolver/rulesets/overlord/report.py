"""A faction's report of the month, laid out as the manual's (spec §1.6), with its fog of war (§1.7).

The engine's report holds what the faction alone saw; these sections add the manual's blocks: the faction
(fund, control points, stances, and how the factions in contact with it regard it), each of its units
(what it is, holds, weighs and knows, what it may learn, its stats, upkeep and tactic, what it did day by
day and the queue it keeps), the units it lost during the month as they were when they left
(``departures.py``), its structures, one block per place where it had a unit (the climate, the economy,
the market, the title, the ways out sorted by days, what happened there while it was there, the units it
can see, the inner places), and what it learnt.

Only the state after the month and the events the faction saw are read, so nothing here tells a faction
what it could not have seen: another faction's units appear only where its observation, their own showing
(ANNOUNCE, a guard, a stack it shares) lets them, their faction only when it can be recognised, and of
their goods only what has weight.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ...core import world as geo
from ...core.phases import State
from ...engine.ruleset import Game
from . import (
    burden,
    control,
    departures,
    economy,
    knowledge,
    learning,
    sight,
    stances,
    stats,
    titles,
)
from . import model as m
from . import structures as kinds
from . import weather as skies

Rules = Mapping[str, Any]
Event = Mapping[str, Any]
Section = tuple[str, list[str]]


def sections(game: Game, state: State, faction: str, events: Sequence[Event]) -> list[Section]:
    """The report's own sections for one faction: faction, units, structures, places, knowledge."""
    rules = game.rules
    mine = [
        uid for uid in m.report_order(state, list(game.world)) if state["units"][uid].get("owner") == faction
    ]
    # The units that left the faction this month (spec 1.6.5): fallen, deserted, disbanded, or gone over
    # to another faction; a unit that came back to it is listed among its units only.
    lost = {uid: event for uid, event in departures.lost_by(events, faction).items() if uid not in mine}
    by_unit = _events_by_unit(state, events, set(mine) | set(lost))
    found: list[Section] = [
        ("Your faction", faction_lines(game, state, faction) + regard_lines(game, state, faction))
    ]
    learnable: dict[Any, str] = {}  # what units of one race and the same skills may learn, worked out once
    found.append(
        ("Your units", [line for uid in mine for line in unit_lines(game, state, uid, by_unit, learnable)])
    )
    if lost:
        gone = [line for event in lost.values() for line in lost_lines(game, state, event, by_unit)]
        found.append(("Units lost this month", gone))
    owned = structure_lines(game, state, faction)
    if owned:
        found.append(("Your structures", owned))
    found.append(("Places", place_lines(game, state, faction, events, set(mine), set(lost))))
    learnt = knowledge_lines(rules, events)
    if learnt:
        found.append(("Knowledge", learnt))
    # A block opens with a blank line to part it from the one before; the section's title does that.
    return [(title, lines[1:] if lines[0] == "" else lines) for title, lines in found if lines]


# ---------------------------------------------------------------- the faction


def faction_lines(game: Game, state: State, faction: str) -> list[str]:
    rules = game.rules
    record = state["factions"][faction]
    used, total = control.required(state, rules, faction), control.available(state, rules, faction)
    lines = [
        f"{game.name_and_id(faction)}. Fund: {_coins(int(record.get('fund', 0)))}.",
        f"Control points: {used} of {total}.",
        f"Default attitude is {stances.stance_name(rules, stances.default_stance(state, rules, faction))}.",
    ]
    for other, word in sorted((record.get("stances") or {}).items()):
        if other != "default" and other in state["factions"]:
            lines.append(f"Attitude to {game.name_and_id(other)} is {stances.stance_name(rules, str(word))}.")
    return [f"- {line}" for line in lines]


def regard_lines(game: Game, state: State, faction: str) -> list[str]:
    """How each faction in contact with this one regards it (spec 1.6.3), always shown (house rule
    ``report``: the manual names no order to ask for it); of a faction out of contact nothing is said."""
    rules = game.rules
    met = contacts(rules, state, faction)
    if not met:
        return ["- No other faction is in contact with you, so how others regard you is not known."]
    return [
        f"- Attitude of {game.name_and_id(other)} to you is "
        f"{stances.stance_name(rules, stances.stance(state, rules, other, faction))}."
        for other in met
    ]


def contacts(rules: Rules, state: State, faction: str) -> list[str]:
    """The factions in contact with this one at the month's end, in the state's order: at some place a
    unit of each sees a unit of the other (``seen``: observation, a unit announcing itself, a guard, a
    shared stack). Seeing without being seen is no contact: the unseen watcher learns nothing more."""
    units = state["units"]
    led: dict[str, set[Any]] = {}  # each faction's ``stack`` links, as ``seen`` reads them

    def links(owner: str) -> set[Any]:
        if owner not in led:
            led[owner] = {u.get("stack") for u in units.values() if u.get("owner") == owner}
        return led[owner]

    found: set[str] = set()
    for here in m.by_location(state).values():
        mine = [uid for uid, unit in here.items() if unit.get("owner") == faction]
        if not mine:
            continue
        watchers = [units[uid] for uid in mine]
        for other in sorted({str(unit.get("owner")) for unit in here.values()} - {faction} - found):
            theirs = [uid for uid, unit in here.items() if unit.get("owner") == other]
            if any(seen(rules, state, faction, watchers, uid, links(faction)) for uid in theirs) and any(
                seen(rules, state, other, [units[uid] for uid in theirs], uid, links(other)) for uid in mine
            ):
                found.add(other)
    return [other for other in state["factions"] if other in found]


# ---------------------------------------------------------------- the units


def unit_lines(
    game: Game,
    state: State,
    uid: str,
    by_unit: Mapping[str, list[Event]],
    learnable: dict[Any, str] | None = None,
    gone: bool = False,
) -> list[str]:
    """One unit's block: heading, then a line each for what it is, holds, weighs, knows and does.
    ``learnable``: ``_may_learn``'s answers so far, kept by the caller across the faction's units.
    ``gone``: the unit left the faction this month; what it may learn, its upkeep and its queue are no
    longer the faction's concern, so they are left out."""
    rules = game.rules
    unit = state["units"][uid]
    heading = f"### {unit.get('name') or 'A unit'} [{uid}], at {_place(game, unit.get('location'))}"
    if unit.get("moving"):
        trip = unit["moving"]
        done = f"{trip.get('done', 0)} of {trip.get('days')} days"
        heading += f", on the way to {_place(game, trip.get('to'))} ({done})"
    held = unit.get("title")
    if held:
        heading += f", {titles.title_name(rules, held['tag'])} of {_place(game, held.get('location'))}"
    lines = ["", heading, ""]
    under = f", stacked under {_unit_name(state, unit['stack'])}" if unit.get("stack") else ""
    lines.append(f"- {stats.figures_words(rules, unit, int(unit.get('figures', 1)))}{under}.")
    lines.append(f"- Has: {_possessions(rules, unit, everything=True) or 'nothing'}.")
    lines.append(f"- {_burden_words(rules, state, uid)}")
    lines.append(f"- Skills: {_skills(rules, unit) or 'none'}.")
    may = "" if gone else _may_learn(rules, unit, learnable)
    if may:
        lines.append(f"- May learn: {may}.")
    shown = _stats(rules, unit)
    if shown:
        lines.append(f"- Stats: {shown}.")
    if not gone:
        season = str(game.calendar.date(int(state["turn"])).season)
        lines.append(f"- Upkeep: {_coins(economy.upkeep_due(rules, unit, season)[0])} a month.")
    tactic = unit.get("tactic") or {}
    if tactic:
        words = [
            str(tactic.get("battle", "fight")).lower(),
            f"{str(tactic.get('rank', 'front')).lower()} rank",
            f"{str(tactic.get('file', 'center')).lower()} file",
            str(tactic.get("move", "advance")).lower(),
        ]
        lines.append(f"- Tactic: {', '.join(words)}.")
    for event in by_unit.get(uid, []):
        lines.append(f"- {dated(game, event)}")
    if gone:
        return lines
    queue = unit.get("orders") or []
    lines.append(
        "- Orders: " + ("; ".join(f"`{text}`" for text in queue) if queue else "none (it works)") + "."
    )
    return lines


def lost_lines(game: Game, state: State, event: Event, by_unit: Mapping[str, list[Event]]) -> list[str]:
    """The block of a unit the faction lost this month, from its record as it stood when it left (the
    event that told it): its heading says how and when it left, then what it was and what it did."""
    data = event.get("data") or {}
    uid = str(data.get("unit"))
    # The unit as it was, in the state as it is: a fallen unit is gone from it, one that went over to
    # another faction stands in it under its new owner.
    then = {**state, "units": {**state["units"], uid: dict(data.get("record") or {})}}
    lines = unit_lines(game, then, uid, by_unit, gone=True)
    lines[1] += f"; {_fate_words(game, event)}"
    return lines


def _fate_words(game: Game, event: Event) -> str:
    data = event.get("data") or {}
    day = int(event.get("tick") or 0)
    when = f"on day {day}" if day else "at the month's end"
    heir = str(data.get("heir") or "")
    if heir and heir not in game.factions:  # an NPC faction: the game knows it by its id alone
        heir = f"{data.get('heir_name') or heir} [{heir}]"
    elif heir:
        heir = game.name_and_id(heir)
    fate = data.get("fate")
    if fate == departures.SLAIN:
        return f"fell in battle {when}"
    if fate == departures.DESERTED:
        return f"deserted {when}"
    if fate == departures.DISBANDED:
        return f"disbanded {when}"
    if fate == departures.SWORN:
        return f"went over to {heir} {when}, as it swore to"
    return f"handed to {heir} when the faction resigned"


def _possessions(rules: Rules, unit: Mapping[str, Any], everything: bool) -> str:
    """'1 horse [hrse] (1 equipped), 20 coins [coin]': every item for the owner, for others only what has
    weight (coins and mana are seen only by their owner)."""
    equipped = unit.get("equipped") or {}
    parts = []
    for tag, count in sorted((unit.get("items") or {}).items()):
        count = int(count or 0)
        item = rules["items"].get(tag) or {}
        if count <= 0 or (not everything and not item.get("weight")):
            continue
        worn = int(equipped.get(tag, 0) or 0)
        parts.append(
            f"{stats.items_words(rules, tag, count)} [{tag}]" + (f" ({worn} equipped)" if worn else "")
        )
    return ", ".join(parts)


def _burden_words(rules: Rules, state: State, uid: str) -> str:
    """Weight and capacity per mode; for a stack leader, its whole stack's."""
    members = [uid, *m.stack_of(state, uid)]
    load = burden.stack_burden(rules, [state["units"][member] for member in members])
    capacity = [
        f"{int(load.units(mode))} {knowledge.MODE_WORDS.get(mode, mode)}"
        for mode in burden.MODES
        if load.capacity.get(mode)
    ]
    whose = " (its stack's)" if len(members) > 1 else ""
    return f"Weight{whose} {load.weight // burden.MILLI}. Capacity {', '.join(capacity) or 'none'}."


def _skills(rules: Rules, unit: Mapping[str, Any]) -> str:
    parts = []
    for tag, days in sorted((unit.get("skills") or {}).items()):
        if tag in rules["skills"] and stats.knows(unit, tag):
            level = stats.skill_level(rules, unit, tag)
            parts.append(f"{stats.level_words(rules, tag, level)} [{tag}] ({_days(days)})")
    return ", ".join(parts)


def _may_learn(rules: Rules, unit: Mapping[str, Any], learnable: dict[Any, str] | None = None) -> str:
    """Each skill beyond the basic ones the unit may study now, at the level it would reach next.
    The answer reads only the unit's race and skills, so ``learnable`` keeps it by those: a faction's
    companies mostly share them, and each asks every skill of the catalogue."""
    if learnable is None:
        return _learnable(rules, unit)
    key = (unit.get("race"), tuple(sorted((unit.get("skills") or {}).items())))
    if key not in learnable:
        learnable[key] = _learnable(rules, unit)
    return learnable[key]


def _learnable(rules: Rules, unit: Mapping[str, Any]) -> str:
    parts = []
    for tag in rules["skills"]:
        if "basic" in stats.flags(rules, tag) or learning.never_reason(rules, unit, tag):
            continue
        level = stats.skill_level(rules, unit, tag)
        if level >= learning.own_limit(rules, unit, tag) or level >= len(
            rules["skills"][tag].get("levels") or []
        ):
            continue
        need = stats.prerequisite(rules, tag)
        if need and not stats.has_level(rules, unit, need[0], need[1]):
            continue
        parts.append(f"{stats.level_words(rules, tag, level + 1)} [{tag}]")
    return ", ".join(parts)


def _stats(rules: Rules, unit: Mapping[str, Any]) -> str:
    """The stats that differ from a plain figure's, then control points and mana."""
    table = rules["unit_stats"]
    have = stats.unit_stats(rules, unit)
    shown = [
        f"{stats.STAT_WORDS.get(name, name)} {have[name]}"
        for name in table["names"]
        if name in have and have[name] != int(table["defaults"].get(name, 0))
    ]
    shown.append(f"control points {have['control']}")
    if have.get("max_mana"):
        shown.append(f"mana {int(unit.get('mana', 0))} of {have['max_mana']}")
    return ", ".join(shown)


def _events_by_unit(state: State, events: Sequence[Event], mine: set[str]) -> dict[str, list[Event]]:
    """The month's events of each of the faction's units, in the month's order: its actions."""
    found: dict[str, list[Event]] = {}
    for event in events:
        doer = doer_of(event)
        # A unit's leaving is told in its block's heading, not again among its deeds.
        if doer in mine and event.get("kind") != departures.LOST:
            found.setdefault(doer, []).append(event)
    return found


def dated(game: Game, event: Event) -> str:
    """'Day 15 - Nirmal Yadav of The Empire reaches 1st combat.': the event's sentence after its day (a
    sentence that opens with the same day says it once); an event of the month's end carries none."""
    text = game.ruleset.describe(event, game)
    day = int(event.get("tick") or 0)
    if not day:
        return text
    opening = f"On day {day}, "
    if text.startswith(opening):
        text = text[len(opening) :]
        return f"Day {day} - {text[:1].upper() + text[1:]}"
    # A deed of many days told once (digests.py): its days lead the line instead.
    for pattern in _SPANS:
        span = pattern.match(text)
        if span and int(span["first"]) == day:
            some = f" ({span['days']} of them)" if "days" in pattern.groupindex else ""
            text = text[span.end() :]
            return f"Days {day} to {span['last']}{some} - {text[:1].upper() + text[1:]}"
    return f"Day {day} - {text}"


# The openings of an event of many days (events.yaml: teaches, taxed).
_SPANS = (
    re.compile(r"From day (?P<first>\d+) to day (?P<last>\d+), "),
    re.compile(r"On (?P<days>\d+) days between day (?P<first>\d+) and day (?P<last>\d+), "),
)


def doer_of(event: Event) -> str | None:
    """The unit an event tells the deed of: the events of the month name it by ``unit`` beside its
    ``unit_name``, or by ``uid`` (movement's, whose ``unit`` is the name)."""
    data = event.get("data") or {}
    if "uid" in data:
        return str(data["uid"])
    if "unit_name" in data and "unit" in data:
        return str(data["unit"])
    return None


# ---------------------------------------------------------------- structures


def structure_lines(game: Game, state: State, faction: str) -> list[str]:
    lines = []
    for sid, record in sorted((state.get("structures") or {}).items(), key=lambda item: m._id_key(item)):
        if kinds.owner_of(state, sid) != faction:
            continue
        what = kinds.type_name(game.rules, str(record.get("type")))
        done = "" if record.get("complete") else ", unfinished"
        lines.append(
            f"- {record.get('name') or what} [{sid}], {what} at {_place(game, record.get('location'))}{done}."
        )
    return lines


# ---------------------------------------------------------------- places


def presence(
    state: State, faction: str, events: Sequence[Event], mine: set[str], former: Collection[str] = ()
) -> set[str]:
    """Where the faction had a unit this month: where its units stand now, and every place one of its
    units, or of the units it lost this month (``former``), did something."""
    places = {str(state["units"][uid].get("location")) for uid in mine}
    doers = set(mine) | set(former)
    places |= {str(event["place"]) for event in events if event.get("place") and doer_of(event) in doers}
    return places


def place_lines(
    game: Game,
    state: State,
    faction: str,
    events: Sequence[Event],
    mine: set[str],
    former: Collection[str] = (),
) -> list[str]:
    """One block a place where the faction had a unit this month. ``former``: the units it lost this
    month, whose deeds are told under each of them, not again among a place's events."""
    world = game.world
    lines: list[str] = []
    # The faction's places are found once: asked per place, they cost a scan of every event each.
    present = presence(state, faction, events, mine, former)
    # So is the weather the directions reckon with: it reads every territory of the world.
    sky = skies.weather_of(world, state.get("places") or {}, "now")
    for loc in [loc for loc in world if loc in present]:
        lines += one_place(game, state, faction, loc, events, mine, sky, former)
    return lines


def one_place(
    game: Game,
    state: State,
    faction: str,
    loc: str,
    events: Sequence[Event],
    mine: set[str],
    sky: Mapping[str, str] | None = None,
    former: Collection[str] = (),
) -> list[str]:
    rules, world = game.rules, game.world
    told = set(mine) | set(former)  # whose deeds are told under each unit instead
    here = world[loc]
    record = (state.get("places") or {}).get(loc) or {}
    identity = f"### {_place(game, loc)}, {_terrain(here.terrain)}"
    if here.parent:
        identity += f", located in {_place(game, here.parent)}, {_terrain(world[here.parent].terrain)}"
    lines = ["", identity, ""]
    climate = climate_line(game, state, here.parent or loc)
    if climate:
        lines.append(f"- {climate}")
    if "population" in record:
        lines.append(
            f"- Population: {record['population']}. Wages: {_coins(int(record.get('wages', 0)))}, "
            f"taxes: {_coins(int(record.get('taxes', 0)))}."
        )
    hire = [
        f"{offer.get('count', 0)} {_race_words(rules, race)} [{race}] at {_coins(int(offer.get('price', 0)))}"
        for race, offer in sorted((record.get("recruits") or {}).items())
        if int(offer.get("count", 0) or 0) > 0
    ]
    if hire:
        lines.append(f"- For hire: {', '.join(hire)}.")
    market = record.get("market") or {}
    for side, words in (("sell", "For sale"), ("buy", "Buying")):
        offers = _offers(rules, market.get(side) or {})
        if offers:
            lines.append(f"- {words}: {offers}.")
    if market.get("days"):
        lines.append(f"- Market days: {', '.join(stats.ordinal(int(day)) for day in market['days'])}.")
    resources = ", ".join(
        f"{stats.items_words(rules, tag, int(count))} [{tag}]"
        for tag, count in sorted((record.get("resources") or {}).items())
        if int(count or 0) > 0 and tag in rules["items"]
    )
    if resources:
        lines.append(f"- Resources this month: {resources}.")
    title = record.get("title")
    if title:
        lines.append(f"- Title: {_title_words(game, state, title)}")
    lines += direction_lines(game, state, loc, sky)
    said = [
        event
        for event in events
        if event.get("place") == loc and doer_of(event) not in told and event.get("kind") not in _ELSEWHERE
    ]
    if said:
        lines.append("- Events:")
        lines += [f"    - {dated(game, event)}" for event in said]  # its day said once
    if any(state["units"][uid].get("location") == loc for uid in mine):
        present = units_present(game, state, faction, loc)
        if present:
            lines.append("- Units here:")
            lines += present
    inner = inner_lines(game, state, loc)
    if inner:
        lines.append("- Inner locations:")
        lines += inner
    return lines


# Events that carry a place but tell of the faction as a whole, shown elsewhere in the report.
_ELSEWHERE = frozenset({"knowledge_gained", "knowledge_reshown"})


def climate_line(game: Game, state: State, territory: str) -> str:
    """'Last month was autumn, rainy; next month should be winter, stormy.' from the territory's weather."""
    sky = ((state.get("places") or {}).get(territory) or {}).get("weather") or {}
    if not sky:
        return ""
    words = (game.rules.get("weather") or {}).get("words") or {}
    turn = int(state["turn"])  # the state after a month stands at the next month's start
    next_season = str(game.calendar.date(turn).season).lower()
    last = sky.get("last")
    now = words.get(sky.get("now"), sky.get("now"))
    if last is None or turn <= 1:
        return f"Next month should be {next_season}, {now}."
    last_season = str(game.calendar.date(turn - 1).season).lower()
    return (
        f"Last month was {last_season}, {words.get(last, last)}; next month should be {next_season}, {now}."
    )


def direction_lines(game: Game, state: State, loc: str, sky: Mapping[str, str] | None = None) -> list[str]:
    """The ways out sorted by days, reckoned with next month's weather; for an inner place, its own ways
    and then its territory's. ``sky``: that weather (``weather_of``), when the caller has it."""
    world = game.world
    if sky is None:
        sky = skies.weather_of(world, state.get("places") or {}, "now")
    lines = ["- Directions:"]
    lines += [f"    - {_direction(game, way)}" for way in geo.directions(world, loc, sky)]
    parent = world[loc].parent
    if parent:
        lines.append("    - From outer location:")
        lines += [f"        - {_direction(game, way)}" for way in geo.directions(world, parent, sky)]
    return lines if len(lines) > 1 else []


def _direction(game: Game, way: geo.Direction) -> str:
    there = game.world[way.to]
    days = "impassable" if way.days is None else f"{way.days} day{'s' if way.days != 1 else ''}"
    if way.mode == "sail" and way.days is not None:
        days += " sailing"
    return f"{way.word}, to {_place(game, way.to)}, {_terrain(there.terrain)}, {days}."


def inner_lines(game: Game, state: State, loc: str) -> list[str]:
    world = game.world
    lines = []
    for inner in world:
        if world[inner].parent != loc:
            continue
        days = geo.travel_days(world, loc, inner, "walk") or 1
        teaching = ((state.get("places") or {}).get(inner) or {}).get("teaching") or {}
        taught = ", ".join(
            f"{stats.level_words(game.rules, tag, int(level))} [{tag}]"
            for tag, level in sorted(teaching.items())
            if tag in game.rules["skills"]
        )
        lines.append(
            f"    - {_place(game, inner)}, {_terrain(world[inner].terrain)}, inner location "
            f"({days} day{'s' if days != 1 else ''})" + (f". Teaching: {taught}." if taught else ".")
        )
    return lines


def _title_words(game: Game, state: State, title: Mapping[str, Any]) -> str:
    rules = game.rules
    tag = str(title.get("tag"))
    spec = titles.title_spec(rules, tag)
    need = spec.get("requirement") or {}
    needs = f", requires {stats.level_words(rules, need['skill'], int(need['level']))}" if need else ""
    words = f"{spec['name']} [{tag}] ({spec.get('tier')}{needs}, {_coins(int(spec.get('cost', 0)))})"
    holder = title.get("holder")
    record = state["units"].get(holder) if holder else None
    if record is None:
        return f"{words}, vacant."
    # The holder and the holder's faction are always shown (spec 1.6.7).
    return (
        f"{words}, held by {record.get('name')} [{holder}] of {game.name_and_id(str(record.get('owner')))}."
    )


# ---------------------------------------------------------------- the units a faction sees at a place


def units_present(game: Game, state: State, faction: str, loc: str) -> list[str]:
    """Every unit at the place the faction sees, in report order, stacked units under their leaders."""
    rules = game.rules
    units = state["units"]
    order = m.at_location(state, loc)
    watchers = [units[uid] for uid in order if units[uid].get("owner") == faction]
    # The units with one of the faction's units directly under them, found in one pass over the state.
    led = {other.get("stack") for other in units.values() if other.get("owner") == faction}
    shown = [uid for uid in order if seen(rules, state, faction, watchers, uid, led)]
    leaders = set(shown)
    lines = []
    for uid in shown:
        # Indented under the leaders the faction sees: a hidden leader shows neither itself nor a step.
        depth = sum(1 for leader in m.leader_chain(state, uid) if leader in leaders)
        lines.append(f"{'    ' * (depth + 1)}- {unit_seen(game, state, faction, watchers, uid)}")
    return lines


def seen(
    rules: Rules,
    state: State,
    faction: str,
    watchers: Sequence[Mapping[str, Any]],
    uid: str,
    led: Collection[Any] | None = None,
) -> bool:
    """Spec 1.7, as ``sight.faction_sees`` reads it for every part of the ruleset. ``watchers``: the
    faction's units at the place; ``led``: the ``stack`` of every unit of the faction."""
    return sight.faction_sees(rules, state, faction, uid, looking=watchers, led=led)


on_guard = sight.on_guard  # the report's guards: a guard today, or a live guard order in the queue


def recognised(
    rules: Rules, state: State, faction: str, watchers: Sequence[Mapping[str, Any]], uid: str
) -> bool:
    """Whether the faction knows whose unit this is (``sight.faction_recognises``)."""
    return sight.faction_recognises(rules, state, faction, uid, looking=watchers)


def unit_seen(game: Game, state: State, faction: str, watchers: Sequence[Mapping[str, Any]], uid: str) -> str:
    """One unit of the place's list: its marker, name, faction if known, size and race, what it visibly
    carries, and for a guard how it regards the reader."""
    rules = game.rules
    unit = state["units"][uid]
    owner = str(unit.get("owner"))
    known = recognised(rules, state, faction, watchers, uid)
    if owner == faction:
        marker = "*"
    elif known and stances.at_least(rules, stances.stance(state, rules, faction, owner), "friendly"):
        marker = "+"
    else:
        marker = "-"
    text = f"`{marker}` {unit.get('name') or 'a unit'} [{uid}]"
    if known and owner != faction:
        text += f" of {game.name_and_id(owner)}"
    text += f", {stats.figures_words(rules, unit, int(unit.get('figures', 1)))}"
    if unit.get("title"):
        text += f", {titles.title_name(rules, unit['title']['tag'])}"
    goods = _possessions(rules, unit, everything=owner == faction)
    if goods:
        text += f", with {goods}"
    if unit.get("moving"):
        text += ", passing through"
    if owner != faction and on_guard(rules, unit):
        regard = stances.stance_name(rules, stances.stance(state, rules, owner, faction))
        text += f", on guard (regards you as {regard})"
    return text + "."


# ---------------------------------------------------------------- knowledge


def knowledge_lines(rules: Rules, events: Sequence[Event]) -> list[str]:
    lines = []
    for event in events:
        data = event.get("data") or {}
        if event.get("kind") == "knowledge_gained":
            lines += ["", "New this month:", ""]
            lines += [
                f"- {entry}"
                for entry in knowledge.entries(rules, data.get("items") or [], data.get("skills") or [])
            ]
        elif event.get("kind") == "knowledge_reshown":
            found = knowledge.entries(
                rules, data.get("items") or [], data.get("skills") or [], data.get("orders") or []
            )
            lines += ["", f"Shown again ({data.get('asked')}):", ""]
            lines += [f"- {entry}" for entry in found] or ["- Nothing of it is known yet."]
    return lines


# ---------------------------------------------------------------- words


def _place(game: Game, loc: Any) -> str:
    if not loc or loc not in game.world:
        return "nowhere known"
    return f"{game.world[loc].label} [{loc}]"


def _terrain(word: str) -> str:
    return str(word).replace("_", " ")


def _offers(rules: Rules, offers: Mapping[str, Any]) -> str:
    return ", ".join(
        f"{int(offer.get('count', 0))} {stats.item_name(rules, tag, int(offer.get('count', 0)))} [{tag}] "
        f"at {_coins(int(offer.get('price', 0)))}"
        for tag, offer in sorted(offers.items())
        if int(offer.get("count", 0) or 0) > 0
    )


def _coins(count: int) -> str:
    return f"{count} coin" if count == 1 else f"{count} coins"


def _days(days: Any) -> str:
    value = float(days)
    return str(int(value)) if value == int(value) else f"{value:g}"


def _unit_name(state: State, uid: str) -> str:
    record = state["units"].get(uid) or {}
    return f"{record.get('name') or 'a unit'} [{uid}]"


def _race_words(rules: Rules, race: str) -> str:
    return str((rules["races"].get(race) or {}).get("plural") or race)
