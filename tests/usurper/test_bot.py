"""The usurper bot: every order it drafts is one the checker accepts, and each week's orders follow what the
usurper knows and holds (scout the unknown, harvest what was found, build and renovate with the stock,
craft in the Workshop, buy food for the upkeep, fight only a weaker encounter); its press keeps secrets."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.cli import main
from resolver.core import canonical
from resolver.core.canonical import dump
from resolver.engine.validate import check_order_file
from resolver.rulesets.usurper import bot

from ..scenarios.harness import Scenario

THREE_ROOMS = [{"type": t, "level": 1, "renovations": []} for t in ("throne", "barracks", "warehouse")]
STORE = {"lumber": 0, "stone": 0, "iron": 0, "foodstuffs": 0}


def _scenario(
    tmp_path: Path,
    lair: dict[str, Any] | None = None,
    turn: int = 2,
    gold: int = 50,
    known: dict[str, Any] | None = None,
    units: dict[str, Any] | None = None,
    terrain: dict[str, list[str]] | None = None,
) -> Scenario:
    home = {"grid": "E5", "rooms": THREE_ROOMS, "storage": dict(STORE), "items": [], **(lair or {})}
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 12, "height": 12, "places": {"K11": "Varos"}, "terrain": terrain or {}},
        "factions": ["red", "blue"],
        "state": {
            "turn": turn,
            "cities": {"K11": {"name": "Varos", "size": "small_town", "races": ["humans"]}},
            "factions": {
                "red": {
                    "gold": gold,
                    "lairs": {"red-lair1": home},
                    "leaders": {
                        "red-l1": {"name": "Grug", "bonus": "craftsman"},
                        "red-l2": {"name": "Richard", "bonus": "herald"},
                    },
                    "units": units or {"red-u1": {"name": "Iron Fists", "race": "dwarves"}},
                    "known": {"scouted": ["E5"], **(known or {})},
                },
                "blue": {"lairs": {"blue-lair1": {"grid": "K2"}}, "units": {"blue-u1": {"race": "orcs"}}},
            },
        },
        "orders": {"red": [], "blue": []},
    }
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


def _orders(scenario: Scenario, faction: str = "red") -> list[dict[str, Any]]:
    """The bot's orders, after checking that the checker accepts every one of them as written."""
    draft = bot.orders_for(scenario.game, scenario.state, faction)
    doc = {"campaign": "scenario", "turn": int(scenario.state["turn"]), "faction": faction, **draft}
    of = check_order_file(scenario.game, scenario.state, dump(doc), f"orders/{faction}.yaml", by_bot=True)
    assert of.ok, [issue.format() for issue in of.errors]
    assert len(of.orders) == len(draft["orders"])
    return draft["orders"]


def _by_action(orders: list[dict[str, Any]], action: str) -> list[dict[str, Any]]:
    return [order for order in orders if order["action"] == action]


def test_a_new_usurper_scouts_the_nearest_unseen_grid_with_its_leaders_helping(tmp_path: Path) -> None:
    orders = _orders(_scenario(tmp_path))
    [scout] = orders
    assert scout["action"] == "scout" and scout["by"] == "red-u1"
    assert scout["target"] == "D4"  # one grid away, the first of the nearest in grid order
    assert sorted(scout["assist"]) == ["red-l1", "red-l2"]


def test_scouts_spread_over_different_grids(tmp_path: Path) -> None:
    units = {f"red-u{n}": {"name": f"Band {n}", "race": "goblins"} for n in (1, 2, 3)}
    orders = _orders(_scenario(tmp_path, units=units))
    targets = [order["target"] for order in _by_action(orders, "scout")]
    assert len(targets) == 3 and len(set(targets)) == 3


def test_a_known_node_is_harvested_lumber_before_iron(tmp_path: Path) -> None:
    nodes = {
        "F6": {"resource": "iron", "size": "normal", "dice": "4d4+8", "uses": 3, "harvest_bonus": 0},
        "D5": {"resource": "lumber", "size": "poor", "dice": "3d4+6", "uses": 2, "harvest_bonus": 0},
    }
    orders = _orders(_scenario(tmp_path, known={"nodes": nodes}))
    [harvest] = _by_action(orders, "harvest")
    assert harvest["target"] == "D5" and harvest["by"] == "red-u1"


def test_a_spent_node_is_left_alone(tmp_path: Path) -> None:
    nodes = {"D5": {"resource": "lumber", "size": "poor", "dice": "3d4+6", "uses": 0, "harvest_bonus": 0}}
    orders = _orders(_scenario(tmp_path, known={"nodes": nodes}))
    assert not _by_action(orders, "harvest") and _by_action(orders, "scout")


