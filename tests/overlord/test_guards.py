"""Guarding: who may guard, half efficiency, the arrival check, guards against guards and pillagers,
and the taxes and occupation that titles and armies decide."""

from __future__ import annotations

from resolver.rulesets.overlord import guards, stances, taxes

from .titles_support import Ctx, Date, Month, hold, reach, rules, state, unit


def guard_unit(owner: str, location: str, arrival: int = 1, **extra) -> dict:
    return unit(owner, location, skills={"cmbt": 15}, effects={"guard": 1}, arrival=arrival, **extra)


def test_who_may_guard() -> None:
    r, geo = rules(), reach()
    st = state(
        G=unit("red", "C1", skills={"cmbt": 15}),
        N=unit("red", "C1"),
        I=unit("imperials", "P4", skills={"cmbt": 15}),
        B=unit("blue", "P2", skills={"cmbt": 15}),
    )
    assert guards.can_guard(st, r, geo, st["units"]["G"]) == "its faction holds no land title here"
    hold(st, "C1", "G")
    assert guards.can_guard(st, r, geo, st["units"]["G"]) is None
    assert guards.can_guard(st, r, geo, st["units"]["N"]) == "lacks the skill"
    assert guards.can_guard(st, r, geo, st["units"]["I"]) is None  # NPC guards need no title
    assert guards.can_guard(st, r, geo, st["units"]["B"]) == "its faction holds no land title here"


def test_a_guard_works_at_half_strength_and_may_not_work() -> None:
    r = rules()
    st = state(G=unit("red", "C1", race="man", figures=31, skills={"cmbt": 15}))
    assert guards.working_figures(r, st["units"]["G"]) == 31 and guards.may_work(r, st["units"]["G"])
    guards.guard(st, r, "G")
    assert guards.working_figures(r, st["units"]["G"]) == 15 and not guards.may_work(r, st["units"]["G"])


def arriving(order: str, mode: str = "walk", stance_to_blue: str = "hostile") -> tuple[Month, guards.Arrival]:
    r = rules()
    st = state(
        G1=guard_unit("red", "P2", arrival=1),
        G2=guard_unit("green", "P2", arrival=2),
        L=unit("blue", "P2", arrival=9, moving={"to": "P2", "mode": mode, "order": order}),
        F=unit("blue", "P2", race="man", figures=30, stack="L", arrival=10),
    )
    stances.set_stance(st, r, "red", "blue", stance_to_blue)
    month = Month(st, r, day=4)
    return month, guards.on_arrival(month, "L")


def test_an_enemy_is_attacked_on_arrival() -> None:
    month, arrival = arriving("MOVE", stance_to_blue="enemy")
    assert (arrival.outcome, arrival.guard, arrival.unit) == ("battle", "G1", "L")
    assert [c.to_data() for c in month.battles] == [
        {"attacker": "G1", "defender": "L", "trigger": "guard_enemy", "location": "P2", "day": 4}
    ]


def test_a_hostile_move_turns_back_and_a_hostile_march_fights() -> None:
    month, arrival = arriving("MOVE")
    assert arrival.outcome == "retreat" and month.battles == []
    month, arrival = arriving("MARCH")
    assert arrival.outcome == "battle"
    assert [(c.attacker, c.defender, c.trigger) for c in month.battles] == [("L", "G1", "march")]


def test_neutral_stacks_pass_and_fliers_pass_guards_on_foot() -> None:
    assert arriving("MOVE", stance_to_blue="neutral")[1].outcome == "pass"
    month, arrival = arriving("MOVE", mode="fly", stance_to_blue="enemy")
    assert arrival.outcome == "pass" and month.battles == []


def test_an_enemy_is_checked_before_a_hostile_guard_ahead_of_it() -> None:
    r = rules()
    st = state(
        G1=guard_unit("red", "P2", arrival=1),
        G2=guard_unit("green", "P2", arrival=2),
        L=unit("blue", "P2", arrival=9, moving={"to": "P2", "mode": "walk", "order": "MOVE"}),
    )
    stances.set_stance(st, r, "red", "blue", "hostile")
    stances.set_stance(st, r, "green", "blue", "enemy")
    month = Month(st, r)
    assert guards.on_arrival(month, "L").guard == "G2"


