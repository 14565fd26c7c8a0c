"""Orders of spec §2.11 that no other module runs as a player writes them: each test sends the line in an
order file (the real checker reads it), resolves whole months through the engine's turn, and checks what
the player relies on (the goods moved, the title passed, the skill gone, the waiting condition firing on
its day).

The start (``support.start``) puts a red hero with fifty red men stacked under it, and a blue hero with
fifty blue men, in the same city; each test adds to that state only what its order needs.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from .support import game, give_title, month, named_on, start, unit_of, unit_orders

DAYS = 30  # days in a month (rules.yaml: ticks)


def _unit(state: dict[str, Any], like: str, race: str, **fields: Any) -> str:
    """A new unit of ``like``'s faction beside it, as a recruit would leave it; returns its id."""
    uid = f"U{state['next_ids']['unit']}"
    state["next_ids"]["unit"] += 1
    record = copy.deepcopy(state["units"][like])
    record.update(race=race, stack=None, items={}, equipped={}, skills={}, orders=[], title=None)
    record["name"] = f"Unit {uid[1:]}"
    record["arrival"] = max(int(u.get("arrival", 0)) for u in state["units"].values()) + 1
    record.update(fields)
    state["units"][uid] = record
    return uid


def _ticks(result: Any, kind: str, faction: str | None = None) -> list[int]:
    return [e.tick for e in result.events if e.kind == kind and (faction is None or faction in e.actors)]


# ---------------------------------------------------------------- titles: BESTOW, YIELD, CANCEL


def test_bestow_waits_for_its_day_then_hands_the_title_to_a_leader_standing_there() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    where = give_title(state, hero)
    heir = _unit(state, hero, "ldr")
    result = month(g, state, {"red": [unit_orders(hero, "DAY 3", f"-BESTOW {heir}")]})
    after = result.state
    assert after["places"][where]["title"]["holder"] == heir
    assert after["units"][heir]["title"] == {"tag": state["places"][where]["title"]["tag"], "location": where}
    assert after["units"][hero]["title"] is None
    assert _ticks(result, "title_bestowed", "red") == [3] and after["units"][hero]["orders"] == []


def test_bestow_to_a_unit_that_may_not_hold_a_title_waits_in_the_queue() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    where = give_title(state, hero)
    result = month(g, state, {"red": [unit_orders(hero, f"BESTOW {men}")]})
    assert result.state["places"][where]["title"]["holder"] == hero
    assert result.state["units"][hero]["orders"] == [f"BESTOW {men}"] and not _ticks(result, "title_bestowed")


def test_yield_on_its_day_leaves_the_title_vacant() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    where = give_title(state, hero)
    result = month(g, state, {"red": [unit_orders(hero, "D4 YIELD")]})
    assert result.state["places"][where]["title"]["holder"] is None
    assert result.state["units"][hero]["title"] is None
    assert _ticks(result, "title_yielded", "red") == [4] and result.state["units"][hero]["orders"] == []


def _baron_and_sheriff(g: Any, state: dict[str, Any]) -> tuple[str, str, str]:
    """Red's hero holds a barony on the city; blue's hero holds a sheriff's title on the territory around
    it, and both stand in that territory: (red hero, blue hero, the territory)."""
    red, blue = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    city = state["units"][red]["location"]
    land = g.world.locations[city].parent
    state["places"][city]["title"] = {"tag": "barn", "holder": red}
    state["units"][red]["title"] = {"tag": "barn", "location": city}
    state["places"].setdefault(land, {})["title"] = {"tag": "shrf", "holder": blue}
    state["units"][blue]["title"] = {"tag": "shrf", "location": land}
    for hero in (red, blue):
        state["units"][hero].update(location=land, stack=None)
    for men in (unit_of(state, "red", "man"), unit_of(state, "blue", "man")):
        state["units"][men].update(location=land)
    return red, blue, land


