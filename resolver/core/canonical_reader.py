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
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from json.decoder import scanstring
from operator import lt
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


# -- reading a big file in part ------------------------------------------------------------------------
#
# `campaign check` of one order file needs the checking faction's own pieces and a few columns of the
# others' (whose army stands where), yet at 400 factions the state holds 20,000 armies on 700,000
# lines. ``read_in_part`` reads every top-level section but one as ``read`` does, and that one, a
# mapping of mappings such as ``armies``, as ``ReadEntries``: its keys at once, each entry when first
# looked at, and single columns (every entry's ``owner``) by a scan of their lines. Callers use it only
# on files the engine wrote, whose digest the turn archive holds; anything unexpected in the layout
# raises ``NotCanonical``, and an entry that does not read falls back to the whole file's data.
#
# What the cut and the scans find (the other sections' data, where each entry begins, the columns) is
# the reading's index, plain data that ``canonical.load_in_part`` keeps in the read cache under the
# file's digest: checking another file against the same state neither cuts nor scans it again.

_TOP_LINE = re.compile(r"\n[^ ]")  # the line break before each line at column 0 (no lookahead: faster)
_ENTRY_LINE = re.compile(r"\n  (?! )([^\n]*)")  # every line at column 2: each must be an entry's key line
_INDEX_FORMAT = 1  # the layout of an index; an index of another layout is not used
# ``ReadEntries.holding`` searches the text for a value's lines this many times per field (each search
# reads the whole text, as fast as Python reads anything); the next question makes the field's table.
# Measured on a 400-nation state (11 MB, 20,000 armies), the table costs about as much as 11 searches
# (55 ms against 5 ms): searching until the searches have cost about what the table would is never
# more than twice the better of the two, and a file attacking a few tiles needs no table at all.
SEARCHES_BEFORE_TABLE = 10


