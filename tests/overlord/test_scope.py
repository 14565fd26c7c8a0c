"""Issue 24's "done when", row by row: three tables naming, for each thing the scenario tests must cover,
the test that covers it.

``ORDERS`` maps every keyword of the order language (``language.ORDERS`` and ``language.FACTION_TABLE``)
to a test that writes the order as a player does, has the checker read it, and runs it through a whole
month of the engine's turn. ``QUEUE`` maps every prefix and every stop condition of the queue language
(spec §2.2-§2.8) to its month. ``CORE`` maps every number of the minimum core (spec §9.2) to the test that
shows it at work; where the ruleset decided otherwise or filled a gap, the row names the house rule
(``rules/*.yaml`` ``house_rules:``) and a test of that decision.

A row fails when its test is renamed or deleted (tests are found by importing their module, not by reading
text), an order's row also when its test's code (parsed, comments left out) writes no line of that order,
and the order table fails when the language gains a keyword without a row.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import inspect
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from resolver.core.programs import Line, ProgramError, parse_line
from resolver.engine.ruleset import rules_data
from resolver.rulesets.overlord import language

RULESET = Path(language.__file__).parent


class Row(NamedTuple):
    subject: str  # a keyword, a prefix or stop condition, or a number of §9.2
    module: str  # a module of tests/overlord, or "tests.<module>" for the engine's own tests
    test: str  # the test function's name (a parametrized test: its base name)
    house_rule: str = ""  # the house rule's ``rule:`` path when the ruleset decided the number


def _test(row: Row) -> Callable[..., object]:
    path = row.module if row.module.startswith("tests.") else f"tests.overlord.{row.module}"
    found = getattr(importlib.import_module(path), row.test, None)
    assert callable(found) and row.test.startswith("test_"), f"{row.subject}: no test {path}::{row.test}"
    return found


# ---------------------------------------------------------------- (a) every order, run through a month

OM = "test_order_months"  # this scenarios, one or more an order
QM = "test_queue_months"

ORDERS: dict[str, tuple[str, str]] = {
    "ACCEPT": (OM, "test_stack_under_another_faction_needs_its_accept"),
    "AT": (OM, "test_at_waits_until_the_unit_stands_in_the_place_then_frees_its_line"),
    "ATTACK": ("test_warfare", "test_the_battle_is_told_in_names_with_its_winner_and_losses"),
    "BESTOW": (OM, "test_bestow_waits_for_its_day_then_hands_the_title_to_a_leader_standing_there"),
    "BUILD": (OM, "test_build_starts_a_structure_under_a_new_id_and_lays_material_for_its_days"),
    "BUY": (
        "test_markets",
        "test_a_partial_fill_leaves_the_remainder_in_the_queue_and_the_buyer_pays_its_bid",
    ),
    "CANCEL": (OM, "test_a_baron_cancels_a_sheriff_in_range_once_it_knows_more_combat"),
    "CARAVAN": (OM, "test_a_repeated_caravan_shuttles_between_its_places_all_month"),
    "CHRISTEN": (
        "test_structures",
        "test_a_structure_passes_to_the_faction_left_inside_at_the_day_s_end_with_its_control_points",
    ),
    "CLAIM": ("test_title_orders", "test_stance_claim_guard_press_and_taxes_in_one_month"),
    "COMBAT": ("test_warfare", "test_tactic_and_combat_orders_set_the_unit_s_battle_settings"),
    "DAY": (QM, "test_a_condition_ignores_at_and_a_one_shot_ignores_its_counter"),
    "DESCRIBE": ("test_month", "test_a_month_runs_thirty_days_and_stamps_each_event_with_its_day"),
    "DISBAND": ("test_report_units", "test_a_disbanded_unit_is_listed_with_its_day"),
    "DROP": (OM, "test_drop_all_but_a_number_kept_puts_the_rest_on_the_ground"),
    "EJECT": (OM, "test_eject_unstacks_the_unit_directly_under_the_leader"),
    "ENTER": (OM, "test_enter_then_exit_take_no_time_and_leave_the_unit_outside"),
    "EQUIP": (OM, "test_equip_waits_for_the_skill_then_arms_as_many_figures_as_there_are_swords"),
    "EXIT": (OM, "test_enter_then_exit_take_no_time_and_leave_the_unit_outside"),
    "FORGET": (OM, "test_forget_drops_the_skill_and_every_skill_built_on_it_and_frees_the_line_below"),
    "GET": (OM, "test_get_takes_from_one_s_own_unit_and_from_the_ground_keeping_what_is_asked"),
    "GIVE": (QM, "test_dashes_wait_level_by_level_as_in_worked_example_b"),
    "GUARD": ("test_title_orders", "test_stance_claim_guard_press_and_taxes_in_one_month"),
    "HAVE": (QM, "test_a_plus_line_runs_until_the_condition_above_it_fires_and_is_pruned_before_the_release"),
    "LEADER": (OM, "test_leader_and_leading_are_true_inside_one_stack_and_free_their_dependants"),
    "LEADING": (OM, "test_leader_and_leading_are_true_inside_one_stack_and_free_their_dependants"),
    "LEAVE": (
        "test_structures",
        "test_a_structure_passes_to_the_faction_left_inside_at_the_day_s_end_with_its_control_points",
    ),
    "MARCH": (OM, "test_march_into_an_unguarded_place_goes_like_a_move"),
    "MERGE": (OM, "test_merge_moves_figures_and_leaves_the_goods_behind"),
    "MOVE": (
        "test_movement",
        "test_a_hero_leads_his_followers_over_a_month_of_the_ruleset_and_the_chronicle_names_them",
    ),
    "NAME": ("test_month", "test_a_month_runs_thirty_days_and_stamps_each_event_with_its_day"),
    "OATH": ("test_report_units", "test_a_unit_sworn_to_another_faction_is_told_to_both_each_its_share"),
    "PATROL": (OM, "test_patrol_guards_where_the_faction_holds_a_title_and_halves_the_day_s_study"),
    "PILLAGE": (OM, "test_pillage_takes_a_coin_a_day_for_each_armed_figure_from_the_tax_pool"),
    "PROMOTE": (OM, "test_promote_moves_a_unit_listed_later_to_just_before_this_one"),
    "RECRUIT": ("test_recruiting", "test_a_leader_is_hired_alone_into_a_new_unit"),
    "RETREAT": (OM, "test_retreat_as_the_month_s_first_order_walks_back_as_long_as_the_trip_took"),
    "SEE": (OM, "test_see_fires_for_a_unit_here_and_waits_for_one_elsewhere"),
    "SELL": ("test_markets", "test_sell_takes_its_own_ask_and_an_unlisted_good_needs_marketing"),
    "SETTING": (OM, "test_a_unit_setting_switches_on_the_unit_alone"),
    "SIZE": (OM, "test_size_fires_the_day_after_recruits_make_the_unit_big_enough"),
    "SKILL": (OM, "test_skill_in_days_or_in_levels"),
    "SPLIT": (OM, "test_split_into_a_new_id_creates_the_unit_and_runs_the_queue_written_for_it"),
    "STACK": (OM, "test_stack_under_another_faction_needs_its_accept"),
    "STANCE": ("test_title_orders", "test_stance_claim_guard_press_and_taxes_in_one_month"),
    "STAY": (OM, "test_stay_keeps_a_stacked_unit_home_when_its_stack_sets_out"),
    "STUDY": (QM, "test_a_stop_condition_or_the_counter_whichever_comes_first"),
    "SWAP": (OM, "test_swap_exchanges_only_when_both_sides_order_the_mirror_line"),
    "SYNCHRO": (
        "test_synchro",
        "test_two_lines_fire_together_on_the_day_both_are_live_and_free_the_lines_waiting_on_them",
    ),
    "TACTIC": ("test_warfare", "test_tactic_and_combat_orders_set_the_unit_s_battle_settings"),
    "TARGET": (
        "test_structures",
        "test_two_masons_finishing_their_half_lay_no_stone_beyond_it_and_keep_the_spare_piece",
    ),
    "TEACH": ("test_uses", "test_a_month_of_teaching_is_one_event_with_the_days_and_the_students"),
    "UNSTACK": (OM, "test_leader_is_true_for_a_leader_two_levels_up_and_follows_an_unstacking"),
    "USE": ("test_production", "test_a_whole_month_of_the_ruleset_runs_use_from_a_queue"),
    "WAIT": ("test_month", "test_a_month_runs_thirty_days_and_stamps_each_event_with_its_day"),
    "WITHDRAW": ("test_month", "test_withdraw_works_only_in_a_city_and_takes_from_the_fund"),
    "WORK": (
        "test_month",
        "test_wages_of_a_unit_that_left_are_lost_and_winter_doubles_upkeep_paid_from_the_fund",
    ),
    "YIELD": (OM, "test_yield_on_its_day_leaves_the_title_vacant"),
}

FACTION_ORDERS: dict[str, tuple[str, str]] = {
    "EMAIL": ("test_report", "test_resign_hands_every_unit_to_the_named_npc_and_email_changes_nothing"),
    "NAME": ("test_orders", "test_faction_orders_rename_the_faction_and_set_its_settings_before_day_one"),
    "PASSWORD": (OM, "test_password_is_read_as_a_faction_order_and_changes_nothing_in_the_state"),
    "RESHOW": ("test_report", "test_reshow_prints_stored_knowledge_again"),
    "RESIGN": ("test_report", "test_resign_hands_every_unit_to_the_named_npc_and_email_changes_nothing"),
    "SETTING": ("test_orders", "test_faction_orders_rename_the_faction_and_set_its_settings_before_day_one"),
}


def test_every_unit_order_of_the_language_has_a_row_and_no_row_names_a_keyword_it_lacks() -> None:
    assert sorted(ORDERS) == sorted(language.ORDERS)


def test_every_faction_order_of_the_language_has_a_row_and_no_row_names_a_keyword_it_lacks() -> None:
    assert sorted(FACTION_ORDERS) == sorted(language.FACTION_TABLE)


def _keyword(text: str) -> str:
    """The keyword of a queue line as the engine reads it, prefixes and all; "" for any other string."""
    try:
        return parse_line(text).keyword.upper()
    except ProgramError:
        return ""


def _keywords_written(test: Callable[..., object]) -> set[str]:
    """The first word of every string the test's code holds (its source parsed, so neither comments nor
    its docstring count): the keywords of the lines it writes, f-strings included."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(test)))
    docstring = ast.get_docstring(tree.body[0], clean=False) if tree.body else None
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value != docstring:
            words.add(_keyword(node.value))
    return words


