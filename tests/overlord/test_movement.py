"""Overlord's movement: weights and capacities, the leg's mode and days, trips across the month, stacks
and structures (spec §2.11, §4.4, §4.5, §5.3, §9.2 Movement)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.core.events import Event
from resolver.core.programs import Line, Program, Result, Timing, parse_line, run_day
from resolver.core.world import Location, Route, World
from resolver.engine.ruleset import get_ruleset
from resolver.rulesets.overlord import burden, movement, sight
from resolver.rulesets.overlord import structures as kinds
from resolver.rulesets.overlord.burden import MILLI, Burden, choose_leg, stack_burden, unit_burden
from resolver.rulesets.overlord.language import Reading

from .support import read_line

RULES_FILE = Path(movement.__file__).parent / "rules" / "movement.yaml"

# The items, races and skills chapters belong to other parts; these are the spec's numbers for them.
CATALOGUE: dict[str, Any] = {
    "items": {
        "coin": {"weight": 0},
        "hrse": {"weight": 100, "capacity": {"walk": 120, "ride": 95}, "equipped_capacity": {"ride": 200}},
        "mule": {"weight": 80, "capacity": {"walk": 150}},
        "iron": {"weight": 8},
        "ston": {"weight": 20},
        "food": {"weight": 1},
    },
    "races": {
        "man": {"kind": "follower", "weight": 70, "capacity": {"walk": 100}},
        "ldr": {"kind": "leader"},  # no numbers of its own: the movement chapter's default body
        "hero": {"kind": "hero", "weight": 70, "capacity": {"walk": 100, "ride": 20}},
        "gobl": {"kind": "creature", "weight": 50, "capacity": {"walk": 60}},
        "wolf": {"kind": "creature", "weight": 40, "capacity": {"walk": 40}, "moves": True},
    },
    "skills": {"scou": {"levels": [15]}, "hiwk": {"levels": [15], "capacity": {"walk": 10}}},
}

TRAVEL = {
    "inner": 1,
    "ride_cut": 3,
    "coast_factor": 2,
    "water": ["ocean", "lake"],
    "fly": {"fair": 4, "rain": 6, "wind": 5, "storm": 15},
    "walk_weather": {"rain": 20, "storm": 50},
    "sail_weather": {"wind": -25, "storm": -10},
}


def rules() -> dict[str, Any]:
    data = yaml.safe_load(RULES_FILE.read_text(encoding="utf-8"))
    # Stacking and entering ask the stances' gates, which the titles chapter keeps.
    titles = yaml.safe_load(RULES_FILE.with_name("titles.yaml").read_text(encoding="utf-8"))
    # A stealth entry weighs the units' stats, which the units chapter computes.
    races = yaml.safe_load(RULES_FILE.with_name("races.yaml").read_text(encoding="utf-8"))
    return {
        **CATALOGUE,
        "movement": data["movement"],
        "stances": titles["stances"],
        "unit_stats": races["unit_stats"],
    }


def _loc(
    lid: str, label: str, coords: tuple[int, int], neighbours: dict[str, int | None], **extra: Any
) -> Location:
    routes = tuple(
        Route(to, walk) for to, walk in neighbours.items() if walk is not None or to.startswith("L")
    )
    return Location(
        lid, label, extra.pop("terrain", "plains"), (0.0, 0.0), ((0, 0), (1, 0), (0, 1)),
        tuple(neighbours), coords, routes=routes, **extra,
    )  # fmt: skip


def world() -> World:
    """Massada (L1) with its city Zion (L4) inside; the Tholian Plains (L2) 9 days south, the hills of Kor
    (L3) 20 days north-east, and L5 a day's walk south of L2."""
    places = {
        "L1": _loc("L1", "Massada", (0, 0), {"L2": 9, "L3": 20, "L4": None}),
        "L2": _loc("L2", "Tholian Plains", (0, 1), {"L1": 9, "L5": 1}),
        "L3": _loc("L3", "Kor", (1, -1), {"L1": 20}),
        "L4": _loc("L4", "Zion", (0, 0), {"L1": None}, terrain="city", parent="L1"),
        "L5": _loc("L5", "Brae", (0, 2), {"L2": 1}),
    }
    return World("hex", 1, 4, 4, places, travel=TRAVEL)


