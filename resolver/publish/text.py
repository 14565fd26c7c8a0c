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

import functools
import html
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from markupsafe import Markup

from ..core.checks import ledger_text
from ..core.words import noun_plural, plural

__all__ = [
    "Names",
    "article",
    "data_cell",
    "dice_summary",
    "finalize",
    "h",
    "keys_as_code",
    "md",
    "noun_plural",
    "para",
    "plural",
    "readable",
    "roll_lines",
    "roll_words",
    "sentences",
]

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


# A rules data key or an order's keyword in prose ("retreat_at_losses"), once escaped for Markdown.
_ESCAPED_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:(?:\\_|\\\.)[a-z0-9]+)+\b")
# An id given as an example of what to type ("red-l1"), once escaped for Markdown.
_ESCAPED_ID = re.compile(r"\b[a-z]+(?:\\-[a-z0-9]+)*\\-[a-z]+\d+\b")


def keys_as_code(value: Any) -> Markup:
    """Text for a Markdown context (``md``) in which the rules data's keys, the orders' keywords and the
    example ids it names read as code: a GM or a player types them into a file; they are not prose."""

    def code(found: re.Match[str]) -> str:
        key = found[0]
        return f"<code>{key.replace(chr(92), '')}</code>" if "\\_" in key else key

    escaped = _ESCAPED_KEY.sub(code, md(value))
    return Markup(_ESCAPED_ID.sub(lambda found: f"<code>{found[0].replace(chr(92), '')}</code>", escaped))


_DATA_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def data_cell(value: Any) -> Markup:
    """A cell of a table of rules data, for HTML: escaped, with the data's own keys (``elite_training``)
    as code, since they are what a GM writes in a house rule, not words of the rules."""
    return Markup(_DATA_KEY.sub(lambda found: f"<code>{found[0]}</code>", str(h(value))))


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


def sentences(lines: Iterable[Any]) -> str:
    """Headlines as running text, for a page's description: each ends as a sentence ends (a full stop is
    added where it has no mark of its own), then the next follows after a space, never ".;"."""
    told = []
    for line in lines:
        text = " ".join(str(line).split())
        if text:
            told.append(text if text[-1] in ".!?…" else text + ".")
    return " ".join(told)


def finalize(value: Any) -> Any:
    """Jinja ``finalize``: every plain value printed by a page template is Markdown-escaped."""
    return md(value) if not isinstance(value, Markup) else value


_DICE = re.compile(r"(?P<count>\d+)d(?P<sides>\d+)(?P<modifier>[+-]\d+)?(?:>=(?P<target>\d+))?$")


class Names(dict[str, str]):
    """Readers' names by id (``red-u1`` is "Spearmen"), with the pattern that finds the ids in engine text
    made once: a turn's names serve every roll of the turn, and a big campaign names thousands of units."""

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        return _id_pattern(self)


def readable(text: str, names: Mapping[str, str]) -> str:
    """Engine text with the ids it names (``red-u1``, ``green-l2``, ``blue``) replaced by readers' names,
    and the engine's own words (a check or modifier such as ``going_to_war``) spelt with spaces."""
    # Text that names nobody (a roll's words) takes the pattern made once, at import.
    pattern = names.pattern if isinstance(names, Names) else (_id_pattern(names) if names else _WORDS)

    def word(found: re.Match[str]) -> str:
        if found[0] in names:
            return names[found[0]]
        return found[0].replace("_", " ") if _ENGINE_WORD.fullmatch(found[0]) else found[0]

    return pattern.sub(word, text)


_ENGINE_WORD = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")  # snake_case, as the rules data names things


_WORD_ID = re.compile(r"[\w-]+")


def _id_pattern(ids: Iterable[str]) -> re.Pattern[str]:
    """An id is a whole word: "red" in "red-u1" or "reduced" is not the faction red. Every whole word of
    letters, digits and dashes is looked up in the names, so the pattern does not grow with them; only an
    id with other characters is spelled out, longest first, ahead of the word it begins with."""
    unusual = sorted((i for i in ids if i and not _WORD_ID.fullmatch(i)), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "".join(re.escape(i) + "|" for i in unusual) + r"[\w-]+)(?![\w-])")


_WORDS = _id_pattern(())


def roll_words(roll: Mapping[str, Any], *, verdict: bool = True) -> str:
    """One roll with its faces, modifier and total, and its target when it has one:
    ``2d6-2: 6 + 6 − 2 = 10`` or ``1d10, 6 or more needed: 5, a miss``."""
    faces = [str(d) for d in roll["dice"]]
    if not faces:  # a pool its modifiers took down to nothing: no "0d6" for a reader
        return "no dice to roll"
    found = _DICE.match(str(roll["expr"]))
    if found is None:
        return f"{roll['expr']}: {', '.join(faces)}" + (f" = {roll['total']}" if len(faces) > 1 else "")
    modifier = int(found["modifier"] or 0)
    shown = " + ".join(faces)
    if modifier:
        shown += f" {'+' if modifier > 0 else '−'} {abs(modifier)}"
    if len(faces) > 1 or modifier:
        shown += f" = {roll['total']}"
    ledger = ledger_text(roll)  # what changed the roll, by source (issue 10's modifier ledger)
    if ledger:
        shown += f", with {ledger}"
    die = f"{found['count']}d{found['sides']}"
    if found["target"]:
        judged = (
            "" if "success" not in roll or not verdict else (", a hit" if roll["success"] else ", a miss")
        )
        return f"{die}, {found['target']} or more needed: {shown}{judged}"
    return f"{die}{found['modifier'] or ''}: {shown}"


