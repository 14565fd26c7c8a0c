"""House rules (``campaign/rules.yaml``), checked the way an order file is: every problem at file:line:col.

A house rule overrides a piece of the ruleset's rules data, so the rules data is the file's schema:

- a key must be one the data has at that place (a misspelt key would be ignored silently, and the rules
  page would list it as a change in effect); the nearest key is suggested;
- a value takes the type of the default it replaces: a whole number for a whole number, a number for a
  fraction, true or false, text, a list (each item as the default's items) or a mapping (checked key by
  key). A default of null takes anything;
- a ruleset declares the rest in its ``limits.yaml`` (``Limits``): the mappings a campaign may add entries
  to (a catalogue: a new entry is checked against the shape of the entries the data has), the range of a
  number, the choices of a text (listed, or the keys of another part of the data), how few items a list
  may have. Where a value outside them would stop the engine, or make no sense, the ruleset says so there.

After the keys and types, the parts of the data that have their own reader are read as the engine will
read them, merged with the defaults: the fog of war (``core.fog``) and the checks (``core.checks``). Their
problems are located at the house rule that caused them.

The same function serves ``campaign check``, the pull-request check and ``campaign resolve``, which refuses
to run on house rules with an error.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .checks import Check
from .fields import suggest
from .fog import Fog
from .issues import CampaignError, Issue
from .text import visible
from .yamlsafe import Located, Path, YamlRejected, load_player_yaml

RULES_FILE = "campaign/rules.yaml"
PHASE_TABLE = "turn_sequence"
# The fields a step of the phase table may have in any ruleset (``core.phases.build_sequence``): a phase's,
# an engine step's place (``engine``) and a repeated block's; the table's reader checks how they combine.
PHASE_ENTRY = {
    **{"id": "", "title": "", "summary": "", "procedure": "", "when": None, "params": None},
    **{"engine": "", "block": "", "repeat": None, "phases": None},
}
Reader = Callable[[Mapping[str, Any]], object]
MAX_RULES_BYTES = 1024 * 1024  # a GM may copy the whole of a ruleset's data (some 40 KB) and change it
ANY = None  # the template of a value that may be anything (a default of null, mixed siblings)


@dataclass(frozen=True)
class Bound:
    """What one place of the rules data allows beyond its type (a place may use * for any one key)."""

    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    choices_from: str = ""  # a place of the merged rules whose keys (or items) are the choices
    min_items: int | None = None


@dataclass(frozen=True)
class Limits:
    """A ruleset's ``limits.yaml``: the catalogues a campaign may add to, each place's bounds, and the
    example that the house-rule file of a new campaign shows."""

    open: tuple[str, ...] = ()
    bounds: Mapping[str, Bound] = field(default_factory=dict)
    example: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | None) -> Limits:
        data = data or {}
        bounds = {}
        for place, spec in (data.get("values") or {}).items():
            bounds[str(place)] = Bound(
                minimum=spec.get("min"),
                maximum=spec.get("max"),
                choices=tuple(str(c) for c in spec.get("choices") or ()),
                choices_from=str(spec.get("choices_from") or ""),
                min_items=spec.get("min_items"),
            )
        return cls(tuple(str(p) for p in data.get("open") or ()), bounds, data.get("example") or {})

    def is_open(self, path: Path) -> bool:
        return any(_matches(pattern, path) for pattern in self.open)

    def bound(self, path: Path) -> Bound | None:
        return next((b for pattern, b in self.bounds.items() if _matches(pattern, path)), None)


def _matches(pattern: str, path: Path) -> bool:
    parts = pattern.split(".")
    keys = [str(k) for k in path if not isinstance(k, int)]  # list positions are not part of a place
    return len(parts) == len(keys) and all(p in ("*", k) for p, k in zip(parts, keys, strict=True))


def dotted(path: Path) -> str:
    """A place in the rules data as the rules page and this check write it: actions.per_turn, table[2]."""
    text = ""
    for key in path:
        text += f"[{key + 1}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text


def read_house_rules(raw: bytes, path: str = RULES_FILE) -> tuple[Located | None, list[Issue]]:
    """The file with positions, or the located reason it cannot be read."""
    try:
        return load_player_yaml(raw, path, MAX_RULES_BYTES), []
    except YamlRejected as rejected:
        return None, [rejected.issue]


class HouseRulesRejected(CampaignError):
    """House rules with errors: every command that would play by them refuses, and shows each one."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        errors = [issue for issue in issues if issue.is_error]
        count = f"{len(errors)} error{'' if len(errors) == 1 else 's'}"
        super().__init__(
            f"the house rules in {RULES_FILE} have {count}; nothing was done",
            f"fix {RULES_FILE} as each line above says (campaign check lists them), then run this again",
        )
        self.issues = list(issues)

    def format(self) -> str:
        return "\n".join([*(issue.format() for issue in self.issues if issue.is_error), super().format()])


