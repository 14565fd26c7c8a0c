"""Issue 23: a new usurper campaign starts as the game does (spec §10.2.1): the calendar of four weeks a
month and ten months a year; each usurper with 100 gold, two leaders of different leader bonuses, one
standard unit of ten at level 0 and a lair with a throne room, a barracks and a warehouse, at Obscurity
150 of 150; lairs apart from each other and from the cities."""

from __future__ import annotations

from resolver.core.calendar import Calendar
from resolver.core.world import World
from resolver.engine.ruleset import FactionSetup, get_ruleset

RULESET = get_ruleset("usurper")


def _new(count: int = 4, seed: int = 3) -> tuple[World, dict]:
    rules = RULESET.default_rules()
    world = RULESET.generate_world(seed, rules, count)
    setups = [FactionSetup(f"f{i}", f"Usurper {i}", "#123456") for i in range(count)]
    return world, RULESET.initial_state(world, rules, setups, seed)


def test_the_year_is_forty_weeks_of_four_week_months_and_spring_comes_first() -> None:
    calendar = Calendar.from_rules(RULESET.default_rules()["calendar"])
    assert calendar.turns_per_year == 40
    assert calendar.date(1).label == "Week 1, Month 1, Year 1" and calendar.date(1).season == "Spring"
    assert calendar.date(12).label == "Week 4, Month 3, Year 1"
    assert calendar.date(13).season == "Summer" and calendar.date(25).season == "Autumn"
    assert calendar.date(33).season == "Winter" and calendar.date(41).label == "Week 1, Month 1, Year 2"


def test_each_usurper_starts_as_the_game_says() -> None:
    _, state = _new()
    bonuses = []
    for record in state["factions"].values():
        assert record["gold"] == 100
        [lair] = record["lairs"].values()
        assert [room["type"] for room in lair["rooms"]] == ["throne", "barracks", "warehouse"]
        assert lair["obscurity"] == {"current": 150, "max": 150}
        chief, cohort = record["leaders"].values()
        assert (chief["role"], cohort["role"]) == ("chief", "cohort") and chief["bonus"] != cohort["bonus"]
        bonuses.append((chief["bonus"], cohort["bonus"]))
        [unit] = record["units"].values()
        assert (unit["level"], unit["pax"], unit["lair"]) == (0, 10, lair["id"])
        assert unit["race"] in RULESET.default_rules()["start"]["unit_races"]
    assert len(set(bonuses)) > 1  # not every usurper has the same pair


def test_lairs_stand_apart_from_each_other_and_never_on_a_city_or_a_river() -> None:
    world, state = _new(count=6)
    lairs = [lair["grid"] for record in state["factions"].values() for lair in record["lairs"].values()]
    assert len(set(lairs)) == 6
    assert min(world.distance(a, b) for a in lairs for b in lairs if a != b) >= 3
    assert not set(lairs) & set(state["cities"])
    assert all(world[grid].terrain != "rivers" for grid in lairs)


def test_the_cities_are_on_the_map_with_their_names_and_sizes() -> None:
    world, state = _new()
    assert len(state["cities"]) == RULESET.default_rules()["world"]["cities"]
    for grid, city in state["cities"].items():
        assert world[grid].place == city["name"] and city["races"]


def test_the_same_seed_makes_the_same_campaign_and_another_seed_another() -> None:
    assert _new(seed=5) == _new(seed=5)
    assert _new(seed=5)[1] != _new(seed=6)[1]


def test_every_starting_lair_has_a_city_within_a_donkeys_reach_and_none_nearer_than_the_rule() -> None:
    """The house rule start.city_distance: 3 to 4 grids from the nearest city, as the seed's sample lair at
    Z26 stands 3 grids from W24; a leader on a donkey (4) reaches a market, one on foot (2) does not."""
    rules = RULESET.default_rules()
    reach = rules["start"]["city_distance"]
    assert (reach["nearest"], reach["farthest"]) == (3, 4) and rules["leader_speed"]["donkey"] == 4
    for seed in (1, 2, 3):
        world, state = _new(count=6, seed=seed)
        lairs = [lair["grid"] for record in state["factions"].values() for lair in record["lairs"].values()]
        for grid in lairs:
            nearest = min(world.distance(grid, city) for city in state["cities"])
            assert 3 <= nearest <= 4, (seed, grid, nearest)
        assert min(world.distance(a, b) for a in lairs for b in lairs if a != b) >= 3


def test_four_usurpers_keep_the_full_spacing_between_lairs() -> None:
    rules = RULESET.default_rules()
    for seed in (1, 2, 3):
        world, state = _new(count=4, seed=seed)
        lairs = [lair["grid"] for record in state["factions"].values() for lair in record["lairs"].values()]
        assert min(world.distance(a, b) for a in lairs for b in lairs if a != b) >= rules["start"]["spacing"]
