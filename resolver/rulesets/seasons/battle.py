"""Battles, automated from the seed's melee procedure (house rules in rules.yaml ``battle``).

Each round every engaged unit rolls attacking dice (REP/2 rounded up, with the modifiers of
``battle.attack``) and defending dice (REP/2 rounded down, with ``battle.defence``); both are read as
successes by the ``melee`` check. A unit's attacking successes beyond its opponent's defending
successes are hits on the opponent. Units pair strongest against strongest; the larger side's spare
units go round the pair they back: the first two strike its flanks, the third its rear, any more add
outnumbering dice. A unit routs when its hits reach its REP (one more inside its CinC's zone of
command). A side that has lost the share of its units its standing instructions name tests the
seed's WR Retreat and leaves the field, whatever the row. After ``battle.rounds`` rounds, or once a
side has no unit standing or has left, the side with more units standing wins (a side that left loses).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.checks import Check, CheckResult, Modifier, Opposed, Row, opposed
from ...core.dice import Roll, roll_label
from ...core.rulesdoc import words
from . import model as m
from .commanders import attribute_modifiers

Rules = Mapping[str, Any]


@dataclass
class Side:
    owner: str
    units: list[dict[str, Any]]  # every unit brought to the battle, in the army's order
    attacking: bool  # the active side: the aggressor, or the defender that ambushed it
    cinc: str | None = None
    in_fort: bool = False  # the holder of a province with a fort fights from its walls
    holds_ground: bool = False  # it holds the province fought over (higher elevation; no crossing)
    disorganised: bool = False  # ambushed: its units are caught out of order in the first round
    army: str = ""  # the army's id, for the labels of its rolls
    war_rating: int = 1  # its CinC's WR: the dice of its retreat test
    cinc_attributes: tuple[str, ...] = ()
    cinc_tests: Mapping[str, str] = field(default_factory=dict)  # his attributes' tests: passed or failed
    cinc_situation: frozenset[str] = frozenset()  # what holds for him before the battle (greedy_sulk)
    retreat_at: int = 0  # tests to retreat once this percentage of its units is lost; 0: never
    zone: int = 1  # how many of its leading units stand in the CinC's zone of command
    ambushing: bool = False  # its units strike a flank in the first round
    defence_benefits: bool = True  # False when both armies attack (the movement test's tie)
    # allied armies fighting on this side (allies.py): each one's CinC leads his own unit, and the
    # units of his zone of command stand in it; the side's own CinC leads units[0] as before
    allied_cinc_units: frozenset[str] = frozenset()
    allied_zone_units: frozenset[str] = frozenset()

    def standing(self) -> list[dict[str, Any]]:
        return [unit for unit in self.units if not unit.get("routed")]

    def leads(self, unit: Mapping[str, Any]) -> bool:
        """Whether a CinC fights in this unit: the side's own, or an allied army's."""
        own = bool(self.cinc and self.units and unit is self.units[0])
        return own or unit["id"] in self.allied_cinc_units

    def in_zone(self, index: int, unit: Mapping[str, Any]) -> bool:
        """Whether the unit at ``index`` of the side stands in a CinC's zone of command."""
        return index < self.zone or unit["id"] in self.allied_zone_units


@dataclass
class Outcome:
    winner: str | None  # None: a draw
    rounds: int
    rolls: list[Roll] = field(default_factory=list)
    hits: dict[str, int] = field(default_factory=dict)  # unit id -> hits taken
    retreat: CheckResult | None = None  # the retreat test of the side that left the field
    retreated: str | None = None  # the owner of that side


