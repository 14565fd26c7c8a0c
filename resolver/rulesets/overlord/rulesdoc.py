"""The overlord rules in words, for the site's rules pages: one chapter a page, every number from the data.

Each chapter reads its sections of the effective rules data by name (``rules.yaml`` and the chapters'
files in ``rules/``) and shows them as a paragraph or two and tables. The month's sequence is printed from
the turn table itself, and the order reference from the order language's table (``language``), so
neither can drift from what the resolver runs. A chapter whose data is missing is left out; a chapter whose
data is not in the shape read here falls back to the plain table of its data, so the pages never break
while a chapter's file is rewritten. Rules data no chapter claims is shown at the end as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.programs import MAX_LINES, Timing
from ...core.rulesdoc import SHARED_KEYS, RulesSection, RulesTable, generic_sections, words
from ...core.words import plural
from . import language

Rules = Mapping[str, Any]
Block = str | RulesTable

# Bookkeeping, told by the shared part of the page, or how the bot plays (not a rule of the game); the
# decisions index only points at house rules, which the house-rules page shows in full.
UNSHOWN = ("sealed_by_default", "ticks", "bot", "decisions")
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
TIMING_WORDS = {
    Timing.CONDITION: "condition (no time)",
    Timing.IMMEDIATE: "immediate",
    Timing.FULL_DAY: "full day",
    Timing.MOVEMENT: "travel (full days)",
}


def ordinal(level: int) -> str:
    return ORDINALS.get(level, f"{level}th")


def introduction(rules: Rules) -> str:
    start = rules.get("start") or {}
    followers = (start.get("followers") or {}).get("figures", 0)
    days = rules.get("ticks", 30)
    months = len((rules.get("calendar") or {}).get("periods") or ())
    return (
        f"Each player leads a faction of a fantasy world, and a turn is one month of {days} days "
        f"({months} months a year), played out day by day. Every unit carries its own queue of orders "
        "in the manual's order language, which it follows from one day to the next and from one month to "
        "the next until the orders are done or the player writes new ones. A faction starts with one hero, "
        f"{followers} followers stacked under him and {start.get('fund', 0)} coins in its fund; it grows by "
        "working, studying, trading, recruiting, claiming titles and fighting."
    )


@dataclass(frozen=True)
class Chapter:
    """One page of the rules: its title, the sections of rules data it explains (their house rules are
    shown with it), and its words and tables (a function of the rules)."""

    title: str
    keys: tuple[str, ...]
    blocks: Callable[[Rules], list[Block]]
    always: bool = False  # shown even without its data (the order reference comes from code)


def sections(rules: Rules) -> list[RulesSection]:
    found: list[RulesSection] = []
    for chapter in CHAPTERS:
        keys = tuple(k for k in chapter.keys if k in rules)
        if not keys and not chapter.always:
            continue
        try:
            blocks = chapter.blocks(rules)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            # The chapter's data is not in the shape read here (its file is being rewritten): the plain
            # tables of its data under the chapter's title, rather than no rules page at all.
            blocks = [b for s in generic_sections({k: rules[k] for k in keys}) for b in s.blocks]
        if blocks:
            found.append(RulesSection(chapter.title, tuple(blocks), keys=keys))
    claimed = {k for chapter in CHAPTERS for k in chapter.keys}
    rest = {k: v for k, v in rules.items() if k not in claimed and k not in (*SHARED_KEYS, *UNSHOWN)}
    return found + generic_sections(rest)


# -- names ----------------------------------------------------------------------------------------------


def tag_name(rules: Rules, tag: Any) -> str:
    """What the data calls a tag (a skill, an item, a race, a title), in words."""
    for section in ("skills", "items", "races", "titles", "structures"):
        record = (rules.get(section) or {}).get(tag)
        if isinstance(record, Mapping) and record.get("name"):
            return str(record["name"])
    return words(str(tag)).lower()


def named_tag(rules: Rules, tag: Any) -> str:
    """A tag as a player writes it in an order, after its name, as the manual prints it: "combat [cmbt]"."""
    return f"{tag_name(rules, tag)} [{tag}]"


def listed(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def stats_words(stats: Mapping[str, Any] | None) -> str:
    if not stats:
        return "—"
    return ", ".join(f"{int(v):+d} {words(k).lower()}" for k, v in stats.items())


def per_mode(values: Mapping[str, Any] | None) -> str:
    if not values:
        return "—"
    return ", ".join(f"{v} {MODE_WORDS.get(k, k)}" for k, v in values.items())


MODE_WORDS = {"walk": "walking", "ride": "riding", "sail": "sailing", "fly": "flying"}


def cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(cell(v) for v in value) or "none"
    if isinstance(value, Mapping):
        return "; ".join(f"{words(str(k)).lower()} {cell(v)}" for k, v in value.items()) or "none"
    text = str(value)
    return text.replace("_", " ") if "_" in text and " " not in text else text


def settings_table(caption: str, data: Mapping[str, Any]) -> RulesTable:
    """A mapping of numbers as a two-column table, a row a setting, nested values in one cell."""
    return RulesTable(caption, ("Setting", "Value"), tuple((words(str(k)), cell(v)) for k, v in data.items()))


# -- the month ------------------------------------------------------------------------------------------


def month_blocks(rules: Rules) -> list[Block]:
    """The month as the turn table runs it: the steps before the first day, the day's steps, and those
    after the last day, each with its summary."""
    before: list[tuple[str, str]] = []
    daily: list[tuple[str, str]] = []
    after: list[tuple[str, str]] = []
    seen_block = False
    days = int(rules.get("ticks", 1))
    for row in rules.get("turn_sequence") or ():
        if "block" in row:
            seen_block = True
            for phase in row.get("phases") or ():
                only = (phase.get("when") or {}).get("tick")
                note = f" (only on day {listed([str(t) for t in only])})" if only else ""
                daily.append((f"{phase['title']}{note}", str(phase.get("summary", ""))))
            continue
        if "engine" in row:
            continue
        (after if seen_block else before).append((str(row["title"]), str(row.get("summary", ""))))
    blocks: list[Block] = [
        f"A month runs in three parts. First the steps before day 1; then {days} days, each running the "
        "same steps in order; then the steps after the last day. The turn sequence on the rules' first "
        "page shows where the engine's own steps (the GM's rulings, missing orders, press) fall among them."
    ]
    if before:
        blocks.append(RulesTable("Before the first day", ("Step", "What happens"), tuple(before)))
    if daily:
        blocks.append(RulesTable(f"Each of the {days} days", ("Step", "What happens"), tuple(daily)))
    if after:
        blocks.append(RulesTable("After the last day", ("Step", "What happens"), tuple(after)))
    return blocks


# -- the order language ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderRow:
    keyword: str
    written: str  # an example line, as the manual writes the order
    timing: str
    who: str
    kind: str
    summary: str


def order_rows(orders: Sequence[language.Order]) -> list[OrderRow]:
    """The rows of the language's table, in words."""
    return [
        OrderRow(
            order.keyword,
            order.example,
            "half a day" if order.half_day else TIMING_WORDS.get(order.timing, str(order.timing)),
            language.WHO.get(order.who, order.who),
            order.kind,
            order.summary,
        )
        for order in sorted(orders, key=lambda order: order.keyword)
    ]


