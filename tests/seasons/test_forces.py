"""Issue 22, found while playing: an invasion of a nation one is not at war with is refused by the checker
in the words the resolver uses when it carries the order out, and units raised in summer show in the
template's "Where you stand"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import yaml

from resolver.core.orders import Order

from ..scenarios.harness import Scenario

WORLD = {"locales": {"r0": ["r1"], "r1": ["b0"], "b0": []}}
PROVINCES = {
    "r0": {"owner": "red", "capital": True},
    "r1": {"owner": "red"},
    "b0": {"owner": "blue", "capital": True},
}


def _scenario(tmp_path: Path, turn: int, orders: list[dict], **factions: dict) -> Scenario:
    fixture = {
        "ruleset": "seasons",
        "world": WORLD,
        "state": {
            "turn": turn,
            "provinces": PROVINCES,
            "factions": factions,
            "armies": {
                "ra": {"owner": "red", "location": "r0", "units": [{"code": "FF"}]},
                "ba": {"owner": "blue", "location": "b0", "units": [{"code": "FF"}]},
            },
        },
        "orders": {"red": orders, "blue": []},
    }
    path = tmp_path / "f.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


def test_an_invasion_without_a_war_is_refused_by_the_checker_as_the_resolver_refuses_it(
    tmp_path: Path,
) -> None:
    scenario = _scenario(tmp_path, 1, [{"action": "invade", "province": "b0"}])
    files = scenario.order_files()
    [error] = files["red"].errors
    assert error.message == "you are not at war with blue"
    assert "declare_war" in error.hint and error.line > 0
    # The same order carried out anyway (as if the checker had let it through): the resolver's reading
    # refuses it with the same words, in an event for red, instead of letting it vanish.
    forced = replace(files["red"], issues=[], orders=[Order(1, "invade", {"province": "b0"})])
    result = scenario.resolve({**files, "red": forced})
    failed = [e for e in result.events if e.kind == "order_failed"]
    assert [(e.actors, e.data["action"], e.data["reason"]) for e in failed] == [
        (["red"], "invade", error.message)
    ]
    assert not [e for e in result.events if e.kind in ("invaded", "invasion_planned")]


def test_units_raised_in_summer_show_where_you_stand(tmp_path: Path) -> None:
    scenario = _scenario(tmp_path, 2, [{"action": "recruit", "rolls": 1}], red={"rolls": 1})
    files = scenario.order_files()
    assert files["red"].ok, [i.message for i in files["red"].errors]
    result = scenario.resolve(files)
    raised = [e for e in result.events if e.kind == "recruited"]
    assert len(raised) == 1
    lines = scenario.game.ruleset.status_lines(scenario.game, result.state, "red")
    assert any("red-n1" in line for line in lines), lines


def test_units_waiting_for_their_army_show_where_you_stand(tmp_path: Path) -> None:
    """A levy's veterans wait in the nation's recruits until the next muster: they show too."""
    scenario = _scenario(tmp_path, 2, [])
    state = scenario.state
    state["factions"]["red"]["recruits"] = [
        {"id": "red-n7", "code": "EF", "morale": "Veteran", "wins": 0, "hits": 0}
    ]
    lines = scenario.game.ruleset.status_lines(scenario.game, state, "red")
    assert any("red-n7 EF Veteran" in line for line in lines), lines
