"""Diplomacy, recruiting and trade (spec 4.10, 4.16.5, 6.3-6.5, 7.7-7.8; Appendix C 7 and 8)."""

from __future__ import annotations

from typing import Any

import pytest

from resolver.core.checks import Check
from resolver.rulesets.usurper import diplomacy, trading

from .trade_rules import rules

RULES = rules()

# The seed's Diplomacy table, written out here as the spec prints it, so the data is checked against it.
TABLE = [
    ("hostile", 0, "astounding", "unfriendly"),
    ("hostile", 15, "significant", "unfriendly"),
    ("hostile", 0, "epic", "indifferent"),
    ("hostile", 15, "astounding", "indifferent"),
    ("unfriendly", 0, "significant", "indifferent"),
    ("unfriendly", 10, "success", "indifferent"),
    ("unfriendly", 0, "astounding", "friendly"),
    ("unfriendly", 10, "significant", "friendly"),
    ("unfriendly", 0, "epic", "loyal"),
    ("unfriendly", 10, "astounding", "loyal"),
    ("indifferent", 0, "significant", "friendly"),
    ("indifferent", 10, "success", "friendly"),
    ("indifferent", 0, "astounding", "loyal"),
    ("indifferent", 10, "significant", "loyal"),
    ("friendly", 0, "significant", "loyal"),
    ("friendly", 10, "success", "loyal"),
    ("loyal", 0, "significant", "fanatical"),
]
BANDS = [str(row["result"]) for row in RULES["checks"]["action"]["table"]]
ATTITUDES = list(RULES["attitudes"])


def band_of(total: int) -> str:
    return Check.from_rules(RULES, "action").row(total).result


@pytest.mark.parametrize(("start", "bribe", "needs", "becomes"), TABLE)
def test_each_row_of_the_diplomacy_table(start: str, bribe: int, needs: str, becomes: str) -> None:
    reached = trading.new_attitude(RULES, start, bribe, needs)
    assert ATTITUDES.index(reached) >= ATTITUDES.index(becomes)
    # One band short of the row, the row is not reached.
    below = trading.new_attitude(RULES, start, bribe, BANDS[BANDS.index(needs) - 1])
    assert ATTITUDES.index(below) < ATTITUDES.index(becomes)
    assert (start, bribe, needs, becomes) in {
        (r["start"], r["bribe"], r["needs"], r["becomes"]) for r in RULES["diplomacy"]["table"]
    }


def test_the_data_holds_exactly_the_seeds_rows() -> None:
    assert len(RULES["diplomacy"]["table"]) == len(TABLE)


def test_a_bribe_smaller_than_the_rows_buys_nothing_and_failure_never_lowers() -> None:
    assert trading.new_attitude(RULES, "hostile", 10, "significant") == "hostile"
    assert trading.new_attitude(RULES, "hostile", 15, "significant") == "unfriendly"
    assert trading.new_attitude(RULES, "friendly", 0, "complete_failure") == "friendly"


def test_appendix_c8_a_bribe_turns_a_significant_into_loyal() -> None:
    assert band_of(112) == "significant"
    assert trading.new_attitude(RULES, "indifferent", 10, band_of(112)) == "loyal"
    assert trading.new_attitude(RULES, "indifferent", 0, band_of(112)) == "friendly"


def test_appendix_c7_trade_status_from_gold_spent_at_a_reviled_camp() -> None:
    assert trading.trade_cap(RULES, "camp", city=False) == 10
    status = trading.status_after(RULES, "reviled", 6, "indifferent")
    assert status == "poor"
    assert trading.status_after(RULES, status, 10, "indifferent") == "subpar"


@pytest.mark.parametrize(
    ("traded", "attitude", "status"),
    [
        (4, "indifferent", "reviled"),
        (5, "indifferent", "poor"),
        (20, "indifferent", "standard"),
        (25, "indifferent", "preferred"),
        (35, "indifferent", "favored"),
        (40, "indifferent", "favored"),  # Best needs Loyal
        (40, "loyal", "best"),
        (35, "fanatical", "best"),  # Fanatical: one step better
    ],
)
def test_status_thresholds(traded: int, attitude: str, status: str) -> None:
    assert trading.status_after(RULES, "reviled", traded, attitude) == status


def test_caps_by_size_and_none_for_cities() -> None:
    caps = {
        size: trading.trade_cap(RULES, size, city=False) for size in ("camp", "hamlet", "village", "colony")
    }
    assert caps == {"camp": 10, "hamlet": 25, "village": 50, "colony": 100}
    assert trading.trade_cap(RULES, "metropolis", city=True) is None


