"""The usurper ruleset (seed 000): a week a turn, four weeks a month, ten months a year. Each usurper acts
from a hidden lair with two leaders and units of ten: they scout the grid, harvest what they find, build and
renovate rooms, craft, trade and recruit, and fight; every two months Victory Points are counted.

Most rolls are a d100 plus every bonus that applies (the game's "Bronze" rule: everything stacks), read on
one table of bands from Complete Failure to Legendary (``rules/dice.yaml``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...core.phases import State
from ...core.standing import StandingSection
from ...engine.ruleset import Game, MapMark, Ruleset
from . import gm, lairs, mapview, orders, outfit, scoring, storage
from . import model as m
from .acting import UsurperWeek


class Usurper(Ruleset):
    id = "usurper"
    title = "Usurper"
    summary = (
        "Usurpers rise from hidden lairs: each week their leaders and units scout the land, harvest, build, "
        "craft, trade and fight; every two months Victory Points are counted."
    )
    source = "“Usurper, a Medieval Strategy Game”, round 5 (seed 000)"
    turn_memory = UsurperWeek
    rules_chapters = True  # a chapter of the game a page: one page of them all runs to a hundred tables
    demo_turns = 12  # three months of weeks, with the Victory Points counted at the end of month 2
    place_kinds: ClassVar[tuple[str, ...]] = ("city",)
    # What a GM places and removes: a city (Victory by Might razes the last one; a GM may raise a new one)
    # and a landmark of the rules data. Both are public and kept by their grid (``gm.py``).
    entity_kinds: ClassVar[Mapping[str, str]] = {"city": "cities", "landmark": "landmarks"}

    def check_entity(self, kind: str, data: Mapping[str, Any], game: Game, state: State) -> list[str]:
        if kind == "city":
            return gm.city_problems(data, game, state)
        return gm.landmark_problems(data, game, state)

    def piece_id_problems(
        self, kind: str, piece_id: str, data: Mapping[str, Any], game: Game, state: State
    ) -> list[str]:
        return gm.piece_id_problems(kind, piece_id, data, game, state)

    def placed_example(
        self, game: Game, state: State, kind: str, piece_id: str, piece: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]] | None:
        return gm.placed_example(game, state) if kind == "city" else None

    def standing_sections(self, rules: Mapping[str, Any]) -> dict[str, StandingSection]:
        return orders.standing_sections(rules)

    def order_examples(self, game: Game, state: State, faction: str) -> list[dict[str, Any]]:
        """The order models' examples with this usurper's own leaders, units and grids in them, so that
        each example names something the usurper has."""
        return orders.examples_for(game, state, faction)

    def status_lines(self, game: Game, state: State, faction: str) -> list[str]:
        record = m.usurper(state, faction)
        date = game.calendar.date(int(state["turn"]))
        lines = [f"{date.label}. Gold {record.get('gold', 0)}."]
        for lair in m.lairs(state, faction).values():
            rules = game.rules
            rooms = ", ".join(lairs.room_name(rules, room["type"]) for room in lair["rooms"])
            held = sorted(lair.get("storage", {}).items())
            stored = ", ".join(f"{storage.item_name(rules, k)} {v}" for k, v in held if v) or "nothing"
            obscurity = lair["obscurity"]
            lines.append(
                f"Lair [{lair['id']}] at {lair['grid']}: {rooms}; stored {stored}; "
                f"Obscurity {obscurity['current']}/{obscurity['max']}."
            )
        for leader in m.leaders(state, faction).values():
            bonus = (game.rules["leader_bonuses"].get(leader["bonus"]) or {}).get("name", leader["bonus"])
            lines.append(f"Leader {leader['name']} [{leader['id']}], {bonus}, {leader['hp']} HP.")
        for unit in m.units(state, faction).values():
            lines.append(
                f"Unit {unit['name']} [{unit['id']}], {game.rules['races'][unit['race']]['name']}, "
                f"level {unit['level']}, "
                f"{unit['pax']} men."
            )
        lines += outfit.status_lines(game, state, faction)  # the setup market, in week 1
        return [*lines, *scoring.own_lines(game.rules, record), *mapview.known_lines(game, state, faction)]

    def standings(self, game: Game, state: State) -> list[dict[str, Any]]:
        """The usurpers by Victory Points, the only numbers of theirs that are public; where the state
        holds more (an open campaign, the GM's full state), their gold, units and men too."""
        scores = state.get("scores") or {}
        rows = []
        for faction in game.factions_in(state):
            record = state["factions"][faction]
            row: dict[str, Any] = {
                "faction": faction,
                "name": game.name_of(faction),
                "status": record.get("status", "active"),
                "victory_points": int((scores.get(faction) or {}).get("total", 0)),
            }
            if "gold" in record:  # a sealed campaign's public view holds none of these
                row["gold"] = int(record["gold"])
            if "units" in record:
                row["units"] = len(record["units"])
                row["men"] = sum(int(unit.get("pax", 0)) for unit in record["units"].values())
            rows.append(row)
        return sorted(rows, key=lambda row: (-row["victory_points"], row["faction"]))

    def map_pieces(self, game: Game, state: State) -> list[dict[str, Any]]:
        """The cities, which everyone sees, and each usurper's lairs and findings that ``state`` holds (all
        of them in an open campaign, a usurper's own in its view, none in a sealed campaign's public view)."""
        return mapview.map_pieces(game, state)

    def stock_account(self, state: State, faction: str, stock: str) -> tuple[dict[str, int], str]:
        """A usurper keeps its gold in its record itself (``gold``): the GM's grants and takes go there."""
        return state["factions"][faction], stock

    def map_events(self, game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
        return mapview.map_events(game, events)


RULESET = Usurper()
