"""Issue 23: every number of the minimum core (spec §10.2.2, with the upkeep, combat and scoring of §10.2.3
and §10.2.4) is shown at work by at least one test.

``PROVED`` below is the table: each number of the core, in the spec's order, with the test that makes it
happen and checks what the usurper sees (a total, a stock, a band, a sentence). The tests that follow
the table are the ones no other module had: a Watchtower on a scout, the whole ledger of a Build, each
crafting cost, one item a Workshop a week, food at a city's market, the ranged rounds of every combat
speed and the six-round limit of a melee. They go through the real reading and the real resolver where
the number belongs to an action (a scenario with its rolls forced by label).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.rulesets.usurper import fight as f

from ..scenarios.harness import Scenario
from .test_combat import RULES as COMBAT_RULES
from .test_combat import Context, two_sides, unit

# (the number as §10.2 gives it, the test module, the test that proves it in behaviour)
PROVED: list[tuple[str, str, str]] = [
    # 1. Scout
    ("d100 explodes on 96-100", "test_rolls", "test_a_natural_96_to_100_is_rolled_again_and_added"),
    ("no explosion in month 1", "test_rolls", "test_no_explosion_in_the_first_month"),
    (
        "+25 a leader taking part",
        "test_fieldwork",
        "test_a_scout_marks_the_grid_scouted_and_tells_only_its_usurper",
    ),
    ("+25 a leader, +13 damaged, 0 healing", "test_rolls", "test_leader_presence_whole_damaged_and_healing"),
    ("+4 a unit beyond the first (Overwhelm)", "test_rolls", "test_overwhelm_counts_units_beyond_the_first"),
    ("+4 a unit with a Spyglass", "test_rolls", "test_primary_tool_and_its_quality_per_unit"),
    ("+3 a rank of Scout", "test_rolls", "test_skill_ranks_of_every_participant_add_up"),
    ("Goblins +10 to Scout", "test_rolls", "test_racial_bonuses"),
    (
        "Watchtower +4, +4 an Enhanced Vision",
        "test_core_numbers",
        "test_a_watchtower_and_its_enhanced_vision_help_the_scouts_who_leave_it",
    ),
    ("Scavenger +10", "test_rolls", "test_craftsman_and_scavenger_only_when_assisting_units"),
    (
        "-4 a known encounter in the grid, -3 a missing man",
        "test_rolls",
        "test_missing_men_unpaid_units_and_a_hot_bed",
    ),
    (
        "finding type by weights",
        "test_scouting",
        "test_an_encounter_is_two_or_three_native_units_kept_in_the_list",
    ),
    (
        "nodes Poor 3d4+6 x2 ... Grand 6d4+12 x4, gold 2d4+4 x1 ... 5d4+10 x4",
        "test_scouting",
        "test_every_node_row",
    ),
    ("caches 4/8/12/16 gold", "test_scouting", "test_every_cache_row_is_taken_at_once"),
    (
        "Epic node: Grand with +20 to Harvest",
        "test_harvest",
        "test_a_grand_node_from_an_epic_scout_adds_twenty_and_tree_huggers_add_to_the_amount",
    ),
    ("settlement: Camp on PS/S, Hamlet on SIG", "test_scouting", "test_settlements_by_band"),
    (
        "lair detection: total above Obscurity",
        "test_scouting",
        "test_appendix_c10_a_total_of_160_finds_a_lair_at_155_but_not_at_165",
    ),
    ("lair detection: Tier 0, range 2", "test_scouting", "test_spy_tiers_add_range_and_detail"),
    # 2. Harvest
    (
        "Shovels +4, Hammers/Saws +3 only beside Shovels",
        "test_rolls",
        "test_harvest_secondaries_count_only_beside_the_primary",
    ),
    ("the harvest check of Appendix C4", "test_rolls", "test_appendix_c4_the_harvest_check"),
    ("Pioneer +10", "test_harvest", "test_pioneer_present_adds_ten_and_turns_d4s_into_d6s"),
    (
        "yield: node dice + 1d4 a unit beyond the first",
        "test_harvest",
        "test_appendix_c4_two_dwarf_units_and_the_chief_on_a_normal_iron_node",
    ),
    (
        "S rerolls 1s; SIG +1 a base die; AST +1 a unit; EPIC maximised",
        "test_harvest",
        "test_the_yield_by_band",
    ),
    ("+1 a leader, +2 on SIG or better", "test_harvest", "test_leaders_add_one_each_below_significant"),
    ("every attempt spends a use", "test_fieldwork", "test_a_harvest_brings_the_yield_home_and_spends_a_use"),
    (
        "Pioneer spends no use on SIG or better",
        "test_harvest",
        "test_pioneer_global_spares_the_use_on_significant_or_better_only",
    ),
    # 3. Build
    (
        "Lumber 5R+5",
        "test_works",
        "test_c1_a_workshop_in_a_lair_of_four_rooms_costs_25_lumber_and_a_success_saves_2",
    ),
    (
        "Saws +4, Mason +3 a rank, Workshop boost, Craftsman +10",
        "test_core_numbers",
        "test_the_ledger_of_a_build_saws_mason_workshop_and_craftsman",
    ),
    ("PS or better builds, with the savings table", "test_works", "test_the_savings_table_row_by_row"),
    (
        "below PS the Lumber is lost",
        "test_works",
        "test_a_failed_build_of_several_rooms_loses_the_dearest_and_gives_back_the_rest",
    ),
    (
        "Craftsman reads the next band's savings",
        "test_works",
        "test_c1_a_craftsman_reads_the_significant_row_and_saves_4",
    ),
    # 4. Renovate
    ("Stone 5L+5", "test_works", "test_c2_the_next_basic_renovation_of_a_level_3_watchtower_costs_20_stone"),
    ("Inspiring Banner +3 Morale or Loyalty", "test_rolls", "test_loyalty_table_with_the_throne_room"),
    ("Inspiring Banner on Morale", "test_rolls", "test_morale_modifiers"),
    (
        "Expanded Hold +10 slots",
        "test_storage",
        "test_slots_count_twenty_resources_one_food_one_item_one_gem_and_no_horses",
    ),
    (
        "Enhanced Vision +4 Scout",
        "test_core_numbers",
        "test_a_watchtower_and_its_enhanced_vision_help_the_scouts_who_leave_it",
    ),
    (
        "Industrious +4 to Build",
        "test_core_numbers",
        "test_the_ledger_of_a_build_saws_mason_workshop_and_craftsman",
    ),
    (
        "basic renovations at most 4 each",
        "test_works",
        "test_renovations_keep_to_their_limits_levels_and_choices",
    ),
    (
        "Fortifications +5 max Obscurity",
        "test_works",
        "test_fortifications_raise_the_lairs_obscurity_max_and_current",
    ),
    (
        "Fortifications +2 Defense",
        "test_lairs",
        "test_fortifications_add_their_defence_and_murder_holes_a_ranged_round",
    ),
    # 5. Craft
    (
        "costs: Shovels 5 Stone ... Light Armor 5 Iron",
        "test_core_numbers",
        "test_each_core_item_costs_what_the_game_says",
    ),
    ("quality by total 50-74 Standard ... 200+ Moderate", "test_works", "test_quality_by_the_total"),
    (
        "savings apply to crafting",
        "test_works",
        "test_a_craft_costs_its_materials_and_gives_back_the_savings_on_success",
    ),
    ("one item a Workshop a week", "test_core_numbers", "test_a_workshop_makes_one_item_a_week"),
    ("sale value: half price + max(flat, %)", "test_works", "test_c3_decent_melee_weapons_sell_for_17_or_18"),
    (
        "Hammers needed on every unit, or embedded",
        "test_works",
        "test_crafting_needs_hammers_on_every_unit_unless_embedded_and_then_counts_them_once",
    ),
    # 6. Diplomacy
    (
        "+25, +3 a Negotiator rank, Herald +10, size, attitude",
        "test_diplomacy",
        "test_the_weeks_visit_rolls_with_the_places_modifiers_and_tells_the_usurper_alone",
    ),
    (
        "size, attitude, totem and customs bonuses",
        "test_diplomacy",
        "test_modifiers_of_size_attitude_totem_customs_and_quests",
    ),
    ("the attitude table with 10/15 gold bribes", "test_diplomacy", "test_each_row_of_the_diplomacy_table"),
    (
        "a bribe of 10 turns Significant into Loyal (C8)",
        "test_diplomacy",
        "test_appendix_c8_a_bribe_turns_a_significant_into_loyal",
    ),
    (
        "buying at a city at Standard: food 2 gold",
        "test_core_numbers",
        "test_a_city_sells_food_at_two_gold_a_piece",
    ),
    (
        "recruit at a city: 10 gold, one a race, PS or better",
        "test_diplomacy",
        "test_recruiting_at_a_city_one_per_race_on_a_partial_success",
    ),
    (
        "recruiting needs the band, the gold, Barracks space",
        "test_diplomacy",
        "test_recruiting_needs_the_band_and_the_gold",
    ),
    ("status thresholds 5/10/20/25/35/40", "test_diplomacy", "test_status_thresholds"),
    ("caps 10/25/50/100, none at cities", "test_diplomacy", "test_caps_by_size_and_none_for_cities"),
    (
        "Herald recruits at settlements, their races only",
        "test_diplomacy",
        "test_settlements_recruit_only_for_a_herald_and_only_their_races",
    ),
    # 7. Attack
    (
        "encounter: 2-3 level-0 native units",
        "test_scouting",
        "test_an_encounter_is_two_or_three_native_units_kept_in_the_list",
    ),
    (
        "encounter gear 20% / 50% by VP tier",
        "test_core_numbers",
        "test_encounters_carry_gear_by_the_tier_of_the_average_score",
    ),
    (
        "Harass: 1 gold a traveller killed, at most 4, no XP",
        "test_combat",
        "test_harass_pays_a_gold_piece_a_traveller_killed_but_never_more_than_four",
    ),
    # 8. Train / 9. Assist and Overwhelm
    (
        "a leader teaches any number up to its own rank, +1 skill XP",
        "test_experience",
        "test_a_leader_teaches_any_number_up_to_its_own_rank",
    ),
    (
        "one roll for the same action in the same grid",
        "test_reading",
        "test_the_same_action_in_the_same_grid_is_one_roll_with_helpers",
    ),
    # 10.2.3 upkeep and food
    (
        "5 gold and 1 food a unit, 1 more food for horses",
        "test_upkeep",
        "test_a_share_is_five_gold_and_a_food_and_one_more_food_for_horses",
    ),
    (
        "Loyalty: Throne, banners, Medallion +4",
        "test_upkeep",
        "test_a_medallion_and_loyalty_banners_count_in_the_check",
    ),
    (
        "Loyalty rows 1-25 / 26-49 / 50-74 / 75+",
        "test_upkeep",
        "test_the_loyalty_table_row_by_row_on_a_gold_shortfall",
    ),
    ("caches bring food", "test_scouting", "test_every_cache_row_is_taken_at_once"),
    # storage
    (
        "20 resources, 1 food, 1 item a slot",
        "test_storage",
        "test_slots_count_twenty_resources_one_food_one_item_one_gem_and_no_horses",
    ),
    (
        "overflow lost at the week's end in the drop order",
        "test_storage",
        "test_overflow_loses_lumber_first_by_default_and_only_what_frees_the_slots",
    ),
    # experience
    ("band XP: S 0 (Humans 1 skill), SIG 1 ...", "test_experience", "test_the_chart_by_band"),
    (
        "Appendix C5: Human on S, Goblin on SIG",
        "test_experience",
        "test_c5_a_goblin_unit_on_significant_gets_one_of_each",
    ),
    ("curve 1/1/1/2/2/2/3/3/3/4, 22 in all", "test_experience", "test_c5_the_22_xp_path_from_level_0_to_10"),
    ("Scholar -1 from rank 4", "test_experience", "test_a_scholar_makes_it_15"),
    (
        "level-up: +1 Off/Def/Str, speed or tools once",
        "test_experience",
        "test_max_tools_once_and_never_above_three",
    ),
    (
        "combat XP 1 a surviving unit",
        "test_combat",
        "test_a_won_fight_pays_two_gold_a_routed_unit_and_experience_to_the_survivors",
    ),
    # combat
    ("DF, Ranged, Melee, winner", "test_combat", "test_a_whole_fight_against_an_encounter_with_forced_dice"),
    (
        "first die explodes once on 6, pools of 3+",
        "test_combat",
        "test_the_first_die_of_a_pool_of_three_or_more_explodes_once_on_a_six",
    ),
    (
        "hit if Attack > Defense, +1 Damage a 10 of margin (C9)",
        "test_combat",
        "test_appendix_c9_a_melee_hit_by_eleven_kills_two_and_the_target_pays_for_it",
    ),
    ("a tie misses", "test_combat", "test_a_tied_attack_misses"),
    ("the damage-versus-armour tables", "test_combat", "test_every_row_of_the_damage_tables"),
    (
        "Morale at the end of Ranged for the units hit",
        "test_combat",
        "test_ranged_fire_wears_down_but_kills_nobody_and_the_hit_check_their_morale",
    ),
    ("the Morale table in battle", "test_combat", "test_each_morale_result_in_battle"),
    (
        "ranged rounds VS 0, S 1, M 1, F 2, VF 2, C 3",
        "test_core_numbers",
        "test_ranged_rounds_by_combat_speed",
    ),
    ("at most 6 melee rounds", "test_core_numbers", "test_a_melee_stops_after_six_rounds"),
    (
        "the winner rule",
        "test_combat",
        "test_a_full_tie_goes_to_the_defender_and_is_a_draw_between_two_attackers",
    ),
    (
        "replacements by the table (C6)",
        "test_combat",
        "test_appendix_c6_replacements_for_a_level_five_unit_arrive_two_weeks_later",
    ),
    (
        "fled units check Loyalty",
        "test_combat",
        "test_a_unit_that_fled_and_fails_its_loyalty_leaves_with_its_gear",
    ),
    (
        "2 gold an enemy unit destroyed or routed",
        "test_combat",
        "test_a_won_fight_pays_two_gold_a_routed_unit_and_experience_to_the_survivors",
    ),
    (
        "leaders: injury, 2 HP, both dead = out",
        "test_combat",
        "test_leaders_are_hurt_by_heavy_losses_and_two_dead_leaders_put_the_usurper_out",
    ),
    # Obscurity
    ("-1 on a Complete Failure", "test_rolls", "test_complete_failure_costs_the_home_lair_one_obscurity"),
    (
        "-1 on Attack / Harass",
        "test_combat",
        "test_harass_pays_a_gold_piece_a_traveller_killed_but_never_more_than_four",
    ),
    ("-5 on Embittered", "test_upkeep", "test_the_loyalty_table_row_by_row_on_a_gold_shortfall"),
    # 10.2.4 scoring and victory
    ("VP counted every 2 months", "test_scoring", "test_no_tally_outside_the_scoring_months"),
    ("Might, Lair, Economy, Politics", "test_scoring", "test_every_category_counted_by_hand"),
    ("tiers at 200 / 400 / 600", "test_scoring", "test_tiers_by_average"),
    ("Accrual: 51% after year 1", "test_scoring", "test_accrual_only_after_the_first_year"),
    ("Domination", "test_scoring", "test_domination_when_every_other_usurper_is_out"),
    (
        "Tenacity: the core rooms and 20 renovations",
        "test_scoring",
        "test_tenacity_needs_every_room_and_enough_renovations",
    ),
]


@pytest.mark.parametrize(("number", "module", "name"), PROVED, ids=[row[0] for row in PROVED])
def test_the_table_names_a_test_that_exists(number: str, module: str, name: str) -> None:
    """A renamed or deleted test leaves its number unproved: the table must follow."""
    where = f"{module}::{name}"
    tests = importlib.import_module(f"tests.usurper.{module}")
    assert callable(getattr(tests, name, None)), f"{number}: {where} is gone"


# ------------------------------------------------------------------------------- the scenarios

ROOMS = [{"type": t, "level": 1, "renovations": []} for t in ("throne", "barracks", "warehouse")]
WORKSHOP = {"type": "workshop", "level": 1, "renovations": []}
STOCK = {"lumber": 40, "stone": 40, "iron": 40, "foodstuffs": 0}


def _scenario(
    tmp_path: Path,
    orders: list[dict[str, Any]],
    rolls: dict[str, list[int]],
    *,
    rooms: list[dict[str, Any]] = ROOMS,
    units: dict[str, Any] | None = None,
    bonus: str = "herald",
    gold: int = 100,
) -> Scenario:
    """Week 1 of month 2 (no first-month floor); the red usurper's lair at B2, a city at C3."""
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 10, "height": 10, "terrain": {"forests": ["C2"]}, "places": {"C3": "Varos"}},
        "factions": ["red", "blue"],
        "rolls": rolls,
        "state": {
            "turn": 6,  # week 2: no month starts, so no monthly event adds to the rolls
            "cities": {"C3": {"name": "Varos", "size": "small_town", "races": ["humans"]}},
            "factions": {
                "red": {
                    "gold": gold,
                    "lairs": {"red-lair1": {"grid": "B2", "rooms": rooms, "storage": dict(STOCK)}},
                    "leaders": {"red-l1": {"name": "Grug", "bonus": bonus}},
                    "units": units or {"red-u1": {"name": "Iron Fists", "race": "dwarves"}},
                },
                "blue": {"lairs": {"blue-lair1": {"grid": "H8"}}, "units": {"blue-u1": {"race": "orcs"}}},
            },
        },
        "orders": {"red": orders, "blue": []},
    }
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


