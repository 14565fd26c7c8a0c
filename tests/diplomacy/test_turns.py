"""Diplomacy played through the real commands: ``campaign new``, order files, ``campaign check`` and
``campaign resolve``. One turn a phase, a phase nobody has a choice in skipped, supply centres changing hands
after the autumn, winter builds, a dislodged unit's retreat, and the same inputs giving the same bytes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.engine.ruleset import get_ruleset
from resolver.engine.turn import resolve_turn
from resolver.engine.validate import check_order_file
from resolver.rulesets.diplomacy import model as m
from resolver.store.store import Store
from tests.conftest import archived_events, tree_bytes

Run = Callable[..., tuple[int, str, str]]
CAMPAIGN = "diplomacy-test"


def new_campaign(run: Run, root: Path) -> None:
    code, out, err = run(
        "new", "--ruleset", "diplomacy", "--root", root, "--open", "--seed", "7", "--name", "Diplomacy Test"
    )
    assert code == 0, err
    assert "turn 1 is Spring 1901" in out


def state(root: Path) -> dict:
    return canonical.read_yaml(root / "campaign" / "state.yaml")


def play(run: Run, root: Path, orders: dict[str, list[str]]) -> str:
    """Write each power's orders as its file, check them, resolve the turn; the command's output."""
    turn = int(state(root)["turn"])
    for power, lines in orders.items():
        body = "".join(f"  - {line}\n" for line in lines)
        text = f"campaign: {CAMPAIGN}\nturn: {turn}\nfaction: {power}\norders:\n{body}"
        (root / "orders" / f"{power}.yaml").write_text(text, encoding="utf-8")
    if orders:
        code, out, err = run("check", "--root", root)
        assert code == 0, out + err
    code, out, err = run("resolve", "--root", root, *([] if orders else ["--force"]))
    assert code == 0, err
    for path in (root / "orders").glob("*.yaml"):
        path.unlink()
    return out


def units_at(root: Path) -> dict[str, tuple[str, str]]:
    return {record["location"]: (record["owner"], record["kind"]) for record in state(root)["units"].values()}


def missed_after_turn(root: Path) -> dict[str, int]:
    return {power: record["missed_turns"] for power, record in state(root)["factions"].items()}


def events_of(root: Path, turn: int, kind: str) -> list[dict]:
    return [event for event in archived_events(root) if event["turn"] == turn and event["kind"] == kind]


@pytest.fixture
def root(tmp_path: Path, run: Run) -> Path:
    folder = tmp_path / "dip"
    new_campaign(run, folder)
    return folder


def test_a_new_campaign_has_the_seven_powers_the_1901_units_and_the_34_centres(root: Path) -> None:
    start = state(root)
    assert sorted(start["factions"]) == [
        "austria",
        "england",
        "france",
        "germany",
        "italy",
        "russia",
        "turkey",
    ]
    assert len(start["units"]) == 22
    assert units_at(root)["stp/sc"] == ("russia", "fleet")
    assert len(start["centres"]) == 34
    assert sum(1 for owner in start["centres"].values() if owner) == 22
    assert start["phase"] == {"year": 1901, "season": "spring", "kind": "movement"}


def first_four_turns(run: Run, root: Path) -> list[str]:
    """Spring 1901 (a bounce), Autumn 1901 (Munich and Holland change hands), Winter 1901 (France builds),
    Spring 1902 (Germany dislodges the French army in Munich): the output of each turn."""
    outs = [
        play(
            run,
            root,
            {
                "france": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
                "germany": ["A MUN - BUR", "A BER - KIE", "{unit: F KIE, move: HOL}"],
            },
        )
    ]
    outs.append(play(run, root, {"france": ["A BUR - MUN"], "germany": ["A MUN - RUH"]}))
    outs.append(play(run, root, {"france": ["BUILD A PAR"]}))
    outs.append(play(run, root, {"germany": ["A RUH - MUN", "A KIE S A RUH - MUN"], "france": ["A MUN H"]}))
    return outs


def test_a_year_of_turns_spring_autumn_winter_builds_then_a_retreat(root: Path, run: Run) -> None:
    out = play(
        run,
        root,
        {
            "france": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
            "germany": ["A MUN - BUR", "A BER - KIE", "{unit: F KIE, move: HOL}"],
        },
    )
    assert "== Turn 1: Spring 1901 ==" in out
    assert "The German army in Munich failed to move to Burgundy: it bounced." in out
    assert "The French army in Paris moved to Burgundy." in out
    assert "Next: turn 2 (Autumn 1901)" in out  # no unit dislodged: no spring retreats
    assert state(root)["centres"]["hol"] is None  # centres change hands only after the autumn

    out = play(run, root, {"france": ["A BUR - MUN"], "germany": ["A MUN - RUH"]})
    assert "== Turn 2: Autumn 1901 ==" in out
    after = state(root)
    assert after["centres"]["mun"] == "france" and after["centres"]["hol"] == "germany"
    changed = {
        (e["data"]["province"], e["data"]["power"], e["data"]["previous"])
        for e in events_of(root, 2, "centre_changed")
    }
    assert changed == {("mun", "france", "germany"), ("hol", "germany", None)}
    assert "Munich passed to France from Germany." in out
    assert after["phase"] == {"year": 1901, "season": "winter", "kind": "adjustment"}
    assert "Next: turn 3 (Winter 1901)" in out

    # France owns 4 centres with 3 units: one build, in Paris (empty, owned, a home centre).
    out = play(run, root, {"france": ["BUILD A PAR"]})
    assert "== Turn 3: Winter 1901 ==" in out
    assert units_at(root)["par"] == ("france", "army")
    built = events_of(root, 3, "built")
    assert [(e["data"]["power"], e["data"]["unit"]) for e in built] == [("france", "par")]
    assert "Next: turn 4 (Spring 1902)" in out

    # Germany takes Munich back with support: the French army there is dislodged and may retreat.
    out = play(run, root, {"germany": ["A RUH - MUN", "A KIE S A RUH - MUN"], "france": ["A MUN H"]})
    assert "== Turn 4: Spring 1902 ==" in out
    assert "The French army in Munich stood its ground but was dislodged." in out
    dislodged = events_of(root, 4, "dislodged")
    assert [e["data"]["unit"] for e in dislodged] == ["mun"]
    assert "ruh" not in dislodged[0]["data"]["retreats"]  # not where the attacker came from
    assert "bur" in dislodged[0]["data"]["retreats"]
    assert state(root)["phase"] == {"year": 1902, "season": "spring", "kind": "retreat"}
    assert "Next: turn 5 (Spring 1902 retreats)" in out

    missed_before = missed_after_turn(root)
    out = play(run, root, {"france": ["A MUN - BUR"]})
    assert "== Turn 5: Spring 1902 retreats ==" in out
    assert "No orders arrived" not in out  # only France had a unit to retreat: nobody else was awaited
    assert "The French army in Munich retreated to Burgundy." in out
    assert units_at(root)["bur"] == ("france", "army")
    assert state(root)["dislodged"] == {}
    assert "Next: turn 6 (Autumn 1902)" in out
    assert missed_after_turn(root) == missed_before  # nobody without a dislodged unit missed the retreats


def test_a_dislodged_unit_given_no_retreat_is_disbanded(root: Path, run: Run) -> None:
    first_four_turns(run, root)
    assert len(state(root)["units"]) == 22  # 23 after the French build, less the dislodged army
    out = play(run, root, {})
    assert "The French army from Munich left the board, given no retreat." in out
    assert len(state(root)["units"]) == 22 and "mun" not in [
        u for u in units_at(root) if units_at(root)[u][0] == "france"
    ]
    orders = events_of(root, 5, "order")
    assert [(e["data"]["order_type"], e["data"]["assumed"]) for e in orders] == [("disband", True)]


def test_a_phase_nobody_has_a_choice_in_is_no_turn(root: Path, run: Run) -> None:
    out = play(run, root, {})
    assert "Next: turn 2 (Autumn 1901)" in out  # nothing dislodged: no retreats
    out = play(run, root, {})
    # Nobody gained or lost a centre, so nobody builds or removes: no winter; no centre changed.
    assert "Next: turn 3 (Spring 1902)" in out
    assert state(root)["phase"] == {"year": 1902, "season": "spring", "kind": "movement"}
    assert events_of(root, 2, "centre_changed") == []
    holds = events_of(root, 2, "order")
    assert len(holds) == 22 and all(e["data"]["assumed"] and e["data"]["order_type"] == "hold" for e in holds)


def test_an_illegal_order_is_refused_naming_the_rule_and_if_forced_through_its_unit_holds(
    root: Path, run: Run
) -> None:
    """The checker refuses an order the rules forbid, naming the rule and the places; a file that reaches
    the resolver anyway (the GM forced it) is resolved: that unit holds and the power's other orders stand."""
    text = f"campaign: {CAMPAIGN}\nturn: 1\nfaction: france\norders:\n  - A PAR - MUN\n  - F BRE - MAO\n"
    (root / "orders" / "france.yaml").write_text(text, encoding="utf-8")
    code, out, _ = run("check", "--root", root)
    assert code != 0
    assert "orders/france.yaml:5:" in out and "Munich" in out and "rule: not adjacent" in out

    store = Store(root)
    state_before = store.state()
    game = store.game(state_before)
    checked = check_order_file(game, state_before, text.encode(), "orders/france.yaml")
    assert not checked.ok
    result = resolve_turn(game, state_before, {"france": dataclasses.replace(checked, issues=[])})
    orders = {
        e.data["unit"]: e.data for e in result.events if e.kind == "order" and e.data["power"] == "france"
    }
    assert orders["par"]["result"] == "illegal" and "Munich" in orders["par"]["reason"]
    assert orders["bre"]["result"] == "succeeded"
    assert {unit.location for unit in m.units(result.state) if unit.power == "france"} == {
        "par",
        "mao",
        "mar",
    }


