"""The newspaper's rewards: coins for a faction that writes signed articles or rumours.

The articles of a turn's order files are printed at the end of that turn (the engine's press step); their
reward goes into the fund before day 1 of the month those files run. A signed article earns the rules
data's ``signed`` coins and a rumour ``rumor``; a turn earns the best single reward unless the data lets
rewards add up, and never more than ``cap``. A file the bot wrote (an NPC's, or one standing in for an
absent player) earns nothing: the engine prints none of its articles.

A rumour's author stays secret in every public file: the reward is told to its faction alone, and only in
a sealed campaign, where that faction's events are its own; an open campaign's events are public, so
there the fund simply grows.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

__all__ = ["credit_rewards", "reward"]

Rules = Mapping[str, Any]


def reward(rules: Rules, signed: int, rumors: int) -> int:
    """The coins one faction earns for ``signed`` articles and ``rumors`` rumours in one turn."""
    data = rules["press_rewards"]
    earned = [int(data["signed"])] * signed + [int(data["rumor"])] * rumors
    if not earned:
        return 0
    total = sum(earned) if data.get("stack") else max(earned)
    return min(int(data["cap"]), total)


def _written_by_player(state: Mapping[str, Any], faction: str) -> bool:
    """A player's own file: the faction is a player's, and the engine did not count its orders missing
    this turn (a stand-in written by the bot for an absent player is counted missing)."""
    record = (state.get("factions") or {}).get(faction) or {}
    return record.get("kind", "player") == "player" and int(record.get("missed_turns", 0)) == 0


def credit_rewards(
    ctx: Any, state: MutableMapping[str, Any], rules: Rules, bots: Sequence[str] = ()
) -> dict[str, int]:
    """Add each faction's reward for the articles in its order file to its fund; the amounts by faction.
    ``bots``: factions whose file the bot wrote, when the caller knows them."""
    credited: dict[str, int] = {}
    for faction in sorted(ctx.orders):
        if (
            faction in bots
            or faction not in state.get("factions", {})
            or not _written_by_player(state, faction)
        ):
            continue
        order_file = ctx.orders[faction]
        coins = reward(rules, len(order_file.press), len(order_file.rumors))
        if coins <= 0:
            continue
        record = state["factions"][faction]
        record["fund"] = int(record.get("fund", 0)) + coins
        credited[faction] = coins
        if ctx.sealed:
            ctx.emit("press_reward", actors=[faction], visible_to=[faction], amount=coins)
    return credited