def test_a_baron_cancels_a_sheriff_in_range_once_it_knows_more_combat() -> None:
    g = game()
    state = start(g)
    red, blue, land = _baron_and_sheriff(g, state)
    skill = g.rules["title_rules"]["cancel_skill"]
    state["units"][red]["skills"][skill] = 20
    state["units"][blue]["skills"][skill] = 20
    line = f"CANCEL shrf {land}"
    # As experienced as the sheriff: the line waits.
    first = month(g, state, {"red": [unit_orders(red, line)]})
    assert first.state["places"][land]["title"]["holder"] == blue
    assert first.state["units"][red]["orders"] == [line] and not _ticks(first, "title_cancelled")
    # A day more of combat than the sheriff: the title falls vacant on day 1 of the next month.
    state = first.state
    state["units"][red]["skills"][skill] = 21
    second = month(g, state, {})
    assert second.state["places"][land]["title"]["holder"] is None
    assert second.state["units"][blue]["title"] is None
    assert _ticks(second, "title_cancelled", "red") == [1] and second.state["units"][red]["orders"] == []


# ---------------------------------------------------------------- goods: DROP, SWAP, MERGE


def test_drop_all_but_a_number_kept_puts_the_rest_on_the_ground() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    where = state["units"][hero]["location"]
    state["units"][hero]["items"]["iron"] = 100
    state["places"][where].pop("ground", None)
    result = month(g, state, {"red": [unit_orders(hero, "DROP iron 0 30")]})
    after = result.state
    assert after["units"][hero]["items"]["iron"] == 30
    assert after["places"][where]["ground"] == {"iron": 70}
    assert _ticks(result, "goods_dropped", "red") == [1] and after["units"][hero]["orders"] == []


def test_a_repeated_drop_of_a_number_empties_the_unit_a_day_at_a_time_then_waits() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    where = state["units"][hero]["location"]
    state["units"][hero]["items"]["iron"] = 25
    state["places"][where].pop("ground", None)
    result = month(g, state, {"red": [unit_orders(hero, "@DROP iron 10")]})
    # Ten a day while it holds ten or more; then what is left (five) on day 3; then nothing to drop.
    assert result.state["places"][where]["ground"] == {"iron": 25}
    assert "iron" not in result.state["units"][hero]["items"]
    assert result.state["units"][hero]["orders"] == ["@DROP iron 10"]


def _swap_goods(state: dict[str, Any]) -> tuple[str, str]:
    red, blue = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    state["units"][red]["items"]["iron"] = 100
    state["units"][blue]["items"]["wood"] = 12
    return red, blue


def test_swap_exchanges_only_when_both_sides_order_the_mirror_line() -> None:
    g = game()
    state = start(g)
    red, blue = _swap_goods(state)
    offer = f"SWAP {blue} 50 iron 10 wood"
    # Red alone: nothing moves and the line waits, whatever the stances.
    alone = month(g, state, {"red": [unit_orders(red, offer)]})
    assert (
        alone.state["units"][red]["items"]["iron"] == 100
        and alone.state["units"][blue]["items"]["wood"] == 12
    )
    assert alone.state["units"][red]["orders"] == [offer]
    # Blue answers with a line that is not the mirror (nine wood): still nothing.
    state = alone.state
    wrong = month(g, state, {"blue": [unit_orders(blue, f"SWAP {red} 9 wood 50 iron")]})
    assert wrong.state["units"][red]["items"]["iron"] == 100 and not _ticks(wrong, "goods_swapped")
    # The mirror line: both sides change on day 1 and both lines are done.
    state = wrong.state
    both = month(g, state, {"blue": [unit_orders(blue, f"SWAP {red} 10 wood 50 iron")]})
    units = both.state["units"]
    assert units[red]["items"]["iron"] == 50 and units[red]["items"]["wood"] == 10
    assert units[blue]["items"]["iron"] == 50 and units[blue]["items"]["wood"] == 2
    assert _ticks(both, "goods_swapped") == [1]
    assert units[red]["orders"] == [] and units[blue]["orders"] == []


def test_swap_of_goods_one_side_lacks_waits_until_it_has_them() -> None:
    g = game()
    state = start(g)
    red, blue = _swap_goods(state)
    state["units"][blue]["items"]["wood"] = 4
    orders = {
        "red": [unit_orders(red, f"SWAP {blue} 50 iron 10 wood")],
        "blue": [unit_orders(blue, f"SWAP {red} 10 wood 50 iron")],
    }
    result = month(g, state, orders)
    assert (
        result.state["units"][red]["items"]["iron"] == 100
        and result.state["units"][blue]["items"]["wood"] == 4
    )
    assert result.state["units"][red]["orders"] == [f"SWAP {blue} 50 iron 10 wood"]


