"""A faction handed to a new player, and the record of who played which turns.

``campaign handover`` rewrites the faction's entry in ``campaign/players.yaml``:

- the new player's logins replace the old ones, and the old player's GitHub account ids go with them
  (an id outlives a renamed login, so a stale one would keep the door open);
- the old player joins ``played_by``, a list of earlier stints (``{logins, from, to}``, turns included), and
  ``since`` says from which turn the current player plays: the site's faction page reads both;
- in a sealed campaign the new player's public keys replace the faction's ``recipients``. From then on
  everything the faction is told is sealed to them alone. What was sealed before stays sealed to the old
  keys, as the archive never changes. To let the new player play, the faction's newest view (where its
  pieces stand now) is sealed again to the new keys; its earlier reports, the old player's private papers,
  are not, unless the GM names them (``reports``): handing them over is the GM's decision, not a default.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import canonical
from ..core.issues import CampaignError
from . import keys, sealing
from .store import Store, turn_dir_name

PLAYERS = "players.yaml"


@dataclass(frozen=True)
class Stint:
    logins: tuple[str, ...]
    first: int
    last: int | None  # None: playing still

    def describe(self) -> str:
        who = ", ".join(self.logins) or "a player whose login was not recorded"
        if self.last is None:
            return f"{who}: turn {self.first} on"
        if self.first == self.last:
            return f"{who}: turn {self.first}"
        return f"{who}: turns {self.first} to {self.last}"


@dataclass
class HandedOver:
    faction: str
    turn: int  # the first turn the new player plays
    before: Stint | None  # the stint that ended, None when the old player played no turn
    resealed: keys.Resealed | None = None
    pending: list[str] = field(default_factory=list)  # order files of the faction already on the branch


def stints(info: Any, first_turn: int = 1) -> list[Stint]:
    """Who played a faction, from its entry in players.yaml: the earlier stints, then the current one.
    ``first_turn``: the faction's first turn, when it joined late and no handover has said so yet."""
    info = info if isinstance(info, dict) else {}
    found = []
    for entry in info.get("played_by") or []:
        entry = entry if isinstance(entry, dict) else {}
        first, last = entry.get("from"), entry.get("to")
        if isinstance(first, int) and isinstance(last, int):
            found.append(Stint(tuple(map(str, entry.get("logins") or [])), first, last))
    since = info.get("since", first_turn)
    logins = tuple(map(str, info.get("logins") or []))
    found.append(Stint(logins, since if isinstance(since, int) else first_turn, None))
    return found


def first_turns(store: Store) -> dict[str, int]:
    """The first turn each faction played: the first archived turn whose inputs name it (a faction the GM
    brought in joins the turn after), or the current turn for one that has played none yet."""
    first: dict[str, int] = {}
    for turn in store.archived_turns():
        path = store.turns_dir / turn_dir_name(turn) / "inputs.yaml"
        digests = ((canonical.read_yaml(path) if path.is_file() else None) or {}).get("order_digests") or {}
        for faction in digests:
            first.setdefault(str(faction), turn)
    state = store.public_state()
    for faction in state.get("factions") or {}:
        first.setdefault(str(faction), int(state["turn"]))
    return first


def hand_over(
    store: Store,
    faction: str,
    logins: Sequence[str],
    recipients: Sequence[str] = (),
    ids: Sequence[int] = (),
    reports: Iterable[int] | None = (),
) -> HandedOver:
    """Give ``faction`` to the player with ``logins`` from the current turn on. A sealed campaign needs
    the new player's ``recipients`` and the campaign key; ``reports``: the earlier turns whose reports the
    new player may read (None: all of them; empty, the default: none)."""
    store.require()
    path = store.campaign_dir / PLAYERS
    before_raw = path.read_bytes() if path.is_file() else None
    players = store.players()
    entries = players.get("factions") or {}
    if faction not in entries:
        raise CampaignError(f"unknown faction '{faction}'", f"factions: {', '.join(sorted(entries))}", code=2)
    new_logins = sorted({login.strip().lower() for login in logins if login.strip()})
    if not new_logins:
        raise CampaignError("a handover needs the new player's GitHub login", "pass --login LOGIN", code=2)
    if store.sealed and not recipients:
        raise CampaignError(
            f"this campaign is sealed: {faction}'s new player needs keys of their own, or they could read "
            "nothing, and the old player's keys would keep reading what the faction is told",
            "pass --recipient with the age1… line the new player's campaign keygen printed",
            code=2,
        )
    if recipients and not store.sealed:
        raise CampaignError(
            "this campaign is open: nothing is sealed, so a faction has no recipients",
            "leave out --recipient",
            code=2,
        )
    reports = None if reports is None else list(reports)  # read twice below
    if (reports is None or reports) and not store.sealed:
        raise CampaignError(
            "this campaign is open: every report is public already, so there are none to hand over",
            "leave out --reports",
            code=2,
        )
    for number, text in enumerate(recipients):
        try:
            sealing.recipient(text)
        except CampaignError:  # the text is not repeated: it may be a secret key pasted by mistake
            raise CampaignError(
                # "--recipient 1" would read as if 1 had been typed: say which one in words.
                "the value given to --recipient is not a public key"
                + (f" (the one in place {number + 1})" if len(recipients) > 1 else ""),
                "give the age1… line campaign keygen prints, or an SSH public key",
                code=2,
            ) from None
    if store.sealed:
        keys.check_gm_key(store, "campaign handover")  # refused before anything is written
    turn = int(store.public_state()["turn"])
    info = dict(entries[faction] or {})
    current = stints(info, first_turns(store).get(faction, 1))[-1]
    ended = Stint(current.logins, current.first, turn - 1) if turn - 1 >= current.first else None
    if ended is not None:
        earlier = list(info.get("played_by") or [])
        earlier.append({"logins": list(ended.logins), "from": ended.first, "to": ended.last})
        info["played_by"] = earlier
    info["logins"] = new_logins
    info["since"] = turn
    info.pop("ids", None)  # the old player's accounts: an id would let them in under a new login
    if ids:
        info["ids"] = sorted(set(ids))
    if recipients:
        info["recipients"] = list(recipients)
    players["factions"] = {**entries, faction: info}
    canonical.write_yaml(path, players)
    done = HandedOver(faction, turn, ended)
    if store.sealed:
        try:
            done.resealed = keys.reseal_faction(store, faction, reports)
        except BaseException:
            # Nothing half done: without the view the new player cannot play, so the old entry stays.
            if before_raw is not None:
                canonical.write_atomic(path, before_raw)
            raise
    suffix = ".yaml.age" if store.sealed else ".yaml"
    done.pending = [store.display(p) for p in store.orders_dir.glob(f"{faction}{suffix}")]
    return done