@dataclass
class Game:
    world: World


@dataclass
class Ctx:
    rules: dict[str, Any]
    game: Game
    tick: int = 0
    events: list[Event] = field(default_factory=list)

    def emit(
        self, kind: str, *, actors: Any = (), place: Any = None, visible_to: Any = None, **data: Any
    ) -> Event:
        event = Event(
            kind, "day", list(actors), place, data, visible_to and sorted(visible_to), tick=self.tick
        )
        self.events.append(event)
        return event


@dataclass
class Month:
    ctx: Ctx
    state: dict[str, Any]
    programs: dict[str, Program]
    day: int = 1

    @property
    def world(self) -> World:
        return self.ctx.game.world

    def read(self, line: Line) -> Reading:
        # The whole rules read the line (this test's rules hold only what movement weighs).
        return read_line(get_ruleset("overlord").default_rules(), self.state, line)

    def kinds(self) -> list[tuple[int, str]]:
        return [(e.tick, e.kind) for e in self.ctx.events]

    def of(self, kind: str) -> list[Event]:
        return [e for e in self.ctx.events if e.kind == kind]


def unit(owner: str, race: str, location: str = "L1", **fields: Any) -> dict[str, Any]:
    record = {
        "owner": owner, "name": fields.pop("name", f"{owner} {race}"), "race": race, "figures": 1,
        "location": location, "structure": None, "stack": None, "arrival": 1, "items": {}, "equipped": {},
        "skills": {}, "orders": [], "moving": None,
    }  # fmt: skip
    record.update(fields)
    return record


def month(units: dict[str, dict[str, Any]], **state: Any) -> Month:
    factions = state.pop("factions", {})
    full = {"turn": 1, "places": {}, "structures": {}, "units": units, "factions": factions, **state}
    programs = {uid: Program.from_data(list(record["orders"])) for uid, record in units.items()}
    return Month(Ctx(rules(), Game(world())), full, programs)


def timing(line: Line) -> Timing:
    if line.keyword in ("MOVE", "MARCH", "CARAVAN"):
        return Timing.MOVEMENT
    if line.keyword in ("STUDY", "WORK"):
        return Timing.FULL_DAY
    return Timing.IMMEDIATE


def play(m: Month, first: int, last: int, studied: list[tuple[int, str]] | None = None) -> None:
    """Days first..last as the month runs them: trips advance at dawn, then the day's orders."""
    log = studied if studied is not None else []

    def execute(uid: str, line: Line) -> tuple[Result, Line | None]:
        if line.keyword in ("STUDY", "WORK"):
            if line.keyword == "STUDY":
                log.append((m.day, uid))
            return Result.RAN, None
        executor = movement.EXECUTORS.get(line.keyword)
        return (Result.SKIPPED, None) if executor is None else executor(m, uid, line)

    units = m.state["units"]
    for day in range(first, last + 1):
        m.day = m.ctx.tick = day
        movement.advance(m)
        order = sorted(units, key=lambda u: (int(units[u]["arrival"]), u))
        run_day(
            day, order, m.programs, timing, execute, lambda u: bool(units[u]["moving"]), parse_line("WORK")
        )


# ---------------------------------------------------------------- weights and capacities


def test_a_man_weighs_seventy_and_carries_a_hundred_and_coins_weigh_a_thousandth() -> None:
    leader = unit("red", "ldr", items={"coin": 3000})
    found = unit_burden(rules(), leader)
    assert found.weight == 73 * MILLI  # 70 for the man, 3 for 3000 coins
    assert found.capacity["walk"] == 100 * MILLI and found.capacity["ride"] == 0


def test_a_ridden_horse_carries_its_rider_and_a_pack_horse_does_not_help_riding() -> None:
    r = rules()
    rider = unit_burden(r, unit("red", "ldr", items={"hrse": 1}, equipped={"hrse": 1}))
    assert (rider.weight, rider.capacity["walk"], rider.capacity["ride"]) == (
        170 * MILLI,
        220 * MILLI,
        200 * MILLI,
    )
    packer = unit_burden(r, unit("red", "ldr", items={"hrse": 1}))
    assert packer.capacity["ride"] == 95 * MILLI < packer.weight  # a led horse cannot carry itself at a ride
    hero = unit_burden(r, unit("red", "hero"))
    assert hero.capacity["ride"] == 20 * MILLI  # the hero's own riding capacity


