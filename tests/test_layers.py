"""The layers of the engine, read from the code's own imports (issue 21 point 6).

Bottom up: ``core`` (pure rules machinery), ``engine`` (the turn, the ruleset interface, the GM),
``rulesets`` (one package a game), ``store`` (files, the archive, sealing), then ``publish`` (the site) and
``git`` (the repository flow) side by side, the commands (``cli``, ``workflow``, ``doctor``) and the
``bench``. A layer imports only the layers below it and itself; every import counts, at the top of a
file, inside a function or under ``TYPE_CHECKING``, because each is a knot the next change must untie.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

import resolver

PACKAGE = Path(resolver.__file__).parent
FACE = "face"  # the package itself, which holds only the version
COMMANDS = "commands"

# What each layer may import besides itself. The rulesets may not import each other (see below).
MAY_IMPORT = {
    "core": set(),
    "engine": {"core", FACE},
    "rulesets": {"core", "engine", FACE},
    "store": {"core", "engine", FACE},
    "publish": {"core", "engine", "store", FACE},
    "git": {"core", "engine", "store", FACE},
    "notify": {"core", "engine", "store", FACE},  # turn news and reminders (issue 25); it knows no git
    COMMANDS: {"core", "engine", "rulesets", "store", "publish", "git", "notify", FACE},
    "bench": {"core", "engine", "rulesets", "store", "publish", "git", "notify", COMMANDS, FACE},
    FACE: set(),
}
TOP_LEVEL_COMMANDS = {"resolver.cli", "resolver.workflow", "resolver.doctor"}


def module_name(path: Path, root: Path = PACKAGE.parent) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str | None:
    """The layer a module of the package belongs to; None for one that belongs to none."""
    if module == "resolver":
        return FACE
    if module in TOP_LEVEL_COMMANDS:
        return COMMANDS
    parts = module.split(".")
    return parts[1] if len(parts) >= 2 and parts[1] in MAY_IMPORT else None


def imports(path: Path, known: set[str], root: Path = PACKAGE.parent) -> Iterator[tuple[int, str]]:
    """Every module of the package that a file imports, wherever the import stands, as an absolute name
    (``from . import gm`` names the module ``gm``, not its package)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (
                (node.lineno, alias.name) for alias in node.names if alias.name.startswith("resolver")
            )
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not source.startswith("resolver"):
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                yield node.lineno, submodule if submodule in known else source


@functools.cache
def graph() -> dict[str, list[tuple[int, str]]]:
    files = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    return {name: list(imports(path, set(files))) for name, path in files.items()}


def test_every_module_stands_in_a_layer() -> None:
    homeless = [name for name in graph() if layer_of(name) is None]
    assert homeless == [], "modules outside every layer's folder: " + ", ".join(homeless)


def test_no_layer_imports_one_above_it() -> None:
    climbing = []
    for name, imported in graph().items():
        mine = layer_of(name)
        for line, other in imported:
            theirs = layer_of(other)
            if mine is None or theirs is None or theirs == mine:
                continue
            if theirs not in MAY_IMPORT[mine]:
                climbing.append(f"{name}:{line} ({mine}) imports {other} ({theirs})")
    assert climbing == []


def test_a_ruleset_imports_no_other_ruleset() -> None:
    """A game is a small surface over the engine: what two rulesets share belongs in the engine."""
    crossing = [
        f"{name}:{line} imports {other}"
        for name, imported in graph().items()
        if layer_of(name) == "rulesets"
        for line, other in imported
        if layer_of(other) == "rulesets" and other.split(".")[2] != name.split(".")[2]
    ]
    assert crossing == []


def circles(edges: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module, or of one that imports itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, []):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                part.append(member)
                if member == node:
                    break
            if len(part) > 1 or node in edges.get(node, []):
                found.append(sorted(part))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_round_a_circle() -> None:
    edges = {
        name: sorted({other for _, other in imported if other != name}) for name, imported in graph().items()
    }
    assert circles(edges) == []


@pytest.mark.parametrize(
    "source",
    [
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..store.store import Store\n",
        "def later():\n    from ..store import sealing\n",
    ],
    ids=["under TYPE_CHECKING", "inside a function"],
)
def test_the_walk_sees_hidden_imports(source: str, tmp_path: Path) -> None:
    """The rules would pass for nothing if the walk missed the imports that hid the knots before."""
    engine = tmp_path / "resolver" / "engine"
    engine.mkdir(parents=True)
    hidden = engine / "hidden.py"
    hidden.write_text(source)
    found = {other for _, other in imports(hidden, {"resolver.store.sealing"}, root=tmp_path)}
    assert found & {"resolver.store.store", "resolver.store.sealing"}
    assert any(layer_of(other) == "store" for other in found)


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert circles({"a": ["b"], "b": []}) == []
