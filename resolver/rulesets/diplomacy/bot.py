"""Orders for a power nobody plays (the demo's seven powers, a campaign's absent player): the position read
from the state through ``model``, the orders chosen by ``strategy`` (pure), and written in the game's
notation (``notation.write_order``: ``A PAR - BUR``, ``F NTH C A LON - NWY``, ``BUILD F STP/NC``), the
form a player writes too, so the bot's file goes through the same reader and checker as a player's.

Ties between equal choices are broken by a hash of the campaign's seed with the year, the season and the
units' and places' ids: two campaigns need not play alike, and one position in one campaign always gives
the same orders. The bot writes no press: a power in Diplomacy speaks through its player, and a bot has
nothing it may honestly say.
"""

from __future__ import annotations

from typing import Any

from ...core.phases import State
from ...engine.ruleset import Game
from . import model as m
from .notation import write_order
from .strategy import orders_for_power


def orders_for(game: Game, state: State, faction: str) -> dict[str, Any]:
    board = m.board(game)
    movement = m.movement_outcome(state)  # None unless the phase is a retreat phase
    chosen = orders_for_power(
        board,
        movement.units if movement is not None else m.units(state),
        m.owners(state),
        faction,
        m.phase_kind(state),
        season=m.season(state),
        movement=movement,
        seed=f"{game.seed}/{m.year(state)}/{m.season(state)}",
    )
    return {"orders": [write_order(board, order) for order in chosen], "press": [], "rumors": []}
