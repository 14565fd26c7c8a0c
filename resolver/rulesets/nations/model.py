"""The nations domain: armies, units, settlements and projects, read from plain state data.

State is plain data (so any ruleset can be stored, diffed and edited by GM orders
the same way); these functions give it the vocabulary of the rules.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ...core import stillness
from ...core.factions import next_id
from ...core.phases import State
from ...core.world import World

Army = dict[str, Any]
Unit = dict[str, Any]
Settlement = dict[str, Any]
Rules = Mapping[str, Any]

STATS = ("attack", "defence", "hp", "attacks", "move")


# -- armies and units ----------------------------------------------------------------------------------


def _grouped(pieces: Mapping[str, dict[str, Any]], field: str) -> dict[Any, list[dict[str, Any]]]:
    """Pieces by the value of one field, each group in the state's order."""
    groups: dict[Any, list[dict[str, Any]]] = {}
    for piece in pieces.values():
        groups.setdefault(piece[field], []).append(piece)
    return groups


def armies_of(state: State, nation: str) -> list[Army]:
    owned = stillness.table(state["armies"], "nations/armies-by-owner", lambda a: _grouped(a, "owner"))
    if owned is not None:
        return list(owned.get(nation, ()))
    return pieces_where(state["armies"], "owner", nation)


def army_entries_of(state: State, nation: str) -> list[tuple[str, Army]]:
    """The nation's armies with their keys in the state, in the state's order."""
    owned = stillness.table(state["armies"], "nations/army-entries-by-owner", _entries_by_owner)
    if owned is not None:
        return list(owned.get(nation, ()))
    return [(key, a) for key, a in state["armies"].items() if a["owner"] == nation]


def _entries_by_owner(armies: Mapping[str, Army]) -> dict[str, list[tuple[str, Army]]]:
    owned: dict[str, list[tuple[str, Army]]] = {}
    for key, army in armies.items():
        owned.setdefault(army["owner"], []).append((key, army))
    return owned


def armies_at(state: State, location: str) -> list[Army]:
    placed = stillness.table(state["armies"], "nations/armies-by-location", lambda a: _grouped(a, "location"))
    if placed is not None:
        return list(placed.get(location, ()))
    return pieces_where(state["armies"], "location", location)


def pieces_where(pieces: Any, field: str, value: Any) -> list[dict[str, Any]]:
    """The pieces whose ``field`` is ``value``, in order. A collection read in part (``campaign check``
    of a big state: core.canonical_reader.ReadEntries, nations.sketch.SketchArmies) answers from that
    one column, so only the pieces found are read."""
    # A search for the one value's lines (nations.sketch.SketchArmies.where) reads fewer than a column.
    found = pieces.where(field, value) if hasattr(pieces, "where") else None
    if found is not None:
        return found
    column = pieces.column(field) if hasattr(pieces, "column") else None
    if column is None:
        return [piece for piece in pieces.values() if piece[field] == value]
    return [pieces[key] for key, found in column.items() if found == value]


def foreign_armies_at(state: State, location: str, nation: str) -> list[Army]:
    return [a for a in armies_at(state, location) if a["owner"] != nation]


def army_speed(army: Army, rules: Rules, state: State) -> int:
    """A stack moves at its slowest unit's pace."""
    if not army["units"]:
        return 0
    bonus = army.get("modifiers", {}).get("move", 0)
    return max(0, min(u["move"] for u in army["units"]) + bonus)


def unit_weight(unit: Unit, rules: Rules) -> int:
    """How many units it counts as when assaulting a settlement (stealthed units count as 3)."""
    weight = 1
    for trait in unit.get("traits", []):
        weight = max(weight, int(rules["traits"].get(trait, {}).get("assault_weight", 1)))
    return weight


def next_army_name(state: State, nation: str, armies: Iterable[Army] | None = None) -> str:
    """The lowest free number among the nation's army names; ``armies``, when the caller has the
    nation's armies gathered, saves a scan of every army."""
    taken = {a["name"] for a in (armies_of(state, nation) if armies is None else armies)}
    n = 1
    while str(n) in taken:
        n += 1
    return str(n)


def split_names(state: State, nation: str, name: str) -> tuple[str, str]:
    """The names after a split, as ``(split_off, remaining)``: army 1 becomes 1a and 1b.

    The seed's template names the units splitting off first and the remaining units second, and its
    example letters them 1a and 1b in that order; letters already in use are skipped.
    """
    taken = {a["name"] for a in armies_of(state, nation)} - {name}
    letters = [c for c in "abcdefghijklmnopqrstuvwxyz" if f"{name}{c}" not in taken]
    return f"{name}{letters[0]}", f"{name}{letters[1]}"


