"""The rules page as data: sections of prose and tables that a ruleset hands to the site.

A ruleset describes its own rules (costs, units, combat…) through ``Ruleset.rules_sections``;
the site renders them next to what every ruleset shares (turn sequence, calendar, orders,
house rules). Prose is Markdown written by the ruleset's authors; table cells are plain
values and are escaped when rendered.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .checks import Check

# Rules data shown by the shared part of the rules pages (the relations by ``core.relations``'s section, the
# fog of war by ``core.fog``'s), or by none: how the archive writes the dice (``core.roll_log``) is not a
# rule of play.
SHARED_KEYS = (
    "title", "stock", "calendar", "turn_sequence", "house_rules", "relations", "fog_of_war", "dice_log"
)  # fmt: skip


@dataclass(frozen=True)
class RulesTable:
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class RulesSection:
    title: str
    blocks: tuple[str | RulesTable, ...]  # Markdown paragraphs and tables, in reading order
    keys: tuple[str, ...] = ()  # the rules-data paths it explains: their house rules are shown with it


def words(key: str) -> str:
    """'max_rounds' -> 'Max rounds'."""
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*(?:\.[a-z0-9_-]+)*)\}")


def fill(text: str, rules: Mapping[str, Any]) -> str:
    """Prose kept in the rules data (house-rule notes, trait summaries) names its numbers as
    ``{combat.max_rounds}``; they are read from the effective rules, so a house rule changes the prose
    too. A number in the path picks an entry of a list, the first being 0 (``{combat.replacements.0.gold}``).
    A placeholder that names no number is left as written."""

    def value(match: re.Match[str]) -> str:
        node: Any = rules
        for key in match.group(1).split("."):
            if isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
                continue
            if not isinstance(node, Mapping):
                return match.group(0)
            node = node.get(int(key) if key.isdigit() and int(key) in node else key)
        return match.group(0) if node is None or isinstance(node, Mapping | list) else str(node)

    return _PLACEHOLDER.sub(value, str(text))


def filled_notes(rules: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ruleset's house-rule notes with their numbers filled in from the effective rules."""
    notes = [n for n in rules.get("house_rules", []) or [] if isinstance(n, Mapping)]
    return [{**note, "text": fill(str(note.get("text", "")), rules)} for note in notes]


def flatten(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Nested rules data as (dotted path, scalar or list) rows, in the data's own order."""
    if isinstance(value, Mapping):
        rows: list[tuple[str, Any]] = []
        for key, item in value.items():
            rows += flatten(item, f"{prefix}.{key}" if prefix else str(key))
        return rows
    if isinstance(value, list) and any(isinstance(v, Mapping) for v in value):
        rows = []
        for i, item in enumerate(value, 1):
            rows += flatten(item, f"{prefix}[{i}]")
        return rows
    return [(prefix, ", ".join(map(str, value)) if isinstance(value, list) else value)]


def generic_sections(rules: Mapping[str, Any]) -> list[RulesSection]:
    """A plain rendering of every block of rules data that the shared pages do not show.

    It is the fallback for a ruleset that does not describe its rules in words: nothing is left out,
    even if it reads like a reference table.
    """
    sections = []
    for key, value in rules.items():
        if key in SHARED_KEYS:
            continue
        if key == "checks":
            sections += [check_section(Check.from_rules(rules, check_id)) for check_id in value]
            continue
        rows = tuple((words(path) if path else words(key), v) for path, v in flatten(value))
        sections.append(
            RulesSection(words(key), (RulesTable(words(key), ("Setting", "Value"), rows),), keys=(str(key),))
        )
    return sections


def check_table(
    check: Check,
    caption: str,
    headings: Mapping[str, str] | None = None,
    cells: Mapping[str, Any] | None = None,
) -> RulesTable:
    """Any check of the rules data as a table: the totals of each row, its result, and one column for
    each further value the rows carry (the dice a find rolls, the units it gives…).

    ``headings`` names the columns by data key (``total`` and ``result`` included); ``cells`` may turn a
    key's value into words (a function of the value). Missing values show as a dash.
    """
    named = dict(headings or {})
    spell = dict(cells or {})
    extra: list[str] = []
    for row in check.table:
        extra += [key for key in row.data if key not in extra]
    default_total = {"successes": "Successes", "face": "Face"}.get(check.read, "Total")
    columns = (
        named.get("total", default_total),
        named.get("result", "Result"),
        *(named.get(k, words(k)) for k in extra),
    )
    rows = []
    for row in check.table:
        values = [
            spell[k](row.data[k]) if k in spell and k in row.data else row.data.get(k, "—") for k in extra
        ]
        result = spell["result"](row.result) if "result" in spell else words(row.result)
        rows.append((row.span(), result, *values))
    return RulesTable(caption, columns, tuple(rows))


def check_modifiers(check: Check, texts: Mapping[str, str] | None = None) -> str:
    """The check's declared modifiers in words: '+3 at a named place'; ``texts`` words them by name."""
    named = dict(texts or {})
    return ", ".join(
        f"{value:+d} {named.get(name, words(name).lower())}" for name, value in check.declared.items()
    )


def check_section(check: Check) -> RulesSection:
    """A check on its own: its dice and declared modifiers in a sentence, then its table."""
    text = f"Roll {check.dice_text()}"
    if check.declared:
        text += f"; modifiers: {check_modifiers(check)}"
    return RulesSection(
        words(check.id), (text + ".", check_table(check, words(check.id))), keys=(f"checks.{check.id}",)
    )
