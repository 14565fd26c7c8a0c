"""The campaign on disk: ``campaign/`` and ``orders/`` in a repository folder.

This is the only module that reads or writes campaign files. Everything it writes
is canonical YAML through atomic renames; a resolve that fails writes nothing.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jinja2

    from ..engine.turn import TurnResult
    from . import beacon

try:
    import fcntl
except ImportError:  # Windows: a GM's single shell needs no lock
    fcntl = None  # type: ignore[assignment]

import yaml

from .. import __version__
from ..core import canonical, roll_log
from ..core import factions as faction_records
from ..core.absences import Absence
from ..core.events import public_record
from ..core.fields import ids_in
from ..core.houserules import RULES_FILE, HouseRulesRejected, merge_rules
from ..core.issues import CampaignError, Issue
from ..core.orders import OrderFile, order_file_schema
from ..core.phases import State
from ..core.stillness import holding_still
from ..core.world import World
from ..engine.gm import actions as gm_actions
from ..engine.ruleset import Game, compiled_template_folder, get_ruleset
from ..engine.validate import check_order_file, refuse_twin_files
from . import beside, sealing

ENGINE_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
SCHEMA_FILE = "orders.schema.json"
ARCHIVE_FORMAT = 2  # 2: one orders.yaml per turn, rumours apart from their authors, chained digests
# 3: a sealed turn: its digests of secret texts are keyed commitments (see sealing.Commitments), its sealed
# files are padded, and each faction has a receipt. An open turn stays in format 2, byte for byte.
SEALED_FORMAT = 3
RECEIPTS = "receipts"  # campaign/turns/NNNN/receipts/<faction>.yaml.age: a faction's commitment key
ORDERS_FILE = "orders.yaml"
DIGEST_FILE = "digest.yaml"
# A sealed campaign's archive publishes these next to its age files (see Store.archive).
PUBLIC_EVENTS = "public-events.yaml"
PUBLIC_STATE = "public-state.yaml"
# campaign/turns/0000/opening.yaml: what the campaign opened with, before any turn: the world's digest
# (so that the first checks read the world in part, as later ones do) and the commitment to turn 1's salt.
OPENING = "opening.yaml"
# After a rekey: campaign/keys.yaml says from which turn each campaign key sealed the campaign (public),
# campaign/previous-keys.txt.age holds the earlier keys, sealed to the current one, for the archive's sake.
KEYS_FILE = "keys.yaml"
PREVIOUS_KEYS = "previous-keys.txt"
# campaign/resealed/<faction>/<NNNN>/: copies of a faction's view and report of a turn, sealed again to
# its current recipients by campaign reseal; the turn archive itself never changes.
RESEALED_DIR = "resealed"
STAGING = ".resolving"  # campaign/.resolving/: a resolution being written, before it is switched in
JOURNAL = "journal.yaml"
FINISHED = ".resolved"  # campaign/.resolved/: the staging folder once everything is switched in
CRASH_VARIABLE = "CAMPAIGN_TEST_KILL_AT"
DEMO_MARKER = ".campaign-demo"  # the file that marks a scratch campaign made by campaign demo
# Lets the tests' campaigns use the test beacon, whose rounds anyone can sign (see resolver.store.beacon).
TEST_BEACON_VARIABLE = "CAMPAIGN_ALLOW_TEST_BEACON"


def checkpoint(step: str) -> None:
    """A named step of a resolution. The crash tests set CAMPAIGN_TEST_KILL_AT to a step's name to
    kill the process right there, the way a cancelled CI job or a power cut would."""
    if os.environ.get(CRASH_VARIABLE) == step:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


_WORLDS: dict[tuple[str, int, int], World] = {}  # the last world read, by path, mtime and size
_HOUSE_RULE_ISSUES: dict[tuple[str, str], list[Issue]] = {}  # the last house-rule file checked, by content
# Jinja environments by template folders: building one compiled every template again on each call.
# The loader still notices a template edited on disk (auto_reload), so sharing them changes no output.
_TEMPLATE_ENVIRONMENTS: dict[tuple[str, ...], jinja2.Environment] = {}


def yaml_value(value: Any) -> str:
    """A value as one line of YAML flow (JSON, which YAML reads), for an order file's example. Jinja's
    ``tojson`` is for HTML and writes ``<``, ``>``, ``&`` and ``'`` as escapes, so a player would see
    ``\\u003cb\\u003e`` where their unit's queue holds ``<b>``; the file is YAML, which needs none of them.
    Other characters beyond ASCII stay escaped: a line break of Unicode's own would end the comment the
    example sits in."""
    return json.dumps(value, sort_keys=True)


# What the machine, not the campaign, got wrong: the words a GM searches for, by errno and by the
# message git prints for the same failure.
ENVIRONMENT_ERRORS = (
    ((errno.ENOSPC, errno.EDQUOT), ("No space left on device", "Out of diskspace", "quota"), "disk full"),
    ((errno.EROFS,), ("Read-only file system",), "read-only file system"),
    ((errno.EACCES, errno.EPERM), ("Permission denied",), "permission denied"),
)


# git names the file it could not write without saying why: a full disk, most often, at a ref's lock file
# ("cannot update ref 'refs/tags/turn-3': couldn't write '…/turn-3.lock'"). The disk is asked instead.
GIT_WRITE_FAILURE = re.compile(r"(?:couldn't|could not|unable to) write (?:to )?'([^']+)'")
NEARLY_FULL = 1 << 20  # bytes: less free space than this on the disk of a file git could not write


def environment_error(error: BaseException) -> CampaignError | None:
    """A failure of the disk or of permissions, said as such; None for anything else."""
    text = str(error)
    unwritten = GIT_WRITE_FAILURE.search(text)
    if unwritten and not any(w in text for _, words, _ in ENVIRONMENT_ERRORS for w in words):
        return _unwritten_file(Path(unwritten.group(1)))
    for code, words, label in ENVIRONMENT_ERRORS:
        if (isinstance(error, OSError) and error.errno in code) or any(w in text for w in words):
            said = error.strerror if isinstance(error, OSError) and error.strerror else text
            said = str(getattr(error, "stderr", "") or said).strip().removeprefix("stderr:").strip(" '\n")
            where = getattr(error, "filename", None)
            detail = f"{where}: {said}" if where else said
            return CampaignError(
                f"{label}: {detail}",
                "free space or fix the folder's permissions, then run the command again: an interrupted "
                "resolution is finished or undone by the next campaign resolve",
            )
    return None


def _yml_warning(shown: str) -> Issue:
    """A turn is resolved from orders/red.yml as from orders/red.yaml, but a pull request may only bring
    the second: said at once, rather than at the pull request."""
    proper = shown.removesuffix(".yml") + ".yaml"
    return Issue(
        "warning",
        f"the pull-request check takes this file only by the name {proper}",
        f"rename it: git mv {shown} {proper}",
        shown,
    )


def not_an_ordinary_file(path: Path) -> str:
    """What stands at ``path`` when it is not an ordinary file, in words ("a folder"); "" when it is one,
    or when nothing is there."""
    try:
        mode = path.lstat().st_mode
    except OSError:
        return ""
    if stat.S_ISLNK(mode):
        return "a link"
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((words for test, words in kinds if test(mode)), "")


def _unwritten_file(path: Path) -> CampaignError:
    """git could not write ``path`` and did not say why: "disk full" when its disk has (almost) no room
    left, else what git said, with the two causes to look at."""
    folder = next((p for p in (path, *path.parents) if p.exists()), Path("."))
    try:
        stats = os.statvfs(folder)
        free: int | None = stats.f_bavail * stats.f_frsize
    except OSError:
        free = None
    hint = (
        "free space or fix the folder's permissions, then run the command again: an interrupted "
        "resolution is finished or undone by the next campaign resolve"
    )
    if free is not None and free < NEARLY_FULL:
        return CampaignError(
            f"disk full: git could not write {path} ({free // 1024} KiB free on its disk)", hint
        )
    return CampaignError(f"git could not write {path}: the disk or the folder refused it", hint)


def declared_absences(declared: Mapping[str, Absence | None]) -> dict[str, dict[str, int]]:
    """The absences a turn's files declared, as inputs.yaml records them ({} for one taken back)."""
    return {faction: absence.to_data() if absence else {} for faction, absence in sorted(declared.items())}


