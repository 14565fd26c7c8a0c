"""The one validator: ``campaign check`` and ``campaign resolve`` both call ``check_order_file``."""

from __future__ import annotations

from collections.abc import Sequence

from ..core import factions as faction_records
from ..core.fields import ids_in
from ..core.issues import Issue
from ..core.orders import GM, Expectation, OrderFile, parse_order_file
from ..core.phases import State
from . import gm
from .ruleset import Game


def check_order_file(game: Game, state: State, raw: bytes, path: str, *, by_bot: bool = False) -> OrderFile:
    """Check one order file against the state. ``by_bot``: the ruleset's bot wrote it, as it does every
    turn for an NPC faction, whose files from anyone else are refused."""
    expect = Expectation(game.campaign, int(state["turn"]), game.factions)
    of = parse_order_file(
        raw,
        path,
        expect,
        game.actions,
        gm.actions(game),
        game.standing,
        ids_in(state),
        game.ruleset.names_of(game, state),  # a name read as its id here serves check and resolve alike
    )
    if of.faction is None or of.turn is None or of.campaign is None:
        return of  # the envelope is wrong: checking orders against the state would only add noise
    of.checked = True
    if of.faction == GM:
        gm.check(game, state, of)
    elif not faction_records.is_active(state, of.faction):
        of.error(None, "faction", f"{game.name_of(of.faction)} is out of the game and cannot give orders")
    elif faction_records.is_npc(state, of.faction) and not by_bot:
        of.error(
            None,
            "faction",
            f"{game.name_of(of.faction)} is played by the bot every turn and takes no order file",
            "delete this file; the GM steers an NPC faction through orders/gm.yaml",
        )
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
