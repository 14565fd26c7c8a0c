"""What players and the GM do with a sealed campaign: read their view, seal orders, publish the key.

``campaign view`` opens the newest view sealed to the player's identity and writes it, with every
report they can open, into ``.view/``, a folder that ignores itself (its own ``.gitignore`` holds
``*``); ``Store.state`` then uses that view while it is of the current turn, so ``campaign template``
and ``campaign check`` work as in an open campaign. ``campaign seal`` checks an order file as
``campaign check`` does and encrypts it, when it holds, for the campaign's key and the faction's own
recipients. A sealed campaign commits ``orders/.gitignore``, so that no clone commits a plain draft.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyrage

from ..core import canonical
from ..core.issues import CampaignError
from ..core.orders import OrderFile
from ..engine.validate import check_order_file
from . import sealing
from .store import KEYS_FILE, PREVIOUS_KEYS, RESEALED_DIR, Store, turn_dir_name

# campaign/resealed/<faction>/<NNNN>/ (store.RESEALED_DIR): a faction's view and report of turn NNNN
# sealed again by campaign reseal, to the faction's current recipients (a replaced player's successor).
RESEALED_VIEW = f"view.yaml{sealing.SUFFIX}"
RESEALED_REPORT = f"report.md{sealing.SUFFIX}"


@dataclass
class WrittenView:
    faction: str
    turn: int  # the turn the view is for: the one being ordered now
    folder: str
    reports: int  # the reports opened
    unopened: int = 0  # the faction's reports this identity cannot open: sealed before it was a recipient


def _require_sealed(store: Store) -> None:
    store.require()
    if not store.sealed:
        raise CampaignError(
            "this campaign is not sealed: everything is in campaign/ already",
            "campaign template and campaign check read the state directly",
            code=2,
        )


def resealed_dir(store: Store, faction: str, turn: int) -> Path:
    """Where ``campaign reseal`` puts a faction's copies of one turn's view and report. The turn
    archive itself never changes (digest.yaml binds its sealed files), so the copies live apart."""
    return store.campaign_dir / RESEALED_DIR / faction / turn_dir_name(turn)


def _open_any(paths: list[Path], identity: Any) -> bytes | None:
    """The first of ``paths`` that exists and opens with ``identity``: the archive's copy, then the
    resealed one."""
    for path in paths:
        if path.is_file():
            try:
                return sealing.decrypt(path.read_bytes(), [identity])
            except sealing.SealedError:
                continue
    return None


def _open_views(store: Store, turn: int, identity: Any) -> dict[str, bytes]:
    """Every faction's view of ``turn`` that ``identity`` opens, archived or resealed, by faction."""
    views = store.turns_dir / turn_dir_name(turn) / "views"
    factions = {p.name.split(".")[0] for p in views.glob(f"*.yaml{sealing.SUFFIX}")}
    resealed = store.campaign_dir / RESEALED_DIR
    factions |= {p.parent.parent.name for p in resealed.glob(f"*/{turn_dir_name(turn)}/{RESEALED_VIEW}")}
    opened = {}
    for faction in sorted(factions):
        paths = [
            views / f"{faction}.yaml{sealing.SUFFIX}",
            resealed_dir(store, faction, turn) / RESEALED_VIEW,
        ]
        raw = _open_any(paths, identity)
        if raw is not None:
            opened[faction] = raw
    return opened


def _identity_publics(identity: Any, path: Path) -> set[str]:
    """The public keys of an identity as players.yaml would list them: an age key's ``age1…``
    recipient, or an SSH key's type and key read from the ``.pub`` file next to it."""
    if isinstance(identity, pyrage.x25519.Identity):
        return {str(identity.to_public())}
    public = path.expanduser().with_name(path.expanduser().name + ".pub")
    try:
        return {" ".join(public.read_text(encoding="utf-8").split()[:2])}
    except (OSError, UnicodeDecodeError):
        return set()


