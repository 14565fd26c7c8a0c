"""Factions that sent no orders: the campaign's absent-player policy.

The engine applies the policy inside ``resolve_turn``, so a replay of the archive applies it again and
gets the same result: the policy in force is recorded in each turn's ``inputs.yaml``, and the bot's
stand-in orders are a pure function of the game and the state.

- ``hold``: the faction's forces do nothing (the engine's behaviour without a policy);
- ``civil_disorder``: the ruleset's bot writes the faction's orders for this turn; they are carried out
  after the orders of every faction that posted, and their press is never printed;
- ``eliminate``: the faction holds, and once it has missed ``eliminate_after`` turns in a row it leaves
  the campaign (``status: eliminated``).
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


def stand_in_orders(
    game: Game, state: State, missing: Iterable[str], policy: AbsentPolicy
) -> dict[str, OrderFile]:
    """The bot's orders for each absent faction under civil disorder, written against the turn's state
    exactly as a player would have written them."""
    if policy.policy != CIVIL_DISORDER:
        return {}
    return {faction: bot_order_file(game, state, faction) for faction in missing}


def apply_policy(
    emit: Callable[..., Any],
    state: State,
    missing: Iterable[str],
    stand_ins: Mapping[str, OrderFile],
    policy: AbsentPolicy,
) -> None:
    """Record the policy's consequences as events, after ``missed_turns`` has been counted."""
    for faction, of in stand_ins.items():
        emit("civil_disorder", actors=[faction], orders=len(of.orders))
    if policy.policy != ELIMINATE:
        return
    for faction in missing:
        record = state["factions"][faction]
        missed = int(record.get("missed_turns", 0))
        if missed >= policy.eliminate_after and record.get("status", "active") == "active":
            record["status"] = "eliminated"
            emit("abandoned", actors=[faction], missed_turns=missed)
