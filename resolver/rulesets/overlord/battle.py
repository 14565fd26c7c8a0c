"""One overlord battle, fought round by round on the grid, as a pure function of its fighters and the dice.

`fight(fighters, rules, roll, label)` takes the units that fight (their stats already worked out from skills,
items and race by the caller), the rules data, the engine's labelled die `roll(label, sides) -> 1..sides`
and the battle's own label (built by the caller from the turn, day and location). Every roll's label adds
only the round, unit ids, figure numbers inside a unit and the purpose, so a battle's dice never depend on
anything outside it. Nothing here reads or writes the state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import grid, strikes
from .grid import ATTACKERS, DEFENDERS, Square

Roll = Callable[[str, int], int]
SIDES = (ATTACKERS, DEFENDERS)
MELEE, PARRY, RANGED = "melee", "parry", "ranged"
ROUTINE = {MELEE, PARRY}  # what a terse report leaves out


@dataclass(frozen=True)
class Tactic:
    """A unit's TACTIC setting, in lower case: battle avoid/defend/fight, rank, file and move."""

    battle: str = "fight"
    rank: str = "front"
    file: str = "center"
    move: str = "advance"


@dataclass
class Fighter:
    """A unit as it enters a battle. Stats are per figure and already include skills, items and race."""

    unit: str
    faction: str
    side: str  # ATTACKERS or DEFENDERS
    figures: int
    initiative: int = 0
    melee: int = 0
    missile: int = 0
    defense: int = 0
    damage: int = 0
    ranged_damage: int = 0
    stealth: int = 0
    observation: int = 0
    life: int = 1
    hits: int = 1
    base_combat: int = 0  # combat level of the unit itself, without equipment
    tactics: int = 0  # tactics level
    strategy: bool = False
    fanatic: bool = False
    flying: bool = False
    mounted: bool = False  # every figure rides: a double chance to move first on a tie
    race: str = "man"
    mana: int = 0
    mana_max: int = 0
    actions: tuple[str, ...] = ()  # the COMBAT list, lower case; MELEE and PARRY are added after it
    tactic: Tactic = field(default_factory=Tactic)
    equipment: dict[str, int] = field(default_factory=dict)  # equipped items usable in combat
    items: dict[str, int] = field(default_factory=dict)  # everything it carries (loot)
    skills: dict[str, float] = field(default_factory=dict)  # days of experience (experience gates)
    load: float = 0.0  # weight now carried, figures included
    capacity: float = 0.0  # walking capacity


@dataclass
class UnitOutcome:
    unit: str
    side: str
    figures_lost: int = 0
    wounded: int = 0  # figures still wounded when the fighting stopped
    deadly_blows: int = 0  # deadly blows this unit dealt
    experience: dict[str, int] = field(default_factory=dict)  # skill tag -> days gained
    fled: bool = False  # left the field before the end
    routed: bool = False  # on the losing side when the battle ended
    destroyed: bool = False
    promoted: bool = False  # a leader who became a hero
    mana: int = 0


@dataclass(frozen=True)
class LootLot:
    source: str
    receiver: str
    item: str
    count: int


@dataclass
class RoundSummary:
    number: int
    rout: bool = False
    actions: list[dict[str, Any]] = field(default_factory=list)
    casualties: dict[str, int] = field(default_factory=dict)

    def terse(self) -> list[dict[str, Any]]:
        """What a terse battle report shows of the round: every action but melee and parry."""
        return [action for action in self.actions if action["kind"] not in ROUTINE]


@dataclass
class BattleResult:
    label: str
    rounds: int
    winner: str | None  # ATTACKERS, DEFENDERS, or None for a draw
    end: str  # wiped, morale, quiet, rounds
    units: dict[str, UnitOutcome]
    loot: list[LootLot]
    promoted: list[str]
    summaries: list[RoundSummary]

    @property
    def loser(self) -> str | None:
        return None if self.winner is None else _other(self.winner)


def _other(side: str) -> str:
    return DEFENDERS if side == ATTACKERS else ATTACKERS


