"""A reader that stops early, and a mistyped option: neither may look like a bug in the engine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from resolver.cli import main

CAMPAIGN = Path(sys.executable).parent / "campaign"


def run_into_a_closed_pipe(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the console script with a standard output whose reader has gone, as in `campaign … | head`
    once head has its line. Closing the reading end first makes every write fail, every time."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        return subprocess.run(
            [str(CAMPAIGN), *map(str, args)], stdout=writing, stderr=subprocess.PIPE, text=True, cwd=cwd
        )
    finally:
        os.close(writing)


@pytest.mark.parametrize(
    "args",
    [("check", "--format", "json"), ("check",), ("template", "red"), ("verify",), ("--help",)],
)
def test_a_closed_pipe_prints_no_error(campaign: Path, args: tuple[str, ...]) -> None:
    (campaign / "orders/red.yaml").write_bytes((campaign / "orders/templates/red.yaml").read_bytes())
    done = run_into_a_closed_pipe(*args, cwd=campaign)
    assert done.stderr == ""
    assert done.returncode in (0, 1)


def test_resolve_into_a_closed_pipe_still_resolves_quietly(campaign: Path) -> None:
    done = run_into_a_closed_pipe("resolve", cwd=campaign)
    assert done.stderr == ""
    assert (campaign / "campaign/turns/0001/events.yaml").is_file()
    verified = subprocess.run([str(CAMPAIGN), "verify"], cwd=campaign, capture_output=True, text=True)
    assert verified.returncode == 0 and "1 of 1 turn(s) replay byte-identically" in verified.stdout


def test_an_unknown_option_is_named_with_a_suggestion(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--verison"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "unknown option '--verison' (did you mean --version?)" in err
    assert "usage: campaign" in err


def test_an_unknown_option_of_a_command_is_named_by_that_command(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["check", "--formt", "json"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "campaign check: error: unknown option '--formt' (did you mean --format?)" in err


def test_an_unknown_option_with_nothing_like_it_is_still_named(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["verify", "--zzzz"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "unknown option '--zzzz'" in err and "did you mean" not in err


def test_no_command_lists_the_commands(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main([])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "a command is needed" in err and "check" in err and "resolve" in err