def _listing_faction(store: Store, publics: set[str]) -> str | None:
    """The faction whose recipients in campaign/players.yaml include one of ``publics``."""
    for faction, info in sorted((store.players().get("factions") or {}).items()):
        recipients = (info if isinstance(info, dict) else {}).get("recipients") or []
        if not isinstance(recipients, list):
            continue  # campaign doctor names the mistake
        listed = {" ".join(str(r).split()[:2]) for r in recipients}
        if listed & publics:
            return str(faction)
    return None


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
    """Open the newest view sealed to the identity (the archive's, or a copy ``campaign reseal``
    made) and every report of its faction that the identity opens, into ``.view/``. Reports sealed
    before the identity was one of the faction's recipients are counted, not fatal."""
    _require_sealed(store)
    identity = sealing.load_identity(identity_path)
    archived = store.archived_turns()
    newest = archived[-1] if archived else 0
    opened = _open_views(store, newest, identity)
    if not opened:
        raise _no_view(store, identity, identity_path, newest)
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
    reports = unopened = 0
    for turn in archived:
        archived_report = store.turns_dir / turn_dir_name(turn) / "reports" / f"{faction}.md{sealing.SUFFIX}"
        if not archived_report.is_file():
            continue  # the faction was not in the game yet, or the turn was played open
        text = _open_any([archived_report, resealed_dir(store, faction, turn) / RESEALED_REPORT], identity)
        if text is None:
            unopened += 1
            continue
        canonical.write_atomic(folder / "reports" / f"{turn_dir_name(turn)}.md", text)
        reports += 1
    return WrittenView(faction, int(canonical.load(raw)["turn"]), sealing.VIEW_DIR, reports, unopened)


def _no_view(store: Store, identity: Any, identity_path: Path, newest: int) -> CampaignError:
    """Why no view opens: a key listed for a faction after the newest view was sealed is told to ask
    for a reseal; any other key is told which key to use."""
    faction = _listing_faction(store, _identity_publics(identity, identity_path))
    if faction is not None:
        return CampaignError(
            f"your key is among the recipients of {faction} in campaign/players.yaml, but the view of turn "
            f"{newest + 1} was sealed before it was added",
            f"ask the GM to run: campaign reseal --faction {faction} (then pull and run campaign view again)",
        )
    return CampaignError(
        f"no faction's view of turn {newest + 1} opens with {identity_path}",
        "pass the identity whose public key is among your faction's recipients in campaign/players.yaml "
        "(--identity PATH)",
    )


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
    canonical.write_atomic(
        sealed, sealing.encrypt(raw, store.recipients([of.faction]), sealing.ORDER_FILE_SIZE)
    )
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


@dataclass
class AddedKey:
    key: str  # the new campaign key, made by the caller (written to a file or shown once)
    turn: int  # the turn being played: its dice stay unsalted, as it opened without a commitment


def add_key(store: Store, make_key: Callable[[], str | None], beacon_name: str | None = None) -> AddedKey:
    """Give an open campaign made without a key its campaign key (``campaign add-key``): its public half
    goes into campaign.yaml, and from then on every resolve needs the key. The turn being played opened
    without a commitment to a dice salt, and none can be made for it now: a salt chosen while the turn is
    open could be chosen for its rolls, so its dice stay unsalted. Resolving it publishes the commitment
    to the next turn's salt (and, with a beacon, the round that completes it) as that turn opens, like
    every turn after; the public half named now binds the key that makes it."""
    store.require()
    if store.sealed:
        raise CampaignError(
            "this campaign is sealed, and a sealed campaign has its key already",
            "to replace a key that leaked or was lost, run campaign rekey",
            code=2,
        )
    config = store.config()
    if config.get("recipient"):
        raise CampaignError(
            f"this campaign has a key already: campaign/campaign.yaml names {config['recipient']}",
            f"keep using that key: store it as the secret {sealing.KEY_VARIABLE} and pass it locally with "
            "--key-file",
            code=2,
        )
    store.beacon_named(beacon_name)  # a beacon the campaign may not use is refused before the key is made
    turn = int(store.state()["turn"])
    key = make_key()
    if key is None:
        raise CampaignError(
            "a campaign key must be kept somewhere: pass --key-file FILE or --show-key", code=2
        )
    added = {"recipient": sealing.public_of(key)}
    if beacon_name not in (None, "none"):
        added["beacon"] = str(beacon_name)
    canonical.write_yaml(store.campaign_dir / "campaign.yaml", {**config, **added})
    return AddedKey(key, turn)


