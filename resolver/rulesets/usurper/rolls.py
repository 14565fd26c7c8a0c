"""The d100 every usurper action rolls, with its ledger of modifiers; and the Morale and Loyalty checks.

Every action calls :func:`action_roll` once: it names each source of the roll's modifiers (Leader
Presence, Overwhelm, tools and their quality, skills, racial bonuses, the leaders' own bonuses, missing
men, unpaid units, a hot-bed grid, a second attempt after a Partial Failure), rolls ``checks.action``
through the turn context under a label of stable identities, applies the first month's exceptions, and
books what the band itself costs or leaves behind (Obscurity on a Complete Failure or a Legendary, the
memory of a Partial Failure). The numbers come from ``rules/dice.yaml`` and ``rules/entities.yaml``.

Combat's Morale checks and upkeep's Loyalty checks go through :func:`morale_check` and
:func:`loyalty_check`, which know the modifiers the spec lists for them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.checks import Check, CheckResult, Modifier
from ...core.dice import Roll, RollLabel, roll_label
from ...engine.plans import Reject
from . import experience, happenings, lairs, landmarks, magic
from .acting import Context, told
from .bands import at_least, band_name
from .entities import (
    Participants,
    has_ability,
    leader_state,
    name_in_rules,
    participants,
    race_of,
    skill_serves,
)

Record = dict[str, Any]
FAILURES = ("complete_failure", "partial_failure")


# --- reading the rules data ---------------------------------------------------------------------------


def settings(rules: Mapping[str, Any]) -> Mapping[str, Any]:
    """How the action roll is put together (``action_roll`` in rules/dice.yaml)."""
    return rules["action_roll"]


def _source(rules: Mapping[str, Any], key: str, **names: str) -> str:
    """A ledger line's source in words, from ``action_roll.sources`` (e.g. '{item}' -> 'Spyglass')."""
    return str(settings(rules)["sources"][key]).format(**names)


def _declared(rules: Mapping[str, Any], check: str, name: str) -> int:
    return int(rules["checks"][check]["modifiers"][name])


def _item_name(rules: Mapping[str, Any], item: str) -> str:
    # The items chapter names its items under 'items'; until it does, the id reads as words.
    return name_in_rules(rules, "items", item)


def quality_bonus(rules: Mapping[str, Any], quality: str | None, column: str) -> int:
    """What a quality gives, read from the items chapter's quality ladder (``qualities``): ``tool_bonus``
    for a tool on the action roll, ``bonus`` for a weapon or armour in a fight. The ladder is the one
    place these numbers live, so the roll, the fight and the rules page cannot disagree."""
    wanted = str(quality or "standard")
    for row in rules["qualities"]:
        if row["id"] == wanted:
            return int(row.get(column, 0))
    raise ValueError(f"qualities has no quality '{wanted}'")


# --- the ledger ----------------------------------------------------------------------------------------


def leader_presence(rules: Mapping[str, Any], leaders: Iterable[Record]) -> list[Modifier]:
    """+25 for each leader taking part, 13 from a damaged one, nothing from one who heals."""
    names = {
        "whole": "leader_presence",
        "damaged": "leader_presence_damaged",
        "healing": "leader_presence_healing",
    }
    return [
        Modifier(
            f"{_source(rules, 'leader_presence')} ({leader['name']})",
            _declared(rules, "action", names[leader_state(rules, leader)]),
        )
        for leader in leaders
    ]


def overwhelm(rules: Mapping[str, Any], units: Sequence[Record]) -> list[Modifier]:
    """+4 for each unit beyond the first."""
    if len(units) < 2:
        return []
    return [Modifier(_source(rules, "overwhelm"), _declared(rules, "action", "overwhelm") * (len(units) - 1))]


