"""Issue 10 point 13: the core imports nothing from the layers above it, not even for type hints."""

from __future__ import annotations

import ast
from pathlib import Path

import resolver.core

CORE = Path(resolver.core.__file__).parent


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, as an absolute dotted name, with its line."""
    package = "resolver.core"
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def test_core_modules_import_only_the_core_and_outside_libraries() -> None:
    modules = sorted(CORE.rglob("*.py"))
    assert len(modules) >= 15  # the walk really reads the core
    above = [
        f"{path.relative_to(CORE.parent.parent)}:{line}: imports {name}"
        for path in modules
        for line, name in imported_modules(path)
        if (name == "resolver" or name.startswith("resolver.")) and not name.startswith("resolver.core")
    ]
    assert above == []


def test_the_walk_sees_relative_imports_that_climb_out_of_the_core(tmp_path: Path) -> None:
    climbing = tmp_path / "climbing.py"
    climbing.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..engine import TurnContext\n"
    )
    assert (3, "resolver.engine") in imported_modules(climbing)


def test_rulesets_roll_only_through_the_turn_context() -> None:
    """Issue 10 point 4: every ruleset roll goes through ``ctx.roll`` (which takes only labels built by
    ``roll_label``) or a check that calls it; no ruleset reaches the turn's dice directly."""
    rulesets = CORE.parent / "rulesets"
    direct = []
    for path in sorted(rulesets.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # ctx.dice.roll(...), ctx.dice.log …: the turn's dice used behind the labelling helper's back
            on_dice = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
            if on_dice and node.value.attr == "dice":
                direct.append(f"{path.name}:{node.lineno}: .dice.{node.attr}")
            if isinstance(node, ast.ImportFrom) and any(a.name in ("Dice", "TurnSeed") for a in node.names):
                direct.append(f"{path.name}:{node.lineno}: imports the turn's dice")
    assert direct == []
