"""Scout: findings by band (settlements, every node and cache row), ambushes, swamp information, and lair
detection with the Spy tiers and the seed's direction diagrams (spec §4.9, §4.16.3, Appendix C 10)."""

from __future__ import annotations

import pytest

from resolver.rulesets.usurper import detection
from resolver.rulesets.usurper.scouting import Ground, Party, ambush_chance, information_bonus, scout

from .scouting_fixtures import context, lair, state, unit, usurper_rules

RED = Party("red", ("red-u1",))
FINDING = "t5/red/red-u1/scout/{grid}/finding"
NODE_OR_CACHE = [60]  # 46-80 of the d100 where a settlement is possible


def scouted(grid: str, terrain: str, band: str, *, total: int = 80, forced=None, the_state=None, party=RED):
    the_state = the_state or state()
    ctx = context(forced={FINDING.format(grid=grid): NODE_OR_CACHE, **(forced or {})})
    outcome = scout(ctx, the_state, party, Ground(grid, terrain), band, total)
    return outcome, the_state, ctx


NODE_ROWS = [
    ("forests", "lumber", "partial_success", "poor", "3d4+6", 2, 0),
    ("forests", "lumber", "success", "normal", "4d4+8", 3, 0),
    ("rivers", "stone", "significant", "exceptional", "5d4+10", 4, 0),
    ("hills", "iron", "astounding", "grand", "6d4+12", 4, 0),
    ("hills", "iron", "epic", "grand", "6d4+12", 4, 20),
    ("mountains", "gold", "partial_success", "poor", "2d4+4", 1, 0),
    ("mountains", "gold", "success", "normal", "3d4+6", 2, 0),
    ("mountains", "gold", "significant", "exceptional", "4d4+8", 3, 0),
    ("mountains", "gold", "astounding", "grand", "5d4+10", 4, 0),
    ("mountains", "gold", "epic", "grand", "5d4+10", 4, 20),
]


@pytest.mark.parametrize(("terrain", "resource", "band", "size", "dice", "uses", "bonus"), NODE_ROWS)
def test_every_node_row(terrain, resource, band, size, dice, uses, bonus):
    outcome, after, _ = scouted("X25", terrain, band)
    assert outcome.kind == "node"
    node = after["factions"]["red"]["known"]["nodes"]["X25"]
    assert node == {"resource": resource, "size": size, "dice": dice, "uses": uses, "harvest_bonus": bonus}


def test_jealousys_gaze_adds_a_use_to_normal_nodes_and_larger_only():
    the_state = state()
    the_state["factions"]["red"]["lairs"]["red-lair1"] = lair(
        "red-lair1", "Z26", renovations=("jealousys_gaze",)
    )
    scouted("X25", "forests", "success", the_state=the_state)
    scouted("Y25", "forests", "partial_success", the_state=the_state)
    nodes = the_state["factions"]["red"]["known"]["nodes"]
    assert nodes["X25"]["uses"] == 4 and nodes["Y25"]["uses"] == 2


def test_a_better_node_already_known_is_kept():
    _, the_state, _ = scouted("X25", "forests", "astounding")
    outcome, _, _ = scouted("X25", "forests", "partial_success", the_state=the_state)
    assert outcome.found["kept"] is True
    assert the_state["factions"]["red"]["known"]["nodes"]["X25"]["size"] == "grand"


CACHE_ROWS = [
    ("partial_success", "poor", 4, 2, 1),
    ("success", "small", 8, 4, 2),
    ("significant", "medium", 12, 6, 3),
    ("astounding", "large", 16, 8, 4),
    ("epic", "large", 16, 8, 4),
]


@pytest.mark.parametrize(("band", "size", "value", "gold", "food"), CACHE_ROWS)
def test_every_cache_row_is_taken_at_once(band, size, value, gold, food):
    outcome, after, _ = scouted("W20", "plains", band)
    assert outcome.kind == "cache"
    assert (outcome.found["size"], outcome.found["value"]) == (size, value)
    red = after["factions"]["red"]
    assert red["gold"] == 100 + gold
    assert red["lairs"]["red-lair1"]["storage"]["foodstuffs"] == food
    assert "W20" in red["known"]["scouted"]


