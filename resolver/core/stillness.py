"""A state that holds still while many order files are checked against it.

Checking reads the state and never changes it, yet each file asks the same questions of it:
which armies stand on this tile, which settlement has this name. Answering each by a scan of
the whole state made checking every file of a big campaign grow with the square of its size.
While a state is held still (``Store.check``, sealing, a replay's checks), a ruleset builds
each lookup table once and shares it between the files; outside, it scans as before.

Tables belong to one collection of the state (its armies, its settlements), not to the state
itself: a checker's sketch of one nation's position copies that nation's armies but shares the
rest, and lookups in the shared collections still find their tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

Table = TypeVar("Table")


class _Still:
    def __init__(self, state: Any) -> None:
        # The collections are held here too, so that their ids stay theirs while the block runs.
        self.collections = [state, *(v for v in state.values() if isinstance(v, dict | list))]
        self.ids = {id(c) for c in self.collections}
        self.tables: dict[tuple[int, str], Any] = {}


_held: list[_Still] = []


@contextmanager
def holding_still(state: Any) -> Iterator[None]:
    """Promise that ``state`` and its collections are not changed inside the block, so tables built
    from them stay true."""
    _held.append(_Still(state))
    try:
        yield
    finally:
        _held.pop()


def table(collection: Any, name: str, build: Callable[[Any], Table]) -> Table | None:
    """The table ``name`` of a collection of a state held still, built on first use; None when the
    collection is not held still (a sketch's own copy, or no state held at all)."""
    if not _held or id(collection) not in _held[-1].ids:
        return None
    tables = _held[-1].tables
    key = (id(collection), name)
    if key not in tables:
        tables[key] = build(collection)
    return tables[key]


def is_held(collection: Any) -> bool:
    """Whether ``collection`` is one of the state held still now, whose tables are shared."""
    return bool(_held) and id(collection) in _held[-1].ids
