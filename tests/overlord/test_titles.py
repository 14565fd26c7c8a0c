"""Titles: claims, challenges at 110 % / 90 % / 80 %, the holder's half of the fee, bestow, yield,
cancel, ranges in days' walk, loss out of range, land ownership and the Overlord's NPC allies."""

from __future__ import annotations

from resolver.rulesets.overlord import stances, titles

from .titles_support import hold, reach, rules, state, unit


def leader(owner: str, location: str, **skills: int) -> dict:
    return unit(owner, location, items={"coin": 5000}, skills=dict(skills))


def test_claiming_a_vacant_title_costs_its_price() -> None:
    r = rules()
    st = state(U1=leader("red", "C1", cmbt=45))
    outcome = titles.claim(st, r, "U1", "mayo", "C1")
    assert outcome.done and outcome.won and outcome.paid == r["titles"]["mayo"]["cost"]
    assert st["places"]["C1"]["title"]["holder"] == "U1"
    assert st["units"]["U1"]["title"] == {"tag": "mayo", "location": "C1"}
    assert st["units"]["U1"]["items"]["coin"] == 5000 - r["titles"]["mayo"]["cost"]


def test_a_claim_waits_for_its_requirements() -> None:
    r = rules()
    st = state(U1=leader("red", "C1", cmbt=44), U2=unit("red", "C1", race="man", skills={"cmbt": 90}))
    assert titles.claim(st, r, "U1", "mayo", "C1").reason == "requirement not met"  # 2nd combat at 45 days
    assert titles.claim(st, r, "U2", "mayo", "C1").reason == "only leaders and heroes hold titles"
    assert titles.claim(st, r, "U1", "shrf", "P3").reason == "not at the title's place"
    st["units"]["U1"]["skills"]["cmbt"] = 45
    st["units"]["U1"]["items"]["coin"] = 10
    assert titles.claim(st, r, "U1", "mayo", "C1").reason == "not enough coins in hand"
    assert st["places"]["C1"]["title"]["holder"] is None


def challenge(challenger_days: int, holder_days: int, present: bool, location: str = "C1", tag: str = "mayo"):
    r = rules()
    st = state(
        H=leader("blue", location if present else "P2", cmbt=holder_days),
        U1=leader("red", location, cmbt=challenger_days),
    )
    st["places"][location]["title"] = {"tag": tag, "holder": None}
    hold(st, location, "H")
    fund = st["factions"]["blue"]["fund"]
    outcome = titles.claim(st, r, "U1", tag, location)
    return r, st, outcome, st["factions"]["blue"]["fund"] - fund


def test_a_challenge_with_the_holder_present_needs_more_than_110_percent() -> None:
    _, st, won, _ = challenge(111, 100, present=True)
    assert won.won and won.percent == 111 and st["places"]["C1"]["title"]["holder"] == "U1"
    _, st, lost, _ = challenge(109, 100, present=True)
    assert lost.won is False and lost.percent == 109 and st["places"]["C1"]["title"]["holder"] == "H"
    _, _, exactly, _ = challenge(110, 100, present=True)
    assert exactly.won is False


def test_a_challenge_with_the_holder_absent_needs_90_percent() -> None:
    _, st, won, _ = challenge(90, 100, present=False)
    assert won.won and won.threshold == 90 and st["units"]["H"]["title"] is None
    _, _, lost, _ = challenge(89, 100, present=False)
    assert lost.won is False


def test_guild_and_towers_need_only_80_percent_when_the_holder_is_away() -> None:
    r = rules()
    st = state(H=leader("blue", "P2", mage=300), U1=leader("red", "C1", mage=240))
    st["places"]["C1"]["title"] = {"tag": "gild", "holder": None}
    hold(st, "C1", "H")
    outcome = titles.claim(st, r, "U1", "gild", "C1")
    assert outcome.won and outcome.threshold == 80 and outcome.percent == 80


def test_the_holder_gets_half_the_fee_win_or_lose() -> None:
    r, _, lost, share = challenge(50, 100, present=True)
    assert lost.won is False and share == r["titles"]["mayo"]["cost"] // 2 == lost.holder_share
    r, st, won, share = challenge(200, 100, present=True)
    assert won.won and share == r["titles"]["mayo"]["cost"] // 2
    assert st["units"]["U1"]["items"]["coin"] == 5000 - r["titles"]["mayo"]["cost"]


def test_free_claims_and_the_overlord_wait_for_a_vacancy() -> None:
    r = rules()
    st = state(H=leader("blue", "C1", cmbt=100), U1=leader("red", "C1", cmbt=1000))
    hold(st, "C1", "H")
    assert titles.claim(st, r, "U1", "mayo", "C1", free=True).reason == "the title is held"
    st["places"]["C1"]["title"] = {"tag": "ovlr", "holder": None}
    hold(st, "C1", "H")
    assert titles.claim(st, r, "U1", "ovlr", "C1").reason == "the title is held"
    assert st["units"]["U1"]["items"]["coin"] == 5000  # nothing paid for a claim that cannot be made


def test_the_overlord_makes_imperials_and_citizens_allies_and_its_loss_enemies() -> None:
    r = rules()
    st = state(U1=leader("red", "C1", cmbt=300), U2=leader("blue", "C1", cmbt=300))
    st["places"]["C1"]["title"] = {"tag": "ovlr", "holder": None}
    assert titles.claim(st, r, "U1", "ovlr", "C1").won
    assert stances.stance(st, r, "imperials", "red") == "ally"
    assert stances.stance(st, r, "citizens", "red") == "ally"
    titles.transfer(st, r, "C1", "U2")
    assert stances.stance(st, r, "imperials", "red") == "enemy"
    assert stances.stance(st, r, "citizens", "blue") == "ally"


