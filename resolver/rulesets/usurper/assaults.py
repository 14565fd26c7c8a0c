"""Usurper against usurper: attacks on lairs at the end of the week, and forces of two usurpers that meet in
the field (rules data ``lair_attacks`` and ``contact``, spec §1.3, §1.5, §4.1, §4.7, §4.16.2, §7.15, §8.8,
§9.9, §9.10).

An Attack or a Raid with no encounter named goes at a lair the attacker knows (``known.lairs``: grid ->
``{owner?, seen}``, written when scouts find a lair on the very grid they scout). It is fought at the end
of the week, against the units living in that lair that did not set out elsewhere this week, with the
lair's Fortifications and Murder Holes on their side. A beaten lair gives up half of what it stores; its
leaders at home are hurt and flee, or die with no other lair to flee to.

Before any other fight of the week, two usurpers' forces acting in the same grid meet; each one's standing
policy ``on_contact`` (fight, avoid, parley) decides what comes of it. The fights use ``fight.run`` and are
settled for each side with ``combat.settle``. In a sealed campaign nothing here is told to anyone but
the usurpers concerned, except a rumour, naming nobody and no place, that a lair was attacked somewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...core import standing
from ...core.dice import roll_label
from ...core.phases import State
from ...engine.plans import Reading, Reject
from . import combat, lairs, prisons
from . import fight as f
from . import model as m
from .acting import Context, Plan, told

Rules = Mapping[str, Any]
SPENT = "spent"  # plan.details key: the force spent its week on a meeting and does not carry out its order


# ------------------------------------------------------------------------------------- known lairs


def known_lairs(state: State, faction: str) -> dict[str, dict[str, Any]]:
    """The lairs a usurper has found: grid -> {owner (once known), seen (the turn)}."""
    return m.known(state, faction).setdefault("lairs", {})


def record_lair(state: State, faction: str, grid: str, turn: int, owner: str | None = None) -> None:
    """Note that ``faction`` knows a lair stands at ``grid`` (and whose, once it has fought there)."""
    entry = known_lairs(state, faction).setdefault(grid, {})
    entry["seen"] = int(turn)
    if owner:
        entry["owner"] = owner


def learn_lairs_from_sightings(ctx: Context, state: State) -> None:
    """The week's end step: a lair sensed on the very grid the scouts searched is a lair found, which may
    be attacked from next week on, whatever the scouts' Spy rank (a house rule of the scouting chapter)."""
    for faction in m.usurpers(state):
        for sighting in m.known(state, faction).get("sightings") or []:
            here = sighting.get("here") or sighting.get("direction") == "here"
            if here and int(sighting.get("turn", -1)) == ctx.turn:
                record_lair(state, faction, str(sighting["grid"]), ctx.turn)


def lair_standing_at(state: State, grid: str, besides: str) -> tuple[str, dict[str, Any]] | None:
    """Another usurper's lair at ``grid`` (the first by usurper and lair id), or None."""
    for owner, lair in m.all_lairs(state):
        if owner != besides and lair["grid"] == grid:
            return owner, lair
    return None


# ------------------------------------------------------------------------------------ requirements


def require_target(reading: Reading, plan: Plan) -> None:
    """Attack and Raid: on an encounter named in ``encounter`` (combat's requirement), else on a lair the
    usurper has found at the target grid."""
    if plan.order.get("encounter"):
        combat.require_encounter(reading, plan)
        return
    grid = plan.target
    if m.lair_at(reading.state, reading.faction, grid) is not None:
        raise Reject(
            "target", f"{grid} is your own lair", "name an encounter, or the grid of a lair you found"
        )
    found = known_lairs(reading.state, reading.faction)
    if grid not in found:
        listed = ", ".join(sorted(found)) or "none yet: a scout must find one on the grid it searches"
        raise Reject(
            "target",
            f"you know of no lair at {grid}",
            f"name an encounter: to fight one, or target a lair you found ({listed})",
            failure=f"you know of no lair at {grid}",
        )
    plan.details["lair"] = grid


# --------------------------------------------------------------------------------- who is at home