def _one(
    tmp_path: Path, kind: str, orders: list[dict[str, Any]], rolls: dict[str, list[int]], **kw: Any
) -> Any:
    scenario = _scenario(tmp_path, orders, rolls, **kw)
    files = scenario.order_files()
    assert files["red"].ok, [(issue.message, issue.hint) for issue in files["red"].errors]
    result = scenario.resolve(files)
    [event] = [e for e in result.events if e.kind == kind]
    assert event.visible_to == ["red"]
    return event, result.state["factions"]["red"]


def _ledger(event: Any) -> dict[str, int]:
    return {m.source: m.value for m in event.rolls[0].modifiers}


@pytest.mark.parametrize(("visions", "bonus"), [(0, 0), (0, 4), (1, 8), (3, 16)])
def test_a_watchtower_and_its_enhanced_vision_help_the_scouts_who_leave_it(
    tmp_path: Path, visions: int, bonus: int
) -> None:
    """+4 for the Watchtower of the scouts' lair and +4 for each Enhanced Vision (none without a tower)."""
    tower = {
        "type": "watchtower",
        "level": 1 + visions,
        "renovations": [{"renovation": "enhanced_vision"}] * visions,
    }
    rooms = [*ROOMS, tower] if bonus else ROOMS
    event, _ = _one(
        tmp_path, "scouted", [{"action": "scout", "by": "red-u1", "target": "C2"}],
        {"t6/red/red-u1/scout/C2": [30]}, rooms=rooms,
    )  # fmt: skip
    assert event.data["total"] == 30 + bonus
    assert _ledger(event) == ({"Watchtower": bonus} if bonus else {})


