"""Issue 23, Explore (spec §4.11, §9.3): the leader's roll with the completed quests' bonus, the band's
weighted draw of an opportunity, told to the usurper alone and kept in its record, and a quest begun."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.rulesets.usurper import explore

from .prison_support import events, run
from .rolls_support import RULES

ROLL = "t6/red/red-l1/explore/C3"
DIE = "t6/red/red-l1/explore/C3/opportunity"
ORDER = [{"action": "explore", "by": "red-l1", "target": "C3"}]


@pytest.mark.parametrize(
    ("d100", "band", "face", "found"),
    [
        (20, "partial_failure", None, None),  # 20 + 25 = 45: nothing
        (30, "partial_success", 1, "teacher"),  # weights teacher 4, trainer 4, architect 2
        (30, "partial_success", 5, "trainer"),
        (30, "partial_success", 10, "architect"),
        # 105: teacher 2, trainer 2, architect 2, unique unit 3, extra 2, necromancer 1
        (80, "significant", 9, "unique_unit"),
        (80, "significant", 10, "extra"),
        (80, "significant", 12, "necromancer"),
    ],
)
def test_an_opportunity_by_band(
    tmp_path: Path, d100: int, band: str, face: int | None, found: str | None
) -> None:
    rolls = {ROLL: [d100], **({DIE: [face]} if face else {})}
    _, out = run(tmp_path, ORDER, rolls=rolls)
    told = events(out, "opportunity")[0]
    assert told.visible_to == ["red"]
    assert told.data["band"] == explore.rolls.band_name(RULES, band)
    opportunities = out.state["factions"]["red"]["known"].get("opportunities") or {}
    if found is None:
        assert told.data["found"] == "" and not opportunities
        assert not [r for r in out.rolls if r.label == DIE]
    else:
        assert [o["kind"] for o in opportunities.values()] == [found]
        assert told.data["found"] == explore.kind_name(RULES, found)


def test_completed_exploration_quests_add_two_each(tmp_path: Path) -> None:
    _, out = run(tmp_path, ORDER, rolls={ROLL: [20], DIE: [1]}, exploration_quests=3)
    roll = next(r for r in out.rolls if r.label == ROLL)
    assert roll.total == 20 + 25 + 6 and roll.result == "partial_success"


def test_initiate_begins_an_exploration_quest_for_the_gm_to_write(tmp_path: Path) -> None:
    _, out = run(tmp_path, [{**ORDER[0], "initiate": True}], rolls={ROLL: [80]})
    (quest,) = out.state["factions"]["red"]["known"]["quests"].values()
    assert quest["kind"] == "exploration" and quest["band"] == "significant"
    assert events(out, "quest_begun") and not events(out, "opportunity")


def test_the_weights_pick_each_face_once() -> None:
    choices = explore.weights(RULES, "success")
    faces = [explore.pick(choices, face) for face in range(1, sum(w for _, w in choices) + 1)]
    assert {kind: faces.count(kind) for kind in set(faces)} == dict(choices)
