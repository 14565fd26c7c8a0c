"""Order models as data: each action is a name and a list of typed fields.

One declaration serves three readers: the structural validator (with positions
and "did you mean" hints), the JSON Schema that editors complete from, and the
rules pages that list every order.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from . import text as player_text
from .issues import Issue
from .yamlsafe import Located, Path, refused_character_issue

Kind = Literal["text", "int", "bool", "choice", "list", "counts", "mapping"]


@dataclass(frozen=True)
class Field:
    name: str
    kind: Kind
    help: str
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()  # for "choice", and for lists of choices
    minimum: int | None = None
    maximum: int | None = None
    items: Literal["text", "choice"] = "text"  # element kind of a "list"
    max_length: int = 2000  # characters, for text
    multiline: bool = False  # text that may hold line breaks and tabs (narrations, notes); names never do


@dataclass(frozen=True)
class ActionSpec:
    name: str
    summary: str
    fields: tuple[Field, ...] = ()
    cost: str = "free"  # in words, for the rules page and the echo
    example: Mapping[str, Any] = field(default_factory=dict)

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


def suggest(word: str, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


def choice_hint(word: str, options: Sequence[str]) -> str:
    guess = suggest(word, options)
    listed = ", ".join(options)
    return f"{guess} Choose one of: {listed}" if guess else f"choose one of: {listed}"


class FieldChecker:
    """Checks raw order mappings against their specs and reports located issues."""

    def __init__(self, located: Located, file: str) -> None:
        self.located = located
        self.file = file
        self.issues: list[Issue] = []

    def error(self, path: Path, message: str, hint: str = "", *, key: bool = False, order: int | None = None):
        line, col = self.located.pos(path, key=key)
        self.issues.append(Issue("error", message, hint, self.file, line, col, order))

    def check_action(
        self, spec: ActionSpec, raw: Mapping[str, Any], path: Path, order: int
    ) -> dict[str, Any]:
        values: dict[str, Any] = {"action": spec.name}
        known = {f.name for f in spec.fields} | {"action"}
        for key in raw:
            if key not in known:
                names = sorted(known - {"action"})
                hint = suggest(key, names) or (
                    f"'{spec.name}' takes: {', '.join(names)}" if names else f"'{spec.name}' takes no fields"
                )
                self.error((*path, key), f"'{spec.name}' has no field '{key}'", hint, key=True, order=order)
        for f in spec.fields:
            if f.name not in raw or raw[f.name] is None:
                if f.required:
                    self.error(
                        path,
                        f"'{spec.name}' needs '{f.name}' ({f.help})",
                        f"add '{f.name}:' to this order",
                        order=order,
                    )
                elif f.default is not None:
                    values[f.name] = f.default
                continue
            ok, value = self._value(f, raw[f.name], (*path, f.name), order)
            if ok:
                values[f.name] = value
        return values

    def _value(self, f: Field, value: Any, path: Path, order: int) -> tuple[bool, Any]:
        if f.kind == "text" or f.kind == "choice":
            return self._scalar_text(f, value, path, order, f.choices if f.kind == "choice" else ())
        if f.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                self.error(
                    path,
                    f"'{f.name}' must be a whole number, not {_show(value)}",
                    "write digits only, e.g. 2",
                    order=order,
                )
                return False, None
            return self._range(f, value, path, order)
        if f.kind == "bool":
            if not isinstance(value, bool):
                self.error(
                    path,
                    f"'{f.name}' must be true or false, not {_show(value)}",
                    "write true or false",
                    order=order,
                )
                return False, None
            return True, value
        if f.kind == "list":
            if not isinstance(value, list):
                value = [value]  # a single item is a list of one: friendlier for paths like "N"
            items: list[str] = []
            for i, item in enumerate(value):
                ok, text = self._scalar_text(
                    f, item, (*path, i), order, f.choices if f.items == "choice" else ()
                )
                if not ok:
                    return False, None
                items.append(text)
            if f.minimum is not None and len(items) < f.minimum:
                self.error(path, f"'{f.name}' needs at least {f.minimum} item(s)", order=order)
                return False, None
            if f.maximum is not None and len(items) > f.maximum:
                self.error(
                    path, f"'{f.name}' takes at most {f.maximum} item(s), got {len(items)}", order=order
                )
                return False, None
            return True, items
        if f.kind == "counts":
            if not isinstance(value, dict):
                self.error(
                    path, f"'{f.name}' must be a mapping of name: number", "e.g. attack: 1", order=order
                )
                return False, None
            counts: dict[str, int] = {}
            for key, n in value.items():
                if f.choices and key not in f.choices:
                    self.error(
                        (*path, key),
                        f"'{key}' is not a valid key of '{f.name}'",
                        choice_hint(key, f.choices),
                        key=True,
                        order=order,
                    )
                    return False, None
                if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                    self.error(
                        (*path, key), f"'{f.name}.{key}' must be a whole number of 0 or more", order=order
                    )
                    return False, None
                counts[str(key)] = n
            return True, counts
        if f.kind == "mapping":
            if not isinstance(value, dict):
                self.error(path, f"'{f.name}' must be a mapping of fields", order=order)
                return False, None
            return True, value
        raise AssertionError(f"unknown field kind {f.kind}")

    def _scalar_text(
        self, f: Field, value: Any, path: Path, order: int, choices: Sequence[str]
    ) -> tuple[bool, Any]:
        if isinstance(value, bool):
            # YAML 1.1 reads yes/no/on/off as booleans: the usual cause is an unquoted word.
            self.error(
                path,
                f"'{f.name}' must be text, but YAML read {value!r}",
                "put the value in quotes",
                order=order,
            )
            return False, None
        if isinstance(value, int):
            value = str(value)  # army "1" written as 1
        if not isinstance(value, str):
            self.error(path, f"'{f.name}' must be text, not {_show(value)}", order=order)
            return False, None
        if len(value) > f.max_length:
            self.error(
                path,
                f"'{f.name}' is {len(value)} characters long; the limit is {f.max_length}",
                "shorten it",
                order=order,
            )
            return False, None
        index = player_text.first_refused(value, multiline=f.multiline)
        if index is not None:
            line, col = self.located.pos(path)
            self.issues.append(refused_character_issue(self.file, line, col, value, index, order))
            return False, None
        if choices and value not in choices:
            self.error(path, f"'{value}' is not a valid {f.name}", choice_hint(value, choices), order=order)
            return False, None
        return True, value

    def _range(self, f: Field, value: int, path: Path, order: int) -> tuple[bool, Any]:
        if f.minimum is not None and value < f.minimum:
            self.error(
                path,
                f"'{f.name}' must be at least {f.minimum}, got {value}",
                f"write {f.minimum} or more",
                order=order,
            )
            return False, None
        if f.maximum is not None and value > f.maximum:
            self.error(
                path,
                f"'{f.name}' must be at most {f.maximum}, got {value}",
                f"write {f.maximum} or less",
                order=order,
            )
            return False, None
        return True, value


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


# -- JSON Schema (draft-07: yaml-language-server supports draft 7 and below) ---------------------------


def field_schema(f: Field) -> dict[str, Any]:
    s: dict[str, Any]
    if f.kind == "text":
        s = {"type": ["string", "integer"], "maxLength": f.max_length}
    elif f.kind == "choice":
        s = {"type": "string", "enum": list(f.choices)}
    elif f.kind == "int":
        s = {"type": "integer"}
        if f.minimum is not None:
            s["minimum"] = f.minimum
        if f.maximum is not None:
            s["maximum"] = f.maximum
    elif f.kind == "bool":
        s = {"type": "boolean"}
    elif f.kind == "list":
        item: dict[str, Any] = (
            {"type": "string", "enum": list(f.choices)}
            if f.items == "choice"
            else {"type": ["string", "integer"]}
        )
        s = {"anyOf": [{"type": "array", "items": item}, item]}
    elif f.kind == "mapping":
        s = {"type": "object"}
    else:  # counts
        s = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
        if f.choices:
            s["propertyNames"] = {"enum": list(f.choices)}
    s["description"] = f.help
    if f.default is not None:
        s["default"] = f.default
    return s


def action_schema(spec: ActionSpec) -> dict[str, Any]:
    props: dict[str, Any] = {
        "action": {"const": spec.name, "description": f"{spec.summary} Cost: {spec.cost}."}
    }
    for f in spec.fields:
        props[f.name] = field_schema(f)
    return {
        "title": spec.name,
        "description": spec.summary,
        "type": "object",
        "properties": props,
        "required": ["action", *[f.name for f in spec.fields if f.required]],
        "additionalProperties": False,
    }
