"""USE of the taxing skill (spec §4's skill table, §5.7, §6.3): a tax collector takes coins out of its
place's tax pool into its own hands, a day at a time (house rule ``skills.taxe.use``).

- How much: the skill's ``use:`` block, ``coin`` coins for every ``man_days`` of work, a day's work being
  the unit's working figures times its level (``labour.base_work``), as for every other use.
- Where: only in a place a land title covers, its most local owner (the one paid at the month's end) being
  the taxer's own faction or one that lets it tax (the ``tax`` gate of the stances, an ally); every guard
  of the place must agree too, and nobody collects in a place another faction occupies.
- From what: the place's monthly pool (``places.<id>.taxes``); what the collectors take this month is
  missing from what the owner's fund receives at the month's end.
- When: the day's claims are settled at the day's end, after the day's pillagers have had theirs (the
  manual puts pillagers first); several collectors share a short pool in proportion to their claims.

A line that cannot collect today waits (SKIPPED) and its faction hears why, once a month for each unit and
reason, so that no accepted USE waits without a word.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...core.programs import Line, Result
from . import digests, gates, guards, labour, stances, taxes, titles
from . import model as m

Outcome = tuple[Result, Line | None]

KIND = "tax"  # the `use:` kind of the skills chapter this module carries out


def _names(state: Mapping[str, Any], factions: list[str]) -> list[str]:
    return [str((state["factions"].get(f) or {}).get("name") or f) for f in factions]


def refusal(month: Any, unit_id: str) -> tuple[str, dict[str, Any]] | None:
    """Why the unit may not collect taxes where it stands today, as (reason, the names it needs), or None
    when it may. Reasons: ``untitled`` (no land title covers the place), ``refused`` (an owner or guard
    does not let its faction tax), ``occupied`` (another faction holds the place), ``empty`` (the pool is
    spent this month)."""
    state, rules = month.state, month.rules
    unit = state["units"][unit_id]
    location, faction = str(unit["location"]), str(unit["owner"])
    owners = titles.land_owners(state, rules, gates.reach(month), location)
    if not owners:
        return "untitled", {}
    # The pool is the most local owner's (it is the one paid at the month's end, taxes.collect_taxes):
    # that owner must let the faction tax, and so must every guard of the place; a wider title over it
    # (the Overlord's, say) has no say over a pool it does not collect.
    owner = owners[0][0]
    guarding = {str(state["units"][uid]["owner"]) for uid in guards.guards_at(state, rules, location)}
    refusers = [
        decider
        for decider in sorted(guarding | {owner})
        if not stances.may(state, rules, faction, decider, "tax")
    ]
    if refusers:
        return "refused", {"refusers": _names(state, refusers)}
    held_by = taxes.occupiers(state, rules, location, owner)
    if held_by:
        return "occupied", {"occupiers": _names(state, held_by)}
    if int(m.place(state, location).get("taxes", 0) or 0) <= 0:
        return "empty", {}
    return None


def _explain(month: Any, unit_id: str, tag: str, why: str, names: Mapping[str, Any]) -> None:
    """The faction hears once a month, for each unit and reason, why its collector waits."""
    told = vars(month.ctx.memory).setdefault("taxing_told", set())
    if (unit_id, why) in told:
        return
    told.add((unit_id, why))
    month.tell("taxing_waits", unit_id, why=why, skill=_skill_name(month.rules, tag), **names)


def _skill_name(rules: Mapping[str, Any], tag: str) -> str:
    return str((rules["skills"].get(tag) or {}).get("name", tag))


def _stop(month: Any, line: Line) -> int | None:
    """USE taxe [coins]: how many coins are still to collect before the line is done, or None."""
    count = month.read(line).args["count"]
    return None if count is None else int(count)


def execute(month: Any, unit_id: str, tag: str, line: Line) -> Outcome:
    """A day of taxing: a claim on the place's pool, settled at the day's end (``taxing_day``)."""
    rules, state = month.rules, month.state
    unit = state["units"][unit_id]
    why = refusal(month, unit_id)
    if why is not None:
        _explain(month, unit_id, tag, *why)
        return Result.SKIPPED, None
    use = labour.use_of(rules, tag)
    wanted = labour.base_work(rules, unit, tag) * float(use["coin"]) / float(use["man_days"])
    limit = _stop(month, line)
    if limit is not None:
        wanted = min(wanted, float(limit))
    if math.floor(wanted + labour.EPSILON) <= 0:
        return Result.SKIPPED, None  # a guard of one figure works with none
    claims = labour.day_memory(month).setdefault("taxing", {}).setdefault(str(unit["location"]), {})
    claims[unit_id] = {"skill": tag, "coins": wanted, "limit": limit}
    labour.use_experience(rules, unit, tag)
    return (Result.CONTINUES if limit is not None else Result.RAN), None


def taxing_day(month: Any) -> None:
    """The day's end: each place's claims paid out of its pool (what pillagers left), in proportion when
    the pool is short; a line with a coins stop counts down by what it received."""
    state, rules = month.state, month.rules
    for location, claims in sorted(labour.day_memory(month).pop("taxing", {}).items()):
        place = m.place(state, location)
        pool = int(place.get("taxes", 0) or 0)
        order = sorted(
            (uid for uid in claims if uid in state["units"]),
            key=lambda uid: (int(state["units"][uid].get("arrival", 0)), uid),
        )
        granted = labour.share(pool, {uid: claims[uid]["coins"] for uid in order}, order)
        place["taxes"] = pool - sum(granted.values())
        for unit_id in order:
            got, claim = granted[unit_id], claims[unit_id]
            if not got:
                continue
            items = state["units"][unit_id].setdefault("items", {})
            items["coin"] = int(items.get("coin", 0)) + got
            # One event a month for each collector and place, summing the coins (digests.py).
            told, _ = digests.monthly(month, "taxed", unit_id, location)
            told["coins"] = int(told.get("coins", 0)) + got
            told.setdefault("skill", _skill_name(rules, claim["skill"]))
            if claim["limit"] is not None:
                labour.count_down(month, unit_id, claim["skill"], got)
