"""Victory Points counted by hand for a built usurper, category by category; tiers; the three victories."""

from __future__ import annotations

import copy

import pytest

from resolver.rulesets.usurper import scoring

from .scoring_support import context, usurper, usurper_rules

RULES = usurper_rules()


def built() -> dict:
    """A usurper with something in every line of every category."""
    red = usurper("red", gold=95, titles=["forge_lord"], prisoners_taken=2, abilities=["land_shaper"])
    red["artifacts"] = [{"name": "Lens of Aras", "rank": 2}, {"name": "Old Crown"}]
    red["extras"] = {
        "red-x1": {
            "skills": {"scout": {"rank": 2, "xp": 0}, "spy": {"rank": 1, "xp": 0}},
            "abilities": [{"id": "keen", "trainable": True}, {"id": "born_lucky"}],
            "unique_abilities": ["farsight"],
        }
    }
    red["leaders"]["red-l1"].update(
        skills={"negotiator": {"rank": 2, "xp": 0}, "leadership": {"rank": 1, "xp": 0}},
        spells=["seer", "napoleon"],
        abilities=["overseer"],
    )
    red["leaders"]["red-l2"]["skills"] = {"bard": {"rank": 1, "xp": 0}, "artisan": {"rank": 2, "xp": 0}}
    red["units"]["red-u1"].update(
        level=2,
        unique={"trait": "resilient"},
        weapons=[{"item": "melee_weapons", "quality": "decent"}],
        armor={"item": "light_armor", "quality": "standard"},
        tools=[{"item": "spyglass", "quality": "mild"}, {"item": "shovels", "quality": "standard"}],
        skills={
            "scout": {"rank": 2, "xp": 0},
            "courage": {"rank": 1, "xp": 0},
            "aggressor": {"rank": 2, "xp": 0},
            "pernicious": {"rank": 1, "xp": 0},
            "mason": {"rank": 1, "xp": 0},
            "woodsman": {"rank": 3, "xp": 0},
        },
    )
    red["units"]["red-u2"] = {
        "id": "red-u2",
        "race": "goblins",
        "level": 0,
        "skills": {},
        "tools": [],
        "weapons": [],
        "armor": None,
    }
    lair = red["lairs"]["red-lair1"]
    lair["rooms"] = [
        {"type": "throne", "level": 2, "renovations": ["inspiring_banner"]},
        {"type": "barracks", "level": 1, "renovations": []},
        {"type": "warehouse", "level": 3, "renovations": ["expanded_hold", "expanded_hold"]},
        {
            "type": "workshop",
            "level": 1,
            "renovations": [],
            "embedded": [{"item": "hammers", "quality": "slight"}],
        },
        {"type": "reliquary", "level": 1, "renovations": ["sconces"]},
    ]
    lair["storage"] = {"lumber": 30, "stone": 15, "iron": 0, "foodstuffs": 5}
    lair["items"] = [{"item": "saws", "quality": "mild"}, {"item": "melee_weapons", "quality": "strong"}]
    lair["prisoners"] = [{"id": "blue-u3"}]
    red["known"]["settlements"] = {
        "W24": {"size": "camp", "attitude": "friendly"},
        "X1": {"size": "hamlet", "attitude": "loyal"},
        "Y2": {"size": "village", "attitude": "fanatical"},
        "Z3": {"size": "camp", "attitude": "indifferent"},
    }
    return {
        "turn": 8,
        "factions": {"red": red, "blue": usurper("blue")},
        "unique_events": {"spring_trial": {"places": ["blue", "red"]}},
    }


