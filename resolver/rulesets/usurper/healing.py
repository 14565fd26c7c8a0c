"""Rest and healing (spec §5.8, §9.10): a hurt leader heals by staying in its lair two weeks doing nothing
at all; meanwhile it gives no bonus, global or local, and takes no other action (the reading refuses it)."""

from __future__ import annotations

from ...core.phases import State
from ...engine.plans import Reading, Reject
from . import model as m
from .acting import Context, Plan, told


def require_rest(reading: Reading, plan: Plan) -> None:
    """Resting is done at home: the target, if written, is the lair the entity starts from."""
    if plan.lair is not None and plan.target != plan.lair["grid"]:
        raise Reject(
            "target",
            f"resting is done in one's own lair, at {plan.lair['grid']}, not at {plan.target}",
            "leave 'target' out",
        )


def rest(ctx: Context, state: State, plan: Plan) -> None:
    """A hurt leader that rests begins to heal; one already healing goes on; the others just rest."""
    weeks = int(ctx.rules["leader_healing"]["weeks"])
    full = int(ctx.rules["start"]["leader_hp"])
    for leader in plan.leaders:
        if int(leader.get("healing", 0)) > 0 or int(leader["hp"]) >= full:
            continue
        leader["healing"] = weeks
        ctx.emit(
            "healing_begins",
            actors=[plan.faction],
            visible_to=told(ctx, plan.faction),
            place=plan.target,
            leader=leader["name"],
            weeks=weeks,
        )


def week_end(ctx: Context, state: State) -> None:
    """Each healing leader's week of rest counts down; at the last it is whole again."""
    full = int(ctx.rules["start"]["leader_hp"])
    for faction in m.usurpers(state):
        for leader in m.leaders(state, faction).values():
            if int(leader.get("healing", 0)) <= 0:
                continue
            leader["healing"] = int(leader["healing"]) - 1
            if leader["healing"] == 0:
                leader["hp"] = full
                ctx.emit("healed", actors=[faction], visible_to=told(ctx, faction), leader=leader["name"])
