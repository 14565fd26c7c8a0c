"""A small overlord campaign in memory: a game of two factions, order files checked as players send them,
and a month resolved by the engine's turn."""

from __future__ import annotations

from typing import Any

import yaml

from resolver.core.orders import OrderFile
from resolver.core.programs import Line
from resolver.engine.ruleset import FactionSetup, Game, get_ruleset
from resolver.engine.turn import TurnResult, resolve_turn
from resolver.engine.validate import check_order_file
from resolver.rulesets.overlord import language

FACTIONS = ("red", "blue")


def game(factions: tuple[str, ...] = FACTIONS, rules: dict[str, Any] | None = None) -> Game:
    ruleset = get_ruleset("overlord")
    data = rules or ruleset.default_rules()
    world = ruleset.generate_world(5, data, len(factions))
    return Game("overlord-test", "Overlord test", 5, ruleset, data, {}, world, factions)


def start(g: Game) -> dict[str, Any]:
    setups = [FactionSetup(f, f.capitalize(), "#123456") for f in g.factions]
    return g.ruleset.initial_state(g.world, g.rules, setups, g.seed)


def order_file(g: Game, state: dict[str, Any], faction: str, orders: list[dict[str, Any]]) -> OrderFile:
    doc = {"campaign": g.campaign, "turn": int(state["turn"]), "faction": faction, "orders": orders}
    return check_order_file(g, state, yaml.safe_dump(doc, sort_keys=False).encode(), f"orders/{faction}.yaml")


def month(
    g: Game,
    state: dict[str, Any],
    orders: dict[str, list[dict[str, Any]]] | None = None,
    sealed: bool = False,
) -> TurnResult:
    """A month of ``orders`` through the real turn; ``sealed`` as a sealed campaign resolves it (its
    factions' deeds told to them alone; an open campaign publishes them)."""
    files = {faction: order_file(g, state, faction, given) for faction, given in (orders or {}).items()}
    for of in files.values():
        assert of.ok, [issue.format() for issue in of.errors]
    return resolve_turn(g, state, files, sealed=sealed)


def unit_of(state: dict[str, Any], faction: str, race: str) -> str:
    return next(
        uid for uid, u in sorted(state["units"].items()) if u["owner"] == faction and u["race"] == race
    )


def read_line(rules: dict[str, Any], state: dict[str, Any], line: Line) -> language.Reading:
    """A line read as ``Month.read`` reads it, for the tests' stand-ins of the month."""
    return language.read(line, language.Vocabulary.from_rules(rules, state.get("factions") or {}))


def give_title(state: dict[str, Any], holder: str) -> str:
    """The holder's place's title, held by it (as a claim leaves it); returns the place."""
    where = state["units"][holder]["location"]
    title = state["places"][where]["title"]
    title["holder"] = holder
    state["units"][holder]["title"] = {"tag": title["tag"], "location": where}
    return where


def unit_orders(unit_id: str, *lines: str) -> dict[str, Any]:
    """The order-file action that gives a unit its queue, one line a string, as a player writes it."""
    return {"action": "unit", "unit": unit_id, "orders": list(lines)}


def named_on(result: TurnResult, unit_id: str) -> list[int]:
    """The days of the month on which a NAME line of the unit ran."""
    return [e.tick for e in result.events if e.kind == "unit_named" and e.data.get("unit") == unit_id]
