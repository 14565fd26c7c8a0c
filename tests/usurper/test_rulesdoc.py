"""The usurper rules pages: a section per chapter of the game, written from the rules data (a number changed
in the data changes the page), names where the data has ids, every house rule shown, and a chapter whose
data is missing or not in the expected shape never breaks the page."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from resolver import workflow
from resolver.core.rulesdoc import RulesTable, filled_notes
from resolver.engine.ruleset import get_ruleset
from resolver.publish.site import build_site
from resolver.rulesets.usurper import rulesdoc

# A chapter's data in the shapes the chapters' files use: a check of named bands, a mapping of records
# with nested records (rooms and their renovations), a list of records, settings.
CHAPTERS_DATA: dict[str, Any] = {
    "checks": {
        "action": {
            "dice": "1d100",
            "explode": {"at": 96},
            "modifiers": {"leader_presence": 25, "overwhelm": 4},
            "table": [
                {"up_to": 25, "result": "complete_failure", "name": "Complete Failure"},
                {"min": 26, "max": 49, "result": "partial_failure", "name": "Partial Failure"},
                {"min": 50, "max": 74, "result": "partial_success", "name": "Partial Success"},
                {"min": 75, "result": "success", "name": "Success"},
            ],
        }
    },
    "action_roll": {
        "chain": True,
        "first_month": {"explode": False, "floor": "partial_success"},
        "complete_failure_obscurity": 1,
        "partial_failure_memory_weeks": 3,
    },
    "rooms": {
        "throne": {
            "name": "Throne Room",
            "gives": {"morale": 3},
            "renovations": {"inspiring_banner": {"name": "Inspiring Banner", "tier": "basic", "limit": 4}},
        },
        "barracks": {"name": "Barracks", "gives": {"units": 1}, "renovations": {}},
    },
    "qualities": [
        {"id": "standard", "name": "Standard", "bonus": 0},
        {"id": "mild", "name": "Mild", "bonus": 1},
    ],
    "house_rules": [
        {"rule": "rooms.throne", "text": "A lair has one throne room, giving {rooms.throne.gives.morale}."}
    ],
}


def rules_with(**parts: Any) -> dict[str, Any]:
    rules = get_ruleset("usurper").default_rules()
    for key, value in parts.items():
        if key == "house_rules":
            rules["house_rules"] = [*rules.get("house_rules", []), *value]
        elif key == "checks":
            rules["checks"] = {**rules.get("checks", {}), **value}
        else:
            rules[key] = copy.deepcopy(value)
    return rules


def text_of(section: Any) -> str:
    parts = []
    for block in section.blocks:
        if isinstance(block, RulesTable):
            parts += [block.caption, *block.columns, *(str(cell) for row in block.rows for cell in row)]
        else:
            parts.append(block)
    return " | ".join(parts)


def by_title(rules: dict[str, Any]) -> dict[str, tuple[Any, bool]]:
    return {section.title: (section, fell) for section, fell in rulesdoc.chapter_sections(rules)}


def test_the_shipped_rules_data_renders_every_chapter_it_holds_without_falling_back() -> None:
    """Whatever chapter files the ruleset ships, each chapter reads its own data as it is shaped."""
    rules = get_ruleset("usurper").default_rules()
    titles = {chapter.title for chapter in rulesdoc.CHAPTERS}
    shown = rulesdoc.chapter_sections(rules)
    assert shown
    for section, fell in shown:
        if section.title in titles:
            assert not fell, section.title


def test_each_chapter_reads_its_numbers_and_names_from_the_data() -> None:
    rules = rules_with(**CHAPTERS_DATA)
    sections = by_title(rules)
    dice, fell = sections["Dice and bands"]
    assert not fell
    words = text_of(dice)
    assert "A d100 showing 96 or more is rolled again" in words
    assert "reads no worse than Partial Success" in words
    assert "+25 leader presence" in words and "Complete Failure" in words
    rooms, fell = sections["Rooms and renovations"]
    assert not fell
    tables = [b for b in rooms.blocks if isinstance(b, RulesTable)]
    assert tables[0].rows[0][0] == "Throne Room"
    assert any(
        t.caption == "Rooms: Throne Room, renovations" and t.rows[0][0] == "Inspiring Banner" for t in tables
    )
    items, _ = sections["Items and the market"]
    qualities = next(b for b in items.blocks if isinstance(b, RulesTable) and b.caption == "Qualities")
    assert [row[0] for row in qualities.rows] == ["Standard", "Mild"]
    # A number changed in the data changes the page.
    rules["checks"]["action"]["explode"]["at"] = 91
    rules["start"]["gold"] = 250
    assert "A d100 showing 91 or more" in text_of(by_title(rules)["Dice and bands"][0])
    assert "starts with 250 gold" in rulesdoc.introduction(rules)


def test_readers_see_no_snake_case_id_in_a_chapters_words_or_cells() -> None:
    rules = rules_with(**CHAPTERS_DATA)
    for section, _ in rulesdoc.chapter_sections(rules):
        for block in section.blocks:
            cells = (
                [str(cell) for row in block.rows for cell in row] + list(block.columns)
                if isinstance(block, RulesTable)
                else [re.sub(r"`[^`]*`", "", block)]  # an order's field names are written as code
            )
            for cell in cells:
                assert not re.search(r"\b[a-z]+_[a-z_]+\b", cell), (section.title, cell)


def test_a_missing_chapter_is_left_out_and_a_misshapen_one_falls_back_to_plain_tables() -> None:
    rules = rules_with(**CHAPTERS_DATA)
    [rooms] = [chapter for chapter in rulesdoc.CHAPTERS if chapter.title == "Rooms and renovations"]
    for key in rooms.keys:
        rules.pop(key, None)
    assert "Rooms and renovations" not in by_title(rules)
    rules["action_roll"] = {"first_month": {"floor": None, "explode": 3}}  # a floor the prose cannot name
    rules["action_roll"]["first_month"] = "not a mapping"
    section, fell = by_title(rules)["Dice and bands"]
    assert fell
    assert any(isinstance(b, RulesTable) for b in section.blocks)


def test_every_house_rule_shows_in_its_chapter_and_in_the_list(tmp_path: Path) -> None:
    """Each chapter claims its data's paths, so a note on them is printed there; the list has them all."""
    rules = rules_with(**CHAPTERS_DATA)
    sections = [section for section, _ in rulesdoc.chapter_sections(rules)]
    for note in filled_notes(rules):
        rule = str(note["rule"])
        top = rule.split(".")[0]
        owners = [s for s in sections if any(rule == k or rule.startswith(k + ".") for k in s.keys)]
        claimed = any(top in chapter.keys for chapter in rulesdoc.CHAPTERS)
        if claimed:
            assert owners, rule
    root = tmp_path / "c"
    workflow.new_campaign(root, "usurper", 3, workflow.default_factions(2, 3))
    build_site(root, None, run_mkdocs=False)
    listed = (root / "site" / "rules" / "house-rules.md").read_text(encoding="utf-8")
    # The rules run to a page a chapter; the Orders chapter carries its house rules with it.
    page = (root / "site" / "rules" / "chapters" / "orders.md").read_text(encoding="utf-8")
    index = (root / "site" / "rules" / "index.md").read_text(encoding="utf-8")
    shipped = filled_notes(get_ruleset("usurper").default_rules())
    assert shipped
    for note in shipped:
        assert note["rule"] in listed
    assert "# Orders" in page and "A usurper campaign is sealed unless the GM opened it" in page
    assert "- [Orders](chapters/orders.md)" in index


