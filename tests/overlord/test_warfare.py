"""Battles in the month (warfare.py): ATTACK, Enemy on sight, AVOID, a MARCH's fate, titles of the fallen,
heroes, the battle's words and the determinism of its dice."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from resolver.core import canonical
from resolver.core.dice import Dice, TurnSeed
from resolver.engine.context import TurnContext
from resolver.engine.ruleset import Game, get_ruleset
from resolver.engine.turn import TurnResult, resolve_turn
from resolver.rulesets.overlord import control, guards, warfare
from resolver.rulesets.overlord.month import Month

from .support import order_file, start

FACTIONS = ("red", "blue", "green")
NAMES = {"red": "The Empire", "blue": "The Blue League", "green": "The Green Wood"}
STRONG = {"cmbt": 225, "blde": 225}


def game() -> Game:
    ruleset = get_ruleset("overlord")
    data = ruleset.default_rules()
    world = ruleset.generate_world(5, data, len(FACTIONS))
    return Game("overlord-test", "Overlord test", 5, ruleset, data, {}, world, FACTIONS, NAMES)


def heroes(state: dict[str, Any]) -> dict[str, str]:
    return {u["owner"]: uid for uid, u in sorted(state["units"].items()) if u["race"] == "hero"}


def company(state: dict[str, Any], hero: str) -> str:
    return next(uid for uid, u in sorted(state["units"].items()) if u.get("stack") == hero)


def put(state: dict[str, Any], uid: str, where: str, arrival: int) -> None:
    unit = state["units"][uid]
    unit["location"], unit["arrival"] = where, arrival
    unit["worked"] = {"location": where, "days": 0}


def setting(g: Game) -> tuple[dict[str, Any], dict[str, str], str]:
    """Red's hero, armed and trained, and his company stand where blue's hero stands alone with four
    swords in his pack; blue's company waits at home, green far away."""
    state = start(g)
    lead = heroes(state)
    here = state["units"][lead["red"]]["location"]
    # Colonial starts share a city (three factions a city): send blue's company and green home elsewhere.
    home = g.world[here].parent
    away = [loc for loc, place in g.world.locations.items() if place.parent is None and loc != home]
    for uid, unit in state["units"].items():
        if unit["owner"] == "green" or (unit["owner"] == "blue" and uid != lead["blue"]):
            put(state, uid, away[0] if unit["owner"] == "blue" else away[-1], unit["arrival"])
            if unit.get("stack") == lead["blue"]:
                unit["stack"] = None  # left behind by its hero
    put(state, lead["blue"], here, 3)
    red = state["units"][lead["red"]]
    red["skills"] = dict(STRONG)
    red["items"].update({"plat": 1})
    red["equipped"].update({"swrd": 1, "plat": 1})
    blue = state["units"][lead["blue"]]
    blue["items"], blue["equipped"] = {"swrd": 4}, {}
    return state, lead, here


def run(g: Game, state: dict[str, Any], orders: dict[str, list[dict[str, Any]]], **forced: Any) -> TurnResult:
    files = {faction: order_file(g, state, faction, given) for faction, given in orders.items()}
    for of in files.values():
        assert of.ok, [issue.format() for issue in of.errors]
    return resolve_turn(g, copy.deepcopy(state), files, **forced)


def battles(result: TurnResult) -> list[Any]:
    return [e for e in result.events if e.kind == "battle"]


def swords(state: dict[str, Any], faction: str) -> int:
    return sum(int(u["items"].get("swrd", 0)) for u in state["units"].values() if u["owner"] == faction)