def test_merge_moves_figures_and_leaves_the_goods_behind() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    others = _unit(state, men, "man", figures=10, stack=hero)
    state["units"][men]["items"]["iron"] = 40
    result = month(g, state, {"red": [unit_orders(men, f"MERGE {others} 20")]})
    units = result.state["units"]
    assert units[men]["figures"] == 30 and units[others]["figures"] == 30
    assert units[men]["items"]["iron"] == 40 and "iron" not in units[others]["items"]
    assert _ticks(result, "units_merged", "red") == [1]


def test_merging_every_figure_leaves_a_stockpile_with_an_empty_queue() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    others = _unit(state, men, "man", figures=10, stack=hero)
    state["units"][men]["items"]["iron"] = 40
    result = month(g, state, {"red": [unit_orders(men, f"MERGE {others} 50", "@STUDY cmbt")]})
    units = result.state["units"]
    assert units[others]["figures"] == 60 and units[men]["figures"] == 0
    assert units[men]["items"]["iron"] == 40 and units[men]["orders"] == []


def test_merge_zero_moves_every_figure_and_every_possession() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    others = _unit(state, men, "man", figures=10, stack=hero)
    state["units"][men]["items"]["iron"] = 40
    result = month(g, state, {"red": [unit_orders(men, f"MERGE {others} 0")]})
    units = result.state["units"]
    assert units[others]["figures"] == 60 and units[men]["figures"] == 0
    assert units[others]["items"]["iron"] == 40 and "iron" not in units[men]["items"]


def test_merge_into_another_faction_s_unit_waits() -> None:
    g = game()
    state = start(g)
    men, blue_men = unit_of(state, "red", "man"), unit_of(state, "blue", "man")
    result = month(g, state, {"red": [unit_orders(men, f"MERGE {blue_men} 10")]})
    assert result.state["units"][men]["figures"] == 50 and result.state["units"][blue_men]["figures"] == 50
    assert result.state["units"][men]["orders"] == [f"MERGE {blue_men} 10"]


# ---------------------------------------------------------------- skills: FORGET


def test_forget_drops_the_skill_and_every_skill_built_on_it_and_frees_the_line_below() -> None:
    g = game()
    state = start(g)
    men = unit_of(state, "red", "man")
    first = g.rules["skills"]["cmbt"]["levels"][0]
    state["units"][men]["skills"] = {"cmbt": first, "blde": first, "scou": first}
    result = month(g, state, {"red": [unit_orders(men, "DAY 2", "-FORGET cmbt", '--NAME "Unlearned"')]})
    after = result.state["units"][men]
    assert "cmbt" not in after["skills"] and "blde" not in after["skills"]
    assert after["skills"]["scou"] == first
    assert _ticks(result, "skills_forgotten", "red") == [2] and named_on(result, men) == [2]
    assert after["orders"] == []


def test_forget_of_a_skill_the_unit_does_not_know_is_dropped_and_releases_its_dependants() -> None:
    g = game()
    state = start(g)
    men = unit_of(state, "red", "man")
    result = month(g, state, {"red": [unit_orders(men, "FORGET blde", '-NAME "Never Knew"')]})
    assert named_on(result, men) == [1] and result.state["units"][men]["orders"] == []
    assert [e.tick for e in result.events if e.kind == "line_failed" and e.actors == ["red"]] == [1]


# ---------------------------------------------------------------- stacks as conditions: LEADER, LEADING


def test_leader_and_leading_are_true_inside_one_stack_and_free_their_dependants() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    orders = {
        "red": [
            unit_orders(hero, f"LEADING {men}", '-NAME "Head of the Column"'),
            unit_orders(men, f"LEADER {hero}", '-NAME "The Column"'),
        ]
    }
    result = month(g, state, orders)
    assert named_on(result, hero) == [1] and named_on(result, men) == [1]
    assert result.state["units"][hero]["name"] == "Head of the Column"
    assert result.state["units"][hero]["orders"] == [] and result.state["units"][men]["orders"] == []