def test_a_skill_adds_capacity_per_figure_from_first_level() -> None:
    r = rules()
    novice = unit("red", "man", figures=10, skills={"hiwk": 14})
    walker = unit("red", "man", figures=10, skills={"hiwk": 15})
    assert unit_burden(r, novice).capacity["walk"] == 1000 * MILLI
    assert unit_burden(r, walker).capacity["walk"] == 1100 * MILLI


def test_a_stack_is_one_caravan() -> None:
    r = rules()
    leader = unit("red", "ldr")
    mules = unit("red", "man", figures=2, items={"mule": 2, "ston": 10})
    total = stack_burden(r, [leader, mules])
    assert total.weight == (70 + 140 + 160 + 200) * MILLI
    assert total.capacity["walk"] == (100 + 200 + 300) * MILLI


# ---------------------------------------------------------------- the leg


def test_the_fastest_mode_that_carries_the_stack_is_taken_and_riding_cuts_nine_days_to_six() -> None:
    m = month({"U1": unit("red", "ldr", items={"hrse": 1}, equipped={"hrse": 1})})
    leg = movement.plan_leg(m, ["U1"], "L1", "L2")
    assert (leg.mode, leg.days) == ("ride", 6)
    on_foot = movement.plan_leg(month({"U1": unit("red", "ldr")}), ["U1"], "L1", "L2")
    assert (on_foot.mode, on_foot.days) == ("walk", 9)


def test_rain_in_the_territory_left_slows_the_leg() -> None:
    m = month({"U1": unit("red", "ldr")}, places={"L1": {"weather": {"now": "rain", "next": "fair"}}})
    assert movement.plan_leg(m, ["U1"], "L1", "L2").days == 11  # 9 days and 20 % more, rounded up


def test_ten_percent_overload_costs_thirty_percent_more_days() -> None:
    heavy = Burden(110 * MILLI, {"walk": 100 * MILLI, "ride": 0, "sail": 0, "fly": 0})
    leg = choose_leg(rules(), heavy, {"walk": 10, "ride": 7, "sail": None, "fly": 4})
    assert (leg.mode, leg.days, leg.excess_percent, leg.refused) == ("walk", 13, 10, None)


def test_a_stack_twice_its_walking_capacity_cannot_set_out() -> None:
    r = rules()
    times = {"walk": 7, "ride": 5, "sail": None, "fly": 4}
    almost = choose_leg(r, Burden(199 * MILLI, {"walk": 100 * MILLI}), times)
    assert almost.possible and almost.days == 28  # 7 × (1 + 3 × 0.99) = 27.79
    double = choose_leg(r, Burden(200 * MILLI, {"walk": 100 * MILLI}), times)
    assert (double.possible, double.refused) == (False, "overloaded")


def test_a_leg_longer_than_sixty_days_is_refused() -> None:
    m = month({"U1": unit("red", "ldr", items={"ston": 4, "iron": 2, "food": 2})})  # 168: 68 % over
    leg = movement.plan_leg(m, ["U1"], "L1", "L3")
    assert (leg.days, leg.refused) == (61, "too_long")  # 20 × 3.04 = 60.8, rounded up
    m.state["units"]["U1"]["items"]["food"] = 0  # 166: 66 % over, 20 × 2.98 = 59.6
    assert movement.plan_leg(m, ["U1"], "L1", "L3").days == 60
    slow = choose_leg(rules(), Burden(70 * MILLI, {"walk": 100 * MILLI}), {"walk": 61})
    assert slow.refused == "too_long"


def test_an_overloaded_move_waits_in_the_queue_and_its_faction_hears_why() -> None:
    m = month({"U1": unit("red", "ldr", items={"ston": 7}, orders=["MOVE L2"])})  # 210: 110 % over
    play(m, 1, 3)
    assert m.state["units"]["U1"]["location"] == "L1" and m.programs["U1"].to_data() == ["MOVE L2"]
    [told] = m.of("move_blocked")
    assert (told.data["reason"], told.visible_to) == ("overloaded", ["red"])


# ---------------------------------------------------------------- trips over the month


