"""Issue 21 point 2: the engine's own steps are rows of the turn table, so every rules page lists every
step that runs, in order, and a campaign may move an engine step but not drop it."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml

from resolver.core.factions import awaited
from resolver.core.phases import ENGINE_AFTER, ENGINE_BEFORE, ENGINE_STEPS
from resolver.engine.ruleset import RULESETS, get_ruleset
from resolver.engine.steps import ENGINE_ROWS
from resolver.engine.turn import resolve_turn
from resolver.engine.validate import check_order_file
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign

from .test_house_rules import rules_page

TITLES = {step_id: row.title for step_id, row in ENGINE_ROWS.items()}


def listed_steps(page: str) -> list[str]:
    """The titles of the page's turn sequence, in their order ("| 4. Income | ..." gives "Income")."""
    section = page[page.index("## The turn, step by step") :]
    section = section[: section.index("\n## ", 1)]
    rows = [line.split("|")[1].strip() for line in section.splitlines() if line.startswith("| ")]
    # The page is Markdown with the words escaped: read them back as a reader sees them.
    return [
        re.sub(r"\\(.)", r"\1", html.unescape(row.split(". ", 1)[1])) for row in rows if row[:1].isdigit()
    ]


def test_every_engine_step_has_a_row_in_the_order_the_table_places_them() -> None:
    assert tuple(ENGINE_ROWS) == ENGINE_STEPS == ENGINE_BEFORE + ENGINE_AFTER


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_rules_page_lists_the_engine_steps_in_their_places(tmp_path: Path, ruleset: str) -> None:
    root = tmp_path / ruleset
    new_campaign(root, ruleset, 3, default_factions(2, 3))
    own = [row.title for row in get_ruleset(ruleset).phases(get_ruleset(ruleset).default_rules())]
    assert listed_steps(rules_page(root)) == [
        *(TITLES[s] for s in ENGINE_BEFORE),
        *own,
        *(TITLES[s] for s in ENGINE_AFTER),
    ]
    assert [TITLES[s] for s in ENGINE_STEPS] == ["GM rulings", "Missing orders", "Standing orders",
                                                  "Press and rumours", "Expiring effects"]  # fmt: skip


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_house_rule_may_place_an_engine_step_and_the_rest_keep_their_places(
    tmp_path: Path, ruleset: str
) -> None:
    root = tmp_path / ruleset
    new_campaign(root, ruleset, 3, default_factions(2, 3))
    sequence = get_ruleset(ruleset).default_rules()["turn_sequence"]
    moved = [sequence[0], {"engine": "press"}, *sequence[1:]]
    (root / "campaign/rules.yaml").write_text(yaml.safe_dump({"turn_sequence": moved}))
    steps = listed_steps(rules_page(root))
    assert steps[:5] == [
        "GM rulings",
        "Missing orders",
        "Standing orders",
        sequence[0]["title"],
        "Press and rumours",
    ]
    assert steps[-1] == "Expiring effects" and steps.count("Press and rumours") == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_house_rule_naming_an_unknown_engine_step_is_refused_at_its_line(
    run, tmp_path: Path, ruleset: str
) -> None:
    root = tmp_path / ruleset
    new_campaign(root, ruleset, 3, default_factions(2, 3))
    sequence = get_ruleset(ruleset).default_rules()["turn_sequence"]
    (root / "campaign/rules.yaml").write_text(
        yaml.safe_dump({"turn_sequence": [{"engine": "newspaper"}, *sequence]})
    )
    before = (root / "campaign/state.yaml").read_bytes()
    code, out, err = run("check", "--root", root)
    assert code == 1 and "internal error" not in err and "Traceback" not in out + err
    assert (
        "campaign/rules.yaml:" in out
        and "the engine has no step 'newspaper'; its steps are: gm, absent" in out
    )
    assert (root / "campaign/state.yaml").read_bytes() == before


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_turn_runs_the_engine_steps_where_the_table_places_them(tmp_path: Path, ruleset: str) -> None:
    root = tmp_path / ruleset
    new_campaign(root, ruleset, 3, default_factions(2, 3))
    sequence = get_ruleset(ruleset).default_rules()["turn_sequence"]
    (root / "campaign/rules.yaml").write_text(
        yaml.safe_dump({"turn_sequence": [{"engine": "press"}, {"engine": "absent"}, *sequence]})
    )
    store = Store(root)
    game, state = store.game(), store.state()
    faction = awaited(state, game.factions)[0]  # a faction whose orders a player writes
    raw = yaml.safe_dump(
        {
            "campaign": game.campaign,
            "turn": state["turn"],
            "faction": faction,
            "orders": [],
            "press": [{"headline": "Early edition", "body": "The press runs first."}],
        }
    ).encode()
    files = {faction: check_order_file(game, state, raw, f"orders/{faction}.yaml")}
    kinds = [e.kind for e in resolve_turn(game, state, files).events]
    # Placed before the word on missing orders, the press comes out before it; today's fixed order is the
    # other way round.
    assert kinds.index("press") < kinds.index("orders_missing")