def test_leader_and_leading_wait_while_the_units_are_in_two_stacks() -> None:
    g = game()
    state = start(g)
    red, blue_men = unit_of(state, "red", "hero"), unit_of(state, "blue", "man")
    orders = {
        "red": [unit_orders(red, f"LEADING {blue_men}", '-NAME "Never"')],
        "blue": [unit_orders(blue_men, f"LEADER {red}", '-NAME "Never Either"')],
    }
    result = month(g, state, orders)
    assert named_on(result, red) == [] and named_on(result, blue_men) == []
    assert result.state["units"][red]["orders"] == [f"LEADING {blue_men}", "-NAME Never"]


def test_leader_is_true_for_a_leader_two_levels_up_and_follows_an_unstacking() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    captain = _unit(state, hero, "ldr", stack=hero)
    state["units"][men]["stack"] = captain
    orders = {
        "red": [
            unit_orders(
                men, f"LEADER {hero}", '-NAME "Far Below"', "DAY 6", f"-LEADER {hero}", "--NAME Still"
            ),
            unit_orders(captain, "DAY 5", "-UNSTACK"),
        ]
    }
    result = month(g, state, orders)
    assert named_on(result, men) == [1]
    # After the captain unstacks on day 5 (taking the men), the hero leads neither: the LEADER line freed
    # on day 6 waits for the rest of the month.
    assert result.state["units"][captain]["stack"] is None and result.state["units"][men]["stack"] == captain
    assert result.state["units"][men]["orders"] == [f"LEADER {hero}", "-NAME Still"]


# ---------------------------------------------------------------- guarding: PATROL


@pytest.mark.parametrize("keyword", ["PATROL", "GUARD"])
def test_patrol_guards_where_the_faction_holds_a_title_and_halves_the_day_s_study(keyword: str) -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    blue_men = unit_of(state, "blue", "man")
    give_title(state, hero)
    first = g.rules["skills"]["cmbt"]["levels"][0]
    for uid in (men, blue_men):
        state["units"][uid]["skills"]["cmbt"] = first
        state["units"][uid]["items"]["coin"] = 5000
    orders = {
        "red": [unit_orders(men, f"@{keyword}", "@STUDY cmbt")],
        "blue": [unit_orders(blue_men, "@STUDY cmbt")],
    }
    result = month(g, state, orders)
    units = result.state["units"]
    assert units[blue_men]["skills"]["cmbt"] == first + DAYS
    assert units[men]["skills"]["cmbt"] == pytest.approx(first + DAYS / 2)
    assert units[men]["orders"] == [f"@{keyword}", "@STUDY cmbt"]


def test_patrol_without_a_title_of_the_faction_there_waits_and_the_unit_studies_in_full() -> None:
    g = game()
    state = start(g)
    men = unit_of(state, "red", "man")
    first = g.rules["skills"]["cmbt"]["levels"][0]
    state["units"][men]["skills"]["cmbt"] = first
    state["units"][men]["items"]["coin"] = 5000
    result = month(g, state, {"red": [unit_orders(men, "@PATROL", "@STUDY cmbt")]})
    assert result.state["units"][men]["skills"]["cmbt"] == first + DAYS


# ---------------------------------------------------------------- conditions: AT, SEE, SIZE


def test_at_waits_until_the_unit_stands_in_the_place_then_frees_its_line() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    land = g.world.locations[state["units"][hero]["location"]].parent
    result = month(g, state, {"red": [unit_orders(hero, f"AT {land}", "-NAME Outside", f"MOVE {land}")]})
    arrived = _ticks(result, "arrives", "red")
    assert result.state["units"][hero]["location"] == land and len(arrived) == 1
    # The one-day step begun on day 1 ends at the start of day 2, whose immediate passes find AT true.
    assert named_on(result, hero) == arrived and result.state["units"][hero]["orders"] == []