def orders_blocks(rules: Rules) -> list[Block]:
    rows = order_rows(language.UNIT_ORDERS)
    faction_rows = order_rows(language.FACTION_ORDERS)
    prose = [
        "Every unit keeps a queue of orders, one order a line in the manual's language, at most "
        f"{MAX_LINES} lines. Naming a unit in the order file replaces its whole queue; a unit not named "
        "keeps its queue, and an empty list clears it. An order that cannot run today is kept and tried "
        "again; a finished order leaves the queue. When a day has no full-day order to run, the unit works.",
        "Prefixes go before the order, in this order: `-` (one for each condition above that must be met "
        "first: the line waits until the line above it is done), `+` (an alternative, dropped as soon as a "
        "line above it runs), `@` (repeat for ever) or a number of days (`10 STUDY cmbt 1` studies ten days "
        "or until 1st level), and `Dn` (only on day n). Conditions cost no time; immediate orders run "
        "before the day's one full-day order, as often as they become possible, but each line at most once "
        "a day; travel orders take full days until the unit arrives.",
        f"The faction's own orders come first in the order file; then the {len(rows)} orders of a unit, "
        "each with an example as the manual writes it:",
    ]
    columns = ("Order", "Example", "What it does", "Takes", "Who", "Kind")

    def table(caption: str, found: list[OrderRow]) -> RulesTable:
        return RulesTable(
            caption,
            columns,
            tuple((r.keyword, r.written, r.summary, r.timing, r.who, r.kind) for r in found),
        )

    blocks: list[Block] = [*prose, table("Faction orders", faction_rows), table("Unit orders", rows)]
    spoken = rules.get("language")
    if isinstance(spoken, Mapping):
        blocks.append(
            settings_table("Order language settings", {k: v for k, v in spoken.items() if not _nested(v)})
        )
    return blocks


def _nested(value: Any) -> bool:
    return isinstance(value, Mapping) and any(isinstance(v, Mapping | list) for v in value.values())


