"""What the site's map and a usurper's own report show of the grid: the cities and the landmarks, which
everyone sees, and each usurper's lairs, the grids its units scouted and what they found there, which only
it sees.

The map is drawn from a state: the full one in an open campaign (everyone's lairs and findings), the
public view in a sealed one (no faction record holds its lairs or what it knows there, so only the
cities and landmarks are drawn), and a usurper's own view for its sealed report. Nothing here reads what
the state it is given does not hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.phases import State
from ...engine.ruleset import Game, MapMark

Piece = dict[str, Any]

# The map mark each kind of event makes where it happened; an event of another kind with a place is a
# "change" there. Only the events the reader may see reach the map: a sealed campaign's site has only the
# public ones, and a usurper's own doings are told to it alone.
MARKS = {"combat": "battle", "lair_attack": "siege", "lair_found": "raid", "harass": "raid", "raid": "raid"}


def _words(rules: Mapping[str, Any], section: str, key: Any) -> str:
    """A reader's name for an id of the rules data: the record's ``name``, else the id in words."""
    record = (rules.get(section) or {}).get(key)
    if isinstance(record, Mapping) and record.get("name"):
        return str(record["name"])
    return str(key).replace("_", " ")


def _settlement_words(rules: Mapping[str, Any], settlement: Mapping[str, Any]) -> tuple[str, str]:
    """A settlement has no name of its own: what it is and who lives there name it ("Camp of Goblins");
    and its attitude towards the usurper who found it, in words ("indifferent")."""
    races = ", ".join(_words(rules, "races", race) for race in settlement.get("races") or [])
    size = _words(rules, "settlement_sizes", settlement.get("size", "settlement"))
    attitude = _words(rules, "attitudes", settlement.get("attitude", "indifferent")).lower()
    return f"{size.capitalize()} of {races or 'unknown folk'}", attitude


def map_pieces(game: Game, state: State) -> list[Piece]:
    """The cities and the landmarks, then each usurper's lairs and findings that the state holds, by
    usurper."""
    rules = game.rules
    pieces: list[Piece] = [
        {
            "kind": "city",
            "location": grid,
            "owner": None,
            "label": city["name"],
            "detail": f"{_words(rules, 'city_sizes', city.get('size', 'town')).capitalize()}"
            + (f", home of {', '.join(_words(rules, 'races', r) for r in city.get('races', []))}"),
            "size": 1,
        }
        for grid, city in sorted((state.get("cities") or {}).items())
    ]
    # The landmarks are public places (``state["landmarks"]``: grid -> id and name), drawn for every reader.
    pieces += [
        {
            "kind": "landmark",
            "location": grid,
            "owner": None,
            "label": str(landmark.get("name") or _words(rules, "landmarks", landmark.get("id"))),
            "detail": "A landmark, whose ritual is a leader's Diplomacy here",
            "size": 1,
        }
        for grid, landmark in sorted((state.get("landmarks") or {}).items())
    ]
    for faction in game.factions_in(state):
        pieces += own_pieces(game, state["factions"][faction], faction)
    return pieces


def own_pieces(game: Game, record: Mapping[str, Any], faction: str) -> list[Piece]:
    """One usurper's pieces: its lairs, the settlements, nodes and encounters it knows, and the other grids
    its units scouted. A grid with a finding is not marked scouted as well."""
    rules, name = game.rules, game.name_of(faction)
    pieces: list[Piece] = []
    for lair in (record.get("lairs") or {}).values():
        rooms = [_words(rules, "rooms", room.get("type")) for room in lair.get("rooms") or []]
        obscurity = lair.get("obscurity") or {}
        pieces.append(
            {
                "kind": "lair",
                "location": lair["grid"],
                "owner": faction,
                "label": f"Lair of {name}",
                "detail": f"{', '.join(rooms) or 'no rooms'}; Obscurity {obscurity.get('current', '?')}",
                "size": max(1, len(rooms)),
            }
        )
    known = record.get("known") or {}
    found: set[str] = set()
    for grid, settlement in sorted((known.get("settlements") or {}).items()):
        found.add(grid)
        label, attitude = _settlement_words(rules, settlement)
        pieces.append(
            {
                "kind": "settlement",
                "location": grid,
                "owner": faction,
                "label": label,
                "detail": f"Found by {name}, and {attitude} towards it",
                "size": 1,
            }
        )
    for grid, node in sorted((known.get("nodes") or {}).items()):
        found.add(grid)
        resource = _words(rules, "items", node.get("resource", "resource"))
        size = str(node.get("size") or "").replace("_", " ")
        uses = node.get("uses")
        left = (
            "harvests left unknown"
            if uses is None
            else f"{uses} {'harvest' if uses == 1 else 'harvests'} left"
        )
        pieces.append(
            {
                "kind": "resource_node",
                "location": grid,
                "owner": faction,
                "label": f"{resource.capitalize()} node found by {name}",
                "detail": f"{size} {resource.lower()} node, {left}".strip().capitalize(),
                "size": 1,
            }
        )
    for _id, encounter in sorted((known.get("encounters") or {}).items()):
        grid = str(encounter.get("grid") or "")
        if not grid:
            continue
        found.add(grid)
        units = encounter.get("units") or []
        pieces.append(
            {
                "kind": "encounter",
                "location": grid,
                "owner": faction,
                "label": f"Encounter met by {name}",
                "detail": f"{len(units)} {'band' if len(units) == 1 else 'bands'} of foes, "
                f"level {encounter.get('level', 0)}",
                "size": max(1, len(units)),
            }
        )
    lairs = {lair["grid"] for lair in (record.get("lairs") or {}).values()}
    for grid in sorted(set(known.get("scouted") or ()) - found - lairs):
        pieces.append(
            {
                "kind": "scouted_grid",
                "location": grid,
                "owner": faction,
                "label": f"Scouted by {name}",
                "detail": "Nothing of note found here yet",
                "size": 1,
            }
        )
    return pieces


def map_events(game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
    """A mark where each event the reader sees happened: a battle for a fight, a change for a scout, a
    harvest or a building."""
    marks = []
    for event in events:
        place = event.get("place")
        if not place or place not in game.world:
            continue
        actors = [a for a in event.get("actors") or [] if a in game.factions]
        marks.append(
            MapMark(
                MARKS.get(str(event.get("kind")), "change"),
                (str(place),),
                actors[0] if actors else None,
                game.ruleset.describe(event, game),
            )
        )
    return marks


def known_lines(game: Game, state: State, faction: str) -> list[str]:
    """What a usurper's report and template say of what it has found: a line for each kind of finding."""
    record = state["factions"][faction]
    known = record.get("known") or {}
    lines = []
    scouted = sorted(known.get("scouted") or ())
    if scouted:
        lines.append(f"Grids your units scouted: {', '.join(scouted)}.")
    for grid, settlement in sorted((known.get("settlements") or {}).items()):
        label, attitude = _settlement_words(game.rules, settlement)
        lines.append(f"At {grid}: {label}; {attitude} towards you.")
    for piece in own_pieces(game, record, faction):
        if piece["kind"] in ("resource_node", "encounter"):
            lines.append(f"At {piece['location']}: {piece['detail']}.")
    return lines
