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


def completions_in(ls: LanguageServer, run, root: Path, faction: str, body: str, marker: str) -> set[str]:
    """What the editor offers at ``marker`` in ``faction``'s template with ``body`` as its orders."""
    path = root / "orders" / f"{faction}.yaml"
    run("template", faction, "--root", root, "-o", path)
    text = path.read_text().replace("orders: []\n", body, 1)
    path.write_text(text)
    ls.open(path, text)
    return set(ls.completions(path, *position_of(text, marker)))


def test_editor_completes_references_from_the_state(campaign: Path, run, server: LanguageServer) -> None:
    body = "orders:\n  - action: relation\n    faction: red\n    other: \n"
    assert {"red", "blue", "green"} <= completions_in(server, run, campaign, "gm", body, "    other: ")


def test_editor_completes_a_nested_order(factions_campaign: Path, run) -> None:
    ls = start(factions_campaign)
    try:
        body = "orders:\n  - action: rally\n    lieutenant: red-l1\n    backup:\n      action: \n"
        actions = completions_in(ls, run, factions_campaign, "red", body, "    backup:\n      action: ")
        assert {"rally", "influence", "recruit"} <= actions
        # Another faction's file: a document is opened once per server.
        body = body.replace("red-l1", "blue-l1").replace("action: \n", "action: rally\n      \n")
        fields = completions_in(ls, run, factions_campaign, "blue", body, "      action: rally\n      ")
        assert "units" in fields and "backup" not in fields  # one level deep only
    finally:
        ls.close()
