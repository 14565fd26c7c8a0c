"""A new factions campaign: a city of locales, their locations, the NPC factions' holdings and the
player factions' homes, lieutenants, units and static assets."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...core.factions import new_faction
from ...core.phases import State
from ...core.rng import stream
from ...core.world import World, generate_provinces, make_names
from ...engine.ruleset import FactionSetup, filled_state
from . import model as m

Rules = Mapping[str, Any]


def generate_world(seed: int, rules: Rules, factions: int) -> World:
    w = rules["world"]
    count = max(int(w["min_locales"]), int(w["locales_per_faction"]) * factions)
    # Keep about 50 cells a locale so outlines stay readable as the city grows.
    width = max(int(w["width"]), math.ceil(math.sqrt(count * 50 * 4 / 3)))
    height = max(int(w["height"]), math.ceil(width * 3 / 4))
    terrain = tuple((str(name), float(share)) for name, share in w["terrain"])
    return generate_provinces(seed, count, width, height, terrain=terrain)


def _locations(world: World, rules: Rules, seed: int) -> dict[str, dict[str, Any]]:
    kinds = list(rules["location_kinds"])
    locations = {}
    for locale in world:
        pool = list(kinds)
        stream(seed, f"factions/locations/{locale}").shuffle(pool)
        for kind in sorted(pool[: int(rules["world"]["locations_per_locale"])]):
            lid = f"{locale}/{kind}"
            name = f"{rules['location_kinds'][kind]['name']} of {world[locale].label}"
            locations[lid] = {"id": lid, "locale": locale, "kind": kind, "name": name, "holder": None}
    return locations


def _spread_homes(world: World, count: int, seed: int) -> list[str]:
    """Locales as far from each other as the city allows: each next home is the farthest from the rest."""
    locales = list(world)
    homes = [locales[stream(seed, "factions/first-home").below(len(locales))]]
    while len(homes) < min(count, len(locales)):
        homes.append(
            max(locales, key=lambda loc: (min(world.distance(loc, h) for h in homes), -locales.index(loc)))
        )
    while len(homes) < count:  # more factions than locales: share
        homes.append(locales[len(homes) % len(locales)])
    return homes


def _pick(state: State, candidates: list[str], prefers: list[str]) -> str | None:
    free = [lid for lid in candidates if state["locations"][lid]["holder"] is None]
    rank = {kind: i for i, kind in enumerate(prefers)}
    return min(
        free, key=lambda lid: (rank.get(state["locations"][lid]["kind"], len(rank)), lid), default=None
    )


def _hold_for_npcs(
    state: State, world: World, rules: Rules, homes: dict[str, str], patrons: dict[str, str]
) -> None:
    npcs = rules["npc_factions"]
    # Each faction's patron keeps a holding within reach of the faction's home, so it can be courted.
    for faction, home in homes.items():
        npc = patrons[faction]
        near = [
            lid
            for lid, loc in state["locations"].items()
            if loc["locale"] in world.within(m.locale_of(state, home), 1)
        ]
        if not any(state["locations"][lid]["holder"] == npc for lid in near):
            chosen = _pick(state, near, list(npcs[npc]["prefers"]))
            if chosen:
                state["locations"][chosen]["holder"] = npc
    home_locales = {m.locale_of(state, h) for h in homes.values()}
    for npc, spec in sorted(npcs.items()):
        while len(m.holdings_of(state, npc)) < int(spec["holdings"]):
            held = {m.locale_of(state, lid) for lid in m.holdings_of(state, npc)}
            # Spread out: first locales where it holds nothing and no faction lives.
            tiers = [
                [lid for lid, loc in state["locations"].items() if loc["locale"] not in held | home_locales],
                [lid for lid, loc in state["locations"].items() if loc["locale"] not in held],
                list(state["locations"]),
            ]
            chosen = next((c for tier in tiers if (c := _pick(state, tier, list(spec["prefers"])))), None)
            if chosen is None:
                break
            state["locations"][chosen]["holder"] = npc


def initial_state(world: World, rules: Rules, factions: list[FactionSetup], seed: int) -> State:
    start = rules["start"]
    state: State = {
        "turn": 1,
        "factions": {},
        "locations": _locations(world, rules, seed),
        "assets": {},
        "projects": {},
    }
    homes: dict[str, str] = {}
    patrons: dict[str, str] = {}
    for f, locale in zip(factions, _spread_homes(world, len(factions), seed), strict=True):
        in_locale = m.locations_in(state, locale)
        home = _pick(state, in_locale, list(start["home_kinds"])) or in_locale[0]
        state["locations"][home]["holder"] = f.id
        homes[f.id] = home
    for i, f in enumerate(factions):
        archetype = start["archetypes"][i % len(start["archetypes"])]
        patrons[f.id] = archetype["patron"]
        state["factions"][f.id] = new_faction(
            f.id,
            f.name,
            f.color,
            archetype=archetype["title"],
            home=homes[f.id],
            stock={"capital": int(start["capital"]), "reach": int(start["reach"])},
            cohesion=int(start["cohesion"]),
            influence={archetype["patron"]: int(start["patron_influence"])},
            allies=[],
            items=dict(archetype.get("items") or {}),
            modifiers={},
            counters={},
        )
        names = make_names(seed, len(archetype["lieutenants"]), f"factions/lieutenants/{f.id}")
        for name, spec in zip(names, archetype["lieutenants"], strict=True):
            m.add_asset(
                state,
                rules,
                f.id,
                "lieutenant",
                homes[f.id],
                name=name,
                level=int(spec["level"]),
                ratings=dict(spec["ratings"]),
            )
        for type_name in [*archetype["units"], *archetype["statics"]]:
            m.add_asset(state, rules, f.id, type_name, homes[f.id])
    _hold_for_npcs(state, world, rules, homes, patrons)
    return state


BLANK_FACTION = {
    "status": "active",
    "missed_turns": 0,
    "stock": {"capital": 0, "reach": 0},
    "influence": {},
    "allies": [],
    "items": {},
    "modifiers": {},
    "counters": {},
}


def fill_state(rules: Rules, partial: State, factions: list[str]) -> State:
    """A whole state from a hand-written part: factions from the blank (with the starting Cohesion),
    locations from their ids (LOCALE/KIND), units their level from their type, ids from keys."""
    blank = {**BLANK_FACTION, "cohesion": rules["start"]["cohesion"]}
    state = filled_state(partial, factions, blank, records=("locations", "assets", "projects"))
    for lid, location in state["locations"].items():
        locale, kind = lid.split("/", 1)
        location.setdefault("locale", locale)
        location.setdefault("kind", kind)
        location.setdefault("name", f"{kind.capitalize()} of {locale.capitalize()}")
        location.setdefault("holder", None)
    for asset in state["assets"].values():
        if rules["asset_types"][asset["type"]]["kind"] == "unit":
            asset.setdefault("level", rules["asset_types"][asset["type"]].get("level", 1))
    return state