def attack_modifiers(
    rules: Rules,
    unit: Mapping[str, Any],
    enemy: Mapping[str, Any],
    side: Side,
    *,
    extra: int,
    season: str,
    terrain: str,
    first_round: bool = False,
) -> list[Modifier]:
    spec = rules["battle"]
    table, mods = spec["attack"], []
    skills = m.skills(rules, unit)
    if side.attacking:
        mods.append(Modifier("active", table["active"]))
    if m.mounted(rules, unit) and not m.mounted(rules, enemy):
        mods.append(Modifier("mounted_vs_foot", table["mounted_vs_foot"]))
    if "spear" in skills and m.mounted(rules, enemy):
        mods.append(Modifier("spear_vs_mounted", table["spear_vs_mounted"]))
    if side.leads(unit):
        mods.append(Modifier("cinc", table["cinc"]))
    mods += skill_modifiers(rules, skills, "attack", first_round=first_round)
    if not side.holds_ground and terrain in spec.get("crossing", []):  # the invader wades in
        mods.append(Modifier("crossing", table["crossing"]))
    if season == "Winter" and not {"winter", "terrain_desert"} & set(skills):  # the seed gives both
        mods.append(Modifier("winter", table["winter"]))
    if terrain in ("jungle", "swamp") and f"terrain_{terrain}" not in skills:
        mods.append(Modifier(terrain, table[terrain]))
    surprise = 1 if first_round and side.ambushing and "armored" not in skills else 0
    return mods + surrounding(rules, extra + surprise)


def skill_modifiers(rules: Rules, skills: list[str], roll: str, *, first_round: bool) -> list[Modifier]:
    """The dice a unit's own skills give one of its melee rolls (``roll``: attack or defence): each skill
    listed under ``battle.skills`` adds the modifier of its name, those of ``battle.first_round`` only
    in a battle's first round."""
    spec = rules["battle"]
    table, first_only = spec[roll], set(spec.get("first_round", []))
    return [
        Modifier(skill, int(table[skill]))
        for skill in spec["skills"][roll]
        if skill in skills and (first_round or skill not in first_only)
    ]


def situation(
    side: Side, other: Side, unit: Mapping[str, Any], enemy: Mapping[str, Any], round_: int
) -> set[str]:
    """What holds for one of a side's units in a round, as its CinC's attribute effects name it
    (rules.yaml ``attribute_effects``: attacking or defending, first_round, cinc_unit, half_lost,
    not_facing_cinc) and what held for him before the battle (greedy_sulk)."""
    holding = {"attacking" if side.attacking else "defending", *side.cinc_situation}
    if round_ == 1:
        holding.add("first_round")
    if side.cinc and side.units and unit is side.units[0]:
        holding.add("cinc_unit")
    if not (other.cinc and other.units and enemy is other.units[0]):
        holding.add("not_facing_cinc")
    if 2 * (len(side.units) - len(side.standing())) >= len(side.units):
        holding.add("half_lost")
    return holding


def cinc_modifiers(rules: Rules, side: Side, check_id: str, holding: set[str]) -> list[Modifier]:
    """The dice a side's CinC's attributes add to or take from one of its melee rolls."""
    return attribute_modifiers(
        rules, side.cinc_attributes, check_id, situation=holding, tests=side.cinc_tests
    )


def surrounding(rules: Rules, behind: int) -> list[Modifier]:
    """The dice of the units behind a pair (house rule, from the seed's outnumbering): the first
    ``battle.flanks_max`` strike a flank each, the next one the rear, each further one adds an
    outnumbering die, at most ``battle.outnumber_max``. An ambusher's surprise counts as one more."""
    spec, table = rules["battle"], rules["battle"]["attack"]
    flanks = min(behind, int(spec["flanks_max"]))
    mods = [Modifier("flank", int(table["flank"]))] * flanks
    if behind > flanks:
        mods.append(Modifier("rear", int(table["rear"])))
    beyond = behind - flanks - 1
    if beyond > 0:
        mods.append(Modifier("outnumbering", min(beyond, int(spec["outnumber_max"]))))
    return mods


