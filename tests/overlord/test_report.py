"""The faction's report of the month (spec 1.6) with its fog of war (1.7), and its knowledge (1.6.8):
RESHOW prints it again, RESIGN hands the units over, EMAIL and PASSWORD change nothing."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import jinja2

from resolver.core.events import visible
from resolver.engine.ruleset import Game
from resolver.engine.turn import TurnResult
from resolver.rulesets.overlord import knowledge, report
from resolver.store.views import render_reports

from .support import game, month, order_file, start, unit_of

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _sections(g: Game, result: TurnResult, faction: str) -> dict[str, list[str]]:
    events = visible([e.to_data() for e in result.events], faction)
    return dict(g.ruleset.report_sections(g, result.state, faction, events))


def _still(g: Game, state: dict[str, Any], faction: str) -> dict[str, list[str]]:
    """The sections of a state as it stands, with no month's events."""
    return dict(report.sections(g, state, faction, []))


def _stranger(state: dict[str, Any], where: str, **fields: Any) -> str:
    """A blue hero moved next to red's units."""
    uid = unit_of(state, "blue", "hero")
    state["units"][uid].update(location=where, stack=None, **fields)
    for other in state["units"].values():
        if other.get("stack") == uid:
            other["location"] = where
    return uid


def test_a_report_shows_each_units_queue_and_its_actions_by_day() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    state["units"][hero]["items"]["coin"] = 300
    result = month(g, state, {"red": [{"action": "unit", "unit": hero, "orders": ["@STUDY cmbt 2"]}]})
    units = _sections(g, result, "red")["Your units"]
    block = units[
        units.index(f"### Nirmal Yadav [{hero}], at {report._place(g, state['units'][hero]['location'])}") :
    ]
    assert "- Day 15 - Nirmal Yadav of red reaches 1st combat." in block
    assert "- Orders: `@STUDY cmbt 2`." in block
    assert "- Skills: 1st combat [cmbt] (30)." in block
    assert any(line.startswith("- May learn: 1st blades [blde]") for line in block)
    # The engine's report carries the sections after what the faction alone saw.
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True)  # fmt: skip
    written = render_reports(env, g, result)["red"]
    assert "## Your units" in written and "Day 15 - Nirmal Yadav of red reaches 1st combat." in written
    assert "## Your faction" in written and "Control points: " in written


def test_a_foreign_unit_whose_stealth_passes_every_observation_here_is_not_listed() -> None:
    g = game()
    state = start(g)
    where = state["units"][unit_of(state, "red", "hero")]["location"]
    stranger = _stranger(state, where, skills={"scou": 15, "stea": 90})  # 2nd stealth, hero sees 1
    places = "\n".join(_still(g, state, "red")["Places"])
    assert f"[{stranger}]" not in places
    # Announcing itself, it is listed; its faction still unknown (observation short of stealth + 3).
    state["units"][stranger]["settings"] = {"announce": True}
    places = "\n".join(_still(g, state, "red")["Places"])
    assert (
        f"- `-` Aldric Venn [{stranger}], 1 hero, with 1 horse [hrse] (1 equipped), 1 sword [swrd]." in places
    )
    assert "of blue" not in places


def test_a_guards_faction_and_how_it_regards_the_reader_are_shown() -> None:
    g = game()
    state = start(g)
    where = state["units"][unit_of(state, "red", "hero")]["location"]
    stranger = _stranger(state, where, skills={"scou": 15, "stea": 90}, orders=["@GUARD"])
    state["factions"]["blue"]["stances"] = {"red": "hostile"}
    places = "\n".join(_still(g, state, "red")["Places"])
    assert f"`-` Aldric Venn [{stranger}] of blue, 1 hero" in places
    assert "on guard (regards you as Hostile)" in places
    # The guard's coins are its own business: a foreign unit shows only goods that weigh.
    state["units"][stranger]["items"]["coin"] = 77
    assert "77 coins" not in "\n".join(_still(g, state, "red")["Places"])


def test_the_climate_line_tells_last_month_and_the_forecast() -> None:
    g = game()
    state = start(g)
    where = state["units"][unit_of(state, "red", "hero")]["location"]
    territory = g.world[where].parent or where
    state["places"][territory]["weather"] = {"last": "rain", "now": "storm", "next": "fair"}
    state["turn"] = 4  # the state after the third month: last month was the third, the fourth comes
    season = str(g.calendar.date(3).season).lower()
    coming = str(g.calendar.date(4).season).lower()
    assert (season, coming) == ("spring", "summer")
    places = _still(g, state, "red")["Places"]
    assert f"- Last month was {season}, rainy; next month should be {coming}, stormy." in places
    # A month played keeps the weather it had for the next report.
    result = month(g, start(g))
    sky = result.state["places"][territory]["weather"]
    assert sky["last"] == start(g)["places"][territory]["weather"]["now"]


