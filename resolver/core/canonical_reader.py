"""A reader for exactly the YAML that ``canonical.dump`` writes, many times faster than PyYAML.

The engine reads back its own files (state, world, archives) on every command, and PyYAML's
object construction dominated a big campaign's resolve. The canonical writer uses a small,
line-oriented subset of YAML: block mappings indented by two spaces, block lists at their key's
indentation, one scalar per line, written plain (a word, a whole number, a decimal, ``null``,
``true``, ``false``, ``{}``, ``[]``) or as a JSON string. This module reads that subset and
nothing else: any line outside it raises ``NotCanonical``, and ``canonical.load`` then hands the
whole file to PyYAML. So a file the GM edited by hand, with a comment, other indentation or a
YAML feature, is read by PyYAML as before; only what the writer could have written takes the
fast path, and for that subset the two readers give equal data (tests/core/test_canonical_reader.py
compares them on every archived file and on generated data).

Player files never come here: they go through ``core.yamlsafe`` and all its gates.
"""

from __future__ import annotations

import re
from json.decoder import scanstring
from typing import Any

from . import text as player_text

# The plain words the writer leaves unquoted (canonical._PLAIN), and which PyYAML reads as text.
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*")
_RESERVED = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})
# Numbers as Python writes them and YAML 1.1 reads them alike; anything else (octal-looking
# zeros, exponents without a dot, underscores, signs) is left to PyYAML.
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?[0-9]+\.[0-9]+(?:e[-+][0-9]+)?")
# Escapes where JSON and YAML differ: YAML keeps an escaped surrogate pair as two characters
# where JSON joins them, and JSON has no \x, \U or the other YAML-only escapes (which make
# ``scanstring`` fail, and so the file go to PyYAML).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
# In ASCII text (the usual case, checked at once) the refused characters are the controls.
_ASCII_REFUSED = re.compile("[\x00-\x09\x0b-\x1f\x7f]")
_CONSTANTS: dict[str, Any] = {"null": None, "true": True, "false": False}
_WAITING = object()  # a frame with nothing waiting for a value
_ITEM = object()  # a list whose new item's value follows on the dash's line


class NotCanonical(ValueError):
    """The text is not in the subset ``canonical.dump`` writes."""


def read(text: str) -> Any:
    """The data of a canonical YAML text, or ``NotCanonical``."""
    if not text.endswith("\n") or "\r" in text or "\t" in text:
        raise NotCanonical("line breaks or tabs the writer does not use")
    # Raw characters YAML refuses or reads as line breaks; the writer escapes them all.
    refused = _ASCII_REFUSED.search(text) if text.isascii() else player_text.first_refused_in_file(text)
    if refused is not None or ("\\u" in text and _SURROGATE_ESCAPE.search(text)):
        raise NotCanonical("a character or escape the writer does not write")
    lines = text.split("\n")
    lines.pop()
    if len(lines) == 1 and not lines[0].startswith(("- ", " ")) and _key_end(lines[0]) is None:
        return _inline(lines[0])
    return _read_block(lines)


def _read_block(lines: list[str]) -> Any:
    # Frames of the open collections: [column, container, key or marker waiting for its value].
    stack: list[list[Any]] = []
    root: Any = None
    words: dict[str, Any] = {}  # plain tokens already read: keys and names repeat on many lines
    for line in lines:
        content = line.lstrip(" ")
        col = len(line) - len(content)
        while content.startswith("- "):
            frame = _frame(stack, col, dash=True)
            if frame is None:
                frame = _push(stack, col, [])
                root = frame[1]
            frame[2] = _ITEM  # the item's value follows on this line, two columns further
            col += 2
            content = content[2:]
        end = _key_end(content)
        if end is None:
            top = stack[-1] if stack else None
            if top is None or top[2] is not _ITEM or col != top[0] + 2:
                raise NotCanonical(f"a value where none is expected: {line!r}")
            top[1].append(_inline(content))
            top[2] = _WAITING
            continue
        if content[0] == '"':
            key = _scalar(content[1 : end - 1], quoted=True)
        else:
            token = content[:end]
            key = words.get(token, _WAITING)
            if key is _WAITING:
                key = words[token] = _scalar(token)
        rest = content[end:]
        top = stack[-1] if stack else None
        if top is not None and top[0] == col and top[2] is _WAITING and type(top[1]) is dict:
            frame = top  # the next key of the mapping being read: the usual line
        else:
            frame = _frame(stack, col, dash=False)
        if frame is None:
            frame = _push(stack, col, {})
            root = frame[1]
        mapping = frame[1]
        if key in mapping:
            raise NotCanonical(f"duplicate key {key!r}")
        if rest == ":":
            frame[2] = key
        elif rest.startswith(": "):
            token = rest[2:]
            value = words.get(token, _WAITING)
            if value is _WAITING:
                value = _inline(token)
                if type(value) is not dict and type(value) is not list:  # never share a container
                    words[token] = value
            mapping[key] = value
        else:
            raise NotCanonical(f"not a key and value: {line!r}")
    if not stack or any(frame[2] is not _WAITING for frame in stack):
        raise NotCanonical("a key or item without its value")
    return root


