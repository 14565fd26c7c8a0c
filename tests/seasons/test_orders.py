"""Orders per season: the checker refuses an order out of its season with a fix, and each season's
template offers only what can be ordered then."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from resolver.core.canonical import read_yaml
from resolver.store.store import Store

from ..scenarios.harness import Scenario


def _scenario(tmp_path: Path, turn: int, orders: list[dict]) -> Scenario:
    fixture = {
        "ruleset": "seasons",
        "world": {"locales": {"r0": ["b0"], "b0": []}},
        "state": {
            "turn": turn,
            "provinces": {"r0": {"owner": "red", "capital": True}, "b0": {"owner": "blue", "capital": True}},
        },
        "orders": {"red": orders},
    }
    path = tmp_path / "f.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


# The organising orders follow the seed's own in every season of war.
ORGANISE = "*, hire, form_army, split_army, merge_armies, station, command"


@pytest.mark.parametrize(
    ("turn", "order", "season", "allowed"),
    [
        (
            1,
            {"action": "diplomat", "nation": "blue"},
            "Spring",
            ORGANISE.replace("*", "recruit, buy_rolls, declare_war, invade"),
        ),
        (
            3,
            {"action": "buy_rolls", "rolls": 1},
            "Fall",
            ORGANISE.replace("*", "recruit, declare_war, invade"),
        ),
        (4, {"action": "recruit", "rolls": 2}, "Winter", "diplomat"),
        (4, {"action": "invade", "province": "b0"}, "Winter", "diplomat"),
    ],
)
def test_an_order_out_of_season_is_refused_with_a_fix(
    tmp_path: Path, turn: int, order: dict, season: str, allowed: str
) -> None:
    checked = _scenario(tmp_path, turn, [order]).order_files()["red"]
    [error] = checked.errors
    assert error.message == f"'{order['action']}' cannot be ordered in {season}"
    assert error.hint.endswith(f"in {season} you may order: {allowed}")
    assert error.line == 4  # the order's action, in the file as written


def test_the_same_order_in_its_season_is_accepted(tmp_path: Path) -> None:
    checked = _scenario(tmp_path, 4, [{"action": "diplomat", "nation": "blue"}]).order_files()["red"]
    assert checked.ok and checked.echo[1] == "diplomat: blue"  # the scenario names no factions


def test_a_diplomat_to_oneself_is_refused(tmp_path: Path) -> None:
    checked = _scenario(tmp_path, 4, [{"action": "diplomat", "nation": "red"}]).order_files()["red"]
    assert [e.message for e in checked.errors] == ["'red' is not another nation"]


def test_each_seasons_template_offers_only_that_seasons_orders(tmp_path: Path) -> None:
    from resolver.cli import main

    root = tmp_path / "camp"
    assert main(["new", "--ruleset", "seasons", "--root", str(root), "--seed", "2"]) == 0
    store = Store(root)
    state = store.state()
    assert state["turn"] == 1 and len(state["provinces"]) == 29  # 5 × (4 + Piorad) + Alweg's 3 + Pole
    owners = {p["owner"] for p in state["provinces"].values()}
    assert owners >= {"red", "blue", "gold", "green", "piorad", "alweg"}
    assert sum(p["pole"] for p in state["provinces"].values()) == 1
    assert state["factions"]["piorad"]["kind"] == "npc"
    spring = (root / "orders/templates/red.yaml").read_text(encoding="utf-8")
    assert "recruit(rolls" in spring and "diplomat(" not in spring
    game = store.game(state)
    winter = {**state, "turn": 4}
    store.write_templates(game, winter, tmp_path / "winter")
    text = (tmp_path / "winter/red.yaml").read_text(encoding="utf-8")
    assert "diplomat(nation)" in text and "recruit(" not in text
    assert read_yaml(tmp_path / "winter/red.yaml")["orders"] == []
