"""Build, Renovate and Craft: the spec's worked examples (Appendix C 1–3), the savings table row by row,
quality by the roll's total, multi-crafting, and what the checker refuses."""

from __future__ import annotations

from typing import Any

import pytest

from resolver.engine.plans import Reject
from resolver.engine.ruleset import get_ruleset
from resolver.rulesets.usurper import building, crafting, lairs

RULES = get_ruleset("usurper").default_rules()
COLUMNS = [5, 10, 15, 20, 22, 25, 30, 35, 40, 45, 50, 55, 60]
SAVINGS = {  # spec 4.3.4, as printed
    "partial_success": [0] * 13,
    "success": [0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6],
    "significant": [1, 2, 2, 3, 4, 4, 6, 7, 8, 8, 10, 11, 12],
    "astounding": [1, 3, 3, 5, 6, 6, 9, 11, 12, 12, 13, 14, 15],
    "epic": [2, 4, 5, 7, 8, 9, 12, 14, 16, 18, 20, 22, 24],
    "legendary": [3, 5, 7, 10, 11, 12, 15, 17, 20, 22, 25, 27, 30],
}


def room(kind: str, level: int = 1, renovations: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"type": kind, "level": level, "renovations": renovations or []}


def lair(*rooms: dict[str, Any], **stock: int) -> dict[str, Any]:
    return {
        "id": "red-lair1",
        "grid": "Z26",
        "obscurity": {"current": 150, "max": 150},
        "rooms": list(rooms) or [room("throne"), room("barracks"), room("warehouse")],
        "storage": {"lumber": 0, "stone": 0, "iron": 0, "foodstuffs": 0, **stock},
        "items": [],
        "gems": [],
        "prisoners": [],
    }


def unit(*tools: str, name: str = "Iron Fists") -> dict[str, Any]:
    return {"id": "red-u1", "name": name, "tools": [{"item": t, "quality": "standard"} for t in tools]}


SAWYERS = [unit("saws")]


# --- Appendix C 1: the cost of a room ---------------------------------------------------------------------


def test_c1_a_workshop_in_a_lair_of_four_rooms_costs_25_lumber_and_a_success_saves_2() -> None:
    home = lair(room("throne"), room("barracks"), room("barracks"), room("warehouse"), lumber=30)
    plan = building.plan_build(RULES, home, ["workshop"], SAWYERS)
    assert plan.cost == {"lumber": 25}
    settled = building.carry_out_build(RULES, home, plan, "success", craftsman=False)
    assert settled.refunded == {"lumber": 2} and settled.lost == {"lumber": 23}
    assert home["storage"]["lumber"] == 30 - 23
    assert [r["type"] for r in home["rooms"]][-1] == "workshop"


def test_c1_a_craftsman_reads_the_significant_row_and_saves_4() -> None:
    home = lair(room("throne"), room("barracks"), room("barracks"), room("warehouse"), lumber=25)
    plan = building.plan_build(RULES, home, ["workshop"], SAWYERS)
    settled = building.carry_out_build(RULES, home, plan, "success", craftsman=True)
    assert settled.refunded == {"lumber": 4} and home["storage"]["lumber"] == 4


def test_a_craftsman_is_a_living_leader_with_that_bonus() -> None:
    faction = {"leaders": {"red-l1": {"bonus": "craftsman", "hp": 2}, "red-l2": {"bonus": "herald", "hp": 2}}}
    assert building.craftsman_of(RULES, faction)
    faction["leaders"]["red-l1"]["hp"] = 0
    assert not building.craftsman_of(RULES, faction)


def test_several_rooms_in_one_build_each_cost_the_next_amount_up() -> None:
    home = lair(lumber=60)  # three rooms: 20, then 25
    plan = building.plan_build(RULES, home, ["watchtower", "barracks"], SAWYERS)
    assert plan.steps == [{"lumber": 20}, {"lumber": 25}] and plan.cost == {"lumber": 45}
    settled = building.carry_out_build(RULES, home, plan, "significant", craftsman=False)
    assert settled.refunded == {"lumber": 3 + 4}
    assert len(home["rooms"]) == 5


def test_a_failed_build_of_several_rooms_loses_the_dearest_and_gives_back_the_rest() -> None:
    home = lair(lumber=60)
    plan = building.plan_build(RULES, home, ["watchtower", "barracks"], SAWYERS)
    settled = building.carry_out_build(RULES, home, plan, "partial_failure", craftsman=False)
    assert settled.lost == {"lumber": 25} and settled.refunded == {"lumber": 20}
    assert home["storage"]["lumber"] == 35 and len(home["rooms"]) == 3


