"""Order models as data: each action is a name and a list of typed fields.

One declaration serves three readers: the structural validator (with positions
and "did you mean" hints), the JSON Schema that editors complete from, and the
rules pages that list every order.

Besides plain values a field may hold a nested ``order`` (a backup action, written like any order
with ``action:`` and its fields), a ``record`` (a mapping with typed fields of its own) or a ``ref``
(the id of something in the state: the checker suggests the nearest id the state holds).

A field that names something by id (a faction, a location) may also take its name: players read names
on the site and in their templates ("The Tidewater Brotherhood"), while the engine keeps ids
(``brotherhood``). The checker reads a name, in any case, as the id it names, once, when the file is
parsed: the order then holds the id, and the checker, the resolver and the echo all read that one id.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from . import text as player_text
from .issues import Issue
from .yamlsafe import Located, Path, refused_character_issue

Kind = Literal["text", "int", "bool", "choice", "list", "counts", "mapping", "order", "record", "ref"]
# The ids a reference may name, by the state collection it points into ("armies", "factions"…).
IdsOf = Callable[[str], Sequence[str]]
# The names a player may write for ids, by the kind of thing named ("factions", "locations"…): each id
# with its names, the one shown first.
NamesOf = Callable[[str], Mapping[str, Sequence[str]]]


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
    fields: tuple[Field, ...] = ()  # the typed fields of a "record"
    ref: str = ""  # for "ref": the state collection whose ids it names, e.g. "factions"
    names: str = ""  # the kind of thing (see NamesOf) whose names it takes for ids; a "ref" takes its ref's
    inherits: tuple[str, ...] = ()  # for "order": fields the nested order takes from the order holding it


@dataclass(frozen=True)
class ActionSpec:
    name: str
    summary: str
    fields: tuple[Field, ...] = ()
    cost: str = "free"  # in words, for the rules page and the echo
    example: Mapping[str, Any] = field(default_factory=dict)
    # A key the action does not take but players are likely to write, and the fix to show for it instead of
    # a guess at a close spelling (an order that names nobody given 'by:' is not a misspelt 'buy:').
    unknown_hints: Mapping[str, str] = field(default_factory=dict)
    # Orders written without 'action:', for games whose players write orders in a notation of their own.
    # ``text_field``: an order written as plain text ('- A PAR - BUR') is this action, the text in that
    # field (one action of a ruleset at most). ``key_field``: a mapping without 'action:' that holds this
    # field is this action ('- {unit: A PAR, move: BUR}' is a move).
    text_field: str = ""
    key_field: str = ""

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


def suggest(word: str, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


def choice_hint(word: str, options: Sequence[str]) -> str:
    guess = suggest(word, options)
    listed = ", ".join(options)
    return f"{guess} Choose one of: {listed}" if guess else f"choose one of: {listed}"


def id_named(word: str, named: Mapping[str, Sequence[str]]) -> str | None:
    """The id that ``word`` stands for: the id itself, or the id or one of its names in any case. None
    when it names nothing, or more than one thing (two places of one name): then only the id will do."""
    if word in named:
        return word
    folded = word.strip().casefold()
    found = {key for key, names in named.items() if folded in {key.casefold(), *map(str.casefold, names)}}
    return found.pop() if len(found) == 1 else None


def with_name(key: str, named: Mapping[str, Sequence[str]]) -> str:
    """An id as a hint lists it: with its name, when it has one that is not the id itself."""
    names = [name for name in named.get(key, ()) if name.casefold() != key.casefold()]
    return f"{key} ({names[0]})" if names else key


def named_suggestion(word: str, named: Mapping[str, Sequence[str]], options: Sequence[str]) -> str:
    """ "did you mean …?" for ids that have names: the guess may be close to an id or to a name
    ("Tidewater Brotherhood" to "The Tidewater Brotherhood"), and is shown with its name."""
    spellings: dict[str, str] = {}  # each id and name, folded, -> its id
    for key in options:
        for spelling in (key, *named.get(key, ())):
            spellings.setdefault(spelling.casefold(), key)
    close = difflib.get_close_matches(word.strip().casefold(), list(spellings), n=1, cutoff=0.6)
    if not close:
        return ""
    guess = spellings[close[0]]
    names = [name for name in named.get(guess, ()) if name.casefold() != guess.casefold()]
    return f"did you mean '{guess}' ({names[0]})?" if names else f"did you mean '{guess}'?"


def named_hint(word: str, named: Mapping[str, Sequence[str]], options: Sequence[str] | None = None) -> str:
    """Like ``choice_hint``, for ids that have names (see ``named_suggestion``): each choice is listed
    with its name."""
    keys = list(named) if options is None else list(options)
    guess = named_suggestion(word, named, keys)
    listed = ", ".join(with_name(key, named) for key in keys)
    return f"{guess} Choose one of: {listed}" if guess else f"choose one of: {listed}"


class FieldChecker:
    """Checks raw order mappings against their specs and reports located issues.

    ``actions`` are the orders a nested ``order`` field may hold (without them a nested order is only
    checked to be a mapping); ``ids_of`` lists the ids the state holds, for ``ref`` fields' hints;
    ``names_of`` the names that fields naming things take for ids.
    """

    def __init__(
        self,
        located: Located,
        file: str,
        actions: Mapping[str, ActionSpec] | None = None,
        ids_of: IdsOf | None = None,
        names_of: NamesOf | None = None,
    ) -> None:
        self.located = located
        self.file = file
        self.actions = actions
        self.ids_of = ids_of
        self.names_of = names_of
        self.issues: list[Issue] = []
        self._inside: list[str] = []  # the nested-order fields being checked, outermost first

    def error(self, path: Path, message: str, hint: str = "", *, key: bool = False, order: int | None = None):
        line, col = self.located.pos(path, key=key)
        self.issues.append(Issue("error", message, hint, self.file, line, col, order))

    def check_action(
        self, spec: ActionSpec, raw: Mapping[str, Any], path: Path, order: int
    ) -> dict[str, Any]:
        values: dict[str, Any] = {"action": spec.name}
        values.update(
            self.check_record(
                f"'{spec.name}'", spec.fields, raw, path, order, ("action",), hints=spec.unknown_hints
            )
        )
        return values

    def check_record(
        self,
        owner: str,
        fields: Sequence[Field],
        raw: Mapping[str, Any],
        path: Path,
        order: int | None,
        allowed: tuple[str, ...] = (),
        hints: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        """The typed fields of an order or a record: unknown keys, missing fields, each value's type.
        ``hints``: the fix to show for an unknown key the owner names in advance, instead of a guess."""
        values: dict[str, Any] = {}
        names = sorted(f.name for f in fields)
        for key in raw:
            if key not in names and key not in allowed:
                hint = (
                    (hints or {}).get(str(key))
                    or suggest(key, names)
                    or (f"{owner} takes: {', '.join(names)}" if names else f"{owner} takes no fields")
                )
                self.error((*path, key), f"{owner} has no field '{key}'", hint, key=True, order=order)
        for f in fields:
            if f.name not in raw or raw[f.name] is None:
                if f.required:
                    self.error(
                        path,
                        f"{owner} needs '{f.name}' ({f.help})",
                        f"add '{f.name}:' to this {'order' if allowed else 'section'}",
                        order=order,
                    )
                elif f.default is not None:
                    values[f.name] = f.default
                continue
            if f.kind == "order":
                ok, value = self.check_order(f, raw[f.name], (*path, f.name), order, raw)
            else:
                ok, value = self._value(f, raw[f.name], (*path, f.name), order)
            if ok:
                values[f.name] = value
        return values

    def check_order(
        self, f: Field, value: Any, path: Path, order: int | None, parent: Mapping[str, Any] | None = None
    ) -> tuple[bool, Any]:
        """A nested order: a mapping with ``action:`` and that action's fields, nested one level only.
        Fields listed in ``f.inherits`` come from the order holding it and may not be written apart."""
        if not isinstance(value, dict):
            self.error(path, f"'{f.name}' must be an order: 'action:' and its fields", order=order)
            return False, None
        if self._inside:
            self.error(
                path,
                f"'{f.name}' inside '{self._inside[-1]}': an order holds another order one level deep only",
                f"leave '{f.name}' out here",
                order=order,
            )
            return False, None
        if self.actions is None:
            return True, value
        action = value.get("action")
        if not isinstance(action, str) or action not in self.actions:
            where = (*path, "action") if "action" in value else path
            shown = f"unknown action '{action}'" if isinstance(action, str) else f"'{f.name}' has no 'action'"
            self.error(where, shown, choice_hint(str(action or ""), list(self.actions)), order=order)
            return False, None
        inherited = dict(value)
        for name in f.inherits:
            given = (parent or {}).get(name)
            if name in value and value[name] != given:
                self.error(
                    (*path, name),
                    f"'{f.name}' takes '{name}' from its order ({given})",
                    f"leave '{name}' out of '{f.name}'",
                    order=order,
                )
                return False, None
            if given is not None:
                inherited[name] = given
        before = len(self.issues)
        self._inside.append(f.name)
        try:
            values = self.check_action(self.actions[action], inherited, path, order or 0)
        finally:
            self._inside.pop()
        return len(self.issues) == before, values

    def _named(self, f: Field) -> Mapping[str, Sequence[str]] | None:
        """The ids and names of what the field names, when it takes names for ids."""
        kind = f.names or (f.ref if f.kind == "ref" else "")
        return self.names_of(kind) if kind and self.names_of is not None else None

    def _as_id(self, f: Field, value: Any) -> Any:
        """A value as the id it names: a name, or an id in another case, becomes the id; anything else
        stays as written, for the checks to refuse with their hints."""
        named = self._named(f) if isinstance(value, str) else None
        return (id_named(value, named) or value) if named else value

    def _value(self, f: Field, value: Any, path: Path, order: int | None) -> tuple[bool, Any]:
        if f.kind in ("text", "choice", "ref"):
            value = self._as_id(f, value)
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
            value = [self._as_id(f, item) for item in value]
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
        if f.kind == "record":
            if not isinstance(value, dict):
                names = ", ".join(field.name for field in f.fields)
                self.error(path, f"'{f.name}' must be a mapping with the fields: {names}", order=order)
                return False, None
            before = len(self.issues)
            values = self.check_record(f"'{f.name}'", f.fields, value, path, order)
            return len(self.issues) == before, values
        if f.kind == "order":
            return self.check_order(f, value, path, order)  # outside an order: nothing to inherit
        if f.kind == "ref":
            ok, text = self._scalar_text(f, value, path, order, ())
            known = list(self.ids_of(f.ref)) if ok and self.ids_of is not None else None
            if known is not None and text not in known:
                named = self._named(f) or {}
                listed = ", ".join(with_name(key, named) for key in known[:20])
                guess = named_suggestion(text, named, known)
                hint = guess or (f"the {f.ref} are: {listed}" if known else "")
                self.error(path, f"'{f.name}': there is no '{text}' among the {f.ref}", hint, order=order)
                return False, None
            return ok, text
        raise AssertionError(f"unknown field kind {f.kind}")

    def _scalar_text(
        self, f: Field, value: Any, path: Path, order: int | None, choices: Sequence[str]
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
            named = self._named(f)
            hint = named_hint(value, named, choices) if named else choice_hint(value, choices)
            self.error(path, f"'{value}' is not a valid {f.name}", hint, order=order)
            return False, None
        return True, value

    def _range(self, f: Field, value: int, path: Path, order: int | None) -> tuple[bool, Any]:
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


def ids_in(state: Mapping[str, Any]) -> IdsOf:
    """The ids a state holds in each of its collections, for ``ref`` fields' hints and completion."""

    def ids(collection: str) -> list[str]:
        held = state.get(collection)
        return sorted(str(key) for key in held) if isinstance(held, Mapping) else []

    return ids