def rekey(store: Store, make_key: Callable[[], str]) -> tuple[int, str]:
    """Seal the campaign to ``new_key`` from the current turn on, for a key that leaked or is lost to the GM:
    the live state is sealed again to it, the turn's dice salt is committed again under it (its beacon
    round stays the one committed when the turn opened), and the earlier keys are kept sealed to it, so
    that the new key alone still opens and verifies the whole archive. ``make_key`` makes and keeps the new
    key. Returns the first turn sealed to it, and the key."""
    _require_sealed(store)
    _gm_key(store, "campaign rekey")
    new_key = make_key()  # only once the current key is known to be the campaign's
    new_public = sealing.public_of(new_key)
    state_raw = store.open_sealed(store.campaign_dir / f"state.yaml{sealing.SUFFIX}")
    turn = int(canonical.load(state_raw)["turn"])
    config = store.config()
    earlier = store.known_keys()
    epochs = [e for e in store.key_epochs() if int(e["from_turn"]) < turn]
    epoch: dict[str, Any] = {"from_turn": turn, "recipient": new_public}
    if store.salt_commitment(turn):  # the turn's dice were committed to the old key's part: commit again
        epoch["next_salt_commitment"] = store.salt_commitment_of(new_key, config["campaign"], turn)
    keep = "\n".join(["# earlier campaign keys, newest first", *earlier]).encode() + b"\n"
    # Everything is written beside its place first, then moved in: an interrupted rekey changes nothing.
    staged = {
        store.campaign_dir / f"{PREVIOUS_KEYS}{sealing.SUFFIX}": sealing.encrypt(keep, [new_public]),
        store.campaign_dir / KEYS_FILE: canonical.dump({"keys": [*epochs, epoch]}),
        store.campaign_dir / f"state.yaml{sealing.SUFFIX}": sealing.encrypt(state_raw, [new_public]),
        store.campaign_dir / "campaign.yaml": canonical.dump({**config, "recipient": new_public}),
    }
    for path, raw in staged.items():
        canonical.write_atomic(path.with_name(path.name + ".rekey"), raw)
    for path in staged:
        path.with_name(path.name + ".rekey").replace(path)
    return turn, new_key


@dataclass
class Resealed:
    faction: str
    recipients: int  # the faction's own recipients the copies are sealed to (the campaign key besides)
    view: int  # the turn whose view was resealed: the newest archived one
    reports: list[int] = field(default_factory=list)  # the turns whose reports were resealed
    files: list[str] = field(default_factory=list)


def reseal_faction(store: Store, faction: str, turns: Iterable[int] | None = None) -> Resealed:
    """Seal the newest view of ``faction``, and its reports of ``turns`` (default: every turn that
    has one), again for the campaign key and the faction's current recipients, into
    ``campaign/resealed/<faction>/``. Opens the archive's copies with the campaign key; checks each
    against the sealed digests its turn published, so only what the archive holds is resealed."""
    _require_sealed(store)
    _gm_key(store, "campaign reseal")  # only the GM reseals, with the key the campaign is sealed to now
    recipients = _current_recipients(store, faction)
    archived = store.archived_turns()
    newest = archived[-1] if archived else 0
    wanted = _reports_to_reseal(store, faction, archived, turns)
    if not (store.turns_dir / turn_dir_name(newest) / "views" / f"{faction}.yaml{sealing.SUFFIX}").is_file():
        raise CampaignError(
            f"{faction} has no view of turn {newest + 1}: it was not in the game when turn {newest} was "
            "resolved",
            "nothing to reseal: its first view is sealed to its current recipients when the turn resolves",
        )
    sources = {newest: {RESEALED_VIEW: f"views/{faction}.yaml{sealing.SUFFIX}"}}
    for turn in wanted:
        sources.setdefault(turn, {})[RESEALED_REPORT] = f"reports/{faction}.md{sealing.SUFFIX}"
    plain = {}  # everything is opened and checked before anything is written
    for turn, names in sorted(sources.items()):
        for name, archived_name in names.items():
            plain[(turn, name)] = _open_archived(store, turn, archived_name)
    written = Resealed(faction, len(recipients) - 1, newest, list(wanted))
    for (turn, name), (raw, size) in sorted(plain.items()):
        target = resealed_dir(store, faction, turn) / name
        # Padded as the archived file was (to its turn's common size), so the copy says no more by its
        # length than the original did.
        canonical.write_atomic(target, sealing.encrypt(raw, recipients, size))
        written.files.append(store.display(target))
    return written