def test_only_barracks_and_workshops_may_be_built_twice() -> None:
    home = lair(lumber=200)
    building.plan_build(RULES, home, ["barracks"], SAWYERS)
    building.plan_build(RULES, home, ["workshop", "workshop"], SAWYERS)
    with pytest.raises(Reject, match="already has a Warehouse"):
        building.plan_build(RULES, home, ["warehouse"], SAWYERS)
    with pytest.raises(Reject, match="already has a Watchtower"):
        building.plan_build(RULES, home, ["watchtower", "watchtower"], SAWYERS)
    with pytest.raises(Reject, match="not a room one can build"):
        building.plan_build(RULES, home, ["throne"], SAWYERS)


def test_building_needs_saws_on_a_unit_and_the_lumber_in_store() -> None:
    with pytest.raises(Reject) as no_saws:
        building.plan_build(RULES, lair(lumber=50), ["watchtower"], [unit("hammers")])
    assert no_saws.value.field == "equip" and "equip: [saws]" in no_saws.value.hint
    with pytest.raises(Reject, match="needs 5 Lumber more"):
        building.plan_build(RULES, lair(lumber=15), ["watchtower"], SAWYERS)


def test_fortifications_raise_the_lairs_obscurity_max_and_current() -> None:
    home = lair(lumber=20)
    plan = building.plan_build(RULES, home, ["fortifications"], SAWYERS)
    building.carry_out_build(RULES, home, plan, "partial_success", craftsman=False)
    assert home["obscurity"] == {"current": 155, "max": 155}
    assert lairs.lair_bonus(RULES, home, "defense") == 2


# --- Appendix C 2: renovation costs -----------------------------------------------------------------------


def test_c2_the_next_basic_renovation_of_a_level_3_watchtower_costs_20_stone() -> None:
    home = lair(room("throne"), room("warehouse"), room("watchtower", level=3), stone=20)
    plan = building.plan_renovation(RULES, home, "watchtower", ["enhanced_vision"], SAWYERS)
    assert plan.cost == {"stone": 20}


def test_c2_levels_3_and_4_together_from_level_2_cost_35_stone() -> None:
    home = lair(room("throne"), room("warehouse"), room("watchtower", level=2), stone=35)
    plan = building.plan_renovation(
        RULES, home, "watchtower", ["enhanced_vision", "enhanced_vision"], SAWYERS
    )
    assert plan.steps == [{"stone": 15}, {"stone": 20}] and plan.cost == {"stone": 35}
    building.carry_out_renovation(RULES, home, plan, "partial_success", craftsman=False)
    tower = lairs.find_room(home, "watchtower")
    assert tower is not None and tower["level"] == 4
    assert lairs.lair_bonus(RULES, home, "scout") == 4 + 4 + 4


def test_c2_a_pillar_on_a_level_5_room_with_one_pillar_costs_50_stone() -> None:
    workshop = room("workshop", level=5, renovations=[{"renovation": "technique_artificers"}])
    home = lair(room("throne"), room("warehouse"), workshop, stone=50)
    plan = building.plan_renovation(RULES, home, "workshop", ["technique_multi_crafting"], SAWYERS)
    assert plan.cost == {"stone": 50}


def test_renovations_keep_to_their_limits_levels_and_choices() -> None:
    throne = room("throne", level=5, renovations=[{"renovation": "inspiring_banner", "choice": "morale"}] * 4)
    home = lair(throne, room("warehouse"), room("barracks"), stone=500)
    with pytest.raises(Reject, match="taken 4 times for morale"):
        building.plan_renovation(
            RULES, home, "throne", [{"renovation": "inspiring_banner", "choice": "morale"}], SAWYERS
        )
    plan = building.plan_renovation(
        RULES, home, "throne", [{"renovation": "inspiring_banner", "choice": "loyalty"}], SAWYERS
    )
    building.carry_out_renovation(RULES, home, plan, "success", craftsman=False)
    assert lairs.lair_bonus(RULES, home, "morale") == 3 + 12 and lairs.lair_bonus(RULES, home, "loyalty") == 6
    with pytest.raises(Reject, match="needs a choice"):
        building.plan_renovation(RULES, home, "throne", ["inspiring_banner"], SAWYERS)
    low = lair(room("throne"), room("warehouse"), room("workshop", level=4), stone=500)
    with pytest.raises(Reject, match="needs the Workshop at level 5; it will be at level 4"):
        building.plan_renovation(RULES, low, "workshop", ["armor_workers"], SAWYERS)
    # the step before it raises the level, so the two together pass
    building.plan_renovation(
        RULES,
        low,
        "workshop",
        [{"renovation": "industrious", "choice": "crafting"}, "armor_workers"],
        SAWYERS,
    )
    with pytest.raises(Reject, match="cannot be renovated"):
        building.plan_renovation(RULES, home, "barracks", ["expanded_hold"], SAWYERS)