def away(ctx: Context, faction: str, grid: str) -> set[str]:
    """The usurper's leaders and units that set out this week for a grid other than ``grid``."""
    gone: set[str] = set()
    for plan in ctx.memory.plans.get(faction, []):
        if plan.target != grid:
            gone |= {str(record["id"]) for record in (*plan.units, *plan.leaders)}
    return gone


def at_home(ctx: Context, state: State, faction: str, lair: Mapping[str, Any]) -> tuple[list, list]:
    """(units, leaders) in the lair at the end of the week: those living there that did not go elsewhere,
    and any of the usurper's that came to act in it."""
    gone = away(ctx, faction, lair["grid"])
    came = {
        str(record["id"])
        for plan in ctx.memory.plans.get(faction, [])
        if plan.target == lair["grid"]
        for record in (*plan.units, *plan.leaders)
    }

    def here(record: Mapping[str, Any]) -> bool:
        home = m.home_lair(state, faction, record)
        lives_here = home is not None and home["id"] == lair["id"]
        return str(record["id"]) in came or (lives_here and str(record["id"]) not in gone)

    units = [u for u in m.units(state, faction).values() if here(u)]
    leaders = [lead for lead in m.leaders(state, faction).values() if here(lead)]
    return units, leaders


def defending_side(rules: Rules, state: State, owner: str, lair: Mapping[str, Any], units: list) -> f.Side:
    fighters = f.fighters_of(rules, units, {str(u["id"]): lair for u in units})  # the lair's rooms count
    renovations = combat.lair_renovations(lair)
    return f.Side(
        owner,
        fighters,
        attacking=False,
        factions=(owner,),
        leaders=[],  # leaders do not fight; their fate in a lost lair is their own rule (fate_of_leaders)
        in_own_lair=True,
        fortifications=combat.fortifications(rules, lair),
        murder_holes=lairs.lair_bonus(rules, lair, "ranged_rounds") > 0,
        renovations=renovations,
    )


# ------------------------------------------------------------------------------------------- the loot


def _order_key(entry: Any) -> tuple[str, str]:
    if isinstance(entry, Mapping):
        name = entry.get("item") or entry.get("type") or entry.get("id") or ""
        return str(name), str(entry.get("quality", ""))
    return str(entry), ""


def loot(rules: Rules, beaten: dict[str, Any], into: dict[str, Any] | None) -> dict[str, Any]:
    """Move the winner's share (``combat.rewards.lair_share`` per cent, rounded down) of a beaten lair's
    stored resources, spare gear and gems into the lair ``into``; return what was taken."""
    share = int(rules["combat"]["rewards"]["lair_share"])
    taken: dict[str, Any] = {"storage": {}, "items": [], "gems": []}
    held = m.storage(beaten)
    for resource in sorted(held):
        amount = int(held[resource]) * share // 100
        if amount > 0:
            held[resource] = int(held[resource]) - amount
            taken["storage"][resource] = amount
    for key in ("items", "gems"):
        pile = list(beaten.get(key) or [])
        count = len(pile) * share // 100
        chosen = sorted(range(len(pile)), key=lambda n: _order_key(pile[n]))[:count]
        taken[key] = [pile[n] for n in sorted(chosen)]
        beaten[key] = [entry for n, entry in enumerate(pile) if n not in chosen]
    if into is not None:
        for resource, amount in taken["storage"].items():
            m.store(into, resource, amount)
        for key in ("items", "gems"):
            into[key] = [*(into.get(key) or []), *taken[key]]
    return taken


def loot_words(rules: Rules, taken: Mapping[str, Any]) -> list[str]:
    """What was carried off, for a reader: '12 Lumber', '2 pieces of gear', '1 gem'."""
    names = {**(rules.get("resources") or {}), **(rules.get("items") or {})}
    words = []
    for resource, amount in taken.get("storage", {}).items():
        entry = names.get(resource)
        label = entry.get("name") if isinstance(entry, Mapping) else None
        words.append(f"{amount} {label or resource.replace('_', ' ').title()}")
    for key, one, many in (("items", "piece of gear", "pieces of gear"), ("gems", "gem", "gems")):
        count = len(taken.get(key) or [])
        if count:
            words.append(f"{count} {one if count == 1 else many}")
    return words