def test_see_fires_for_a_unit_here_and_waits_for_one_elsewhere() -> None:
    g = game()
    state = start(g)
    hero, blue = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    away = unit_of(state, "outlaws", "ldr")
    orders = {
        "red": [
            unit_orders(hero, f"SEE {blue}", "-NAME Watcher"),
            unit_orders(unit_of(state, "red", "man"), f"SEE {away}", "-NAME Lookouts"),
        ]
    }
    result = month(g, state, orders)
    assert named_on(result, hero) == [1] and named_on(result, unit_of(state, "red", "man")) == []


def test_size_fires_the_day_after_recruits_make_the_unit_big_enough() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    state["units"][hero]["items"]["coin"] = 2000
    orders = {
        "red": [
            unit_orders(hero, "DAY 4", f"-RECRUIT {men} 10 man 0"),
            unit_orders(men, "SIZE 60", "-NAME Sixty"),
        ]
    }
    result = month(g, state, orders)
    # Recruits join at the end of day 4; SIZE reads sixty figures on day 5.
    assert result.state["units"][men]["figures"] == 60
    assert named_on(result, men) == [5]


def test_a_unit_setting_switches_on_the_unit_alone() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    result = month(g, state, {"red": [unit_orders(hero, "SETTING ADVERTISE ON")]})
    assert result.state["units"][hero]["settings"]["advertise"] is True
    assert "advertise" not in (result.state["units"][men].get("settings") or {})
    assert "advertise" not in (result.state["factions"]["red"].get("settings") or {})


# ---------------------------------------------------------------- goods: GET, SPLIT


def test_get_takes_from_one_s_own_unit_and_from_the_ground_keeping_what_is_asked() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    where = state["units"][hero]["location"]
    state["units"][men]["items"]["iron"] = 30
    state["places"][where]["ground"] = {"wood": 12}
    # The ground of an owned place is open to the owners' allies only: the emperor's title covers this city.
    shut = month(g, copy.deepcopy(state), {"red": [unit_orders(hero, f"GET {where} 0 wood 5")]})
    assert shut.state["places"][where]["ground"] == {"wood": 12}
    assert shut.state["units"][hero]["orders"] == [f"GET {where} 0 wood 5"]
    state["factions"]["imperials"]["stances"]["red"] = "ally"
    result = month(g, state, {"red": [unit_orders(hero, f"GET {men} 20 iron", f"GET {where} 0 wood 5")]})
    units = result.state["units"]
    assert units[hero]["items"]["iron"] == 20 and units[men]["items"]["iron"] == 10
    assert units[hero]["items"]["wood"] == 7 and result.state["places"][where]["ground"] == {"wood": 5}
    assert _ticks(result, "goods_taken", "red") == [1, 1] and units[hero]["orders"] == []


def test_split_into_a_new_id_creates_the_unit_and_runs_the_queue_written_for_it() -> None:
    g = game()
    state = start(g)
    men = unit_of(state, "red", "man")
    before = set(state["units"])
    orders = {
        "red": [
            unit_orders(men, "DAY 3", "-SPLIT rednU01 20"),
            unit_orders("rednU01", "NAME Splinter"),
        ]
    }
    result = month(g, state, orders)
    (new,) = set(result.state["units"]) - before
    assert result.state["units"][new]["figures"] == 20 and result.state["units"][men]["figures"] == 30
    # Created in day 3's immediate passes, the new unit takes its first order on day 4.
    assert result.state["units"][new]["name"] == "Splinter" and named_on(result, new) == [4]
    assert result.state["units"][new]["location"] == state["units"][men]["location"]


# ---------------------------------------------------------------- stacks: ACCEPT, STACK, EJECT, PROMOTE, STAY


def test_stack_under_another_faction_needs_its_accept() -> None:
    g = game()
    state = start(g)
    red, blue = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    refused = month(g, copy.deepcopy(state), {"red": [unit_orders(red, f"STACK {blue}")]})
    assert refused.state["units"][red]["stack"] is None
    orders = {
        "red": [unit_orders(red, f"STACK {blue}")],
        "blue": [unit_orders(blue, f"ACCEPT {red}")],
    }
    result = month(g, state, orders)
    assert result.state["units"][red]["stack"] == blue
    assert result.state["units"][unit_of(state, "red", "man")]["stack"] == red  # its own stack comes along
    assert _ticks(result, "stacks", "red") == [1]


