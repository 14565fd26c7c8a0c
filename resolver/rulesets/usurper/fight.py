"""One fight of usurper, from the forces to the winner (rules data ``combat``, spec chapter 8).

Two sides of fighters: a player's units (the records of the state contract) or an encounter's, and
monsters, which fight as one creature with hit points. The fight runs Determine Forces (the pools
below), Strategy (Tactics and Outmaneuver, when either side has the skill), the ranged rounds and the
melee rounds, each phase fastest speed first, the fighters of one speed striking at the same moment so
that what they do to each other lands only when their step ends. Every die is rolled through the turn
context under the fight's own label, the phase, the round and the fighter's id, so no roll depends on
anything outside the fight. Nothing here changes the state: ``combat.py`` applies the outcome.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.checks import Check, Modifier, Roller
from ...core.dice import Roll, RollLabel, roll_label
from . import rolls
from .entities import name_in_rules

Rules = Mapping[str, Any]
POOLS = ("attack", "defense", "damage", "armor")


@dataclass
class Fighter:
    """A unit or a monster in the fight, and what the fight has done to it so far."""

    id: str
    name: str
    race: str
    level: int
    pax: int  # men standing; a monster's hit points
    off: int
    defense: int
    strength: int
    speed: str  # a speed id of combat.speed_order
    record: Mapping[str, Any]  # the contract record: weapons, armor, mount, tools, skills
    single: bool = False  # a monster: hit points, the single-entity table, never weakened by its wounds
    lair: Mapping[str, Any] | None = None  # the lair it set out from (or defends): its rooms count
    lost: int = 0  # men (or hit points) lost in this fight
    wear: int = 0  # the −1s to Defense and Armor taken
    morale_penalty: int = 0  # Shaken, Battered and blows that did not get through, before Bull-headed
    battered: int = 0  # dice taken off Attack, Defense and Damage
    fled: bool = False
    destroyed: bool = False
    demoralized: bool = False
    hit_in_ranged: bool = False

    @property
    def standing(self) -> bool:
        return not self.fled and not self.destroyed

    def item_ids(self) -> list[str]:
        gear = [w.get("item") for w in self.record.get("weapons") or []]
        gear += [t.get("item") for t in self.record.get("tools") or []]
        for slot in ("armor", "mount"):
            worn = self.record.get(slot)
            if isinstance(worn, Mapping):
                gear.append(worn.get("item"))
            elif worn:
                gear.append(worn)
        return [str(item) for item in gear if item]

    def has(self, item: str) -> bool:
        return item in self.item_ids()

    def armored(self) -> bool:
        return bool(self.record.get("armor"))

    def rank(self, skill: str) -> int:
        held = (self.record.get("skills") or {}).get(skill) or {}
        return int(held.get("rank", 0)) if isinstance(held, Mapping) else int(held)


@dataclass
class Side:
    """One side: its fighters, whose they are, and what it brings besides its units."""

    key: str  # a faction id, or an encounter's id
    fighters: list[Fighter]
    attacking: bool
    factions: tuple[str, ...] = ()  # the factions whose orders key its rolls (none for an encounter)
    leaders: list[Mapping[str, Any]] = field(default_factory=list)  # leaders with the force (records)
    in_own_lair: bool = False  # it defends the lair it lives in
    fortifications: int = 0  # the Fortifications defence of that lair
    murder_holes: bool = False
    renovations: frozenset[str] = frozenset()  # tactics_defense, tactics_caltrops, advanced_inquiry

    def standing(self) -> list[Fighter]:
        return [f for f in self.fighters if f.standing]

    def leader_rank(self, skill: str) -> int:
        ranks = [int(((lead.get("skills") or {}).get(skill) or {}).get("rank", 0)) for lead in self.leaders]
        return max(ranks, default=0)


@dataclass
class Outcome:
    """What a fight did: the winner, each fighter's losses, who fled, and every roll made."""

    winner: str | None  # a side's key, or None for a draw
    melee_rounds: int
    rolls: list[Roll] = field(default_factory=list)
    decisive: list[Roll] = field(default_factory=list)  # the blows that killed and the morale checks
    lost: dict[str, int] = field(default_factory=dict)
    fled: list[str] = field(default_factory=list)
    demoralized: list[str] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)
    withdrew: str | None = None  # a raiding or harassing side that pulled out
    forced_to_flee: list[str] = field(default_factory=list)
    tactics: str | None = None  # the side that won Tactics
    outmaneuver: str | None = None


