"""Headlines follow the outcome (issue 20, point 17): a recruitment that found nobody is not "hiring", a
month of failed work is not "new work", and a turn of battles is not "all quiet". Every ruleset's
headlines say which field of their event tells whether the deed was done; each headline is then read
for every value of that field, on every public event of the ruleset's demo."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import pytest

from resolver.core import canonical
from resolver.publish.headlines import headlines
from resolver.engine.ruleset import RULESETS, Game
from resolver.store.store import Store

from .demo import DemoSite, bot_demo_site


@pytest.fixture(scope="module", params=list(RULESETS))
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / request.param, request.param)


def played(site: DemoSite) -> tuple[Game, list[tuple[int, list[dict[str, Any]]]]]:
    """The demo's game and each resolved turn's public events, as the site reads them."""
    store = Store(site.root)
    game = store.game()
    turns = []
    for folder in sorted(store.turns_dir.glob("[0-9]*")):
        path = folder / "events.yaml"
        if path.is_file():
            events = canonical.read_yaml(path)["events"]
            turns.append((int(folder.name), [e for e in events if e.get("visibility") == "public"]))
    return game, turns


def with_outcome(event: Mapping[str, Any], field: str, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(dict(event))
    changed["data"] = {**changed.get("data", {}), field: value}
    return changed


def every_wording(game: Game, event: Mapping[str, Any]) -> set[str]:
    found = game.ruleset.headline_options(event, game)
    return set(found[1]) if found else set()


def test_every_headline_says_which_field_tells_its_outcome(demo: DemoSite) -> None:
    """Each kind with a headline declares its outcome (or that it has none), and the events of the demo
    carry only the values it declares: the declaration is the one the events are written with."""
    game, turns = played(demo)
    outcomes = game.ruleset.headline_outcomes()
    assert outcomes
    judged = 0
    for _, events in turns:
        for event in events:
            outcome = outcomes.get(event["kind"])
            if outcome is None or outcome.field not in event.get("data", {}):
                continue
            judged += 1
            declared = outcome.values(event, done=True) + outcome.values(event, done=False)
            assert event["data"][outcome.field] in declared, (event["kind"], event["data"][outcome.field])
    assert judged, f"no event of the {demo.root.name} demo has an outcome its headline must follow"


def test_a_failed_deed_is_never_headlined_as_done(demo: DemoSite) -> None:
    """Every public event whose headline has an outcome is read again with each value of it: no wording
    of a failed deed is a wording of the same deed done."""
    game, turns = played(demo)
    outcomes = game.ruleset.headline_outcomes()
    judged = 0
    for turn, events in turns:
        for event in events:
            outcome = outcomes.get(event["kind"])
            if outcome is None or outcome.field not in event.get("data", {}):
                continue
            done = set().union(
                *(
                    every_wording(game, with_outcome(event, outcome.field, v))
                    for v in outcome.values(event, True)
                )
            )
            for value in outcome.values(event, done=False):
                failed = every_wording(game, with_outcome(event, outcome.field, value))
                judged += 1
                assert not failed & done, (turn, event["kind"], value, failed & done)
    assert judged


def street(game: Game, topic: str, band: str, **data: Any) -> str:
    event = {
        "kind": "headline",
        "phase": "interpretation",
        "actors": [],
        "place": next(iter(game.world.locations)),
        "data": {"topic": topic, "band": band, "faction": game.factions[0], **data},
        "visibility": "public",
    }
    found = game.ruleset.headline(event, game, 1)
    assert found is not None
    return found[1]


@pytest.fixture(scope="module")
def factions_demo(tmp_path_factory: pytest.TempPathFactory) -> DemoSite:
    return bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / "factions", "factions")


def test_the_street_tells_a_failed_recruitment_and_failed_work_as_failures(factions_demo: DemoSite) -> None:
    game = Store(factions_demo.root).game()
    name = game.name_of(game.factions[0])
    hired = street(game, "recruit", "success", type_name="Agitators", location_name="Tavern of Aistgate")
    assert hired.startswith(f"{name} is hiring")
    for band in ("failure", "complete_failure"):
        recruited = street(game, "recruit", band, type_name="Agitators", location_name="Tavern of Aistgate")
        assert "hiring" not in recruited and "no takers" in recruited, recruited
        built = street(game, "build", band, type_name="Guildhall", location_name="Tavern of Lishaven")
        assert built.startswith(("Work stalls at", "A setback at")), built
    assert "New work" not in street(game, "build", "success", type_name="Guildhall", location_name="Tavern")


def test_a_failed_deed_never_leads_the_street_over_an_equal_one_done(factions_demo: DemoSite) -> None:
    """Of two deeds the rules count equally newsworthy, the one that was done leads the issue."""
    game = Store(factions_demo.root).game()
    place = next(iter(game.world.locations))
    base = {
        "kind": "headline",
        "phase": "interpretation",
        "actors": [],
        "place": place,
        "visibility": "public",
    }
    stalled = {
        **base,
        "data": {
            "topic": "build",
            "band": "failure",
            "faction": game.factions[0],
            "type_name": "Guildhall",
            "location_name": "Tavern of Lishaven",
        },
    }
    hired = {
        **base,
        "data": {"topic": "recruit", "band": "success", "faction": game.factions[1], "type_name": "Thugs"},
    }
    lines = headlines(game, [stalled, hired], 3)
    assert lines[0] == game.ruleset.describe(hired, game), lines


def battles(game: Game, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A turn's battles: events of a battle kind, or that the ruleset marks on the map as a battle."""
    marked = {mark.text for mark in game.ruleset.map_events(game, events) if mark.kind == "battle"}
    return [e for e in events if e["kind"] == "battle" or game.ruleset.describe(e, game) in marked]


def test_a_turn_of_battles_is_never_all_quiet(demo: DemoSite) -> None:
    game, turns = played(demo)
    fought = 0
    for turn, events in turns:
        if battles(game, events):
            fought += 1
            assert headlines(game, events, turn), f"turn {turn} had a battle and no news"
    assert fought, "the demo fought no battle"