@pytest.mark.parametrize("gold", [100, 175])
def test_the_introduction_follows_the_start(gold: int) -> None:
    rules = get_ruleset("usurper").default_rules()
    rules["start"]["gold"] = gold
    assert f"starts with {gold} gold" in rulesdoc.introduction(rules)


def test_every_house_rule_of_the_shipped_data_has_its_numbers_filled_in() -> None:
    """A house rule names its numbers by their place in the data, a list's entries by number from 0
    (``{combat.replacements.0.gold}``); a reader never sees a blank left in braces."""
    rules = get_ruleset("usurper").default_rules()
    for note in filled_notes(rules):
        assert not re.search(r"\{[a-z_][a-z0-9_.]*\}", note["text"]), (note["rule"], note["text"])
    (replacements,) = [n for n in filled_notes(rules) if n["rule"] == "combat.replacements"]
    assert f"level 1 ({rules['combat']['replacements'][0]['gold']} gold, no wait)" in replacements["text"]


def test_a_label_the_resolver_fills_in_reads_with_an_example_in_its_blank() -> None:
    """The ledger's names of a roll's sources ("{item} quality") show on the rules page with an example
    name in the blank, never the blank itself."""
    rules = get_ruleset("usurper").default_rules()
    names = rulesdoc.NameBook.of(rules)
    assert names.cell("{item} quality") == "e.g. Hammers quality"
    assert names.cell("{race}") == "e.g. Dwarves"
    assert names.cell("{extra} (Extra)") == "the extra's name (Extra)"
    for section, _ in rulesdoc.chapter_sections(rules):
        assert "{" not in text_of(section), section.title


def test_no_column_heading_is_a_phrase() -> None:
    """A heading is a name or a field in words, never the description another section gives an id of the
    same spelling ("an Extra who offers to join" over the renovations' ``extra``)."""
    rules = get_ruleset("usurper").default_rules()
    for section, _ in rulesdoc.chapter_sections(rules):
        for block in section.blocks:
            if isinstance(block, RulesTable):
                for heading in block.columns:
                    named = heading[:1].isupper() and len(heading.split()) <= 4
                    assert heading == "#" or named, (block.caption, heading)


def test_the_rarer_fields_of_a_wide_table_share_one_column() -> None:
    """Records of many kinds (racial abilities, each with numbers of its own) make one table of the fields
    most have, and one column, Other, for the rest of each."""
    records = {f"gift_{i}": {"name": f"Gift {i}", "text": "does a thing", f"field_{i}": i} for i in range(9)}
    table = rulesdoc.record_table("Gifts", records, rulesdoc.NameBook())
    assert table.columns == ("Name", "Text", "Other")
    assert table.rows[3] == ("Gift 3", "does a thing", "Field 3: 3")


def test_a_few_records_with_nothing_in_common_are_a_table_each() -> None:
    value = {"sizes": {"poor": "Poor", "grand": "Grand"}, "directions": {"north": "north", "here": "here"}}
    tables = rulesdoc.data_blocks("Names", value, rulesdoc.NameBook())
    assert [t.caption for t in tables] == ["Names: Sizes", "Names: Directions"]
    assert all(t.columns == ("Setting", "Value") for t in tables)


def test_the_rules_data_holds_no_prose_read_as_a_key() -> None:
    """Unquoted YAML text with a comma in a flow mapping splits into a key of prose with no value."""

    def keys(value: Any, path: str) -> list[str]:
        if isinstance(value, dict):
            return [
                found
                for key, item in value.items()
                for found in ([f"{path}.{key}"] if " " in str(key) and item is None else [])
                + keys(item, f"{path}.{key}")
            ]
        if isinstance(value, list):
            return [found for i, item in enumerate(value) for found in keys(item, f"{path}[{i}]")]
        return []

    assert keys(get_ruleset("usurper").default_rules(), "rules") == []
