"""Resolving a turn from the store: check, seal, roll with the turn's salt, archive."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..core import canonical
from ..core import factions as faction_records
from ..core.collector import cycles_paused
from ..core.issues import CampaignError
from ..core.orders import GM, OrderFile
from ..core.phases import State
from ..core.stillness import holding_still
from ..engine.ruleset import Game
from ..engine.turn import TurnResult, resolve_turn, turn_rumors
from ..engine.validate import check_order_file
from . import beacon, sealing
from .absences import away_at
from .schedule import Settings
from .store import (
    Store,
)


class Rejected(CampaignError):
    """Resolution refused because order files have errors; carries the checked files for display."""

    def __init__(self, files: list[OrderFile], *, not_due: str = "") -> None:
        bad = [f.path for f in files if not f.ok]
        listed = f"{len(bad)} order file(s) have errors ({', '.join(bad)})"
        if not_due:  # found early, so the GM hears of it before the deadline rather than at it
            super().__init__(
                f"{not_due}, but {listed}: the turn cannot be resolved until they are fixed",
                "fix them (campaign check shows each problem), or revert the merge that brought them in",
            )
        else:
            super().__init__(
                f"the turn was not resolved: {listed}",
                "fix them (campaign check shows each problem) or remove them, then resolve again",
            )
        self.files = files


class FinishedInterrupted(CampaignError):
    """An interrupted run had already resolved the turn; this run only put its files in place."""

    def __init__(self, note: str) -> None:
        super().__init__(note, code=0)


class TurnMovedOn(CampaignError):
    """The turn a run set out to resolve was resolved by another run while this one waited for the
    campaign's lock: there is nothing left to do, and resolving the next turn would be a turn nobody
    sent orders for."""

    def __init__(self, meant: int, now_at: int) -> None:
        super().__init__(
            f"turn {meant} was resolved by another run while this one waited; nothing to do",
            f"turn {now_at} is the one being played now: it waits for its orders",
            code=0,
        )
        self.turn = meant


def refuse_a_turn_without_orders(store: Store, game: Game, state: State) -> None:
    """A plain ``campaign resolve`` run right after another would resolve the turn that has just begun,
    with nobody's orders: every faction would only hold, and the deadline that gave the previous turn
    would give this one too. Refused, unless no faction awaits orders (the bot plays every faction
    left) or the GM asks for it with --force. The first turn follows no other: it is left alone."""
    turn = int(state["turn"])
    if turn == 1 or store.submitted_paths() or not faction_records.awaited(state, game.factions):
        return
    raise CampaignError(
        f"turn {turn} was not resolved: no order file has come for it, neither a faction's nor the GM's, "
        f"so every faction would only hold",
        f"turn {turn - 1} is resolved and turn {turn} has only begun: its orders come first (campaign "
        f"template FACTION -o orders/FACTION.yaml), then resolve; to resolve it now with nobody's orders, "
        "run campaign resolve --force",
    )


def sealed_entry(of: OrderFile) -> dict[str, Any]:
    """An order file as the archive keeps it: its data without the rumours, whose authors stay unknown."""
    data = of.located.data if of.located is not None else {}
    return {key: value for key, value in data.items() if key != "rumors"}


def seal(
    game: Game, state: State, files: Iterable[OrderFile]
) -> tuple[dict[str, dict[str, Any]], dict[str, OrderFile], list[str]]:
    """The accepted files in their archived form: the entries of ``orders.yaml``, the same entries
    checked again as the engine will read them (live and in every replay alike), and the turn's
    rumours. The turn seed binds each entry's digest and, apart, the sorted rumours."""
    entries: dict[str, dict[str, Any]] = {}
    sealed: dict[str, OrderFile] = {}
    with holding_still(state):  # every file is checked again against the same, unchanged state
        for of in files:
            if of.faction is None:
                continue
            entry = sealed_entry(of)
            try:
                raw = canonical.dump(entry)
            except (TypeError, ValueError) as error:
                raise CampaignError(
                    f"{of.path}: holds a value the turn archive cannot store ({error})",
                    "write plain text, whole numbers, true/false, lists and mappings only",
                ) from None
            entries[of.faction] = entry
            # A file already in its archived form (bots write them so) would only be checked again
            # from the same bytes, against the same state, into the same result.
            same = raw == of.raw
            sealed[of.faction] = reread = of if same else check_order_file(game, state, raw, of.path)
            if not reread.ok:
                raise CampaignError(
                    f"{of.path}: its archived form does not check as the file did: "
                    f"{reread.errors[0].format()}",
                    "report this with the file attached; meanwhile simplify the file's layout",
                )
    return entries, sealed, turn_rumors({of.faction: of for of in files if of.faction})


