"""Relations between factions, and effects that last a number of turns.

A ruleset lists the relations it knows in its rules data, with the one every pair starts in::

    relations:
      default: neutral
      kinds:
        war: Either may attack the other.
        enforced_peace: The loser of a war may not attack the winner.
        ...

The state keeps only the pairs whose relation differs from the default, under ``relations``, keyed
``a/b`` with the two ids sorted: a relation is mutual. A relation may be timed (``until``: its last
turn), and so may an effect (``effects``: a modifier on a faction or a piece that ends by itself).
The engine ends both at the turn boundary, after every phase of their last turn, with an event each.
An effect may end at a tick of its last turn instead (``until_tick``, see ``core.clock``): it ends as
that tick closes, after the tick's phases, and the ticks after it run without it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from .rulesdoc import RulesSection, RulesTable, words

RELATIONS = "relations"
EFFECTS = "effects"
# An effect the GM set in a sealed campaign without making it public names the factions told of it:
# they alone see it in their view of the state, and they alone hear that it runs out.
SEEN_BY = "seen_by"
UNTIL_TICK = "until_tick"  # only on an effect that ends at a tick of its last turn


def kinds(rules: Mapping[str, Any]) -> tuple[str, ...]:
    """The relations a ruleset knows; none when its rules data has no ``relations``."""
    return tuple((rules.get(RELATIONS) or {}).get("kinds") or ())


def default(rules: Mapping[str, Any]) -> str:
    return str((rules.get(RELATIONS) or {}).get("default", ""))


def pair_key(a: str, b: str) -> str:
    first, second = sorted((a, b))
    return f"{first}/{second}"


def between(state: Mapping[str, Any], rules: Mapping[str, Any], a: str, b: str) -> str:
    """The relation of two factions now: what was set between them, else the default."""
    entry = (state.get(RELATIONS) or {}).get(pair_key(a, b))
    return str(entry["kind"]) if entry else default(rules)


def of_faction(state: Mapping[str, Any], faction: str) -> list[dict[str, Any]]:
    """Every relation set between ``faction`` and another, in a stable order."""
    entries = (state.get(RELATIONS) or {}).values()
    return sorted((e for e in entries if faction in e["parties"]), key=lambda e: e["parties"])


def set_relation(
    state: dict[str, Any],
    rules: Mapping[str, Any],
    a: str,
    b: str,
    kind: str,
    turn: int,
    turns: int | None = None,
) -> dict[str, Any] | None:
    """Set the relation of ``a`` and ``b`` from ``turn`` on, for ``turns`` turns (this one included) or
    for good. Returns the entry stored, or None when the pair went back to the default."""
    if kind not in kinds(rules):
        raise ValueError(f"unknown relation {kind!r}; the rules know {kinds(rules)}")
    if a == b:
        raise ValueError("a relation joins two different factions")
    table = state.setdefault(RELATIONS, {})
    key = pair_key(a, b)
    if kind == default(rules) and turns is None:
        table.pop(key, None)
        if not table:
            del state[RELATIONS]
        return None
    entry: dict[str, Any] = {"parties": sorted((a, b)), "kind": kind, "since": turn}
    if turns is not None:
        entry["until"] = turn + turns - 1
    table[key] = entry
    return entry


def add_effect(
    state: dict[str, Any],
    collection: str,
    target: str,
    name: str,
    value: int,
    turn: int,
    turns: int,
    until_tick: int | None = None,
) -> dict[str, Any]:
    """A modifier on ``state[collection][target]`` that lasts ``turns`` turns, this one included. The
    modifier is set now; the engine takes it off after its last turn, or at the end of tick ``until_tick``
    of its last turn."""
    holder = state[collection][target]
    holder.setdefault("modifiers", {})[name] = value
    effect_id = f"{collection}/{target}/{name}"
    effect = {
        "id": effect_id,
        "collection": collection,
        "target": target,
        "name": name,
        "value": value,
        "since": turn,
        "until": turn + turns - 1,
    }
    if until_tick is not None:
        effect[UNTIL_TICK] = until_tick
    state.setdefault(EFFECTS, {})[effect_id] = effect
    return effect


def effects_seen_by(
    effects: Mapping[str, Any], faction: str | None, hidden: Collection[str] = ()
) -> dict[str, Any]:
    """The effects a faction may know of (everyone, when ``faction`` is None): all but those told to
    other factions only, and those on ``hidden`` pieces, which the faction does not know of."""
    return {
        effect_id: effect
        for effect_id, effect in effects.items()
        if (SEEN_BY not in effect or (faction is not None and faction in effect[SEEN_BY]))
        and not (effect.get("collection") != "factions" and effect.get("target") in hidden)
    }


def drop_effect(state: dict[str, Any], collection: str, target: str, name: str) -> None:
    """Forget the timer of a modifier that was set again for good (or removed) before it ran out."""
    effects = state.get(EFFECTS) or {}
    effects.pop(f"{collection}/{target}/{name}", None)
    if EFFECTS in state and not effects:
        del state[EFFECTS]


def expire(
    emit: Callable[..., Any], state: dict[str, Any], turn: int, default_kind: str, tick: int | None = None
) -> None:
    """End the relations and effects whose last turn is ``turn``, each with an event: public, but for
    an effect told to some factions only (``SEEN_BY``). With a ``tick``, at the close of that tick: only
    the effects that end at it (``UNTIL_TICK``); relations last whole turns."""
    table = state.get(RELATIONS) or {}
    for key in sorted(
        k for k, entry in table.items() if tick is None and "until" in entry and entry["until"] <= turn
    ):
        entry = table.pop(key)
        emit("relation_expired", actors=entry["parties"], relation=entry["kind"], now=default_kind)
    if RELATIONS in state and not table:
        del state[RELATIONS]
    effects = state.get(EFFECTS) or {}
    for effect_id in sorted(k for k, effect in effects.items() if _ends(effect, turn, tick)):
        effect = effects.pop(effect_id)
        holder = state.get(effect["collection"], {}).get(effect["target"])
        modifiers = (holder or {}).get("modifiers", {})
        if modifiers.get(effect["name"]) == effect["value"]:
            del modifiers[effect["name"]]
        faction = effect["target"] if effect["collection"] == "factions" else (holder or {}).get("owner")
        emit(
            "effect_expired",
            actors=[faction] if faction else [],
            **({"visible_to": effect[SEEN_BY]} if SEEN_BY in effect else {}),
            target=effect["target"],
            name=effect["name"],
            value=effect["value"],
            # a named holder (a commander) is told by his name, not his id
            **({"target_name": holder["name"]} if faction != effect["target"] and _named(holder) else {}),
        )
    if EFFECTS in state and not effects:
        del state[EFFECTS]


def _ends(effect: Mapping[str, Any], turn: int, tick: int | None) -> bool:
    if tick is None:
        return bool(effect["until"] <= turn)
    return bool(effect["until"] <= turn and UNTIL_TICK in effect and effect[UNTIL_TICK] <= tick)


def _named(holder: Any) -> bool:
    return isinstance(holder, Mapping) and isinstance(holder.get("name"), str)


def lines_for(state: Mapping[str, Any], faction: str, name_of: Callable[[str], str]) -> list[str]:
    """A faction's relations that differ from the default, in words for its template and reports."""
    lines = []
    for entry in of_faction(state, faction):
        other = next(p for p in entry["parties"] if p != faction)
        until = f" until the end of turn {entry['until']}" if "until" in entry else ""
        lines.append(f"Relation with {name_of(other)}: {entry['kind'].replace('_', ' ')}{until}.")
    return lines


def rules_section(rules: Mapping[str, Any]) -> RulesSection | None:
    """The relations a ruleset knows, for its rules page; None when it knows none."""
    if not kinds(rules):
        return None
    table = RulesTable(
        "Relations",
        ("Relation", "Meaning"),
        tuple((words(kind), str(text)) for kind, text in rules[RELATIONS]["kinds"].items()),
    )
    intro = (
        f"Every two factions stand in a relation, **{words(default(rules)).lower()}** until something "
        "changes it. The GM sets a relation for good or for a number of turns (`relation` in the GM's "
        "orders); a timed relation ends by itself after its last turn, as do modifiers the GM sets for some "
        "turns."
    )
    return RulesSection("Relations between factions", (intro, table), keys=(RELATIONS,))