def test_embedded_saws_serve_a_renovation_only_with_shared_means() -> None:
    means = room("workshop", level=6, renovations=[{"renovation": "shared_means"}])
    means["embedded"] = [{"item": "saws", "quality": "standard"}]
    home = lair(room("throne"), room("warehouse"), means, stone=100)
    building.plan_renovation(RULES, home, "warehouse", ["expanded_hold"], [unit()])
    with pytest.raises(Reject, match="has Saws"):
        building.plan_build(RULES, lair(lumber=50), ["watchtower"], [unit()])


# --- the savings table ------------------------------------------------------------------------------------


@pytest.mark.parametrize("band", list(SAVINGS))
def test_the_savings_table_row_by_row(band: str) -> None:
    assert [building.saving(RULES, band, cost) for cost in COLUMNS] == SAVINGS[band]
    # the second cost each of the first two columns names ("5 or 6", "10 or 11")
    assert building.saving(RULES, band, 6) == SAVINGS[band][0]
    assert building.saving(RULES, band, 11) == SAVINGS[band][1]


def test_savings_outside_the_table() -> None:
    assert building.saving(RULES, "success", 26) == 2  # the 25 column
    assert building.saving(RULES, "success", 4) == 0
    assert building.saving(RULES, "epic", 65) == 26  # 40% of 65, rounded down
    assert building.saving(RULES, "legendary", 61) == 30
    assert building.saving(RULES, "complete_failure", 25) == 0
    assert building.saving(RULES, "legendary", 25, craftsman=True) == 12  # no row above Legendary
    assert building.savings(RULES, "significant", {"stone": 10, "lumber": 20, "foodstuffs": 10}) == {
        "stone": 2,
        "lumber": 3,
    }


# --- Appendix C 3 and crafting ----------------------------------------------------------------------------


def test_c3_decent_melee_weapons_sell_for_17_or_18() -> None:
    assert crafting.sale_value(RULES, "melee_weapons", "decent", round_up=False) == 17
    assert crafting.sale_value(RULES, "melee_weapons", "decent", round_up=True) == 18
    assert crafting.sale_value(RULES, "melee_weapons", "standard", round_up=False) == 10
    assert crafting.sale_value(RULES, "shovels", "mild", round_up=False) == 3
    assert crafting.sale_value(RULES, "melee_weapons", "powerful", round_up=True) is None


@pytest.mark.parametrize(
    ("total", "helps", "band", "quality"),
    [
        (49, 0, "partial_failure", None),
        (30, 0, "partial_success", "standard"),  # a first-month failure read up to Partial Success
        (50, 0, "partial_success", "standard"),
        (74, 0, "partial_success", "standard"),
        (75, 0, "success", "mild"),
        (100, 0, "success", "mild"),
        (101, 0, "significant", "slight"),
        (149, 0, "significant", "slight"),
        (150, 0, "astounding", "decent"),
        (199, 0, "astounding", "decent"),
        (200, 0, "epic", "moderate"),
        (300, 0, "legendary", "moderate"),
        (250, 1, "legendary", "extensive"),
        (250, 2, "legendary", "strong"),
        (250, 3, "legendary", "powerful"),
        (249, 3, "epic", "moderate"),
    ],
)
def test_quality_by_the_total(total: int, helps: int, band: str, quality: str | None) -> None:
    assert crafting.quality_for(RULES, total, helps, band) == quality


def crafter(*tools: str) -> dict[str, Any]:
    return unit(*tools, name="Smiths")


def test_a_craft_costs_its_materials_and_gives_back_the_savings_on_success() -> None:
    home = lair(room("throne"), room("warehouse"), room("workshop"), iron=22)
    plan = crafting.plan_craft(
        RULES, home, "workshop", ["melee_weapons"], [crafter("hammers")], [], hq=False, turn=3
    )
    assert plan.cost == {"iron": 22}
    assert [(m.source, m.value) for m in plan.modifiers] == [("Workshop crafting boost", 4)]
    made = crafting.carry_out_craft(RULES, home, plan, "significant", 120, craftsman=False, turn=3)
    assert made.quality == "slight" and home["items"] == [{"item": "melee_weapons", "quality": "slight"}]
    assert home["storage"]["iron"] == 4  # 22 column, Significant row
    with pytest.raises(Reject, match="already made something this week"):
        crafting.plan_craft(
            RULES, home, "workshop", ["light_armor"], [crafter("hammers")], [], hq=False, turn=3
        )