@dataclass
class Fight:
    """A fight to run: its label (stable ids only), the two sides (the one that attacks first), its kind."""

    label: RollLabel
    sides: tuple[Side, Side]
    kind: str = "attack"  # attack | raid | harass | ambush | lair
    tactics: str | None = None
    outmaneuver: str | None = None
    first_month: bool = False  # the game's first month: no morale check explodes (rolls.d100_check)

    def enemy(self, side: Side) -> Side:
        return self.sides[1] if side is self.sides[0] else self.sides[0]

    def side_of(self, fighter: Fighter) -> Side:
        return self.sides[0] if any(f is fighter for f in self.sides[0].fighters) else self.sides[1]

    @property
    def factions(self) -> tuple[str, ...]:
        return tuple(sorted({*self.sides[0].factions, *self.sides[1].factions}))


# ----------------------------------------------------------------------------------------- the tables


def speed_id(rules: Rules, letter_or_id: str) -> str:
    """'M' or 'medium' -> 'medium'."""
    combat = rules["combat"]
    return str(combat["speed_letters"].get(letter_or_id, letter_or_id))


def damage_row(rules: Rules, table: str, damage: int, armor: int) -> dict[str, Any]:
    """The row of a Damage-vs-Armor table a blow reads: the highest whose margin the damage beats."""
    chosen: dict[str, Any] = {}
    for row in rules["combat"]["damage_tables"][table]:
        beyond = row.get("beyond")
        if beyond is None or damage > armor + int(beyond):
            chosen = dict(row)
    return chosen


def margin_damage(rules: Rules, attack: int, defense: int) -> int:
    """The Damage a hit gains for beating the Defense by so much (+1 per full 10)."""
    return max(0, attack - defense) // int(rules["combat"]["damage_per_margin"])


# ------------------------------------------------------------------------------------------ the pools


def pool(
    rules: Rules,
    fight: Fight,
    fighter: Fighter,
    kind: str,
    phase: str,
    melee_round: int = 0,
    against: Fighter | None = None,
    margin: int = 0,
) -> tuple[int, list[Modifier]]:
    """The dice and flat modifiers of one of the four pools (``kind``) of a fighter in a phase."""
    combat = rules["combat"]
    side = fight.side_of(fighter)
    base = {"attack": fighter.off, "defense": fighter.defense, "damage": fighter.strength, "armor": 0}[kind]
    dice = base
    flat: list[Modifier] = []
    for item in fighter.item_ids():
        effect = (combat["gear"].get(item) or {}).get(kind)
        if not effect or (effect.get("phase") and effect["phase"] != phase):
            continue
        if effect.get("attacking") and not side.attacking:
            continue
        dice += int(effect.get("dice", 0))
        named = name_in_rules(rules, "items", item)
        if effect.get("flat"):
            flat.append(Modifier(named, int(effect["flat"])))
        bonus = rolls.quality_bonus(rules, _quality(fighter, item), "bonus")  # the items chapter's ladder
        if bonus:
            flat.append(Modifier(f"{named} quality", bonus))
    racial = combat["racial"].get(fighter.race) or {}
    if not racial.get("needs") or _meets(fighter, str(racial["needs"])):
        if phase == "ranged" and kind == "attack":
            dice += int(racial.get("ranged_attack_dice", 0))
        if phase == "ranged" and kind == "damage":
            dice += int(racial.get("ranged_damage_dice", 0))
        if kind == "armor":
            dice += int(racial.get("armor_dice", 0))
    monster = (combat["single_entities"].get(fighter.race) or {}) if fighter.single else {}
    if kind == "armor":
        dice += int(monster.get("armor_dice", 0))
    if kind in ("attack", "damage") and phase == "melee" and melee_round == 1:
        dice += int(monster.get("charge_dice", 0))
    early = phase == "ranged" or melee_round == 1
    if early and fight.tactics == side.key:
        strategy = combat["strategy"]
        if kind == "attack":
            dice += int(strategy["tactics_attack_dice"])
        if kind == "defense" and "tactics_defense" in side.renovations:
            dice += int(strategy["tactics_defense_dice"])
    if kind in ("attack", "damage", "defense"):
        dice -= fighter.battered
    flying = against is not None and _flies(rules, against)
    if flying and kind in ("attack", "damage") and not fighter.has("ranged_weapons"):
        dice += int(combat["flying_attack_dice" if kind == "attack" else "flying_damage_dice"])
    for skill, spec in (rules.get("skills") or {}).items():  # the entities chapter's combat skills
        if kind not in (spec.get("combat") or ()):
            continue
        rank = side.leader_rank(skill) if spec.get("force") else fighter.rank(skill)
        if rank:
            flat.append(Modifier(str(spec["name"]), int(spec["per_rank"]) * rank))
    if kind == "defense" and side.in_own_lair and side.fortifications:
        flat.append(Modifier("fortifications", side.fortifications))
    if kind in ("defense", "armor") and fighter.wear:
        flat.append(Modifier("blows taken", -fighter.wear))
    if kind == "damage" and margin:
        flat.append(Modifier("margin of the hit", margin))
    if fighter.lost and not fighter.single:
        flat.append(Modifier("men lost", int(combat["casualty_combat"]) * fighter.lost))
    return dice, flat