@pytest.mark.parametrize(
    "row",
    [Row(k, *v) for k, v in ORDERS.items()] + [Row(f"faction {k}", *v) for k, v in FACTION_ORDERS.items()],
    ids=lambda row: row.subject,
)
def test_each_order_s_test_exists_and_writes_a_line_of_that_order(row: Row) -> None:
    keyword = row.subject.removeprefix("faction ")
    assert keyword in _keywords_written(_test(row)), f"{row.test} writes no {keyword} line"


# ---------------------------------------------------------------- (b) prefixes and stop conditions

# (what the row covers, a line that carries it, the test)
PREFIXES: list[tuple[str, str, str, str]] = [
    (
        "no prefix: a full-day line runs one day and goes",
        "STUDY cmbt",
        QM,
        "test_a_line_without_a_prefix_runs_one_day_and_goes",
    ),
    (
        "'-': a line waits for the one above it to go",
        "-FORGET cmbt",
        OM,
        "test_forget_drops_the_skill_and_every_skill_built_on_it_and_frees_the_line_below",
    ),
    (
        "'--': nested dashes are freed one level at a time",
        "--NAME Given",
        QM,
        "test_dashes_wait_level_by_level_as_in_worked_example_b",
    ),
    (
        "'+': an alternative, deleted when a line above it runs",
        "+@STUDY cmbt",
        QM,
        "test_a_plus_line_runs_until_the_condition_above_it_fires_and_is_pruned_before_the_release",
    ),
    (
        "'+' below a dashed block: the alternative of the condition above the block",
        "+@STUDY cmbt",
        QM,
        "test_a_plus_line_below_a_dashed_block_is_the_alternative_of_the_condition_above_it",
    ),
    (
        "'-+': a waiting alternative, live once freed",
        "-+@STUDY cmbt",
        QM,
        "test_a_dashed_plus_line_becomes_a_live_alternative_when_freed",
    ),
    (
        "'@': repeat for ever, at most once a day",
        "@DROP iron 10",
        OM,
        "test_a_repeated_drop_of_a_number_empties_the_unit_a_day_at_a_time_then_waits",
    ),
    (
        "'N': a counter of days, shown in the next template",
        "40 STUDY cmbt",
        QM,
        "test_a_counter_counts_the_days_run_and_the_template_shows_what_is_left",
    ),
    (
        "'Dn' on a full-day line: that day only",
        "@D10 STUDY cmbt",
        QM,
        "test_a_day_gate_runs_a_full_day_line_on_its_day_only_and_a_nonsense_gate_keeps_its_block",
    ),
    ("'Dn' on an immediate line", "D4 YIELD", OM, "test_yield_on_its_day_leaves_the_title_vacant"),
    (
        "'Dn' before a condition that can never hold: a block kept for ever",
        "D10 DAY 15",
        "test_month",
        "test_a_line_that_never_fires_stays_in_the_queue_for_next_month",
    ),
    (
        "'-' and a counter together",
        "-5 NAME Sixth",
        QM,
        "test_a_condition_ignores_at_and_a_one_shot_ignores_its_counter",
    ),
]