def input_digests(inputs: dict[str, Any]) -> dict[str, str]:
    """One digest per entry of a turn's inputs, so that verify can name the entry that was edited."""
    return {key: canonical.data_digest(value) for key, value in inputs.items()}


def _game_inputs(campaign: Any, name: Any, seed: int, house: Any, names: Mapping[str, Any]) -> bytes:
    """What a game is made of besides its ruleset, world and factions, written out to compare."""
    return canonical.dump([campaign, name, seed, house, dict(names)])


def turn_dir_name(turn: int) -> str:
    return f"{turn:04d}"


@dataclass
class Store:
    root: Path
    # The small settings files as last read (path: the bytes and their data), so that a long replay,
    # which asks for them on every turn, parses each only when its bytes change.
    _settings_read: dict[Path, tuple[bytes, Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def campaign_dir(self) -> Path:
        return self.root / "campaign"

    @property
    def orders_dir(self) -> Path:
        return self.root / "orders"

    @property
    def turns_dir(self) -> Path:
        return self.campaign_dir / "turns"

    def exists(self) -> bool:
        return (self.campaign_dir / "campaign.yaml").exists()

    def require(self) -> None:
        if not self.exists():
            raise CampaignError(
                f"no campaign in {self.root.resolve()} (campaign/campaign.yaml is missing)",
                "run this inside a campaign repository, pass --root DIR, or create one with: campaign new",
                code=2,
            )

    # -- reading ------------------------------------------------------------------------------------

    def config(self) -> dict[str, Any]:
        self.require()
        return self._settings(self.campaign_dir / "campaign.yaml")

    def players(self) -> dict[str, Any]:
        path = self.campaign_dir / "players.yaml"
        return self._settings(path) if path.exists() else {"factions": {}, "gm": {"logins": []}}

    def _settings(self, path: Path) -> Any:
        """``canonical.read_yaml(path)``, parsed again only when the file's bytes changed since the last
        read; each caller gets its own copy to change."""
        raw = path.read_bytes()
        kept = self._settings_read.get(path)
        if kept is None or kept[0] != raw:
            kept = (raw, canonical.load_cached(raw))
            self._settings_read[path] = kept
        return canonical.plain_copy(kept[1])

    def house_rules(self) -> dict[str, Any]:
        """The campaign's house rules, once they check clean: a command that would play by rules with an
        error refuses instead, and shows each one (``HouseRulesRejected``)."""
        issues = self.house_rule_issues()
        if any(issue.is_error for issue in issues):
            raise HouseRulesRejected(issues)
        path = self.campaign_dir / "rules.yaml"
        data = canonical.read_yaml(path) if path.exists() else None
        return data or {}

    def house_rule_issues(self) -> list[Issue]:
        """What is wrong with ``campaign/rules.yaml``, each problem at its line (``core.houserules``)."""
        path = self.campaign_dir / "rules.yaml"
        if not path.is_file():
            return []
        raw = path.read_bytes()
        ruleset = get_ruleset(self.config()["ruleset"])
        key = (ruleset.id, canonical.digest(raw))
        if key not in _HOUSE_RULE_ISSUES:  # a replay or a site asks for the same file many times
            _HOUSE_RULE_ISSUES.clear()
            _HOUSE_RULE_ISSUES[key] = ruleset.house_rule_issues(raw, RULES_FILE)
        return list(_HOUSE_RULE_ISSUES[key])

    def world(self, in_part: bool = False) -> World:
        """The campaign's world. ``in_part`` (``campaign check``, which looks at a few tiles): a world
        file the last archived turn vouches for is cut into its locations, each read when looked at."""
        # Replaying an archive asks for the world once per turn; parsing it dominated a long replay.
        # Worlds are immutable, so one parsed copy is shared until the file changes.
        path = self.campaign_dir / "world.yaml"
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
        if key not in _WORLDS:
            _WORLDS.clear()
            vouched = self.archived_world_digest()
            world = World.from_items(
                *canonical.read_yaml_keyed(path, "locations", "id", vouched if in_part else None)
            )
            if vouched is not None and not in_part:  # a resolve and a replay record the digest, a check not
                world.vouch_digest(vouched, path.read_bytes())
            _WORLDS[key] = world
        return _WORLDS[key]

    def archived_world_digest(self) -> str | None:
        """The world's digest as the last archived turn's inputs record it; before the first turn, as the
        opening record does (none in a campaign made before it recorded one)."""
        turns = self.archived_turns()
        name = "inputs.yaml" if turns else OPENING
        record = self.turns_dir / turn_dir_name(turns[-1] if turns else 0) / name
        if not record.is_file():
            return None
        data = canonical.read_yaml(record)
        recorded = data.get("world_digest") if isinstance(data, dict) else None
        return recorded if isinstance(recorded, str) else None

    def state(self) -> State:
        """The full state. A sealed campaign's is ``state.yaml.age``: opened with the campaign key
        when this process has it, otherwise a player's own view (``campaign view``) stands in."""
        if not (self.campaign_dir / f"state.yaml{sealing.SUFFIX}").exists():
            return canonical.read_yaml(self.campaign_dir / "state.yaml")
        if self.secret_key() is not None:
            return canonical.load(self.open_sealed(self.campaign_dir / f"state.yaml{sealing.SUFFIX}"))
        view = self.root / sealing.VIEW_DIR / "state.yaml"
        if view.is_file():
            return self._current_view(view)
        raise CampaignError(
            "this campaign is sealed: its state is encrypted, and you have neither the campaign key "
            "nor a view of your own",
            f"players: run campaign view (--identity PATH) first; the GM and CI: set {sealing.KEY_VARIABLE} "
            "or pass --key-file",
            code=2,
        )

    def _current_view(self, path: Path) -> State:
        """A player's view, when it is of the turn the campaign is at. A view of a turn that is over
        would have orders for that turn checked and sealed, and the resolution then refuse them."""
        view = canonical.read_yaml(path)
        turn = view.get("turn") if isinstance(view, dict) else None
        now = canonical.read_yaml(self.campaign_dir / "state.yaml").get("turn")
        if turn != now:
            raise CampaignError(
                f"your view in {sealing.VIEW_DIR}/ is of turn {turn}, but the campaign is at turn {now}: "
                "orders checked against it would be for a turn that is over",
                "bring your clone up to date (git pull), run campaign view again, then check your orders "
                "against the new view",
            )
        return view

    def state_to_check(self) -> State:
        """The state as ``campaign check`` reads it: the same data as ``state``, but a big open state
        the turn archive vouches for (its digest is the last archived turn's) has its armies read one
        by one as they are looked at, so checking one file does not parse every nation's armies."""
        path = self.campaign_dir / "state.yaml"
        if (self.campaign_dir / f"state.yaml{sealing.SUFFIX}").exists() or not path.is_file():
            return self.state()
        raw = path.read_bytes()
        if len(raw) < canonical.CACHED_SIZE or not self.archived_state(raw):
            return canonical.load_cached(raw)
        return canonical.load_in_part(raw, "armies")

    def archived_state(self, raw: bytes) -> bool:
        """Whether ``raw`` is the state the last archived turn left, as its digests record it."""
        turns = self.archived_turns()
        if not turns:  # before the first turn the archive holds the opening state itself
            return self.read_secret(self.turns_dir / turn_dir_name(0) / "state.yaml") == raw
        return self.left_state(turns[-1], raw)

    def public_state(self) -> State:
        """What everyone may see of the state: the whole of it in an open campaign."""
        return canonical.read_yaml(self.campaign_dir / "state.yaml")

    def state_and_raw(self) -> tuple[State, bytes]:
        """The state with the bytes it was read from, so that a resolve need not write it out again to
        learn its digest. A sealed campaign's full state is opened with the campaign key (``state``)."""
        sealed = self.campaign_dir / f"state.yaml{sealing.SUFFIX}"
        if sealed.exists() and self.secret_key() is not None:
            raw = self.open_sealed(sealed)
            return canonical.load(raw), raw
        if sealed.exists():
            return self.state(), b""  # a player's own view: nothing to archive from it
        raw = (self.campaign_dir / "state.yaml").read_bytes()
        return canonical.load_cached(raw), raw

    # -- sealing --------------------------------------------------------------------------------------

    @property
    def sealed(self) -> bool:
        return bool(self.config().get("sealed"))

    def secret_key(self) -> str | None:
        """The current campaign key, if this process has it."""
        return sealing.campaign_key(self.campaign_dir)

    def key_epochs(self) -> list[dict[str, Any]]:
        """Which campaign key sealed which turns: ``from_turn`` and the key's ``recipient``, oldest first; a
        rekeyed turn also carries the new commitment to its dice salt."""
        path = self.campaign_dir / KEYS_FILE
        if path.is_file():
            return list(canonical.read_yaml(path).get("keys") or [])
        return [{"from_turn": 1, "recipient": self.config().get("recipient")}]

    def known_keys(self) -> list[str]:
        """The current campaign key and, after a rekey, the earlier ones it unlocks (newest first)."""
        key = self.secret_key()
        if key is None:
            return []
        previous = self.campaign_dir / f"{PREVIOUS_KEYS}{sealing.SUFFIX}"
        if not previous.is_file():
            return [key]
        try:
            text = sealing.decrypt_with_key(previous.read_bytes(), key, self.display(previous)).decode()
        except sealing.SealedError:
            return [key]  # a key from before the rekey: it opens what was sealed to it, nothing later
        return [key, *(line for line in text.split() if line.startswith(sealing.SECRET_PREFIX))]

    def key_for_turn(self, turn: int) -> str | None:
        """The campaign key that sealed turn ``turn`` (None when this process does not have it)."""
        recipient = None
        for epoch in self.key_epochs():
            if int(epoch["from_turn"]) <= turn:
                recipient = epoch["recipient"]
        return next((k for k in self.known_keys() if sealing.public_of(k) == recipient), None)

    def recipients(self, factions: Iterable[str] = ()) -> list[str]:
        """Who can open a sealed file: the campaign's key, and the recipients of ``factions``."""
        players = self.players().get("factions") or {}
        found = [str(self.config()["recipient"])]
        for faction in factions:
            found += [str(r) for r in (players.get(faction) or {}).get("recipients") or []]
        return found

    def write_secret(self, path: Path, raw: bytes, readers: Iterable[str] = ()) -> bytes:
        """Write a secret file: as it is in an open campaign; in a sealed one as ``NAME.age``, for the
        campaign key and the factions in ``readers``, padded to a size that says little of what it
        holds (see ``sealing``). Returns what was written."""
        if not self.sealed:
            canonical.write_atomic(path, raw)
            return raw
        sealed = sealing.encrypt(raw, self.recipients(readers))
        canonical.write_atomic(path.with_name(path.name + sealing.SUFFIX), sealed)
        return sealed

    def write_faction_secrets(self, folder: Path, suffix: str, texts: Mapping[str, bytes]) -> None:
        """One secret file per faction in ``folder`` (``<faction><suffix>``), each for its own faction. In a
        sealed campaign they are all of one length, so none says by its size how much its faction holds."""
        if not self.sealed:
            for faction, raw in texts.items():
                canonical.write_atomic(folder / f"{faction}{suffix}", raw)
            return
        readers = {faction: self.recipients([faction]) for faction in texts}
        for faction, sealed in sealing.encrypt_alike(texts, readers).items():
            canonical.write_atomic(folder / f"{faction}{suffix}{sealing.SUFFIX}", sealed)

    def read_secret(self, path: Path) -> bytes | None:
        """A secret file's content, opened with the campaign key if it is sealed; None if absent."""
        if path.is_file():
            return path.read_bytes()
        sealed = path.with_name(path.name + sealing.SUFFIX)
        return self.open_sealed(sealed) if sealed.is_file() else None

    def open_sealed(self, sealed: Path) -> bytes:
        """A sealed file opened with the campaign key (a file sealed before a rekey: with an earlier one)."""
        keys = self.known_keys()
        if not keys:
            raise CampaignError(
                f"{self.display(sealed)} is sealed and this process has no campaign key",
                f"set {sealing.KEY_VARIABLE} or pass --key-file (after the game: campaign unseal)",
                code=2,
            )
        return sealing.decrypt_with_keys(sealed.read_bytes(), keys, self.display(sealed))

    def salt_commitment(self, turn: int) -> str | None:
        """The hash of turn ``turn``'s dice salt, committed when the turn opened (or again when the campaign
        was rekeyed before it resolved); None if none was."""
        return self.recommitted_salt(turn) or self._opening_record(turn).get("next_salt_commitment")

    def recommitted_salt(self, turn: int) -> str | None:
        """The commitment to turn ``turn``'s salt that a rekey made before the turn resolved, if any."""
        for epoch in reversed(self.key_epochs()):
            if int(epoch["from_turn"]) == turn and epoch.get("next_salt_commitment"):
                return str(epoch["next_salt_commitment"])
        return None

    def commit_salt(self, campaign: str, key: str | None, turn: int, opened_at: datetime) -> dict[str, Any]:
        """What is published as turn ``turn`` opens at ``opened_at`` (empty without a key): the commitment to
        the key holder's part of its salt and, with a beacon, the round that will complete it."""
        if key is None:
            return {}
        commitment: dict[str, Any] = {"next_salt_commitment": self.salt_commitment_of(key, campaign, turn)}
        net = self.beacon_network()
        if net is not None:
            commitment["next_beacon_round"] = self.beacon_round_for(net, turn, opened_at)
        return commitment

    @staticmethod
    def salt_commitment_of(key: str, campaign: str, turn: int) -> str:
        """The commitment ``key`` makes to the key holder's part of turn ``turn``'s salt."""
        return sealing.salt_commitment(sealing.turn_salt(key, campaign, turn))

    def beacon_network(self) -> beacon.Network | None:
        """The public beacon whose rounds take part in the dice (``beacon:`` in campaign.yaml), if any."""
        return self.beacon_named(self.config().get("beacon"))

    def beacon_named(self, value: object) -> beacon.Network | None:
        """The beacon ``value`` names, if this campaign may use it (None: no beacon)."""
        if value in (None, "none"):
            return None
        from . import beacon  # http, ssl and email: only a turn that opens or closes needs them

        allowed = (self.root / DEMO_MARKER).exists() or os.environ.get(TEST_BEACON_VARIABLE) == "1"
        return beacon.campaign_network(value, allow_test=allowed)

    def beacon_round_for(self, net: beacon.Network, turn: int, opened_at: datetime) -> int:
        """The round turn ``turn`` commits to when it opens at ``opened_at``: the first one published once its
        deadline and grace have passed, so that it is unknown to everyone while orders can still change.
        The test beacon has no clock of its own: turn N takes its round N."""
        if net.anyone_can_sign:
            return turn
        from . import beacon
        from .schedule import Settings, deadline

        settings = Settings.from_config(self.config())
        closes = deadline(settings.schedule, turn, opened_at) + settings.schedule.grace
        return beacon.round_at(net, closes)

    def committed_beacon_round(self, turn: int) -> int | None:
        """The beacon round turn ``turn`` committed to when it opened (None: the turn has no beacon)."""
        found = self._opening_record(turn).get("next_beacon_round")
        return int(found) if found is not None else None

    def _opening_record(self, turn: int) -> dict[str, Any]:
        """What was published as turn ``turn`` opened: the opening record or the previous turn's inputs."""
        path = self.turns_dir / turn_dir_name(turn - 1) / ("inputs.yaml" if turn > 1 else OPENING)
        try:
            data = canonical.read_yaml(path) if path.is_file() else None
        except yaml.YAMLError:  # a record edited by hand: campaign verify names it; it commits to nothing
            data = None
        return data if isinstance(data, dict) else {}

    def write_views(
        self, game: Game, state: State, folder: Path, commit: sealing.Commitments | None = None
    ) -> dict[str, str]:
        """Each faction's view of ``state``, sealed to that faction (and the campaign); what commits to
        each (``commit``: the turn's commitments; plain digests without)."""
        views = {f: canonical.dump(game.ruleset.faction_view(game, state, f)) for f in game.factions}
        self.write_faction_secrets(folder / "views", ".yaml", views)
        commit = commit or sealing.Commitments()
        return {faction: commit(faction, raw) for faction, raw in views.items()}

    def commitments(self, turn: int) -> sealing.Commitments:
        """How turn ``turn``'s archive commits to its secret texts: keyed in a sealed campaign."""
        if not self.sealed:
            return sealing.Commitments()
        return self.keyed_commitments(turn)

    def keyed_commitments(self, turn: int) -> sealing.Commitments:
        key = self.key_for_turn(turn)
        if key is None:
            raise CampaignError(
                "this sealed campaign's commitments need the campaign key",
                f"set {sealing.KEY_VARIABLE} or pass --key-file",
                code=2,
            )
        return sealing.Commitments(key, str(self.config()["campaign"]), turn)

    def archived_commitments(self, turn: int) -> sealing.Commitments:
        """How an archived turn committed to its texts, by the format its inputs record."""
        path = self.turns_dir / turn_dir_name(turn) / "inputs.yaml"
        if turn > 0 and path.is_file() and canonical.read_yaml(path).get("format") == SEALED_FORMAT:
            return self.keyed_commitments(turn)
        return sealing.Commitments()

    def left_state(self, turn: int, raw: bytes, digests: Mapping[str, Any] | None = None) -> bool:
        """Whether ``raw`` is the state turn ``turn`` left (0: the opening state), as its archive commits."""
        digests = self.turn_digests(turn) if digests is None else digests
        if not digests.get("state"):
            return False
        commit = self.archived_commitments(turn) if turn > 0 else sealing.Commitments()
        # An open campaign's commitment is the SHA-256 that canonical.digest gives (and keeps for the
        # read cache's lookup of the same bytes, which then need not be hashed again).
        return digests["state"] == (commit("*", raw) if commit.keyed else canonical.digest(raw))

    def public_view(self, game: Game, state: State) -> bytes:
        return canonical.dump(game.ruleset.faction_view(game, state, None))

    def game(
        self,
        state: State | None = None,
        house_rules: dict[str, Any] | None = None,
        *,
        reuse: Game | None = None,
    ) -> Game:
        """The campaign's game for ``state``. ``reuse``: a game built earlier (a replay's previous turn),
        given back as it is when everything it is made of is unchanged, so that its merged rules, phase
        table and order specs are not built again for every turn of a long replay."""
        config = self.config()
        ruleset = get_ruleset(config["ruleset"])
        house = self.house_rules() if house_rules is None else house_rules
        players = self.players().get("factions", {})
        current = state or self.state()
        state_factions = current["factions"]
        dates = tuple(current.get("dates") or ())
        campaign, name, seed = config["campaign"], config.get("name", config["campaign"]), int(config["seed"])
        key = self.key_for_turn(1) if config.get("sealed") else None  # the first key drew the start
        setup_seed = sealing.setup_seed(key, campaign) if key is not None else None
        world = self.world()
        # Sorted as the state file holds them, so a faction added during a replay keeps its place.
        factions = tuple(sorted(state_factions))
        faction_names = {
            f: (players.get(f) or {}).get("name") or d.get("name", f) for f, d in state_factions.items()
        }
        if (
            reuse is not None
            and reuse.ruleset is ruleset
            and reuse.world is world  # the parsed world is shared until world.yaml changes (see world)
            and reuse.factions == factions
            # Compared as written, not with ==, which takes 1 for 1.0 and True.
            and reuse.setup_seed == setup_seed
            and canonical.dump(list(reuse.dates)) == canonical.dump(list(dates))
            and _game_inputs(reuse.campaign, reuse.name, reuse.seed, reuse.house_rules, reuse.faction_names)
            == _game_inputs(campaign, name, seed, house, faction_names)
        ):
            return reuse
        return Game(
            campaign=campaign,
            name=name,
            seed=seed,
            ruleset=ruleset,
            rules=merge_rules(ruleset.default_rules(), house),
            house_rules=house,
            world=world,
            factions=factions,
            faction_names=faction_names,
            setup_seed=setup_seed,
            dates=dates,
        )

    def sealed_order_paths(self) -> list[Path]:
        """A sealed campaign's order files, ``orders/<faction>.yaml.age``: what its turn is resolved from."""
        if not self.orders_dir.exists():
            return []
        return self._ordinary_files(sorted(self.orders_dir.glob(f"*.yaml{sealing.SUFFIX}")))

    def submitted_paths(self) -> list[Path]:
        """The order files a resolution reads: plain ones, or a sealed campaign's sealed ones."""
        return self.sealed_order_paths() if self.sealed else self.order_paths()

    def order_paths(self) -> list[Path]:
        """The plain order files (a sealed campaign's players' drafts, which campaign check reads)."""
        if not self.orders_dir.exists():
            return []
        return self._ordinary_files(
            sorted(p for p in self.orders_dir.glob("*.y*ml") if p.suffix in (".yaml", ".yml"))
        )

    def _ordinary_files(self, paths: list[Path]) -> list[Path]:
        """``paths``, each an ordinary file. A folder, a named pipe, a device or a link where an order file
        belongs is refused by name: passed over, it would resolve the turn without that faction's orders
        (and a link reads whatever it points to)."""
        problems = [(path, what) for path in paths if (what := not_an_ordinary_file(path))]
        if problems:
            path, what = problems[0]
            shown = f"{self.display(path.parent)}/{path.name}"  # the link's own name, not its target's
            more = f" (and {len(problems) - 1} more entries of orders/ like it)" if len(problems) > 1 else ""
            raise CampaignError(
                f"{shown} is {what}, not an order file{more}",
                f"an order file is an ordinary file: remove this one (rm -r {shown}) and save the orders "
                "as a plain YAML file of that name, then run the command again",
            )
        return paths

    def display(self, path: Path) -> str:
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return str(path)

    def check_as_read_in_part(self, paths: Iterable[Path] | None = None) -> list[OrderFile]:
        """``campaign check``: the order files checked against the state and world read in part (see
        ``state_to_check`` and ``world``)."""
        state = self.state_to_check()
        self.world(in_part=True)  # the game below shares this world
        return self.check(self.game(state), state, paths)

    def is_house_rule_file(self, path: Path) -> bool:
        return path.resolve() == (self.campaign_dir / "rules.yaml").resolve()

    def check(self, game: Game, state: State, paths: Iterable[Path] | None = None) -> list[OrderFile]:
        files = []
        with holding_still(state):  # every file is checked against the same, unchanged state
            for path in self.order_paths() if paths is None else self._ordinary_files(list(paths)):
                if not path.is_file():
                    raise CampaignError(f"no such order file: {path}", "check the path", code=2)
                of = check_order_file(game, state, path.read_bytes(), self.display(path))
                if path.suffix == ".yml" and path.parent.resolve() == self.orders_dir.resolve():
                    of.issues.append(_yml_warning(self.display(path)))
                files.append(of)
        refuse_twin_files(files)
        return files

    # -- writing ------------------------------------------------------------------------------------

    def templates(self) -> jinja2.Environment:
        import jinja2  # only commands that write templates or reports need it: `check` starts faster

        search = tuple(str(p.resolve()) for p in (self.root / "templates", ENGINE_TEMPLATES) if p.is_dir())
        if search not in _TEMPLATE_ENVIRONMENTS:
            kept = compiled_template_folder("templates")  # compiled once, not in every process
            _TEMPLATE_ENVIRONMENTS[search] = jinja2.Environment(
                loader=jinja2.FileSystemLoader(list(search)),
                bytecode_cache=jinja2.FileSystemBytecodeCache(str(kept)) if kept else None,
                undefined=jinja2.StrictUndefined,
                keep_trailing_newline=True,
                autoescape=False,  # Markdown and YAML for players; HTML pages escape in their own templates
            )
            _TEMPLATE_ENVIRONMENTS[search].filters["yaml_value"] = yaml_value
        return _TEMPLATE_ENVIRONMENTS[search]

    @staticmethod
    def schema(game: Game, state: State) -> dict[str, Any]:
        """The order files' JSON Schema for the turn of ``state`` (reference fields offer its ids)."""
        return order_file_schema(
            game.ruleset.title,
            game.campaign,
            game.factions,
            game.actions,
            gm_actions(game),
            game.standing,
            ids_in(state),
            game.ruleset.names_of(game, state),
        )

    def write_schema(self, game: Game, state: State, folder: Path | None = None) -> Path:
        """The order files' schema, which is public: in a sealed campaign it offers only the ids the public
        view holds, never a concealed piece's."""
        import json

        if self.sealed:
            state = game.ruleset.faction_view(game, state, None)
        schema = self.schema(game, state)
        path = (folder or self.orders_dir) / SCHEMA_FILE
        canonical.write_atomic(path, (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode())
        return path

    def render_template(self, game: Game, state: State, faction: str, destination: Path | None = None) -> str:
        """The faction's order template. Written to ``destination`` (``campaign template -o``) it points to
        the schema from there, and once it is the faction's own order file it says so, rather than asking
        to be copied where it already is."""

        from .views import order_template_context  # writing templates and reports: `check` needs none

        context = order_template_context(game, state, faction)
        context["sealed"] = self.sealed
        if destination is not None:
            schema = self.orders_dir.resolve() / SCHEMA_FILE
            context["schema"] = Path(os.path.relpath(schema, destination.resolve().parent)).as_posix()
            context["in_place"] = destination.resolve() == (self.orders_dir / f"{faction}.yaml").resolve()
        return self.templates().get_template("orders.yaml.j2").render(context)

    def write_templates(self, game: Game, state: State, folder: Path | None = None) -> None:
        """Each active faction's template for the turn of ``state``; a faction out of the game has none,
        nor has an NPC faction, which the bot plays."""
        folder = folder or self.orders_dir / "templates"
        awaited = faction_records.awaited(state, game.factions)
        for faction in game.factions:
            if faction in awaited:
                canonical.write_atomic(
                    folder / f"{faction}.yaml", self.render_template(game, state, faction).encode()
                )
            elif (folder / f"{faction}.yaml").exists():
                (folder / f"{faction}.yaml").unlink()

    def write_player_aids(self, game: Game, state: State) -> None:
        """The schema and the templates, from the effective rules (the ruleset's with the house rules),
        so a house rule reaches players' editors and templates with the next turn. A sealed campaign
        publishes no templates: they show a faction's position, which players read from their view."""
        self.write_schema(game, state)
        if not self.sealed:
            self.write_templates(game, state)

    # -- resolving a turn: stage, then switch in -----------------------------------------------------

    @property
    def staging_dir(self) -> Path:
        return self.campaign_dir / STAGING

    @property
    def staging_dirs(self) -> tuple[Path, ...]:
        """Each staged file waits next to where it goes, so that moving it in is a rename on one file
        system: the turn's archive in campaign/turns/, templates in orders/templates/, the rest here."""
        return (
            self.turns_dir / STAGING,
            self.orders_dir / "templates" / STAGING,
            self.staging_dir,
            self.campaign_dir / FINISHED,
        )

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold an exclusive lock on ``campaign/`` while resolving: a second resolve waits, then sees
        the turn moved on. The lock is the folder itself, so it leaves no file behind."""
        if fcntl is None:
            yield
            return
        fd = os.open(self.campaign_dir, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def archive(
        self,
        game: Game,
        state_before: State | None,
        result: TurnResult,
        entries: dict[str, dict[str, Any]],
        rumors: list[str],
        state_before_raw: bytes | None = None,
        refused: dict[str, str] | None = None,
        salt: dict[str, str] | None = None,
    ) -> Path:
        """Archive a resolved turn and move the campaign on to the next one, all or nothing.

        ``entries`` are the sealed order files (see ``resolution.seal``) and ``rumors`` the turn's
        rumours apart from their authors. Everything is first written into ``campaign/.resolving/``;
        the journal written last is the moment the turn counts as resolved, and ``switch_in`` then
        moves the files into place with renames. Interrupted before the journal, the next run throws
        the staging folder away; after it, the next run finishes the switch (``recover``).

        ``salt`` holds the turn's revealed dice salt and the commitment to the next turn's (inputs).
        In a sealed campaign every secret file is written encrypted (``write_secret``), straight into
        the staging folder, so no plain secret ever lies in the repository's tree; the public events
        and the public view of the state are written next to them, and ``digest.yaml`` binds both the
        plain texts and the sealed files."""

        final = self.turns_dir / turn_dir_name(result.turn)
        if final.exists():
            raise CampaignError(
                f"turn {result.turn} is already archived in {self.display(final)}",
                "the campaign state and its archive disagree; restore campaign/ from git",
            )
        aids_written: Callable[[bool], None] | None = None
        cached: Callable[[bool], None] | None = None
        try:
            self.discard_staging()
            # The player aids of the next turn (see write_player_aids), staged like the rest, are written
            # beside the archive, on the other core (see ``beside``).
            aids_written = beside.begin(lambda: self.stage_player_aids(game, result.state))
            stage = self.turns_dir / STAGING / turn_dir_name(result.turn)
            previous = self.turn_digests(result.turn - 1)
            commit = self.commitments(result.turn)
            # The file the state was read from is what the writer made of it when the previous turn's
            # archive commits to it (the writer's output reads back to data it writes out the same);
            # otherwise (a GM's edit) the state is written out again.
            # ``state_before`` is None only when the caller found those bytes to be that file (see
            # ``left_state``): a big campaign's resolve lets go of the parsed state before archiving, so
            # that its peak memory holds one state, not two.
            if state_before_raw is not None and (
                state_before is None or self.left_state(result.turn - 1, state_before_raw, previous)
            ):
                before_raw, edited = state_before_raw, False
            elif state_before is not None:
                before_raw = canonical.dump(state_before)
                edited = not self.left_state(result.turn - 1, before_raw, previous)
            else:
                raise ValueError(
                    "archive needs the state before the turn, or the bytes the previous turn left"
                )
            archived_orders = {
                "orders": entries,
                "rumors": rumors,
                **({"refused": refused} if refused else {}),
            }
            orders_raw = canonical.dump(archived_orders)
            self.write_secret(stage / ORDERS_FILE, orders_raw)
            # Civil disorder and NPC factions: what the bot ordered, for readers.
            self.write_faction_secrets(
                stage / "bot-orders", ".yaml", {f: of.raw for f, of in result.stand_ins.items()}
            )
            self.write_faction_secrets(
                stage / "npc-orders", ".yaml", {f: of.raw for f, of in result.npc_orders.items()}
            )
            if edited:
                self.write_secret(stage / "state-before.yaml", before_raw)  # the GM edited the state
            inputs = {
                "format": SEALED_FORMAT if commit.keyed else ARCHIVE_FORMAT,
                "turn": result.turn,
                "engine": __version__,
                "ruleset": game.ruleset.id,
                "campaign_seed": game.seed,
                "turn_seed": result.seed.hex,
                "order_digests": dict(result.seed.digests),
                "posting_order": result.posting_order,
                "missing": result.missing,
                "absent_players": result.absent.to_data(),
                # Absences are public (the site shows them, reminders skip them): what the files declared,
                # and who was away with the policy applied. Written only when there is any, so archives
                # from before absences keep their bytes.
                **({"absences": declared_absences(result.declared)} if result.declared else {}),
                **(
                    {"away": {"factions": list(result.away), "policy": result.away_policy.to_data()}}
                    if result.away
                    else {}
                ),
                "house_rules": game.house_rules,
                "world_digest": game.world.digest,
                "state_before_digest": commit("*", before_raw),
                "previous_turn_digest": previous.get("self", "-"),
                **(salt or {}),
            }
            canonical.write_yaml(stage / "inputs.yaml", inputs)
            events = result.events_data()  # the reports read every roll in full
            events_raw = canonical.dump(roll_log.logged(events, game.rules))
            self.write_secret(stage / "events.yaml", events_raw)
            state_raw = canonical.dump(result.state)
            # The next command reads the new state from the read cache; kept there beside the reports.
            cached = beside.begin(lambda: canonical.remember(state_raw, result.state))
            from .views import render_reports

            with holding_still(result.state):  # reports read the new state, never change it
                rendered = {
                    f: text.encode()
                    for f, text in render_reports(self.templates(), game, result, events["events"]).items()
                }
            del events  # reports were the last to read them: a big turn's events are not held to the end
            self.write_faction_secrets(stage / "reports", ".md", rendered)
            digests: dict[str, Any] = {
                "state": commit("*", state_raw),
                "events": commit("*", events_raw),
                "inputs": input_digests(inputs),
                "orders": commit("*", orders_raw),
                "reports": {f: commit(f, text) for f, text in rendered.items()},
                "bot_orders": {f: commit("*", of.raw) for f, of in result.stand_ins.items()},
            }
            if result.npc_orders:  # only campaigns with NPC factions: older archives keep their digests
                digests["npc_orders"] = {f: commit("*", of.raw) for f, of in result.npc_orders.items()}
            if set(result.state["factions"]) != set(game.factions):  # the GM brought a faction in
                game = self.game(result.state, game.house_rules)
            if self.sealed:
                digests.update(self.seal_turn(game, result, stage, commit, entries))
            canonical.write_yaml(stage / DIGEST_FILE, digests)
            self.write_secret(self.staging_dir / "state.yaml", state_raw)
            if self.sealed:
                canonical.write_atomic(self.staging_dir / "state.yaml", self.public_view(game, result.state))
            cached(True)
            aids_written(True)
        except BaseException:
            for finish in (cached, aids_written):
                if finish is not None:
                    finish(False)  # the children write nothing more into what is thrown away
            with suppress(OSError):  # never hide the first error behind a failed clean-up
                self.discard_staging()
            raise
        checkpoint("staged")
        canonical.write_yaml(
            self.staging_dir / JOURNAL,
            {
                "turn": result.turn,
                # Every order file the turn was resolved from, by the name it has (orders/red.yml too):
                # one left behind would hold up the next turn.
                "remove_orders": sorted(p.name for p in self.submitted_paths()),
                "remove_templates": sorted(
                    f"{f}.yaml"
                    for f in game.factions
                    if f not in faction_records.awaited(result.state, game.factions)
                ),
            },
        )
        checkpoint("journaled")
        self.switch_in()
        return final

    def stage_player_aids(self, game: Game, state: State) -> None:
        """The next turn's player aids (see write_player_aids), staged beside the archive. A faction the GM
        brought in this turn has its template too: the game is read again from the resolved state."""
        if set(state["factions"]) != set(game.factions):
            game = self.game(state, game.house_rules)
        self.write_schema(game, state, self.orders_dir / "templates" / STAGING)
        if not self.sealed:
            with holding_still(state):  # templates read the new state, never change it
                self.write_templates(game, state, self.orders_dir / "templates" / STAGING)

    def seal_turn(
        self,
        game: Game,
        result: TurnResult,
        stage: Path,
        commit: sealing.Commitments,
        entries: Mapping[str, Any],
    ) -> dict[str, Any]:
        """A sealed turn's public files, each faction's view and receipt; the digests that bind them, and
        the sealed files as written (the commitments bind what is inside them)."""
        public_events = {
            "turn": result.turn,
            "events": public_record(result.events),
        }
        events_raw = canonical.write_yaml(stage / PUBLIC_EVENTS, roll_log.logged(public_events, game.rules))
        state_raw = self.public_view(game, result.state)
        canonical.write_atomic(stage / PUBLIC_STATE, state_raw)
        views = self.write_views(game, result.state, stage, commit)
        receipts = {f: canonical.dump(receipt(commit, f, entries.get(f))) for f in game.factions}
        self.write_faction_secrets(stage / RECEIPTS, ".yaml", receipts)
        return {
            "views": views,
            "public": {"events": canonical.digest(events_raw), "state": canonical.digest(state_raw)},
            "sealed": sealed_digests(stage),
        }

    def switch_in(self) -> int:
        """Carry out a journaled resolution; every step may run again after an interruption."""
        journal = canonical.read_yaml(self.staging_dir / JOURNAL)
        turn = int(journal["turn"])
        staged = self.turns_dir / STAGING / turn_dir_name(turn)
        if staged.exists():
            staged.rename(self.turns_dir / turn_dir_name(turn))
        if staged.parent.exists():
            staged.parent.rmdir()
        checkpoint("archive-moved")
        for name in ("state.yaml", f"state.yaml{sealing.SUFFIX}"):
            if (self.staging_dir / name).exists():
                os.replace(self.staging_dir / name, self.campaign_dir / name)
        checkpoint("state-replaced")
        for name in journal["remove_orders"]:
            (self.orders_dir / name).unlink(missing_ok=True)
        checkpoint("orders-removed")
        templates = self.orders_dir / "templates" / STAGING
        if (templates / SCHEMA_FILE).exists():
            os.replace(templates / SCHEMA_FILE, self.orders_dir / SCHEMA_FILE)
        for path in sorted(templates.glob("*.yaml")) if templates.exists() else []:
            os.replace(path, self.orders_dir / "templates" / path.name)
        if templates.exists():
            shutil.rmtree(templates)
        for name in journal["remove_templates"]:
            (self.orders_dir / "templates" / name).unlink(missing_ok=True)
        checkpoint("templates-written")
        # One rename marks the switch as finished; what is left of the folder is then only rubbish.
        self.staging_dir.rename(self.campaign_dir / FINISHED)
        checkpoint("finished")
        shutil.rmtree(self.campaign_dir / FINISHED)
        return turn

    def discard_staging(self) -> None:
        for folder in self.staging_dirs:
            if folder.exists():
                shutil.rmtree(folder)

    def recover(self) -> str:
        """Finish or undo a resolution that was interrupted; says what it did ("" when nothing)."""
        if (self.campaign_dir / FINISHED).exists():
            shutil.rmtree(self.campaign_dir / FINISHED)
            turns = self.archived_turns()
            return (
                f"Turn {turns[-1] if turns else 0} had been resolved by an interrupted run; it is complete."
            )
        if not any(folder.exists() for folder in self.staging_dirs):
            return ""
        if (self.staging_dir / JOURNAL).exists():
            turn = self.switch_in()
            return f"Turn {turn} had been resolved by an interrupted run; its files are now all in place."
        self.discard_staging()
        return "An interrupted resolution had left unfinished files in campaign/.resolving/; removed."

    # -- the archive ----------------------------------------------------------------------------------

    def archived_turns(self) -> list[int]:
        if not self.turns_dir.exists():
            return []
        return sorted(
            int(p.name)
            for p in self.turns_dir.iterdir()
            if p.is_dir() and p.name.isdigit() and int(p.name) > 0
        )

    def turn_digests(self, turn: int) -> dict[str, Any]:
        """What a turn's archive commits to: ``state`` (the state after it) and ``self`` (the digest
        of its digest file, which the next turn's inputs chain to); empty when it is not archived."""
        if turn == 0:
            opening = self.turns_dir / turn_dir_name(0) / "state.yaml"
            sealed = opening.with_name(opening.name + sealing.SUFFIX)
            if sealed.is_file():
                # Turn 1 chains to the sealed file, which anyone can check: a digest of the plain opening
                # state would let a player confirm a guess of everyone's starting position.
                link = {"self": canonical.digest(sealed.read_bytes())}
                if self.secret_key() is None:  # the chain can be checked without the key, the state not
                    return link
                return {"state": canonical.digest(self.open_sealed(sealed)), **link}
            raw = self.read_secret(opening)
            digest = canonical.digest(raw) if raw else ""  # a big state: hashed once for both
            return {"state": digest, "self": digest} if raw else {}
        path = self.turns_dir / turn_dir_name(turn) / DIGEST_FILE
        if not path.exists():
            return {}
        raw = path.read_bytes()
        try:
            data = canonical.load(raw)
        except yaml.YAMLError:  # edited by hand: it vouches for nothing, and verify names it
            data = None
        return {**(data if isinstance(data, dict) else {}), "self": canonical.digest(raw)}

    def create(
        self,
        config: dict[str, Any],
        players: dict[str, Any],
        world: World,
        state: State,
        house_rules_text: str,
        opening: dict[str, str] | None = None,
    ) -> None:
        canonical.write_yaml(self.campaign_dir / "campaign.yaml", config)
        canonical.write_yaml(self.campaign_dir / "players.yaml", players)
        canonical.write_atomic(self.campaign_dir / "rules.yaml", house_rules_text.encode())
        world_raw = canonical.write_yaml(self.campaign_dir / "world.yaml", world.to_data())
        opening = {"world_digest": canonical.digest(world_raw), **(opening or {})}
        raw = canonical.dump(state)
        start = self.turns_dir / turn_dir_name(0)
        self.write_secret(start / "state.yaml", raw)
        self.write_secret(self.campaign_dir / "state.yaml", raw)
        if self.sealed:
            game = self.game(state)
            canonical.write_atomic(self.campaign_dir / "state.yaml", self.public_view(game, state))
            canonical.write_atomic(start / PUBLIC_STATE, self.public_view(game, state))
            self.write_views(game, state, start)
        canonical.write_yaml(start / OPENING, opening)
        self.orders_dir.mkdir(parents=True, exist_ok=True)

    def reset(self) -> None:
        """Remove a campaign's files (``campaign new --force``); hand-written files elsewhere stay."""
        for name in (
            "campaign.yaml",
            "players.yaml",
            "rules.yaml",
            "world.yaml",
            "state.yaml",
            "state.yaml.age",
        ):
            (self.campaign_dir / name).unlink(missing_ok=True)
        for folder in (self.turns_dir, self.campaign_dir / RESEALED_DIR):
            if folder.exists():
                shutil.rmtree(folder)
        for path in [*self.order_paths(), *self.sealed_order_paths()]:
            path.unlink()
        if (self.orders_dir / "templates").exists():
            shutil.rmtree(self.orders_dir / "templates")


def receipt(commit: sealing.Commitments, faction: str, entry: Any) -> dict[str, Any]:
    """What a faction is handed with each sealed turn: the key its own commitments were made with, and its
    orders as the engine read them, so that it can check the published commitments to its orders, view
    and report (``campaign verify --identity``) without being able to check anyone else's."""
    return {
        "campaign": commit.campaign,
        "turn": commit.turn,
        "faction": faction,
        "commitment_key": commit.key(faction),
        "orders": entry,
    }


def sealed_digests(folder: Path) -> dict[str, str]:
    """The digest of every sealed file under ``folder``, by its path there."""
    return {
        path.relative_to(folder).as_posix(): canonical.digest(path.read_bytes())
        for path in sorted(folder.rglob(f"*{sealing.SUFFIX}"))
    }