def _quality(fighter: Fighter, item: str) -> str:
    for worn in [*(fighter.record.get("weapons") or []), fighter.record.get("armor")]:
        if isinstance(worn, Mapping) and worn.get("item") == item:
            return str(worn.get("quality") or "standard")
    return "standard"


def _meets(fighter: Fighter, need: str) -> bool:
    return fighter.armored() if need == "armor" else fighter.has(need)


def _flies(rules: Rules, fighter: Fighter) -> bool:
    return fighter.single and bool((rules["combat"]["single_entities"].get(fighter.race) or {}).get("flying"))


def roll_pool(
    rules: Rules, roller: Roller, fight: Fight, label: RollLabel, dice: int, flat: list[Modifier], what: str
) -> Roll:
    check = Check.from_rules(rules, "combat_pool")
    result = check.roll(roller, label, modifiers=flat, count=dice, factions=fight.factions, decided=what)
    result.roll.decided = what
    return result.roll


# --------------------------------------------------------------------------------------------- morale


def morale_modifiers(rules: Rules, fight: Fight, fighter: Fighter) -> list[Modifier]:
    """Everything on a fighter's morale check: the dice chapter's Morale ledger (``rolls.morale_ledger``:
    level, the rooms of its lair, Courage, Guidon, the force's Drums, the spells of the leaders with it,
    the men lost in this fight, Bull-headed), so a reader sees the same names and numbers wherever Morale
    is rolled. What is the fight's own goes in beside it: the −10s of earlier Shaken or Battered results
    and the blows that did not get through."""
    side = fight.side_of(fighter)
    earlier = [Modifier(str(rules["combat"]["earlier_morale"]), -fighter.morale_penalty)]
    ledger = rolls.morale_ledger(
        rules,
        fighter.record,
        lair=fighter.lair,
        pax_lost=0 if fighter.single else fighter.lost,  # a monster loses hit points, not men
        drums=any(f.has("drums") and f.has("guidon") for f in side.fighters),
        leaders=side.leaders,
        modifiers=[m for m in earlier if m.value],
    )
    return [m for m in ledger if m.value]


def check_morale(
    rules: Rules, roller: Roller, fight: Fight, fighter: Fighter, when: str, out: Outcome
) -> None:
    """One morale check (checks.morale of the rolls chapter) and what its result does to the fighter."""
    check = rolls.d100_check(rules, "morale", month_one=fight.first_month)
    label = roll_label(fight.label, when, fighter.id, "morale")
    result = check.roll(
        roller, label, modifiers=morale_modifiers(rules, fight, fighter), factions=fight.factions,
        decided=f"{fighter.name}: morale",
    )  # fmt: skip
    out.rolls.append(result.roll)
    out.decisive.append(result.roll)
    effect = rules["combat"]["morale_results"].get(result.result) or {}
    fighter.morale_penalty -= int(effect.get("morale", 0))
    fighter.battered -= int(effect.get("dice", 0))
    if effect.get("flees"):
        fighter.fled = True
        fighter.demoralized = fighter.demoralized or bool(effect.get("demoralized"))


