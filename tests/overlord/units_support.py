"""Overlord's rules data for the units chapter's tests, and units built the way the state holds them."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import resolver
from resolver.core import canonical
from resolver.engine.ruleset import rules_data

FOLDER = Path(resolver.__file__).parent / "rulesets" / "overlord"


@functools.cache
def _rules() -> dict[str, Any]:
    if (FOLDER / "rules.yaml").exists():
        return rules_data(FOLDER)
    merged: dict[str, Any] = {}
    for path in sorted((FOLDER / "rules").glob("*.yaml")):
        for key, value in (canonical.read_yaml(path) or {}).items():
            merged[key] = [*merged[key], *value] if isinstance(value, list) and key in merged else value
    return merged


def rules() -> dict[str, Any]:
    """A fresh copy: a test may change a number without touching the next test's data."""
    return copy.deepcopy(_rules())


def unit(uid: str = "U1", **fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "owner": "red", "name": f"Unit {uid[1:]}", "race": "man", "figures": 1, "location": "L1",
        "structure": None, "stack": None, "arrival": int(uid[1:]) if uid[1:].isdigit() else 0,
        "items": {}, "equipped": {}, "skills": {}, "orders": [], "title": None, "settings": {},
        "description": "", "effects": {}, "dissent": False, "unpaid": 0, "idle": False, "moving": None,
    }  # fmt: skip
    record.update(fields)
    return record
