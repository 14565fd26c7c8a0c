"""What the site shows of an overlord campaign: the standings, the map's pieces, holders and marks, and each
faction's public profile.

Everything here reads the state it is given, which for a sealed campaign is the public view: no unit of
any faction is in it (a faction sees others' units only where its own stand and see them, and the public
stands nowhere), so the map then shows no unit and the standings count no figure. Titles are public (the
manual shows a title's holder and the holder's faction to everyone), and so is the land a title owns; a title
record names its holder's faction for that reason (``titles.transfer`` keeps it), so a sealed site can
tell whose a title is without seeing the unit that holds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.phases import State
from ...engine.ruleset import Game, MapMark
from . import titles as t

BATTLE_KINDS = ("battle",)  # the events that are a battle at a place (the battles chapter's)
TITLE_KINDS = ("title_claimed", "title_won", "title_bestowed")  # a title changed hands to the actor


def title_faction(state: Mapping[str, Any], title: Mapping[str, Any]) -> str | None:
    """The faction of a title's holder: the title's own record of it, else the holder's owner where the
    state shows the unit; None for a vacant title."""
    if title.get("faction"):  # kept by titles.transfer, and all a view shows of an unseen holder
        return str(title["faction"])
    holder = title.get("holder")
    if not holder:
        return None
    unit = (state.get("units") or {}).get(holder)
    return str(unit["owner"]) if isinstance(unit, Mapping) and unit.get("owner") else None


def held(state: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(place, title tag, faction) of every title held whose faction is known, by place id."""
    found = []
    for location, place in sorted((state.get("places") or {}).items()):
        title = (place or {}).get("title")
        if isinstance(title, Mapping):
            faction = title_faction(state, title)
            if faction:
                found.append((location, str(title["tag"]), faction))
    return found


def owners(game: Game, state: Mapping[str, Any]) -> dict[str, str]:
    """The faction that owns each place of the map by a land title: the most local title wins where two
    cover one place (a place's own title first, then the shorter range, then the nearer), as taxes go."""
    if not held(state):
        return {}
    reach = t.Reach(game.world)
    rules = game.rules
    best: dict[str, tuple[tuple[int, int, str], str]] = {}
    for location, tag, faction in held(state):
        spec = (rules.get("titles") or {}).get(tag) or {}
        if not spec.get("land"):
            continue
        span = 0 if spec.get("range") == "area" else int(spec.get("range") or 0)
        for place in reach.covered(rules, location, tag):
            rank = (0 if place == location else 1, span, location)
            if place not in best or rank < best[place][0]:
                best[place] = (rank, faction)
    return {place: faction for place, (_, faction) in sorted(best.items())}


def title_words(game: Game, location: str, tag: str) -> str:
    return f"{t.title_name(game.rules, tag)} of {game.place_label(location)}"


def standings(game: Game, state: State) -> list[dict[str, Any]]:
    """Every faction by name, with the titles it holds and the places it owns (public in any campaign),
    and where the state shows units (an open campaign) its units and figures: every row has the same
    numbers, so the site's columns and charts hold for each faction."""
    titles_of: dict[str, int] = {}
    for _, _, faction in held(state):
        titles_of[faction] = titles_of.get(faction, 0) + 1
    places_of: dict[str, int] = {}
    for faction in owners(game, state).values():
        places_of[faction] = places_of.get(faction, 0) + 1
    units = state.get("units") or {}
    rows = []
    for faction in game.factions_in(state):
        record = state["factions"][faction]
        row: dict[str, Any] = {
            "faction": faction,
            "name": game.name_of(faction),
            "status": record.get("status", "active"),
            "titles": titles_of.get(faction, 0),
            "places_owned": places_of.get(faction, 0),
        }
        if units:
            mine = [unit for unit in units.values() if unit.get("owner") == faction]
            row["units"] = len(mine)
            row["figures"] = sum(int(unit.get("figures", 0)) for unit in mine)
        rows.append(row)
    return sorted(
        rows, key=lambda row: (-row["titles"], -row["places_owned"], -row.get("figures", 0), row["faction"])
    )


def map_pieces(game: Game, state: State) -> list[dict[str, Any]]:
    """The titles held, each at its place; and the units the state shows, one force per faction and
    place (none in a sealed campaign's public view)."""
    pieces = []
    for location, tag, faction in held(state):
        if location not in game.world:
            continue
        name = t.title_name(game.rules, tag)
        pieces.append(
            {
                "kind": "title",
                "location": location,
                "owner": faction,
                "label": name,
                "detail": f"{title_words(game, location, tag)}, held by {game.name_of(faction)}",
                "size": 1,
            }
        )
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for unit in (state.get("units") or {}).values():
        if unit.get("location") in game.world and unit.get("owner"):
            groups.setdefault((str(unit["owner"]), str(unit["location"])), []).append(unit)
    for (owner, location), found in sorted(groups.items()):
        figures = sum(int(unit.get("figures", 0)) for unit in found)
        pieces.append(
            {
                "kind": "force",  # a faction's units at one place, counted
                "location": location,
                "owner": owner,
                "label": game.name_of(owner),
                "detail": f"{_count(len(found), 'unit')}, {_count(figures, 'figure')}",
                "size": figures,
            }
        )
    return pieces


def map_events(game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
    """A battle is a mark where it was fought; a title taken is a change at its place, in the colour of
    the faction that took it."""
    marks = []
    for event in events:
        place = event.get("place")
        if not place or place not in game.world:
            continue
        actors = list(event.get("actors") or [])
        if event["kind"] in BATTLE_KINDS:
            winner = (event.get("data") or {}).get("winner")
            owner = winner if winner in game.factions else None
            marks.append(MapMark("battle", (str(place),), owner, game.ruleset.describe(event, game)))
        elif event["kind"] in TITLE_KINDS:
            owner = actors[0] if actors and actors[0] in game.factions else None
            marks.append(MapMark("change", (str(place),), owner, game.ruleset.describe(event, game)))
    return marks


def faction_sections(
    game: Game, state: State, faction: str, events: Sequence[Mapping[str, Any]]
) -> list[tuple[str, list[str]]]:
    """A faction's public profile beyond its name and press: who plays it, the titles it holds, the
    places it owns, and the titles it took over the campaign. Nothing a sealed campaign keeps secret."""
    record = (state.get("factions") or {}).get(faction) or {}
    sections: list[tuple[str, list[str]]] = []
    kind = "the server (a non-player faction)" if record.get("kind") == "npc" else "a player"
    sections.append(("Who plays it", [f"{game.name_of(faction)} is played by {kind}."]))
    mine = [(location, tag) for location, tag, owner in held(state) if owner == faction]
    sections.append(
        (
            "Titles held",
            [f"{title_words(game, location, tag)}." for location, tag in mine]
            or [f"{game.name_of(faction)} holds no title."],
        )
    )
    places = [place for place, owner in owners(game, state).items() if owner == faction]
    if places:
        labels = sorted(game.place_label(place) for place in places)
        sections.append(("Land owned", [f"{label}." for label in labels]))
    taken = [
        f"Turn {event.get('turn')}: {game.ruleset.describe(event, game)}"
        for event in events
        if event["kind"] in TITLE_KINDS and faction in (event.get("actors") or [])[:1]
    ]
    if taken:
        sections.append(("Titles taken", taken[-10:]))
    return sections


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