def nested_definition(f: Field) -> str:
    """The schema definition a nested ``order`` field points at: one per set of inherited fields."""
    return "-".join(("nested-order", *f.inherits))


def field_schema(f: Field, ids_of: IdsOf | None = None, names_of: NamesOf | None = None) -> dict[str, Any]:
    s: dict[str, Any]
    if f.kind == "text":
        s = {"type": ["string", "integer"], "maxLength": f.max_length}
    elif f.kind == "choice":
        s = {"type": "string", "enum": list(f.choices)}
        if f.names and names_of is not None:
            s.update(_named_choices(f.choices, names_of(f.names)))
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
    elif f.kind == "record":
        s = record_schema(f.fields, ids_of, names_of=names_of)
    elif f.kind == "order":
        # Definitions are shared: every order of a file may carry the same kind of backup.
        return {"$ref": f"#/definitions/{nested_definition(f)}"}
    elif f.kind == "ref":
        s = {"type": ["string", "integer"], "maxLength": f.max_length}
        known = list(ids_of(f.ref)) if ids_of is not None else []
        if known:
            s["examples"] = known[:200]  # offered by the editor; the ids of the turn the schema was written
    else:  # counts
        s = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
        if f.choices:
            s["propertyNames"] = {"enum": list(f.choices)}
    s["description"] = f.help
    if f.default is not None:
        s["default"] = f.default
    return s