def test_every_category_counted_by_hand() -> None:
    state = built()
    # Might: units 2 × ½ × 10 = 10; levels 2; melee 20/4 + 3 steps = 8, light armour 4/4 = 1;
    # courage 1 + aggressor 2 + leadership 1 = 4; pernicious 1 × 2 = 2.  10 + 2 + 9 + 6 = 27.
    # Lair: four rooms beyond the Throne × 4 = 16; levels above 1: 1 + 2, × 2 = 6; mason 1 + artisan 2 = 3;
    # two prisoners ever; second place in a unique event 2 × 3 = 6.  16 + 6 + 3 + 2 + 6 = 33.
    # Economy: equipped tools 4/4 + 4/4 = 2; steps: spyglass 1, stored saws 1, embedded hammers 2 = 4;
    # scout 2 + woodsman 3 = 5; a title 5; 95 gold = 9.5; 45 resources = 2.25.  27.75, rounded down 27.
    # Mysterium: 2 spells × 4 = 8; artifacts 4 × 2 + 4 × 1 = 12; reliquary 1 + 1 sconce = 2;
    # two abilities × 2 = 4; a Unique Unit 2.  28.
    # Politics: friendly 1 + loyal 2 + fanatical 3 = 6; fanatical village 2 × 3 = 6; negotiator 2 + bard 1;
    # the Extra: scout 2, spy 1 × 2, a trainable ability 2, an untrainable 1, a unique 3 = 10.  25.
    assert scoring.categories(RULES, state, "red") == {
        "might": 27,
        "lair": 33,
        "economy": 27,
        "mysterium": 28,
        "politics": 25,
    }


def test_a_fresh_usurper_scores_its_gold_and_its_unit() -> None:
    state = {"turn": 8, "factions": {"red": usurper("red")}}
    # Half a unit's cost (5), rooms beyond the Throne (2 × 4 = 8), 100 gold (10).
    assert scoring.categories(RULES, state, "red") == {
        "might": 5,
        "lair": 8,
        "economy": 10,
        "mysterium": 0,
        "politics": 0,
    }


def test_rounding_is_once_per_category_not_per_item() -> None:
    state = {"turn": 8, "factions": {"red": usurper("red", gold=0)}}
    # Three units at ½ × 10 would round each to 5 anyway; three tools at 4/4 are 1 each; so use light armour:
    # four sets at 4/4 = 1 each is exact, so take gold 19 (1.9) and 19 resources (0.95): 2.85 → 2, while
    # rounding each would give 1 + 0 = 1.
    state["factions"]["red"]["gold"] = 19
    state["factions"]["red"]["lairs"]["red-lair1"]["storage"]["lumber"] = 19
    assert scoring.categories(RULES, state, "red")["economy"] == 2


def test_the_tally_writes_public_scores_history_and_leaders() -> None:
    state = built()
    ctx = context(RULES, 8)  # week 4 of month 2
    scoring.tally(ctx, state)
    red = state["scores"]["red"]
    assert red["total"] == 27 + 33 + 27 + 28 + 25
    assert red["history"] == [{"turn": 8, "total": 140}]
    assert set(red["leads"]) == {"might", "lair", "economy", "mysterium", "politics"}
    assert state["scores"]["blue"]["leads"] == []
    event = next(e for e in ctx.events if e.kind == "vp_tally")
    # Blue: a fresh usurper's 23 and first place in the unique event, 2 × 4.
    assert event.actors == ["red", "blue"] and event.data["totals"] == [140, 31]
    # A second tally two months on adds to the history.
    scoring.tally(context(RULES, 16), state)
    assert [h["turn"] for h in state["scores"]["red"]["history"]] == [8, 16]


def test_tied_leaders_all_lead() -> None:
    state = {"turn": 8, "factions": {"red": usurper("red"), "blue": usurper("blue")}}
    scoring.tally(context(RULES, 8), state)
    assert state["scores"]["red"]["leads"] == state["scores"]["blue"]["leads"] == ["economy", "lair", "might"]


def test_no_tally_outside_the_scoring_months() -> None:
    state = built()
    scoring.tally(context(RULES, 12), state)  # week 4 of month 3
    assert "scores" not in state


@pytest.mark.parametrize(
    ("average", "tier", "levels", "ambush_bands"),
    [
        (0, "normal", 0, []),
        (199, "normal", 0, []),
        (200, "tier_200", 1, ["complete_failure"]),
        (400, "tier_400", 1, ["complete_failure", "partial_failure"]),
        (650, "tier_600", 2, ["complete_failure", "partial_failure", "partial_success"]),
        (800, "tier_800", 3, ["complete_failure", "partial_failure", "partial_success"]),
    ],
)
def test_tiers_by_average(average: int, tier: str, levels: int, ambush_bands: list[str]) -> None:
    found = scoring.tier_for(RULES, average)
    assert found["id"] == tier
    state = {"difficulty": {"tier": found["id"]}}
    assert scoring.encounter_levels(RULES, state) == levels
    for band in ("complete_failure", "partial_failure", "partial_success", "success"):
        assert scoring.ambush_on(RULES, state, band) == (band in ambush_bands)


