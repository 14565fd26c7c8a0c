"""How a turn's rolls are written in its events: in full (a mapping a roll) or compact (a line a roll).

The full form is what every archive has held so far, and every shipped ruleset still writes it. A ruleset
whose turns roll thousands of dice (a month of days, each with battles) declares ``dice_log: compact`` in
its rules data, or a campaign sets it as a house rule; the turn's events file then says
``dice_log: compact`` at its top, and each roll is one line of text where it stood:

    siege/p-bestwood/green-a1-u1 2d6s<=3+1 [4,2] =3 @green siege:steady summer+1

that is, separated by single spaces:

- the label, without the turn's own ``t<N>/`` that begins every label of the turn, nor the segments that
  every roll of the same event begins with (a battle's ``battle/J4/gold/order/1/gold+green/…/``): the
  event says those once, as ``roll_labels``;
- the dice expression, as rolled;
- the faces in brackets (``[]`` for a pool of no dice) and the total after ``=``;
- then, each only when the roll has it: ``@`` and the factions whose orders keyed the roll (by commas),
  ``!forced`` for faces set by hand, ``check:result`` for a roll of a rules-data check, and one
  ``source+N`` or ``source-N`` for each line of its modifier ledger, in the ledger's order (a ledger
  kept in words, ``Leader Presence (Grug)``, writes each space of a source as ``~``);
- last, `` | `` and what the roll decided, in the words it was logged with. It is left out where it says
  nothing the line does not: no words at all, or a check's own "check: result". A roll that decided
  nothing under a check ends in a bare `` |``.

Whether a target was met follows from the expression and the total, so it is not written. Why one line:
a roll added or changed is one line of a diff, under the event it decided, and reading it back is a split
on spaces. Interning the expressions in a table, or moving the rolls into one numbered table, would save
a few bytes a roll more but make each line meaningless without another part of the file, and a roll added
early in the turn would renumber every later one in the diff.

A roll that cannot be spelt on a line and read back as the same roll (an expression written with spaces,
a label from outside the turn) keeps its mapping: each roll is written as a line only when the line reads
back equal, so the compact form holds exactly what the full form would. A reader tells the two forms
apart by the file's ``dice_log`` key alone, and, in a compact file, a line from a mapping by its type.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .dice import Expression

FULL = "full"
COMPACT = "compact"
FORMS = (FULL, COMPACT)
FORM_KEY = "dice_log"  # the rules data's setting, and the key that marks a compact events file
EVENT_PREFIX_KEY = "roll_labels"  # in a compact file, what every roll label of the event begins with

_DECIDED = " |"  # what the roll decided follows this, after one more space
_TOTAL = re.compile(r"=(-?\d+)")
_FACES = re.compile(r"\[((?:\d+(?:,\d+)*)?)\]")
_SCOPE = re.compile(r"@([^\s@,|]+(?:,[^\s@,|]+)*)")
_CHECK = re.compile(r"([^\s:|]+):([^\s|]*)")
_MODIFIER = re.compile(r"([^\s:|@!]+?)([+-]\d+)")
_FORCED = "!forced"
# A space in a modifier's source, which would split the line: a source holding a "~" of its own does not
# read back as itself, so its roll keeps its mapping.
_SPACE = "~"


class RollLogError(ValueError):
    """A compact roll line or events file that does not read as one: it was edited by hand."""


def form_of(rules: Mapping[str, Any]) -> str:
    """The roll form a game's rules data asks for: ``full`` unless it says ``dice_log: compact``."""
    form = str(rules.get(FORM_KEY) or FULL)
    if form not in FORMS:
        raise ValueError(f"rules data: dice_log is {form!r}; it takes one of {', '.join(FORMS)}")
    return form


