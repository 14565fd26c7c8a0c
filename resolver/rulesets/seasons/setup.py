"""A new seasons campaign: a province graph with capitals, forts and the Pole, four nations around it,
the Piorad's home at the edge and Alweg's small realm, each nation with a Marshal, a Captain and its
first army; the Piorad have a Captain, Alweg Captains only (never a Marshal)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ...core.factions import NPC, new_faction
from ...core.phases import State
from ...core.rng import stream
from ...core.world import World, generate_provinces
from ...engine.ruleset import FactionSetup, fill_factions
from .commanders import fresh_name

Rules = Mapping[str, Any]


def generate_world(seed: int, rules: Rules, factions: int) -> World:
    spec = rules["world"]
    # the nations, the Piorad, Alweg and the Pole
    count = int(spec["provinces_per_nation"]) * (factions + 1) + int(rules["alweg"]["provinces"]) + 1
    terrain = tuple((str(name), float(share)) for name, share in spec["terrain"])
    return generate_provinces(seed, count, int(spec["width"]), int(spec["height"]), terrain=terrain)


def _centre(world: World) -> str:
    xs = [loc.center[0] for loc in world.locations.values()]
    ys = [loc.center[1] for loc in world.locations.values()]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return min(world, key=lambda p: ((world[p].center[0] - mx) ** 2 + (world[p].center[1] - my) ** 2, p))


def _homes(world: World, count: int, pole: str) -> list[str]:
    """Capitals spread out: each next one the province farthest from the Pole and the capitals so far."""
    chosen: list[str] = []
    for _ in range(count):
        taken = [pole, *chosen]
        chosen.append(max(world, key=lambda p: (min(world.distance(p, t) for t in taken), p)))
    return chosen


def _grow(world: World, sizes: dict[str, int], pole: str) -> dict[str, list[str]]:
    """Each home takes the nearest free provinces round by round until it holds its size, so the realms
    come out even."""
    homes = list(sizes)
    held = {home: [home] for home in homes}
    taken = {pole, *homes}
    for _ in range(max(sizes.values()) - 1):
        for home in homes:
            if len(held[home]) >= sizes[home]:
                continue
            frontier = sorted({n for p in held[home] for n in world.neighbours(p)} - taken)
            if frontier:
                held[home].append(frontier[0])
                taken.add(frontier[0])
    return held


def _army(army_id: str, owner: str, location: str, commander: str, codes: list[str], rules: Rules) -> dict:
    units = [new_unit(f"{army_id}-u{i + 1}", code, rules) for i, code in enumerate(codes)]
    return {"id": army_id, "owner": owner, "location": location, "commander": commander, "units": units}


def new_unit(unit_id: str, code: str, rules: Rules) -> dict[str, Any]:
    spec = rules["units"][code]
    return {"id": unit_id, "code": code, "morale": spec["morale"], "wins": 0, "hits": 0}


def _commander(cid: str, owner: str, rank: str, reputation: int, name: str | None = None) -> dict[str, Any]:
    return {
        "id": cid,
        "name": name or cid,
        "owner": owner,
        "rank": rank,
        "reputation": reputation,
        "attributes": [],
        "weapon": None,
    }


def initial_state(world: World, rules: Rules, factions: list[FactionSetup], seed: int) -> State:
    start, piorad, alweg = rules["start"], rules["piorad"], rules["alweg"]
    pole = _centre(world)
    homes = _homes(world, len(factions) + 2, pole)  # the nations', the Piorad's, then Alweg's
    size = int(rules["world"]["provinces_per_nation"])
    realms = _grow(world, {home: size for home in homes[:-1]} | {homes[-1]: int(alweg["provinces"])}, pole)
    interests = list(rules["interests"])
    state: State = {"turn": 1, "provinces": {}, "armies": {}, "commanders": {}, "sieges": {}, "factions": {}}
    owners = {}
    npc_owners = [str(piorad["id"]), str(alweg["id"])]
    for owner, home in zip([setup.id for setup in factions] + npc_owners, homes, strict=True):
        for province in realms[home]:
            owners[province] = owner
    forts = {p for realm in realms.values() for p in realm[:2]}  # the capital and its first neighbour
    for pid in world:
        state["provinces"][pid] = {
            "owner": owners.get(pid),
            "capital": pid in homes,
            "pole": pid == pole,
            "fort": pid in forts or pid == pole,
            "looted": False,
            "conquered": False,
        }
    for column, setup, home in zip("ABCD" * 4, factions, homes, strict=False):
        interest = stream(seed, f"seasons/interest/{setup.id}").choice(interests)
        state["factions"][setup.id] = new_faction(
            setup.id,
            setup.name,
            setup.color,
            **_starting_nation(start, home, interest=interest, column=column),
        )
        marshal, captain = f"{setup.id}-marshal", f"{setup.id}-captain"
        state["commanders"][marshal] = {
            **_commander(
                marshal, setup.id, "marshal", int(start["marshal_reputation"]), fresh_name(rules, state)
            ),
            "attributes": None,  # rolled at the campaign's first step (commanders.name_marshals)
        }
        state["commanders"][captain] = _commander(
            captain, setup.id, "captain", int(start["captain_reputation"]), fresh_name(rules, state)
        )
        state["armies"][f"{setup.id}-a1"] = _army(
            f"{setup.id}-a1", setup.id, home, marshal, list(start["units"]), rules
        )
    _add_alweg(state, rules, homes[-1])
    home = homes[-2]
    pid_ = str(piorad["id"])
    state["factions"][pid_] = _npc_record(
        piorad,
        **_nation_fields(
            capital=home,
            tech=0,
            defence=0,
            morale=int(start["national_morale"]),
            interest="loot",
            column=None,
        ),
    )
    captain = f"{pid_}-captain"
    state["commanders"][captain] = _commander(
        captain, pid_, "captain", int(piorad["reputation"]), fresh_name(rules, state)
    )
    state["armies"][f"{pid_}-a1"] = _army(f"{pid_}-a1", pid_, home, captain, list(piorad["units"]), rules)
    return state


def _npc_record(spec: Rules, **fields: Any) -> dict[str, Any]:
    """An NPC faction's record from its rules.yaml block (``piorad``, ``alweg``): id, name, colour."""
    return new_faction(str(spec["id"]), str(spec["name"]), str(spec["color"]), kind=NPC, **fields)


