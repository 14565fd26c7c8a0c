"""Events: what happened in a turn, as data.

Reports, the chronicle, the newspaper and the maps are all views of events, so
the resolver never writes prose. Each event is public or seen by named factions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import canonical
from .dice import Roll

# The phase of the GM's orders (and of the engine's word on missing files): its events follow the GM's
# file, not the order the factions acted in.
GM_PHASE = "gm"
# Phases whose events hold text people wrote (press articles and rumours): a piece's id in them is a
# player's words, not the engine naming the piece.
WRITTEN_PHASES = frozenset({GM_PHASE, "press"})


@dataclass
class Event:
    kind: str
    phase: str = ""
    actors: list[str] = field(default_factory=list)  # factions who did it or were hit by it
    place: str | None = None  # a location id
    data: dict[str, Any] = field(default_factory=dict)  # names and numbers for the templates
    visible_to: list[str] | None = None  # None: public
    rolls: list[Roll] = field(default_factory=list)
    tick: int = 0  # the tick of the turn's clock it happened at; 0 outside a repeated block (core.clock)

    @property
    def public(self) -> bool:
        return self.visible_to is None

    def seen_by(self, faction: str) -> bool:
        return self.visible_to is None or faction in self.visible_to or faction == "gm"

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "phase": self.phase, "actors": list(self.actors)}
        if self.tick:  # written only inside a block, so a turn without a clock reads as it always did
            data["tick"] = self.tick
        if self.place is not None:
            data["place"] = self.place
        if self.data:
            data["data"] = self.data
        data["visibility"] = "public" if self.visible_to is None else sorted(set(self.visible_to))
        if self.rolls:
            data["rolls"] = [r.to_data() for r in self.rolls]
        return data


def private(*factions: str) -> list[str]:
    return sorted(set(factions))


def visible(events: Iterable[dict[str, Any]], faction: str) -> list[dict[str, Any]]:
    """Filter archived (serialised) events down to what one faction saw."""
    return [e for e in events if e.get("visibility") == "public" or faction in e.get("visibility", [])]


def anonymous(event: dict[str, Any]) -> bool:
    """Whether an archived event names nobody who did it (a rumour, a deed whose doer went unseen)."""
    return not event.get("actors") and event.get("phase") != GM_PHASE


def public_record(events: Iterable[Event]) -> list[dict[str, Any]]:
    """A turn's public events as a sealed campaign publishes them.

    The factions act in turn, so an event that names nobody would still point at its doer by where it
    falls among the others. Within each phase the named events keep their order, and the anonymous
    ones follow them, sorted by what they say: their place depends on nothing but their content. The
    GM's phase keeps its order, which is the GM's file's. Each tick of a repeated phase is a run of its
    own: sorting across ticks would move an event to another day."""
    record: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []  # the events of the phase being read
    for event in (e.to_data() for e in events if e.public):
        if run and (event["phase"], event.get("tick")) != (run[-1]["phase"], run[-1].get("tick")):
            record += _named_then_anonymous(run)
            run = []
        run.append(event)
    return record + _named_then_anonymous(run)


def _named_then_anonymous(phase: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    named = [e for e in phase if not anonymous(e)]
    return named + sorted((e for e in phase if anonymous(e)), key=canonical.dump)


def keep_concealed_unnamed(events: Iterable[Event], concealed: Mapping[str, Mapping[str, Any]]) -> None:
    """Make private to their actors the public events that name a concealed piece (``concealed``: the
    pieces' records by id): whoever reads the public record must not learn that the piece exists, nor
    where it is. An event names a piece by its id, in its data or its rolls; or by the piece's name,
    when its owner is among the event's actors ("Menfell's army 9q marches": names are the owner's
    own, so only the owner's events can mean that piece by it). Events of the phases people write in
    are left alone: a rumour that names a piece is its author's guess, and silencing it would confirm
    the guess."""
    if not concealed:
        return
    ids = _whole_words(concealed)
    names: dict[str, re.Pattern[str]] = {}
    for owner in sorted({str(record.get("owner")) for record in concealed.values()}):
        named = [str(r["name"]) for r in concealed.values() if str(r.get("owner")) == owner and r.get("name")]
        if named:
            names[owner] = _whole_words(named)
    for event in events:
        if not event.public or event.phase in WRITTEN_PHASES:
            continue
        texts = list(_texts([event.data, [r.to_data() for r in event.rolls]]))
        patterns = [ids, *(names[f] for f in event.actors if f in names)]
        if any(pattern.search(text) for pattern in patterns for text in texts):
            event.visible_to = sorted(set(event.actors))


def _whole_words(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern finding any of ``words`` as a whole word: "red-l1" is not found in "red-l10"."""
    longest_first = sorted(set(words), key=lambda word: (-len(word), word))
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, longest_first)) + r")(?![\w-])")


def _texts(value: Any) -> Iterable[str]:
    """Every text in a nested structure of mappings and lists, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)
