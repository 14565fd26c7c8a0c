"""Replaying and verifying the archive: every turn again from its inputs, byte for byte."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .. import __version__
from ..core import canonical, roll_log
from ..core.dice import TurnSeed, recompute
from ..core.events import public_record
from ..core.issues import CampaignError
from ..core.orders import OrderFile
from ..core.phases import State
from ..core.stillness import holding_still
from ..core.yamlsafe import yaml_error_text
from ..engine.absence import AbsentPolicy, AwayPolicy
from ..engine.ruleset import Game
from ..engine.turn import TurnResult, resolve_turn
from ..engine.validate import check_order_file
from . import beacon, sealing
from .resolution import order_commitments
from .store import (
    ARCHIVE_FORMAT,
    DIGEST_FILE,
    JOURNAL,
    OPENING,
    ORDERS_FILE,
    PUBLIC_EVENTS,
    PUBLIC_STATE,
    RECEIPTS,
    SEALED_FORMAT,
    STAGING,
    Store,
    declared_absences,
    input_digests,
    receipt,
    sealed_digests,
    turn_dir_name,
)
from .views import render_reports as reports_of  # in replay_turn, render_reports is a flag


@dataclass
class TurnCheck:
    turn: int
    ok: bool
    problems: list[str]
    notes: list[str] = field(default_factory=list)  # GM edits and other facts that are not faults
    where: str = ""  # what was checked, when it is not an archived turn
    partial: bool = False  # a sealed turn checked without the key: its public parts only
    replayed: bool = True  # False: a turn after one that did not replay, checked without replaying it

    @property
    def name(self) -> str:
        return self.where or f"turn {self.turn}"


@dataclass
class Replayed:
    turn: int
    state_before: State
    result: TurnResult | None  # None when the turn could not be replayed
    problems: list[str]
    notes: list[str] = field(default_factory=list)
    orders: dict[str, OrderFile] = field(default_factory=dict)  # the archived files, as the engine read them
    game: Game | None = None  # what the turn was replayed with
    state_raw: bytes = b""  # ``result.state`` written out (empty when the turn was not replayed)
    # What the next turn's inputs chain to: the digest of this turn's digest.yaml, and the commitment
    # to the next turn's dice salt that this turn's inputs.yaml published.
    chain_digest: str = ""
    next_salt_commitment: str | None = None
    # The beacon round the next turn committed to as it opened, as this turn's inputs.yaml has it: what
    # ``Store.committed_beacon_round`` would read from the file again.
    next_beacon_round: Any = None


def state_differences(before: Any, after: Any, path: str = "", limit: int = 8) -> list[str]:
    """Where two states differ, as dotted paths with the old and new values: how a GM edit is named."""
    found: list[str] = []

    def walk(old: Any, new: Any, where: str) -> None:
        if len(found) >= limit or old == new:
            return
        if isinstance(old, dict) and isinstance(new, dict):
            for key in sorted(set(old) | set(new), key=str):
                walk(
                    old.get(key, "(absent)"),
                    new.get(key, "(absent)"),
                    f"{where}.{key}" if where else str(key),
                )
        elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                walk(a, b, f"{where}[{index}]")
        else:
            short = [text if len(text) < 40 else text[:37] + "…" for text in (repr(old), repr(new))]
            found.append(f"{where or '(the whole state)'}: {short[0]} → {short[1]}")

    walk(before, after, path)
    return found


def _read(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def replay_turn(
    store: Store, turn: int, state: State, *, earlier: Replayed | None = None, render_reports: bool = True
) -> Replayed:
    """Replay one archived turn from the state the turns before it left, against everything its
    archive commits to: inputs, sealed orders and rumours, seed, state, events, reports, bot orders.

    ``earlier``: the replay of the turn before, whose game is reused while nothing it is made of
    changes, and whose state's digest stands for ``state``'s when ``state`` is that turn's result (a
    replayed state is never changed afterwards). ``render_reports``: also render the reports again,
    to note when today's templates word them differently; the archived reports are checked against
    their digests either way, so a site build, which shows no report, skips the rendering."""

    folder = store.turns_dir / turn_dir_name(turn)
    where = store.display(folder)
    problems: list[str] = []
    notes: list[str] = []
    inputs_raw, digest_raw = _read(folder / "inputs.yaml"), _read(folder / DIGEST_FILE)
    orders_raw = store.read_secret(folder / ORDERS_FILE)
    if inputs_raw is None or digest_raw is None or orders_raw is None:
        absent = [
            n
            for n, r in (("inputs.yaml", inputs_raw), (DIGEST_FILE, digest_raw), (ORDERS_FILE, orders_raw))
            if r is None
        ]
        return Replayed(
            turn, state, None, [f"{where}/{', '.join(absent)} missing: the archive is incomplete"]
        )
    inputs, unread = archived_mapping(inputs_raw, f"{where}/inputs.yaml")
    digests, unread_digests = archived_mapping(digest_raw, f"{where}/{DIGEST_FILE}")
    if unread or unread_digests:
        return Replayed(turn, state, None, [p for p in (unread, unread_digests) if p])
    if inputs.get("format") not in (ARCHIVE_FORMAT, SEALED_FORMAT):
        older = f"{where} is in archive format {inputs.get('format', 1)}, not {ARCHIVE_FORMAT}"
        hint = f"verify it with the engine that resolved it ({inputs.get('engine', '?')})"
        return Replayed(turn, state, None, [f"{older}: {hint}"])
    bound = digests.get("inputs") or {}
    edited_inputs = sorted(set(input_digests(inputs).items()) ^ set(bound.items()))
    if edited_inputs or canonical.dump(inputs) != inputs_raw:
        names = ", ".join(sorted({key for key, _ in edited_inputs})) or "its layout"
        problems.append(f"{where}/inputs.yaml was edited after the turn was resolved: {names}")
    commit = store.keyed_commitments(turn) if inputs.get("format") == SEALED_FORMAT else sealing.Commitments()
    if commit("*", orders_raw) != digests.get("orders"):
        problems.append(
            f"{where}/orders.yaml was edited after the turn was resolved (it no longer matches digest.yaml)"
        )
    # The turn before was replayed just now from the same files: what it read of them is not read again.
    if earlier is not None and earlier.turn == turn - 1 and earlier.chain_digest:
        previous_digest, committed = earlier.chain_digest, earlier.next_salt_commitment
        committed = store.recommitted_salt(turn) or committed  # a rekey commits the turn's salt again
        found = earlier.next_beacon_round
        beacon_round = int(found) if found is not None else None  # as Store.committed_beacon_round reads it
    else:
        previous_digest, committed = store.turn_digests(turn - 1).get("self"), store.salt_commitment(turn)
        beacon_round = store.committed_beacon_round(turn)
    if inputs.get("previous_turn_digest") != previous_digest:
        problems.append(f"turn {turn - 1}'s archive differs from the one turn {turn} was resolved after")
    problems += salt_mismatch(committed, turn, inputs, where, beacon_round)
    if inputs.get("turn") != turn:
        problems.append(f"{where}/inputs.yaml names turn {inputs.get('turn')}")
    if inputs.get("engine") != __version__:
        notes.append(f"resolved by engine {inputs.get('engine')}, replayed with engine {__version__}")
    switched = ruleset_problem(store, turn, inputs)
    if switched:  # the game cannot even be built with the rules it was played by
        return Replayed(turn, state, None, [*problems, switched], notes)
    edited = store.read_secret(folder / "state-before.yaml")
    if edited is not None:
        gm_state, unusable = archived_mapping(edited, f"{where}/state-before.yaml")
        unusable = unusable or state_shape_problem(gm_state, state, f"{where}/state-before.yaml")
        if unusable:
            return Replayed(turn, state, None, [*problems, unusable], notes)
        changes = state_differences(state, gm_state)
        if gm_state.get("turn") != turn:
            problems.append(f"{where}/state-before.yaml names turn {gm_state.get('turn')}, not {turn}")
        notes.append(
            "the GM edited the state before resolving: " + "; ".join(changes or ["no visible change"])
        )
        state = gm_state
    if earlier is not None and earlier.result is not None and state is earlier.result.state:
        state_raw = earlier.state_raw
    else:
        state_raw = canonical.dump(state)
    if commit("*", state_raw) != inputs.get("state_before_digest"):
        problems.append("the state before this turn differs from the replay of the turns before it")
        if edited is not None:  # a state the turn was not resolved from: replaying it proves nothing
            return Replayed(turn, state, None, problems, notes)
    game = store.game(
        state, house_rules=inputs.get("house_rules") or {}, reuse=earlier.game if earlier else None
    )
    if game.world.digest != inputs.get("world_digest"):
        problems.append("campaign/world.yaml has changed since this turn was resolved")
    archived, unread = archived_mapping(orders_raw, f"{where}/{ORDERS_FILE}", empty_ok=True)
    if unread:
        return Replayed(turn, state, None, [*problems, unread], notes, {}, game)
    files = {}
    with holding_still(state):
        checked = {
            faction: check_order_file(game, state, canonical.dump(entry), f"orders/{faction}.yaml")
            for faction, entry in sorted((archived.get("orders") or {}).items())
        }
    for faction, of in checked.items():
        if not of.ok:
            problems.append(f"archived orders no longer validate: {of.errors[0].format()}")
        if commit(faction, of.raw) != (inputs.get("order_digests") or {}).get(faction):
            problems.append(
                f"{where}/orders.yaml: the orders of {faction} differ from their digest in inputs.yaml"
            )
        files[faction] = of
    rumors = list(archived.get("rumors") or [])
    if problems:
        return Replayed(turn, state, None, problems, notes, files, game)
    absent = AbsentPolicy.from_data(inputs.get("absent_players"), f"{where}/inputs.yaml")
    away = inputs.get("away") or {}  # who was away by declaration, and the policy then in force
    away_policy = AwayPolicy.from_data(away.get("policy"), f"{where}/inputs.yaml")
    result = resolve_turn(
        game, state, files, list(inputs["posting_order"]), absent=absent, rumors=rumors,
        away=list(away.get("factions") or []), away_policy=away_policy,
        salt=str(inputs.get("salt") or ""), refused=archived.get("refused") or {},
        commitments=order_commitments(commit, files),
        sealed=(folder / f"{ORDERS_FILE}{sealing.SUFFIX}").is_file(),  # a campaign may be sealed mid-game
    )  # fmt: skip
    if dict(result.seed.digests) != inputs.get("order_digests"):
        problems.append(f"{where}/inputs.yaml: the order digests differ from the archived orders and rumours")
    if result.seed.hex != inputs.get("turn_seed"):
        problems.append("the turn seed differs")
    if (inputs.get("absences") or {}) != declared_absences(result.declared):
        problems.append(f"{where}/inputs.yaml: the absences it records differ from those the orders declare")
    bots = secret_files(store, folder / "bot-orders", ".yaml")
    if bots != {f: of.raw for f, of in result.stand_ins.items()}:
        problems.append("the bot's replayed orders for absent factions differ from bot-orders/")
    if {f: commit("*", raw) for f, raw in bots.items()} != digests.get("bot_orders"):
        problems.append(f"{where}/bot-orders/ no longer matches digest.yaml")
    npcs = secret_files(store, folder / "npc-orders", ".yaml")
    if npcs != {f: of.raw for f, of in result.npc_orders.items()}:
        problems.append("the bot's replayed orders for NPC factions differ from npc-orders/")
    if {f: commit("*", raw) for f, raw in npcs.items()} != digests.get("npc_orders", {}):
        problems.append(f"{where}/npc-orders/ no longer matches digest.yaml")
    result_raw = canonical.dump(result.state)
    if commit("*", result_raw) != digests.get("state"):
        problems.append("the replayed state differs from the archived digest")
    events_raw = canonical.dump(roll_log.logged(result.events_data(), game.rules))
    archived_events = store.read_secret(folder / "events.yaml")
    if events_raw != archived_events:
        problems.append(events_problem(archived_events, result, f"{where}/events.yaml"))
    if commit("*", events_raw) != digests.get("events"):
        problems.append(f"{where}/digest.yaml: the events digest differs from the replayed events")
    reports = secret_files(store, folder / "reports", ".md")
    if {f: commit(f, raw) for f, raw in reports.items()} != digests.get("reports"):
        problems.append(
            f"{where}/reports/ was edited after the turn was resolved (it no longer matches digest.yaml)"
        )
    elif render_reports:
        rendered = {f: t.encode() for f, t in reports_of(store.templates(), game, result).items()}
        if rendered != reports:
            notes.append(report_difference(game, rendered, reports))
    if (folder / f"{ORDERS_FILE}{sealing.SUFFIX}").is_file():  # sealed (a campaign may be sealed mid-game)
        problems += sealed_problems(
            store, game, result, folder, digests, commit, archived.get("orders") or {}
        )
    return Replayed(
        turn, state, result, problems, notes, files, game, result_raw,
        chain_digest=canonical.digest(digest_raw), next_salt_commitment=inputs.get("next_salt_commitment"),
        next_beacon_round=inputs.get("next_beacon_round"),
    )  # fmt: skip


def archived_mapping(raw: bytes, where: str, *, empty_ok: bool = False) -> tuple[dict[str, Any], str]:
    """An archived YAML file's mapping, or the problem that says why it is none (``empty_ok``: an empty
    file stands for an empty mapping). The engine writes every archive file as a YAML mapping, so any
    other content was put there by hand after the turn was resolved."""
    try:
        data = canonical.load(raw)
    except yaml.YAMLError as error:
        said = yaml_error_text(error)
        return {}, f"{where} is not YAML ({said}): it was changed after the turn was resolved"
    if data is None and empty_ok:
        return {}, ""
    if not isinstance(data, dict):
        kind = "empty" if data is None else f"a {type(data).__name__}, not a mapping"
        return {}, f"{where} is {kind}: it was changed after the turn was resolved"
    return data, ""


def state_shape_problem(candidate: dict[str, Any], like: State, where: str) -> str:
    """Why ``candidate`` (a GM-edited state, as archived) cannot be a state of this campaign: the turn
    and the factions' records must be there, and each part of ``like`` (the state the turns before it
    left) must be there of the same kind. A GM edit changes values, never the state's layout."""
    factions = candidate.get("factions")
    if not isinstance(candidate.get("turn"), int) or isinstance(candidate.get("turn"), bool):
        return f"{where} is not a campaign state: it has no turn number"
    if not isinstance(factions, dict) or not all(isinstance(v, dict) for v in factions.values()):
        return f"{where} is not a campaign state: 'factions' does not map each faction to its record"
    for key, value in like.items():
        if key not in candidate:
            return f"{where} is not a campaign state: it has no '{key}'"
        if _kind(candidate[key]) != _kind(value):
            return f"{where} is not a campaign state: '{key}' is {_kind(candidate[key])}, not {_kind(value)}"
    return ""


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    return "a list" if isinstance(value, list) else "a single value"


