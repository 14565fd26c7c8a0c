"""Order files: the common envelope every ruleset shares, parsed with positions.

An order file is ``orders/<faction>.yaml``::

    campaign: iron-coast
    turn: 3
    faction: red
    orders:
      - action: move
        army: "1"
        path: [NW, N]
    press:
      - headline: Red Banners Over the Ford
        body: ...
    rumors:
      - Someone saw blue scouts near the marsh.
    absence: {from: 5, to: 6}   # optional: away for turns 5 and 6 (see core.absences)

A ruleset may declare standing sections (``core.standing``), e.g. ``policies:``, which an order file
may hold beside ``orders``; they stay in force until the faction writes them again.

Parsing here is structural only (envelope, action names, field types). The
ruleset adds semantic checks against the state through ``OrderFile.error`` and
``OrderFile.warn``, so all issues share one located format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import absences
from . import text as player_text
from .absences import Absence
from .canonical import digest
from .fields import (
    ActionSpec,
    FieldChecker,
    IdsOf,
    NamesOf,
    action_schema,
    choice_hint,
    implied_action_schemas,
    nested_definitions,
    record_schema,
    suggest,
)
from .issues import Issue
from .standing import StandingSection, describe
from .words import series
from .yamlsafe import MAX_BYTES, Located, YamlRejected, load_player_yaml, refused_character_issue

ENVELOPE_KEYS = ("campaign", "turn", "faction", "orders", "press", "rumors", "absence")
# The limits of one order file, the same in every ruleset (the README lists them). The counts keep
# a file's cost to check and resolve bounded; the lengths keep the newspaper readable.
ORDERS_PER_FILE = 500
ARTICLES_PER_FILE = 10
RUMORS_PER_FILE = 10
HEADLINE_MAX = 120
ARTICLE_MAX = 4000
RUMOR_MAX = 400
GM = "gm"
FieldPath = str | tuple[str | int, ...] | None


@dataclass(frozen=True)
class Order:
    number: int  # 1-based position in the file
    action: str
    args: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.args[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.args.get(key, default)

    def to_data(self) -> dict[str, Any]:
        return dict(self.args)


@dataclass(frozen=True)
class Article:
    headline: str
    body: str


@dataclass
class OrderFile:
    path: str  # as shown to people, e.g. orders/red.yaml
    raw: bytes
    faction: str | None = None
    turn: int | None = None
    campaign: str | None = None
    orders: list[Order] = field(default_factory=list)
    press: list[Article] = field(default_factory=list)
    rumors: list[str] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    located: Located | None = None
    echo: dict[int, str] = field(default_factory=dict)  # order number -> how the engine understood it
    written: list[Order] = field(default_factory=list)  # every order with a known action, valid or not
    actions_written: dict[int, str] = field(default_factory=dict)  # order number -> action, as written
    checked: bool = False  # the orders were checked against the state (the envelope was right)
    standing: dict[str, dict[str, Any]] = field(default_factory=dict)  # standing sections the file holds
    # The absence the file declares (None with absence_declared: it takes back an earlier one).
    absence: Absence | None = None
    absence_declared: bool = False

    @property
    def digest(self) -> str:
        return digest(self.raw)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.is_error]

    @property
    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if not i.is_error]

    @property
    def ok(self) -> bool:
        return not self.errors

    def _pos(self, order: Order | None, name: FieldPath) -> tuple[int, int]:
        if self.located is None:
            return (0, 0)
        inner = (name,) if isinstance(name, str) else tuple(name or ())
        if order is None:
            return self.located.pos(inner)
        return self.located.pos(("orders", order.number - 1, *inner))

    def _add(self, severity: str, order: Order | None, name: FieldPath, message: str, hint: str) -> None:
        line, col = self._pos(order, name)
        number = order.number if order else None
        self.issues.append(Issue(severity, message, hint, self.path, line, col, number))  # type: ignore[arg-type]

    # ``name`` is a field of the order, or a path into it for nested fields, e.g. ("backup", "npc").
    def error(self, order: Order | None, name: FieldPath, message: str, hint: str = "") -> None:
        self._add("error", order, name, message, hint)

    def error_in_text(self, order: Order, name: FieldPath, index: int, message: str, hint: str) -> None:
        """An error at a character of a text field: ``index`` counts from 0 into the text as read, so
        the column points at the bad word inside it (past the opening quote of a quoted text). A text
        written over several lines, or with escapes before the word, is located at its start."""
        line, col = self._pos(order, name)
        written = self._line(line)
        start = col - 1
        if written[start : start + 1] in ('"', "'"):
            start += 1
        text = str(order.args.get(name) if isinstance(name, str) else "")
        if written[start : start + index] == text[:index]:
            col = start + index + 1
        self.issues.append(Issue("error", message, hint, self.path, line, col, order.number))

    def _line(self, line: int) -> str:
        lines = self.raw.decode("utf-8-sig", errors="replace").splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def warn(self, order: Order | None, name: FieldPath, message: str, hint: str) -> None:
        """A warning always says what to do about it: ``hint`` is required."""
        self._add("warning", order, name, message, hint)

    def understood(self, order: Order) -> str:
        """How the engine read an order: the ruleset's sentence, or else its fields in words (an order
        whose check stopped at an error was still read; only its meaning on the map is unknown)."""
        return self.echo.get(order.number) or describe_fields(order)

    def echo_lines(self) -> list[str]:
        """Every order as the engine read it, each followed by its own problems, then the file's."""
        lines: list[str] = []
        written = {order.number: order for order in self.written}
        for number, action in sorted(self.actions_written.items()):
            order = written.get(number)
            text = self.understood(order) if order else "not an order the engine knows"
            lines.append(player_text.hide_secrets(f"{number}. {action}: {text}"))
            for issue in self.issues:
                if issue.order == number:
                    lines.extend("   " + line for line in issue.format().splitlines())
        for name, values in sorted(self.standing.items()):
            standing = f"{name} (standing until you change it): {describe(values)}"
            lines.append(player_text.hide_secrets(standing))
        for issue in self.issues:
            if issue.order not in self.actions_written:
                lines.extend(issue.format().splitlines())
        return lines

    def summary(self) -> str:
        """What would happen to the file's orders, counted (accepted, rejected and why), and for a file
        that gives none, that sending it only holds."""
        name = self.path.rsplit("/", 1)[-1]
        notes = [note for note in (self.holding_note(), self.absence_note()) if note]
        return f"{name}: {self.counts()}" + "".join(f". {note}" for note in notes)

    def absence_note(self) -> str:
        """What the file's ``absence`` line does, so that a player sees it was read (it is no order, and
        "0 orders accepted" alone would not say so)."""
        if not self.absence_declared or self.errors:
            return ""
        if self.absence is None:
            return "It takes back your absence: you are expected from now on"
        return (
            f"It declares your faction away for {self.absence.describe()}; everyone sees it once this "
            "turn is resolved"
        )

    def holding_note(self) -> str:
        """For a file without errors that gives no order, what sending it does: "0 orders accepted" alone
        reads as if orders were lost, when the file is valid and its faction holds."""
        if self.errors or self.actions_written:
            return ""
        if self.faction == GM:
            return "It gives no orders: sent as it is, the GM changes nothing this turn"
        carried = [what for what, given in (("press", self.press), ("rumours", self.rumors)) if given]
        carried += [name.replace("_", " ") for name in sorted(self.standing)]
        still = f"; its {series(carried)} still count" if carried else ""
        return (
            "It gives no orders: sent as it is, your faction holds this turn "
            f"(nothing happens for it{still}). Add orders under 'orders:' to act"
        )

    def counts(self) -> str:
        """The file's orders counted: accepted, rejected and why; the problems and the warnings."""
        rejected = {i.order for i in self.errors if i.order is not None}
        in_file = sum(1 for i in self.errors if i.order is None or i.order not in self.actions_written)
        total = max(len(self.actions_written), len(rejected))
        warnings = _count(len(self.warnings), "warning")
        if self.errors and not self.checked and total:
            return (
                f"0 orders accepted, {_count(total, 'order')} not checked "
                f"({_count(len(self.errors), 'error')} in the file), {warnings}"
            )
        accepted = f"{_count(total - len(rejected), 'order')} accepted"
        if not self.errors or not total:
            return f"{accepted}, {_count(len(self.errors), 'error')}, {warnings}"
        parts = [accepted]
        if rejected:
            parts.append(f"{len(rejected)} rejected ({_count(len(self.errors) - in_file, 'error')})")
        if in_file:
            parts.append(f"{_count(in_file, 'error')} outside the orders")
        return ", ".join([*parts, warnings])


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_words(item) for item in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {_words(item)}" for key, item in value.items())
    return str(value)


