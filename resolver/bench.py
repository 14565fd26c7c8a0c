"""``make bench``: the engine at the scale of a big campaign, measured in one run.

A synthetic nations campaign of 100 factions and 5,000 armies; every faction
marches all its armies and recruits. Figures are reported against the bare YAML
work on the same files (parse the state and the orders, dump the new state), so
they mean something on any machine.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from .core import canonical
from .core.rng import stream
from .engine import resolve_turn
from .rulesets.nations import model as m
from .store import Store
from .validate import check_order_file
from .workflow import default_factions, new_campaign

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def build(root: Path, factions: int, armies: int, seed: int) -> None:
    game = new_campaign(root, "nations", seed, default_factions(factions, seed), name="Bench")
    store = Store(root)
    state = store.state()
    world, rules = game.world, game.rules
    land = [loc for loc in world if m.passable(world, rules, loc)]
    rng = stream(seed, "bench/armies")
    per = armies // factions
    for f in game.factions:
        for _ in range(per - len(m.armies_of(state, f))):
            aid = m.new_id(state, f, "a")
            units = [m.make_unit(state, f, rules, "troops", "Levy", ["drilled"], {}) for _ in range(3)]
            state["armies"][aid] = {
                "id": aid,
                "owner": f,
                "name": m.next_army_name(state, f),
                "location": rng.choice(land),
                "units": units,
            }
        state["factions"][f]["stock"]["resources"] = 50
    # Every faction's armies a2-a6 stand with armies of the next faction and attack them: 500 battles.
    ids = list(game.factions)
    for i, f in enumerate(ids):
        enemy = ids[(i + 1) % len(ids)]
        for k in range(2, 7):
            state["armies"][f"{f}-a{k}"]["location"] = state["armies"][f"{enemy}-a{k + 10}"]["location"]
    canonical.write_yaml(store.campaign_dir / "state.yaml", state)
    canonical.write_yaml(store.turns_dir / "0000" / "state.yaml", state)
    for i, f in enumerate(game.factions):
        enemy = ids[(i + 1) % len(ids)]
        orders: list[dict[str, Any]] = []
        for army in sorted(m.armies_of(state, f), key=lambda a: a["id"]):
            if army["id"] in {f"{f}-a{k}" for k in range(2, 7)}:
                orders.append({"action": "attack", "army": army["name"], "target": enemy})
                continue
            for direction in world.directions():
                nxt = world.step(army["location"], direction)
                if nxt and m.passable(world, rules, nxt):
                    orders.append({"action": "move", "army": army["name"], "path": [direction]})
                    break
        capital = next(s for s in m.settlements_of(state, f) if s["type"] == "capital")
        orders += [
            {
                "action": "recruit",
                "settlement": capital["name"],
                "class": "troops",
                "name": f"Pikes {i}",
                "trait": "drilled",
            }
            for i in range(3)
        ]
        doc = {"campaign": game.campaign, "turn": 1, "faction": f, "orders": orders}
        canonical.write_atomic(store.orders_dir / f"{f}.yaml", canonical.dump(doc))


def bench_pr_check(stray_files: int = 1500) -> tuple[float, str]:
    """The whole ``campaign check --pr`` process on a pull request adding ``stray_files`` files beside
    the author's orders: the seconds it takes and its verdict. It must refuse in well under a second."""
    import subprocess

    with tempfile.TemporaryDirectory(prefix="campaign-bench-pr-") as tmp:
        root = Path(tmp)
        players = {"gm": {"logins": ["gm"]}, "factions": {"red": {"logins": ["alice"]}}}
        new_campaign(root, "nations", 1, default_factions(2, 1), name="Bench PR", players=players)
        env = {
            "GIT_CONFIG_GLOBAL": "/dev/null",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "bench",
            "GIT_AUTHOR_EMAIL": "bench@example.invalid",
            "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "bench@example.invalid",
            "PATH": "/usr/bin:/bin",
        }

        def git(*args: str) -> None:
            subprocess.run(["git", "-C", tmp, *args], env=env, check=True, capture_output=True)

        git("init", "--quiet", "--initial-branch=main")
        git("add", "--all")
        git("commit", "--quiet", "-m", "start")
        git("switch", "--quiet", "-c", "junk")
        (root / "junk").mkdir()
        for n in range(stray_files):
            (root / "junk" / f"{n:05}.yaml").write_text("[" * 200)
        shutil.copy(root / "orders" / "templates" / "red.yaml", root / "orders" / "red.yaml")
        git("add", "--all")
        git("commit", "--quiet", "-m", "junk")
        command = [sys.executable, "-m", "resolver.cli", "check", "--pr", "--root", tmp]
        command += ["--base", "main", "--head", "junk", "--author", "alice", "--comment", f"{tmp}/comment.md"]
        seconds, done = timed(lambda: subprocess.run(command, capture_output=True, text=True, check=False))
        return seconds, "refused" if done.returncode == 1 else f"exit {done.returncode}: {done.stderr[-200:]}"