def defence_modifiers(
    rules: Rules,
    unit: Mapping[str, Any],
    side: Side,
    *,
    terrain: str,
    first_round: bool = False,
) -> list[Modifier]:
    """Defending dice; a side without defensive benefits (both armies attacking) keeps only what its
    units' own skills and armour give and take. A unit has one defensive position: behind a fort's walls,
    or else dug in if Defensive."""
    spec = rules["battle"]
    table, mods = spec["defence"], []
    skills = m.skills(rules, unit)
    benefits = side.defence_benefits
    if not side.attacking and benefits:
        mods.append(Modifier("not_active", table["not_active"]))
    if terrain == "wood" and benefits:
        mods.append(Modifier("wood", table["wood"]))
    if side.holds_ground and benefits and terrain in spec.get("high_ground", []):
        mods.append(Modifier("higher_elevation", table["higher_elevation"]))
    mods += [
        mod
        for mod in skill_modifiers(rules, skills, "defence", first_round=first_round)
        if benefits or mod.value < 0
    ]
    armour = f"armour_{rules['units'][unit['code']].get('armour', '')}"
    if armour in table:
        mods.append(Modifier(armour, int(table[armour])))
    if side.in_fort and benefits:
        mods.append(Modifier("fort", table["fort"]))
    elif "defensive" in skills and not side.attacking and benefits:  # the skill: it digs in to defend
        mods.append(Modifier("defensive_position", table["defensive_position"]))
    if side.disorganised and first_round:
        mods.append(Modifier("disorganised", table["disorganised"]))
    return mods


def exchange(attacking_successes: int, defending_successes: int) -> int:
    """Hits from one unit's attack on another: the attacking successes its defence did not stop."""
    return max(0, attacking_successes - defending_successes)


def _pairs(rules: Rules, first: Side, second: Side) -> list[tuple[dict, dict, int, int]]:
    """(unit of first, unit of second, first's spare units behind it, second's): strongest against
    strongest, the spares of the larger side dealt out from the strongest pair down."""
    ours = sorted(first.standing(), key=lambda u: (-m.fighting_rep(rules, u), u["id"]))
    theirs = sorted(second.standing(), key=lambda u: (-m.fighting_rep(rules, u), u["id"]))
    engaged = min(len(ours), len(theirs))
    spare_ours, spare_theirs = len(ours) - engaged, len(theirs) - engaged
    pairs = []
    for index in range(engaged):
        back_ours = spare_ours // engaged + (1 if index < spare_ours % engaged else 0)
        back_theirs = spare_theirs // engaged + (1 if index < spare_theirs % engaged else 0)
        pairs.append((ours[index], theirs[index], back_ours, back_theirs))
    return pairs


def modifier_name(rules: Rules, source: str) -> str:
    """A melee modifier as the dice ledger names it for readers: ``battle.modifier_names``, or a
    CinC's attribute in words ("Attack expert")."""
    return str(rules["battle"].get("modifier_names", {}).get(source) or words(source))


def _dice(ctx: Any, melee: Check, label: Any, base: int, mods: list[Modifier], owners: list[str]) -> Any:
    """The seed's melee modifiers add or take away dice, not successes: the pool is the base plus them,
    and the ledger is written into the roll's reading, each modifier by its readable name."""
    ledger = ", ".join(
        f"{modifier_name(ctx.rules, mod.source)} {'+' if mod.value > 0 else '−'}{abs(mod.value)}"
        for mod in mods
        if mod.value
    )
    return melee.roll(
        ctx,
        label,
        count=max(0, base + sum(mod.value for mod in mods)),
        factions=owners,
        decided=f"{base} {'die' if base == 1 else 'dice'}" + (f" and {ledger}" if ledger else ""),
    )


