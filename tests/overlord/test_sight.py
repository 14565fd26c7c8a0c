"""Spec §1.7, what a faction sees of another's units, read once (``sight.py``) and asked alike by the report,
the sealed views (``Overlord.sees``), the chronicle's arrivals and departures, the guards and the bot.

The scenes run months through the real turn: red's hero and blue's hero start in the same city; blue's hero
learns to hide (2nd stealth: stealth 2) while red's hero sees with a hero's intrinsic observation of 1."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from resolver.core.canonical import dump
from resolver.core.events import visible
from resolver.engine.ruleset import Game, get_ruleset
from resolver.engine.turn import TurnResult
from resolver.engine.validate import check_order_file
from resolver.rulesets.overlord import bot, guards, report, sight, stances
from resolver.rulesets.overlord.bot_plans import Plan

from .support import game, month, start, unit_of
from .titles_support import Month as StubMonth
from .titles_support import rules as stub_rules
from .titles_support import state as stub_state
from .titles_support import unit as stub_unit

HIDDEN = {"scou": 15, "stea": 90}  # 2nd stealth: stealth 2, above a hero's observation of 1


def _scene(g: Game, **blue: Any) -> tuple[dict[str, Any], str, str, str]:
    """The start, with blue's hero standing alone (its men left unstacked beside it) and ``blue`` fields
    set on it. Returns the state, red's hero, blue's hero and their city."""
    state = start(g)
    red, hero = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    state["units"][unit_of(state, "blue", "man")]["stack"] = None
    state["units"][hero]["skills"].update(HIDDEN)
    state["units"][hero].update(blue)
    return state, red, hero, str(state["units"][red]["location"])


def _channels(g: Game, state: dict[str, Any], faction: str, uid: str, where: str) -> dict[str, bool]:
    """Whether ``faction`` finds the unit in each place the ruleset shows units: its report's list of the
    place, its sealed view, and the bot's look around (the stack leaders it may attack)."""
    places = "\n".join(dict(report.sections(g, state, faction, []))["Places"])
    return {
        "report": f"[{uid}]" in places,
        "view": uid in (g.ruleset.faction_view(g, state, faction).get("units") or {}),
        "bot": uid in Plan(g, state, faction).others_at(where),
    }


def _everywhere(seen: bool) -> dict[str, bool]:
    return {"report": seen, "view": seen, "bot": seen}


def test_one_reading_hides_a_stealthy_unit_from_the_report_the_view_and_the_bot_until_it_is_seen() -> None:
    g = game()
    state, red, hero, where = _scene(g)
    after = month(g, state, sealed=True).state
    assert after["units"][hero]["location"] == where  # it stayed beside red's hero all month
    assert _channels(g, after, "red", hero, where) == _everywhere(False)
    assert not g.ruleset.sees(g, after, "red", "units", after["units"][hero])
    # Blue's own men beside it are plainly seen: the rule is about this unit, not its place.
    men = unit_of(after, "blue", "man")
    assert _channels(g, after, "red", men, where)["view"]
    # Red's hero learns 1st observation: 1 + 1 reaches stealth 2, and every channel shows it at once.
    after["units"][red]["skills"].update({"rela": 15, "obse": 30})
    assert _channels(g, after, "red", hero, where) == _everywhere(True)
    assert g.ruleset.sees(g, after, "red", "units", after["units"][hero])
    # The public stands nowhere and sees no unit, however plain.
    assert not g.ruleset.sees(g, after, None, "units", after["units"][men])


@pytest.mark.parametrize(
    ("blue", "seen"),
    [
        ({}, False),
        ({"settings": {"announce": True}}, True),  # ANNOUNCE
        ({"orders": ["@USE taxe"], "skills": {**HIDDEN, "cmbt": 15, "taxe": 15}}, True),  # a cash skill
        ({"orders": ["@USE lumb"], "skills": {**HIDDEN, "fore": 15, "lumb": 15}}, True),  # wood has weight
        ({"orders": ["@STUDY lumb 4"], "skills": {**HIDDEN, "fore": 15, "lumb": 15}}, False),  # studying
    ],
    ids=["hiding", "announcing", "taxing", "harvesting", "studying"],
)
def test_a_hidden_unit_shows_itself_by_announcing_taxing_or_harvesting(
    blue: dict[str, Any], seen: bool
) -> None:
    g = game()
    state, _, hero, where = _scene(g, **blue)
    for record in state["units"].values():
        record.setdefault("items", {})["coin"] = 500  # studying costs coins; nobody runs short
    after = month(g, state, sealed=True).state
    assert after["units"][hero]["location"] == where
    assert after["units"][hero]["orders"] == list(blue.get("orders") or [])  # still at it at the month's end
    assert _channels(g, after, "red", hero, where) == _everywhere(seen)