def test_the_ledger_of_a_build_saws_mason_workshop_and_craftsman(tmp_path: Path) -> None:
    """Saws +4, Mason +3 a rank, the Workshop's construction boost (+4, and +4 an Industrious for
    building), a Craftsman assisting +10 and its presence +25; the Workshop makes R = 4: 25 Lumber."""
    workshop = {
        "type": "workshop",
        "level": 2,
        "renovations": [{"renovation": "industrious", "choice": "building"}],
    }
    mason = {
        "name": "Iron Fists", "race": "dwarves", "tools": [{"item": "saws", "quality": "standard"}],
        "skills": {"mason": {"rank": 2, "xp": 0}},
    }  # fmt: skip
    build = {"action": "build", "by": "red-u1", "assist": ["red-l1"], "rooms": ["watchtower"]}
    event, red = _one(
        tmp_path, "rooms_built", [build], {"t6/red/red-u1/build/B2": [20]},
        rooms=[*ROOMS, workshop], units={"red-u1": mason}, bonus="craftsman",
    )  # fmt: skip
    assert _ledger(event) == {
        "Leader Presence (Grug)": 25,
        "Saws (Iron Fists)": 4,
        "Mason 2 (Iron Fists)": 6,
        "Craftsman (Grug)": 10,
        "Workshop construction boost": 8,
    }
    assert (event.data["total"], event.data["band"]) == (73, "Partial Success")
    # A Craftsman's global part reads the Success row of the savings: 2 of 25.
    assert (event.data["spent"], event.data["saved"]) == ("23 Lumber", "2 Lumber")
    assert red["lairs"]["red-lair1"]["storage"]["lumber"] == 40 - 23
    assert "watchtower" in [room["type"] for room in red["lairs"]["red-lair1"]["rooms"]]


