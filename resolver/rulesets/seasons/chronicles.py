"""What a nation's page on the site tells beyond its numbers: its relations with the others and when
each ends (the diplomacy block), and its commanders, the fallen among them. Words only, no ids."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...core.phases import State
from ...engine.ruleset import Game
from . import commanders
from . import model as m

# Attribute ids whose words need more than their underscores turned into spaces (the seed's own names).
ATTRIBUTE_WORDS = {"friendly_with_foes_foe": "Friendly with foe's foe"}
RELATION_WORDS = {"alliance": "Allied with {other}", "enforced_peace": "Enforced peace with {other}"}


def attribute_words(attribute: str) -> str:
    return ATTRIBUTE_WORDS.get(attribute) or attribute.replace("_", " ").capitalize()


def relation_lines(game: Game, state: State, faction: str) -> list[str]:
    """The nation's wars and its relations (an alliance, an enforced peace), with the turn each ends."""
    record = state["factions"].get(faction) or {}
    lines = [f"At war with {game.name_of(enemy)}." for enemy in sorted(record.get("wars") or [])]
    for relation in sorted((state.get("relations") or {}).values(), key=lambda r: (r["kind"], r["parties"])):
        if faction not in relation.get("parties", []):
            continue
        other = next((p for p in relation["parties"] if p != faction), faction)
        said = RELATION_WORDS.get(relation["kind"], "{other}: " + relation["kind"].replace("_", " "))
        line = said.format(other=game.name_of(other))
        if relation["kind"] == "enforced_peace" and relation.get("winner"):
            line += f", won by {game.name_of(relation['winner'])}"
        if relation.get("until") is not None:
            line += f", until turn {relation['until']}"
        lines.append(line + ".")
    return lines


def commander_lines(game: Game, state: State, faction: str, events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The nation's commanders now (a lord's levy captain serves one battle and is left out), and those
    who died, with the turn, from the public events."""
    lines = []
    for commander in sorted(m_commanders(state, faction), key=lambda c: (c["rank"] != "marshal", c["id"])):
        traits = [attribute_words(a) for a in commander.get("attributes") or []]
        line = f"{commanders.display_name(commander)}, {commander['rank'].capitalize()}"
        if commander.get("reputation") is not None:
            line += f", reputation {commander['reputation']}"
        if traits:
            line += f"; {', '.join(traits)}"
        if commander.get("weapon"):
            line += "; bears a legendary weapon"
        lines.append(line + ".")
    for event in events:
        data = event.get("data") or {}
        if faction not in (event.get("actors") or [])[:1]:
            continue
        died = (event["kind"] == "leader_check" and data.get("died")) or (
            event["kind"] == "marshal_fate" and data.get("result") == "died"
        )
        if died:
            rank = str(data.get("rank") or "marshal").capitalize()
            lines.append(f"{data.get('commander_name')}, {rank}, died in turn {event['turn']}.")
    return lines


def m_commanders(state: State, faction: str) -> list[Mapping[str, Any]]:
    return [
        c for c in (state.get("commanders") or {}).values() if c.get("owner") == faction and not c.get("levy")
    ]


def faction_sections(
    game: Game, state: State, faction: str, events: Iterable[Mapping[str, Any]]
) -> list[tuple[str, list[str]]]:
    if faction not in m.nations(state) and faction not in state["factions"]:
        return []
    return [
        ("Relations", relation_lines(game, state, faction) or ["At peace with everyone, bound to nobody."]),
        ("Commanders", commander_lines(game, state, faction, events) or ["No commander."]),
    ]
