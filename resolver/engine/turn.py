"""The pure core: one turn in, one turn out.

``resolve_turn`` reads no file, no clock and no git. It takes the campaign, the
state after the previous turn and the validated order files, and returns the new
state, the events and the roll log. Everything else is a shell around it.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import canonical
from ..core import factions as faction_records
from ..core.absences import Absence
from ..core.dice import Dice, Roll, TurnSeed
from ..core.events import Event, keep_concealed_unnamed
from ..core.orders import GM, OrderFile
from ..core.phases import State
from ..core.rng import Stream, derive_key
from .absence import AbsentPolicy, AwayPolicy, away_stand_ins, stand_in_orders
from .bots import bot_order_file
from .context import TurnContext
from .ruleset import Game
from .steps import TurnInputs, run_table, turn_table

# The turn seed's entry for the turn's rumours, bound apart from their authors; no faction id has a '*'.
RUMORS_DIGEST_KEY = "*rumors"


@dataclass
class TurnResult:
    turn: int
    state: State
    events: list[Event]
    rolls: list[Roll]
    seed: TurnSeed
    posting_order: list[str]
    missing: list[str]
    absent: AbsentPolicy = field(default_factory=AbsentPolicy)
    stand_ins: dict[str, OrderFile] = field(default_factory=dict)  # bot orders written for absent factions
    npc_orders: dict[str, OrderFile] = field(default_factory=dict)  # the bot's orders for NPC factions
    refused: list[str] = field(default_factory=list)  # factions whose sealed file could not be used
    away: list[str] = field(default_factory=list)  # factions away by declaration that sent no orders
    away_policy: AwayPolicy = field(default_factory=AwayPolicy)
    # The absences this turn's order files declare (None: the file takes an earlier one back).
    declared: dict[str, Absence | None] = field(default_factory=dict)

    def events_data(self) -> dict[str, Any]:
        """The events with the rolls that decided them; a roll that decided no event is listed apart,
        so every roll of the turn is in the archive exactly once."""
        attached = {id(r) for e in self.events for r in e.rolls}
        return {
            "turn": self.turn,
            "events": [e.to_data() for e in self.events],
            "unattached_rolls": [r.to_data() for r in self.rolls if id(r) not in attached],
        }


def seeded_posting_order(seed: int, turn: int, factions: Iterable[str]) -> list[str]:
    """Without git history to say who posted first, a shuffle fixed by campaign seed and turn.

    It deliberately ignores the orders' contents, so editing orders cannot move a faction up the queue.
    """
    order = sorted(factions)
    Stream(derive_key("posting-order", seed, turn), "posting-order").shuffle(order)
    return order


def turn_rumors(files: Mapping[str, OrderFile]) -> list[str]:
    """Every player's rumour of the turn, in an order that says nothing of who wrote which: sorted."""
    return sorted(rumor for faction, of in files.items() if faction != GM for rumor in of.rumors)


def resolve_turn(
    game: Game,
    state: State,
    files: Mapping[str, OrderFile],
    posting_order: list[str] | None = None,
    forced_rolls: Mapping[str, list[int]] | None = None,
    absent: AbsentPolicy | None = None,
    rumors: Sequence[str] | None = None,
    salt: str = "",
    refused: Mapping[str, str] | None = None,
    commitments: Mapping[str, str] | None = None,
    sealed: bool = False,
    away: Collection[str] = (),
    away_policy: AwayPolicy | None = None,
) -> TurnResult:
    """Resolve one turn. ``rumors`` are the turn's rumours when the files were archived without them
    (a replay); by default they are read from the files. ``salt`` is the turn's secret part of the
    seed (see ``sealing.turn_salt``). ``refused`` names the factions of a sealed campaign whose order
    file failed the full check at resolution, with the reason their faction alone is told; everyone
    else hears that their orders could not be used, never why. ``sealed``: the turn is a sealed
    campaign's (see ``TurnContext.sealed``). ``commitments`` stand for the order files' digests in the
    turn seed: a sealed campaign publishes keyed commitments instead of digests, which would let anyone
    confirm a guessed file. ``away``: the factions declared away for this turn (``core.absences``); one
    of them without orders misses no turn, and ``away_policy`` says what its forces do."""
    turn = int(state["turn"])
    bad = [f.path for f in files.values() if not f.ok]
    if bad:
        raise ValueError(f"resolve_turn needs validated orders; rejected: {bad}")
    # A faction with nothing to decide this turn (the ruleset's ``awaits``) is not missing without orders.
    awaited = [
        f for f in faction_records.awaited(state, game.factions) if game.ruleset.awaits(game, state, f)
    ]
    silent = [f for f in awaited if f not in files]
    away_now = [f for f in silent if f in away]
    missing = [f for f in silent if f not in away_now]
    policy = absent or AbsentPolicy()
    away_rule = away_policy or AwayPolicy()
    # Stand-in orders derive from the state alone, so they stay out of the turn seed like absent files.
    stand_ins = {
        **stand_in_orders(game, state, missing, policy),
        **away_stand_ins(game, state, away_now, away_rule),
    }
    # NPC factions are the bot's every turn: never missing, never in the turn seed.
    npc_orders = {f: bot_order_file(game, state, f) for f in faction_records.npcs(state, game.factions)}
    bots = {**stand_ins, **npc_orders}
    published = commitments if commitments is not None else {f: of.digest for f, of in files.items()}
    digests = {f: published[f] if f in files else "-" for f in game.factions}
    digests[GM] = published[GM] if GM in files else "-"
    rumors = sorted(rumors) if rumors is not None else turn_rumors(files)
    if rumors:
        digests[RUMORS_DIGEST_KEY] = canonical.data_digest(rumors)
    seed = TurnSeed(game.seed, turn, digests, salt)
    order = posting_order or seeded_posting_order(game.seed, turn, game.factions)
    order = [f for f in order if f in files and f != GM] + [f for f in order if f not in files and f != GM]
    ctx = TurnContext(
        game=game,
        turn=turn,
        date=game.calendar.date(turn),
        dice=Dice(seed, forced_rolls or {}),
        orders={f: files[f] if f in files else bots[f] for f in order if f in files or f in bots},
        posting_order=order,
        gm_orders=files.get(GM),
        memory=game.ruleset.turn_memory(),
        sealed=sealed,
    )
    state = canonical.plain_copy(state)
    concealed_before = copy.deepcopy(game.ruleset.concealed_pieces(state)) if sealed else {}
    inputs = TurnInputs(refused or {}, missing, policy, stand_ins, bots, rumors, away_now, away_rule)
    state = run_table(ctx, state, turn_table(game, inputs))
    if sealed:
        # A piece concealed now, or concealed when the turn began and gone since, was never seen.
        pieces = game.ruleset.piece_ids(state)
        gone = {rid: record for rid, record in concealed_before.items() if rid not in pieces}
        keep_concealed_unnamed(ctx.events, {**gone, **game.ruleset.concealed_pieces(state)})
    state["turn"] = turn + 1
    return TurnResult(
        turn, state, ctx.events, list(ctx.dice.log), seed, order, missing, policy, stand_ins, npc_orders,
        sorted(f for f in missing if f in (refused or {})), away_now, away_rule,
        {f: of.absence for f, of in sorted(files.items()) if of.absence_declared},
    )  # fmt: skip
