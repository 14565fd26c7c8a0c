"""What the commands do, as functions: create, check, resolve, verify, play a demo.

The CLI parses arguments and prints; this layer loads and saves through the store
and calls the pure engine. Nothing here formats text for a terminal.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from . import __version__
from .core import canonical
from .core import factions as faction_records
from .core.issues import CampaignError, Issue
from .core.orders import OrderFile
from .engine.bots import bot_order_file
from .engine.ruleset import FactionSetup, Game, Ruleset, get_ruleset
from .engine.turn import TurnResult
from .publish.layout import ignore_generated_files, write_config_stub
from .store import sealing
from .store.keys import forget_plain_file_ignores, ignore_plain_files
from .store.resolution import resolve
from .store.schedule import default_settings
from .store.store import (
    DEMO_MARKER,
    Store,
)

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
DEMO_KEY = sealing.DEMO_KEY
DEMO_PLAYER_KEYS = "player-keys"  # a sealed demo's players' keys, one file per faction, beside it
HOUSE_RULES_HEADER = """\
# House rules of this campaign.
#
# Any number of the ruleset's rules data can be overridden here; the rest keeps the ruleset's
# defaults (see the Rules pages). Only write what differs, for example:
#
{example}#
# campaign check reports any key the rules data does not have, and any value of the wrong kind.
{{}}
"""


def house_rules_header(ruleset: Ruleset) -> str:
    """The house-rule file of a new campaign: no rule yet, and an example of the ruleset's own rules."""
    example = yaml.safe_dump(
        dict(ruleset.house_rule_limits.example), sort_keys=False, default_flow_style=False
    )
    return HOUSE_RULES_HEADER.format(example="".join(f"#   {line}\n" for line in example.splitlines()))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "campaign"


DEFAULT_FACTIONS = 4  # how many factions a campaign has when not told, where the ruleset's sides are free


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


def ruleset_factions(ruleset_id: str, count: int | None, seed: int) -> list[FactionSetup]:
    """The factions of a new campaign without a players file: where the ruleset's sides are fixed
    (``Ruleset.fixed_factions``) all of them, or the first ``count``; else ``count`` (4 unless given) with
    generated names."""
    ruleset = get_ruleset(ruleset_id)
    fixed = ruleset.fixed_factions(ruleset.default_rules())
    if not fixed:
        return default_factions(count or DEFAULT_FACTIONS, seed)
    if count is not None and not 1 <= count <= len(fixed):
        raise CampaignError(
            f"a {ruleset.title} campaign has 1 to {len(fixed)} factions, not {count}",
            f"leave out --factions for all {len(fixed)}",
            code=2,
        )
    return list(fixed[:count] if count else fixed)