def test_with_lumber_and_saws_in_store_it_builds_a_workshop_first(tmp_path: Path) -> None:
    lair = {"storage": {**STORE, "lumber": 20}, "items": [{"item": "saws", "quality": "standard"}]}
    orders = _orders(_scenario(tmp_path, lair=lair))
    [build] = _by_action(orders, "build")
    assert build["rooms"] == ["workshop"] and build["equip"] == ["saws"] and build["target"] == "E5"
    assert len(build["assist"]) == 1  # a leader helps; the other scouts with nobody or helps elsewhere


def test_without_saws_or_without_lumber_it_does_not_build(tmp_path: Path) -> None:
    no_saws = _orders(_scenario(tmp_path / "a", lair={"storage": {**STORE, "lumber": 40}}))
    no_lumber = _orders(
        _scenario(tmp_path / "b", lair={"storage": {**STORE, "lumber": 19}, "items": [{"item": "saws"}]})
    )
    assert not _by_action(no_saws, "build") and not _by_action(no_lumber, "build")


def test_with_stone_it_renovates_and_with_a_workshop_and_iron_it_crafts(tmp_path: Path) -> None:
    rooms = [*THREE_ROOMS, {"type": "workshop", "level": 1, "renovations": []}]
    units = {
        "red-u1": {
            "name": "Iron Fists",
            "race": "dwarves",
            "tools": [{"item": "saws", "quality": "standard"}],
        },
        "red-u2": {
            "name": "Anvils",
            "race": "dwarves",
            "tools": [{"item": "hammers", "quality": "standard"}],
        },
    }
    lair = {"rooms": rooms, "storage": {**STORE, "stone": 15, "iron": 5}}
    orders = _orders(_scenario(tmp_path, lair=lair, units=units))
    [renovate] = _by_action(orders, "renovate")
    assert (renovate["room"], renovate["renovation"], renovate["choice"]) == (
        "workshop",
        "industrious",
        "crafting",
    )
    [craft] = _by_action(orders, "craft")
    # crafting comes first, and a tool the units lack before arms: Shovels from 5 stone; the renovation
    # takes the 10 left
    assert craft["by"] == "red-u2" and craft["items"] == ["shovels"]


def test_one_stock_is_never_spent_twice_in_a_week(tmp_path: Path) -> None:
    units = {
        f"red-u{n}": {
            "name": f"Band {n}",
            "race": "dwarves",
            "tools": [{"item": "saws", "quality": "standard"}],
        }
        for n in (1, 2)
    }
    lair = {"storage": {**STORE, "lumber": 20, "stone": 0}}
    orders = _orders(_scenario(tmp_path, lair=lair, units=units))
    assert len(_by_action(orders, "build")) == 1


def test_a_leader_buys_food_for_the_upkeep_and_the_tools_it_lacks_at_a_place_in_reach(tmp_path: Path) -> None:
    settlements = {
        "F6": {
            "size": "camp",
            "races": ["goblins"],
            "attitude": "indifferent",
            "trade_status": "reviled",
            "traded": 0,
        }
    }
    scenario = _scenario(tmp_path, turn=3, gold=60, known={"settlements": settlements})
    orders = _orders(scenario)
    [visit] = _by_action(orders, "diplomacy")
    assert visit["target"] == "F6" and visit["buy"]["foodstuffs"] == 1
    assert {"saws", "shovels", "spyglass"} <= set(visit["buy"])


def test_no_visit_in_the_first_week_of_a_month_when_only_food_is_wanting(tmp_path: Path) -> None:
    settlements = {"F6": {"size": "camp", "races": ["goblins"], "attitude": "indifferent"}}
    tools = [{"item": t, "quality": "standard"} for t in ("saws", "shovels", "spyglass", "hammers")]
    lair = {"items": tools, "storage": {"lumber": 40}}  # enough for its next room: nothing to buy but food
    orders = _orders(_scenario(tmp_path, lair=lair, turn=5, known={"settlements": settlements}))
    assert not _by_action(orders, "diplomacy")


def test_gold_to_spare_buys_the_lumber_the_next_room_lacks(tmp_path: Path) -> None:
    settlements = {"F6": {"size": "camp", "races": ["goblins"], "attitude": "indifferent"}}
    tools = [{"item": t, "quality": "standard"} for t in ("saws", "shovels", "spyglass", "hammers")]
    orders = _orders(_scenario(tmp_path, lair={"items": tools}, turn=5, known={"settlements": settlements}))
    [visit] = _by_action(orders, "diplomacy")
    assert visit["buy"] == {"lumber": 20}  # a fourth room costs 5 x 3 + 5


def test_it_keeps_the_upkeep_and_spends_only_what_is_left_on_tools(tmp_path: Path) -> None:
    settlements = {"F6": {"size": "camp", "races": ["goblins"], "attitude": "indifferent"}}
    orders = _orders(_scenario(tmp_path, turn=2, gold=8, known={"settlements": settlements}))
    for visit in _by_action(orders, "diplomacy"):
        assert set(visit.get("buy", {})) <= {"foodstuffs"}  # 8 gold less 5 of upkeep buys no 4-gold tool