# ---------------------------------------------------------------------------------------------- blows


@dataclass
class Blows:
    """What one speed step did, held back until the step ends (fighters of a speed strike together)."""

    pax: dict[str, int] = field(default_factory=dict)
    hp: dict[str, int] = field(default_factory=dict)
    wear: dict[str, int] = field(default_factory=dict)
    morale: dict[str, int] = field(default_factory=dict)
    destroyed: set[str] = field(default_factory=set)
    hit: set[str] = field(default_factory=set)


def target_for(enemy: Side) -> Fighter | None:
    """The enemy struck: the lowest level, then the fewest men, then the first listed."""
    standing = enemy.standing()
    return min(standing, key=lambda f: (f.level, f.pax, enemy.fighters.index(f))) if standing else None


def strike(
    rules: Rules, roller: Roller, fight: Fight, fighter: Fighter, phase: str, tag: str, melee_round: int,
    blows: Blows, out: Outcome,
) -> None:  # fmt: skip
    """One attack of a fighter at its target: Attack against Defense, and on a hit Damage against Armor."""
    target = target_for(fight.enemy(fight.side_of(fighter)))
    if target is None:
        return
    base = roll_label(fight.label, tag, fighter.id)
    dice, flat = pool(rules, fight, fighter, "attack", phase, melee_round, against=target)
    attack = roll_pool(
        rules, roller, fight, roll_label(base, "attack"), dice, flat, f"{fighter.name}: attack"
    )
    dice, flat = pool(rules, fight, target, "defense", phase, melee_round)
    defense = roll_pool(
        rules, roller, fight, roll_label(base, "defense"), dice, flat, f"{target.name}: defense"
    )
    out.rolls += [attack, defense]
    if attack.total <= defense.total:  # a tie misses
        return
    blows.hit.add(target.id)
    margin = margin_damage(rules, attack.total, defense.total)
    dice, flat = pool(rules, fight, fighter, "damage", phase, melee_round, against=target, margin=margin)
    damage = roll_pool(
        rules, roller, fight, roll_label(base, "damage"), dice, flat, f"{fighter.name}: damage"
    )
    dice, flat = pool(rules, fight, target, "armor", phase, melee_round)
    armor = roll_pool(rules, roller, fight, roll_label(base, "armor"), dice, flat, f"{target.name}: armor")
    out.rolls += [damage, armor]
    table = "single_entity" if target.single else ("ranged" if phase == "ranged" else "melee")
    row = damage_row(rules, table, damage.total, armor.total)
    if phase == "ranged" and row.get("hp"):  # ranged fire takes no hit points: wear instead
        row = {"wear": int(rules["combat"]["ranged_single_entity_hp_as_wear"])}
    if phase == "ranged":
        row.pop("pax", None)
        row.pop("destroyed", None)
    for key, into in (("pax", blows.pax), ("hp", blows.hp), ("wear", blows.wear), ("morale", blows.morale)):
        if row.get(key):
            into[target.id] = into.get(target.id, 0) + abs(int(row[key]))
    if row.get("destroyed"):
        blows.destroyed.add(target.id)
    if row.get("pax") or row.get("hp") or row.get("destroyed"):
        out.decisive += [attack, defense, damage, armor]


def land(fight: Fight, blows: Blows) -> list[Fighter]:
    """Apply a step's blows; return the fighters that lost men or hit points in it."""
    wounded = []
    for side in fight.sides:
        for f in side.fighters:
            f.wear += blows.wear.get(f.id, 0)
            f.morale_penalty += blows.morale.get(f.id, 0)
            loss = blows.hp.get(f.id, 0) if f.single else blows.pax.get(f.id, 0)
            if f.id in blows.destroyed:
                loss = f.pax
            loss = min(loss, f.pax)  # no unit loses more men than it has
            if loss:
                f.pax -= loss
                f.lost += loss
                wounded.append(f)
            if f.pax <= 0 and not f.destroyed:
                f.destroyed = True
    return wounded