# -- units, skills, items --------------------------------------------------------------------------------


def races_blocks(rules: Rules) -> list[Block]:
    races = rules.get("races") or {}
    economy = rules.get("economy") or {}
    blocks: list[Block] = [
        "A unit is a group of figures of one race: a hero, a leader, or followers; creatures fight for "
        "the creatures' faction. Leaders and heroes lead stacks, study more and give the orders that "
        "followers may not (trading, recruiting, claiming titles)."
    ]
    rows = tuple(
        (
            f"{race.get('name', tag)} [{tag}]",
            words(str(race.get("kind", "—"))).lower(),
            cell(race.get("weight")),
            per_mode(race.get("capacity")),
            stats_words(race.get("stats")),
            cell(race.get("upkeep", (economy.get("upkeep") or {}).get(tag))),
        )
        for tag, race in races.items()
    )
    if rows:
        blocks.append(
            RulesTable("Races", ("Race", "Kind", "Weight", "Carries", "Stats", "Upkeep a month"), rows)
        )
    stats = rules.get("unit_stats") or {}
    if stats:
        control = stats.get("control") or {}
        blocks.append(
            "Every figure starts from "
            f"{listed([f'{words(k).lower()} {v}' for k, v in (stats.get('defaults') or {}).items()])}, and "
            "nothing in the other "
            f"stats ({listed([words(n).lower() for n in stats.get('names') or ()])}). A unit costs its "
            f"faction one control point for each started {control.get('figures_per_point', '—')} figures, "
            f"one more for a hero, and one for each started {control.get('mana_per_point', '—')} points of "
            "maximum mana."
        )
    return blocks


def skills_blocks(rules: Rules) -> list[Block]:
    skills = rules.get("skills") or {}
    study = rules.get("study") or {}
    blocks: list[Block] = [
        "A unit learns a skill by studying it (`STUDY tag [level]`), a full-day order that costs the coins "
        "shown for each figure each day. Experience is counted in days; a level is reached when the days "
        "shown are gathered. A skill that requires another can be studied only once the unit has the "
        "required level of that one. Flags: basic skills start a tree; leader skills are for leaders and "
        "heroes; specialist skills need a teacher or a place that teaches them; talents are never studied."
    ]
    rows = []
    for tag, skill in skills.items():
        need = skill.get("requires")
        requires = f"{ordinal(int(need['level']))} {tag_name(rules, need['skill'])}" if need else "—"
        bonuses = skill.get("bonuses") or []
        rows.append(
            (
                named_tag(rules, tag),
                ", ".join(str(days) for days in skill.get("levels") or ()),
                cell(skill.get("cost")),
                requires,
                ", ".join(str(flag) for flag in skill.get("flags") or ()) or "—",
                stats_words(bonuses[0]) if bonuses else "—",
            )
        )
    if rows:
        blocks.append(
            RulesTable(
                "Skills",
                ("Skill", "Days to each level", "Coins a day", "Requires", "Flags", "At 1st level"),
                tuple(rows),
            )
        )
    limits = study.get("limits") or {}
    if limits:
        blocks.append(
            RulesTable(
                "The highest level each kind of unit reaches by its own study",
                ("Unit", *(words(k) for k in next(iter(limits.values())))),
                tuple((words(kind), *(cell(v) for v in row.values())) for kind, row in limits.items()),
            )
        )
    bonuses = study.get("bonuses") or {}
    spill = study.get("spill") or {}
    if bonuses:
        blocks.append(
            f"Study goes {bonuses.get('stack_leader')} % faster when a leader above the unit in its stack "
            f"knows the skill better, {bonuses.get('teaching_place')} % faster in a place that teaches it, "
            f"and {bonuses.get('teach_factor')} times as fast for up to {bonuses.get('teach_figures')} "
            "figures taught by a leader who knows it better (`TEACH`). "
            + (
                f"Each day of study also gives {spill.get('parents')} % of a day to each skill below it; "
                f"a day of `USE` gives {spill.get('use_skill')} % of a day to the skill used and "
                f"{spill.get('use_parents')} % to those below."
                if spill
                else ""
            )
        )
    return blocks


