"""Who must agree before a unit trades, recruits, harvests or picks goods off the ground in a place.

The titles chapter's house rule (``stances.gates.trade``): a faction's policy binds every place one of its
land titles covers and every place where one of its units guards today. Each such faction must hold the
actor's faction at least at the action's gate (``stances.gates``); a place nobody owns or guards lets
anybody act. The chapters ask :func:`allows` instead of reading stances themselves.
"""

from __future__ import annotations

from typing import Any

from . import guards, stances, titles


def reach(month: Any) -> titles.Reach:
    """One Reach per turn: ranges do not change within a month, and every day asks them again."""
    memory = month.ctx.memory
    found = getattr(memory, "reach", None)
    if found is None:
        found = titles.Reach(month.ctx.game.world)
        memory.reach = found
    return found


def deciders(month: Any, location: str) -> list[str]:
    """The factions whose word counts at ``location``: its land owners and today's guards, sorted."""
    state, rules = month.state, month.rules
    owners = {faction for faction, _, _ in titles.land_owners(state, rules, reach(month), location)}
    guarding = {str(state["units"][uid]["owner"]) for uid in guards.guards_at(state, rules, location)}
    return sorted(owners | guarding)


def allows(month: Any, faction: str, location: str, what: str) -> bool:
    """Whether every owner and guard of the place lets ``faction`` do ``what`` (a gate of the stances)."""
    return all(
        stances.may(month.state, month.rules, faction, decider, what) for decider in deciders(month, location)
    )


def refusers(month: Any, faction: str, location: str, what: str) -> list[str]:
    """The owners and guards of the place that forbid it, for a sentence naming who said no."""
    return [
        decider
        for decider in deciders(month, location)
        if not stances.may(month.state, month.rules, faction, decider, what)
    ]