STOPS: list[tuple[str, str, str]] = [
    ("the counter reaches 0", QM, "test_a_counter_counts_the_days_run_and_the_template_shows_what_is_left"),
    (
        "'N STUDY skill level': the counter or the level, whichever first",
        QM,
        "test_a_stop_condition_or_the_counter_whichever_comes_first",
    ),
    (
        "'@' with a stop condition: removed when it is met",
        QM,
        "test_a_repeated_line_with_a_stop_condition_is_removed_when_the_condition_is_met",
    ),
    (
        "'STUDY skill level' keeps itself until the level",
        QM,
        "test_a_stop_condition_or_the_counter_whichever_comes_first",
    ),
    (
        "'USE skill products': stops after so many",
        "test_uses",
        "test_a_coins_stop_ends_the_taxing_line_when_reached",
    ),
    (
        "'BUILD skill structure count': stops after so many materials",
        OM,
        "test_build_starts_a_structure_under_a_new_id_and_lays_material_for_its_days",
    ),
    (
        "'BUY n': a partial fill keeps the rest",
        "test_markets",
        "test_a_partial_fill_leaves_the_remainder_in_the_queue_and_the_buyer_pays_its_bid",
    ),
    (
        "'BUY 0': as many as the coins pay for",
        "test_markets",
        "test_buy_without_a_price_bids_the_listed_one_and_zero_buys_all_the_coins_pay_for",
    ),
    (
        "'SELL n': sold at its ask or higher",
        "test_markets",
        "test_sell_takes_its_own_ask_and_an_unlisted_good_needs_marketing",
    ),
    (
        "'RECRUIT n': the rest waits when supply runs short",
        "test_recruiting",
        "test_over_demand_on_one_day_is_an_auction_and_the_rest_waits",
    ),
    (
        "'WAIT n': completes after n days",
        "test_month",
        "test_a_month_runs_thirty_days_and_stamps_each_event_with_its_day",
    ),
    (
        "'DAY n': true on that day, then removed",
        QM,
        "test_a_condition_ignores_at_and_a_one_shot_ignores_its_counter",
    ),
    (
        "a condition ignores '@'; a one-shot ignores its counter",
        QM,
        "test_a_condition_ignores_at_and_a_one_shot_ignores_its_counter",
    ),
    ("a movement ignores its counter and finishes on arrival", QM, "test_a_movement_ignores_its_counter"),
    (
        "'@CARAVAN': the route turned round at its end",
        OM,
        "test_a_repeated_caravan_shuttles_between_its_places_all_month",
    ),
    (
        "RETREAT, the first order of a month on the road",
        OM,
        "test_retreat_as_the_month_s_first_order_walks_back_as_long_as_the_trip_took",
    ),
    (
        "skip but keep: a line that cannot run waits, month after month",
        QM,
        "test_skip_but_keep_a_gift_waits_for_its_receiver_month_after_month",
    ),
    (
        "an invalid line goes and frees the lines waiting on it",
        OM,
        "test_forget_of_a_skill_the_unit_does_not_know_is_dropped_and_releases_its_dependants",
    ),
    (
        "a special order fires only with its mirror (SWAP)",
        OM,
        "test_swap_exchanges_only_when_both_sides_order_the_mirror_line",
    ),
    (
        "a special order fires only with its mirror (SYNCHRO)",
        "test_synchro",
        "test_a_synchro_without_its_mirror_never_fires_and_waits_in_the_queue",
    ),
    (
        "naming a unit replaces its queue; an empty list clears it",
        QM,
        "test_naming_a_unit_replaces_its_queue_and_an_empty_list_clears_it",
    ),
    (
        "the invisible WORK when no full-day line runs",
        "test_month",
        "test_work_pays_the_place_wage_for_the_days_worked_and_upkeep_is_drawn_in_order",
    ),
    (
        "fifty lines at most: the checker refuses the fifty-first",
        QM,
        "test_a_queue_holds_fifty_lines_and_the_checker_refuses_a_fifty_first",
    ),
    (
        "a temporary id: rewritten when the unit is made",
        "test_recruiting",
        "test_a_new_unit_is_stacked_under_the_recruiter_and_its_temporary_id_is_rewritten",
    ),
    (
        "a temporary id never made: its queue and every line naming it go",
        "test_month",
        "test_a_queue_for_a_temporary_id_never_created_is_forgotten_with_every_line_naming_it",
    ),
]

