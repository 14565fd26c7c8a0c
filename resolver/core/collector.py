"""Python's cycle collector, paused while a big state is read, checked or resolved.

A big campaign's state is millions of small objects without cycles; every full collection walks them
all again (about a third of a resolve, a tenth of a check, at 400 factions). Whatever cycles the work
leaves are collected once the collector runs again."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycles_paused() -> Iterator[None]:
    """The collector paused for the block, then put back as it was."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
