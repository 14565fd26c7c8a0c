"""Week 4's upkeep, the loyalty of unpaid and unfed units, missed shares and the Barracks (spec 5.12, 2.7)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.rulesets.usurper import upkeep

from ..scenarios.harness import Scenario
from .rolls_support import context
from .trade_rules import rules

RULES = rules()


def week_four(forced: dict[str, list[int]] | None = None) -> Any:
    """A turn context of week 4 of month 2, with its dice forced by label."""
    return context(RULES, turn=8, forced=forced or {})


def loyalty_label(unit: str) -> str:
    return f"t8/red/{unit}/loyalty/upkeep"


def unit(unit_id: str, level: int = 0, **more: Any) -> dict[str, Any]:
    return {
        "id": unit_id,
        "name": f"Unit {unit_id[-1]}",
        "race": "orcs",
        "level": level,
        "pax": 10,
        "tools": [],
        "mount": None,
        "lair": "red-lair1",
        "grumpy": False,
        "unpaid": False,
        **more,
    }


def state(
    gold: int, food: int, units: list[dict[str, Any]], barracks: int = 3, **faction: Any
) -> dict[str, Any]:
    rooms = [{"type": "throne", "level": 1, "renovations": []}]
    rooms += [{"type": "barracks", "level": 1, "renovations": []}] * barracks
    lair = {
        "id": "red-lair1",
        "obscurity": {"current": 150, "max": 150},
        "rooms": rooms,
        "storage": {"foodstuffs": food},
        "items": [],
    }
    return {
        "turn": 8,
        "factions": {
            "red": {
                "name": "Red",
                "status": "active",
                "gold": gold,
                "units": {u["id"]: u for u in units},
                "lairs": {"red-lair1": lair},
                **faction,
            }
        },
    }


def test_a_share_is_five_gold_and_a_food_and_one_more_food_for_horses() -> None:
    assert upkeep.share(RULES, unit("red-u1")) == (5, 1)
    assert upkeep.share(RULES, unit("red-u1", mount={"item": "horses", "quality": "standard"})) == (5, 2)


def test_everyone_paid_and_fed() -> None:
    game = state(20, 5, [unit("red-u1"), unit("red-u2", mount="horses")])
    data = upkeep.settle_upkeep(week_four(), game, "red")
    red = game["factions"]["red"]
    assert data["paid"] == ["red-u1", "red-u2"] and data["unpaid"] == [] and data["gold"] == 10
    assert (red["gold"], red["lairs"]["red-lair1"]["storage"]["foodstuffs"]) == (10, 2)


# The unpaid unit's lair has a Throne Room (+3 Loyalty): each face below lands in one row of the table.
@pytest.mark.parametrize(
    ("faces", "result", "stays", "grumpy", "unpaid", "obscurity"),
    [
        ([22], "embittered", False, None, None, 145),  # 25
        ([23], "faith_lost", False, None, None, 150),  # 26
        ([46], "faith_lost", False, None, None, 150),  # 49
        ([47], "grumpy", True, True, True, 150),  # 50
        ([71], "grumpy", True, True, True, 150),  # 74
        ([72], "tenacious", True, False, True, 150),  # 75
        ([95], "tenacious", True, False, True, 150),  # 98
        ([97, 1], "steadfast", True, False, False, 150),  # 97 explodes: 98 + 3 = 101
    ],
)
def test_the_loyalty_table_row_by_row_on_a_gold_shortfall(
    faces: list[int], result: str, stays: bool, grumpy: bool | None, unpaid: bool | None, obscurity: int
) -> None:
    game = state(5, 5, [unit("red-u1", level=2), unit("red-u2")])
    context = week_four({loyalty_label("red-u2"): faces})
    data = upkeep.settle_upkeep(context, game, "red")
    red = game["factions"]["red"]
    assert data["paid"] == ["red-u1"]  # the higher level is paid first
    told = data["unpaid"][0]
    assert told["result"] == result
    assert ("red-u2" in red["units"]) is stays
    if stays:
        assert (red["units"]["red-u2"]["grumpy"], red["units"]["red-u2"]["unpaid"]) == (grumpy, unpaid)
    assert red["lairs"]["red-lair1"]["obscurity"]["current"] == obscurity
    roll = data["rolls"][0]
    assert {"source": "Throne Room", "value": 3} in [m.to_data() for m in roll.modifiers]


def test_a_food_shortfall_leaves_the_last_unit_unfed_and_its_gold_unspent() -> None:
    game = state(100, 1, [unit("red-u1"), unit("red-u2")])
    data = upkeep.settle_upkeep(week_four({loyalty_label("red-u2"): [60]}), game, "red")
    red = game["factions"]["red"]
    assert data["paid"] == ["red-u1"] and data["unpaid"][0]["result"] == "grumpy"
    assert red["gold"] == 95 and red["lairs"]["red-lair1"]["storage"]["foodstuffs"] == 0


def test_the_policy_names_who_is_paid_first() -> None:
    game = state(
        5,
        5,
        [unit("red-u1", level=3), unit("red-u2")],
        standing={"policies": {"upkeep_priority": ["red-u2"]}},
    )
    data = upkeep.settle_upkeep(week_four({loyalty_label("red-u1"): [80]}), game, "red")
    assert data["paid"] == ["red-u2"] and data["unpaid"][0]["unit"] == "red-u1"


def test_a_medallion_and_loyalty_banners_count_in_the_check() -> None:
    renovations = [{"renovation": "inspiring_banner", "choice": "loyalty"}] * 2
    game = state(0, 0, [unit("red-u1", tools=[{"item": "medallion", "quality": "standard"}])])
    game["factions"]["red"]["lairs"]["red-lair1"]["rooms"][0]["renovations"] = renovations
    data = upkeep.settle_upkeep(week_four({loyalty_label("red-u1"): [40]}), game, "red")
    ledger = {m.source: m.value for m in data["rolls"][0].modifiers}
    assert ledger["Medallion"] == 4 and ledger["Throne Room"] == 3 and ledger["Inspiring Banners"] == 6


def test_a_unit_owing_a_share_pays_two_at_the_next_upkeep() -> None:
    game = state(10, 2, [unit("red-u1", grumpy=True, unpaid=True)])
    data = upkeep.settle_upkeep(week_four(), game, "red")
    red = game["factions"]["red"]
    assert data["paid"] == ["red-u1"] and red["gold"] == 0
    assert (red["units"]["red-u1"]["grumpy"], red["units"]["red-u1"]["unpaid"]) == (False, False)


def test_a_missed_share_is_paid_at_a_weeks_end_when_the_gold_is_there() -> None:
    game = state(7, 3, [unit("red-u1", grumpy=True, unpaid=True), unit("red-u2", unpaid=True)])
    assert upkeep.pay_arrears(RULES, game, "red") == ["red-u1"]  # the second share finds 2 gold
    red = game["factions"]["red"]
    assert red["units"]["red-u1"]["grumpy"] is False and red["units"]["red-u2"]["unpaid"] is True
    assert red["gold"] == 2
    game = state(7, 3, [unit("red-u1", unpaid=True)], standing={"policies": {"pay_arrears": False}})
    assert upkeep.pay_arrears(RULES, game, "red") == []


def test_a_barracks_houses_what_the_rooms_chapter_says_it_gives() -> None:
    # One source: the Barracks' gives.units (rooms chapter) is what upkeep and recruiting count.
    from resolver.rulesets.usurper import diplomacy

    assert "units_per_barracks" not in RULES["recruiting"]
    rules = copy.deepcopy(RULES)
    rules["rooms"]["barracks"]["gives"]["units"] = 2
    game = state(0, 5, [unit("red-u1"), unit("red-u2"), unit("red-u3")], barracks=2)
    assert upkeep.disband_overflow(rules, game, "red") == []
    assert diplomacy.barracks_free(rules, game["factions"]["red"]) == {"red-lair1": 1}
    assert diplomacy.barracks_free(RULES, game["factions"]["red"]) == {"red-lair1": -1}


def test_units_beyond_the_barracks_are_disbanded_and_owe_their_last_gold() -> None:
    game = state(0, 5, [unit("red-u1", level=1), unit("red-u2"), unit("red-u3")], barracks=2)
    assert upkeep.disband_overflow(RULES, game, "red") == ["Unit 3"]
    red = game["factions"]["red"]
    assert sorted(red["units"]) == ["red-u1", "red-u2"] and red["disbanded"] == [
        {"name": "Unit 3", "lair": "red-lair1"}
    ]
    red["gold"] = 10
    data = upkeep.settle_upkeep(week_four(), game, "red")
    assert data["disbanded"] == [{"name": "Unit 3", "paid": False}]  # the two units took the 10 gold
    assert red["lairs"]["red-lair1"]["obscurity"]["current"] == 149 and "disbanded" not in red


def test_the_week_4_step_tells_each_usurper_its_own_account() -> None:
    game = state(5, 5, [unit("red-u1")])
    context = week_four()
    upkeep.run_upkeep(context, game)
    [event] = context.events
    assert (event.kind, event.visible_to, event.data["paid"]) == ("upkeep", ["red"], ["red-u1"])


@pytest.mark.parametrize(
    ("gold", "food", "words"),
    [(5, 5, "goes unpaid and"), (100, 1, "goes unfed and"), (0, 0, "goes unpaid and unfed and")],
)
def test_the_report_says_whether_a_unit_went_unpaid_unfed_or_both(
    tmp_path: Path, gold: int, food: int, words: str
) -> None:
    red = {"lairs": {"red-lair1": {"grid": "B2"}}}
    fixture = {"ruleset": "usurper", "world": {"width": 4, "height": 4}, "factions": ["red"],
               "state": {"turn": 8, "factions": {"red": red}}}  # fmt: skip
    (tmp_path / "fixture.yaml").write_text(yaml.safe_dump(fixture), encoding="utf-8")
    game = Scenario(tmp_path / "fixture.yaml").game
    game_state = state(gold, food, [unit("red-u1", level=2), unit("red-u2")])
    context = week_four({loyalty_label("red-u1"): [60], loyalty_label("red-u2"): [60]})
    upkeep.run_upkeep(context, game_state)
    [event] = context.events
    told = event.data["unpaid"][-1]
    assert (told["unpaid_gold"], told["unfed"]) == (gold < 10, food < 2)
    sentence = game.ruleset.describe(event.to_data(), game)
    assert f"Unit 2 {words} will not act" in sentence
    assert "unpaid or unfed" not in sentence