def fight(ctx: Any, province: str, terrain: str, first: Side, second: Side) -> Outcome:
    """Fight to the end of the last round or of one side; hits stay on the units, routs are marked."""
    rules, season = ctx.rules, ctx.date.season
    melee = Check.from_rules(rules, "melee")
    outcome = Outcome(winner=None, rounds=0)
    for number in range(1, int(rules["battle"]["rounds"]) + 1):
        if not first.standing() or not second.standing():
            break
        outcome.rounds = number
        for ours, theirs, back_ours, back_theirs in _pairs(rules, first, second):
            for unit, enemy, side, other, back in (
                (ours, theirs, first, second, back_ours),
                (theirs, ours, second, first, back_theirs),
            ):
                attack = _dice(
                    ctx,
                    melee,
                    roll_label("battle", province, unit["id"], f"r{number}", "attack"),
                    math.ceil(m.fighting_rep(rules, unit) / 2),
                    attack_modifiers(
                        rules,
                        unit,
                        enemy,
                        side,
                        extra=back,
                        season=season,
                        terrain=terrain,
                        first_round=number == 1,
                    )
                    + cinc_modifiers(
                        rules, side, "melee_attack", situation(side, other, unit, enemy, number)
                    ),
                    [side.owner, other.owner],
                )
                defence = _dice(
                    ctx,
                    melee,
                    roll_label("battle", province, enemy["id"], f"r{number}", "defence"),
                    m.fighting_rep(rules, enemy) // 2,
                    defence_modifiers(rules, enemy, other, terrain=terrain, first_round=number == 1)
                    + cinc_modifiers(
                        rules, other, "melee_defence", situation(other, side, enemy, unit, number)
                    ),
                    [side.owner, other.owner],
                )
                outcome.rolls += [attack.roll, defence.roll]
                hits = exchange(attack.total, defence.total)
                enemy["hits"] = int(enemy.get("hits", 0)) + hits
                outcome.hits[enemy["id"]] = int(enemy["hits"])
        for side in (first, second):
            for index, unit in enumerate(side.units):
                if not unit.get("routed") and unit["hits"] >= rout_at(rules, unit, side.in_zone(index, unit)):
                    unit["routed"] = True
        leaving = _leaves(ctx, province, (second, first), outcome)
        if leaving is not None:
            outcome.winner = (second if leaving is first else first).owner
            return outcome
    left_first, left_second = len(first.standing()), len(second.standing())
    if left_first != left_second:
        outcome.winner = first.owner if left_first > left_second else second.owner
    return outcome


def rout_at(rules: Rules, unit: Mapping[str, Any], in_zone: bool) -> int:
    """The hits that rout a unit: its REP; inside its CinC's zone of command, the seed's +1 to morale
    tests lets it stand one more (house rule)."""
    return m.fighting_rep(rules, unit) + (int(rules["battle"]["zone_of_command"]["morale"]) if in_zone else 0)


def _leaves(ctx: Any, province: str, sides: tuple[Side, Side], outcome: Outcome) -> Side | None:
    """The first side (the defender tests first) whose losses reached its threshold tests to retreat;
    every row of the table takes it off the field, so one side tests at most once."""
    for side in sides:
        lost = len(side.units) - len(side.standing())
        if side.retreat_at and side.standing() and lost * 100 >= len(side.units) * side.retreat_at:
            outcome.retreat = retreat_test(ctx, province, side)
            outcome.retreated = side.owner
            outcome.rolls.append(outcome.retreat.roll)
            return side
    return None


def retreat_test(ctx: Any, province: str, side: Side) -> CheckResult:
    """The seed's WR Retreat: the CinC's WR in dice; each Offensive unit the army brought takes a
    success, each Defensive one adds one; his CinC's attributes add theirs (Temerity −1, Coward +1)."""
    rules = ctx.rules
    check = Check.from_rules(rules, "retreat")
    mods = []
    for unit in side.units:
        skills = m.skills(rules, unit)
        mods += [check.modifier("offensive_unit")] if "offensive" in skills else []
        mods += [check.modifier("defensive_unit")] if "defensive" in skills else []
    mods += attribute_modifiers(rules, side.cinc_attributes, check.id)
    return check.roll(
        ctx,
        roll_label("retreat", province, side.army or side.owner),
        count=side.war_rating,
        modifiers=mods,
        factions=[side.owner],
    )


def zone_units(rules: Rules, zone: int) -> int:
    """How many units of an army, laid out from its CinC's unit, stand in his zone of command: his own
    and one more for every ``battle.zone_of_command.frontage`` of the zone (house rule)."""
    return 1 + zone // int(rules["battle"]["zone_of_command"]["frontage"])


def _traits(state: m.State, army: Mapping[str, Any]) -> list[str]:
    return m.attributes(m.commander(state, army))


def _contest(
    ctx: Any,
    state: m.State,
    check: Check,
    label: Any,
    entries: list[tuple[Mapping[str, Any], list[Modifier]]],
) -> Opposed:
    """Two armies roll a WR test against each other, each its CinC's WR in dice under the label plus
    its army's id; the caller reads the check's table on the difference of successes."""
    pools = [
        (str(army["id"]), check.pool(m.war_rating(m.commander(state, army)), mods)) for army, mods in entries
    ]
    owners = [str(army["owner"]) for army, _ in entries]
    return opposed(ctx, label, pools, factions=owners, decided=check.id)