def describe_fields(order: Order) -> str:
    """An order's fields in words, for an order the ruleset gave no sentence: 'army 1; path NW, N'."""
    return "; ".join(f"{key} {_words(value)}" for key, value in order.args.items() if key != "action")


@dataclass(frozen=True)
class Expectation:
    """What the envelope must say for the current turn."""

    campaign: str
    turn: int
    factions: tuple[str, ...]


def parse_order_file(
    raw: bytes,
    path: str,
    expect: Expectation,
    actions: Mapping[str, ActionSpec],
    gm_actions: Mapping[str, ActionSpec],
    standing: Mapping[str, StandingSection] | None = None,
    ids_of: IdsOf | None = None,
    names_of: NamesOf | None = None,
) -> OrderFile:
    """Read an order file's envelope, orders and standing sections; ``ids_of`` lists the state's ids
    for reference fields (without it a reference is only checked to be text), ``names_of`` the names
    that fields naming things take for ids (read as those ids from here on)."""
    of = OrderFile(path=path, raw=raw)
    try:
        located = load_player_yaml(raw, path, MAX_BYTES)
    except YamlRejected as rejected:
        of.issues.append(rejected.issue)
        return of
    of.located = located
    data = located.data
    standing = {} if isinstance(data, dict) and data.get("faction") == GM else (standing or {})
    checker = FieldChecker(located, path, ids_of=ids_of, names_of=names_of)
    if not isinstance(data, dict):
        checker.error(
            (),
            "an order file must be a mapping with campaign, turn, faction and orders",
            "start from the template: campaign template FACTION",
        )
        of.issues.extend(checker.issues)
        return of
    keys = (*ENVELOPE_KEYS, *standing)
    for key in data:
        if key not in keys:
            checker.error(
                (key,),
                f"unknown top-level key '{key}'",
                suggest(key, keys) or f"the keys are: {', '.join(keys)}",
                key=True,
            )
    _check_envelope(of, data, checker, expect, path)
    specs = gm_actions if of.faction == GM else actions
    checker.actions = specs  # what a nested order may be
    raw_orders = data.get("orders", [])
    if raw_orders is None:
        raw_orders = []
    if not isinstance(raw_orders, list):
        checker.error(
            ("orders",), "'orders' must be a list of '- action: …' items", "start each order with '- action:'"
        )
        raw_orders = []
    if not _within_cap(checker, "orders", raw_orders, ORDERS_PER_FILE, "orders"):
        raw_orders = []
    for i, item in enumerate(raw_orders):
        path_i = ("orders", i)
        item = _with_action(checker, specs, item, path_i, i + 1)
        if not isinstance(item, dict):
            checker.error(
                path_i,
                f"order {i + 1} must be a mapping that starts with 'action:'",
                "write it as '- action: NAME' followed by its fields",
                order=i + 1,
            )
            of.actions_written[i + 1] = "?"
            continue
        if item is _AMBIGUOUS:
            of.actions_written[i + 1] = "?"
            continue
        action = item.get("action")
        of.actions_written[i + 1] = str(action) if isinstance(action, str | int) else "?"
        if not isinstance(action, str):
            keys = [spec.key_field for spec in specs.values() if spec.key_field]
            checker.error(
                path_i,
                f"order {i + 1} has no 'action'",
                f"add 'action:' with one of: {', '.join(specs)}"
                + (f"; or write one of the fields {', '.join(keys)}" if keys else ""),
                order=i + 1,
            )
            continue
        if action not in specs:
            checker.error(
                (*path_i, "action"),
                f"unknown action '{action}'",
                choice_hint(action, list(specs)),
                order=i + 1,
            )
            continue
        values = checker.check_action(specs[action], item, path_i, i + 1)
        of.written.append(Order(number=i + 1, action=action, args=values))
        of.orders.append(of.written[-1])
    _check_press(of, data, checker)
    _check_absence(of, data, checker, expect)
    _check_standing(of, data, checker, standing)
    of.issues.extend(checker.issues)
    # Orders with field errors are dropped above; a file with any error is rejected as a whole
    # anyway, so the semantic pass only ever sees well-formed orders.
    if checker.issues:
        of.orders = [o for o in of.orders if not any(i.order == o.number for i in checker.issues)]
    return of