def logged(document: dict[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
    """A turn's events document (``turn``, ``events``, maybe ``unattached_rolls``, each roll a mapping)
    as the game's rules data says to write it: unchanged in the full form, every roll a line in the
    compact one."""
    if form_of(rules) == FULL:
        return document
    prefix = turn_prefix(int(document["turn"]))
    compact: dict[str, Any] = {**document, FORM_KEY: COMPACT}
    compact["events"] = [_event_with_lines(event, prefix) for event in document["events"]]
    if "unattached_rolls" in document:
        compact["unattached_rolls"] = [_written(roll, prefix) for roll in document["unattached_rolls"]]
    return compact


def in_full(document: dict[str, Any], where: str) -> dict[str, Any]:
    """An events document as read from the archive, in the full form whichever form it was written in:
    what the chronicle and the checks of the rolls read. ``where`` names the file in an error."""
    form = document.get(FORM_KEY, FULL)
    if form == FULL and FORM_KEY not in document:
        return document
    if form != COMPACT:
        raise RollLogError(f"{where}: dice_log is {form!r}; an events file says compact or nothing")
    prefix = turn_prefix(_turn_of(document, where))
    full = {key: value for key, value in document.items() if key != FORM_KEY}
    full["events"] = [_event_in_full(event, prefix, where) for event in document.get("events") or []]
    if "unattached_rolls" in document:
        full["unattached_rolls"] = [_read(roll, prefix, where) for roll in document["unattached_rolls"] or []]
    return full


def turn_prefix(turn: int) -> str:
    """What begins the label of every roll of turn ``turn`` (``TurnContext.roll``)."""
    return f"t{turn}/"


def roll_line(roll: Mapping[str, Any], prefix: str) -> str:
    """One roll (as ``Roll.to_data`` gives it) as a compact line, whether or not it reads back equal."""
    fields = [
        roll["label"][len(prefix) :] if str(roll["label"]).startswith(prefix) else str(roll["label"]),
        str(roll["expr"]),
        "[" + ",".join(str(face) for face in roll["dice"]) + "]",
        f"={roll['total']}",
    ]
    if roll.get("scope"):
        fields.append("@" + ",".join(roll["scope"]))
    if roll.get("forced"):
        fields.append(_FORCED)
    if "check" in roll:
        fields.append(f"{roll['check']}:{roll.get('result', '')}")
    fields += [
        f"{str(entry['source']).replace(' ', _SPACE)}{int(entry['value']):+d}"
        for entry in roll.get("modifiers") or []
    ]
    line = " ".join(fields)
    decided = str(roll.get("decided") or "")
    if decided != _said_by_line(roll):
        line += _DECIDED + (f" {decided}" if decided else "")
    return line


def roll_from_line(line: str, prefix: str) -> dict[str, Any]:
    """The roll a compact line stands for, as ``Roll.to_data`` gives it. Raises ``RollLogError``."""
    head, separator, tail = line.partition(_DECIDED)
    tokens = head.split(" ")
    if len(tokens) < 4 or not tokens[0] or not tokens[1]:
        raise RollLogError(f"the roll line {line!r} lacks its label, expression, faces or total")
    label, expr, faces, total = tokens[:4]
    faces_found, total_found = _FACES.fullmatch(faces), _TOTAL.fullmatch(total)
    if faces_found is None or total_found is None:
        raise RollLogError(f"the roll line {line!r} has no faces in brackets and =total after its expression")
    roll: dict[str, Any] = {
        "label": prefix + label,
        "expr": expr,
        "dice": [int(face) for face in faces_found[1].split(",") if face],
        "total": int(total_found[1]),
        "scope": [],
    }
    _read_extras(roll, tokens[4:], line)
    if separator and tail and not tail.startswith(" "):
        raise RollLogError(f"the roll line {line!r} has no space after its ' |'")
    roll["decided"] = tail[1:] if separator else _said_by_line(roll)
    verdict = _expression(expr, line).verdict(roll["total"])
    if verdict is not None:
        roll["success"] = verdict
    return roll


def _read_extras(roll: dict[str, Any], tokens: list[str], line: str) -> None:
    """The optional fields after the total, in the order ``roll_line`` writes them."""
    rest = list(tokens)
    if rest and (scope := _SCOPE.fullmatch(rest[0])):
        roll["scope"] = scope[1].split(",")
        rest.pop(0)
    if rest and rest[0] == _FORCED:
        roll["forced"] = True
        rest.pop(0)
    if rest and (check := _CHECK.fullmatch(rest[0])):
        roll["check"], roll["result"] = check[1], check[2]
        rest.pop(0)
    modifiers = []
    for token in rest:
        modifier = _MODIFIER.fullmatch(token)
        if modifier is None:
            raise RollLogError(f"the roll line {line!r} has {token!r}, which is no field of a roll")
        modifiers.append({"source": modifier[1].replace(_SPACE, " "), "value": int(modifier[2])})
    if modifiers:
        roll["modifiers"] = modifiers


def _said_by_line(roll: Mapping[str, Any]) -> str:
    """What a roll decided when its line says nothing of it: a check's own words, else nothing."""
    if "check" not in roll:
        return ""
    return f"{roll['check']}: {str(roll.get('result', '')).replace('_', ' ')}"


_PARSED: dict[str, Expression] = {}  # a turn's rolls share a handful of expressions


def _expression(expr: str, line: str) -> Expression:
    parsed = _PARSED.get(expr)
    if parsed is None:
        try:
            parsed = Expression.parse(expr)
        except ValueError as error:
            raise RollLogError(f"the roll line {line!r}: {error}") from None
        _PARSED[expr] = parsed
    return parsed


def _written(roll: dict[str, Any], prefix: str) -> str | dict[str, Any]:
    """The roll's line when the line reads back as the very same roll; else the roll's mapping."""
    line = roll_line(roll, prefix)
    try:
        same = roll_from_line(line, prefix) == roll
    except RollLogError:
        same = False
    return line if same else roll


def _read(entry: Any, prefix: str, where: str) -> dict[str, Any]:
    if isinstance(entry, dict):
        return entry
    if not isinstance(entry, str):
        raise RollLogError(f"{where}: a roll is a line of text or a mapping, not {entry!r}")
    try:
        return roll_from_line(entry, prefix)
    except RollLogError as error:
        raise RollLogError(f"{where}: {error}") from None


def _event_with_lines(event: dict[str, Any], prefix: str) -> dict[str, Any]:
    if not event.get("rolls"):
        return event
    shared = _shared_label_start(event["rolls"], prefix)
    written = {**event, "rolls": [_written(roll, prefix + shared) for roll in event["rolls"]]}
    if shared:
        written[EVENT_PREFIX_KEY] = shared
    return written


def _event_in_full(event: Any, prefix: str, where: str) -> Any:
    if not isinstance(event, dict) or not event.get("rolls"):
        return event
    shared = event.get(EVENT_PREFIX_KEY, "")
    if not isinstance(shared, str):
        raise RollLogError(f"{where}: an event's {EVENT_PREFIX_KEY} begins its roll labels, not {shared!r}")
    full = {key: value for key, value in event.items() if key != EVENT_PREFIX_KEY}
    full["rolls"] = [_read(roll, prefix + shared, where) for roll in event["rolls"]]
    return full


def _shared_label_start(rolls: list[dict[str, Any]], prefix: str) -> str:
    """The whole segments (each with its closing ``/``) that every roll label of an event has after the
    turn's prefix, short of the last segment of the shortest: what a battle's hundred rolls repeat."""
    labels = [str(roll.get("label", "")) for roll in rolls]
    if len(labels) < 2 or not all(label.startswith(prefix) for label in labels):
        return ""
    split = [label[len(prefix) :].split("/") for label in labels]
    shared: list[str] = []
    for column in zip(*(segments[:-1] for segments in split), strict=False):
        if any(segment != column[0] for segment in column):
            break
        shared.append(column[0])
    return "".join(f"{segment}/" for segment in shared)


def _turn_of(document: Mapping[str, Any], where: str) -> int:
    turn = document.get("turn")
    if not isinstance(turn, int) or isinstance(turn, bool):
        raise RollLogError(f"{where}: a compact events file names its turn, which its roll labels begin with")
    return turn


def changed_rolls(archived: Any, replayed: dict[str, Any], where: str) -> list[str]:
    """The labels of the rolls an archived events document (either form, as loaded) holds otherwise than
    the replay of its turn drew them (``replayed``, in full), in the replay's order; a roll the archive
    lacks counts as changed. Nothing when the archive cannot be read as an events document: its bytes
    already differ, and there is no roll to name."""
    if not isinstance(archived, dict):
        return []
    try:
        kept = {str(roll.get("label")): roll for roll in _all_rolls(in_full(archived, where))}
    except (RollLogError, AttributeError, TypeError):
        return []
    return [str(roll["label"]) for roll in _all_rolls(replayed) if kept.get(str(roll["label"])) != roll]


def _all_rolls(document: Mapping[str, Any]) -> list[Any]:
    events = document.get("events") or []
    return [roll for event in events for roll in event.get("rolls") or []] + list(
        document.get("unattached_rolls") or []
    )
