"""Issue 23: every gap, contradiction and unfinished part the spec lists in its Appendix A has a decision in
the rules data, explained by a house rule that the rules pages show; what only a GM can decide has a GM
order the GM can write.

``GAPS`` is the table: each item of A.1 (1-9), A.2 (1-25) and A.3 (1-18), the rules-data paths that hold
its decision, the house rules (their ``rule:`` paths) that say why, and the GM order where the item is
the GM's. ``UNDECIDED`` names what no data decides yet, so the table never hides it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from resolver import workflow
from resolver.engine.gm import actions as gm_actions
from resolver.engine.ruleset import get_ruleset
from resolver.publish.site import build_site
from resolver.store.store import Store

# (item, what it is, rules-data paths of the decision, house rules, GM order or None)
GAPS: list[tuple[str, str, list[str], list[str], str | None]] = [
    # A.1 unfinished in the seed
    (
        "A.1.1",
        "weighted generation",
        ["terrain_traits", "scouting.findings"],
        ["terrain_traits", "scouting.findings"],
        None,
    ),
    (
        "A.1.2",
        "Strategy out-rolling bonus",
        ["checks.strategy", "combat.strategy"],
        ["checks.strategy"],
        None,
    ),
    ("A.1.3", "Recon", ["scouting.spy_tiers"], ["scouting.spy_tiers"], None),
    ("A.1.4", "spells' full text", ["spells"], ["spells", "spells.silver_tongue", "items.bugle"], None),
    ("A.1.5", "the traits diagram", ["terrain_traits", "traits"], ["terrain_traits"], None),
    ("A.1.6", "titles", ["titles"], ["titles"], "grant_title"),
    (
        "A.1.7",
        "Legendary Foes and NPC units",
        ["difficulty.tiers"],
        ["difficulty.tiers", "unique_units"],
        "forces",
    ),
    (
        "A.1.8",
        "artifacts",
        ["scoring.mysterium.artifact_default_rank"],
        ["scoring.mysterium.artifact_default_rank"],
        "grant_artifact",
    ),
    ("A.1.9", "Unique Units", ["unique_units.traits"], ["unique_units.traits"], "grant_unique_unit"),
    # A.2 missing numbers or procedures
    (
        "A.2.1",
        "starting rooms, map size",
        ["start", "new_lair.rooms", "world"],
        ["start", "new_lair.rooms", "world"],
        None,
    ),
    (
        "A.2.2",
        "movement, leader speed, carrying",
        ["leader_speed", "items.donkey.overland"],
        ["leader_speed", "items.donkey"],
        None,
    ),
    ("A.2.3", "chained explosions", ["action_roll.chain"], ["action_roll.chain"], None),
    (
        "A.2.4",
        "Morale above 149, Loyalty above 100, Bugrem",
        ["checks.morale", "checks.loyalty", "ritual.loyalty_pass"],
        ["checks.morale", "checks.loyalty", "ritual.loyalty_pass"],
        None,
    ),
    (
        "A.2.5",
        "which lair on CF, who on Legendary",
        ["action_roll.complete_failure_obscurity", "action_roll.legendary_obscurity"],
        ["action_roll.complete_failure_obscurity", "action_roll.legendary_obscurity"],
        None,
    ),
    (
        "A.2.6",
        "kind of finding, base ambush",
        ["scouting.findings", "scouting.ambush"],
        ["scouting.findings", "scouting.ambush"],
        None,
    ),
    (
        "A.2.7",
        "encounters, their rewards, PvP XP",
        ["combat.encounters", "combat.rewards.gold_per_unit", "combat.xp"],
        ["combat.encounters", "combat.rewards.gold_per_unit", "combat.xp", "contact.outcomes"],
        None,
    ),
    (
        "A.2.8",
        "ranged rounds, Tactics, Strategy die",
        ["combat.ranged_rounds", "checks.strategy.dice"],
        ["combat.ranged_rounds", "checks.strategy"],
        None,
    ),
    (
        "A.2.9",
        "melee targets, Morale timing, attacks",
        ["combat.melee_rounds"],
        ["combat.melee_rounds", "combat.morale_results"],
        None,
    ),
    (
        "A.2.10",
        "Harass reward, Obscurity amounts",
        ["combat.rewards.harass_gold_per_pax", "combat.obscurity"],
        ["combat.rewards.harass_gold_per_pax", "combat.obscurity"],
        None,
    ),
    ("A.2.11", "target-priority codes", ["combat.melee_rounds"], ["combat.melee_rounds"], None),
    (
        "A.2.12",
        "Pernicious, Leadership, Courage",
        ["skills.pernicious", "skills.leadership.combat", "skills.courage.per_rank"],
        ["skills.leadership.combat", "skills.courage.per_rank"],
        None,
    ),
    (
        "A.2.13",
        "leader training XP, Extras' upkeep, prices",
        ["experience.training.leader_xp", "extras.upkeep_per_tier"],
        ["experience.training.leader_xp", "extras.upkeep_per_tier"],
        "grant_extra",
    ),
    (
        "A.2.14",
        "settlement attitude at start and falling",
        ["attitudes.hostile.diplomacy"],
        ["diplomacy.start_attitude", "diplomacy.attitude_can_fall", "attitudes.hostile.diplomacy"],
        None,
    ),
    (
        "A.2.15",
        "growth, trade after a failure, city caps",
        ["trade.growth"],
        ["trade.growth", "trade", "trade.city_cap"],
        None,
    ),
    (
        "A.2.16",
        "Silver-Tongue, True-Cause, Shroud, Bugle, Torches",
        ["spells.silver_tongue", "spells.true_cause", "items.bugle", "items.torches"],
        ["spells.silver_tongue", "items.bugle"],
        None,
    ),
    (
        "A.2.17",
        "Medallion, Spyglass, HQ materials",
        ["crafting.costs.medallion", "items.erebove"],
        ["crafting.costs.medallion", "items.erebove"],
        None,
    ),
    ("A.2.18", "savings off the table, refunds", ["savings.above_percent"], ["savings"], None),
    (
        "A.2.19",
        "quality in combat",
        ["qualities"],
        ["qualities"],
        None,
    ),
    (
        "A.2.20",
        "prison capture, Reliquary capacity",
        ["prisons.capture_fates", "rooms.reliquary.gives.artifact_slots"],
        ["prisons.capture_fates", "rooms.reliquary.gives.artifact_slots"],
        None,
    ),
    (
        "A.2.21",
        "leader healing, and injury with several leaders",
        ["combat.leader_injury", "leader_healing.weeks"],
        ["combat.leader_injury", "leader_healing"],
        None,
    ),
    (
        "A.2.22",
        "VP months, rounding, ties, artifact rank, quality",
        ["scoring.months", "scoring.quality_steps"],
        [
            "scoring.months",
            "scoring.rounding",
            "scoring.leaders",
            "scoring.quality_steps",
            "scoring.mysterium.artifact_default_rank",
        ],
        None,
    ),
    (
        "A.2.23",
        "Council, event lists",
        ["council", "happenings", "unique_events"],
        ["council.majority", "happenings", "unique_events"],
        "council",
    ),
    (
        "A.2.24",
        "swamp information, Glean and Torture",
        ["scouting.information", "interrogation.glean_range"],
        ["scouting.information", "interrogation.glean_range"],
        None,
    ),
    ("A.2.25", "Kobolds' home", ["terrains.hills.advanced_races"], ["terrains.hills.advanced_races"], None),
    # A.3 contradictions
    ("A.3.1", "Drakes and Trolls", ["terrains.mountains.monsters"], ["terrains.mountains.monsters"], None),
    (
        "A.3.2",
        "iron price",
        ["market.iron", "trade.buy.standard.iron"],
        ["market.iron", "trade.buy.standard.iron"],
        None,
    ),
    ("A.3.3", "selling food", ["trade.sell.preferred.foodstuffs"], ["trade.sell.preferred.foodstuffs"], None),
    ("A.3.4", "Torches' renovation", ["crafting.costs.torches.needs"], ["crafting.costs.torches"], None),
    ("A.3.5", "Spy's cap", ["skills.spy.max"], ["skills.spy.max"], None),
    ("A.3.6", "Tactics for leaders", ["skills.tactics"], ["skills.tactics"], None),
    ("A.3.7", "Extras assist or initiate", ["extras.tiers"], ["extras.tiers"], "grant_extra"),
    (
        "A.3.8",
        "Warehouse slots and Prison cells",
        ["rooms.warehouse.renovations.expanded_hold"],
        ["rooms.warehouse.renovations.expanded_hold"],
        None,
    ),
    ("A.3.9", "several Builds a week", ["building"], ["building"], None),
    ("A.3.10", "Recon and Spy Tier 0", ["scouting.spy_tiers"], ["scouting.spy_tiers"], None),
    (
        "A.3.11",
        "+25 or +25%",
        ["checks.action.modifiers.leader_presence"],
        ["checks.action.modifiers.leader_presence"],
        None,
    ),
    ("A.3.12", "trade caps for cities", ["trade.caps"], ["trade.city_cap"], None),
    ("A.3.13", "skill and tool names", ["skills.woodsman", "skills.pickaxe_user"], ["skills.woodsman"], None),
    (
        "A.3.14",
        "index and body names",
        ["rooms.warehouse.name", "rooms.reliquary.name"],
        ["rooms.reliquary.gives.artifact_slots"],
        None,
    ),
    ("A.3.15", "damage tables' D not above A", ["combat.damage_tables"], ["combat.damage_tables"], None),
    ("A.3.16", "two escape bonuses", ["prisons.escape"], ["prisons.escape"], None),
    (
        "A.3.17",
        "Unfriendly reports and offers a quest",
        ["attitudes.unfriendly"],
        ["attitudes.unfriendly"],
        "quest",
    ),
    ("A.3.18", "typos", ["unique_units"], ["unique_units"], None),
]

# Items whose decision is not (or not wholly) in the rules data yet: what is missing, said plainly.
UNDECIDED: dict[str, str] = {
    "A.2.23": "how destroying a City works (Victory by Might): the GM announces it with the tell order",
}

RULES = get_ruleset("usurper").default_rules()
NUMBERED = [f"A.1.{n}" for n in range(1, 10)] + [f"A.2.{n}" for n in range(1, 26)]
NUMBERED += [f"A.3.{n}" for n in range(1, 19)]


def _at(data: Any, dotted: str) -> Any:
    for key in dotted.split("."):
        assert isinstance(data, dict) and key in data, dotted
        data = data[key]
    return data


def test_the_table_has_every_item_of_appendix_a_once() -> None:
    assert [row[0] for row in GAPS] == NUMBERED
    assert set(UNDECIDED) <= set(NUMBERED)


@pytest.mark.parametrize("row", GAPS, ids=[row[0] for row in GAPS])
def test_each_decision_is_in_the_rules_data_with_its_house_rule(row: tuple) -> None:
    item, _, paths, rules, _ = row
    for path in paths:
        assert _at(RULES, path) is not None, f"{item}: {path}"
    noted = {str(note["rule"]) for note in RULES["house_rules"]}
    for rule in rules:
        assert rule in noted, f"{item}: no house rule on {rule}"


def test_what_is_the_gms_has_a_gm_order(tmp_path: Path) -> None:
    root = tmp_path / "c"
    workflow.new_campaign(root, "usurper", 3, workflow.default_factions(2, 3))
    orders = gm_actions(Store(root).game())
    for item, _, _, _, order in GAPS:
        if order:
            assert order in orders, f"{item}: the GM has no order '{order}'"
    assert "tell" in orders  # what UNDECIDED leaves to the GM is announced with it


def test_every_house_rule_of_the_table_shows_on_the_house_rules_page(tmp_path: Path) -> None:
    root = tmp_path / "c"
    workflow.new_campaign(root, "usurper", 3, workflow.default_factions(2, 3))
    build_site(root, None, run_mkdocs=False)
    page = (root / "site" / "rules" / "house-rules.md").read_text(encoding="utf-8")
    for item, _, _, rules, _ in GAPS:
        for rule in rules:
            assert rule in page, f"{item}: {rule} is not on the house rules page"


def test_every_house_rule_names_only_numbers_the_rules_data_holds() -> None:
    # A placeholder the data cannot fill stays as written: a reader would see '{qualities.1.bonus}'.
    import re

    from resolver.core.rulesdoc import filled_notes

    unfilled = [
        (note["rule"], found)
        for note in filled_notes(RULES)
        for found in re.findall(r"\{[a-z_][a-z0-9_]*(?:\.[a-z0-9_-]+)+\}", note["text"])
    ]
    assert unfilled == []