def test_the_tally_raises_the_tier_and_says_so() -> None:
    state = built()
    state["factions"]["blue"]["gold"] = 3000  # 300 points of Economy
    ctx = context(RULES, 8)
    scoring.tally(ctx, state)
    assert state["difficulty"]["tier"] == "tier_200"
    assert state["difficulty"]["average"] == pytest.approx((140 + 31 + 290) / 2, abs=0.1)
    assert [e.data["tier"] for e in ctx.events if e.kind == "difficulty_tier"] == ["Rising danger"]


def test_accrual_only_after_the_first_year() -> None:
    state = built()
    state["scores"] = {"red": {"total": 51}, "blue": {"total": 49}}
    ctx = context(RULES, 40)  # week 4 of month 10, year 1
    scoring.victory(ctx, state)
    assert "victory" not in state
    ctx = context(RULES, 48)  # week 4 of month 2, year 2
    scoring.victory(ctx, state)
    assert state["victory"] == {"winners": ["red"], "kind": "accrual", "turn": 48}
    assert [e.actors for e in ctx.events if e.kind == "victory"] == [["red"]]


def test_accrual_needs_the_share() -> None:
    state = built()
    state["scores"] = {"red": {"total": 50}, "blue": {"total": 50}}
    scoring.victory(context(RULES, 48), state)
    assert "victory" not in state


def test_domination_when_every_other_usurper_is_out() -> None:
    state = built()
    state["factions"]["blue"]["status"] = "out"
    ctx = context(RULES, 5)
    scoring.victory(ctx, state)
    assert state["victory"]["winners"] == ["red"] and state["victory"]["kind"] == "domination"
    # The game is over: no further tally or check changes anything.
    before = copy.deepcopy(state)
    scoring.tally(context(RULES, 8), state)
    scoring.victory(context(RULES, 9), state)
    assert state == before


def fortress(state: dict) -> None:
    rooms = [
        {"type": kind, "level": 5, "renovations": ["r"] * 4}
        for kind in ("throne", "barracks", "warehouse", "watchtower", "workshop")
    ]
    rooms.append({"type": "fortifications", "level": 1, "renovations": []})
    state["factions"]["red"]["lairs"]["red-lair1"]["rooms"] = rooms


def test_tenacity_challenge_countdown_and_victory() -> None:
    state = built()
    fortress(state)
    ctx = context(RULES, 10)
    scoring.victory(ctx, state)
    assert "challenges" not in state or not state["challenges"]  # no policy: no challenge
    state["factions"]["red"]["standing"] = {"policies": {"tenacity_challenge": "challenge"}}
    ctx = context(RULES, 10)
    scoring.victory(ctx, state)
    assert state["factions"]["red"]["lairs"]["red-lair1"]["obscurity"]["current"] == 0
    assert [e.kind for e in ctx.events] == ["tenacity_challenge"]
    scoring.victory(context(RULES, 13), state)
    assert "victory" not in state
    scoring.victory(context(RULES, 14), state)
    assert state["victory"] == {"winners": ["red"], "kind": "tenacity", "turn": 14}


def test_tenacity_needs_every_room_and_enough_renovations() -> None:
    state = built()
    fortress(state)
    rooms = state["factions"]["red"]["lairs"]["red-lair1"]["rooms"]
    assert scoring.tenacity_lair(RULES, state["factions"]["red"]) == "red-lair1"
    rooms[0]["renovations"] = ["r"]  # 17 renovations
    assert scoring.tenacity_lair(RULES, state["factions"]["red"]) is None
    rooms[0]["renovations"] = ["r"] * 4
    rooms.pop()  # no Fortifications
    assert scoring.tenacity_lair(RULES, state["factions"]["red"]) is None


def test_tenacity_closes_when_the_lair_falls() -> None:
    state = built()
    fortress(state)
    state["factions"]["red"]["standing"] = {"policies": {"tenacity_challenge": "challenge"}}
    scoring.victory(context(RULES, 10), state)
    del state["factions"]["red"]["lairs"]["red-lair1"]
    ctx = context(RULES, 14)
    scoring.victory(ctx, state)
    assert "victory" not in state and state["challenges"]["red"]["closed"]
    assert [e.kind for e in ctx.events] == ["tenacity_failed"]
