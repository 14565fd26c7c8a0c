"""The overlord bot: every order it writes checks clean, its months are legal for every faction over half a
year, its queues use the manual's prefixes, its choices are deterministic, and the outlaws' and the
creatures' bands start next to the start cities and roam."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import yaml

from resolver.core.canonical import dump
from resolver.engine.turn import resolve_turn
from resolver.engine.validate import check_order_file
from resolver.rulesets.overlord import bot, bot_plans, executors, npcs
from resolver.rulesets.overlord import model as m

from .support import game, start

FOUR = ("red", "blue", "green", "gold")
MONTHS = 6


def _file(g: Any, state: dict[str, Any], faction: str) -> Any:
    """The bot's month for a faction, checked by the players' checker as it stands (nothing dropped)."""
    draft = bot.orders_for(g, state, faction)
    doc = {"campaign": g.campaign, "turn": int(state["turn"]), "faction": faction, "orders": draft["orders"]}
    for section in ("press", "rumors"):
        if draft.get(section):
            doc[section] = draft[section]
    npc = state["factions"][faction].get("kind") == "npc"
    return check_order_file(g, state, dump(doc), f"orders/{faction}.yaml", by_bot=npc), draft


def _campaign() -> tuple[Any, dict[str, Any]]:
    """A game of four player factions whose factions are the state's, NPCs included, as a campaign's are."""
    g = game(FOUR)
    state = start(g)
    return replace(g, factions=tuple(sorted(state["factions"]))), state


def _half_year() -> tuple[Any, list[tuple[int, str, Any, dict[str, Any]]]]:
    """Six months of four bot factions and the NPC bands: every file as checked, with its draft."""
    g, state = _campaign()
    seen = []
    for _ in range(MONTHS):
        files = {}
        for faction in sorted(state["factions"]):
            of, draft = _file(g, state, faction)
            seen.append((int(state["turn"]), faction, of, draft))
            if faction in FOUR:
                files[faction] = of
        result = resolve_turn(g, state, files)  # the engine plays the NPC factions with the same bot
        assert set(result.npc_orders) == {f for f in state["factions"] if f not in FOUR}
        for faction, of in result.npc_orders.items():
            assert (
                of.ok
                and (yaml.safe_load(of.raw)["orders"] or []) == bot.orders_for(g, state, faction)["orders"]
            )
        state = result.state
    return g, seen


HALF_YEAR = _half_year()


def test_every_order_the_bot_writes_checks_clean_for_every_faction_over_six_months() -> None:
    _, seen = HALF_YEAR
    assert {faction for _, faction, _, _ in seen} >= {*FOUR, "outlaws", "creatures"}
    for turn, faction, of, _ in seen:
        assert of.ok, (turn, faction, [issue.format() for issue in of.errors])
        assert not of.warnings, (turn, faction, [issue.format() for issue in of.warnings])


def test_the_bot_writes_only_orders_the_month_can_carry_out() -> None:
    _, seen = HALF_YEAR
    for _, _, _, draft in seen:
        for order in draft["orders"]:
            for text in order["orders"]:
                keyword = text.lstrip("-+@0123456789 ").split()[0]
                keyword = text.split()[1] if keyword.startswith("D") and keyword[1:].isdigit() else keyword
                assert keyword in executors.EXECUTORS, text


def test_the_bot_s_queues_use_the_manual_s_prefixes_and_its_purposeful_orders() -> None:
    _, seen = HALF_YEAR
    lines = [text for _, _, _, draft in seen for order in draft["orders"] for text in order["orders"]]
    keywords = {text.lstrip("-+@0123456789 ").split()[0] for text in lines}
    assert {"WITHDRAW", "BUY", "RECRUIT", "MOVE", "STANCE", "DAY", "WORK"} <= keywords
    assert "@WORK" in lines
    assert any(text.startswith("-MOVE Out") for text in lines), "a chain out of the city"
    assert any(text.startswith("--MOVE L") for text in lines), "a second link of the chain"
    assert any(text.startswith("RECRUIT ") and "nU01 " in text for text in lines), "a new unit hired"
    new_queues = [o for _, f, _, d in seen for o in d["orders"] if o["unit"] == f"{f}nU01"]
    assert new_queues and all(o["orders"] for o in new_queues), "the new unit gets its queue"


def test_the_bot_s_half_year_moves_trades_recruits_changes_stances_and_writes_press() -> None:
    _, seen = HALF_YEAR
    assert any(draft["press"] for _, _, _, draft in seen)
    assert any(draft["rumors"] for _, _, _, draft in seen)
    g, state = _campaign()
    kinds: set[str] = set()
    for _ in range(MONTHS):
        files = {f: _file(g, state, f)[0] for f in FOUR}
        result = resolve_turn(g, state, files)
        kinds |= {event.kind for event in result.events}
        state = result.state
    assert {"withdrew", "bought", "recruited", "departs", "arrives", "stance_changed", "press"} <= kinds


def test_the_bot_is_deterministic_and_leaves_the_state_alone() -> None:
    g = game(FOUR)
    state = start(g)
    before = copy.deepcopy(state)
    first = {f: bot.orders_for(g, state, f) for f in FOUR}
    again = {f: bot.orders_for(g, state, f) for f in reversed(FOUR)}
    assert first == again
    assert state == before


def test_a_queue_already_doing_the_plan_is_not_rewritten() -> None:
    g = game(FOUR)
    state = start(g)
    follower = next(uid for uid, u in m.owned(state, "red").items() if u["race"] == "man")
    planned = next(o["orders"] for o in bot.orders_for(g, state, "red")["orders"] if o["unit"] == follower)
    state["units"][follower]["orders"] = list(planned)
    assert all(o["unit"] != follower for o in bot.orders_for(g, state, "red")["orders"])


def test_a_hero_who_qualifies_claims_the_vacant_title_where_it_stands() -> None:
    g = game(FOUR)
    state = start(g)
    hero_id = next(uid for uid, u in m.owned(state, "red").items() if u["race"] == "hero")
    hero = state["units"][hero_id]
    where = hero["location"]
    title = state["places"][where].get("title")
    assert title and title["holder"] is None, "a start city has a vacant title"
    need = g.rules["titles"][title["tag"]]["requirement"]
    hero["skills"][need["skill"]] = m.skill_levels(g.rules, need["skill"])[need["level"] - 1]
    lines = next(o["orders"] for o in bot.orders_for(g, state, "red")["orders"] if o["unit"] == hero_id)
    assert f"CLAIM {title['tag']} {where} FREE" in lines
    assert lines.index(f"CLAIM {title['tag']} {where} FREE") > lines.index(
        next(t for t in lines if "WITHDRAW" in t)
    )
    files = {"red": _file(g, state, "red")[0]}
    result = resolve_turn(g, state, files)
    claimed = [e for e in result.events if e.kind == "title_claimed"]
    assert claimed and result.state["places"][where]["title"]["holder"] == hero_id


def test_the_outlaws_and_creatures_start_next_to_the_start_cities_and_roam() -> None:
    g = game(FOUR)
    state = start(g)
    starts = {u["location"] for u in state["units"].values() if u["owner"] in FOUR}
    homes = {npcs.home_territory(g.world, place) for place in starts}
    bands = {uid: u for uid, u in state["units"].items() if u["owner"] in ("outlaws", "creatures")}
    assert {u["owner"] for u in bands.values()} == {"outlaws", "creatures"}
    for unit in bands.values():
        assert unit["location"] not in homes
        assert any(unit["location"] in g.world.neighbours(home) for home in homes)
    assert all(
        u["items"].get("coin", 0) > 0 for u in bands.values() if u["stack"] is None and u["race"] != "ldr"
    )
    moved = set()
    for turn in range(1, MONTHS + 1):
        state["turn"] = turn
        for faction in ("outlaws", "creatures"):
            for order in bot.orders_for(g, state, faction)["orders"]:
                moved |= {order["unit"] for text in order["orders"] if text.startswith("MOVE ")}
    assert moved and moved <= set(bands)


def test_the_bot_s_order_file_reads_back_as_yaml_with_the_manual_s_lines() -> None:
    g = game(FOUR)
    state = start(g)
    of, draft = _file(g, state, "red")
    text = yaml.safe_load(of.raw)
    assert text["orders"] == draft["orders"]


# --- arms, titles, teaching, sales, guards, and the NPC posts ------------------------------------------


def _lines(g: Any, state: dict[str, Any], faction: str, unit_id: str) -> list[str]:
    return next(o["orders"] for o in bot.orders_for(g, state, faction)["orders"] if o["unit"] == unit_id)


def _hero_and_company(state: dict[str, Any], faction: str) -> tuple[str, str]:
    hero = next(
        uid for uid, u in sorted(state["units"].items()) if u["owner"] == faction and u["race"] == "hero"
    )
    company = next(
        uid for uid, u in sorted(state["units"].items()) if u["owner"] == faction and u["stack"] == hero
    )
    return hero, company


def test_followers_wear_swords_only_once_they_know_blades() -> None:
    """The chain waits for 1st blades, then for the swords; over half a year no EQUIP of a sword fails."""
    g, state = _campaign()
    _, company = _hero_and_company(state, "red")
    lines = _lines(g, state, "red", company)
    assert lines[lines.index("SKILL blde 1") :][:3] == ["SKILL blde 1", "-HAVE swrd", "--EQUIP swrd"]
    for _ in range(MONTHS):
        files = {f: _file(g, state, f)[0] for f in FOUR}
        result = resolve_turn(g, state, files)
        failed = [
            e.data for e in result.events if e.kind == "line_failed" and "EQUIP swrd" in e.data["order"]
        ]
        assert not failed, failed
        state = result.state


def test_swords_are_bought_only_for_followers_who_know_combat() -> None:
    g, state = _campaign()
    hero, company = _hero_and_company(state, "red")
    city = state["units"][hero]["location"]
    state["places"][city]["market"]["sell"]["swrd"] = {"count": 30, "price": 100}
    state["places"][city]["recruits"]["man"]["count"] = 0  # nothing else to spend on
    assert not any("swrd" in t and "BUY" in t for t in _lines(g, state, "red", hero))
    state["units"][company]["skills"]["cmbt"] = 15
    lines = _lines(g, state, "red", hero)
    assert any(t.startswith("BUY ") and " swrd " in t for t in lines)
    assert f"-GIVE {company} swrd 20" in lines


def test_a_qualified_hero_claims_the_nearest_vacant_title_and_keeps_it() -> None:
    """Qualified and with the fee, the hero claims the nearest vacant Sheriff or Mayor (going there first
    when it lies away: a chain of MOVEs ending in CLAIM) and stays; its followers then guard it."""
    g, state = _campaign()
    state["factions"]["red"]["fund"] = 20000
    hero, company = _hero_and_company(state, "red")
    state["units"][hero]["skills"]["cmbt"] = 45
    lines = _lines(g, state, "red", hero)
    claim = next(t for t in lines if "CLAIM " in t)
    tag, where = claim.lstrip("-").split()[1:3]
    if where != state["units"][hero]["location"]:
        assert claim.startswith("-") and any(t.lstrip("-").startswith("MOVE ") for t in lines)
    holder = None
    for _ in range(3):
        result = resolve_turn(g, state, {"red": _file(g, state, "red")[0]})
        state = result.state
        holder = state["places"][where]["title"]["holder"]
        if holder:
            break
    assert holder == hero and state["units"][hero]["title"] == {"tag": tag, "location": where}
    state["units"][company]["skills"]["cmbt"] = 15
    assert "@GUARD" in bot_plans._follower_queue(bot_plans.Plan(g, state, "red"), state["units"][company])
    assert not any(t.lstrip("-").startswith("MOVE") for t in _lines(g, state, "red", hero))
    result = resolve_turn(g, state, {"red": _file(g, state, "red")[0]})
    assert result.state["places"][where]["title"]["holder"] == hero, "the holder stays and keeps it"


def test_a_hero_teaches_its_company_a_skill_it_knows_better_and_sells_its_horse() -> None:
    g, state = _campaign()
    hero, company = _hero_and_company(state, "red")
    state["units"][hero]["skills"].update({"cmbt": 15})
    state["units"][company]["skills"].update({"cmbt": 15})
    state["units"][hero]["skills"]["blde"] = 15
    lines = _lines(g, state, "red", hero)
    assert f"10 TEACH {company} blde" in lines
    city = state["units"][hero]["location"]
    price = state["places"][city]["market"]["buy"]["hrse"]["price"]
    assert f"SELL 1 hrse {price}" in lines, "a hero leading followers on foot has no use for its horse"


def test_the_emperor_guards_and_militia_stand_at_their_posts_and_go_back() -> None:
    g, state = _campaign()
    posted = {uid: u for uid, u in state["units"].items() if u.get("home")}
    emperor = next(uid for uid, u in posted.items() if u["title"])
    seat = posted[emperor]["location"]
    assert posted[emperor]["owner"] == "imperials" and state["places"][seat]["title"] == {
        "tag": "ovlr",
        "holder": emperor,
    }
    assert g.world[g.world[seat].parent].region == "capital"
    guards = [uid for uid, u in posted.items() if u["owner"] == "imperials" and u["figures"] > 1]
    militia = [uid for uid, u in posted.items() if u["owner"] == "citizens"]
    assert guards and militia
    assert all(g.world[posted[uid]["location"]].region == "capital" for uid in guards)
    assert all(g.world[g.world[posted[uid]["location"]].parent].region == "imperial" for uid in militia)
    for faction in ("imperials", "citizens"):
        for order in bot.orders_for(g, state, faction)["orders"]:
            assert order["orders"] in (["@GUARD"], ["@WORK"])
    guard = guards[0]
    home = posted[guard]["location"]
    away = next(
        t for t in g.world.neighbours(home) if g.world[t].parent is None and g.world[t].terrain != "mountains"
    )
    state["units"][guard]["location"] = away
    lines = _lines(g, state, "imperials", guard)
    assert lines[-1].lstrip("-") == f"MOVE {home}"
    result = resolve_turn(g, state, {})
    guarding = [
        e for e in result.events if e.kind == "departs" and e.data.get("unit") == posted[guard]["name"]
    ]
    assert guarding, "the guard sets out for its post"


def test_followers_in_a_city_study_on_the_fund() -> None:
    """A follower unit with no coins studies in its city on the faction's fund (the month's city test)."""
    g, state = _campaign()
    hero, company = _hero_and_company(state, "red")
    assert not state["units"][company]["items"].get("coin")
    orders = [
        {"action": "unit", "unit": company, "orders": ["STUDY cmbt 1"]},
        {"action": "unit", "unit": hero, "orders": []},
    ]
    from .support import order_file

    result = resolve_turn(g, state, {"red": order_file(g, state, "red", orders)})
    assert result.state["units"][company]["skills"].get("cmbt", 0) >= 15
    assert result.state["factions"]["red"]["fund"] < state["factions"]["red"]["fund"]
