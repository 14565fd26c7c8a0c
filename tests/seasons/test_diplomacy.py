"""Winter diplomacy: the stance die with its modifiers, then each stance's table row by row, and the
interest table's modifiers, through the real checker and resolver (the scenario harness)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from resolver.rulesets.seasons import RULESET

from ..scenarios.harness import Scenario, lookup, resolve_accepted

ZERO_INTERESTS = {name: [0, 0, 0, 0] for name in RULESET.default_rules()["diplomacy_interest"]}


def _fixture(
    stance_die: int,
    dice: list[int],
    *,
    red: dict | None = None,
    blue: dict | None = None,
    interests: dict | None = None,
) -> dict[str, Any]:
    return {
        "ruleset": "seasons",
        "rules": {"diplomacy_interest": ZERO_INTERESTS if interests is None else interests},
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": 4,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
            "factions": {"red": red or {}, "blue": blue or {}},
        },
        "orders": {"red": [{"action": "diplomat", "nation": "blue"}], "blue": []},
        # winter trade yields nothing, so neither side gets richer before the diplomat goes
        "rolls": {
            "t4/stance/red/blue": [stance_die],
            "t4/diplomacy/red/blue": dice,
            "t4/trade/r0": [5, 6],
            "t4/trade/b0": [5, 6],
        },
    }


def _diplomacy(result: Any) -> dict:
    return next(e.to_data() for e in result.events if e.kind == "diplomacy")


@pytest.mark.parametrize(
    ("face", "stance"),
    [
        (1, "friendly"),
        (2, "friendly"),
        (3, "deceiving"),
        (4, "intimidating"),
        (5, "dominating"),
        (6, "dominating"),
    ],
)
def test_the_stance_die_reads_as_rolled(tmp_path: Path, face: int, stance: str) -> None:
    result = resolve_accepted(tmp_path / "f.yaml", _fixture(face, [5, 5]))
    assert _diplomacy(result)["data"]["stance"] == stance


@pytest.mark.parametrize(
    ("red", "blue", "modifier", "value"),
    [
        ({"year": {"won:blue": 2, "lost:blue": 1}}, {}, "won_more", 1),
        ({"year": {"lost:blue": 1}}, {}, "lost_more", -1),
        ({}, {"year": {"leader_lost": 1}}, "leader_lost", 1),
        ({}, {"hero": True}, "hero_employed", -1),
    ],
)
def test_stance_modifiers(tmp_path: Path, red: dict, blue: dict, modifier: str, value: int) -> None:
    result = resolve_accepted(tmp_path / "f.yaml", _fixture(3, [5, 5], red=red, blue=blue))
    stance_roll = _diplomacy(result)["rolls"][0]
    assert stance_roll["modifiers"] == [{"source": modifier, "value": value}]
    assert stance_roll["total"] == 3 + value


# (stance die, the two dice, the row, what it leaves in the state: dotted path -> value). The effects
# on a nation are timed: from this winter (turn 4) to the end of next winter (turn 8).
ROWS = [
    (1, [1, 2], "considers_alliance", {"factions.red.modifiers.alliance_talks:blue": 1}),
    (1, [1, 6], "good_progress", {"factions.red.modifiers.alliance_talks:blue": 1}),
    (1, [5, 6], "diplomatic_blow", {}),
    (
        3,
        [1, 2],
        "war_success_no_attack",
        {"factions.blue.modifiers.war_success": 1, "factions.blue.modifiers.no_attack:red": 1},
    ),
    (
        3,
        [1, 6],
        "war_success_choice_minus",
        {"factions.blue.modifiers.war_success": 1, "factions.blue.modifiers.choice:red": -1},
    ),
    (
        3,
        [5, 6],
        "war_success_choice_plus",
        {"factions.blue.modifiers.war_success": 1, "factions.blue.modifiers.choice:red": 1},
    ),
    (4, [1, 2], "choice_minus", {"factions.blue.modifiers.choice:red": -1}),
    (4, [1, 6], "no_result", {}),
    (4, [5, 6], "threat_resented", {"factions.red.modifiers.offended:blue": -1}),
    (5, [1, 2], "tribute", {"factions.blue.modifiers.tribute_to:red": 1}),
    (5, [1, 6], "no_result", {}),
    # the war is declared next season: this winter it is only pending (the spring test below)
    (5, [5, 6], "war_declared", {"factions.blue.war_next_season": ["red"], "factions.blue.wars": []}),
]


@pytest.mark.parametrize(("face", "dice", "row", "after"), ROWS, ids=[f"{r[0]}-{r[2]}" for r in ROWS])
def test_every_row_of_the_diplomacy_tables(
    tmp_path: Path, face: int, dice: list[int], row: str, after: dict
) -> None:
    fixture = _fixture(face, dice)
    if row == "war_declared":
        fixture["rolls"]["t4/insult/blue/red"] = [4]
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    assert _diplomacy(result)["data"]["result"] == row
    sentence = RULESET.describe(_diplomacy(result), Scenario(tmp_path / "f.yaml").game)
    assert sentence.startswith("red's diplomat visits blue (")
    assert ("will declare war next season and gains 4 free recruiting rolls" in sentence) == (
        row == "war_declared"
    )
    for dotted, value in after.items():
        assert lookup(result.state, dotted) == value, dotted
        holder, name = dotted.split(".")[1], dotted.split(".")[-1]
        if ".modifiers." in dotted:
            assert result.state["effects"][f"factions/{holder}/{name}"]["until"] == 8  # all next year
    if not after:
        assert "effects" not in result.state and "relations" not in result.state
    if row == "war_declared":
        assert result.state["factions"]["blue"]["free_rolls"] == 4  # 1d6 free recruiting rolls
        assert result.state["factions"]["red"]["wars"] == []


@pytest.mark.parametrize("dice", [[1, 6], [1, 2]], ids=["good_progress", "considers_alliance"])
def test_a_friendly_success_during_talks_makes_an_alliance(tmp_path: Path, dice: list[int]) -> None:
    """Talks opened by either side last winter: this winter's friendly success concludes the alliance."""
    blue = {"modifiers": {"alliance_talks:red": 1}}
    result = resolve_accepted(tmp_path / "f.yaml", _fixture(1, dice, blue=blue))
    assert result.state["relations"]["blue/red"]["kind"] == "alliance"
    assert "until" not in result.state["relations"]["blue/red"]  # until a blow or an insult ends it
    assert "alliance_talks:red" not in result.state["factions"]["blue"]["modifiers"]
    assert _diplomacy(result)["data"]["allied"] is True
    sentence = RULESET.describe(_diplomacy(result), Scenario(tmp_path / "f.yaml").game)
    assert sentence.endswith("; the two nations are now allies.")


