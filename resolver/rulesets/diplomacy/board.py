"""The standard board of Diplomacy, read once from ``rules/map.yaml``: its powers, provinces, coasts, supply
centres, home centres and borders, and the reading of a place name as players and the DATC write it.

Places have two kinds of id. A province id is the three-letter abbreviation (``par``, ``nth``, ``stp``). A
location is where a unit stands: the province id, or for a fleet in a province of two coasts the province
with its coast (``stp/sc``, ``spa/nc``, ``bul/ec``). Armies move between provinces; fleets move between
locations, so a fleet in the Mid-Atlantic Ocean reaches both coasts of Spain and a fleet in Gascony only the
north one.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core import canonical
from ...core.words import series
from .pieces import Unit, UnitKind

MAP_FILE = Path(__file__).parent / "rules" / "map.yaml"
KINDS = ("land", "coast", "sea")
SUGGESTIONS = 3  # how many did-you-mean names an unknown place offers


class UnknownPlace(ValueError):
    """A place name the board cannot read. ``suggestions`` are location ids close to what was written,
    best first (possibly none); ``names`` are the same places in words, for a message."""

    def __init__(
        self, text: str, suggestions: tuple[str, ...] = (), names: tuple[str, ...] = (), problem: str = ""
    ) -> None:
        self.text = text
        self.suggestions = suggestions
        self.names = names or suggestions
        self.problem = problem or f"no place called {text.strip()!r} on the map"
        hint = f"; did you mean {series(list(self.names), 'or')}?" if self.names else ""
        super().__init__(self.problem + hint)


def normal(text: str) -> str:
    """A name reduced to what tells it apart: lower case, dots dropped, hyphens and underscores read as
    spaces, one space between words, a leading "the" dropped (``St. Petersburg`` and ``st petersburg``
    read alike, and so do ``the Baltic Sea`` and ``Baltic Sea``)."""
    text = text.casefold().replace(".", " ").replace("-", " ").replace("_", " ").replace("'", "")
    words = text.split()
    if len(words) > 1 and words[0] == "the":  # "the North Sea", as the DATC writes a place in its prose
        words = words[1:]
    return " ".join(words)


# Every way of naming a coast the reader accepts, to its code. A coast the province does not have, or a
# coast given to a province of one coast, is ignored (DATC 4.B.6: such garbage in an order is not read).
COAST_WORDS = {
    **{code: code for code in ("nc", "sc", "ec", "wc")},
    **{f"{side} coast": side[0] + "c" for side in ("north", "south", "east", "west")},
    **{side: side[0] + "c" for side in ("north", "south", "east", "west")},
    **{side[0]: side[0] + "c" for side in ("north", "south", "east", "west")},
    **{f"{side[0]} coast": side[0] + "c" for side in ("north", "south", "east", "west")},
}
# "Spain nc", "Spain north coast", "Spain, north coast": a coast written after the name without brackets.
_TRAILING_COAST = re.compile(r"^(?P<base>.+?)[\s,]+(?P<coast>(?:north|south|east|west)(?: coast)?|[nsew]c)$")


@dataclass(frozen=True)
class Board:
    """The map. Build it with ``standard_board()``; the fields after ``supply_centres`` are its tables."""

    powers: tuple[str, ...]
    supply_centres: frozenset[str]
    provinces: tuple[str, ...]  # every province id, in the order of the map file
    _power_names: dict[str, str] = field(repr=False, compare=False)
    _adjectives: dict[str, str] = field(repr=False, compare=False)
    _names: dict[str, str] = field(repr=False, compare=False)  # location -> name in words
    _kinds: dict[str, str] = field(repr=False, compare=False)
    _coasts: dict[str, tuple[str, ...]] = field(repr=False, compare=False)
    _homes: dict[str, tuple[str, ...]] = field(repr=False, compare=False)  # power -> its home centres
    _army: dict[str, frozenset[str]] = field(repr=False, compare=False)  # province -> provinces
    _fleet: dict[str, frozenset[str]] = field(repr=False, compare=False)  # location -> locations
    _starting: tuple[Unit, ...] = field(repr=False, compare=False)
    _spellings: dict[str, str] = field(repr=False, compare=False)  # normal(name) -> province id

    # --- powers -------------------------------------------------------------------------------------

    def power_name(self, power: str) -> str:
        return self._power_names[power]

    def power_adjective(self, power: str) -> str:
        """``Austrian``, ``English``: how a unit's nationality is written in an order."""
        return self._adjectives[power]

    def home_centres(self, power: str) -> tuple[str, ...]:
        return self._homes[power]

    def home_power(self, province: str) -> str | None:
        """The power whose home centre the province is, or None."""
        for power, homes in self._homes.items():
            if self.province(province) in homes:
                return power
        return None

    def starting_units(self) -> tuple[Unit, ...]:
        return self._starting

    # --- places -------------------------------------------------------------------------------------

    def province(self, location: str) -> str:
        """The province of a location: ``stp/sc`` -> ``stp``; a province id is its own province."""
        return location.split("/", 1)[0]

    def coast(self, location: str) -> str | None:
        """The coast code of a location (``sc`` of ``stp/sc``), or None."""
        return location.split("/", 1)[1] if "/" in location else None

    def is_location(self, location: str) -> bool:
        return location in self._names

    def name(self, location: str) -> str:
        """A location in words: ``stp/sc`` -> ``St Petersburg (south coast)``."""
        return self._names[location]

    def kind(self, province: str) -> str:
        """``land``, ``coast`` or ``sea`` (a location is read as its province)."""
        return self._kinds[self.province(province)]

    def coasts(self, province: str) -> tuple[str, ...]:
        """The coast locations of a province of two coasts (``("stp/nc", "stp/sc")``), else ()."""
        return self._coasts.get(self.province(province), ())

    def fleet_locations(self, province: str) -> tuple[str, ...]:
        """Where a fleet may stand in a province: its coasts, the province itself, or nowhere (land)."""
        province = self.province(province)
        if self._kinds[province] == "land":
            return ()
        return self._coasts.get(province) or (province,)

    # --- movement -----------------------------------------------------------------------------------

    def adjacent(self, unit_kind: UnitKind, origin: str, destination: str) -> bool:
        """Whether a unit of that kind moves from origin to destination in one step. Armies go between
        provinces (a coast written on either side is ignored). Fleets go between locations, coast-exact:
        a province of two coasts is reached only at a named coast (``spa/nc``), never as ``spa``. A fleet
        written in such a province without its coast is read as standing on either coast."""
        if destination not in self._names or origin not in self._names:
            return False
        if unit_kind == "army":
            return self.province(destination) in self._army.get(self.province(origin), frozenset())
        starts = self._coasts.get(origin, (origin,))
        return any(destination in self._fleet.get(start, frozenset()) for start in starts)

    def reaches(self, unit_kind: UnitKind, origin: str, province: str) -> bool:
        """Whether a unit of that kind could move to some location of the province (a support needs no
        more than this: the coast the supported unit goes to does not matter)."""
        if province not in self._names:
            return False
        if unit_kind == "army":
            return self.adjacent("army", origin, province)
        return any(self.adjacent("fleet", origin, place) for place in self.fleet_locations(province))

    def locations_next_to(self, unit_kind: UnitKind, origin: str) -> tuple[str, ...]:
        """Every place a unit of that kind reaches from origin in one step, sorted: provinces for an army,
        coast-exact locations for a fleet."""
        if origin not in self._names:
            return ()
        if unit_kind == "army":
            return tuple(sorted(self._army.get(self.province(origin), frozenset())))
        starts = self._coasts.get(origin, (origin,))
        return tuple(sorted({place for start in starts for place in self._fleet.get(start, frozenset())}))

    def neighbours(self, province: str) -> tuple[str, ...]:
        """The provinces that share a border with this one, by land or by sea, sorted."""
        province = self.province(province)
        found = set(self._army.get(province, frozenset()))
        for place in self.fleet_locations(province):
            found.update(self.province(other) for other in self._fleet.get(place, frozenset()))
        return tuple(sorted(found))

    def distances(self, sources: frozenset[str] | set[str]) -> dict[str, int]:
        """How many borders each province lies from the nearest of ``sources`` (provinces), crossing land
        and sea alike; provinces that cannot be reached are left out."""
        found = {source: 0 for source in sources if source in self._kinds}
        queue = deque(sorted(found))
        while queue:
            here = queue.popleft()
            for there in self.neighbours(here):
                if there not in found:
                    found[there] = found[here] + 1
                    queue.append(there)
        return found

    # --- reading names ------------------------------------------------------------------------------

    def lookup(self, text: str) -> str:
        """The location a name or abbreviation means, in any case: ``mao``, ``Mid-Atlantic Ocean``,
        ``stp/sc``, ``St Petersburg(sc)``, ``Spain (south coast)``, ``Spain nc``. Raises ``UnknownPlace``
        with close names when nothing fits."""
        raw = text.strip()
        base, coast = raw, None
        bracket = re.fullmatch(r"(?P<base>.*?)\s*\(\s*(?P<coast>[^()]*?)\s*\)", raw)
        if bracket:
            base, coast = bracket["base"], bracket["coast"]
        elif "/" in raw:
            base, _, coast = raw.rpartition("/")
        province = self._spellings.get(normal(base))
        if province is None and coast is None:
            trailing = _TRAILING_COAST.match(normal(raw))
            if trailing and trailing["base"] in self._spellings:
                province, coast = self._spellings[trailing["base"]], trailing["coast"]
        if province is None:
            raise self._unknown(text, normal(base))
        if coast is None:
            return province
        code = COAST_WORDS.get(normal(coast))
        if code is None:
            places = self._coasts.get(province) or (province,)
            problem = f"{self._names[province]} has no coast called {coast!r}"
            raise UnknownPlace(text, places, tuple(self._names[place] for place in places), problem)
        located = f"{province}/{code}"
        return located if located in self._coasts.get(province, ()) else province

    def _unknown(self, text: str, wanted: str) -> UnknownPlace:
        close = difflib.get_close_matches(wanted, list(self._spellings), n=SUGGESTIONS * 3, cutoff=0.6)
        suggestions: list[str] = []
        for spelling in close:
            province = self._spellings[spelling]
            if province not in suggestions:
                suggestions.append(province)
        chosen = tuple(suggestions[:SUGGESTIONS])
        return UnknownPlace(text, chosen, tuple(self._names[place] for place in chosen))

    def spellings(self) -> dict[str, str]:
        """Every spelling the reader knows (reduced by ``normal``) and the province it means."""
        return dict(self._spellings)


