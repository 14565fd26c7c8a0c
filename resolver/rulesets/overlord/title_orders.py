"""The executors of the titles chapter's orders: STANCE, CLAIM, BESTOW, YIELD, CANCEL, GUARD/PATROL,
PILLAGE, ATTACK and OATH, and the month's steps it owns (press rewards and idle units before day 1, the
control check on day 1, titles lost out of range and guards' clashes each day, taxes at month end).

Each executor reads one line for one unit and answers with a ``Result``: SKIPPED keeps a line whose
requirements are unmet today (the manual's skip-but-keep), INVALID drops one that can never run.
"""

from __future__ import annotations

from typing import Any

from ...core.programs import Line, Result
from . import control, departures, gates, guards, press, stances, structures, taxes, titles
from .month import Month

Outcome = tuple[Result, "Line | None"]
KEPT: Outcome = (Result.SKIPPED, None)
RAN: Outcome = (Result.RAN, None)
DONE: Outcome = (Result.FINISHED, None)
NEVER: Outcome = (Result.INVALID, None)


def reach(month: Month) -> titles.Reach:
    """One Reach per turn (gates.py keeps it in the turn memory)."""
    return gates.reach(month)


def _title_words(month: Month, tag: str, location: str) -> dict[str, str]:
    world = month.ctx.game.world
    where = world[location].label if location in world else location
    return {"title": titles.title_name(month.rules, tag), "tag": tag, "location": location, "where": where}


# In a sealed campaign a public deed names the faction, never its unit (the sealed attack suite: titles are
# public, the unit holding one is not); these words stand for the units it would name.
SEALED_DOER = "a leader"
SEALED_FORMER = "its former holder"


def announce(month: Month, kind: str, unit_id: str, **data: Any) -> None:
    """A public deed (titles are public: a holder's faction is always shown), naming the unit; in a
    sealed campaign the unit and any other unit it names are left out, only the faction is shown."""
    unit = month.state["units"][unit_id]
    named: dict[str, Any] = {"unit": unit_id, "unit_name": unit.get("name", unit_id)}
    if getattr(month.ctx, "sealed", False):
        named = {"unit": None, "unit_name": SEALED_DOER}
        data = {key: value for key, value in data.items() if key not in ("former", "former_name")}
        if kind == "title_won":
            data["former_name"] = SEALED_FORMER
    month.ctx.emit(kind, actors=[unit["owner"]], place=unit.get("location"), **named, **data)


def stance(month: Month, unit_id: str, line: Line) -> Outcome:
    """STANCE faction stance: the unit's faction's stance toward another; its own id sets the default."""
    args, rules = month.read(line).args, month.rules
    faction, word = args["faction"], args["stance"]
    if faction not in month.state["factions"]:
        return NEVER
    owner = month.owner(unit_id)
    stances.set_stance(month.state, rules, owner, faction, word)
    month.tell(
        "stance_changed",
        unit_id,
        toward=None if faction == owner else faction,
        toward_name=month.state["factions"][faction].get("name", faction),
        stance=stances.stance_name(rules, word),
    )
    return DONE


def claim(month: Month, unit_id: str, line: Line) -> Outcome:
    """CLAIM tag location [FREE]: a full day spent claiming or challenging (see ``titles.claim``)."""
    args = month.read(line).args
    tag, location, free = args["title"], args["location"], args["free"] == "FREE"
    held = titles.title_at(month.state, location)
    if held is None or held.get("tag") != tag:
        return NEVER
    outcome = titles.claim(month.state, month.rules, unit_id, tag, location, free)
    if not outcome.done:
        return KEPT
    words = _title_words(month, tag, location)
    if outcome.holder is None:
        announce(month, "title_claimed", unit_id, paid=outcome.paid, **words)
        return DONE
    holder = month.state["units"][outcome.holder]
    month.tell(
        "title_challenged",
        outcome.holder,
        percent=outcome.percent,
        won=outcome.won,
        challenger=unit_id,
        challenger_name=month.state["units"][unit_id].get("name", unit_id),
        share=outcome.holder_share,
        **words,
    )
    if outcome.won:
        announce(
            month,
            "title_won",
            unit_id,
            paid=outcome.paid,
            former=outcome.holder,
            former_name=holder.get("name", outcome.holder),
            **words,
        )
        return DONE
    month.tell("title_challenge_failed", unit_id, paid=outcome.paid, **words)
    return RAN


def bestow(month: Month, unit_id: str, line: Line) -> Outcome:
    target = month.read(line).args["unit"]
    outcome = titles.bestow(month.state, month.rules, unit_id, target)
    if not outcome.done:
        return KEPT
    announce(
        month,
        "title_bestowed",
        unit_id,
        receiver=target,
        receiver_name=month.state["units"][target].get("name", target),
        **_title_words(month, outcome.data["tag"], outcome.data["location"]),
    )
    return DONE


def yield_title(month: Month, unit_id: str, line: Line) -> Outcome:
    """YIELD: the holder gives its title up. A word after YIELD is read and ignored, as the checker says
    (house rule language.ignored_argument): a unit holds one title, so there is nothing to choose."""
    outcome = titles.yield_title(month.state, month.rules, unit_id)
    if not outcome.done:
        return KEPT
    announce(
        month, "title_yielded", unit_id, **_title_words(month, outcome.data["tag"], outcome.data["location"])
    )
    return DONE