def test_forager_and_plunderers_eye_add_food():
    the_state = state()
    red = the_state["factions"]["red"]
    red["units"]["red-u1"] = unit("red-u1", forager=2)
    red["lairs"]["red-lair1"] = lair("red-lair1", "Z26", renovations=("plunderers_eye",))
    outcome, _, _ = scouted("W20", "plains", "significant", the_state=the_state)
    # a Medium cache: 3 food, +2 for Forager[2], +3 for its size rating
    assert outcome.found["foodstuffs"] == 3 + 2 + 3


SETTLEMENT_ROWS = [
    ("partial_success", "camp", 1),
    ("success", "camp", 1),
    ("significant", "hamlet", 1),
    ("astounding", "camp", 2),
]


@pytest.mark.parametrize(("band", "size", "peoples"), SETTLEMENT_ROWS)
def test_settlements_by_band(band, size, peoples):
    outcome, after, _ = scouted("W24", "hills", band, forced={FINDING.format(grid="W24"): [10]})
    assert outcome.kind == "settlement"
    found = after["factions"]["red"]["known"]["settlements"]["W24"]
    assert found["size"] == size and len(found["races"]) == peoples
    assert found["races"][0] in ("orcs", "gnomes")
    assert (found["attitude"], found["trade_status"], found["traded"]) == ("indifferent", "reviled", 0)


def test_an_epic_settlement_is_a_camp_of_an_advanced_people_of_the_terrain():
    outcome, _, _ = scouted("W24", "rivers", "epic", forced={FINDING.format(grid="W24"): [1]})
    assert (outcome.found["size"], outcome.found["races"]) == ("camp", ["naga"])


def test_a_second_usurper_finds_the_same_place_at_the_first_finders_size():
    _, the_state, _ = scouted("W24", "hills", "significant", forced={FINDING.format(grid="W24"): [10]})
    blue = Party("blue", ("blue-u1",))
    later = context(turn=6, forced={"t6/blue/blue-u1/scout/W24/finding": [10]})
    scout(later, the_state, blue, Ground("W24", "hills"), "partial_success", 60)
    red_view = the_state["factions"]["red"]["known"]["settlements"]["W24"]
    blue_view = the_state["factions"]["blue"]["known"]["settlements"]["W24"]
    assert blue_view["size"] == "hamlet" and blue_view["races"] == red_view["races"]


def test_two_finders_in_one_week_share_the_larger_place_whatever_the_order():
    for first, second in (("red", "blue"), ("blue", "red")):
        the_state = state()
        ctx = context(
            forced={"t5/red/red-u1/scout/W24/finding": [10], "t5/blue/blue-u1/scout/W24/finding": [10]}
        )
        bands = {"red": "partial_success", "blue": "significant"}
        for who in (first, second):
            party = Party(who, (f"{who}-u1",))
            scout(ctx, the_state, party, Ground("W24", "hills"), bands[who], 80)
        sizes = {f: the_state["factions"][f]["known"]["settlements"]["W24"]["size"] for f in ("red", "blue")}
        assert sizes == {"red": "hamlet", "blue": "hamlet"}


def test_no_settlement_where_a_city_stands_or_one_is_known():
    rules = usurper_rules()
    assert list(rules["scouting"]["findings"]["otherwise"]) == ["node_or_cache", "encounter"]
    ctx = context(forced={"t5/red/red-u1/scout/K12/finding": [10]})
    outcome = scout(ctx, state(), RED, Ground("K12", "forests", holds_place=True), "success", 80)
    assert outcome.kind == "node"  # 10 of 100 reads node or cache when no settlement is possible