_AMBIGUOUS: dict[str, Any] = {}  # an order without 'action:' whose fields name two actions (reported)


def _with_action(
    checker: FieldChecker,
    specs: Mapping[str, ActionSpec],
    item: Any,
    path: tuple[str | int, ...],
    number: int,
) -> Any:
    """An order written without 'action:', given the action its form implies (``ActionSpec.text_field``,
    ``key_field``): plain text is the action that reads text, a mapping the action whose key field it
    holds. Anything else is returned as written, for the checks that follow to report."""
    if isinstance(item, str):
        by_text = [spec for spec in specs.values() if spec.text_field]
        return {"action": by_text[0].name, by_text[0].text_field: item} if by_text else item
    if not isinstance(item, dict) or "action" in item:
        return item
    keyed = [spec for spec in specs.values() if spec.key_field and spec.key_field in item]
    if len(keyed) == 1:
        return {"action": keyed[0].name, **item}
    if len(keyed) > 1:
        keys = [spec.key_field for spec in keyed]
        checker.error(
            path,
            f"order {number} holds {series([repr(key) for key in keys])}: one order does one thing",
            f"keep one of {series([repr(key) for key in keys], 'or')}; give the other its own order",
            order=number,
        )
        return _AMBIGUOUS
    return item


def _check_envelope(of: OrderFile, data: dict, checker: FieldChecker, expect: Expectation, path: str) -> None:
    campaign = data.get("campaign")
    if campaign is None:
        checker.error((), "missing 'campaign'", f"add 'campaign: {expect.campaign}'")
    elif str(campaign) != expect.campaign:
        checker.error(
            ("campaign",),
            f"this file is for campaign '{campaign}', but this repository runs '{expect.campaign}'",
            f"write 'campaign: {expect.campaign}'",
        )
    else:
        of.campaign = str(campaign)
    turn = data.get("turn")
    if turn is None:
        checker.error((), "missing 'turn'", f"add 'turn: {expect.turn}'")
    elif isinstance(turn, bool) or not isinstance(turn, int):
        checker.error(("turn",), f"'turn' must be a number, not {turn!r}", f"write 'turn: {expect.turn}'")
    elif turn != expect.turn:
        when = "an earlier" if turn < expect.turn else "a later"
        checker.error(
            ("turn",),
            f"these orders are for turn {turn}, {when} turn; the current turn is {expect.turn}",
            f"write 'turn: {expect.turn}' and re-check the orders against the latest state",
        )
    else:
        of.turn = turn
    faction = data.get("faction")
    stem = path.rsplit("/", 1)[-1].removesuffix(".yaml").removesuffix(".yml")
    known = (*expect.factions, GM)
    if faction is None:
        checker.error((), "missing 'faction'", f"add 'faction: {stem}'")
    elif str(faction) not in known:
        checker.error(("faction",), f"unknown faction '{faction}'", choice_hint(str(faction), known))
    elif str(faction) != stem:
        checker.error(
            ("faction",),
            f"the file {path} carries orders for '{faction}'",
            f"each faction writes only orders/{faction}.yaml; rename the file or fix 'faction'",
        )
    else:
        of.faction = str(faction)


