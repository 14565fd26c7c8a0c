"""Onlookers' battle reports (spec §1.6.10, §7.3.2): a faction with units where a battle is fought, standing
there or passing through, that takes no part in it gets a partial report of its own.

The report holds only what the onlooker's units could see at the time: the fighting units they make out
on each side (the report's own sight, ``report.seen``: observation against stealth, a traveller seeing a
little less, a unit that announces itself or guards), each unit's faction only where they recognise it
(``report.recognised``), each unit's size and race, how long the fighting lasted and which side won, and
the losses of the units they saw. Never the rounds blow by blow, the loot, the dice or a unit unseen
(``rules/battle_reports.yaml`` and its house rules).

The battle is told here after those who fought have had theirs (``warfare.TOLD_HOOKS``); this module
registers itself there when the ruleset is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import model as m
from . import report, stats, warfare
from .battle_words import loss_words
from .grid import ATTACKERS, DEFENDERS
from .month import Month

Rules = Mapping[str, Any]
SIDE_WORDS = {ATTACKERS: "attackers", DEFENDERS: "defenders"}


def _own(rules: Rules) -> Mapping[str, Any]:
    return rules["battle_reports"]["spectators"]


def onlookers(rules: Rules, state: Mapping[str, Any], fought: warfare.Fought) -> dict[str, list[str]]:
    """The factions that watch, each with its units there (standing, or passing when the rules data lets
    travellers watch), in report order; the factions that fought are not among them."""
    fighting = {fought.owners[uid] for uid in (*fought.sides.attackers, *fought.sides.defenders)}
    passing = bool(_own(rules).get("passing"))
    found: dict[str, list[str]] = {}
    for uid in m.at_location(dict(state), fought.location):
        unit = state["units"][uid]
        owner = str(unit.get("owner"))
        if owner in fighting or owner not in state["factions"] or uid in fought.result.units:
            continue
        if unit.get("moving") and not passing:
            continue
        found.setdefault(owner, []).append(uid)
    return found


def watched_lines(
    rules: Rules, state: Mapping[str, Any], fought: warfare.Fought, faction: str, watchers: Sequence[str]
) -> list[str]:
    """The lines of one onlooker's report: each side as its units saw it, the outcome, the losses seen."""
    # The place as it stood when the battle began: the fighters before their losses, the onlookers as now
    # (they took no part, so nothing of theirs changed).
    scene: dict[str, Any] = {
        "units": {**state["units"], **{uid: dict(unit) for uid, unit in fought.before.items()}},
        "factions": state["factions"],
    }
    eyes = [scene["units"][uid] for uid in watchers]
    led = {unit.get("stack") for unit in eyes}
    fighters = [uid for uid in (*fought.sides.attackers, *fought.sides.defenders) if uid in fought.before]
    seen = [uid for uid in fighters if report.seen(rules, scene, faction, eyes, uid, led)]
    tells = list(_own(rules).get("tells") or ())
    lines: list[str] = []
    if "sides" in tells:
        for side, members in ((ATTACKERS, fought.sides.attackers), (DEFENDERS, fought.sides.defenders)):
            shown = [_unit_words(rules, scene, faction, eyes, uid, fought) for uid in members if uid in seen]
            what = "; ".join(shown) if shown else "none your units could make out"
            lines.append(f"{SIDE_WORDS[side].capitalize()}: {what}.")
    if "outcome" in tells:
        rounds = fought.result.rounds
        span = f"{rounds} round{'s' if rounds != 1 else ''}"
        if fought.result.winner is None:
            lines.append(f"Neither side wins; the fighting stops after {span}.")
        else:
            lines.append(f"The {SIDE_WORDS[fought.result.winner]} win after {span}.")
    if "losses" in tells:
        losses = [
            loss_words(rules, fought.before[uid], fought.names[uid], outcome.figures_lost, outcome.destroyed)
            for uid, outcome in sorted(fought.result.units.items(), key=lambda item: (item[1].side, item[0]))
            if uid in seen and outcome.figures_lost
        ]
        lines.append(f"Losses seen: {'; '.join(losses)}." if losses else "Your units saw no one fall.")
    return lines


def _unit_words(
    rules: Rules,
    scene: Mapping[str, Any],
    faction: str,
    eyes: Sequence[Mapping[str, Any]],
    uid: str,
    fought: warfare.Fought,
) -> str:
    """'Red Band of The Empire, 20 followers', or without its faction when the onlooker cannot tell it."""
    unit = fought.before[uid]
    words = fought.names[uid]
    if report.recognised(rules, scene, faction, eyes, uid):
        owner = str(unit.get("owner"))
        words += f" of {(scene['factions'].get(owner) or {}).get('name') or 'an unknown faction'}"
    return f"{words}, {stats.figures_words(rules, unit, int(unit.get('figures', 1)))}"


def tell(month: Month, fought: warfare.Fought) -> None:
    """warfare's hook: each onlooking faction gets its partial report, told to it alone."""
    rules, state = month.rules, month.state
    if "battle_reports" not in rules:
        return
    for faction, watchers in sorted(onlookers(rules, state, fought).items()):
        month.ctx.emit(
            "battle_watched",
            actors=[faction],
            place=fought.location,
            visible_to=[faction],
            # The first onlooker of the faction there: the report tells it under that unit's deeds, so a
            # traveller that has gone on by the month's end still finds it.
            uid=watchers[0],
            lines=watched_lines(rules, state, fought, faction, watchers),
        )


if tell not in warfare.TOLD_HOOKS:
    warfare.TOLD_HOOKS.append(tell)
