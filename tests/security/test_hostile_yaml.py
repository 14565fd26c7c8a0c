"""Every hostile order file is refused cleanly: exit 1, a located message with a fix, no traceback,
nothing written. The corpus is in ``hostile.py``; the worst cases are timed by ``make bench``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from resolver.cli import main
from resolver.core.yamlsafe import YamlRejected, load_player_yaml

from ..conftest import tree_bytes
from .hostile import CORPUS, Case


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("hostile") / "camp"
    assert main(["new", "--root", str(root), "--seed", "5", "--factions", "3", "--name", "Test Run"]) == 0
    yield root


def _issue_line(case: Case) -> re.Pattern[str]:
    where = r":\d+:\d+" if case.located else ""
    return re.compile(rf"^ *orders/{case.file}\.yaml{where}: error: .+\n +fix: \S", re.MULTILINE)


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_hostile_file_is_refused_cleanly(
    case: Case, campaign: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = campaign / "orders" / f"{case.file}.yaml"
    path.write_bytes(case.raw)
    try:
        before = tree_bytes(campaign)
        capsys.readouterr()
        assert main(["check", "--root", str(campaign)]) == 1
        out, err = capsys.readouterr()
        assert _issue_line(case).search(out), out[:2000]
        assert "Traceback" not in out + err and "internal error" not in err, err
        assert main(["resolve", "--root", str(campaign)]) == 1
        out, err = capsys.readouterr()
        assert "the turn was not resolved" in err and _issue_line(case).search(err), err[:2000]
        assert "Traceback" not in out + err and "internal error" not in err, err
        assert tree_bytes(campaign) == before
    finally:
        path.unlink()


LOADER_CASES = [case for case in CORPUS if case.loader]


@pytest.mark.parametrize("case", LOADER_CASES, ids=[case.name for case in LOADER_CASES])
def test_loader_refuses_before_building(case: Case) -> None:
    """The loader itself refuses these, with a position when the problem has one. Each returns
    promptly because every gate is linear in the file's size (measured by ``make bench``)."""
    with pytest.raises(YamlRejected) as refused:
        load_player_yaml(case.raw, f"orders/{case.file}.yaml")
    issue = refused.value.issue
    assert issue.is_error and issue.hint
    assert (issue.line >= 1 and issue.col >= 1) if case.located else issue.line == 0


def test_corpus_is_wide() -> None:
    assert len(CORPUS) >= 140