def _add_alweg(state: State, rules: Rules, home: str) -> None:
    """Alweg, an NPC realm (``realm``) the bot plays as a nation: its Captains, never a Marshal, and its
    first army under the best of them."""
    start, alweg = rules["start"], rules["alweg"]
    faction = str(alweg["id"])
    state["factions"][faction] = _npc_record(
        alweg, realm=True, **_starting_nation(start, home, interest="colonizing")
    )
    captains = [f"{faction}-captain{number}" for number in range(1, int(alweg["captains"]) + 1)]
    for captain in captains:
        state["commanders"][captain] = _commander(
            captain, faction, "captain", int(alweg["reputation"]), fresh_name(rules, state)
        )
    state["armies"][f"{faction}-a1"] = _army(
        f"{faction}-a1", faction, home, captains[0], list(alweg["units"]), rules
    )


BLANK_NATION = {
    "status": "active",
    "missed_turns": 0,
    "stock": {"resources": 0},
    "tech": 1,
    "defence": 1,
    "morale": 4,
    "shaken": 0,
    "unrest": 0,
    "interest": "colonizing",
    "wars": [],
    "rolls": 0,
    "season": {},
    "year": {},
    "hero": False,
    "column": "A",
}


def _starting_nation(start: Rules, capital: str, **given: Any) -> dict[str, Any]:
    """A nation's fields at the start (rules.yaml ``start``), a player's or Alweg's, then ``given``."""
    return _nation_fields(
        stock={"resources": int(start["resources"])},
        capital=capital,
        tech=int(start["tech"]),
        defence=int(start["defence"]),
        morale=int(start["national_morale"]),
        **given,
    )


def _nation_fields(**given: Any) -> dict[str, Any]:
    """A nation's own fields (what every ruleset shares aside): the blank record, then ``given``."""
    shared = ("status", "missed_turns")
    fields = {key: copy.deepcopy(value) for key, value in BLANK_NATION.items() if key not in shared}
    fields.update(given)
    return fields


def fill_state(rules: Rules, partial: State, factions: list[str]) -> State:
    """A whole state from a hand-written part (a scenario): provinces default to plain land, units to
    their code's morale, commanders to Captains of reputation 3; a nation's capital is its province
    marked ``capital``."""
    state = copy.deepcopy(dict(partial))
    state.setdefault("turn", 1)
    for key in ("provinces", "armies", "commanders", "sieges"):
        state.setdefault(key, {})
    for province in state["provinces"].values():
        for flag in ("capital", "pole", "fort", "looted", "conquered"):
            province.setdefault(flag, False)
        province.setdefault("owner", None)
    fill_factions(state, factions, BLANK_NATION)
    for faction, record in state["factions"].items():
        capitals = [
            p for p, v in sorted(state["provinces"].items()) if v["capital"] and v["owner"] == faction
        ]
        record.setdefault("capital", capitals[0] if capitals else None)
    for army_id, army in state["armies"].items():
        army.setdefault("id", army_id)
        army.setdefault("commander", None)
        for number, unit in enumerate(army.get("units", []), 1):
            unit.setdefault("id", f"{army_id}-u{number}")
            unit.setdefault("morale", rules["units"][unit["code"]]["morale"])
            unit.setdefault("wins", 0)
            unit.setdefault("hits", 0)
    for commander_id, commander in state["commanders"].items():
        defaults = _commander(commander_id, commander["owner"], "captain", 3)
        state["commanders"][commander_id] = {**defaults, **commander}
    return state