def read_in_part(
    text: str,
    section: str,
    whole: Callable[[], Any],
    index: Any = None,
    indexed: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """The data of a canonical YAML mapping, with ``section`` as ``ReadEntries``. ``whole`` gives the
    whole file's data, for an entry that does not read on its own. ``index`` is what an earlier reading
    of the same text found (its digest is the caller's guard), used when it fits the text; ``indexed``
    is given the reading's index whenever a column scan has added to it."""
    if not text.endswith("\n") or "\r" in text or "\t" in text:
        raise NotCanonical("line breaks or tabs the writer does not use")
    known = _from_index(text, section, whole, index, indexed) if index is not None else None
    if known is not None:
        return known
    head = f"{section}:\n"
    start = 0 if text.startswith(head) else text.find(f"\n{head}") + 1
    if start == 0 and not text.startswith(head):
        raise NotCanonical(f"no section {section!r}")
    found = _TOP_LINE.search(text, start + len(head) - 1)
    if found and found.start() == start + len(head) - 1:
        raise NotCanonical(f"the section {section!r} has no value")
    end = found.start() + 1 if found else len(text)
    before = read(text[:start]) if start else {}
    after = read(text[end:]) if end < len(text) else {}
    _check_around(before, after, section)
    entries = ReadEntries.cut(text, start + len(head) - 1, end, whole, section)
    if indexed is not None:
        around = {"format": _INDEX_FORMAT, "section": section, "before": before, "after": after}
        entries.indexed = lambda found: indexed({**around, "entries": found})
        # Kept at once: a check that scans no column (most look up a few values with ``holding``) would
        # otherwise leave the next check to cut the text again.
        entries.indexed(entries.index())
    return {**before, section: entries, **after}


def _check_around(before: Any, after: Any, section: str) -> None:
    if not isinstance(before, dict) or not isinstance(after, dict) or section in before or section in after:
        raise NotCanonical("the sections around the one read in part")
    if set(before) & set(after):
        raise NotCanonical("a top-level key twice")


def _from_index(
    text: str,
    section: str,
    whole: Callable[[], Any],
    index: Any,
    indexed: Callable[[dict[str, Any]], None] | None,
) -> dict[str, Any] | None:
    """The reading an index describes, or None when it does not fit the text (then the text is cut)."""
    try:
        if index["format"] != _INDEX_FORMAT or index["section"] != section:
            return None
        before, after, found = index["before"], index["after"], index["entries"]
        _check_around(before, after, section)
        entries = ReadEntries.from_index(text, found, whole, section)
    except (KeyError, TypeError, ValueError):  # NotCanonical is a ValueError
        return None
    head = f"{section}:\n"
    first = entries.start - len(head) + 1
    if text[first : entries.start + 1] != head or (first and text[first - 1] != "\n"):
        return None
    if indexed is not None:
        entries.indexed = lambda found: indexed({**index, "entries": found})
    return {**before, section: entries, **after}


class ReadEntries(Mapping[str, Any]):
    """The entries of one section of a canonical file, each read on first use (see ``read_in_part``)."""

    def __init__(
        self,
        text: str,
        tokens: list[str],
        starts: list[int],
        end: int,
        whole: Callable[[], Any],
        section: str,
        columns: dict[str, list[Any] | None] | None = None,
    ) -> None:
        # Each entry runs from the line break before its key line (its start) to the next entry's
        # start; the last one to ``end``, just after the line break that ends the section.
        if not tokens or len(tokens) != len(starts):
            raise NotCanonical("no entries, or entries without their places")
        self.text = text
        self.start = starts[0]
        self.indexed: Callable[[dict[str, Any]], None] | None = None
        self._tokens = tokens  # each key as written
        self._keys = _entry_keys(tokens)
        self._starts = starts
        self._end = end
        self._spans = dict(zip(self._keys, zip(starts, [*starts[1:], end], strict=True), strict=True))
        self._whole = whole
        self._section = section
        self._read: dict[str, Any] = {}
        self._columns: dict[str, list[Any] | None] = dict(columns or {})  # values in the order of the keys
        self._by_key: dict[str, dict[str, Any] | None] = {}
        self._lines: dict[str, int] = {}  # how many lines of each field ``holding`` searched the entries hold
        self._searches: dict[str, int] = {}  # how many times ``holding`` searched the text for each field
        self._holders: dict[str, dict[str, list[str]] | None] = {}  # a field's keys by its value as written

    @classmethod
    def cut(cls, text: str, start: int, end: int, whole: Callable[[], Any], section: str) -> ReadEntries:
        """The entries of ``text[start:end]``, which runs from the line break before the first entry's
        key line to the one ending the section's last line."""
        lines = list(_ENTRY_LINE.finditer(text, start, end))
        if not lines or lines[0].start() != start:
            raise NotCanonical("a line before the first entry")
        tokens = [line[1] for line in lines]
        if not all(token.endswith(":") for token in tokens):
            raise NotCanonical("an entry line the writer does not write")
        tokens = [token[:-1] for token in tokens]
        return cls(text, tokens, [line.start() for line in lines], end, whole, section)

    @classmethod
    def from_index(cls, text: str, found: Any, whole: Callable[[], Any], section: str) -> ReadEntries:
        """The entries as an index recorded them; ``NotCanonical`` when it does not fit ``text``: each
        entry's place must hold its key line. What it says of the columns is trusted as the read cache
        is, by the file's digest it is named after."""
        tokens, starts, end, columns = found["tokens"], found["starts"], found["end"], found["columns"]
        if not isinstance(tokens, list) or not isinstance(starts, list) or not isinstance(columns, dict):
            raise NotCanonical("an index of another shape")
        if not set(map(type, tokens)) <= {str} or not set(map(type, starts)) <= {int} or type(end) is not int:
            raise NotCanonical("an index of another shape")
        if not tokens or len(tokens) != len(starts) or not all(map(lt, starts, [*starts[1:], end])):
            raise NotCanonical("an index whose places do not fit the text")
        if (
            starts[0] < 0
            or end > len(text)
            or text[end - 1] != "\n"
            or (end < len(text) and text[end] == " ")
        ):
            raise NotCanonical("an index whose section ends elsewhere")
        if not all(map(text.startswith, [f"\n  {token}:\n" for token in tokens], starts)):
            raise NotCanonical("an index whose places are not its entries' key lines")
        for values in columns.values():
            if values is not None and (not isinstance(values, list) or len(values) != len(tokens)):
                raise NotCanonical("an index column of another length")
        return cls(text, tokens, starts, end, whole, section, columns)

    def index(self) -> dict[str, Any]:
        """What this reading found, as plain data for ``from_index``."""
        return {"tokens": self._tokens, "starts": self._starts, "end": self._end, "columns": self._columns}

    def __getitem__(self, key: str) -> Any:
        if key in self._read:
            return self._read[key]
        start, stop = self._spans[key]
        # The entry as a document of its own: its key line at column 0, its lines two columns less. The
        # last entry's text ends with the section's last line break, the others' not.
        part = self.text[start + 3 : stop]
        text = (part if part.endswith("\n") else part + "\n").replace("\n  ", "\n")
        try:
            entry = read(text)
            if type(entry) is not dict or len(entry) != 1:
                raise NotCanonical("not one entry")
            value = entry[key]
        except (NotCanonical, KeyError):
            value = self._whole()[self._section][key]
        self._read[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._spans

    def place(self, key: str) -> int:
        """Where the entry ``key`` begins in the text: entries in order have growing places."""
        return self._spans[key][0]

    def holding(self, field: str, written: str) -> list[str] | None:
        """The keys, in order, of the entries whose own line of ``field`` reads ``written`` (a value as
        the writer writes it, on one line), found by searching the text for that line alone, so that only
        the entries found need be read: what ``column`` answers for one value, without scanning every
        entry. None when not every entry has its own line of ``field``, once (then read the column)."""
        line = f"\n    {field}: "
        if field not in self._lines:
            self._lines[field] = self.text.count(line, self.start, self._end)
        # A line at column 4 is a field of the entry it is in (the writer nests deeper values further
        # in): as many such lines as entries, none of them twice in one, means one in each.
        if self._lines[field] != len(self._keys) or "\n" in written:
            return None
        if field not in self._holders and self._searches.get(field, 0) >= SEARCHES_BEFORE_TABLE:
            # Each search reads the whole text: after a few, one pass makes the table of every value.
            self._holders[field] = self._holders_of(line)
        if field in self._holders:
            holders = self._holders[field]
            return None if holders is None else list(holders.get(written, ()))
        self._searches[field] = self._searches.get(field, 0) + 1
        target = f"{line}{written}\n"
        found: list[str] = []
        ends = [*self._starts[1:], self._end]
        at = self.text.find(target, self.start, self._end)
        while at >= 0:
            entry = bisect_right(self._starts, at) - 1
            if self.text.count(line, self._starts[entry], ends[entry]) != 1:
                return None  # a field twice in one entry: not as the writer writes
            found.append(self._keys[entry])
            at = self.text.find(target, at + len(target) - 1, self._end)
        return found

    def _holders_of(self, line: str) -> dict[str, list[str]] | None:
        """Every entry's key by the value of its line ``line`` as written; None unless each entry holds
        that line once."""
        matches = list(re.compile(f"{re.escape(line)}([^\n]*)").finditer(self.text, self.start, self._end))
        entries = [bisect_right(self._starts, match.start()) - 1 for match in matches]
        if entries != list(range(len(self._keys))):
            return None
        holders: dict[str, list[str]] = {}
        for key, match in zip(self._keys, matches, strict=True):
            holders.setdefault(match[1], []).append(key)
        return holders

    def column(self, field: str) -> dict[str, Any] | None:
        """Every entry's plain value of ``field``, by key and in order, read from its lines alone; None
        when an entry has no such line or more than one (then read the entries themselves)."""
        return self.columns((field,))[field]

    def columns(self, fields: Iterable[str]) -> dict[str, dict[str, Any] | None]:
        """Several columns (see ``column``), scanned together: one pass over the text for them all."""
        fields = list(fields)
        missing = sorted({field for field in fields if field not in self._columns})
        if missing:
            found = self._scan(missing) if len(missing) > 1 else None
            if found is None:  # scanned one by one, a column that does not fit leaves the others
                found = {field: (self._scan([field]) or {}).get(field) for field in missing}
            self._columns.update(found)
            if self.indexed is not None:
                self.indexed(self.index())
        return {field: self._column(field) for field in fields}

    def _column(self, field: str) -> dict[str, Any] | None:
        if field not in self._by_key:
            values = self._columns[field]
            self._by_key[field] = None if values is None else dict(zip(self._keys, values, strict=True))
        return self._by_key[field]

    def _scan(self, fields: list[str]) -> dict[str, list[Any] | None] | None:
        """The values of ``fields`` (sorted, as the writer sorts keys) in every entry, from one pass over
        its lines: each field's line anywhere after the key line and the previous field's. None when an
        entry lacks one of them or holds one twice; a field whose lines hold no plain value is None."""
        key_line = r"\n  (?! )[^\n]*"  # each line is matched from the line break before it
        lines = "".join(rf"(?:\n    [^\n]*)*?\n    {re.escape(field)}: ([^\n]*)" for field in fields)
        # Each match starts at a key line and reads only the lines of that entry (all deeper than column
        # 2), so as many matches as entries means every entry has each line; as many such lines in all
        # means none has two.
        found = re.compile(key_line + lines).findall(self.text, self.start, self._end)
        fits = len(found) == len(self._keys) and all(
            self.text.count(f"\n    {field}: ", self.start, self._end) == len(found) for field in fields
        )
        if not fits:
            return None
        rows = found if len(fields) > 1 else [(token,) for token in found]
        columns: dict[str, list[Any] | None] = {}
        for field, tokens in zip(fields, zip(*rows, strict=True), strict=True):
            try:
                columns[field] = _values(list(tokens))
            except NotCanonical:
                columns[field] = None  # a line that is no plain value: the entries are read instead
        return columns


def _entry_keys(tokens: list[str]) -> list[str]:
    """The keys of entries written as ``tokens``: text, each once."""
    if all(map(_WORD.fullmatch, tokens)) and _RESERVED.isdisjoint(map(str.lower, tokens)):
        keys = tokens  # plain words, as the writer writes most keys, read as themselves
    else:
        keys = [_scalar(t[1:-1], quoted=True) if t.startswith('"') else _scalar(t) for t in tokens]
        if not all(isinstance(key, str) for key in keys):
            raise NotCanonical("an entry key that is not text")
    if len(set(keys)) != len(keys):
        raise NotCanonical("an entry key twice")
    return keys


def _values(tokens: list[str]) -> list[Any]:
    """The values of plain tokens, each different one read once; plain words, the usual case, are
    read as themselves."""
    different = set(tokens)
    if all(map(_WORD.fullmatch, different)) and _RESERVED.isdisjoint(map(str.lower, different)):
        return tokens
    values = {token: _inline(token) for token in different}
    return list(map(values.__getitem__, tokens))


_ITEM_CUT = re.compile(r"\n- ")  # where an item of a list at column 0 begins


def read_list_in_part(text: str, section: str, key: str) -> tuple[dict[str, Any], dict[str, str]]:
    """A canonical mapping whose ``section`` is a list of mappings at column 0 (a world's locations):
    the mapping without that section, and each item's own text (for ``read_item``) by its ``key``, in
    order (a later item with the same key replaces an earlier one in its place, as a dict would)."""
    if not text.endswith("\n") or "\r" in text or "\t" in text:
        raise NotCanonical("line breaks or tabs the writer does not use")
    head = f"\n{section}:\n- "
    start = text.find(head) + 1 if not text.startswith(head[1:]) else 0
    if start == 0 and not text.startswith(head[1:]):
        raise NotCanonical(f"no list {section!r}")
    found = re.compile(r"\n[^ -]").search(text, start + len(head) - 4)
    end = found.start() + 1 if found else len(text)
    rest = read(text[:start] + text[end:]) if start or end < len(text) else {}
    if not isinstance(rest, dict) or section in rest:
        raise NotCanonical(f"the sections around {section!r}")
    body = text[start + len(head) - 4 : end]  # from the line break before the first item
    parts = _ITEM_CUT.split(body)
    if parts[0] != "" or body.count("\n-") != len(parts) - 1:
        raise NotCanonical("an item line the writer does not write")
    # A line at column 2 in an item is one of its own keys (the writer nests deeper values further in),
    # and an item holds a key once: as many such lines as items means one in each, in the items' order.
    tokens = re.compile(rf"\n  {re.escape(key)}: ([^\n]*)").findall(body)
    if len(tokens) != len(parts) - 1:
        raise NotCanonical(f"an item without its {key!r}, or with two")
    # Plain words, as the writer writes most keys, are read as themselves without a look at each.
    keys = [value if type(value) is str else str(value) for value in _values(tokens)]
    return rest, dict(zip(keys, parts[1:], strict=True))


def read_item(part: str) -> Any:
    """One item's data from its text as ``read_list_in_part`` cut it."""
    text = "- " + (part if part.endswith("\n") else part + "\n")
    (item,) = read(text)
    return item
