"""Editor completion for the richer fields of issue 10: standing sections, nested orders (a backup) and
references to ids the state holds (completed from the ids of the turn the schema was written for)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .lsp import LanguageServer
from .test_yaml_language_server import NODE, SERVER, order_file, position_of


def start(root: Path) -> LanguageServer:
    assert NODE.exists() and SERVER.exists(), "run make install: the editor tools are missing"
    return LanguageServer([str(NODE), str(SERVER), "--stdio"], root)


@pytest.fixture
def factions_campaign(tmp_path: Path, run) -> Path:
    root = tmp_path / "city"
    code, _, err = run("new", "--root", root, "--ruleset", "factions", "--seed", "5", "--factions", "2")
    assert code == 0, err
    return root


@pytest.fixture
def server(campaign: Path) -> Iterator[LanguageServer]:
    ls = start(campaign)
    yield ls
    ls.close()


def test_editor_completes_the_fields_of_a_standing_section(
    campaign: Path, run, server: LanguageServer
) -> None:
    path, text = order_file(campaign, run, "orders: []\npolicies:\n  \n")
    server.open(path, text)
    labels = server.completions(path, *position_of(text, "policies:\n  "))
    assert "retreat_at_losses" in labels


def test_editor_completes_references_from_the_state(campaign: Path, run, server: LanguageServer) -> None:
    path = campaign / "orders" / "gm.yaml"
    run("template", "gm", "--root", campaign, "-o", path)
    body = "orders:\n  - action: relation\n    faction: red\n    other: \n"
    text = path.read_text().replace("orders: []\n", body, 1)
    path.write_text(text)
    server.open(path, text)
    labels = server.completions(path, *position_of(text, "    other: "))
    assert {"red", "blue", "green"} <= set(labels)


def test_editor_completes_a_nested_order(factions_campaign: Path, run) -> None:
    ls = start(factions_campaign)
    try:
        path = factions_campaign / "orders" / "red.yaml"
        run("template", "red", "--root", factions_campaign, "-o", path)
        body = "orders:\n  - action: rally\n    lieutenant: red-l1\n    backup:\n      action: \n"
        text = path.read_text().replace("orders: []\n", body, 1)
        path.write_text(text)
        ls.open(path, text)
        actions = ls.completions(path, *position_of(text, "    backup:\n      action: "))
        assert {"rally", "influence", "recruit"} <= set(actions)
        body = (
            "orders:\n  - action: rally\n    lieutenant: red-l1\n    backup:\n      action: rally\n      \n"
        )
        text = path.read_text().replace(text[text.index("orders:") :].split("press:")[0], body, 1)
        path.write_text(text)
        ls.open(path, text)
        fields = set(ls.completions(path, *position_of(text, "      action: rally\n      ")))
        assert "units" in fields and "backup" not in fields  # one level deep only
    finally:
        ls.close()
