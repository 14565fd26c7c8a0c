"""The seasons demo: two years of four nations and the Piorad, played by the bot, replayed exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import archived_events, check_golden

GOLDEN = Path(__file__).parent.parent / "golden" / "seasons-demo-seed1.yaml"
DEMO_TURNS = 8


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from resolver.cli import main

    root = tmp_path_factory.mktemp("demo") / "seasons"
    args = ["demo", "--ruleset", "seasons", "--root", str(root), "--quiet", "--seed", "1"]
    assert main([*args, "--turns", str(DEMO_TURNS)]) == 0
    return root


@pytest.fixture(scope="module")
def events(demo: Path) -> list[dict]:
    return archived_events(demo)


def test_the_demo_shows_the_seasons_story(events: list[dict]) -> None:
    kinds = {e["kind"] for e in events}
    assert {"war_test", "battle", "trade", "diplomacy", "loot", "levy_raised", "province_taken"} <= kinds
    assert {"into_the_fort", "siege", "siege_ended", "forage", "recovery"} <= kinds
    # diplomacy enforced (an enforced peace pays its roll) and Marshals' attributes rolled at the start
    assert {"tribute_roll", "marshal_attributes"} <= kinds
    # the bot's orders organise its forces: armies formed and sent to the border, Captains hired
    assert {"army_formed", "army_stationed", "commander_hired"} <= kinds
    assert any(e["kind"] == "battle" and e["data"]["winner"] for e in events)
    assert {"ambush", "retreat"} <= kinds  # the war's tests are rolled in battle
    assert any(e["kind"] == "war_test" and e["data"]["war"] for e in events)
    assert any(e["kind"] == "disband_test" and e["data"]["disbanded"] for e in events)
    raids = [e for e in events if e["kind"] == "invaded" and e["actors"][0] == "piorad"]
    assert raids and all(e["turn"] % 4 == 0 for e in raids), "the Piorad raid in winter only"
    morale = [e["data"] for e in events if e["kind"] == "national_morale"]
    assert any(d["after"] > d["before"] for d in morale) and any(d["after"] < d["before"] for d in morale)


def test_each_step_runs_in_its_own_season(events: list[dict]) -> None:
    seasons = {"spring": 1, "summer": 2, "fall": 3, "winter": 0}
    for event in events:
        prefix = event["phase"].split("_")[0]
        if prefix in seasons:
            assert event["turn"] % 4 == seasons[prefix], event


def test_the_demo_replays_and_matches_its_golden_file(demo: Path) -> None:
    from resolver.cli import main

    assert main(["verify", "--all", "--root", str(demo)]) == 0
    check_golden(demo, GOLDEN, DEMO_TURNS)


def test_the_site_shows_the_four_seasons_tables_and_house_rules(demo: Path) -> None:
    from resolver.cli import main

    assert main(["site", "--root", str(demo)]) == 0
    rules = (demo / "site/rules/index.md").read_text(encoding="utf-8")
    for season in ("Spring", "Summer", "Fall", "Winter"):
        assert f"| {season} | 1. GM rulings; 2. " in rules
    assert (
        "| Winter | 1. GM rulings; 2. Missing orders; 3. Standing orders; 4. The Piorad go to war; "
        "5. The Piorad&#x27;s target" in rules
    )
    for table in ("Disband", "Trade", "Stance", "Will to fight", "Retreat", "Siege", "Recovery", "Strength"):
        assert f"<caption>{table}</caption>" in rules
    # the relations (alliance, enforced peace) in their own section, once, not as a raw settings table
    assert "## Relations between factions" in rules and "Kinds.alliance" not in rules
    house = (demo / "site/rules/house-rules.md").read_text(encoding="utf-8")
    assert "strength table runs from 2 to 18" in house and "Leader death \\(p60\\)" in house
    assert (demo / "public/index.html").exists()


def test_the_demo_battles_show_every_melee_modifier_its_units_and_map_can_produce(
    demo: Path, events: list[dict]
) -> None:
    """Every skill and armour class a unit type of the rules carries that names a melee modifier, a
    fort's walls, a levy's disorder and, where a battle is fought on hills or mountains, the higher
    elevation, show in the demo's dice ledgers by their readable names; no ledger shows an internal name."""
    from resolver.rulesets.seasons import RULESET
    from resolver.store.store import Store

    rules = RULESET.default_rules()
    battle = rules["battle"]
    carried = {skill for unit in rules["units"].values() for skill in unit["skills"]}
    expected = {s for roll in ("attack", "defence") for s in battle["skills"][roll] if s in carried}
    expected |= {f"armour_{u['armour']}" for u in rules["units"].values()} & set(battle["defence"])
    expected |= {"fort", "disorganised", "shock", "elite_training", "pike", "skirmish"}
    world = Store(demo).world()
    fields = {e["place"] for e in events if e["kind"] == "battle"}
    if any(world[place].terrain in battle["high_ground"] for place in fields):  # the demo's map decides
        expected.add("higher_elevation")
    ledgers = [r["decided"] for e in events if e["kind"] == "battle" for r in e["rolls"]]
    for source in sorted(expected):
        name = battle["modifier_names"][source]
        assert any(f"{name} +" in ledger or f"{name} −" in ledger for ledger in ledgers), source
    assert not [ledger for ledger in ledgers if "_" in ledger]