def ruleset_problem(store: Store, turn: int, inputs: Mapping[str, Any]) -> str:
    """The campaign's ruleset against the one the turn was resolved with, which its inputs record."""
    named, played = store.config().get("ruleset"), inputs.get("ruleset")
    if played is None or named == played:
        return ""
    return (
        f"campaign/campaign.yaml names the ruleset {named!r}, but turn {turn} was resolved with {played!r}: "
        f"put 'ruleset: {played}' back; a campaign keeps its ruleset for good"
    )


def report_difference(game: Game, rendered: Mapping[str, bytes], archived: Mapping[str, bytes]) -> str:
    """Why the reports render differently today from the archived ones, which their digests vouch for: a
    faction whose name today (campaign/players.yaml) the archived reports do not use was renamed since;
    otherwise the templates changed."""

    def renamed_in(faction: str, reader: str) -> bool:
        name = game.name_of(faction).encode()
        return name in rendered[reader] and name not in archived.get(reader, b"")

    renamed = [faction for faction in game.factions if any(renamed_in(faction, f) for f in rendered)]
    if renamed:
        names = ", ".join(f"{f} (now {game.name_of(f)!r})" for f in renamed)
        return (
            f"the reports render differently today: {names} renamed in campaign/players.yaml since this "
            "turn was resolved; the archived reports keep the name of their day"
        )
    return "the reports render differently today: templates/ changed since this turn was resolved"