def tool_modifiers(rules: Mapping[str, Any], action: str, units: Iterable[Record]) -> list[Modifier]:
    """Each unit's tools for this action: the primary (+4, and its quality's whole tool bonus), each
    secondary (+3, and half its quality's bonus, rounded down). For Harvest and Scout a unit's tools count
    only if it has the primary equipped. A second copy of one tool on a unit adds nothing."""
    spec = (settings(rules)["tools"] or {}).get(action)
    if not spec:
        return []
    mods: list[Modifier] = []
    for unit in units:
        tools: dict[str, str] = {}
        for tool in unit.get("tools") or []:
            tools.setdefault(str(tool["item"]), str(tool.get("quality") or "standard"))
        primary = str(spec["primary"])
        if spec.get("needs_primary") and primary not in tools:
            continue
        used = [(primary, "primary_tool", 1)] if primary in tools else []
        used += [(item, "secondary_tool", 2) for item in spec.get("secondary") or [] if item in tools]
        for item, kind, divisor in used:
            name = _item_name(rules, item)
            mods.append(
                Modifier(
                    f"{_source(rules, kind, item=name)} ({unit['name']})", _declared(rules, "action", kind)
                )
            )
            bonus = quality_bonus(rules, tools[item], "tool_bonus") // divisor
            if bonus:
                mods.append(
                    Modifier(f"{_source(rules, kind + '_quality', item=name)} ({unit['name']})", bonus)
                )
    return mods


def skill_modifiers(
    rules: Mapping[str, Any], action: str, entities: Iterable[Record], resource: str | None = None
) -> list[Modifier]:
    """Every participant's ranks in the skills that add to this action's roll, summed (Bronze rule)."""
    skills = rules.get("skills") or {}
    mods = []
    for entity in entities:
        for skill_id, held in sorted((entity.get("skills") or {}).items()):
            skill = skills.get(skill_id) or {}
            rank = int((held or {}).get("rank", 0))
            if rank and skill.get("roll") and skill_serves(skill, action, resource):
                named = _source(rules, "skill", skill=name_in_rules(rules, "skills", skill_id))
                source = f"{named} {rank} ({entity['name']})"
                mods.append(Modifier(source, rank * int(skill["per_rank"])))
    return mods


def racial_modifiers(
    rules: Mapping[str, Any], action: str, units: Iterable[Record], resource: str | None = None
) -> list[Modifier]:
    """A unit's racial bonus to this action (Goblins scout +10; Dwarves +10 only harvesting gold)."""
    mods = []
    for unit in units:
        race = race_of(rules, unit)
        for bonus in race.get("bonuses") or []:
            if bonus["action"] == action and (not bonus.get("resource") or bonus["resource"] == resource):
                source = f"{_source(rules, 'racial', race=str(race.get('name')))} ({unit['name']})"
                mods.append(Modifier(source, int(bonus["value"])))
    return mods


def leader_bonus_modifiers(rules: Mapping[str, Any], action: str, group: Participants) -> list[Modifier]:
    """The local part of each taking-part leader's bonus that serves this action (+10, 5 if damaged).
    Craftsman and Scavenger count only for a leader assisting units."""
    table = rules.get("leader_bonuses") or {}
    mods = []
    for leader in group.leaders:
        bonus = table.get(str(leader.get("bonus"))) or {}
        local = bonus.get("local") or {}
        if action not in (local.get("actions") or []):
            continue
        if local.get("assisting_units") and not (group.assisting(leader) and group.units):
            continue
        state = leader_state(rules, leader)
        if state == "healing":
            continue
        value = _declared(
            rules, "action", "leader_bonus_local_damaged" if state == "damaged" else "leader_bonus_local"
        )
        mods.append(
            Modifier(
                f"{_source(rules, 'leader_bonus_local', bonus=str(bonus['name']))} ({leader['name']})", value
            )
        )
    return mods


def casualty_modifiers(rules: Mapping[str, Any], units: Iterable[Record]) -> list[Modifier]:
    """−3 for each man a unit is short of full strength, until the replacements arrive."""
    full = int(rules["start"]["unit_pax"])
    per = _declared(rules, "action", "casualty")
    return [
        Modifier(f"{_source(rules, 'casualty')} ({unit['name']})", per * (full - int(unit["pax"])))
        for unit in units
        if int(unit["pax"]) < full
    ]


