"""Battles in the month: from the state to the battle engine and back (spec §7.3, §7.4, §3.4, §4.2).

The guards of the titles chapter and its ATTACK and PILLAGE executors queue battles with
``guards.start_battle`` in the turn memory (``ctx.memory.battles``); this module adds the battles an Enemy
stance starts on sight and, at each day's battle phase, fights every battle queued that day:
``engagement.engage`` picks the sides, ``battle.fight`` fights it with the turn's labelled dice, and the
result goes back into the state (figures lost, units gone with their stacks re-formed, wounds, loot,
experience, heroes, titles of the fallen, a MARCH going on or turning back). Each battle is told as one
``battle`` event and one ``battle_report`` per faction that fought.

Every roll of a battle is labelled from the turn, the day, the place and the two units that began it, so a
battle elsewhere never changes this one's dice.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...core.dice import Roll, roll_label
from ...core.programs import Line, Result
from . import (
    battle,
    battle_lore,
    control,
    departures,
    guards,
    movement,
    sight,
    stances,
    stats,
    structures,
    titles,
)
from . import model as m
from .battle import BattleResult, Fighter, Tactic
from .battle_words import battle_lines, loss_words
from .burden import MILLI, unit_burden
from .engagement import Engagement, Presence, Trigger, engage
from .grid import ATTACKERS, DEFENDERS
from .month import Month

Outcome = tuple[Result, Line | None]
Rules = Mapping[str, Any]

# Hooks for the places chapter: called after each battle with the month, the place and the result, so a
# battle can cut the place's optimum population (spec §7.3.13) where that chapter keeps it.
AftermathHook = Callable[[Month, str, BattleResult], None]
AFTERMATH_HOOKS: list[AftermathHook] = []


@dataclasses.dataclass(frozen=True)
class Fought:
    """A battle as it was told: what the hooks that tell it to others (the onlookers' reports,
    spectators.py) read. ``before``: every unit present as it stood before the battle."""

    location: str
    sides: Engagement
    result: BattleResult
    names: Mapping[str, str]
    owners: Mapping[str, str]
    before: Mapping[str, Mapping[str, Any]]


# Hooks called after a battle is told to those who fought it, with the month and the battle.
TOLD_HOOKS: list[Callable[[Month, Fought], None]] = []


def _rules(rules: Rules) -> Mapping[str, Any]:
    return rules["warfare"]


# ---------------------------------------------------------------- a fighter from the state


def fighter(rules: Rules, state: Mapping[str, Any], unit_id: str, side: str) -> Fighter:
    """The unit as the battle engine sees it: its stats from race, skills, items and effects, its TACTIC
    and COMBAT settings, and what it carries (for the loot)."""
    unit = state["units"][unit_id]
    own = _rules(rules)
    figure = stats.unit_stats(rules, unit)
    for name, bonus in structures.unit_bonuses(rules, state, unit).items():  # a fortress's walls
        figure[name] = figure.get(name, 0) + bonus
    race = stats.race(rules, unit)
    figures = int(unit.get("figures", 1))
    setting = unit.get("tactic") or {}
    tactic = Tactic(
        battle=str(setting.get("battle", "fight")).lower(),
        rank=str(setting.get("rank", "front")).lower(),
        file=str(setting.get("file", "center")).lower(),
        move=str(setting.get("move", "advance")).lower(),
    )
    items = {tag: int(count) for tag, count in sorted((unit.get("items") or {}).items()) if int(count) > 0}
    equipped = {
        tag: min(int(count), items.get(tag, 0)) for tag, count in (unit.get("equipped") or {}).items()
    }
    actions = rules["combat"]["actions"]
    usable = {tag: count for tag, count in sorted(equipped.items()) if (actions.get(tag) or {}).get("item")}
    ridden = sum(
        count
        for tag, count in equipped.items()
        if ((rules["items"].get(tag) or {}).get("equipped_capacity") or {}).get("ride")
    )
    burden = unit_burden(rules, unit)
    return Fighter(
        unit=unit_id,
        faction=str(unit["owner"]),
        side=side,
        figures=figures,
        initiative=figure["initiative"],
        melee=figure["melee"],
        missile=figure["missile"],
        defense=figure["defense"],
        damage=figure["damage"],
        ranged_damage=figure["ranged_damage"],
        stealth=figure["stealth"],
        observation=figure["observation"],
        life=max(1, figure["life"]),
        hits=max(1, figure["hits"]),
        base_combat=stats.skill_level(rules, unit, rules["combat"]["experience"]["combat_skill"]),
        tactics=stats.skill_level(rules, unit, own["tactics_skill"]),
        strategy=stats.skill_level(rules, unit, own["strategy_skill"]) >= 1,
        fanatic=stats.skill_level(rules, unit, own["fanatic_skill"]) >= 1,
        flying=int((race.get("capacity") or {}).get("fly", 0)) > 0,
        mounted=figures > 0 and ridden >= figures,
        race=str(unit["race"]),
        mana=int(unit.get("mana", 0) or 0),
        mana_max=figure["max_mana"],
        actions=tuple(str(action).lower() for action in unit.get("combat") or ()),
        tactic=tactic,
        equipment=usable,
        items=items,
        skills={tag: float(days) for tag, days in sorted((unit.get("skills") or {}).items())},
        load=burden.weight / MILLI,
        capacity=burden.capacity.get("walk", 0) / MILLI,
    )


# ---------------------------------------------------------------- TACTIC and COMBAT


def tactic_order(month: Month, unit_id: str, line: Line) -> Outcome:
    """TACTIC battle rank file move: how the unit joins battles, where it stands and how it moves (the
    reading has put the grid's other names for a rank or a file into the order's own)."""
    args = month.read(line).args
    # The state keeps the words in small letters, as the battle reads them.
    tactic = {part: str(args[part]).lower() for part in ("battle", "rank", "file", "move")}
    month.state["units"][unit_id]["tactic"] = tactic
    return Result.FINISHED, None


def combat_order(month: Month, unit_id: str, line: Line) -> Outcome:
    """COMBAT a1 a2 …: the actions tried each round before the implicit MELEE and PARRY."""
    actions = month.read(line).args["actions"] or ()
    month.state["units"][unit_id]["combat"] = [str(action).lower() for action in actions]
    return Result.FINISHED, None


EXECUTORS = {"TACTIC": tactic_order, "COMBAT": combat_order}


# ---------------------------------------------------------------- who attacks whom on sight


def _stance(state: Mapping[str, Any], rules: Rules, holder: str, toward: str) -> str:
    return stances.stance(state, rules, holder, toward)


def enemies_on_sight(month: Month) -> list[guards.BattleCall]:
    """Units not set to AVOID or DEFEND attack the units they see of a faction theirs holds Enemy: one battle
    a day for each such pair of factions in a place. When both hold the other Enemy, the newcomer attacks
    (its first unit arrived later in the place)."""
    state, rules = month.state, month.rules
    units = state["units"]
    called: list[guards.BattleCall] = []
    queued = {
        (call.location, frozenset((units[call.attacker]["owner"], units[call.defender]["owner"])))
        for call in guards.battle_queue(month)
        if call.day == month.day and call.attacker in units and call.defender in units
    }
    # The units grouped by place once: starting a battle only queues it, so no unit moves in this loop.
    grouped = m.by_location(state)
    for location in m.occupied_in_order(grouped, list(month.ctx.game.world)):
        here = [uid for uid in m.in_report_order(grouped[location]) if not units[uid].get("moving")]
        first: dict[str, int] = {}
        for index, uid in enumerate(here):
            first.setdefault(str(units[uid]["owner"]), index)
        factions = sorted(first)
        for a in factions:
            for b in factions:
                if a >= b or (location, frozenset((a, b))) in queued:
                    continue
                hates = [f for f, g in ((a, b), (b, a)) if _stance(state, rules, f, g) == "enemy"]
                if not hates:
                    continue
                # The newcomer first: its first unit comes later in the place's report order.
                hates.sort(key=lambda faction: -first[faction])
                for attacking in hates:
                    other = b if attacking == a else a
                    pair = _sighting(rules, state, here, attacking, other)
                    if pair is not None:
                        called.append(guards.start_battle(month, pair[0], pair[1], "enemy"))
                        queued.add((location, frozenset((a, b))))
                        break
    return called


def _sighting(
    rules: Rules, state: Mapping[str, Any], here: Sequence[str], attacking: str, other: str
) -> tuple[str, str] | None:
    units = state["units"]
    for uid in here:
        unit = units[uid]
        if unit["owner"] != attacking or unit.get("idle"):
            continue
        if str((unit.get("tactic") or {}).get("battle", "fight")).lower() in _rules(rules)["sight_keeps_out"]:
            continue
        seen = (
            t for t in here if units[t]["owner"] == other and sight.unit_sees(rules, state, unit, units[t])
        )
        target = next(seen, None)
        if target is not None:
            return uid, target
    return None


# ---------------------------------------------------------------- the arrival of a stack among guards


def guard_arrival(month: Any, uid: str) -> None:
    """Movement's arrival hook: the guards of the place look at the stack (guards.on_arrival); a Hostile
    stack that came with MOVE turns back, an Enemy or a MARCH is a battle queued for today."""
    rules = month.ctx.rules
    if "guarding" not in rules:
        return
    state = month.state
    if not guards.guards_at(state, rules, str(state["units"][uid]["location"])):
        return
    view = month if isinstance(month, Month) else Month(month.ctx, state)
    found = guards.on_arrival(view, uid)
    if found.outcome == "retreat":
        movement.turn_back(view, uid, "guard")


if guard_arrival not in movement.ARRIVAL_HOOKS:
    movement.ARRIVAL_HOOKS.append(guard_arrival)


# ---------------------------------------------------------------- the day's battles


def fight_battles(month: Month) -> list[BattleResult]:
    """The battle phase: Enemies seen start theirs, then every battle queued today is fought in turn."""
    enemies_on_sight(month)
    queue = guards.battle_queue(month)
    today = [call for call in queue if call.day == month.day]
    queue[:] = [call for call in queue if call.day != month.day]
    results = []
    for call in today:
        result = fight_one(month, call)
        if result is not None:
            results.append(result)
    return results


def _present(state: Mapping[str, Any], location: str, marching: Sequence[str]) -> list[str]:
    """Who is there when the battle starts: the units standing in the place, and the stacks that began it
    even when they are still on the road (a MARCH fights at the border)."""
    units = state["units"]
    return [uid for uid in m.at_location(state, location) if not units[uid].get("moving") or uid in marching]


def _label(call: guards.BattleCall) -> str:
    return str(roll_label("battle", call.location, call.attacker, call.defender))


def fight_one(month: Month, call: guards.BattleCall) -> BattleResult | None:
    """Fight one queued battle and carry its outcome into the state; None when it cannot happen any more
    (a unit gone, or no longer in the same place)."""
    ctx, state, rules = month.ctx, month.state, month.rules
    units = state["units"]
    attacker, defender = units.get(call.attacker), units.get(call.defender)
    if attacker is None or defender is None or attacker.get("location") != defender.get("location"):
        return None
    location = str(defender["location"])
    if call.trigger == "attack" and attacker.get("stack"):  # only a top leader attacks with the stack
        leader = str(attacker["stack"])
        attacker["stack"] = None
        month.tell(
            "unstacks", call.attacker, to=[attacker["owner"]], leader=m.unit_name(state, leader), why="attack"
        )
    ends = {call.attacker, call.defender}
    stacked = {uid for top in ends for uid in (top, *m.stack_of(state, top))}
    marching = [call.attacker, *m.stack_of(state, call.attacker)]
    here = _present(state, location, sorted(stacked))
    label = _label(call)
    involved = sorted({str(units[uid]["owner"]) for uid in here})
    drawn: list[Roll] = []  # every die of the battle, carried by its event

    def roll(text: str, sides: int) -> int:
        if sides < 2:  # a choice among one (one looter, one heir) needs no die
            return 1
        rolled = ctx.roll(roll_label(*text.split("/")), f"1d{sides}", factions=involved)
        drawn.append(rolled)
        return rolled.total

    presences = [
        Presence(
            unit=uid,
            faction=str(units[uid]["owner"]),
            battle=str((units[uid].get("tactic") or {}).get("battle", "fight")).lower(),
            stack=units[uid].get("stack") if units[uid].get("stack") in here else None,
            guarding=guards.is_guarding(rules, units[uid]),
        )
        for uid in here
    ]
    held = {f: {g: _stance(state, rules, f, g) for g in involved if g != f} for f in involved}
    sides = engage(presences, held, Trigger(call.attacker, call.defender), rules, roll, label)
    _refusals(month, sides, call)
    fighters = [fighter(rules, state, uid, ATTACKERS) for uid in sides.attackers]
    fighters += [fighter(rules, state, uid, DEFENDERS) for uid in sides.defenders]
    names = {uid: m.unit_name(state, uid) for uid in here}
    owners = {uid: str(units[uid]["owner"]) for uid in here}
    before = {uid: copy.deepcopy(units[uid]) for uid in here}
    weights = {tag: float(item.get("weight", 0)) for tag, item in rules["items"].items()}
    result = battle.fight(fighters, rules, roll, label, weights)
    changes = apply_result(month, call, sides, result, roll, label, marching)
    _tell(month, call, sides, result, changes, names, owners, before, drawn)
    for hook in AFTERMATH_HOOKS:
        hook(month, location, result)
    return result


def _refusals(month: Month, sides: Engagement, call: guards.BattleCall) -> None:
    """Units of a faction over its control points may refuse to fight (the titles chapter's control).
    Those rolls tell that a faction is short of points, which only it knows: each faction that rolled hears
    of them in a private ``battle_refusals`` event carrying its own rolls, not in the public battle."""
    ctx, state, rules = month.ctx, month.state, month.rules
    battle_id = f"{call.location}:{call.attacker}:{call.defender}"
    ends = (call.attacker, call.defender)
    drawn: dict[str, list[Roll]] = {}
    refused: dict[str, list[str]] = {}
    for group in (sides.attackers, sides.defenders):
        for uid in list(group):
            faction = str(state["units"][uid]["owner"])
            rolls = drawn.setdefault(faction, [])
            if control.refuses_battle(ctx, state, rules, battle_id, uid, uid in ends, rolls):
                group.remove(uid)
                sides.refused.append(uid)
                refused.setdefault(faction, []).append(m.unit_name(state, uid))
    for faction, rolls in sorted(drawn.items()):
        if rolls:
            ctx.emit(
                "battle_refusals",
                actors=[faction],
                place=call.location,
                visible_to=[faction],
                rolls=rolls,
                refused=refused.get(faction, []),
            )


# ---------------------------------------------------------------- the aftermath in the state


def apply_result(
    month: Month,
    call: guards.BattleCall,
    sides: Engagement,
    result: BattleResult,
    roll: Callable[[str, int], int],
    label: str,
    marching: Sequence[str] = (),
) -> dict[str, Any]:
    """Losses, loot, experience, heroes, titles of the fallen and a MARCH's fate, in that order. Returns
    what changed hands, for the battle's event (names only)."""
    state, rules = month.state, month.rules
    units = state["units"]
    changes: dict[str, Any] = {"promoted": [], "titles": [], "loot": []}
    for uid, outcome in sorted(result.units.items()):
        unit = units[uid]
        for skill, days in sorted(outcome.experience.items()):
            if skill in rules["skills"]:
                skills = unit.setdefault("skills", {})
                skills[skill] = int(skills.get(skill, 0)) + int(days)
        if outcome.promoted:
            unit["race"] = rules["combat"]["hero_race"]
            changes["promoted"].append(m.unit_name(state, uid))
        if "mana" in unit:
            unit["mana"] = outcome.mana
    for lot in result.loot:
        receiver = units[lot.receiver]
        goods = receiver.setdefault("items", {})
        goods[lot.item] = int(goods.get(lot.item, 0)) + lot.count
        changes["loot"].append(
            {"unit": m.unit_name(state, lot.receiver), "goods": stats.items_words(rules, lot.item, lot.count)}
        )
    fallen = [uid for uid, outcome in sorted(result.units.items()) if outcome.destroyed]
    for uid, outcome in sorted(result.units.items()):
        if outcome.figures_lost and not outcome.destroyed:
            _lose_figures(rules, units[uid], outcome.figures_lost)
    for uid in fallen:
        if units[uid].get("title"):
            changes["titles"].append(_fallen_title(month, uid, sides, result, roll, label))
    for uid in fallen:
        remove_unit(month, uid)
    if call.trigger == "march":
        _march_goes_on(month, call, result, marching)
    return changes


def _lose_figures(rules: Rules, unit: dict[str, Any], lost: int) -> None:
    """Figures killed: fewer figures, and no more equipment worn than figures left to wear it."""
    unit["figures"] = max(0, int(unit["figures"]) - lost)
    worn = unit.get("equipped") or {}
    most = int(unit["figures"]) * int(_rules(rules)["worn_per_figure"])
    for tag in list(worn):
        worn[tag] = min(int(worn[tag]), most, int((unit.get("items") or {}).get(tag, 0)))
        if worn[tag] <= 0:
            del worn[tag]


def remove_unit(month: Month, uid: str) -> None:
    """A unit with no figure left is gone: those stacked directly under it join its own leader, or stand
    alone where it stood when it led the stack (spec §4.5); its queue goes with it."""
    units = month.state["units"]
    departures.record(month.ctx, month.state, uid, departures.SLAIN)
    gone = units.pop(uid)
    above = gone.get("stack") if gone.get("stack") in units else None
    for other in units.values():
        if other.get("stack") == uid:
            other["stack"] = above
    month.programs.pop(uid, None)


def _fallen_title(
    month: Month,
    holder: str,
    sides: Engagement,
    result: BattleResult,
    roll: Callable[[str, int], int],
    label: str,
    marching: Sequence[str] = (),
) -> dict[str, Any]:
    """Who takes the title of a holder slain in battle: battle.title_heir among the untitled leaders able to
    claim it; the Overlord's title only goes to the winners' leader with the most combat, at the level
    the rules ask for."""
    state, rules = month.state, month.rules
    units = state["units"]
    title = units[holder]["title"]
    tag, location = str(title["tag"]), str(title["location"])
    side = result.units[holder].side
    survivors = {
        group: [
            uid
            for uid in members
            if uid in result.units and not result.units[uid].destroyed and uid != holder
        ]
        for group, members in ((ATTACKERS, sides.attackers), (DEFENDERS, sides.defenders))
    }
    heir: str | None
    if tag == _rules(rules)["overlord"]["title"]:
        heir = _overlord_heir(rules, units, survivors, result)
    else:
        claimants = {
            group: [
                uid
                for uid in members
                if titles.may_hold(rules, units[uid])
                and not units[uid].get("title")
                and titles.meets_requirement(rules, units[uid], tag)
            ]
            for group, members in survivors.items()
        }
        heir = battle.title_heir(holder, side, result.winner, claimants, rules, roll, label)
    titles.transfer(state, rules, location, heir)
    return {
        "title": titles.title_name(rules, tag),
        "where": movement.place_name(month.ctx.game.world, location),
        "fallen": m.unit_name(state, holder),
        "heir": None if heir is None else m.unit_name(state, heir),
    }


def _overlord_heir(
    rules: Rules, units: Mapping[str, Any], survivors: Mapping[str, list[str]], result: BattleResult
) -> str | None:
    if result.winner is None:
        return None
    overlord = _rules(rules)["overlord"]
    skill = rules["combat"]["experience"]["combat_skill"]
    leaders = [uid for uid in survivors[result.winner] if titles.may_hold(rules, units[uid])]
    leaders.sort(key=lambda uid: (-stats.days_in(units[uid], skill), uid))
    if leaders and stats.skill_level(rules, units[leaders[0]], skill) >= int(overlord["combat_level"]):
        return leaders[0]
    return None


def _march_goes_on(
    month: Month, call: guards.BattleCall, result: BattleResult, marching: Sequence[str]
) -> None:
    """A MARCH that won goes on into the place; lost or drawn, the marching stack's units still standing
    turn back, each at the head of what is left of its stack."""
    units = month.state["units"]
    marcher = result.units.get(call.attacker)
    if result.winner == ATTACKERS and marcher is not None and not marcher.destroyed:
        return
    for uid in marching:
        unit = units.get(uid)
        if unit is None or not unit.get("moving") or unit["moving"].get("order") == "RETREAT":
            continue
        leader = units.get(str(unit.get("stack"))) if unit.get("stack") else None
        if leader is None or not leader.get("moving"):
            movement.turn_back(month, uid, "battle")


# ---------------------------------------------------------------- telling it


def _tell(
    month: Month,
    call: guards.BattleCall,
    sides: Engagement,
    result: BattleResult,
    changes: Mapping[str, Any],
    names: Mapping[str, str],
    owners: Mapping[str, str],
    before: Mapping[str, Mapping[str, Any]],
    rolls: Sequence[Roll] = (),
) -> None:
    ctx, state, rules = month.ctx, month.state, month.rules
    winner = {ATTACKERS: sides.attacking_faction, DEFENDERS: sides.defending_faction}.get(result.winner or "")
    present = sorted(set(owners.values()))
    losses = [
        loss_words(rules, before[uid], names[uid], outcome.figures_lost, outcome.destroyed)
        for uid, outcome in sorted(result.units.items(), key=lambda item: (item[1].side, item[0]))
        if outcome.figures_lost
    ]
    fought = sorted({owners[uid] for uid in (*sides.attackers, *sides.defenders)})
    # In a sealed campaign only the factions in the battle read its sentence, with every fighter named:
    # onlookers get their own report of what they could see (spectators.py, a house rule).
    told = sorted({*fought, sides.attacking_faction, sides.defending_faction} & set(present))
    ctx.emit(
        "battle",
        actors=[sides.attacking_faction, sides.defending_faction],
        place=call.location,
        visible_to=told if ctx.sealed else None,
        rolls=rolls,
        winner=winner,
        trigger=call.trigger,
        attacker_name=names[call.attacker],
        defender_name=names[call.defender],
        attackers=[names[uid] for uid in sides.attackers],
        defenders=[names[uid] for uid in sides.defenders],
        rounds=result.rounds,
        end=result.end,
        losses=losses,
        promoted=list(changes["promoted"]),
        titles=list(changes["titles"]),
        loot=list(changes["loot"]),
    )
    fighters = [before[uid] for uid in (*sides.attackers, *sides.defenders)]
    for faction in fought:
        terse = bool((state["factions"].get(faction, {}).get("settings") or {}).get("terse"))
        mine = [uid for uid in (*sides.attackers, *sides.defenders) if owners[uid] == faction]
        side = result.units[mine[0]].side if mine else None
        won = side is not None and side == result.winner
        standing = any(not result.units[uid].destroyed for uid in mine if uid in result.units)
        # A full report to a faction with a unit left standing describes what it met for the first time.
        described = (
            battle_lore.describe_new(rules, state["factions"][faction], fighters)
            if standing and not terse and faction in state["factions"]
            else []
        )
        ctx.emit(
            "battle_report",
            actors=[faction],
            place=call.location,
            visible_to=[faction],
            terse=terse,
            won=won,
            lines=battle_lines(rules, result, names, owners, before, state, terse=terse, winners_stats=won),
            described=described,
        )
    for hook in TOLD_HOOKS:
        hook(month, Fought(call.location, sides, result, names, owners, before))
