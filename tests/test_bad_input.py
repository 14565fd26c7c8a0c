"""Every kind of bad order file: a located message with a fix, exit 1, and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .conftest import tree_bytes

HEAD = "campaign: test-run\nturn: 1\nfaction: red\n"


def blue_army(campaign: Path) -> str:
    state = yaml.safe_load((campaign / "campaign/state.yaml").read_text())
    return next(a["id"] for a in state["armies"].values() if a["owner"] == "blue")


def red_capital(campaign: Path) -> str:
    state = yaml.safe_load((campaign / "campaign/state.yaml").read_text())
    return next(s["name"] for s in state["settlements"].values() if s["owner"] == "red")


CASES = {
    "wrong turn": (
        HEAD.replace("turn: 1", "turn: 4") + "orders: []\n",
        2,
        7,
        "these orders are for turn 4, a later turn; the current turn is 1",
    ),
    "past turn": (HEAD.replace("turn: 1", "turn: 0") + "orders: []\n", 2, 7, "the current turn is 1"),
    "wrong campaign": (
        HEAD.replace("test-run", "other") + "orders: []\n",
        1,
        11,
        "this file is for campaign 'other'",
    ),
    "file of another faction": (
        HEAD.replace("faction: red", "faction: blue") + "orders: []\n",
        3,
        10,
        "the file orders/red.yaml carries orders for 'blue'",
    ),
    "unknown action": (
        HEAD + "orders:\n  - action: teleport\n    army: '1'\n",
        5,
        13,
        "unknown action 'teleport'",
    ),
    "misspelt action": (HEAD + "orders:\n  - action: recruitt\n", 5, 13, "unknown action 'recruitt'"),
    "missing field": (HEAD + "orders:\n  - action: move\n    army: '1'\n", 5, 5, "'move' needs 'path'"),
    "unknown field": (
        HEAD + "orders:\n  - action: explore\n    army: '1'\n    armyy: '2'\n",
        7,
        5,
        "'explore' has no field 'armyy'",
    ),
    "bad direction": (
        HEAD + "orders:\n  - action: move\n    army: '1'\n    path: [NW, UP]\n",
        7,
        16,
        "'UP' is not a valid path",
    ),
    "yes read as boolean": (HEAD + "orders:\n  - action: explore\n    army: yes\n", 6, 11, "YAML read True"),
    "army that isn't yours": (HEAD + "orders:\n  - action: explore\n    army: {blue}\n", 6, 11, "belongs to"),
    "too many action points": (
        HEAD
        + "orders:\n"
        + "".join(
            f"  - action: recruit\n    settlement: {{capital}}\n    class: troops\n    name: P{i}\n"
            f"    trait: drilled\n"
            for i in range(4)
        ),
        20,
        5,
        "needs 1 action point(s), but only 0 of your 3",
    ),
    "cost you can't pay": (
        HEAD
        + "orders:\n"
        + "".join(
            f"  - action: recruit\n    settlement: {{capital}}\n    class: {cls}\n    name: {name}\n"
            f"    stats: {stats}\n    trait: x\n"
            for cls, name, stats in (
                ("elite", "A", "{attack: 1, defence: 1}"),
                ("elite", "B", "{attack: 1, defence: 1}"),
                ("troops", "C", "{}"),
            )
        ),
        17,
        5,
        "costs 2 resources, but you have 0 left",
    ),
    "heroes cannot be recruited": (
        HEAD + "orders:\n  - action: recruit\n    settlement: {capital}\n    class: hero\n    name: Bold\n",
        7,
        12,
        "hero units cannot be recruited",
    ),
    "duplicate key": (
        HEAD + "orders:\n  - action: move\n    action: explore\n",
        6,
        5,
        "duplicate key 'action'",
    ),
    "alias": (HEAD + "x: &a 1\norders: []\n", 4, 4, "anchors and aliases"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_file_is_located_and_changes_nothing(name: str, campaign: Path, run) -> None:
    text, line, col, fragment = CASES[name]
    text = text.replace("{blue}", blue_army(campaign)).replace("{capital}", red_capital(campaign))
    (campaign / "orders/red.yaml").write_text(text)
    before = tree_bytes(campaign)
    code, out, _ = run("check", "--root", campaign)
    assert code == 1
    located = [
        ln for ln in out.splitlines() if ln.strip().startswith(f"orders/red.yaml:{line}:{col}: error:")
    ]
    assert located and fragment in located[0], out
    assert "fix:" in out, out
    summary = out.splitlines()[-1]  # what would happen, counted: nothing goes through as it stands
    assert summary.startswith("red.yaml: ") and ("rejected (" in summary or "0 orders accepted" in summary)
    code, _, err = run("resolve", "--root", campaign)
    assert code == 1 and "the turn was not resolved" in err and f"orders/red.yaml:{line}:{col}" in err
    assert tree_bytes(campaign) == before


def test_oversized_file(campaign: Path, run) -> None:
    (campaign / "orders/red.yaml").write_text(HEAD + "orders: []\n# " + "x" * 70000 + "\n")
    code, out, _ = run("check", "--root", campaign)
    assert code == 1 and "capped at 65,536 bytes" in out


def test_errors_and_warnings_are_distinct(campaign: Path, run) -> None:
    (campaign / "orders/red.yaml").write_text(
        HEAD + f"orders:\n  - action: recruit\n    settlement: {red_capital(campaign)}\n    class: troops\n"
        "    name: Pikes\n"
    )
    code, out, _ = run("check", "--root", campaign)
    assert code == 0
    assert ": warning: troops have 1 trait(s); none given" in out
    assert "red.yaml: 1 order accepted, 0 errors, 1 warning" in out


def test_gm_orders_are_checked_too(campaign: Path, run) -> None:
    (campaign / "orders/gm.yaml").write_text(
        "campaign: test-run\nturn: 1\nfaction: gm\norders:\n  - action: grant\n    faction: purple\n"
        "    resource: resources\n    amount: 2\n"
    )
    code, out, _ = run("check", "--root", campaign)
    assert code == 1 and "orders/gm.yaml:6:14: error: unknown faction 'purple'" in out


def test_an_invalid_order_is_echoed_as_understood_then_its_error(campaign: Path, run) -> None:
    (campaign / "orders/red.yaml").write_text(
        HEAD + f"orders:\n  - action: recruit\n    settlement: {red_capital(campaign)}\n    class: troops\n"
        "    name: Pikes\n    trait: long spears\n"
        "  - action: build\n    army: '9'\n    type: farming\n    name: Newby\n"
        "  - action: upgrade\n    settlement: Nowhere\n"
    )
    code, out, _ = run("check", "--root", campaign)
    assert code == 1
    lines = out.splitlines()
    build = lines.index("  2. build: army 9; type farming; name Newby")
    assert lines[build + 1].startswith("     orders/red.yaml:11:11: error: you have no army '9'")
    assert lines[build + 2].strip().startswith("fix: ")
    assert "  3. upgrade: settlement Nowhere" in lines
    assert "(not understood)" not in out
    assert lines[-1] == "red.yaml: 1 order accepted, 2 rejected (2 errors), 0 warnings"


def test_every_warning_has_a_fix_line(campaign: Path, run) -> None:
    capital = red_capital(campaign)
    (campaign / "orders/red.yaml").write_text(
        HEAD + f"orders:\n  - action: recruit\n    settlement: {capital}\n    class: elite\n    name: Guard\n"
        "  - action: defend\n    army: '1'\n"
    )
    code, out, _ = run("check", "--root", campaign)
    assert code == 0, out
    lines = [line.strip() for line in out.splitlines()]
    warnings = [i for i, line in enumerate(lines) if ": warning: " in line]
    assert len(warnings) == 3, out  # unspent stat points, no trait, defending inside a settlement
    for i in warnings:
        assert lines[i + 1].startswith("fix: ") and len(lines[i + 1]) > len("fix: "), lines[i]