def unpaid_modifiers(rules: Mapping[str, Any], units: Iterable[Record]) -> list[Modifier]:
    """−10 for each unit that stayed unpaid or unfed (Tenacious), until it is paid."""
    return [
        Modifier(f"{_source(rules, 'unpaid')} ({unit['name']})", _declared(rules, "action", "unpaid"))
        for unit in units
        if unit.get("unpaid")
    ]


def own_lair_grids(faction: Mapping[str, Any]) -> set[str]:
    return {str(lair["grid"]) for lair in (faction.get("lairs") or {}).values()}


def hot_bed_modifiers(rules: Mapping[str, Any], faction: Mapping[str, Any], grid: str) -> list[Modifier]:
    """−4 for each encounter the usurper knows of in the grid, unless the grid is its own lair's."""
    if grid in own_lair_grids(faction):
        return []
    known = ((faction.get("known") or {}).get("encounters") or {}).values()
    count = sum(1 for encounter in known if encounter.get("grid") == grid)
    if not count:
        return []
    return [Modifier(_source(rules, "hot_bed"), _declared(rules, "action", "hot_bed") * count)]


def remembered(faction: Mapping[str, Any], action: str, grid: str, turn: int) -> bool:
    """Whether a Partial Failure of this action in this grid is still fresh this turn."""
    memory = (faction.get("known") or {}).get("pf_memory") or []
    return any(m["action"] == action and m["grid"] == grid and int(m["until"]) >= turn for m in memory)


def repeat_modifiers(
    rules: Mapping[str, Any], faction: Mapping[str, Any], action: str, grid: str, turn: int
) -> list[Modifier]:
    if not remembered(faction, action, grid, turn):
        return []
    return [
        Modifier(
            _source(rules, "repeat_after_partial_failure"),
            _declared(rules, "action", "repeat_after_partial_failure"),
        )
    ]


def extras_named(faction: Mapping[str, Any], words: Iterable[Any]) -> dict[str, Record]:
    """The usurper's Extras among the words of an order's ``assist`` (by id, or by name in any case): word
    -> the Extra's record. Extras sit apart from leaders and units (``extras`` of the faction record)."""
    extras = faction.get("extras") or {}
    found: dict[str, Record] = {}
    for word in words:
        text = str(word).strip()
        if text in extras:
            found[str(word)] = extras[text]
            continue
        named = [x for x in extras.values() if str(x.get("name", "")).casefold() == text.casefold()]
        if len(named) == 1:
            found[str(word)] = named[0]
    return found


def read_extras(reading: Any, action: str, words: Iterable[Any]) -> set[str]:
    """The checker's and the resolver's reading of the Extras named under ``assist``: each helps only
    the actions the GM gave it (``helps``) and takes one action a week like everyone else. Returns the
    words that named Extras, which the reading then leaves out of the leaders and units."""
    order = reading.order
    number = getattr(order, "number", None)
    found = extras_named(reading.state["factions"][reading.faction], words)
    for extra in found.values():
        if action not in (extra.get("helps") or []):
            helps = ", ".join(str(a) for a in extra.get("helps") or []) or "nothing the rolls read"
            raise Reject(
                "assist",
                f"{extra['name']} is an Extra who helps only with: {helps}",
                f"take {extra['name']} out of this order's assist, or name it under an action it helps",
            )
        before = reading.busy.get(str(extra["id"]))
        if before is not None and before != number:
            raise Reject(
                "assist",
                f"{extra['name']} already helps this week (order {before})",
                "an Extra helps one action a week: take it out of one of the two orders",
            )
        reading.busy[str(extra["id"])] = number
    return set(found)


def extra_modifiers(
    rules: Mapping[str, Any], action: str, extras: Iterable[Record], resource: str | None = None
) -> list[Modifier]:
    """What the Extras helping an action add: the bonus the GM gave each for the actions it helps, and
    its skills and action spells as anyone assisting adds them."""
    extras = [x for x in extras if action in (x.get("helps") or [])]
    mods = [
        Modifier(f"{_source(rules, 'extra', extra=str(x['name']))}", int(x.get("bonus") or 0))
        for x in extras
        if int(x.get("bonus") or 0)
    ]
    mods += skill_modifiers(rules, action, extras, resource)
    mods += magic.action_modifiers(rules, extras, action)
    return mods