def test_a_stack_moves_together_and_gives_no_order_while_it_travels() -> None:
    units = {
        "U1": unit("red", "hero", name="Nirmal Yadav", orders=["MOVE S"]),
        "U2": unit("red", "man", figures=50, stack="U1", arrival=2, orders=["@STUDY cmbt"]),
    }
    m = month(units)
    studied: list[tuple[int, str]] = []
    play(m, 1, 12, studied)
    assert [day for day, uid in studied if uid == "U2"] == [10, 11, 12]  # set out day 1, 9 days, free on 10
    assert {units["U1"]["location"], units["U2"]["location"]} == {"L2"}
    [gone] = m.of("departs")
    assert (gone.tick, gone.data["unit"], gone.data["followers"], gone.data["days"]) == (
        1,
        "Nirmal Yadav",
        50,
        9,
    )
    assert (gone.data["origin"], gone.data["destination"], gone.data["mode"]) == (
        "Massada",
        "Tholian Plains",
        "walk",
    )
    assert [e.tick for e in m.of("arrives")] == [10]
    assert units["U2"]["stack"] == "U1"


def test_a_travelling_stack_is_seen_at_its_origin_for_half_the_trip_then_at_its_destination() -> None:
    units = {"U1": unit("red", "ldr", orders=["D5 MOVE L2"])}
    m = month(units)
    seen: dict[int, str] = {}
    for day in range(1, 15):
        play(m, day, day)
        seen[day] = units["U1"]["location"]
    assert [seen[d] for d in range(5, 9)] == ["L1", "L1", "L1", "L1"]  # set out day 5, 9 days: 4 at home
    assert [seen[d] for d in range(9, 15)] == ["L2"] * 6
    assert units["U1"]["moving"] is None and [e.tick for e in m.of("arrives")] == [14]


def test_the_arrival_hook_runs_half_way_and_a_guard_may_bar_the_way() -> None:
    units = {"U1": unit("red", "ldr", orders=["MOVE L2"])}
    m = month(units)
    calls: list[tuple[int, str, str]] = []

    def guard(month_: Any, uid: str) -> None:
        calls.append((month_.day, uid, month_.state["units"][uid]["location"]))
        movement.bar_entry(month_, uid)

    movement.ARRIVAL_HOOKS.append(guard)
    try:
        play(m, 1, 6)
    finally:
        movement.ARRIVAL_HOOKS.remove(guard)
    assert calls == [(5, "U1", "L2")]
    assert units["U1"]["location"] == "L1" and units["U1"]["moving"] is None
    assert [e.tick for e in m.of("entry_barred")] == [5]


def test_a_trip_begun_on_day_28_that_lasts_six_days_ends_on_day_4_of_the_next_month() -> None:
    units = {"U1": unit("red", "ldr", items={"hrse": 1}, equipped={"hrse": 1}, orders=["D28 MOVE L2"])}
    m = month(units)
    play(m, 1, 30)
    assert units["U1"]["moving"] == {
        "from": "L1", "to": "L2", "mode": "ride", "days": 6, "done": 2, "order": "MOVE", "march": False,
    }  # fmt: skip
    assert units["U1"]["location"] == "L1"  # half-way comes on day 1 of the next month
    m.ctx.events.clear()
    play(m, 1, 4)
    assert [e.tick for e in m.of("arrives")] == [4]
    assert units["U1"]["location"] == "L2" and units["U1"]["moving"] is None


def test_retreat_as_the_first_order_of_the_month_walks_back_as_long_as_the_trip_took() -> None:
    units = {"U1": unit("red", "ldr", orders=["D25 MOVE L3"])}  # 20 days to Kor
    m = month(units)
    play(m, 1, 30)
    m.programs["U1"] = Program.from_data(["RETREAT", "-STUDY cmbt"])
    m.ctx.events.clear()
    studied: list[tuple[int, str]] = []
    play(m, 1, 8, studied)
    [back] = m.of("turns_back")
    assert (back.tick, back.data["days"], back.data["destination"]) == (1, 6, "Massada")  # days 25..30
    assert [e.tick for e in m.of("arrives")] == [7]
    assert units["U1"]["location"] == "L1" and studied == [(7, "U1")]  # the freed STUDY runs on arrival