def secret_files(store: Store, folder: Path, suffix: str) -> dict[str, bytes]:
    """The files of one kind in an archive folder, by name without suffix; sealed ones opened."""
    names = {p.name.removesuffix(sealing.SUFFIX).removesuffix(suffix) for p in folder.glob(f"*{suffix}*")}
    return {name: store.read_secret(folder / f"{name}{suffix}") or b"" for name in sorted(names)}


def salt_problems(store: Store, turn: int, inputs: dict[str, Any], where: str) -> list[str]:
    """The revealed salt against the commitments made when the turn opened."""
    return salt_mismatch(store.salt_commitment(turn), turn, inputs, where, store.committed_beacon_round(turn))


def salt_mismatch(
    committed: str | None, turn: int, inputs: dict[str, Any], where: str, committed_round: int | None = None
) -> list[str]:
    """The revealed salt against ``committed``, the commitment to the key holder's part of it (None: none
    was made), and, when the turn committed to a beacon round, against that round, checked offline."""
    salt = inputs.get("salt")
    if committed is None:
        return []
    if not salt:
        return [f"{where}/inputs.yaml reveals no dice salt, but one was committed when turn {turn} opened"]
    if committed_round is None:
        if sealing.salt_commitment(str(salt)) != committed:
            return [f"{where}/inputs.yaml: the revealed dice salt does not match its commitment"]
        return []
    secret = str(inputs.get("dice_secret") or "")
    if sealing.salt_commitment(secret) != committed:
        return [f"{where}/inputs.yaml: the revealed part of the dice salt does not match its commitment"]
    drawn = beacon.BeaconRound.from_data(inputs.get("beacon"), f"{where}/inputs.yaml")
    if drawn.round != committed_round:
        return [
            f"{where}/inputs.yaml: the dice took beacon round {drawn.round}, not round {committed_round}, "
            f"to which turn {turn} was committed when it opened"
        ]
    if sealing.beacon_salt(secret, drawn.verify().randomness) != salt:
        return [
            f"{where}/inputs.yaml: the dice salt does not follow from its revealed part and the beacon round"
        ]
    return []


