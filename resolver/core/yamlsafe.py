"""Loading YAML written by players, safely and with positions.

Player files are untrusted. Before anything is built we cap the size and scan the
event stream for anchors and aliases (an alias bomb expands only later, when the
data is walked, so loading alone would not catch it). The document is then
composed into nodes, which carry line and column marks, and converted by hand so
that duplicate keys are refused instead of silently keeping the last value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from .issues import Issue

MAX_BYTES = 64 * 1024

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Path = tuple[str | int, ...]


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
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _reject(
            file, 0, 0, f"the file is not UTF-8 text (byte {exc.start})", "save the file as UTF-8"
        ) from None
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                mark = event.start_mark
                raise _reject(
                    file,
                    mark.line + 1,
                    mark.column + 1,
                    "YAML anchors and aliases (&name, *name) are not allowed in order files",
                    "write each value out in full",
                )
        node = yaml.compose(text, Loader=_Loader)
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
    located = Located(None)
    if node is None:
        located.data = {}
        return located
    located.data = _convert(node, (), located, file)
    return located


_scalar_constructor = yaml.SafeLoader("")


def _convert(node: yaml.Node, path: Path, out: Located, file: str) -> Any:
    out.value_pos[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise _reject(
                    file,
                    key_node.start_mark.line + 1,
                    key_node.start_mark.column + 1,
                    "a mapping key must be plain text",
                    "use a simple name before the colon",
                )
            key = str(key_node.value)
            if key == "<<":
                raise _reject(
                    file,
                    key_node.start_mark.line + 1,
                    key_node.start_mark.column + 1,
                    "YAML merge keys (<<) are not allowed in order files",
                    "write the fields out in full",
                )
            if key in result:
                first = out.key_pos[(*path, key)]
                raise _reject(
                    file,
                    key_node.start_mark.line + 1,
                    key_node.start_mark.column + 1,
                    f"duplicate key '{key}' (first given on line {first[0]})",
                    "keep only one of them",
                )
            out.key_pos[(*path, key)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            result[key] = _convert(value_node, (*path, key), out, file)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*path, i), out, file) for i, item in enumerate(node.value)]
    return _scalar_constructor.construct_object(node, deep=True)
