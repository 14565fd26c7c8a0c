"""Issue 23, what needs a GM (spec §10.1): each of usurper's own GM orders resolves in a campaign, changes
the usurper's record, and the usurper's report says what happened; the others hear only of what is
public (a title, a Council vote)."""

from __future__ import annotations

from pathlib import Path

import yaml

from resolver.store.store import Store

from ..gm_orders import new, write_gm


def state_of(root: Path) -> dict:
    return yaml.safe_load((root / "campaign/state.yaml").read_text())


def report(root: Path, turn: int, faction: str) -> str:
    return (root / f"campaign/turns/{turn:04d}/reports/{faction}.md").read_text()


def told(root: Path, turn: int, faction: str) -> str:
    """What the turn told this usurper, in the sentences of its report and the chronicle: every event of
    the GM's it may see (an open campaign shows the GM's orders to all; its own report keeps the private
    ones)."""
    game = Store(root).game()
    events = yaml.safe_load((root / f"campaign/turns/{turn:04d}/events.yaml").read_text())["events"]
    seen = [e for e in events if e.get("visibility") == "public" or faction in e["visibility"]]
    return "\n".join(game.ruleset.describe(e, game) for e in seen)


def resolve(run, root: Path, orders: list[dict]) -> None:
    gm_file = write_gm(root, orders)
    code, out, err = run("check", "--root", root, gm_file)
    assert code == 0, out + err
    code, out, err = run("resolve", "--root", root)
    assert code == 0, out + err


def test_each_gm_order_resolves_and_the_usurpers_report_tells_it(run, tmp_path: Path) -> None:
    root = new(run, tmp_path / "c", "usurper")
    red, blue = sorted(state_of(root)["factions"])[:2]
    grid = sorted(state_of(root)["cities"])[0]
    resolve(run, root, [
        # The lair's one Barracks is full: the usurper's own unit is the one made unique (a new unit would
        # be disbanded at the week's end for want of a place).
        {"action": "grant_unique_unit", "faction": red, "unit": f"{red}-u1", "trait": "terror"},
        {"action": "grant_extra", "faction": red, "name": "Mirela", "tier": 2, "skills": {"scout": 3},
         "helps": ["scout"], "bonus": 10, "price": 5},
        {"action": "grant_artifact", "faction": red, "name": "The Salt Crown", "power": "+10 to Loyalty"},
        {"action": "grant_title", "faction": red, "title": "forge_lord"},
        {"action": "quest", "faction": red, "step": "start", "kind": "exploration",
         "title": "The Drowned King", "task": "Find the barrow"},
        {"action": "council", "article": "No raids in winter", "votes_for": 2, "votes_against": 1},
        {"action": "forces", "to": [red], "grid": grid, "kind": "legendary_foe", "name": "Vorgath the Old",
         "units": {"trolls": 1, "orcs": 2}, "level": 4},
        {"action": "opportunity", "faction": red, "kind": "architect", "offer": "A room in a week",
         "price": 20},
        {"action": "tell", "faction": red, "text": "The salt road is watched."},
    ])  # fmt: skip
    record = state_of(root)["factions"][red]
    text = told(root, 1, red)
    assert "The salt road is watched." in report(root, 1, red)  # told to red alone: in its report
    unit_name = state_of(root)["factions"][red]["units"][f"{red}-u1"]["name"]
    assert f"{unit_name} is a Unique Unit" in text and "trait terror" in text
    assert [u["unique"]["trait"] for u in record["units"].values() if "unique" in u] == ["terror"]
    assert "Mirela, an Extra of tier 2, joins" in text and "10 gold a month and 5 gold now" in text
    assert record["gold"] == 95 and next(iter(record["extras"].values()))["upkeep"] == 10
    assert "gains the artifact The Salt Crown" in text
    assert "wins the title Forge Lord" in text and record["titles"] == ["forge_lord"]
    assert "the Exploration Quest The Drowned King" in text and "begins" in text
    assert "Council of Usurpers passes the article" in text
    assert "the Legendary Foe Vorgath the Old (3 units) stands at" in text
    foe = next(e for e in record["known"]["encounters"].values() if e.get("name") == "Vorgath the Old")
    assert len(foe["units"]) == 3 and {u["level"] for u in foe["units"]} == {4}
    assert "A room in a week" in text and "for 20 gold" in text
    assert "The GM tells" in text and "salt road is watched" in text
    assert "salt road" not in report(root, 1, blue) and "salt road" not in told(root, 1, blue)

    quest = next(iter(record["known"]["quests"]))
    offer = next(iter(record["known"]["opportunities"]))
    resolve(run, root, [
        {"action": "quest", "faction": red, "quest": quest, "step": "complete",
         "task": "The king sleeps again"},
        {"action": "opportunity", "faction": red, "opportunity": offer, "status": "accepted", "price": 20},
    ])  # fmt: skip
    record = state_of(root)["factions"][red]
    text = told(root, 2, red)
    assert "is completed: The king sleeps again" in text and record["exploration_quests"] == 1
    assert "the offer is accepted" in text and record["gold"] == 75


def test_a_gm_order_the_state_cannot_bear_is_refused_at_check(run, tmp_path: Path) -> None:
    root = new(run, tmp_path / "c", "usurper")
    red = sorted(state_of(root)["factions"])[0]
    gm_file = write_gm(root, [
        {"action": "grant_extra", "faction": red, "name": "Greedy", "tier": 1, "price": 1000},
        {"action": "quest", "faction": red, "quest": "red-q9", "step": "complete"},
        {"action": "council", "article": "Too many votes", "votes_for": 5, "votes_against": 0},
    ])  # fmt: skip
    before = (root / "campaign/state.yaml").read_bytes()
    code, out, _ = run("check", "--root", root, gm_file)
    assert code == 1
    assert (
        f"{red} has only 100 gold" in out and "has no quest 'red-q9'" in out and "only 3 usurpers vote" in out
    )
    assert (root / "campaign/state.yaml").read_bytes() == before