def items_blocks(rules: Rules) -> list[Block]:
    items = rules.get("items") or {}
    categories = rules.get("equipment") or {}
    blocks: list[Block] = [
        "Items are carried, given, bought and sold by their tags. An item of a category can be equipped "
        "(`EQUIP tag`) by a unit with the skill it needs; its bonuses count in proportion to the figures "
        "equipped, and a figure equips at most the number its category allows."
    ]
    rows = []
    for tag, item in items.items():
        need = item.get("equip")
        rows.append(
            (
                named_tag(rules, tag),
                cell(item.get("weight")),
                cell((categories.get(item.get("category")) or {}).get("name", item.get("category"))),
                f"{ordinal(int(need['level']))} {tag_name(rules, need['skill'])}"
                if need and int(need.get("level", 0)) > 0
                else (tag_name(rules, need["skill"]) if need else "—"),
                stats_words(item.get("bonuses")),
                per_mode(item.get("capacity")),
            )
        )
    if rows:
        blocks.append(
            RulesTable(
                "Items", ("Item", "Weight", "Category", "Equip needs", "Bonuses", "Carries"), tuple(rows)
            )
        )
    if categories:
        blocks.append(
            RulesTable(
                "Equipment categories",
                ("Category", "Items a figure may equip"),
                tuple((str(c.get("name", k)), cell(c.get("per_figure"))) for k, c in categories.items()),
            )
        )
    return blocks


def structures_blocks(rules: Rules) -> list[Block]:
    structures = rules.get("structures") or {}
    blocks: list[Block] = [
        "Structures are built by units with the building skills, from the materials shown; a completed "
        "structure shelters, defends, teaches or trades as its kind says."
    ]
    records = {k: v for k, v in structures.items() if isinstance(v, Mapping)}
    if records:
        columns: list[str] = []
        for record in records.values():
            columns += [k for k, v in record.items() if k not in (*columns, "name") and not _nested(v)]
        columns = columns[:6]
        blocks.append(
            RulesTable(
                "Structures",
                ("Structure", *(words(c) for c in columns)),
                tuple(
                    (named_tag(rules, tag), *(cell(record.get(c)) for c in columns))
                    for tag, record in records.items()
                ),
            )
        )
    others = {k: v for k, v in structures.items() if not isinstance(v, Mapping)}
    if others:
        blocks.append(settings_table("Building", others))
    return blocks


# -- titles, stances, control -----------------------------------------------------------------------------


def titles_blocks(rules: Rules) -> list[Block]:
    titles = rules.get("titles") or {}
    title_rules = rules.get("title_rules") or {}
    tiers = title_rules.get("tiers") or {}
    blocks: list[Block] = [
        "A title sits on a place. A leader or hero at that place claims it with `CLAIM tag place`, paying "
        "its cost every attempt; a title already held is won only by a challenger with more experience in "
        "its skill than the holder's share shown (the holder present, or away). A land title makes its "
        "holder's faction the owner of its place, or of every place within its range in days' walk, and "
        "brings that land's taxes. A holder who strays beyond the keep distance loses the title. Each "
        "title adds control points by its tier"
        + (f" ({listed([f'{words(t).lower()} {n}' for t, n in tiers.items()])})" if tiers else "")
        + (
            f"; a challenger's fee gives {title_rules['holder_share']} % to the holder's faction."
            if "holder_share" in title_rules
            else "."
        )
    ]
    rows = []
    for tag, title in titles.items():
        need = title.get("requirement") or {}
        challenge = title.get("challenge")
        rows.append(
            (
                f"{title.get('name', tag)} [{tag}]",
                words(str(title.get("tier", "—"))).lower(),
                f"{ordinal(int(need['level']))} {tag_name(rules, need['skill'])}" if need else "—",
                cell(title.get("cost")),
                _distance(title.get("range")),
                _distance(title.get("keep"), "anywhere"),
                f"{challenge.get('present')} % / {challenge.get('absent')} %" if challenge else "never",
            )
        )
    if rows:
        blocks.append(
            RulesTable(
                "Titles",
                ("Title", "Tier", "Needs", "Cost", "Owns", "Kept within", "Challenge: present / away"),
                tuple(rows),
            )
        )
    control = rules.get("control_points") or {}
    if control:
        blocks.append(
            f"A faction commands {control.get('base')} control points, and more for its titles and its "
            "completed key structures. A faction "
            "over its points sees some of its units idle for the month, and each of its units may refuse a "
            f"battle it is not the target of ({control.get('battle_refusal')} % a missing point)."
        )
    return blocks


def _distance(value: Any, none: str = "—") -> str:
    if value is None:
        return none
    if value == "area":
        return "its place"
    return f"{value} days"


