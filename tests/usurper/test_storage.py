"""The Warehouse: slots, what a full one loses at the end of the week (the default order and a usurper's
own), paying gems with change, and equipping from storage."""

from __future__ import annotations

from typing import Any

import pytest

from resolver.engine.plans import Reject
from resolver.engine.ruleset import get_ruleset
from resolver.rulesets.usurper import equipment, storage

RULES = get_ruleset("usurper").default_rules()


def lair(
    holds: int = 0, items: list[str] | None = None, gems: list[int] | None = None, **stock: int
) -> dict[str, Any]:
    warehouse = {
        "type": "warehouse",
        "level": 1 + holds,
        "renovations": [{"renovation": "expanded_hold"}] * holds,
    }
    return {
        "id": "red-lair1",
        "grid": "Z26",
        "rooms": [{"type": "throne", "level": 1, "renovations": []}, warehouse],
        "storage": {"lumber": 0, "stone": 0, "iron": 0, "foodstuffs": 0, **stock},
        "items": [{"item": i, "quality": "standard"} for i in items or []],
        "gems": list(gems or []),
    }


def test_slots_count_twenty_resources_one_food_one_item_one_gem_and_no_horses() -> None:
    home = lair(items=["saws", "horses"], gems=[4], lumber=21, stone=20, foodstuffs=2)
    assert storage.slots_used(RULES, home) == 2 + 1 + 2 + 1 + 1
    assert storage.capacity(RULES, home) == 10
    assert storage.capacity(RULES, lair(holds=2)) == 30


def test_overflow_loses_lumber_first_by_default_and_only_what_frees_the_slots() -> None:
    home = lair(items=["saws", "spyglass"], lumber=45, stone=60, iron=20, foodstuffs=3)  # 3+3+1+3+2 = 12
    lost = storage.overflow(RULES, home, RULES["policies"]["overflow_drop"])
    assert lost == {"lumber": 5 + 20}
    assert home["storage"]["lumber"] == 20 and storage.slots_used(RULES, home) == 10


def test_the_default_order_keeps_food_longest() -> None:
    home = lair(items=["saws", "hammers", "melee_weapons"], lumber=10, stone=10, iron=10, foodstuffs=9)  # 15
    lost = storage.overflow(RULES, home)
    assert lost == {
        "lumber": 10,
        "stone": 10,
        "iron": 10,
        "items": [{"item": "saws", "quality": "standard"}, {"item": "hammers", "quality": "standard"}],
    }
    assert home["storage"]["foodstuffs"] == 9 and home["items"] == [
        {"item": "melee_weapons", "quality": "standard"}
    ]


def test_a_usurpers_own_order_comes_first_and_the_default_fills_the_rest() -> None:
    assert storage.drop_order(RULES, ["foodstuffs", "nonsense"])[:3] == ["foodstuffs", "lumber", "stone"]
    home = lair(lumber=40, foodstuffs=10)  # 12 slots
    lost = storage.overflow(RULES, home, ["foodstuffs"])
    assert lost == {"foodstuffs": 2} and home["storage"] == {
        "lumber": 40,
        "stone": 0,
        "iron": 0,
        "foodstuffs": 8,
    }


def test_gems_are_lost_smallest_first_and_nothing_is_lost_within_capacity() -> None:
    home = lair(gems=[5, 2, 9], foodstuffs=9)
    assert storage.overflow(RULES, home, ["gems"]) == {"gems": [2, 5]} and home["gems"] == [9]
    assert storage.overflow(RULES, lair(lumber=200)) == {}


def test_a_gem_requirement_is_paid_with_smaller_gems_and_the_change_kept() -> None:
    assert storage.gems_for([4, 4], 5) == ([4, 4], 3)
    assert storage.gems_for([9, 6, 2], 5) == ([6], 1)
    assert storage.gems_for([2, 2], 5) is None


# --- equipping ---------------------------------------------------------------------------------------------


def troop(**extra: Any) -> dict[str, Any]:
    base = {
        "id": "red-u1",
        "name": "Iron Fists",
        "max_tools": 2,
        "max_weapons": 2,
        "tools": [],
        "weapons": [],
    }
    return {**base, "armor": None, "mount": None, **extra}


def test_equipping_takes_the_best_set_from_the_warehouse() -> None:
    home = lair(items=["saws", "light_armor", "horses"])
    home["items"].append({"item": "saws", "quality": "slight"})
    fists = troop()
    given = equipment.equip(RULES, home, ["saws", "light_armor", "horses"], [("unit", fists)])
    assert [g[1]["item"] for g in given] == ["saws", "light_armor", "horses"]
    assert fists["tools"] == [{"item": "saws", "quality": "slight"}]
    assert fists["armor"]["item"] == "light_armor" and fists["mount"]["item"] == "horses"
    assert home["items"] == [{"item": "saws", "quality": "standard"}]


def test_no_duplicates_no_more_than_the_slots_and_the_next_unit_takes_what_the_first_cannot() -> None:
    home = lair(items=["saws", "saws", "spyglass"])
    first, second = troop(max_tools=1), troop(id="red-u2", name="Night Owls")
    given = equipment.equip(RULES, home, ["saws", "saws"], [("unit", first), ("unit", second)])
    assert [g[0] for g in given] == ["red-u1", "red-u2"]
    with pytest.raises(Reject, match="no free tool slot"):
        equipment.equip(RULES, home, ["spyglass"], [("unit", first)])
    again = lair(items=["shields"])
    with pytest.raises(Reject, match="already has Shields"):
        equipment.equip(
            RULES, again, ["shields"], [("unit", troop(weapons=[{"item": "shields", "quality": "standard"}]))]
        )
    with pytest.raises(Reject, match="no Spyglass in the Warehouse"):
        equipment.equip(RULES, lair(), ["spyglass"], [("unit", troop())])


def test_a_leader_carries_one_object_and_a_unit_none_of_a_leaders() -> None:
    home = lair(items=["bugle", "racial_totem"])
    grug = {"id": "red-l1", "name": "Grug", "carried": None}
    with pytest.raises(Reject, match="carried by a leader, never a unit"):
        equipment.equip(RULES, home, ["bugle"], [("unit", troop())])
    equipment.equip(RULES, home, ["bugle"], [("unit", troop()), ("leader", grug)])
    assert grug["carried"] == {"item": "bugle", "quality": "standard"}
    with pytest.raises(Reject, match="already carries 1 object"):
        equipment.equip(RULES, home, ["racial_totem"], [("leader", grug)])
