"""Words, not internals, on the seasons pages (issue 22, section 2): a diplomatic result, a Marshal's
attribute and a roll's table result are named in words, the same in the chronicle's sentences and in the
rules page's tables; a battle, a draw too, says what each side lost; the template's status names
commanders and armies, with the id an order needs in brackets; hiring a Marshal makes a headline."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from resolver.core.rulesdoc import RulesTable
from resolver.rulesets.seasons import RULESET, naming

from ..scenarios.harness import Scenario, resolve_accepted

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def _game(tmp_path: Path) -> Any:
    fixture = {
        "ruleset": "seasons",
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": 1,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
        },
        "orders": {"red": [], "blue": []},
    }
    resolve_accepted(tmp_path / "f.yaml", fixture)
    return Scenario(tmp_path / "f.yaml").game


def _diplomacy(result: str) -> dict[str, Any]:
    return {
        "kind": "diplomacy",
        "turn": 4,
        "actors": ["red", "blue"],
        "data": {"stance": "deceiving", "result": result},
        "rolls": [],
    }


def test_every_diplomatic_result_reads_as_words_in_the_sentence(tmp_path: Path) -> None:
    game = _game(tmp_path)
    checks = ("diplomacy_friendly", "diplomacy_deceiving", "diplomacy_intimidating", "diplomacy_dominating")
    for check in checks:
        for row in game.rules["checks"][check]["table"]:
            said = RULESET.describe(_diplomacy(row["result"]), game)
            assert said.endswith(f"(deceiving): {naming.said(game.rules, row['result'])}."), said
            assert not re.search(r"war success|choice (?:plus|minus)|no attack", said), said
    said = RULESET.describe(_diplomacy("war_success_no_attack"), game)
    assert (
        said
        == "red's diplomat visits blue (deceiving): eager for war next year, but never against the visitor."
    )


def test_the_rules_tables_use_the_same_words_as_the_sentences(tmp_path: Path) -> None:
    game = _game(tmp_path)
    sections = {s.keys[0]: s for s in RULESET.rules_sections(game) if s.keys}
    deceiving = next(b for b in sections["checks.diplomacy_deceiving"].blocks if isinstance(b, RulesTable))
    results = [row[1] for row in deceiving.rows]
    assert "War success no attack" not in results
    assert "Eager for war next year, but never against the visitor" in results
    effects = next(b for b in sections["attribute_effects"].blocks if isinstance(b, RulesTable))
    attributes = {row[0] for row in effects.rows}
    assert "Friendly with foe's foe" in attributes and "Friendly with foes foe" not in attributes
    strength = next(b for b in sections["checks.strength"].blocks if isinstance(b, RulesTable))
    assert "Friendly with foe's foe" in [row[1] for row in strength.rows]


def test_a_marshals_attributes_and_a_weakness_read_as_the_seed_names_them(tmp_path: Path) -> None:
    game = _game(tmp_path)
    event = {
        "kind": "marshal_attributes",
        "turn": 1,
        "actors": ["red"],
        "data": {
            "commander_name": "Cedwin",
            "attributes": ["friendly_with_foes_foe", "hammer_and_anvil"],
            "reputation": 4,
            "weapon": None,
        },
    }
    said = RULESET.describe(event, game)
    assert "Friendly with foe's foe, Hammer and Anvil adept" in said, said


def test_a_rolls_table_result_in_the_dice_ledger_is_named_in_words() -> None:
    roll = {"decided": "diplomacy_deceiving: war success no attack", "result": "war_success_no_attack"}
    assert (
        RULESET.decision(roll)
        == "diplomacy_deceiving: eager for war next year, but never against the visitor"
    )


# -- a battle says what each side lost ------------------------------------------------------------------


def _draw_with_losses() -> dict[str, Any]:
    """One round: red's Free foot scores 2 hits, blue's Peasant levy 1; neither routs, one unit stands on
    each side: a draw that cost both sides."""
    return {
        "ruleset": "seasons",
        "rules": {"battle": {"rounds": 1}},
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": 1,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
            "factions": {"red": {"wars": ["blue"], "attacking": ["blue"]}, "blue": {"wars": ["red"]}},
            "commanders": {"rc": {"owner": "red", "reputation": 1}, "bc": {"owner": "blue", "reputation": 1}},
            "armies": {
                "ra": {"owner": "red", "location": "r0", "commander": "rc", "units": [{"code": "FF"}]},
                "ba": {"owner": "blue", "location": "b0", "commander": "bc", "units": [{"code": "PC"}]},
            },
        },
        "orders": {"red": [], "blue": []},
        "rolls": {
            "t1/ambush/b0/ba": [6],
            "t1/ambush/b0/ra": [1],
            "t1/battle/b0/ra-u1/r1/attack": [1, 1, 6, 6],
            "t1/battle/b0/ba-u1/r1/defence": [6, 6, 6],
            "t1/battle/b0/ba-u1/r1/attack": [1, 6],
            "t1/battle/b0/ra-u1/r1/defence": [6, 6],
        },
    }


def test_a_draw_says_what_each_side_lost(tmp_path: Path) -> None:
    result = resolve_accepted(tmp_path / "f.yaml", _draw_with_losses())
    game = Scenario(tmp_path / "f.yaml").game
    battle = next(e.to_data() for e in result.events if e.kind == "battle")
    assert battle["data"]["winner"] is None
    assert battle["data"]["losses"]["red"]["hits"] > 0 and battle["data"]["losses"]["blue"]["hits"] > 0
    said = RULESET.describe(battle, game)
    assert "a draw" in said
    for nation in ("red", "blue"):
        hits = battle["data"]["losses"][nation]["hits"]
        assert f"{nation} takes {hits} hit" in said, said


# -- the template's status ------------------------------------------------------------------------------


def test_the_status_names_commanders_and_armies_with_the_id_an_order_needs(tmp_path: Path) -> None:
    fixture = _draw_with_losses()
    fixture["state"]["commanders"]["rc"]["name"] = "Aldric"
    resolve_accepted(tmp_path / "f.yaml", fixture)
    scenario = Scenario(tmp_path / "f.yaml")
    lines = RULESET.status_lines(scenario.game, scenario.state, "red")
    army = next(line for line in lines if "[ra]" in line)
    assert "under Aldric [rc]" in army, army
    assert not army.startswith("Army ra "), army
    assert not re.search(r"under rc\b", army), army


# -- headlines for the army orders' events --------------------------------------------------------------


def _headline(game: Any, event: dict[str, Any]) -> set[str]:
    found = RULESET.headline_options(event, game)
    return {text for text in (found[1] if found else []) if text.strip()}


def test_hiring_a_marshal_is_news_a_captain_is_not(tmp_path: Path) -> None:
    game = _game(tmp_path)
    hired = {"kind": "commander_hired", "turn": 2, "actors": ["red"], "visibility": "public"}
    marshal = {**hired, "data": {"rank": "marshal", "commander_name": "Osric", "tier": "star", "cost": 1}}
    captain = {**hired, "data": {"rank": "captain", "commander_name": "Wulf", "tier": None, "cost": 1}}
    assert any("Osric" in text for text in _headline(game, marshal))
    assert not _headline(game, captain)
    outcomes = RULESET.headline_outcomes()
    assert "commander_hired" in outcomes and "army_stationed" in outcomes
    stationed = {"kind": "army_stationed", "turn": 2, "actors": ["red"], "place": "b0", "data": {}}
    assert _headline(game, stationed)