def check_gm_key(store: Store, command: str) -> str:
    """The campaign key, refused with the fix when it is missing or not this campaign's: for a command
    that must know it holds the key before it writes anything."""
    return _gm_key(store, command)


def _gm_key(store: Store, command: str) -> str:
    key = sealing.campaign_key()
    if key is None:
        raise CampaignError(
            f"{command} needs the campaign key",
            f"pass --key-file FILE, or set {sealing.KEY_VARIABLE}",
            code=2,
        )
    if sealing.public_of(key) != store.config().get("recipient"):
        raise CampaignError(
            "that key is not this campaign's key (campaign/campaign.yaml names another)",
            "pass the key the campaign was made with",
            code=2,
        )
    return key


def _current_recipients(store: Store, faction: str) -> list[str]:
    """The campaign's key and the faction's recipients as campaign/players.yaml lists them now."""
    factions = store.players().get("factions") or {}
    if faction not in factions:
        raise CampaignError(
            f"unknown faction '{faction}'", f"factions: {', '.join(sorted(factions))}", code=2
        )
    recipients = store.recipients([faction])
    if len(recipients) < 2:
        raise CampaignError(
            f"{faction} has no recipients in campaign/players.yaml: nobody but the GM could open the copies",
            f"add the new player's public key (campaign keygen prints one) under factions: {faction}: "
            "recipients, then reseal",
        )
    for number, text in enumerate(recipients[1:]):
        try:
            sealing.recipient(text)
        except CampaignError:  # the text itself is not repeated: it may be a pasted secret key
            raise CampaignError(
                f"campaign/players.yaml: {faction}'s recipient {number + 1} is not a public key",
                "list the age1… line campaign keygen prints, or an SSH public key; campaign doctor says more",
            ) from None
    return recipients


def _reports_to_reseal(
    store: Store, faction: str, archived: list[int], turns: Iterable[int] | None
) -> list[int]:
    """The turns whose report of ``faction`` is resealed: those asked for, each of which must have one,
    or by default every archived turn that has one."""

    def has_report(turn: int) -> bool:
        path = store.turns_dir / turn_dir_name(turn) / "reports" / f"{faction}.md{sealing.SUFFIX}"
        return path.is_file()

    if turns is None:
        return [turn for turn in archived if has_report(turn)]
    wanted = sorted(set(turns))
    missing = [turn for turn in wanted if turn not in archived or not has_report(turn)]
    if missing:
        raise CampaignError(
            f"{faction} has no sealed report of turn(s) {', '.join(map(str, missing))}",
            f"archived turns: {archived[0]}–{archived[-1]}" if archived else "no turn is archived yet",
            code=2,
        )
    return wanted


def _open_archived(store: Store, turn: int, name: str) -> tuple[bytes, int]:
    """A sealed file of the turn archive, opened with the campaign key once its bytes are found to be
    those the turn published a digest of. Turn 0's views, and those that campaign seal-campaign added
    to the open turn it sealed after, have no such digest."""
    path = store.turns_dir / turn_dir_name(turn) / name
    where = store.display(path)
    if not path.is_file():
        raise CampaignError(f"{where} is missing", "restore campaign/turns/ from git")
    raw = path.read_bytes()
    published = store.turn_digests(turn).get("sealed") if turn > 0 else None
    if published is not None and published.get(name) != canonical.digest(raw):
        raise CampaignError(
            f"{where} is not the file turn {turn} sealed (it differs from its digest in digest.yaml)",
            "restore campaign/turns/ from git; campaign verify names every file that changed",
        )
    return sealing.decrypt_sized(raw, sealing.identities_of(store.known_keys()), where)


def write_key_file(path: Path, what: str = "an age key made by campaign keygen") -> tuple[str, str]:
    """A new age identity in ``path``, readable by its owner alone; returns it and its public recipient.
    Never overwrites a file: an existing key may be the only copy of it."""
    secret, public = sealing.new_key()
    path.expanduser().parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path.expanduser(), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise CampaignError(
            f"{path} exists already: a key is never overwritten, as it may be the only copy of it",
            "choose another file name, or move that file away yourself first",
            code=2,
        ) from None
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(f"# {what}\n# public key: {public}\n{secret}\n")
    return secret, public