def stances_blocks(rules: Rules) -> list[Block]:
    stances = rules.get("stances") or {}
    names = stances.get("names") or {}
    order = [str(names.get(s, words(s))) for s in stances.get("order") or ()]
    blocks: list[Block] = [
        f"Each faction holds a stance toward every other, friendliest first: {listed(order)}. `STANCE "
        "faction word` sets one, and naming your own faction sets the default toward all the others. A "
        "faction's stances are its own secret; they decide who may give to it, stack with it, trade, "
        f"recruit and pass where it owns or guards, and whom its units attack on sight. New factions "
        f"start {names.get(stances.get('default'), stances.get('default'))} toward everyone."
    ]
    gates = stances.get("gates") or {}
    if gates:
        blocks.append(
            RulesTable(
                "What each action needs of the faction that allows it",
                ("Action", "Least stance"),
                tuple(
                    (words(action), str(names.get(need, need)) if need else "nobody is refused")
                    for action, need in gates.items()
                ),
            )
        )
    return blocks


# -- money, markets, movement, combat, press -------------------------------------------------------------


def economy_blocks(rules: Rules) -> list[Block]:
    economy = rules.get("economy") or {}
    # Upkeep per race is the races chapter's; the followers, leaders and heroes a player recruits first.
    races = rules.get("races") or {}
    upkeep = {tag: race["upkeep"] for tag, race in races.items() if tag in ("man", "ldr", "hero")}
    words_of_upkeep = [f"{v} for a {tag_name(rules, k)}" for k, v in upkeep.items()]
    return [
        f"Every figure costs its upkeep each month ({listed(words_of_upkeep)}), times "
        f"{economy.get('winter_factor')} in winter. It is paid from the unit's coins, then from other units "
        "of the faction at the same place, then from the faction's fund. A unit left unpaid grows restless; "
        f"unpaid {economy.get('desert_after')} months running it deserts. A unit that works earns the "
        "place's monthly wage for each figure, in proportion to the days it worked, paid after the last "
        "day if it still stands where it worked. `WITHDRAW` takes coins from the fund only in a "
        f"{listed([str(p) for p in economy.get('withdraw_places') or ()])}.",
        settings_table("Money", dict(economy)),
    ]


def markets_blocks(rules: Rules) -> list[Block]:
    markets = rules.get("markets") or {}
    recruiting = rules.get("recruiting") or {}
    blocks: list[Block] = [
        f"A {listed([str(k) for k in markets.get('kinds') or ()])} holds a market. Leaders bid (`BUY n tag "
        "price`) and offer (`SELL n tag price`) with the coins and goods they carry; on market days (days "
        f"{listed([str(d) for d in markets.get('days') or ()])}) each good is settled by one call auction at "
        "the price that trades the most, and an order partly filled stays with what is left. Recruits "
        "(`RECRUIT unit n race price`) join at the end of the day, at the listed price or more."
    ]
    goods = markets.get("goods") or {}
    if goods:
        blocks.append(
            RulesTable(
                "Goods the markets deal in",
                ("Good", "The market", "Base price", "Stock per 10,000 coins of taxes"),
                tuple(
                    (
                        named_tag(rules, tag),
                        "sells it" if good.get("side") == "sell" else "buys it",
                        cell(good.get("price")),
                        cell(good.get("per_10000_taxes")),
                    )
                    for tag, good in goods.items()
                ),
            )
        )
    races = recruiting.get("races") or {}
    if races:
        blocks.append(
            RulesTable(
                "Recruits",
                ("Race", "Price", "Lowest price", "Offered"),
                tuple(
                    (
                        f"{race.get('plural', race.get('name', tag))} [{tag}]",
                        cell(race.get("price")),
                        cell(race.get("floor")),
                        _offered(rules, race),
                    )
                    for tag, race in races.items()
                ),
            )
        )
    drift = markets.get("drift") or {}
    if drift:
        blocks.append(settings_table("How market prices move each month", drift))
    places = rules.get("places") or {}
    if places.get("wages"):
        wages = places["wages"]
        blocks.append(
            f"A place's wage is {wages.get('top')} coins a month, one less for every "
            f"{wages.get('heads_per_coin')} heads, never below {wages.get('least')}; its tax pool is "
            f"{places.get('taxes_per_head')} coins a head."
        )
    return blocks


def _offered(rules: Rules, race: Mapping[str, Any]) -> str:
    if "drawn_by" in race:  # a check of the rules data: the first row's chance, at the kinds of place named
        check = (rules.get("checks") or {}).get(race["drawn_by"]) or {}
        chance = (check.get("table") or [{}])[0].get("up_to")
        where = listed([str(kind) for kind in race.get("kinds") or ()]) or "place"
        return f"{chance} % chance a month in each {where}" if chance is not None else "—"
    if "percent_of_population" in race:
        return f"{race['percent_of_population']} % of the population each month"
    if "by_population" in race:
        return "; ".join(f"{row['count']} from {row['from']} people" for row in race["by_population"])
    if "chance_percent" in race:
        return f"{race['chance_percent']} % chance a month"
    return "—"