class HouseRuleChecker:
    """Walks a house-rule file beside the ruleset's defaults and reports each problem where it is."""

    def __init__(
        self,
        located: Located,
        file: str,
        defaults: Mapping[str, Any],
        limits: Limits,
        readers: Mapping[str, Reader] | None = None,
    ) -> None:
        self.located, self.file, self.defaults, self.limits = located, file, defaults, limits
        self.readers = readers or {}
        self.issues: list[Issue] = []

    def error(self, path: Path, message: str, hint: str, *, key: bool = False) -> None:
        line, col = self.located.pos(path, key=key)
        self.issues.append(Issue("error", message, hint, self.file, line, col))

    def check(self, merged: Mapping[str, Any], elsewhere: Mapping[str, str]) -> list[Issue]:
        data = self.located.data
        if data is None:
            return []
        if not isinstance(data, dict):
            self.error(
                (), "the house rules must be a mapping of rules, such as 'actions:'", "write {} for none"
            )
            return self.issues
        self._mapping(data, self.defaults, (), elsewhere)
        if not self.issues:  # the readers below assume the types are right
            self._fog(merged)
            self._checks(merged)
            self._choices_from(data, (), merged)
            self._read(data, merged)
        return self.issues

    def _read(self, data: Mapping[str, Any], merged: Mapping[str, Any]) -> None:
        """The ruleset's own readers of a part of the rules (its phase table), on what the file changes."""
        for key, reader in self.readers.items():
            if key not in data:
                continue
            try:
                reader(merged)
            except (CampaignError, ValueError) as error:
                said = error.message if isinstance(error, CampaignError) else str(error)
                self.error((key,), f"{key}: {said}", "see the ruleset's rules data for how it is written")

    # -- keys and types -------------------------------------------------------------------------------

    def _mapping(
        self, value: Mapping[str, Any], default: Mapping[Any, Any], path: Path, elsewhere: Mapping[str, str]
    ) -> None:
        known = {str(k): v for k, v in default.items()}
        for key, item in value.items():
            if key in known:
                self._value(item, known[key], (*path, key))
            elif self.limits.is_open(path):
                self._value(item, _template(list(known.values())), (*path, key))
            else:
                self._unknown(key, list(known), path, elsewhere)

    def _unknown(self, key: str, known: list[str], path: Path, elsewhere: Mapping[str, str]) -> None:
        where = f"{dotted(path)} has no rule" if path else "the rules data has no rule"
        hint = suggest(key, known)
        if not path and key in elsewhere:
            hint = f"'{key}' is a rule of the {elsewhere[key]} ruleset, which this campaign does not play"
        if not hint:
            hint = f"{dotted(path) or 'the top level'} has: {', '.join(known)}" if known else "remove it"
        self.error(
            (*path, key), f"{where} '{visible(key)}', so this line would change nothing", hint, key=True
        )

    def _value(self, value: Any, default: Any, path: Path) -> None:
        if default is ANY:
            return
        wanted = _kind(default)
        if not _fits(value, wanted):
            shown = f"{_said(value)}" if not isinstance(value, dict | list) else f"a {_kind(value)}"
            self.error(path, f"{dotted(path)} must be {_a(wanted)}, not {shown}", _type_hint(wanted, default))
            return
        if wanted == "mapping":
            self._mapping(value, default, path, {})
        elif wanted == "list":
            self._list(value, default, path)
        else:
            self._bounds(value, path)

    def _list(self, value: list[Any], default: list[Any], path: Path) -> None:
        if path == (PHASE_TABLE,):  # every step may say when it runs, and what its procedure takes
            default = [*default, PHASE_ENTRY]
        bound = self.limits.bound(path)
        if bound and bound.min_items is not None and len(value) < bound.min_items:
            self.error(
                path,
                f"{dotted(path)} needs at least {bound.min_items} item{'' if bound.min_items == 1 else 's'}",
                f"the ruleset's default is {_said(default)}",
            )
            return
        template = _template(default)
        for number, item in enumerate(value):
            self._value(item, template, (*path, number))
            if bound and not isinstance(item, dict | list):
                self._choice(item, bound, (*path, number), ())

    def _bounds(self, value: Any, path: Path) -> None:
        bound = self.limits.bound(path)
        if bound is None:
            return
        if isinstance(value, int | float) and not isinstance(value, bool):
            low, high = bound.minimum, bound.maximum
            if (low is not None and value < low) or (high is not None and value > high):
                self.error(
                    path, f"{dotted(path)} is {value}; it must be {_range(low, high)}", _range_hint(low, high)
                )
        elif isinstance(value, str):
            self._choice(value, bound, path, ())

    def _choice(self, value: Any, bound: Bound, path: Path, choices: Sequence[str]) -> None:
        choices = choices or bound.choices
        if choices and str(value) not in choices:
            hint = suggest(str(value), choices)
            listed = f"choose one of: {', '.join(choices)}"
            self.error(path, f"{dotted(path)} cannot be '{visible(str(value))}'", f"{hint} {listed}".strip())

    def _choices_from(self, value: Any, path: Path, merged: Mapping[str, Any]) -> None:
        """Choices that another part of the data names (``choices_from``): known once the rules are merged."""
        if isinstance(value, dict):
            for key, item in value.items():
                self._choices_from(item, (*path, key), merged)
            return
        if isinstance(value, list):
            for number, item in enumerate(value):
                self._choices_from(item, (*path, number), merged)
            return
        bound = self.limits.bound(path)
        if bound is not None and bound.choices_from and value is not None:  # null: where the data has null
            self._choice(value, bound, path, _names_at(merged, bound.choices_from))

    # -- the parts with their own readers -------------------------------------------------------------

    def _fog(self, merged: Mapping[str, Any]) -> None:
        try:
            Fog.from_rules(merged)
        except CampaignError as error:
            place = re.search(r"fog_of_war[\w.]*", error.message)
            self.error(_path_of(place.group(0) if place else "fog_of_war"), error.message, error.hint)

    def _checks(self, merged: Mapping[str, Any]) -> None:
        house = self.located.data.get("checks") or {}
        for check_id, data in (merged.get("checks") or {}).items():
            if str(check_id) not in house:
                continue  # the ruleset's own checks are the ruleset's business, and its tests'
            try:
                Check.parse(str(check_id), data)
            except (ValueError, TypeError) as error:
                place, _, problem = str(error).partition(": ")
                self.error(
                    _path_of(place),
                    f"{place}: {problem}" if problem else str(error),
                    "see the ruleset's rules data (the checks section) for how a check is written",
                )


