"""USE of every skill either runs or is refused by the check (none waits for ever), the taxing skill's use
through the real check and month, nobility's use refused, and one teaching event a teacher a month."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from resolver.core.events import visible
from resolver.core.programs import Result, parse_line
from resolver.rulesets.overlord import production, report, structures

from .production_support import day_end, events, run, unit
from .production_support import month as production_month
from .production_support import rules as production_rules
from .support import game, give_title, month, order_file, read_line, start, unit_of

DAYS = 30


def _skills_with_a_use(rules: dict[str, Any]) -> list[str]:
    return sorted(tag for tag, skill in rules["skills"].items() if (skill or {}).get("use"))


# ---- every skill: USE runs or the check refuses it ------------------------------------------------------


def test_every_skill_s_use_is_carried_out_or_refused_by_the_check() -> None:
    g = game()
    state = start(g)
    carried, refused = [], []
    for tag, skill in sorted(g.rules["skills"].items()):
        reading = read_line(g.rules, state, parse_line(f"USE {tag}"))
        if reading.ok:
            # Accepted: its kind has an executor (production.USES), so the line never waits for want of one.
            assert (skill or {}).get("use"), f"USE {tag} is accepted but the skill has no use"
            assert skill["use"]["kind"] in production.USES, f"no executor carries out USE {tag}"
            carried.append(tag)
        else:
            assert not (skill or {}).get("use"), f"USE {tag} has a use but the check refuses it"
            problem = reading.problems[0]
            assert problem.problem == f"{skill['name']} has no use of its own" and "STUDY" in problem.fix
            refused.append(tag)
    assert "taxe" in carried and {"nobl", "cmbt", "ente"} <= set(refused)
    assert set(carried) == set(_skills_with_a_use(g.rules))


def _well_provided(rules: dict[str, Any], tag: str) -> tuple[Any, str]:
    """A month where a unit of ten with the 1st level of `tag` has everything any use could ask: every item
    in hand (and equipped where it fights), every resource in its place, a full tax pool under its own
    title, mana, and a structure type to build as its target."""
    days = rules["skills"][tag]["levels"][0]
    items = {item: 1000 for item in rules["items"]}
    held = unit("U1", figures=10, skills={tag: days}, items=items)
    held.update(mana=1000, title={"tag": "shrf", "location": "L1"})
    m = production_month({"U1": held}, data=rules)
    m.state["places"]["L1"] = {
        "taxes": 10000,
        "population": 100,
        "resources": {item: 1000 for item in rules["items"]},
        "title": {"tag": "shrf", "holder": "U1"},
    }
    kinds = structures.types(rules)
    held["target"] = next(t for t in sorted(kinds) if not structures.refusal(rules, "plains", held))
    aim = rules["skills"][tag]["use"].get("target")
    if aim in ("unit", "self"):
        held["target"] = "U1"
    elif aim == "location":
        held["target"] = "L1"
    return m, "U1"


@pytest.mark.parametrize("tag", _skills_with_a_use(production_rules()))
def test_a_well_provided_unit_s_use_of_every_skill_runs_on_its_first_day(tag: str) -> None:
    rules = production_rules()
    m, uid = _well_provided(rules, tag)
    result, _ = run(m, uid, f"USE {tag}")
    day_end(m)
    assert result in (Result.RAN, Result.CONTINUES, Result.FINISHED), (tag, result, m.ctx.emitted)
    assert not events(m, "line_failed") and not events(m, "taxing_waits")
    # The day taught the skill a little: it was used, not passed over.
    assert m.state["units"][uid]["skills"][tag] > rules["skills"][tag]["levels"][0]


def test_a_use_of_a_kind_nobody_carries_out_is_dropped_with_its_reason_not_left_waiting() -> None:
    rules = copy.deepcopy(production_rules())
    rules["skills"]["digg"]["use"] = {"kind": "divination", "man_days": 1}
    m = production_month({"U1": unit("U1", figures=1, skills={"digg": 15})}, data=rules)
    assert run(m, "U1", "USE digg") == (Result.INVALID, None)
    assert events(m, "line_failed")[0]["reason"] == "digging has no use the game carries out"


# ---- nobility: refused by the check, dropped from a queue written before ---------------------------------


def test_use_nobl_is_refused_by_the_check_at_its_line_and_column_with_the_fix() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    of = order_file(g, state, "red", [{"action": "unit", "unit": hero, "orders": ["STUDY cmbt", "USE nobl"]}])
    assert not of.ok
    (issue,) = of.errors
    assert issue.message == "nobility has no use of its own" and "STUDY" in issue.hint
    text = issue.format()
    assert "orders/red.yaml" in text and f":{issue.line}:{issue.col}" in text
    # The column is the skill's, inside the YAML string "USE nobl" of the order's second line.
    source = of_source(g, state, hero).splitlines()[issue.line - 1]
    assert source[issue.col - 1 :].startswith("nobl")
    assert state["units"][hero]["orders"] == []  # the state is untouched


def of_source(g: Any, state: dict[str, Any], hero: str) -> str:
    """The order file as order_file wrote it (support.order_file dumps the same document)."""
    doc = {
        "campaign": g.campaign,
        "turn": int(state["turn"]),
        "faction": "red",
        "orders": [{"action": "unit", "unit": hero, "orders": ["STUDY cmbt", "USE nobl"]}],
    }
    return yaml.safe_dump(doc, sort_keys=False)


def test_a_queue_holding_use_nobl_from_before_drops_it_on_the_first_day_and_says_why() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    state["units"][hero]["skills"].update(nobl=g.rules["skills"]["nobl"]["levels"][0])
    state["units"][hero]["orders"] = ["USE nobl", "@STUDY cmbt"]
    result = month(g, state)
    failed = [e for e in result.events if e.kind == "line_failed" and e.data["unit"] == hero]
    assert [(e.tick, e.data["order"]) for e in failed] == [(1, "USE nobl")]
    assert result.state["units"][hero]["orders"] == ["@STUDY cmbt"]
    assert "nobility has no use of its own" in g.ruleset.describe(failed[0].to_data(), g)


# ---- taxing through the real check and month --------------------------------------------------------------


def _collectors(g: Any, state: dict[str, Any], faction: str) -> str:
    men = unit_of(state, faction, "man")
    state["units"][men]["skills"]["taxe"] = g.rules["skills"]["taxe"]["levels"][0]
    return men


def test_a_tax_collector_under_its_own_title_takes_a_coin_a_figure_a_day_from_the_pool() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    where = give_title(state, hero)
    men = _collectors(g, state, "red")
    figures, pool = state["units"][men]["figures"], state["places"][where]["taxes"]
    assert figures * DAYS < pool  # the pool lasts the month
    coins_before = state["units"][men]["items"].get("coin", 0)
    result = month(g, state, {"red": [{"action": "unit", "unit": men, "orders": ["@USE taxe"]}]})
    after = result.state["units"][men]
    taken = figures * DAYS
    assert after["orders"] == ["@USE taxe"]
    taxed = [e for e in result.events if e.kind == "taxed"]
    assert len(taxed) == 1 and taxed[0].tick == 1 and taxed[0].data["coins"] == taken
    assert taxed[0].data["days"] == DAYS and taxed[0].data["last"] == DAYS
    # Upkeep is paid from the same coins at the month's end: what the month added is the taxes, less upkeep.
    upkeep = sum(e.data["coins"] for e in result.events if e.kind == "upkeep" and e.actors == ["red"])
    assert after["items"].get("coin", 0) >= coins_before + taken - upkeep
    # The owner's collection at the month's end gets the pool less what the collector took.
    collected = [e for e in result.events if e.kind == "taxes_collected" and e.place == where]
    share = (100 + g.rules["taxation"]["autumn_bonus"]) if _autumn(g, state) else 100
    assert [e.data["amount"] for e in collected] == [(pool - taken) * share // 100]
    text = g.ruleset.describe(taxed[0].to_data(), g)
    assert f"From day 1 to day {DAYS}" in text and f"collects {taken} coins of taxes" in text
    assert men not in text and "{" not in text


def _autumn(g: Any, state: dict[str, Any]) -> bool:
    return g.calendar.date(int(state["turn"])).season == g.rules["taxation"]["autumn"]


def test_a_coins_stop_ends_the_taxing_line_when_reached() -> None:
    g = game()
    state = start(g)
    give_title(state, unit_of(state, "red", "hero"))
    men = _collectors(g, state, "red")
    figures = state["units"][men]["figures"]
    goal = figures * 3 + 1  # three days and a bit of a fourth
    result = month(
        g, state, {"red": [{"action": "unit", "unit": men, "orders": [f"USE taxe {goal}", "STUDY cmbt"]}]}
    )
    taxed = [e for e in result.events if e.kind == "taxed"]
    assert [(e.data["coins"], e.data["days"], e.data["last"]) for e in taxed] == [(goal, 4, 4)]
    assert result.state["units"][men]["orders"] == []  # the stop reached, study took the other days


def test_where_only_the_emperor_s_title_reaches_the_collector_waits_and_without_any_title_too() -> None:
    def play(overlord: bool) -> tuple[Any, list[Any], list[Any]]:
        g = game()
        state = start(g)
        men = _collectors(g, state, "red")
        assert state["places"][state["units"][men]["location"]]["title"]["holder"] is None
        if not overlord:
            for place in state["places"].values():
                if (place.get("title") or {}).get("tag") == "ovlr":
                    place["title"]["holder"] = None  # the Emperor's title vacant: no title reaches here
        result = month(g, state, {"red": [{"action": "unit", "unit": men, "orders": ["@USE taxe"]}]})
        assert result.state["units"][men]["orders"] == ["@USE taxe"]  # it waits, and works meanwhile
        waits = [e for e in result.events if e.kind == "taxing_waits"]
        return g, [e for e in result.events if e.kind == "taxed"], waits

    # The Overlord's reach makes the imperials the owners of the place: they are no ally of red's.
    g, taxed, waits = play(overlord=True)
    assert not taxed
    assert [(e.tick, e.data["why"], e.data["refusers"], e.visible_to) for e in waits] == [
        (1, "refused", ["The Imperials"], ["red"])
    ]
    text = g.ruleset.describe(waits[0].to_data(), g)
    assert "its faction may tax there only as an ally of The Imperials; the order waits" in text
    g, taxed, waits = play(overlord=False)
    assert not taxed and [(e.tick, e.data["why"]) for e in waits] == [(1, "untitled")]
    text = g.ruleset.describe(waits[0].to_data(), g)
    assert "no land title covers it, and taxes are collected only for a title's owner" in text


def test_another_faction_s_collector_needs_the_owner_s_alliance() -> None:
    def play(red_toward_blue: str) -> tuple[list[Any], list[Any]]:
        g = game()
        state = start(g)
        where = give_title(state, unit_of(state, "red", "hero"))
        men = _collectors(g, state, "blue")
        state["units"][men].update(location=where, stack=None, structure=None)
        state["factions"]["red"]["stances"]["blue"] = red_toward_blue
        result = month(g, state, {"blue": [{"action": "unit", "unit": men, "orders": ["@USE taxe"]}]})
        return (
            [e for e in result.events if e.kind == "taxed"],
            [e for e in result.events if e.kind == "taxing_waits"],
        )

    taxed, waits = play("friendly")
    assert not taxed and [(e.data["why"], e.data["refusers"]) for e in waits] == [("refused", ["Red"])]
    taxed, waits = play("ally")
    assert len(taxed) == 1 and taxed[0].actors == ["blue"] and not waits


def test_the_day_s_pillagers_take_the_pool_before_the_collectors() -> None:
    m = production_month(
        {
            "U1": unit("U1", figures=10, skills={"taxe": 15}),
            "U2": unit("U2", figures=10, skills={"taxe": 15}),
        }
    )
    m.state["units"]["U1"]["title"] = {"tag": "shrf", "location": "L1"}
    m.state["places"]["L1"] = {"taxes": 25, "population": 100, "title": {"tag": "shrf", "holder": "U1"}}
    assert run(m, "U1", "@USE taxe") == (Result.RAN, None)
    assert run(m, "U2", "@USE taxe") == (Result.RAN, None)
    m.state["places"]["L1"]["taxes"] = 15  # a pillager took 10 during the day
    day_end(m)
    coins = {uid: m.state["units"][uid]["items"].get("coin", 0) for uid in ("U1", "U2")}
    assert coins == {"U1": 8, "U2": 7} and m.state["places"]["L1"]["taxes"] == 0  # shared, the odd one first
    assert [e["coins"] for e in events(m, "taxed")] == [8, 7]


def test_nobody_collects_in_an_occupied_place_nor_from_a_spent_pool() -> None:
    collector = unit("U1", figures=10, skills={"taxe": 15})
    collector["title"] = {"tag": "shrf", "location": "L1"}
    armed = {"owner": "blue", "equipped": {"swrd": 20}, "items": {"swrd": 20}}
    m = production_month({"U1": collector, "U2": unit("U2", figures=20, **armed)})
    m.state["places"]["L1"] = {"taxes": 500, "population": 100, "title": {"tag": "shrf", "holder": "U1"}}
    assert run(m, "U1", "@USE taxe") == (Result.SKIPPED, None)
    assert run(m, "U1", "@USE taxe") == (Result.SKIPPED, None)  # told once, not twice
    assert [(e["why"], e["occupiers"]) for e in events(m, "taxing_waits")] == [("occupied", ["blue"])]
    del m.state["units"]["U2"]
    m.state["places"]["L1"]["taxes"] = 0
    assert run(m, "U1", "@USE taxe") == (Result.SKIPPED, None)
    assert [e["why"] for e in events(m, "taxing_waits")] == ["occupied", "empty"]
    assert m.state["units"]["U1"]["skills"]["taxe"] == 15  # no day of use: no experience


# ---- teaching: one event a teacher a month --------------------------------------------------------------


def test_a_month_of_teaching_is_one_event_with_the_days_and_the_students() -> None:
    g = game()
    state = start(g)
    hero, men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    state["units"][hero]["skills"]["cmbt"] = g.rules["skills"]["cmbt"]["levels"][3]
    state["units"][men]["items"]["coin"] = 5000
    orders = [
        {"action": "unit", "unit": hero, "orders": [f"10 TEACH {men} cmbt"]},
        {"action": "unit", "unit": men, "orders": ["STUDY cmbt 3"]},
    ]
    result = month(g, state, {"red": orders})
    taught = [e for e in result.events if e.kind == "teaches"]
    assert len(taught) == 1
    (event,) = taught
    name = state["units"][men]["name"]
    assert (event.tick, event.data["days"], event.data["last"]) == (1, 10, 10)
    assert event.data["lessons"] == [{"student_unit": men, "student": name, "skill": "combat", "days": 10}]
    text = g.ruleset.describe(event.to_data(), g)
    assert f"From day 1 to day 10, {state['units'][hero]['name']}" in text
    assert f"teaches combat to {name} (10 days) at " in text and men not in text and "{" not in text
    # The faction's report leads the line with its days, once.
    line = report.dated(g, event.to_data())
    assert line.startswith(f"Days 1 to 10 - {state['units'][hero]['name']} of ") and "day 1" not in line


def test_the_report_says_a_month_of_teaching_once_with_its_days_for_one_s_own_and_another_s() -> None:
    g = game()
    state = start(g)
    red_hero, red_men = unit_of(state, "red", "hero"), unit_of(state, "red", "man")
    blue_hero, blue_men = unit_of(state, "blue", "hero"), unit_of(state, "blue", "man")
    where = state["units"][red_hero]["location"]
    for uid in (red_hero, blue_hero):
        state["units"][uid]["skills"]["cmbt"] = g.rules["skills"]["cmbt"]["levels"][3]
    for uid in (red_men, blue_men):
        state["units"][uid]["items"]["coin"] = 5000
    for uid in (blue_hero, blue_men):
        state["units"][uid]["location"] = where  # blue's company teaches in red's place, in the open
    orders = {
        faction: [
            {"action": "unit", "unit": hero, "orders": [f"5 TEACH {men} cmbt"]},
            {"action": "unit", "unit": men, "orders": ["STUDY cmbt 3"]},
        ]
        for faction, hero, men in (("red", red_hero, red_men), ("blue", blue_hero, blue_men))
    }
    result = month(g, state, orders)
    events = visible([e.to_data() for e in result.events], "red")
    lines = [line for _, part in g.ruleset.report_sections(g, result.state, "red", events) for line in part]
    taught = [line for line in lines if "teaches combat" in line]
    for hero in (red_hero, blue_hero):
        name = state["units"][hero]["name"]
        assert len([line for line in taught if f"{name} of " in line]) == 1, taught
    assert all(line.lstrip(" -").startswith("Days 1 to 5 - ") for line in taught), taught
    assert not [line for line in lines if "Day 1 - On day 1" in line or "Day 1 - From day" in line]


def test_the_teaching_sentence_reads_for_one_day_and_for_days_apart() -> None:
    g = game()
    one = {"kind": "teaches", "tick": 4, "actors": ["red"], "place": None, "data": {
        "unit_name": "Ana", "days": 1, "last": 4,
        "lessons": [{"student": "Bo", "skill": "combat", "days": 1},
                    {"student": "Cy", "skill": "blades", "days": 1}],
    }}  # fmt: skip
    assert g.ruleset.describe(one, g).startswith("On day 4, Ana of ")
    assert "teaches combat to Bo and blades to Cy at " in g.ruleset.describe(one, g)
    apart = copy.deepcopy(one)
    apart["data"].update(days=3, last=20)
    apart["data"]["lessons"] = [{"student": "Bo", "skill": "combat", "days": 3}]
    assert g.ruleset.describe(apart, g).startswith("On 3 days between day 4 and day 20, Ana of ")
    assert "teaches combat to Bo (3 days) at " in g.ruleset.describe(apart, g)
    assert report.dated(g, one).startswith("Day 4 - Ana of ")
    assert report.dated(g, apart).startswith("Days 4 to 20 (3 of them) - Ana of ")
