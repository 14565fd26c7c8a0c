"""Experience (spec §5.9): what an action's band gives each entity that took part, how experience becomes
levels and skill ranks on the learning curve, the stat a unit raises at each new level, and the Train and
Learn actions (§4.12).

The numbers are ``experience``, ``skills`` and ``races`` of rules/entities.yaml. A unit's levelling
experience is ``xp`` beside its ``level``; a skill is ``{rank, xp}`` in the entity's ``skills``. Experience
that reaches the next step is spent at once, so what stays is the progress toward the next rank or level
(the game's ``Scout[3]^1``). Which stat a new level raises, and which skill takes an action's skill
experience, are the usurper's standing policies ``level_up`` and ``skill_xp``, made before the dice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core import standing
from ...core.phases import State
from .entities import LEADER, UNIT, Participants, has_ability, leader_state, skill_serves

Record = dict[str, Any]


@dataclass
class Gain:
    """What one entity gained: experience, and the levels and ranks it reached with it."""

    entity: str
    name: str
    level_xp: int = 0
    skill: str | None = None
    skill_xp: int = 0
    levels: list[str] = field(default_factory=list)  # the stat raised at each new level, in order
    ranks: list[int] = field(default_factory=list)  # each new rank reached in ``skill``

    def to_data(self) -> dict[str, Any]:
        """Every field, nothing left out when empty: the event's sentence reads each one as it is."""
        return {
            "entity": self.entity,
            "name": self.name,
            "level_xp": self.level_xp,
            "skill": self.skill,
            "skill_xp": self.skill_xp,
            "levels": list(self.levels),
            "ranks": list(self.ranks),
        }

    @property
    def anything(self) -> bool:
        return bool(self.level_xp or self.skill_xp)


# --- the standing policies ------------------------------------------------------------------------------


def policy(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str, key: str) -> Any:
    """A standing policy of the usurper's order file as in force: its own answer, else the default."""
    written = (standing.stored(state, faction).get("policies") or {}).get(key)
    return written if written is not None else rules["policies"].get(key)


# --- the learning curve ---------------------------------------------------------------------------------


def scholar_lives(rules: Mapping[str, Any], faction: Mapping[str, Any]) -> bool:
    """Whether a Scholar's global part helps the usurper: the leader lives and is not healing."""
    for leader in (faction.get("leaders") or {}).values():
        bonus = (rules["leader_bonuses"].get(str(leader.get("bonus"))) or {}).get("global") or {}
        alive = int(leader.get("hp", 1)) > 0
        if bonus.get("learning_curve") and alive and leader_state(rules, leader) != "healing":
            return True
    return False


def curve(rules: Mapping[str, Any], faction: Mapping[str, Any]) -> list[int]:
    """Experience needed to reach rank or level 1, 2 ... 10; one lower from rank 4 with a Scholar."""
    spec = rules["experience"]
    return [int(x) for x in spec["curve_scholar" if scholar_lives(rules, faction) else "curve"]]


def needed(steps: Sequence[int], target: int) -> int:
    """Experience to go from ``target - 1`` to ``target`` on a curve."""
    return steps[target - 1]


def climb(steps: Sequence[int], reached: int, xp: int, top: int) -> tuple[int, int, list[int]]:
    """Spend experience up the curve from ``reached``: (new rank or level, experience left, each step
    reached). At the top, experience stays unspent."""
    reached_now: list[int] = []
    while reached < top and reached < len(steps) and xp >= needed(steps, reached + 1):
        xp -= needed(steps, reached + 1)
        reached += 1
        reached_now.append(reached)
    return reached, xp, reached_now


# --- levels ---------------------------------------------------------------------------------------------


def _raised_before(rules: Mapping[str, Any], unit: Mapping[str, Any], stat: str) -> bool:
    """Whether a unit took a once-in-its-life stat already: its speed or tools beyond its race's."""
    race = (rules.get("races") or {}).get(str(unit.get("race"))) or {}
    if stat == "speed":
        return bool(race) and unit["speed"]["combat"] != race["speed"]["combat"]
    if stat == "max_tools":
        return bool(race) and int(unit["max_tools"]) > int(race["max_tools"])
    return False


def may_raise(rules: Mapping[str, Any], unit: Mapping[str, Any], stat: str) -> bool:
    spec = rules["experience"]["level_up"]
    if stat not in spec["stats"]:
        return False
    if stat in spec["once"] and _raised_before(rules, unit, stat):
        return False
    if stat == "speed":
        return unit["speed"]["combat"] != rules["combat_speeds"][-1]
    if stat == "max_tools":
        return int(unit["max_tools"]) < int(spec["max_tools_cap"])
    return True


def choose_stat(rules: Mapping[str, Any], unit: Mapping[str, Any], level: int, order: Sequence[str]) -> str:
    """The stat the new ``level`` raises: the policy's list taken in turn (level 1 its first, level 2 its
    second...), skipping what may no longer be raised; when nothing in it may, the rules' default list."""
    for stats in (list(order), list(rules["policies"]["level_up"])):
        if not stats:
            continue
        for shift in range(len(stats)):
            stat = str(stats[(level - 1 + shift) % len(stats)])
            if may_raise(rules, unit, stat):
                return stat
    return str(rules["experience"]["level_up"]["stats"][0])


