"""Prisons: taking prisoners after a won fight, interrogating them, and what becomes of them each week.

A lair's Prison holds one prisoner a cell (its cells, capture and escape chances are the room's, read
through ``lairs.lair_bonus``). A prisoner is a record in ``lairs[...]["prisoners"]``: the captured unit's
own record under ``record``, whose it was (``owner``: a usurper, or null for the game's own powers), and
what was done to it this week. The numbers are in ``rules/prisons.yaml``.

Interrogate is a unit's or a leader's action in the lair of the prison: the common action roll with the
interrogation's own sources (the Throne Room's Loyalty bonus, Holy Writ for Convert, Harsh Methods for
Glean and Torture), then the intent's outcome. At the end of the week each prisoner not interrogated
that week may be released or executed by the order file's policies, and every prisoner still held rolls
to escape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...core import standing
from ...core.checks import Modifier
from ...core.dice import roll_label
from ...core.factions import next_id
from ...core.phases import State
from ...engine.plans import Reading, Reject
from . import lairs as rooms
from . import model as m
from . import rolls
from .acting import Context, Plan, told

Rules = Mapping[str, Any]
Record = dict[str, Any]
INTENTS = ("glean", "convert", "torture")


# --------------------------------------------------------------------------------------------- reading


def has_prison(rules: Rules, lair: Mapping[str, Any] | None) -> bool:
    return bool(lair) and bool(rooms.rooms_of(lair or {}, rules["prisons"]["room"]))


def cells(rules: Rules, lair: Mapping[str, Any]) -> int:
    """How many prisoners the lair can hold: one a cell, none without a Prison."""
    return rooms.lair_bonus(rules, lair, "cells") if has_prison(rules, lair) else 0


def held(lair: Mapping[str, Any]) -> list[Record]:
    return list(lair.get("prisoners") or [])


def free_cells(rules: Rules, lair: Mapping[str, Any]) -> int:
    return max(0, cells(rules, lair) - len(held(lair)))


def find(state: Mapping[str, Any], faction: str, prisoner_id: str) -> tuple[Record, Record] | None:
    """The lair holding a prisoner, and the prisoner, by its id."""
    for lair in m.lairs(state, faction).values():
        for prisoner in lair.get("prisoners") or []:
            if prisoner["id"] == prisoner_id:
                return lair, prisoner
    return None


def intent_name(rules: Rules, intent: str) -> str:
    return str(rules["interrogation"]["intents"][intent]["name"])


def _skills(record: Mapping[str, Any]) -> int:
    return sum(1 for held_skill in (record.get("skills") or {}).values() if held_skill)


# --------------------------------------------------------------------------------------------- capture


@dataclass(frozen=True)
class Captive:
    """An enemy the victors may take: its stable key (the fighter's id), its record, whose it was."""

    key: str
    record: Mapping[str, Any]
    kind: str = m.UNIT  # unit | leader | extra
    owner: str | None = None  # a usurper, or None for the game's own powers
    home: str | None = None  # where a released prisoner goes: its usurper's lair, its noble family's city


def captives(rules: Rules, fighters: Iterable[Any]) -> list[Captive]:
    """The enemy fighters a won fight lets the victors take (``fight.Fighter``s of an encounter): those
    whose fate the rules data names (fled, destroyed), never a monster unless the data allows it."""
    spec = rules["prisons"]
    fates = set(spec["capture_fates"])
    return [
        Captive(str(x.id), {**x.record, "name": x.name, "level": x.level})
        for x in fighters
        if (not x.single or spec["capture_monsters"])
        and ((x.fled and "fled" in fates) or (x.destroyed and "destroyed" in fates))
    ]


def prison_lairs(state: State, faction: str, first: str | None) -> list[Record]:
    """The usurper's lairs with a Prison, the lair the victors set out from first."""
    rules_lairs = list(m.lairs(state, faction).values())
    return sorted(rules_lairs, key=lambda lair: (lair["id"] != first, lair["id"]))


def capture(
    ctx: Context, state: State, faction: str, captives: Iterable[Captive], *, lair: str | None, place: str
) -> list[Record]:
    """After a won fight: each captive is taken at the Prison's capture chance while a cell is free, one
    percentage roll each (no explosion). Returns the prisoners taken; tells the usurper alone."""
    rules = ctx.rules
    taken: list[Record] = []
    made = []
    for captive in captives:
        jail = next(
            (x for x in prison_lairs(state, faction, lair) if has_prison(rules, x) and free_cells(rules, x)),
            None,
        )
        if jail is None:
            break
        chance = rooms.lair_bonus(rules, jail, "capture")
        roll = ctx.roll(
            roll_label(faction, captive.key, "capture"),
            "1d100",
            factions=[faction],
            decided=f"{captive.record.get('name', captive.key)} taken on {chance} or less",
        )
        made.append(roll)
        if roll.total > chance:
            continue
        prisoner = {
            "id": next_id(state, faction, "p", lambda candidate: find(state, faction, candidate) is not None),
            "name": str(captive.record.get("name") or captive.key),
            "kind": captive.kind,
            "owner": captive.owner,
            "home": captive.home,
            "taken": ctx.turn,
            "record": {key: value for key, value in captive.record.items() if key != "lair"},
            "interrogated": None,
        }
        jail.setdefault("prisoners", []).append(prisoner)
        taken.append(prisoner)
        record = m.usurper(state, faction)  # every prisoner ever held counts at the Victory Points
        record["prisoners_taken"] = int(record.get("prisoners_taken", 0)) + 1
    if made:
        ctx.emit(
            "prisoners_taken",
            actors=[faction],
            visible_to=told(ctx, faction),
            place=place,
            rolls=made,
            names=[p["name"] for p in taken],
            tried=len(made),
        )
    return taken


# ------------------------------------------------------------------------------------------- interrogate


def interrogation_modifiers(rules: Rules, plan: Plan, lair: Mapping[str, Any], intent: str) -> list[Modifier]:
    """The interrogation's own sources, beside the common ledger: the Throne Room's Loyalty bonus, Holy
    Writ on a unit for Convert, Harsh Methods for Glean and Torture."""
    spec = rules["interrogation"]
    mods = []
    throne = rooms.lair_bonus(rules, lair, str(spec["throne_room"]))
    if throne:
        mods.append(Modifier("Throne Room", throne))
    writ = spec["holy_writ"]
    if intent in writ["intents"]:
        for unit in plan.units:
            if any(tool.get("item") == writ["item"] for tool in unit.get("tools") or []):
                mods.append(Modifier(f"{_item(rules, writ['item'])} ({unit['name']})", int(writ["value"])))
    harsh = rooms.lair_bonus(rules, lair, str(spec["harsh_methods"]["gives"]))
    if harsh and intent in spec["harsh_methods"]["intents"]:
        mods.append(Modifier("Harsh Methods", harsh))
    return mods


def _item(rules: Rules, item: str) -> str:
    return str((rules.get("items") or {}).get(item, {}).get("name") or item.replace("_", " ").title())


def require_prisoner(reading: Reading, plan: Plan) -> None:
    """Interrogate needs a Prison in the lair where it happens, holding the prisoner the order names (or
    any prisoner, when it names none) not yet questioned this week, and an intent; Glean needs a grid
    near the prison."""
    rules, order = reading.rules, plan.order
    lair = m.lair_at(reading.state, reading.faction, plan.target)
    if lair is None or not has_prison(rules, lair):
        raise Reject(
            "target",
            f"you have no lair with a Prison at {plan.target}",
            "interrogate in a lair of yours that has a Prison: build one, or set 'target' to that lair",
        )
    inmates = held(lair)
    if not inmates:
        raise Reject("prisoner", "the Prison there holds nobody", "take prisoners in a fight first")
    wanted = order.get("prisoner")
    if wanted:
        chosen = next((p for p in inmates if wanted in (p["id"], p["name"])), None)
        if chosen is None:
            listed = ", ".join(f"{p['id']} ({p['name']})" for p in inmates)
            raise Reject("prisoner", f"no prisoner '{wanted}' there", f"name one of: {listed}")
    else:
        chosen = inmates[0]
    intent = str(order.get("intent") or "")
    if intent not in INTENTS:
        raise Reject(
            "intent", f"'{intent}' is no intent of an interrogation", f"write one of {', '.join(INTENTS)}"
        )
    if intent == "glean":
        grid = order.get("grid")
        if not grid or grid not in reading.game.world:
            raise Reject(
                "grid", "Glean Information needs the grid to learn of", "name a grid near the prison"
            )
        reach = int(rules["interrogation"]["glean_range"])
        if reading.game.world.distance(str(grid), lair["grid"]) > reach:
            raise Reject("grid", f"{grid} is more than {reach} grids from the prison", "name a nearer grid")
    plan.details.update(prisoner=chosen["id"], lair=lair["id"], intent=intent)


def interrogate(ctx: Context, state: State, plan: Plan) -> None:
    """The Interrogate action: one roll, then the intent's outcome; the prisoner is marked as questioned
    this week either way (it cannot be released or executed this week, and its escape chance changes)."""
    faction, rules = plan.faction, ctx.rules
    found = find(state, faction, str(plan.details["prisoner"]))
    if found is None:
        ctx.order_failed(faction, plan.order, "the prisoner is no longer held")
        return
    lair, prisoner = found
    intent = str(plan.details["intent"])
    rolled = rolls.action_roll(
        ctx,
        state,
        faction,
        action="interrogate",
        by=plan.initiator,
        assist=plan.assistants,
        grid=lair["grid"],
        lair=lair["id"],
        modifiers=interrogation_modifiers(rules, plan, lair, intent),
        order=plan.order,
    )
    prisoner["interrogated"] = {"turn": ctx.turn, "intent": intent}
    needs = str(rules["interrogation"]["intents"][intent]["needs"])
    succeeded = rolls.at_least(rules, rolled.band, needs)
    news: dict[str, Any] = {}
    if succeeded:
        news = OUTCOMES[intent](ctx, state, plan, lair, prisoner)
    ctx.emit(
        "interrogation",
        actors=[faction],
        visible_to=told(ctx, faction),
        place=lair["grid"],
        rolls=[rolled.roll],
        prisoner=prisoner["name"],
        intent=intent_name(rules, intent),
        band=rolls.band_name(rules, rolled.band),
        succeeded=succeeded,
        **news,
    )


def glean(ctx: Context, state: State, plan: Plan, lair: Record, prisoner: Record) -> dict[str, Any]:
    """The prisoner tells of a grid near the prison: it counts as scouted, and the report says what the
    map shows there (its ground, a city)."""
    grid = str(plan.order["grid"])
    scouted = m.known(state, plan.faction)["scouted"]
    if grid not in scouted:
        scouted.append(grid)
        scouted.sort()
    where = ctx.game.world[grid]
    city = (state.get("cities") or {}).get(grid)
    return {"grid": grid, "terrain": where.terrain, "city": city["name"] if city else ""}


def convert(ctx: Context, state: State, plan: Plan, lair: Record, prisoner: Record) -> dict[str, Any]:
    """The prisoner joins as a Unique Unit at full strength, keeping its level; with the Scharff Method
    its best skill (else Courage) gains the pillar's skill XP."""
    rules, faction = ctx.rules, plan.faction
    lair["prisoners"] = [p for p in lair["prisoners"] if p["id"] != prisoner["id"]]
    unit_id = m.new_id(state, faction, "u")
    unit = {**prisoner["record"], "id": unit_id, "lair": lair["id"], "pax": int(rules["start"]["unit_pax"])}
    unit.setdefault("skills", {})
    unit.update(
        grumpy=False, unpaid=False, replacements=[], unique={"trait": dictated_trait(rules, state, faction)}
    )
    xp = rooms.lair_bonus(rules, lair, str(rules["interrogation"]["scharff_skill_xp"]["gives"]))
    if xp:
        skills = unit["skills"]
        best = max(sorted(skills), key=lambda s: int((skills[s] or {}).get("rank", 0)), default="courage")
        entry = dict(skills.get(best) or {"rank": 0, "xp": 0})
        entry["xp"] = int(entry.get("xp", 0)) + xp
        skills[best] = entry
    m.units(state, faction)[unit_id] = unit
    return {"unit": unit["name"], "skill_xp": xp}


def dictated_trait(rules: Rules, state: State, faction: str) -> str | None:
    """The trait a usurper's pillars dictate for every new Unique Unit (``trait_<name>`` in what a room
    gives), the first in its lairs' order; None leaves it for the GM to name."""
    for lair in m.lairs(state, faction).values():
        for room in lair.get("rooms") or []:
            for key, value in sorted(rooms.room_gives(rules, room).items()):
                if key.startswith("trait_") and value:
                    return key.removeprefix("trait_")
    return None


def torture(ctx: Context, state: State, plan: Plan, lair: Record, prisoner: Record) -> dict[str, Any]:
    """The prisoner gives its usurper away: where the lair it came from lies. A prisoner of the game's
    own powers knows what only the GM can tell (the tell order)."""
    owner, home = prisoner.get("owner"), prisoner.get("home")
    if owner and home and owner in state["factions"]:
        intelligence = m.known(state, plan.faction).setdefault("intelligence", [])
        intelligence.append({"turn": ctx.turn, "about": owner, "lair": home})
        return {"revealed": home, "about": ctx.game.name_of(owner)}
    return {"revealed": "", "about": ""}


OUTCOMES = {"glean": glean, "convert": convert, "torture": torture}


# -------------------------------------------------------------------------------------- the week's end


def escape_chance(rules: Rules, lair: Mapping[str, Any], prisoner: Mapping[str, Any], turn: int) -> int:
    """The prisoner's chance (in %) to escape this week: the lair's, what was done to it this week, its
    levels (a unit) or its distinct skills (a leader or an extra)."""
    spec = rules["prisons"]["escape"]
    chance = rooms.lair_bonus(rules, lair, "escape")
    done = prisoner.get("interrogated") or {}
    if done.get("turn") == turn:
        chance += int(spec["this_week"][done["intent"]])
    record = prisoner.get("record") or {}
    if prisoner.get("kind", m.UNIT) == m.UNIT:
        chance += int(spec["per_unit_level"]) * int(record.get("level", 0))
    else:
        chance += int(spec["per_skill"]) * _skills(record)
    return chance


def fate(state: State, faction: str, prisoner: Mapping[str, Any], rules: Rules) -> str:
    """What the usurper's policies say of this prisoner: named under release or execute, else the
    prisoners policy (hold by default)."""
    policies = standing.stored(state, faction).get("policies") or {}
    for choice in ("release", "execute"):
        if prisoner["id"] in (policies.get(choice) or []):
            return choice
    return str(policies.get("prisoners") or rules["policies"]["prisoners"])


def go_home(state: State, prisoner: Mapping[str, Any]) -> bool:
    """A released or escaped unit of a usurper still in the game rejoins it in its lair."""
    owner = prisoner.get("owner")
    if prisoner.get("kind", m.UNIT) != m.UNIT or not owner or owner not in m.usurpers(state):
        return False
    lair = m.lair_at(state, owner, str(prisoner.get("home") or "")) or next(
        iter(m.lairs(state, owner).values()), None
    )
    if lair is None:
        return False
    unit_id = m.new_id(state, owner, "u")
    m.units(state, owner)[unit_id] = {**prisoner["record"], "id": unit_id, "lair": lair["id"]}
    return True


def week_end(ctx: Context, state: State) -> None:
    """Release and execution by the policies (only for prisoners not interrogated this week), then every
    prisoner still held rolls to escape."""
    rules = ctx.rules
    for faction in m.usurpers(state):
        for lair in m.lairs(state, faction).values():
            for prisoner in list(lair.get("prisoners") or []):
                questioned = (prisoner.get("interrogated") or {}).get("turn") == ctx.turn
                choice = "hold" if questioned else fate(state, faction, prisoner, rules)
                if choice == "execute" and prisoner.get("owner"):
                    choice = "hold"  # another usurper's man may not be executed
                if choice == "hold":
                    _escape(ctx, state, faction, lair, prisoner)
                else:
                    _let_go(ctx, state, faction, lair, prisoner, choice)


def _let_go(ctx: Context, state: State, faction: str, lair: Record, prisoner: Record, choice: str) -> None:
    lair["prisoners"] = [p for p in lair["prisoners"] if p["id"] != prisoner["id"]]
    lost = 0
    if choice == "execute":
        lost = rolls.lose_obscurity(lair, int(ctx.rules["prisons"]["obscurity"]["execute"]))
    home = go_home(state, prisoner) if choice == "release" else False
    ctx.emit(
        "prisoner_" + ("executed" if choice == "execute" else "released"),
        actors=[faction],
        visible_to=told(ctx, faction),
        place=lair["grid"],
        prisoner=prisoner["name"],
        obscurity=lost,
        home=home,
    )
    if home:
        _returns(ctx, prisoner)


def _escape(ctx: Context, state: State, faction: str, lair: Record, prisoner: Record) -> None:
    rules = ctx.rules
    chance = escape_chance(rules, lair, prisoner, ctx.turn)
    roll = ctx.roll(
        roll_label(faction, prisoner["id"], "escape"),
        "1d100",
        factions=[faction],
        decided=f"{prisoner['name']} escapes on {chance} or less",
    )
    if roll.total > chance:
        return
    lair["prisoners"] = [p for p in lair["prisoners"] if p["id"] != prisoner["id"]]
    done = prisoner.get("interrogated") or {}
    tortured = done.get("turn") == ctx.turn and done.get("intent") == "torture"
    lost = (
        rolls.lose_obscurity(lair, int(rules["prisons"]["obscurity"]["tortured_escape"])) if tortured else 0
    )
    home = go_home(state, prisoner)
    ctx.emit(
        "prisoner_escaped",
        actors=[faction],
        visible_to=told(ctx, faction),
        place=lair["grid"],
        rolls=[roll],
        prisoner=prisoner["name"],
        chance=chance,
        obscurity=lost,
        home=home,
    )
    if home:
        _returns(ctx, prisoner)


def _returns(ctx: Context, prisoner: Mapping[str, Any]) -> None:
    """The usurper whose unit comes home hears of it, and nothing of where it was held."""
    owner = str(prisoner["owner"])
    ctx.emit("prisoner_returns", actors=[owner], visible_to=told(ctx, owner), unit=prisoner["name"])
