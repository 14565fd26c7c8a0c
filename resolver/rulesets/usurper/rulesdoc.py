"""The usurper rules in words, for the site's rules pages: one section per chapter of the game.

The rules data is parted into files, one per chapter (``rules/*.yaml``), each written by whoever wrote the
chapter's code; this module reads every chapter's sections of data by name and shows them as prose and
tables, each value read from the campaign's effective rules. A chapter's own prose reads its numbers
from the data; its tables come from the data's shape (a mapping of records is a table with one row a
record, a check is its table of bands), so a number added to a chapter shows without a change here.

A chapter whose data is missing is left out, and a chapter whose data this module cannot read as it
expects falls back to the plain table of its data (``generic_sections``), so the rules pages never break
while a chapter's file is being written. Rules data no chapter claims is shown at the end as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...core.checks import Check
from ...core.rulesdoc import SHARED_KEYS, RulesSection, RulesTable, generic_sections, words

Rules = Mapping[str, Any]
Block = str | RulesTable

# Rules data that is bookkeeping, not a rule of play: how the site itself seals a campaign is told with the
# fog of war, and the turn table's own rows are on the shared part of the page.
UNSHOWN = ("sealed_by_default",)
DEEPEST = 3  # nested mappings deeper than this are shown as one cell of text

# A blank in a label of the data that the resolver fills in, and an id of the data to show in its place.
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
EXAMPLES = {"item": "hammers", "skill": "scout", "race": "dwarves", "bonus": "craftsman"}

# The eight bands of the action roll, as a fallback when the dice chapter is missing.
BAND_ORDER = (
    "complete_failure", "partial_failure", "partial_success", "success", "significant", "astounding", "epic",
    "legendary",
)  # fmt: skip


def introduction(rules: Rules) -> str:
    """The opening paragraph: the shape of the game, every number from the rules data."""
    calendar = rules.get("calendar") or {}
    start = rules.get("start") or {}
    weeks = calendar.get("turns_per_period", 4)
    months = len(calendar.get("periods") or ())
    leaders = len(start.get("leaders") or ())
    scoring = rules.get("scoring") or {}
    tallies = scoring.get("months") or []
    every = f"in months {_listed([str(m) for m in tallies])}" if tallies else "every two months"
    return (
        f"Each player is a usurper who rises from a hidden lair. A turn is one week, {weeks} weeks make a "
        f"month and {months} months a year. A usurper starts with {start.get('gold', 0)} gold, "
        f"{_count(leaders, 'leader')} and a unit of {start.get('unit_pax', 10)} in a lair of "
        f"{_count(len(start.get('lair_rooms') or ()), 'room')}. Each week every leader and unit takes one "
        "action: scouting the land, harvesting what was found, building and renovating rooms, crafting, "
        "trading and recruiting, training, and fighting. Nearly every action is a d100 roll plus every "
        f"bonus that applies, read on one table of bands. Victory Points are counted {every}."
    )


@dataclass(frozen=True)
class Chapter:
    """One chapter of the rules pages: its title, the sections of rules data it explains, and what it says
    of them in words (a function of the rules, returning paragraphs), before the data's tables."""

    title: str
    keys: tuple[str, ...]
    prose: Callable[[Rules], list[str]] | None = None
    checks: tuple[str, ...] = ()  # the checks (``checks.<id>``) this chapter shows


def sections(rules: Rules) -> list[RulesSection]:
    return [section for section, _ in chapter_sections(rules)]


def chapter_sections(rules: Rules) -> list[tuple[RulesSection, bool]]:
    """Each chapter with data, as a section, and whether it fell back to the plain table of its data; then
    whatever data no chapter claims."""
    names = NameBook.of(rules)
    claimed_checks = {check for chapter in CHAPTERS for check in chapter.checks}
    found: list[tuple[RulesSection, bool]] = []
    for chapter in CHAPTERS:
        checks = [c for c in chapter.checks if c in (rules.get("checks") or {})]
        if chapter is CHAPTERS[0]:  # the dice chapter shows every check no other chapter claims
            checks += [c for c in (rules.get("checks") or {}) if c not in claimed_checks]
        keys = [k for k in chapter.keys if k in rules]
        if not keys and not checks:
            continue
        section_keys = (*keys, *(f"checks.{c}" for c in checks))
        try:
            blocks: list[Block] = list(chapter.prose(rules)) if chapter.prose else []
            for check in checks:
                blocks += check_blocks(rules, check, names)
            for key in keys:
                blocks += data_blocks(words(key), rules[key], names)
            found.append((RulesSection(chapter.title, tuple(blocks), keys=section_keys), False))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            # The chapter's data is not in the shape this module reads (its file is being rewritten): the
            # plain tables of its data, under the chapter's title, rather than no rules page at all.
            part = {k: rules[k] for k in keys}
            if checks:
                part["checks"] = {c: rules["checks"][c] for c in checks}
            plain: list[Block] = [b for s in generic_sections(part) for b in s.blocks]
            found.append((RulesSection(chapter.title, tuple(plain), keys=section_keys), True))
    claimed = {k for chapter in CHAPTERS for k in chapter.keys}
    rest = {
        k: v for k, v in rules.items() if k not in claimed and k not in (*SHARED_KEYS, *UNSHOWN, "checks")
    }
    found += [(section, True) for section in generic_sections(rest)]
    return found