def test_bestow_and_yield() -> None:
    r = rules()
    st = state(U1=leader("red", "C1", cmbt=45), U2=leader("blue", "C1"), U3=leader("red", "P2"))
    hold(st, "C1", "U1")
    assert titles.bestow(st, r, "U1", "U3").reason == "the receiver is not here"
    assert titles.bestow(st, r, "U1", "U2").reason == "the receiver's faction refuses it"
    stances.set_stance(st, r, "blue", "red", "friendly")
    assert titles.bestow(st, r, "U1", "U2").done
    assert st["places"]["C1"]["title"]["holder"] == "U2" and st["units"]["U1"]["title"] is None
    assert titles.yield_title(st, r, "U2", "shrf").done is False
    assert titles.yield_title(st, r, "U2", "mayo").done
    assert st["places"]["C1"]["title"]["holder"] is None and st["units"]["U2"]["title"] is None


def test_a_baron_cancels_a_sheriff_in_range_with_more_combat() -> None:
    r, geo = rules(), reach()
    st = state(B=leader("red", "P3", cmbt=100), S=leader("blue", "P4", cmbt=100))
    hold(st, "K1", "B")
    hold(st, "P3", "S")
    # P3 is 1 + 1 + 10 + 10 = 22 days from the castle K1: in the Baron's 30 days.
    assert titles.cancel(st, r, geo, "B", "shrf", "P3").reason == "not more experienced than the holder"
    st["units"]["B"]["skills"]["cmbt"] = 101
    assert titles.cancel(st, r, geo, "B", "shrf", "P3").done
    assert st["places"]["P3"]["title"]["holder"] is None and st["units"]["S"]["title"] is None
    # A Mayor may cancel nothing.
    hold(st, "C1", "S")
    assert titles.cancel(st, r, geo, "S", "shrf", "P3").reason == "its title gives no such power"


def test_ranges_in_days_walk_and_land_ownership() -> None:
    r, geo = rules(), reach()
    st = state(B=leader("red", "K1"), M=leader("blue", "C1"), S=leader("green", "P3"))
    hold(st, "K1", "B")  # Baron: 30 days from K1 = K1, C1, P1 (2), P2 (12), P3 (22)
    assert geo.covered(r, "K1", "barn") == {"K1", "C1", "P1", "P2", "P3"}
    assert geo.covered(r, "C1", "mayo") == {"C1", "K1"}  # an area title: its place and what is inside
    hold(st, "C1", "M")
    hold(st, "P3", "S")
    # The most local title first: the place's own, then the shortest range.
    assert [f for f, _, _ in titles.land_owners(st, r, geo, "C1")] == ["blue", "red"]
    assert [f for f, _, _ in titles.land_owners(st, r, geo, "P3")] == ["green", "red"]
    assert [f for f, _, _ in titles.land_owners(st, r, geo, "P2")] == ["red"]
    assert titles.land_owners(st, r, geo, "P4") == []
    assert geo.covered(r, "C1", "gild") == frozenset()  # guild titles own no land


def test_titles_are_lost_beyond_their_keep() -> None:
    r, geo = rules(), reach()
    st = state(B=leader("red", "P4"), M=leader("blue", "P1"), S=leader("green", "P2"))
    hold(st, "K1", "B")  # P4 is 32 days from K1: within the Baron's 45
    hold(st, "C1", "M")  # a Mayor may stand in the place around its city
    hold(st, "P3", "S")  # a Sheriff who left its place loses it
    assert titles.lose_out_of_range(st, r, geo) == [("P3", "shrf", "S")]
    st["units"]["B"]["location"] = "P5"  # 42 days: kept
    st["units"]["M"]["location"] = "K1"  # a place inside the city: kept
    assert titles.lose_out_of_range(st, r, geo) == []
    st["units"]["M"]["location"] = "P2"
    assert titles.lose_out_of_range(st, r, geo) == [("C1", "mayo", "M")]
    assert st["units"]["M"]["title"] is None and st["places"]["C1"]["title"]["holder"] is None


def test_a_new_campaign_offers_a_vacant_title_in_every_village_and_city() -> None:
    """Titles sit on the generated world's places by kind (the titles' ``places`` lists): a Sheriff in each
    village, a Mayor in each city, the Overlord in the imperial city, all vacant, ready to claim."""
    from resolver.engine.ruleset import FactionSetup, get_ruleset

    ruleset = get_ruleset("overlord")
    rules = ruleset.default_rules()
    world = ruleset.generate_world(1, rules, 4)
    setups = [FactionSetup(f, f.title(), "#336699") for f in ("red", "blue", "green", "gold")]
    start = ruleset.initial_state(world, rules, setups, 1)
    seats = {p: t["tag"] for p, t in ((p, r.get("title")) for p, r in start["places"].items()) if t}
    kinds = {p: titles.seat_kind(world, p) for p in seats}
    assert {kinds[p] for p, tag in seats.items() if tag == "shrf"} == {"village"}
    assert {kinds[p] for p, tag in seats.items() if tag == "mayo"} == {"city"}
    assert [kinds[p] for p, tag in seats.items() if tag == "ovlr"] == ["imperial_city"]
    inner = [p for p, loc in world.locations.items() if loc.terrain in ("village", "city")]
    assert set(inner) == set(seats)
    assert all(start["places"][p]["title"]["holder"] is None for p in seats)
