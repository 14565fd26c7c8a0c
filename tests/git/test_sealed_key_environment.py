"""The campaign key reaches no git process: the resolver reads CAMPAIGN_AGE_KEY once and takes it out of
the environment before it runs git, so no hook, credential helper or other program that git starts can
read it. Checked with a `git` on PATH that records, for each run, whether the key was in its
environment, and then runs the real git."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from resolver.engine.ruleset import RULESETS
from resolver.store import sealing

from .gitsim import cli
from .sealedsim import sealed_campaign
from .test_sealed_git import with_key


def recording_git(folder: Path, log: Path) -> Path:
    real = shutil.which("git")
    assert real
    folder.mkdir()
    script = folder / "git"
    script.write_text(
        "#!/bin/sh\n"
        f'if [ -n "${{{sealing.KEY_VARIABLE}+set}}" ]; then seen=KEY; else seen=clean; fi\n'
        f'echo "$seen $1" >> "{log}"\n'
        f'exec "{real}" "$@"\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    return folder


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_no_git_process_of_a_sealed_resolution_sees_the_key(
    tmp_path: Path, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, world = sealed_campaign(tmp_path, ruleset)
    world.sync(world.ci)
    log = tmp_path / "git-runs.log"
    monkeypatch.setenv("PATH", f"{recording_git(tmp_path / 'bin', log)}{os.pathsep}{os.environ['PATH']}")
    with with_key(world):
        done = cli("resolve", "--root", world.ci, "--commit", "--force")
        assert os.environ[sealing.KEY_VARIABLE]  # the caller's environment is as it was afterwards
    assert done.code == 0, done.err
    runs = log.read_text(encoding="utf-8").splitlines()
    assert len(runs) >= 3, runs  # git did run: history, staging, the commit's tag
    assert [run for run in runs if not run.startswith("clean ")] == []
    assert "turn-1" in world.git(world.ci, "tag", "--list")
