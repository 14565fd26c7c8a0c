"""Harvest: the roll's harvest-only modifiers, the yield by band, Pioneer, leaders, amount skills and node
depletion (spec §4.5, Appendix C 4)."""

from __future__ import annotations

import pytest

from resolver.core.dice import Modifier
from resolver.rulesets.usurper.harvest import harvest, roll_modifiers
from resolver.rulesets.usurper.scouting import Party

from .scouting_fixtures import context, state, unit

YIELD = "t5/red/red-u1/harvest/X25/yield"
REROLL = "t5/red/red-u1/harvest/X25/reroll"


def with_node(
    resource: str = "iron",
    size: str = "normal",
    dice: str = "4d4+8",
    uses: int = 3,
    bonus: int = 0,
    pioneer: bool = False,
):
    """Red knows a node at X25; its second leader is a Pioneer only when asked (Appendix C 4 has none)."""
    the_state = state()
    the_state["factions"]["red"]["leaders"]["red-l2"]["bonus"] = "pioneer" if pioneer else "herald"
    the_state["factions"]["red"]["known"] = {
        "nodes": {
            "X25": {"resource": resource, "size": size, "dice": dice, "uses": uses, "harvest_bonus": bonus}
        }
    }
    return the_state


def test_appendix_c4_two_dwarf_units_and_the_chief_on_a_normal_iron_node():
    the_state = with_node()
    red = the_state["factions"]["red"]
    party = Party("red", ("red-u1", "red-u2"), ("red-l1",))
    # A normal node: the harvest adds nothing of its own to the roll (Leader 25, Overwhelm 4, Shovels 4 + 4
    # and the absent Pickaxe-User are every action's kinds of modifier, in the action roll's ledger).
    assert roll_modifiers(red, red["known"]["nodes"]["X25"], 5) == []
    ctx = context(forced={YIELD: [1, 3, 2, 4, 1], REROLL: [3, 2]})
    done = harvest(ctx, the_state, party, "X25", "significant")
    # 4d4 + 1d4 with the ones rolled again: 3 3 2 4 2 = 14; +4 (one per node die), +8, +2 (the chief on SIG)
    assert done["dice"] == [3, 3, 2, 4, 2]
    assert done["amount"] == 14 + 4 + 8 + 2 == 28
    assert red["lairs"]["red-lair1"]["storage"]["iron"] == 28
    assert red["known"]["nodes"]["X25"]["uses"] == 2
    assert [r.label for r in done["rolls"]] == [f"{YIELD}", f"{REROLL}"]


@pytest.mark.parametrize(
    ("band", "forced", "expected"),
    [
        ("partial_success", {YIELD: [1, 1, 2, 2]}, 1 + 1 + 2 + 2 + 8),  # the dice as they fall
        ("success", {YIELD: [1, 1, 2, 2], REROLL: [4, 3]}, 4 + 3 + 2 + 2 + 8),  # ones rolled again
        ("significant", {YIELD: [2, 2, 2, 2]}, 8 + 4 + 8),  # +1 per node die
        ("astounding", {YIELD: [2, 2, 2, 2]}, 8 + 4 + 1 + 8),  # and +1 per unit
        ("epic", {}, 16 + 4 + 1 + 8),  # every die at 4, no roll
        ("legendary", {}, 16 + 4 + 1 + 8),
        ("partial_failure", {}, 0),
        ("complete_failure", {}, 0),
    ],
)
def test_the_yield_by_band(band, forced, expected):
    the_state = with_node()
    done = harvest(context(forced=forced), the_state, Party("red", ("red-u1",)), "X25", band)
    assert done["amount"] == expected
    assert the_state["factions"]["red"]["known"]["nodes"]["X25"]["uses"] == 2  # every attempt spends a use


def test_pioneer_present_adds_ten_and_turns_d4s_into_d6s():
    the_state = with_node(pioneer=True)
    ctx = context(forced={YIELD: [6, 6, 5, 5, 6]})
    done = harvest(ctx, the_state, Party("red", ("red-u1", "red-u2"), ("red-l2",)), "X25", "partial_success")
    assert ctx.dice.log[0].expr == "5d6"
    assert done["amount"] == 28 + 8 + 1  # the dice, the node's +8, the leader's +1


def test_pioneer_global_spares_the_use_on_significant_or_better_only():
    the_state = with_node(uses=1, pioneer=True)
    harvest(context(forced={YIELD: [2, 2, 2, 2]}), the_state, Party("red", ("red-u1",)), "X25", "significant")
    assert the_state["factions"]["red"]["known"]["nodes"]["X25"]["uses"] == 1  # red-l2 is a Pioneer
    the_state["factions"]["red"]["leaders"]["red-l2"]["healing"] = 2
    done = harvest(
        context(turn=6, forced={"t6/red/red-u1/harvest/X25/yield": [2, 2, 2, 2]}),
        the_state,
        Party("red", ("red-u1",)),
        "X25",
        "significant",
    )
    assert done["exhausted"] is True and "X25" not in the_state["factions"]["red"]["known"]["nodes"]


def test_a_node_is_gone_when_its_last_use_is_spent():
    the_state = with_node(uses=1)
    done = harvest(context(), the_state, Party("red", ("red-u1",)), "X25", "complete_failure")
    assert done["amount"] == 0 and done["exhausted"] is True
    assert the_state["factions"]["red"]["known"]["nodes"] == {}


def test_gold_goes_to_the_coffers():
    the_state = with_node("gold", "poor", "2d4+4", 1)
    red = the_state["factions"]["red"]
    red["units"]["red-u1"] = unit("red-u1", digger=2)
    harvest(
        context(forced={YIELD: [3, 3, 2]}),
        the_state,
        Party("red", ("red-u1", "red-u3")),
        "X25",
        "partial_success",
    )
    assert red["gold"] == 100 + 8 + 4
    assert red["lairs"]["red-lair1"]["storage"] == {"lumber": 0, "stone": 0, "iron": 0, "foodstuffs": 0}


def test_a_grand_node_from_an_epic_scout_adds_twenty_and_tree_huggers_add_to_the_amount():
    the_state = with_node("lumber", "grand", "6d4+12", 4, bonus=20)
    red = the_state["factions"]["red"]
    red["units"]["red-u1"] = unit("red-u1", woodsman=5, tree_hugger=2)
    red["known"]["information"] = [{"action": "harvest", "bonus": 10, "until": 6, "grid": "E10"}]
    mods = roll_modifiers(red, red["known"]["nodes"]["X25"], 5)
    assert mods == [Modifier("grand_node", 20), Modifier("swamp_information", 10)]
    done = harvest(
        context(forced={YIELD: [2] * 6}), the_state, Party("red", ("red-u1",)), "X25", "partial_success"
    )
    assert done["amount"] == 12 + 12 + 4
    assert red["lairs"]["red-lair1"]["storage"]["lumber"] == 28


def test_leaders_add_one_each_below_significant():
    the_state = with_node()
    done = harvest(
        context(forced={YIELD: [2, 2, 2, 2], REROLL: []}),
        the_state,
        Party("red", ("red-u1",), ("red-l1", "red-l2")),
        "X25",
        "success",
    )
    assert done["amount"] == 8 + 8 + 2
