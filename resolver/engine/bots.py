"""Order files written by a ruleset's bot, kept legal by the players' own validator."""

from __future__ import annotations

from typing import Any

from ..core.canonical import dump
from ..core.orders import OrderFile
from ..core.phases import State
from .ruleset import Game
from .validate import check_order_file


def bot_order_file(game: Game, state: State, faction: str) -> OrderFile:
    """Draft the bot's orders, then drop each order the validator rejects until the file is clean."""
    draft = game.ruleset.bot_orders(game, state, faction)
    orders: list[dict[str, Any]] = list(draft.get("orders", []))
    path = f"orders/{faction}.yaml"
    while True:
        doc: dict[str, Any] = {
            "campaign": game.campaign,
            "turn": int(state["turn"]),
            "faction": faction,
            "orders": orders,
        }
        if draft.get("press"):
            doc["press"] = draft["press"]
        if draft.get("rumors"):
            doc["rumors"] = draft["rumors"]
        for section in game.standing:  # standing orders the bot chose (seasons' instructions)
            if section in draft:
                doc[section] = draft[section]
        of = check_order_file(game, state, dump(doc), path, by_bot=True)
        bad = sorted({i.order for i in of.errors if i.order})
        if of.ok or not bad:
            if not of.ok:
                raise RuntimeError(
                    f"the {game.ruleset.id} bot wrote an invalid file: {of.errors[0].format()}"
                )
            return of
        orders = [o for i, o in enumerate(orders, 1) if i != bad[0]]
