"""The usurper demo: twelve weeks of four usurpers played by the bot, open and sealed, replayed exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ..conftest import archived_events, check_golden

GOLDEN = Path(__file__).parent.parent / "golden" / "usurper-demo-seed1.yaml"
DEMO_TURNS = 12  # the ruleset's own default: three months, with the Victory Points counted once


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from resolver.cli import main

    root = tmp_path_factory.mktemp("demo") / "usurper"
    assert main(["demo", "--ruleset", "usurper", "--root", str(root), "--quiet", "--seed", "1"]) == 0
    return root


@pytest.fixture(scope="module")
def events(demo: Path) -> list[dict]:
    return archived_events(demo)


def test_the_demo_plays_twelve_weeks_by_default(demo: Path) -> None:
    turns = sorted(p.name for p in (demo / "campaign/turns").iterdir() if (p / "events.yaml").exists())
    assert turns == [f"{turn:04d}" for turn in range(1, DEMO_TURNS + 1)]


def test_the_demo_shows_the_weekly_loop(events: list[dict]) -> None:
    kinds = {event["kind"] for event in events}
    # scouting and harvesting, a leader's visit, a lesson, a fight, the upkeep, the count of Victory Points
    assert {"scouted", "harvested", "diplomacy", "training", "combat", "upkeep", "vp_tally"} <= kinds
    assert {"experience", "press", "happenings"} <= kinds


def test_a_visit_trades_and_an_upkeep_falls_short(events: list[dict]) -> None:
    visits = [e["data"] for e in events if e["kind"] == "diplomacy"]
    assert any(visit.get("bought") for visit in visits), "a leader buys something on a visit"
    upkeeps = [e["data"] for e in events if e["kind"] == "upkeep"]
    assert any(upkeep.get("unpaid") for upkeep in upkeeps), "a usurper cannot pay or feed a unit"
    assert any(e["kind"] == "vp_tally" and e["turn"] == 8 for e in events), "counted at the end of month 2"


@pytest.fixture(scope="module")
def orders(demo: Path) -> list[dict]:
    """Every order the bots wrote, each with its usurper and turn."""
    found = []
    for folder in sorted((demo / "campaign/turns").iterdir()):
        if (folder / "orders.yaml").exists():
            archived = yaml.safe_load((folder / "orders.yaml").read_text(encoding="utf-8"))
            for faction, entry in archived["orders"].items():
                found += [
                    {**order, "faction": faction, "turn": int(folder.name)} for order in entry["orders"]
                ]
    return found


def test_every_usurper_outfits_at_the_setup_market_in_week_one_and_never_after(
    events: list[dict], orders: list[dict]
) -> None:
    outfits = [e for e in events if e["kind"] == "outfitted"]
    assert sorted(e["actors"][0] for e in outfits) == ["blue", "gold", "green", "red"]
    assert {e["turn"] for e in outfits} == {1} and {o["turn"] for o in orders if o["action"] == "outfit"} == {
        1
    }
    for event in outfits:
        goods = {line["good"] for line in event["data"]["bought"]}
        assert {"Donkey", "Saws", "Foodstuffs"} <= goods and event["data"]["donkeys"]


def test_the_bots_own_choices_show_every_core_action_in_twelve_weeks(
    events: list[dict], orders: list[dict]
) -> None:
    """The issue's list, each from orders the bots wrote: scout, harvest, a room built, a renovation, an item
    crafted, a visit that trades, an attack the bot chose on an encounter, a lesson learned; then an upkeep
    that falls short and a count of Victory Points."""

    def done(kind: str, test=lambda data: True) -> list[dict]:
        return [e for e in events if e["kind"] == kind and test(e["data"])]

    assert done("scouted") and done("harvested", lambda d: d["amount"] > 0)
    assert done("rooms_built", lambda d: d["done"]), "a room is built"
    assert done("room_renovated", lambda d: d["done"]), "a room is renovated"
    assert done("crafted", lambda d: d["done"] and d["quality"]), "an item is made"
    traded = done(
        "diplomacy", lambda d: any(deal["quantity"] for deal in d.get("bought", []) + d.get("sold", []))
    )
    assert traded, "a visit trades"
    chosen = {(o["faction"], o["turn"], o["encounter"]) for o in orders if o["action"] == "attack"}
    fought = done("combat", lambda d: d["action"] == "attack")
    assert chosen and any((e["actors"][0], e["turn"], e["data"]["enemy"]) in chosen for e in fought)
    assert done("training", lambda d: d["learned"]), "a lesson is learned"
    assert done("upkeep", lambda d: d["unpaid"]), "a unit goes unpaid or unfed"
    assert done("vp_tally")


def test_the_demo_has_press_from_the_bots(events: list[dict]) -> None:
    articles = [e for e in events if e["kind"] == "press"]
    assert len(articles) >= 6 and len({e["actors"][0] for e in articles}) == 4


def test_the_demo_replays_and_matches_its_golden_file(demo: Path) -> None:
    from resolver.cli import main

    assert main(["verify", "--all", "--root", str(demo)]) == 0
    check_golden(demo, GOLDEN, DEMO_TURNS)


def test_the_sealed_demo_runs_and_verifies_with_its_key(tmp_path_factory: pytest.TempPathFactory) -> None:
    from resolver import workflow
    from resolver.cli import main

    root = tmp_path_factory.mktemp("sealed") / "usurper"
    args = ["demo", "--ruleset", "usurper", "--root", str(root), "--quiet", "--seed", "1", "--sealed"]
    assert main(args) == 0
    key = root / workflow.DEMO_KEY
    assert key.exists()
    assert main(["verify", "--all", "--root", str(root), "--key-file", str(key)]) == 0