def cancel(month: Month, unit_id: str, line: Line) -> Outcome:
    args = month.read(line).args
    tag, location = args["title"], args["location"]
    outcome = titles.cancel(month.state, month.rules, reach(month), unit_id, tag, location)
    if not outcome.done:
        return KEPT
    if outcome.holder:
        announce(
            month,
            "title_cancelled",
            unit_id,
            holder=outcome.holder,
            holder_name=month.state["units"][outcome.holder].get("name", outcome.holder),
            **_title_words(month, tag, location),
        )
    return DONE


def guard(month: Month, unit_id: str, line: Line) -> Outcome:
    """GUARD / PATROL: a day of guarding where the unit stands, if it may."""
    unit = month.state["units"][unit_id]
    if guards.can_guard(month.state, month.rules, reach(month), unit) is not None:
        return KEPT
    guards.guard(month.state, month.rules, unit_id)
    return RAN


def pillage(month: Month, unit_id: str, line: Line) -> Outcome:
    """PILLAGE: a day's plunder of the tax pool, or a battle with the guards who will not allow it."""
    done = taxes.pillage(month.state, month.rules, reach(month), unit_id)
    for defender in done.defenders:
        guards.start_battle(month, defender, unit_id, "pillage")
    if done.defenders:
        return RAN
    if not done.done:
        return KEPT
    announce(month, "pillaged", unit_id, taken=done.taken)
    return RAN


def attack(month: Month, unit_id: str, line: Line) -> Outcome:
    """ATTACK unit | faction | structure: once such a target stands here, a battle is queued for today."""
    args = month.read(line).args
    state, unit = month.state, month.state["units"][unit_id]
    wanted, kind = args["target"], args["target_kind"]
    here = [
        uid
        for uid, u in sorted(state["units"].items())
        if uid != unit_id and u.get("location") == unit.get("location") and not u.get("moving")
    ]
    target = None
    if kind == "unit" and wanted in state["units"]:
        target = wanted if wanted in here else None
    elif kind == "faction" and wanted in state["factions"]:
        target = next((uid for uid in here if state["units"][uid]["owner"] == wanted), None)
    elif kind == "structure" and wanted in (state.get("structures") or {}):
        if structures.owner_of(state, wanted) == unit["owner"]:
            return NEVER
        inside = [uid for uid in here if state["units"][uid].get("structure") == wanted]
        target = inside[0] if inside else None
    else:
        return NEVER
    if target is None or state["units"][target]["owner"] == unit["owner"]:
        return KEPT
    guards.start_battle(month, unit_id, target, "attack")
    return DONE


def oath(month: Month, unit_id: str, line: Line) -> Outcome:
    """OATH unit: on meeting that unit, this one swears to its faction; the change comes at month end."""
    target = month.state["units"].get(month.read(line).args["unit"])
    unit = month.state["units"][unit_id]
    if target is None or target.get("location") != unit.get("location") or target.get("moving"):
        return KEPT
    if target["owner"] == unit["owner"]:
        return DONE
    unit["oath"] = target["owner"]
    month.tell(
        "oath_sworn",
        unit_id,
        to=[unit["owner"], target["owner"]],
        faction=target["owner"],
        faction_name=month.state["factions"][target["owner"]].get("name", target["owner"]),
    )
    return DONE


def apply_oaths(ctx: Any, state: dict[str, Any]) -> None:
    """Month end, with the other loyalty changes: sworn units go over to their new faction."""
    for unit_id, unit in sorted(state["units"].items()):
        faction = unit.pop("oath", None)
        if faction and faction in state["factions"]:
            old = unit["owner"]
            departures.record(ctx, state, unit_id, departures.SWORN, heir=faction)
            unit["owner"] = faction
            if unit.get("title"):
                titles.vacate(state, ctx.rules, unit["title"]["location"])
            ctx.emit(
                "loyalty_changed",
                actors=[old, faction],
                place=unit.get("location"),
                visible_to=[old, faction],
                unit=unit_id,
                unit_name=unit.get("name", unit_id),
                old=old,
                new=faction,
            )


EXECUTORS = {
    "STANCE": stance,
    "CLAIM": claim,
    "BESTOW": bestow,
    "YIELD": yield_title,
    "CANCEL": cancel,
    "GUARD": guard,
    "PATROL": guard,
    "PILLAGE": pillage,
    "ATTACK": attack,
    "OATH": oath,
}


# --- the month's steps ---------------------------------------------------------------------------


def before_the_month(ctx: Any, state: dict[str, Any]) -> None:
    """Before day 1: last month's refusals end, and the newspaper's rewards reach the funds."""
    control.clear_idle(state)
    press.credit_rewards(ctx, state, ctx.rules)


def end_of_day(month: Month) -> None:
    """Each day's end, before the battles: titles held beyond their keep are lost, and hostile guards of
    one place fight."""
    for location, tag, holder in titles.lose_out_of_range(month.state, month.rules, reach(month)):
        if holder in month.state["units"]:
            announce(month, "title_lost", holder, **_title_words(month, tag, location))
    guards.guard_clashes(month)


def month_end_taxes(month: Month) -> None:
    taxes.collect_taxes(month.ctx, month.state, month.rules, reach(month))