def test_an_attack_has_a_winner_and_its_losses_loot_and_experience_go_into_the_state() -> None:
    g = game()
    state, lead, here = setting(g)
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}
    result = run(g, state, attack)
    after = result.state["units"]
    [fought] = battles(result)
    assert fought.tick == 1 and fought.place == here and fought.actors == ["red", "blue"]
    assert fought.data["winner"] == "red" and fought.data["trigger"] == "attack"
    assert lead["blue"] not in after  # the lone hero fell
    assert swords(result.state, "red") == 1 + 4 * g.rules["combat"]["loot_share"] // 100
    assert after[lead["red"]]["skills"]["cmbt"] > STRONG["cmbt"]  # a day of combat a round at least
    assert after[lead["red"]]["orders"] == []  # the ATTACK completed
    reports = {e.visible_to[0]: e for e in result.events if e.kind == "battle_report"}
    assert sorted(reports) == ["blue", "red"]
    assert reports["red"].data["won"] and not reports["blue"].data["won"]


def test_the_battle_is_told_in_names_with_its_winner_and_losses() -> None:
    g = game()
    state, lead, _ = setting(g)
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}
    result = run(g, state, attack)
    [fought] = battles(result)
    red_name, blue_name = state["units"][lead["red"]]["name"], state["units"][lead["blue"]]["name"]
    told = g.ruleset.describe(fought.to_data(), g)
    assert told.startswith("On day 1 at ") and f"{red_name} of The Empire attacks {blue_name}" in told
    assert "The Empire wins after" in told
    # The sentence stays short; the losses and the loot are the chronicle's list under it, a line each.
    assert "falls" not in told and "swords" not in told
    story = g.ruleset.story(fought.to_data(), g, state, result.state)
    assert f"{blue_name} falls." in story
    assert [line for line in story if line.startswith(f"Loot for {red_name}: ") and "2 swords" in line]
    assert not any(uid in line for line in story for uid in state["units"]), story
    for event in result.events:
        if event.kind in ("battle", "battle_report"):
            text = g.ruleset.describe(event.to_data(), g)
            assert "{" not in text and not any(uid in text for uid in state["units"]), text
    headline = g.ruleset.headline(fought.to_data(), g, 1)
    assert headline is not None and "The Empire" in headline[1] and "beats off" not in headline[1]


def test_in_a_sealed_campaign_the_battle_is_seen_by_the_factions_present_only() -> None:
    g = game()
    state, lead, _ = setting(g)
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}
    sealed = run(g, state, attack, sealed=True)
    [fought] = battles(sealed)
    assert fought.visible_to == ["blue", "red"]
    assert battles(run(g, state, attack))[0].visible_to is None  # an open campaign's battles are public


def test_a_terse_faction_gets_a_summary_without_melee_and_parry() -> None:
    g = game()
    state, lead, _ = setting(g)
    state["factions"]["blue"]["settings"] = {"terse": True}
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}
    result = run(g, state, attack)
    reports = {e.visible_to[0]: e.data for e in result.events if e.kind == "battle_report"}
    assert reports["blue"]["terse"] and not reports["red"]["terse"]
    assert any("strikes at" in line for line in reports["red"]["lines"])
    assert not any("strikes at" in line or "parries" in line for line in reports["blue"]["lines"])


def test_an_enemy_seen_is_attacked_and_the_newcomer_attacks_when_both_are_enemies() -> None:
    g = game()
    state, _, _ = setting(g)
    state["factions"]["red"]["stances"]["blue"] = "enemy"
    state["factions"]["blue"]["stances"]["red"] = "enemy"
    result = run(g, state, {})
    first = battles(result)[0]
    # Blue's hero came later to red's place (arrival 3 after red's 1 and 2): blue attacks.
    assert first.tick == 1 and first.data["trigger"] == "enemy" and first.actors == ["blue", "red"]
    # Only red holds blue Enemy: red attacks.
    state["factions"]["blue"]["stances"]["red"] = "neutral"
    first = battles(run(g, state, {}))[0]
    assert first.actors == ["red", "blue"] and first.data["trigger"] == "enemy"