@dataclass
class _Unit:
    """A fighter during the battle: where it stands and how each of its figures fares."""

    fighter: Fighter
    square: Square
    deadly: list[int]
    wounded: list[bool]
    mana: int
    fled: bool = False
    quiet_at_rear: int = 0
    moved: bool = False
    meleed: bool = False  # suffered a melee attack this round
    parry_bonus: int = 0
    rounds: int = 0
    struck: set[int] = field(default_factory=set)  # rounds in which it struck with MELEE
    parried: set[int] = field(default_factory=set)  # rounds in which it parried
    used: dict[str, set[int]] = field(default_factory=dict)  # skill -> rounds it used an item or skill
    deadly_dealt: int = 0

    @property
    def id(self) -> str:
        return self.fighter.unit

    @property
    def side(self) -> str:
        return self.fighter.side

    def alive(self) -> list[int]:
        return [index for index, blows in enumerate(self.deadly) if blows < self.fighter.life]

    @property
    def present(self) -> bool:
        return not self.fled and any(blows < self.fighter.life for blows in self.deadly)


@dataclass
class _Plan:
    """One schedule of a unit in a round: its actions with their initiatives, tried in order."""

    unit: _Unit
    entries: list[tuple[str, int]]
    tag: str  # stable within the round: 'a' for the main list, 'x1', 'x2'... for extra strikes
    position: int = 0
    first: bool = True  # the unit moves at the first slot of its main plan


