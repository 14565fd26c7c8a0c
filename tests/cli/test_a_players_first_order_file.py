"""A player's first order file, step by step as the README gives it: `campaign template red -o
orders/red.yaml` writes a file that knows it is the order file (and where the schema is), and checking it
before any order is added says that sending it only holds. Every ruleset."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from resolver.core import canonical
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import RULESETS
from resolver.store.store import Store

from ..sides import played_factions, sides

Run = Callable[..., tuple[int, str, str]]
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$", re.MULTILINE)


@pytest.fixture(params=RULESETS)
def ruleset(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def root(ruleset: str, tmp_path: Path, run: Run) -> Path:
    root = tmp_path / ruleset
    assert (
        run("new", "--root", root, "--ruleset", ruleset, "--seed", "4", "--factions", "3", "--open")[0] == 0
    )
    return root


@pytest.fixture
def red(ruleset: str, root: Path) -> str:
    """The campaign's first faction: red, or the ruleset's first side where its sides are fixed."""
    first = sides(ruleset, 3)[0]
    assert first in played_factions(root)
    return first


def test_the_template_written_in_place_says_it_is_the_order_file(
    root: Path, red: str, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = root / "orders" / f"{red}.yaml"
    code, _, err = run("template", red, "--root", root, "-o", target)
    assert code == 0, err
    header = target.read_text(encoding="utf-8").split("\ncampaign:")[0]
    assert "Copy this file" not in header
    assert "This is your order file" in header
    # The schema line points at the schema from where the file is.
    schema = SCHEMA_LINE.search(header)
    assert schema and json.loads((target.parent / schema.group(1)).read_text(encoding="utf-8"))

    # The next step the header gives is the command the player runs next, from the campaign's folder.
    command = re.search(r"#\s+campaign (check \S+)", header)
    assert command is not None and command.group(1) == f"check orders/{red}.yaml"
    monkeypatch.chdir(root)
    code, out, _ = run(*command.group(1).split())
    assert code == 0 and f"{red}.yaml: 0 orders accepted" in out

    # The templates kept in orders/templates/, and one printed, are still copies to make.
    for kept in (
        (root / f"orders/templates/{red}.yaml").read_text(encoding="utf-8"),
        run("template", red, "--root", root)[1],
    ):
        assert f"# Copy this file to orders/{red}.yaml" in kept
        assert "$schema=../orders.schema.json" in kept


def test_an_order_file_without_orders_checks_as_holding(root: Path, red: str, run: Run) -> None:
    target = root / "orders" / f"{red}.yaml"
    assert run("template", red, "--root", root, "-o", target)[0] == 0
    code, out, _ = run("check", "--root", root, target)
    assert code == 0
    summary = out.strip().splitlines()[-1]
    assert summary.startswith(f"{red}.yaml: 0 orders accepted, 0 errors")
    assert "It gives no orders: sent as it is, your faction holds this turn" in summary

    # Sent as it is, the file holds: the faction is not among the ones whose orders never came.
    held = root.parent / f"{root.name}-held"
    shutil.copytree(root, held)
    code, _, err = run("resolve", "--root", held)
    assert code == 0, err
    assert red not in canonical.read_yaml(held / "campaign/turns/0001/inputs.yaml")["missing"]

    # The player adds orders instead: the same check counts them, and no longer speaks of holding.
    store = Store(root)
    state = store.state()
    orders = canonical.load(bot_order_file(store.game(state), state, red).raw)["orders"]
    data = yaml.safe_load(target.read_text(encoding="utf-8"))
    target.write_bytes(canonical.dump({**data, "orders": orders}))
    code, out, _ = run("check", "--root", root, target)
    summary = out.strip().splitlines()[-1]
    assert code == 0 and "holds" not in summary
    assert summary.startswith(f"{red}.yaml: {len(orders)} order")