def test_guards_see_only_what_their_observation_allows() -> None:
    r = rules()
    st = state(
        G1=guard_unit("red", "P2"),
        L=unit("blue", "P2", skills={"stea": 30}, moving={"to": "P2", "mode": "walk", "order": "MOVE"}),
    )
    stances.set_stance(st, r, "red", "blue", "enemy")
    assert guards.on_arrival(Month(st, r), "L").outcome == "pass"
    st["units"]["G1"]["skills"]["obse"] = 30
    assert guards.on_arrival(Month(st, r), "L").outcome == "battle"


def test_hostile_guards_of_two_factions_fight() -> None:
    r = rules()
    st = state(G1=guard_unit("red", "P2", arrival=1), G2=guard_unit("blue", "P2", arrival=2))
    month = Month(st, r, day=7)
    assert guards.guard_clashes(month) == []
    stances.set_stance(st, r, "blue", "red", "hostile")
    assert [(c.attacker, c.defender, c.trigger) for c in guards.guard_clashes(month)] == [
        ("G2", "G1", "guard_clash")
    ]
    assert len(guards.guard_clashes(month)) == 1 and len(month.battles) == 1  # queued once a day


def test_pillage_needs_a_force_and_alliance_and_meets_the_guards() -> None:
    r, geo = rules(), reach()
    raiders = {"skills": {"cmbt": 15}, "equipped": {"swrd": 19}}
    st = state(P=unit("blue", "P5", race="man", figures=19, **raiders))
    assert taxes.pillage(st, r, geo, "P").reason == "the force is too small"
    st["units"]["P"]["figures"] = 20
    st["units"]["P"]["equipped"]["swrd"] = 20
    done = taxes.pillage(st, r, geo, "P")
    assert done.done and done.taken == 20 and st["places"]["P5"]["taxes"] == 2000 - 20
    assert st["units"]["P"]["items"]["coin"] == 20
    st["units"]["G"] = guard_unit("red", "P5")
    assert taxes.pillage(st, r, geo, "P").defenders == ("G",)
    stances.set_stance(st, r, "red", "blue", "ally")
    assert taxes.pillage(st, r, geo, "P").done


def test_taxes_go_to_the_most_local_owner_with_the_autumn_bonus() -> None:
    r, geo = rules(), reach()
    st = state(M=unit("blue", "C1"), B=unit("red", "K1"))
    hold(st, "C1", "M")
    hold(st, "K1", "B")
    ctx = Ctx(date=Date("Autumn"))
    taxes.collect_taxes(ctx, st, r, geo)
    assert st["factions"]["blue"]["fund"] == 5000 + 12500  # C1's pool and a quarter more
    assert st["factions"]["red"]["fund"] == 5000 + 5000  # P3's 4000 and a quarter; P5 is nobody's
    assert [k for k, _ in ctx.events] == ["taxes_collected", "taxes_collected"]


def test_an_occupied_place_pays_its_owner_nothing() -> None:
    r, geo = rules(), reach()
    st = state(M=unit("blue", "C1"))
    hold(st, "C1", "M")
    # 5000 inhabitants need 100 armed figures, capped at 50.
    assert taxes.occupation_threshold(r, 5000) == 50 and taxes.occupation_threshold(r, 100) == 20
    st["units"]["A"] = unit("red", "C1", race="man", figures=50, skills={"mart": 15})
    ctx = Ctx()
    taxes.collect_taxes(ctx, st, r, geo)
    assert st["factions"]["blue"]["fund"] == 5000
    assert ctx.events[0][0] == "taxes_withheld" and ctx.events[0][1]["occupiers"] == ["red"]
    stances.set_stance(st, r, "blue", "red", "ally")  # an ally's army occupies nothing
    taxes.collect_taxes(Ctx(), st, r, geo)
    assert st["factions"]["blue"]["fund"] == 5000 + 10000
