"""Battle reports beyond the fighters' own (spectators.py, battle_lore.py): an onlooker's partial report of
what its units saw (spec §1.6.10, §7.3.2), kept to them in a sealed campaign, and the descriptions of the
races, skills and items a full report meets for the first time (§7.3.14), told once."""

from __future__ import annotations

import copy
import re
from typing import Any

from resolver.engine.ruleset import Game
from resolver.engine.turn import TurnResult
from resolver.rulesets.overlord import battle_lore, report, rulesdoc

from .test_warfare import FACTIONS, NAMES, game, put, run, setting

BATTLE_KINDS = ("battle", "battle_report", "battle_watched")


def attack(lead: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    return {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {lead['blue']}"]}]}


def green_watches(state: dict[str, Any], lead: dict[str, str], here: str) -> str:
    """Green's hero comes to the battlefield alone, on no side."""
    hero = lead["green"]
    put(state, hero, here, 4)
    for unit in state["units"].values():
        if unit.get("stack") == hero:
            unit["stack"] = None
    return hero


def kinds(result: TurnResult, kind: str) -> list[Any]:
    return [event for event in result.events if event.kind == kind]


def told(g: Game, event: Any) -> str:
    return g.ruleset.describe(event.to_data(), g)


def fighter_names(state: dict[str, Any], lead: dict[str, str]) -> set[str]:
    red_company = next(uid for uid, u in state["units"].items() if u.get("stack") == lead["red"])
    return {state["units"][uid]["name"] for uid in (lead["red"], lead["blue"], red_company)}


def test_an_onlooker_gets_a_partial_report_of_who_fought_and_who_won() -> None:
    g = game()
    state, lead, here = setting(g)
    green_watches(state, lead, here)
    result = run(g, state, attack(lead))
    [watched] = kinds(result, "battle_watched")
    assert watched.visible_to == ["green"] and watched.actors == ["green"] and watched.place == here
    assert watched.data["uid"] == lead["green"]  # told under the watching unit's deeds
    # The fighters had their full reports; no faction that fought is told it as an onlooker.
    assert sorted(e.visible_to[0] for e in kinds(result, "battle_report")) == ["blue", "red"]
    units = state["units"]
    red, blue = units[lead["red"]]["name"], units[lead["blue"]]["name"]
    lines = watched.data["lines"]
    assert lines[0].startswith(f"Attackers: {red}, 1 hero; ") and lines[1] == f"Defenders: {blue}, 1 hero."
    assert lines[2] == "The attackers win after 1 round." and lines[3] == f"Losses seen: {blue} falls."
    text = told(g, watched)
    assert text.startswith("From the side, The Green Wood watches a battle at ")
    # No blow by blow, no loot, no faction it could not recognise (a hero's observation is 1, short of the
    # stealth 0 + 3 recognition needs), no id, nothing left unfilled.
    for word in ("strikes at", "parries", "Round", "Loot", "sword", "The Empire", "Blue League"):
        assert word not in text, word
    assert not any(uid in text for uid in units) and "{" not in text and not re.search(r"\w_\w", text)
    # Green's report tells it among the watching hero's deeds of the month.
    seen = [e.to_data() for e in result.events if e.visible_to is None or "green" in e.visible_to]
    [(_, lines)] = [
        part for part in report.sections(g, result.state, "green", seen) if part[0] == "Your units"
    ]
    assert [line for line in lines if line.startswith("- Day 1 - From the side, The Green Wood watches")]


def test_an_onlooker_sees_no_hidden_fighter_and_names_the_factions_it_recognises() -> None:
    g = game()
    state, lead, here = setting(g)
    watcher = green_watches(state, lead, here)
    state["units"][lead["red"]]["skills"].update({"scou": 15, "stea": 180})  # 3rd stealth: stealth 3
    [hidden] = kinds(run(g, state, attack(lead)), "battle_watched")
    red_name = state["units"][lead["red"]]["name"]
    assert f"{red_name}, 1 hero" not in hidden.data["lines"][0]
    assert hidden.data["lines"][0].startswith(f"Attackers: {red_name}'s Company, 50 followers")
    # Sharper eyes (5th observation: +3, a hero's 4 in all) see the hidden hero and know the factions
    # of the units whose stealth they pass by three.
    state["units"][watcher]["skills"].update({"rela": 15, "obse": 450})
    [sharp] = kinds(run(g, state, attack(lead)), "battle_watched")
    attackers = sharp.data["lines"][0]
    empire = state["factions"]["red"]["name"]  # the name the faction's record keeps, as battles tell it
    assert f"Attackers: {red_name}, 1 hero; " in attackers
    assert f"{red_name}'s Company of {empire}, 50 followers" in attackers
    assert f"{red_name} of {empire}" not in attackers  # stealth 3 + 3 is past an observation of 4


def test_a_traveller_passing_through_watches_unless_the_rules_keep_travellers_out() -> None:
    g = game()
    state, lead, here = setting(g)
    hero = green_watches(state, lead, here)
    home = state["units"][lead["green"]]["worked"]["location"]
    away = next(loc for loc in g.world.locations if loc not in (here, home) and g.world[loc].parent is None)
    trip = {"from": away, "to": here, "mode": "walk", "days": 20, "done": 11, "order": "MOVE", "march": False}
    state["units"][hero]["moving"] = trip  # past half-way: it counts as in the place it goes to
    [watched] = kinds(run(g, state, attack(lead)), "battle_watched")
    assert watched.visible_to == ["green"] and watched.data["lines"][2] == "The attackers win after 1 round."
    rules = copy.deepcopy(g.rules)
    rules["battle_reports"]["spectators"]["passing"] = False
    kept_out = Game(g.campaign, g.name, g.seed, g.ruleset, rules, {}, g.world, FACTIONS, NAMES)
    assert kinds(run(kept_out, state, attack(lead)), "battle_watched") == []


def test_in_a_sealed_campaign_only_the_fighters_read_the_battle_and_onlookers_their_share() -> None:
    g = game()
    state, lead, here = setting(g)
    green_watches(state, lead, here)
    sealed = run(g, state, attack(lead), sealed=True)
    [fought] = kinds(sealed, "battle")
    assert fought.visible_to == ["blue", "red"]  # green stood there, but reads only its own report
    [watched] = kinds(sealed, "battle_watched")
    assert watched.visible_to == ["green"]
    seen_by_green = [e for e in sealed.events if e.visible_to is not None and "green" in e.visible_to]
    assert [e.kind for e in seen_by_green if e.kind in BATTLE_KINDS] == ["battle_watched"]
    # An open campaign publishes the battle, but an onlooker's report stays its own.
    opened = run(g, state, attack(lead))
    assert kinds(opened, "battle")[0].visible_to is None
    assert kinds(opened, "battle_watched")[0].visible_to == ["green"]


def test_in_a_sealed_campaign_a_faction_with_no_unit_there_learns_nothing_of_the_battle() -> None:
    g = game()
    state, lead, _ = setting(g)  # green stands far away
    sealed = run(g, state, attack(lead), sealed=True)
    quiet = run(g, state, {"red": []}, sealed=True)  # red sends orders, but no attack
    assert kinds(sealed, "battle") and not kinds(quiet, "battle")

    def greens(result: TurnResult) -> list[dict[str, Any]]:
        return [e.to_data() for e in result.events if "green" in (e.visible_to or [])]

    # What green is told for itself is the same, battle or none: not a word of it reaches green.
    assert greens(sealed) == greens(quiet)
    names = fighter_names(state, lead)
    public = [e for e in sealed.events if e.visible_to is None]
    assert not [e for e in public if e.kind in BATTLE_KINDS]
    assert not [e for e in public if any(name in told(g, e) for name in names)]
    seen = [e.to_data() for e in sealed.events if e.visible_to is None or "green" in e.visible_to]
    sections = report.sections(g, sealed.state, "green", seen)
    text = "\n".join(line for _, lines in sections for line in lines)
    assert not any(name in text for name in names)
    assert "battle" not in text.lower()


def test_a_full_report_describes_what_the_faction_meets_for_the_first_time_once() -> None:
    g = game()
    state, lead, here = setting(g)
    # Blue's company waits at the battlefield out of the fight, to be attacked next month.
    blue_company = next(
        uid for uid, u in sorted(state["units"].items()) if u["owner"] == "blue" and uid != lead["blue"]
    )
    put(state, blue_company, here, 5)
    state["units"][blue_company]["tactic"]["battle"] = "avoid"
    first = run(g, state, attack(lead))
    reports = {e.visible_to[0]: e for e in kinds(first, "battle_report")}
    described = reports["red"].data["described"]
    assert [line for line in described if line.startswith("hero [hero]: men risen to be heroes;")]
    assert [line for line in described if line.startswith("sword [swrd]: weight 4;")]
    assert [line for line in described if line.startswith("plate armor [plat]:")]
    assert [line for line in described if line.startswith("5th combat [cmbt]:")]
    assert "Met for the first time: hero [hero]" in told(g, reports["red"])
    assert reports["blue"].data["described"] == []  # blue's only fighter fell: no unit left to learn
    book = first.state["factions"]["red"]["knowledge"]
    assert {"hero", "man"} <= set(book["races"]) and book["skills"]["cmbt"] == 5
    assert {"swrd", "plat"} <= set(book["items"])
    # The month's knowledge report does not tell again what the battle described.
    [gained] = [e for e in kinds(first, "knowledge_gained") if e.visible_to == ["red"]]
    assert not {"swrd", "plat", "hrse"} & set(gained.data["items"])
    assert "cmbt" not in {entry[0] for entry in gained.data["skills"]}
    # Next month red attacks blue's company: nothing met before is described again.
    again = {"red": [{"action": "unit", "unit": lead["red"], "orders": [f"ATTACK {blue_company}"]}]}
    second = run(g, first.state, again)
    [red_again] = [e for e in kinds(second, "battle_report") if e.visible_to == ["red"]]
    assert red_again.data["won"] and not set(red_again.data["described"]) & set(described)
    assert not [line for line in red_again.data["described"] if line.startswith(("hero [", "follower ["))]


def test_a_terse_reader_gets_no_descriptions_and_learns_none() -> None:
    g = game()
    state, lead, _ = setting(g)
    state["factions"]["red"]["settings"] = {"terse": True}
    result = run(g, state, attack(lead))
    [red_report] = [e for e in kinds(result, "battle_report") if e.visible_to == ["red"]]
    assert red_report.data["terse"] and red_report.data["described"] == []
    assert "races" not in (result.state["factions"]["red"].get("knowledge") or {})


def test_a_race_is_described_from_the_rules_data() -> None:
    g = game()
    goblin = battle_lore.race_entry(g.rules, "gobl")
    assert goblin.startswith("goblin [gobl]: a creature race; a figure weighs 50; carries 60 walking;")
    assert "+1 stealth" in goblin and "upkeep 5 coins a month a figure" in goblin
    assert goblin.endswith("born with 1st combat.")
    assert battle_lore.race_entry(g.rules, "zomb").count("no upkeep") == 1
    record: dict[str, Any] = {}
    fighters = [{"race": "wolf", "figures": 3, "skills": {"cmbt": 15}, "items": {}, "equipped": {}}]
    first = battle_lore.describe_new(g.rules, record, fighters)
    assert first[0].startswith("wolf [wolf]:") and first[1].startswith("1st combat [cmbt]:")
    assert battle_lore.describe_new(g.rules, record, fighters) == []


def test_the_rules_pages_tell_who_hears_of_a_battle_from_the_rules_data() -> None:
    g = game()
    [combat] = [part for part in rulesdoc.sections(g.rules) if part.title == "Combat"]
    assert "battle_reports" in combat.keys and "## Battle reports" in combat.blocks
    told = " ".join(block for block in combat.blocks if isinstance(block, str))
    assert "standing in the place or passing through it" in told and "described once" in told
    rules = copy.deepcopy(g.rules)
    rules["battle_reports"]["spectators"]["passing"] = False
    [kept] = [part for part in rulesdoc.sections(rules) if part.title == "Combat"]
    assert "passing through" not in " ".join(block for block in kept.blocks if isinstance(block, str))
