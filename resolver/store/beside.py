"""Work done beside a resolve, on the machine's other core.

A resolve's last steps are independent of each other: the archive's files (events, reports, digests),
the next turn's player aids (the schema and each faction's order template) and the new state's entry
in the read cache read the same resolved state and write different files. On a system that forks, the
aids and the cache entry are written by forked children, which see the parent's memory as it was when
they were forked (the resolved state is never changed after), while the parent writes the archive. The
bytes are those the parent would write: the work is the same code on the same data, and any failure
of a child (an error, a signal, no fork at all) has the parent do the work itself, so that its error,
if it has one, is raised as before.
"""

from __future__ import annotations

import os
from collections.abc import Callable

# Whether work may leave this process; tests turn it off to compare the bytes written either way.
FORKING = hasattr(os, "fork")


def begin(work: Callable[[], None]) -> Callable[[bool], None]:
    """Start ``work`` in a forked child; returns ``finish``. ``finish(True)`` waits for the child and does
    the work here unless the child did all of it; ``finish(False)`` only waits (the resolve failed, and
    the child must write nothing more before the staged files are thrown away). ``work`` must only write
    files, atomically (``canonical.write_atomic``), that nothing else writes meanwhile."""
    child: int | None = None
    if FORKING:
        try:
            child = os.fork()
        except OSError:  # no room for another process: the work is done here instead
            child = None
        if child == 0:  # the child: do the work and leave, running none of the parent's clean-ups
            code = 1
            try:
                work()
                code = 0
            finally:
                os._exit(code)

    outcome: list[bool] = []  # whether the child did the work, once it has been waited for

    def finish(do_if_undone: bool) -> None:
        """May be called again (a failure after the first call): the child is waited for only once."""
        if child and not outcome:
            _, status = os.waitpid(child, 0)
            outcome.append(os.waitstatus_to_exitcode(status) == 0)
        if do_if_undone and not (outcome and outcome[0]):
            work()

    return finish
