"""Standing orders: sections of an order file that stay in force until the player changes them.

A ruleset declares them beside its order models, e.g. nations' ``policies``::

    policies:
      retreat_at_losses: 50   # break off a battle once half the units are lost

Each section is a record of typed fields (``core.fields``). A file that holds the section replaces
what was in force; a file without it leaves it unchanged, so a player writes a policy once. The state
keeps, under the faction, only what differs from the defaults: ``policies: {}`` restores them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .fields import Field, kind_words

STATE_KEY = "standing"  # under each faction's record


@dataclass(frozen=True)
class StandingSection:
    name: str  # the top-level key of the order file, e.g. "policies"
    summary: str
    fields: tuple[Field, ...]

    def defaults(self) -> dict[str, Any]:
        return {f.name: f.default for f in self.fields if f.default is not None}

    def field_words(self) -> list[tuple[str, str, str]]:
        """(name, kind in words, meaning with its default) of each field, for rules pages and templates."""
        return [
            (f.name, kind_words(f), f.help + (f" Default: {f.default}." if f.default is not None else ""))
            for f in self.fields
        ]


def stored(state: Mapping[str, Any], faction: str) -> dict[str, dict[str, Any]]:
    """The standing orders a faction has written, by section: only what differs from the defaults."""
    return dict(state["factions"][faction].get(STATE_KEY) or {})


def in_force(state: Mapping[str, Any], faction: str, section: StandingSection) -> dict[str, Any]:
    """Every field of a section as it applies to the faction now: its own value, else the default."""
    return {**section.defaults(), **stored(state, faction).get(section.name, {})}


def describe(values: Mapping[str, Any]) -> str:
    """A section's values in words: 'retreat_at_losses 50, defend_settlements yes'."""
    if not values:
        return "the defaults"
    return ", ".join(f"{key} {_word(value)}" for key, value in values.items())


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return "{" + describe(value) + "}"
    if isinstance(value, list):
        return ", ".join(map(_word, value))
    return str(value)


def record(
    emit: Callable[..., Any],
    state: dict[str, Any],
    written: Mapping[str, Mapping[str, Mapping[str, Any]]],
    sections: Mapping[str, StandingSection],
) -> None:
    """Store the sections each faction's file holds, before the turn's phases read them.

    ``written`` maps a faction to the checked sections of its file. Each change is a private event, so
    the faction's report and the archive show when a standing order began and what it says.
    """
    for faction in sorted(written):
        record_ = state["factions"][faction]
        standing = dict(record_.get(STATE_KEY) or {})
        for name, values in sorted(written[faction].items()):
            defaults = sections[name].defaults()
            kept = {key: value for key, value in values.items() if defaults.get(key) != value}
            if kept == standing.get(name, {}):
                continue
            if kept:
                standing[name] = kept
            else:
                standing.pop(name, None)
            emit(
                "standing_orders",
                actors=[faction],
                visible_to=[faction],
                section=name,
                values=kept,
                text=describe(kept),
            )
        if standing:
            record_[STATE_KEY] = standing
        else:
            record_.pop(STATE_KEY, None)