def _push(stack: list[list[Any]], col: int, container: Any) -> list[Any]:
    if col != 0:
        raise NotCanonical("the first line is indented")
    frame = [col, container, _WAITING]
    stack.append(frame)
    return frame


def _frame(stack: list[list[Any]], col: int, *, dash: bool) -> list[Any] | None:
    """The frame a dash (list item) or key at ``col`` belongs to, opening it when a key or item
    above waits for it; None for the first line of the file."""
    if not stack:
        return None
    top = stack[-1]
    waiting = top[2]
    if waiting is not _WAITING:
        parent = top[1]
        # A list item's value sits on the dash's line two columns in; a key's block value is a
        # mapping two columns in, or a list at the key's own column.
        fits = col == top[0] if dash and waiting is not _ITEM else col == top[0] + 2
        if not fits:
            raise NotCanonical("a block value at the wrong indentation")
        child: Any = [] if dash else {}
        if waiting is _ITEM:
            parent.append(child)
        else:
            parent[waiting] = child
        top[2] = _WAITING
        frame = [col, child, _WAITING]
        stack.append(frame)
        return frame
    # A list under a key shares the key's column: a key at that column closes the list.
    while stack and (stack[-1][0] > col or (not dash and stack[-1][0] == col and type(stack[-1][1]) is list)):
        stack.pop()
    if not stack or stack[-1][0] != col or (type(stack[-1][1]) is list) != dash:
        raise NotCanonical("a line at an indentation the writer does not use")
    return stack[-1]


def _key_end(content: str) -> int | None:
    """Where the key of a key line ends (just after it), or None when the line holds no key."""
    if content.startswith('"'):
        try:
            _, end = scanstring(content, 1, True)
        except ValueError:
            raise NotCanonical("a quoted text that is not a JSON string") from None
        return end if end < len(content) and content[end] == ":" else None
    colon = content.find(":")
    return None if colon < 0 else colon


def _inline(token: str) -> Any:
    if token == "{}":
        return {}
    if token == "[]":
        return []
    if token.startswith('"'):
        try:
            value, end = scanstring(token, 1, True)
        except ValueError:
            raise NotCanonical("a quoted text that is not a JSON string") from None
        if end != len(token):
            raise NotCanonical(f"text after a quoted value: {token!r}")
        return value
    return _scalar(token)


def _scalar(token: str, *, quoted: bool = False) -> Any:
    if quoted:
        try:
            value, end = scanstring(f'"{token}"', 1, True)
        except ValueError:
            raise NotCanonical("a quoted text that is not a JSON string") from None
        if end != len(token) + 2:
            raise NotCanonical("a quoted key that does not end where it should")
        return value
    if token in _CONSTANTS:
        return _CONSTANTS[token]
    if _WORD.fullmatch(token):
        if token.lower() in _RESERVED:
            raise NotCanonical(f"{token!r} reads as a boolean or null in YAML 1.1")
        return token
    if _INT.fullmatch(token):
        return int(token)
    if _FLOAT.fullmatch(token):
        return float(token)
    raise NotCanonical(f"a plain value the writer does not write: {token!r}")