class _Battle:
    def __init__(self, fighters: Sequence[Fighter], rules: Mapping[str, Any], roll: Roll, label: str) -> None:
        self.rules = rules["combat"]
        self.roll_die = roll
        self.label = label
        self.units = {
            fighter.unit: _Unit(
                fighter=fighter,
                square=grid.place(fighter.side, fighter.tactic.rank, fighter.tactic.file),
                deadly=[0] * fighter.figures,
                wounded=[False] * fighter.figures,
                mana=fighter.mana,
            )
            for fighter in sorted(fighters, key=lambda one: one.unit)
        }
        self.summaries: list[RoundSummary] = []
        self.quiet = 0
        self.first_check: dict[str, int] = {}
        self.routed_side: str | None = None  # the beaten side, during the rout round only
        self.advantage = self._tactical_advantage()

    # -- dice ---------------------------------------------------------------------------------------------
    def roll(self, sides: int, *parts: object) -> int:
        return self.roll_die("/".join([self.label, *(str(part) for part in parts)]), sides)

    def percent(self, chance: int, *parts: object) -> bool:
        if chance <= 0:
            return False
        if chance >= 100:
            return True
        return self.roll(100, *parts) <= chance

    # -- sides --------------------------------------------------------------------------------------------
    def present(self, side: str) -> list[_Unit]:
        return [unit for unit in self.units.values() if unit.side == side and unit.present]

    def enemies(self, unit: _Unit) -> list[_Unit]:
        return self.present(_other(unit.side))

    def _tactical_advantage(self) -> tuple[str | None, int, bool]:
        best = {
            side: max((u.fighter.tactics for u in self.units.values() if u.side == side), default=0)
            for side in SIDES
        }
        if best[ATTACKERS] == best[DEFENDERS]:
            return None, 0, False
        ahead = ATTACKERS if best[ATTACKERS] > best[DEFENDERS] else DEFENDERS
        lasting = any(u.fighter.strategy for u in self.units.values() if u.side == ahead)
        return ahead, abs(best[ATTACKERS] - best[DEFENDERS]), lasting

    def advantage_in(self, side: str, number: int) -> int:
        ahead, size, lasting = self.advantage
        if side != ahead:
            return 0
        return size if lasting else max(0, size - self.rules["tactical_advantage_decay"] * (number - 1))

    # -- a round ------------------------------------------------------------------------------------------
    def fight_round(self, number: int, routed: str | None) -> RoundSummary:
        summary = RoundSummary(number=number, rout=routed is not None)
        fighting = [unit for unit in self.units.values() if unit.present]
        before = {unit.id: len(unit.alive()) for unit in fighting}
        for unit in fighting:
            unit.moved = unit.meleed = False
            unit.parry_bonus = 0
            unit.rounds += 1
        plans = [self._plan(unit, number, routed) for unit in fighting]
        pending = {id(plan): plan.entries[0][1] for plan in plans}
        landed_any = False
        while pending:
            value = max(pending.values())
            batch = sorted(
                (plan for plan in plans if pending.get(id(plan)) == value),
                key=lambda plan: (plan.unit.id, plan.tag),
            )
            self._move_batch([plan for plan in batch if plan.first], number, routed, summary)
            alive_at_slot = {plan.unit.id: plan.unit.alive() for plan in batch}
            parried: list[_Unit] = []
            for plan in batch:
                plan.first = False
                if not alive_at_slot[plan.unit.id]:  # killed earlier this round
                    del pending[id(plan)]
                    continue
                outcome = self._act(plan, value, number, routed, alive_at_slot[plan.unit.id], summary)
                if outcome == "wait":
                    pending[id(plan)] = plan.entries[plan.position][1]
                    continue
                del pending[id(plan)]
                if outcome == PARRY:
                    parried.append(plan.unit)
                elif outcome in ("hit", "missed"):
                    landed_any = landed_any or outcome == "hit"
                    if plan.entries[plan.position][0] == MELEE:
                        plans.extend(self._extra_strikes(plan, value, pending))
            for unit in parried:  # a parry protects only once the unit has acted
                unit.parry_bonus = max(0, unit.fighter.melee)
        self._end_of_round(fighting, before, summary)
        self.quiet = 0 if landed_any else self.quiet + 1
        return summary

    def _plan(self, unit: _Unit, number: int, routed: str | None) -> _Plan:
        fighter = unit.fighter
        base = fighter.initiative + self.advantage_in(unit.side, number)
        if fighter.flying:
            base += self.rules["flying"]["initiative"]
        names = [PARRY] if routed == unit.side else [*fighter.actions, MELEE, PARRY]
        entries: list[tuple[str, int]] = []
        for name in names:
            modifier = self.rules["actions"].get(name, {}).get("initiative", 0)
            value = base + modifier
            entries.append((name, value if not entries else min(value, entries[0][1])))
        return _Plan(unit=unit, entries=entries, tag="a")

    def _extra_strikes(self, plan: _Plan, value: int, pending: dict[int, int]) -> list[_Plan]:
        """A unit with more than one hit gets MELEE then PARRY again, a little later each time."""
        if plan.tag != "a":
            return []
        step = self.rules["extra_strike_initiative"]
        extra = []
        for count in range(1, plan.unit.fighter.hits):
            later = value + step * count
            new = _Plan(
                unit=plan.unit, entries=[(MELEE, later), (PARRY, later)], tag=f"x{count}", first=False
            )
            pending[id(new)] = later
            extra.append(new)
        return extra

    # -- moving -------------------------------------------------------------------------------------------
    def _move_batch(self, plans: list[_Plan], number: int, routed: str | None, summary: RoundSummary) -> None:
        movers = [plan.unit for plan in plans if plan.unit.present]
        if len(movers) > 1:  # ties at one initiative move in a random order; riders get two tries

            def draw(unit: _Unit) -> int:
                tries = 2 if unit.fighter.mounted else 1
                return max(
                    self.roll(100, f"r{number}", unit.id, "move-order", attempt) for attempt in range(tries)
                )

            order = {unit.id: draw(unit) for unit in movers}
            movers.sort(key=lambda unit: (-order[unit.id], unit.id))
        for unit in movers:
            move = "flee" if routed == unit.side else unit.fighter.tactic.move.lower()
            target = self._destination(unit, move)
            if target != unit.square:
                unit.square, unit.moved = target, True
                summary.actions.append({"kind": "move", "unit": unit.id, "square": list(target)})

    def _destination(self, unit: _Unit, move: str) -> Square:
        foes = [foe.square for foe in self.enemies(unit)]
        if not foes:
            return unit.square
        blocked = set(foes)
        rank, column = unit.square
        ahead = (rank + grid.forward(unit.side), column)
        closest = grid.nearest(unit.square, foes) or 0

        def advance() -> Square:
            return ahead if grid.on_field(ahead) and ahead not in blocked else unit.square

        def sweep() -> Square:
            beside = {(rank, column - 1), (rank, column + 1)}
            return unit.square if beside & blocked else advance()

        if move == "stand":
            return unit.square
        if move == "advance":
            return advance()
        if move == "sweep":
            return sweep()
        if move == "flank":
            return self._flank(unit, foes, sweep)
        if move == "charge":
            return self._charge(unit, foes, blocked)
        if move in ("fire", "support"):
            if move == "support" and closest <= 1:
                back = (rank - grid.forward(unit.side), column)
                return back if grid.on_field(back) and back not in blocked else unit.square
            return advance() if closest > 2 else unit.square
        if move in ("flee", "retreat"):
            return self._fall_back(unit, foes, blocked)
        return unit.square

    def _flank(self, unit: _Unit, foes: list[Square], sweep: Callable[[], Square]) -> Square:
        rank, column = unit.square
        home = grid.place(unit.side, unit.fighter.tactic.rank, unit.fighter.tactic.file)[1]
        level = [foe for foe in foes if foe[0] == rank and foe[1] != column]
        if level and column != 1:  # an enemy on this rank: close toward the centre
            toward = (rank, 1)
            return toward if toward not in foes else unit.square
        if not level and column != home:  # the rank is clear: back to its own flank
            back = (rank, column + (1 if home > column else -1))
            return back if back not in foes else unit.square
        return sweep()

    def _charge(self, unit: _Unit, foes: list[Square], blocked: set[Square]) -> Square:
        goal = min(foes, key=lambda foe: (grid.distance(unit.square, foe), foe))
        square = unit.square
        steps = grid.FIELD_RANKS + grid.FIELD_FILES if unit.fighter.flying else 1  # flyers go anywhere
        for _ in range(steps):
            if grid.distance(square, goal) <= 1:
                break
            square = grid.step_toward(square, goal, blocked)
        return square

    def _fall_back(self, unit: _Unit, foes: list[Square], blocked: set[Square]) -> Square:
        rear = grid.rear_rank(unit.side)
        rank, column = unit.square
        if rank != rear:
            goal = (rear, column)
        else:  # at the rear: the flank farthest from any enemy
            flanks = [(rear, 0), (rear, grid.FIELD_FILES - 1)]
            goal = max(
                flanks, key=lambda spot: (grid.nearest(spot, foes) or 0, spot == unit.square, -spot[1])
            )
        square = unit.square
        steps = grid.FIELD_RANKS + grid.FIELD_FILES if unit.fighter.flying else 1
        for _ in range(steps):
            if square == goal:
                break
            square = grid.step_toward(square, goal, blocked)
        return square

    # -- acting -------------------------------------------------------------------------------------------
    def _act(
        self,
        plan: _Plan,
        value: int,
        number: int,
        routed: str | None,
        strikers: list[int],
        summary: RoundSummary,
    ) -> str | None:
        """Try the plan's actions from where it stands; 'wait' when the next one comes at a lower value."""
        unit = plan.unit
        while plan.position < len(plan.entries):
            name, initiative = plan.entries[plan.position]
            if initiative < value:
                return "wait"
            if name == PARRY:
                if routed == unit.side and self.percent(
                    self.rules["rout"]["parry_ignored"], f"r{number}", unit.id, "forgets-parry"
                ):
                    summary.actions.append({"kind": "forgets_parry", "unit": unit.id})
                    return "idle"
                unit.parried.add(number)
                summary.actions.append({"kind": PARRY, "unit": unit.id})
                return PARRY
            done = self._attack(plan, name, number, routed, strikers, summary)
            if done is not None:
                return done
            plan.position += 1
        return None

    def _attack(
        self,
        plan: _Plan,
        name: str,
        number: int,
        routed: str | None,
        strikers: list[int],
        summary: RoundSummary,
    ) -> str | None:
        unit, fighter = plan.unit, plan.unit.fighter
        spec = self.rules["actions"].get(name, {})
        kind = spec.get("kind", name)
        if kind not in (MELEE, RANGED):
            return None
        foes = self.enemies(unit)
        adjacent = [foe for foe in foes if grid.distance(unit.square, foe.square) == 1]
        if kind == MELEE:
            same_file = [foe for foe in adjacent if foe.square[1] == unit.square[1]]
            targets = same_file or adjacent
        else:
            if adjacent or (name == RANGED and fighter.missile <= 0):
                return None
            targets = [foe for foe in foes if grid.distance(unit.square, foe.square) > 1]
        holders = strikers
        if "item" in spec:
            holders = strikers[: fighter.equipment.get(spec["item"], 0)]
        if not targets or not holders:
            return None
        missile = kind == RANGED
        attack = spec.get("attack", fighter.missile if missile else fighter.melee)
        damage = spec.get("damage", fighter.ranged_damage if missile else fighter.damage)
        blows = max(self.rules["min_blows"], damage)
        per_figure = spec.get("strikes", 1)
        order = sorted(targets, key=lambda foe: self._target_key(unit, foe, routed, missile))
        report = {
            "kind": name,
            "unit": unit.id,
            "strikes": 0,
            "hits": 0,
            "deadly": 0,
            "wounds": 0,
            "killed": 0,
            "targets": [],
        }
        turn = 0
        for figure in holders:
            for strike in range(per_figure):
                pool = [(foe, index) for foe in order for index in foe.alive()]
                if not pool:
                    break
                foe, index = pool[turn % len(pool)]
                turn += 1
                parts = (f"r{number}", unit.id, f"{name}-{plan.tag}", f"f{figure}", f"s{strike}")
                self._blow(unit, foe, index, attack, blows, missile, parts, report)
        if name not in (MELEE, RANGED):
            skill = spec.get("skill", self.rules["experience"]["combat_skill"])
            unit.used.setdefault(skill, set()).add(number)
        elif name == MELEE:
            unit.struck.add(number)
        summary.actions.append(report)
        return "hit" if report["hits"] else "missed"

    def _target_key(self, unit: _Unit, foe: _Unit, routed: str | None, missile: bool) -> tuple[Any, ...]:
        stealth = -foe.fighter.stealth if routed == foe.side else foe.fighter.stealth
        depth = grid.own_rank(foe.side, foe.square)
        spot = 0 if depth <= 0 else (1 if foe.square[1] != 1 else 2)  # front, then flank, then rear
        near = grid.distance(unit.square, foe.square) if missile else 0
        return (stealth, near, spot, foe.id)

    def _blow(
        self,
        unit: _Unit,
        foe: _Unit,
        index: int,
        attack: int,
        blows: int,
        missile: bool,
        parts: tuple[str, ...],
        report: dict[str, Any],
    ) -> None:
        fighter, target = unit.fighter, foe.fighter
        report["strikes"] += 1
        if foe.id not in report["targets"]:
            report["targets"].append(foe.id)
        if not missile:
            foe.meleed = True
        stealth = -target.stealth if self.routed_side == foe.side else target.stealth
        if self.percent(strikes.dodge_chance(self.rules, stealth, fighter.observation), *parts, "dodge"):
            return
        stat = fighter.missile if missile else fighter.melee
        if not self.percent(strikes.strike_chance(self.rules, stat), *parts, "strike"):
            return
        bonus_attack, bonus_defense = strikes.flying_modifiers(
            self.rules, fighter.flying, target.flying, missile
        )
        a = max(0, attack + bonus_attack)
        defense = target.defense + foe.parry_bonus + bonus_defense
        d = strikes.missile_defense(self.rules, defense) if missile else max(0, defense)
        reduced_a, reduced_d = strikes.reduced(a, d)
        if reduced_a == 0:
            return
        if reduced_d and self.roll(reduced_a + reduced_d, *parts, "hit") > reduced_a:
            return
        report["hits"] += 1
        deadly = blows - 1
        if (
            a > d
            or foe.wounded[index]
            or self.percent(strikes.deadly_chance(self.rules, fighter.base_combat), *parts, "deadly")
        ):
            deadly += 1
        else:
            foe.wounded[index] = True
            report["wounds"] += 1
        was_alive = foe.deadly[index] < target.life
        foe.deadly[index] += deadly
        report["deadly"] += deadly
        unit.deadly_dealt += deadly
        if was_alive and foe.deadly[index] >= target.life:
            report["killed"] += 1

    def _end_of_round(self, fighting: list[_Unit], before: dict[str, int], summary: RoundSummary) -> None:
        for unit in fighting:
            lost = before[unit.id] - len(unit.alive())
            if lost:
                summary.casualties[unit.id] = lost
            fighter = unit.fighter
            if fighter.mana_max > 0:
                unit.mana = min(fighter.mana_max, unit.mana + self.rules["mana_per_round"])
            if not unit.present:
                continue
            fleeing = self.routed_side == unit.side or fighter.tactic.move.lower() == "flee"
            at_rear = unit.square[0] == grid.rear_rank(unit.side)
            if fleeing and at_rear and not unit.moved and not unit.meleed:
                unit.quiet_at_rear += 1
            else:
                unit.quiet_at_rear = 0
            if fleeing and unit.quiet_at_rear >= self.rules["flee_rounds"]:
                unit.fled = True
                summary.actions.append({"kind": "fled", "unit": unit.id})

    # -- the end ------------------------------------------------------------------------------------------
    def ended(self, number: int) -> tuple[str, str | None] | None:
        """(reason, winner) when the battle is over after this round, in the manual's order of conditions."""
        wiped = [side for side in SIDES if not self.present(side)]
        if wiped:
            return "wiped", (_other(wiped[0]) if len(wiped) == 1 else None)
        broken = [side for side in SIDES if self._breaks(side, number)]
        if broken:
            return "morale", (_other(broken[0]) if len(broken) == 1 else None)
        if self.quiet >= self.rules["quiet_rounds"]:
            return "quiet", None
        if number >= self.rules["max_rounds"]:
            return "rounds", None
        return None

    def _breaks(self, side: str, number: int) -> bool:
        morale_rules = self.rules["morale"]
        counted = [unit for unit in self.units.values() if unit.side == side and not unit.fighter.fanatic]
        start = sum(unit.fighter.figures for unit in counted)
        dead = sum(unit.fighter.figures - len(unit.alive()) for unit in counted)
        if not start or 100 * dead < morale_rules["casualties"] * start:
            return False
        standing = [unit for unit in counted if unit.present]
        if not standing:
            return False
        tactician = max((unit.fighter.tactics for unit in self.present(side)), default=0)
        first = self.first_check.setdefault(side, number)
        morale = min(morale_rules["per_defense"] * unit.fighter.defense for unit in standing)
        morale += morale_rules["per_tactics"] * tactician - morale_rules["drop_per_round"] * (number - first)
        return self.roll(100, f"r{number}", side, "morale") > morale

    def aftermath(
        self, rounds: int, end: str, winner: str | None, weights: Mapping[str, float]
    ) -> BattleResult:
        outcomes: dict[str, UnitOutcome] = {}
        loser = None if winner is None else _other(winner)
        for unit in self.units.values():
            fighter = unit.fighter
            outcome = UnitOutcome(
                unit=unit.id,
                side=unit.side,
                fled=unit.fled,
                routed=unit.side == loser,
                deadly_blows=unit.deadly_dealt,
                mana=unit.mana,
            )
            living = unit.alive()
            if fighter.fanatic and unit.side == loser:  # fanatics of a beaten side all die
                unit.deadly = [fighter.life] * fighter.figures
                living = []
            outcome.wounded = sum(1 for index in living if unit.wounded[index])
            for index in living:  # each wounded figure heals or takes one more deadly blow
                if unit.wounded[index] and not self.percent(
                    self.rules["wound_recovery"], unit.id, f"f{index}", "heal"
                ):
                    unit.deadly[index] += 1
            outcome.figures_lost = fighter.figures - len(unit.alive())
            outcome.destroyed = not unit.alive()
            if not outcome.destroyed:
                outcome.experience = self._experience(unit)
                outcome.promoted = fighter.race == self.rules["leader_race"] and self.percent(
                    max(fighter.melee, fighter.missile, fighter.initiative), unit.id, "hero"
                )
            outcomes[unit.id] = outcome
        loot = self._loot(outcomes, winner, weights)
        promoted = sorted(unit for unit, outcome in outcomes.items() if outcome.promoted)
        return BattleResult(
            label=self.label,
            rounds=rounds,
            winner=winner,
            end=end,
            units=outcomes,
            loot=loot,
            promoted=promoted,
            summaries=self.summaries,
        )

    def _experience(self, unit: _Unit) -> dict[str, int]:
        table = self.rules["experience"]
        fighter = unit.fighter
        gained: dict[str, int] = {}

        def add(skill: str, days: int) -> None:
            if days > 0:
                gained[skill] = gained.get(skill, 0) + days

        novice = fighter.base_combat < 1
        add(table["combat_skill"], unit.rounds * table["novice_per_round" if novice else "per_round"])
        if fighter.skills.get(table["melee_skill"], 0) > 0 or not novice:
            add(table["melee_skill"], len(unit.struck) * table["struck"])
        if fighter.skills.get(table["parry_skill"], 0) > 0:
            add(table["parry_skill"], len(unit.parried) * table["parried"])
        for skill, rounds in sorted(unit.used.items()):
            add(skill, len(rounds) * table["used"])
        return gained

    def _loot(
        self, outcomes: dict[str, UnitOutcome], winner: str | None, weights: Mapping[str, float]
    ) -> list[LootLot]:
        if winner is None:
            return []
        takers = [unit for unit in self.units.values() if unit.side == winner and unit.present]
        load = {unit.id: unit.fighter.load for unit in takers}
        lots: list[LootLot] = []
        for unit in self.units.values():
            if not outcomes[unit.id].destroyed:
                continue
            for item, held in sorted(unit.fighter.items.items()):
                count = held * self.rules["loot_share"] // 100
                if count <= 0:
                    continue
                weight = weights.get(item, 0) * count
                able = [
                    taker
                    for taker in takers
                    if weight == 0
                    or load[taker.id] + weight <= taker.fighter.capacity
                    or load[taker.id] > taker.fighter.capacity
                ]
                if not able:
                    continue
                receiver = able[self.roll(len(able), "loot", unit.id, item) - 1]
                load[receiver.id] += weight
                lots.append(LootLot(source=unit.id, receiver=receiver.id, item=item, count=count))
        return lots


