"""Train and Learn (spec §4.12), and the week's end for what the rolls leave behind.

A leader's ``train`` order names the skill; each learner's ``learn`` order names the leader (``from``).
No dice: each learner in the trainer's lair gains the rules' rate of skill experience, never beyond the
trainer's own rank. The checker reads both orders with the same requirements the week carries out.
"""

from __future__ import annotations

from typing import Any

from ...core.phases import State
from ...engine.plans import Reading, Reject
from . import experience, rolls
from . import model as m
from .acting import Context, Plan, told


def _skill_words(reading: Reading) -> str:
    return ", ".join(sorted(reading.rules["skills"]))


def require_train(reading: Reading, plan: Plan) -> None:
    """A trainer teaches a skill it has, at home in its lair."""
    skill = str(plan.order.get("skill") or "").strip()
    skills = reading.rules["skills"]
    if skill not in skills:
        raise Reject("skill", f"there is no skill '{skill}'", f"name one of: {_skill_words(reading)}")
    trainer = plan.leaders[0]
    least = int(reading.rules["experience"]["training"]["leader_min_rank"])
    if experience.rank(trainer, skill) < least:
        raise Reject(
            "skill",
            f"{trainer['name']} has no rank in {skills[skill]['name']} to teach",
            "teach a skill the leader has, or let it learn this one first",
        )
    if not plan.at_home:
        where = plan.lair["grid"] if plan.lair else "its lair"
        raise Reject("target", f"{trainer['name']} trains in its own lair", f"write target: {where}")
    plan.details["skill"] = skill


def _train_order(reading: Reading, trainer: str) -> Any:
    """The trainer's ``train`` order in the file being checked (None while the week is resolved)."""
    if reading.checked is None:
        return None
    for order in reading.checked.orders:
        if order.action == "train" and str(order.get("by") or "").strip() in (
            trainer,
            m.name_of(reading.state, reading.faction, trainer),
        ):
            return order
    return None


def require_learn(reading: Reading, plan: Plan) -> None:
    """A learner names a leader of its usurper, learns in its own lair, and can gain from the skill taught
    (the same reasons the week applies)."""
    word = plan.order.get("from")
    trainer = reading.entity_id(word, "from") if word else ""
    if m.kind_of(reading.state, reading.faction, trainer) != m.LEADER:
        raise Reject("from", "only a leader trains others", "name one of your leaders in 'from'")
    if plan.assistants:
        raise Reject("assist", "each learner writes its own learn order", "give each learner a learn order")
    if not plan.at_home:
        where = plan.lair["grid"] if plan.lair else "its lair"
        raise Reject("target", "a learner learns in its own lair", f"write target: {where}")
    plan.details["from"] = trainer
    order = _train_order(reading, trainer)
    if reading.checking and order is None:
        name = m.name_of(reading.state, reading.faction, trainer)
        reading.warn("from", f"{name} has no train order in this file", f"give {name} a train order")
        return
    if order is None:
        return
    leader = m.leaders(reading.state, reading.faction)[trainer]
    trainer_lair = m.home_lair(reading.state, reading.faction, leader)
    if trainer_lair is not None and plan.lair is not None and trainer_lair["id"] != plan.lair["id"]:
        raise Reject("from", f"{leader['name']} trains in another lair", "learn from a leader of your lair")
    skill = str(order.get("skill") or "")
    if skill in reading.rules["skills"]:
        kind = plan.initiator_kind()
        learner = (plan.leaders or plan.units)[0]
        problem = experience.teaching_problem(reading.rules, leader, skill, kind, learner)
        if problem:
            reading.warn("from", problem, "learn another skill, or from another leader")


def train(ctx: Context, state: State, plan: Plan) -> None:
    """The trainer's week: every learner of its usurper who named it, in its lair, gains the rate."""
    faction = plan.faction
    learners = [
        other.initiator
        for other in ctx.memory.plans.get(faction, [])
        if other.action == "learn" and other.details.get("from") == plan.initiator and other.lair is not None
        and plan.lair is not None and other.lair["id"] == plan.lair["id"]
    ]  # fmt: skip
    skill = plan.details["skill"]
    gains = experience.teach(ctx.rules, state, faction, plan.initiator, skill, learners)
    taught = {gain.entity for gain in gains}
    ctx.emit(
        "training",
        actors=[faction],
        visible_to=told(ctx, faction),
        place=plan.target,
        trainer=m.name_of(state, faction, plan.initiator),
        skill=str(ctx.rules["skills"][skill]["name"]),
        learned=[{"name": gain.name, "xp": gain.skill_xp, "ranks": gain.ranks} for gain in gains],
        idle=[m.name_of(state, faction, learner) for learner in learners if learner not in taught],
    )


def learn(ctx: Context, state: State, plan: Plan) -> None:
    """A learner whose trainer has no train order this week learns nothing: the usurper is told."""
    trainer = plan.details.get("from")
    if not any(
        other.action == "train" and other.initiator == trainer
        for other in ctx.memory.plans.get(plan.faction, [])
    ):
        name = m.name_of(state, plan.faction, str(trainer))
        ctx.order_failed(plan.faction, plan.order, f"{name} trained nobody this week")


def week_end(ctx: Context, state: State) -> None:
    """Experience that came without its levels (a fight's) turns into levels; Partial Failure memories
    whose three weeks are over are forgotten."""
    for faction in m.usurpers(state):
        gains = experience.settle_all(ctx.rules, state, faction)
        if gains:
            rolls.tell_experience(ctx, faction, None, "levels", gains)
        rolls.forget_partial_failures(state["factions"][faction], ctx.turn)