def test_growth_counts_every_usurpers_gold() -> None:
    assert trading.grown_size(RULES, "camp", 9) == "camp"
    assert trading.grown_size(RULES, "camp", 10) == "hamlet"
    assert trading.grown_size(RULES, "camp", 35) == "village"
    assert trading.grown_size(RULES, "camp", 85) == "colony"
    assert trading.grown_size(RULES, "village", 10) == "village"  # never smaller than found
    known = [{"settlements": {"W24": {"traded": 6}}}, {"settlements": {"W24": {"traded": 5}}}, {}]
    assert trading.total_traded(known, "W24") == 11


def visit(status: str, cap: int | None = None, gold: int = 100, stock=None, buy=None, sell=None):
    return trading.trade_visit(
        RULES, status=status, cap=cap, gold=gold, stock=stock or {}, buy=buy or {}, sell=sell or {}
    )


def test_iron_at_standard_costs_2_gold_for_3_the_trade_tables_price() -> None:
    deal = visit("standard", buy={"iron": 3}).deals[0]
    assert (deal.quantity, deal.gold) == (3, 2)


def test_buying_takes_whole_lots_that_bring_at_least_the_quantity_asked() -> None:
    deal = visit("standard", buy={"stone": 4}).deals[0]
    assert (deal.quantity, deal.gold, deal.cut) == (6, 4, "")
    deal = visit("reviled", buy={"foodstuffs": 2}).deals[0]
    assert (deal.quantity, deal.gold) == (2, 10)
    deal = visit("best", buy={"foodstuffs": 3}).deals[0]
    assert (deal.quantity, deal.gold) == (3, 2)


def test_a_purchase_the_gold_cannot_pay_is_cut_to_what_it_allows() -> None:
    deal = visit("standard", gold=5, buy={"foodstuffs": 4}).deals[0]
    assert (deal.quantity, deal.gold, deal.cut) == (2, 4, "gold")


def test_selling_food_reads_the_seeds_pairs_not_its_ratios() -> None:
    deal = visit("preferred", stock={"foodstuffs": 4}, sell={"foodstuffs": 4}).deals[0]
    assert (deal.quantity, deal.gold) == (4, 6)
    deal = visit("best", stock={"foodstuffs": 1}, sell={"foodstuffs": 1}).deals[0]
    assert (deal.quantity, deal.gold) == (1, 3)


def test_selling_only_whole_lots_of_what_the_lair_holds() -> None:
    deal = visit("reviled", stock={"lumber": 12}, sell={"lumber": 20}).deals[0]
    assert (deal.quantity, deal.gold, deal.cut) == (10, 2, "stock")


def test_the_cap_cuts_a_visit_but_one_dear_item_may_pass_alone() -> None:
    deal = visit("reviled", cap=10, buy={"foodstuffs": 3}).deals[0]
    assert (deal.quantity, deal.gold, deal.cut) == (2, 10, "cap")
    horses = visit("reviled", cap=10, buy={"horses": 1}).deals[0]
    assert (horses.quantity, horses.gold, horses.cut) == (1, 20, "")
    both = visit("reviled", cap=10, buy={"horses": 1, "foodstuffs": 1}).deals
    assert [(d.quantity, d.cut) for d in both] == [(1, ""), (0, "cap")]


def test_items_buy_at_market_price_and_sell_for_half() -> None:
    bought = visit("reviled", buy={"melee_weapons": 1}).deals[0]
    sold = visit("reviled", stock={"melee_weapons": 1}, sell={"melee_weapons": 1}).deals[0]
    assert (bought.gold, sold.gold) == (20, 10)
    assert visit("standard", buy={"gold": 1}).deals[0].cut == "unknown"


# --- the visit, on a state of the contract ---------------------------------------------------------


def state(
    gold: int = 100, settlement: dict[str, Any] | None = None, bonus: str = "craftsman"
) -> dict[str, Any]:
    lair = {
        "id": "red-lair1",
        "grid": "Z26",
        "obscurity": {"current": 150, "max": 150},
        "rooms": [
            {"type": "throne", "level": 1, "renovations": []},
            {"type": "barracks", "level": 1, "renovations": []},
            {"type": "barracks", "level": 1, "renovations": []},
            {"type": "warehouse", "level": 1, "renovations": []},
        ],
        "storage": {"lumber": 0, "stone": 0, "iron": 0, "foodstuffs": 0},
        "items": [],
        "gems": [],
        "prisoners": [],
    }
    leader = {"id": "red-l1", "name": "Bob", "role": "chief", "race": "humans", "bonus": bonus, "hp": 2}
    leader.update(healing=0, skills={}, spells=[], carried=None, donkey=False, lair="red-lair1")
    return {
        "turn": 6,
        "cities": {"K12": {"name": "Varos", "size": "small_town", "races": ["humans", "dwarves"]}},
        "factions": {
            "red": {
                "name": "The Red Hand",
                "gold": gold,
                "leaders": {"red-l1": leader},
                "units": {
                    "red-u1": {"id": "red-u1", "name": "Iron Fists", "race": "dwarves", "lair": "red-lair1"}
                },
                "lairs": {"red-lair1": lair},
                "known": {"settlements": {"W24": settlement or camp()}},
                "counters": {"u": 1},
            },
            "blue": {"name": "Blue", "gold": 0, "known": {"settlements": {"W24": camp(traded=4)}}},
        },
    }