def test_avoid_keeps_a_unit_out_of_battles_and_out_of_attacking_on_sight() -> None:
    g = game()
    state, lead, _ = setting(g)
    guard = company(state, lead["red"])
    state["units"][guard]["tactic"]["battle"] = "avoid"
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}
    result = run(g, state, attack)
    [fought] = battles(result)
    assert state["units"][guard]["name"] not in fought.data["attackers"]
    assert result.state["units"][guard]["figures"] == state["units"][guard]["figures"]
    # Red holds blue Enemy, but every red unit there avoids battle: nobody attacks on sight.
    for uid in (lead["red"], guard):
        state["units"][uid]["tactic"]["battle"] = "avoid"
    state["factions"]["red"]["stances"]["blue"] = "enemy"
    assert battles(run(g, state, {})) == []


def test_tactic_and_combat_orders_set_the_unit_s_battle_settings() -> None:
    g = game()
    state, lead, _ = setting(g)
    lines = ["TACTIC DEFEND REAR LEFT SUPPORT", "COMBAT PARRY lbow"]
    result = run(g, state, {"red": [{"action": "unit", "unit": lead["red"], "orders": lines}]})
    unit = result.state["units"][lead["red"]]
    assert unit["tactic"] == {"battle": "defend", "rank": "rear", "file": "left", "move": "support"}
    assert unit["combat"] == ["parry", "lbow"] and unit["orders"] == []
    # The checker refuses a bad TACTIC at its line and column; one already in a queue is dropped at run time.
    refused = order_file(
        g, state, "red", [{"action": "unit", "unit": lead["red"], "orders": ["TACTIC FIGHT UP"]}]
    )
    assert not refused.ok and "'UP' is not one of FRONT, MIDDLE, REAR" in refused.errors[0].format()
    state["units"][lead["red"]]["orders"] = ["TACTIC FIGHT UP"]
    bad = run(g, state, {})
    assert bad.state["units"][lead["red"]]["tactic"] == state["units"][lead["red"]]["tactic"]
    assert [e.data["order"] for e in bad.events if e.kind == "line_failed"] == ["TACTIC FIGHT UP"]


def _label(lead: dict[str, str], here: str, day: int = 1) -> str:
    return f"t1/tick{day}/battle/{here}/{lead['red']}/{lead['blue']}"


def test_a_slain_title_holder_s_title_passes_to_a_winner_able_to_claim_it() -> None:
    g = game()
    state, lead, here = setting(g)
    state.setdefault("places", {}).setdefault(here, {})["title"] = {"tag": "shrf", "holder": lead["blue"]}
    state["units"][lead["blue"]]["title"] = {"tag": "shrf", "location": here}
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}
    label = _label(lead, here)
    kept = run(g, state, attack, forced_rolls={f"{label}/title/{lead['blue']}/lost": [100]})
    assert kept.state["places"][here]["title"]["holder"] == lead["red"]
    assert kept.state["units"][lead["red"]]["title"] == {"tag": "shrf", "location": here}
    [fought] = battles(kept)
    assert fought.data["titles"][0]["heir"] == state["units"][lead["red"]]["name"]
    lost = run(g, state, attack, forced_rolls={f"{label}/title/{lead['blue']}/lost": [1]})
    assert lost.state["places"][here]["title"]["holder"] is None
    assert lost.state["units"][lead["red"]]["title"] is None


def test_a_leader_who_survives_a_battle_may_become_a_hero() -> None:
    g = game()
    state, lead, here = setting(g)
    state["units"][lead["red"]]["race"] = "ldr"
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}
    promoted = run(g, state, attack, forced_rolls={f"{_label(lead, here)}/{lead['red']}/hero": [1]})
    assert promoted.state["units"][lead["red"]]["race"] == "hero"
    assert battles(promoted)[0].data["promoted"] == [state["units"][lead["red"]]["name"]]
    passed = run(g, state, attack, forced_rolls={f"{_label(lead, here)}/{lead['red']}/hero": [100]})
    assert passed.state["units"][lead["red"]]["race"] == "ldr"