def public_problems(folder: Path, digests: dict[str, Any]) -> list[str]:
    """What anyone can check of a sealed turn without the key: the public files and the sealed
    files are those the turn committed to."""
    where = folder.as_posix().split("/campaign/", 1)[-1]
    problems = []
    public = digests.get("public") or {}
    for name, key in ((PUBLIC_EVENTS, "events"), (PUBLIC_STATE, "state")):
        raw = _read(folder / name)
        if raw is None or canonical.digest(raw) != public.get(key):
            problems.append(f"campaign/{where}/{name} does not match digest.yaml")
    if sealed_digests(folder) != digests.get("sealed"):
        problems.append(f"campaign/{where}: the sealed files differ from those digest.yaml lists")
    return problems


def sealed_problems(
    store: Store,
    game: Game,
    result: TurnResult,
    folder: Path,
    digests: dict[str, Any],
    commit: sealing.Commitments,
    entries: Mapping[str, Any],
) -> list[str]:
    """A replayed sealed turn: each faction's view and receipt and the public files follow from the
    replay."""
    problems = public_problems(folder, digests)
    if set(result.state["factions"]) != set(game.factions):  # the GM brought a faction in: it has a view
        game = store.game(result.state, game.house_rules)
    views = secret_files(store, folder / "views", ".yaml")
    expected = {f: canonical.dump(game.ruleset.faction_view(game, result.state, f)) for f in game.factions}
    if views != expected or {f: commit(f, v) for f, v in views.items()} != digests.get("views"):
        problems.append("the factions' views differ from the replayed state")
    if commit.keyed:
        receipts = secret_files(store, folder / RECEIPTS, ".yaml")
        wanted = {f: canonical.dump(receipt(commit, f, entries.get(f))) for f in game.factions}
        if receipts != wanted:
            problems.append(f"{store.display(folder)}/{RECEIPTS}/ differs from the factions' receipts")
    if _read(folder / PUBLIC_STATE) != store.public_view(game, result.state):
        problems.append(f"{PUBLIC_STATE} differs from the public view of the replayed state")
    if _read(folder / PUBLIC_EVENTS) != canonical.dump(
        roll_log.logged({"turn": result.turn, "events": public_record(result.events)}, game.rules)
    ):
        problems.append(f"{PUBLIC_EVENTS} differs from the public record of the replayed events")
    return problems