def test_an_encounter_is_two_or_three_native_units_kept_in_the_list():
    forced = {
        FINDING.format(grid="V20"): [90],
        "t5/red/red-u1/scout/V20/encounter/units": [2],
        "t5/red/red-u1/scout/V20/encounter/race1": [1],
        "t5/red/red-u1/scout/V20/encounter/race2": [2],
        "t5/red/red-u1/scout/V20/encounter/race3": [2],
    }
    outcome, after, _ = scouted("V20", "hills", "success", forced=forced)
    assert outcome.kind == "encounter"
    record = after["factions"]["red"]["known"]["encounters"]["enc-v20-5"]
    assert [u["race"] for u in record["units"]] == ["orcs", "gnomes", "gnomes"]
    assert record["level"] == 0 and all(u["pax"] == 10 and u["level"] == 0 for u in record["units"])


def test_swamp_information_gives_a_bonus_for_each_room_for_some_weeks():
    outcome, after, _ = scouted("E10", "swamps", "success")
    assert outcome.kind == "information"
    red = after["factions"]["red"]
    assert information_bonus(red, "scout", 5) == 10  # the lair has a Watchtower
    assert information_bonus(red, "harvest", 7) == 10  # and a Warehouse, fresh for three weeks
    assert information_bonus(red, "harvest", 8) == 0
    assert information_bonus(red, "craft", 5) == 0  # no Workshop


def test_a_complete_failure_is_ambushed_thirty_times_in_a_hundred_below_200_vp():
    forced = {"t5/red/red-u1/scout/V20/ambush": [30], "t5/red/red-u1/scout/V20/ambushers/units": [1]}
    outcome, _, _ = scouted("V20", "plains", "complete_failure", total=20, forced=forced)
    assert outcome.kind == "nothing" and outcome.ambush is not None
    assert [u["race"] for u in outcome.ambush["enemies"]] == ["humans", "humans"]
    spared, _, _ = scouted(
        "V20", "plains", "complete_failure", total=20, forced={"t5/red/red-u1/scout/V20/ambush": [31]}
    )
    assert spared.ambush is None
    partial, _, _ = scouted("V20", "plains", "partial_failure", total=40)
    assert partial.ambush is None and partial.rolls == []


def test_ambush_chances_follow_the_difficulty_tiers_and_the_scavenger():
    rules = usurper_rules()
    the_state = state()
    assert ambush_chance(rules, the_state, "red", "complete_failure") == 30
    # The tier is the one the last count set (the scoring chapter's), not a fresh average.
    the_state["scores"] = {"red": {"total": 450}, "blue": {"total": 400}}
    assert ambush_chance(rules, the_state, "red", "partial_failure") == 0
    the_state["difficulty"] = {"tier": "tier_400", "average": 425, "turn": 8}
    assert ambush_chance(rules, the_state, "red", "partial_failure") == 100
    assert ambush_chance(rules, the_state, "red", "partial_success") == 0
    the_state["factions"]["red"]["leaders"]["red-l1"]["bonus"] = "scavenger"
    assert ambush_chance(rules, the_state, "red", "partial_failure") == 90
    the_state["difficulty"] = {"tier": "tier_600", "average": 600, "turn": 16}
    assert ambush_chance(rules, the_state, "blue", "partial_success") == 100


def test_encounters_take_their_levels_and_gear_from_the_tier_in_force():
    from resolver.rulesets.usurper.scouting import Outcome, encounter_units

    the_state = state()
    ground = Ground("C4", "plains")
    units, level = encounter_units(context(), the_state, RED, ground, Outcome("encounter"), "encounter")
    assert level == 0 and all(u["level"] == 0 and "weapons" not in u for u in units)
    the_state["difficulty"] = {"tier": "tier_800", "average": 810, "turn": 24}
    units, level = encounter_units(context(), the_state, RED, ground, Outcome("encounter"), "encounter")
    assert level == 3 and all(
        u["weapons"] == [{"item": "melee_weapons", "quality": "standard"}] for u in units
    )
    the_state["difficulty"] = {"tier": "tier_600", "average": 610, "turn": 24}
    forced = {f"t5/red/red-u1/scout/C4/encounter/gear{n}": [50 if n == 1 else 51] for n in (1, 2, 3)}
    outcome = Outcome("encounter")
    units, level = encounter_units(context(forced=forced), the_state, RED, ground, outcome, "encounter")
    assert level == 2 and "weapons" in units[0] and "weapons" not in units[1]
    assert any("armed (50% chance)" in roll.decided for roll in outcome.rolls)


