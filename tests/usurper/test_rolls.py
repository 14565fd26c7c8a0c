"""The d100 action roll (spec §2): its eight bands row by row, the explosion on 96-100 and its absence in the
first month, chaining, the first month's floor, every modifier of the ledger, what a band costs at once,
and the Morale and Loyalty checks with their own modifiers."""

from __future__ import annotations

import copy

import pytest

from resolver.core.checks import Check, Modifier
from resolver.core.dice import Dice, TurnSeed, roll_label
from resolver.rulesets.usurper import bands as band_table
from resolver.rulesets.usurper import rolls

from .rolls_support import RULES, context, leader, pairs, state, unit

LABEL = "t5/red/red-u1/scout/X25"


def _scout(st: dict, ctx=None, *, by: str = "red-u1", assist=(), grid: str = "X25", **kw):
    ctx = ctx or context()
    return rolls.action_roll(ctx, st, "red", action="scout", by=by, assist=assist, grid=grid, **kw)


# --- the band table, row by row -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "extra", "band"),
    [
        ([1], 0, "complete_failure"),
        ([25], 0, "complete_failure"),
        ([5], -30, "complete_failure"),  # a total below zero is still a Complete Failure
        ([26], 0, "partial_failure"),
        ([49], 0, "partial_failure"),
        ([50], 0, "partial_success"),
        ([74], 0, "partial_success"),
        ([75], 0, "success"),
        ([95], 5, "success"),
        ([95], 6, "significant"),
        ([96, 53], 0, "significant"),
        ([90], 59, "significant"),
        ([90], 60, "astounding"),
        ([98, 99, 2], 0, "astounding"),
        ([100, 99], 0, "astounding"),
        ([100, 100], 0, "epic"),
        ([97, 97, 55], 0, "epic"),
        ([96, 96, 58], 0, "legendary"),
        ([100, 100, 100, 100], 0, "legendary"),
    ],
)
def test_each_band_of_the_table(faces: list[int], extra: int, band: str) -> None:
    st = state(units=[unit("red-u1")])
    mods = [Modifier("test", extra)] if extra else []
    rolled = _scout(st, context(forced={LABEL: faces}), modifiers=mods)
    assert rolled.total == sum(faces) + extra
    assert rolled.band == band
    assert rolled.roll.result == band


def test_band_names_for_readers() -> None:
    names = [rolls.band_name(RULES, band) for band in band_table.bands(RULES)]
    assert names == [
        "Complete Failure", "Partial Failure", "Partial Success", "Success", "Significant Success",
        "Astounding Success", "Epic Success", "Legendary Success",
    ]  # fmt: skip


# --- the explosion --------------------------------------------------------------------------------------


def _natural_rolls(turn: int, rules=RULES) -> list:
    """Every grid of a 26 by 26 map scouted by one unit, the dice drawn, none forced."""
    ctx = context(rules, turn=turn)
    found = []
    for column in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        for row in range(1, 27):
            st = state(units=[unit("red-u1")])
            found.append(_scout(st, ctx, grid=f"{column}{row}").roll)
    return found


def test_a_natural_96_to_100_is_rolled_again_and_added() -> None:
    drawn = _natural_rolls(turn=5)
    exploded = [r for r in drawn if r.dice[0] >= 96]
    assert exploded, "676 rolls should hold some of 96 or more"
    for r in drawn:
        # every face of 96 or more is followed by another; a face below 96 ends the roll
        assert all(face >= 96 for face in r.dice[:-1]) and r.dice[-1] < 96
        assert r.total == sum(r.dice)
    assert all(len(r.dice) >= 2 for r in exploded)


def test_no_explosion_in_the_first_month() -> None:
    drawn = _natural_rolls(turn=3)
    assert any(r.dice[0] >= 96 for r in drawn)
    assert all(len(r.dice) == 1 for r in drawn)
    assert all("!" not in r.expr for r in drawn)


