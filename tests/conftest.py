from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from resolver.cli import main
from resolver.store.store import TEST_BEACON_VARIABLE

from .scheduling import pytest_xdist_make_scheduler as pytest_xdist_make_scheduler  # how workers share

# The tests' sealed campaigns use the kit's test beacon (its recorded rounds, no network); a real campaign
# may not. Set for the whole session, module fixtures and subprocesses included.
os.environ[TEST_BEACON_VARIABLE] = "1"


@pytest.fixture(autouse=True)
def read_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's read cache (core.canonical) in its own folder, never the user's."""
    folder = tmp_path_factory.mktemp("read-cache")
    monkeypatch.setenv("CAMPAIGN_KIT_CACHE", str(folder))
    return folder


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run the campaign CLI in-process; returns (exit code, stdout, stderr)."""

    def _run(*args: str | Path) -> tuple[int, str, str]:
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return _run


@pytest.fixture
def campaign(tmp_path: Path, run: Callable[..., tuple[int, str, str]]) -> Path:
    root = tmp_path / "camp"
    code, _, err = run("new", "--root", root, "--seed", "5", "--factions", "3", "--name", "Test Run")
    assert code == 0, err
    return root


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def archived_events(root: Path) -> list[dict]:
    """Every event of an open campaign's archive, each with the turn it happened in."""
    found = []
    for folder in sorted((root / "campaign/turns").iterdir()):
        if (folder / "events.yaml").exists():
            turn = yaml.safe_load((folder / "events.yaml").read_text())
            found += [{**event, "turn": turn["turn"]} for event in turn["events"]]
    return found


def check_golden(demo: Path, golden: Path, turns: int) -> None:
    """Compare a demo's per-turn digests with its golden file (rewritten when UPDATE_GOLDEN is set)."""
    import os

    from resolver.core import canonical

    digests = {}
    for turn in range(1, turns + 1):
        folder = demo / f"campaign/turns/{turn:04d}"
        digests[turn] = {
            "state": canonical.read_yaml(folder / "digest.yaml")["state"],
            "events": canonical.digest((folder / "events.yaml").read_bytes()),
        }
    if os.environ.get("UPDATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        canonical.write_yaml(golden, {"seed": 1, "turns": digests})
    assert canonical.read_yaml(golden)["turns"] == digests
