"""Overlord's order language: the table of every order of the manual (spec 2.10 and 2.11), and the reading
of one parsed line's arguments against it.

Each row says when the order runs (``Timing``, which the day's scheduler needs), what kind of order it is
(condition, one-shot, special or plain: spec 2.4), who may give it, and its arguments in the manual's order.
``read(line, known)`` checks a line the program service parsed (``core.programs.parse_line``) and returns
its typed arguments (``{"unit": "U5", "item": "swrd", "count": 20, "kept": None}``), or its problems in
words, each with the fix and the column where it starts. ``Known`` is what the caller knows of the game
(tags, races, factions, directions and the rules data), so this module reads no state: the checker and the
month read a line the same way.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...core.fields import id_named, named_suggestion, suggest
from ...core.programs import Line, Timing
from ...core.world import DIRECTION_WORDS, OUT

CONDITION, ONE_SHOT, SPECIAL, PLAIN = "condition", "one-shot", "special", "plain"
# Who may give an order (spec 2.4), with the words a message uses.
WHO = {
    "any": "any unit",
    "leader": "leaders and heroes",
    "follower_creature": "followers and creatures",
    "leader_creature": "leaders, heroes and creatures",
    "not_creature": "leaders, heroes and followers",
    "title_holder": "a leader holding a title",
    "structure_owner": "the owner of a structure",
}
# The unit kinds (races' ``kind`` in the rules data) each "who" admits; a title or a structure is the
# month's to check.
_WHO_KINDS = {
    "any": {"hero", "leader", "follower", "creature"},
    "leader": {"hero", "leader"},
    "follower_creature": {"follower", "creature"},
    "leader_creature": {"hero", "leader", "creature"},
    "not_creature": {"hero", "leader", "follower"},
    "title_holder": {"hero", "leader"},
    "structure_owner": {"hero", "leader", "follower", "creature"},
}


class Known(Protocol):
    """What a reading needs to know of the game; the caller fills it (``Vocabulary`` is one)."""

    @property
    def rules(self) -> Mapping[str, Any]: ...
    @property
    def items(self) -> Collection[str]: ...
    @property
    def skills(self) -> Collection[str]: ...
    @property
    def titles(self) -> Collection[str]: ...
    @property
    def races(self) -> Collection[str]: ...
    @property
    def structure_types(self) -> Collection[str]: ...
    @property
    def factions(self) -> Collection[str]: ...
    @property
    def directions(self) -> Mapping[str, str]: ...  # every accepted spelling, upper case -> as written
    @property
    def names(self) -> Mapping[str, Mapping[str, Sequence[str]]]: ...  # kind of argument -> id -> names


@dataclass(frozen=True)
class Vocabulary:
    """A ``Known`` built from the rules data and the factions of a state."""

    rules: Mapping[str, Any]
    items: Collection[str] = ()
    skills: Collection[str] = ()
    titles: Collection[str] = ()
    races: Collection[str] = ()
    structure_types: Collection[str] = ()
    factions: Collection[str] = ()
    directions: Mapping[str, str] = field(default_factory=dict)
    # The names a player may write, quoted, where an id goes: by kind of argument (unit, location,
    # structure, faction), each id with its names. Empty: only ids are read.
    names: Mapping[str, Mapping[str, Sequence[str]]] = field(default_factory=dict)

    @classmethod
    def from_rules(
        cls,
        rules: Mapping[str, Any],
        factions: Collection[str],
        names: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
    ) -> Vocabulary:
        def tags(section: str) -> tuple[str, ...]:
            return tuple(sorted(rules.get(section) or {}))

        return cls(
            rules=rules,
            items=tags("items"),
            skills=tags("skills"),
            titles=tags("titles"),
            races=tags("races"),
            # The structures chapter keeps its types under structures.types (fort, barr…).
            structure_types=tuple(sorted((rules.get("structures") or {}).get("types") or {})),
            factions=tuple(sorted(factions)),
            directions=direction_spellings(),
            names=dict(names or {}),
        )


def direction_spellings() -> dict[str, str]:
    """N, NorthEast, Out… in upper case, each with the short form the map's ``toward`` reads."""
    found = {short: short for short in DIRECTION_WORDS}
    found.update({word.upper(): short for short, word in DIRECTION_WORDS.items()})
    found[OUT.upper()] = OUT
    return found


@dataclass(frozen=True)
class Arg:
    """One argument of an order: its name in the reading, what it may be (one kind or several, tried in
    turn), its words in a message, and whether it may be left out or repeated."""

    name: str
    kinds: tuple[str, ...]
    words: str
    optional: bool = False
    many: int = 0  # > 0: it takes every remaining word, at least this many


@dataclass(frozen=True)
class Order:
    keyword: str
    timing: Timing
    kind: str  # condition, one-shot, special or plain
    who: str  # a key of WHO
    args: tuple[Arg, ...]
    example: str
    summary: str
    half_day: bool = False  # GUARD and PATROL: no time taken, but the day's work at half its worth

    def usage(self) -> str:
        """'GIVE takes a unit, an item tag and optionally a count and a number to keep: GIVE U5 swrd 20'."""
        needed = [arg.words for arg in self.args if not arg.optional]
        extra = [arg.words for arg in self.args if arg.optional]
        if not needed and not extra:
            return f"{self.keyword} takes no arguments: {self.example}"
        if not extra:
            parts = _series(needed)
        elif needed:
            parts = f"{', '.join(needed)} and optionally {_series(extra)}"
        else:
            parts = f"optionally {_series(extra)}"
        return f"{self.keyword} takes {parts}: {self.example}"