# The parts of a parsed line that a prefix sets: each must be carried by some row's line.
PREFIX_FIELDS = tuple(f.name for f in dataclasses.fields(Line) if f.name not in ("keyword", "args"))


def _carried(line: Line) -> set[str]:
    default = parse_line("WORK")
    return {name for name in PREFIX_FIELDS if getattr(line, name) != getattr(default, name)}


def test_every_prefix_a_line_can_carry_has_a_row() -> None:
    carried = set().union(*(_carried(parse_line(example)) for _, example, _, _ in PREFIXES))
    assert carried == set(PREFIX_FIELDS)
    assert any(parse_line(example).depth >= 2 for _, example, _, _ in PREFIXES)
    assert any(parse_line(example).depth and parse_line(example).plus for _, example, _, _ in PREFIXES)


def test_every_kind_and_timing_of_order_has_a_stop_row() -> None:
    """Each behaviour of spec §2.4 (condition, one-shot, special, plain; immediate, full-day, movement)
    ends a line its own way: each has a row above whose subject names it."""
    subjects = " ".join(subject for subject, _, _ in STOPS)
    for kind in {order.kind for order in language.ORDERS.values()}:
        assert kind in subjects or kind == language.PLAIN, kind
    for words in ("movement", "counter", "WORK", "special"):
        assert words in subjects


@pytest.mark.parametrize(
    "row",
    [Row(s, m, t) for s, _, m, t in PREFIXES] + [Row(s, m, t) for s, m, t in STOPS],
    ids=lambda row: row.subject,
)
def test_each_queue_row_s_test_exists(row: Row) -> None:
    _test(row)


