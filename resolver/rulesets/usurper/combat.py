"""The fights of a usurper's week and what they leave behind (rules data ``combat``, spec §4.1, §4.4, §4.7,
§8.8–8.9, §9.10).

Attack and Raid on an encounter the usurper knows, Harass Travelers on plains, and the ambush a failed
scout may run into (``fight_ambush``, called by the scouting procedure). Each builds the two sides from the
state, runs ``fight.run`` and then settles: men lost, units destroyed, fled units' loyalty, gold, experience,
Obscurity, leaders hurt or killed, and replacements bought by the standing policy ``replace_casualties``.
Replacements paid for arrive at the start of a later week (``arrive_replacements``, a step of the week's end).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import standing
from ...core.checks import Check
from ...core.dice import roll_label
from ...core.phases import State
from ...engine.plans import Reading, Reject
from . import fight as f
from . import lairs, magic, prisons, rolls
from . import model as m
from .acting import Context, Plan, told

Rules = Mapping[str, Any]


# ------------------------------------------------------------------------------- what a lair gives


def lair_renovations(lair: Mapping[str, Any] | None) -> frozenset[str]:
    """The ids of every renovation the lair's rooms have taken, for the switches a fight reads."""
    return frozenset(
        str(taken["renovation"])
        for room in (lair or {}).get("rooms", [])
        for taken in room.get("renovations", [])
    )


def fortifications(rules: Rules, lair: Mapping[str, Any] | None) -> int:
    """The Defense a lair's rooms give its defenders: the Fortifications and their picks for defence."""
    return lairs.lair_bonus(rules, lair, "defense") if lair else 0


# ---------------------------------------------------------------------------------------- the sides


def usurper_side(rules: Rules, state: State, faction: str, plan: Plan, attacking: bool = True) -> f.Side:
    homes = {str(u["id"]): m.home_lair(state, faction, u) for u in plan.units}
    fighters = f.fighters_of(rules, plan.units, homes)
    # Might, Fervor and Stalwart of the leaders with the force: more dice for one of its units.
    spelled = magic.combat_dice(rules, plan.leaders, [x.id for x in fighters])
    for fighter in fighters:
        for stat, dice in spelled.get(fighter.id, {}).items():
            attribute = {"offense": "off"}.get(stat, stat)
            setattr(fighter, attribute, getattr(fighter, attribute) + dice)
    return f.Side(
        faction,
        fighters,
        attacking=attacking,
        factions=(faction,),
        leaders=list(plan.leaders),
        renovations=lair_renovations(plan.lair),
    )


def encounter_side(rules: Rules, key: str, encounter: Mapping[str, Any]) -> f.Side:
    """An encounter's units as the defending side; a unit without an id is named after its place in the
    encounter, which the encounter keeps for the whole game."""
    records = []
    for number, record in enumerate(encounter.get("units") or [], 1):
        records.append({"id": f"{key}-{number}", "name": f"Encounter unit {number}", **record})
    return f.Side(key, f.fighters_of(rules, records), attacking=False)


def travellers(rules: Rules, ctx: Context, faction: str, grid: str) -> list[dict[str, Any]]:
    """The travellers a Harass meets on plains: a plains encounter's worth of basic units of the plains'
    people (the first native standard race of the terrain in the rules data, else humans)."""
    spec = rules["combat"]["encounters"]["units"]
    low, high = int(spec["min"]), int(spec["max"])
    count = ctx.roll(roll_label("harass", faction, grid, "travellers"), f"1d{high - low + 1}+{low - 1}").total
    race = str(rules["combat"].get("harass_race", "humans"))
    stats = (rules.get("races") or {}).get(race) or {}
    return [
        {
            "id": f"travellers-{n}",
            "name": f"Travellers {n}",
            "race": race,
            "level": 0,
            "pax": int(rules["combat"]["full_unit_pax"]),
            "offense": int(stats.get("offense", 1)),
            "defense": int(stats.get("defense", 1)),
            "strength": int(stats.get("strength", 1)),
            "speed": stats.get("speed") or {"combat": "M", "overland": 2},
        }
        for n in range(1, count + 1)
    ]


# ----------------------------------------------------------------------------------------- settling


def leader_injury_chance(rules: Rules, side: f.Side, lost_fight: bool) -> int:
    """The per cent chance each leader with a force in the field is hurt: heavy losses give the share lost,
    a lost flight gives the rout chance; the higher of the two when both hold."""
    spec = rules["combat"]["leader_injury"]
    men = sum(x.pax + x.lost for x in side.fighters if not x.single) or 1
    lost = sum(x.lost for x in side.fighters if not x.single)
    chances = [0]
    share = 100 * lost // men
    if share > int(spec["heavy_losses"]):
        chances.append(share)
    if lost_fight and any(x.fled for x in side.fighters):
        steady = sum(1 for x in side.fighters if x.standing)
        chances.append(int(spec["rout_base"]) + int(spec["rout_per_steady_unit"]) * steady)
    return max(0, min(100, max(chances)))


