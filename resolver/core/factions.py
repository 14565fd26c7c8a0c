"""The faction record every ruleset shares, and who is played by whom.

A faction is played by a person (``player``) or by the ruleset's bot (``npc``: raiders, a neutral
power). An NPC faction gives orders every turn through the bot, so it never counts as missing, needs no
order file and gets no template. The record keeps ``kind`` only for NPC factions: a record without it
is a player's, as every record written before kinds existed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

PLAYER = "player"
NPC = "npc"
KINDS = (PLAYER, NPC)
ACTIVE = "active"
ID_PATTERN = re.compile(r"[a-z][a-z0-9-]{0,30}")
RESERVED_IDS = ("gm",)  # the GM's order file is orders/gm.yaml


def new_faction(
    faction_id: str, name: str, color: str, *, kind: str = PLAYER, **fields: Any
) -> dict[str, Any]:
    """The one way to make a faction's record: what every ruleset shares, then the ruleset's ``fields``
    (stock, home, influence…)."""
    if kind not in KINDS:
        raise ValueError(f"a faction is one of {KINDS}, not {kind!r}")
    record: dict[str, Any] = {"name": name, "color": color, "status": ACTIVE, "missed_turns": 0}
    if kind != PLAYER:
        record["kind"] = kind
    record.update(fields)
    return record


def next_id(state: Mapping[str, Any], faction: str, kind: str, in_use: Callable[[str], bool]) -> str:
    """The faction's next id of a kind of piece (``red-u4``), counted in its record's ``counters``; ids
    already in use (a piece the GM placed) are skipped, never reused."""
    counters = state["factions"][faction].setdefault("counters", {})
    n = counters.get(kind, 0) + 1
    while in_use(f"{faction}-{kind}{n}"):
        n += 1
    counters[kind] = n
    return f"{faction}-{kind}{n}"


def id_problem(faction_id: str, taken: Iterable[str]) -> str:
    """Why ``faction_id`` cannot name a new faction; empty when it can."""
    if not ID_PATTERN.fullmatch(faction_id) or faction_id in RESERVED_IDS:
        return (
            f"'{faction_id}' is not a usable faction id: lower-case letters, digits and dashes, "
            "starting with a letter; not 'gm'"
        )
    if faction_id in set(taken):
        return f"there is already a faction '{faction_id}'"
    return ""


def kind_of(state: Mapping[str, Any], faction: str) -> str:
    return str(state["factions"][faction].get("kind", PLAYER))


def is_npc(state: Mapping[str, Any], faction: str) -> bool:
    return kind_of(state, faction) == NPC


def is_active(state: Mapping[str, Any], faction: str) -> bool:
    return state["factions"][faction].get("status", ACTIVE) == ACTIVE


def active(state: Mapping[str, Any], factions: Iterable[str]) -> list[str]:
    """The factions still in the game, in the order given."""
    return [f for f in factions if is_active(state, f)]


def awaited(state: Mapping[str, Any], factions: Iterable[str]) -> list[str]:
    """The active factions whose orders a person writes: the ones a turn waits for."""
    return [f for f in active(state, factions) if not is_npc(state, f)]


def npcs(state: Mapping[str, Any], factions: Iterable[str]) -> list[str]:
    """The active factions the ruleset's bot plays every turn."""
    return [f for f in active(state, factions) if is_npc(state, f)]
