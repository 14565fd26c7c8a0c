"""Scouting and harvesting as the week carries them out: the action roll (``rolls``), then what the
band finds or yields (``scouting``, ``harvest``), told to the usurper alone; a scout that fails may walk
into an ambush, fought at once (``combat``)."""

from __future__ import annotations

from typing import Any

from ...core.dice import Modifier
from ...core.phases import State
from ...engine.plans import Reading, Reject
from . import combat, harvest, lairs, rolls, scouting
from . import model as m
from .acting import Context, Plan, told


def _party(plan: Plan) -> scouting.Party:
    return scouting.Party(
        plan.faction,
        tuple(unit["id"] for unit in plan.units),
        tuple(leader["id"] for leader in plan.leaders),
    )


def _ground(ctx: Context, state: State, grid: str) -> scouting.Ground:
    place = ctx.game.world[grid]
    landmarks = state.get("landmarks") or {}
    return scouting.Ground(grid, place.terrain, holds_place=bool(place.place) or grid in landmarks)


def _watchtower(ctx: Context, state: State, plan: Plan) -> list[Modifier]:
    """The Watchtower and its Enhanced Vision in the lair the initiator set out from: the room helps the
    scouts who leave from it (spec §2.3), not the grid they search."""
    record = m.usurper(state, plan.faction)
    initiator = record.get("units", {}).get(plan.initiator) or record.get("leaders", {}).get(plan.initiator)
    lair = record.get("lairs", {}).get((initiator or {}).get("lair"))
    bonus = lairs.lair_bonus(ctx.rules, lair, "scout") if lair else 0
    return [Modifier("Watchtower", bonus)] if bonus else []


def scout(ctx: Context, state: State, plan: Plan) -> None:
    rolled = rolls.action_roll(
        ctx,
        state,
        plan.faction,
        action="scout",
        by=plan.initiator,
        assist=plan.assistants,
        grid=plan.target,
        modifiers=_watchtower(ctx, state, plan),
        order=plan.order,
    )
    outcome = scouting.scout(
        ctx, state, _party(plan), _ground(ctx, state, plan.target), rolled.band, rolled.total
    )
    ctx.emit(
        "scouted",
        actors=[plan.faction],
        visible_to=told(ctx, plan.faction),
        place=plan.target,
        rolls=[rolled.roll, *outcome.rolls],
        scouts=[m.name_of(state, plan.faction, entity) for entity in plan.participants],
        band=rolled.band,
        band_name=rolls.band_name(ctx.rules, rolled.band),
        total=rolled.total,
        raised=rolled.raised,
        found=outcome.kind,
        finding=_finding_words(ctx, outcome),
        sensed=[_sensed_words(report) for report in outcome.sensed],
        ambushed=bool(outcome.ambush),
    )
    if outcome.ambush:
        combat.fight_ambush(ctx, state, plan, outcome.ambush["enemies"])


def _finding_words(ctx: Context, outcome: scouting.Outcome) -> str:
    """What was found, in words for the usurper's report."""
    found = outcome.found
    if outcome.kind == "settlement":
        races = " and ".join(ctx.rules["races"][race]["name"] for race in found.get("races", []))
        return f"a {found['size'].replace('_', ' ')} of {races}" if races else f"a {found['size']}"
    if outcome.kind == "node":
        uses = int(found.get("uses", 0))
        return f"a {found['size']} {found['resource']} node ({uses} use{'s' if uses != 1 else ''})"
    if outcome.kind == "cache":
        return f"a cache of {found.get('gold', 0)} gold and {found.get('foodstuffs', 0)} foodstuffs"
    if outcome.kind == "encounter":
        return f"an encounter of {len(found.get('units', []))} units"
    if outcome.kind == "information":
        return "news of the land"
    return ""


def _sensed_words(report: dict[str, Any]) -> str:
    """A lair sensed, as the scouting usurper may know it: never whose it is, or where exactly."""
    where = f" to the {report['direction']}" if report.get("direction") else ""
    if report.get("here"):
        return "another usurper's lair on this very grid"
    close = ", close at hand" if report.get("close") else ""
    return f"another usurper's lair within {report['range']} grids{where}{close}"


def require_harvest(reading: Reading, plan: Plan) -> None:
    """A harvest needs a node the usurper knows in the target grid."""
    nodes = m.known(reading.state, reading.faction)["nodes"]
    if plan.target not in nodes:
        known_grids = ", ".join(sorted(nodes)) or "none yet: scout first"
        raise Reject(
            "target",
            f"you know no resource node at {plan.target}",
            f"harvest where you have found a node: {known_grids}",
            failure=f"the node at {plan.target} is gone",
        )


def harvest_week(ctx: Context, state: State, plan: Plan) -> None:
    node = m.known(state, plan.faction)["nodes"][plan.target]
    record = m.usurper(state, plan.faction)
    rolled = rolls.action_roll(
        ctx,
        state,
        plan.faction,
        action="harvest",
        by=plan.initiator,
        assist=plan.assistants,
        grid=plan.target,
        resource=node["resource"],
        modifiers=harvest.roll_modifiers(record, node, ctx.turn),
        order=plan.order,
    )
    done = harvest.harvest(ctx, state, _party(plan), plan.target, rolled.band)
    ctx.emit(
        "harvested",
        actors=[plan.faction],
        visible_to=told(ctx, plan.faction),
        place=plan.target,
        rolls=[rolled.roll, *done.pop("rolls", [])],
        workers=[m.name_of(state, plan.faction, entity) for entity in plan.participants],
        band=rolled.band,
        band_name=rolls.band_name(ctx.rules, rolled.band),
        total=rolled.total,
        raised=rolled.raised,
        resource=done["resource"],
        amount=done["amount"],
        uses_left=done["uses_left"],
        exhausted=done["exhausted"],
    )