def test_directions_are_sorted_by_days_and_an_inner_place_lists_its_territorys_too() -> None:
    g = game()
    state = start(g)
    where = state["units"][unit_of(state, "red", "hero")]["location"]
    places = _still(g, state, "red")["Places"]
    start_at = places.index("- Directions:")
    outer = places.index("    - From outer location:") if g.world[where].parent else start_at
    indent = "        - " if g.world[where].parent else "    - "
    ways = list(itertools.takewhile(lambda line: line.startswith(indent), places[outer + 1 :]))
    assert ways, places
    days = [int(line.rsplit(", ", 1)[1].split()[0]) for line in ways if "impassable" not in line]
    assert days == sorted(days) and len(days) >= 2
    impassable = [i for i, line in enumerate(ways) if "impassable" in line]
    assert all(i >= len(days) for i in impassable)  # the impassable ways come last


def test_knowledge_gains_an_item_once_and_keeps_it_in_the_private_record() -> None:
    g = game()
    state = start(g)
    hero = unit_of(state, "red", "hero")
    state["units"][hero]["items"]["plat"] = 1  # plate armour: sold nowhere near, newly bought
    items, skills = knowledge.learn(g.rules, state, "red")
    assert "plat" in items and "plat" in state["factions"]["red"]["knowledge"]["items"]
    assert ("cmbt", 1, 1) in skills  # the armour needs some combat to be worn
    assert knowledge.learn(g.rules, state, "red") == ([], [])  # known once, not again
    # Through a month: the event tells the faction alone, the report prints each entry in full.
    result = month(g, start(g))
    gained = [e for e in result.events if e.kind == "knowledge_gained" and e.actors == ["red"]]
    assert len(gained) == 1 and gained[0].visible_to == ["red"]
    lines = _sections(g, result, "red")["Knowledge"]
    assert any(line.startswith("- sword [swrd]: weight 4;") for line in lines)
    view = g.ruleset.faction_view(g, result.state, "blue")
    assert "knowledge" not in view["factions"]["red"]


def test_reshow_prints_stored_knowledge_again() -> None:
    g = game()
    first = month(g, start(g)).state
    orders = {"red": [{"action": "faction", "orders": ["RESHOW swrd", "RESHOW cmbt 1", "RESHOW MOVE"]}]}
    result = month(g, first, orders)
    shown = [e for e in result.events if e.kind == "knowledge_reshown"]
    assert [e.data["asked"] for e in shown] == ["swrd", "cmbt 1", "MOVE"]
    lines = _sections(g, result, "red")["Knowledge"]
    assert "Shown again (swrd):" in lines and "Shown again (MOVE):" in lines
    assert any(line.startswith("- sword [swrd]: weight 4;") for line in lines)
    assert any(line.startswith("- 1st combat [cmbt]: 15 days of study") for line in lines)
    assert any(line.startswith("- MOVE: ") for line in lines)


def test_resign_hands_every_unit_to_the_named_npc_and_email_changes_nothing() -> None:
    g = game()
    state = start(g)
    mine = sorted(uid for uid, u in state["units"].items() if u["owner"] == "red")
    checked = order_file(g, state, "red", [{"action": "faction", "orders": ["EMAIL me@example.org"]}])
    assert checked.ok and any("changes nothing" in issue.message for issue in checked.warnings)
    refused = order_file(g, state, "red", [{"action": "faction", "orders": ["RESIGN blue"]}])
    assert not refused.ok
    result = month(g, state, {"red": [{"action": "faction", "orders": ["RESIGN imperials", "EMAIL a@b.c"]}]})
    after = result.state
    assert all(after["units"][uid]["owner"] == "imperials" for uid in mine)
    assert after["factions"]["red"]["status"] == g.rules["report"]["resigned_status"]
    told = next(e for e in result.events if e.kind == "resigned")
    assert told.data["units"] == len(mine) and told.visible_to is None
    assert "red leaves the game, handing 2 units to The Imperials" in g.ruleset.describe(told.to_data(), g)


def test_a_report_holds_nothing_of_another_factions_secrets() -> None:
    """Red's whole report, next to a blue unit it sees: no blue queue, fund, coins, skills or knowledge."""
    g = game()
    state = start(g)
    where = state["units"][unit_of(state, "red", "hero")]["location"]
    stranger = _stranger(state, where, settings={"announce": True})
    state["units"][stranger]["items"]["coin"] = 777
    state["units"][stranger]["skills"] = {"rela": 20}
    state["factions"]["blue"]["fund"] = 4321
    orders = {"blue": [{"action": "unit", "unit": stranger, "orders": ["@STUDY rela 2"]}]}
    result = month(g, state, orders, sealed=True)  # an open campaign publishes everything
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True)  # fmt: skip
    written = render_reports(env, g, result)["red"]
    assert f"[{stranger}]" in written  # seen: it announces itself
    blue = result.state["units"][stranger]
    for secret in ("STUDY rela", "relationships [rela]", f"{blue['items']['coin']} coins",
                   str(result.state["factions"]["blue"]["fund"])):  # fmt: skip
        assert secret not in written, secret
