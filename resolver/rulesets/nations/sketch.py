"""The checker's sketch of one nation's position when the state's armies were read in part.

``campaign check`` reads a big state's armies one by one as they are looked at
(``core.canonical_reader.ReadEntries``). The sketch then keeps the nation's own armies as copies it may
change, over the armies as read. The nation's own armies are found by a search for their owner's line,
and the index answers a question about other nations' armies (who stands on this tile) by a search for
that tile's line, reading only the armies found: checking one file costs what its orders look at, not
what the whole map holds. Everything here gives what the plain sketch and ``model.ArmyIndex`` give, in
the same order; only the reading is deferred. A state whose lines do not allow the searches (an army
without its owner's line) is read by columns scanned from every army, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import Any

from ...core import canonical
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

    def where(self, field: str, value: Any) -> list[Any] | None:
        """The armies whose ``field`` is ``value``, in the order of ``column``, reading only those found
        besides the nation's own copies; None when the armies as read cannot be searched so."""
        found = holding(self.read, field, value)
        if found is None:
            return None
        keys = {key for key in found if key not in self.own}
        keys.update(key for key, army in self.own.items() if key in self.read and army[field] == value)
        keys -= self._gone
        ordered = sorted(keys, key=self.read.place)
        ordered += [key for key, army in self.own.items() if key not in self.read and army[field] == value]
        return [self[key] for key in ordered]

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


def written(value: Any) -> str | None:
    """A text value as the canonical writer writes it on its line; None for any other value (whose
    lines ``holding`` does not search: 1 and true are equal in Python, not in their lines)."""
    return canonical.dump(value).decode("utf-8")[:-1] if isinstance(value, str) else None


def holding(read: Any, field: str, value: Any) -> list[str] | None:
    """The keys of the armies as read whose ``field`` is ``value``, in order, found by a search for
    that one line (``ReadEntries.holding``); None when ``read`` cannot answer so."""
    line = written(value)
    search = getattr(read, "holding", None)
    return None if search is None or line is None else search(field, line)


def sketch_armies(read: Mapping[str, Any], nation: str) -> SketchArmies | None:
    """The sketch's armies over ``read``, with the nation's own copied; None when ``read`` cannot give
    its owners without reading every army (then the plain sketch is made)."""
    keys = holding(read, "owner", nation)
    if keys is None:
        # The index asks for every column it needs next: scanned in one pass with the owners.
        owners = read.columns(ARMY_COLUMNS)["owner"] if hasattr(read, "columns") else None
        if owners is None:
            return None
        keys = [key for key, owner in owners.items() if owner == nation]
    # A sketch moves, renames, splits and merges armies, but never changes a unit.
    own = {key: {**read[key], "units": list(read[key]["units"])} for key in keys}
    return SketchArmies(read, own)


class _Found(Mapping[Any, Any]):
    """A table of the state's armies whose rows are found when first asked for (``.get``), as
    ``model._SharedArmies`` holds them built."""

    def __init__(self, find: Callable[[Any], Any]) -> None:
        self._find = find
        self._found: dict[Any, Any] = {}

    def get(self, key: Any, default: Any = None) -> Any:
        if key not in self._found:
            self._found[key] = self._find(key)
        found = self._found[key]
        return default if found is None else found

    def __getitem__(self, key: Any) -> Any:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __iter__(self) -> Iterator[Any]:
        raise TypeError("a table found row by row cannot list its rows")

    def __len__(self) -> int:
        raise TypeError("a table found row by row cannot count its rows")


class _SharedArmiesFound:
    """``model._SharedArmies`` of the armies as read, each row found by a search for its line (the
    armies on a tile, of a nation, of a name), reading only the armies found; when the armies' lines do
    not allow the search, the whole table is built from every army, as the plain index builds it."""

    def __init__(self, read: Mapping[str, Any]) -> None:
        self.read = read
        self._whole: m._SharedArmies | None = None
        self.at = _Found(lambda location: self._find("location", location, lambda table: table.at))
        self.owned = _Found(lambda nation: self._find("owner", nation, lambda table: table.owned))
        self.named = _Found(self._named)

    def _table(self) -> m._SharedArmies:
        if self._whole is None:
            self._whole = m._SharedArmies(self.read)
        return self._whole

    def _find(self, field: str, value: Any, row: Callable[[m._SharedArmies], dict[Any, Any]]) -> Any:
        keys = holding(self.read, field, value)
        if keys is None:
            return row(self._table()).get(value)
        return [self.read[key] for key in keys] or None

    def _named(self, owner_and_name: tuple[str, str]) -> Any:
        owner, name = owner_and_name
        named, owned = holding(self.read, "name", name), holding(self.read, "owner", owner)
        if named is None or owned is None:
            return self._table().named.get(owner_and_name)
        # The table keeps the last army of an owner and name, as a mapping built in order does.
        both = set(owned).intersection(named)
        last = next((key for key in reversed(named) if key in both), None)
        return None if last is None else self.read[last]


class SketchArmyIndex(m.ArmyIndex):
    """``model.ArmyIndex.for_sketch`` over ``SketchArmies``: the nation's own armies indexed as the sketch
    holds them, another nation's read only when an order looks one up by tile, owner or name."""

    def __init__(self, state: dict[str, Any], armies: SketchArmies, nation: str) -> None:
        super().__init__({"armies": {}})
        self.state, self._nation = state, nation
        self._shared = _SharedArmiesFound(armies.read)  # type: ignore[assignment]
        for army in armies.own.values():
            self.add(army)


def army_index(state: dict[str, Any], sketch: dict[str, Any], nation: str) -> m.ArmyIndex:
    """The index of a nation's sketch: over the armies as read in part, or ``ArmyIndex.for_sketch``."""
    armies = sketch["armies"]
    if isinstance(armies, SketchArmies) and not isinstance(armies.read, dict):  # the armies read in part
        return SketchArmyIndex(sketch, armies, nation)
    return m.ArmyIndex.for_sketch(state, sketch, nation)