def test_the_same_month_gives_the_same_bytes_and_a_battle_elsewhere_leaves_this_one_alone() -> None:
    g = game()
    state, lead, here = setting(g)
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}

    def dump(result: TurnResult) -> bytes:
        events = [e.to_data() for e in result.events]
        return canonical.dump({"state": result.state, "events": events})  # the bytes the archive writes

    assert dump(run(g, state, attack)) == dump(run(g, state, attack))
    alone = run(g, state, attack)
    # Green comes to blue's home, where blue's company waits, and holds blue Enemy: a second battle.
    blue_company = next(
        u for uid, u in sorted(state["units"].items()) if u["owner"] == "blue" and uid != lead["blue"]
    )
    elsewhere = blue_company["location"]
    for uid, unit in state["units"].items():
        if unit["owner"] == "green":
            put(state, uid, elsewhere, 5 + int(unit["arrival"]))
    state["factions"]["green"]["stances"]["blue"] = "enemy"
    both = run(g, state, attack)
    # Green attacks on sight every day both stand there; red's attack is fought once, on day 1.
    assert {e.place for e in battles(both) if e.tick == 1} == {here, elsewhere}
    assert {e.actors[0] for e in battles(both) if e.place == elsewhere} == {"green"}

    def at_here(result: TurnResult) -> list[Any]:
        return [
            e.to_data() for e in result.events if e.kind in ("battle", "battle_report") and e.place == here
        ]

    assert at_here(alone) == at_here(both)


# ---------------------------------------------------------------- a MARCH into a guarded place


def _month(g: Game, state: dict[str, Any], day: int) -> Month:
    ctx: TurnContext[Any] = TurnContext(
        game=g,
        turn=1,
        date=g.calendar.date(1),
        dice=Dice(TurnSeed(g.seed, 1, {})),
        orders={},
        posting_order=[],
        memory=g.ruleset.turn_memory(),
        tick=day,
    )
    return Month(ctx, state)


def _marching(g: Game, red_strong: bool) -> tuple[Month, dict[str, str], str, str]:
    state = start(g)
    lead = heroes(state)
    origin = state["units"][lead["red"]]["location"]
    there = state["units"][lead["blue"]]["location"]
    trip = {
        "from": origin,
        "to": there,
        "mode": "walk",
        "days": 6,
        "done": 3,
        "order": "MARCH",
        "march": True,
    }
    for uid in (lead["red"], company(state, lead["red"])):
        state["units"][uid].update(location=there, moving=dict(trip), arrival=9)
    strong, weak = (lead["red"], lead["blue"]) if red_strong else (lead["blue"], lead["red"])
    state["units"][strong]["skills"] = dict(STRONG)
    state["units"][weak]["equipped"] = {}
    for uid in (company(state, lead["red"]), company(state, lead["blue"])):
        state["units"][uid]["tactic"]["battle"] = "avoid"
    month = _month(g, state, 4)
    guards.start_battle(month, lead["red"], lead["blue"], "march")
    return month, lead, origin, there


def test_a_march_that_wins_goes_on_into_the_place() -> None:
    g = game()
    month, lead, _, there = _marching(g, red_strong=True)
    [result] = warfare.fight_battles(month)
    assert result.winner == "attackers"
    red = month.state["units"][lead["red"]]
    assert red["location"] == there and red["moving"]["order"] == "MARCH" and red["moving"]["to"] == there


def test_a_march_that_loses_turns_back_the_way_it_came() -> None:
    g = game()
    month, _, origin, _ = _marching(g, red_strong=False)
    [result] = warfare.fight_battles(month)
    assert result.winner == "defenders"
    units = month.state["units"]
    walking = [uid for uid, u in units.items() if u["owner"] == "red" and u.get("moving")]
    assert walking and all(units[uid]["moving"]["to"] == origin for uid in walking)
    assert all(
        units[uid]["moving"]["order"] == "RETREAT" and units[uid]["moving"]["days"] == 3 for uid in walking
    )
    turned = [e for e in month.ctx.events if e.kind == "turns_back"]
    assert turned and "beaten back in battle" in g.ruleset.describe(turned[0].to_data(), g)