def test_explosions_chain_unless_the_rules_say_one_reroll() -> None:
    chained = rolls.d100_check(RULES, "action", month_one=False)
    rules = copy.deepcopy(RULES)
    rules["action_roll"]["chain"] = False
    once = rolls.d100_check(rules, "action", month_one=False)
    assert chained.explode == {"at": 96} and once.explode == {"at": 96, "times": 1}
    dice = Dice(TurnSeed(3, 9, {}))
    longest = {"chained": 0, "once": 0}
    for number in range(6000):
        for name, check in (("chained", chained), ("once", once)):
            roll = check.roll(dice, roll_label(name, number)).roll
            longest[name] = max(longest[name], len(roll.dice))
    assert longest["chained"] >= 3  # a second 96+ exploded again
    assert longest["once"] == 2


# --- the first month ------------------------------------------------------------------------------------


@pytest.mark.parametrize("face", [3, 25, 40])
def test_first_month_reads_a_failure_as_partial_success(face: int) -> None:
    st = state(units=[unit("red-u1")])
    rolled = _scout(st, context(turn=2, forced={"t2/red/red-u1/scout/X25": [face]}))
    assert rolled.band == "partial_success" and rolled.raised
    assert rolled.roll.result == "partial_success"
    assert "read as Partial Success in the first month" in rolled.roll.decided
    lair = st["factions"]["red"]["lairs"]["red-lair1"]
    assert lair["obscurity"]["current"] == 150  # no Complete Failure, so no Obscurity lost
    assert st["factions"]["red"]["known"]["pf_memory"] == []


def test_first_month_keeps_successes_as_rolled() -> None:
    st = state(units=[unit("red-u1")])
    rolled = _scout(st, context(turn=4, forced={"t4/red/red-u1/scout/X25": [80]}))
    assert rolled.band == "success" and not rolled.raised


def test_first_month_does_not_protect_morale_or_loyalty() -> None:
    st = state(units=[unit("red-u1")])
    ctx = context(turn=1, forced={"t1/fight/red-u1/morale": [10], "t1/upkeep/red-u1/loyalty": [30]})
    morale = rolls.morale_check(ctx, st, "red", "red-u1", roll_label("fight", "red-u1", "morale"))
    loyalty = rolls.loyalty_check(ctx, st, "red", "red-u1", roll_label("upkeep", "red-u1", "loyalty"))
    assert morale.row.result == "demoralized"
    assert loyalty.row.result == "faith_lost"


# --- what a band costs at once --------------------------------------------------------------------------


def test_complete_failure_costs_the_home_lair_one_obscurity() -> None:
    st = state(units=[unit("red-u1")])
    rolled = _scout(st, context(forced={LABEL: [12]}))
    assert rolled.band == "complete_failure"
    assert st["factions"]["red"]["lairs"]["red-lair1"]["obscurity"] == {"current": 149, "max": 150}
    assert rolled.obscurity == {"red-lair1": 1}


def test_legendary_costs_the_acting_usurper_one_obscurity() -> None:
    st = state(units=[unit("red-u1")])
    rolled = _scout(st, context(forced={LABEL: [100, 100, 60]}))
    assert rolled.band == "legendary"
    assert st["factions"]["red"]["lairs"]["red-lair1"]["obscurity"]["current"] == 149


def test_partial_failure_is_remembered_for_three_weeks_then_forgotten() -> None:
    st = state(units=[unit("red-u1")])
    _scout(st, context(forced={LABEL: [30]}))
    assert st["factions"]["red"]["known"]["pf_memory"] == [{"action": "scout", "grid": "X25", "until": 8}]
    for turn, bonus in ((6, True), (8, True), (9, False)):
        ledger = rolls.action_ledger(
            RULES, st, rolls.participants(st, "red", "red-u1"), action="scout", grid="X25", turn=turn
        )
        assert (("Second attempt", 10) in pairs(ledger)) is bonus
    other = rolls.action_ledger(
        RULES, st, rolls.participants(st, "red", "red-u1"), action="harvest", grid="X25", turn=6
    )
    assert ("Second attempt", 10) not in pairs(other)
    rolls.forget_partial_failures(st["factions"]["red"], 8)
    assert st["factions"]["red"]["known"]["pf_memory"] == []


