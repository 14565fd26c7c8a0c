"""Escaping and small prose helpers for the generated pages.

Pages are Markdown, and player text (press, rumours, names of factions, settlements
and units) must come out as text, never as HTML or Markdown. Two contexts exist:

- Markdown text (headings, list items, paragraphs): HTML is escaped *and* every
  character Markdown gives a meaning to is escaped, so ``![x](http://…)`` cannot
  become an image that loads from outside the site, and ``{: onclick=…}`` cannot
  become an attribute.
- Raw HTML blocks (tables, press articles, ``<pre>``): Markdown leaves their content
  alone, so HTML escaping alone is right there, and backslashes would show.

The page templates escape for Markdown by default (``finalize``) and use ``|h`` inside
HTML blocks; forgetting ``|h`` shows a stray backslash, never a hole.

In both contexts the braces of player text become entities (``&#123;``), which show as braces:
an extension or MkDocs plugin that reads pages as Jinja templates (mkdocs-macros, say, added to
a GM's mkdocs.yml) finds no ``{{``, ``{%`` or ``{#`` to run, and attr_list no ``{:``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from ..core.checks import ledger_text
from ..core.words import noun_plural, plural

__all__ = ["dice_summary", "finalize", "h", "md", "noun_plural", "para", "plural", "roll_lines"]

# Python-Markdown's backslash escapes (its ESCAPED_CHARS, with the tables extension's "|"); ">" is left to
# HTML escaping, which turns it into an entity that cannot start a quote, and braces become entities.
_BRACES = str.maketrans({"{": "&#123;", "}": "&#125;"})
_MD_SPECIAL = re.compile(r"([\\`*_\[\]()#+\-.!|])")


def md(value: Any) -> Markup:
    """Text for a Markdown context: one line, HTML escaped, Markdown syntax neutralised."""
    if isinstance(value, Markup):
        return value
    if isinstance(value, bool) or value is None:
        return Markup(html.escape(str(value)))
    if isinstance(value, int | float):
        return Markup(str(value))
    text = " ".join(str(value).split())
    # Backslashes first, then entities: an entity's "#" must not be escaped.
    return Markup(html.escape(_MD_SPECIAL.sub(r"\\\1", text), quote=True).translate(_BRACES))


def h(value: Any) -> Markup:
    """Text for an HTML block or attribute: HTML escaped, and braces as entities (see above)."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape("" if value is None else str(value), quote=True).translate(_BRACES))


def para(value: Any) -> Markup:
    """Player prose for an HTML block: escaped, line breaks kept, no blank line (which would end the
    block and hand the rest to Markdown)."""
    lines = [line.strip() for line in str(value or "").splitlines()]
    return Markup("<br>\n").join(h(line) for line in lines if line)


def finalize(value: Any) -> Any:
    """Jinja ``finalize``: every plain value printed by a page template is Markdown-escaped."""
    return md(value) if not isinstance(value, Markup) else value


def dice_summary(event: Mapping[str, Any]) -> str:
    """One short line for the dice of an event: what was rolled and how it went, ruleset-neutral."""
    rolls = event.get("rolls") or []
    if not rolls:
        return ""
    if len(rolls) == 1:
        r = rolls[0]
        faces = ", ".join(str(d) for d in r["dice"])
        total = f" = {r['total']}" if len(r["dice"]) > 1 else ""
        decided = f" ({r['decided']})" if r.get("decided") else ""
        return f"{r['expr']}: {faces}{total}{decided}"
    by_expr: dict[str, list[Mapping[str, Any]]] = {}
    for r in rolls:
        by_expr.setdefault(str(r["expr"]), []).append(r)
    parts = []
    for expr, group in by_expr.items():
        part = f"{plural(len(group), 'roll')} of {expr}"
        judged = [r for r in group if "success" in r]
        if judged:
            part += f", {sum(1 for r in judged if r['success'])} successful"
        parts.append(part)
    return "; ".join(parts)


def roll_lines(event: Mapping[str, Any]) -> list[str]:
    """Every roll of an event in words, for a collapsible list under the summary."""
    lines = []
    for r in event.get("rolls") or []:
        faces = ", ".join(str(d) for d in r["dice"])
        ledger = ledger_text(r)
        line = f"{r['expr']} → {faces}" + (f" ({ledger})" if ledger else "")
        lines.append(line + (f": {r['decided']}" if r.get("decided") else ""))
    return lines
