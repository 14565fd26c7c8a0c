"""A unit's levels, stats and control points (spec §4.3, §4.9.5, §4.11.1, §3.3), from the rules data."""

from __future__ import annotations

from resolver.rulesets.overlord import stats

from .units_support import rules, unit


def test_levels_are_cumulative_days_and_below_the_first_a_unit_is_a_novice() -> None:
    r = rules()
    assert r["skills"]["cmbt"]["levels"][:2] == [15, 45]
    assert r["skills"]["tact"]["levels"][:3] == [30, 90, 180]
    assert stats.skill_level(r, unit(skills={"cmbt": 14.9}), "cmbt") == 0
    assert stats.has_level(r, unit(skills={"cmbt": 3}), "cmbt", 0)
    assert not stats.has_level(r, unit(), "cmbt", 0)
    assert stats.skill_level(r, unit(skills={"cmbt": 15}), "cmbt") == 1
    assert stats.skill_level(r, unit(skills={"cmbt": 45}), "cmbt") == 2
    assert stats.level_words(r, "cmbt", 1) == "1st combat"
    assert stats.level_words(r, "parr", 0) == "novice parry"
    assert [stats.ordinal(n) for n in (1, 2, 3, 4, 11, 22)] == ["1st", "2nd", "3rd", "4th", "11th", "22nd"]


def test_ten_horses_in_a_thirty_man_unit_give_one_initiative_and_no_melee_penalty() -> None:
    r = rules()
    riders = unit(figures=30, items={"hrse": 10}, equipped={"hrse": 10})
    got = stats.unit_stats(r, riders)
    assert got["initiative"] == 1  # floor(3 x 10 / 30)
    assert got["melee"] == 0 and got["defense"] == 0  # a -1 counts only when every figure rides
    assert stats.unit_stats(r, unit(figures=30, equipped={"hrse": 30}))["melee"] == -1


def test_skills_items_race_and_effects_add_up() -> None:
    r = rules()
    hero = unit(race="hero", skills={"cmbt": 45, "blde": 15}, items={"swrd": 1, "hrse": 1},
                equipped={"swrd": 1, "hrse": 1})  # fmt: skip
    got = stats.unit_stats(r, hero)
    # hero +1 ini +1 obs; 2nd combat +2/+2; 1st blades +1/+1; sword +3 melee +2 def +2 dmg; horse +3 -1 -1
    assert got["initiative"] == 4 and got["observation"] == 1
    assert got["melee"] == 2 + 1 + 3 - 1 and got["defense"] == 2 + 1 + 2 - 1 and got["damage"] == 2
    assert got["life"] == 1 and got["hits"] == 1
    r["effects"] = {"boar": {"stats": {"melee": 4}}}
    assert stats.unit_stats(r, {**hero, "effects": {"boar": 3}})["melee"] == got["melee"] + 4
    assert stats.unit_stats(r, {**hero, "effects": {"boar": 0}})["melee"] == got["melee"]


def test_control_points_follow_the_manuals_examples() -> None:
    r = rules()
    assert stats.control_points(r, unit(race="ldr")) == 1
    assert stats.control_points(r, unit(figures=20)) == 1
    assert stats.control_points(r, unit(race="gobl", figures=21)) == 2
    # a hero with seven levels of magic: 1 + 1 + ceil(7 / 4)
    mage = unit(race="hero", skills={"mage": 90, "fire": 45, "eart": 15, "airs": 15, "wate": 15})
    assert stats.max_mana(r, mage) == 2 + 2 + 1 + 1 + 1
    assert stats.control_points(r, mage) == 4
    assert stats.unit_stats(r, mage)["control"] == 4


def test_skill_trees_read_from_the_prerequisites() -> None:
    r = rules()
    assert stats.parents(r, "cavm") == ["mane", "cmbt"]
    assert stats.root(r, "lumb") == "fore"
    assert set(stats.dependants(r, "cmbt")) >= {"blde", "mart", "tact", "stra", "nobl", "tgld"}
    assert stats.skill_kind(r, "mage") == "magic" and stats.skill_kind(r, "blde") == "combat"
    assert stats.skill_kind(r, "lumb") == "plain"


def test_every_prerequisite_equip_skill_and_product_names_a_known_tag() -> None:
    r = rules()
    for tag, entry in r["skills"].items():
        need = entry.get("requires")
        assert need is None or need["skill"] in r["skills"], tag
        assert entry["levels"] == sorted(entry["levels"]), tag
        use = entry.get("use") or {}
        for goods in (use.get("inputs") or {}, use.get("output") or {}):
            assert set(goods) <= set(r["items"]), tag
    for tag, item in r["items"].items():
        assert item.get("category") is None or item["category"] in r["equipment"], tag
        assert not item.get("equip") or item["equip"]["skill"] in r["skills"], tag
        assert set(item.get("bonuses") or {}) <= set(r["unit_stats"]["names"]), tag
    for tag, race in r["races"].items():
        assert race["kind"] in r["study"]["limits"], tag
        assert set(race.get("talents") or {}) <= set(r["skills"]), tag