def test_the_same_orders_give_the_same_bytes(tmp_path: Path, run: Run) -> None:
    trees = []
    for name in ("one", "two"):
        folder = tmp_path / name
        new_campaign(run, folder)
        first_four_turns(run, folder)
        play(run, folder, {"france": ["A MUN - BUR"]})
        trees.append(tree_bytes(folder / "campaign"))
    assert trees[0] == trees[1]


def test_a_campaign_is_sealed_unless_asked_open_and_its_factions_are_the_seven_powers(
    tmp_path: Path, run: Run
) -> None:
    code, out, err = run("new", "--ruleset", "diplomacy", "--root", tmp_path / "refused")
    assert code == 2
    assert "a Diplomacy campaign is sealed by default" in out + err and "--open" in out + err
    assert not (tmp_path / "refused" / "campaign").exists()
    key = tmp_path / "campaign.key"
    code, out, err = run("new", "--ruleset", "diplomacy", "--root", tmp_path / "sealed", "--key-file", key)
    assert code == 0, err
    config = canonical.read_yaml(tmp_path / "sealed" / "campaign" / "campaign.yaml")
    assert config["sealed"] is True
    assert "7 factions: austria (Austria), england (England), france (France)" in out


def test_the_rules_pages_come_from_the_data_and_name_every_datc_choice() -> None:
    from resolver.rulesets.diplomacy import rulesdoc
    from resolver.rulesets.diplomacy.adjudication import CHOICES

    rules = get_ruleset("diplomacy").default_rules()
    rules["victory"]["centres"] = 17  # a house rule: the pages follow it
    text = rulesdoc.introduction(rules)
    sections = rulesdoc.sections(rules)
    tables = [block for section in sections for block in section.blocks if not isinstance(block, str)]
    words = text + " ".join(
        block for section in sections for block in section.blocks if isinstance(block, str)
    )
    assert "hold 17 of the 34 supply centres" in text
    assert "75 provinces: 14 inland, 42 on the coast and 19 at sea" in words
    choices = next(table for table in tables if table.caption == "Choices")
    assert [row[0] for row in choices.rows] == [issue for issue, _, _ in CHOICES]
    phases = next(table for table in tables if table.caption == "The phases of a year")
    assert [row[0] for row in phases.rows] == [
        "Spring 1901",
        "Spring 1901 retreats",
        "Autumn 1901",
        "Autumn 1901 retreats",
        "Winter 1901",
    ]
