"""The checker's sketch of one nation's position when the state's armies were read in part.

``campaign check`` reads a big state's armies one by one as they are looked at
(``core.canonical_reader.ReadEntries``). The sketch then keeps the nation's own armies as copies it may
change, over the armies as read, and its index of armies by name and place is built from three columns
(owner, name, place) rather than from every army: another nation's army is read only when an order
looks at it. Everything here gives what the plain sketch and ``model.ArmyIndex`` give, in the same
order; only the reading is deferred.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
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
        read = getattr(self.read, "column", None)
        values = read(field) if read is not None else None
        if values is None:
            return None
        found = {
            key: self.own[key][field] if key in self.own else value
            for key, value in values.items()
            if key not in self._gone
        }
        found.update((key, army[field]) for key, army in self.own.items() if key not in values)
        return found


def sketch_armies(read: Mapping[str, Any], nation: str) -> SketchArmies | None:
    """The sketch's armies over ``read``, with the nation's own copied; None when ``read`` cannot give
    its owners without reading every army (then the plain sketch is made)."""
    owners = read.column("owner") if hasattr(read, "column") else None
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
        columns = [armies.column(field) for field in ARMY_COLUMNS]
        owners, names, places, ids = columns
        if owners is None or names is None or places is None or ids is None:
            super().__init__(state)
            return
        for key, owner in owners.items():
            entry = armies.own.get(key, key)  # the nation's own copy, or the id of an army not yet read
            self._named[(owner, names[key])] = entry
            self._owned.setdefault(owner, {})[ids[key]] = entry
            self._at.setdefault(places[key], {})[ids[key]] = entry

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
    if isinstance(armies, SketchArmies):
        return SketchArmyIndex(sketch, armies)
    return m.ArmyIndex.for_sketch(state, sketch, nation)