def hurt_leader(ctx: Context, state: State, faction: str, leader_id: str) -> str:
    """One wound: a leader with no hit points left is dead; a usurper with no leader left is out."""
    leaders = m.leaders(state, faction)
    leader = leaders[leader_id]
    leader["hp"] = int(leader.get("hp", 2)) - 1
    if leader["hp"] > 0:
        return "hurt"
    del leaders[leader_id]
    if not leaders:
        state["factions"][faction]["status"] = "out"
        ctx.emit("usurper_out", actors=[faction], reason="both leaders dead")
    return "killed"


def injure_leaders(
    ctx: Context, state: State, faction: str, side: f.Side, lost: bool, label: Any
) -> dict[str, str]:
    chance = leader_injury_chance(ctx.rules, side, lost)
    fates: dict[str, str] = {}
    if not chance:
        return fates
    check = Check.from_rules(ctx.rules, "leader_injury")
    for leader in list(side.leaders):
        rolled = check.roll(ctx, roll_label(label, leader["id"], "injury"), factions=(faction,))
        if rolled.total <= chance:
            fates[leader["id"]] = hurt_leader(ctx, state, faction, leader["id"])
    return fates


def loyalty_after_flight(
    ctx: Context, state: State, faction: str, fighter: f.Fighter, label: Any, leaders: Any = ()
) -> str:
    """A unit that fled tests its loyalty; one that fails leaves with everything it carried. The ledger is
    the dice chapter's (``rolls.loyalty_ledger``: the rooms of its lair, a Medallion, the spells of the
    ``leaders`` with its force, a Demoralized flight), and so is what each result does (the row of
    ``checks.loyalty``: leaving, Obscurity, idling Grumpy), as for a unit left unpaid."""
    ledger = rolls.loyalty_ledger(
        ctx.rules, fighter.record, lair=fighter.lair, demoralized=fighter.demoralized, leaders=leaders
    )
    check = rolls.d100_check(ctx.rules, "loyalty", month_one=rolls.first_month(ctx))
    rolled = check.roll(
        ctx, roll_label(label, fighter.id, "loyalty"), modifiers=[x for x in ledger if x.value],
        factions=(faction,), decided=f"{fighter.name}: loyalty",
    )  # fmt: skip
    row = rolled.row
    units = m.units(state, faction)
    if row.get("obscurity"):
        _obscurity(state, faction, units.get(fighter.id), int(row.get("obscurity")))
    if row.get("leaves"):
        units.pop(fighter.id, None)
    elif row.get("idle_until_paid") and fighter.id in units:
        units[fighter.id]["grumpy"] = True
    return rolled.result


def _obscurity(state: State, faction: str, unit: Mapping[str, Any] | None, change: int) -> None:
    lair = m.home_lair(state, faction, unit or {})
    if lair is not None and change:
        lair["obscurity"]["current"] = int(lair["obscurity"]["current"]) + change


def replacement_terms(rules: Rules, level: int) -> tuple[int, int]:
    """(weeks to wait, gold per man) for a unit of this level."""
    rows = [row for row in rules["combat"]["replacements"] if int(row["level"]) <= level]
    row = max(rows, key=lambda row: int(row["level"]))
    return int(row["weeks"]), int(row["gold"])


