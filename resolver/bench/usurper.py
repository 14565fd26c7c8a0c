"""``make bench``, the usurper row: a year of weekly turns (40) for 12 usurpers, each turn resolved as a
user resolves it.

Bots write every usurper's orders for the week; then ``campaign resolve`` (load, checks, resolution,
archive, reports, templates) and its floor are timed as fresh processes (``process.time_resolve``).

Each turn's ratio of the two is the figure the issue sets a target on (at most 3×); the table shows the
turns at several points of the year, so that cost that grows with the campaign shows as it grows.
Ratios within one run are what count: absolute times vary with the machine.
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..core import canonical
from ..store.store import Store
from ..workflow import default_factions, new_campaign, write_bot_orders
from .process import time_resolve

TARGET = 3.0  # the bound on a turn's resolve, as a multiple of its floor
REPEAT = 3  # runs of each process a week; the fastest counts, as the noise of a shared machine only adds
ROWS = (1, 2, 4, 8, 12, 20, 30, 40)  # the turns the table shows (and the last, whatever it is)


@dataclass
class Week:
    turn: int
    resolve: float  # the whole `campaign resolve` process, in seconds
    floor: float  # the whole bare load-and-dump process
    state_kb: float
    orders: int
    events: int

    @property
    def ratio(self) -> float:
        return self.resolve / self.floor


def play_year(root: Path, usurpers: int, turns: int, seed: int, progress: bool) -> list[Week]:
    new_campaign(root, "usurper", seed, default_factions(usurpers, seed, most=usurpers), name="Bench")
    weeks = []
    for turn in range(1, turns + 1):
        orders = write_bot_orders(root)
        resolve, floor = time_resolve(root, REPEAT)
        assert floor is not None
        store = Store(root)
        state = store.campaign_dir / "state.yaml"
        events = len(
            (canonical.read_yaml(store.turns_dir / f"{turn:04d}" / "events.yaml") or {}).get("events", [])
        )
        weeks.append(Week(turn, resolve, floor, state.stat().st_size / 1024, orders, events))
        if progress:
            print(f"\r  week {turn}/{turns}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return weeks


def table(weeks: list[Week]) -> list[str]:
    shown = [w for w in weeks if w.turn in ROWS or w is weeks[-1]]
    lines = [
        "| week | orders | events | state KB | resolve process s | floor process s | ratio |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for w in shown:
        lines.append(
            f"| {w.turn} | {w.orders} | {w.events} | {w.state_kb:.0f} | {w.resolve:.3f} | {w.floor:.3f} "
            f"| {w.ratio:.2f}× |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m resolver.bench.usurper",
        description="A year of weekly usurper turns played by bots, each turn's `campaign resolve` timed as "
        "a whole process against a bare process that loads and dumps the same files.",
    )
    parser.add_argument("--usurpers", type=int, default=12, help="usurpers in the campaign (default: 12)")
    parser.add_argument("--turns", type=int, default=40, help="weeks to play (default: 40, a year)")
    parser.add_argument("--seed", type=int, default=1, help="the campaign's seed (default: 1)")
    args = parser.parse_args(argv)
    # The timed processes read compiled modules, as after any install or first run, even where the
    # environment forbids writing them (PYTHONDONTWRITEBYTECODE): otherwise each would compile the package.
    compileall.compile_dir(Path(__file__).parents[1], quiet=1)
    root = Path(tempfile.mkdtemp(prefix="campaign-bench-usurper-"))
    try:
        print(
            f"Playing {args.turns} weeks of a usurper campaign of {args.usurpers} usurpers …", file=sys.stderr
        )
        weeks = play_year(root, args.usurpers, args.turns, args.seed, progress=sys.stderr.isatty())
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(root.parent / f"{root.name}-copy", ignore_errors=True)
    print(f"## Usurper: {args.usurpers} usurpers, {args.turns} weekly turns (seed {args.seed})")
    print()
    print("\n".join(table(weeks)))
    worst = max(weeks, key=lambda w: w.ratio)
    met = worst.ratio <= TARGET
    print()
    print(
        f"Worst week: {worst.turn}, resolve {worst.ratio:.2f}× its floor (target ≤ {TARGET:g}×): "
        f"{'met' if met else 'NOT MET'}; median {sorted(w.ratio for w in weeks)[len(weeks) // 2]:.2f}×."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
