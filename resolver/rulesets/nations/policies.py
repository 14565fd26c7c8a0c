"""Nations' standing orders: the ``policies:`` section of an order file.

A nation writes its policies once; they hold every turn until it writes them again::

    policies:
      retreat_at_losses: 50   # break off a battle once half the units brought to it are lost

The seed fights every battle to the end (or to the round limit); a policy of 0, the default in the
rules data, keeps that. A side that breaks off ends the battle at the end of the round: the battle is
undecided and the armies stay where they stand, so a settlement whose defenders break off does not
fall that turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...core.fields import Field
from ...core.phases import State
from ...core.standing import StandingSection, in_force
from .fighters import Battle

if TYPE_CHECKING:
    from ...engine.context import TurnContext

SECTION = "policies"


def sections(rules: Mapping[str, Any]) -> dict[str, StandingSection]:
    defaults = rules["policies"]
    section = StandingSection(
        SECTION,
        "Policies your armies follow every turn until you change them.",
        (
            Field(
                "retreat_at_losses",
                "int",
                "Break off a battle once this percentage of the units a side brought is lost "
                "(0: fight to the end).",
                default=int(defaults["retreat_at_losses"]),
                minimum=0,
                maximum=100,
            ),
        ),
    )
    return {section.name: section}


def retreat_at_losses(rules: Mapping[str, Any], state: State, nation: str) -> int:
    return int(in_force(state, nation, sections(rules)[SECTION])["retreat_at_losses"])


def breaks_off(ctx: TurnContext, state: State, battle: Battle, brought: Mapping[str, int]) -> list[str]:
    """The sides whose nation's policy makes them break off after this round, each with an event.

    ``brought`` is how many units each side had when the battle began."""
    leaving = []
    for side in ("attacker", "defender"):
        alive = battle.side(side)
        if not alive or not brought[side]:
            continue
        nation = alive[0].army["owner"]
        percent = retreat_at_losses(ctx.rules, state, nation)
        lost = brought[side] - len(alive)
        if percent and lost * 100 >= brought[side] * percent:
            leaving.append(side)
            ctx.emit(
                "battle_broken_off",
                actors=[nation],
                place=battle.place,
                side=side,
                lost=lost,
                brought=brought[side],
                percent=percent,
                round=battle.rounds,
            )
    return leaving