def test_every_roll_of_a_month_with_a_battle_belongs_to_the_event_it_decided() -> None:
    """The battle's dice ride on its event and the weather's on the month's forecast, so the compact log
    folds them under their event and the chronicle shows them in its dice box: none is left unattached."""
    g = game()
    state, lead, _ = setting(g)
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}
    result = run(g, state, attack)
    [fought] = battles(result)
    assert fought.rolls and all("/battle/" in str(roll.label) for roll in fought.rolls)
    [weather] = [e for e in result.events if e.kind == "weather_drawn"]
    territories = [loc for loc in g.world if g.world[loc].parent is None]
    assert len(weather.rolls) >= len(territories) and weather.visible_to is None
    assert all("/weather/" in str(roll.label) for roll in weather.rolls)
    told = g.ruleset.describe(weather.to_data(), g)
    assert told.startswith("At the month's end the weather is foreseen for ") and "{" not in told, told
    assert sum(int(sky.split(" in ")[1].split()[0]) for sky in weather.data["skies"]) == len(territories)
    assert result.events_data()["unattached_rolls"] == []


def test_a_unit_refusing_battle_is_told_to_its_faction_alone_with_its_roll(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red is far over its control points on the battle day (the day-1 check kept out of the way): red's
    company, stacked under the attacking hero, refuses to join; red alone hears of it, and the refusal's
    die rides on that private event, not on the public battle."""
    monkeypatch.setattr(control, "missing", lambda state, rules, faction: 20 if faction == "red" else 0)
    monkeypatch.setattr(control, "control_check", lambda ctx, state, rules: {})
    g = game()
    state, lead, _ = setting(g)
    follower = company(state, lead["red"])
    attack = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}
    result = run(g, state, attack)
    [fought] = battles(result)
    follower_name = state["units"][follower]["name"]
    assert follower_name not in fought.data["attackers"]
    assert not any("battle-refusal" in str(roll.label) for roll in fought.rolls)
    [refusal] = [e for e in result.events if e.kind == "battle_refusals"]
    assert refusal.visible_to == ["red"] and refusal.data["refused"] == [follower_name]
    assert [str(roll.label).split("/")[-1] for roll in refusal.rolls] == [follower]
    told = g.ruleset.describe(refusal.to_data(), g)
    assert f"The Empire sees {follower_name} refuse to join the battle" in told, told
    assert result.events_data()["unattached_rolls"] == []


def test_the_story_under_a_battle_tells_titles_heroes_and_loot_a_line_each() -> None:
    g = game()
    event = {
        "kind": "battle",
        "data": {
            "losses": ["Old Tom falls", "The Red Band loses 3 followers"],
            "titles": [{"title": "Sheriff", "where": "Wolaholm", "fallen": "Old Tom", "heir": None}],
            "promoted": ["Young Ann"],
            "loot": [
                {"unit": "The Red Band", "goods": "2 swords"},
                {"unit": "Young Ann", "goods": "40 coins"},
                {"unit": "The Red Band", "goods": "1 horse"},
            ],
        },
    }
    assert g.ruleset.story(event, g, {}, {}) == [
        "Old Tom falls.",
        "The Red Band loses 3 followers.",
        "Old Tom was Sheriff of Wolaholm: the title stands vacant.",
        "Young Ann rises to be a hero.",
        "Loot for The Red Band: 2 swords, 1 horse.",
        "Loot for Young Ann: 40 coins.",
    ]
    assert g.ruleset.story({**event, "kind": "battle_report"}, g, {}, {}) == []
