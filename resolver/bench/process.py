"""Timing a turn as a user resolves it: ``campaign resolve`` as a whole fresh process, against its floor.

The floor is a bare Python process that loads, with libyaml's safe loader, every file the resolve reads
(the settings, the world, the state and the order files) and dumps the state the resolve wrote: what any
program that read the same inputs and wrote the same output would pay, start-up included. The usurper,
overlord and diplomacy rows time their turns this way; ratios within one run are what count.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from ..store.store import Store

# The floor's process: safe-load every file named, then dump the first one, the state the resolve wrote.
FLOOR_CHILD = (
    "import sys, yaml; L = getattr(yaml, 'CSafeLoader', yaml.SafeLoader); "
    "D = getattr(yaml, 'CSafeDumper', yaml.SafeDumper); "
    "loaded = [yaml.load(open(p, 'rb').read(), Loader=L) for p in sys.argv[2:]]; "
    "yaml.dump(yaml.load(open(sys.argv[1], 'rb').read(), Loader=L), Dumper=D, sort_keys=True, "
    "allow_unicode=True)"
)
SETTINGS = ("campaign.yaml", "players.yaml", "rules.yaml", "world.yaml")

# Git as the bench's scratch repositories run it: none of this machine's configuration, a fixed author.
GIT_SCRATCH = {
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
}


def seconds(command: list[str], env: Mapping[str, str] | None = None) -> float:
    """The wall time of one process, which must succeed."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:4])} failed: {done.stderr[-800:]}")
    return time.perf_counter() - started


def time_resolve(
    root: Path, repeat: int, *, key: str | None = None, floor: bool = True
) -> tuple[float, float | None]:
    """The fastest of ``repeat`` runs of ``campaign resolve`` on the campaign at ``root``, and of its floor
    (None with ``floor=False``, for a sealed campaign, whose files are not YAML to a bare loader). ``key``:
    the campaign key, handed over as CI hands it (CAMPAIGN_AGE_KEY).

    The two are taken in turn so that both meet the same load on a shared machine: the resolve runs on
    copies of the campaign first, and last on the campaign itself, which the next turn builds on. The floor
    reads what the resolve read, with the state the resolve wrote standing in for the one it read."""
    store = Store(root)
    kept = root.parent / f"{root.name}-orders"  # the order files as read: the resolve files them away
    shutil.rmtree(kept, ignore_errors=True)
    kept.mkdir()
    read = [store.campaign_dir / name for name in SETTINGS]
    for path in store.order_paths():
        read.append(Path(shutil.copy(path, kept / path.name)))
    env = {**os.environ, "CAMPAIGN_AGE_KEY": key} if key else None
    resolved = bare = float("inf")
    try:
        for attempt in range(repeat):
            target = root if attempt == repeat - 1 else root.parent / f"{root.name}-copy"
            if target != root:
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(root, target)
            command = [sys.executable, "-m", "resolver.cli", "resolve", "--root", str(target)]
            resolved = min(resolved, seconds(command, env))
            if floor:
                written = target / "campaign" / "state.yaml"
                bare = min(bare, seconds([sys.executable, "-c", FLOOR_CHILD, str(written), *map(str, read)]))
            if target != root:
                shutil.rmtree(target, ignore_errors=True)
    finally:
        shutil.rmtree(kept, ignore_errors=True)
    return resolved, (bare if floor else None)