def movement_blocks(rules: Rules) -> list[Block]:
    movement = rules.get("movement") or {}
    overload = movement.get("overload") or {}
    blocks: list[Block] = [
        "`MOVE` and `MARCH` take a stack to a neighbouring territory (by direction: N, NE, SE, S, SW, NW), "
        "into a place inside the territory (by its id) or `Out` of it. A leg takes the days the map gives "
        "for walking, fewer riding when every figure rides, and more in bad weather. Half-way there the "
        "stack counts as standing at its destination. A stack heavier than it can carry walks "
        f"{overload.get('factor')} times its excess slower, and cannot set out at "
        f"{overload.get('refuse_at_excess_percent')} % excess or on a leg longer than "
        f"{overload.get('max_days')} days."
    ]
    travel = rules.get("travel")
    if isinstance(travel, Mapping):
        blocks.append(settings_table("Travel", {k: v for k, v in travel.items()}))
    weather = rules.get("weather")
    if isinstance(weather, Mapping):
        blocks.append(settings_table("Weather", weather))
    return blocks


def world_blocks(rules: Rules) -> list[Block]:
    geography = rules.get("geography") or {}
    walking = geography.get("walking") or {}
    days = [
        f"{terrain} {d} days" if d is not None else f"{terrain} impassable" for terrain, d in walking.items()
    ]
    blocks: list[Block] = [
        "The world is a map of hex territories, each of one terrain; cities, villages and towers stand "
        "inside them as places of their own, entered and left in a day. The Imperial lands lie around the "
        "capital; the frontier beyond is colonial. Walking from one territory to the next takes "
        f"{listed(days)}, a road saving {geography.get('road_saving')} days; water is crossed only by ship."
    ]
    blocks.append(settings_table("The map", {k: v for k, v in geography.items() if not _nested(v)}))
    return blocks


def magic_blocks(rules: Rules) -> list[Block]:
    magic = rules.get("magic") or {}
    regeneration = magic.get("regeneration") or {}
    effects = rules.get("effects") or {}
    blocks: list[Block] = [
        f"A mage regains {regeneration.get('mana')} mana every {regeneration.get('every')} days up to its "
        "maximum, which grows with its magic skills. Spells are skills used with `USE`, on the target "
        "set by `TARGET`; an enchantment lasts a number of days and then fades."
    ]
    blocks.append(settings_table("Magic", {k: v for k, v in magic.items() if not _nested(v)}))
    if effects:
        blocks.append(
            RulesTable(
                "Enchantments",
                ("Enchantment", "What it does"),
                tuple(
                    (str(effect.get("name", tag)), cell({k: v for k, v in effect.items() if k != "name"}))
                    for tag, effect in effects.items()
                ),
            )
        )
    return blocks


def production_blocks(rules: Rules) -> list[Block]:
    production = rules.get("production") or {}
    return [
        "A unit with a craft or a gathering skill uses it (`USE tag [products]`), a full day at a time: "
        "gatherers share the place's monthly resources, crafters turn materials into goods once enough "
        "man-days are done; work in hand is lost if the unit moves away." + _taxing_sentence(rules),
        settings_table("Production", production),
    ]


def _taxing_sentence(rules: Rules) -> str:
    """USE of the tax-collecting skills, from their `use:` blocks (taxing.py), and what USE refuses."""
    collectors = [
        (tag, skill["use"])
        for tag, skill in (rules.get("skills") or {}).items()
        if ((skill or {}).get("use") or {}).get("kind") == "tax"
    ]
    said = [
        f" A tax collector (`USE {tag} [coins]`) takes {plural(int(use.get('coin', 0)), 'coin')} a day for "
        "each figure and level of the skill from its place's tax pool, where the most local land title "
        "is its faction's or an ally's and no other faction occupies the place; pillagers take theirs "
        "first, and the owner's fund receives what is left at the month's end."
        for tag, use in collectors
    ]
    return "".join(said) + " `USE` of a skill that has no use is refused when the orders are checked."


def combat_blocks(rules: Rules) -> list[Block]:
    combat = rules.get("combat") or {}
    strike = combat.get("strike") or {}
    deadly = combat.get("deadly") or {}
    morale = combat.get("morale") or {}
    blocks: list[Block] = [
        "A battle is fought on a grid of ranks and files, each unit placed by its `TACTIC`. In each round "
        "units act in order of initiative. A figure lands a blow "
        f"{strike.get('base')} % of the time, {strike.get('per_melee')} % more a point of melee; a blow "
        "that beats the defence is deadly, otherwise deadly "
        f"{deadly.get('base')} % of the time plus {deadly.get('per_combat_level')} % a level of combat. A "
        f"side that has lost {morale.get('casualties')} % of its figures checks its morale each round. The "
        f"battle ends when a side is gone or routs, after {combat.get('quiet_rounds')} rounds without a "
        f"blow, or after {combat.get('max_rounds')} rounds; the winners share {combat.get('loot_share')} % "
        "of the fallen's goods."
    ]
    flat = {k: v for k, v in combat.items() if not isinstance(v, Mapping)}
    if flat:
        blocks.append(settings_table("Combat", flat))
    return blocks