CORE_COSTS = [
    ("shovels", "stone", 5, "Shovels"),
    ("saws", "stone", 5, "Saws"),
    ("hammers", "stone", 11, "Hammers"),
    ("melee_weapons", "iron", 22, "Melee Weapons"),
    ("ranged_weapons", "lumber", 11, "Ranged Weapons"),
    ("shields", "iron", 11, "Shields"),
    ("light_armor", "iron", 5, "Light Armor"),
]


@pytest.mark.parametrize(("item", "resource", "cost", "name"), CORE_COSTS, ids=[c[0] for c in CORE_COSTS])
def test_each_core_item_costs_what_the_game_says(
    tmp_path: Path, item: str, resource: str, cost: int, name: str
) -> None:
    """A Partial Success saves nothing: the Warehouse pays the whole cost and gets the item."""
    smith = {"name": "Iron Fists", "race": "dwarves", "tools": [{"item": "hammers", "quality": "standard"}]}
    event, red = _one(
        tmp_path, "crafted", [{"action": "craft", "by": "red-u1", "items": [item]}],
        {"t6/red/red-u1/craft/B2": [55]}, rooms=[*ROOMS, WORKSHOP], units={"red-u1": smith},
    )  # fmt: skip
    assert (event.data["band"], event.data["quality"], event.data["items"]) == (
        "Partial Success",
        "Standard",
        name,
    )
    assert event.data["spent"] == f"{cost} {resource.capitalize()}" and event.data["saved"] == ""
    lair = red["lairs"]["red-lair1"]
    assert lair["storage"][resource] == STOCK[resource] - cost
    assert {"item": item, "quality": "standard"} in [
        {"item": held["item"], "quality": held["quality"]} for held in lair["items"]
    ]