@functools.cache
def standard_board() -> Board:
    """The standard map, read from the rules data once a process."""
    return board_from_data(canonical.read_yaml(MAP_FILE)["map"])


def board_from_data(data: dict[str, Any]) -> Board:
    """A board from the ``map`` section of the rules data (the layout ``rules/map.yaml`` explains)."""
    powers = tuple(data["powers"])
    coast_names: dict[str, str] = data["coasts"]
    names: dict[str, str] = {}
    kinds: dict[str, str] = {}
    coasts: dict[str, tuple[str, ...]] = {}
    homes: dict[str, list[str]] = {power: [] for power in powers}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    spellings: dict[str, str] = {}
    centres = set()
    for province, entry in data["provinces"].items():
        if entry["kind"] not in KINDS:
            raise ValueError(f"{province}: kind {entry['kind']!r} is not one of {', '.join(KINDS)}")
        names[province] = entry["name"]
        kinds[province] = entry["kind"]
        if entry.get("centre"):
            centres.add(province)
        if entry.get("home"):
            homes[entry["home"]].append(province)
        if "army" in entry:
            army[province] = frozenset(entry["army"])
        if "fleet" in entry:
            fleet[province] = frozenset(entry["fleet"])
        split = entry.get("coasts") or {}
        coasts[province] = tuple(f"{province}/{code}" for code in split)
        for code, reached in split.items():
            location = f"{province}/{code}"
            names[location] = f"{entry['name']} ({coast_names[code]})"
            fleet[location] = frozenset(reached)
        for spelling in (province, entry["name"], *entry.get("aliases", ())):
            spellings[normal(spelling)] = province
    starting = tuple(
        Unit(power, "army" if text.split()[0] == "A" else "fleet", text.split()[1])
        for power, units in data["starting_units"].items()
        for text in units
    )
    return Board(
        powers=powers,
        supply_centres=frozenset(centres),
        provinces=tuple(data["provinces"]),
        _power_names={power: data["powers"][power]["name"] for power in powers},
        _adjectives={power: data["powers"][power]["adjective"] for power in powers},
        _names=names,
        _kinds=kinds,
        _coasts={province: places for province, places in coasts.items() if places},
        _homes={power: tuple(sorted(places)) for power, places in homes.items()},
        _army=army,
        _fleet=fleet,
        _starting=starting,
        _spellings=spellings,
    )