def check_house_rules(
    raw: bytes,
    defaults: Mapping[str, Any],
    limits: Limits,
    *,
    file: str = RULES_FILE,
    elsewhere: Mapping[str, str] | None = None,
    readers: Mapping[str, Reader] | None = None,
) -> list[Issue]:
    """Every problem of a house-rule file. ``elsewhere``: the top-level keys of the other rulesets, each
    with its ruleset, so that a rule copied from another ruleset's campaign is named as such. ``readers``:
    what reads a top-level part of the merged rules as the engine will (raising ValueError or
    CampaignError when it cannot), run when the file changes that part."""
    located, issues = read_house_rules(raw, file)
    if located is None:
        return issues
    house = located.data if isinstance(located.data, dict) else {}
    merged = merge_rules(defaults, house)
    # ``elsewhere`` may be read lazily: asking whether it is empty would read it
    others = elsewhere if elsewhere is not None else {}
    return HouseRuleChecker(located, file, defaults, limits, readers).check(merged, others)


def merge_rules(defaults: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge house rules over defaults; mappings merge, anything else replaces."""
    merged = copy.deepcopy(dict(defaults))
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = merge_rules(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _path_of(place: str) -> Path:
    """``checks.task.table[2]`` as a path into the file: ('checks', 'task', 'table', 1)."""
    found: list[str | int] = []
    for part in place.split("."):
        name, *indexes = re.split(r"\[(\d+)\]", part)
        if name:
            found.append(name)
        found += [int(i) - 1 for i in indexes if i]
    return tuple(found)


def _names_at(rules: Mapping[str, Any], place: str) -> tuple[str, ...]:
    """The keys, or the items, at a place of the rules; through a list of records, each one's field
    (``morale_levels.name``: the name of every morale level)."""
    value: Any = rules
    for key in place.split("."):
        if isinstance(value, list):
            value = [item.get(key) for item in value if isinstance(item, Mapping)]
        else:
            value = value.get(key) if isinstance(value, Mapping) else None
    if isinstance(value, Mapping):
        return tuple(str(k) for k in value)
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return ()


def _template(values: Sequence[Any]) -> Any:
    """What a new entry beside ``values`` may hold: for mappings, every key any of them has, each taking
    what its values there share; else the first value, for its kind. Mixed kinds, or none: anything."""
    kinds = {_kind(v) for v in values if v is not None}
    if len(kinds) != 1:
        return ANY
    if kinds == {"mapping"}:
        given: dict[str, list[Any]] = {}
        for value in values:
            for key, item in value.items() if isinstance(value, Mapping) else ():
                given.setdefault(str(key), []).append(item)
        return {key: _template(items) for key, items in given.items()}
    return next(v for v in values if v is not None)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, Mapping):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return "other"


def _fits(value: Any, wanted: str) -> bool:
    have = _kind(value)
    return have == wanted or (wanted == "number" and have == "int")


_ARTICLES = {
    "bool": "true or false",
    "int": "a whole number",
    "number": "a number",
    "text": "text",
    "mapping": "a mapping",
    "list": "a list",
}


def _a(kind: str) -> str:
    return _ARTICLES.get(kind, kind)


def _said(value: Any) -> str:
    if isinstance(value, str):
        return f"'{visible(value)}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null (nothing)"
    return visible(str(value))


def _type_hint(kind: str, default: Any) -> str:
    if kind == "mapping":
        return f"write its rules below it, one a line, as the ruleset's data does (e.g. {_keys_of(default)})"
    if kind == "list":
        return f"write a list in brackets, as the ruleset's default {_said(default)}"
    if kind == "text":
        return f"write text, as the ruleset's default {_said(default)}; quote it if it looks like a number"
    return f"write {_a(kind)}, as the ruleset's default {_said(default)}"


def _keys_of(default: Mapping[Any, Any]) -> str:
    return ", ".join(str(k) for k in list(default)[:4]) + (", …" if len(default) > 4 else "")


def _range(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"from {low:g} to {high:g}"
    return f"{low:g} or more" if low is not None else f"{high:g} or less"


def _range_hint(low: float | None, high: float | None) -> str:
    return f"write a number {_range(low, high)}"