def new_id(
    state: State,
    nation: str,
    kind: str,
    unit_ids: set[tuple[str, str]] | None = None,
    owned: Sequence[Army] | None = None,
) -> str:
    """The next free id of a kind (``core.factions.next_id``); a unit's id must not be in use among the
    nation's units either.

    ``unit_ids``, when given, holds (owner, unit id) for every unit in the state, kept in step by the caller
    (``make_unit`` adds the ids it makes); ``owned``, when given, is the nation's armies (from an index kept
    in step): either saves a scan of every army in the state for each id, which made a turn of many
    recruits quadratic."""
    return next_id(state, nation, kind, lambda piece: _id_in_use(state, nation, piece, unit_ids, owned))


def all_unit_ids(state: State) -> set[tuple[str, str]]:
    return {(a["owner"], u["id"]) for a in state.get("armies", {}).values() for u in a["units"]}


def _id_in_use(
    state: State,
    nation: str,
    piece: str,
    unit_ids: set[tuple[str, str]] | None = None,
    owned: Sequence[Army] | None = None,
) -> bool:
    if any(piece in state.get(c, {}) for c in ("armies", "settlements", "projects")):
        return True
    if unit_ids is not None:
        return (nation, piece) in unit_ids
    if owned is not None:
        return any(u["id"] == piece for a in owned for u in a["units"])
    return any(
        u["id"] == piece for a in state.get("armies", {}).values() if a["owner"] == nation for u in a["units"]
    )


def make_unit(
    state: State,
    nation: str,
    rules: Rules,
    cls: str,
    name: str,
    traits: list[str],
    stats: Mapping[str, int],
    unit_ids: set[tuple[str, str]] | None = None,
    owned: Sequence[Army] | None = None,
) -> Unit:
    base = rules["unit_classes"][cls]["base"]
    uid = new_id(state, nation, "u", unit_ids, owned)
    if unit_ids is not None:
        unit_ids.add((nation, uid))
    unit: Unit = {"id": uid, "class": cls, "name": name, "traits": list(traits)}
    for stat in STATS:
        unit[stat] = int(base[stat]) + int(stats.get(stat, 0))
    return unit


def stat_point_cost(rules: Rules, stats: Mapping[str, int]) -> int:
    costs = rules["recruit"]["stat_point_cost"]
    return sum(int(costs[s]) * n for s, n in stats.items())


class ArmyIndex:
    """Armies by (owner, name), by owner and by location, kept in step with moves during the orders phase.

    A turn of a big campaign runs thousands of orders; scanning every army for each would be quadratic.
    The checker's index of one nation's sketch (``for_sketch``) indexes only that nation's armies and
    reads every other nation's from a table of the state held still, built once for all the files.
    """

    def __init__(self, state: State) -> None:
        self.state = state
        self._named: dict[tuple[str, str], Army] = {}
        self._owned: dict[str, dict[str, Army]] = {}
        self._at: dict[str, dict[str, Army]] = {}
        self._nation: str | None = None  # with ``_shared``: the one nation indexed here
        self._shared: _SharedArmies | None = None
        for army in state["armies"].values():
            self.add(army)

    @classmethod
    def for_sketch(cls, state: State, sketch: State, nation: str) -> ArmyIndex:
        """The index of a checker's ``sketch`` of ``nation`` (see ``plans.sketch_of``): the nation's own
        armies as the sketch holds them, the others from the state's shared table while it holds still."""
        shared = stillness.table(state["armies"], "nations/army-index", _SharedArmies)
        if shared is None:
            return cls(sketch)
        index = cls({"armies": {}})
        index.state, index._nation, index._shared = sketch, nation, shared
        for key, _ in army_entries_of(state, nation):
            index.add(sketch["armies"][key])
        return index

    def _own(self, army: Army) -> None:
        if self._shared is not None and army["owner"] != self._nation:
            raise ValueError(f"a sketch of {self._nation} changes no army of {army['owner']}")

    def add(self, army: Army) -> None:
        self._own(army)
        self._named[(army["owner"], army["name"])] = army
        self._owned.setdefault(army["owner"], {})[army["id"]] = army
        self._at.setdefault(army["location"], {})[army["id"]] = army

    def remove(self, army: Army) -> None:
        self._own(army)
        self._named.pop((army["owner"], army["name"]), None)
        self._owned.get(army["owner"], {}).pop(army["id"], None)
        self._at.get(army["location"], {}).pop(army["id"], None)

    def named(self, nation: str, name: str) -> Army | None:
        if self._shared is not None and nation != self._nation:
            return self._shared.named.get((nation, name))
        return self._named.get((nation, name))

    def owned(self, nation: str) -> list[Army]:
        """The nation's armies in the index (one merged away is gone from it), in the order they came."""
        if self._shared is not None and nation != self._nation:
            return list(self._shared.owned.get(nation, ()))
        return list(self._owned.get(nation, {}).values())

    def at(self, location: str) -> list[Army]:
        here = list(self._at.get(location, {}).values())
        if self._shared is not None:
            here += [a for a in self._shared.at.get(location, ()) if a["owner"] != self._nation]
        return sorted(here, key=lambda a: a["id"])

    def foreign_at(self, location: str, nation: str) -> list[Army]:
        return [a for a in self.at(location) if a["owner"] != nation]

    def move(self, army: Army, location: str) -> None:
        self.remove(army)
        army["location"] = location
        self.add(army)

    def rename(self, army: Army, name: str) -> None:
        self.remove(army)
        army["name"] = name
        self.add(army)