def verify_public(store: Store, turns: Iterable[int]) -> list[TurnCheck]:
    """Verify a sealed campaign without its key: the digests, their chain, the dice salts against
    their commitments, the public files and the sealed files' envelopes. Replaying needs the key."""
    checks = []
    for turn in turns:
        folder = store.turns_dir / turn_dir_name(turn)
        where = store.display(folder)
        inputs_raw, digest_raw = _read(folder / "inputs.yaml"), _read(folder / DIGEST_FILE)
        if inputs_raw is None or digest_raw is None:
            checks.append(TurnCheck(turn, False, [f"{where}: inputs.yaml or digest.yaml is missing"]))
            continue
        inputs, unread = archived_mapping(inputs_raw, f"{where}/inputs.yaml")
        digests, unread_digests = archived_mapping(digest_raw, f"{where}/{DIGEST_FILE}")
        notes = ["public parts only: the replay of the sealed files needs the campaign key"]
        if unread or unread_digests:
            problems = [p for p in (unread, unread_digests) if p]
            checks.append(TurnCheck(turn, False, problems, notes, partial=True))
            continue
        problems = archive_integrity(store, turn, inputs, inputs_raw, digests, where)
        if (folder / f"{ORDERS_FILE}{sealing.SUFFIX}").is_file():
            problems += public_problems(folder, digests)
            if not problems:
                rolls_problems, note = public_roll_problems(inputs, folder, where)
                problems += rolls_problems
                notes.append(note)
        checks.append(TurnCheck(turn, not problems, problems, notes, partial=True))
    return checks


def verify_identity(root: Path, identity_path: Path, turns: Iterable[int] | None = None) -> list[TurnCheck]:
    """A player's check of a sealed campaign with their own key: everything ``verify_public`` checks, and
    for each turn that their faction's orders, view and report are the ones the turn committed to.
    Each faction's receipt holds the key of its own commitments, so this proves nothing about the others'."""
    store = Store(root)
    store.require()
    identity = sealing.load_identity(identity_path)
    archived = store.archived_turns()
    checks = verify_public(store, archived if turns is None else sorted(turns))
    for check in checks:
        folder = store.turns_dir / turn_dir_name(check.turn)
        receipts = sorted((folder / RECEIPTS).glob(f"*.yaml{sealing.SUFFIX}"))
        opened = [(path, _open_with(path, identity)) for path in receipts]
        mine = [(path, raw) for path, raw in opened if raw is not None]
        if not mine:
            check.notes.append("no receipt of this turn opens with your key (sealed before it was added?)")
            continue
        path, raw = mine[0]
        faction = path.name.removesuffix(f".yaml{sealing.SUFFIX}")
        problems = own_commitment_problems(folder, faction, canonical.load(raw), identity)
        check.problems += problems
        check.ok = check.ok and not problems
        if not problems:
            check.notes.append(f"the orders, view and report of {faction} match what the turn committed to")
    return checks


def _open_with(path: Path, identity: Any) -> bytes | None:
    try:
        return sealing.decrypt(path.read_bytes(), [identity])
    except sealing.SealedError:
        return None


