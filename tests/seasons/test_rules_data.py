"""The seed's tables as rules data, row by row (the scenarios under tests/scenarios/seasons roll them
in play) and the army-type table: what a roll of each number of successes (or each total) reads."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from resolver.core.checks import Check
from resolver.core.rulesdoc import RulesTable
from resolver.rulesets.seasons import RULESET
from resolver.rulesets.seasons.naming import label

RULES = RULESET.default_rules()

ROWS = {
    "retreat": [(-1, "disband"), (0, "disband"), (1, "below_elite_disband"), (2, "retreat"), (5, "retreat")],
    "staying_at_war": [(0, "disband"), (1, "veterans_may_join"), (2, "veterans_to_capital")],
    "siege": [(0, "disbanded"), (1, "morale_down"), (2, "steady"), (3, "steady")],
    "movement": [(0, "both_attack"), (1, "attacks_defender_may_take"), (2, "attacks_may_retreat")],
    "ambush": [(0, "no_ambush"), (1, "ambush")],
    "marshal_fate_won": [
        (0, "recovers_in_seasons"),
        (1, "wounded_minus_wr"),
        (2, "recovered"),
        (3, "recovered"),
    ],
    "marshal_fate_lost": [(0, "died"), (1, "captured_wounded"), (2, "captured"), (3, "escaped")],
    "marshal_attribute": [(2, "weakness"), (4, "weakness"), (5, "strength"), (12, "strength")],
    "weakness": [
        (2, "temerity"),
        (5, "poor_charisma"),
        (7, "undecided"),
        (10, "coward"),
        (12, "never_ready"),
    ],
    "strength": [(3, "logistic_or_courage"), (7, "charisma"), (11, "minor_weapon"), (18, "lucky")],
}


@pytest.mark.parametrize(
    ("check_id", "total", "result"),
    [(c, t, r) for c, rows in ROWS.items() for t, r in rows],
)
def test_table_rows(check_id: str, total: int, result: str) -> None:
    assert Check.from_rules(RULES, check_id).row(total).result == result


def test_every_test_of_the_seed_counts_dice_showing_one_to_three() -> None:
    counted = [c for c, data in RULES["checks"].items() if data.get("read") == "successes"]
    assert {"disband", "trade", "will_to_fight", "retreat", "siege", "loot", "foraging", "recovery"} <= set(
        counted
    )
    assert all(RULES["checks"][c]["success"] == "<=3" for c in counted if c != "will_to_fight")


def test_modifiers_of_the_unautomated_tests_are_in_the_rules_data() -> None:
    assert RULES["checks"]["retreat"]["modifiers"] == {"offensive_unit": -1, "defensive_unit": 1}
    effects = RULES["attribute_effects"]
    assert {"check": "retreat", "modifier": -1} in effects["temerity"]
    assert {"check": "retreat", "modifier": 1} in effects["coward"]
    assert RULES["checks"]["siege"]["modifiers"] == {"siege_skill": 1, "winter": -1, "summer": 1}


def test_the_army_type_table_by_column() -> None:
    check = Check.from_rules(RULES, "army_type")
    columns = {face: {c: check.row(face).get(c) for c in "ABCD"} for face in range(1, 7)}
    assert columns[1] == {"A": "PC", "B": "DE", "C": "PC", "D": "FF"}
    assert columns[4] == {"A": "PC", "B": "FF", "C": "HA", "D": "CA"}
    assert columns[6] == {"A": "EF", "B": "EF", "C": "CA", "D": "EF"}


def test_the_rules_page_has_a_row_for_every_attribute_effect() -> None:
    """The attribute effects are a table of their own (attribute, check, modifier, when), not the
    generic page's flattened settings, with one row per effect and every attribute present."""
    rules = RULESET.default_rules()
    game = SimpleNamespace(rules=rules)
    [section] = [s for s in RULESET.rules_sections(game) if s.keys == ("attribute_effects",)]
    [table] = [block for block in section.blocks if isinstance(block, RulesTable)]
    assert table.columns == ("Attribute", "Check it changes", "Modifier", "When")
    effects = rules["attribute_effects"]
    assert len(table.rows) == sum(len(listed) for listed in effects.values())
    # named as the sentences name them (result_names: Friendly with foe's foe), else the id's words
    assert [row[0] for row in table.rows] == [
        label(rules, a) for a, listed in effects.items() for _ in listed
    ]
    assert ("Attack expert", "Melee attack", "+1", "when his army attacks, his own unit only") in table.rows
    assert ("Ever ready", "Ambush (the enemy's test)", "-1", "always") in table.rows
    assert ("Coward", "Melee attack", "-1", "once half his army has routed, his own unit only") in table.rows
    changed = {**rules, "attribute_effects": {"scout": [{"check": "movement", "modifier": 2}]}}
    sections = RULESET.rules_sections(SimpleNamespace(rules=changed))
    [section] = [s for s in sections if s.keys == ("attribute_effects",)]
    assert section.blocks[1].rows == (("Scout", "Movement", "+2", "always"),)  # read from the rules data
