"""Who is away when: the public record of declared absences.

Two sources, both public, so that the site, the reminders and the deadline can read them without the
campaign key, even in a sealed campaign:

- what players declared in their order files, as each resolved turn's ``inputs.yaml`` records it
  (``absences:``); a faction's newest declaration replaces its earlier ones, an empty one takes them back;
- what the GM declared with ``campaign absence``, in ``campaign/absences.yaml``, one span a faction,
  which the GM commits like any change to ``campaign/``.

A faction is away at a turn when either source covers it. ``away_at`` gives the factions away at a turn,
``is_away`` answers for one faction: the reminders ask it before writing to a player. Nothing here reads
the clock: turns are the only measure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core import absences, canonical
from ..core.absences import GM_DECLARED, PLAYER, Absence
from ..core.issues import CampaignError
from .store import Store, turn_dir_name

LEDGER = "absences.yaml"  # in campaign/: the absences the GM declared
LEDGER_HEADER = (
    "# Absences the GM declared with campaign absence: faction -> {from: first turn, to: last turn}.\n"
    "# Players declare theirs in their order files (absence: {from: N, to: M}).\n"
)


@dataclass(frozen=True, order=True)
class Declared:
    faction: str
    absence: Absence
    by: str  # PLAYER or GM_DECLARED
    turn: int = 0  # the turn whose orders declared it (0 for the GM's)


def gm_ledger(store: Store) -> dict[str, Absence]:
    """The GM's declarations in campaign/absences.yaml, checked: a span that makes no sense is refused
    with the line to fix rather than silently ignored."""
    path = store.campaign_dir / LEDGER
    if not path.is_file():
        return {}
    return read_ledger(canonical.read_yaml(path), store.display(path))


def read_ledger(data: Any, where: str = f"campaign/{LEDGER}") -> dict[str, Absence]:
    """The GM's declarations as written (the pull-request check reads them from git before a merge)."""
    data = data or {}
    if not isinstance(data, dict):
        raise CampaignError(
            f"{where} must map factions to {{from: TURN, to: TURN}}", "see: campaign absence --help"
        )
    ledger = {}
    for faction, span in sorted(data.items()):
        found = absences.problem(span, 1)
        if found is not None or not span:
            message = found[1] if found else "an empty entry"
            raise CampaignError(
                f"{where}: {faction}: {message}", "write it again with campaign absence, or delete the entry"
            )
        ledger[str(faction)] = Absence(int(span["from"]), int(span["to"]))
    return ledger


def player_declarations(store: Store) -> dict[str, Declared]:
    """Each faction's newest declaration from its order files, as the resolved turns recorded them."""
    newest: dict[str, Declared] = {}
    for turn in store.archived_turns():
        path = store.turns_dir / turn_dir_name(turn) / "inputs.yaml"
        inputs = canonical.read_yaml(path) if path.is_file() else {}
        for faction, span in sorted(((inputs or {}).get("absences") or {}).items()):
            absence = absences.read(span) if isinstance(span, dict) else None
            if absence is None:
                newest.pop(faction, None)  # taken back
            else:
                newest[faction] = Declared(faction, absence, PLAYER, turn)
    return newest


def declared(store: Store) -> list[Declared]:
    """Every absence in force or to come, the players' and the GM's, sorted by faction and turn."""
    spans = list(player_declarations(store).values())
    spans += [Declared(faction, absence, GM_DECLARED) for faction, absence in gm_ledger(store).items()]
    return sorted(spans, key=lambda d: (d.faction, d.absence, d.by))


def away_at(store: Store, turn: int) -> list[str]:
    """The factions away at ``turn``, sorted."""
    by_faction: dict[str, list[Absence]] = {}
    for entry in declared(store):
        by_faction.setdefault(entry.faction, []).append(entry.absence)
    return absences.away(by_faction, turn)


def turns_away(store: Store) -> dict[str, list[tuple[int, str]]]:
    """Each faction's resolved turns spent away, with the policy its forces followed then (``hold``,
    ``stand_in`` or ``pause``), as each turn's ``inputs.yaml`` recorded them: what happened, whatever
    the declarations say now."""
    found: dict[str, list[tuple[int, str]]] = {}
    for turn in store.archived_turns():
        path = store.turns_dir / turn_dir_name(turn) / "inputs.yaml"
        away = ((canonical.read_yaml(path) if path.is_file() else {}) or {}).get("away") or {}
        policy = str((away.get("policy") or {}).get("policy") or "hold")
        for faction in away.get("factions") or ():
            found.setdefault(str(faction), []).append((turn, policy))
    return found


def is_away(store: Store, faction: str, turn: int) -> bool:
    """Whether ``faction`` is away at ``turn``: the question the reminders ask before writing to a player."""
    return faction in away_at(store, turn)


def declare(store: Store, faction: str, first: int, last: int) -> Absence:
    """The GM declares ``faction`` away from turn ``first`` to ``last`` (replacing the GM's earlier span
    for it) in campaign/absences.yaml."""
    state = store.public_state()  # a sealed campaign's public view names the factions and the turn too
    known = sorted(state["factions"])
    if faction not in known:
        raise CampaignError(f"unknown faction '{faction}'", f"factions: {', '.join(known)}", code=2)
    turn = int(state["turn"])
    found = absences.problem({"from": first, "to": last}, turn)
    if found is not None:
        # The problem's own fix speaks of the order file's keys; the GM typed options.
        if first < turn:
            hint = f"give --from {turn} or later (turn {turn} is the one being played)"
        elif last < first:
            hint = "give the first turn to --from and the last to --to"
        else:
            hint = f"give --to {first + absences.LONGEST_ABSENCE - 1} or earlier, and declare again later"
        raise CampaignError(found[1], hint, code=2)
    ledger = gm_ledger(store)
    ledger[faction] = Absence(first, last)
    _write(store, ledger)
    return ledger[faction]


def withdraw(store: Store, faction: str) -> bool:
    """The GM takes back the absence declared for ``faction``; False if there was none."""
    ledger = gm_ledger(store)
    if ledger.pop(faction, None) is None:
        return False
    _write(store, ledger)
    return True


def _write(store: Store, ledger: dict[str, Absence]) -> None:
    path = store.campaign_dir / LEDGER
    body: dict[str, Any] = {faction: absence.to_data() for faction, absence in sorted(ledger.items())}
    canonical.write_atomic(path, LEDGER_HEADER.encode() + (canonical.dump(body) if body else b""))