def oracle_modifiers(
    rules: Mapping[str, Any], record: Record, order: Mapping[str, Any] | None, turn: int
) -> list[Modifier]:
    """An Oracle token spent on this roll, when the order asks for one (``oracle: true``) and one is
    usable this week: the most valuable, the soonest to lapse among equals."""
    if not (order or {}).get("oracle"):
        return []
    spent = landmarks.spend_token(rules, record, turn)
    return [spent] if spent is not None else []


def action_ledger(
    rules: Mapping[str, Any],
    state: Mapping[str, Any],
    group: Participants,
    *,
    action: str,
    grid: str,
    turn: int,
    resource: str | None = None,
    trainers: Iterable[str] = (),
    modifiers: Iterable[Modifier] = (),
) -> list[Modifier]:
    """Every modifier of one action's d100, each named by its source: the ledger the roll keeps.

    ``trainers`` are leaders training in the lair where the action happens: they still give their
    Leader Presence to it. ``modifiers`` are the action's own (a room's bonus, a grand node's +20). The
    spells the leaders taking part know, the month's events and the landmarks' gifts count as well."""
    faction = state["factions"][group.faction]
    teaching = [faction["leaders"][leader] for leader in trainers if leader not in group.ids]
    return [
        *leader_presence(rules, [*group.leaders, *teaching]),
        *overwhelm(rules, group.units),
        *tool_modifiers(rules, action, group.units),
        *skill_modifiers(rules, action, [*group.leaders, *group.units], resource),
        *racial_modifiers(rules, action, group.units, resource),
        *leader_bonus_modifiers(rules, action, group),
        *casualty_modifiers(rules, group.units),
        *unpaid_modifiers(rules, group.units),
        *hot_bed_modifiers(rules, faction, grid),
        *repeat_modifiers(rules, faction, action, grid, turn),
        *magic.action_modifiers(rules, group.leaders, action),
        *happenings.action_modifiers(rules, state, group.faction, action),
        *landmarks.ability_modifiers(rules, faction, action, group.leaders, group.units),
        *modifiers,
    ]


# --- the roll ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionRoll:
    """What one action's d100 came to, and what its band cost the usurper at once."""

    band: str  # the band read, after the first month's floor
    total: int
    ledger: tuple[Modifier, ...]
    roll: Roll
    group: Participants
    raised: bool = False  # the first month lifted a failure to its floor
    obscurity: Mapping[str, int] = dataclasses.field(default_factory=dict)  # lair id -> current lost
    gains: tuple[experience.Gain, ...] = ()  # the experience the band gave those taking part

    @property
    def failed(self) -> bool:
        return self.band in FAILURES


def first_month(ctx: Context) -> bool:
    """Whether this week is the game's first month: the turn table's ``first_month`` step says so."""
    return ctx.memory.first_month


def d100_check(rules: Mapping[str, Any], check_id: str, *, month_one: bool) -> Check:
    """The check as this turn rolls it: open-ended, or one re-roll only when chaining is off; no
    explosion at all in the game's first month."""
    check = Check.from_rules(rules, check_id)
    if month_one and not settings(rules)["first_month"]["explode"]:
        return dataclasses.replace(check, explode={})
    if check.explode and not settings(rules)["chain"]:
        return dataclasses.replace(check, explode={**check.explode, "times": 1})
    return check


def _raise_to_floor(rules: Mapping[str, Any], check_id: str, result: CheckResult) -> tuple[str, bool]:
    """The first month's floor for an action roll: a failure reads as the floor band."""
    first = settings(rules)["first_month"]
    band = result.row.result
    if check_id in (first.get("floor_checks") or []) and not at_least(rules, band, str(first["floor"])):
        floor = str(first["floor"])
        result.roll.result = floor
        result.roll.decided = (
            f"{result.roll.decided}, read as {band_name(rules, floor)} in the first month".strip()
        )
        return floor, True
    return band, False