# ---------------------------------------------------------------------------------- after the fight


def fate_of_leaders(ctx: Context, state: State, owner: str, lair: Mapping[str, Any], leaders: list) -> dict:
    """Leaders at home in a lost lair: each is hurt, and flees to another of the usurper's lairs; with no
    other lair to go to, or no hit point left, the leader dies."""
    fates: dict[str, dict[str, Any]] = {}
    others = sorted(lid for lid in m.lairs(state, owner) if lid != lair["id"])
    for leader in leaders:
        name = str(leader["name"])
        if not others:
            leader["hp"] = 1  # the wound every beaten defender takes is then his last
        fate = combat.hurt_leader(ctx, state, owner, leader["id"])
        if fate == "hurt":
            leader["lair"] = others[0]
            refuge = m.lairs(state, owner)[others[0]]["grid"]
            fates[leader["id"]] = {"name": name, "fate": "fled", "to": refuge}
        else:
            fates[leader["id"]] = {"name": name, "fate": "killed"}
    return fates


def captured_units(fight: f.Fight, out: f.Outcome, winner: str | None) -> list[f.Fighter]:
    """The units a winner with a Prison may try to capture (spec §7.11, the spec's proposal): the losing
    side's units that fled or were wiped out in melee (:func:`take_prisoners` rolls for them)."""
    if winner is None:
        return []
    loser = next((side for side in fight.sides if side.key != winner), None)
    return [x for x in (loser.fighters if loser else []) if x.fled or x.destroyed]


def take_prisoners(
    ctx: Context, state: State, fight: f.Fight, out: f.Outcome, lair: str | None, place: str
) -> list[dict[str, Any]]:
    """After a fight between usurpers, the winner's Prison takes what it can of the loser's beaten units
    (``prisons.capture``, as after an encounter); a unit taken leaves its usurper. ``lair`` is the
    winner's lair the cells are looked for first."""
    winner = out.winner
    if winner is None or winner not in state["factions"]:
        return []
    loser = next(side.key for side in fight.sides if side.key != winner)
    beaten = prisons.captives(ctx.rules, captured_units(fight, out, winner))
    units = m.units(state, loser) if loser in state["factions"] else {}
    captives = []
    for captive in beaten:
        home = m.home_lair(state, loser, units.get(captive.key) or captive.record)
        captives.append(replace(captive, owner=loser, home=home["grid"] if home else None))
    taken = prisons.capture(ctx, state, winner, captives, lair=lair, place=place)
    for prisoner in taken:
        units.pop(str(prisoner["record"].get("id")), None)
    return taken


def _swapped(fight: f.Fight) -> f.Fight:
    """The same fight seen from its second side, which ``combat.settle`` settles as its first."""
    return f.Fight(fight.label, (fight.sides[1], fight.sides[0]), kind=fight.kind)


def _losses(side: f.Side) -> dict[str, int]:
    return {
        "lost": sum(x.lost for x in side.fighters if not x.single),
        "fled": sum(1 for x in side.fighters if x.fled),
        "destroyed": sum(1 for x in side.fighters if x.destroyed),
    }


# ------------------------------------------------------------------------------------ lair attacks


def fight_in_field(ctx: Context, state: State, plan: Plan) -> None:
    """The field-combat entry of Attack and Raid: only those on an encounter are fought there."""
    if "encounter" in plan.details:
        combat.fight_encounter(ctx, state, plan)