# ---------------------------------------------------------------- (c) the numbers of §9.2

CN = "test_core_numbers"

CORE: list[Row] = [
    # Calendar
    Row("1 turn = 30 days", "test_month", "test_a_month_runs_thirty_days_and_stamps_each_event_with_its_day"),
    Row(
        "market days per place (15th and 30th)",
        "test_markets",
        "test_nothing_is_bought_on_a_day_that_is_no_market_day",
    ),
    Row(
        "control check after day 1",
        "test_month_sequence",
        "test_the_control_check_counts_the_recruits_of_day_one",
    ),
    # Movement
    Row(
        "six hex neighbours; Out / inner place 1 day",
        "test_movement",
        "test_out_of_an_inner_place_takes_a_day_and_a_direction_from_inside_leads_nowhere",
        "travel.inner",
    ),
    Row(
        "structures 0 days (ENTER/LEAVE)",
        "test_movement",
        "test_enter_needs_the_owner_friendly_and_leave_or_exit_take_no_time",
    ),
    Row(
        "walking days from the map; terrain table plains 7 ... hills 12, mountains impassable",
        "test_world",
        "test_walking_days_come_from_the_rules_data",
        "geography.walking",
    ),
    Row(
        "a road removes about 2 days",
        "test_world",
        "test_walking_days_come_from_the_rules_data",
        "geography.road_saving",
    ),
    Row(
        "ocean/lake only by sailing, 4-6 days",
        "test_world",
        "test_the_specs_travel_examples",
        "geography.sailing",
    ),
    Row(
        "riding t - floor(t/3)",
        "test_movement",
        "test_the_fastest_mode_that_carries_the_stack_is_taken_and_riding_cuts_nine_days_to_six",
    ),
    Row("flying 4 days (rain 6, wind 5, storm 15)", "test_movement", "test_fliers_fly_when_it_is_faster"),
    Row(
        "coast to coast = 2 x walking", "test_world", "test_the_specs_travel_examples", "travel.coast_factor"
    ),
    Row(
        "walk/ride weather: rain +20 %, storm +50 %",
        "test_world",
        "test_the_specs_travel_examples",
        "travel.walk_weather",
    ),
    Row(
        "sailing weather: wind -25 %, storm -10 %",
        CN,
        "test_wind_takes_a_quarter_and_a_storm_a_tenth_off_a_sailing_leg_rounded_up",
    ),
    Row(
        "overload t x (1 + 3 x excess), rounded up",
        "test_movement",
        "test_ten_percent_overload_costs_thirty_percent_more_days",
    ),
    Row("no move at 100 % excess", "test_movement", "test_a_stack_twice_its_walking_capacity_cannot_set_out"),
    Row("no move over 60 days", "test_movement", "test_a_leg_longer_than_sixty_days_is_refused"),
    Row(
        "seen at the origin floor(t/2) days, then at the destination",
        "test_movement",
        "test_a_travelling_stack_is_seen_at_its_origin_for_half_the_trip_then_at_its_destination",
    ),
    Row(
        "followers move only in a stack or with 1st scouting",
        "test_movement",
        "test_who_may_set_out",
        "movement.movers",
    ),
    # Study
    Row(
        "cost a day a figure: $1 most, $2 observation/stealth, $3 magic, $5 tactics, $10 strategy",
        CN,
        "test_a_day_of_study_costs_each_figure_what_the_skill_asks",
    ),
    Row(
        "cost $100 nobility",
        "test_study",
        "test_a_specialist_skill_waits_for_a_teacher_or_a_place_that_teaches_it",
    ),
    Row(
        "days: 15 most 1st; 30 observation ... tactics 1; 45; 60; 90; 180; 5 nobility",
        CN,
        "test_each_level_takes_the_core_s_days_of_experience",
    ),
    Row(
        "magecraft 15 or 30 days (the ruleset chose 30)",
        CN,
        "test_each_level_takes_the_core_s_days_of_experience",
        "skills.mage.levels",
    ),
    Row(
        "limits: follower 1st (combat 2nd), leader 2nd (combat 3rd, magic 1st), hero combat 4th",
        "test_study",
        "test_limits_by_unit_type",
        "study.limits",
    ),
    Row(
        "magic 2nd only when taught",
        "test_study",
        "test_a_teacher_takes_a_small_unit_past_its_limit_but_not_a_big_one",
        "study.taught_limits",
    ),
    Row(
        "+10 % under a stack leader who knows it better",
        "test_study",
        "test_a_leader_bonus_only_when_the_leader_knows_the_skill_better",
    ),
    Row(
        "+20 % teaching place; x2 TEACH",
        "test_study",
        "test_stacked_under_a_knowing_leader_in_a_teaching_place_and_taught_is_260_percent",
    ),
    Row(
        "TEACH x2 for 50 figures (decided: no dilution beyond)",
        CN,
        "test_a_teacher_doubles_the_speed_of_a_unit_of_more_than_fifty_figures_undiluted",
        "study.bonuses.teach_figures",
    ),
    Row(
        "TEACH past the unit's own limits only for 10 figures or fewer",
        "test_study",
        "test_a_teacher_takes_a_small_unit_past_its_limit_but_not_a_big_one",
    ),
    Row(
        "10 % of study spills to parent skills",
        "test_study",
        "test_stacked_under_a_knowing_leader_in_a_teaching_place_and_taught_is_260_percent",
    ),
    Row(
        "USE: 10 % to the skill, 5 % to parents a day",
        "test_production",
        "test_a_day_of_use_teaches_a_tenth_of_a_day_and_a_twentieth_to_the_parents",
    ),
    # Upkeep, wages, taxes
    Row(
        "upkeep follower $10, leader/hero $20",
        "test_month",
        "test_work_pays_the_place_wage_for_the_days_worked_and_upkeep_is_drawn_in_order",
    ),
    Row(
        "winter x2",
        "test_month",
        "test_wages_of_a_unit_that_left_are_lost_and_winter_doubles_upkeep_paid_from_the_fund",
    ),
    Row(
        "a food ration is 80 % of upkeep",
        "test_month",
        "test_food_rations_cover_most_of_a_figure_s_upkeep_and_are_eaten",
        "economy.food",
    ),
    Row(
        "payment order: unit, same-faction units here by arrival, fund",
        "test_month",
        "test_work_pays_the_place_wage_for_the_days_worked_and_upkeep_is_drawn_in_order",
    ),
    Row(
        "unpaid once: dissent; twice: desertion into the population",
        "test_month",
        "test_an_unpaid_unit_grows_dissent_and_deserts_when_unpaid_again",
        "economy.desert_after",
    ),
    Row(
        "WORK: wages x figures x days/30 at month end",
        "test_month",
        "test_work_pays_the_place_wage_for_the_days_worked_and_upkeep_is_drawn_in_order",
    ),
    Row(
        "WORK wages lost if the unit left",
        "test_month",
        "test_wages_of_a_unit_that_left_are_lost_and_winter_doubles_upkeep_paid_from_the_fund",
    ),
    Row(
        "taxes to the land-title holder's fund",
        "test_title_orders",
        "test_stance_claim_guard_press_and_taxes_in_one_month",
    ),
    Row(
        "taxes +25 % in autumn",
        "test_guards",
        "test_taxes_go_to_the_most_local_owner_with_the_autumn_bonus",
        "taxation.autumn_bonus",
    ),
    Row(
        "no taxes while occupied",
        "test_guards",
        "test_an_occupied_place_pays_its_owner_nothing",
        "taxation.occupation",
    ),
    Row(
        "sample: population 5621 -> taxes $11244, wages $11",
        "test_places",
        "test_the_manuals_sample_city",
        "places.wages",
    ),
    Row(
        "faction fund $5000 (+$1000 Imperial City, +$500 border city)",
        CN,
        "test_a_new_faction_s_fund_is_5000_and_1000_more_in_the_imperial_city_500_in_a_border_city",
        "start",
    ),
    Row(
        "WITHDRAW only in cities",
        "test_month",
        "test_withdraw_works_only_in_a_city_and_takes_from_the_fund",
        "economy.withdraw_places",
    ),
    # Buy / sell
    Row("leaders only trade", "test_markets", "test_only_leaders_trade"),
    Row("'@BUY': a bid again on every market day", QM, "test_a_repeated_buy_bids_again_on_every_market_day"),
    Row(
        "coins in hand; n = 0 buys as many as they pay for",
        "test_markets",
        "test_buy_without_a_price_bids_the_listed_one_and_zero_buys_all_the_coins_pay_for",
    ),
    Row(
        "settles at the end of market days",
        "test_markets",
        "test_nothing_is_bought_on_a_day_that_is_no_market_day",
    ),
    Row(
        "a trader stays all day",
        "test_movement",
        "test_stay_and_a_waiting_sell_keep_a_unit_behind_when_its_stack_sets_out",
    ),
    Row(
        "call auction, volume-maximising price",
        "test_auction",
        "test_the_clearing_price_maximises_the_pieces_traded",
        "markets.auction",
    ),
    Row(
        "buyers pay their bid",
        "test_auction",
        "test_each_buyer_pays_its_own_bid_and_the_market_keeps_the_spread",
    ),
    Row(
        "sellers get their ask",
        "test_auction",
        "test_sellers_receive_their_own_ask_and_sell_in_order_of_price",
    ),
    Row(
        "partial fills leave the remainder",
        "test_markets",
        "test_a_partial_fill_leaves_the_remainder_in_the_queue_and_the_buyer_pays_its_bid",
    ),
    Row(
        "trading in owned land needs the owner's Friendly",
        "test_wiring",
        "test_the_land_owner_s_stance_gates_trading_and_recruiting",
        "stances.gates.trade",
    ),
    # Recruit
    Row(
        "price >= listed; price 0 = listed",
        "test_recruiting",
        "test_the_price_must_reach_the_listed_one_and_zero_means_listed",
    ),
    Row("recruiting is for leaders", "test_language", "test_who_may_give_an_order"),
    Row(
        "settles at the end of the day; a new id is stacked under the recruiter",
        "test_recruiting",
        "test_a_new_unit_is_stacked_under_the_recruiter_and_its_temporary_id_is_rewritten",
    ),
    Row(
        "over-demand -> auction; the rest waits",
        "test_recruiting",
        "test_over_demand_on_one_day_is_an_auction_and_the_rest_waits",
    ),
    Row(
        "recruits leave the population",
        "test_recruiting",
        "test_recruits_leave_the_natives_and_join_an_existing_unit",
    ),
    Row(
        "sample prices follower $64, leader $320",
        "test_places",
        "test_the_manuals_sample_city",
        "recruiting.races.man",
    ),
    Row(
        "CP ceil(figures/20) per unit, base 200",
        "test_control",
        "test_the_manuals_examples",
        "control_points.base",
    ),
    # Combat
    Row(
        "trigger: ATTACK",
        "test_warfare",
        "test_an_attack_has_a_winner_and_its_losses_loot_and_experience_go_into_the_state",
    ),
    Row(
        "trigger: an Enemy on sight",
        "test_warfare",
        "test_an_enemy_seen_is_attacked_and_the_newcomer_attacks_when_both_are_enemies",
    ),
    Row("trigger: guard interception", "test_guards", "test_an_enemy_is_attacked_on_arrival"),
    Row(
        "trigger: MARCH into a guarded place", "test_warfare", "test_a_march_that_wins_goes_on_into_the_place"
    ),
    Row(
        "trigger: guards against a pillager",
        "test_guards",
        "test_pillage_needs_a_force_and_alliance_and_meets_the_guards",
    ),
    Row("sides, AVOID/DEFEND, stacks fight together", "test_battle", "test_avoid_defend_and_the_whole_stack"),
    Row(
        "grid: 3 ranks x 3 files a side, 18 squares",
        "test_battle",
        "test_the_grid_has_six_ranks_with_the_two_fronts_facing",
        "combat.actions",
    ),
    Row(
        "initiative: PARRY +2",
        CN,
        "test_a_parry_comes_two_initiative_earlier_and_a_flyer_strikes_two_earlier",
    ),
    Row(
        "tactical advantage in round 1, -1 a round",
        "test_battle",
        "test_tactical_advantage_lets_the_better_tactician_strike_first",
    ),
    Row(
        "hits > 1: another MELEE 1 initiative later each",
        "test_battle",
        "test_a_unit_with_two_hits_strikes_again_one_initiative_later",
        "combat.extra_strike_initiative",
    ),
    Row("strike 40 % + 4 % a melee point", "test_battle", "test_strike_deadly_and_dodge_chances"),
    Row(
        "hit odds A'/(A'+D') after cutting the smaller to 1",
        "test_battle",
        "test_six_against_four_hits_three_times_in_four",
        "combat.strike",
    ),
    Row(
        "A > D deadly; else deadly 50 % + 5 % a base combat level",
        "test_battle",
        "test_strike_deadly_and_dodge_chances",
    ),
    Row(
        "zero attack misses, zero defense is always hit",
        "test_battle",
        "test_zero_attack_misses_and_zero_defense_is_always_hit",
        "combat.min_blows",
    ),
    Row("missile: defense / 3 rounded down", "test_battle", "test_missile_defense_is_a_third_rounded_down"),
    Row(
        "missile: not against adjacent enemies",
        "test_battle",
        "test_archers_shoot_only_at_enemies_that_are_not_adjacent",
    ),
    Row(
        "stealth dodge 10 % a point over the attacker's observation",
        "test_battle",
        "test_strike_deadly_and_dodge_chances",
    ),
    Row("end: a side gone", "test_battle", "test_a_passing_morale_check_keeps_the_side_fighting_to_the_last"),
    Row(
        "end: 50 % casualties and failed morale (5 % x def + 5 % x tactics)",
        "test_battle",
        "test_a_side_that_loses_half_and_fails_morale_breaks_then_routs",
        "combat.morale",
    ),
    Row(
        "end: 5 rounds without a wound",
        "test_battle",
        "test_five_rounds_without_a_blow_end_in_a_draw",
        "combat.quiet_rounds",
    ),
    Row("end: 100 rounds", CN, "test_a_battle_ends_after_its_hundredth_round_whatever_else"),
    Row(
        "rout round: FLEE, PARRY forgotten 33 %",
        "test_battle",
        "test_a_side_that_loses_half_and_fails_morale_breaks_then_routs",
        "combat.rout",
    ),
    Row(
        "rout round: stealth negated",
        "test_battle",
        "test_rout_negates_stealth_so_the_hidden_are_struck_first",
    ),
    Row(
        "loot: 50 % of the dead units' goods to random winners",
        "test_battle",
        "test_loot_goes_half_to_winners_that_can_carry_it",
        "combat.loot_share",
    ),
    Row(
        "hero chance = max(melee, missile, initiative) %",
        "test_battle",
        "test_a_leader_becomes_a_hero_by_his_best_factor",
    ),
    Row(
        "experience a round: +1 day combat (+2 novice), +1 melee/parry",
        "test_battle",
        "test_experience_per_round_for_striking_and_parrying",
        "combat.experience",
    ),
    Row(
        "flyers +2 initiative",
        CN,
        "test_a_parry_comes_two_initiative_earlier_and_a_flyer_strikes_two_earlier",
    ),
    Row(
        "flyers +1 attack on the ground; +5 / +2 defense against the ground",
        "test_battle",
        "test_strike_deadly_and_dodge_chances",
    ),
    Row(
        "stats: combat 1 +1/+1, combat 2 +2/+2, blades +1/+1, sword +3/+2/+2; life 1, hits 1",
        "test_stats",
        "test_skills_items_race_and_effects_add_up",
        "items.swrd",
    ),
    # Press
    Row(
        "signed $50, rumour $30, at most $50 a faction a turn",
        "test_press_rewards",
        "test_rewards_do_not_stack_and_are_capped",
        "press_rewards.stack",
    ),
    Row(
        "rewards credited before day 1", "test_press_rewards", "test_rewards_reach_the_funds_before_the_month"
    ),
    Row(
        "no reward for filler (the GM's veto)",
        "test_press_rewards",
        "test_bots_and_absent_players_earn_nothing",
        "press_rewards.stack",
    ),
    # Control points
    Row(
        "available 200 + titles (+5/+10/+20/+50)",
        "test_control",
        "test_available_points_add_the_titles_tiers",
    ),
    Row(
        "required ceil(fig/20) + hero + ceil(mana/4)",
        "test_stats",
        "test_control_points_follow_the_manuals_examples",
        "unit_stats.control",
    ),
    Row(
        "over by m: m % chance each unit idles the month",
        "test_control",
        "test_day_one_check_idles_each_unit_with_missing_percent",
    ),
    Row(
        "over by m: 5m % chance to refuse a battle, never the target",
        "test_control",
        "test_battle_refusal_is_five_times_missing_and_never_for_the_target",
    ),
]