def lose_obscurity(lair: Record, amount: int) -> int:
    """Take ``amount`` from a lair's current Obscurity (never below 0); what it really lost."""
    current = int(lair["obscurity"]["current"])
    lost = min(amount, max(current, 0))
    lair["obscurity"]["current"] = current - lost
    return lost


def home_lair(faction: Mapping[str, Any], group: Participants, worked_in: str | None) -> str | None:
    """The lair the actors came from: the initiator's own, else the lair the work happens in."""
    initiator = (faction.get("leaders") or {}).get(group.initiator) or (faction.get("units") or {}).get(
        group.initiator
    )
    lair = (initiator or {}).get("lair") or worked_in
    return str(lair) if lair and lair in (faction.get("lairs") or {}) else None


def remember_partial_failure(
    rules: Mapping[str, Any], faction: Record, action: str, grid: str, turn: int
) -> None:
    """Book the +10 for the same action in the same grid for the next weeks (one entry per pair)."""
    known = faction.setdefault("known", {})
    memory = [m for m in known.get("pf_memory") or [] if not (m["action"] == action and m["grid"] == grid)]
    memory.append(
        {"action": action, "grid": grid, "until": turn + int(settings(rules)["partial_failure_memory_weeks"])}
    )
    known["pf_memory"] = sorted(memory, key=lambda m: (m["action"], m["grid"]))


def forget_partial_failures(faction: Record, turn: int) -> None:
    """End-of-week housekeeping: drop the memories whose last week was this one."""
    known = faction.get("known") or {}
    if "pf_memory" in known:
        known["pf_memory"] = [m for m in known["pf_memory"] if int(m["until"]) > turn]


def action_roll(
    ctx: Context,
    state: Mapping[str, Any],
    faction: str,
    *,
    action: str,
    by: str,
    assist: Iterable[str] = (),
    grid: str,
    lair: str | None = None,
    resource: str | None = None,
    trainers: Iterable[str] = (),
    modifiers: Iterable[Modifier] = (),
    learn: bool = True,
    order: Mapping[str, Any] | None = None,
) -> ActionRoll:
    """Roll one action: build its ledger, roll ``checks.action`` under the label faction/by/action/grid
    (the turn is prefixed by the context), read its band with the first month's floor, and book the band's
    own consequences in the faction's record: a Complete Failure costs the actors' home lair Obscurity, a
    Legendary costs the acting usurper the same, a Partial Failure is remembered for the next attempt.

    ``lair`` is the lair the work happens in (Build, Craft, Train), ``resource`` the resource a Harvest
    works, ``trainers`` the leaders training in that lair, ``modifiers`` the action's own sources.

    The band's experience goes to everyone taking part at once (``learn``; false for an action that
    earns none), told to the usurper alone in an ``experience`` event. ``order`` is the order the roll
    carries out: the Extras named under its ``assist`` add their help, and ``oracle: true`` spends an
    Oracle token on this roll."""
    rules = ctx.rules
    group = participants(state, faction, by, assist)
    record = state["factions"][faction]
    extras = extras_named(record, (order or {}).get("assist") or []).values()
    own = [*modifiers, *extra_modifiers(rules, action, extras, resource)]
    own += oracle_modifiers(rules, record, order, ctx.turn)
    ledger = action_ledger(
        rules, state, group, action=action, grid=grid, turn=ctx.turn, resource=resource,
        trainers=trainers, modifiers=own,
    )  # fmt: skip
    month_one = first_month(ctx)
    # Logged under the action's name ("scout: partial success"), which the compact dice log then need not
    # repeat as the words of what the roll decided.
    check = dataclasses.replace(d100_check(rules, "action", month_one=month_one), id=action)
    result = check.roll(ctx, roll_label(faction, by, action, grid), modifiers=ledger, factions=[faction])
    band, raised = _raise_to_floor(rules, "action", result) if month_one else (result.row.result, False)
    lost: dict[str, int] = {}
    home = home_lair(record, group, lair)
    costs = {"complete_failure": "complete_failure_obscurity", "legendary": "legendary_obscurity"}
    if band in costs and home:
        lost[home] = lose_obscurity(record["lairs"][home], int(settings(rules)[costs[band]]))
    if band == "partial_failure":
        remember_partial_failure(rules, record, action, grid, ctx.turn)
    gains = experience.award_action(rules, state, faction, group, action, band, resource) if learn else []
    if gains:
        tell_experience(ctx, faction, grid, action, gains)
    return ActionRoll(band, result.total, tuple(ledger), result.roll, group, raised, lost, tuple(gains))


