"""The whole job, as a game master's CI runs it (``resolver/github_workflows/resolve.yml``), step by step.

"Resolve": a fresh virtual environment without pip, the engine alone installed into it from the lock file
(every wheel checked against its hash), then ``campaign resolve --commit`` on a campaign in a git
repository. "Build the site": another fresh environment with the engine and the site tools, then
``campaign site``. The engine runs from a fresh copy of the package, as from a fresh checkout (no
compiled modules yet), and pip compiles what it installs, as on a runner.

No network: pip takes the wheels from the wheelhouse ``make install`` fills (``.venv/wheelhouse``, beside
the environment running the bench). Without it the steps are reported as skipped, never guessed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.canonical import CACHE_VARIABLE
from .process import GIT_SCRATCH

KIT = Path(__file__).resolve().parents[2]  # the folder holding the resolver package and requirements/
WHEELHOUSE = Path(sys.prefix) / "wheelhouse"
ENGINE = ("resolve.txt",)
ENGINE_AND_SITE = ("resolve.txt", "site.txt")


@dataclass
class Step:
    name: str
    seconds: float | None  # None: skipped
    note: str = ""


def _environment() -> dict[str, str]:
    """The steps' environment: this one without what would make them unlike a runner's (no bytecode
    switch, no path to this checkout, no pip settings of this machine) and with git reading no
    configuration of this machine's user."""
    drop = ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith(("PIP_", "GIT_"))}
    env.update({**GIT_SCRATCH, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_CACHE_DIR": "1"})
    return env


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:6])} … exited {done.returncode}: {done.stderr[-800:]}")
    return seconds


def install(venv: Path, lock_files: tuple[str, ...], env: dict[str, str]) -> float:
    """The workflow's install step: a venv without pip, then pip (this environment's) installing into it
    every package of ``lock_files``, pinned by hash, from the wheelhouse."""
    seconds = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], venv.parent, env)
    command = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet"]
    command += ["--require-hashes", "--only-binary=:all:", "--no-deps", "--no-index"]
    command += ["--find-links", str(WHEELHOUSE)]
    for name in lock_files:
        command += ["-r", str(KIT / "requirements" / name)]
    return seconds + _run(command, venv.parent, env)


def fresh_engine(folder: Path) -> Path:
    """A copy of the engine as a fresh checkout has it: the resolver package without compiled modules,
    and the templates beside it, where the engine finds them. Returns the folder to put on the path."""
    shutil.rmtree(folder, ignore_errors=True)
    for part in ("resolver", "templates"):
        shutil.copytree(KIT / part, folder / part, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def commit_campaign(root: Path, env: dict[str, str]) -> None:
    """Make the campaign at ``root`` a git repository with everything committed, orders included: the
    resolve reads the orders' posting order from its history."""
    for args in (
        ("init", "--quiet", "--initial-branch=main"),
        ("add", "--all"),
        ("commit", "--quiet", "-m", "start"),
    ):
        _run(["git", *args], root, env)


def whole_job(work: Path, resolve_root: Path, site_root: Path, factions: int, turns: int) -> list[Step]:
    """The workflow's steps: install the engine, resolve and commit the campaign at ``resolve_root`` (not
    yet a repository: it becomes one), install the engine and the site tools, build the site of the
    campaign at ``site_root`` (whose generated pages the caller has removed, as a fresh checkout has
    none). Every step's wall seconds, or the steps skipped with the reason."""
    names = [
        "install the engine from resolve.txt (fresh venv)",
        f"campaign resolve --commit, {factions} factions",
        "install the engine and site tools (fresh venv)",
        f"campaign site, {turns} turns",
    ]
    if not (WHEELHOUSE / ".complete").exists():
        reason = f"skipped: no wheelhouse at {WHEELHOUSE} (make install fills it)"
        return [Step(name, None, reason) for name in names]
    env = _environment()
    work.mkdir(parents=True, exist_ok=True)
    commit_campaign(resolve_root, env)
    steps = [Step(names[0], install(work / "resolve-venv", ENGINE, env))]
    # Each job runs on a fresh runner: a fresh checkout and an empty read cache.
    engine = {**env, "PYTHONPATH": str(fresh_engine(work / "resolve-checkout"))}
    engine[CACHE_VARIABLE] = str(work / "resolve-cache")
    engine.update(
        {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.hooksPath", "GIT_CONFIG_VALUE_0": "/dev/null"}
    )
    python = str(work / "resolve-venv" / "bin" / "python")
    steps.append(
        Step(names[1], _run([python, "-m", "resolver.cli", "resolve", "--commit"], resolve_root, engine))
    )
    steps.append(Step(names[2], install(work / "site-venv", ENGINE_AND_SITE, env)))
    site = {**env, "PYTHONPATH": str(fresh_engine(work / "site-checkout"))}
    site[CACHE_VARIABLE] = str(work / "site-cache")
    python = str(work / "site-venv" / "bin" / "python")
    steps.append(Step(names[3], _run([python, "-m", "resolver.cli", "site"], site_root, site)))
    return steps


def job_rows(steps: list[Step]) -> list[str]:
    lines = ["Whole job, as a GM's CI runs resolve.yml (wall seconds; no target):"]
    width = max(len(step.name) for step in steps)
    for step in steps:
        value = f"{step.seconds:7.1f} s" if step.seconds is not None else step.note
        lines.append(f"  {step.name:<{width}}  {value}")
    timed = [step.seconds for step in steps if step.seconds is not None]
    if len(timed) == len(steps):
        lines.append(f"  {'total':<{width}}  {sum(timed):7.1f} s")
    return lines
