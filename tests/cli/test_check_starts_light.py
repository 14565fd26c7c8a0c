"""`campaign check` starts light (it builds one command's parser, imports none of the resolver's, the
replay's, the bots' or the beacon's modules, pauses the cycle collector) and says exactly what it said
when it built and imported everything."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from resolver import cli, workflow

# Modules the check never needs; the beacon's bring http, ssl and email with them.
NOT_FOR_A_CHECK = (
    "resolver.workflow",
    "resolver.store.resolution",
    "resolver.store.replay",
    "resolver.store.beacon",
    "resolver.store.keys",
    "resolver.store.views",
    "resolver.engine.turn",
    "resolver.publish.layout",
    "jinja2",
    "http.client",
)

COMMAND_LINES = [
    ["check"],
    ["check", "--format", "json", "orders/red.yaml", "orders/blue.yaml"],
    ["--debug", "check", "--root", "somewhere"],
    ["check", "--pr", "--base", "a", "--head", "b", "--author", "erin", "--author-id", "7"],
    ["resolve", "--force"],
    ["verify", "--all"],
    ["template", "red", "-o", "orders/red.yaml"],
    ["new", "--ruleset", "seasons", "--seed", "3", "--factions", "5", "--open"],
    ["demo", "--ruleset", "usurper", "--turns", "2", "--quiet", "--sealed"],
    ["absence", "red", "--from", "5", "--to", "7"],
    ["notify", "--dry-run"],
    ["keygen", "-o", "key.txt"],
]


@pytest.mark.parametrize("argv", COMMAND_LINES, ids=" ".join)
def test_the_parser_of_the_named_command_alone_parses_as_the_whole_parser(argv: list[str]) -> None:
    command = cli.named_command(argv)
    assert command == next(word for word in argv if word != "--debug")
    assert vars(cli.build_parser(command).parse_args(argv)) == vars(cli.build_parser().parse_args(argv))


@pytest.mark.parametrize("argv", [["--help"], ["-h", "check"], ["--version", "check"], ["chek"], []])
def test_a_line_naming_no_command_first_gets_every_parser(argv: list[str]) -> None:
    assert cli.named_command(argv) is None


def test_the_parser_of_one_command_holds_that_command_alone() -> None:
    assert list(cli.build_parser("check").commands()) == ["check"]
    assert sorted(cli.build_parser().commands()) == sorted(cli.COMMANDS)


def test_a_mistyped_option_of_the_named_command_is_still_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["check", "--formt", "json"])
    assert exited.value.code == 2
    assert "unknown option '--formt' (did you mean --format?)" in capsys.readouterr().err


def test_the_demo_key_is_the_workflows() -> None:
    assert cli.DEMO_KEY == workflow.DEMO_KEY


def test_a_check_imports_none_of_the_modules_it_does_not_use(campaign: Path) -> None:
    (campaign / "orders/red.yaml").write_bytes((campaign / "orders/templates/red.yaml").read_bytes())
    script = (
        "import json, sys\n"
        "from resolver.cli import main\n"
        f"code = main(['check', '--root', {str(campaign)!r}])\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    code, modules = json.loads(done.stdout.splitlines()[-1])
    assert code == 0, done.stdout
    assert "orders/red.yaml" in done.stdout
    assert [name for name in NOT_FOR_A_CHECK if name in modules] == []


def test_the_check_pauses_the_cycle_collector_and_leaves_it_as_it_found_it(
    campaign: Path, run: Callable[..., tuple[int, str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []
    original = cli.Store.check_as_read_in_part

    def spy(self: cli.Store, *args: object) -> object:
        seen.append(gc.isenabled())
        return original(self, *args)

    (campaign / "orders/red.yaml").write_bytes((campaign / "orders/templates/red.yaml").read_bytes())
    monkeypatch.setattr(cli.Store, "check_as_read_in_part", spy)
    assert gc.isenabled()
    code, out, _ = run("check", "--root", campaign)
    assert gc.isenabled()
    gc.disable()
    try:
        run("check", "--root", campaign)
        assert not gc.isenabled()  # a caller's own pause is not undone
    finally:
        gc.enable()
    assert code == 0 and "red.yaml" in out
    assert seen == [False, False]
