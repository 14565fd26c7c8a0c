"""The one validator: ``campaign check`` and ``campaign resolve`` both call ``check_order_file``."""

from __future__ import annotations

from collections.abc import Sequence

from . import gm
from .core.issues import Issue
from .core.orders import GM, Expectation, OrderFile, parse_order_file
from .core.phases import State
from .ruleset import Game


def check_order_file(game: Game, state: State, raw: bytes, path: str) -> OrderFile:
    expect = Expectation(game.campaign, int(state["turn"]), game.factions)
    of = parse_order_file(raw, path, expect, game.actions, gm.actions(game))
    if of.faction is None or of.turn is None or of.campaign is None:
        return of  # the envelope is wrong: checking orders against the state would only add noise
    of.checked = True
    if of.faction == GM:
        gm.check(game, state, of)
    elif state["factions"][of.faction].get("status", "active") != "active":
        of.error(None, "faction", f"{game.name_of(of.faction)} is out of the game and cannot give orders")
    else:
        game.ruleset.check_orders(game, state, of)
    of.issues.sort(key=lambda i: (i.line, i.col, i.severity))
    return of


def refuse_twin_files(files: Sequence[OrderFile]) -> None:
    """``orders/red.yaml`` and ``orders/red.yml`` both speak for red, and only one could be
    resolved: rather than drop one silently, refuse both and name them."""
    by_stem: dict[str, list[OrderFile]] = {}
    for of in files:
        stem = of.path.rsplit("/", 1)[-1].removesuffix(".yaml").removesuffix(".yml")
        by_stem.setdefault(stem, []).append(of)
    for stem, twins in by_stem.items():
        if len(twins) < 2:
            continue
        names = " and ".join(of.path for of in twins)
        message = f"{names} both hold orders for '{stem}'; a faction has one order file"
        for of in twins:
            of.issues.insert(0, Issue("error", message, "keep the file you mean, delete the other", of.path))