def attack_lair(ctx: Context, state: State, plan: Plan) -> None:
    """The lair-attack entry of Attack and Raid (end of the week): the attackers against the lair's
    defenders at home; the loot, Obscurity, leaders, and what each side and the public hear."""
    if "lair" not in plan.details:
        return
    attacker, grid = plan.faction, str(plan.details["lair"])
    spec = ctx.rules["lair_attacks"]
    found = lair_standing_at(state, grid, attacker)
    if found is None or not plan.units:
        ctx.order_failed(attacker, plan.order, f"your force finds no lair at {grid}")
        return
    owner, lair = found
    units, leaders = at_home(ctx, state, owner, lair)
    label = roll_label("lair", attacker, plan.action, grid)
    own = combat.usurper_side(ctx.rules, state, attacker, plan)
    fight = f.Fight(label, (own, defending_side(ctx.rules, state, owner, lair, units)), kind=plan.action)
    # With nobody home the attackers walk in.
    out = f.run(ctx.rules, ctx, fight) if units else f.Outcome(winner=attacker, melee_rounds=0)
    beaten_off = out.winner != attacker
    pulled_out = out.withdrew == attacker
    took = out.winner == attacker and not pulled_out
    news: dict[str, Any] = {"xp": {}}
    held: dict[str, Any] = {"xp": {}}
    if units:
        news = combat.settle(ctx, state, attacker, plan, fight, out, label, purse=False)
        defended = replace(plan, faction=owner, action="defend", units=units, leaders=[], lair=lair)
        defended.details = {}
        held = combat.settle(ctx, state, owner, defended, _swapped(fight), out, label, purse=False,
                             obscurity=0)  # fmt: skip
    elif plan.lair is not None:  # no fight, so no experience; the attack is noticed all the same
        change = int(ctx.rules["combat"]["obscurity"]["attack"])
        plan.lair["obscurity"]["current"] = int(plan.lair["obscurity"]["current"]) + change
    if units:
        take_prisoners(ctx, state, fight, out, plan.lair["id"] if took and plan.lair else lair["id"], grid)
    obscurity = int(spec["obscurity"]["attacked"]) + (int(spec["obscurity"]["beaten"]) if took else 0)
    lair["obscurity"]["current"] = int(lair["obscurity"]["current"]) + obscurity
    taken = loot(ctx.rules, lair, plan.lair) if took else {"storage": {}, "items": [], "gems": []}
    fates = fate_of_leaders(ctx, state, owner, lair, leaders) if took else {}
    record_lair(state, attacker, grid, ctx.turn, owner)
    mine, theirs = _losses(fight.sides[0]), _losses(fight.sides[1])
    carried = loot_words(ctx.rules, taken)
    common = {"action": plan.action, "undefended": not units, "won": took, "withdrew": pulled_out,
              "melee_rounds": out.melee_rounds, "carried": carried}  # fmt: skip
    ctx.emit("lair_attack", actors=[attacker], visible_to=told(ctx, attacker), place=grid, rolls=out.decisive,
             defender=owner, lost=mine["lost"], killed=theirs["lost"], defenders=len(units),
             leaders_fell=sum(1 for x in fates.values() if x["fate"] == "killed"), gold=0, xp=news["xp"],
             **common)  # fmt: skip
    learns = str(spec["defender_learns_attacker"])
    named = learns == "always" or (learns == "beaten_off" and beaten_off and not pulled_out)
    shown = out.decisive if named else []  # the rolls' labels name the attacker
    ctx.emit("lair_defence", actors=[owner], visible_to=told(ctx, owner), place=grid, rolls=shown,
             attacker=attacker if named else None, lost=theirs["lost"], killed=mine["lost"],
             leaders=list(fates.values()), obscurity=obscurity, xp=held["xp"], **common)  # fmt: skip
    if spec["public_rumour"]:
        ctx.emit("lair_battle_rumour")


# ------------------------------------------------------------------------------ meetings in the field


def stance(rules: Rules, state: State, faction: str) -> str:
    """The usurper's standing answer to meeting another usurper's force: fight, avoid or parley."""
    policies = standing.stored(state, faction).get("policies") or {}
    return str(policies.get("on_contact") or rules["policies"]["on_contact"])


def forces(state: State, plans: Mapping[str, list[Plan]]) -> dict[str, dict[str, list[Plan]]]:
    """grid -> faction -> the plans with units acting there this week, outside the usurper's own lairs."""
    out: dict[str, dict[str, list[Plan]]] = {}
    for faction in sorted(plans):
        for plan in plans[faction]:
            if not plan.units or plan.details.get(SPENT) or m.lair_at(state, faction, plan.target):
                continue
            out.setdefault(plan.target, {}).setdefault(faction, []).append(plan)
    return out


