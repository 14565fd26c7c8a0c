"""Loading YAML written by players, safely and with positions.

Player files are untrusted, and a YAML parser has soft spots: nested collections
recurse when composed (deep enough, libyaml's composer takes the process down),
tags call constructors that raise on malformed values, and a long run of
unclosed brackets makes the scanner quadratic. So nothing is composed by the
parser. The file passes cheap gates, each linear in its size:

1. at most ``MAX_BYTES``, and UTF-8;
2. no character that player text may not hold (``core.text``), anywhere, raw;
3. the parser's event stream, read one event at a time and abandoned at the first
   event that breaks a rule: nesting deeper than ``MAX_DEPTH``, a tag, an anchor
   or alias, a second document. Stopping there means the scanner never holds more
   than ``MAX_DEPTH`` open brackets, so it stays fast whatever follows;
4. the data is built from those same events with an explicit stack, no recursion,
   refusing duplicate and merge keys, numbers of more than ``MAX_NUMBER_LENGTH``
   characters, words that read as a number or date without being a valid one, and
   text that holds a refused character written as an escape (``"\\x7f"``).

Every refusal is a located issue: file:line:col, the problem, and a fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from . import text as player_text
from .issues import Issue

MAX_BYTES = 64 * 1024
# An order file nests five levels (file, orders, order, field, item); a GM's place data a few more.
MAX_DEPTH = 32
# Longer than any count in a game, far shorter than Python's 4,300-digit limit on reading integers.
MAX_NUMBER_LENGTH = 32

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Path = tuple[str | int, ...]

_NUMBER_TAGS = {"tag:yaml.org,2002:int": "a whole number", "tag:yaml.org,2002:float": "a number"}
_TYPED_TAGS = {
    **_NUMBER_TAGS,
    "tag:yaml.org,2002:null": "null",
    "tag:yaml.org,2002:bool": "true or false",
    "tag:yaml.org,2002:timestamp": "a date",
}


@dataclass
class Located:
    """Plain data plus the position of every key and value, addressed by path."""

    data: Any
    key_pos: dict[Path, tuple[int, int]] = field(default_factory=dict)
    value_pos: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def pos(self, path: Path, *, key: bool = False) -> tuple[int, int]:
        """Best position for a path: the exact node, else the nearest ancestor."""
        table = self.key_pos if key else self.value_pos
        probe = tuple(path)
        while probe:
            if probe in table:
                return table[probe]
            if not key and probe in self.key_pos:
                return self.key_pos[probe]
            probe = probe[:-1]
        return self.value_pos.get((), (1, 1))


class YamlRejected(Exception):
    def __init__(self, issue: Issue) -> None:
        super().__init__(issue.message)
        self.issue = issue


def _reject(file: str, line: int, col: int, message: str, hint: str) -> YamlRejected:
    return YamlRejected(Issue("error", message, hint, file, line, col))


def _reject_at(file: str, mark: Any, message: str, hint: str) -> YamlRejected:
    return _reject(file, mark.line + 1, mark.column + 1, message, hint)


def refused_character_issue(
    file: str, line: int, col: int, value: str, index: int, order: int | None = None
) -> Issue:
    """The one wording for text holding a character player text may not hold."""
    which = f"character {index + 1} of this text" if len(value) > 1 else "this character"
    return Issue(
        "error",
        f"{which} is {player_text.describe(value[index])}, which order files may not contain",
        "remove it: order files accept printable characters only, and line breaks only in press, "
        "rumours and narrations",
        file,
        line,
        col,
        order,
    )


def load_player_yaml(raw: bytes, file: str, max_bytes: int = MAX_BYTES) -> Located:
    """Parse one player file or raise ``YamlRejected`` with a located, fixable issue."""
    if len(raw) > max_bytes:
        raise _reject(
            file,
            0,
            0,
            f"the file is {len(raw):,} bytes; order files are capped at {max_bytes:,} bytes",
            "shorten press articles or split them over turns",
        )
    try:
        text = raw.decode("utf-8-sig")  # an editor's byte order mark is not part of the text
    except UnicodeDecodeError as exc:
        raise _reject(
            file, 0, 0, f"the file is not UTF-8 text (byte {exc.start})", "save the file as UTF-8"
        ) from None
    index = player_text.first_refused_in_file(text)
    if index is not None:
        line = text.count("\n", 0, index) + 1
        col = index - text.rfind("\n", 0, index)
        raise YamlRejected(refused_character_issue(file, line, col, text[index], 0))
    try:
        return _build(text, file)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = exc.problem or exc.context or "invalid YAML"
        raise _reject(
            file,
            line,
            col,
            f"YAML syntax: {problem}",
            "check indentation and quote text containing ':' or '#'",
        ) from None
    except yaml.YAMLError as exc:
        raise _reject(file, 0, 0, f"YAML syntax: {exc}", "check the file's syntax") from None


def yaml_error_text(error: yaml.YAMLError) -> str:
    """A YAML error in words, with its line and column, without the excerpt of the text PyYAML adds:
    the excerpt is cut to a width, and may show the middle of a pasted secret key without its prefix,
    where nothing could recognise it to hide it."""
    if not isinstance(error, yaml.MarkedYAMLError):
        return str(error)
    mark = error.problem_mark or error.context_mark
    problem = error.problem or error.context or "invalid YAML"
    return f"line {mark.line + 1}, column {mark.column + 1}: {problem}" if mark else problem


@dataclass
class _Open:
    """A mapping or list being filled, with the key that waits for its value."""

    container: dict[str, Any] | list[Any]
    path: Path
    key: str | None = None


def _build(text: str, file: str) -> Located:
    located = Located({})
    stack: list[_Open] = []
    documents = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise _reject_at(
                    file,
                    event.start_mark,
                    "an order file holds one YAML document, and this is a second one",
                    "remove this '---' line and what follows it",
                )
            continue
        if not isinstance(event, yaml.NodeEvent | yaml.CollectionEndEvent):
            continue  # the start and end of the stream and of the document
        _refuse_yaml_features(event, file)
        if isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            continue
        parent = stack[-1] if stack else None
        if parent is not None and isinstance(parent.container, dict) and parent.key is None:
            parent.key = _key(event, parent, located, file)
            continue
        if isinstance(event, yaml.CollectionStartEvent) and len(stack) >= MAX_DEPTH:
            raise _reject_at(
                file,
                event.start_mark,
                f"the data nests more than {MAX_DEPTH} levels deep",
                "order files need only a few levels: remove the extra brackets or indentation",
            )
        if parent is None:
            path: Path = ()
        elif isinstance(parent.container, dict):
            path = (*parent.path, str(parent.key))
        else:
            path = (*parent.path, len(parent.container))
        located.value_pos[path] = (event.start_mark.line + 1, event.start_mark.column + 1)
        value: Any
        if isinstance(event, yaml.MappingStartEvent):
            value = {}
        elif isinstance(event, yaml.SequenceStartEvent):
            value = []
        else:
            value = _scalar(event, file)
        if parent is None:
            located.data = value
        elif isinstance(parent.container, dict):
            parent.container[str(parent.key)] = value
            parent.key = None
        else:
            parent.container.append(value)
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append(_Open(value, path))
    return located


def _refuse_yaml_features(event: yaml.Event, file: str) -> None:
    if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
        raise _reject_at(
            file,
            event.start_mark,
            "YAML anchors and aliases (&name, *name) are not allowed in order files",
            "write each value out in full",
        )
    tag = getattr(event, "tag", None)
    if tag is not None:
        shown = player_text.visible(tag.replace("tag:yaml.org,2002:", "!!"))
        raise _reject_at(
            file,
            event.start_mark,
            f"YAML tags ({shown}) are not allowed in order files",
            "remove the tag; put the value in quotes if it is text",
        )


def _key(event: yaml.Event, parent: _Open, located: Located, file: str) -> str:
    mark = event.start_mark
    if not isinstance(event, yaml.ScalarEvent):
        raise _reject_at(file, mark, "a mapping key must be plain text", "use a simple name before the colon")
    key = str(event.value)
    _refuse_characters(key, file, mark, multiline=False)
    if key == "<<":
        raise _reject_at(
            file, mark, "YAML merge keys (<<) are not allowed in order files", "write the fields out in full"
        )
    assert isinstance(parent.container, dict)
    if key in parent.container:
        first = located.key_pos[(*parent.path, key)]
        raise _reject_at(
            file, mark, f"duplicate key '{key}' (first given on line {first[0]})", "keep only one of them"
        )
    located.key_pos[(*parent.path, key)] = (mark.line + 1, mark.column + 1)
    return key


_resolver = yaml.SafeLoader("")


def _scalar(event: yaml.ScalarEvent, file: str) -> Any:
    mark = event.start_mark
    tag = _resolver.resolve(yaml.ScalarNode, event.value, event.implicit)
    if tag not in _TYPED_TAGS:
        # Plain text; YAML 1.1 would also read a bare '=' or '<<' as special values that the safe
        # loader cannot build, and for a player they are text like any other.
        _refuse_characters(event.value, file, mark, multiline=True)
        return event.value
    if tag in _NUMBER_TAGS and len(event.value) > MAX_NUMBER_LENGTH:
        raise _reject_at(
            file,
            mark,
            f"a number of {len(event.value):,} characters; numbers in order files have at most "
            f"{MAX_NUMBER_LENGTH}",
            "write a smaller number, or put the value in quotes if it is text",
        )
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
    try:
        return _resolver.yaml_constructors[tag](_resolver, node)
    except (ValueError, OverflowError):
        raise _reject_at(
            file,
            mark,
            f"'{player_text.visible(event.value)}' looks like {_TYPED_TAGS[tag]} but is not a valid one",
            "correct it, or put it in quotes if it is text",
        ) from None


def _refuse_characters(value: str, file: str, mark: Any, *, multiline: bool) -> None:
    index = player_text.first_refused(value, multiline=multiline)
    if index is not None:
        raise YamlRejected(refused_character_issue(file, mark.line + 1, mark.column + 1, value, index))
