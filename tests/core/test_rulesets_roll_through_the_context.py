"""Issue 10 point 4: rulesets roll only through the turn context. (Which layer may import which is
``tests/test_layers.py``.)"""

from __future__ import annotations

import ast
from pathlib import Path

import resolver.core

CORE = Path(resolver.core.__file__).parent


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
