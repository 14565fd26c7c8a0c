"""Agreements between nations (issue 9 point 5): what the players read about them, besides the scenarios.

The scenarios under tests/scenarios/nations/agreements_*.yaml settle what happens; these tests check the
words around it: every refusal has a fix, the sentences render (player notes stay text), the rules page
takes its numbers from the rules data, both reports list the agreement, and the order schema offers it.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from resolver.rulesets.nations import RULESET
from resolver.rulesets.nations import agreements as ag

from ..scenarios.harness import Scenario

SCENARIOS = Path(__file__).parent.parent / "scenarios" / "nations"


def scenario(name: str, tmp_path: Path | None = None, **changes: object) -> Scenario:
    path = SCENARIOS / f"{name}.yaml"
    if changes and tmp_path is not None:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data.update(changes)
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return Scenario(path)


def test_every_refused_agreement_says_how_to_fix_it() -> None:
    sc = scenario("agreements_check_errors")
    red = sc.order_files()["red"]
    assert len(red.errors) == 8
    for issue in red.errors + red.warnings:
        assert issue.hint, f"no fix for: {issue.message}"
        assert issue.line > 0 and issue.col > 0


def test_agreement_events_read_as_sentences(tmp_path: Path) -> None:
    sentences = []
    for name in (
        "agreements_trade_made_when_both_orders_match",
        "agreements_unmatched_terms_make_nothing",
        "agreements_marauder_on_road_takes_half_the_trade",
        "agreements_payment_alliance_and_ending",
    ):
        sc = scenario(name)
        result = sc.resolve(sc.order_files())
        for event in result.events:
            if event.kind.startswith("agreement") or event.kind == "trade":
                sentences.append(RULESET.describe(event.to_data(), sc.game))
    text = "\n".join(sentences)
    assert "blue and red agree a trade for 2 turns: blue sends 3, red sends 2 resources a turn by road" in (
        text
    )
    assert "marauders of green (army 1) carry off 3" in text
    assert "No trade with blue this turn: blue gives 2 and gets 2, but red gives 2 and gets 3." in text
    assert "red pays 5 resources (army 2 marches for red / mercenaries)" in text
    assert "The alliance between green and red ends: green breaks it off." in text
    assert "The trade between blue and green ends, its turns run out." in text
    assert "{" not in text and "_" not in text


def test_a_players_note_is_text_never_template_source() -> None:
    sc = scenario("agreements_payment_alliance_and_ending")
    files = sc.order_files()
    hostile = "{{ 6*7 }} {% if 1 %}x{% endif %} {# c #} <script>"
    for of in files.values():
        for order in of.orders:
            if order.get("note"):
                order.args["note"] = hostile  # type: ignore[index]
    result = sc.resolve(files)
    made = next(e for e in result.events if e.kind == "agreement_made" and e.data["deal"] == "payment")
    sentence = RULESET.describe(made.to_data(), sc.game)
    assert f"({hostile} / {hostile})" in sentence and "42" not in sentence


def test_the_rules_page_takes_its_numbers_from_the_rules_data(tmp_path: Path) -> None:
    def agreements_text(sc: Scenario) -> str:
        section = next(s for s in RULESET.rules_sections(sc.game) if s.title == "Diplomacy and agreements")
        return " ".join(str(block) for block in section.blocks)

    default = agreements_text(scenario("agreements_trade_made_when_both_orders_match"))
    assert "carries off 50%" in default and "up to 10 turns" in default and "0 action points" in default
    house = scenario(
        "agreements_trade_made_when_both_orders_match",
        tmp_path,
        rules={"agreements": {"marauder_share_percent": 25, "trade_max_turns": 4, "actions": 1}},
    )
    changed = agreements_text(house)
    assert "carries off 25%" in changed and "up to 4 turns" in changed and "1 action point." in changed
    # The same numbers drive the resolver: a quarter of 4 and of 2, rounded down, is 1 and 0.
    house = scenario(
        "agreements_marauder_on_road_takes_half_the_trade",
        tmp_path,
        rules={"agreements": {"marauder_share_percent": 25}},
    )
    trade = next(e for e in house.resolve(house.order_files()).events if e.kind == "trade")
    assert trade.data["skimmed"] == 1 and trade.data["received"] == {"red": 2, "blue": 3}


def test_both_reports_list_a_trade_in_force() -> None:
    sc = scenario("agreements_trade_made_when_both_orders_match")
    state = sc.resolve(sc.order_files()).state
    red = RULESET.status_lines(sc.game, state, "red")
    blue = RULESET.status_lines(sc.game, state, "blue")
    assert "Trade with blue until turn 2: you send 2 and receive 3 resources a turn along E4–D4." in red
    assert "Trade with red until turn 2: you send 3 and receive 2 resources a turn along E4–D4." in blue
    assert [g["id"] for g in ag.agreements_of(state, "red")] == ["blue-red-trade"]


def test_the_order_models_offer_agree_with_its_fields() -> None:
    sc = scenario("agreements_trade_made_when_both_orders_match")
    spec = RULESET.actions(sc.game.rules)["agree"]
    names = {f.name for f in spec.fields}
    assert names == {"partner", "kind", "give", "get", "route", "turns", "end", "note"}
    assert spec.field("kind").choices == ("trade", "payment", "alliance")  # type: ignore[union-attr]
    assert spec.field("turns").maximum == 10  # type: ignore[union-attr]