def test_the_roll_is_labelled_by_faction_initiator_action_and_grid() -> None:
    st = state(units=[unit("red-u1"), unit("red-u2")], leaders=[leader("red-l1")])
    rolled = _scout(st, context(forced={LABEL: [60]}), assist=["red-l1", "red-u2"])
    assert rolled.roll.label == LABEL and rolled.roll.scope == ["red"] and rolled.roll.forced
    assert rolled.group.ids == ("red-l1", "red-u1", "red-u2")


# --- every modifier -------------------------------------------------------------------------------------


def _ledger(st: dict, action: str = "scout", by: str = "red-u1", assist=(), grid: str = "X25", **kw):
    group = rolls.participants(st, "red", by, assist)
    return pairs(rolls.action_ledger(RULES, st, group, action=action, grid=grid, turn=5, **kw))


def test_leader_presence_whole_damaged_and_healing() -> None:
    chiefs = [leader("red-l1", name="Grug"), leader("red-l2", name="Richard", hp=1)]
    st = state(units=[unit("red-u1")], leaders=chiefs)
    assert _ledger(st, assist=["red-l1", "red-l2"]) == [
        ("Leader Presence (Grug)", 25),
        ("Leader Presence (Richard)", 13),
    ]
    st["factions"]["red"]["leaders"]["red-l1"]["healing"] = 2
    assert _ledger(st, assist=["red-l1"]) == [("Leader Presence (Grug)", 0)]


def test_a_leader_training_in_the_lair_still_lends_its_presence() -> None:
    st = state(units=[unit("red-u1")], leaders=[leader("red-l1", name="Grug")])
    assert _ledger(st, action="craft", grid="Z26", trainers=["red-l1"]) == [("Leader Presence (Grug)", 25)]


def test_overwhelm_counts_units_beyond_the_first() -> None:
    st = state(units=[unit("red-u1"), unit("red-u2"), unit("red-u3")], leaders=[leader("red-l1")])
    assert ("Overwhelm", 8) in _ledger(st, assist=["red-l1", "red-u2", "red-u3"])
    assert not [p for p in _ledger(st, assist=["red-l1"]) if p[0] == "Overwhelm"]


def test_primary_tool_and_its_quality_per_unit() -> None:
    spy = {"item": "spyglass", "quality": "standard"}
    st = state(
        units=[
            unit("red-u1", name="Eyes", tools=[spy, dict(spy)]),  # a second copy adds nothing
            unit("red-u2", name="Ears", tools=[{"item": "spyglass", "quality": "mild"}]),
        ]
    )
    assert _ledger(st, assist=["red-u2"]) == [
        ("Overwhelm", 4),
        ("Spyglass (Eyes)", 4),
        ("Spyglass (Ears)", 4),
        ("Spyglass quality (Ears)", 3),
    ]


def test_harvest_secondaries_count_only_beside_the_primary() -> None:
    shovels = {"item": "shovels", "quality": "standard"}
    hammers = {"item": "hammers", "quality": "decent"}
    saws = {"item": "saws", "quality": "standard"}
    st = state(
        units=[
            unit("red-u1", name="Diggers", tools=[shovels, hammers]),
            unit("red-u2", name="Loggers", tools=[hammers, saws]),  # no shovels: nothing counts
        ]
    )
    ledger = _ledger(st, action="harvest", assist=["red-u2"], resource="iron")
    assert ledger == [
        ("Overwhelm", 4),
        ("Shovels (Diggers)", 4),
        ("Hammers (Diggers)", 3),
        ("Hammers quality (Diggers)", 4),  # half of Decent's 9, rounded down
    ]