def camp(**more: Any) -> dict[str, Any]:
    return {
        "size": "camp",
        "races": ["goblins"],
        "attitude": "indifferent",
        "trade_status": "reviled",
        **more,
    }


def order(**fields: Any) -> dict[str, Any]:
    return {"action": "diplomacy", "by": "red-l1", "target": "W24", "end": "Z26", **fields}


def test_modifiers_of_size_attitude_totem_customs_and_quests() -> None:
    game = state(settlement=camp(attitude="loyal", races=["goblins", "humans"]))
    faction = game["factions"]["red"]
    faction["exploration_quests"] = 2
    leader = faction["leaders"]["red-l1"]
    leader["carried"] = {"item": "racial_totem", "race": "goblins"}
    place = diplomacy.place_at(RULES, game, "red", "W24")
    assert place is not None
    ledger = {m.source: m.value for m in diplomacy.diplomacy_modifiers(RULES, faction, [leader], place)}
    assert ledger == {
        "Camp size": 1,
        "Loyal attitude": 3,
        "Racial Totem": 4,
        "Shared Customs": 5,
        "Exploration quests": 4,
    }
    city = diplomacy.place_at(RULES, game, "red", "K12")
    assert city is not None and (city.attitude, city.status) == ("indifferent", "standard")
    ledger = {m.source: m.value for m in diplomacy.diplomacy_modifiers(RULES, faction, [leader], city)}
    assert ledger == {"Small Town size": 6, "Shared Customs": 5, "Exploration quests": 4}


def test_a_visit_pays_the_bribe_moves_the_attitude_and_trades_into_the_lair() -> None:
    game = state()
    data = diplomacy.carry_out(RULES, game, "red", order(bribe=10, buy={"foodstuffs": 1}), "significant")
    red = game["factions"]["red"]
    assert (data["attitude_before"], data["attitude"], data["bribe"]) == ("indifferent", "loyal", 10)
    assert red["gold"] == 100 - 10 - 5
    assert red["lairs"]["red-lair1"]["storage"]["foodstuffs"] == 1
    record = red["known"]["settlements"]["W24"]
    assert (record["attitude"], record["traded"], record["trade_status"]) == ("loyal", 5, "poor")
    assert data["status"] == "reviled" and data["next_status"] == "poor"


def test_a_bribe_the_gold_cannot_pay_is_not_paid_and_buys_nothing() -> None:
    game = state(gold=5)
    data = diplomacy.carry_out(RULES, game, "red", order(bribe=10), "success")
    assert (data["attitude"], data["bribe"], data["bribe_unpaid"]) == ("indifferent", 0, 10)
    assert game["factions"]["red"]["gold"] == 5


def test_every_usurpers_trade_grows_the_settlement_seen_on_the_next_visit() -> None:
    game = state(settlement=camp(traded=6))
    data = diplomacy.carry_out(RULES, game, "red", order(), "partial_failure")
    assert (data["grown_from"], data["size"]) == ("camp", "hamlet")


def test_fanatical_waits_for_the_settlements_quest() -> None:
    game = state(settlement=camp(attitude="loyal"))
    assert diplomacy.carry_out(RULES, game, "red", order(), "epic")["attitude"] == "loyal"
    game = state(settlement=camp(attitude="loyal", quest_done=True))
    assert diplomacy.carry_out(RULES, game, "red", order(), "epic")["attitude"] == "fanatical"


def test_recruiting_at_a_city_one_per_race_on_a_partial_success() -> None:
    game = state()
    asks = [{"race": "dwarves", "name": "Anvils"}, {"race": "dwarves"}, {"race": "humans", "name": "Pikes"}]
    data = diplomacy.carry_out(RULES, game, "red", order(target="K12", recruit=asks), "partial_success")
    recruits = data["recruits"]
    assert recruits[0] == {"race": "dwarves", "unit": "red-u2", "name": "Anvils", "gold": 10}
    assert recruits[1]["refused"] == "one unit of each race a visit"
    # Two Barracks rooms: Iron Fists and Anvils fill them.
    assert recruits[2]["refused"] == "no empty Barracks room"
    red = game["factions"]["red"]
    assert red["gold"] == 90 and red["units"]["red-u2"]["lair"] == "red-lair1"
    assert red["units"]["red-u2"]["pax"] == 10 and red["units"]["red-u2"]["race"] == "dwarves"