def test_a_harvest_of_a_weightless_item_keeps_the_harvester_hidden() -> None:
    data = copy.deepcopy(get_ruleset("overlord").default_rules())
    data["items"]["wood"]["weight"] = 0
    g = game(rules=data)
    state, _, hero, where = _scene(g, orders=["@USE lumb"], skills={**HIDDEN, "fore": 15, "lumb": 15})
    after = month(g, state, sealed=True).state
    assert _channels(g, after, "red", hero, where) == _everywhere(False)


def test_a_guard_shows_itself_and_so_does_a_unit_stacked_with_one_of_yours() -> None:
    g = game()
    state, red, hero, where = _scene(g)
    assert not sight.faction_sees(g.rules, state, "red", hero)
    state["units"][hero]["orders"] = ["@GUARD"]
    assert _channels(g, state, "red", hero, where) == _everywhere(True)
    state["units"][hero]["orders"] = []
    # Red's hero stacked directly under the hidden hero: red sees the leader it follows.
    state["units"][red]["stack"] = hero
    assert (
        _channels(g, state, "red", hero, where)["report"] and _channels(g, state, "red", hero, where)["view"]
    )
    # The hidden hero stacked directly under red's hero: red sees who follows it.
    state["units"][red]["stack"] = None
    state["units"][hero]["stack"] = red
    assert _channels(g, state, "red", hero, where)["view"]


def test_a_travelling_watcher_sees_one_less() -> None:
    g = game()
    state, red, hero, where = _scene(g)
    state["units"][red]["skills"].update({"rela": 15, "obse": 30})  # observation 2: stealth 2 is reached
    assert _channels(g, state, "red", hero, where)["report"]
    assert sight.observation(g.rules, state["units"][red]) == 2
    # Half-way on a trip, the state puts red's hero at its destination: there it sees one less.
    state["units"][red]["moving"] = {"to": where, "from": where, "mode": "walk", "days": 4, "done": 2,
                                     "order": "MOVE", "march": False}  # fmt: skip
    state["units"][unit_of(state, "red", "man")]["location"] = "elsewhere"
    assert sight.observation(g.rules, state["units"][red]) == 1
    assert _channels(g, state, "red", hero, where) == {"report": False, "view": False, "bot": False}


def _arrival_seen_by_red(stealthy: bool) -> tuple[TurnResult, str]:
    """Blue's hero walks out of the city into the territory around it, where red's hero and men wait."""
    g = game()
    state, red, hero, where = _scene(g)
    if not stealthy:
        state["units"][hero]["skills"] = {}
    outer = g.world[where].parent
    for uid in (red, unit_of(state, "red", "man")):
        state["units"][uid]["location"] = outer
    result = month(
        g, state, {"blue": [{"action": "unit", "unit": hero, "orders": ["MOVE OUT"]}]}, sealed=True
    )
    assert result.state["units"][hero]["location"] == outer
    return result, hero


def test_a_stealthy_units_arrival_is_not_told_to_the_faction_that_cannot_see_it() -> None:
    plain, hero = _arrival_seen_by_red(stealthy=False)
    told = [e["kind"] for e in visible([e.to_data() for e in plain.events], "red") if e.get("place")]
    assert "arrives" in told
    hidden, hero = _arrival_seen_by_red(stealthy=True)
    events = [e.to_data() for e in hidden.events]
    assert "arrives" in [e["kind"] for e in visible(events, "blue")]
    assert "arrives" not in [e["kind"] for e in visible(events, "red")]
    name = hidden.state["units"][hero]["name"]
    assert not [e for e in visible(events, "red") if name in str(e)]


def test_guards_see_by_the_stats_a_heros_own_observation_included() -> None:
    """The guards' sight is the stats' (race, skills, items, effects), not the skill levels alone: a hero
    guard's intrinsic observation of 1 finds an arrival with 1st stealth; 2nd stealth slips past."""
    r = stub_rules()
    for level, outcome in ((30, "battle"), (90, "pass")):
        st = stub_state(
            G=stub_unit("red", "P2", race="hero", skills={"cmbt": 15}, effects={"guard": 1}),
            L=stub_unit("blue", "P2", skills={"scou": 15, "stea": level},
                        moving={"to": "P2", "mode": "walk", "order": "MOVE"}),
        )  # fmt: skip
        stances.set_stance(st, r, "red", "blue", "enemy")
        assert guards.on_arrival(StubMonth(st, r), "L").outcome == outcome, level