# ---------------------------------------------------------------------------------------------- phases


def strategy(rules: Rules, roller: Roller, fight: Fight, out: Outcome) -> None:
    """Tactics (leaders' ranks) and Outmaneuver (units' ranks): both sides roll if either has the skill;
    the higher total wins only for a side that has it; a tie gives nobody anything."""
    check = Check.from_rules(rules, "strategy")
    for skill in ("tactics", "outmaneuver"):
        ranks = {side.key: _strategy_rank(rules, side, skill) for side in fight.sides}
        if not any(ranks.values()):
            continue
        totals = {}
        for side in fight.sides:
            mods = [Modifier(skill, check.declared["per_rank"] * ranks[side.key])]
            if any(lead.get("bonus") == "banner_bearer" for lead in side.leaders):
                mods.append(check.modifier("banner_bearer"))
            label = roll_label(fight.label, "strategy", side.key, skill)
            result = check.roll(
                roller, label, modifiers=mods, factions=fight.factions, decided=f"{side.key}: {skill}"
            )
            out.rolls.append(result.roll)
            out.decisive.append(result.roll)
            totals[side.key] = result.total
        first, second = (side.key for side in fight.sides)
        best = first if totals[first] > totals[second] else second if totals[second] > totals[first] else None
        winner = best if best and ranks[best] else None
        setattr(fight, skill, winner)
        setattr(out, skill, winner)


def _strategy_rank(rules: Rules, side: Side, skill: str) -> int:
    if skill == "tactics":
        rank = side.leader_rank("tactics")
        if side.attacking and "advanced_inquiry" in side.renovations:
            rank += int(rules["combat"]["strategy"]["advanced_inquiry_ranks"])
        return rank
    return max((f.rank("outmaneuver") for f in side.fighters), default=0)


def ranged_rounds(rules: Rules, fight: Fight, fighter: Fighter) -> int:
    """How many ranged rounds a fighter shoots in: by its speed, Outmaneuver, Caltrops and Murder Holes."""
    combat = rules["combat"]
    side = fight.side_of(fighter)
    order = list(combat["speed_order"])
    step = order.index(fighter.speed)
    enemy = fight.enemy(side)
    if fight.outmaneuver == enemy.key and "tactics_caltrops" in enemy.renovations:
        step = min(step + int(combat["strategy"]["caltrops_steps"]), len(order) - 1)
    rounds = int(combat["ranged_rounds"][order[step]])
    if fight.outmaneuver == side.key:
        rounds += int(combat["strategy"]["outmaneuver_rounds"])
    if side.in_own_lair and side.murder_holes:
        rounds += int(combat["murder_holes_rounds"])
    return rounds


def ranged(rules: Rules, roller: Roller, fight: Fight, out: Outcome) -> None:
    shooters = [f for side in fight.sides for f in side.fighters if f.has("ranged_weapons")]
    rounds = {f.id: ranged_rounds(rules, fight, f) for f in shooters}
    for k in range(1, max(rounds.values(), default=0) + 1):
        for speed in rules["combat"]["speed_order"]:
            step = [f for f in shooters if f.standing and f.speed == speed and rounds[f.id] >= k]
            blows = Blows()
            for fighter in step:
                strike(rules, roller, fight, fighter, "ranged", f"ranged{k}", 0, blows, out)
            land(fight, blows)
            for side in fight.sides:
                for f in side.fighters:
                    f.hit_in_ranged = f.hit_in_ranged or f.id in blows.hit
    for side in fight.sides:  # every fighter that was hit checks its morale as the arrows stop
        for f in side.fighters:
            if f.hit_in_ranged and f.standing:
                check_morale(rules, roller, fight, f, "ranged", out)