def raise_stat(rules: Mapping[str, Any], unit: Record, stat: str) -> None:
    if stat == "speed":
        speeds = list(rules["combat_speeds"])
        unit["speed"]["combat"] = speeds[speeds.index(unit["speed"]["combat"]) + 1]
    else:
        unit[stat] = int(unit[stat]) + 1


def settle_levels(
    rules: Mapping[str, Any], faction: Mapping[str, Any], unit: Record, order: Sequence[str]
) -> list[str]:
    """Turn a unit's levelling experience into levels, each raising a stat; the stats raised."""
    level, xp, reached = climb(
        curve(rules, faction), int(unit.get("level") or 0), int(unit.get("xp") or 0),
        int(rules["experience"]["max_level"]),
    )  # fmt: skip
    raised = []
    for new_level in reached:
        stat = choose_stat(rules, unit, new_level, order)
        raise_stat(rules, unit, stat)
        raised.append(stat)
    unit["level"], unit["xp"] = level, xp
    return raised


def add_level_xp(
    rules: Mapping[str, Any], faction: Mapping[str, Any], unit: Record, amount: int, order: Sequence[str]
) -> list[str]:
    unit["xp"] = int(unit.get("xp") or 0) + amount
    return settle_levels(rules, faction, unit, order)


# --- skills ---------------------------------------------------------------------------------------------


def rank(entity: Mapping[str, Any], skill: str) -> int:
    return int(((entity.get("skills") or {}).get(skill) or {}).get("rank", 0))


def may_learn(rules: Mapping[str, Any], kind: str, entity: Mapping[str, Any], skill_id: str) -> bool:
    """Whether an entity of this kind may gain experience in the skill: leaders' and units' own skills,
    its prerequisite met, its highest rank not yet reached."""
    skill = rules["skills"].get(skill_id)
    if not skill:
        return False
    if (skill.get("leader_only") and kind != LEADER) or (skill.get("unit_only") and kind != UNIT):
        return False
    needs = skill.get("requires")
    if needs and rank(entity, str(needs["skill"])) < int(needs["rank"]):
        return False
    return rank(entity, skill_id) < int(skill["max"])


def skill_for(
    rules: Mapping[str, Any],
    kind: str,
    entity: Mapping[str, Any],
    action: str,
    resource: str | None,
    preferred: Iterable[str] = (),
) -> str | None:
    """The skill an action's skill experience goes to: the first of the usurper's preferred skills that
    the action serves and the entity may learn, else the first such skill in the rules data (the action's
    primary skill, one that adds to its roll: Scout before Forager and Spy, Woodsman before Tree-Hugger)."""
    serving = [s for s, spec in rules["skills"].items() if skill_serves(spec, action, resource)]
    serving.sort(key=lambda s: not rules["skills"][s].get("roll"))
    for skill in [*(s for s in preferred if s in serving), *serving]:
        if may_learn(rules, kind, entity, skill):
            return skill
    return None


def add_skill_xp(
    rules: Mapping[str, Any], faction: Mapping[str, Any], entity: Record, skill: str, amount: int
) -> list[int]:
    """Add experience to a skill and climb the curve; the new ranks reached."""
    held = entity.setdefault("skills", {}).setdefault(skill, {"rank": 0, "xp": 0})
    top = int(rules["skills"][skill]["max"])
    held["rank"], held["xp"], reached = climb(
        curve(rules, faction), int(held.get("rank", 0)), int(held.get("xp", 0)) + amount, top
    )
    return reached


# --- an action's experience -----------------------------------------------------------------------------


def column(rules: Mapping[str, Any], kind: str, entity: Mapping[str, Any], scholar: bool) -> str:
    """The chart's column for an entity's skill experience: Adaptive for a unit of an Adaptive race,
    Scholar when a Scholar leader assists units in the action, both together, or the plain amount."""
    adaptive = kind == UNIT and has_ability(rules, dict(entity), rules["experience"]["adaptive_ability"])
    return {(True, True): "both", (True, False): "adaptive", (False, True): "scholar"}.get(
        (adaptive, scholar), "amount"
    )


def scholar_assists(rules: Mapping[str, Any], group: Participants) -> bool:
    """Whether a Scholar's local part reads this action's skill experience a band higher: a Scholar
    leader, not healing, assisting units."""
    for leader in group.leaders:
        local = (rules["leader_bonuses"].get(str(leader.get("bonus"))) or {}).get("local") or {}
        helping = group.assisting(leader) and group.units if local.get("assisting_units") else True
        if local.get("experience") and helping and leader_state(rules, leader) != "healing":
            return True
    return False