def test_a_retreat_cannot_be_turned_back_and_a_standing_unit_drops_its_retreat() -> None:
    units = {
        "U1": unit("red", "ldr", orders=["MOVE L3"]),
        "U2": unit("red", "ldr", arrival=2, orders=["RETREAT"]),
    }
    m = month(units)
    play(m, 1, 2)
    assert movement.turn_back(m, "U1", "order") is True
    assert movement.turn_back(m, "U1", "order") is False
    assert m.programs["U2"].lines == []
    assert {e.data["reason"] for e in m.of("move_blocked")} == {"no_trip", "retreat_twice"}


def test_a_stacked_unit_that_moves_breaks_off_with_its_own_substack() -> None:
    units = {
        "U1": unit("red", "ldr", arrival=1),
        "U2": unit("red", "ldr", stack="U1", arrival=2, orders=["MOVE L2"]),
        "U3": unit("red", "man", stack="U2", arrival=3, figures=5),
    }
    m = month(units)
    play(m, 1, 1)
    assert units["U2"]["stack"] is None and units["U3"]["stack"] == "U2"
    assert units["U1"]["moving"] is None and units["U3"]["moving"]["to"] == "L2"


def test_stay_and_a_waiting_sell_keep_a_unit_behind_when_its_stack_sets_out() -> None:
    units = {
        "U1": unit("red", "ldr", orders=["MOVE L2"]),
        "U2": unit("red", "man", stack="U1", arrival=2, orders=["STAY"]),
        "U3": unit("red", "ldr", stack="U1", arrival=3, orders=["SELL 5 iron"]),
        "U4": unit("red", "man", stack="U1", arrival=4),
    }
    m = month(units)
    play(m, 1, 1)
    assert [units[u]["stack"] for u in ("U2", "U3", "U4")] == [None, None, "U1"]
    assert [bool(units[u]["moving"]) for u in ("U2", "U3", "U4")] == [False, False, True]
    assert m.programs["U2"].lines == [] and m.programs["U3"].to_data() == ["SELL 5 iron"]
    assert sorted(e.data["why"] for e in m.of("stays_behind")) == ["sell", "stay"]


def test_a_hold_back_check_keeps_a_leader_and_its_stack_home_that_day() -> None:
    units = {"U1": unit("red", "ldr", orders=["MOVE L2"]), "U2": unit("red", "man", stack="U1", arrival=2)}
    m = month(units)
    recruited = {1}
    movement.HOLD_BACK_CHECKS.append(lambda month_, uid: uid == "U1" and month_.day in recruited)
    try:
        play(m, 1, 2)
    finally:
        movement.HOLD_BACK_CHECKS.pop()
    assert [e.tick for e in m.of("departs")] == [2]


def test_who_may_set_out() -> None:
    r = rules()
    assert movement.may_set_out(r, unit("red", "ldr")) and movement.may_set_out(r, unit("red", "hero"))
    assert not movement.may_set_out(r, unit("red", "man"))
    assert movement.may_set_out(r, unit("red", "man", skills={"scou": 15}))
    assert not movement.may_set_out(r, unit("red", "gobl")) and movement.may_set_out(r, unit("red", "wolf"))
    m = month({"U1": unit("red", "man", figures=20, orders=["MOVE L2", "-STUDY scou"])})
    play(m, 1, 1)
    assert m.state["units"]["U1"]["moving"] is None and m.programs["U1"].to_data() == ["STUDY scou"]
    assert [e.data["reason"] for e in m.of("move_blocked")] == ["cannot_travel"]


def test_out_of_an_inner_place_takes_a_day_and_a_direction_from_inside_leads_nowhere() -> None:
    units = {"U1": unit("red", "ldr", location="L4", orders=["MOVE south", "MOVE Out"])}
    m = month(units)
    play(m, 1, 2)
    assert units["U1"]["location"] == "L1" and units["U1"]["moving"]["days"] == 1  # seen outside at once
    play(m, 3, 3)
    assert [e.tick for e in m.of("arrives")] == [3]
    assert m.of("move_blocked")[0].data["reason"] == "no_way"


def test_a_repeated_move_goes_on_until_the_way_ends() -> None:
    units = {"U1": unit("red", "ldr", location="L1", orders=["@MOVE S", "-STUDY cmbt"])}
    m = month(units)
    studied: list[tuple[int, str]] = []
    play(m, 1, 14, studied)
    assert units["U1"]["location"] == "L5"  # Massada → Tholian Plains (9 days) → Brae (1 day)
    assert studied == [(12, "U1")]  # no way south of Brae on day 11: the study is released