def test_build_needs_no_primary_for_its_tool_to_count() -> None:
    st = state(units=[unit("red-u1", name="Joiners", tools=[{"item": "saws", "quality": "slight"}])])
    assert _ledger(st, action="build", grid="Z26") == [("Saws (Joiners)", 4), ("Saws quality (Joiners)", 6)]


def test_a_tools_quality_bonus_is_read_from_the_items_quality_ladder_alone() -> None:
    # One source: the action roll has no copy of the ladder; raising Slight's tool bonus in the items
    # chapter moves the roll.
    assert "tool_quality_bonus" not in RULES["action_roll"]
    rules = copy.deepcopy(RULES)
    next(row for row in rules["qualities"] if row["id"] == "slight")["tool_bonus"] = 11
    st = state(units=[unit("red-u1", name="Joiners", tools=[{"item": "saws", "quality": "slight"}])])
    group = rolls.participants(st, "red", "red-u1", ())
    ledger = pairs(rolls.action_ledger(rules, st, group, action="build", grid="Z26", turn=5))
    assert ledger == [("Saws (Joiners)", 4), ("Saws quality (Joiners)", 11)]
    with pytest.raises(ValueError, match="no quality 'shoddy'"):
        rolls.quality_bonus(RULES, "shoddy", "tool_bonus")


def test_skill_ranks_of_every_participant_add_up() -> None:
    st = state(
        units=[
            unit(
                "red-u1", name="Eyes", skills={"scout": {"rank": 2, "xp": 0}, "digger": {"rank": 4, "xp": 0}}
            ),
            unit("red-u2", name="Ears", skills={"scout": {"rank": 1, "xp": 0}}),
        ]
    )
    assert _ledger(st, assist=["red-u2"]) == [("Overwhelm", 4), ("Scout 2 (Eyes)", 6), ("Scout 1 (Ears)", 3)]
    # a harvesting skill counts only for the harvest of its own resource
    assert ("Digger 4 (Eyes)", 12) in _ledger(st, action="harvest", resource="gold")
    assert not [p for p in _ledger(st, action="harvest", resource="iron") if p[0].startswith("Digger")]


def test_leadership_gives_an_interrogation_one_a_rank_as_in_a_fight() -> None:
    # The spec's fill: Courage +3 and Leadership +1 a rank, the rates of their skill entries; one number
    # per skill, which the fight reads too.
    jailers = unit("red-u1", name="Jailers", skills={"courage": {"rank": 2, "xp": 0}})
    st = state(
        units=[jailers], leaders=[leader("red-l1", name="Grug", skills={"leadership": {"rank": 3, "xp": 0}})]
    )
    ledger = _ledger(st, action="interrogate", by="red-l1", assist=["red-u1"], grid="Z26")
    assert ("Leadership 3 (Grug)", 3) in ledger and ("Courage 2 (Jailers)", 6) in ledger


def test_racial_bonuses() -> None:
    st = state(units=[unit("red-u1", name="Sneaks", race="goblins"), unit("red-u2", name="Beards")])
    assert _ledger(st) == [("Goblins (Sneaks)", 10)]
    assert _ledger(st, action="harvest", by="red-u2", resource="gold") == [("Dwarves (Beards)", 10)]
    assert _ledger(st, action="harvest", by="red-u2", resource="stone") == []