def test_a_workshop_makes_one_item_a_week(tmp_path: Path) -> None:
    smith = {"name": "Iron Fists", "race": "dwarves", "tools": [{"item": "hammers", "quality": "standard"}]}
    scenario = _scenario(
        tmp_path, [{"action": "craft", "by": "red-u1", "items": ["shovels", "saws"]}], {},
        rooms=[*ROOMS, WORKSHOP], units={"red-u1": smith},
    )  # fmt: skip
    [error] = scenario.order_files()["red"].errors
    assert error.message == "a Workshop makes 1 item a week"
    assert "Technique-Multi-crafting" in error.hint


def test_a_city_sells_food_at_two_gold_a_piece(tmp_path: Path) -> None:
    """A city trades at Standard: 3 Foodstuffs cost 6 gold and go to the Warehouse."""
    visit = {"action": "diplomacy", "by": "red-l1", "target": "C3", "buy": {"foodstuffs": 3}}
    _, red = _one(tmp_path, "diplomacy", [visit], {"t6/red/red-l1/diplomacy/C3": [60]})
    assert red["gold"] == 100 - 6
    assert red["lairs"]["red-lair1"]["storage"]["foodstuffs"] == 3


@pytest.mark.parametrize(("speed", "rounds"), [("VS", 0), ("S", 1), ("M", 1), ("F", 2), ("VF", 2), ("C", 3)])
def test_ranged_rounds_by_combat_speed(speed: str, rounds: int) -> None:
    archers = [unit("red-u1", "elves", speed={"combat": speed, "overland": 2})]
    fight = two_sides(archers, [unit("enc-3-u1")])
    assert f.ranged_rounds(COMBAT_RULES, fight, fight.sides[0].fighters[0]) == rounds