def test_eject_unstacks_the_unit_directly_under_the_leader() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    result = month(g, state, {"red": [unit_orders(hero, "D6 EJECT " + men)]})
    assert result.state["units"][men]["stack"] is None and _ticks(result, "ejects", "red") == [6]


def test_promote_moves_a_unit_listed_later_to_just_before_this_one() -> None:
    g = game()
    state = start(g)
    red, blue = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    assert state["units"][red]["arrival"] < state["units"][blue]["arrival"]
    result = month(g, state, {"red": [unit_orders(red, f"PROMOTE {blue}")]})
    units = result.state["units"]
    assert units[blue]["arrival"] < units[red]["arrival"] and _ticks(result, "promotes", "red") == [1]


def test_stay_keeps_a_stacked_unit_home_when_its_stack_sets_out() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    home = state["units"][hero]["location"]
    land = g.world.locations[home].parent
    orders = {"red": [unit_orders(hero, "D3 MOVE " + land), unit_orders(men, "STAY")]}
    result = month(g, state, orders)
    units = result.state["units"]
    assert units[hero]["location"] == land and units[men]["location"] == home
    assert units[men]["stack"] is None and units[men]["orders"] == []
    assert _ticks(result, "stays_behind", "red") == [3]


# ---------------------------------------------------------------- travel: MARCH, CARAVAN, RETREAT


def test_march_into_an_unguarded_place_goes_like_a_move() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    land = g.world.locations[state["units"][hero]["location"]].parent
    result = month(g, state, {"red": [unit_orders(hero, f"MARCH {land}")]})
    units = result.state["units"]
    assert units[hero]["location"] == land == units[men]["location"]
    assert _ticks(result, "departs", "red") == [1] and result.state["units"][hero]["orders"] == []


def test_a_repeated_caravan_shuttles_between_its_places_all_month() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    city = state["units"][hero]["location"]
    land = g.world.locations[city].parent
    line = f"@CARAVAN {city} {land}"
    result = month(g, state, {"red": [unit_orders(hero, line)]})
    departures = _ticks(result, "departs", "red")
    # One day each way: out on day 1, back on day 2, and so on; every day a departure.
    assert departures == list(range(1, DAYS + 1))
    assert result.state["units"][hero]["orders"] == [line]


def test_retreat_as_the_month_s_first_order_walks_back_as_long_as_the_trip_took() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    land = g.world.locations[state["units"][hero]["location"]].parent
    far = next(r.to for r in g.world.locations[land].routes if r.walk and r.walk >= 10)
    first = month(g, state, {"red": [unit_orders(hero, f"MOVE {land}", f"D25 MOVE {far}")]})
    trip = first.state["units"][hero]["moving"]
    assert trip is not None and trip["to"] == far and trip["from"] == land
    walked = DAYS - 25 + 1  # days 25 to 30 on the road
    second = month(g, first.state, {"red": [unit_orders(hero, "RETREAT")]})
    assert second.state["units"][hero]["location"] == land and second.state["units"][hero]["moving"] is None
    back = [e for e in second.events if e.kind == "turns_back"]
    assert [(e.tick, e.data["days"]) for e in back] == [(1, walked)]
    assert _ticks(second, "arrives", "red") == [1 + walked]


# ---------------------------------------------------------------- structures: BUILD, ENTER, EXIT; PILLAGE


def test_build_starts_a_structure_under_a_new_id_and_lays_material_for_its_days() -> None:
    g = game()
    state = start(g)
    men = unit_of(state, "red", "man")
    land = g.world.locations[state["units"][men]["location"]].parent
    state["units"][men].update(location=land, stack=None, skills={"buil": 15, "carp": 15}, items={"wood": 40})
    state["units"][unit_of(state, "red", "hero")]["location"] = land
    before = set(state.get("structures") or {})
    result = month(g, state, {"red": [unit_orders(men, "3 BUILD carp barr rednB01")]})
    (new,) = set(result.state["structures"]) - before
    built = result.state["structures"][new]
    assert built["type"] == "barr" and built["owner"] == "red" and built["location"] == land
    # Fifty carpenters at first level lay a piece of wood per ten man-days: five a day for three days.
    assert built["built"] == {"wood": 15} and result.state["units"][men]["items"]["wood"] == 25
    assert result.state["units"][men]["orders"] == []


