"""A state that holds still while many order files are checked against it.

Checking reads the state and never changes it, yet each file asks the same questions of it:
which armies stand on this tile, which settlement has this name. Answering each by a scan of
the whole state made checking every file of a big campaign grow with the square of its size.
While a state is held still (``Store.check``, sealing, a replay's checks), a ruleset builds
each lookup table once and shares it between the files; outside, it scans as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

Table = TypeVar("Table")

_held: list[tuple[Any, dict[str, Any]]] = []


@contextmanager
def holding_still(state: Any) -> Iterator[None]:
    """Promise that ``state`` is not changed inside the block, so tables built from it stay true."""
    _held.append((state, {}))
    try:
        yield
    finally:
        _held.pop()


def table(state: Any, name: str, build: Callable[[Any], Table]) -> Table | None:
    """The table ``name`` of a state held still, built on first use; None when it is not held still."""
    if not _held or _held[-1][0] is not state:
        return None
    tables = _held[-1][1]
    if name not in tables:
        tables[name] = build(state)
    return tables[name]