def fight(
    fighters: Sequence[Fighter],
    rules: Mapping[str, Any],
    roll: Roll,
    label: str,
    weights: Mapping[str, float] | None = None,
) -> BattleResult:
    """Fight a battle to its end, then its rout round (when a side won) and its aftermath.

    `weights` gives each item's weight for the loot rule (items missing from it weigh nothing).
    """
    battle = _Battle(fighters, rules, roll, label)
    number, found = 0, battle.ended(0)
    while found is None:
        number += 1
        battle.summaries.append(battle.fight_round(number, None))
        found = battle.ended(number)
    end, winner = found
    if winner is not None and battle.present(_other(winner)):
        number += 1
        battle.routed_side = _other(winner)
        battle.summaries.append(battle.fight_round(number, _other(winner)))
    return battle.aftermath(number, end, winner, weights or {})


def title_heir(
    holder: str,
    holder_side: str,
    winner: str | None,
    claimants: Mapping[str, Sequence[str]],
    rules: Mapping[str, Any],
    roll: Roll,
    label: str,
) -> str | None:
    """Who takes the title of a holder slain in battle, or None when it is simply lost.

    `claimants` lists, per side, the untitled leaders able to claim the title (the titles chapter knows
    who can). The heir comes from the holder's side if it won or nobody lost, else from the winners.
    """
    if roll(f"{label}/title/{holder}/lost", 100) <= rules["combat"]["title_lost"]:
        return None
    side = holder_side if winner in (None, holder_side) else winner
    pool = sorted(claimants.get(side, ()))
    if not pool:
        return None
    return pool[roll(f"{label}/title/{holder}/heir", len(pool)) - 1]
