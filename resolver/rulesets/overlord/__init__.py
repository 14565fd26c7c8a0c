"""The overlord ruleset (seed 001): a month of thirty days a turn, simulated day by day. Every unit carries
a queue of orders in the manual's order language that persists from month to month, with repeats,
counters, conditions, alternatives and day gates; factions work, pay upkeep, study, trade, recruit, claim
titles, keep stances toward each other and fight.

The month is the turn table's clock (``rules.yaml``): thirty ticks, each a day of immediate orders until
quiet and one full-day order per unit (``day.py``), then the day's battles, markets and recruits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...core.phases import PhaseFn, State
from ...engine.ruleset import Game, MapMark, Ruleset
from . import day, orders, public, report, sight, siteview
from . import model as m
from . import spectators as spectators  # loaded for its hook: onlookers hear of each battle
from .battle_story import battle_story
from .month import OverlordMonth

PIECES = ("units", "structures")  # collections whose records another faction sees only where it stands


class Overlord(Ruleset):
    id = "overlord"
    title = "Overlord"
    summary = (
        "A month of thirty days a turn: every unit follows its own queue of orders day by day, working, "
        "studying, trading, recruiting, travelling and fighting, while factions keep stances toward each "
        "other and claim titles."
    )
    source = "“Overlord”, a play-by-e-mail game's player's manual (seed 001)"
    turn_memory = OverlordMonth
    demo_turns = 6
    rules_chapters = True  # a chapter a page: the skills and items alone are long tables
    # What a GM places and removes: a unit (an NPC band, a lost hero), checked as the state contract has it.
    entity_kinds: ClassVar[Mapping[str, str]] = {"unit": "units"}

    def check_entity(self, kind: str, data: Mapping[str, Any], game: Game, state: State) -> list[str]:
        problems = []
        if data.get("owner") not in state["factions"]:
            problems.append(
                f"a unit needs an owner among the factions ({', '.join(sorted(state['factions']))})"
            )
        if data.get("location") not in game.world:
            problems.append("a unit needs a location of the map (an L id)")
        races = set(game.rules["races"])
        if data.get("race") not in races:
            problems.append(f"a unit's race is one of {', '.join(sorted(races))}")
        figures = data.get("figures")
        if isinstance(figures, bool) or not isinstance(figures, int) or figures < 1:
            problems.append("a unit needs at least 1 figure")
        return problems

    def phase_functions(self) -> Mapping[str, PhaseFn]:
        return day.PHASES

    def sees(
        self, game: Game, state: State, faction: str | None, collection: str, piece: Mapping[str, Any]
    ) -> bool:
        """Another faction's unit is seen as the report lists it (spec 1.7, ``sight.faction_sees``: where one
        of the faction's units stands and sees it, or it shows itself); a structure wherever one of the
        faction's units stands (structures hide nobody and nothing). The public sees none."""
        if collection not in PIECES:
            return True
        if faction is None:
            return False
        units = state.get("units") or {}
        if collection == "units":
            # The hook hands the record, not its id: the record is the state's own, found by identity.
            unit_id = next((uid for uid, unit in units.items() if unit is piece), None)
            if unit_id is not None:
                return sight.faction_sees(game.rules, state, faction, unit_id)
        return bool(sight.watchers(state, faction, piece.get("location")))

    def status_lines(self, game: Game, state: State, faction: str) -> list[str]:
        record = state["factions"].get(faction) or {}
        date = game.calendar.date(int(state["turn"]))
        lines = [f"{date.label}. Fund: {record.get('fund', 0)} coins."]
        for unit_id, unit in m.owned(state, faction).items():
            coins = int((unit.get("items") or {}).get("coin", 0))
            # The place with its id, as orders name it (MOVE L12): the template's reader can copy it.
            where = f"{game.place_label(unit.get('location'))} [{unit.get('location')}]"
            queue = "; ".join(unit.get("orders") or []) or "nothing but work"
            under = f", stacked under {unit['stack']}" if unit.get("stack") else ""
            lines.append(
                f"{unit.get('name')} [{unit_id}], {_figures(game, unit)}, at {where}{under}, "
                f"{coins} coins. Queue: {queue}."
            )
        return lines

    def report_sections(
        self, game: Game, state: State, faction: str, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[str, list[str]]]:
        """The manual's report (spec 1.6): the faction, its units, structures, places and knowledge."""
        return report.sections(game, state, faction, events)

    def standings(self, game: Game, state: State) -> list[dict[str, Any]]:
        return siteview.standings(game, state)

    def faction_view(self, game: Game, state: State, faction: str | None) -> State:
        """The fog of war's view, with each title whose holding unit the view does not show kept under
        the faction that holds it (``public.veil_title_holders``), no unit pointing at a leader the
        view does not show (``public.veil_hidden_leaders``), and another faction's unit owned by no one
        when the faction cannot tell whose it is (``public.veil_unknown_owners``)."""
        view = super().faction_view(game, state, faction)
        public.veil_title_holders(view)
        public.veil_hidden_leaders(view)
        if faction is not None:
            public.veil_unknown_owners(
                view, faction, lambda unit_id: sight.faction_recognises(game.rules, state, faction, unit_id)
            )
        return view

    def map_pieces(self, game: Game, state: State) -> list[dict[str, Any]]:
        return siteview.map_pieces(game, state)

    def map_holders(self, game: Game, state: State) -> dict[str, str | None]:
        """The places each faction owns by a land title, tinted in its colour."""
        return dict(siteview.owners(game, state))

    def map_events(self, game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
        return siteview.map_events(game, events)

    def faction_sections(
        self, game: Game, state: State, faction: str, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[str, list[str]]]:
        return siteview.faction_sections(game, state, faction, events)

    def stock_account(self, state: State, faction: str, stock: str) -> tuple[dict[str, int], str]:
        """The GM's grants and takes of coins go to the faction fund."""
        return state["factions"][faction], "fund"

    def order_examples(self, game: Game, state: State, faction: str) -> list[dict[str, Any]]:
        return orders.examples_for(game, state, faction)

    def story(self, event: Mapping[str, Any], game: Game, before: State, after: State) -> list[str]:
        """A battle's losses, titles, promotions and loot, a line each under its short sentence."""
        return battle_story(event)


def _figures(game: Game, unit: Mapping[str, Any]) -> str:
    race = str(unit.get("race"))
    count = int(unit.get("figures", 1))
    words = {"hero": ("hero", "heroes"), "ldr": ("leader", "leaders"), "man": ("man", "men")}
    one, many = words.get(race, (race, race))
    return f"{count} {one if count == 1 else many}"


RULESET = Overlord()