# Numbers of §9.2 that belong to P3 (spec §9.1 #23), outside the scope: each with the reason and a
# check that it is indeed not built, so that building it asks for a row in CORE.
NOT_IN_SCOPE: list[tuple[str, str]] = [
    ("initiative: RELOAD -1", "RELOAD is P3 (spec 9.1 #23); no combat action of the rules reloads"),
]


def test_what_the_core_table_leaves_out_is_not_built() -> None:
    actions = rules_data(RULESET)["combat"]["actions"]
    assert "reload" not in actions and "relo" not in actions
    assert [subject for subject, _ in NOT_IN_SCOPE] == ["initiative: RELOAD -1"]


@functools.cache
def _house_rules() -> frozenset[str]:
    return frozenset(str(rule["rule"]) for rule in rules_data(RULESET).get("house_rules") or [])


@pytest.mark.parametrize("row", CORE, ids=lambda row: row.subject)
def test_each_core_number_s_test_exists_and_its_house_rule_too(row: Row) -> None:
    _test(row)
    if row.house_rule:
        assert row.house_rule in _house_rules(), f"{row.subject}: no house rule {row.house_rule}"


def test_the_core_table_covers_every_part_of_section_9_2() -> None:
    """Each heading of §9.2 has rows: a part of the core left out of the table shows here."""
    parts = {
        "Calendar": "30 days", "Movement": "riding", "Study": "cost a day", "Upkeep": "upkeep follower",
        "Buy / sell": "call auction", "Recruit": "price 0", "Combat": "strike 40", "Press": "signed $50",
        "Control points": "available 200",
    }  # fmt: skip
    subjects = " ".join(row.subject for row in CORE)
    assert all(words in subjects for words in parts.values())


# ---------------------------------------------------------------- the rest of the first "done when"

DONE_WHEN: list[Row] = [
    Row(
        "a whole month's execution sequence",
        "test_month_sequence",
        "test_a_month_runs_the_turn_table_in_order_with_each_day_s_steps_in_theirs",
    ),
    Row(
        "a market auction with partial fills",
        "test_markets",
        "test_a_partial_fill_leaves_the_remainder_in_the_queue_and_the_buyer_pays_its_bid",
    ),
    Row(
        "a market auction: two buyers for a short supply",
        "test_markets",
        "test_two_buyers_outbid_each_other_for_a_short_supply",
    ),
    Row(
        "a battle",
        "test_warfare",
        "test_an_attack_has_a_winner_and_its_losses_loot_and_experience_go_into_the_state",
    ),
]


@pytest.mark.parametrize("row", DONE_WHEN, ids=lambda row: row.subject)
def test_each_done_when_row_s_test_exists(row: Row) -> None:
    _test(row)