class _SharedArmies:
    """Every army of a state held still by (owner, name), by owner and by location: built once, then
    shared by the index of every nation's sketch."""

    def __init__(self, armies: Mapping[str, Army]) -> None:
        self.named: dict[tuple[str, str], Army] = {}
        self.owned: dict[str, list[Army]] = {}
        self.at: dict[str, list[Army]] = {}
        for army in armies.values():
            self.named[(army["owner"], army["name"])] = army
            self.owned.setdefault(army["owner"], []).append(army)
            self.at.setdefault(army["location"], []).append(army)


# -- settlements ---------------------------------------------------------------------------------------


def settlements_of(state: State, nation: str) -> list[Settlement]:
    owned = stillness.table(
        state["settlements"], "nations/settlements-by-owner", lambda s: _grouped(s, "owner")
    )
    if owned is not None:
        return list(owned.get(nation, ()))
    return [s for s in state["settlements"].values() if s["owner"] == nation]


def settlement_at(state: State, location: str) -> Settlement | None:
    placed = stillness.table(
        state["settlements"], "nations/settlements-by-location", lambda s: _grouped(s, "location")
    )
    if placed is not None:
        return placed[location][0] if location in placed else None
    return next((s for s in state["settlements"].values() if s["location"] == location), None)


def _settlements_by_name(settlements: Mapping[str, Settlement]) -> dict[str, Settlement]:
    named: dict[str, Settlement] = {}
    for settlement in settlements.values():
        named.setdefault(settlement["name"].casefold(), settlement)
    return named


def settlement_named(state: State, name: str) -> Settlement | None:
    key = name.casefold()
    named = stillness.table(state["settlements"], "nations/settlements-by-name", _settlements_by_name)
    if named is not None:
        return named.get(key)
    return next((s for s in state["settlements"].values() if s["name"].casefold() == key), None)


class SettlementIndex:
    """Settlements by tile and by name for the orders phase, where a march or an attack asks of each
    tile it enters; kept in step when one is razed (a capture changes its owner, which is read live).
    The first settlement in the state's order answers, as ``settlement_at`` and ``settlement_named`` do."""

    def __init__(self, state: State) -> None:
        self._at: dict[str, list[Settlement]] = _grouped(state["settlements"], "location")
        self._named: dict[str, list[Settlement]] = {}
        for settlement in state["settlements"].values():
            self._named.setdefault(settlement["name"].casefold(), []).append(settlement)

    def at(self, location: str) -> Settlement | None:
        here = self._at.get(location)
        return here[0] if here else None

    def named(self, name: str) -> Settlement | None:
        found = self._named.get(name.casefold())
        return found[0] if found else None

    def remove(self, settlement: Settlement) -> None:
        name = settlement["name"].casefold()
        for group in (self._at.get(settlement["location"], []), self._named.get(name, [])):
            for i, held in enumerate(group):
                if held is settlement:
                    del group[i]
                    break


def level_stats(rules: Rules, settlement: Settlement) -> Mapping[str, int]:
    return rules["settlements"][settlement["type"]]["levels"][settlement["level"]]


def forces_at(armies: ArmyIndex, location: str, nation: str) -> list[Army]:
    """The nation's armies on a tile that still have units, as the orders phase has them so far."""
    return [a for a in armies.at(location) if a["owner"] == nation and a["units"]]


def assault_need(rules: Rules, settlement: Settlement, defended: bool) -> int:
    """The attackers (by assault weight) it takes to storm the settlement: one, for a type that falls at
    once when nobody defends it."""
    if not defended and rules["settlements"][settlement["type"]].get("falls_at_once", False):
        return 1
    return attackers_needed(rules, settlement)


def attackers_needed(rules: Rules, settlement: Settlement) -> int:
    siege_turns = (settlement.get("siege") or {}).get("turns", 0)
    need = int(level_stats(rules, settlement)["attackers"]) - siege_turns * int(
        rules["siege"]["attackers_reduction"]
    )
    return max(1, need)


