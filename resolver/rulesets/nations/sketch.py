"""The checker's sketch of one nation's position when the state's armies were read in part.

``campaign check`` reads a big state's armies one by one as they are looked at
(``core.canonical_reader.ReadEntries``). The sketch then keeps the nation's own armies as copies it may
change, over the armies as read, and its index of armies by name and place is built from four columns
(owner, name, place, id), scanned together or taken from the read cache, rather than from every army:
another nation's army is read only when an order looks at it. Everything here gives what the plain
sketch and ``model.ArmyIndex`` give, in the same order; only the reading is deferred.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from itertools import groupby
from typing import Any

from . import model as m

ARMY_COLUMNS = ("owner", "name", "location", "id")


class SketchArmies(MutableMapping[str, Any]):
    """``{**read, **own}`` without reading every army: the nation's copies over the armies as read."""

    def __init__(self, read: Mapping[str, Any], own: dict[str, Any]) -> None:
        self.read = read
        self.own = own
        self._gone: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        if key in self.own:
            return self.own[key]
        if key in self._gone:
            raise KeyError(key)
        return self.read[key]

    def __setitem__(self, key: str, army: Any) -> None:
        self._gone.discard(key)
        self.own[key] = army

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self.own.pop(key, None)
        if key in self.read:
            self._gone.add(key)

    def __contains__(self, key: object) -> bool:
        return key in self.own or (key in self.read and key not in self._gone)

    def __iter__(self) -> Iterator[str]:
        # The order of {**read, **own}: the armies as read, then those the orders added.
        yield from (key for key in self.read if key not in self._gone)
        yield from (key for key in self.own if key not in self.read)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def column(self, field: str) -> dict[str, Any] | None:
        """Every army's ``field`` by id, in order, reading none but the nation's own copies."""
        return self.columns((field,))[field]

    def columns(self, fields: Iterable[str]) -> dict[str, dict[str, Any] | None]:
        """Several columns (see ``column``), which the armies as read give from one scan."""
        fields = tuple(fields)
        read = getattr(self.read, "columns", None)
        found = read(fields) if read is not None else dict.fromkeys(fields)
        return {
            field: None if values is None else self._over(field, values) for field, values in found.items()
        }

    def _over(self, field: str, values: dict[str, Any]) -> dict[str, Any]:
        """A column of the armies as read with the nation's copies over it: a copy takes its army's
        place, an army the orders added comes last, one they removed is left out."""
        found = dict(values)
        found.update((key, army[field]) for key, army in self.own.items())
        for key in self._gone:
            found.pop(key, None)
        return found


def sketch_armies(read: Mapping[str, Any], nation: str) -> SketchArmies | None:
    """The sketch's armies over ``read``, with the nation's own copied; None when ``read`` cannot give
    its owners without reading every army (then the plain sketch is made)."""
    # The index asks for every column it needs next: scanned in one pass with the owners.
    owners = read.columns(ARMY_COLUMNS)["owner"] if hasattr(read, "columns") else None
    if owners is None:
        return None
    # A sketch moves, renames, splits and merges armies, but never changes a unit.
    own = {
        key: {**read[key], "units": list(read[key]["units"])}
        for key, owner in owners.items()
        if owner == nation
    }
    return SketchArmies(read, own)


class SketchArmyIndex(m.ArmyIndex):
    """``model.ArmyIndex`` over ``SketchArmies``: another nation's army is indexed by its id until an
    order looks it up by name or place, and is read then."""

    def __init__(self, state: dict[str, Any], armies: SketchArmies) -> None:
        self.state = state
        self._named: dict[tuple[str, str], Any] = {}
        self._owned: dict[str, dict[str, Any]] = {}
        self._at: dict[str, dict[str, Any]] = {}
        self._nation, self._shared = None, None
        columns = armies.columns(ARMY_COLUMNS)
        owners, names, places, ids = (columns[field] for field in ARMY_COLUMNS)
        if owners is None or names is None or places is None or ids is None:
            super().__init__(state)
            return
        # Each army's entry: the nation's own copy, or the id of an army not yet read.
        entries = dict(zip(owners, owners, strict=True))
        entries.update(armies.own)
        self._named = dict(
            zip(zip(owners.values(), names.values(), strict=True), entries.values(), strict=True)
        )
        # The four columns hold the same armies in the same order; a nation's armies mostly follow
        # one another (their keys begin with its id), so they are taken a run at a time.
        idents, found = list(ids.values()), list(entries.values())
        start = 0
        for owner, run in groupby(owners.values()):
            stop = start + len(list(run))
            self._owned.setdefault(owner, {}).update(zip(idents[start:stop], found[start:stop], strict=True))
            start = stop
        at = self._at
        for place, ident, entry in zip(places.values(), idents, found, strict=True):
            at.setdefault(place, {})[ident] = entry

    def _army(self, entry: Any) -> m.Army:
        return self.state["armies"][entry] if isinstance(entry, str) else entry

    def named(self, nation: str, name: str) -> m.Army | None:
        entry = self._named.get((nation, name))
        if isinstance(entry, str):
            self._named[(nation, name)] = entry = self._army(entry)
        return entry

    def _read(self, entries: dict[str, Any]) -> list[m.Army]:
        for ident, entry in entries.items():
            if isinstance(entry, str):
                entries[ident] = self._army(entry)
        return list(entries.values())

    def owned(self, nation: str) -> list[m.Army]:
        return self._read(self._owned.get(nation, {}))

    def at(self, location: str) -> list[m.Army]:
        return sorted(self._read(self._at.get(location, {})), key=lambda a: a["id"])


def army_index(state: dict[str, Any], sketch: dict[str, Any], nation: str) -> m.ArmyIndex:
    """The index of a nation's sketch: over the armies as read in part, or ``ArmyIndex.for_sketch``."""
    armies = sketch["armies"]
    if isinstance(armies, SketchArmies) and hasattr(armies.read, "columns"):  # the armies read in part
        return SketchArmyIndex(sketch, armies)
    return m.ArmyIndex.for_sketch(state, sketch, nation)
