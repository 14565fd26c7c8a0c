"""Landmark rituals: a reward per table, the next-lower-band rule, and the gifts read by the rolls."""

from __future__ import annotations

import copy

import pytest

from resolver.rulesets.usurper import landmarks

from .scoring_support import context, usurper, usurper_rules

RULES = usurper_rules()


def state() -> dict:
    red = usurper("red")
    red["units"]["red-u2"] = {
        "id": "red-u2",
        "name": "Night Eyes",
        "race": "goblins",
        "level": 2,
        "xp": 0,
        "tools": [{"item": "spyglass", "quality": "standard"}],
    }
    return {"turn": 6, "factions": {"red": red}}


@pytest.mark.parametrize(
    ("rolled", "won", "given"),
    [
        ("partial_success", [], None),
        ("success", [], "success"),
        ("legendary", [], "epic"),
        ("epic", ["epic"], "astounding"),
        ("astounding", ["astounding", "significant"], "success"),
        ("significant", ["significant", "success"], None),
    ],
)
def test_next_lower_band(rolled: str, won: list[str], given: str | None) -> None:
    assert landmarks.band_won(RULES, rolled, won) == given


def test_places_are_the_four_landmarks() -> None:
    assert sorted(landmarks.places(RULES)) == ["C1", "C7", "E10", "J4"]
    assert landmarks.at(RULES, "J4") == "enchanted_forest"


def test_forest_gifts_and_what_they_add() -> None:
    s = state()
    red = s["factions"]["red"]
    ctx = context(RULES, 6)
    landmarks.ritual(ctx, s, "red", "red-l1", "J4", "success", {})
    assert red["leaders"]["red-l1"]["abilities"] == ["overseer"]
    # The same band again gives nothing: Partial is below it.
    assert landmarks.ritual(ctx, s, "red", "red-l1", "J4", "success", {})["band"] is None
    landmarks.ritual(ctx, s, "red", "red-l1", "J4", "significant", {"units": ["red-u1"]})
    assert red["units"]["red-u1"]["abilities"] == ["blessed_harvester"]
    landmarks.ritual(ctx, s, "red", "red-l1", "J4", "epic", {})
    assert red["abilities"] == ["land_shaper"]
    leaders, units = [red["leaders"]["red-l1"]], [red["units"]["red-u1"]]
    mods = landmarks.ability_modifiers(RULES, red, "harvest", leaders, units)
    # Blessed Harvester needs Shovels, which the unit lacks.
    assert [(m.source, m.value) for m in mods] == [("Land Shaper", 10), ("Overseer", 10)]
    red["units"]["red-u1"]["tools"] = [{"item": "shovels", "quality": "standard"}]
    assert sum(m.value for m in landmarks.ability_modifiers(RULES, red, "harvest", leaders, units)) == 40
    assert landmarks.ability_modifiers(RULES, red, "scout", leaders, units) == []
    assert [e.visible_to for e in ctx.events] == [["red"]] * 4


def test_swamp_gives_the_best_unit_its_gift() -> None:
    s = state()
    landmarks.ritual(context(RULES, 6), s, "red", "red-l1", "E10", "significant", {})
    assert s["factions"]["red"]["units"]["red-u2"]["abilities"] == ["cartographer"]  # level 2 before level 0
    mods = landmarks.ability_modifiers(
        RULES, s["factions"]["red"], "scout", [], [s["factions"]["red"]["units"]["red-u2"]]
    )
    assert [m.value for m in mods] == [20]


def test_oracle_tokens_bank_from_next_week() -> None:
    s = state()
    red = s["factions"]["red"]
    landmarks.ritual(context(RULES, 6), s, "red", "red-l1", "C7", "astounding", {})
    assert red["oracle_tokens"] == [{"value": 55, "from": 7, "until": 11}] * 3
    assert landmarks.spend_token(RULES, red, 6) is None
    assert landmarks.spend_token(RULES, red, 7).value == 55
    assert len(red["oracle_tokens"]) == 2
    assert landmarks.spend_token(RULES, red, 12) is None
    renamed = {
        **RULES,
        "action_roll": {**RULES["action_roll"], "sources": {"oracle_token": "Talonrel's gift"}},
    }
    assert landmarks.spend_token(renamed, red, 7) == landmarks.Modifier("Talonrel's gift", 55)
    landmarks.ritual(context(RULES, 6), s, "red", "red-l2", "C7", "legendary", {})
    assert red["leaders"]["red-l2"]["abilities"] == ["oracle"]
    leader = [red["leaders"]["red-l2"]]
    assert [m.value for m in landmarks.ability_modifiers(RULES, red, "craft", leader, [])] == [15]
    assert landmarks.ability_modifiers(RULES, red, "attack", leader, [], combat=True) == []


def test_bugrem_loyalty_pass_and_fail() -> None:
    s = state()
    red = s["factions"]["red"]
    ctx = context(RULES, 6, {"t6/ritual/bugrem/red/red-u2/loyalty": [50]})
    out = landmarks.ritual(ctx, s, "red", "red-l1", "C1", "success", {})
    assert out["units"] == [{"unit": "Night Eyes", "passed": True}]
    assert red["units"]["red-u2"]["xp"] == 1 and red["units"]["red-u2"]["skill_xp_pending"] == 4
    ctx = context(RULES, 6, {"t6/ritual/bugrem/red/red-u1/loyalty": [49]})
    out = landmarks.ritual(ctx, s, "red", "red-l1", "C1", "significant", {"units": ["red-u1"]})
    assert out["units"] == [{"unit": "Iron Fists", "passed": False}]
    assert "red-u1" not in red["units"]


def test_bugrem_unique_trait_random_and_chosen() -> None:
    s = state()
    red = s["factions"]["red"]
    forced = {"t6/ritual/bugrem/red/red-u2/loyalty": [80], "t6/ritual/bugrem/red/red-u2/trait": [2]}
    landmarks.ritual(context(RULES, 6, forced), s, "red", "red-l1", "C1", "significant", {})
    assert red["units"]["red-u2"]["unique"] == {"trait": "agile"}  # goblins: stealth, agile, monster
    forced = {"t7/ritual/bugrem/red/red-u2/loyalty": [90], "t7/ritual/bugrem/red/red-u1/loyalty": [75]}
    out = landmarks.ritual(context(RULES, 7, forced), s, "red", "red-l1", "C1", "epic", {"trait": "mason"})
    assert [u["passed"] for u in out["units"]] == [True, True]
    assert red["units"]["red-u1"]["unique"] == {"trait": "mason"}  # a dwarves' trait, as chosen
    assert red["units"]["red-u2"]["unique"] == {"trait": "stealth"}  # not a goblins' trait: the first


def test_the_ritual_names_its_band_as_the_rules_data_does(tmp_path) -> None:
    from resolver import workflow
    from resolver.rulesets.usurper import RULESET
    from resolver.store.store import Store

    rules = copy.deepcopy(RULES)
    row = next(r for r in rules["checks"]["action"]["table"] if r["result"] == "significant")
    row["name"] = "Grand Success"
    ctx = context(rules, 6)
    landmarks.ritual(ctx, state(), "red", "red-l1", "E10", "significant", {})
    (event,) = [e.to_data() for e in ctx.events if e.kind == "ritual"]
    assert event["data"]["band_name"] == "Grand Success"
    root = tmp_path / "c"
    workflow.new_campaign(root, "usurper", 3, workflow.default_factions(2, 3))
    words = RULESET.describe(event, Store(root).game())
    assert ": Grand Success, Cartographer for " in words and "significant" not in words.lower()
