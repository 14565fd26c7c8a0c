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
from typing import Any, ClassVar

from ...core.phases import State
from ...core.words import number_word
from ...engine.ruleset import FactionSetup, Game, MapMark, Ruleset
from . import mapview, orders, phases
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
    # ``campaign demo`` plays two years of the game, spring 1901 to the winter of 1902, however many turns
    # that takes (a year is two to five turns: empty phases are skipped). ``demo_turns`` is only a floor.
    demo_years = 2
    demo_turns = 1
    marked_place_name = "Supply centre"
    # What a GM places and removes (a correction of the board): a unit, kept in the state's ``units``.
    entity_kinds: ClassVar[Mapping[str, str]] = {"unit": "units"}

    def check_entity(self, kind: str, data: Mapping[str, Any], game: Game, state: State) -> list[str]:
        """What makes a unit the GM places unplayable: an owner that is not a power of the campaign, a kind
        that is neither army nor fleet, a place not on the board or not one for that kind, or a province
        another unit stands in."""
        board = m.board(game)
        problems = []
        if data.get("owner") not in state["factions"]:
            problems.append(f"owner must be one of the powers: {', '.join(sorted(state['factions']))}")
        if data.get("kind") not in ("army", "fleet"):
            problems.append("kind must be army or fleet")
        location = str(data.get("location", ""))
        if not board.is_location(location):
            problems.append(
                f"location {location!r} is no place on the board; write a province id such as 'par'"
            )
        elif data.get("kind") == "army" and (board.kind(location) == "sea" or board.coast(location)):
            problems.append(f"an army cannot stand in {board.name(location)}")
        elif data.get("kind") == "fleet" and (
            board.kind(location) == "land" or (board.coasts(location) and not board.coast(location))
        ):
            problems.append(
                f"a fleet cannot stand in {board.name(location)}; name a coast where there are two"
            )
        elif m.unit_id_at(state, board.province(location)) is not None:
            problems.append(f"a unit stands in {board.name(board.province(location))} already")
        return problems

    def placed_example(
        self, game: Game, state: State, kind: str, piece_id: str, piece: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]] | None:
        """An army of the piece's power in the first empty inland or coastal province."""
        board = m.board(game)
        taken = {board.province(unit.location) for unit in m.units(state)}
        free = next(p for p in board.provinces if board.kind(p) != "sea" and p not in taken)
        owner = str(piece["owner"])
        return f"{owner}-gm1", {"owner": owner, "kind": "army", "location": free}

    def demo_length(self) -> str:
        return f"{number_word(self.demo_years)} years"

    def demo_over(self, game: Game, state: State, played: int) -> bool:
        """Two years played: the next phase is in the third year of the game."""
        third_year = int(game.rules["start"]["year"]) + self.demo_years
        return played >= self.demo_turns and m.year(state) >= third_year

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

    def awaits(self, game: Game, state: State, faction: str) -> bool:
        """A power is awaited in a movement when it has a unit, in the retreats when one of its units was
        dislodged, in the winter when it has a build it can make or a unit to remove."""
        return phases.has_choice(m.board(game), state, m.phase_kind(state), faction)

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
            *orders.unit_lines(game, state, faction),
        ]

    def orderable(self, game: Game, state: State, faction: str) -> list[str]:
        return orders.orderable(game, state, faction)

    def order_examples(self, game: Game, state: State, faction: str) -> list[dict[str, Any]]:
        """The template's examples name the power's own units, in this phase's orders."""
        return orders.order_examples(game, state, faction)

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

    def map_marked_places(self, game: Game) -> frozenset[str]:
        return mapview.map_marked_places(game)

    def map_events(self, game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
        return mapview.map_events(game, events, lambda event: self.describe(event, game))


RULESET = Diplomacy()
