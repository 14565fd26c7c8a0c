"""The clockwork ruleset's procedures: each says what it saw, so the tests can tell when it ran."""

from __future__ import annotations

from typing import Any

from resolver.core import relations
from resolver.core.dice import roll_label
from resolver.core.phases import State

BLESSING = "blessing"


def muster(ctx: Any, state: State) -> State:
    ctx.emit("mustered", actors=sorted(state["factions"]))
    return state


def dawn(ctx: Any, state: State, until_tick: int = 2) -> State:
    """The first day's blessing on every faction, lasting to the close of day ``until_tick``."""
    for faction in sorted(state["factions"]):
        relations.add_effect(state, "factions", faction, BLESSING, 1, ctx.turn, 1, until_tick=until_tick)
    ctx.emit("dawn", actors=sorted(state["factions"]))
    return state


def patrol(ctx: Any, state: State) -> State:
    for faction in sorted(state["factions"]):
        blessed = BLESSING in state["factions"][faction].get("modifiers", {})
        roll = ctx.roll(roll_label("patrol", faction), "1d6", factions=[faction])
        ctx.emit("patrol", actors=[faction], rolls=[roll], blessed=blessed, day=ctx.tick)
    return state


def tally(ctx: Any, state: State) -> State:
    ctx.emit("tallied", day=ctx.tick)
    return state


PHASES = {"muster": muster, "dawn": dawn, "patrol": patrol, "tally": tally}