def test_a_failed_craft_loses_everything() -> None:
    home = lair(room("throne"), room("warehouse"), room("workshop"), iron=22)
    plan = crafting.plan_craft(
        RULES, home, "workshop", ["melee_weapons"], [crafter("hammers")], [], hq=False, turn=3
    )
    made = crafting.carry_out_craft(RULES, home, plan, "partial_failure", 40, craftsman=False, turn=3)
    assert made.quality is None and made.items == [] and home["storage"]["iron"] == 0


def test_multi_crafting_needs_its_pillar_costs_15_per_extra_item_and_rises_or_falls_as_one() -> None:
    plain = lair(room("throne"), room("warehouse"), room("workshop"), iron=30)
    with pytest.raises(Reject, match="makes 1 item a week"):
        crafting.plan_craft(
            RULES, plain, "workshop", ["light_armor"] * 3, [crafter("hammers")], [], hq=False, turn=1
        )

    def pillar() -> dict[str, Any]:
        return room("workshop", level=6, renovations=[{"renovation": "technique_multi_crafting"}])

    home = lair(room("throne"), room("warehouse"), pillar(), iron=15)
    plan = crafting.plan_craft(
        RULES, home, "workshop", ["light_armor"] * 3, [crafter("hammers")], [], hq=False, turn=1
    )
    assert plan.cost == {"iron": 15}
    assert ("Multi-crafting", -30) in [(m.source, m.value) for m in plan.modifiers]
    made = crafting.carry_out_craft(RULES, home, plan, "success", 80, craftsman=False, turn=1)
    assert [i["quality"] for i in home["items"]] == ["mild"] * 3 and made.quality == "mild"
    again = lair(room("throne"), room("warehouse"), pillar(), iron=15)
    plan = crafting.plan_craft(
        RULES, again, "workshop", ["light_armor"] * 3, [crafter("hammers")], [], hq=False, turn=1
    )
    crafting.carry_out_craft(RULES, again, plan, "complete_failure", 20, craftsman=False, turn=1)
    assert again["items"] == [] and again["storage"]["iron"] == 0


def test_crafting_needs_hammers_on_every_unit_unless_embedded_and_then_counts_them_once() -> None:
    home = lair(room("throne"), room("warehouse"), room("workshop"), iron=30)
    with pytest.raises(Reject, match="Smiths has no Hammers"):
        crafting.plan_craft(
            RULES, home, "workshop", ["shields"], [crafter("hammers"), crafter()], [], hq=False, turn=1
        )
    home["items"] = [{"item": "hammers", "quality": "mild"}]
    crafting.embed(RULES, home, "workshop", "hammers")
    assert home["items"] == [] and lairs.find_room(home, "workshop")["embedded"] == [
        {"item": "hammers", "quality": "mild"}
    ]
    plan = crafting.plan_craft(
        RULES, home, "workshop", ["shields"], [crafter(), crafter()], [], hq=False, turn=1
    )
    assert ("embedded Hammers", 4 + 3) in [(m.source, m.value) for m in plan.modifiers]


def test_advanced_items_need_the_workshop_renovation_and_gems_pay_with_change() -> None:
    home = lair(room("throne"), room("warehouse"), room("workshop"), iron=30)
    with pytest.raises(Reject, match="needs the Workshop's Armor Workers renovation"):
        crafting.plan_craft(
            RULES, home, "workshop", ["medium_armor"], [crafter("hammers")], [], hq=False, turn=1
        )
    tools = room("workshop", level=6, renovations=[{"renovation": "tool_crafters"}])
    home = lair(room("throne"), room("warehouse"), tools, iron=5)
    with pytest.raises(Reject, match="gem worth 5 gold"):
        crafting.plan_craft(
            RULES, home, "workshop", ["medallion"], [crafter("hammers")], [], hq=False, turn=1
        )
    home["gems"] = [4, 4]
    plan = crafting.plan_craft(
        RULES, home, "workshop", ["medallion"], [crafter("hammers")], [], hq=False, turn=1
    )
    crafting.carry_out_craft(RULES, home, plan, "success", 80, craftsman=False, turn=1)
    assert home["gems"] == [3] and home["items"] == [{"item": "medallion", "quality": "mild"}]


def test_hq_materials_pay_the_cost_and_open_the_next_quality() -> None:
    home = lair(room("throne"), room("warehouse"), room("workshop"), mithril=22)
    runesmith = {"id": "red-l1", "name": "Grug", "spells": ["runesmith"]}
    plan = crafting.plan_craft(
        RULES, home, "workshop", ["melee_weapons"], [crafter("hammers")], [runesmith], hq=True, turn=1
    )
    assert plan.cost == {"mithril": 22} and plan.helps == 2
    made = crafting.carry_out_craft(RULES, home, plan, "legendary", 260, craftsman=False, turn=1)
    assert made.quality == "strong" and home["storage"]["mithril"] == 11