def hostile_files(campaign: str) -> dict[str, str]:
    """The slowest files of the hostile corpus (tests/security/hostile.py), near the 64 KiB cap."""
    head = f"campaign: {campaign}\nturn: 1\nfaction: red\n"
    size = 60 * 1024
    return {
        "64 KiB of unclosed '{'": "{" * size,
        "30,000 levels of '['": head + "orders: " + "[" * 30000 + "]" * 30000,
        "6,000 keys in an unclosed '{'": head + "orders: {" + ", ".join(f"k{i}: 1" for i in range(6000)),
        "60 KiB of one plain word": head + "orders: " + "-[" * (size // 2 - 40),
        "a number of 30,000 digits": head + "orders:\n  - action: explore\n    army: " + "9" * 30000,
    }


def hostile_rows() -> list[tuple[str, str]]:
    """Time the whole ``campaign check`` process, start-up included, on the worst hostile files."""
    root = Path(tempfile.mkdtemp(prefix="campaign-bench-hostile-"))
    try:
        game = new_campaign(root, "nations", 1, default_factions(3, 1), name="Hostile")
        path = root / "orders" / "red.yaml"
        command = [sys.executable, "-m", "resolver.cli", "check", "--root", str(root)]

        def check_process(text: str, expect: int) -> float:
            path.write_text(text, encoding="utf-8")
            seconds, code = timed(lambda: subprocess.run(command, capture_output=True).returncode, 3)
            assert code == expect, f"campaign check exited {code}"
            return seconds

        valid = check_process(f"campaign: {game.campaign}\nturn: 1\nfaction: red\norders: []\n", 0)
        rows = [("campaign check process, a valid file", f"{valid * 1000:8.0f} ms")]
        times = {name: check_process(text, 1) for name, text in hostile_files(game.campaign).items()}
        for name, seconds in times.items():
            rows.append((f"  refusing {name}", f"{seconds * 1000:8.0f} ms"))
        worst = max(times, key=lambda name: times[name])
        rows.append(
            ("campaign check process, worst hostile file", f"{times[worst] * 1000:8.0f} ms  ({worst})")
        )
        return rows
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m resolver.bench", description=__doc__)
    parser.add_argument("--factions", type=int, default=100)
    parser.add_argument("--armies", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="campaign-bench-"))
    try:
        print(
            f"Building a nations campaign: {args.factions} factions, {args.armies} armies …", file=sys.stderr
        )
        build_time, _ = timed(lambda: build(root, args.factions, args.armies, args.seed))
        store = Store(root)
        order_paths = store.order_paths()
        raws = [p.read_bytes() for p in order_paths]
        state_raw = (store.campaign_dir / "state.yaml").read_bytes()

        def bare_yaml() -> None:
            loaded = yaml.load(state_raw, Loader=_Loader)
            for raw in raws:
                yaml.load(raw, Loader=_Loader)
            canonical.dump(loaded)

        yaml_time, _ = timed(bare_yaml, repeat=3)
        state = store.state()
        game = store.game(state)
        first = order_paths[0]
        check_time, checked = timed(
            lambda: check_order_file(game, state, first.read_bytes(), f"orders/{first.name}"), 5
        )
        assert checked.ok, checked.errors[:3]
        files = {
            p.stem: check_order_file(game, state, p.read_bytes(), f"orders/{p.name}") for p in order_paths
        }
        assert all(f.ok for f in files.values())
        tracemalloc.start()
        core_time, result = timed(lambda: resolve_turn(game, state, files))
        _, core_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        from .workflow import resolve

        full_time, _ = timed(lambda: resolve(root))
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        pr_seconds, pr_verdict = bench_pr_check()
        pr_check = (pr_seconds * 1000, pr_verdict)
        orders = sum(len(f.orders) for f in files.values())
        rows = [
            (
                "campaign",
                f"{args.factions} factions, {len(state['armies'])} armies, {orders} orders, "
                f"{len(game.world)} tiles",
            ),
            (
                "state.yaml",
                f"{len(state_raw) / 1e6:.1f} MB; orders {sum(map(len, raws)) / 1e3:.0f} kB in "
                f"{len(raws)} files",
            ),
            ("bare YAML (parse state + orders, dump state)", f"{yaml_time * 1000:8.0f} ms  = 1.00×"),
            ("check one faction's file", f"{check_time * 1000:8.1f} ms  = {check_time / yaml_time:.3f}×"),
            ("resolve one turn, pure core", f"{core_time * 1000:8.0f} ms  = {core_time / yaml_time:.2f}×"),
            (
                "resolve one turn, with load, checks, archive",
                f"{full_time * 1000:8.0f} ms  = {full_time / yaml_time:.2f}×",
            ),
            ("events / rolls", f"{len(result.events)} / {len(result.rolls)}"),
            ("peak memory: Python heap during resolve", f"{core_peak / 1e6:8.1f} MB"),
            ("peak memory: process RSS", f"{rss:8.1f} MB"),
            ("setup (not measured above)", f"{build_time:8.1f} s"),
            ("check --pr, 1,500 stray files (whole process)", "{:8.0f} ms  ({})".format(*pr_check)),
            *hostile_rows(),
        ]
        width = max(len(k) for k, _ in rows)
        print(f"{'benchmark':<{width}}  figure (× = ratio to the bare YAML work, same run)")
        for key, value in rows:
            print(f"{key:<{width}}  {value}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