# -- names: readers see none of the data's ids -----------------------------------------------------------


class NameBook(dict[str, str]):
    """Every id the rules data names, with the name it gives it (``name:`` of a record, or of a row of a
    check): "partial_failure" is "Partial Failure", "light_armor" is "Light Armor". An id without a name
    is written out in words ("tree_hugger" reads "tree hugger")."""

    @classmethod
    def of(cls, rules: Rules) -> NameBook:
        book = cls()

        def walk(value: Any, depth: int) -> None:
            if depth > 6:
                return
            if isinstance(value, Mapping):
                for key, item in value.items():
                    if isinstance(item, Mapping) and isinstance(item.get("name"), str):
                        book.setdefault(str(key), item["name"])
                    walk(item, depth + 1)
            elif isinstance(value, list):
                for item in value:
                    named = isinstance(item, Mapping) and isinstance(item.get("name"), str)
                    for key in ("result", "id") if named else ():
                        if isinstance(item.get(key), str):
                            book.setdefault(item[key], item["name"])
                    walk(item, depth + 1)

        walk({k: v for k, v in rules.items() if k not in ("house_rules", "turn_sequence")}, 0)
        return book

    def of_id(self, key: Any) -> str:
        text = str(key)
        return self.get(text) or words(text)

    def column(self, key: Any) -> str:
        """A column's heading: the name the data gives the id when it is a name ("Partial Success"), but
        the id in words when the data's name is a phrase that describes it ("an Extra who offers to
        join"), which would be too long a heading and reads wrong over another section's field."""
        name = self.of_id(key)
        return words(str(key)) if name[:1].islower() or len(name.split()) > 3 else name

    def cell(self, value: Any) -> str:
        """A value of the data as a table cell reads it."""
        if value is None:
            return "—"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int | float):
            return f"{value:g}" if isinstance(value, float) else str(value)
        if isinstance(value, list) and value and all(isinstance(item, list) for item in value):
            return "; ".join(" ".join(self.cell(part) for part in item) for item in value)
        if isinstance(value, list):
            return ", ".join(self.cell(item) for item in value) or "none"
        if isinstance(value, Mapping):
            return "; ".join(f"{self.of_id(k).lower()} {self.cell(v)}" for k, v in value.items()) or "none"
        text = str(value)
        if text in self:
            return self[text]
        if PLACEHOLDER.search(text):
            return self.example(text)
        return text.replace("_", " ") if "_" in text and " " not in text else text

    def example(self, template: str) -> str:
        """A label the resolver fills in ("{item} quality", how a roll's ledger names a source) as a reader
        sees it, with an example in the place of each blank: "e.g. Spyglass quality"; a blank the data
        holds no example for reads as what goes there ("an Extra's name")."""
        if all(blank in EXAMPLES for blank in PLACEHOLDER.findall(template)):
            return "e.g. " + PLACEHOLDER.sub(lambda m: self.of_id(EXAMPLES[m.group(1)]), template)
        return PLACEHOLDER.sub(lambda m: f"the {words(m.group(1)).lower()}'s name", template)


# -- the tables of the data ------------------------------------------------------------------------------


def _flat(value: Any) -> bool:
    """A value one cell can hold: a number, a word, a list of them, or a small mapping of them."""
    if isinstance(value, Mapping):
        return all(_scalar(v) or _scalar_list(v) for v in value.values()) and len(value) <= 6
    return _scalar(value) or _scalar_list(value)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _scalar_list(value: Any) -> bool:
    """A list of words or numbers, of small records, or of pairs (a terrain and its share)."""
    return isinstance(value, list) and all(
        _scalar(v) or _flat_mapping(v) or (isinstance(v, list) and all(map(_scalar, v))) for v in value
    )


def _flat_mapping(value: Any) -> bool:
    return isinstance(value, Mapping) and all(_scalar(v) for v in value.values())