def buy_replacements(rules: Rules, state: State, faction: str, turn: int) -> list[dict[str, Any]]:
    """Pay at once for as many missing men as the gold allows, smallest units first; each batch joins at
    the start of the week after its wait (a wait of 0 paid in week N: week N+1)."""
    record = m.usurper(state, faction)
    bought = []
    full = int(rules["combat"]["full_unit_pax"])
    units = sorted(m.units(state, faction).values(), key=lambda u: (int(u["pax"]), u["id"]))
    for unit in units:
        coming = sum(int(r["pax"]) for r in unit.get("replacements") or [])
        missing = full - int(unit["pax"]) - coming
        weeks, price = replacement_terms(rules, int(unit.get("level", 0)))
        pax = min(missing, int(record.get("gold", 0)) // price) if price else missing
        if pax <= 0:
            continue
        record["gold"] = int(record.get("gold", 0)) - pax * price
        batch = {"pax": pax, "arrives": turn + weeks + 1}
        unit.setdefault("replacements", []).append(batch)
        bought.append({"unit": unit["id"], "pax": pax, "gold": pax * price, "arrives": batch["arrives"]})
    return bought


def arrive_replacements(ctx: Context, state: State) -> None:
    """The week's end step: replacements due by next week's start join their units."""
    for faction in m.usurpers(state):
        for unit in m.units(state, faction).values():
            waiting = unit.get("replacements") or []
            due = [r for r in waiting if int(r["arrives"]) <= ctx.turn + 1]
            if not due:
                continue
            unit["pax"] = int(unit["pax"]) + sum(int(r["pax"]) for r in due)
            unit["replacements"] = [r for r in waiting if r not in due]
            ctx.emit("replacements_arrive", actors=[faction], visible_to=told(ctx, faction), unit=unit["id"],
                     pax=sum(int(r["pax"]) for r in due))  # fmt: skip


def settle(
    ctx: Context,
    state: State,
    faction: str,
    plan: Plan,
    fight: f.Fight,
    out: f.Outcome,
    label: Any,
    *,
    purse: bool = True,
    obscurity: int | None = None,
) -> dict[str, Any]:
    """Apply a fight to the usurper who started it (side 0): losses, flight, gold, experience, Obscurity,
    leaders, replacements. Returns what the event tells. A fight against another usurper has no purse to
    take (``purse=False``), and its side may pay another Obscurity than the fight's kind (``obscurity``)."""
    rules = ctx.rules
    combat = rules["combat"]
    side, enemy = fight.sides
    units = m.units(state, faction)
    record = m.usurper(state, faction)
    for fighter in side.fighters:
        unit = units.get(fighter.id)
        if unit is None:
            continue
        unit["pax"] = max(0, int(unit["pax"]) - fighter.lost)
        if fighter.destroyed:
            del units[fighter.id]
    loyalty = {
        x.id: loyalty_after_flight(ctx, state, faction, x, label, side.leaders)
        for x in side.fighters
        if x.fled
    }
    won = out.winner == side.key
    gold = 0
    if fight.kind == "harass":
        killed = sum(x.lost for x in enemy.fighters)
        gold = min(
            killed * int(combat["rewards"]["harass_gold_per_pax"]), int(combat["rewards"]["harass_gold_max"])
        )
    elif won and purse:
        routed = [x for x in enemy.fighters if not x.standing]
        worth = sum(float(combat["reward_single_entity"]) if x.single else 1.0 for x in routed)
        gold = int(worth * int(combat["rewards"]["gold_per_unit"]))
    record["gold"] = int(record.get("gold", 0)) + gold
    xp: dict[str, int] = {}
    if won and fight.kind != "harass":
        spec = combat["xp"]
        survivors = [x for x in side.fighters if x.standing and x.id in units]
        mine = sum(x.level for x in side.fighters) / max(1, len(side.fighters))
        theirs = sum(x.level for x in enemy.fighters) / max(1, len(enemy.fighters))
        each = int(spec["per_surviving_unit"]) + (
            int(spec["level_gap_bonus"]) if theirs - mine >= int(spec["level_gap"]) else 0
        )
        for x in survivors:
            units[x.id]["xp"] = int(units[x.id].get("xp", 0)) + each
            xp[x.id] = each
    change = int(combat["obscurity"][fight.kind if fight.kind in ("raid", "harass") else "attack"])
    if obscurity is not None:
        change = obscurity
    pulled_out = fight.kind == "raid" and out.withdrew == side.key and side.key not in out.forced_to_flee
    if any(x.fled for x in side.fighters) and not pulled_out:
        change += int(combat["obscurity"]["fled"])
    if fight.kind != "ambush":
        _obscurity(state, faction, plan.units[0] if plan.units else None, change)
    lost_fight = out.winner is not None and not won
    leaders = injure_leaders(ctx, state, faction, side, lost_fight, label)
    policy = (standing.stored(state, faction).get("policies") or {}).get("replace_casualties")
    auto = (policy or rules["policies"]["replace_casualties"]) == "auto"
    bought = buy_replacements(rules, state, faction, ctx.turn) if auto else []
    return {"gold": gold, "xp": xp, "loyalty": loyalty, "leaders": leaders, "replacements": bought,
            "obscurity": change if fight.kind != "ambush" else 0}  # fmt: skip


# ----------------------------------------------------------------------------------------- the actions


def _event(
    ctx: Context, faction: str, plan: Plan, fight: f.Fight, out: f.Outcome, news: dict[str, Any]
) -> None:
    side, enemy = fight.sides
    ctx.emit(
        "combat",
        actors=[faction],
        visible_to=told(ctx, faction),
        place=plan.target,
        rolls=out.decisive,
        action=fight.kind,
        enemy=enemy.key,
        won=out.winner == side.key,
        draw=out.winner is None,
        melee_rounds=out.melee_rounds,
        lost=sum(x.lost for x in side.fighters),
        killed=sum(x.lost for x in enemy.fighters),
        fled=[x.id for x in side.fighters if x.fled],
        destroyed=[x.id for x in side.fighters if x.destroyed],
        enemy_routed=sum(1 for x in enemy.fighters if not x.standing),
        withdrew=out.withdrew == side.key,
        **news,
    )


def fight_encounter(ctx: Context, state: State, plan: Plan) -> None:
    """Attack or Raid on an encounter the usurper knows (``plan.details['encounter']``)."""
    faction = plan.faction
    key = str(plan.details["encounter"])
    encounters = m.known(state, faction)["encounters"]
    encounter = encounters.get(key)
    if encounter is None:
        ctx.order_failed(faction, plan.order, f"the encounter {key} is gone")
        return
    label = roll_label("combat", faction, key)
    sides = (usurper_side(ctx.rules, state, faction, plan), encounter_side(ctx.rules, key, encounter))
    fight = f.Fight(label, sides, kind=plan.action, first_month=rolls.first_month(ctx))
    out = f.run(ctx.rules, ctx, fight)
    news = settle(ctx, state, faction, plan, fight, out, label)
    if out.winner == fight.sides[0].key:
        prisons.capture(ctx, state, faction, prisons.captives(ctx.rules, fight.sides[1].fighters),
                        lair=plan.lair["id"] if plan.lair else None, place=plan.target)  # fmt: skip
    standing_units = [x for x in fight.sides[1].fighters if x.standing]
    if not standing_units:
        del encounters[key]
    else:
        kept = {x.id: x.pax for x in standing_units}
        encounter["units"] = [
            {**u, "pax": kept[f"{key}-{n}"] if "id" not in u else kept[u["id"]]}
            for n, u in enumerate(encounter.get("units") or [], 1)
            if (u.get("id") or f"{key}-{n}") in kept
        ]
    _event(ctx, faction, plan, fight, out, news)


def harass(ctx: Context, state: State, plan: Plan) -> None:
    """Harass Travelers: one ranged phase and one melee round against travellers on plains."""
    faction = plan.faction
    label = roll_label("combat", faction, plan.target, "harass")
    enemy = f.Side(
        "travellers", f.fighters_of(ctx.rules, travellers(ctx.rules, ctx, faction, plan.target)), False
    )
    own = usurper_side(ctx.rules, state, faction, plan)
    fight = f.Fight(label, (own, enemy), kind="harass", first_month=rolls.first_month(ctx))
    out = f.run(ctx.rules, ctx, fight)
    _event(ctx, faction, plan, fight, out, settle(ctx, state, faction, plan, fight, out, label))


def fight_ambush(ctx: Context, state: State, plan: Plan, ambushers: list[dict[str, Any]]) -> f.Outcome:
    """A failed scout's party is ambushed (called by the scouting procedure): one round of fighting; the
    ambush is not kept among the encounters. The scouts defend; the ambushers attack."""
    faction = plan.faction
    label = roll_label("combat", faction, plan.target, "ambush")
    own = usurper_side(ctx.rules, state, faction, plan, attacking=False)
    enemy = f.Side("ambush", f.fighters_of(ctx.rules, ambushers), attacking=True)
    fight = f.Fight(label, (own, enemy), kind="ambush", first_month=rolls.first_month(ctx))
    out = f.run(ctx.rules, ctx, fight)
    _event(ctx, faction, plan, fight, out, settle(ctx, state, faction, plan, fight, out, label))
    return out


# ------------------------------------------------------------------------------------- requirements


def require_encounter(reading: Reading, plan: Plan) -> None:
    """Attack and Raid name an encounter this usurper knows at the target grid."""
    key = plan.order.get("encounter")
    if not key:
        raise Reject(
            "encounter",
            "name the encounter to fight",
            "write encounter: and one of your known encounters' ids",
        )
    known = m.known(reading.state, reading.faction)["encounters"]
    if key not in known:
        listed = (
            ", ".join(f"{k} at {v.get('grid')}" for k, v in sorted(known.items()))
            or "none yet: scout to find some"
        )
        raise Reject("encounter", f"you know no encounter '{key}'", f"your encounters: {listed}",
                     failure=f"the encounter {key} is gone")  # fmt: skip
    if known[key].get("grid") and known[key]["grid"] != plan.target:
        raise Reject(
            "target", f"encounter {key} is at {known[key]['grid']}", f"write target: {known[key]['grid']}"
        )
    plan.details["encounter"] = str(key)


def require_plains(reading: Reading, plan: Plan) -> None:
    terrain = reading.game.world[plan.target].terrain
    if terrain != "plains":
        raise Reject("target", f"{plan.target} is {terrain}: travellers are harassed only on plains",
                     "choose a plains grid within reach")  # fmt: skip
