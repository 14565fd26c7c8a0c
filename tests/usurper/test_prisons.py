"""Issue 23, prisons (spec §4.6, §7.11, §7.12.8): who is taken after a fight, Interrogate's three intents
with their roll, release and execution by the policies, and the weekly escape chances row by row."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from resolver.rulesets.usurper import prisons

from .prison_support import events, prisoner, run, scenario
from .rolls_support import RULES, context

ROLL = "t6/red/red-l1/interrogate/B2"  # the action roll's label: week, usurper, leader, action, prison grid
ESCAPE = "t6/red/red-p1/escape"


def prison(*renovations: dict) -> dict:
    return {"type": "prison", "level": 1 + len(renovations), "renovations": list(renovations)}


LAIR = {"rooms": [prison()]}
CELL_ESCAPE = {"rooms": [prison({"renovation": "jail_cells", "choice": "escape"})]}
CELL_CAPTURE = {"rooms": [prison({"renovation": "jail_cells", "choice": "capture"})]}


@pytest.mark.parametrize(
    ("lair", "done", "record", "kind", "chance"),
    [
        (LAIR, None, {"level": 0}, "unit", 15),  # not interrogated
        (LAIR, "glean", {"level": 0}, "unit", 10),  # 15 - 5
        (LAIR, "convert", {"level": 0}, "unit", 10),
        (LAIR, "torture", {"level": 0}, "unit", 25),  # 15 + 10
        (LAIR, None, {"level": 3}, "unit", 27),  # +4 a level
        (LAIR, None, {"skills": {"scout": {"rank": 1}, "spy": {"rank": 2}}}, "leader", 23),  # +4 a skill
        (CELL_ESCAPE, None, {"level": 0}, "unit", 10),  # a Jail Cell taken on escape
        (CELL_CAPTURE, None, {"level": 0}, "unit", 15),  # one taken on capture changes nothing here
    ],
)
def test_every_row_of_the_escape_table(lair, done, record, kind, chance) -> None:
    held = {"kind": kind, "record": record, "interrogated": {"turn": 6, "intent": done} if done else None}
    assert prisons.escape_chance(RULES, lair, held, 6) == chance


def test_last_weeks_interrogation_does_not_count_this_week() -> None:
    held = {"kind": "unit", "record": {"level": 0}, "interrogated": {"turn": 5, "intent": "torture"}}
    assert prisons.escape_chance(RULES, LAIR, held, 6) == 15


def test_a_roll_on_the_chance_escapes_and_one_above_stays(tmp_path: Path) -> None:
    _, out = run(tmp_path, [], prisoners=[prisoner("red-p1", "Grey Orcs")], rolls={ESCAPE: [15]})
    assert [e.data["prisoner"] for e in events(out, "prisoner_escaped")] == ["Grey Orcs"]
    assert out.state["factions"]["red"]["lairs"]["red-lair1"]["prisoners"] == []
    _, out = run(tmp_path, [], prisoners=[prisoner("red-p1", "Grey Orcs")], rolls={ESCAPE: [16]})
    assert [p["id"] for p in out.state["factions"]["red"]["lairs"]["red-lair1"]["prisoners"]] == ["red-p1"]


def torture_order() -> list[dict]:
    return [{"action": "interrogate", "by": "red-l1", "prisoner": "red-p1", "intent": "torture"}]


def test_torture_that_fails_and_an_escape_costs_four_obscurity(tmp_path: Path) -> None:
    _, out = run(
        tmp_path,
        torture_order(),
        prisoners=[prisoner("red-p1", "Grey Orcs")],
        rolls={ROLL: [47], ESCAPE: [25]},
    )
    told = events(out, "interrogation")[0].data
    assert told["succeeded"] is False and told["band"] == "Success"  # 47 + Leader 25 + Throne Room 3 = 75
    lair = out.state["factions"]["red"]["lairs"]["red-lair1"]
    assert lair["obscurity"]["current"] == 146
    assert events(out, "prisoner_escaped")[0].data["chance"] == 25


def test_glean_succeeds_on_a_partial_success_and_fails_below(tmp_path: Path) -> None:
    order = [{"action": "interrogate", "by": "red-l1", "intent": "glean", "grid": "C3"}]
    # 22 + Leader 25 + Throne Room 3 = 50: a Partial Success.
    _, out = run(
        tmp_path, order, prisoners=[prisoner("red-p1", "Grey Orcs")], rolls={ROLL: [22], ESCAPE: [99]}
    )
    told = events(out, "interrogation")[0]
    assert told.data["succeeded"] and told.data["terrain"] == "forests"
    assert "C3" in out.state["factions"]["red"]["known"]["scouted"]
    assert told.visible_to == ["red"]
    _, out = run(
        tmp_path, order, prisoners=[prisoner("red-p1", "Grey Orcs")], rolls={ROLL: [21], ESCAPE: [99]}
    )
    assert not events(out, "interrogation")[0].data["succeeded"]
    assert "C3" not in out.state["factions"]["red"]["known"]["scouted"]


def test_convert_needs_a_significant_success_and_the_unit_joins_at_full_strength(tmp_path: Path) -> None:
    order = [{"action": "interrogate", "by": "red-l1", "intent": "convert"}]
    held = [
        prisoner("red-p1", "Grey Orcs", record={"name": "Grey Orcs", "race": "orcs", "level": 2, "pax": 4})
    ]
    _, out = run(tmp_path, order, prisoners=held, rolls={ROLL: [73], ESCAPE: [99]})  # 101: Significant
    units = out.state["factions"]["red"]["units"]
    joined = [u for u in units.values() if u["name"] == "Grey Orcs"]
    assert len(joined) == 1 and joined[0]["pax"] == 10 and joined[0]["level"] == 2 and "unique" in joined[0]
    assert out.state["factions"]["red"]["lairs"]["red-lair1"]["prisoners"] == []
    _, out = run(tmp_path, order, prisoners=held, rolls={ROLL: [72], ESCAPE: [99]})  # 100: Success only
    assert not events(out, "interrogation")[0].data["succeeded"]
    assert len(out.state["factions"]["red"]["units"]) == 1


def test_torture_on_a_significant_success_gives_away_its_usurpers_lair(tmp_path: Path) -> None:
    held = [prisoner("red-p1", "Blue Blades", owner="blue", home="H8")]
    _, out = run(tmp_path, torture_order(), prisoners=held, rolls={ROLL: [80], ESCAPE: [99]})
    told = events(out, "interrogation")[0].data
    assert told["succeeded"] and told["revealed"] == "H8"
    assert out.state["factions"]["red"]["known"]["intelligence"][0]["lair"] == "H8"


def test_holy_writ_counts_for_convert_and_harsh_methods_for_glean_and_torture() -> None:
    unit = {"name": "Monks", "tools": [{"item": "holy_writ", "quality": "standard"}]}
    plan = SimpleNamespace(units=[unit])
    lair = {"rooms": [{"type": "throne", "level": 1, "renovations": []},
                      prison({"renovation": "harsh_methods"})]}  # fmt: skip
    convert = {
        (mod.source, mod.value) for mod in prisons.interrogation_modifiers(RULES, plan, lair, "convert")
    }
    glean = {(mod.source, mod.value) for mod in prisons.interrogation_modifiers(RULES, plan, lair, "glean")}
    assert convert == {("Throne Room", 3), ("Holy Writ (Monks)", 10)}
    assert glean == {("Throne Room", 3), ("Harsh Methods", 15)}


def test_release_and_execute_by_policy_and_their_obscurity(tmp_path: Path) -> None:
    held = [prisoner("red-p1", "Grey Orcs"), prisoner("red-p2", "Pale Goblins")]
    _, out = run(tmp_path, [], prisoners=held, policies={"release": ["red-p1"], "execute": ["red-p2"]})
    lair = out.state["factions"]["red"]["lairs"]["red-lair1"]
    assert lair["prisoners"] == [] and lair["obscurity"]["current"] == 149  # only the execution costs
    assert [e.data["prisoner"] for e in events(out, "prisoner_released")] == ["Grey Orcs"]
    assert [e.data["prisoner"] for e in events(out, "prisoner_executed")] == ["Pale Goblins"]
    assert not [r for r in out.rolls if r.label.endswith("/escape")]  # gone before the escape rolls


def test_another_usurpers_man_is_not_executed_and_a_released_one_goes_home(tmp_path: Path) -> None:
    held = [prisoner("red-p1", "Blue Blades", owner="blue", home="H8")]
    _, out = run(tmp_path, [], prisoners=held, policies={"prisoners": "execute"}, rolls={ESCAPE: [99]})
    assert len(out.state["factions"]["red"]["lairs"]["red-lair1"]["prisoners"]) == 1
    _, out = run(tmp_path, [], prisoners=held, policies={"prisoners": "release"})
    assert "Blue Blades" in [u["name"] for u in out.state["factions"]["blue"]["units"].values()]
    returns = events(out, "prisoner_returns")[0]
    assert returns.visible_to == ["blue"] and returns.place is None  # nothing of where red's lair is


def test_a_prisoner_questioned_this_week_is_neither_released_nor_executed(tmp_path: Path) -> None:
    order = [{"action": "interrogate", "by": "red-l1", "intent": "convert"}]
    held = [prisoner("red-p1", "Grey Orcs")]
    _, out = run(tmp_path, order, prisoners=held, policies={"prisoners": "execute"},
                 rolls={ROLL: [10], ESCAPE: [99]})  # fmt: skip
    assert not events(out, "prisoner_executed")
    assert len(out.state["factions"]["red"]["lairs"]["red-lair1"]["prisoners"]) == 1


def test_interrogate_needs_a_prison_holding_the_prisoner(tmp_path: Path) -> None:
    order = [{"action": "interrogate", "by": "red-l1", "intent": "glean", "grid": "C3"}]
    files = scenario(tmp_path, order, rooms=[{"type": "throne", "level": 1, "renovations": []}]).order_files()
    assert [i.message for i in files["red"].errors] == ["you have no lair with a Prison at B2"]
    files = scenario(tmp_path, order).order_files()
    assert [i.message for i in files["red"].errors] == ["the Prison there holds nobody"]
    far = [{"action": "interrogate", "by": "red-l1", "intent": "glean", "grid": "F6"}]
    files = scenario(tmp_path, far, prisoners=[prisoner("red-p1", "Grey Orcs")]).order_files()
    assert [i.message for i in files["red"].errors] == ["F6 is more than 2 grids from the prison"]


def test_capture_at_the_prisons_chance_while_a_cell_is_free() -> None:
    state = {"turn": 6, "factions": {"red": {"lairs": {"red-lair1": {"id": "red-lair1", "grid": "B2",
             "rooms": [prison()], "prisoners": [], "obscurity": {"current": 150, "max": 150}}},
             "units": {}, "leaders": {}, "known": {}}}}  # fmt: skip
    ctx = context(turn=6, forced={"t6/red/enc-1-1/capture": [61], "t6/red/enc-1-2/capture": [60]})
    captives = [prisons.Captive("enc-1-1", {"name": "First"}), prisons.Captive("enc-1-2", {"name": "Second"}),
                prisons.Captive("enc-1-3", {"name": "Third"})]  # fmt: skip
    taken = prisons.capture(ctx, state, "red", captives, lair="red-lair1", place="C3")
    assert [p["name"] for p in taken] == ["Second"]  # 61 misses the 60% chance, 60 takes; then no cell
    assert [r.label for r in ctx.dice.log] == ["t6/red/enc-1-1/capture", "t6/red/enc-1-2/capture"]
    assert state["factions"]["red"]["lairs"]["red-lair1"]["prisoners"][0]["id"] == "red-p1"
    assert state["factions"]["red"]["prisoners_taken"] == 1


def test_only_fled_or_destroyed_fighters_are_taken_and_never_a_monster() -> None:
    def fighter(fid: str, **fate: bool) -> SimpleNamespace:
        return SimpleNamespace(
            id=fid, name=fid, level=1, record={}, single=fate.pop("single", False),
            fled=fate.get("fled", False), destroyed=fate.get("destroyed", False),
        )  # fmt: skip

    fighters = [
        fighter("a", fled=True),
        fighter("b", destroyed=True),
        fighter("c"),
        fighter("d", fled=True, single=True),
    ]
    assert [c.key for c in prisons.captives(RULES, fighters)] == ["a", "b"]
