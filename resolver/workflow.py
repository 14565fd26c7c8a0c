"""What the commands do, as functions: create, check, resolve, verify, play a demo.

The CLI parses arguments and prints; this layer loads and saves through the store
and calls the pure engine. Nothing here formats text for a terminal.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import __version__
from .absence import AbsentPolicy
from .bots import bot_order_file
from .core import canonical
from .core import factions as faction_records
from .core.issues import CampaignError
from .core.orders import OrderFile
from .core.phases import State
from .core.stillness import holding_still
from .engine import TurnResult, resolve_turn, turn_rumors
from .ruleset import FactionSetup, Game, get_ruleset
from .schedule import Settings, default_settings
from .store import ARCHIVE_FORMAT, DIGEST_FILE, ORDERS_FILE, Store, input_digests, turn_dir_name
from .validate import check_order_file

PALETTE = (
    ("red", "#c0392b"),
    ("blue", "#2e6fbd"),
    ("green", "#2e8b57"),
    ("gold", "#b8860b"),
    ("purple", "#8e44ad"),
    ("teal", "#138d75"),
    ("orange", "#d35400"),
    ("slate", "#5d6d7e"),
    ("pink", "#c2185b"),
    ("brown", "#795548"),
    ("olive", "#7d8b2e"),
    ("navy", "#1f3a68"),
)
DEMO_MARKER = ".campaign-demo"
HOUSE_RULES_HEADER = """\
# House rules of this campaign.
#
# Any number of the ruleset's rules data can be overridden here; the rest keeps the ruleset's
# defaults (see the Rules pages). Only write what differs, for example:
#
#   actions:
#     per_turn: 4
#   advancement:
#     resources_per_level: 3
#
{}
"""


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "campaign"


def default_factions(count: int, seed: int, most: int = 200) -> list[FactionSetup]:
    """``count`` factions with generated names; ``most`` is the command line's limit (the benchmark
    goes beyond it)."""
    from .core.world import make_names

    if not 1 <= count <= most:
        raise CampaignError(f"a campaign needs between 1 and {most} factions, not {count}", code=2)
    names = make_names(seed, count, "faction-names")
    setups = []
    for i in range(count):
        fid, color = PALETTE[i] if i < len(PALETTE) else (f"f{i + 1:03d}", PALETTE[i % len(PALETTE)][1])
        setups.append(FactionSetup(fid, names[i], color))
    return setups


def factions_from_players(path: Path) -> tuple[list[FactionSetup], dict[str, Any]]:
    try:
        data = canonical.read_yaml(path)
    except OSError as exc:
        raise CampaignError(f"cannot read the players file {path}: {exc.strerror}", code=2) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise CampaignError(f"{where}: the players file is not valid YAML", "check its indentation") from None
    if not isinstance(data, dict) or not isinstance(data.get("factions"), dict) or not data["factions"]:
        raise CampaignError(
            f"{path}: expected 'factions:' mapping each faction id to its name, colour and logins",
            "see campaign/players.yaml of any campaign for the shape",
        )
    setups = []
    for i, (fid, info) in enumerate(data["factions"].items()):
        info = info or {}
        if faction_records.id_problem(str(fid), ()):
            raise CampaignError(
                f"{path}: '{fid}' is not a usable faction id",
                "use lower-case letters, digits and dashes, starting with a letter; not 'gm'",
            )
        setups.append(
            FactionSetup(
                str(fid), str(info.get("name", fid)), str(info.get("color", PALETTE[i % len(PALETTE)][1]))
            )
        )
    return setups, data


def new_campaign(
    root: Path,
    ruleset_id: str,
    seed: int,
    factions: list[FactionSetup],
    *,
    name: str = "",
    players: dict[str, Any] | None = None,
    force: bool = False,
) -> Game:
    store = Store(root)
    ruleset = get_ruleset(ruleset_id)
    if store.exists():
        if not force:
            turn = store.state().get("turn", "?") if (store.campaign_dir / "state.yaml").exists() else "?"
            raise CampaignError(
                f"{store.root.resolve()} already holds a campaign (campaign/campaign.yaml, turn {turn})",
                "pass --force to erase it and start again",
                code=1,
            )
        store.reset()
    rules = ruleset.default_rules()
    world = ruleset.generate_world(seed, rules, len(factions))
    state = ruleset.initial_state(world, rules, factions, seed)
    title = name or f"{ruleset.title} campaign {seed}"
    config = {
        "campaign": slug(title),
        "name": title,
        "ruleset": ruleset.id,
        "seed": seed,
        "engine": __version__,
        **default_settings(),
    }
    players = players or {}
    roster = {"gm": {"logins": list((players.get("gm") or {}).get("logins", []))}, "factions": {}}
    if (players.get("gm") or {}).get("ids"):
        roster["gm"]["ids"] = list(players["gm"]["ids"])
    for f in factions:
        given = (players.get("factions") or {}).get(f.id) or {}
        roster["factions"][f.id] = {"name": f.name, "color": f.color, "logins": list(given.get("logins", []))}
        if given.get("ids"):  # GitHub account ids: the pull-request check trusts them over logins
            roster["factions"][f.id]["ids"] = list(given["ids"])
    store.create(config, roster, world, state, HOUSE_RULES_HEADER)
    game = store.game(state)
    store.write_player_aids(game, state)
    return game


def check(root: Path, paths: Iterable[Path] | None = None) -> list[OrderFile]:
    store = Store(root)
    store.require()
    state = store.state()
    return store.check(store.game(state), state, paths)


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
    root: Path, *, posting_order: list[str] | None = None, forced_rolls: dict[str, list[int]] | None = None
) -> tuple[Game, TurnResult]:
    store = Store(root)
    store.require()
    with store.lock():
        note = store.recover()
        if note.startswith("Turn "):
            raise FinishedInterrupted(note)
        state, state_raw = store.state_and_raw()
        expect_next_turn(store, state)
        game = store.game(state)
        files = store.check(game, state)
        if any(not f.ok for f in files):
            raise Rejected(files)
        entries, sealed, rumors = seal(game, state, files)
        absent = Settings.from_config(store.config()).absent
        result = resolve_turn(game, state, sealed, posting_order, forced_rolls, absent=absent, rumors=rumors)
        store.archive(game, state, result, entries, rumors, state_raw)
    return game, result


@dataclass
class TurnCheck:
    turn: int
    ok: bool
    problems: list[str]
    notes: list[str] = field(default_factory=list)  # GM edits and other facts that are not faults
    where: str = ""  # what was checked, when it is not an archived turn

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


def replay_turn(store: Store, turn: int, state: State) -> Replayed:
    """Replay one archived turn from the state the turns before it left, against everything its
    archive commits to: inputs, sealed orders and rumours, seed, state, events, reports, bot orders."""
    from .views import render_reports

    folder = store.turns_dir / turn_dir_name(turn)
    where = store.display(folder)
    problems: list[str] = []
    notes: list[str] = []
    inputs_raw, digest_raw = _read(folder / "inputs.yaml"), _read(folder / DIGEST_FILE)
    orders_raw = _read(folder / ORDERS_FILE)
    if inputs_raw is None or digest_raw is None or orders_raw is None:
        absent = [
            n
            for n, r in (("inputs.yaml", inputs_raw), (DIGEST_FILE, digest_raw), (ORDERS_FILE, orders_raw))
            if r is None
        ]
        return Replayed(
            turn, state, None, [f"{where}/{', '.join(absent)} missing: the archive is incomplete"]
        )
    inputs, digests = canonical.load(inputs_raw), canonical.load(digest_raw)
    if inputs.get("format") != ARCHIVE_FORMAT:
        older = f"{where} is in archive format {inputs.get('format', 1)}, not {ARCHIVE_FORMAT}"
        hint = f"verify it with the engine that resolved it ({inputs.get('engine', '?')})"
        return Replayed(turn, state, None, [f"{older}: {hint}"])
    bound = digests.get("inputs") or {}
    edited_inputs = sorted(set(input_digests(inputs).items()) ^ set(bound.items()))
    if edited_inputs or canonical.dump(inputs) != inputs_raw:
        names = ", ".join(sorted({key for key, _ in edited_inputs})) or "its layout"
        problems.append(f"{where}/inputs.yaml was edited after the turn was resolved: {names}")
    if canonical.digest(orders_raw) != digests.get("orders"):
        problems.append(
            f"{where}/orders.yaml was edited after the turn was resolved (it no longer matches digest.yaml)"
        )
    if inputs.get("previous_turn_digest") != store.turn_digests(turn - 1).get("self"):
        problems.append(f"turn {turn - 1}'s archive differs from the one turn {turn} was resolved after")
    if inputs.get("turn") != turn:
        problems.append(f"{where}/inputs.yaml names turn {inputs.get('turn')}")
    if inputs.get("engine") != __version__:
        notes.append(f"resolved by engine {inputs.get('engine')}, replayed with engine {__version__}")
    edited = _read(folder / "state-before.yaml")
    if edited is not None:
        gm_state = canonical.load(edited)
        changes = state_differences(state, gm_state)
        if gm_state.get("turn") != turn:
            problems.append(f"{where}/state-before.yaml names turn {gm_state.get('turn')}, not {turn}")
        notes.append(
            "the GM edited the state before resolving: " + "; ".join(changes or ["no visible change"])
        )
        state = gm_state
    if canonical.data_digest(state) != inputs.get("state_before_digest"):
        problems.append("the state before this turn differs from the replay of the turns before it")
    game = store.game(state, house_rules=inputs.get("house_rules") or {})
    if game.world.digest != inputs.get("world_digest"):
        problems.append("campaign/world.yaml has changed since this turn was resolved")
    archived = canonical.load(orders_raw) or {}
    files = {}
    with holding_still(state):
        checked = {
            faction: check_order_file(game, state, canonical.dump(entry), f"orders/{faction}.yaml")
            for faction, entry in sorted((archived.get("orders") or {}).items())
        }
    for faction, of in checked.items():
        if not of.ok:
            problems.append(f"archived orders no longer validate: {of.errors[0].format()}")
        if of.digest != (inputs.get("order_digests") or {}).get(faction):
            problems.append(
                f"{where}/orders.yaml: the orders of {faction} differ from their digest in inputs.yaml"
            )
        files[faction] = of
    rumors = list(archived.get("rumors") or [])
    if problems:
        return Replayed(turn, state, None, problems, notes)
    absent = AbsentPolicy.from_data(inputs.get("absent_players"), f"{where}/inputs.yaml")
    result = resolve_turn(game, state, files, list(inputs["posting_order"]), absent=absent, rumors=rumors)
    if dict(result.seed.digests) != inputs.get("order_digests"):
        problems.append(f"{where}/inputs.yaml: the order digests differ from the archived orders and rumours")
    if result.seed.hex != inputs.get("turn_seed"):
        problems.append("the turn seed differs")
    bots = {p.stem: p.read_bytes() for p in sorted((folder / "bot-orders").glob("*.yaml"))}
    if bots != {f: of.raw for f, of in result.stand_ins.items()}:
        problems.append("the bot's replayed orders for absent factions differ from bot-orders/")
    if {f: canonical.digest(raw) for f, raw in bots.items()} != digests.get("bot_orders"):
        problems.append(f"{where}/bot-orders/ no longer matches digest.yaml")
    npcs = {p.stem: p.read_bytes() for p in sorted((folder / "npc-orders").glob("*.yaml"))}
    if npcs != {f: of.raw for f, of in result.npc_orders.items()}:
        problems.append("the bot's replayed orders for NPC factions differ from npc-orders/")
    if {f: canonical.digest(raw) for f, raw in npcs.items()} != digests.get("npc_orders", {}):
        problems.append(f"{where}/npc-orders/ no longer matches digest.yaml")
    if canonical.data_digest(result.state) != digests.get("state"):
        problems.append("the replayed state differs from the archived digest")
    events_raw = canonical.dump(result.events_data())
    if events_raw != _read(folder / "events.yaml"):
        problems.append("the replayed events and rolls differ from events.yaml")
    if canonical.digest(events_raw) != digests.get("events"):
        problems.append(f"{where}/digest.yaml: the events digest differs from the replayed events")
    reports = {p.stem: p.read_bytes() for p in sorted((folder / "reports").glob("*.md"))}
    if {f: canonical.digest(raw) for f, raw in reports.items()} != digests.get("reports"):
        problems.append(
            f"{where}/reports/ was edited after the turn was resolved (it no longer matches digest.yaml)"
        )
    elif {f: text.encode() for f, text in render_reports(store, game, result).items()} != reports:
        notes.append("the reports render differently today: templates/ changed since this turn was resolved")
    return Replayed(turn, state, result, problems, notes)


def replay_archive(store: Store, last: int) -> Iterator[Replayed]:
    """Replay archived turns 1..last from the initial state, checking each against its archive.

    Stops after the first turn with a problem: every later turn would start from a wrong state.
    """
    start = store.turns_dir / turn_dir_name(0) / "state.yaml"
    if not start.exists():
        raise CampaignError(
            "the initial state (campaign/turns/0000/state.yaml) is missing; nothing can be replayed"
        )
    state: State = canonical.read_yaml(start)
    archived = store.archived_turns()
    for turn in range(1, last + 1):
        if turn not in archived:
            yield Replayed(
                turn,
                state,
                None,
                [f"turn {turn} is missing from the archive (campaign/turns/{turn_dir_name(turn)}/)"],
            )
            return
        replayed = replay_turn(store, turn, state)
        yield replayed
        if replayed.problems or replayed.result is None:
            return
        state = replayed.result.state


def check_live_state(store: Store, newest: int, replayed: State) -> TurnCheck:
    """The live state against the archive: the turn after the newest one, and the state it left
    unless the GM edited it since (a GM edit is named, and archived as such at the next resolve)."""
    where = "campaign/state.yaml"
    try:
        live = store.state()
    except (OSError, yaml.YAMLError) as error:
        return TurnCheck(newest + 1, False, [f"{where} cannot be read: {error}"], where=where)
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
    last = max(wanted) if wanted else 0
    results = []
    state: State = (
        canonical.read_yaml(store.turns_dir / turn_dir_name(0) / "state.yaml") if newest == 0 else {}
    )
    broken = False
    for replayed in progress(replay_archive(store, last)):
        if replayed.turn in wanted or replayed.problems:
            results.append(TurnCheck(replayed.turn, not replayed.problems, replayed.problems, replayed.notes))
        broken = broken or bool(replayed.problems)
        if replayed.result is not None:
            state = replayed.result.state
    if last == newest and not broken and state:
        live = check_live_state(store, newest, state)
        if (turns is None and archived) or live.problems or live.notes:
            results.append(live)
    return results


def demo_root(base: Path, ruleset_id: str) -> Path:
    return base / ".demo" / ruleset_id


def prepare_demo_folder(root: Path) -> None:
    """A demo may recreate its own scratch folder, never anything else."""
    if root.exists() and any(root.iterdir()):
        if not (root / DEMO_MARKER).exists():
            raise CampaignError(
                f"{root} is not empty and was not made by campaign demo",
                "choose an empty folder with --root",
                code=2,
            )
        shutil.rmtree(root)
    root.mkdir(parents=True, exist_ok=True)
    (root / DEMO_MARKER).write_text("Scratch campaign made by `campaign demo`; safe to delete.\n")


def play_bot_turn(root: Path, factions: Iterable[str] | None = None) -> tuple[Game, TurnResult]:
    """Write bot orders for the given factions (every active one by default), then resolve."""
    store = Store(root)
    state = store.state()
    game = store.game(state)
    chosen = faction_records.awaited(state, factions if factions is not None else game.factions)
    for faction in chosen:
        of = bot_order_file(game, state, faction)
        canonical.write_atomic(store.orders_dir / f"{faction}.yaml", of.raw)
    return resolve(root)
