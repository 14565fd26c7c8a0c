"""The README's section on diplomacy orders, taken as it is written: its order file checks clean for England
in a new campaign and its spring resolves as the section says; every order it writes inline is read by the
notation in the phase it names; the commands it gives run; `make datc` runs the DATC's cases."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from resolver.core import canonical
from resolver.rulesets.diplomacy.board import standard_board
from resolver.rulesets.diplomacy.notation import read_order

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
Run = Callable[..., tuple[int, str, str]]


def section() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("### Orders for diplomacy", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def inline_orders() -> list[str]:
    """The orders the section writes in running text: `A MUN S A BER - SIL` and the like."""
    prose = re.sub(r"```.*?```", "", section(), flags=re.S)
    return [code for code in re.findall(r"`([^`]+)`", prose) if re.match(r"(A|F|BUILD|REMOVE|WAIVE)\b", code)]


@pytest.fixture
def england(tmp_path: Path, run: Run) -> Path:
    root = tmp_path / "campaign"
    code, _, err = run("new", "--ruleset", "diplomacy", "--open", "--root", root)
    assert code == 0, err
    return root


def test_the_order_file_checks_clean_and_the_spring_goes_as_written(england: Path, run: Run) -> None:
    block = re.search(r"```yaml\n(.*?)```", section(), re.S)
    assert block, "the README's diplomacy section has no YAML example"
    example = yaml.safe_load(block.group(1))
    campaign = canonical.read_yaml(england / "campaign" / "campaign.yaml")["campaign"]
    body = {"campaign": campaign, "turn": 1, "faction": "england", **example}
    path = england / "orders" / "england.yaml"
    path.write_text(yaml.safe_dump(body, sort_keys=False), encoding="utf-8")
    code, out, err = run("check", "--root", england, path)
    assert code == 0, out + err
    assert "F LON - NTH: the fleet in London moves to North Sea" in out
    assert "A LVP - YOR: the army in Liverpool moves to Yorkshire" in out
    assert "3 orders accepted, 0 errors, 0 warnings" in out
    code, out, err = run("resolve", "--root", england, "--force")
    assert code == 0, err
    assert "The English fleet in London moved to North Sea." in out
    assert "The English fleet in Edinburgh moved to Norwegian Sea." in out
    assert "The English army in Liverpool moved to Yorkshire." in out
    assert "England looks to the sea" in out


PHASES = {"A SER": "retreat", "BUILD": "adjustment", "REMOVE": "adjustment", "WAIVE": "adjustment"}


def test_every_inline_order_reads_in_its_phase() -> None:
    written = inline_orders()
    assert len(written) >= 8, written
    board = standard_board()
    for text in written:
        phase = next((kind for start, kind in PHASES.items() if text.startswith(start)), "movement")
        power = "russia" if "STP" in text else "france"
        order = read_order(board, power, text, phase)
        assert order is not None, text


def test_the_template_command_writes_the_file_it_names(england: Path, run: Run, monkeypatch) -> None:
    command = re.search(r"`campaign (template england -o orders/england\.yaml)`", section())
    assert command, "the README's diplomacy section gives no template command"
    monkeypatch.chdir(england)
    code, _, err = run(*command.group(1).split())
    assert code == 0, err
    written = (england / "orders" / "england.yaml").read_text(encoding="utf-8")
    assert "F LON (London)" in written and "A LVP (Liverpool)" in written


def test_make_datc_runs_the_164_cases() -> None:
    assert "`make datc`" in section()
    dry = subprocess.run(
        ["make", "-n", "datc", "STAMP="], cwd=ROOT, capture_output=True, text=True, check=True
    )
    target = re.search(r"-m pytest .*?(tests/\S+\.py)", dry.stdout)
    assert target, dry.stdout
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", target.group(1)],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    cases = {re.sub(r"-.*", "", name) for name in re.findall(r"\[(6\.[A-L]\.\d+[^\]]*)\]", collected.stdout)}
    assert len(cases) == 164, collected.stdout[-2000:]