def test_a_diplomatic_blow_ends_talks_and_the_alliance(tmp_path: Path) -> None:
    fixture = _fixture(1, [5, 6], red={"modifiers": {"alliance_talks:blue": 1}})
    fixture["state"]["relations"] = {"blue/red": {"parties": ["blue", "red"], "kind": "alliance", "since": 1}}
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    assert "relations" not in result.state
    assert "alliance_talks:blue" not in result.state["factions"]["red"]["modifiers"]
    assert _diplomacy(result)["data"]["alliance_ended"] is True


def test_dominating_an_enemy_enforces_peace(tmp_path: Path) -> None:
    fixture = _fixture(5, [1, 2], red={"wars": ["blue"]}, blue={"wars": ["red"]})
    for nation in ("red", "blue"):  # both carry on through winter's two will-to-fight tests
        for step in ("winter_morale_check", "winter_morale_check_2"):
            fixture["rolls"][f"t4/will/{nation}/{step}"] = [1, 1]
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    blue = result.state["factions"]["blue"]
    assert blue["wars"] == [] and result.state["factions"]["red"]["wars"] == []
    peace = result.state["relations"]["blue/red"]
    assert (peace["kind"], peace["loser"], peace["winner"], peace["until"]) == (
        "enforced_peace",
        "blue",
        "red",
        8,
    )
    assert "tribute_to:red" not in blue.get("modifiers", {})  # peace instead of tribute
    sentence = RULESET.describe(_diplomacy(result), Scenario(tmp_path / "f.yaml").game)
    assert sentence.endswith("tribute; blue must accept an enforced peace.")