def warfare_blocks(rules: Rules) -> list[Block]:
    warfare = rules.get("warfare") or {}
    keep_out = [str(word).upper() for word in warfare.get("sight_keeps_out") or ()]
    return [
        "A battle starts when a unit ATTACKs another present, when a faction's unit sees a unit of a "
        f"faction it holds Enemy (unless set to {listed(keep_out) or 'stay out'}), or when a guard stops "
        "an arrival. The army's tactics level is its best in "
        f"{tag_name(rules, warfare.get('tactics_skill'))}; any level of "
        f"{tag_name(rules, warfare.get('strategy_skill'))} keeps the tactical advantage all battle.",
        settings_table("Who fights", {k: v for k, v in warfare.items() if not _nested(v)}),
    ]


def battle_reports_blocks(rules: Rules) -> list[Block]:
    """Who is told of a battle and how much (spectators.py, battle_lore.py)."""
    reports = rules.get("battle_reports") or {}
    watching = reports.get("spectators") or {}
    lore = reports.get("lore") or {}
    where = "standing in the place or passing through it" if watching.get("passing") else "standing there"
    kinds = listed([str(flag) for flag in lore.get("skill_flags") or ()])
    return [
        "Each faction that fought gets its report of the battle: every round blow by blow, or with the "
        "TERSE setting a summary of each round. A faction with units "
        f"{where} that took no part watches: its short report names only the fighters its units could "
        "see, their size and race (and their faction where it recognises them), which side won after how "
        "many rounds, and the losses it saw.",
        "A full report to a faction with a unit still standing ends with a description of each race, worn "
        f"item and battle skill ({kinds} skills, those that raise a stat, and the skills of tactics, "
        "strategy and fanaticism) used on either side that it has not had described before; each is "
        "described once.",
    ]


def bands_blocks(rules: Rules) -> list[Block]:
    bands = [band for band in rules.get("npc_bands") or () if isinstance(band, Mapping)]
    if not bands:
        return []
    return [
        "The server's outlaws and creatures start as bands near the start cities, roaming and fighting:",
        RulesTable(
            "Bands at the start",
            ("Band", "Faction", "Figures", "Race", "Coins"),
            tuple(
                (
                    str(band.get("name")),
                    str(((rules.get("npc_factions") or {}).get(band.get("faction")) or {}).get("name", "")),
                    cell(band.get("figures")),
                    tag_name(rules, band.get("race")),
                    cell(band.get("coins")),
                )
                for band in bands
            ),
        ),
    ]


POSTS = {
    "imperial_city": "the Imperial City",
    "capital": "the Imperial City's territory",
    "border_cities": "each border city",
}


def posts_blocks(rules: Rules) -> list[Block]:
    """The imperials' and the citizens' standing units, their treasuries and whether their land pays them."""
    posts = [post for post in rules.get("npc_posts") or () if isinstance(post, Mapping)]
    factions = rules.get("npc_factions") or {}

    def faction_name(faction: Any) -> str:
        return str((factions.get(faction) or {}).get("name") or words(str(faction)))

    blocks: list[Block] = []
    if posts:
        blocks += [
            "The Emperor and his guards, and the citizens' militia, stand at their posts from the start: "
            "they guard them, and one driven off walks back.",
            RulesTable(
                "Standing units at the start",
                ("Unit", "Faction", "Figures", "Race", "Post", "Title held"),
                tuple(
                    (
                        str(post.get("name")).replace("{place}", "(its city's name)"),
                        faction_name(post.get("faction")),
                        cell(post.get("figures")),
                        tag_name(rules, post.get("race")),
                        POSTS.get(str(post.get("post")), words(str(post.get("post")))),
                        tag_name(rules, post["title"]) if post.get("title") else "—",
                    )
                    for post in posts
                ),
            ),
        ]
    funds = rules.get("npc_funds") or {}
    if funds:
        treasuries = listed([f"{cell(coins)} coins for {faction_name(f)}" for f, coins in funds.items()])
        blocks.append(f"Their treasuries at the start, which pay those units' upkeep: {treasuries}.")
    if "npc_levy" in rules:
        blocks.append(
            "Land the server's factions hold by a title pays them taxes like anyone's."
            if rules["npc_levy"]
            else "Land the server's factions hold by a title pays them no taxes."
        )
    return blocks


