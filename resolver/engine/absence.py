"""Factions that sent no orders: the campaign's absent-player policy.

The engine applies the policy inside ``resolve_turn``, so a replay of the archive applies it again and
gets the same result: the policy in force is recorded in each turn's ``inputs.yaml``, and the bot's
stand-in orders are a pure function of the game and the state.

- ``hold``: the faction's forces do nothing (the engine's behaviour without a policy);
- ``civil_disorder``: the ruleset's bot writes the faction's orders for this turn; they are carried out
  after the orders of every faction that posted, and their press is never printed;
- ``eliminate``: the faction holds, and once it has missed ``eliminate_after`` turns in a row it leaves
  the campaign (``status: eliminated``).

A faction that declared an absence (``core.absences``) and sends no orders for a turn it is away is not
absent in that sense: it misses no turn, and the campaign's ``AwayPolicy`` decides what its forces do:

- ``hold`` (the default): its forces do nothing;
- ``stand_in``: the ruleset's bot plays its turn, as under civil disorder;
- ``pause``: its forces hold, and a turn at which ``pause_at`` or more factions are away has its deadline
  moved back by ``pause_hours`` (``store.schedule``), so that the others do not play on without them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.issues import CampaignError
from ..core.orders import OrderFile
from ..core.phases import State
from .bots import bot_order_file
from .ruleset import Game

HOLD = "hold"
CIVIL_DISORDER = "civil_disorder"
ELIMINATE = "eliminate"
POLICIES = (HOLD, CIVIL_DISORDER, ELIMINATE)
WHERE = "campaign/campaign.yaml"


@dataclass(frozen=True)
class AbsentPolicy:
    policy: str = HOLD
    eliminate_after: int = 3  # consecutive missed turns; used by the 'eliminate' policy only

    @classmethod
    def from_data(cls, data: Any, where: str = WHERE) -> AbsentPolicy:
        """Read ``absent_players:`` from the campaign settings; no entry means 'hold'."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise CampaignError(
                f"{where}: 'absent_players' must be a mapping",
                f"write for example: absent_players: {{policy: {CIVIL_DISORDER}}}",
            )
        unknown = sorted(set(data) - {"policy", "eliminate_after"})
        if unknown:
            raise CampaignError(
                f"{where}: unknown key(s) under 'absent_players': {', '.join(map(str, unknown))}",
                "the keys are: policy, eliminate_after",
            )
        policy = data.get("policy", HOLD)
        if policy not in POLICIES:
            raise CampaignError(
                f"{where}: unknown absent-player policy {policy!r}", f"choose one of: {', '.join(POLICIES)}"
            )
        after = data.get("eliminate_after", 3)
        if isinstance(after, bool) or not isinstance(after, int) or after < 1:
            raise CampaignError(
                f"{where}: 'absent_players.eliminate_after' must be a whole number of turns, at least 1",
                "for example: eliminate_after: 3",
            )
        return cls(str(policy), after)

    def to_data(self) -> dict[str, Any]:
        return {"policy": self.policy, "eliminate_after": self.eliminate_after}

    def describe(self) -> str:
        if self.policy == CIVIL_DISORDER:
            return "civil disorder (the ruleset's bot plays for absent factions)"
        if self.policy == ELIMINATE:
            return f"hold, and eliminate a faction after {self.eliminate_after} missed turns in a row"
        return "hold (absent factions' forces do nothing)"


STAND_IN = "stand_in"
PAUSE = "pause"
AWAY_POLICIES = (HOLD, STAND_IN, PAUSE)


@dataclass(frozen=True)
class AwayPolicy:
    """What becomes of a faction away by declaration (``absences:`` in the campaign settings)."""

    policy: str = HOLD
    pause_at: int = 2  # 'pause': this many factions away at once move the deadline back
    pause_hours: float = 168.0  # 'pause': by this long (a week)

    @classmethod
    def from_data(cls, data: Any, where: str = WHERE) -> AwayPolicy:
        """Read ``absences:`` from the campaign settings; no entry means 'hold'."""
        if data is None:
            return cls()
        keys = ("policy", "pause_at", "pause_hours")
        if not isinstance(data, Mapping):
            raise CampaignError(
                f"{where}: 'absences' must be a mapping",
                f"write for example: absences: {{policy: {STAND_IN}}}",
            )
        unknown = sorted(str(key) for key in set(data) - set(keys))
        if unknown:
            raise CampaignError(
                f"{where}: unknown key(s) under 'absences': {', '.join(unknown)}",
                f"the keys are: {', '.join(keys)}",
            )
        policy = data.get("policy", HOLD)
        if policy not in AWAY_POLICIES:
            raise CampaignError(
                f"{where}: unknown policy {policy!r} for factions away",
                f"choose one of: {', '.join(AWAY_POLICIES)}",
            )
        pause_at = data.get("pause_at", 2)
        if isinstance(pause_at, bool) or not isinstance(pause_at, int) or pause_at < 1:
            raise CampaignError(
                f"{where}: 'absences.pause_at' must be a whole number of factions, at least 1",
                "for example: pause_at: 2",
            )
        pause_hours = data.get("pause_hours", 168)
        if isinstance(pause_hours, bool) or not isinstance(pause_hours, int | float) or pause_hours < 0:
            raise CampaignError(
                f"{where}: 'absences.pause_hours' must be a number of hours, at least 0",
                "for example: pause_hours: 168 (a week)",
            )
        return cls(str(policy), pause_at, float(pause_hours))

    def to_data(self) -> dict[str, Any]:
        hours = int(self.pause_hours) if self.pause_hours.is_integer() else self.pause_hours
        return {"policy": self.policy, "pause_at": self.pause_at, "pause_hours": hours}

    def describe(self) -> str:
        if self.policy == STAND_IN:
            return "the ruleset's bot plays the turns of a faction away"
        if self.policy == PAUSE:
            return (
                f"a faction away holds; when {self.pause_at} or more are away at once, the turn's deadline "
                f"moves back by {self.pause_hours:g} hours"
            )
        return "a faction away holds (its forces do nothing)"


def stand_in_orders(
    game: Game, state: State, missing: Iterable[str], policy: AbsentPolicy
) -> dict[str, OrderFile]:
    """The bot's orders for each absent faction under civil disorder, written against the turn's state
    exactly as a player would have written them."""
    if policy.policy != CIVIL_DISORDER:
        return {}
    return {faction: bot_order_file(game, state, faction) for faction in missing}


def away_stand_ins(game: Game, state: State, away: Iterable[str], policy: AwayPolicy) -> dict[str, OrderFile]:
    """The bot's orders for each faction away without orders, when the campaign has the bot stand in."""
    if policy.policy != STAND_IN:
        return {}
    return {faction: bot_order_file(game, state, faction) for faction in away}


def apply_policy(
    emit: Callable[..., Any],
    state: State,
    missing: Iterable[str],
    stand_ins: Mapping[str, OrderFile],
    policy: AbsentPolicy,
) -> None:
    """Record the policy's consequences as events, after ``missed_turns`` has been counted."""
    for faction, of in stand_ins.items():
        if faction in missing:  # a faction away has its stand-in told apart (orders_away)
            emit("civil_disorder", actors=[faction], orders=len(of.orders))
    if policy.policy != ELIMINATE:
        return
    for faction in missing:
        record = state["factions"][faction]
        missed = int(record.get("missed_turns", 0))
        if missed >= policy.eliminate_after and record.get("status", "active") == "active":
            record["status"] = "eliminated"
            emit("abandoned", actors=[faction], missed_turns=missed)