def _encounter(count: int) -> dict[str, Any]:
    stats = {"race": "orcs", "level": 0, "pax": 10, "offense": 2, "defense": 1, "strength": 1}
    units = [{"id": f"u{n}", "name": f"Orcs {n}", **stats} for n in range(1, count + 1)]
    return {"enc-f6-2": {"grid": "F6", "units": units, "level": 0, "found": 1}}


def test_it_attacks_a_known_encounter_only_with_the_stronger_force(tmp_path: Path) -> None:
    many = {f"red-u{n}": {"name": f"Band {n}", "race": "orcs"} for n in (1, 2, 3, 4)}
    strong = _orders(_scenario(tmp_path / "a", units=many, known={"encounters": _encounter(2)}))
    [attack] = _by_action(strong, "attack")
    assert attack["encounter"] == "enc-f6-2" and attack["target"] == "F6"
    assert sorted([attack["by"], *attack["assist"]]) == sorted(many)
    weak = _orders(_scenario(tmp_path / "b", known={"encounters": _encounter(2)}))
    assert not _by_action(weak, "attack")


def test_short_of_upkeep_gold_a_unit_harasses_travellers_on_plains_but_never_its_only_one(
    tmp_path: Path,
) -> None:
    grids = [f"{column}{row}" for column in "ABCDEFGHIJKL" for row in range(1, 13)]
    forests = {"forests": [grid for grid in grids if grid != "E6"]}
    two = {
        "red-u1": {"name": "Iron Fists", "race": "dwarves"},
        "red-u2": {"name": "Anvils", "race": "dwarves"},
    }
    rooms = [*THREE_ROOMS, {"type": "barracks", "level": 1, "renovations": []}]
    orders = _orders(_scenario(tmp_path, gold=2, terrain=forests, units=two, lair={"rooms": rooms}))
    assert [o["target"] for o in _by_action(orders, "harass")] == ["E6"]
    alone = _orders(_scenario(tmp_path, gold=2, terrain=forests))
    assert not _by_action(alone, "harass")  # a unit that flees may leave for good: the last is not risked


def test_gold_goes_on_rooms_only_beyond_months_of_upkeep(tmp_path: Path) -> None:
    """With no income in sight a usurper keeps months of upkeep before it buys lumber for a room."""
    settlements = {"F6": {"size": "camp", "races": ["goblins"], "attitude": "indifferent"}}
    tools = [{"item": t, "quality": "standard"} for t in ("saws", "shovels", "spyglass", "hammers")]
    known = {"settlements": settlements}
    poor = _orders(_scenario(tmp_path, lair={"items": tools}, turn=5, gold=25, known=known))
    assert not _by_action(poor, "diplomacy")
    rich = _orders(_scenario(tmp_path, lair={"items": tools}, turn=5, gold=60, known=known))
    assert [visit["buy"] for visit in _by_action(rich, "diplomacy")] == [{"lumber": 20}]


def test_the_same_week_gives_the_same_orders(tmp_path: Path) -> None:
    scenario = _scenario(tmp_path)
    before = copy.deepcopy(scenario.state)
    assert bot.orders_for(scenario.game, scenario.state, "red") == bot.orders_for(
        scenario.game, scenario.state, "red"
    )
    assert scenario.state == before  # drafting spends only the bot's own copy


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Twelve weeks of four usurpers, each bot draft kept beside the file the engine accepted."""
    from resolver.cli import main

    drafts: list[tuple[int, str, list[dict[str, Any]]]] = []
    drafted = bot.orders_for

    def spy(game: Any, state: Any, faction: str) -> dict[str, Any]:
        draft = drafted(game, state, faction)
        drafts.append((int(state["turn"]), faction, copy.deepcopy(draft["orders"])))
        return draft

    root = tmp_path_factory.mktemp("bot") / "usurper"
    patch = pytest.MonkeyPatch()
    patch.setattr(bot, "orders_for", spy)
    try:
        assert main(["demo", "--ruleset", "usurper", "--root", str(root), "--quiet", "--seed", "3"]) == 0
    finally:
        patch.undo()
    return {"root": root, "drafts": drafts}


def test_over_twelve_weeks_every_order_the_bot_drafts_checks_clean(demo: dict[str, Any]) -> None:
    root: Path = demo["root"]
    drafts = demo["drafts"]
    assert {turn for turn, _, _ in drafts} == set(range(1, 13)) and len(drafts) == 48
    for turn, faction, orders in drafts:
        archived = yaml.safe_load(
            (root / f"campaign/turns/{turn:04d}/orders.yaml").read_text(encoding="utf-8")
        )
        kept = archived["orders"][faction]["orders"]
        assert kept == orders, (turn, faction)  # nothing dropped by the engine's check


def test_over_twelve_weeks_the_bot_scouts_harvests_and_builds(demo: dict[str, Any]) -> None:
    actions = {order["action"] for _, _, orders in demo["drafts"] for order in orders}
    assert {"scout", "harvest", "diplomacy", "build", "craft"} <= actions


def test_the_bot_press_tells_no_secret(demo: dict[str, Any]) -> None:
    """No grid, no id, no stock in a bot's article: it is printed for every reader of a sealed campaign."""
    root: Path = demo["root"]
    grid = re.compile(r"\b[A-Z]{1,2}[0-9]{1,2}\b")
    articles = []
    for turn in range(1, 13):
        archived = yaml.safe_load(
            (root / f"campaign/turns/{turn:04d}/orders.yaml").read_text(encoding="utf-8")
        )
        for entry in archived["orders"].values():
            articles += entry.get("press") or []
    assert articles
    for article in articles:
        text = f"{article['headline']} {article['body']}"
        assert not grid.search(text) and "-u" not in text and "-l" not in text and "_" not in text, text
        assert not re.search(r"\b(lumber|stone|iron|gold|food)\b", text, re.IGNORECASE), text


