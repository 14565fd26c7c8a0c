"""A lair's rooms and what they give: the renovation tree read from ``rules/rooms.yaml``.

Other parts read a lair's effects through ``lair_bonus(rules, lair, kind)`` (a Watchtower's scout bonus,
a Throne Room's morale and loyalty, the defence and maximum Obscurity of Fortifications, storage slots)
and never walk the rooms themselves, so that the tree stays data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

Room = dict[str, Any]
Lair = dict[str, Any]


def room_rules(rules: Mapping[str, Any], room_type: str) -> Mapping[str, Any]:
    return rules["rooms"][room_type]


def room_name(rules: Mapping[str, Any], room_type: str) -> str:
    return str(room_rules(rules, room_type)["name"])


def renovation_rules(rules: Mapping[str, Any], room_type: str, renovation: str) -> Mapping[str, Any]:
    return room_rules(rules, room_type)["renovations"][renovation]


def renovation_name(rules: Mapping[str, Any], room_type: str, renovation: str) -> str:
    return str(renovation_rules(rules, room_type, renovation)["name"])


def new_room(room_type: str) -> Room:
    return {"type": room_type, "level": 1, "renovations": []}


def rooms_of(lair: Mapping[str, Any], room_type: str) -> list[Room]:
    return [room for room in lair.get("rooms", []) if room["type"] == room_type]


def room_ref(lair: Mapping[str, Any], room: Mapping[str, Any]) -> str:
    """How an order names a room: its type, or ``workshop-2`` for the second of a kind a lair has twice."""
    same = rooms_of(lair, room["type"])
    return room["type"] if len(same) == 1 or same[0] is room else f"{room['type']}-{same.index(room) + 1}"


def find_room(lair: Mapping[str, Any], ref: str) -> Room | None:
    """The room an order names: ``workshop`` (the first Workshop) or ``workshop-2`` (the second)."""
    room_type, _, number = str(ref).partition("-")
    same = rooms_of(lair, room_type)
    index = int(number) - 1 if number.isdigit() else 0 if not number else -1
    return same[index] if 0 <= index < len(same) else None


def room_gives(rules: Mapping[str, Any], room: Mapping[str, Any]) -> dict[str, int]:
    """Everything one room gives: its level-1 values plus each renovation taken (with its choice)."""
    kind = room_rules(rules, room["type"])
    total: dict[str, int] = dict(kind.get("gives") or {})
    for taken in room.get("renovations", []):
        spec = kind["renovations"].get(taken["renovation"], {})
        for source in (spec.get("gives") or {}, (spec.get("choices") or {}).get(taken.get("choice"), {})):
            for key, value in source.items():
                total[key] = total.get(key, 0) + int(value)
    return total


def lair_bonus(rules: Mapping[str, Any], lair: Mapping[str, Any], kind: str) -> int:
    """What the lair's rooms give to ``kind`` (``scout``, ``morale``, ``loyalty``, ``defense``,
    ``max_obscurity``, ``storage``, ``crafting``, ``construction``, ``units``, ``cells``, a switch such as
    ``multi_crafting``...). Rooms a lair may have twice add up, except those whose data says only the best
    one counts (a Workshop: the work is done in one of them)."""
    by_type: dict[str, list[int]] = {}
    for room in lair.get("rooms", []):
        by_type.setdefault(room["type"], []).append(room_gives(rules, room).get(kind, 0))
    total = 0
    for room_type, values in by_type.items():
        best = room_rules(rules, room_type).get("bonuses_of_duplicates") == "best"
        total += max(values) if best else sum(values)
    return total


def room_bonus(rules: Mapping[str, Any], room: Mapping[str, Any], kind: str) -> int:
    return room_gives(rules, room).get(kind, 0)


def taken_count(room: Mapping[str, Any], renovation: str, choice: str | None = None) -> int:
    return sum(
        1
        for taken in room.get("renovations", [])
        if taken["renovation"] == renovation and (choice is None or taken.get("choice") == choice)
    )


def pillars_in(rules: Mapping[str, Any], room: Mapping[str, Any]) -> int:
    renovations = room_rules(rules, room["type"])["renovations"]
    return sum(
        1 for t in room.get("renovations", []) if renovations.get(t["renovation"], {}).get("tier") == "pillar"
    )


def renovation_count(rooms: Iterable[Mapping[str, Any]]) -> int:
    """Renovations taken in these rooms (the scoring part counts them)."""
    return sum(len(room.get("renovations", [])) for room in rooms)


def raise_obscurity(lair: Lair, gained: int) -> None:
    """Fortifications built or filled in: the maximum rises, and the current value with it, since the lair
    is better hidden from the day the work stands (the spec's lair at 155 with one Fortifications)."""
    if gained:
        lair["obscurity"]["max"] = int(lair["obscurity"]["max"]) + gained
        lair["obscurity"]["current"] = max(0, int(lair["obscurity"]["current"]) + gained)