def _rows(value: Any) -> bool:
    """A list of several records (the quality ladder): a table of its own, one row a record."""
    return isinstance(value, list) and len(value) > 1 and all(isinstance(v, Mapping) for v in value)


def _records(value: Any) -> bool:
    """A mapping of ids to records (races, rooms, items): one table, one row a record."""
    return isinstance(value, Mapping) and bool(value) and all(isinstance(v, Mapping) for v in value.values())


def data_blocks(title: str, value: Any, names: NameBook, depth: int = 0) -> list[Block]:
    """Tables of one section of rules data, as its shape suggests."""
    if _rows(value):
        return [record_table(title, {str(i): row for i, row in enumerate(value, 1)}, names, numbered=True)]
    if _flat(value) and not isinstance(value, Mapping):
        return [RulesTable(title, ("Setting", "Value"), ((title, names.cell(value)),))]
    if isinstance(value, list) and all(isinstance(row, Mapping) for row in value):
        return [record_table(title, {str(i): row for i, row in enumerate(value, 1)}, names, numbered=True)]
    if isinstance(value, list):
        return [RulesTable(title, ("Setting", "Value"), ((title, names.cell(value)),))]
    if not isinstance(value, Mapping):
        return []
    if _records(value) and depth < DEEPEST and _unalike(value):
        # A few records with nothing in common (the names of sizes, and of directions): a table each, as
        # one table of them would be a row a record under every column of the others, nearly all empty.
        return [
            b
            for key, item in value.items()
            for b in data_blocks(f"{title}: {names.of_id(key)}", item, names, depth + 1)
        ]
    if _records(value) and depth < DEEPEST:
        return records_blocks(title, value, names, depth)
    blocks: list[Block] = []
    plain = [(k, v) for k, v in value.items() if (_flat(v) and not _rows(v)) or depth >= DEEPEST]
    if plain:
        rows = tuple((names.of_id(k), names.cell(v)) for k, v in plain)
        blocks.append(RulesTable(title, ("Setting", "Value"), rows))
    for key, item in value.items():
        if _rows(item) or not (_flat(item) or depth >= DEEPEST):
            blocks += data_blocks(f"{title}: {names.of_id(key)}", item, names, depth + 1)
    return blocks


def _unalike(records: Mapping[str, Any]) -> bool:
    """Whether a few records share no field at all, so that no column of their table would hold two."""
    if not 2 <= len(records) <= 3:
        return False
    fields = [set(record) - {"name"} for record in records.values()]
    return all(not (a & b) for i, a in enumerate(fields) for b in fields[i + 1 :])


# A table of records shows a column for a field that at least this share of its records have; the fields of
# fewer (a racial ability's own numbers) are shown together in one column, "Other", so that a table of
# many records of many kinds is not a wall of empty cells too wide for a phone.
COMMON_FIELD_SHARE = 0.25
WIDE_TABLE = 7  # columns beside the name, beyond which the rarer fields are gathered


def records_blocks(title: str, records: Mapping[str, Any], names: NameBook, depth: int) -> list[Block]:
    """A mapping of records: one table of what one cell can hold of each, then a table for each record's
    nested data (a room's renovations)."""
    blocks: list[Block] = [record_table(title, records, names)]
    for key, record in records.items():
        for field, item in record.items():
            if not _flat(item) and item not in ({}, []):
                caption = f"{title}: {names.of_id(key)}, {names.of_id(field).lower()}"
                blocks += data_blocks(caption, item, names, depth + 1)
    return blocks


def record_table(
    title: str, records: Mapping[str, Any], names: NameBook, numbered: bool = False
) -> RulesTable:
    """One row a record, labelled by its name (or its id in words, or its number in a list of records
    without names), one column for each field that one cell can hold."""
    named = all(isinstance(r, Mapping) and r.get("name") for r in records.values())
    skip = ("name", "id") if named else ("name",)
    columns: list[str] = []
    for record in records.values():
        if isinstance(record, Mapping):
            columns += [k for k, v in record.items() if k not in columns and k not in skip and _flat(v)]
    rare: list[str] = []
    if len(columns) > WIDE_TABLE:
        share = {c: sum(1 for r in records.values() if isinstance(r, Mapping) and c in r) for c in columns}
        rare = [c for c in columns if share[c] < COMMON_FIELD_SHARE * len(records)]
        columns = [c for c in columns if c not in rare]
    rows = []
    for key, record in records.items():
        record = record if isinstance(record, Mapping) else {"value": record}
        label = str(record.get("name") or (key if numbered else names.of_id(key)))
        cells = [names.cell(record.get(column)) for column in columns]
        if rare:
            other = [f"{names.column(c)}: {names.cell(record[c])}" for c in rare if c in record]
            cells.append("; ".join(other) or "—")
        rows.append((label, *cells))
    first = "#" if numbered and not named else "Name"
    headings = (first, *(names.column(c) for c in columns), *(("Other",) if rare else ()))
    return RulesTable(title, headings, tuple(rows))