def _check_press(of: OrderFile, data: dict, checker: FieldChecker) -> None:
    press = data.get("press") or []
    if not isinstance(press, list):
        checker.error(("press",), "'press' must be a list of articles with a headline and a body")
        press = []
    if not _within_cap(checker, "press", press, ARTICLES_PER_FILE, "press articles"):
        press = []
    for i, item in enumerate(press):
        where = ("press", i)
        if not isinstance(item, dict) or set(item) - {"headline", "body"} or "headline" not in item:
            checker.error(
                where,
                "each press article needs 'headline' and optionally 'body', nothing else",
                "write '- headline: …' then 'body: …'",
            )
            continue
        headline, body = item.get("headline"), item.get("body", "")
        if not isinstance(headline, str) or not isinstance(body, str):
            checker.error(where, "a press headline and body must be text", "put them in quotes")
            continue
        if len(headline) > HEADLINE_MAX or len(body) > ARTICLE_MAX:
            checker.error(
                where,
                f"headlines are limited to {HEADLINE_MAX} characters and articles to {ARTICLE_MAX}",
                "shorten the article",
            )
            continue
        index = player_text.first_refused(headline)
        if index is not None:  # a headline is one line; the body may have many
            line, col = checker.located.pos((*where, "headline"))
            checker.issues.append(refused_character_issue(checker.file, line, col, headline, index))
            continue
        of.press.append(Article(headline.strip(), body.strip()))
    rumors = data.get("rumors") or []
    if not isinstance(rumors, list):
        checker.error(("rumors",), "'rumors' must be a list of short texts")
        rumors = []
    if not _within_cap(checker, "rumors", rumors, RUMORS_PER_FILE, "rumours"):
        rumors = []
    for i, rumor in enumerate(rumors):
        if not isinstance(rumor, str) or len(rumor) > RUMOR_MAX:
            checker.error(
                ("rumors", i),
                f"each rumour must be text of at most {RUMOR_MAX} characters",
                "quote it and keep it short",
            )
            continue
        of.rumors.append(rumor.strip())


