"""A new overlord campaign: a hex map of territories with a city inside each start territory, the four
non-player factions, and every faction's hero with fifty followers stacked beneath him (spec 3.6).

The map is the world chapter's (geography.py); each faction starts in the city its start choice gives
(geography.start_cities), and every territory opens with this month's weather and next month's forecast.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ...core.calendar import Calendar
from ...core.factions import new_faction
from ...core.phases import State
from ...core.rng import stream
from ...core.world import World
from ...engine.ruleset import FactionSetup, fill_factions
from . import geography, npcs, titles, weather
from . import model as m
from .places import Draw, initial_places

Rules = Mapping[str, Any]
CITY = geography.CITY  # the kind of an inner city


def generate_world(seed: int, rules: Rules, factions: int) -> World:
    """The world chapter's hex map (geography.py): territories, the places inside them, travel times."""
    return geography.generate(seed, rules, factions)


def cities(world: World) -> list[str]:
    """The inner cities of the map, in the world's order."""
    return geography.cities(world)


def parent_of(world: World, location: str) -> str | None:
    """The territory an inner place lies in, or None for a territory."""
    return world[location].parent


def new_unit(rules: Rules, faction: str, name: str, race: str, figures: int, location: str) -> dict[str, Any]:
    """A unit record as the state contract has it, with nothing learnt and nothing carried."""
    return {
        "owner": faction,
        "name": name,
        "race": race,
        "figures": figures,
        "location": location,
        "structure": None,
        "stack": None,
        "arrival": 0,
        "items": {},
        "equipped": {},
        "skills": {},
        "orders": [],
        "title": None,
        "settings": {},
        "description": "",
        "tactic": dict(rules["start"]["tactic"]),
        "combat": [],
        "mana": 0,
        "effects": {},
        "dissent": False,
        "unpaid": 0,
        "idle": False,
        "moving": None,
        "worked": {"location": location, "days": 0},
        "progress": {},
    }


def initial_state(world: World, rules: Rules, factions: list[FactionSetup], seed: int) -> State:
    start = rules["start"]
    state: State = {"turn": 1, "places": {}, "structures": {}, "factions": {}, "units": {}}
    state["next_ids"] = {"unit": 100, "structure": 1}
    calendar = Calendar.from_rules(rules["calendar"])
    state["places"] = initial_places(world, rules, _place_draw(seed), calendar.date(1).season)
    opening = {
        which: weather.draw_weather(
            world, calendar.date(turn).season, rules, weather.seeded_roller(seed, which)
        )
        for which, turn in (("now", 1), ("next", 2))
    }
    for loc, now in opening["now"].items():
        state["places"].setdefault(loc, {})["weather"] = {"now": now, "next": opening["next"][loc]}
    for place, tag in titles.initial_titles(world, rules).items():
        state["places"].setdefault(place, {})["title"] = {"tag": tag, "holder": None}
    for npc, spec in rules["npc_factions"].items():
        state["factions"][npc] = new_faction(
            npc, str(spec["name"]), str(spec["color"]), kind="npc", **_faction_fields(0, str(spec["stance"]))
        )
    homes = geography.start_cities(world, rules, [str(start["place"])] * len(factions))
    names = list(start["hero_names"])
    for index, setup in enumerate(factions):
        bonus = int(start["bonus"].get(start["place"], 0))
        state["factions"][setup.id] = new_faction(
            setup.id,
            setup.name,
            setup.color,
            **_faction_fields(int(start["fund"]) + bonus, str(start["stance"])),
        )
        state["factions"][setup.id]["kind"] = "player"
        home = homes[index]
        place_start(state, rules, setup.id, home, names[index % len(names)])
    # The outlaws' and creatures' bands (npcs.py), after the factions so that the players' ids come first.
    starts = sorted({str(u["location"]) for u in m.units(state).values()}, key=list(world).index)
    npcs.place_bands(state, world, rules, seed, starts, new_unit)
    return state


def _place_draw(seed: int) -> Draw:
    """The draws of the places' starting numbers, one stream per label (places.initial_places)."""
    return lambda label, low, high: stream(seed, f"overlord/places/{label}").between(low, high)


def _faction_fields(fund: int, stance: str) -> dict[str, Any]:
    return {"fund": fund, "stances": {"default": stance}, "settings": {}, "press_reward": 0}


def place_start(state: State, rules: Rules, faction: str, location: str, hero_name: str) -> None:
    """A faction's hero with an equipped horse, and its followers stacked beneath him."""
    start = rules["start"]
    hero_id = m.next_unit_id(state)
    hero = new_unit(rules, faction, hero_name, str(start["hero"]["race"]), 1, location)
    hero["items"] = {k: int(v) for k, v in start["hero"]["items"].items() if int(v)}
    hero["equipped"] = {k: int(v) for k, v in start["hero"]["equipped"].items() if int(v)}
    hero["arrival"] = m.next_arrival(state, location)
    m.units(state)[hero_id] = hero
    followers_id = m.next_unit_id(state)
    spec = start["followers"]
    followers = new_unit(
        rules, faction, f"{hero_name}'s Company", str(spec["race"]), int(spec["figures"]), location
    )
    followers["stack"] = hero_id
    followers["arrival"] = m.next_arrival(state, location)
    m.units(state)[followers_id] = followers


def fill_state(rules: Rules, partial: State, factions: list[str]) -> State:
    """A whole state from a hand-written part of one: faction records, and every unit given the fields
    it leaves out."""
    state = copy.deepcopy(dict(partial))
    state.setdefault("turn", 1)
    for key in ("places", "structures", "units"):
        state.setdefault(key, {})
    state.setdefault("next_ids", {"unit": 100, "structure": 1})
    fill_factions(
        state,
        factions,
        {"status": "active", "missed_turns": 0, "kind": "player", **_faction_fields(0, "neutral")},
    )
    for uid, record in state["units"].items():
        blank = new_unit(
            rules,
            str(record.get("owner", "")),
            str(record.get("name", uid)),
            str(record.get("race", "man")),
            int(record.get("figures", 1)),
            str(record.get("location", "")),
        )
        state["units"][uid] = {**blank, **record}
    return state