def test_a_scavengers_usurper_meets_encounters_one_tier_lower():
    from resolver.rulesets.usurper.scouting import Outcome, encounter_tier, encounter_units

    rules = usurper_rules()
    the_state = state()
    ground = Ground("C4", "plains")
    the_state["difficulty"] = {"tier": "tier_800", "average": 810, "turn": 24}
    scavenger = the_state["factions"]["red"]["leaders"]["red-l1"]
    scavenger["bonus"] = "scavenger"
    assert rules["leader_bonuses"]["scavenger"]["global"]["encounter_tiers_down"] == 1
    assert encounter_tier(rules, the_state, "red")["id"] == "tier_600"
    assert encounter_tier(rules, the_state, "blue")["id"] == "tier_800"  # blue has no Scavenger
    # tier 600: two levels up and half of them armed; every unit of tier 800 would be armed
    forced = {f"t5/red/red-u1/scout/C4/encounter/gear{n}": [50 if n == 1 else 51] for n in (1, 2, 3)}
    outcome = Outcome("encounter")
    units, level = encounter_units(context(forced=forced), the_state, RED, ground, outcome, "encounter")
    assert level == 2 and all(u["level"] == 2 for u in units)
    assert "weapons" in units[0] and "weapons" not in units[1]
    scavenger["healing"] = 2  # a healing leader gives no global bonus
    assert encounter_tier(rules, the_state, "red")["id"] == "tier_800"
    scavenger["healing"] = 0
    the_state["difficulty"] = {"tier": "normal", "average": 10, "turn": 8}
    assert encounter_tier(rules, the_state, "red")["id"] == "normal"  # never below the first tier


def test_appendix_c10_a_total_of_160_finds_a_lair_at_155_but_not_at_165():
    the_state = state()
    ctx = context(forced={"t5/red/red-u1/scout/C4/finding": [60]})
    outcome = scout(ctx, the_state, RED, Ground("C4", "plains"), "astounding", 160)
    assert outcome.sensed == [{"grid": "C4", "tier": 0, "range": 2}]
    assert the_state["factions"]["red"]["known"]["sightings"] == [
        {"turn": 5, "grid": "C4", "tier": 0, "range": 2}
    ]
    the_state = state()
    the_state["factions"]["blue"]["lairs"]["blue-lair1"]["obscurity"]["current"] = 165
    outcome = scout(
        context(forced={"t5/red/red-u1/scout/C4/finding": [60]}),
        the_state,
        RED,
        Ground("C4", "plains"),
        "astounding",
        160,
    )
    assert outcome.sensed == []


def sensed(spy: int, scouted_grid: str = "C4", lair_grid: str = "B2", **party):
    rules = usurper_rules()
    the_state = state()
    the_state["factions"]["blue"]["lairs"]["blue-lair1"]["grid"] = lair_grid
    return detection.sense_lairs(
        rules,
        the_state["factions"],
        "red",
        scouted_grid,
        200,
        spy,
        with_leader=party.get("with_leader", False),
        with_unit=True,
    )


def test_spy_tiers_add_range_and_detail():
    assert sensed(0) == [{"grid": "C4", "tier": 0, "range": 2}]
    assert sensed(1) == [{"grid": "C4", "tier": 1, "range": 2, "direction": "north"}]
    assert sensed(3, lair_grid="F4") == []  # three grids away: out of a tier 1 scout's range
    assert sensed(4, lair_grid="F4") == [{"grid": "C4", "tier": 2, "range": 3, "direction": "east"}]
    assert sensed(4, lair_grid="F2") == [{"grid": "C4", "tier": 2, "range": 3, "direction": "north"}]
    assert sensed(7) == [{"grid": "C4", "tier": 3, "range": 3, "direction": "due_north"}]
    assert sensed(10) == [{"grid": "C4", "tier": 4, "range": 3, "direction": "due_north", "close": False}]
    assert sensed(10, lair_grid="B3")[0]["close"] is True