def _check_absence(of: OrderFile, data: dict, checker: FieldChecker, expect: Expectation) -> None:
    """The absence a faction declares for turns to come; the GM declares one with campaign absence."""
    if "absence" not in data:
        return
    if data.get("faction") == GM:
        checker.error(
            ("absence",),
            "the GM's file declares no absence",
            "declare a faction's absence with: campaign absence FACTION --from TURN --to TURN",
            key=True,
        )
        return
    declared = {} if data["absence"] is None else data["absence"]
    found = absences.problem(declared, expect.turn)
    if found is not None:
        key, message, hint = found
        checker.error(
            ("absence", key) if key else ("absence",), message, hint, key=key not in ("", "from", "to")
        )
        return
    of.absence = absences.read(declared)
    of.absence_declared = True


def _check_standing(
    of: OrderFile, data: dict, checker: FieldChecker, sections: Mapping[str, StandingSection]
) -> None:
    for name, section in sections.items():
        if name not in data:
            continue  # not written: what is in force stays in force
        raw = data[name]
        if raw is None:
            raw = {}  # an empty section restores the defaults
        if not isinstance(raw, dict):
            checker.error((name,), f"'{name}' must be a mapping of its fields", f"e.g. {name}: {{}}")
            continue
        before = len(checker.issues)
        values = checker.check_record(f"'{name}'", section.fields, raw, (name,), None)
        if len(checker.issues) == before:
            of.standing[name] = values


