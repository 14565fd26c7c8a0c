"""The overlord site: the rules pages name every order and every skill of the data, a month's chronicle is
told day by day, the map draws places inside their territories with the titles held there, a faction's
profile tells its titles, and a sealed campaign's site shows no unit."""

from __future__ import annotations

import contextlib
import copy
import html
import io
from pathlib import Path

import pytest

from resolver.cli import main
from resolver.core.phases import State
from resolver.engine.ruleset import get_ruleset
from resolver.publish.history import TurnRecord, load_history
from resolver.publish.maps import map_data
from resolver.publish.pages import SitePages
from resolver.publish.site import build_site
from resolver.rulesets.overlord import language, rulesdoc, siteview
from resolver.store import sealing
from resolver.store.store import Store

TURNS = 2


def demo(root: Path, *extra: str) -> Path:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["demo", "--ruleset", "overlord", "--turns", str(TURNS), "--root", str(root), *extra])
    sealing.forget_key()
    assert code == 0, out.getvalue()
    return root


@pytest.fixture(scope="module")
def open_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = demo(tmp_path_factory.mktemp("overlord-site") / "open")
    build_site(root, run_mkdocs=False)
    return root


@pytest.fixture(scope="module")
def sealed_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = demo(tmp_path_factory.mktemp("overlord-site") / "sealed", "--sealed")
    build_site(root, run_mkdocs=False)
    return root


def rules_text(root: Path) -> str:
    pages = sorted((root / "site" / "rules").rglob("*.md"))
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


def test_the_rules_pages_name_every_order_and_every_skill_of_the_data(open_site: Path) -> None:
    text = rules_text(open_site)
    rules = get_ruleset("overlord").default_rules()
    for order in (*language.UNIT_ORDERS, *language.FACTION_ORDERS):
        assert f"<td>{order.keyword}</td>" in text, f"the order {order.keyword} is not in the rules pages"
        assert f"<td>{html.escape(order.example)}</td>" in text, order.example
    for tag, skill in rules["skills"].items():
        assert f"<td>{skill['name']} [{tag}]</td>" in text, tag
        # Its days to each level are the data's, as the study reads them.
        assert ", ".join(str(days) for days in skill["levels"]) in text
    for race in rules["races"].values():
        assert str(race["name"]) in text


def test_the_rules_pages_follow_a_house_rule(open_site: Path) -> None:
    """No number is typed in the prose: a campaign's changed number shows on the page."""
    rules = copy.deepcopy(get_ruleset("overlord").default_rules())
    rules["press_rewards"]["signed"] = 77
    rules["markets"]["days"] = [10, 20, 30]
    told = "\n".join(
        block for section in rulesdoc.sections(rules) for block in section.blocks if isinstance(block, str)
    )
    assert "earns its faction 77 coins" in told
    assert "days 10, 20 and 30" in told


def test_the_month_is_printed_from_the_turn_table() -> None:
    rules = get_ruleset("overlord").default_rules()
    month = next(s for s in rulesdoc.sections(rules) if s.title == "The month")  # the first chapter
    tables = {block.caption: block for block in month.blocks if not isinstance(block, str)}
    daily = tables[f"Each of the {rules['ticks']} days"]
    block = next(row for row in rules["turn_sequence"] if "block" in row)
    assert [row[0].split(" (")[0] for row in daily.rows] == [phase["title"] for phase in block["phases"]]
    assert any("only on day 1" in row[0] for row in daily.rows)  # the control check's day


def test_the_server_factions_posts_and_the_hero_for_hire_are_told_in_their_chapters() -> None:
    """No rules data falls through to a bare page of its own (a page of one number reads as a stray, and a
    page that short left the site's side menu too cramped to tap on a laptop): the NPC posts, treasuries
    and levy are the factions chapter's, the hero's chance a month the recruits table's."""
    rules = get_ruleset("overlord").default_rules()
    found = {section.title: section for section in rulesdoc.sections(rules)}
    assert not [title for title in found if title.startswith("Npc") or title == "Hero for hire"], list(found)
    factions = found["Factions: the start, stances and the newspaper"]
    tables = {block.caption: block for block in factions.blocks if not isinstance(block, str)}
    emperor = next(row for row in tables["Standing units at the start"].rows if row[0] == "The Emperor")
    assert emperor[-1] == "Overlord" and emperor[-2] == "the Imperial City"
    text = " ".join(block for block in factions.blocks if isinstance(block, str))
    assert f"{rules['npc_funds']['imperials']} coins for The Imperials" in text
    assert "pays them no taxes" in text and not rules["npc_levy"]
    assert {"npc_posts", "npc_funds", "npc_levy"} <= set(factions.keys)  # their house rules shown with it
    money = found["Money, markets and recruiting"]
    recruits = next(b for b in money.blocks if not isinstance(b, str) and b.caption == "Recruits")
    chance = rules["checks"]["hero_for_hire"]["table"][0]["up_to"]
    assert (
        next(row for row in recruits.rows if "[hero]" in row[0])[-1]
        == f"{chance} % chance a month in each city"
    )


def event(kind: str, phase: str, tick: int = 0, **data: object) -> dict:
    found = {"kind": kind, "phase": phase, "actors": ["red"], "place": None, "data": data}
    if tick:
        found["tick"] = tick
    return found


def pages_for(root: Path) -> tuple[SitePages, object]:
    store = Store(root)
    history = load_history(store)
    return SitePages(store, history, ""), history