def _fitted_factions(
    ruleset: Ruleset, rules: dict[str, Any], factions: list[FactionSetup], players: dict[str, Any] | None
) -> tuple[list[FactionSetup], dict[str, Any] | None]:
    """The factions (and the players' entries) of a campaign of a ruleset whose sides are fixed
    (``Ruleset.fixed_factions``): factions named by other ids (generated ones) become its first sides in
    order, as many as asked, each keeping its players' entry (logins, keys)."""
    fixed = ruleset.fixed_factions(rules)
    known = {setup.id for setup in fixed}
    if not fixed or all(setup.id in known for setup in factions):
        return factions, players
    if len(factions) > len(fixed):
        raise CampaignError(
            f"a {ruleset.title} campaign has at most {len(fixed)} factions, not {len(factions)}",
            f"name at most {len(fixed)}: {', '.join(setup.id for setup in fixed)}",
            code=2,
        )
    sides = list(fixed[: len(factions)])
    if players is not None:
        entries = players.get("factions") or {}
        renamed = {
            side.id: entries[old.id] for old, side in zip(factions, sides, strict=True) if old.id in entries
        }
        players = {**players, "factions": renamed}
    return sides, players


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
    key: str | None = None,
    sealed: bool = False,
    beacon_name: str | None = None,
    now: datetime | None = None,
) -> Game:
    """``key`` is the campaign's secret key (see ``sealing``): with it the dice of every turn gain a
    salt committed in advance; ``sealed`` (which needs it) encrypts the campaign's secrets.
    ``beacon_name``: the public beacon whose rounds complete each turn's salt (``quicknet``, ``test``), by
    default quicknet in a sealed campaign and none in an open one; ``now``: when the first turn opens."""
    if sealed and key is None:
        raise CampaignError("a sealed campaign needs a campaign key", code=2)
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
    factions, players = _fitted_factions(ruleset, rules, factions, players)
    title = name or f"{ruleset.title} campaign {seed}"
    world = ruleset.generate_world(seed, rules, len(factions))
    # The world and the names are public; a sealed campaign's hidden starting positions come from its key.
    hidden_seed = sealing.setup_seed(key, slug(title)) if sealed and key is not None else seed
    state = ruleset.initial_state(world, rules, factions, hidden_seed)
    config = {
        "campaign": slug(title),
        "name": title,
        "ruleset": ruleset.id,
        "seed": seed,
        "engine": __version__,
        **default_settings(),
    }
    if key is not None:
        config["recipient"] = sealing.public_of(key)
        chosen = beacon_name if beacon_name is not None else ("quicknet" if sealed else "none")
        if chosen != "none":
            config["beacon"] = chosen
    if sealed:
        config["sealed"] = True
    players = players or {}
    roster = {"gm": {"logins": list((players.get("gm") or {}).get("logins", []))}, "factions": {}}
    if (players.get("gm") or {}).get("ids"):
        roster["gm"]["ids"] = list(players["gm"]["ids"])
    for f in factions:
        given = (players.get("factions") or {}).get(f.id) or {}
        roster["factions"][f.id] = {"name": f.name, "color": f.color, "logins": list(given.get("logins", []))}
        if given.get("profile"):  # the public profile the faction's page shows, in the player's words
            roster["factions"][f.id]["profile"] = str(given["profile"])
        if given.get("ids"):  # GitHub account ids: the pull-request check trusts them over logins
            roster["factions"][f.id]["ids"] = list(given["ids"])
        if given.get("notify"):  # how the player wants turn news and reminders (resolver/notify/settings)
            roster["factions"][f.id]["notify"] = given["notify"]
        if given.get("recipients"):  # age or SSH public keys: what a sealed campaign encrypts to
            for number, text in enumerate(given["recipients"]):
                sealing.recipient(text, f"players: {f.id}: recipients[{number}]")
            roster["factions"][f.id]["recipients"] = [str(r) for r in given["recipients"]]
    canonical.write_yaml(store.campaign_dir / "campaign.yaml", config)
    store.beacon_network()  # a beacon the campaign may not use is refused before anything else is written
    opening = store.commit_salt(config["campaign"], key, 1, now or datetime.now(UTC))
    store.create(config, roster, world, state, house_rules_header(ruleset), opening)
    if sealed:
        ignore_plain_files(store.root)
    else:  # a folder that held a sealed campaign: its players' plain orders are committed now
        forget_plain_file_ignores(store.root)
    # The site build's output is ignored from the first commit, and the GM's mkdocs.yml is committed with
    # it: a later `campaign site` then leaves the tree clean, and `resolve --commit` finds nothing amiss.
    ignore_generated_files(store.root)
    write_config_stub(store.root)
    game = store.game(state)
    store.write_player_aids(game, state)
    return game


def house_rule_issues(root: Path) -> list[Issue]:
    """What is wrong with the campaign's house rules (``campaign/rules.yaml``), each at its line."""
    store = Store(root)
    store.require()
    return store.house_rule_issues()


def is_house_rule_file(root: Path, path: Path) -> bool:
    return Store(root).is_house_rule_file(path)


def check(root: Path, paths: Iterable[Path] | None = None) -> list[OrderFile]:
    store = Store(root)
    store.require()
    return store.check_as_read_in_part(paths)


def demo_root(base: Path, ruleset_id: str) -> Path:
    return base / ".demo" / ruleset_id


def demo_player_keys(root: Path, factions: Iterable[str], seed: int) -> dict[str, Any]:
    """A key for each faction of a sealed demo, written beside the campaign as a player keeps theirs, and
    the players' file that lists their public halves, so that a demo can be read as each player reads it."""
    roster: dict[str, Any] = {"factions": {}}
    for faction in factions:
        key = write_demo_key(root / DEMO_PLAYER_KEYS / f"{faction}.txt", seed, faction)
        roster["factions"][faction] = {"recipients": [sealing.public_of(key)]}
    return roster


def write_demo_key(path: Path, seed: int, name: str) -> str:
    """A demo's key (``sealing.demo_key``) in ``path``, readable by its owner alone."""
    key = sealing.demo_key(seed, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600)
    path.write_text(
        f"# {name}'s key in this demo: it follows from the demo's seed, never use it for real\n{key}\n"
    )
    return key


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


def write_bot_orders(root: Path, factions: Iterable[str] | None = None) -> int:
    """Write bot orders for the given factions (every awaited one by default) into orders/, sealed as a
    player's campaign would seal them in a sealed campaign; returns how many orders they give."""
    store = Store(root)
    state = store.state()
    game = store.game(state)
    count = 0
    for faction in faction_records.awaited(state, factions if factions is not None else game.factions):
        of = bot_order_file(game, state, faction)
        count += len(of.orders)
        if store.sealed:  # as a player's campaign seal would: to the campaign and the faction
            raw = sealing.encrypt(of.raw, store.recipients([faction]), sealing.ORDER_FILE_SIZE)
            canonical.write_atomic(store.orders_dir / f"{faction}.yaml{sealing.SUFFIX}", raw)
        else:
            canonical.write_atomic(store.orders_dir / f"{faction}.yaml", of.raw)
    return count


def play_bot_turn(root: Path, factions: Iterable[str] | None = None) -> tuple[Game, TurnResult]:
    """Write bot orders for the given factions (every awaited one by default), then resolve."""
    write_bot_orders(root, factions)
    return resolve(root)
