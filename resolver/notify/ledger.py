"""What was sent, when and to whom: ``campaign/notifications.yaml``, committed by the workflow that sent it.

The ledger lives in the repository, so anyone can read it afterwards (on GitHub, or in any clone) and a
rerun of a workflow reads it before sending: an entry already there is never sent again. Each delivery
is written down as soon as it is made, so a run that dies halfway keeps the record of what it did send.

An entry names the turn, the event (``opened``, or ``reminder 24h``), the faction (none for the table's
own channels), the channel (``github`` or ``kind:name``), the moment, and the outcome: ``sent``, or
``failed`` with the HTTP status or the kind of network failure. It never holds a webhook's URL, a
message's text, or what a service answered (which might quote either). A sealed campaign's ledger holds
the same: which factions were reminded is who had no sealed order file on the branch, which its
``orders/`` folder already shows everyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..core import canonical

LEDGER = "campaign/notifications.yaml"
SENT = "sent"
FAILED = "failed"


@dataclass(frozen=True)
class Entry:
    turn: int
    event: str
    faction: str  # "" for the table's own channels
    channel: str
    at: str  # ISO 8601, UTC
    status: str
    detail: str = ""  # where it went (an issue number) or why it failed

    @property
    def key(self) -> tuple[int, str, str, str]:
        return self.turn, self.event, self.faction, self.channel

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "turn": self.turn,
            "event": self.event,
            "channel": self.channel,
            "at": self.at,
            "status": self.status,
        }
        if self.faction:
            data["faction"] = self.faction
        if self.detail:
            data["detail"] = self.detail
        return data


class Ledger:
    def __init__(self, root: Path) -> None:
        self.path = root / LEDGER
        data = canonical.read_yaml(self.path) if self.path.is_file() else None
        data = data if isinstance(data, dict) else {}
        self.entries = [
            Entry(
                int(e["turn"]),
                str(e["event"]),
                str(e.get("faction", "")),
                str(e["channel"]),
                str(e["at"]),
                str(e["status"]),
                str(e.get("detail", "")),
            )
            for e in data.get("sent") or []
        ]
        self.issues = {int(turn): int(number) for turn, number in (data.get("issues") or {}).items()}

    def done(self, turn: int, event: str, faction: str, channel: str, *, since: str = "") -> bool:
        """Whether this was already attempted (at ``since`` or later, an ISO moment in UTC, when given).
        A failed webhook counts: a service that took the message but answered badly must not get it
        twice, and the turn goes on without it."""
        key = (turn, event, faction, channel)
        return any(entry.key == key and entry.at >= since for entry in self.entries)

    def record(self, entry: Entry) -> None:
        self.entries.append(entry)
        self.save()

    def remember_issue(self, turn: int, number: int) -> None:
        self.issues[turn] = number
        self.save()

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        canonical.write_yaml(
            self.path,
            {
                "issues": {turn: self.issues[turn] for turn in sorted(self.issues)},
                "sent": [entry.to_data() for entry in self.entries],
            },
        )


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
