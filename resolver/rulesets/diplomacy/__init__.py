"""The standard game of Diplomacy: seven powers, 75 provinces, simultaneous orders and no dice.

Each phase of the game's year is one turn of the campaign (spring movement, its retreats, autumn
movement, its retreats, winter adjustments), and a phase in which nobody has a choice is skipped. The
adjudication is pure and stands apart from the engine's turn: ``pieces`` (units, orders, outcomes),
``board`` (the standard map, read from ``rules/map.yaml``), ``notation`` (order text as players and the
DATC write it), ``legality`` (the rule an order breaks), ``adjudication`` (a movement phase: moves,
supports and convoys resolved together), ``retreats`` and ``adjustments`` (the other two phases of a
year). ``model`` reads the campaign's state, ``phases`` plays a turn, ``setup`` starts a campaign.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.phases import State
from ...engine.ruleset import FactionSetup, Game, MapMark, Ruleset
from . import mapview
from . import model as m


class Diplomacy(Ruleset):
    id = "diplomacy"
    title = "Diplomacy"
    summary = (
        "Seven great powers of 1901 Europe bargain, ally and betray in turn; every order is written in "
        "secret and all are carried out at once, with no dice. The first power to hold 18 supply centres "
        "wins."
    )
    source = "The standard rules of Diplomacy (2023 rulebook), adjudicated as the DATC v3.0 reads them"
    demo_turns = 10

    def fixed_factions(self, rules: Mapping[str, Any]) -> tuple[FactionSetup, ...]:
        """The seven powers, in the map's order, named and coloured as the rules data says."""
        board = m.board()
        return tuple(
            FactionSetup(power, board.power_name(power), str(rules["powers"][power]["color"]))
            for power in board.powers
        )

    def _text_context(self, event: Mapping[str, Any], game: Game) -> dict[str, Any]:
        """The event texts' words for the board: ``where`` names a place ("St Petersburg (south coast)"),
        ``adjective`` a power ("French"), so no sentence shows a province's id."""
        board = m.board(game)

        def where(location: Any) -> str:
            return board.name(str(location)) if location and board.is_location(str(location)) else ""

        def adjective(power: Any) -> str:
            return board.power_adjective(str(power)) if power in board.powers else str(power)

        return {**super()._text_context(event, game), "where": where, "adjective": adjective}

    def status_lines(self, game: Game, state: State, faction: str) -> list[str]:
        """The phase, and the power's own centres and units, in words."""
        board = m.board(game)
        owned = sorted(board.name(centre) for centre, owner in m.owners(state).items() if owner == faction)
        units = [
            f"{'Army' if unit.kind == 'army' else 'Fleet'} {board.name(unit.location)}"
            for unit in m.units(state)
            if unit.power == faction
        ]
        return [
            f"{m.season(state).capitalize()} {m.year(state)}, {m.phase_kind(state)}.",
            f"Supply centres ({len(owned)}): {', '.join(owned) or 'none'}.",
            f"Units ({len(units)}): {', '.join(units) or 'none'}.",
        ]

    def standings(self, game: Game, state: State) -> list[dict[str, Any]]:
        """The powers by supply centres held, then units, then name."""
        rows = [
            {
                "faction": power,
                "name": game.name_of(power),
                "status": state["factions"][power].get("status", "active"),
                "centres": m.centre_count(state, power),
                "units": m.unit_count(state, power),
            }
            for power in game.factions_in(state)
        ]
        return sorted(rows, key=lambda row: (-row["centres"], -row["units"], row["faction"]))

    def map_pieces(self, game: Game, state: State) -> list[dict[str, Any]]:
        return mapview.map_pieces(game, state)

    def map_holders(self, game: Game, state: State) -> dict[str, str | None]:
        return mapview.map_holders(game, state)

    def map_events(self, game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
        return mapview.map_events(game, events, lambda event: self.describe(event, game))


RULESET = Diplomacy()
