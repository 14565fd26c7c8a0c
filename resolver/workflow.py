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
from .core.issues import CampaignError
from .core.orders import GM, OrderFile
from .core.phases import State
from .engine import TurnResult, resolve_turn
from .ruleset import FactionSetup, Game, get_ruleset
from .schedule import Settings, default_settings
from .store import Store, turn_dir_name
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


def default_factions(count: int, seed: int) -> list[FactionSetup]:
    from .core.world import make_names

    if not 1 <= count <= 200:
        raise CampaignError(f"a campaign needs between 1 and 200 factions, not {count}", code=2)
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
        if not re.fullmatch(r"[a-z][a-z0-9-]{0,30}", str(fid)) or fid == GM:
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


def resolve(
    root: Path, *, posting_order: list[str] | None = None, forced_rolls: dict[str, list[int]] | None = None
) -> tuple[Game, TurnResult]:
    store = Store(root)
    store.require()
    state = store.state()
    game = store.game(state)
    files = store.check(game, state)
    if any(not f.ok for f in files):
        raise Rejected(files)
    by_faction = {f.faction: f for f in files if f.faction}
    absent = Settings.from_config(store.config()).absent
    result = resolve_turn(game, state, by_faction, posting_order, forced_rolls, absent=absent)
    store.archive(game, state, result, by_faction)
    return game, result


@dataclass
class TurnCheck:
    turn: int
    ok: bool
    problems: list[str]


@dataclass
class Replayed:
    turn: int
    state_before: State
    result: TurnResult | None  # None when the turn could not be replayed
    problems: list[str]
    orders: dict[str, OrderFile] = field(default_factory=dict)  # the archived files, as the engine read them


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
    for turn in [t for t in store.archived_turns() if t <= last]:
        folder = store.turns_dir / turn_dir_name(turn)
        problems: list[str] = []
        inputs = canonical.read_yaml(folder / "inputs.yaml")
        edited = folder / "state-before.yaml"
        if edited.exists():
            state = canonical.read_yaml(edited)  # the GM edited the state by hand before this turn
        if canonical.data_digest(state) != inputs["state_before_digest"]:
            problems.append("the state before this turn differs from the replay of the turns before it")
        game = store.game(state, house_rules=inputs.get("house_rules") or {})
        if canonical.data_digest(game.world.to_data()) != inputs["world_digest"]:
            problems.append("campaign/world.yaml has changed since this turn was resolved")
        files = {}
        for path in sorted((folder / "orders").glob("*.yaml")) if (folder / "orders").exists() else []:
            of = check_order_file(game, state, path.read_bytes(), f"orders/{path.name}")
            if not of.ok:
                problems.append(f"archived orders no longer validate: {of.errors[0].format()}")
            files[path.stem] = of
        if problems:
            yield Replayed(turn, state, None, problems, files)
            return
        absent = AbsentPolicy.from_data(inputs.get("absent_players"), f"{store.display(folder)}/inputs.yaml")
        result = resolve_turn(game, state, files, list(inputs["posting_order"]), absent=absent)
        bots = {p.stem: p.read_bytes() for p in sorted((folder / "bot-orders").glob("*.yaml"))}
        if bots != {f: of.raw for f, of in result.stand_ins.items()}:
            problems.append("the bot's replayed orders for absent factions differ from bot-orders/")
        digest = canonical.read_yaml(folder / "digest.yaml")
        if canonical.data_digest(result.state) != digest["state"]:
            problems.append("the replayed state differs from the archived digest")
        if canonical.dump(result.events_data()) != (folder / "events.yaml").read_bytes():
            problems.append("the replayed events and rolls differ from events.yaml")
        if result.seed.hex != inputs["turn_seed"]:
            problems.append("the turn seed differs")
        yield Replayed(turn, state, result, problems, files)
        if problems:
            return
        state = result.state


def verify(
    root: Path,
    turns: Iterable[int] | None = None,
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda xs: xs,
) -> list[TurnCheck]:
    """Replay archived turns from the initial state and compare every output byte for byte."""
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
    if not wanted:
        return []
    last = max(wanted)
    results = []
    steps = progress(replay_archive(store, last))
    for replayed in steps:
        if replayed.turn in wanted or replayed.problems:
            results.append(TurnCheck(replayed.turn, not replayed.problems, replayed.problems))
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
    chosen = [
        f
        for f in (factions if factions is not None else game.factions)
        if state["factions"][f].get("status", "active") == "active"
    ]
    for faction in chosen:
        of = bot_order_file(game, state, faction)
        canonical.write_atomic(store.orders_dir / f"{faction}.yaml", of.raw)
    return resolve(root)
