"""Count the kinds of event the overlord demo shows over several seeds, to see that what the seed-1 demo
shows is the bot's doing and not the seed's luck.

    .venv/bin/python tools/overlord-demo-kinds.py [first last]     (seeds 1 to 8 by default)

Each seed plays the demo (6 months, 4 factions, open) in a temporary folder; the table gives, per kind
the demo must show, how many such events each seed had, and a last column with the seeds that had none.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path

import yaml

from resolver.cli import main

# The kinds the issue asks the demo to show, by what they stand for.
WANTED = {
    "movement": ("departs", "arrives"),
    "study": ("studied", "learned", "skill_learned", "study", "level_reached"),
    "market trade": ("bought", "sold"),
    "recruit": ("recruited",),
    "battle": ("battle",),
    "title claimed": ("title_claimed", "title_won"),
    "stance changed": ("stance_changed",),
    "press": ("press", "rumor", "rumour"),
}


def kinds_of(seed: int, folder: Path) -> dict[str, int]:
    root = folder / f"seed{seed}"
    with contextlib.redirect_stdout(io.StringIO()):  # the demo's own summary: only the table is wanted
        code = main(["demo", "--ruleset", "overlord", "--root", str(root), "--quiet", "--seed", str(seed)])
    if code != 0:
        raise SystemExit(f"the demo failed for seed {seed}")
    counts: dict[str, int] = {}
    for events in sorted((root / "campaign/turns").glob("*/events.yaml")):
        for event in yaml.safe_load(events.read_text())["events"]:
            counts[event["kind"]] = counts.get(event["kind"], 0) + 1
    return counts


def run(first: int, last: int) -> None:
    seeds = list(range(first, last + 1))
    with tempfile.TemporaryDirectory() as folder:
        per_seed = {seed: kinds_of(seed, Path(folder)) for seed in seeds}
    print(f"{'what':16}" + "".join(f"{seed:>6}" for seed in seeds) + "  seeds without")
    for what, kinds in WANTED.items():
        row = [sum(per_seed[seed].get(kind, 0) for kind in kinds) for seed in seeds]
        missing = [str(seed) for seed, count in zip(seeds, row, strict=True) if not count]
        print(f"{what:16}" + "".join(f"{count:>6}" for count in row) + "  " + (", ".join(missing) or "-"))


if __name__ == "__main__":
    bounds = [int(arg) for arg in sys.argv[1:3]] or [1, 8]
    run(bounds[0], bounds[-1])