def test_a_melee_stops_after_six_rounds() -> None:
    """Two bare-handed units that never hit each other fight six rounds and no seventh."""
    at = "fight/red/enc-3/"
    forced = {
        f"{at}melee{n}/{who}/{roll}": [face]
        for n in range(1, 8)
        for who in ("red-u1", "enc-3-u1")
        for roll, face in (("attack", 1), ("defense", 6))
    }
    ctx = Context(forced)
    fight = two_sides([unit("red-u1")], [unit("enc-3-u1")])
    out = f.run(COMBAT_RULES, ctx, fight)
    assert out.melee_rounds == 6 and out.lost == {}
    fought = {roll.label.split("/")[3] for roll in ctx.dice.log if "/melee" in roll.label}
    assert fought == {f"melee{n}" for n in range(1, 7)}


@pytest.mark.parametrize(
    ("tier", "average", "level", "chance"),
    [("normal", 0, 0, 0), ("tier_200", 200, 1, 20), ("tier_600", 600, 2, 50)],
)
def test_encounters_carry_gear_by_the_tier_of_the_average_score(
    tier: str, average: int, level: int, chance: int
) -> None:
    """Below 200 no encounter is armed and nothing is rolled for it; from 200 one unit in five carries
    weapons, from 600 one in two: a unit is armed when its d100 is at most the chance. The tier is the one
    the last count of Victory Points set."""
    from .scouting_fixtures import state
    from .test_scouting import FINDING, scouted

    the_state = state()
    the_state["difficulty"] = {"tier": tier, "average": average, "turn": 4}
    at = "t5/red/red-u1/scout/V20/encounter/"
    forced = {FINDING.format(grid="V20"): [90], at + "units": [1], at + "race1": [1], at + "race2": [2]}
    forced |= {at + "gear1": [chance], at + "gear2": [chance + 1]}
    outcome, after, ctx = scouted("V20", "hills", "success", forced=forced, the_state=the_state)
    assert outcome.kind == "encounter"
    [record] = after["factions"]["red"]["known"]["encounters"].values()
    assert record["level"] == level
    armed = [bool(u.get("weapons")) for u in record["units"]]
    assert armed == ([True, False] if chance else [False, False])
    gear_rolls = [roll.label for roll in ctx.dice.log if "/gear" in str(roll.label)]
    assert len(gear_rolls) == (2 if chance else 0)
