"""Stances: what one faction holds toward another, and the gates every other order asks.

A faction record keeps ``stances: {default: neutral, blue: hostile}``: the default covers every faction
it has not named. An NPC faction with no record of its own falls back on the rules data's outlook
(``stances.npc``). The gates (``stances.gates``) name, for each action, the least stance the permitting
faction (a receiver, a structure's owner, a place's owner or guard) must hold toward the actor.

When the permitting faction cannot see the actor's faction, the bona fide rule of the manual decides which
stance it applies (:func:`treated_stance`), and a few actions ignore that stance altogether
(``stances.unknown``).
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

__all__ = [
    "at_least",
    "may",
    "rank",
    "set_stance",
    "stance",
    "stance_name",
    "stance_order",
    "treated_stance",
]

State = Mapping[str, Any]
Rules = Mapping[str, Any]


def stance_order(rules: Rules) -> list[str]:
    return list(rules["stances"]["order"])


def rank(rules: Rules, word: str) -> int:
    """0 for the friendliest stance; a word the rules do not know is an error of the caller's."""
    return stance_order(rules).index(word)


def at_least(rules: Rules, held: str, needed: str | None) -> bool:
    """Whether ``held`` is ``needed`` or friendlier; no need (None) is always met."""
    return needed is None or rank(rules, held) <= rank(rules, needed)


def stance_name(rules: Rules, word: str) -> str:
    return str(rules["stances"]["names"][word])


def _record(state: State, faction: str) -> Mapping[str, Any]:
    return (state.get("factions") or {}).get(faction) or {}


def stance(state: State, rules: Rules, holder: str, toward: str) -> str:
    """The stance ``holder`` holds toward ``toward``: explicit, else its default.

    A faction is its own ally. The state's record wins over the rules data, so a GM or a title (the
    Overlord's) can change an NPC faction's mind."""
    if holder == toward:
        return str(rules["stances"]["order"][0])
    own = _record(state, holder).get("stances") or {}
    if toward in own:
        return str(own[toward])
    npc = (rules["stances"].get("npc") or {}).get(holder)
    if npc is not None:
        explicit = npc.get("toward") or {}
        if toward in explicit:
            return str(explicit[toward])
        return str(own.get("default") or npc["default"])
    return str(own.get("default") or rules["stances"]["default"])


def default_stance(state: State, rules: Rules, holder: str) -> str:
    own = _record(state, holder).get("stances") or {}
    if "default" in own:
        return str(own["default"])
    npc = (rules["stances"].get("npc") or {}).get(holder)
    return str(npc["default"] if npc is not None else rules["stances"]["default"])


def treated_stance(state: State, rules: Rules, viewer: str, owner: str, known: bool = True) -> str:
    """How ``viewer`` treats a unit of ``owner``. Seen for what it is, by the stance toward its faction.
    Unseen, by the viewer's default, unless the viewer named that faction better than the default and
    that faction holds the viewer at least Friendly (the manual's bona fide rule)."""
    if known or viewer == owner:
        return stance(state, rules, viewer, owner)
    default = default_stance(state, rules, viewer)
    explicit = stance(state, rules, viewer, owner)
    needed = rules["stances"]["bona_fide_needs"]
    if rank(rules, explicit) < rank(rules, default) and at_least(
        rules, stance(state, rules, owner, viewer), needed
    ):
        return explicit
    return default


def may(
    state: State,
    rules: Rules,
    actor_faction: str,
    owner_faction: str | None,
    what: str,
    *,
    known: bool = True,
) -> bool:
    """Whether ``owner_faction`` lets ``actor_faction`` do ``what`` (a key of ``stances.gates``).

    ``owner_faction`` is whoever must permit it: the receiver of a gift, a structure's owner, a place's
    owner or guard; None (nobody owns or guards) permits everything. ``known``: whether the owner can
    see the actor's faction; when it cannot, the rules data's ``stances.unknown`` lists the actions
    judged as if it could, those always allowed and those never allowed."""
    gates = rules["stances"]["gates"]
    if what not in gates:
        raise KeyError(f"no stance gate named {what!r}; the rules data knows {sorted(gates)}")
    if owner_faction is None or owner_faction == actor_faction:
        return True
    if not known:
        unknown = rules["stances"]["unknown"]
        if what in unknown.get("always", ()):
            return True
        if what in unknown.get("never", ()):
            return False
        known = what in unknown.get("as_known", ())
    held = treated_stance(state, rules, owner_faction, actor_faction, known)
    return at_least(rules, held, gates[what])


def set_stance(state: MutableMapping[str, Any], rules: Rules, faction: str, toward: str, word: str) -> None:
    """Record a stance; naming one's own faction sets the default. An explicit stance equal to the
    default stays explicit, so a later change of default does not carry it along."""
    if word not in stance_order(rules):
        raise ValueError(f"no stance named {word!r}")
    record = state["factions"][faction]
    stances = record.setdefault("stances", {})
    stances["default" if toward == faction else toward] = word