def own_commitment_problems(
    folder: Path, faction: str, receipt_data: dict[str, Any], identity: Any
) -> list[str]:
    """A faction's receipt against the turn's published commitments to its orders, view and report."""
    where = folder.as_posix().split("/campaign/", 1)[-1]
    inputs = canonical.read_yaml(folder / "inputs.yaml")
    digests = canonical.read_yaml(folder / DIGEST_FILE)
    key = str(receipt_data.get("commitment_key") or "")
    if receipt_data.get("faction") != faction or receipt_data.get("turn") != inputs.get("turn") or not key:
        return [f"campaign/{where}/{RECEIPTS}/{faction}.yaml.age is not {faction}'s receipt of this turn"]
    problems = []
    entry = receipt_data.get("orders")
    published = (inputs.get("order_digests") or {}).get(faction)
    expected = "-" if entry is None else sealing.commit(key, canonical.dump(entry))
    if published != expected:
        problems.append(
            f"campaign/{where}/inputs.yaml: the commitment to {faction}'s orders does not match "
            "the orders in its receipt"
        )
    for kind, suffix, name in (("views", ".yaml", "view"), ("reports", ".md", "report")):
        path = folder / kind / f"{faction}{suffix}{sealing.SUFFIX}"
        raw = _open_with(path, identity) if path.is_file() else None
        if raw is None or sealing.commit(key, raw) != (digests.get(kind) or {}).get(faction):
            problems.append(f"campaign/{where}/{kind}/: {faction}'s {name} does not match its commitment")
    return problems


def events_problem(archived: bytes | None, result: TurnResult, where: str) -> str:
    """What differs between a turn's archived events and their replay, naming the first few rolls that
    are not the ones the replay drew (in whichever form the archive wrote them)."""
    problem = "the replayed events and rolls differ from events.yaml"
    try:
        loaded = canonical.load(archived or b"")
    except yaml.YAMLError:
        return problem
    changed = roll_log.changed_rolls(loaded, result.events_data(), where)
    if not changed:
        return problem
    if len(changed) == 1:
        return f"{problem}: the roll {changed[0]} is not the one the turn drew"
    shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
    return f"{problem}: the rolls {shown} are not the ones the turn drew"


def public_roll_problems(inputs: dict[str, Any], folder: Path, where: str) -> tuple[list[str], str]:
    """Every roll of a sealed turn's public events, drawn again from the public record alone: the
    campaign seed, the turn, the published commitments to the orders and the revealed salt. What
    anyone can check without the key; and a note of how many rolls were checked."""
    turn = int(inputs["turn"])
    seed = TurnSeed(
        int(inputs["campaign_seed"]),
        turn,
        dict(inputs.get("order_digests") or {}),
        str(inputs.get("salt") or ""),
    )
    if seed.hex != inputs.get("turn_seed"):
        return [
            f"{where}/inputs.yaml: the turn seed does not follow from the published commitments and salt"
        ], ""
    problems, checked, forced = [], 0, 0
    try:  # a compact file's roll lines are read back into the rolls they stand for
        public = roll_log.in_full(canonical.read_yaml(folder / PUBLIC_EVENTS), f"{where}/{PUBLIC_EVENTS}")
    except roll_log.RollLogError as error:
        return [f"{error}: it was changed after the turn was resolved"], ""
    for event in public.get("events") or []:
        for roll in event.get("rolls") or []:
            if roll.get("forced"):
                forced += 1
                continue
            drawn = recompute(seed, str(roll["label"]), str(roll["expr"]), roll.get("scope") or [])
            checked += 1
            if drawn.dice != roll.get("dice") or drawn.total != roll.get("total"):
                problems.append(
                    f"{where}/{PUBLIC_EVENTS}: the roll {roll['label']} is not the one its seed draws"
                )
    note = f"{checked} public roll(s) drawn again from the public record"
    return problems, note + (f"; {forced} set by hand (forced)" if forced else "")


def replay_archive(store: Store, last: int, *, render_reports: bool = True) -> Iterator[Replayed]:
    """Replay archived turns 1..last from the initial state, checking each against its archive
    (``render_reports``: see ``replay_turn``).

    Stops after the first turn with a problem: every later turn would start from a wrong state.
    Each turn starts from the state the one before left, so a caller must not change a replayed state.
    """
    start = store.turns_dir / turn_dir_name(0) / "state.yaml"
    if not start.exists() and not start.with_name(f"state.yaml{sealing.SUFFIX}").exists():
        raise CampaignError(
            "the initial state (campaign/turns/0000/state.yaml) is missing; nothing can be replayed"
        )
    state: State = canonical.load(store.read_secret(start) or b"")
    archived = store.archived_turns()
    earlier: Replayed | None = None
    for turn in range(1, last + 1):
        if turn not in archived:
            yield Replayed(
                turn,
                state,
                None,
                [f"turn {turn} is missing from the archive (campaign/turns/{turn_dir_name(turn)}/)"],
            )
            return
        replayed = replay_turn(store, turn, state, earlier=earlier, render_reports=render_reports)
        yield replayed
        if replayed.problems or replayed.result is None:
            return
        state, earlier = replayed.result.state, replayed


