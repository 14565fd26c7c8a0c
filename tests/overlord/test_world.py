"""Overlord's world: the generated hex map (geography), its travel times and the monthly weather."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.core.dice import RollLabel
from resolver.core.rulesdoc import filled_notes
from resolver.core.world import (
    DIRECTION_WORDS,
    OUT,
    Location,
    Route,
    World,
    directions,
    travel_days,
    travel_times,
)
from resolver.engine.ruleset import get_ruleset
from resolver.rulesets.overlord import weather
from resolver.rulesets.overlord.geography import cities, generate, map_size, start_cities

RULES_FILE = Path(__file__).parents[2] / "resolver" / "rulesets" / "overlord" / "rules" / "world.yaml"
RULES: dict[str, Any] = yaml.safe_load(RULES_FILE.read_text())
SPEC_TERRAINS = {"plains", "forest", "hills", "mountains", "desert", "swamp", "ocean", "lake"}
INNER_KINDS = {"city", "village", "mage tower"}


@pytest.fixture(scope="module")
def world() -> World:
    return generate(11, RULES, 4)


def test_the_same_seed_builds_the_same_world_and_another_seed_another(world: World) -> None:
    assert generate(11, RULES, 4).to_data() == world.to_data()
    assert generate(12, RULES, 4).digest != world.digest
    assert World.from_data(world.to_data()).digest == world.digest


def test_the_map_grows_with_the_factions() -> None:
    small, big = map_size(RULES["geography"], 2), map_size(RULES["geography"], 20)
    assert small[0] * small[1] >= 64 + 2 * 24 and big[0] * big[1] >= 64 + 20 * 24
    assert big[0] > small[0] and big[1] > small[1]


def test_ids_run_territories_first_then_the_places_inside_them(world: World) -> None:
    ids = list(world)
    assert ids == [f"L{n}" for n in range(1, len(ids) + 1)]
    parents = [world[loc].parent for loc in ids]
    first_inner = next(i for i, p in enumerate(parents) if p is not None)
    assert all(p is None for p in parents[:first_inner]) and all(p is not None for p in parents[first_inner:])
    order = [int(str(p)[1:]) for p in parents[first_inner:]]
    assert order == sorted(order)  # inner places follow the order of their territories


def test_terrains_and_kinds_are_the_specs(world: World) -> None:
    territories = [world[loc] for loc in world if world[loc].parent is None]
    assert {t.terrain for t in territories} <= SPEC_TERRAINS
    assert {"plains", "forest", "hills", "mountains", "ocean"} <= {t.terrain for t in territories}
    assert {world[loc].terrain for loc in world if world[loc].parent} == INNER_KINDS
    for t in territories:  # a route to every neighbour but the places inside it
        assert t.routes is not None and len(t.routes) == len(
            [n for n in t.neighbours if world[n].parent != t.id]
        )


def test_walking_days_come_from_the_rules_data(world: World) -> None:
    walking, water = RULES["geography"]["walking"], set(RULES["geography"]["water"])
    seen_road = False
    for loc in world:
        here = world[loc]
        for route in here.routes or ():
            there = world[route.to]
            if here.parent is not None or there.parent is not None:  # a harbour's way, quicker by port_saving
                water_end = there if here.parent is not None else here
                days = RULES["geography"]["sailing"][water_end.terrain] - RULES["geography"]["port_saving"]
                assert route.walk is None and route.sail == max(1, days)
                continue
            if here.terrain in water or there.terrain in water:
                assert (
                    route.walk is None
                    and route.sail
                    == RULES["geography"]["sailing"][
                        there.terrain if there.terrain in water else here.terrain
                    ]
                )
            elif "mountains" in (here.terrain, there.terrain):
                assert route.walk is None and route.sail is None
            elif route.walk != walking[there.terrain]:
                assert route.walk == max(1, walking[there.terrain] - RULES["geography"]["road_saving"])
                assert here.label.endswith(" Road") and there.label.endswith(" Road")
                seen_road = True
    assert seen_road


def test_every_inner_place_is_one_day_from_its_territory_and_reachable(world: World) -> None:
    inner = [loc for loc in world if world[loc].parent is not None]
    capital = next(loc for loc in cities(world) if world[loc].region == "capital")
    flying = travel_times(world, capital, "fly")
    for loc in inner:
        parent = world[loc].parent
        assert parent is not None and loc in world.inner(parent) and world[loc].coords == world[parent].coords
        assert travel_days(world, loc, parent, "walk", "storm") == 1
        assert travel_days(world, parent, loc, "sail", "storm") == 1
        assert loc in flying
    walking = travel_times(world, capital, "walk")
    assert all(
        city in walking for city in cities(world) if world[city].region != "frontier"
    )  # roads join them


def test_the_imperial_city_stands_near_the_middle_with_border_and_colonial_cities(world: World) -> None:
    geo = RULES["geography"]
    by_region = Counter(world[city].region for city in cities(world))
    assert by_region["capital"] == 1 and by_region["imperial"] == geo["border_cities"]
    assert by_region["frontier"] == 2 + geo["colonial_spare"]  # 4 factions, 3 a city
    capital = next(city for city in cities(world) if world[city].region == "capital")
    assert world[capital].label == geo["capital_name"]
    assert [world[p].terrain for p in world.inner(str(world[capital].parent))] == geo["capital_places"]
    middle = world[str(world[capital].parent)].center
    span = max(world.width * 1.5, world.height * 1.8)
    assert abs(middle[0] - world.width * 0.75) < span / 4
    assert world.distance(capital, next(c for c in cities(world) if world[c].region == "imperial")) <= 3


def test_start_cities_follow_the_sign_up_choices(world: World) -> None:
    colonial = [c for c in cities(world) if world[c].region == "frontier"]
    border = [c for c in cities(world) if world[c].region == "imperial"]
    capital = [c for c in cities(world) if world[c].region == "capital"]
    starts = start_cities(world, RULES, ["colonial"] * 7 + ["border", "border", "imperial"])
    assert starts[:7] == [colonial[0]] * 3 + [colonial[1]] * 3 + [colonial[2]]
    assert starts[7:] == [border[0], border[1], capital[0]]
    with pytest.raises(ValueError, match="unknown start choice"):
        start_cities(world, RULES, ["moon"])


def test_the_directions_list_is_sorted_by_travel_time_impassable_last(world: World) -> None:
    order = [*DIRECTION_WORDS.values(), OUT]
    for loc in world:
        lines = directions(world, loc, "rain")
        keys = [(line.days is None, line.days or 0, order.index(line.word)) for line in lines]
        assert keys == sorted(keys)
        if world[loc].parent is not None:
            assert lines[0].word == OUT and lines[0].days == 1
        else:
            assert {line.to for line in lines}.isdisjoint(world.inner(loc))  # a report lists those apart


def sample_world() -> World:
    """The manual's sample around Massada (spec 1.6.7, 5.3), with overlord's own travel table."""

    def hexagon(
        loc_id: str, terrain: str, q: int, r: int, routes: list[Route], extra: tuple[str, ...] = ()
    ) -> Location:
        return Location(loc_id, loc_id, terrain, (q, r), ((q, r),), (*(x.to for x in routes), *extra), (q, r),
                        routes=tuple(routes))  # fmt: skip

    places = [
        hexagon("L216", "plains", 0, 0, [Route("L213", walk=9), Route("L214", walk=9), Route("L215", walk=7),
                Route("L280", walk=12), Route("L281"), Route("L282", sail=6)], ("L278",)),
        hexagon("L213", "plains", 0, -1, [Route("L216", walk=9)]),
        hexagon("L214", "plains", -1, 0, [Route("L216", walk=9), Route("L282", sail=6)]),
        hexagon("L215", "plains", 1, -1, [Route("L216", walk=7)]),
        hexagon("L280", "hills", 1, 0, [Route("L216", walk=7)]),
        hexagon("L281", "mountains", 0, 1, [Route("L216")]),
        hexagon("L282", "ocean", -1, 1, [Route("L216", sail=6), Route("L214", sail=6),
                Route("L278", sail=4)]),
        Location("L278", "L278", "city", (0, 0), ((0, 0),), ("L216", "L282"), (0, 0), parent="L216",
                 routes=(Route("L282", sail=4),)),
    ]  # fmt: skip
    return World("hex", 1, 3, 3, {loc.id: loc for loc in places}, copy.deepcopy(RULES["travel"]))


def test_the_specs_travel_examples() -> None:
    world = sample_world()
    # "a ship landed in L216 can sail directly to L214 in 18 days, where walking is 9"
    assert travel_days(world, "L216", "L214", "walk") == 9
    assert travel_days(world, "L216", "L214", "sail") == 18
    # riding cuts a third, rounded down: 9 -> 6
    assert travel_days(world, "L216", "L213", "ride") == 6
    assert travel_days(world, "L278", "L282", "sail") == 4 and travel_days(world, "L216", "L282", "sail") == 6
    assert (
        travel_days(world, "L216", "L281", "walk") is None and travel_days(world, "L216", "L281", "fly") == 4
    )
    assert [travel_days(world, "L216", "L213", "fly", sky) for sky in ("fair", "rain", "wind", "storm")] == [
        4, 6, 5, 15,
    ]  # fmt: skip
    assert travel_days(world, "L216", "L213", "walk", "rain") == 11  # 9 * 1.2 = 10.8
    assert travel_days(world, "L216", "L213", "walk", "storm") == 14  # 13.5
    assert travel_days(world, "L216", "L282", "sail", "wind") == 5  # 4.5
    assert travel_days(world, "L216", "L278", "walk", "storm") == 1


class Dice:
    """A roll source that shows a chosen face for some labels and a fixed one for the rest, and logs
    every label it was asked."""

    def __init__(self, faces: dict[str, int], default: int = 1) -> None:
        self.faces, self.default, self.asked = faces, default, []

    def __call__(self, label: RollLabel, sides: int) -> int:
        assert isinstance(label, RollLabel) and sides >= 1
        self.asked.append(str(label))
        return min(sides, self.faces.get(str(label), self.default))


def test_weather_is_drawn_from_the_seasons_list_for_territories_only(world: World) -> None:
    territories = [loc for loc in world if world[loc].parent is None]
    for season, allowed in RULES["weather"]["seasons"].items():
        drawn = weather.draw_weather(world, season.capitalize(), RULES, weather.seeded_roller(5, "test"))
        assert list(drawn) == territories  # inner places shelter: no weather of their own
        assert set(drawn.values()) <= set(allowed)
    assert weather.draw_weather(
        world, "Autumn", RULES, weather.seeded_roller(5, "a")
    ) == weather.draw_weather(world, "Autumn", RULES, weather.seeded_roller(5, "a"))
    summer = Dice({}, default=2)  # two choices in summer: every die shows "sun"
    assert set(weather.draw_weather(world, "Summer", RULES, summer).values()) == {"sun"}
    assert summer.asked == [f"weather/{loc}" for loc in territories]
    with pytest.raises(ValueError, match="no list for the season"):
        weather.draw_weather(world, "Monsoon", RULES, summer)


def test_a_storm_forces_its_neighbours_to_rain_wind_or_storm(world: World) -> None:
    territories = [loc for loc in world if world[loc].parent is None]
    eye = territories[len(territories) // 2]
    # Autumn's list is fair, rain, wind, storm: everything fair but one storm at the eye; its fair
    # neighbours re-roll on rain, wind, storm (face 3 for the first: a second storm, which spreads too).
    first = sorted(n for n in world[eye].neighbours if world[n].parent is None)[0]
    dice = Dice({f"weather/{eye}": 4, f"weather/{first}/storm": 3}, default=1)
    drawn = weather.draw_weather(world, "Autumn", RULES, dice)
    assert drawn[eye] == "storm" and drawn[first] == "storm"
    for storm in (eye, first):
        for near in world[storm].neighbours:
            if world[near].parent is None:
                assert drawn[near] in ("rain", "wind", "storm")
    assert sum(1 for w in drawn.values() if w == "storm") == 2
    assert all(drawn[loc] == "fair" for loc in territories if loc not in {eye, first} and
               not ({eye, first} & set(world[loc].neighbours)))  # fmt: skip
    assert (
        sum(1 for label in dice.asked if label.endswith("/storm"))
        == len(
            {n for s in (eye, first) for n in world[s].neighbours if world[n].parent is None} - {eye, first}
        )
        + 1
    )  # the first neighbour re-rolled once, before it became a storm itself


def test_the_months_weather_moves_the_forecast_to_now() -> None:
    places = {"L1": {"weather": {"now": "fair", "next": "rain"}}}
    assert weather.next_month(places, {"L1": "storm", "L2": "sun"}) == {
        "L1": {"now": "rain", "next": "storm"},
        "L2": {"now": "sun", "next": "sun"},
    }


def test_house_rules_name_every_world_number() -> None:
    rules = {entry["rule"] for entry in RULES["house_rules"]}
    for needed in ("geography.walking", "geography.road_saving", "geography.sailing", "travel.coast_factor",
                   "travel.walk_weather", "travel.inner", "weather.seasons", "geography.territories",
                   "geography.colonial_fill", "geography.terrain_words"):  # fmt: skip
        assert needed in rules
    for note in filled_notes(RULES):  # every number the notes name is read from the rules data
        assert "{" not in note["text"], note["text"]
    assert filled_notes(RULES)[0]["text"].startswith(
        "The manual tabulates no travel times. Walking into plains takes 7 days"
    )


def test_a_new_campaign_opens_with_weather_and_the_month_moves_it_on() -> None:
    from tests.overlord import support

    g = support.game()
    state = support.start(g)
    territories = [loc for loc in g.world if g.world[loc].parent is None]
    calendar = g.calendar
    for turn, which in ((1, "now"), (2, "next")):
        allowed = set(RULES["weather"]["seasons"][calendar.date(turn).season.lower()])
        assert {state["places"][loc]["weather"][which] for loc in territories} <= allowed
    assert all("weather" not in state["places"].get(loc, {}) for loc in g.world if g.world[loc].parent)
    # Every faction starts in a city of its start choice (colonial: three to a city).
    homes = {state["units"][support.unit_of(state, f, "hero")]["location"] for f in ("red", "blue")}
    assert all(g.world[home].terrain == "city" and g.world[home].region == "frontier" for home in homes)
    result = support.month(g, state, {})
    after = result.state["places"]
    assert all(after[loc]["weather"]["now"] == state["places"][loc]["weather"]["next"] for loc in territories)
    upcoming = set(RULES["weather"]["seasons"][calendar.date(3).season.lower()])
    assert {after[loc]["weather"]["next"] for loc in territories} <= upcoming


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_no_two_places_answer_to_one_name(seed: int) -> None:
    """Chronicles and reports name places in words: two plains named after one town are told apart by
    where they lie from it ("North Brunstead Plains")."""
    ruleset = get_ruleset("overlord")
    for factions in (2, 4, 9):
        world = ruleset.generate_world(seed, ruleset.default_rules(), factions)
        labels = [place.label for place in world.locations.values()]
        assert len(labels) == len(set(labels)), sorted(label for label in labels if labels.count(label) > 1)
