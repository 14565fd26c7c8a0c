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
from resolver.rulesets.overlord import bot, executors, npcs
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