def award_action(
    rules: Mapping[str, Any],
    state: State,
    faction: str,
    group: Participants,
    action: str,
    band: str,
    resource: str | None = None,
) -> list[Gain]:
    """Give every entity that took part what the band earns: levelling experience to units, skill
    experience to a skill of the action (spec §5.9). Nothing below Success."""
    row = rules["experience"]["chart"].get(band)
    if not row:
        return []
    record = state["factions"][faction]
    order = list(policy(rules, state, faction, "level_up") or [])
    preferred = list(policy(rules, state, faction, "skill_xp") or [])
    scholar = scholar_assists(rules, group)
    gains = []
    for kind, entity in [*((LEADER, x) for x in group.leaders), *((UNIT, x) for x in group.units)]:
        gain = Gain(str(entity["id"]), str(entity["name"]))
        if kind == UNIT and int(row["amount"]):
            gain.level_xp = int(row["amount"])
            gain.levels = add_level_xp(rules, record, entity, gain.level_xp, order)
        amount = int(row[column(rules, kind, entity, scholar)])
        skill = skill_for(rules, kind, entity, action, resource, preferred) if amount else None
        if skill:
            gain.skill, gain.skill_xp = skill, amount
            gain.ranks = add_skill_xp(rules, record, entity, skill, amount)
        if gain.anything:
            gains.append(gain)
    return gains


def combat_xp(
    rules: Mapping[str, Any],
    state: State,
    faction: str,
    survivors: Iterable[str],
    own_level: float,
    enemy_level: float,
) -> list[Gain]:
    """The combat fill (``combat.xp``): levelling experience to each unit that survived on the winning
    side, one more when the foe's average level was the gap or more above its own."""
    spec = rules["combat"]["xp"]
    each = int(spec["per_surviving_unit"])
    if enemy_level - own_level >= int(spec["level_gap"]):
        each += int(spec["level_gap_bonus"])
    record = state["factions"][faction]
    order = list(policy(rules, state, faction, "level_up") or [])
    gains = []
    for unit_id in survivors:
        unit = record["units"][unit_id]
        gains.append(
            Gain(unit_id, str(unit["name"]), each, levels=add_level_xp(rules, record, unit, each, order))
        )
    return gains


def settle_all(rules: Mapping[str, Any], state: State, faction: str) -> list[Gain]:
    """Levels for experience that came without them (a fight's, a GM's grant): every unit of the usurper
    whose experience reaches its next level rises now."""
    record = state["factions"][faction]
    order = list(policy(rules, state, faction, "level_up") or [])
    gains = []
    for unit_id, unit in sorted((record.get("units") or {}).items()):
        raised = settle_levels(rules, record, unit, order)
        if raised:
            gains.append(Gain(unit_id, str(unit["name"]), levels=raised))
    return gains


# --- Train and Learn ------------------------------------------------------------------------------------


def teaching_problem(
    rules: Mapping[str, Any], trainer: Mapping[str, Any], skill: str, kind: str, learner: Mapping[str, Any]
) -> str | None:
    """Why this learner can gain nothing from this trainer this week, in words; None when it can."""
    spec = rules["skills"].get(skill)
    name = str(learner["name"])
    if spec is None:
        return f"there is no skill '{skill}'"
    skill_name = str(spec["name"])
    if rank(trainer, skill) < int(rules["experience"]["training"]["leader_min_rank"]):
        return f"{trainer['name']} has no rank in {skill_name} to teach"
    if spec.get("leader_only") and kind != LEADER:
        return f"only leaders learn {skill_name}"
    if spec.get("unit_only") and kind != UNIT:
        return f"only units learn {skill_name}"
    needs = spec.get("requires")
    if needs and rank(learner, str(needs["skill"])) < int(needs["rank"]):
        prior = rules["skills"][needs["skill"]]["name"]
        return f"{name} needs {prior} {needs['rank']} before {skill_name}"
    if rank(learner, skill) >= rank(trainer, skill):
        return f"{name} already knows {skill_name} as well as {trainer['name']} ({rank(trainer, skill)})"
    if rank(learner, skill) >= int(spec["max"]):
        return f"{name} has the highest rank of {skill_name}"
    return None


def teach(
    rules: Mapping[str, Any], state: State, faction: str, trainer_id: str, skill: str, learners: Iterable[str]
) -> list[Gain]:
    """A leader's week of training: each learner in the lair gains the leader's rate of skill experience,
    up to the leader's own rank (a learner who reaches it this week keeps no experience beyond)."""
    record = state["factions"][faction]
    trainer = record["leaders"][trainer_id]
    amount = int(rules["experience"]["training"]["leader_xp"])
    gains = []
    for learner_id in learners:
        kind = LEADER if learner_id in record["leaders"] else UNIT
        learner = record["leaders" if kind == LEADER else "units"][learner_id]
        if teaching_problem(rules, trainer, skill, kind, learner):
            continue
        ranks = add_skill_xp(rules, record, learner, skill, amount)
        held = learner["skills"][skill]
        if held["rank"] >= rank(trainer, skill):
            held["xp"] = 0  # no further than the teacher
        gains.append(Gain(learner_id, str(learner["name"]), skill=skill, skill_xp=amount, ranks=ranks))
    return gains