def interrupted_resolution(store: Store) -> int | None:
    """The turn a killed run had resolved without putting all its files in place (its journal is
    written, the switch is not finished), or None. ``campaign resolve`` finishes it first thing."""
    journal = store.staging_dir / JOURNAL
    if not journal.is_file():
        return None
    try:
        return int(canonical.read_yaml(journal)["turn"])
    except (yaml.YAMLError, KeyError, TypeError, ValueError):
        return 0


def check_interrupted(store: Store, turn: int) -> TurnCheck:
    said = f"turn {turn}" if turn else "a turn"
    return TurnCheck(
        turn, False,
        [f"{said} was resolved by a run that was stopped before it had put every file in place "
         f"(campaign/{STAGING}/{JOURNAL} says so): run campaign resolve to finish it; it resolves no "
         "further turn"],
        where="campaign/state.yaml",
    )  # fmt: skip


def check_live_state(store: Store, newest: int, replayed: State) -> TurnCheck:
    """The live state against the archive: the turn after the newest one, and the state it left
    unless the GM edited it since (a GM edit is named, and archived as such at the next resolve)."""
    where = "campaign/state.yaml"
    unfinished = interrupted_resolution(store)
    if unfinished is not None:  # the archive and the state are half switched: neither is wrong
        return check_interrupted(store, unfinished)
    try:
        live = store.state()
    except (OSError, yaml.YAMLError) as error:
        said = yaml_error_text(error) if isinstance(error, yaml.YAMLError) else str(error)
        return TurnCheck(newest + 1, False, [f"{where} cannot be read: {said}"], where=where)
    if not isinstance(live, dict) or live.get("turn") != newest + 1:
        turn = live.get("turn") if isinstance(live, dict) else None
        return TurnCheck(
            newest + 1, False,
            [f"{where} says turn {turn}, but the archive ends with turn {newest}: a turn was deleted from "
             "campaign/turns/, or the turn number was edited by hand"],
            where=where,
        )  # fmt: skip
    changes = state_differences(replayed, live)
    notes = [f"the GM edited the state after turn {newest}: " + "; ".join(changes)] if changes else []
    return TurnCheck(newest + 1, True, [], notes, where=where)


def verify(
    root: Path,
    turns: Iterable[int] | None = None,
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda xs: xs,
) -> list[TurnCheck]:
    """Replay archived turns from the initial state and compare everything the archive commits to;
    verifying up to the newest turn also checks the live state against it."""
    store = Store(root)
    store.require()
    archived = store.archived_turns()
    wanted = set(archived if turns is None else turns)
    missing = sorted(wanted - set(archived))
    if missing:
        raise CampaignError(
            f"turn(s) {', '.join(map(str, missing))} are not archived",
            f"archived turns: {archived[0]}–{archived[-1]}" if archived else "no turn is archived yet",
            code=2,
        )
    newest = archived[-1] if archived else 0
    if store.sealed and store.secret_key() is None:
        checks = [*setting_checks(store, archived), *verify_public(store, sorted(wanted))]
        if archived and max(wanted, default=0) == newest:
            live = store.campaign_dir / "state.yaml"
            published = store.turns_dir / turn_dir_name(newest) / PUBLIC_STATE
            if published.is_file() and _read(live) != _read(published):
                note = (
                    f"campaign/state.yaml differs from the public state turn {newest} left: the GM edited it"
                )
                checks.append(TurnCheck(newest + 1, True, [], [note], where="campaign/state.yaml"))
        return checks
    last = max(wanted) if wanted else 0
    results = setting_checks(store, archived)
    state: State = (
        canonical.load(store.read_secret(store.turns_dir / turn_dir_name(0) / "state.yaml") or b"")
        if newest == 0
        else {}
    )
    broken: int | None = None  # the first turn that did not replay
    for replayed in progress(replay_archive(store, last)):
        if replayed.turn in wanted or replayed.problems:
            results.append(TurnCheck(replayed.turn, not replayed.problems, replayed.problems, replayed.notes))
        if replayed.problems and broken is None:
            broken = replayed.turn
        if replayed.result is not None:
            state = replayed.result.state
    if broken is not None:  # every later turn starts from a state nobody can rebuild: check what can be
        results += [unreplayed_check(store, turn, broken) for turn in sorted(wanted) if turn > broken]
    if last == newest and broken is None and state:
        live = check_live_state(store, newest, state)
        if (turns is None and archived) or live.problems or live.notes:
            results.append(live)
    elif interrupted_resolution(store) is not None:
        results.append(check_interrupted(store, interrupted_resolution(store) or 0))
    return results