def expect_next_turn(store: Store, state: State) -> None:
    """The live state must continue the archive: a ``turn:`` edited by hand would make a history
    that can never verify, so it is refused before anything is written."""
    archived = store.archived_turns()
    newest = archived[-1] if archived else 0
    turn = state.get("turn")
    if turn != newest + 1:
        raise CampaignError(
            f"campaign/state.yaml says turn {turn}, but the archive ends with turn {newest}, "
            f"so the next turn is {newest + 1}",
            f"put 'turn: {newest + 1}' back in campaign/state.yaml (or restore it from git); the turn "
            "number follows the archive and is never edited by hand",
        )


def resolve(
    root: Path,
    *,
    posting_order: list[str] | None = None,
    forced_rolls: dict[str, list[int]] | None = None,
    now: datetime | None = None,
    turn: int | None = None,
    need_orders: bool = False,
) -> tuple[Game, TurnResult]:
    """Resolve the current turn and archive it. ``now``: the moment of resolution, when the next turn
    opens (its beacon round follows from its deadline); the wall clock by default. ``turn``: the turn
    the caller set out to resolve, read before it waited for the lock; if another run resolved it
    meanwhile, ``TurnMovedOn`` is raised and nothing is written. ``need_orders``: refuse a turn that no
    order file has reached (``refuse_a_turn_without_orders``)."""
    store = Store(root)
    store.require()
    with store.lock(), cycles_paused():
        note = store.recover()
        if note.startswith("Turn "):
            raise FinishedInterrupted(note)
        key = store.secret_key()
        if store.sealed and key is None:
            raise CampaignError(
                "this campaign is sealed: resolving it needs the campaign key",
                f"CI holds it as the secret {sealing.KEY_VARIABLE}; locally pass --key-file",
                code=2,
            )
        state, state_raw = store.state_and_raw()
        expect_next_turn(store, state)
        if turn is not None and int(state["turn"]) != turn:
            raise TurnMovedOn(turn, int(state["turn"]))
        game = store.game(state)
        refused: dict[str, str] = {}
        if store.sealed:
            files, refused = open_sealed_orders(store, game, state)
        else:
            files = store.check(game, state)
            if any(not f.ok for f in files):
                raise Rejected(files)
        salt, salt_inputs = dice_salt(store, game, key, int(state["turn"]), now or datetime.now(UTC))
        entries, as_read, rumors = seal(game, state, files)
        settings = Settings.from_config(store.config())
        absent = settings.absent
        away = away_at(store, int(state["turn"]))  # public declarations: a replay reads them from inputs
        if need_orders:  # last of the refusals: a broken setting or order file is the one to fix first
            refuse_a_turn_without_orders(store, game, state)
        commit = store.commitments(int(state["turn"]))
        result = resolve_turn(
            game, state, as_read, posting_order, forced_rolls, absent=absent, rumors=rumors,
            salt=salt, refused=refused, sealed=store.sealed,
            commitments=order_commitments(commit, as_read), away=away, away_policy=settings.away,
        )  # fmt: skip
        # The turn is resolved: the state it began from and the checked files (their text, their parsed
        # data and the position of every value in it) are not read again. The archive takes the state's
        # bytes when they are the file the previous turn left, and the sealed entries; letting go of the
        # rest here makes room for the archive's writing, the peak of a big campaign's memory.
        before = None if store.left_state(int(state["turn"]) - 1, state_raw) else state
        del state, files, as_read
        store.archive(
            game,
            before,
            result,
            entries,
            rumors,
            state_before_raw=state_raw,
            refused=refused,
            salt=salt_inputs,
        )
    return game, result