def _series(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


@dataclass(frozen=True)
class Problem:
    column: int  # 1-based, in the line as written
    problem: str
    fix: str


@dataclass(frozen=True)
class Reading:
    """A line read against the table: its row (None for an unknown keyword), its typed arguments, its
    problems (each with the fix) and its notes (what the line carries that changes nothing)."""

    line: Line
    order: Order | None
    args: Mapping[str, Any]
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()
    # The arguments written as a name, by their place among the line's arguments, with the id each
    # stands for (STANCE "Menfell" HOSTILE: {0: "blue"}).
    named: Mapping[int, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def understood(self) -> Line:
        """The line as the game keeps it: each name replaced by the id it stands for, so that the queue
        holds ids whatever the names become."""
        if not self.named:
            return self.line
        args = tuple(self.named.get(index, word) for index, word in enumerate(self.line.args))
        return dataclasses.replace(self.line, args=args)


def _a(name: str, kinds: str, words: str, optional: bool = False, many: int = 0) -> Arg:
    return Arg(name, tuple(kinds.split("|")), words, optional, many)


UNIT_ARG = _a("unit", "unit", "a unit")
IGNORED = _a("ignored", "any", "a word that is ignored", optional=True)
IMM, DAY, MOVE, COND = Timing.IMMEDIATE, Timing.FULL_DAY, Timing.MOVEMENT, Timing.CONDITION

# Every unit order of spec 2.11 (UNIT itself is the unit action's ``unit:`` field), in the manual's order.
UNIT_ORDERS: tuple[Order, ...] = (
    Order(
        "ACCEPT",
        IMM,
        SPECIAL,
        "any",
        (UNIT_ARG,),
        "ACCEPT bluenU01",
        "let that unit stack under this one, whatever the stance toward its faction",
    ),
    Order(
        "AT",
        COND,
        CONDITION,
        "any",
        (_a("place", "location|structure", "a location or a structure"),),
        "AT L47",
        "true while the unit is at that location (outside any structure) or inside that structure",
    ),
    Order(
        "ATTACK",
        DAY,
        PLAIN,
        "any",
        (_a("target", "unit|faction|structure", "a unit, a faction or a structure"),),
        "ATTACK U8",
        "start a battle with the target once it is here",
    ),
    Order(
        "BESTOW", IMM, ONE_SHOT, "leader", (UNIT_ARG,), "BESTOW U2", "hand this leader's title to that unit"
    ),
    Order(
        "BUILD",
        DAY,
        PLAIN,
        "any",
        (
            _a("skill", "skill", "a building skill"),
            _a("construction", "structure_type|structure", "a structure type or a structure", optional=True),
            # BUILD carp barr rednB01: a structure type, then the temporary id the new one takes.
            _a("new", "new_structure", "a new structure's temporary id", optional=True),
            _a("count", "number", "a number of uses", optional=True),
        ),
        "BUILD carp rednB01",
        "start or add to a construction",
    ),
    Order(
        "BUY",
        IMM,
        PLAIN,
        "leader",
        (
            _a("count", "count", "a count (0: as many as possible)"),
            _a("item", "item", "an item tag"),
            _a("price", "count", "a highest price", optional=True),
        ),
        "BUY 10 swrd 160",
        "bid for goods at the market, settled at the end of a market day",
    ),
    Order(
        "CANCEL",
        IMM,
        PLAIN,
        "title_holder",
        (_a("title", "title", "a title tag"), _a("location", "location", "its location")),
        "CANCEL shrf L12",
        "revoke a lesser title this unit's own title has power over",
    ),
    Order(
        "CARAVAN",
        MOVE,
        PLAIN,
        "leader_creature",
        (_a("stops", "location", "two or more locations", many=2),),
        "CARAVAN L12 L13 L20",
        "travel from stop to stop along the listed locations",
    ),
    Order(
        "CHRISTEN",
        IMM,
        ONE_SHOT,
        "structure_owner",
        (_a("name", "text", "a name"),),
        'CHRISTEN "High Eagle Fort"',
        "rename the structure this unit owns, or a place still called by its kind",
    ),
    Order(
        "CLAIM",
        DAY,
        PLAIN,
        "leader",
        (
            _a("title", "title", "a title tag"),
            _a("location", "location", "its location"),
            _a("free", "word:FREE", "FREE (only if nobody holds it)", optional=True),
        ),
        "CLAIM shrf L12",
        "pay for and claim the title of the location, or challenge its holder",
    ),
    Order(
        "COMBAT",
        IMM,
        ONE_SHOT,
        "any",
        (
            _a(
                "actions",
                "combat|skill|item",
                "one or more combat actions (MELEE, PARRY, RANGED, skill or item tags)",
                many=1,
            ),
        ),
        "COMBAT RANGED MELEE",
        "set the unit's actions in battle",
    ),
    Order(
        "DAY",
        COND,
        CONDITION,
        "any",
        (_a("day", "day", "a day of the month"),),
        "DAY 15",
        "true on that day of the month",
    ),
    Order(
        "DESCRIBE",
        IMM,
        ONE_SHOT,
        "any",
        (_a("text", "text", "a description (none clears it)", optional=True),),
        'DESCRIBE "Grim men in grey"',
        "set the unit's description",
    ),
    Order(
        "DISBAND",
        IMM,
        PLAIN,
        "any",
        (_a("confirm", "word:CONFIRM", "the word CONFIRM"),),
        "DISBAND CONFIRM",
        "the unit ceases to exist with all it holds",
    ),
    Order(
        "DROP",
        IMM,
        PLAIN,
        "any",
        (
            _a("item", "item", "an item tag"),
            _a("count", "count", "a count", optional=True),
            _a("kept", "count", "a number to keep", optional=True),
        ),
        "DROP iron 0 10",
        "put items on the ground",
    ),
    Order("EJECT", IMM, PLAIN, "leader", (UNIT_ARG,), "EJECT U3", "put a unit out of this leader's stack"),
    Order(
        "ENTER",
        IMM,
        ONE_SHOT,
        "any",
        (_a("structure", "structure", "a structure"),),
        "ENTER B3",
        "go into a structure here",
    ),
    Order(
        "EQUIP",
        IMM,
        PLAIN,
        "any",
        (_a("item", "item", "an item tag"), _a("count", "count", "a count (0: none)", optional=True)),
        "EQUIP swrd",
        "set how many of an item the unit's figures use",
    ),
    Order("EXIT", IMM, ONE_SHOT, "any", (IGNORED,), "EXIT", "leave the structure for the place around it"),
    Order(
        "FORGET",
        IMM,
        ONE_SHOT,
        "any",
        (_a("skill", "skill", "a skill tag"),),
        "FORGET digg",
        "lose all experience of a skill and of the skills that need it",
    ),
    Order(
        "GET",
        IMM,
        PLAIN,
        "any",
        (
            _a("source", "unit|location", "a unit or a location"),
            _a("count", "count", "a count", optional=True),
            _a("item", "item", "an item tag"),
            _a("left", "count", "a number to leave", optional=True),
        ),
        "GET U7 100 iron",
        "take items from an own unit here or from the ground",
    ),
    Order(
        "GIVE",
        IMM,
        PLAIN,
        "any",
        (
            UNIT_ARG,
            _a("item", "item", "an item tag"),
            _a("count", "count", "a count", optional=True),
            _a("kept", "count", "a number to keep", optional=True),
        ),
        "GIVE U5 swrd 20",
        "hand items to a unit here",
    ),
    Order(
        "GUARD",
        IMM,
        PLAIN,
        "any",
        (),
        "@GUARD",
        "guard the place (the day's work at half its worth)",
        half_day=True,
    ),
    Order(
        "HAVE",
        COND,
        CONDITION,
        "any",
        (_a("item", "item", "an item tag"), _a("count", "number", "a count (1 if left out)", optional=True)),
        "HAVE food 5",
        "true while the unit holds that many",
    ),
    Order(
        "LEADER",
        COND,
        CONDITION,
        "any",
        (UNIT_ARG,),
        "LEADER U1",
        "true if that unit leads this one's stack",
    ),
    Order(
        "LEADING",
        COND,
        CONDITION,
        "leader",
        (UNIT_ARG,),
        "LEADING U3",
        "true if that unit is in the stack this leader leads",
    ),
    Order("LEAVE", IMM, ONE_SHOT, "any", (IGNORED,), "LEAVE", "leave the structure for the place around it"),
    Order(
        "MARCH",
        MOVE,
        ONE_SHOT,
        "leader_creature",
        (_a("to", "direction|location", "a direction or a location"),),
        "MARCH NE",
        "move, fighting a guard that bars the way",
    ),
    Order(
        "MERGE",
        IMM,
        PLAIN,
        "follower_creature",
        (UNIT_ARG, _a("count", "count", "a number of figures (0: all, with all they hold)")),
        "MERGE U4 10",
        "move figures into another unit of the faction here",
    ),
    Order(
        "MOVE",
        MOVE,
        ONE_SHOT,
        "leader_creature",
        (_a("to", "direction|location", "a direction or a location"),),
        "MOVE N",
        "travel to a neighbouring location",
    ),
    Order(
        "NAME",
        IMM,
        ONE_SHOT,
        "any",
        (_a("name", "text", "a name"),),
        'NAME "Massada Foot"',
        "rename the unit",
    ),
    Order("OATH", IMM, ONE_SHOT, "any", (UNIT_ARG,), "OATH U8", "swear loyalty to that unit's faction"),
    Order(
        "PATROL",
        IMM,
        PLAIN,
        "any",
        (),
        "@PATROL",
        "guard the place (the day's work at half its worth)",
        half_day=True,
    ),
    Order("PILLAGE", DAY, PLAIN, "any", (), "PILLAGE", "plunder the location"),
    Order(
        "PROMOTE",
        IMM,
        ONE_SHOT,
        "any",
        (UNIT_ARG,),
        "PROMOTE U3",
        "move a unit listed later to before this one",
    ),
    Order(
        "RECRUIT",
        IMM,
        PLAIN,
        "leader",
        (
            UNIT_ARG,
            _a("count", "count", "a count (0: as many as affordable)"),
            _a("race", "race", "a race"),
            _a("price", "count", "a price a figure (0: the listed price)"),
        ),
        "RECRUIT rednU01 20 man 0",
        "hire figures at the local market into a unit",
    ),
    Order("RETREAT", IMM, SPECIAL, "any", (), "RETREAT", "turn back from a journey, the month's first order"),
    Order("SEE", COND, CONDITION, "any", (UNIT_ARG,), "SEE U8", "true while that unit is seen here"),
    Order(
        "SELL",
        IMM,
        PLAIN,
        "leader",
        (
            _a("count", "count", "a count (0: all)"),
            _a("item", "item", "an item tag"),
            _a("price", "count", "a lowest price", optional=True),
        ),
        "SELL 20 iron 12",
        "offer goods at the market, settled at the end of a market day",
    ),
    Order(
        "SETTING",
        IMM,
        ONE_SHOT,
        "any",
        (_a("setting", "unit_setting", "a unit setting"), _a("switch", "word:ON/OFF", "ON or OFF")),
        "SETTING SILENT ON",
        "switch one of the unit's settings",
    ),
    Order(
        "SIZE",
        COND,
        CONDITION,
        "any",
        (_a("count", "number", "a number of figures"),),
        "SIZE 50",
        "true while the unit has at least that many figures",
    ),
    Order(
        "SKILL",
        COND,
        CONDITION,
        "any",
        (
            _a("skill", "skill", "a skill tag"),
            _a("count", "number", "a number"),
            _a("measure", "measure", "LEVEL or DAYS", optional=True),
        ),
        "SKILL cmbt 2 LEVEL",
        "true when the unit knows the skill to that level (or that many days)",
    ),
    Order(
        "SPLIT",
        IMM,
        PLAIN,
        "follower_creature",
        (_a("unit", "new_unit", "a new unit's temporary id"), _a("count", "number", "a number of figures")),
        "SPLIT rednU02 10",
        "make a new unit of some of this unit's figures",
    ),
    Order(
        "STACK",
        IMM,
        ONE_SHOT,
        "any",
        (_a("unit", "unit", "a unit (none: just unstack)", optional=True),),
        "STACK U1",
        "stack under that unit",
    ),
    Order(
        "STANCE",
        IMM,
        ONE_SHOT,
        "any",
        (_a("faction", "faction", "a faction (your own: the default)"), _a("stance", "stance", "a stance")),
        "STANCE blue HOSTILE",
        "set the faction's stance toward another",
    ),
    Order("STAY", IMM, SPECIAL, "any", (), "STAY", "stay behind when the unit's stack sets out"),
    Order(
        "STUDY",
        DAY,
        PLAIN,
        "not_creature",
        (_a("skill", "skill", "a skill tag"), _a("level", "number", "a level to reach", optional=True)),
        "STUDY cmbt 1",
        "study a skill for the day",
    ),
    Order(
        "SWAP",
        IMM,
        SPECIAL,
        "any",
        (
            UNIT_ARG,
            _a("count", "count", "a count given"),
            _a("item", "item", "an item given"),
            _a("count_back", "count", "a count received"),
            _a("item_back", "item", "an item received"),
        ),
        "SWAP U8 10 swrd 500 coin",
        "exchange goods when that unit orders the mirror SWAP",
    ),
    Order(
        "SYNCHRO",
        COND,
        SPECIAL,
        "any",
        (UNIT_ARG,),
        "SYNCHRO U2",
        "true when that unit orders SYNCHRO with this one on the same day",
    ),
    Order(
        "TACTIC",
        IMM,
        ONE_SHOT,
        "any",
        (
            _a("battle", "battle", "a battle stance"),
            _a("rank", "rank", "a rank"),
            _a("file", "file", "a file"),
            _a("move", "move", "a movement"),
        ),
        "TACTIC FIGHT FRONT CENTER ADVANCE",
        "set how the unit fights",
    ),
    Order(
        "TARGET",
        IMM,
        ONE_SHOT,
        "any",
        (
            _a(
                "target",
                "unit|location|structure|structure_type",
                "a unit, a location, a structure or a structure type",
            ),
        ),
        "TARGET B3",
        "set the target of the next USE of a targeted skill",
    ),
    Order(
        "TEACH",
        DAY,
        PLAIN,
        "leader",
        (_a("pairs", "any", "one or more pairs of a unit and a skill", many=2),),
        "TEACH U11 cmbt U12 blde",
        "teach students studying here that day",
    ),
    Order("UNSTACK", IMM, ONE_SHOT, "any", (), "UNSTACK", "leave the stack"),
    Order(
        "USE",
        DAY,
        PLAIN,
        "any",
        (_a("skill", "skill", "a skill tag"), _a("count", "number", "a number of products", optional=True)),
        "USE digg",
        "work with a skill for the day",
    ),
    Order(
        "WAIT",
        COND,
        CONDITION,
        "any",
        # 0 too: the queue counts WAIT down and keeps WAIT 0 for the day it is done, and a player may
        # send the template's queue back as it stands.
        (_a("days", "count", "a number of days"),),
        "WAIT 10",
        "always true; done once that many days have passed",
    ),
    Order(
        "WITHDRAW",
        IMM,
        PLAIN,
        "any",
        (
            _a("count", "count", "an amount"),
            _a("item", "item", "an item tag (coins if left out)", optional=True),
        ),
        "WITHDRAW 500",
        "take coins (or goods) from the faction's fund, in a city",
    ),
    Order(
        "WORK", DAY, PLAIN, "not_creature", (), "WORK", "earn the local wages (what a unit does when idle)"
    ),
    Order("YIELD", IMM, ONE_SHOT, "title_holder", (IGNORED,), "YIELD", "give up this unit's title"),
)

# The faction orders of spec 2.10, applied before the month's first day.
FACTION_ORDERS: tuple[Order, ...] = (
    Order(
        "EMAIL",
        IMM,
        ONE_SHOT,
        "any",
        (_a("address", "text", "an address"),),
        "EMAIL me@example.org",
        "change where reports go",
    ),
    Order(
        "NAME",
        IMM,
        ONE_SHOT,
        "any",
        (_a("name", "text", "a name"),),
        'NAME "The Empire"',
        "rename the faction",
    ),
    Order(
        "PASSWORD",
        IMM,
        ONE_SHOT,
        "any",
        (_a("password", "text", "a password"),),
        "PASSWORD secret",
        "change the faction's password",
    ),
    Order(
        "RESIGN",
        IMM,
        ONE_SHOT,
        "any",
        (_a("faction", "heir", "the faction that takes the units over"),),
        "RESIGN imperials",
        "leave the game, handing every unit over",
    ),
    Order(
        "SETTING",
        IMM,
        ONE_SHOT,
        "any",
        (_a("setting", "faction_setting", "a setting"), _a("switch", "word:ON/OFF", "ON or OFF")),
        "SETTING TERSE ON",
        "switch one of the faction's settings",
    ),
    Order(
        "RESHOW",
        IMM,
        ONE_SHOT,
        "any",
        (
            _a("topic", "reshow", "ALL, an order's keyword, a skill or an item tag"),
            _a("level", "number", "a level", optional=True),
        ),
        "RESHOW cmbt 2",
        "print stored knowledge again in the next report",
    ),
)

ORDERS: dict[str, Order] = {order.keyword: order for order in UNIT_ORDERS}
FACTION_TABLE: dict[str, Order] = {order.keyword: order for order in FACTION_ORDERS}


def timing(line: Line) -> Timing:
    """When a unit's line runs; a keyword the table lacks fills a day (the checker refuses it anyway)."""
    order = ORDERS.get(line.keyword)
    return order.timing if order else Timing.FULL_DAY


def may_give(order: Order, unit_kind: str) -> bool:
    """Whether a unit of that kind (a race's kind: hero, leader, follower, creature) may give the order."""
    return unit_kind in _WHO_KINDS[order.who]


# ---------------------------------------------------------------- reading one word


class _Mismatch(Exception):
    def __init__(self, problem: str, hint: str = "") -> None:
        super().__init__(problem)
        self.problem, self.hint = problem, hint


_UNIT = re.compile(r"[Uu]([0-9]+)")
_LOCATION = re.compile(r"[Ll]([0-9]+)")
_STRUCTURE = re.compile(r"[Bb]([0-9]+)")
_NUMBER = re.compile(r"[0-9]+")


def _language(known: Known) -> Mapping[str, Any]:
    return known.rules["language"]


def _temporary(token: str, known: Known, kind: str) -> str | None:
    """A temporary id of any faction (``rednU01``), exactly as written; None if the word is not one."""
    ids = _language(known)["new_ids"]
    mark, letter, digits = str(ids["mark"]), str(ids[kind]), int(ids["digits"])
    for faction in known.factions:
        stem = f"{faction}{mark}{letter}"
        number = token[len(stem) :]
        if token.startswith(stem) and len(number) == digits and number.isdigit():
            if int(number) > int(ids["last"]):
                raise _Mismatch(
                    f"'{token}' is past the last temporary id", f"the numbers run up to {ids['last']}"
                )
            return token
        if token.casefold().startswith(stem.casefold()) and number.isdigit() and len(number) == digits:
            raise _Mismatch(
                f"'{token}' is not written as a temporary id",
                f"temporary ids keep their case: {stem}{number}",
            )
    return None


def _tag(token: str, tags: Collection[str], what: str) -> str:
    folded = token.casefold()
    if folded in tags:
        return folded
    raise _Mismatch(f"'{token}' is not {what}", suggest(folded, sorted(tags)))


def _word(token: str, choices: Collection[str], aliases: Mapping[str, str] | None = None) -> str:
    upper = token.upper()
    if upper in choices:
        return upper
    if aliases and upper in aliases:
        return str(aliases[upper])
    listed = ", ".join(choices)
    guess = suggest(upper, list(choices))
    raise _Mismatch(f"'{token}' is not one of {listed}", guess)


def _count(token: str, least: int, most: int | None = None) -> int:
    if not _NUMBER.fullmatch(token):
        raise _Mismatch(f"'{token}' is not a whole number", "write the number in digits, e.g. 10")
    value = int(token)
    if value < least or (most is not None and value > most):
        span = f"from {least} to {most}" if most is not None else f"{least} or more"
        raise _Mismatch(f"{value} is out of range", f"write a number {span}")
    return value


# The kinds of argument that name a thing by its id, for which a player may write the thing's name.
NAMED_KINDS = ("unit", "location", "structure", "faction", "heir")


def _by_name(kind: str, token: str, known: Known) -> str | None:
    """The id a name stands for (in any case), or None when it names nothing of that kind, or two."""
    named = known.names.get("faction" if kind == "heir" else kind)
    return id_named(token, named) if named else None


def _name_hint(kind: str, token: str, known: Known, fallback: str) -> str:
    """A did-you-mean naming the id and its name, when the word is close to one; else ``fallback``."""
    named = known.names.get("faction" if kind == "heir" else kind) or {}
    return named_suggestion(token, named, list(named)) or fallback


def _value(kind: str, token: str, known: Known) -> Any:
    """One word read as one kind of argument, or ``_Mismatch`` saying why not. Where an id goes, a
    name of the thing (quoted when it has spaces) is read as its id."""
    language = _language(known)
    if kind == "unit":
        if match := _UNIT.fullmatch(token):
            return f"U{int(match.group(1))}"
        if _NUMBER.fullmatch(token):
            raise _Mismatch(f"'{token}' is a bare number", f"write a unit with its U: U{token}")
        if (temporary := _temporary(token, known, "unit")) is not None:
            return temporary
        if (found := _by_name(kind, token, known)) is not None:
            return found
        hint = _name_hint(kind, token, known, "a unit is written U1, or a new one rednU01")
        raise _Mismatch(f"'{token}' is not a unit", hint)
    if kind == "new_unit":
        if (temporary := _temporary(token, known, "unit")) is not None:
            return temporary
        raise _Mismatch(
            f"'{token}' is not a new unit's temporary id", "write your faction's id, n, U and two digits"
        )
    if kind == "new_structure":
        if (temporary := _temporary(token, known, "structure")) is not None:
            return temporary
        raise _Mismatch(
            f"'{token}' is not a new structure's temporary id", "write your faction's id, n, B and two digits"
        )
    if kind == "structure":
        if match := _STRUCTURE.fullmatch(token):
            return f"B{int(match.group(1))}"
        if (temporary := _temporary(token, known, "structure")) is not None:
            return temporary
        if (found := _by_name(kind, token, known)) is not None:
            return found
        hint = _name_hint(kind, token, known, "a structure is written B3, or a new one rednB01")
        raise _Mismatch(f"'{token}' is not a structure", hint)
    if kind == "location":
        if match := _LOCATION.fullmatch(token):
            return f"L{int(match.group(1))}"
        if (found := _by_name(kind, token, known)) is not None:
            return found
        hint = _name_hint(kind, token, known, "a location is written L12")
        raise _Mismatch(f"'{token}' is not a location", hint)
    if kind == "direction":
        if token.upper() in known.directions:
            return known.directions[token.upper()]
        raise _Mismatch(f"'{token}' is not a direction", suggest(token.upper(), sorted(known.directions)))
    if kind in ("faction", "heir"):
        folded = {faction.casefold(): faction for faction in known.factions}
        found = folded.get(token.casefold())
        if found is None and (by_name := _by_name(kind, token, known)) in known.factions:
            found = by_name
        if found is None:
            hint = _name_hint(kind, token, known, suggest(token.casefold(), sorted(folded)))
            raise _Mismatch(f"'{token}' is not a faction", hint)
        if kind == "heir" and found not in language["resign_to"]:
            raise _Mismatch(
                f"'{token}' cannot take a faction's units", f"name one of {', '.join(language['resign_to'])}"
            )
        return found
    if kind == "item":
        return _tag(token, known.items, "an item tag")
    if kind == "skill":
        return _tag(token, known.skills, "a skill tag")
    if kind == "title":
        return _tag(token, known.titles, "a title tag")
    if kind == "race":
        return _tag(token, known.races, "a race")
    if kind == "structure_type":
        return _tag(token, known.structure_types, "a structure type")
    if kind == "count":
        return _count(token, 0)
    if kind == "number":
        return _count(token, 1)
    if kind == "day":
        return _count(token, 1, int(known.rules["ticks"]))
    if kind == "stance":
        return _word(token, [str(s).upper() for s in known.rules["stances"]["order"]]).lower()
    if kind in ("battle", "rank", "file", "move"):
        tactic = language["tactic"]
        return _word(token, tactic[kind], (tactic.get("aliases") or {}).get(kind))
    if kind == "measure":
        return _word(token, language["skill_measures"])
    if kind in ("unit_setting", "faction_setting"):
        level = kind.split("_")[0]
        settings = [name for name, levels in language["settings"].items() if level in levels]
        upper = token.upper()
        if upper in language["settings"] and upper not in settings:
            other = "faction" if level == "unit" else "unit"
            raise _Mismatch(f"{upper} is a {other} setting", f"give it among the {other}'s orders")
        return _word(token, settings)
    if kind == "combat":
        return _word(token, language["combat_actions"])
    if kind == "reshow":
        if token.upper() == "ALL" or token.upper() in ORDERS:
            return token.upper()
        if token.casefold() in known.skills or token.casefold() in known.items:
            return token.casefold()
        raise _Mismatch(f"'{token}' is nothing the report can show again", "write ALL, a keyword or a tag")
    if kind.startswith("word:"):
        return _word(token, kind[len("word:") :].split("/"))
    if kind in ("any", "text"):
        return token
    raise ValueError(f"the order table names an unknown kind of argument: {kind}")


def _one(arg: Arg, token: str, known: Known) -> tuple[Any, str]:
    """A word read as the first of the argument's kinds that takes it, with that kind."""
    first: _Mismatch | None = None
    hints = ""  # the first hint any kind gave, when the first kind tried gave none (MOVE "Karvsh")
    for kind in arg.kinds:
        try:
            return _value(kind, token, known), kind
        except _Mismatch as mismatch:
            first = first or mismatch
            hints = hints or mismatch.hint
    if first is None:  # a row with no kinds: a mistake in the table, not in the line
        raise ValueError(f"the argument {arg.name} has no kinds")
    if len(arg.kinds) > 1:
        raise _Mismatch(f"'{token}' is not {arg.words}", first.hint or hints)
    raise first


# ---------------------------------------------------------------- reading a line


def read(line: Line, known: Known, *, faction: bool = False) -> Reading:
    """A parsed line read against the order table: a unit's order, or with ``faction`` a faction order."""
    table = FACTION_TABLE if faction else ORDERS
    keyword_column = line.columns[0] if line.columns else 1
    order = table.get(line.keyword)
    if order is None:
        return Reading(line, None, {}, (Problem(keyword_column, *_unknown(line.keyword, faction)),))
    problems: list[Problem] = []
    notes: list[str] = []
    if faction and (line.depth or line.plus or line.repeat or line.count is not None or line.day is not None):
        problems.append(Problem(1, "a faction order takes no prefixes", f"write it bare: {order.example}"))
    if line.day is not None and line.day > int(known.rules["ticks"]):
        problems.append(Problem(1, f"there is no day {line.day}", f"a month has {known.rules['ticks']} days"))
    notes += _ignored_prefixes(order, line)
    tokens = _joined_text(order, line)
    columns = line.columns[1:] if len(line.columns) == len(line.args) + 1 else ()

    def at(index: int | None) -> int:
        if index is not None and index < len(columns):
            return columns[index]
        return keyword_column

    named: dict[int, str] = {}
    args, trouble = _match(order, tokens, known, named)
    trouble = _count_first(order, tokens, known) or trouble
    if trouble is not None:
        index, problem, hint = trouble
        problems.append(Problem(at(index), problem, f"{hint} {order.usage()}".strip()))
    else:
        problems += [Problem(at(i), p, f) for i, p, f in _special(order, tokens, args, known, named)]
        if order.keyword in _language(known)["ignored_argument"] and args.get("ignored") is not None:
            notes.append(f"{order.keyword} takes no argument: '{args['ignored']}' is ignored")
    if faction and order.keyword in _language(known)["inert_faction_orders"]:
        notes.append(f"{order.keyword} changes nothing here: the campaign's list of players says who plays")
    return Reading(line, order, args, tuple(problems), tuple(notes), named)


def _unknown(keyword: str, faction: bool) -> tuple[str, str]:
    if keyword == "UNIT" and not faction:
        return "UNIT is not written among a unit's orders", "name the unit in the unit action's 'unit:' field"
    here, there = (FACTION_TABLE, ORDERS) if faction else (ORDERS, FACTION_TABLE)
    if keyword in there:
        whose = "a unit" if faction else "the faction"
        return f"{keyword} is an order for {whose}", f"write it in {whose}'s action"
    guess = suggest(keyword, sorted(here))
    return f"'{keyword}' is not an order", guess or "see the orders on the rules page"


def _ignored_prefixes(order: Order, line: Line) -> list[str]:
    """What a line carries that its kind of order ignores (spec 2.5): kept as written, said in the check."""
    notes = []
    if line.repeat and order.kind == CONDITION:
        notes.append(f"'@' changes nothing on {order.keyword}: a condition is done once it holds")
    elif line.repeat and order.kind == ONE_SHOT and order.timing is not Timing.MOVEMENT:
        notes.append(f"'@' changes nothing on {order.keyword}: it is done once it has run")
    if line.count is not None and order.timing is Timing.MOVEMENT:
        notes.append(
            f"the {line.count} days change nothing on {order.keyword}: a journey lasts as long as it takes"
        )
    elif line.count is not None and order.kind in (CONDITION, ONE_SHOT):
        notes.append(f"the {line.count} days change nothing on {order.keyword}: it is done once it has run")
    return notes


def _joined_text(order: Order, line: Line) -> tuple[str, ...]:
    """A text argument takes the rest of the line: NAME The Empire is NAME "The Empire" (spec 2.1)."""
    place = next((i for i, arg in enumerate(order.args) if "text" in arg.kinds), None)
    if place is None or len(line.args) <= place + 1:
        return line.args
    return (*line.args[:place], " ".join(line.args[place:]))


def _match(
    order: Order, tokens: tuple[str, ...], known: Known, named: dict[int, str]
) -> tuple[dict[str, Any], tuple[int | None, str, str] | None]:
    """The arguments in the order's sequence. An optional argument that does not take a word is left
    out, and the word goes to the next argument (GET U7 iron: no count); the trouble reported is then
    that argument's, should the word fit nothing. ``named`` gathers the words read as the id of a thing
    (by their place), so that the line can be kept with the id."""
    values: dict[str, Any] = {}
    index = 0
    skipped: tuple[int, _Mismatch] | None = None
    for arg in order.args:
        if arg.many:
            found = []
            while index < len(tokens):
                try:
                    value, kind = _one(arg, tokens[index], known)
                except _Mismatch as mismatch:
                    return values, (index, mismatch.problem, mismatch.hint)
                found.append(value)
                _note_id(named, index, tokens[index], value, kind)
                index += 1
            if len(found) < arg.many:
                return values, (None, f"{order.keyword} needs {arg.words}", "")
            values[arg.name] = tuple(found)
            continue
        if index >= len(tokens):
            if not arg.optional:
                return values, (None, f"{order.keyword} needs {arg.words}", "")
            values[arg.name] = None
            continue
        try:
            value, kind = _one(arg, tokens[index], known)
        except _Mismatch as mismatch:
            if not arg.optional:
                return values, (index, mismatch.problem, mismatch.hint)
            values[arg.name] = None
            skipped = skipped or (index, mismatch)
            continue
        values[arg.name] = value
        _note_id(named, index, tokens[index], value, kind)
        if len(arg.kinds) > 1:
            values[f"{arg.name}_kind"] = kind
        index += 1
        skipped = None
    if index < len(tokens):
        if skipped is not None and skipped[0] == index:
            return values, (index, skipped[1].problem, skipped[1].hint)
        return values, (index, f"'{tokens[index]}' is one argument too many", "")
    return values, None


def _note_id(named: dict[int, str], index: int, token: str, value: Any, kind: str) -> None:
    """A word that names a thing in another way than its id as the game writes it (a name, or the id
    in other letters) is kept as that id."""
    if kind in NAMED_KINDS and value != token:
        named[index] = str(value)


def _special(
    order: Order, tokens: tuple[str, ...], args: dict[str, Any], known: Known, named: dict[int, str]
) -> list[tuple[int | None, str, str]]:
    """What a row's schema cannot say alone: TEACH's pairs, and USE of a skill that has no use."""
    if order.keyword == "USE":
        return _without_use(args, known)
    if order.keyword != "TEACH":
        return []
    # Each student is named with the skill taught to it (spec 8.2 #25): a unit, then a skill, again.
    if len(tokens) % 2:
        return [(len(tokens) - 1, "TEACH names each student with its skill, in pairs", order.usage())]
    pairs = []
    for index in range(0, len(tokens), 2):
        pair = []
        for offset, kind in ((0, "unit"), (1, "skill")):
            try:
                value = _value(kind, tokens[index + offset], known)
            except _Mismatch as mismatch:
                return [(index + offset, mismatch.problem, f"{mismatch.hint} {order.usage()}".strip())]
            pair.append(value)
            _note_id(named, index + offset, tokens[index + offset], value, kind)
        pairs.append(tuple(pair))
    args["pairs"] = tuple(pairs)
    return []


def _without_use(args: Mapping[str, Any], known: Known) -> list[tuple[int | None, str, str]]:
    """USE of a skill whose rules data gives it no `use:` block: refused here, so that no line the check
    accepts waits in a queue for a use nothing carries out (nobility's, house rule skills.nobl)."""
    tag = args.get("skill")
    skill = (known.rules.get("skills") or {}).get(tag) or {}
    if not tag or skill.get("use"):
        return []
    name = str(skill.get("name", tag))
    fix = "USE takes a skill that gathers, makes, builds, forages, taxes, meditates or casts; STUDY this one"
    return [(0, f"{name} has no use of its own", fix)]


def _count_first(order: Order, tokens: tuple[str, ...], known: Known) -> tuple[int, str, str] | None:
    """GIVE U6 0 IRON 10, the count before the item as some of the manual's examples write it: refused,
    with the line in the manual's order (spec 8.2 #22)."""
    if order.keyword != "GIVE" or len(tokens) < 3 or not _NUMBER.fullmatch(tokens[1]):
        return None
    if tokens[2].casefold() not in known.items:
        return None
    fixed = " ".join([order.keyword, tokens[0], tokens[2].casefold(), tokens[1], *tokens[3:]])
    return 1, "GIVE names the item before the count", f"write {fixed}"