def test_a_month_of_several_days_is_told_day_by_day(open_site: Path) -> None:
    pages, _ = pages_for(open_site)
    words = {"title": "Sheriff", "where": "Karvesh", "unit_name": "Aldric", "paid": 250}
    events = [
        event("faction_named", "faction_orders", old="Old", new="New"),
        event("title_claimed", "orders", 3, **words),
        event("pillaged", "battles", 3, unit_name="Aldric", taken=10),
        event("title_yielded", "orders", 15, **words),
        event("taxes_collected", "upkeep", amount=5),
    ]
    record = TurnRecord(1, None, events, [], [])
    sections = pages.prose(record)
    titles = [(section["title"], section["level"]) for section in sections]
    assert titles[0] == ("Faction orders", 2)  # before the first day: by its step, as before
    assert ("Day 3", 2) in titles and ("Day 15: The day's orders", 2) in titles
    day3 = titles.index(("Day 3", 2))
    assert titles[day3 + 1] == ("The day's orders", 3)  # the day's steps under it
    assert titles[-1][1] == 2 and not titles[-1][0].startswith("Day")  # after the last day
    # One day only: no day headings, the steps as a turn without ticks tells them.
    single = TurnRecord(1, None, [events[1], events[2]], [], [])
    assert [(s["title"], s["level"]) for s in pages.prose(single)] == [
        ("The day's orders", 2),
        ("Battles", 2),
    ]


def test_a_ruleset_without_ticks_reads_as_before(tmp_path: Path) -> None:
    root = tmp_path / "usurper"
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        assert main(["demo", "--ruleset", "seasons", "--turns", "1", "--root", str(root)]) == 0
    pages, history = pages_for(root)
    for rec in history.turns:
        assert all(s["level"] == 2 and "tick" not in s for s in pages.prose(rec))


def with_title(state: State, game: object, tag: str = "mayo") -> tuple[State, str, str]:
    """The state with a title of the rules' catalogue on the first inner place, held by the first unit of
    the first player faction that has one; returns the state, the place and that faction."""
    state = copy.deepcopy(state)
    city = next(loc for loc in game.world.locations.values() if loc.parent is not None)
    faction = next(f for f in game.factions if any(u["owner"] == f for u in state["units"].values()))
    holder = next(uid for uid, unit in sorted(state["units"].items()) if unit["owner"] == faction)
    place = state.setdefault("places", {}).setdefault(city.id, {})
    place["title"] = {"tag": tag, "holder": holder, "faction": faction}
    return state, city.id, faction


def test_the_map_draws_inner_places_and_the_titles_held_there(open_site: Path) -> None:
    store = Store(open_site)
    history = load_history(store)
    drawn = map_data(history)
    assert drawn["inner"], "the cities inside their territories are drawn as places inside their hex"
    game = history.game
    state, city, faction = with_title(history.state, game)
    pieces = siteview.map_pieces(game, state)
    title = next(p for p in pieces if p["kind"] == "title")
    assert title["location"] == city and title["owner"] == faction
    assert "Mayor" in title["detail"] and game.name_of(faction) in title["detail"]
    # In an open campaign each faction's units show by place.
    owners = {unit["owner"] for unit in state["units"].values()}
    assert {p["owner"] for p in pieces if p["kind"] == "force"} == owners
    # The land a title owns is tinted in its faction's colour.
    assert game.ruleset.map_holders(game, state).get(city) == faction


def test_a_factions_profile_tells_its_titles_and_land(open_site: Path) -> None:
    history = load_history(Store(open_site))
    game = history.game
    state, city, faction = with_title(history.state, game)
    sections = dict(siteview.faction_sections(game, state, faction, []))
    assert any("Mayor of" in line for line in sections["Titles held"])
    assert sections["Land owned"] and game.place_label(city) + "." in sections["Land owned"]
    other = next(f for f in game.factions if f != faction)
    told = dict(siteview.faction_sections(game, state, other, []))
    assert told["Titles held"] == [f"{game.name_of(other)} holds no title."]
    rows = {row["faction"]: row for row in siteview.standings(game, state)}
    assert rows[faction]["titles"] == 1 and rows[faction]["places_owned"] >= 1
    assert set(rows[faction]) == set(rows[other])  # every row has the same columns


def test_a_sealed_site_shows_no_unit(sealed_site: Path) -> None:
    store = Store(sealed_site)
    history = load_history(store)
    assert history.sealed
    assert all(piece["kind"] == "title" for rec in history.records for piece in rec.pieces)
    assert all("units" not in row and "figures" not in row for row in history.standings())
    rules = get_ruleset("overlord").default_rules()
    # No faction's hero is named by the site itself: not in the chronicle, the places, the map, the home
    # page or a faction's profile (a faction may name its own in the press it signs: its choice).
    told = [
        path.read_text(encoding="utf-8").split("## In the newspaper")[0]
        for path in (sealed_site / "site").rglob("*.md")
        if "newspaper" not in path.parts
    ]
    told += [path.read_text(encoding="utf-8") for path in (sealed_site / "site" / "map").rglob("*")]
    # A title's holder is public (the manual shows it to everyone): a hero who took one may be named.
    holders = {
        (event.get("data") or {}).get("unit_name")
        for rec in history.turns
        for event in rec.events
        if str(event["kind"]).startswith("title_")
    }
    for hero in set(rules["start"]["hero_names"]) - holders:
        assert not any(hero in page for page in told), hero
    # The public state of a sealed campaign holds no unit either, so its profile tells what is public.
    for faction in history.game.factions:
        titles = dict(siteview.faction_sections(history.game, history.state, faction, []))["Titles held"]
        assert titles