def _keep(state: dict[str, Any], where: str, owner: str) -> str:
    state.setdefault("structures", {})["B1"] = {
        "owner": owner, "name": "Red Keep", "type": "fort", "location": where, "complete": True, "built": {},
    }  # fmt: skip
    state["next_ids"]["structure"] = 2
    return "B1"


def test_enter_then_exit_take_no_time_and_leave_the_unit_outside() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    keep = _keep(state, state["units"][hero]["location"], "red")
    result = month(
        g, state, {"red": [unit_orders(hero, f"ENTER {keep}", f"AT {keep}", "-EXIT", "-NAME Out")]}
    )
    assert _ticks(result, "enters", "red") == [1] and _ticks(result, "leaves", "red") == [1]
    assert result.state["units"][hero]["structure"] is None and named_on(result, hero) == [1]


def test_pillage_takes_a_coin_a_day_for_each_armed_figure_from_the_tax_pool() -> None:
    g = game()
    state = start(g)
    men = unit_of(state, "red", "man")
    where = state["units"][men]["location"]
    rule = g.rules["taxation"]["pillage"]
    state["units"][men].update(skills={"cmbt": 15, "blde": 15}, items={"swrd": 50}, equipped={"swrd": 50})
    state["places"][where]["taxes"] = 1000
    state["factions"]["imperials"]["stances"]["red"] = "ally"  # the emperor's land: its owner must allow it
    result = month(g, state, {"red": [unit_orders(men, "3 PILLAGE")]})
    # Three days (the counter) of fifty armed figures at the base rate (first combat earns no more).
    pillaged = [(e.tick, e.data["taken"]) for e in result.events if e.kind == "pillaged"]
    assert pillaged == [(day, 50 * rule["rate"]) for day in (1, 2, 3)]
    assert result.state["units"][men]["orders"] == []


# ---------------------------------------------------------------- faction orders: PASSWORD


def test_password_is_read_as_a_faction_order_and_changes_nothing_in_the_state() -> None:
    g = game()
    state = start(g)
    before = copy.deepcopy(state["factions"]["red"])
    result = month(g, state, {"red": [{"action": "faction", "orders": ["PASSWORD swordfish"]}]})
    after = result.state["factions"]["red"]
    assert "swordfish" not in repr(after) and after.get("settings") == before.get("settings")
    assert after["name"] == before["name"]


# ---------------------------------------------------------------- EQUIP, SKILL


def test_equip_waits_for_the_skill_then_arms_as_many_figures_as_there_are_swords() -> None:
    g = game()
    state = start(g)
    men = unit_of(state, "red", "man")
    state["units"][men].update(items={"swrd": 30, "coin": 5000}, skills={"cmbt": 15})
    orders = {"red": [unit_orders(men, "SKILL blde 1", "+@STUDY blde", "-EQUIP swrd")]}
    result = month(g, state, orders)
    after = result.state["units"][men]
    first = g.rules["skills"]["blde"]["levels"][0]
    # Blades reached at the end of day 15; SKILL fires on day 16, the study line goes and EQUIP runs.
    assert after["skills"]["blde"] == first and after["equipped"] == {"swrd": 30}
    assert _ticks(result, "equipped", "red") == [first + 1] and after["orders"] == []


def test_skill_in_days_or_in_levels() -> None:
    g = game()
    state = start(g)
    red, blue = unit_of(state, "red", "man"), unit_of(state, "blue", "man")
    for uid in (red, blue):
        state["units"][uid]["items"]["coin"] = 5000
    orders = {
        "red": [unit_orders(red, "SKILL cmbt 10 DAYS", "-NAME Ten", "+@STUDY cmbt")],
        "blue": [unit_orders(blue, "SKILL cmbt 2", "-NAME Never", "+@STUDY cmbt")],
    }
    result = month(g, state, orders)
    assert named_on(result, red) == [11]
    # Thirty days are not 2nd combat (45 days): blue's condition never holds and it studies all month.
    assert named_on(result, blue) == [] and result.state["units"][blue]["skills"]["cmbt"] == DAYS
