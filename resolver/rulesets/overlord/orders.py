"""Overlord's order file: the manual's order language, one line per order, inside the shared envelope.

Two actions: ``faction`` holds the manual's faction orders (before its first UNIT line), and ``unit``
is the manual's UNIT block, whose lines replace that unit's whole queue. Each line is read once
(``read_order``), by the checker and by the month alike: parsed with the engine's program service
(``core.programs.parse_line``), its keyword known, its unit the faction's own or one of its own temporary
ids. A bad line is reported at its file:line:col, the column inside the line where the problem is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.fields import ActionSpec, Field, NamesOf, suggest
from ...core.issues import Issue
from ...core.orders import Order, OrderFile
from ...core.phases import State
from ...core.programs import MAX_LINES, Line, Program, ProgramError, parse_line
from ...engine.ruleset import Game
from . import departures, executors, knowledge, language
from . import model as m
from .month import Context

FACTION, UNIT = "faction", "unit"
# The manual's faction orders; EMAIL and PASSWORD are read and change nothing (campaign/players.yaml
# says who plays a faction), RESHOW and RESIGN are the report's (knowledge.py, resign below).
FACTION_KEYWORDS = ("NAME", "SETTING", "RESHOW", "RESIGN", "EMAIL", "PASSWORD")
CREATURES = "creatures"  # the NPC faction every creature unit of a resigning faction joins (spec 2.10)
SETTINGS = ("ADVERTISE", "ANNOUNCE", "CONSUME", "SILENT", "SHARE", "SUPPORT", "TERSE")


def action_specs(rules: Mapping[str, Any]) -> dict[str, ActionSpec]:
    specs = [
        ActionSpec(
            FACTION,
            'The faction\'s own orders, as in the manual before the first UNIT line: NAME "new name", '
            "SETTING name ON or OFF. They take effect before the month's first day.",
            (Field("orders", "list", "The faction's order lines, one order a line.", required=True),),
            example={"action": FACTION, "orders": ['NAME "The Empire"', "SETTING SUPPORT ON"]},
        ),
        ActionSpec(
            UNIT,
            "A unit's queue of orders, as the manual's UNIT block: the lines replace the whole queue it "
            "has (an empty list clears it); units you do not name keep theirs. Prefixes as in the manual: "
            "-  +  @ or a number of days, Dn.",
            (
                Field(
                    "unit",
                    "text",
                    "The unit: its id (U600), or a temporary id of yours for a unit created this month "
                    "(rednU01).",
                    required=True,
                    names="units",
                ),
                Field(
                    "orders",
                    "list",
                    "The unit's order lines in the manual's language, first first. Where an id goes, a "
                    "name in double quotes will do: a faction's, a place's, a structure's or one of "
                    'your units\' (STANCE "The Outlaws" HOSTILE); the check shows the line with the id.',
                ),
            ),
            # A temporary id, not a real unit's: the rules pages are public, and U-ids belong to units.
            example={"action": UNIT, "unit": "rednU01", "orders": ["@STUDY cmbt 1", "WITHDRAW 100"]},
        ),
    ]
    return {spec.name: spec for spec in specs}


@dataclass
class Reading:
    """One order read: the unit it is for (None for the faction's own), its lines, and the problems found,
    each as (index of the line or None, problem, fix, column inside the line)."""

    unit: str | None = None
    lines: list[Line] = field(default_factory=list)
    problems: list[tuple[int | None, str, str, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the check says of a line that changes nothing
    # Each line's text as written, with every name written where an id goes replaced by that id.
    texts: list[str] = field(default_factory=list)
    # Each line's typed arguments (``language.read``), beside ``lines``, when the rules were given.
    readings: list[language.Reading] = field(default_factory=list)


Names = Mapping[str, Mapping[str, Sequence[str]]]  # kind of argument -> id -> its names


def argument_names(state: State, faction: str, names_of: NamesOf | None) -> Names:
    """The names a faction's order lines may write where an id goes, by kind of argument: the factions',
    the world's places' and the structures' (public, the engine's names service), and its own units'
    (another faction's unit is named by its id: its name is not the writer's to know)."""
    if names_of is None:
        return {}
    own = {uid: (str(unit["name"]),) for uid, unit in m.owned(state, faction).items() if unit.get("name")}
    return {
        "faction": names_of("factions"),
        "location": names_of("places"),
        "structure": names_of("structures"),
        "unit": own,
    }


def vocabulary(
    state: State, faction: str, rules: Mapping[str, Any], names_of: NamesOf | None = None
) -> language.Vocabulary:
    """What a faction's order lines are read against: the rules' tags, the factions and the names it may
    write where an id goes. The same for every order of a file while the state does not change, so a
    caller reading many orders may build it once (``read_order``'s ``known``)."""
    return language.Vocabulary.from_rules(
        rules, state.get("factions") or {}, argument_names(state, faction, names_of)
    )


def read_order(
    state: State,
    faction: str,
    order: Order,
    rules: Mapping[str, Any] | None = None,
    names_of: NamesOf | None = None,
    known: language.Vocabulary | None = None,
) -> Reading:
    """With ``rules``, each line's arguments are read against the order table too (``language.read``),
    and with ``names_of`` a name written where an id goes is read as that id: the lines read hold the
    ids, so the queue the month runs and keeps does. ``known``: the ``vocabulary`` of these, when the
    caller built it already."""
    reading = Reading()
    if known is None and rules is not None:
        known = vocabulary(state, faction, rules, names_of)
    if order.action == UNIT:
        reading.unit = str(order.get("unit", "")).strip()
        _own_unit(state, faction, reading)
    texts = order.get("orders") or []
    if len(texts) > MAX_LINES:
        reading.problems.append(
            (
                MAX_LINES,
                f"a queue holds at most {MAX_LINES} orders, and this one has {len(texts)}",
                "remove the orders beyond the fiftieth",
                1,
            )
        )
    for index, text in enumerate(texts[:MAX_LINES]):
        reading.texts.append(str(text))
        try:
            line = parse_line(str(text))
        except ProgramError as error:
            reading.problems.append((index, error.problem, error.fix, error.column))
            continue
        problem = _known(line, order.action == FACTION)
        if problem:
            reading.problems.append((index, problem[0], problem[1], _keyword_column(str(text))))
            continue
        if known is not None:
            read = language.read(line, known, faction=order.action == FACTION)
            reading.problems += [(index, p.problem, p.fix, p.column) for p in read.problems]
            reading.notes += list(read.notes) if order.action == FACTION else []
            if read.problems:
                continue
            reading.texts[-1] = _with_ids(str(text), line, read.named)
            reading.readings.append(read)
            line = read.understood
        reading.lines.append(line)
    return reading


def _with_ids(text: str, line: Line, named: Mapping[int, str]) -> str:
    """The line as written, with each word read as an id (a name, quoted or not) replaced by that id;
    the rest (prefixes, spacing, a comment) as the player wrote it."""
    if not named or len(line.columns) != len(line.args) + 1:
        return text
    for index in sorted(named, reverse=True):
        start = line.columns[index + 1] - 1
        if text[start : start + 1] == '"':
            end = text.index('"', start + 1) + 1
        else:
            end = start + len(line.args[index])
        text = text[:start] + named[index] + text[end:]
    return text


def _own_unit(state: State, faction: str, reading: Reading) -> None:
    unit_id = reading.unit or ""
    record = m.unit(state, unit_id)
    if record is not None:
        if record.get("owner") != faction:
            reading.problems.append(
                (None, f"unit {unit_id} is not one of yours", "order only your own units", 1)
            )
        return
    if m.is_temporary(faction, unit_id):
        return
    other = m.temporary_owner(unit_id, state.get("factions") or {})
    if other is not None:
        problem = f"'{unit_id}' is another faction's temporary id"
        fix = f"your own new units are {faction}nU00 to {faction}nU99"
    else:
        problem = f"there is no unit {unit_id}" if unit_id else "the order names no unit"
        mine = list(m.owned(state, faction))
        fix = f"name one of your units ({', '.join(mine[:6])}) or a new one, {faction}nU01"
    reading.problems.append((None, problem, fix, 1))


def _known(line: Line, for_faction: bool) -> tuple[str, str] | None:
    """A keyword this game knows, in the right place, and a faction setting's arguments."""
    if for_faction:
        if line.keyword not in FACTION_KEYWORDS:
            return (
                f"'{line.keyword}' is not a faction order here",
                f"a faction order is one of {', '.join(FACTION_KEYWORDS)}; unit orders go under a unit",
            )
        if line.keyword == "SETTING" and (
            len(line.args) != 2
            or line.args[0].upper() not in SETTINGS
            or line.args[1].upper() not in ("ON", "OFF")
        ):
            return (
                "SETTING takes a setting's name and ON or OFF",
                f"write e.g. SETTING SUPPORT ON ({', '.join(SETTINGS)})",
            )
        if line.keyword == "NAME" and not line.args:
            return "NAME needs the new name", 'write e.g. NAME "The Empire"'
        return None
    if line.keyword not in executors.TIMING:
        return f"'{line.keyword}' is not an order", suggest(line.keyword, sorted(executors.TIMING)) or (
            "see the orders on the rules page"
        )
    return None


def _keyword_column(text: str) -> int:
    """Where the keyword starts in a line (after its prefixes), 1-based."""
    try:
        tokens = text.split("#", 1)[0]
        line = parse_line(tokens)
    except ProgramError:
        return 1
    found = text.upper().find(line.keyword)
    return found + 1 if found >= 0 else 1


def stored_program(texts: list[str]) -> Program:
    """A queue as the state keeps it; a line the state somehow holds that cannot be read is dropped."""
    lines = []
    for text in texts[:MAX_LINES]:
        try:
            lines.append(parse_line(str(text)))
        except ProgramError:
            continue
    return Program(lines)


def apply_faction_line(ctx: Context, state: State, faction: str, reading: language.Reading) -> None:
    """One faction order, by its typed arguments (the reading the checker made of it)."""
    record, line, args = state["factions"][faction], reading.line, reading.args
    if line.keyword == "NAME":
        new = str(args["name"]).strip()
        ctx.emit("faction_named", actors=[faction], old=record.get("name", faction), new=new)
        record["name"] = new
    elif line.keyword == "SETTING":
        # The state keeps a setting's name in small letters.
        record.setdefault("settings", {})[str(args["setting"]).lower()] = args["switch"] == "ON"
    elif line.keyword == "RESHOW":
        shown = knowledge.reshown(ctx.rules, record, str(args["topic"]), args["level"])
        asked = " ".join(line.args)
        ctx.emit("knowledge_reshown", actors=[faction], visible_to=[faction], asked=asked, **shown)
    elif line.keyword == "RESIGN":
        resign(ctx, state, faction, str(args["faction"]))


def resign(ctx: Context, state: State, faction: str, heir: str) -> None:
    """RESIGN: every unit goes to the named NPC faction as a gift it cannot refuse, creatures to the
    creatures; the faction leaves the game (spec 2.10)."""
    rules = ctx.rules
    creatures = CREATURES
    handed = {heir: 0, creatures: 0}
    for unit_id, unit in m.owned(state, faction).items():
        wild = str((rules["races"].get(unit.get("race")) or {}).get("kind")) == "creature"
        receiver = creatures if wild and creatures in state["factions"] else heir
        departures.record(ctx, state, unit_id, departures.HANDED, heir=receiver)
        unit["owner"] = receiver
        handed[receiver] = handed.get(receiver, 0) + 1
    state["factions"][faction]["status"] = rules["report"]["resigned_status"]
    ctx.emit(
        "resigned",
        actors=[faction],
        units=handed.get(heir, 0),
        heir=heir,
        heir_name=str(state["factions"][heir].get("name") or ctx.game.name_of(heir)),
        creatures=handed.get(creatures, 0) if creatures != heir else 0,
        creatures_name=str((state["factions"].get(creatures) or {}).get("name") or creatures),
    )


def check_orders(game: Game, state: State, of: OrderFile) -> None:
    faction = of.faction or ""
    seen: dict[str, int] = {}
    names_of = game.ruleset.names_of(game, state)
    # The check changes no state, so one vocabulary reads every order of the file.
    known = vocabulary(state, faction, game.rules, names_of)
    for place, order in enumerate(list(of.orders)):
        reading = read_order(state, faction, order, game.rules, names_of, known)
        if not reading.problems and reading.texts != list(order.get("orders") or []):
            order = _holding_ids(of, place, order, reading.texts)
        for index, problem, fix, column in reading.problems:
            _located(of, order, index, problem, fix, column)
        if order.action == UNIT and reading.unit:
            if reading.unit in seen:
                of.error(
                    order,
                    "unit",
                    f"unit {reading.unit} already has a queue in order {seen[reading.unit]}",
                    "write all its orders in one unit block",
                )
            seen[reading.unit] = order.number
        for note in reading.notes:
            of.warn(order, "orders", note, "ask the GM to change campaign/players.yaml instead")
        if not reading.problems:
            of.echo[order.number] = _echo(state, order, reading)


def _holding_ids(of: OrderFile, place: int, order: Order, texts: list[str]) -> Order:
    """The order with its lines holding ids where names were written: read once here, the resolution,
    the echo and a replay all read the ids (as the engine does for a field that takes a name)."""
    changed = dataclasses.replace(order, args={**order.args, "orders": texts})
    of.orders[place] = changed
    of.written = [changed if written is order else written for written in of.written]
    return changed


def _located(of: OrderFile, order: Order, index: int | None, problem: str, fix: str, column: int) -> None:
    """An error at the line and column of the problem inside the order line (the YAML string's start,
    past its opening quote, plus the column the program service found)."""
    if index is None:
        of.error(order, "unit", problem, fix)
        return
    line, col = of._pos(order, ("orders", index))
    raw_lines = of.raw.decode("utf-8", "replace").splitlines()
    if (
        0 < line <= len(raw_lines)
        and 0 < col <= len(raw_lines[line - 1])
        and raw_lines[line - 1][col - 1] in "'\""
    ):
        col += 1  # a quoted YAML string: the line starts after its opening quote
    of.issues.append(Issue("error", problem, fix, of.path, line, col + column - 1, order.number))


def _echo(state: State, order: Order, reading: Reading) -> str:
    """How the orders were read: each line as the game keeps it, with ids where names were written."""
    count = len(reading.lines)
    orders_words = "no orders" if not count else "1 order" if count == 1 else f"{count} orders"
    if count:
        orders_words += ": " + "; ".join(line.render() for line in reading.lines)
    if order.action == FACTION:
        return f"the faction's own orders: {orders_words}"
    name = m.unit_name(state, reading.unit or "") if m.unit(state, reading.unit or "") else "a new unit"
    return f"{name} [{reading.unit}]: its queue becomes {orders_words}"


def examples_for(game: Game, state: State, faction: str) -> list[dict[str, Any]]:
    """The template's examples: each of the faction's units with the queue it has now, to edit and send."""
    found: list[dict[str, Any]] = []
    for unit_id, record in m.owned(state, faction).items():
        found.append({"action": UNIT, "unit": unit_id, "orders": list(record.get("orders") or [])})
    return found or [dict(spec.example) for spec in action_specs(game.rules).values()]