def test_out_of_mind_needs_a_leader_and_a_unit_together():
    rules = usurper_rules()
    the_state = state()
    the_state["factions"]["blue"]["lairs"]["blue-lair1"] = lair(
        "blue-lair1", "B2", obscurity=155, renovations=("out_of_mind",)
    )
    args = (rules, the_state["factions"], "red", "C4", 200, 0)
    assert detection.sense_lairs(*args, with_leader=False, with_unit=True) == []
    assert len(detection.sense_lairs(*args, with_leader=True, with_unit=True)) == 1


# The seed's two diagrams, the scout at C4: X marks where a lair told "north" or "due north" may lie.
NORTH = ["XXXXXX", "XXXXXX", "XXXXXX", "......", "......"]
DUE_NORTH = ["XXXXXX", "XXXXX.", ".XXX..", "......", "......"]


@pytest.mark.parametrize(
    ("word", "picture", "read"),
    [
        ("north", NORTH, detection.rough_direction),
        ("due_north", DUE_NORTH, detection.fine_direction),
    ],
)
def test_the_seeds_direction_diagrams(word, picture, read):
    drawn = []
    for row in range(1, 6):
        line = ""
        for column in "ABCDEF":
            said = read("C4", f"{column}{row}")
            fits = said == word or (word == "due_north" and said in ("northeast", "northwest"))
            line += "X" if fits else "."
        drawn.append(line)
    assert drawn == picture
    assert read("C4", "B2") == word


def test_fine_directions_name_the_diagonals_and_the_other_cones():
    assert detection.fine_direction("C4", "E6") == "southeast"
    assert detection.fine_direction("C4", "A2") == "northwest"
    assert detection.fine_direction("C4", "F5") == "due_east"
    assert detection.fine_direction("C4", "C4") == "here"
    assert detection.rough_direction("C4", "A5") == "south"
    assert detection.rough_direction("C4", "A4") == "west"
    assert detection.distance("Z26", "X25") == 2


def test_the_scouted_map_grows_once_per_grid_in_grid_order():
    _, the_state, _ = scouted(
        "X25", "forests", "complete_failure", total=20, forced={"t5/red/red-u1/scout/X25/ambush": [99]}
    )
    scouted("B3", "forests", "partial_failure", total=40, the_state=the_state)
    scouted("X25", "forests", "partial_failure", total=40, the_state=the_state)
    assert the_state["factions"]["red"]["known"]["scouted"] == ["B3", "X25"]


def test_rules_data_house_rules_name_real_paths():
    rules = usurper_rules()
    for entry in rules["house_rules"]:
        node = rules
        for part in entry["rule"].split("."):
            node = node[part] if isinstance(node, dict) and part in node else node[int(part)]


def test_scouts_on_a_lairs_very_grid_find_it_whatever_their_spy_rank():
    from resolver.rulesets.usurper import assaults

    the_state = state()
    the_state["factions"]["blue"]["lairs"]["blue-lair1"]["obscurity"]["current"] = 155
    blue_grid = the_state["factions"]["blue"]["lairs"]["blue-lair1"]["grid"]
    ctx = context(forced={f"t5/red/red-u1/scout/{blue_grid}/finding": [60]})
    outcome = scout(ctx, the_state, RED, Ground(blue_grid, "plains"), "astounding", 160)
    assert outcome.sensed == [{"grid": blue_grid, "tier": 0, "range": 2, "here": True}]
    assaults.learn_lairs_from_sightings(ctx, the_state)
    assert the_state["factions"]["red"]["known"]["lairs"] == {blue_grid: {"seen": 5}}
    # one grid off, the same total only senses it
    near = state()
    near["factions"]["blue"]["lairs"]["blue-lair1"]["obscurity"]["current"] = 155
    outcome = scout(context(), near, RED, Ground("C4", "plains"), "astounding", 160)
    assaults.learn_lairs_from_sightings(context(), near)
    assert "lairs" not in near["factions"]["red"]["known"] or not near["factions"]["red"]["known"]["lairs"]