Decision = Callable[[Mapping[str, Any]], str]  # what a roll decided, in words (Ruleset.decision)


def _noted(roll: Mapping[str, Any]) -> str:
    return str(roll.get("decided") or "")


def dice_summary(
    event: Mapping[str, Any], names: Mapping[str, str] | None = None, decision: Decision = _noted
) -> str:
    """One short line for the dice of an event: what was rolled and how it went, ruleset-neutral."""
    rolls = event.get("rolls") or []
    if not rolls:
        return ""
    if len(rolls) == 1:
        r = rolls[0]
        decided = f" ({readable(decision(r), names or {})})" if decision(r) else ""
        return readable(roll_words(r), {}) + decided
    by_expr: dict[str, list[Mapping[str, Any]]] = {}
    for r in rolls:
        by_expr.setdefault(str(r["expr"]) if r.get("dice") else "", []).append(r)
    parts = []
    for expr, group in by_expr.items():
        part = (
            f"{plural(len(group), 'roll')} of {expr}" if expr else f"{plural(len(group), 'pool')} of no dice"
        )
        judged = [r for r in group if "success" in r]
        if judged:
            part += f", {sum(1 for r in judged if r['success'])} successful"
        parts.append(part)
    return "; ".join(parts)


def roll_lines(
    event: Mapping[str, Any], names: Mapping[str, str] | None = None, decision: Decision = _noted
) -> list[str]:
    """Every roll of an event in words, for a collapsible list under the summary."""
    return [
        f"{readable(decision(r), names or {})} ({readable(roll_words(r, verdict=False), {})})"
        if decision(r)
        else readable(roll_words(r), {})
        for r in event.get("rolls") or []
    ]


# -- player articles: a small safe subset of Markdown, rendered here over escaped text --------------------

_LINK = re.compile(r"(?<!!)\[([^\[\]\n]+)\]\((https?://[^\s()<>\"']+)\)")  # an image is not a link
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")  # not "_": snake_case stays as is
_BULLET = re.compile(r"^\s*[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d{1,3}[.)]\s+(.*)$")


def _inline(line: str) -> str:
    """One line of an article: escaped first (``h``), then emphasis made from the escaped text, and plain
    http(s) links put back, so nothing the player typed is ever read as HTML, a template or Markdown."""
    links: list[str] = []
    line = line.replace("\x00", "")  # the placeholder of a link below

    def link(found: re.Match[str]) -> str:
        # The URL is checked before escaping: only http(s), no quotes, spaces or angle brackets.
        links.append(f'<a href="{h(found[2])}" rel="nofollow noopener ugc">{h(found[1])}</a>')
        return f"\x00{len(links) - 1}\x00"

    # The article sits in a raw HTML block, which Markdown leaves alone: HTML escaping is enough (``h``).
    text = str(h(_LINK.sub(link, line)))
    text = _STRONG.sub(r"<strong>\1</strong>", text)
    text = _EMPHASIS.sub(r"<em>\1</em>", text)
    return re.sub("\x00(\\d+)\x00", lambda m: links[int(m[1])], text)


def article(value: Any) -> Markup:
    """A player's article as HTML for a raw HTML block: paragraphs (blank lines), ``*emphasis*`` and
    ``**strong**``, lists (``- item`` or ``1. item``) and plain http(s) links ``[words](https://…)``.
    Everything else shows as the text it is. No blank line is written: it would end the HTML block."""
    blocks: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    kind = ""

    def close() -> None:
        nonlocal kind
        if paragraph:
            blocks.append("<p>" + "<br>\n".join(paragraph) + "</p>")
            paragraph.clear()
        if items:
            tag = "ol" if kind == "ol" else "ul"
            blocks.append(f"<{tag}>" + "".join(f"<li>{i}</li>" for i in items) + f"</{tag}>")
            items.clear()
        kind = ""

    for raw in str(value or "").splitlines():
        line = raw.strip()
        bullet, numbered = _BULLET.match(line), _NUMBERED.match(line)
        if not line:
            close()
        elif bullet or numbered:
            wanted = "ul" if bullet else "ol"
            if paragraph or (items and kind != wanted):
                close()
            kind = wanted
            items.append(_inline((bullet or numbered)[1]))  # type: ignore[index]
        else:
            if items:
                close()
            paragraph.append(_inline(line))
    close()
    return Markup("\n".join(blocks))