# --- the setup market of week 1 ----------------------------------------------------------------------------


def test_in_week_one_it_outfits_first_a_donkey_the_tools_its_unit_can_wear_food_and_the_first_room(
    tmp_path: Path,
) -> None:
    units = {"red-u1": {"name": "Tinkers", "race": "gnomes"}}  # three tool slots
    orders = _orders(_scenario(tmp_path, turn=1, gold=100, units=units))
    outfit = orders[0]
    assert outfit["action"] == "outfit" and "by" not in outfit
    assert outfit["buy"] == {
        "donkey": 1,
        "saws": 1,
        "shovels": 1,
        "spyglass": 1,
        "hammers": 1,
        "foodstuffs": 1,  # the first month's food of its one unit
        "lumber": 20,  # a fourth room costs 5 x 3 + 5
        "stone": 10,  # the Workshop's first renovation
    }
    assert outfit["equip"] == {"red-l1": ["donkey"], "red-u1": ["saws", "shovels", "spyglass"]}
    # the lumber bought is there for the same week's work: the Workshop is built at once
    [build] = _by_action(orders, "build")
    assert build["rooms"] == ["workshop"] and build["by"] == "red-u1" and "equip" not in build


def test_a_unit_with_one_tool_slot_is_outfitted_with_saws_alone(tmp_path: Path) -> None:
    units = {"red-u1": {"name": "Longbows", "race": "elves"}}  # one tool slot
    [outfit, *_] = _orders(_scenario(tmp_path, turn=1, gold=100, units=units))
    assert outfit["equip"]["red-u1"] == ["saws"]
    assert "spyglass" not in outfit["buy"] and "shovels" not in outfit["buy"]


def test_short_of_gold_the_outfit_keeps_the_upkeep_and_drops_the_last_wanted_first(tmp_path: Path) -> None:
    [outfit, *_] = _orders(_scenario(tmp_path, turn=1, gold=40))
    # 40 less 5 kept for the month's upkeep: the stone (8) and then the lumber (14) are dropped
    assert "stone" not in outfit["buy"] and "lumber" not in outfit["buy"]
    assert {"donkey", "saws", "hammers", "foodstuffs"} <= set(outfit["buy"])


def test_after_week_one_the_bot_writes_no_outfit(tmp_path: Path) -> None:
    orders = _orders(_scenario(tmp_path, turn=2, gold=100))
    assert not _by_action(orders, "outfit")


def test_over_half_a_year_the_bots_keep_their_units_and_pay_their_upkeep(tmp_path: Path) -> None:
    """Six months of the default demo: the bots sell what they can spare when short, dig gold first, keep
    months of upkeep before buying building stock and risk no fight with their only unit, so nearly every
    month's upkeep is paid and nearly every usurper still has its men (the issue: 'keep upkeep paid')."""
    root = tmp_path / "long"
    assert main(["demo", "--ruleset", "usurper", "--root", str(root), "--turns", "24", "--quiet"]) == 0
    paid = unpaid = 0
    for events in sorted((root / "campaign" / "turns").glob("*/events.yaml")):
        for event in canonical.read_yaml(events)["events"]:
            if event["kind"] == "upkeep":
                paid += len(event["data"]["paid"])
                unpaid += len(event["data"]["unpaid"])
    assert paid >= 9 * unpaid, (paid, unpaid)
    state = canonical.read_yaml(root / "campaign" / "state.yaml")
    armed = [faction for faction, record in state["factions"].items() if record["units"]]
    assert len(armed) >= 3, armed