def melee(rules: Rules, roller: Roller, fight: Fight, out: Outcome, rounds: int) -> int:
    """The melee rounds; returns how many were fought."""
    fought = 0
    for melee_round in range(1, rounds + 1):
        if _over(fight):
            break
        fought = melee_round
        lost_before = {side.key: sum(f.lost for f in side.fighters) for side in fight.sides}
        for speed in rules["combat"]["speed_order"]:
            step = [f for side in fight.sides for f in side.fighters if f.standing and f.speed == speed]
            blows = Blows()
            tag = f"melee{melee_round}"
            for fighter in step:
                strike(rules, roller, fight, fighter, "melee", tag, melee_round, blows, out)
            for wounded in land(fight, blows):
                if wounded.standing:
                    check_morale(rules, roller, fight, wounded, f"{tag}-{speed}", out)
        if fight.kind == "raid":  # the raiders pull out after any round that cost them men
            raiders = fight.sides[0]
            if sum(f.lost for f in raiders.fighters) > lost_before[raiders.key]:
                out.withdrew = raiders.key
                break
    if fight.kind == "harass":  # the harassers leave after their one round: neither beaten nor fled
        out.withdrew = fight.sides[0].key
    return fought


def _over(fight: Fight) -> bool:
    return any(not side.standing() for side in fight.sides)


def _beaten(side: Side) -> str:
    """'destroyed' when every fighter died, 'fled' when all are gone and some fled, '' otherwise."""
    if all(f.destroyed for f in side.fighters):
        return "destroyed"
    if all(not f.standing for f in side.fighters):
        return "fled"
    return ""


def winner(fight: Fight) -> tuple[str | None, list[str]]:
    """The winner by the seed's order (destroyed, then forced to flee, then units lost, then men lost);
    a full tie goes to the defender, or is a draw when both sides attacked. Also the sides forced to flee."""
    first, second = fight.sides
    beaten = {side.key: _beaten(side) for side in fight.sides}
    fled = [key for key, how in beaten.items() if how == "fled"]
    for how in ("destroyed", "fled"):
        if bool(beaten[first.key] == how) != bool(beaten[second.key] == how):
            return (second.key if beaten[first.key] == how else first.key), fled
    units = {side.key: sum(1 for f in side.fighters if not f.standing) for side in fight.sides}
    men = {side.key: sum(f.lost for f in side.fighters) for side in fight.sides}
    for count in (units, men):
        if count[first.key] != count[second.key]:
            return (first.key if count[first.key] < count[second.key] else second.key), fled
    if first.attacking and second.attacking:
        return None, fled
    return (second.key if not second.attacking else first.key), fled


def run(rules: Rules, roller: Roller, fight: Fight) -> Outcome:
    """Fight it out: Strategy, Ranged, Melee, and the winner."""
    out = Outcome(winner=None, melee_rounds=0)
    strategy(rules, roller, fight, out)
    ranged(rules, roller, fight, out)
    short = fight.kind in ("harass", "ambush")
    rounds = int(rules["combat"]["short_fight_rounds" if short else "melee_rounds"])
    out.melee_rounds = melee(rules, roller, fight, out, rounds)
    out.winner, out.forced_to_flee = winner(fight)
    for side in fight.sides:
        for f in side.fighters:
            if f.lost:
                out.lost[f.id] = f.lost
            if f.fled:
                out.fled.append(f.id)
            if f.demoralized:
                out.demoralized.append(f.id)
            if f.destroyed:
                out.destroyed.append(f.id)
    return out


def fighters_of(
    rules: Rules,
    records: Iterable[Mapping[str, Any]],
    lairs: Mapping[str, Mapping[str, Any] | None] | None = None,
) -> list[Fighter]:
    """Fighters from unit records of the state contract (a monster's record carries ``single: true``);
    ``lairs``: unit id -> the lair whose rooms count on its Morale and Loyalty."""
    fighters = []
    for record in records:
        single = bool(record.get("single"))
        monster = rules["combat"]["single_entities"].get(record.get("race")) or {}
        speed = record.get("speed") or {}
        fighters.append(
            Fighter(
                id=str(record["id"]),
                name=str(record.get("name") or record["id"]),
                race=str(record.get("race", "")),
                level=int(record.get("level", 0)),
                pax=int(record.get("hp", monster.get("hp", 1))) if single else int(record.get("pax", 0)),
                off=int(record.get("offense", 1)),
                defense=int(record.get("defense", 1)),
                strength=int(record.get("strength", 1)),
                speed=speed_id(rules, str(speed.get("combat", "M") if isinstance(speed, Mapping) else speed)),
                record=record,
                single=single,
                lair=(lairs or {}).get(str(record["id"])),
            )
        )
    return fighters