def test_a_caravan_shuttles_between_its_places() -> None:
    units = {"U1": unit("red", "ldr", location="L1", orders=["@CARAVAN L1 L2 L5"])}
    m = month(units)
    play(m, 1, 1)
    assert m.programs["U1"].to_data() == ["@CARAVAN L1 L2 L5"]  # on its way to the middle of the route
    play(m, 2, 10)
    assert m.programs["U1"].to_data() == ["@CARAVAN L5 L2 L1"]  # set out for the last place: turned round
    play(m, 11, 30)
    trail = [(e.tick, e.data["destination"]) for e in m.of("arrives")]
    assert trail[:3] == [(10, "Tholian Plains"), (11, "Brae"), (12, "Tholian Plains")]
    one_way = month({"U1": unit("red", "ldr", orders=["CARAVAN L1 L2"])})
    play(one_way, 1, 1)
    assert one_way.programs["U1"].lines == []


# ---------------------------------------------------------------- stacks and structures


def test_stack_needs_an_ally_or_an_accept() -> None:
    factions = {"red": {"stances": {"default": "neutral"}}, "blue": {"stances": {"default": "neutral"}}}
    units = {
        "U1": unit("red", "ldr", orders=["ACCEPT U3"]),
        "U2": unit("blue", "ldr", arrival=2, orders=["STACK U1"]),
        "U3": unit("blue", "ldr", arrival=3, orders=["STACK U1"]),
    }
    m = month(units, factions=factions)
    play(m, 1, 1)
    assert units["U2"]["stack"] is None and units["U3"]["stack"] == "U1"
    assert m.programs["U2"].to_data() == ["STACK U1"] and m.programs["U1"].lines == []
    factions["red"]["stances"]["blue"] = "ally"
    play(m, 2, 2)
    assert units["U2"]["stack"] == "U1"
    assert [e.data["reason"] for e in m.of("move_blocked")] == ["stack_refused"]


def test_only_leaders_head_stacks_and_unstack_leaves_with_the_substack() -> None:
    units = {
        "U1": unit("red", "man", orders=[]),
        "U2": unit("red", "ldr", arrival=2, orders=["STACK U1"]),
        "U3": unit("red", "ldr", arrival=3, orders=["STACK U2"]),
        "U4": unit("red", "ldr", arrival=4, orders=["STACK U3"]),
    }
    m = month(units)
    play(m, 1, 1)
    assert units["U2"]["stack"] is None and m.programs["U2"].lines == []  # a follower leads no stack
    assert (units["U3"]["stack"], units["U4"]["stack"]) == ("U2", "U3")
    m.programs["U3"] = Program.from_data(["UNSTACK"])
    play(m, 2, 2)
    assert (units["U3"]["stack"], units["U4"]["stack"]) == (None, "U3")


def test_eject_and_promote_change_the_stack_and_the_report_order() -> None:
    units = {
        "U1": unit("red", "ldr", arrival=1),
        "U2": unit("red", "ldr", stack="U1", arrival=2, orders=["EJECT U3"]),
        "U3": unit("red", "man", stack="U2", arrival=3),
        "U4": unit("red", "ldr", arrival=4, orders=["PROMOTE U5"]),
        "U5": unit("red", "ldr", arrival=5),
    }
    m = month(units)
    play(m, 1, 1)
    assert units["U3"]["stack"] == "U1"  # out of U2's substack, into the level above
    assert units["U5"]["arrival"] < units["U4"]["arrival"]
    assert sorted(int(u["arrival"]) for u in units.values()) == [1, 2, 3, 4, 5]


