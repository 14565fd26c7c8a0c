"""What a season looks like on the site's map: a mark for each invasion, battle, siege, province taken,
looting, and the Piorad's raid and withdrawal (``Ruleset.map_events``), and who holds each province
(``Ruleset.map_holders``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...core.phases import State
from ...engine.ruleset import MapMark

# The step of the turn table that invades for the Piorad (rules.yaml): their invasion is a raid.
PIORAD_INVASION = "piorad_invade"


def _invasion(event: Mapping[str, Any]) -> str:
    return "raid" if str(event.get("phase") or "").endswith(PIORAD_INVASION) else "march"


def _actor(index: int) -> Callable[[Mapping[str, Any]], str | None]:
    def who(event: Mapping[str, Any]) -> str | None:
        actors = event.get("actors") or []
        return str(actors[index]) if len(actors) > index else None

    return who


def _winner(event: Mapping[str, Any]) -> str | None:
    return (event.get("data") or {}).get("winner") or _actor(0)(event)


# Event kind -> (the mark's kind, or a function of the event that gives it; who the mark belongs to).
MARKS: dict[
    str, tuple[str | Callable[[Mapping[str, Any]], str | None], Callable[[Mapping[str, Any]], str | None]]
] = {
    "invaded": (_invasion, _actor(0)),
    "battle": ("battle", _winner),
    "into_the_fort": (lambda e: "siege" if (e.get("data") or {}).get("siege") else "change", _actor(1)),
    "siege": ("siege", _actor(0)),
    "siege_ended": ("siege", _winner),
    "province_taken": ("capture", _actor(0)),
    "loot": ("raid", _actor(0)),
    "piorad_withdraw": ("march", _actor(0)),
    "battle_refused": ("change", _actor(0)),
}


def map_events(
    events: Sequence[Mapping[str, Any]], describe: Callable[[Mapping[str, Any]], str]
) -> list[MapMark]:
    marks = []
    for event in events:
        found = MARKS.get(event["kind"])
        place = event.get("place")
        if found is None or not place:
            continue
        kind, owner = found
        mark = kind(event) if callable(kind) else kind
        if mark:
            marks.append(MapMark(mark, (str(place),), owner(event), describe(event)))
    return marks


def map_holders(state: State) -> dict[str, str | None]:
    """Each province and who holds it (None: nobody, as the Pole at the start)."""
    return {pid: province.get("owner") for pid, province in sorted(state["provinces"].items())}