def unreplayed_check(store: Store, turn: int, broken: int) -> TurnCheck:
    """A turn after ``broken``, which did not replay: it cannot be replayed (it starts from the state
    the broken turn left, which only a replay rebuilds), but its archive is checked as far as it goes
    without one: its files read, nothing in it edited, the chain to the turn before, the dice salt."""
    folder = store.turns_dir / turn_dir_name(turn)
    where = store.display(folder)
    note = f"not replayed: it starts from the state turn {broken} left, and turn {broken} did not replay"
    inputs_raw, digest_raw = _read(folder / "inputs.yaml"), _read(folder / DIGEST_FILE)
    if inputs_raw is None or digest_raw is None:
        return TurnCheck(
            turn, False, [f"{where}: inputs.yaml or digest.yaml is missing"], [note], replayed=False
        )
    inputs, unread = archived_mapping(inputs_raw, f"{where}/inputs.yaml")
    digests, unread_digests = archived_mapping(digest_raw, f"{where}/{DIGEST_FILE}")
    problems = [p for p in (unread, unread_digests) if p]
    if not problems:
        problems += archive_integrity(store, turn, inputs, inputs_raw, digests, where)
    return TurnCheck(turn, not problems, problems, [note], replayed=False)


def archive_integrity(
    store: Store, turn: int, inputs: dict[str, Any], inputs_raw: bytes, digests: dict[str, Any], where: str
) -> list[str]:
    """What a turn's archive says of itself, without a replay: its inputs as digest.yaml binds them, the
    chain to the turn before, the dice salt against its commitment, the ruleset it was played with."""
    problems = []
    if input_digests(inputs) != digests.get("inputs") or canonical.dump(inputs) != inputs_raw:
        problems.append(f"{where}/inputs.yaml was edited after the turn was resolved")
    if inputs.get("previous_turn_digest") != store.turn_digests(turn - 1).get("self"):
        problems.append(f"turn {turn - 1}'s archive differs from the one turn {turn} was resolved after")
    problems += salt_problems(store, turn, inputs, where)
    switched = ruleset_problem(store, turn, inputs)
    return [*problems, switched] if switched else problems


def setting_checks(store: Store, archived: list[int]) -> list[TurnCheck]:
    """What the campaign's own records say against the archive: the world the campaign opened with
    (``opening.yaml``) and the engine that made it (``engine:`` in campaign.yaml). Listed only when
    something is wrong."""
    checks = []
    opening = opening_problems(store)
    if opening:
        checks.append(TurnCheck(0, False, opening, where=f"campaign/turns/{turn_dir_name(0)}/{OPENING}"))
    engine = engine_problems(store, archived)
    if engine:
        checks.append(TurnCheck(0, False, engine, where="campaign/campaign.yaml"))
    return checks


def opening_problems(store: Store) -> list[str]:
    """The opening record's world digest against campaign/world.yaml: ``campaign check`` trusts the
    world it vouches for, and turn 1 was resolved in that world."""
    where = f"campaign/turns/{turn_dir_name(0)}/{OPENING}"
    raw = _read(store.turns_dir / turn_dir_name(0) / OPENING)
    if raw is None:
        return []  # a campaign made before the kit wrote one
    opening, unread = archived_mapping(raw, where)
    if unread:
        return [unread]
    recorded = opening.get("world_digest")
    world = _read(store.campaign_dir / "world.yaml")
    if recorded is None or world is None:
        return []
    if recorded != canonical.digest(world):
        return [
            f"{where}: the world digest is not that of campaign/world.yaml: the world, or the record of the "
            "world the campaign opened with, was changed after the campaign was made"
        ]
    return []


def engine_problems(store: Store, archived: list[int]) -> list[str]:
    """``engine:`` in campaign.yaml, the kit's version that made the campaign: a version, no newer than
    the engine that resolved its first turn, nor than this one (an older engine may replay otherwise)."""
    config = store.config()
    named = config.get("engine")
    where = "campaign/campaign.yaml"
    if "engine" not in config:  # every kit wrote it: it was taken out by hand
        return [f"{where} names no engine: put back 'engine:' with the version of the kit that made it"]
    if not isinstance(named, str) or not re.fullmatch(r"\d+(\.\d+)*", named):
        return [f"{where}: engine: {named!r} is not a version of the kit: put back the version that made it"]
    first = archived[0] if archived else None
    inputs_raw = _read(store.turns_dir / turn_dir_name(first) / "inputs.yaml") if first else None
    resolved = archived_mapping(inputs_raw, "")[0].get("engine") if inputs_raw else None
    if isinstance(resolved, str) and _version(named) > _version(resolved):
        return [
            f"{where} says engine {named} made the campaign, but turn {first} was resolved before it, by "
            f"engine {resolved}: put back the version that made it"
        ]
    if _version(named) > _version(__version__):
        return [
            f"{where} says engine {named} made the campaign, newer than this engine ({__version__}), which "
            f"may replay it otherwise: verify it with campaign-kit {named} or newer"
        ]
    return []


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))
