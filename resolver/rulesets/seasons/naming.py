"""Rules-data ids in words (``result_names`` in rules.yaml): the chronicle's sentences and the rules page's
tables name a check's result, or a Marshal's attribute, the same way. An id without an entry reads as its
words, underscores turned into spaces."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def said(rules: Mapping[str, Any], key: object) -> str:
    """'war_success_no_attack' -> 'eager for war next year, but never against the visitor'."""
    text = str(key)
    named = (rules.get("result_names") or {}).get(text)
    return str(named) if named is not None else text.replace("_", " ")


def label(rules: Mapping[str, Any], key: object) -> str:
    """The same words as a table's label: first letter capitalised, the rest as written."""
    text = said(rules, key)
    return text[:1].upper() + text[1:]