INTEREST_CASES = [
    # (red, blue, stance die, the interest modifiers expected in the ledger)
    (
        {"interest": "conquest", "stock": {"resources": 9}},
        {"interest": "loot", "wars": []},
        1,
        {"own_conquest": 1, "target_loot": -1, "target_at_peace": 1, "own_at_peace": 1, "own_richer": 1},
    ),
    (
        {"interest": "colonizing"},
        {"interest": "conquest", "stock": {"resources": 9}},
        3,
        {"own_colonizing": -1, "target_conquest": 1, "target_at_peace": -1, "own_at_peace": 1},
    ),
    (
        {"interest": "loot", "wars": ["blue"]},
        {"interest": "colonizing", "wars": ["red"]},
        4,
        {"own_loot": 1, "target_at_war": 1, "own_at_war": 1},
    ),
    (
        {"interest": "conquest"},
        {"interest": "colonizing", "stock": {"resources": 9}},
        1,
        {
            "own_conquest": 1,
            "target_colonizing": -1,
            "target_at_peace": 1,
            "own_at_peace": 1,
            "target_richer": 1,
        },
    ),
]


@pytest.mark.parametrize(("red", "blue", "face", "expected"), INTEREST_CASES)
def test_interest_table_modifiers(tmp_path: Path, red: dict, blue: dict, face: int, expected: dict) -> None:
    fixture = _fixture(
        face, [5, 5], red=red, blue=blue, interests=RULESET.default_rules()["diplomacy_interest"]
    )
    if red.get("wars"):  # both carry on through winter's two will-to-fight tests
        for nation in ("red", "blue"):
            for step in ("winter_morale_check", "winter_morale_check_2"):
                fixture["rolls"][f"t4/will/{nation}/{step}"] = [1, 1]
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    ledger = {m["source"]: m["value"] for m in _diplomacy(result)["rolls"][1]["modifiers"]}
    assert ledger == expected


def test_land_modifiers(tmp_path: Path) -> None:
    fixture = _fixture(5, [5, 5], interests=RULESET.default_rules()["diplomacy_interest"])
    fixture["world"]["locales"]["b1"] = ["b0"]
    fixture["state"]["provinces"]["b1"] = {"owner": "blue"}
    result = resolve_accepted(tmp_path / "f.yaml", fixture)
    ledger = {m["source"]: m["value"] for m in _diplomacy(result)["rolls"][1]["modifiers"]}
    assert ledger["target_more_land"] == -1
    fixture["state"]["provinces"]["b1"] = {"owner": "red"}
    result = resolve_accepted(tmp_path / "g.yaml", fixture)
    ledger = {m["source"]: m["value"] for m in _diplomacy(result)["rolls"][1]["modifiers"]}
    assert ledger["target_less_land"] == -1


def test_an_insults_war_waits_for_spring_and_then_begins(tmp_path: Path) -> None:
    """The seed: a Dominating visit without success makes the target declare war next season. Through
    winter the pair stays at peace; the spring turn opens with the war and its sentence."""
    fixture = _fixture(5, [5, 6])
    fixture["rolls"]["t4/insult/blue/red"] = [4]
    winter = resolve_accepted(tmp_path / "winter.yaml", fixture)
    assert winter.state["factions"]["blue"]["wars"] == []
    spring = {**fixture, "state": winter.state, "orders": {"red": [], "blue": []}, "rolls": {}}
    result = resolve_accepted(tmp_path / "spring.yaml", spring)
    assert result.state["factions"]["blue"]["wars"] == ["red"]
    assert result.state["factions"]["blue"]["attacking"] == ["red"]
    assert "war_next_season" not in result.state["factions"]["blue"]
    [begun] = [e.to_data() for e in result.events if e.kind == "war_begins"]
    sentence = RULESET.describe(begun, Scenario(tmp_path / "spring.yaml").game)
    assert sentence == "blue declares the war it promised last winter on red."
    counted = next(e for e in result.events if e.kind == "recruiting_rolls" and e.actors == ["blue"])
    assert counted.to_data()["data"]["free"] == 4