def test_leader_bonus_local_parts() -> None:
    st = state(
        units=[unit("red-u1")],
        leaders=[
            leader("red-l1", name="Grug", bonus="scavenger"),
            leader("red-l2", name="Bob", bonus="herald", hp=1),
        ],
    )
    assert ("Scavenger (Grug)", 10) in _ledger(st, assist=["red-l1"])
    # Herald serves Diplomacy, even for the leader who leads it; damaged, it gives half
    assert ("Herald (Bob)", 5) in _ledger(st, action="diplomacy", by="red-l2", grid="W24")
    st["factions"]["red"]["leaders"]["red-l2"]["bonus"] = "pioneer"
    st["factions"]["red"]["leaders"]["red-l2"]["hp"] = 2
    assert ("Pioneer (Bob)", 10) in _ledger(st, action="harvest", assist=["red-l2"], resource="lumber")


def test_craftsman_and_scavenger_only_when_assisting_units() -> None:
    st = state(leaders=[leader("red-l1", name="Grug", bonus="scavenger")])
    assert _ledger(st, by="red-l1") == [("Leader Presence (Grug)", 25)]
    st = state(units=[unit("red-u1")], leaders=[leader("red-l1", name="Grug", bonus="craftsman")])
    assert ("Craftsman (Grug)", 10) in _ledger(st, action="build", grid="Z26", assist=["red-l1"])


def test_missing_men_unpaid_units_and_a_hot_bed() -> None:
    encounters = {
        "enc-1": {"grid": "X25", "units": [], "level": 0},
        "enc-2": {"grid": "X25"},
        "enc-3": {"grid": "B2"},
    }
    st = state(units=[unit("red-u1", name="Worn", pax=7, unpaid=True)], encounters=encounters)
    assert _ledger(st) == [("Missing men (Worn)", -9), ("Unpaid (Worn)", -10), ("Hot-bed", -8)]
    encounters["enc-4"] = {"grid": "Z26"}
    st = state(units=[unit("red-u1")], encounters=encounters)
    assert _ledger(st, action="craft", grid="Z26") == []  # no hot-bed inside one's own lair


def test_appendix_c4_the_harvest_check() -> None:
    shovels = [{"item": "shovels", "quality": "standard"}]
    st = state(
        units=[unit("red-u1", name="Anvils", tools=shovels), unit("red-u2", name="Hammers", tools=shovels)],
        leaders=[leader("red-l1", name="Chief")],
    )
    ledger = _ledger(st, action="harvest", assist=["red-l1", "red-u2"], resource="iron")
    assert ledger == [
        ("Leader Presence (Chief)", 25),
        ("Overwhelm", 4),
        ("Shovels (Anvils)", 4),
        ("Shovels (Hammers)", 4),
    ]
    assert sum(value for _, value in ledger) == 37


def test_the_ledger_is_logged_with_the_roll() -> None:
    st = state(units=[unit("red-u1", name="Sneaks", race="goblins")])
    rolled = _scout(st, context(forced={LABEL: [70]}), modifiers=[Modifier("Watchtower", 4)])
    assert rolled.roll.expr == "1d100!96+14"
    assert rolled.total == 84 and rolled.band == "success"
    assert pairs(rolled.roll.modifiers) == [("Goblins (Sneaks)", 10), ("Watchtower", 4)]


# --- Morale and Loyalty ---------------------------------------------------------------------------------


def _morale(st: dict, faces: list[int], uid: str = "red-u1", **kw):
    ctx = context(forced={f"t5/fight/{uid}/morale": faces})
    return rolls.morale_check(ctx, st, "red", uid, roll_label("fight", uid, "morale"), **kw)


@pytest.mark.parametrize(
    ("face", "result", "flees"),
    [(22, "demoralized", True), (23, "panicked", True), (46, "panicked", True), (47, "battered", False),
     (72, "shaken", False), (97, "shaken", False)],
)  # fmt: skip
def test_morale_table(face: int, result: str, flees: bool) -> None:
    # the Throne Room of the unit's lair gives +3 to every total
    checked = _morale(state(units=[unit("red-u1")]), [face])
    assert checked.total == face + 3
    assert checked.row.result == result and checked.row.get("flees") is flees