def _named_choices(choices: Sequence[str], named: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """A choice that takes names too: the ids, then their names, each described by the other, so that an
    editor offers both and flags neither."""
    names = [(name, key) for key in choices for name in named.get(key, ()) if name != key]
    return {
        "enum": [*choices, *(name for name, _ in names)],
        "enumDescriptions": [
            *(with_name(key, named) for key in choices),
            *(f"{name}, the same as {key}" for name, key in names),
        ],
    }


def record_schema(
    fields: Sequence[Field],
    ids_of: IdsOf | None = None,
    optional: Sequence[str] = (),
    names_of: NamesOf | None = None,
) -> dict[str, Any]:
    """A mapping with typed fields: an order's fields, a record field or a standing section."""
    return {
        "type": "object",
        "properties": {f.name: field_schema(f, ids_of, names_of) for f in fields},
        "required": [f.name for f in fields if f.required and f.name not in optional],
        "additionalProperties": False,
    }


def action_schema(
    spec: ActionSpec,
    ids_of: IdsOf | None = None,
    inherited: Sequence[str] = (),
    nested: bool = False,
    names_of: NamesOf | None = None,
) -> dict[str, Any]:
    """One action's schema; ``nested`` for a backup action, which holds no order of its own and takes
    the ``inherited`` fields from the order holding it. A nested action requires only its ``action``:
    editors pick among alternatives by what fails least, and must offer every action before one is
    chosen (the checker still reports a missing field, with its place)."""
    fields = [f for f in spec.fields if not (nested and f.kind == "order")]
    optional = [f.name for f in fields] if nested else inherited
    record = record_schema(fields, ids_of, optional=optional, names_of=names_of)
    action = {"const": spec.name, "description": f"{spec.summary} Cost: {spec.cost}."}
    return {
        "title": spec.name,
        "description": spec.summary,
        "type": "object",
        "properties": {"action": action, **record["properties"]},
        "required": ["action", *record["required"]],
        "additionalProperties": False,
    }


def implied_action_schemas(
    spec: ActionSpec, ids_of: IdsOf | None = None, names_of: NamesOf | None = None
) -> list[dict[str, Any]]:
    """The forms of an action written without 'action:' (``ActionSpec.text_field`` and ``key_field``): a
    plain text, and a mapping that holds the key field and no 'action'."""
    forms: list[dict[str, Any]] = []
    if spec.text_field:
        text = spec.field(spec.text_field)
        forms.append(
            {
                "title": f"{spec.name} (as text)",
                "description": text.help if text else spec.summary,
                "type": "string",
                "maxLength": text.max_length if text else 2000,
            }
        )
    if spec.key_field:
        record = record_schema(spec.fields, ids_of, names_of=names_of)
        forms.append(
            {
                "title": f"{spec.name} (without 'action')",
                "description": spec.summary,
                "type": "object",
                "properties": record["properties"],
                "required": sorted({spec.key_field, *record["required"]}),
                "additionalProperties": False,
            }
        )
    return forms


def nested_definitions(
    specs: Mapping[str, ActionSpec], ids_of: IdsOf | None = None, names_of: NamesOf | None = None
) -> dict[str, Any]:
    """The schema definitions the nested ``order`` fields of ``specs`` point at."""
    nested = {f.inherits: f for spec in specs.values() for f in spec.fields if f.kind == "order"}
    return {
        nested_definition(f): {
            "oneOf": [
                action_schema(spec, ids_of, f.inherits, nested=True, names_of=names_of)
                for spec in specs.values()
            ]
        }
        for f in nested.values()
    }


def kind_words(f: Field) -> str:
    """What a field holds, in words for the rules pages."""
    if f.kind == "record":
        inner = [f"{i.name} ({kind_words(i)}{'' if i.required else ', optional'})" for i in f.fields]
        return "record of " + ", ".join(inner)
    if f.kind == "order":
        taken = f"; it takes {', '.join(f.inherits)} from its order" if f.inherits else ""
        return f"order: another action with its fields, taken instead{taken}"
    if f.kind == "ref":
        return f"id of one of the {f.ref}"
    if f.choices:
        return f"{f.kind}: {', '.join(f.choices)}"
    bounds = ""
    if f.minimum is not None:
        bounds = f" (from {f.minimum}" + (f" to {f.maximum})" if f.maximum is not None else ")")
    return f"{f.kind}{bounds}"
