"""Relations and timed effects end to end (issue 10 point 10): the GM sets them for some turns, the engine
ends them at the turn boundary with an event, and nations' alliances are relations too."""

from __future__ import annotations

from pathlib import Path

from resolver.core import canonical, relations
from resolver.store.replay import verify
from resolver.store.resolution import resolve
from resolver.store.store import Store
from resolver.workflow import check, default_factions, new_campaign

from .nations.test_agreements import scenario
from .test_npc_and_late_factions import gm_file


def events(root: Path, turn: int) -> list[dict]:
    return canonical.read_yaml(root / f"campaign/turns/{turn:04d}/events.yaml")["events"]


def test_a_relation_and_a_modifier_set_for_some_turns_run_out_with_an_event(tmp_path: Path) -> None:
    root = tmp_path / "nations"
    game = new_campaign(root, "nations", 5, default_factions(3, 5))
    gm_file(
        root,
        "  - {action: relation, faction: red, other: blue, kind: tribute, turns: 2,\n"
        "     reason: Terms of the peace}\n"
        "  - {action: modifier, target: green, name: attack, value: 1, turns: 1}\n",
    )
    (of,) = check(root)
    assert of.echo[1] == "set the relation of " + (
        f"{game.name_of('red')} and {game.name_of('blue')} to tribute for 2 turn(s): Terms of the peace"
    )
    resolve(root)
    state = Store(root).state()
    assert state["relations"] == {
        "blue/red": {"parties": ["blue", "red"], "kind": "tribute", "since": 1, "until": 2}
    }
    assert relations.between(state, game.rules, "red", "blue") == "tribute"
    turn1 = events(root, 1)
    expired = [e for e in turn1 if e["kind"] == "effect_expired"]
    assert [e["data"] for e in expired] == [{"target": "green", "name": "attack", "value": 1}]
    assert expired[0]["phase"] == "expiry" and turn1[-1] is expired[0]  # the last step of the turn
    assert "attack" not in state["factions"]["green"]["modifiers"] and "effects" not in state
    template = (root / "orders/templates/red.yaml").read_text(encoding="utf-8")
    assert f"#   Relation with {game.name_of('blue')} [blue]: tribute until the end of turn 2.\n" in template

    resolve(root)
    state = Store(root).state()
    assert "relations" not in state and relations.between(state, game.rules, "red", "blue") == "neutral"
    (ended,) = [e for e in events(root, 2) if e["kind"] == "relation_expired"]
    assert ended["visibility"] == "public" and ended["actors"] == ["blue", "red"]
    sentence = game.ruleset.describe(ended, game)
    assert sentence == (
        f"The tribute between {game.name_of('blue')} and {game.name_of('red')} runs out; "
        "they are neutral again."
    )
    assert all(turn.ok for turn in verify(root))


def test_a_relation_names_known_factions_and_a_known_kind(tmp_path: Path) -> None:
    root = tmp_path / "nations"
    new_campaign(root, "nations", 5, default_factions(2, 5))
    gm_file(
        root,
        "  - {action: relation, faction: red, other: bleu, kind: war}\n"
        "  - {action: relation, faction: red, other: red, kind: war}\n"
        "  - {action: relation, faction: red, other: blue, kind: truce}\n",
    )
    (of,) = check(root)
    messages = [(i.message, i.hint) for i in of.errors]
    assert messages[0] == (
        "'other': there is no 'bleu' among the factions",
        f"did you mean 'blue' ({Store(root).game().name_of('blue')})?",
    )
    assert messages[1][0] == "a relation joins two different factions"
    assert messages[2][0] == "'truce' is not a valid kind" and "enforced_peace" in messages[2][1]


def test_an_alliance_agreement_is_the_pair_s_relation() -> None:
    sc = scenario("agreements_payment_alliance_and_ending")
    sc.state["relations"] = {"green/red": {"parties": ["green", "red"], "kind": "alliance", "since": 0}}
    result = sc.resolve(sc.order_files())
    assert result.state["relations"] == {
        "blue/red": {"parties": ["blue", "red"], "kind": "alliance", "since": 1}
    }
    assert relations.between(result.state, sc.game.rules, "green", "red") == "neutral"  # green ended it


def test_the_rules_page_lists_the_relations_from_the_rules_data(tmp_path: Path, run) -> None:
    root = tmp_path / "nations"
    new_campaign(root, "nations", 5, default_factions(2, 5))
    (root / "campaign/rules.yaml").write_text("relations:\n  kinds:\n    vassal: One serves the other.\n")
    code, _, err = run("site", "--root", root, "--no-build")
    assert code == 0, err
    page = (root / "site/rules/index.md").read_text(encoding="utf-8")
    assert "Relations between factions" in page and "**neutral** until something changes it" in page
    assert "Enforced peace" in page and "One serves the other." in page  # a house rule adds a relation