def test_morale_above_149_is_still_success() -> None:
    checked = _morale(state(units=[unit("red-u1")]), [100, 100, 1])
    assert checked.total == 204 and checked.row.result == "success"
    assert rolls.band_name(RULES, "success", "morale") == "Success!"


def test_morale_modifiers() -> None:
    # Four banners hung for Morale (the most a Throne Room takes) and one for Loyalty, as the rooms chapter
    # records them.
    banner = {"renovation": "inspiring_banner", "choice": "morale"}
    lair_banners = [banner] * 4 + [{"renovation": "inspiring_banner", "choice": "loyalty"}]
    st = state(
        units=[
            unit(
                "red-u1", level=3, skills={"courage": {"rank": 2, "xp": 0}},
                tools=[{"item": "guidon", "quality": "standard"}],
            )
        ],
        leaders=[leader("red-l1")],
    )  # fmt: skip
    st["factions"]["red"]["lairs"]["red-lair1"]["rooms"][0]["renovations"] = lair_banners
    checked = _morale(
        st,
        [40],
        pax_lost=2,
        drums=True,
        leaders=[leader("red-l1", spells=["napoleon"])],
        modifiers=[Modifier("Shaken", -10)],
    )
    assert pairs(checked.roll.modifiers) == [
        ("Level", 12),
        ("Throne Room", 3),
        ("Inspiring Banners", 12),
        ("Courage 2", 6),
        ("Guidon", 4),
        ("Drums", 2),
        ("Napoleon", 10),
        ("Men lost", -8),
        ("Shaken", -10),
    ]  # no Leader Presence, even with a leader at hand
    assert checked.total == 40 + 12 + 3 + 12 + 6 + 4 + 2 + 10 - 8 - 10


def test_orcs_halve_every_morale_penalty_but_keep_at_least_one() -> None:
    st = state(units=[unit("red-u1", race="orcs")])
    checked = _morale(st, [60], pax_lost=3, modifiers=[Modifier("Breath", -1), Modifier("Shaken", -10)])
    assert pairs(checked.roll.modifiers) == [
        ("Throne Room", 3),
        ("Men lost (halved: Bull-headed)", -6),
        ("Breath (halved: Bull-headed)", -1),
        ("Shaken (halved: Bull-headed)", -5),
    ]


@pytest.mark.parametrize(
    ("face", "result"),
    [(22, "embittered"), (46, "faith_lost"), (47, "grumpy"), (71, "grumpy"), (72, "tenacious"),
     (97, "tenacious"), (98, "steadfast")],
)  # fmt: skip
def test_loyalty_table_with_the_throne_room(face: int, result: str) -> None:
    # the lair's Throne Room gives +3 to every total
    st = state(units=[unit("red-u1")])
    ctx = context(forced={"t5/upkeep/red-u1/loyalty": [face]})
    checked = rolls.loyalty_check(ctx, st, "red", "red-u1", roll_label("upkeep", "red-u1", "loyalty"))
    assert checked.total == face + 3 and checked.row.result == result


def test_loyalty_modifiers() -> None:
    st = state(units=[unit("red-u1", tools=[{"item": "medallion", "quality": "standard"}])])
    st["factions"]["red"]["lairs"]["red-lair1"]["rooms"][0]["renovations"] = [
        {"renovation": "inspiring_banner", "choice": "loyalty"}
    ]
    ctx = context(forced={"t5/fled/red-u1/loyalty": [50]})
    checked = rolls.loyalty_check(
        ctx, st, "red", "red-u1", roll_label("fled", "red-u1", "loyalty"), demoralized=True
    )
    assert pairs(checked.roll.modifiers) == [
        ("Throne Room", 3), ("Inspiring Banners", 3), ("Medallion", 4), ("Demoralized", -5),
    ]  # fmt: skip
    embittered = Check.from_rules(RULES, "loyalty").row(10)
    assert embittered.get("obscurity") == -5 and embittered.get("leaves")
