"""What players and the GM do with a sealed campaign: read their view, seal orders, publish the key.

``campaign view`` opens the newest view sealed to the player's identity and writes it, with every
report they can open, into ``.view/``, a folder that ignores itself (its own ``.gitignore`` holds
``*``); ``Store.state`` then uses that view while it is of the current turn, so ``campaign template``
and ``campaign check`` work as in an open campaign. ``campaign seal`` checks an order file as
``campaign check`` does and encrypts it, when it holds, for the campaign's key and the faction's own
recipients. A sealed campaign commits ``orders/.gitignore``, so that no clone commits a plain draft.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import sealing
from .core import canonical
from .core.issues import CampaignError
from .core.orders import OrderFile
from .store import Store, turn_dir_name
from .validate import check_order_file


@dataclass
class WrittenView:
    faction: str
    turn: int  # the turn the view is for: the one being ordered now
    folder: str
    reports: int


def _require_sealed(store: Store) -> None:
    store.require()
    if not store.sealed:
        raise CampaignError(
            "this campaign is not sealed: everything is in campaign/ already",
            "campaign template and campaign check read the state directly",
            code=2,
        )


IGNORE_HEADER = "# A sealed campaign: decrypted views and plain order drafts stay on your machine."


def ignore_plain_files(root: Path) -> None:
    """Keep a sealed campaign's plain files out of git in every clone: ``orders/.gitignore`` is
    committed with the orders (the README's first commit takes ``campaign`` and ``orders``), and the
    root ``.gitignore`` says the same for the GM's clone."""
    _add_ignores(root / sealing.IGNORE_FILE, sealing.ROOT_IGNORES)
    _add_ignores(root / "orders" / sealing.IGNORE_FILE, sealing.ORDERS_IGNORES)


def forget_plain_file_ignores(root: Path) -> None:
    """Undo ``ignore_plain_files`` for an open campaign made where a sealed one was: its players commit
    plain orders, which the old rules would silently leave out of every commit."""
    for path, patterns in (
        (root / sealing.IGNORE_FILE, sealing.ROOT_IGNORES),
        (root / "orders" / sealing.IGNORE_FILE, sealing.ORDERS_IGNORES),
    ):
        if not path.is_file():
            continue
        kept = [
            line
            for line in path.read_text(encoding="utf-8").splitlines()
            if line not in patterns and line != IGNORE_HEADER
        ]
        if any(line.strip() for line in kept):
            path.write_text("\n".join(kept) + "\n", encoding="utf-8")
        else:
            path.unlink()


def _add_ignores(path: Path, patterns: tuple[str, ...]) -> None:
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    missing = [line for line in patterns if line not in lines]
    if missing:
        header = [] if IGNORE_HEADER in lines else [IGNORE_HEADER]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join([*lines, *header, *missing]) + "\n", encoding="utf-8")


def write_view(store: Store, identity_path: Path) -> WrittenView:
    _require_sealed(store)
    identity = sealing.load_identity(identity_path)
    archived = store.archived_turns()
    newest = archived[-1] if archived else 0
    views = store.turns_dir / turn_dir_name(newest) / "views"
    opened: dict[str, bytes] = {}
    for path in sorted(views.glob(f"*.yaml{sealing.SUFFIX}")):
        try:
            opened[path.name.split(".")[0]] = sealing.decrypt(path.read_bytes(), [identity])
        except sealing.SealedError:
            continue  # another faction's
    if not opened:
        raise CampaignError(
            f"no faction's view of turn {newest + 1} opens with {identity_path}",
            "pass the identity whose public key is among your faction's recipients in campaign/players.yaml "
            "(--identity PATH)",
        )
    if len(opened) > 1:
        raise CampaignError(
            f"{identity_path} opens the views of several factions ({', '.join(sorted(opened))})",
            "that identity is the campaign key; players use their own",
            code=2,
        )
    faction, raw = next(iter(opened.items()))
    folder = store.root / sealing.VIEW_DIR
    # First of all, the folder ignores itself: in any clone, whatever .gitignore it has, `git add -A`
    # then leaves the decrypted view out.
    ignore = ["# campaign view: decrypted, never committed", *sealing.VIEW_IGNORES]
    canonical.write_atomic(folder / sealing.IGNORE_FILE, "".join(f"{line}\n" for line in ignore).encode())
    canonical.write_atomic(folder / "state.yaml", raw)
    reports = 0
    for turn in archived:
        path = store.turns_dir / turn_dir_name(turn) / "reports" / f"{faction}.md{sealing.SUFFIX}"
        if path.is_file():
            text = sealing.decrypt(path.read_bytes(), [identity], store.display(path))
            canonical.write_atomic(folder / "reports" / f"{turn_dir_name(turn)}.md", text)
            reports += 1
    return WrittenView(faction, int(canonical.load(raw)["turn"]), sealing.VIEW_DIR, reports)


