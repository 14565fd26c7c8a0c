"""Explore: a leader looks for an opportunity, or starts an Exploration Quest (spec §4.11, §9.3).

The roll is the common action roll (Leader Presence, Bard ranks) plus each completed Exploration Quest's
bonus. Looking for an opportunity, the band's weights in ``rules/explore.yaml`` draw its kind with one
labelled die; the opportunity is recorded in ``known.opportunities`` and told to the usurper alone, and
the GM gives it its content with the ``opportunity`` order. Starting a quest records it in
``known.quests`` with the band it was started at, and the GM writes its steps (the ``quest`` order).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.checks import Modifier
from ...core.dice import roll_label
from ...core.factions import next_id
from ...core.phases import State
from . import model as m
from . import rolls
from .acting import Context, Plan, told

Rules = Mapping[str, Any]


def explore_modifiers(rules: Rules, faction: Mapping[str, Any]) -> list[Modifier]:
    """+2 (the rules data's) for each Exploration Quest the usurper completed."""
    done = int(faction.get("exploration_quests", 0) or 0)
    return [Modifier("Exploration quests", done * int(rules["exploration"]["quest_bonus"]))] if done else []


def weights(rules: Rules, band: str) -> list[tuple[str, int]]:
    """The kinds an Explore of this band may find, with their weights, in the rules data's order."""
    table = rules["exploration"]["opportunities"]["by_band"].get(band) or {}
    return [(str(kind), int(weight)) for kind, weight in table.items() if int(weight) > 0]


def pick(choices: list[tuple[str, int]], face: int) -> str:
    """The kind a die of ``sum(weights)`` faces chose: each kind owns as many faces as its weight."""
    for kind, weight in choices:
        if face <= weight:
            return kind
        face -= weight
    raise ValueError(f"face {face} is beyond the weights {choices}")


def kind_name(rules: Rules, kind: str) -> str:
    return str(rules["exploration"]["opportunities"]["kinds"][kind]["name"])


def _new_key(state: State, faction: str, kind: str, taken: Mapping[str, Any]) -> str:
    return next_id(state, faction, kind, lambda candidate: candidate in taken)


def explore(ctx: Context, state: State, plan: Plan) -> None:
    faction, rules = plan.faction, ctx.rules
    record = m.usurper(state, faction)
    rolled = rolls.action_roll(
        ctx,
        state,
        faction,
        action="explore",
        by=plan.initiator,
        assist=plan.assistants,
        grid=plan.target,
        modifiers=explore_modifiers(rules, record),
        order=plan.order,
    )
    known = m.known(state, faction)
    band_words = rolls.band_name(rules, rolled.band)
    made = [rolled.roll]
    if plan.order.get("initiate"):
        quests = known.setdefault("quests", {})
        key = _new_key(state, faction, "q", quests)
        quests[key] = {
            "kind": "exploration",
            "grid": plan.target,
            "band": rolled.band,
            "started": ctx.turn,
            "status": "open",
            "steps": [],
            "title": "",
        }
        ctx.emit(
            "quest_begun",
            actors=[faction],
            visible_to=told(ctx, faction),
            place=plan.target,
            rolls=made,
            quest=key,
            band=band_words,
        )
        return
    choices = weights(rules, rolled.band)
    if not choices:
        ctx.emit(
            "opportunity",
            actors=[faction],
            visible_to=told(ctx, faction),
            place=plan.target,
            rolls=made,
            found="",
            band=band_words,
            opportunity="",
        )
        return
    die = ctx.roll(
        roll_label(faction, plan.initiator, "explore", plan.target, "opportunity"),
        f"1d{sum(weight for _, weight in choices)}",
        factions=[faction],
        decided="the kind of opportunity",
    )
    made.append(die)
    kind = pick(choices, die.total)
    found = known.setdefault("opportunities", {})
    key = _new_key(state, faction, "o", found)
    found[key] = {
        "kind": kind,
        "grid": plan.target,
        "band": rolled.band,
        "turn": ctx.turn,
        "status": "open",
        "offer": "",
        "price": 0,
    }
    ctx.emit(
        "opportunity",
        actors=[faction],
        visible_to=told(ctx, faction),
        place=plan.target,
        rolls=made,
        found=kind_name(rules, kind),
        band=band_words,
        opportunity=key,
    )