def test_recruiting_needs_the_band_and_the_gold() -> None:
    game = state()
    data = diplomacy.carry_out(
        RULES, game, "red", order(target="K12", recruit=[{"race": "orcs"}]), "partial_failure"
    )
    assert data["recruits"][0]["refused"] == "the roll did not reach the band recruiting needs"
    game = state(gold=9)
    data = diplomacy.carry_out(RULES, game, "red", order(target="K12", recruit=[{"race": "orcs"}]), "success")
    assert data["recruits"][0]["refused"] == "not enough gold"
    assert len(game["factions"]["red"]["units"]) == 1


def test_settlements_recruit_only_for_a_herald_and_only_their_races() -> None:
    game = state()
    data = diplomacy.carry_out(RULES, game, "red", order(recruit=[{"race": "goblins"}]), "success")
    assert data["recruits"][0]["refused"].startswith("a settlement lets units be recruited only")
    game = state(bonus="herald")
    asks = [{"race": "humans"}, {"race": "goblins"}]
    data = diplomacy.carry_out(RULES, game, "red", order(recruit=asks), "success")
    assert data["recruits"][0]["refused"] == "no Humans live at the camp at W24"
    assert data["recruits"][1]["unit"] == "red-u2"


def test_selling_from_the_lair_counts_for_status_too() -> None:
    game = state()
    lair = game["factions"]["red"]["lairs"]["red-lair1"]
    lair["storage"]["iron"] = 6
    lair["items"] = [{"item": "melee_weapons", "quality": "standard"}]
    data = diplomacy.carry_out(RULES, game, "red", order(sell={"iron": 6, "melee_weapons": 1}), "success")
    sold = [(d["good"], d["quantity"], d["gold"], d.get("cut", "")) for d in data["sold"]]
    # The camp's cap of 10 gold lets the iron through and stops the weapons (2 + 10 would be 12).
    assert sold == [("iron", 6, 2, ""), ("melee_weapons", 0, 0, "cap")]
    assert game["factions"]["red"]["gold"] == 102 and lair["storage"]["iron"] == 0 and len(lair["items"]) == 1
    assert game["factions"]["red"]["known"]["settlements"]["W24"]["traded"] == 2


# --- the action in the week: the real roll, the event, and the checker --------------------------------


def test_the_weeks_visit_rolls_with_the_places_modifiers_and_tells_the_usurper_alone() -> None:
    from types import SimpleNamespace

    from resolver.core.orders import Order

    from .rolls_support import context

    game = state()
    leader = game["factions"]["red"]["leaders"]["red-l1"]
    ctx = context(RULES, turn=6, forced={"t6/red/red-l1/diplomacy/K12": [40]})
    fields = {"by": "red-l1", "target": "K12", "recruit": ["orcs"], "buy": {"iron": 3}}
    plan = SimpleNamespace(
        faction="red",
        order=Order(1, "diplomacy", fields),
        initiator="red-l1",
        assistants=[],
        leaders=[leader],
        target="K12",
    )
    diplomacy.visit(ctx, game, plan)
    [event] = ctx.events
    ledger = {m.source: m.value for m in event.rolls[0].modifiers}
    assert ledger["Small Town size"] == 6 and ledger["Shared Customs"] == 5
    assert event.visible_to == ["red"] and event.data["band"] == band_of(event.rolls[0].total)
    assert event.data["recruits"][0]["race"] == "Orcs" and "unit" in event.data["recruits"][0]
    assert event.data["bought"] == [{"good": "Iron", "asked": 3, "quantity": 3, "gold": 2}]
    assert game["factions"]["red"]["gold"] == 100 - 10 - 2


def test_the_checker_refuses_an_unknown_place_a_city_bribe_and_recruits_without_room() -> None:
    from types import SimpleNamespace

    from resolver.engine.plans import Reject

    game = state(gold=15)
    reading = SimpleNamespace(rules=RULES, state=game, faction="red")

    def refused(**fields: Any) -> str:
        plan = SimpleNamespace(order=order(**fields), target=fields.get("target", "W24"))
        with pytest.raises(Reject) as caught:
            diplomacy.require_visit(reading, plan)
        return str(caught.value)

    assert "you know no city or settlement at A1" in refused(target="A1")
    assert "cities stay Indifferent" in refused(target="K12", bribe=10)
    assert "2 recruits, and only 1 empty Barracks room" in refused(target="K12", recruit=["orcs", "humans"])
    assert "needs 16 gold and you have 15" in refused(bribe=16)
    assert "a settlement lets units be recruited only" in refused(recruit=["goblins"])
    assert "'gems' is not traded" in refused(buy={"gems": 1})
    diplomacy.require_visit(reading, SimpleNamespace(order=order(bribe=10), target="W24"))