def tell_experience(
    ctx: Context, faction: str, grid: str | None, action: str, gains: Iterable[experience.Gain]
) -> None:
    """The usurper's own news of what its entities learned: experience, new levels and ranks."""
    rules = ctx.rules
    said = []
    for gain in gains:
        data = gain.to_data()
        if gain.skill:
            data["skill"] = name_in_rules(rules, "skills", gain.skill)
        if gain.levels:
            data["levels"] = [str(rules["experience"]["stat_names"][stat]) for stat in gain.levels]
        said.append(data)
    ctx.emit(
        "experience", actors=[faction], visible_to=told(ctx, faction), place=grid, action=action, gains=said
    )


# --- Morale and Loyalty --------------------------------------------------------------------------------


def _throne_modifiers(rules: Mapping[str, Any], check: str, lair: Mapping[str, Any] | None) -> list[Modifier]:
    """The Throne Room of the lair the unit set out from, and the Inspiring Banners hung for this check: what
    the rooms chapter says they give (``lairs``), told apart in the ledger."""
    if not lair:
        return []
    throne = next((room for room in lair.get("rooms") or [] if room.get("type") == "throne"), None)
    if throne is None:
        return []
    base = int((lairs.room_rules(rules, "throne").get("gives") or {}).get(check, 0))
    banners = lairs.room_bonus(rules, throne, check) - base
    mods = [Modifier(_source(rules, "throne_room"), base)]
    if banners:
        mods.append(Modifier(_source(rules, "inspiring_banner"), banners))
    return [mod for mod in mods if mod.value]


def _carries(rules: Mapping[str, Any], unit: Record, role: str) -> bool:
    item = settings(rules)["morale_items"][role]
    return any(tool.get("item") == item for tool in unit.get("tools") or [])