def _within_cap(checker: FieldChecker, key: str, items: list[Any], cap: int, what: str) -> bool:
    if len(items) <= cap:
        return True
    checker.error(
        (key,),
        f"the file has {len(items)} {what}; an order file holds at most {cap}",
        f"keep the {cap} that matter most",
    )
    return False


def order_file_schema(
    title: str,
    campaign: str,
    factions: tuple[str, ...],
    actions: Mapping[str, ActionSpec],
    gm_actions: Mapping[str, ActionSpec],
    standing: Mapping[str, StandingSection] | None = None,
    ids_of: IdsOf | None = None,
    names_of: NamesOf | None = None,
) -> dict[str, Any]:
    """The JSON Schema (draft-07) of order files, for editors and for check-jsonschema. With ``ids_of``
    the reference fields offer the ids of the state the schema is written for."""

    def orders_of(specs: Mapping[str, ActionSpec]) -> dict[str, Any]:
        one_of = [action_schema(s, ids_of, names_of=names_of) for s in specs.values()]
        one_of += [form for s in specs.values() for form in implied_action_schemas(s, ids_of, names_of)]
        return {"type": "array", "items": {"oneOf": one_of}}

    sections = {
        name: {
            **record_schema(section.fields, ids_of, names_of=names_of),
            "description": f"{section.summary} (standing)",
        }
        for name, section in (standing or {}).items()
    }
    definitions = {
        **nested_definitions(gm_actions, ids_of, names_of),
        **nested_definitions(actions, ids_of, names_of),
    }
    schema: dict[str, Any] = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": f"{title} order file",
        "description": "Orders for one faction for one turn. Check them with: campaign check",
        "type": "object",
        "required": ["campaign", "turn", "faction", "orders"],
        "additionalProperties": False,
        "properties": {
            "campaign": {"const": campaign, "description": "The campaign these orders are for."},
            "turn": {"type": "integer", "minimum": 1, "description": "The turn these orders are for."},
            "faction": {
                "enum": [*factions, GM],
                "description": "Your faction id; it must match the file name.",
            },
            "orders": {
                "type": "array",
                "maxItems": ORDERS_PER_FILE,
                "description": "Your orders, carried out in this order.",
            },
            "press": {
                "type": "array",
                "description": "Signed articles for the campaign newspaper.",
                "maxItems": ARTICLES_PER_FILE,
                "items": {
                    "type": "object",
                    "required": ["headline"],
                    "additionalProperties": False,
                    "properties": {
                        "headline": {"type": "string", "maxLength": HEADLINE_MAX},
                        "body": {"type": "string", "maxLength": ARTICLE_MAX},
                    },
                },
            },
            "rumors": {
                "type": "array",
                "description": "Anonymous rumours for the newspaper.",
                "maxItems": RUMORS_PER_FILE,
                "items": {"type": "string", "maxLength": RUMOR_MAX},
            },
            "absence": {
                "type": ["object", "null"],
                "description": "Turns you will be away, e.g. {from: 5, to: 6}; {} takes an absence back.",
                "additionalProperties": False,
                "properties": {
                    "from": {"type": "integer", "minimum": 1},
                    "to": {"type": "integer", "minimum": 1},
                },
                "dependencies": {"from": ["to"], "to": ["from"]},
            },
        },
        "if": {"properties": {"faction": {"const": GM}}},
        "then": {"properties": {"orders": orders_of(gm_actions)}},
        "else": {"properties": {"orders": orders_of(actions)}},
    }
    schema["properties"].update(sections)
    if definitions:
        schema["definitions"] = definitions
    return schema
