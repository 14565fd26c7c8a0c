"""The usurper ruleset (seed 000): a week a turn, four weeks a month, ten months a year. Each usurper acts
from a hidden lair with two leaders and units of ten: they scout the grid, harvest what they find, build and
renovate rooms, craft, trade and recruit, and fight; every two months Victory Points are counted.

Most rolls are a d100 plus every bonus that applies (the game's "Bronze" rule: everything stacks), read on
one table of bands from Complete Failure to Legendary (``rules/dice.yaml``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...core.phases import State
from ...core.standing import StandingSection
from ...engine.ruleset import Game, Ruleset
from . import model as m
from . import orders
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
    demo_turns = 12  # three months of weeks, with the Victory Points counted at the end of month 2
    place_kinds: ClassVar[tuple[str, ...]] = ("city",)

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
            rooms = ", ".join(room["type"].replace("_", " ") for room in lair["rooms"])
            held = sorted(lair.get("storage", {}).items())
            stored = ", ".join(f"{k} {v}" for k, v in held if v) or "nothing"
            obscurity = lair["obscurity"]
            lines.append(
                f"Lair [{lair['id']}] at {lair['grid']}: {rooms}; stored {stored}; "
                f"Obscurity {obscurity['current']}/{obscurity['max']}."
            )
        for leader in m.leaders(state, faction).values():
            lines.append(f"Leader {leader['name']} [{leader['id']}], {leader['bonus']}, {leader['hp']} HP.")
        for unit in m.units(state, faction).values():
            lines.append(
                f"Unit {unit['name']} [{unit['id']}], {unit['race']}, level {unit['level']}, "
                f"{unit['pax']} men."
            )
        return lines

    def standings(self, game: Game, state: State) -> list[dict[str, Any]]:
        """The usurpers by Victory Points, the only numbers of theirs that are public."""
        scores = state.get("scores") or {}
        rows = [
            {
                "faction": faction,
                "name": game.name_of(faction),
                "status": state["factions"][faction].get("status", "active"),
                "victory_points": int((scores.get(faction) or {}).get("total", 0)),
            }
            for faction in game.factions_in(state)
        ]
        return sorted(rows, key=lambda row: (-row["victory_points"], row["faction"]))

    def map_pieces(self, game: Game, state: State) -> list[dict[str, Any]]:
        """The cities, which everyone sees; a usurper's own view adds its lairs."""
        pieces = [
            {
                "kind": "city",
                "location": grid,
                "owner": None,
                "label": city["name"],
                "detail": f"{city['size'].replace('_', ' ')} city",
                "size": 1,
            }
            for grid, city in sorted((state.get("cities") or {}).items())
        ]
        for faction in game.factions_in(state):
            for lair in (state["factions"][faction].get("lairs") or {}).values():
                pieces.append(
                    {
                        "kind": "lair",
                        "location": lair["grid"],
                        "owner": faction,
                        "label": f"Lair of {game.name_of(faction)}",
                        "detail": f"{len(lair['rooms'])} rooms",
                        "size": 1,
                    }
                )
        return pieces


RULESET = Usurper()