def order_commitments(commit: sealing.Commitments, files: Mapping[str, OrderFile]) -> dict[str, str] | None:
    """What a sealed turn publishes for each order file, in place of its digest (None: the digests)."""
    if not commit.keyed:
        return None
    return {faction: commit(faction, of.raw) for faction, of in files.items()}


def dice_salt(
    store: Store, game: Game, key: str | None, turn: int, now: datetime
) -> tuple[str, dict[str, Any]]:
    """The turn's dice salt, and what the archive's inputs record of it: the salt revealed (with a beacon,
    also the key holder's part and the beacon's round that completes it), and the commitment to the next
    turn's. Without a key the dice have no salt (and can be foreseen)."""
    committed = store.salt_commitment(turn)
    named = store.config().get("recipient")
    if key is None:
        if committed:
            raise CampaignError(
                f"turn {turn}'s dice were committed to a secret salt when it opened: resolving it needs "
                "the campaign key",
                f"CI holds it as the secret {sealing.KEY_VARIABLE}; locally pass --key-file",
                code=2,
            )
        if named:  # without it the next turn's salt would go uncommitted, and its dice be foreseeable
            raise CampaignError(
                "this campaign has a campaign key (campaign/campaign.yaml names it): resolving needs it, "
                "so that the next turn's dice salt is committed as the turn opens",
                f"CI holds it as the secret {sealing.KEY_VARIABLE}; locally pass --key-file",
                code=2,
            )
        return "", {}
    if named and sealing.public_of(key) != named:
        raise CampaignError(
            f"the campaign key given is not this campaign's: campaign/campaign.yaml names {named}",
            f"use the key whose public half that is (the secret {sealing.KEY_VARIABLE} must hold it too)",
            code=2,
        )
    secret = sealing.turn_salt(key, game.campaign, turn)
    if committed and committed != sealing.salt_commitment(secret):
        raise CampaignError(
            "the campaign key given is not the one this campaign committed its dice to",
            f"use the key stored as {sealing.KEY_VARIABLE} when the campaign was made",
            code=2,
        )
    following = store.commit_salt(game.campaign, key, turn + 1, now)
    if not committed:
        # The key came while this turn was open (campaign add-key, seal-campaign): nothing was committed
        # when it opened, and a salt taken now could be one chosen for this turn's rolls. It stays
        # unsalted; the next turn's salt is committed here, as that turn opens.
        return "", dict(following)
    committed_round = store.committed_beacon_round(turn)
    net = store.beacon_network()
    if committed_round is None or net is None:
        return secret, {"salt": secret, **following}
    # Fetched (or read from the recorded rounds) and checked against the network's key before use; a
    # round that is not out yet, or that no relay serves, stops the resolve with what to do: never a
    # silent fallback, which would be randomness someone could foresee.
    drawn = beacon.fetch(net, committed_round, now=now)
    salt = sealing.beacon_salt(secret, drawn.randomness)
    return salt, {"salt": salt, "dice_secret": secret, "beacon": drawn.to_data(), **following}


def open_sealed_orders(store: Store, game: Game, state: State) -> tuple[list[OrderFile], dict[str, str]]:
    """A sealed campaign's order files, opened and checked against the full state. A file that fails
    fails alone: its faction is told why in a private event, and nothing of it is printed."""
    files: list[OrderFile] = []
    refused: dict[str, str] = {}
    for path in store.sealed_order_paths():
        faction = path.name.removesuffix(f".yaml{sealing.SUFFIX}")
        if faction not in (*game.factions, GM):
            continue  # the pull-request check lets no such file in; a stray one is not a faction's
        try:  # a file a player sealed before the GM rekeyed the campaign opens with the earlier key
            raw = sealing.decrypt_with_keys(path.read_bytes(), store.known_keys(), store.display(path))
        except sealing.SealedError:
            refused[faction] = "the file was not sealed to the campaign's key (seal it with campaign seal)"
            continue
        of = check_order_file(game, state, raw, f"orders/{faction}.yaml")
        if of.faction != faction and of.ok:
            refused[faction] = f"orders/{faction}.yaml carries the orders of '{of.faction}'"
        elif not of.ok:
            refused[faction] = " ".join(of.errors[0].format().split())
        else:
            files.append(of)
    return files, refused
