"""The numeric spells (spec §9.11): what a leader who knows a spell adds to the actions, checks and fights
it takes part in, and what the month-end spells make. The numbers are in ``rules/magic.yaml``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...core.dice import Modifier
from ...engine.context import TurnContext
from . import scoring
from .acting import told

State = dict[str, Any]


def _known(
    rules: Mapping[str, Any], leaders: Iterable[Mapping[str, Any]], kind: str
) -> list[Mapping[str, Any]]:
    """The spells of ``kind`` the leaders know, once per leader that knows each (all of them stack)."""
    spells = rules["spells"]
    return [
        spells[spell]
        for leader in leaders
        for spell in leader.get("spells") or []
        if spell in spells and spells[spell]["kind"] == kind
    ]


def action_modifiers(
    rules: Mapping[str, Any], leaders: Iterable[Mapping[str, Any]], action: str
) -> list[Modifier]:
    """What the leaders taking part add to an action's roll with the spells they know."""
    return [
        Modifier(str(spell["name"]), int(spell["value"]))
        for spell in _known(rules, leaders, "action")
        if action in spell["actions"]
    ]


def check_modifiers(
    rules: Mapping[str, Any], leaders: Iterable[Mapping[str, Any]], check: str
) -> list[Modifier]:
    """What the leaders with the units add to their Morale or Loyalty checks (Napoleon)."""
    return [
        Modifier(str(spell["name"]), int(spell["value"]))
        for spell in _known(rules, leaders, "check")
        if check in spell["checks"]
    ]


def combat_dice(
    rules: Mapping[str, Any],
    leaders: Iterable[Mapping[str, Any]],
    units: list[str],
    chosen: str | None = None,
) -> dict[str, dict[str, int]]:
    """Extra dice by unit and stat from Might, Fervor and Stalwart: each on the chosen unit of the force,
    else its first."""
    if not units:
        return {}
    target = chosen if chosen in units else units[0]
    extra: dict[str, int] = {}
    for spell in _known(rules, leaders, "combat"):
        extra[str(spell["stat"])] = extra.get(str(spell["stat"]), 0) + int(spell["dice"])
    return {target: extra} if extra else {}


def speed_bonus(rules: Mapping[str, Any], leaders: Iterable[Mapping[str, Any]]) -> int:
    """Overland grids every assisted unit gains (Forced March)."""
    return sum(int(spell["value"]) for spell in _known(rules, leaders, "speed"))


def month_end(ctx: TurnContext, state: State) -> State:
    """Week 4: Midas Touch's gem in the caster's lair, Cornucopia's food in each lair, before upkeep."""
    rules = ctx.rules
    for faction in scoring.playing(state):
        record = state["factions"][faction]
        lairs = record.get("lairs") or {}
        made: dict[str, int] = {}
        for _, leader in sorted((record.get("leaders") or {}).items()):
            for spell_id in leader.get("spells") or []:
                spell = rules["spells"].get(spell_id) or {}
                if spell.get("kind") != "month_end":
                    continue
                if "gem" in spell and leader.get("lair") in lairs:
                    lairs[leader["lair"]].setdefault("gems", []).append(dict(spell["gem"]))
                    made["gems"] = made.get("gems", 0) + 1
                if "foodstuffs_per_lair" in spell:
                    for lair in lairs.values():
                        storage = lair.setdefault("storage", {})
                        storage["foodstuffs"] = int(storage.get("foodstuffs", 0)) + int(
                            spell["foodstuffs_per_lair"]
                        )
                        made["foodstuffs"] = made.get("foodstuffs", 0) + int(spell["foodstuffs_per_lair"])
        if made:
            ctx.emit("spells_month_end", actors=[faction], visible_to=told(ctx, faction), **made)
    return state
