"""A battle told in words: the losses of the battle event and the lines of each faction's battle report.

Full reports tell every move, action, target and result round by round; terse ones (the faction's TERSE
setting) tell each round's actions other than melee and parry, and its losses (spec §7.3.14). The winners'
full reports end with the battle stats of every unit. Units are named, never shown by their ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.words import plural
from . import stats
from .battle import BattleResult, RoundSummary
from .grid import ATTACKERS, FIELD_FILES, FILES, RANKS, own_rank

Rules = Mapping[str, Any]


def loss_words(rules: Rules, unit: Mapping[str, Any], name: str, lost: int, destroyed: bool) -> str:
    """'Nirmal Yadav falls', 'Nirmal Yadav's Company loses 3 followers', 'the Red Band is wiped out'."""
    if destroyed:
        return f"{name} falls" if int(unit.get("figures", 1)) == 1 else f"{name} is wiped out"
    return f"{name} loses {stats.figures_words(rules, unit, lost)}"


def square_words(side: str, square: tuple[int, int]) -> str:
    """Where a unit stands, seen from its own side: 'its middle rank, left file', or past its front
    'the enemy's front rank, left file'."""
    depth = own_rank(side, square)
    column = square[1] if side == ATTACKERS else FIELD_FILES - 1 - square[1]
    file = FILES[column]
    if depth >= 0:
        return f"its {RANKS[depth]} rank, {file} file"
    enemy_depth = -depth - 1
    return f"the enemy's {RANKS[enemy_depth]} rank, {file} file"


def _action_words(action: Mapping[str, Any], names: Mapping[str, str], result: BattleResult) -> str:
    who = names.get(action["unit"], "a unit")
    kind = action["kind"]
    if kind == "move":
        side = result.units[action["unit"]].side
        return f"{who} moves to {square_words(side, (action['square'][0], action['square'][1]))}."
    if kind == "parry":
        return f"{who} parries."
    if kind == "forgets_parry":
        return f"{who} forgets to parry."
    if kind == "fled":
        return f"{who} leaves the field."
    targets = ", ".join(names.get(target, "a unit") for target in action.get("targets", []))
    how = {"melee": "strikes at", "ranged": "shoots at"}.get(kind, f"uses {kind} on")
    told = [plural(action.get("strikes", 0), "blow")]
    told.append(plural(action.get("hits", 0), "hit"))
    if action.get("wounds"):
        told.append(plural(action["wounds"], "wound"))
    if action.get("killed"):
        told.append(f"{action['killed']} killed")
    return f"{who} {how} {targets}: {', '.join(told)}."


def _round_lines(
    summary: RoundSummary, names: Mapping[str, str], result: BattleResult, terse: bool
) -> list[str]:
    title = f"Round {summary.number}{' (the rout)' if summary.rout else ''}:"
    actions = summary.terse() if terse else summary.actions
    lines = [title, *(_action_words(action, names, result) for action in actions)]
    if summary.casualties:
        lost = ", ".join(
            f"{names.get(uid, 'a unit')} {count}" for uid, count in sorted(summary.casualties.items())
        )
        lines.append(f"Figures lost this round: {lost}.")
    elif terse:
        lines.append("No figure is lost this round.")
    return lines


def battle_lines(
    rules: Rules,
    result: BattleResult,
    names: Mapping[str, str],
    owners: Mapping[str, str],
    before: Mapping[str, Mapping[str, Any]],
    state: Mapping[str, Any],
    *,
    terse: bool,
    winners_stats: bool,
) -> list[str]:
    """The lines of one faction's report of a battle."""

    def faction_name(faction: str) -> str:
        return str((state.get("factions", {}).get(faction) or {}).get("name") or "an unknown faction")

    def side_words(side: str) -> str:
        members = [uid for uid, outcome in sorted(result.units.items()) if outcome.side == side]
        return ", ".join(f"{names[uid]} ({faction_name(owners[uid])})" for uid in members) or "nobody"

    lines = [f"Attacking: {side_words(ATTACKERS)}.", f"Defending: {side_words('defenders')}."]
    for summary in result.summaries:
        lines.extend(_round_lines(summary, names, result, terse))
    if result.winner is None:
        lines.append(f"Neither side wins; the fighting stops after {plural(result.rounds, 'round')}.")
    else:
        lines.append(f"The {result.winner} win after {plural(result.rounds, 'round')}.")
    if winners_stats and not terse:
        for uid in sorted(result.units):
            unit = before[uid]
            shown = stats.stat_words(stats.unit_stats(rules, unit)) or "no stat above the defaults"
            lines.append(
                f"{names[uid]}: {stats.figures_words(rules, unit, int(unit.get('figures', 1)))}, {shown}."
            )
    return lines