def halve_penalties(rules: Mapping[str, Any], ledger: Iterable[Modifier]) -> list[Modifier]:
    """Orcs' Bull-headed: every Morale penalty halved, rounded down, but still at least 1."""
    least = int(settings(rules)["bull_headed_minimum"])
    named = _source(rules, "bull_headed")
    return [
        Modifier(f"{m.source} (halved: {named})", -max(least, -m.value // 2)) if m.value < 0 else m
        for m in ledger
    ]


def morale_ledger(
    rules: Mapping[str, Any],
    unit: Record,
    *,
    lair: Mapping[str, Any] | None = None,
    pax_lost: int = 0,
    drums: bool = False,
    leaders: Iterable[Record] = (),
    modifiers: Iterable[Modifier] = (),
) -> list[Modifier]:
    """A unit's Morale modifiers: its level, the Throne Room it set out from, Courage, a Guidon, the
    force's Drums, the spells of the leaders with it (Napoleon), the men lost in this fight, and what the
    fight adds (``modifiers``: earlier Battered or Shaken results, a drake's breath). Leader Presence
    never counts. An Orc unit halves the penalties."""
    ledger = []
    if int(unit.get("level") or 0):
        ledger.append(
            Modifier(_source(rules, "level"), _declared(rules, "morale", "level") * int(unit["level"]))
        )
    ledger += _throne_modifiers(rules, "morale", lair)
    courage = int(((unit.get("skills") or {}).get("courage") or {}).get("rank", 0))
    if courage:
        ledger.append(
            Modifier(
                f"{name_in_rules(rules, 'skills', 'courage')} {courage}",
                courage * _declared(rules, "morale", "courage"),
            )
        )
    if _carries(rules, unit, "guidon"):
        ledger.append(Modifier(_source(rules, "guidon"), _declared(rules, "morale", "guidon")))
    if drums:
        ledger.append(Modifier(_source(rules, "drums"), _declared(rules, "morale", "drums")))
    ledger += magic.check_modifiers(rules, leaders, "morale")
    if pax_lost:
        ledger.append(Modifier(_source(rules, "pax_lost"), _declared(rules, "morale", "pax_lost") * pax_lost))
    ledger += modifiers
    return halve_penalties(rules, ledger) if has_ability(rules, unit, "bull_headed") else ledger


def loyalty_ledger(
    rules: Mapping[str, Any],
    unit: Record,
    *,
    lair: Mapping[str, Any] | None = None,
    demoralized: bool = False,
    leaders: Iterable[Record] = (),
    modifiers: Iterable[Modifier] = (),
) -> list[Modifier]:
    """A unit's Loyalty modifiers: the Throne Room it set out from, a Medallion, the spells of the leaders
    with it (Napoleon), and −5 after a Demoralized flight. Leader Presence never counts."""
    ledger = _throne_modifiers(rules, "loyalty", lair)
    if _carries(rules, unit, "medallion"):
        ledger.append(Modifier(_source(rules, "medallion"), _declared(rules, "loyalty", "medallion")))
    ledger += magic.check_modifiers(rules, leaders, "loyalty")
    if demoralized:
        ledger.append(Modifier(_source(rules, "demoralized"), _declared(rules, "loyalty", "demoralized")))
    return [*ledger, *modifiers]


def _unit_lair(state: Mapping[str, Any], faction: str, unit: Record) -> Mapping[str, Any] | None:
    return (
        ((state["factions"][faction].get("lairs") or {}).get(str(unit.get("lair"))))
        if unit.get("lair")
        else None
    )


def morale_check(
    ctx: Context,
    state: Mapping[str, Any],
    faction: str,
    unit: str,
    label: RollLabel,
    *,
    pax_lost: int = 0,
    drums: bool = False,
    leaders: Iterable[Record] = (),
    modifiers: Iterable[Modifier] = (),
) -> CheckResult:
    """Roll a unit's Morale (``checks.morale``) under the caller's label (the fight's identities and the
    unit's id); ``leaders`` are those with the unit, whose spells count. The first month rolls it
    without explosion but never raises its band."""
    record = state["factions"][faction]["units"][unit]
    ledger = morale_ledger(
        ctx.rules, record, lair=_unit_lair(state, faction, record), pax_lost=pax_lost, drums=drums,
        leaders=leaders, modifiers=modifiers,
    )  # fmt: skip
    check = d100_check(ctx.rules, "morale", month_one=first_month(ctx))
    return check.roll(ctx, label, modifiers=ledger, factions=[faction], decided=f"morale of {record['name']}")


def loyalty_check(
    ctx: Context,
    state: Mapping[str, Any],
    faction: str,
    unit: str,
    label: RollLabel,
    *,
    demoralized: bool = False,
    leaders: Iterable[Record] = (),
    modifiers: Iterable[Modifier] = (),
) -> CheckResult:
    """Roll a unit's Loyalty (``checks.loyalty``) under the caller's label (upkeep's: faction, unit, the
    reason). The consequences of its row (leaving, Obscurity, Grumpy) are the caller's to apply."""
    record = state["factions"][faction]["units"][unit]
    ledger = loyalty_ledger(
        ctx.rules,
        record,
        lair=_unit_lair(state, faction, record),
        demoralized=demoralized,
        leaders=leaders,
        modifiers=modifiers,
    )
    check = d100_check(ctx.rules, "loyalty", month_one=first_month(ctx))
    return check.roll(
        ctx, label, modifiers=ledger, factions=[faction], decided=f"loyalty of {record['name']}"
    )