def test_enter_needs_the_owner_friendly_and_leave_or_exit_take_no_time() -> None:
    factions = {"red": {"stances": {"default": "neutral"}}, "blue": {"stances": {"default": "neutral"}}}
    structures = {
        "B1": {"owner": "red", "name": "High Eagle Fort", "type": "fort", "location": "L1", "complete": True},
        "B2": {"owner": "red", "name": "Half Tower", "type": "gtow", "location": "L1", "complete": False},
    }
    units = {
        "U1": unit("red", "ldr", structure="B1"),
        "U2": unit("blue", "ldr", arrival=2, orders=["ENTER B1"]),
        "U3": unit("red", "ldr", arrival=3, orders=["ENTER B2", "ENTER B1", "EXIT B1"]),
        "U4": unit("red", "man", arrival=4, stack="U3"),
    }
    m = month(units, factions=factions, structures=structures)
    play(m, 1, 1)
    assert units["U2"]["structure"] is None and m.programs["U2"].to_data() == ["ENTER B1"]
    assert units["U3"]["structure"] is None and m.programs["U3"].to_data() == ["ENTER B2"]  # out again
    assert [e.kind for e in m.ctx.events if e.kind in ("enters", "leaves")] == ["enters", "leaves"]
    factions["red"]["stances"]["blue"] = "friendly"
    play(m, 2, 2)
    assert units["U2"]["structure"] == "B1"
    assert kinds.owner_of(m.state, "B1") == "red"


def test_the_observation_of_a_travelling_unit_counts_one_lower() -> None:
    r = rules()
    assert sight.observation_change(r, unit("red", "ldr")) == 0
    assert sight.observation_change(r, unit("red", "ldr", moving={"to": "L2"})) == -1


def test_every_number_is_rules_data() -> None:
    r = rules()
    r["movement"]["overload"]["factor"] = 2
    heavy = Burden(110 * MILLI, {"walk": 100 * MILLI})
    assert choose_leg(r, heavy, {"walk": 10}).days == 12
    assert burden.race_kind(r, "wolf") == "creature"


@pytest.mark.parametrize("weather, days", [("fair", 4), ("storm", 15)])
def test_fliers_fly_when_it_is_faster(weather: str, days: int) -> None:
    r = rules()
    flier = Burden(70 * MILLI, {"walk": 100 * MILLI, "fly": 100 * MILLI})
    m = month({})
    times = {mode: movement.travel_days(m.world, "L1", "L2", mode, weather) for mode in burden.MODES}
    leg = choose_leg(r, flier, times)
    assert leg.days == min(days, times["walk"] or 99)


# ---------------------------------------------------------------- a month of the ruleset


def test_a_hero_leads_his_followers_over_a_month_of_the_ruleset_and_the_chronicle_names_them() -> None:
    from dataclasses import replace as changed

    from tests.overlord import support

    g = support.game()
    state = support.start(g)
    # Every way a 7-day walk, the start city's way out too (no place inside another: no 1-day step).
    routed = {
        lid: changed(loc, routes=tuple(Route(n, 7) for n in loc.neighbours), parent=None)
        for lid, loc in g.world.locations.items()
    }
    g = changed(g, world=changed(g.world, locations=routed, travel=TRAVEL))
    hero = support.unit_of(state, "red", "hero")
    followers = support.unit_of(state, "red", "man")
    home = state["units"][hero]["location"]
    there = g.world[home].neighbours[0]
    result = support.month(g, state, {"red": [{"action": "unit", "unit": hero, "orders": [f"MOVE {there}"]}]})
    after = result.state["units"]
    assert after[hero]["location"] == after[followers]["location"] == there
    assert after[followers]["stack"] == hero and after[hero]["moving"] is None
    gone = [e for e in result.events if e.kind == "departs"]
    came = [e for e in result.events if e.kind == "arrives"]
    assert [(e.tick, e.data["followers"], e.data["days"]) for e in gone] == [(1, 50, 7)]
    assert [e.tick for e in came] == [8]
    told = g.ruleset.describe(vars(gone[0]), g)
    name = after[hero]["name"]
    assert told.startswith(f"{name} of ") and hero not in told
    assert (
        f"leads 50 followers out of {g.world[home].label} toward {g.world[there].label}, 7 days' walk."
        in told
    )


def test_a_world_without_travel_times_has_no_ways_and_the_order_is_dropped() -> None:
    from dataclasses import replace as changed

    m = month({"U1": unit("red", "ldr", orders=["MOVE L2"])})
    m.ctx.game.world = changed(m.world, travel=None)
    play(m, 1, 1)
    assert m.state["units"]["U1"]["moving"] is None and m.programs["U1"].lines == []
    assert [e.data["reason"] for e in m.of("move_blocked")] == ["impassable"]
