"""``make bench``, the diplomacy row: a game year of the seven powers, each turn (a phase of the year)
resolved as a user resolves it, in a sealed campaign (the ruleset's default) and in an open one.

The seven bots write their orders for the phase; then the turn is timed as fresh processes
(``process.time_resolve``): ``campaign resolve`` in the open campaign against its floor, a bare process
that loads the same files and dumps the state it wrote, and ``campaign resolve`` in the sealed campaign,
which decrypts seven order files and encrypts every power's report, view and the full state. One power's
``campaign check``, as a pull request's check runs it, is timed in the open campaign too. Both campaigns
play the same game, as nothing in Diplomacy is rolled, so their turns compare one to one.

The issue sets no target on this row: it shows where a year's time goes and how sealing weighs on it.
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
from ..store import sealing
from ..store.store import Store
from ..workflow import (
    demo_player_keys,
    new_campaign,
    prepare_demo_folder,
    ruleset_factions,
    write_bot_orders,
    write_demo_key,
)
from .process import seconds, time_resolve

REPEAT = 3  # runs of each process a turn; the fastest counts, as the noise of a shared machine only adds
SEED = 1
KEY_FILE = "campaign-key.txt"  # outside campaign/, as a GM keeps it


@dataclass
class Phase:
    turn: int
    label: str  # "Spring 1901", "Autumn 1901 retreats"
    orders: int
    events: int
    open_resolve: float  # `campaign resolve` in the open campaign, seconds
    floor: float  # the bare load-and-dump process
    sealed_resolve: float  # `campaign resolve` in the sealed campaign
    check: float  # `campaign check` of one power's file, open campaign

    @property
    def ratio(self) -> float:
        return self.open_resolve / self.floor

    @property
    def sealing(self) -> float:
        return self.sealed_resolve / self.open_resolve


def start(root: Path, sealed: bool) -> str | None:
    """A campaign of the seven powers at ``root``; its key when sealed."""
    factions = ruleset_factions("diplomacy", None, SEED)
    if not sealed:
        new_campaign(root, "diplomacy", SEED, factions, name="Bench", sealed=False)
        return None
    prepare_demo_folder(root)  # a scratch campaign with the demo's keys, which may use the test beacon
    key_file = root.parent / f"{root.name}-{KEY_FILE}"
    key = write_demo_key(key_file, SEED, "campaign")
    sealing.use_key_file(key_file)  # this process writes the bots' sealed orders, as the demo does
    players = demo_player_keys(root, [f.id for f in factions], SEED)
    new_campaign(
        root, "diplomacy", SEED, factions, name="Bench", key=key, sealed=True, players=players,
        beacon_name="test",
    )  # fmt: skip
    return key


def time_check(root: Path, power: str, repeat: int) -> float:
    path = root / "orders" / f"{power}.yaml"
    if not path.exists():
        return float("nan")  # the power has nothing to decide in this phase
    command = [sys.executable, "-m", "resolver.cli", "check", "--root", str(root), str(path)]
    return min(seconds(command) for _ in range(repeat))


def play_year(base: Path, years: int, progress: bool, repeat: int = REPEAT) -> list[Phase]:
    """Play ``years`` game years in an open and a sealed campaign under ``base``, timing each turn."""
    open_root, sealed_root = base / "open", base / "sealed"
    start(open_root, sealed=False)
    key = start(sealed_root, sealed=True)
    phases: list[Phase] = []
    while True:
        state = canonical.read_yaml(open_root / "campaign" / "state.yaml")
        year = int(state["phase"]["year"])
        if year >= 1901 + years:
            break
        turn = int(state["turn"])
        label = str(state["dates"][turn - 1]["label"])
        orders = write_bot_orders(open_root)
        write_bot_orders(sealed_root)
        check = time_check(open_root, "england", repeat)
        open_resolve, floor = time_resolve(open_root, repeat)
        sealed_resolve, _ = time_resolve(sealed_root, repeat, key=key, floor=False)
        assert floor is not None
        store = Store(open_root)
        archived = canonical.read_yaml(store.turns_dir / f"{turn:04d}" / "events.yaml") or {}
        events = len(archived.get("events", []))
        phases.append(Phase(turn, label, orders, events, open_resolve, floor, sealed_resolve, check))
        if progress:
            print(f"\r  turn {turn}: {label}", end=" " * 20, file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return phases


def table(phases: list[Phase]) -> list[str]:
    lines = [
        "| turn | phase | orders | events | check s | resolve s (open) | floor s | ratio "
        "| resolve s (sealed) | sealed ÷ open |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for p in phases:
        check = "–" if p.check != p.check else f"{p.check:.3f}"  # NaN: England had nothing to decide
        lines.append(
            f"| {p.turn} | {p.label} | {p.orders} | {p.events} | {check} | {p.open_resolve:.3f} "
            f"| {p.floor:.3f} | {p.ratio:.2f}× | {p.sealed_resolve:.3f} | {p.sealing:.2f}× |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m resolver.bench.diplomacy",
        description="A game year of Diplomacy's seven powers played by bots, each turn's `campaign resolve` "
        "timed as a whole process, open and sealed, against a bare process that loads and dumps the same "
        "files.",
    )
    parser.add_argument("--years", type=int, default=1, help="game years to play (default: 1, 1901)")
    args = parser.parse_args(argv)
    # The timed processes read compiled modules, as after any install or first run.
    compileall.compile_dir(Path(__file__).parents[1], quiet=1)
    base = Path(tempfile.mkdtemp(prefix="campaign-bench-diplomacy-"))
    try:
        print(f"Playing {args.years} year(s) of Diplomacy, seven powers, open and sealed …", file=sys.stderr)
        phases = play_year(base, args.years, progress=sys.stderr.isatty())
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"## Diplomacy: the seven powers, {args.years} game year(s), one turn a phase (seed {SEED})")
    print()
    print("\n".join(table(phases)))
    total_open = sum(p.open_resolve for p in phases)
    total_floor = sum(p.floor for p in phases)
    total_sealed = sum(p.sealed_resolve for p in phases)
    print()
    print(
        f"The year: {len(phases)} turns; resolve {total_open:.2f} s open "
        f"({total_open / total_floor:.2f}× the floors' {total_floor:.2f} s), {total_sealed:.2f} s sealed "
        f"({total_sealed / total_open:.2f}× open). "
        "No target is set on this row."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
