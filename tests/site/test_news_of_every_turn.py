"""The newspaper tells the season's story (issue 22): a turn with a battle is never "All quiet", on any page
that prints a turn's news (its issue, the home page's latest news, the chronicle's "In brief", the pages'
descriptions and the feed), in every ruleset; and seasons has a headline for each of the deeds its
readers follow: invasions and the Piorad's raid, battles, sieges, provinces taken, loot, a Marshal's death,
a legendary weapon, war, an enforced peace and a collapse of the will to fight."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from resolver.engine.ruleset import RULESETS, Game
from resolver.store.store import Store

from .demo import DemoSite, bot_demo_site
from .test_headlines_follow_outcomes import battles, played

QUIET = "All quiet"
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module", params=list(RULESETS))
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / request.param, request.param)


def page(public: Path, path: str) -> str:
    return html.unescape((public / path / "index.html").read_text(encoding="utf-8"))


def description(text: str) -> str:
    found = re.search(r'<meta name="description" content="([^"]*)"', text)
    assert found, "the page has no description"
    return found.group(1)


def feed_entries(public: Path) -> dict[int, str]:
    """Each turn's feed entry, title and content, by turn."""
    entries = {}
    for entry in ET.parse(public / "feed.xml").getroot().iter(f"{ATOM}entry"):
        found = re.search(r"/turn/(\d+)$", entry.findtext(f"{ATOM}id") or "")
        if found:
            entries[int(found.group(1))] = (
                f"{entry.findtext(f'{ATOM}title')} {entry.findtext(f'{ATOM}content')}"
            )
    return entries


def test_a_turn_with_a_battle_is_never_all_quiet_anywhere_on_the_site(demo: DemoSite) -> None:
    game, turns = played(demo)
    feed = feed_entries(demo.public)
    last = turns[-1][0]
    fought = 0
    for turn, events in turns:
        if not battles(game, events):
            continue
        fought += 1
        issue = page(demo.public, f"newspaper/turn-{turn}")
        chronicle = page(demo.public, f"chronicle/turn-{turn}")
        brief = chronicle.split("In brief", 1)
        assert len(brief) == 2, f"the chronicle of turn {turn} has no 'In brief'"
        where = {
            "its newspaper issue": issue,
            "its issue's description": description(issue),
            "the chronicle's In brief": brief[1][:2000],
            "the chronicle's description": description(chronicle),
            "the feed": feed[turn],
        }
        if turn == last:
            where["the home page"] = page(demo.public, ".")
        for what, text in where.items():
            assert QUIET not in text, f"{demo.root.name}: turn {turn} had a battle, and {what} says '{QUIET}'"
    assert fought, f"the {demo.root.name} demo fought no battle"


@pytest.fixture(scope="module")
def seasons_year(tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    """Two years of the seasons demo: two winters of the Piorad's raid, and a fall of sieges only."""
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / "seasons-8", "seasons", turns=8)


def test_no_turn_of_the_seasons_demo_is_all_quiet(seasons_year: DemoSite) -> None:
    """Each season of the demo brings war, a siege, a raid or a muster: the newspaper has news every turn."""
    store = Store(seasons_year.root)
    assert len(store.archived_turns()) == 8
    quiet = [
        turn
        for turn in store.archived_turns()
        if QUIET in page(seasons_year.public, f"newspaper/turn-{turn}")
    ]
    assert not quiet, f"turns {quiet} of the seasons demo read '{QUIET}'"


def event(
    kind: str, actors: list[str], place: str | None = None, phase: str = "", **data: Any
) -> dict[str, Any]:
    return {
        "kind": kind,
        "actors": actors,
        "place": place,
        "phase": phase,
        "data": data,
        "visibility": "public",
    }


def news(game: Game, one: dict[str, Any]) -> set[str]:
    found = game.ruleset.headline_options(one, game)
    return set(found[1]) if found else set()


def test_seasons_has_a_headline_for_every_deed_its_readers_follow(seasons_year: DemoSite) -> None:
    store = Store(seasons_year.root)
    game = store.game()
    nations = [f for f in game.factions if f not in ("piorad", "alweg")]
    red, blue = nations[0], nations[1]
    province = next(iter(game.world.locations))
    where = game.place_label(province)
    fort = "the fort"
    deeds: dict[str, dict[str, Any]] = {
        "invasion": event("invaded", [red, blue], province, "spring_invade"),
        "the Piorad's raid": event("invaded", ["piorad", blue], province, "winter_piorad_invade"),
        "a battle won": event("battle", [red, blue], province, winner=red, loser=blue, rounds=2),
        "a battle lost": event("battle", [red, blue], province, winner=blue, loser=red, rounds=2),
        "a province taken": event("province_taken", [red, blue], province),
        "a siege laid": event("into_the_fort", [blue, red], province, siege=True),
        "a siege that goes on": event("siege", [red, blue], province, attacker_units=3, defender_units=2),
        "a siege ended": event("siege_ended", [red, blue], province, winner=red),
        "loot": event("loot", ["piorad"], province, resources=2),
        "the Piorad's withdrawal": event("piorad_withdraw", ["piorad"], province),
        "a Marshal's death in winter": event(
            "leader_check", [red], None, died=True, rank="marshal", commander_name="Osric"
        ),
        "a Marshal's death in battle": event(
            "marshal_fate", [red], None, result="died", commander_name="Osric"
        ),
        "a legendary weapon": event("weapon", [red], None, bearer=f"{red}-marshal", bearer_name="Osric"),
        "a legendary weapon taken from the dead": event(
            "weapon_passed", [red], None, bearer_name="Osric", taker=f"{blue}-marshal", taker_name="Wulf"
        ),
        "war declared": event("war_begins", [red, blue]),
        "an enforced peace": event(
            "diplomacy", [red, blue], None, stance="dominating", result="tribute", peace=True
        ),
        "a collapse of the will to fight": event("will_to_fight", [blue], None, result="disaster", morale=2),
    }
    missing = [deed for deed, one in deeds.items() if not news(game, one)]
    assert not missing, f"no headline for: {', '.join(missing)}"
    # Words follow the deed: the raid is a raid, a siege names its place, a death says so.
    assert all("raid" in line.lower() for line in news(game, deeds["the Piorad's raid"]))
    assert not any("raid" in line.lower() for line in news(game, deeds["invasion"]))
    for deed in ("a siege laid", "a siege that goes on", "loot"):
        assert all(where in line for line in news(game, deeds[deed])), deed
    assert all("dies" in line for line in news(game, deeds["a Marshal's death in battle"]))
    assert all("peace" in line for line in news(game, deeds["an enforced peace"]))
    assert all(fort not in line for line in news(game, deeds["a siege laid"]))
    # What did not happen is not news: a siege that ended this season, a visit with no result, nothing looted.
    assert not news(game, event("siege", [red, blue], province, attacker_units=0, defender_units=2))
    assert not news(game, event("diplomacy", [red, blue], None, stance="intimidating", result="no_result"))
    assert all("loots" not in line for line in news(game, event("loot", [red], province, resources=0)))