def meet_in_field(ctx: Context, state: State) -> None:
    """Every pair of usurpers whose forces act in the same grid this week meets, grid by grid and pair by
    pair in id order; a force that fought or turned back takes part in no other meeting."""
    for grid, present in sorted(forces(state, ctx.memory.plans).items()):
        done: set[str] = set()
        factions = sorted(present)
        for n, first in enumerate(factions):
            for second in factions[n + 1 :]:
                if first in done or second in done:
                    continue
                done |= meet(ctx, state, grid, (first, present[first]), (second, present[second]))


def _force(plans: list[Plan]) -> Plan:
    """A usurper's plans in one grid as one force: the first plan with every unit and leader of them all."""
    units = [u for plan in plans for u in plan.units]
    leaders = [lead for plan in plans for lead in plan.leaders]
    return replace(plans[0], units=units, leaders=leaders)


def meet(
    ctx: Context, state: State, grid: str, first: tuple[str, list[Plan]], second: tuple[str, list[Plan]]
) -> set[str]:
    """One meeting: what the two stances come to (``contact.outcomes``); returns the usurpers whose week
    it took."""
    (a, plans_a), (b, plans_b) = first, second
    stances = {a: stance(ctx.rules, state, a), b: stance(ctx.rules, state, b)}
    outcome = str(ctx.rules["contact"]["outcomes"]["-".join(sorted(stances.values()))])
    data: dict[str, Any] = {"stances": stances, "outcome": outcome, "fought": False, "turned_back": None}
    rolls: list[Any] = []
    spent: set[str] = set()
    if outcome == "turn_back":
        spent = {x for x in (a, b) if stances[x] == "avoid"}
        data["turned_back"] = sorted(spent)[0]
    elif outcome in ("both_attack", "attack"):
        spent = {a, b}
        fought, rolls = field_fight(ctx, state, grid, (a, plans_a), (b, plans_b), stances, outcome)
        data.update(fought)
    for faction, plans in ((a, plans_a), (b, plans_b)):
        if faction in spent:
            for plan in plans:
                plan.details[SPENT] = outcome
    ctx.emit("usurpers_meet", actors=[a, b], visible_to=told(ctx, a, b), place=grid, rolls=rolls, **data)
    return spent


def field_fight(
    ctx: Context,
    state: State,
    grid: str,
    first: tuple[str, list[Plan]],
    second: tuple[str, list[Plan]],
    stances: Mapping[str, str],
    outcome: str,
) -> tuple[dict[str, Any], list[Any]]:
    """Two usurpers' forces fight in the field: both attack when both chose to fight (the seed), else the
    one that chose to fight attacks the other. Rolls are labelled by both usurpers and the grid."""
    (a, plans_a), (b, plans_b) = first, second
    if outcome == "attack" and stances[b] == "fight":  # the one that attacks is the fight's first side
        (a, plans_a), (b, plans_b) = (b, plans_b), (a, plans_a)
    both = outcome == "both_attack"
    label = roll_label("contact", *sorted((a, b)), grid)
    force_a, force_b = _force(plans_a), _force(plans_b)
    sides = (
        combat.usurper_side(ctx.rules, state, a, force_a),
        combat.usurper_side(ctx.rules, state, b, force_b, attacking=both),
    )
    fight = f.Fight(label, sides, kind="attack")
    out = f.run(ctx.rules, ctx, fight)
    losses = {a: _losses(sides[0]), b: _losses(sides[1])}
    told_a = combat.settle(ctx, state, a, force_a, fight, out, label, purse=False)
    told_b = combat.settle(ctx, state, b, force_b, _swapped(fight), out, label, purse=False,
                           obscurity=None if both else 0)  # fmt: skip
    won_by = force_a if out.winner == a else force_b
    take_prisoners(ctx, state, fight, out, won_by.lair["id"] if won_by.lair else None, grid)
    news = {
        "fought": True,
        "attacker": a,
        "winner": out.winner,
        "melee_rounds": out.melee_rounds,
        "losses": losses,
        "leaders_hurt": len(told_a["leaders"]) + len(told_b["leaders"]),
    }
    return news, list(out.decisive)
