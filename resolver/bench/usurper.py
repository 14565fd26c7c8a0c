"""``make bench``, the usurper row: a year of weekly turns (40) for 12 usurpers, each turn resolved as a
user resolves it.

Bots write every usurper's orders for the week; then two fresh processes are timed, in turn, so that both
meet the same load on a shared machine:

- ``campaign resolve`` (load, checks, resolution, archive, reports, templates), start-up included;
- the floor: a bare Python process that loads, with libyaml's safe loader, every file that resolve reads
  (the settings, the world, the state and the order files) and dumps the state that resolve wrote.

Each turn's ratio of the two is the figure the issue sets a target on (at most 3×); the table shows the
turns at several points of the year, so that cost that grows with the campaign shows as it grows.
Ratios within one run are what count: absolute times vary with the machine.
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..core import canonical
from ..engine.bots import bot_order_file
from ..store.store import Store
from ..workflow import default_factions, new_campaign

TARGET = 3.0  # the bound on a turn's resolve, as a multiple of its floor
REPEAT = 3  # runs of each process a week; the fastest counts, as the noise of a shared machine only adds
ROWS = (1, 2, 4, 8, 12, 20, 30, 40)  # the turns the table shows (and the last, whatever it is)

# The floor's process: safe-load every file named, then dump the last one loaded that is the state.
FLOOR_CHILD = (
    "import sys, yaml; L = getattr(yaml, 'CSafeLoader', yaml.SafeLoader); "
    "D = getattr(yaml, 'CSafeDumper', yaml.SafeDumper); "
    "loaded = [yaml.load(open(p, 'rb').read(), Loader=L) for p in sys.argv[2:]]; "
    "yaml.dump(yaml.load(open(sys.argv[1], 'rb').read(), Loader=L), Dumper=D, sort_keys=True, "
    "allow_unicode=True)"
)


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


def write_bot_orders(root: Path) -> int:
    """Every active usurper's bot orders for the coming week, in orders/; returns how many orders."""
    store = Store(root)
    state = store.state()
    game = store.game(state)
    count = 0
    for faction in game.factions_in(state):
        of = bot_order_file(game, state, faction)
        canonical.write_atomic(store.orders_dir / f"{faction}.yaml", of.raw)
        count += len(of.orders)
    return count


def _seconds(command: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:4])} failed: {done.stderr[-800:]}")
    return time.perf_counter() - started


def play_year(root: Path, usurpers: int, turns: int, seed: int, progress: bool) -> list[Week]:
    new_campaign(root, "usurper", seed, default_factions(usurpers, seed, most=usurpers), name="Bench")
    weeks = []
    for turn in range(1, turns + 1):
        store = Store(root)
        orders = write_bot_orders(root)
        # The order files as the resolve reads them (it files them away), for the floor to read too.
        kept = root.parent / f"{root.name}-orders"
        shutil.rmtree(kept, ignore_errors=True)
        kept.mkdir()
        read = [
            store.campaign_dir / name
            for name in ("campaign.yaml", "players.yaml", "rules.yaml", "world.yaml")
        ]
        for path in store.order_paths():
            read.append(Path(shutil.copy(path, kept / path.name)))
        # The fastest of a few runs of each, taken in turn so that both meet the same load: the resolve
        # runs on copies of the campaign first, and last on the campaign itself, which next week builds
        # on. The floor reads what the resolve read, with the state the resolve wrote standing in for the
        # one it read (the two differ by a week).
        resolve = floor = float("inf")
        for attempt in range(REPEAT):
            target = root if attempt == REPEAT - 1 else root.parent / f"{root.name}-copy"
            if target != root:
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(root, target)
            resolve = min(
                resolve, _seconds([sys.executable, "-m", "resolver.cli", "resolve", "--root", str(target)])
            )
            written = target / "campaign" / "state.yaml"
            floor = min(floor, _seconds([sys.executable, "-c", FLOOR_CHILD, str(written), *map(str, read)]))
            if target != root:
                shutil.rmtree(target, ignore_errors=True)
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
        for scratch in ("orders", "copy"):
            shutil.rmtree(root.parent / f"{root.name}-{scratch}", ignore_errors=True)
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