def check_blocks(rules: Rules, check_id: str, names: NameBook) -> list[Block]:
    """A check: its dice and declared modifiers in a sentence, then its rows, each by its name."""
    check = Check.from_rules(rules, check_id)
    text = f"The {names.of_id(check_id).lower()} roll is {check.dice_text()}"
    if check.declared:
        listed = [f"{value:+d} {names.of_id(name).lower()}" for name, value in check.declared.items()]
        text += f"; the bonuses and penalties it knows by name: {_listed(listed)}"
    extra: list[str] = []
    for row in check.table:
        extra += [k for k in row.data if k not in extra and k not in ("name",)]
    rows = tuple(
        (
            row.span(),
            str(row.data.get("name") or names.of_id(row.result)),
            *(names.cell(row.data.get(k)) for k in extra),
        )
        for row in check.table
    )
    table = RulesTable(names.of_id(check_id), ("Total", "Result", *(names.of_id(k) for k in extra)), rows)
    return [text + ".", table]


# -- each chapter's own words ----------------------------------------------------------------------------


def _listed(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _band(rules: Rules, band: Any) -> str:
    return NameBook.of(rules).of_id(band)


def dice_prose(rules: Rules) -> list[str]:
    action = (rules.get("checks") or {}).get("action") or {}
    roll = rules.get("action_roll") or {}
    explode = (action.get("explode") or {}).get("at")
    said = [
        "Nearly every action is one roll of a d100 plus every bonus and penalty that applies: everything "
        "stacks, and a total may fall below zero."
    ]
    if explode:
        again = "and so on while it keeps doing so" if roll.get("chain", True) else "once at most"
        said.append(f"A d100 showing {explode} or more is rolled again and the new roll added, {again}.")
    first = roll.get("first_month") or {}
    if first:
        floor = (
            f", and an action roll reads no worse than {_band(rules, first['floor'])}"
            if first.get("floor")
            else ""
        )
        said.append(f"In the game's first month no d100 is rolled again{floor}.")
    if "complete_failure_obscurity" in roll:
        said.append(
            f"A {_band(rules, 'complete_failure')} costs the actors' lair "
            f"{roll['complete_failure_obscurity']} Obscurity; after a {_band(rules, 'partial_failure')} the "
            f"same action in the same grid within {roll.get('partial_failure_memory_weeks', 3)} weeks gains "
            f"+{(action.get('modifiers') or {}).get('repeat_after_partial_failure', 10)}."
        )
    return [" ".join(said)]


def orders_prose(rules: Rules) -> list[str]:
    speed = rules.get("leader_speed") or {}
    said = [
        "Each order is one action of one leader or unit (`by`), with the others that help it (`assist`). "
        "Every leader and unit acts once a week, setting out from its lair and coming back to the grid "
        "named as `end` for free. The grid it acts in (`target`) must lie within its overland speed, "
        "counting a diagonal step as one grid."
    ]
    if speed:
        said.append(
            f"A leader goes {speed.get('base')} grids, {speed.get('donkey')} with a donkey; a unit with "
            f"horses goes at least {speed.get('horses')}."
        )
    said.append(
        "What the game asked of its players after the dice (levelling up, what to drop when the "
        "warehouse is full, whom to pay first, replacing the fallen, what to do with prisoners) is "
        "answered in advance in the order file's `policies:`, which stay in force until changed; the "
        "defaults are in the table below."
    )
    if rules.get("sealed_by_default"):
        said.append(
            "A usurper campaign is sealed unless the GM opened it: each usurper sees its own lairs, stores "
            "and findings, and the others see only its name and Victory Points."
        )
    return [" ".join(said)]


def entities_prose(rules: Rules) -> list[str]:
    start = rules.get("start") or {}
    if not start:
        return []
    races = NameBook.of(rules)
    first = [races.of_id(r) for r in start.get("unit_races") or ()]
    return [
        f"A usurper begins with {_count(len(start.get('leaders') or ()), 'leader')} of "
        f"{start.get('leader_hp')} hit points, each with a different leader bonus, and one unit of "
        f"{start.get('unit_pax')} men of a standard race ({_listed(first)}). A unit gains experience from "
        "its better rolls and fights, levels up, and learns skills in ranks; the tables below give the "
        "races, the bonuses, the skills and the experience each needs."
    ]


def world_prose(rules: Rules) -> list[str]:
    world = rules.get("world") or {}
    width, height = world.get("width"), world.get("height")
    if not (width and height):
        return []
    return [
        f"The map is a grid of {width} by {height}, named by a column letter and a row number (A1 is the "
        "north-west corner). Each grid has one terrain, which decides the resources, races and monsters "
        f"found there. About {world.get('cities', 'a few')} cities stand on the map for everyone to see; "
        "settlements lie off the map and are found by scouting, and only the usurper who found one knows it."
    ]


def static(*paragraphs: str) -> Callable[[Rules], list[str]]:
    return lambda rules: list(paragraphs)


CHAPTERS: tuple[Chapter, ...] = (
    Chapter("Dice and bands", ("action_roll",), dice_prose, checks=("action", "morale", "loyalty")),
    Chapter("Orders", ("leader_speed", "policies"), orders_prose),
    Chapter(
        "Actions: scouting and harvesting",
        ("scouting", "harvest"),
        static(
            "Scouts search a grid: what they find (a settlement, a resource node, a cache or an encounter) "
            "depends on the band of the roll and the terrain. Only the usurper whose scouts found something "
            "knows it. A node found can be harvested for its resource a number of times."
        ),
    ),
    Chapter(
        "Entities: races, leaders, skills and experience",
        (
            "start",
            "combat_speeds",
            "races",
            "racial_abilities",
            "leader_bonuses",
            "skills",
            "experience",
            "leader_healing",
        ),
        entities_prose,
    ),
    Chapter(
        "The world: terrains, cities and settlements",
        ("world", "terrains", "city_sizes", "settlement_sizes", "traits", "terrain_traits"),
        world_prose,
    ),
    Chapter(
        "Items and the market",
        ("items", "tools", "market", "outfit", "gems", "qualities", "sale", "crafting"),
        static(
            "Weapons, armour, tools and mounts are bought at a market or crafted in a workshop; the better "
            "an item's quality, the more it adds to the rolls it helps and the more it sells for."
        ),
    ),
    Chapter(
        "Diplomacy, trade and upkeep",
        ("attitudes", "diplomacy", "recruiting", "trade", "upkeep"),
        static(
            "Leaders visit cities and settlements to win their favour, recruit and trade. At the end of each "
            "month every unit must be paid and fed; a unit left unpaid tests its loyalty."
        ),
    ),
    Chapter(
        "Rooms and renovations",
        ("rooms", "building", "renovating", "new_lair"),
        static(
            "A lair is a set of rooms. Units build new rooms and renovate those they have; each renovation "
            "opens the next ones on the room's tree."
        ),
    ),
    Chapter(
        "Storage and Obscurity",
        ("storage", "savings", "lair_obscurity", "obscurity"),
        static(
            "Whatever is neither stored in a warehouse nor carried at the end of the week is lost. A lair's "
            "Obscurity is how well it stays hidden: failures and fights wear it down, and a lair whose "
            "Obscurity is spent can be found."
        ),
    ),
    Chapter(
        "Combat",
        ("combat", "encounters", "lair_attacks", "contact"),
        static(
            "A fight has three phases, strategy, ranged and melee, each side rolling pools of d6 for "
            "attack and defence; damage is read against armour on the tables below, and units test their "
            "morale as they lose men."
        ),
        checks=("strategy",),
    ),
    Chapter(
        "Victory Points and victory",
        ("scoring", "difficulty", "victory"),
        static(
            "Victory Points are counted in categories; the average of every usurper's total sets the "
            "difficulty of the land, and the three ways to win the game are given below."
        ),
    ),
    Chapter(
        "Magic, events and landmarks",
        (
            "spells",
            "magic",
            "abilities",
            "landmarks",
            "ritual",
            "happenings",
            "monthly_events",
            "unique_events",
        ),
        static("Spells, the month's events and the landmarks' rituals, as the rules data gives them."),
    ),
    Chapter(
        "Prisons",
        ("prisons", "prison", "prisoners", "interrogation", "interrogate"),
        static("Prisoners are taken in fights, held in a lair's prison and interrogated there."),
    ),
    Chapter(
        "Exploration, and what the GM gives",
        ("exploration", "extras", "unique_units", "titles", "quests", "council"),
        static(
            "A leader who explores finds an opportunity, or starts an exploration quest; what the "
            "opportunity offers, and every quest, Unique Unit, Extra, artifact, title and vote of the "
            "Council, is the GM's to give, with the GM's orders listed on the GM's page."
        ),
    ),
)
