"""Issue 23: a new usurper campaign starts as the game does (spec §10.2.1): the calendar of four weeks a
month and ten months a year; each usurper with 100 gold, two leaders of different leader bonuses, one
standard unit of ten at level 0 and a lair with a throne room, a barracks and a warehouse, at Obscurity
150 of 150; lairs apart from each other and from the cities."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


# --- the setup market: the 'outfit' order of week 1 ---------------------------------------------------------


def _market_scenario(tmp_path: Path, orders: list[dict[str, Any]], turn: int = 1) -> Any:
    import yaml

    from ..scenarios.harness import Scenario

    rooms = [{"type": t, "level": 1, "renovations": []} for t in ("throne", "barracks", "warehouse")]
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 12, "height": 12, "places": {"K11": "Varos"}},
        "factions": ["red", "blue"],
        "state": {
            "turn": turn,
            "cities": {"K11": {"name": "Varos", "size": "small_town", "races": ["humans"]}},
            "factions": {
                "red": {
                    "gold": 100,
                    "lairs": {"red-lair1": {"grid": "E5", "rooms": rooms}},
                    "leaders": {
                        "red-l1": {"name": "Grug", "bonus": "craftsman"},
                        "red-l2": {"name": "Richard", "bonus": "herald"},
                    },
                    "units": {"red-u1": {"name": "Iron Fists", "race": "dwarves"}},
                },
                "blue": {"lairs": {"blue-lair1": {"grid": "K2"}}, "units": {"blue-u1": {"race": "orcs"}}},
            },
        },
        "orders": {"red": orders, "blue": []},
    }
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


def test_the_outfit_buys_at_market_prices_hands_sets_out_and_the_same_weeks_orders_use_the_goods(
    tmp_path: Path,
) -> None:
    outfit = {
        "action": "outfit",
        "buy": {"donkey": 1, "spyglass": 1, "saws": 1, "lumber": 20, "foodstuffs": 1},
        "equip": {"Iron Fists": ["spyglass"], "red-l2": ["donkey"]},
    }
    build = {"action": "build", "by": "red-u1", "rooms": ["workshop"], "equip": ["saws"]}
    scenario = _market_scenario(tmp_path, [outfit, build])
    files = scenario.order_files()
    red = files["red"]
    assert red.ok, [issue.format() for issue in red.errors]
    # 5 + 4 + 4 + 7 lots of Lumber at 2 + 2: 29 gold, and 21 Lumber (whole lots of 3)
    assert red.echo[1].startswith(
        "At the setup market: 1 Donkey, 1 Foodstuffs, 21 Lumber, 1 Saws, 1 Spyglass"
    )
    assert "for 29 gold (71 left)" in red.echo[1] and "Spyglass to Iron Fists" in red.echo[1]
    assert "a Donkey for Richard" in red.echo[1] and "_" not in red.echo[1]
    assert scenario.state["factions"]["red"]["gold"] == 100  # checking spends nothing
    result = scenario.resolve(files)
    record = result.state["factions"]["red"]
    assert record["gold"] == 71
    assert record["leaders"]["red-l2"]["donkey"] and not record["leaders"]["red-l1"]["donkey"]
    unit = record["units"]["red-u1"]
    assert [t["item"] for t in unit["tools"]] == ["spyglass", "saws"]  # the saws by the build's equip
    lair = record["lairs"]["red-lair1"]
    assert lair["storage"]["foodstuffs"] == 1 and lair["items"] == []
    [bought] = [e for e in result.events if e.kind == "outfitted"]
    assert bought.visible_to == ["red"] and bought.data["gold"] == 29
    [built] = [e for e in result.events if e.kind == "rooms_built"]
    assert built.data["done"] and [room["type"] for room in lair["rooms"]][-1] == "workshop"


def test_the_sets_an_outfit_hands_out_read_as_a_series(tmp_path: Path) -> None:
    outfit = {
        "action": "outfit",
        "buy": {"saws": 1, "shovels": 1},
        "equip": {"Iron Fists": ["saws", "shovels"]},
    }
    scenario = _market_scenario(tmp_path, [outfit])
    files = scenario.order_files()
    assert "; Saws and Shovels to Iron Fists;" in files["red"].echo[1]
    result = scenario.resolve(files)
    [bought] = [e.to_data() for e in result.events if e.kind == "outfitted"]
    words = scenario.game.ruleset.describe(bought, scenario.game)
    assert "Iron Fists takes Saws and Shovels." in words and "Saws, Shovels" not in words


def _refused(tmp_path: Path, orders: list[dict[str, Any]], turn: int = 1) -> list[str]:
    scenario = _market_scenario(tmp_path, orders, turn)
    red = scenario.order_files()["red"]
    assert scenario.state["factions"]["red"]["gold"] == 100
    return [issue.format() for issue in red.errors]


def test_after_week_one_the_outfit_is_refused_with_the_way_to_buy_instead(tmp_path: Path) -> None:
    [error] = _refused(tmp_path, [{"action": "outfit", "buy": {"spyglass": 1}}], turn=2)
    assert "open until Week 1, Month 1, Year 1 only" in error and "'diplomacy' order" in error


def test_the_outfit_is_refused_past_the_gold_the_warehouse_or_a_leaders_back(tmp_path: Path) -> None:
    [dear] = _refused(tmp_path / "a", [{"action": "outfit", "buy": {"heavy_armor": 5, "spyglass": 1}}])
    assert "cost 104 gold" in dear and "you have 100" in dear and "Heavy Armor" in dear
    [full] = _refused(tmp_path / "b", [{"action": "outfit", "buy": {"foodstuffs": 12}}])
    assert "holds 10 slots" in full and "would fill 12" in full
    [mule] = _refused(
        tmp_path / "c", [{"action": "outfit", "buy": {"donkey": 1}, "equip": {"red-u1": ["donkey"]}}]
    )
    assert "a donkey carries a leader" in mule
    [spare] = _refused(tmp_path / "d", [{"action": "outfit", "buy": {"donkey": 3}}])
    assert "3 donkeys and 2 leaders" in spare
    [unbought] = _refused(
        tmp_path / "e", [{"action": "outfit", "buy": {"saws": 1}, "equip": {"red-u1": ["shovels"]}}]
    )
    assert "no Shovels is bought" in unbought
    [named] = _refused(tmp_path / "f", [{"action": "outfit", "by": "red-u1", "buy": {"saws": 1}}])
    assert "'outfit' has no field 'by'" in named and "an outfit names nobody" in named
    assert "did you mean" not in named


def test_the_week_one_template_opens_with_the_setup_market_and_its_example_checks_clean(
    tmp_path: Path,
) -> None:
    from resolver.core.canonical import dump
    from resolver.engine.validate import check_order_file

    for turn in (1, 2):
        scenario = _market_scenario(tmp_path / str(turn), [], turn=turn)
        game, state = scenario.game, scenario.state
        examples = RULESET.order_examples(game, state, "red")
        lines = RULESET.status_lines(game, state, "red")
        market = [line for line in lines if "setup market" in line]
        if turn == 2:
            assert all(example["action"] != "outfit" for example in examples) and not market
            continue
        assert examples[0]["action"] == "outfit" and set(examples[0]["equip"]) == {"red-l1", "red-u1"}
        [line] = market
        assert "open this week only" in line and "'outfit' order spends your 100 gold" in line
        doc = {"campaign": "scenario", "turn": turn, "faction": "red", "orders": [examples[0]]}
        checked = check_order_file(game, state, dump(doc), "orders/red.yaml")
        assert checked.ok, [issue.format() for issue in checked.errors]