def seal_order_file(store: Store, path: Path) -> tuple[OrderFile, str | None]:
    """Check the file against the state this process can see (the player's view, or the full state
    with the key); if it holds, write ``<file>.age`` next to it for the campaign and the faction."""
    _require_sealed(store)
    if not path.is_file():
        raise CampaignError(f"no such order file: {path}", "check the path", code=2)
    state = store.state()
    game = store.game(state)
    raw = path.read_bytes()
    of = check_order_file(game, state, raw, store.display(path))
    if not of.ok or of.faction is None:
        return of, None
    sealed = store.orders_dir / f"{of.faction}.yaml{sealing.SUFFIX}"
    canonical.write_atomic(sealed, sealing.encrypt(raw, store.recipients([of.faction])))
    return of, store.display(sealed)


def publish_key(store: Store) -> str:
    store.require()
    key = sealing.campaign_key()
    if key is None:
        raise CampaignError(
            "campaign unseal needs the campaign key",
            f"pass --key-file FILE, or set {sealing.KEY_VARIABLE}",
            code=2,
        )
    if sealing.public_of(key) != store.config().get("recipient"):
        raise CampaignError("that key is not this campaign's key (campaign.yaml names another)", code=2)
    path = store.campaign_dir / sealing.PUBLISHED_KEY
    canonical.write_atomic(path, f"# the campaign key, published after the game\n{key}\n".encode())
    return store.display(path)


def seal_campaign(store: Store, make_key: Callable[[], str | None]) -> str | None:
    """Seal an open campaign from its current turn on: the turns already resolved stay public, the
    state and everything after are sealed. A campaign whose dice are already committed to a key keeps
    that key (given with --key-file); otherwise ``make_key`` makes one. Returns a new key, or None."""
    store.require()
    if store.sealed:
        raise CampaignError("this campaign is sealed already", code=2)
    config = store.config()
    state = store.state()
    game = store.game(state)
    players = store.players().get("factions") or {}
    for faction in game.factions:  # an unreadable recipient is named before anything is made or written
        for number, text in enumerate((players.get(faction) or {}).get("recipients") or []):
            sealing.recipient(str(text), f"campaign/players.yaml: faction {faction}: recipient {number + 1}")
    made = None
    if config.get("recipient"):
        key = sealing.campaign_key()
        if key is None or sealing.public_of(key) != config["recipient"]:
            raise CampaignError(
                "this campaign already has a key, to which its dice are committed",
                "pass that key with --key-file (it is sealed to the same key)",
                code=2,
            )
    else:
        made = key = make_key()
        if key is None:
            raise CampaignError(
                "sealing needs a new key kept somewhere: pass --key-file FILE or --show-key", code=2
            )
    canonical.write_yaml(
        store.campaign_dir / "campaign.yaml", {**config, "sealed": True, "recipient": sealing.public_of(key)}
    )
    archived = store.archived_turns()
    store.write_secret(store.campaign_dir / "state.yaml", canonical.dump(state))
    canonical.write_atomic(store.campaign_dir / "state.yaml", store.public_view(game, state))
    store.write_views(game, state, store.turns_dir / turn_dir_name(archived[-1] if archived else 0))
    for template in sorted((store.orders_dir / "templates").glob("*.yaml")):
        template.unlink()  # they show each faction's position
    ignore_plain_files(store.root)
    return made