def _read(check: Check, contest: Opposed, margin: int) -> Row:
    """The row the difference of successes reads, written into the first roll's reading."""
    row = check.row(margin)
    contest.first.check, contest.first.result = check.id, row.result
    contest.first.decided = f"{check.id}: {row.result.replace('_', ' ')}"
    return row


def ambushes(
    ctx: Any, state: m.State, province: str, army: Mapping[str, Any], defending: Mapping[str, Any]
) -> bool:
    """The defender's ambush test (after the attacker and defender are known): both armies roll their
    CinC's WR; the defender adds a success for Guerilla units and for an Ambush CinC, one more if the
    attacker's CinC is Never ready, one less if he is Ever ready, and ambushes when its successes beat
    the attacker's. Armored units cannot ambush: an army of nothing else does not try (and in battle
    its Armored units get no surprise die)."""
    rules = ctx.rules
    armored_out = bool(rules["ambush"]["armored_cannot"])
    hiding = [u for u in defending["units"] if not (armored_out and "armored" in m.skills(rules, u))]
    if not hiding:
        return False
    check = Check.from_rules(rules, "ambush")
    mods = [check.modifier("guerilla")] if any("guerilla" in m.skills(rules, u) for u in hiding) else []
    mods += attribute_modifiers(rules, _traits(state, defending), check.id)
    mods += attribute_modifiers(rules, _traits(state, army), check.id, opponent=True)
    contest = _contest(ctx, state, check, roll_label("ambush", province), [(defending, mods), (army, [])])
    row = _read(check, contest, contest.margin)
    ctx.emit(
        "ambush",
        actors=[defending["owner"], army["owner"]],
        place=province,
        rolls=[contest.first, contest.second],
        result=row.result,
    )
    return row.result == "ambush"


def movement_tests(ctx: Any, state: m.State, invasions: list[dict[str, Any]]) -> None:
    """Two armies marching on each other's starting province take the movement test: each rolls its
    CinC's WR (War Movement Advocate +1; an army all Fast +1, one with a Slow unit −1, house rule) and
    the difference reads the table. With 1 or more the army ahead attacks and the other stays to defend
    (marked ``movement`` with the row); with none both attack, in one battle where the first army's
    target is fought over (marked ``meeting``: the other army)."""
    check = Check.from_rules(ctx.rules, "movement")
    for index, first in enumerate(invasions):
        second = next(
            (
                other
                for other in invasions[index + 1 :]
                if other["province"] == first["from"]
                and other["from"] == first["province"]
                and not other.get("stays")
            ),
            None,
        )
        if second is None or first.get("stays"):
            continue
        armies = [state["armies"][first["army"]], state["armies"][second["army"]]]
        entries = [(army, _movement_modifiers(ctx.rules, check, state, army)) for army in armies]
        label = roll_label("movement", first["from"], first["province"])
        contest = _contest(ctx, state, check, label, entries)
        row = _read(check, contest, abs(contest.margin))
        ahead, behind = (first, second) if contest.margin >= 0 else (second, first)
        if row.result == "both_attack":
            first["meeting"], second["stays"] = second["army"], True
        else:
            ahead["movement"], behind["stays"] = row.result, True
        ctx.emit(
            "movement_test",
            actors=[first["attacker"], second["attacker"]],
            place=first["province"],
            rolls=[contest.first, contest.second],
            result=row.result,
            attacker=None if row.result == "both_attack" else ahead["attacker"],
        )
    invasions[:] = [invasion for invasion in invasions if not invasion.get("stays")]


def _movement_modifiers(
    rules: Rules, check: Check, state: m.State, army: Mapping[str, Any]
) -> list[Modifier]:
    mods = attribute_modifiers(rules, _traits(state, army), check.id)
    skills = [m.skills(rules, unit) for unit in army["units"]]
    if skills and all("fast" in unit_skills for unit_skills in skills):
        mods.append(check.modifier("fast"))
    if any("slow" in unit_skills for unit_skills in skills):
        mods.append(check.modifier("slow"))
    return mods