def settlement_defence(rules: Rules, state: State, settlement: Settlement) -> int:
    """The defence bonus friendly units get in it, after siege wear and fortification advancements."""
    siege = settlement.get("siege") or {}
    if siege.get("bonus_lost"):
        return 0
    # Fortification is "walls and watchtowers for every settlement", those without a bonus of their own too.
    base = int(level_stats(rules, settlement)["defence"])
    base += advancement_bonus(state, rules, settlement["owner"], "settlement_defence")
    return max(0, base - siege.get("turns", 0) * int(rules["siege"]["defence_reduction"]))


def has_capital(state: State, nation: str) -> bool:
    return any(s["type"] == "capital" for s in settlements_of(state, nation))


# -- advancements and projects ----------------------------------------------------------------------------


def advancement_grants(state: State, rules: Rules, nation: str) -> list[Mapping[str, Any]]:
    """What each of a nation's advancements grants at its current level."""
    grants = []
    for name, adv in sorted(state["factions"][nation].get("advancements", {}).items()):
        if adv.get("grants"):
            grants.append(adv["grants"])
        elif name in rules["advancements"]:
            grants.append(rules["advancements"][name]["grants"].get(adv["level"], {}))
    return grants


def advancement_bonus(state: State, rules: Rules, nation: str, key: str) -> int:
    return sum(int(g.get(key, 0)) for g in advancement_grants(state, rules, nation))


def income_bonus(state: State, rules: Rules, nation: str) -> dict[str, int]:
    bonus: dict[str, int] = {}
    for grant in advancement_grants(state, rules, nation):
        for stock, n in (grant.get("income") or {}).items():
            bonus[stock] = bonus.get(stock, 0) + int(n)
    return bonus


def projects_of(state: State, nation: str) -> list[dict[str, Any]]:
    owned = stillness.table(state["projects"], "nations/projects-by-owner", lambda p: _grouped(p, "owner"))
    if owned is not None:
        return list(owned.get(nation, ()))
    return [p for p in state["projects"].values() if p["owner"] == nation]


def project_of_kind(state: State, nation: str, kind: str, **fields: Any) -> dict[str, Any] | None:
    """The nation's unfinished project of a kind with the fields given, e.g. the upgrade of one settlement."""
    return next(
        (
            p
            for p in projects_of(state, nation)
            if p["kind"] == kind and all(p[k] == v for k, v in fields.items())
        ),
        None,
    )


def build_sites(state: State) -> list[str]:
    """The tiles where any nation's settlement is being built."""
    return [p["location"] for p in state["projects"].values() if p["kind"] == "build"]


def project_named(state: State, nation: str, name: str) -> dict[str, Any] | None:
    return next((p for p in projects_of(state, nation) if p["name"] == name), None)


def upgrade_cost(rules: Rules, to_level: int) -> tuple[int, int, int]:
    """(actions, resources paid up front, resources per action) to raise a settlement to ``to_level``.

    The seed gives two formulas; ``upgrade.formula`` picks one. The section's formula reproduces the
    worked example: a capital to level 5 takes ceil(5 × 1.5) = 8 actions at 5 resources, 40 in all.
    """
    u = rules["upgrade"]
    if u["formula"] == "list":
        return int(u["list_actions_factor"]) * to_level, int(u["list_resources_factor"]) * to_level, 0
    actions = math.ceil(to_level * float(u["section_actions_factor"]))
    return actions, 0, int(u["section_resources_per_action"])


def advancement_cost(rules: Rules, to_level: int) -> tuple[int, int]:
    """(actions, resources) for an advancement level: level 2 costs double, level 3 triple."""
    a = rules["advancement"]
    return int(a["actions_per_level"]) * to_level, int(a["resources_per_level"]) * to_level


# -- the map -------------------------------------------------------------------------------------------


def passable(world: World, rules: Rules, location: str) -> bool:
    return world[location].terrain not in rules["movement"]["impassable"]


def walk(world: World, rules: Rules, start: str, path: list[str]) -> tuple[list[str], str]:
    """The tiles a path visits, or the problem with it: ("", tiles) when every step is legal."""
    tiles: list[str] = []
    here = start
    for i, direction in enumerate(path, 1):
        nxt = world.step(here, direction)
        if nxt is None:
            return tiles, f"step {i} ({direction}) leaves the map at {world[here].label}"
        if not passable(world, rules, nxt):
            return tiles, f"step {i} ({direction}) enters {world[nxt].label}, which is {world[nxt].terrain}"
        tiles.append(nxt)
        here = nxt
    return tiles, ""


def nations_at(state: State) -> Iterator[tuple[str, set[str]]]:
    """Each location with the set of nations that have units or a settlement there."""
    present: dict[str, set[str]] = {}
    for army in state["armies"].values():
        if army["units"]:
            present.setdefault(army["location"], set()).add(army["owner"])
    for s in state["settlements"].values():
        present.setdefault(s["location"], set()).add(s["owner"])
    for location in sorted(present):
        yield location, present[location]
