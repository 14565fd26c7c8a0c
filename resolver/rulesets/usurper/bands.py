"""The bands of the d100 action roll, worst first, as the dice chapter's table names them (``checks.action``):
every module that compares bands reads their order from the rules data, never from a list of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def bands(rules: Mapping[str, Any]) -> list[str]:
    """The action roll's bands, worst first."""
    return [str(row["result"]) for row in rules["checks"]["action"]["table"]]


def band_name(rules: Mapping[str, Any], band: str, check: str = "action") -> str:
    """A band in words for readers: 'Partial Success', never its id."""
    for row in rules["checks"][check]["table"]:
        if row["result"] == band:
            return str(row.get("name") or band.replace("_", " ").capitalize())
    raise ValueError(f"checks.{check} has no band '{band}'")


def at_least(rules: Mapping[str, Any], band: str, floor: str) -> bool:
    """Whether ``band`` is ``floor`` or better on the action roll's table."""
    order = bands(rules)
    return order.index(band) >= order.index(floor)