def press_blocks(rules: Rules) -> list[Block]:
    press = rules.get("press_rewards") or {}
    return [
        f"A signed article in the newspaper earns its faction {press.get('signed')} coins and a rumour "
        f"{press.get('rumor')}, paid into the fund before the next month begins; a month's writing earns "
        f"at most {press.get('cap')} coins however much is written."
    ]


def guarding_blocks(rules: Rules) -> list[Block]:
    guarding = rules.get("guarding") or {}
    skill = guarding.get("skill") or {}
    return [
        f"A unit with {ordinal(int(skill.get('level', 1)))} {tag_name(rules, skill.get('skill', 'cmbt'))} "
        "whose faction holds a title over the place may `GUARD` it: it stops arrivals its faction does not "
        "let pass and works at half the pace while it guards."
    ]


def start_blocks(rules: Rules) -> list[Block]:
    start = rules.get("start") or {}
    npcs = rules.get("npc_factions") or {}
    blocks: list[Block] = []
    if npcs:
        blocks.append(
            "Besides the players, the server plays "
            f"{listed([str(n.get('name', k)) for k, n in npcs.items()])}."
        )
    if start:
        blocks.append(settings_table("The start", {k: v for k, v in start.items() if k != "hero_names"}))
    return blocks


def joined(
    *parts: tuple[str | None, tuple[str, ...], Callable[[Rules], list[Block]]],
) -> Callable[[Rules], list[Block]]:
    """Several topics on one page, each under a small heading of its own where its data is present: a
    page a topic would make a navigation too long for a laptop's screen."""

    def blocks(rules: Rules) -> list[Block]:
        found: list[Block] = []
        for heading, keys, part in parts:
            if keys and not any(key in rules for key in keys):
                continue
            told = part(rules)
            if told and heading:
                found.append(f"## {heading}")
            found += told
        return found

    return blocks


CHAPTERS: tuple[Chapter, ...] = (
    Chapter("The month", ("turn_sequence",), month_blocks, always=True),
    Chapter("The order language", ("language",), orders_blocks, always=True),
    Chapter(
        "Factions: the start, stances and the newspaper",
        (
            "start",
            "npc_factions",
            "stances",
            "press_rewards",
            "npc_bands",
            "npc_posts",
            "npc_funds",
            "npc_levy",
        ),
        joined(
            ("The start", ("start", "npc_factions"), start_blocks),
            ("Stances", ("stances",), stances_blocks),
            ("The newspaper", ("press_rewards",), press_blocks),
            ("Bands the server plays", ("npc_bands",), bands_blocks),
            ("Standing units the server plays", ("npc_posts", "npc_funds", "npc_levy"), posts_blocks),
        ),
    ),
    Chapter("Units and races", ("races", "unit_stats"), races_blocks),
    Chapter("Skills and study", ("skills", "study"), skills_blocks),
    Chapter("Items and equipment", ("items", "equipment"), items_blocks),
    Chapter(
        "Titles, control points and guarding",
        ("titles", "title_rules", "control_points", "taxation", "guarding"),
        joined(
            (None, ("titles",), titles_blocks),
            ("Guarding", ("guarding",), guarding_blocks),
        ),
    ),
    Chapter(
        "Money, markets and recruiting",
        ("economy", "markets", "recruiting", "places", "checks"),
        joined(
            ("Wages and upkeep", ("economy",), economy_blocks),
            # The checks' one table is the chance of a hero for hire, told in the recruits' table.
            ("Markets and recruiting", ("markets", "recruiting", "places", "checks"), markets_blocks),
        ),
    ),
    Chapter(
        "The world, movement and weather",
        ("geography", "movement", "travel", "weather"),
        joined(
            (None, ("geography",), world_blocks),
            ("Movement and weather", ("movement", "travel", "weather"), movement_blocks),
        ),
    ),
    Chapter(
        "Production, structures and magic",
        ("production", "structures", "magic", "effects"),
        joined(
            ("Production and harvest", ("production",), production_blocks),
            ("Structures", ("structures",), structures_blocks),
            ("Magic and enchantments", ("magic", "effects"), magic_blocks),
        ),
    ),
    Chapter(
        "Combat",
        ("combat", "warfare", "battle_reports"),
        joined(
            (None, ("combat",), combat_blocks),
            ("Who fights", ("warfare",), warfare_blocks),
            ("Battle reports", ("battle_reports",), battle_reports_blocks),
        ),
    ),
)