def test_a_travelling_guard_watcher_counts_one_less_in_the_shared_sight() -> None:
    """The guards ask ``sight.unit_sees``, which takes the moving unit's observation one lower: the same
    answer the report gives."""
    r = stub_rules()
    st = stub_state(
        W=stub_unit("red", "P2", skills={"rela": 15, "obse": 30}),
        L=stub_unit("blue", "P2", skills={"scou": 15, "stea": 30}),
    )
    watcher, unit = st["units"]["W"], st["units"]["L"]
    assert sight.unit_sees(r, st, watcher, unit)
    watcher["moving"] = {"to": "P2", "mode": "walk", "order": "MOVE"}
    assert not sight.unit_sees(r, st, watcher, unit)
    unit["settings"] = {"announce": True}
    assert sight.unit_sees(r, st, watcher, unit)


def test_men_seen_under_a_hidden_leader_do_not_give_it_away() -> None:
    """Blue's men stay stacked under their hidden hero: red sees the men, but neither its view (their
    leader's id) nor its report (their indentation under a leader) tells that someone leads them."""
    g = game()
    state, _, hero, _ = _scene(g)
    men = unit_of(state, "blue", "man")
    state["units"][men]["stack"] = hero
    after = month(g, state, sealed=True).state
    view = g.ruleset.faction_view(g, after, "red")
    assert hero not in view["units"] and view["units"][men]["stack"] is None
    assert hero not in str(view)
    places = dict(report.sections(g, after, "red", []))["Places"]
    line = next(text for text in places if f"[{men}]" in text)
    assert line.startswith("    - "), line  # at the top level of the place's list, as a leader would be
    # Blue's own view still knows who leads its men.
    assert g.ruleset.faction_view(g, after, "blue")["units"][men]["stack"] == hero


def test_a_band_attacks_a_weak_unit_it_sees_and_not_one_hidden_from_it() -> None:
    """The bot reads the same rule: the outlaws' band leader writes ATTACK against a lone red leader beside
    it, and nothing against the same leader with 2nd stealth (the band's leader observes nothing)."""

    def band_orders(skills: dict[str, int]) -> list[str]:
        g = game()
        state = start(g)
        band = unit_of(state, "outlaws", "ldr")
        lone = unit_of(state, "red", "hero")
        for uid, record in state["units"].items():
            if record.get("stack") == lone:
                state["units"][uid]["stack"] = None  # its men stay home: the leader stands alone
        state["units"][lone].update(location=state["units"][band]["location"], skills=skills)
        drafted = bot.orders_for(g, state, "outlaws")["orders"]
        return [line for entry in drafted if entry["unit"] == band for line in entry["orders"]]

    assert f"ATTACK {unit_of(start(game()), 'red', 'hero')}" in band_orders({})
    assert not [line for line in band_orders(HIDDEN) if line.startswith("ATTACK")]


def test_a_view_names_a_units_faction_only_when_the_report_does() -> None:
    """Recognition (spec 1.7) read once: a unit seen because it announces itself, whose stealth the
    reader's observation does not pass by the margin, stands in the reader's view with no owner, and the
    report's line names no faction; orders naming it still check against that view."""
    g = game()
    state, red, hero, _ = _scene(g, settings={"announce": True})
    after = month(g, state, sealed=True).state
    view = g.ruleset.faction_view(g, after, "red")
    assert view["units"][hero]["owner"] is None
    line = next(text for text in dict(report.sections(g, after, "red", []))["Places"] if f"[{hero}]" in text)
    assert "of blue" not in line
    orders = [{"action": "unit", "unit": red, "orders": [f"ATTACK {hero}", f"GIVE {hero} coin 1"]}]
    doc = {"campaign": g.campaign, "turn": int(view["turn"]), "faction": "red", "orders": orders}
    checked = check_order_file(g, view, dump(doc), "orders/red.yaml")
    assert checked.ok, [issue.format() for issue in checked.errors]
    # Red's hero learns 3rd observation: 1 + 3 = 4 falls short of stealth 2 plus the margin of 3.
    after["units"][red]["skills"].update({"rela": 15, "obse": 180})
    assert g.ruleset.faction_view(g, after, "red")["units"][hero]["owner"] is None
    # Advertising names it at once.
    after["units"][hero]["settings"]["advertise"] = True
    assert g.ruleset.faction_view(g, after, "red")["units"][hero]["owner"] == "blue"
    line = next(text for text in dict(report.sections(g, after, "red", []))["Places"] if f"[{hero}]" in text)
    assert "of blue" in line
    # Without its stealth, 1 + 3 passes 0 by 4: known without advertising.
    after["units"][hero]["settings"] = {"announce": True}
    after["units"][hero]["skills"] = {}
    assert g.ruleset.faction_view(g, after, "red")["units"][hero]["owner"] == "blue"
