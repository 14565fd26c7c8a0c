"""``campaign doctor``: the GM's check of a campaign's set-up, run locally and without network.

A sealed campaign takes about sixteen steps to set up, and a missed one shows only later: a player who
cannot read their view, plain orders committed because an ignore file was never pushed, a key that is
not the one the dice were committed to. Each check here says ``ok``, ``warning``, ``problem`` or
``skipped`` (it needs what was not given), and how to fix what it found.

The kit's own workflows are package data (``resolver/github_workflows/``), not read from the
repository being checked: a campaign repository is a fork of the kit, so its ``.github/workflows``
*is* the copy under test, and comparing it with itself would find nothing. The package copies travel
with the engine the GM installed (``pip install .`` copies them like the templates), and a test keeps
them identical to the kit repository's ``.github/workflows``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import git
import yaml

from .core.issues import CampaignError
from .core.yamlsafe import Located, load_player_yaml
from .git.flow import open_repo
from .notify import settings as notify_settings
from .store import beacon, sealing
from .store import schedule as schedule_settings
from .store.store import Store

Status = Literal["ok", "warning", "problem", "skipped"]
KIT_WORKFLOWS = Path(__file__).resolve().parent / "github_workflows"
WORKFLOWS = Path(".github") / "workflows"
ORDERS_IGNORE = "orders/.gitignore"
PROBE = "doctor-probe"  # a file name no faction has, to ask git what it would ignore
SSH_PREFIXES = ("ssh-ed25519", "ssh-rsa")


@dataclass(frozen=True)
class Finding:
    check: str  # what was checked, in words
    status: Status
    message: str
    fix: str = ""


def examine(store: Store, key_file: Path | None) -> list[Finding]:
    """Every check of ``store``'s campaign, in the order a GM sets one up."""
    store.require()
    findings = list(check_recipients(store))
    findings += check_ignore_files(store)
    key, key_findings = read_key(store, key_file)
    findings += key_findings
    findings += check_key(store, key)
    findings += check_beacon(store)
    findings += check_workflows(store.root)
    findings += check_notifications(store, os.environ)
    return findings


# -- the beacon ----------------------------------------------------------------------------------------


def check_beacon(store: Store) -> list[Finding]:
    """Whether the dice of a campaign with a key mix in a public beacon's round, which not even the key's
    holder knows before the deadline."""
    name = "dice beacon"
    config = store.config()
    if not config.get("recipient"):
        return [Finding(name, "skipped", "the campaign has no key, so its dice have no secret salt at all")]
    value = config.get("beacon")
    if value in (None, "none"):
        return [
            Finding(
                name,
                "warning",
                "the dice mix in no public beacon: whoever holds the campaign key can work out every roll "
                "before the deadline",
                "write beacon: quicknet in campaign/campaign.yaml; it takes part from the next turn",
            )
        ]
    if value == beacon.TEST.name:
        return [
            Finding(
                name,
                "problem",
                "the dice mix in the kit's test beacon, whose rounds anyone can sign in advance",
                "write beacon: quicknet in campaign/campaign.yaml; the test beacon is for demos and tests",
            )
        ]
    try:
        chosen = beacon.network(str(value))
    except CampaignError as error:
        return [Finding(name, "problem", error.message, "write beacon: quicknet in campaign/campaign.yaml")]
    return [
        Finding(name, "ok", f"each turn's dice wait for a round of {chosen.title} drawn after its deadline")
    ]


# -- recipients ----------------------------------------------------------------------------------------


def check_recipients(store: Store) -> Iterator[Finding]:
    """Every recipient parses; X25519 is preferred; no faction shares a key with another faction or
    with the campaign; in a sealed campaign every faction has one."""
    name = "recipients"
    path = store.campaign_dir / "players.yaml"
    found: list[Finding] = []
    campaign_key = str(store.config().get("recipient") or "")
    if campaign_key and not _parses(campaign_key, x25519_only=True):
        found.append(
            Finding(
                name,
                "problem",
                "campaign/campaign.yaml: 'recipient' is not an age public key (age1…)",
                "put back the public half of the campaign key: the '# public key:' line of its key file",
            )
        )
    lines = _recipient_lines(path)
    owners: dict[str, str] = {}
    count = 0
    for faction, info in sorted((store.players().get("factions") or {}).items()):
        listed = (info if isinstance(info, dict) else {}).get("recipients") or []
        if not isinstance(listed, list):
            found.append(
                Finding(
                    name,
                    "problem",
                    f"campaign/players.yaml: {faction}'s recipients are not a list",
                    "write each public key on its own line starting with '- ', under recipients:",
                )
            )
            continue
        if not listed and store.sealed:
            found.append(
                Finding(
                    name,
                    "problem",
                    f"campaign/players.yaml: {faction} has no recipients, so its player cannot open its view",
                    f"ask the player for a public key (campaign keygen prints one) and list it under "
                    f"factions: {faction}: recipients",
                )
            )
        for number, text in enumerate(listed):
            count += 1
            where = f"campaign/players.yaml:{lines.get((faction, number), 0)}"
            found += _recipient_findings(
                name, where, faction, number, str(text).strip(), campaign_key, owners
            )
    if not found and count:
        found.append(Finding(name, "ok", f"all {count} recipient(s) of the factions are age keys, and parse"))
    elif not found:
        found.append(Finding(name, "ok", "no faction lists a recipient, and an open campaign needs none"))
    yield from found


def _recipient_findings(
    name: str, where: str, faction: str, number: int, text: str, campaign_key: str, owners: dict[str, str]
) -> list[Finding]:
    entry = f"{where}: {faction}'s recipient {number + 1}"
    if text.startswith("AGE-SECRET-KEY-"):  # never echoed: it is someone's secret key
        return [
            Finding(
                name,
                "problem",
                f"{entry} is a SECRET key, not a public one: anyone who reads the repository can use it",
                "remove it and have that player make a new key (campaign keygen); list only the age1… line",
            )
        ]
    if not _parses(text):
        return [
            Finding(
                name,
                "problem",
                f"{entry} is not an age public key (age1…) or an SSH public key",
                "paste the public key itself: the age1… line campaign keygen prints, or the line of "
                "~/.ssh/id_ed25519.pub",
            )
        ]
    found = []
    same = " ".join(text.split()[:2])
    if text == campaign_key:
        found.append(
            Finding(
                name,
                "problem",
                f"{entry} is the campaign key: that player can open every sealed file",
                "list the player's own public key instead, and make a new campaign key",
            )
        )
    elif owners.get(same, faction) != faction:
        found.append(
            Finding(
                name,
                "problem",
                f"{entry} is also a recipient of {owners[same]}: each can read the other's view",
                "give every faction its own players' keys",
            )
        )
    owners.setdefault(same, faction)
    if text.startswith(SSH_PREFIXES):
        found.append(
            Finding(
                name,
                "warning",
                f"{entry} is an SSH key: every file sealed to it carries a tag of that key, so anyone can "
                "tell which files share it",
                "prefer an age key: the player runs campaign keygen and sends the age1… line",
            )
        )
    return found


def _parses(text: str, x25519_only: bool = False) -> bool:
    if x25519_only and not text.startswith("age1"):
        return False
    try:
        sealing.recipient(text)
    except CampaignError:
        return False
    return True


def _recipient_lines(path: Path) -> dict[tuple[str, int], int]:
    """The line of each faction's recipients in players.yaml, by faction and position."""
    try:
        root = yaml.compose(path.read_text(encoding="utf-8")) if path.is_file() else None
    except (OSError, yaml.YAMLError):
        return {}
    lines: dict[tuple[str, int], int] = {}
    for faction, entry in _pairs(_value(root, "factions")):
        for number, node in enumerate(_items(_value(entry, "recipients"))):
            lines[(faction, number)] = node.start_mark.line + 1
    return lines


def _value(node: Any, key: str) -> Any:
    return next((value for name, value in _pairs(node) if name == key), None)


def _pairs(node: Any) -> list[tuple[str, Any]]:
    if not isinstance(node, yaml.MappingNode):
        return []
    return [(str(k.value), v) for k, v in node.value if isinstance(k, yaml.ScalarNode)]


def _items(node: Any) -> list[Any]:
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


# -- ignore files --------------------------------------------------------------------------------------


def check_ignore_files(store: Store) -> Iterator[Finding]:
    """In a sealed campaign, ``orders/.gitignore`` keeps players' plain drafts out of every commit. It
    must be committed (a root .gitignore that was never pushed protects nobody's clone) and it must
    not hide the sealed files players commit."""
    name = "ignore files"
    if not store.sealed:
        yield Finding(name, "skipped", "an open campaign: its order files are public by design")
        return
    try:
        repo = open_repo(store.root)
    except CampaignError as error:
        fix = "commit the campaign (git init, git add -A, git commit) and run campaign doctor there"
        yield Finding(name, "problem", f"{error.message}, so nothing is committed yet", fix)
        return
    if not _committed(repo, ORDERS_IGNORE):
        write = (
            ""
            if (store.root / ORDERS_IGNORE).is_file()
            else f"write {ORDERS_IGNORE} with the lines /*.yaml and /*.yml, then "
        )
        yield Finding(
            name,
            "problem",
            f"{ORDERS_IGNORE} is not committed, so players' clones do not ignore their plain order drafts",
            f"{write}git add {ORDERS_IGNORE}, commit and push",
        )
        return
    if repo.git.diff("HEAD", "--", ORDERS_IGNORE):
        yield Finding(
            name,
            "problem",
            f"{ORDERS_IGNORE} has changes that are not committed: players' clones have the committed one",
            f"commit {ORDERS_IGNORE} (or git restore it)",
        )
        return
    drafts = [f"orders/{PROBE}{ext}" for ext in (".yaml", ".yml")]
    missing = [draft for draft in drafts if _ignored_by(repo, draft) != ORDERS_IGNORE]
    sealed_file = f"orders/{PROBE}.yaml{sealing.SUFFIX}"
    if missing:
        yield Finding(
            name,
            "problem",
            f"{ORDERS_IGNORE} does not itself ignore plain drafts such as {', '.join(missing)}",
            f"put the lines /*.yaml and /*.yml in {ORDERS_IGNORE}, then commit it",
        )
    elif _ignored_by(repo, sealed_file):
        yield Finding(
            name,
            "problem",
            f"sealed order files are ignored ({_ignored_by(repo, sealed_file)} ignores {sealed_file}), "
            "so players cannot commit them",
            "remove the line that matches *.age from that ignore file",
        )
    else:
        yield Finding(name, "ok", f"{ORDERS_IGNORE} is committed and keeps plain drafts out of commits")


def _committed(repo: git.Repo, path: str) -> bool:
    """Tracked (``git ls-files``) and in the last commit, which is what players' clones get."""
    return bool(repo.git.ls_files("--", path)) and bool(repo.git.ls_tree("HEAD", "--", path))


def _ignored_by(repo: git.Repo, path: str) -> str:
    """The ignore file whose rule ignores ``path`` ("" when none does), as git itself decides."""
    try:
        verbose = repo.git.check_ignore("--verbose", "--no-index", "--", path)
    except git.GitCommandError:  # exit status 1: no rule matches
        return ""
    source, _, rest = verbose.partition(":")
    pattern = rest.partition(":")[2].partition("\t")[0]
    if pattern.startswith("!"):  # the deciding rule is an exception: the path is not ignored
        return ""
    return source or "an ignore file outside the repository"


# -- the key -------------------------------------------------------------------------------------------


def read_key(store: Store, key_file: Path | None) -> tuple[str | None, list[Finding]]:
    """The campaign key to check (from --key-file, else the environment), and what was found about the
    key file itself: readable by its owner alone, and not where git would publish it."""
    name = "key file"
    if key_file is None:
        key = sealing.campaign_key()
        return key, [Finding(name, "skipped", "no --key-file given: its permissions were not checked")]
    try:
        sealing.use_key_file(key_file)
    except CampaignError as error:
        return None, [Finding(name, "problem", error.message, error.hint or "check the path")]
    findings = []
    mode = stat.S_IMODE(key_file.stat().st_mode)
    if mode & 0o077:
        findings.append(
            Finding(
                name,
                "problem",
                f"{key_file} can be read by other users of this machine (mode {mode:04o})",
                f"chmod 600 {key_file}",
            )
        )
    findings += _key_file_in_repository(store, key_file)
    if not findings:
        findings.append(Finding(name, "ok", f"{key_file} is readable by you alone, and git never commits it"))
    return sealing.campaign_key(), findings


def _key_file_in_repository(store: Store, key_file: Path) -> list[Finding]:
    root = store.root.resolve()
    path = key_file.resolve()
    if not path.is_relative_to(root):
        return []
    relative = path.relative_to(root).as_posix()
    try:
        repo = open_repo(store.root)
    except CampaignError:
        return [
            Finding("key file", "problem", f"{key_file} is inside the campaign folder", "move it outside")
        ]
    if repo.git.ls_files("--", relative):
        return [
            Finding(
                "key file",
                "problem",
                f"{key_file} is tracked by git: once pushed, anyone can read every sealed file",
                f"git rm --cached {relative}, move it outside the repository, and if it was ever pushed, "
                "treat the key as leaked (see the README: a key that leaks)",
            )
        ]
    if not _ignored_by(repo, relative):
        return [
            Finding(
                "key file",
                "problem",
                f"{key_file} is inside the repository and not ignored: one git add -A would publish it",
                "move it outside the repository",
            )
        ]
    return []


def check_key(store: Store, key: str | None) -> list[Finding]:
    """The key is the campaign's: its public half is the one campaign.yaml names, and it made the
    commitment to the next turn's dice salt (computed as the resolve computes it, by the store)."""
    name = "campaign key"
    recipient = store.config().get("recipient")
    if key is None:
        if not recipient:
            return [
                Finding(
                    name,
                    "warning",
                    "this campaign has no key, so its dice are predictable: a player can compute their "
                    "rolls before sending orders",
                    "give it one, keeping the campaign as it is: campaign add-key --key-file FILE (outside "
                    f"the repository), then store the key as the secret {sealing.KEY_VARIABLE}",
                )
            ]
        return [
            Finding(
                name,
                "skipped",
                "no key given: whether it is the campaign's was not checked",
                f"pass --key-file FILE (or set {sealing.KEY_VARIABLE}) to check it",
            )
        ]
    try:
        public = sealing.public_of(key)
    except CampaignError as error:
        return [Finding(name, "problem", error.message, error.hint)]
    if public != recipient:
        return [
            Finding(
                name,
                "problem",
                f"this key is not the campaign's: its public half is {public}, campaign/campaign.yaml names "
                f"{recipient or 'none'}",
                "use the key the campaign was made with (the secret CAMPAIGN_AGE_KEY must be that key too)",
            )
        ]
    archived = store.archived_turns()
    turn = (archived[-1] if archived else 0) + 1
    published = store.salt_commitment(turn)
    expected = expected_salt_commitment(store, key, turn)
    if published is None:
        return [
            Finding(
                name,
                "warning",
                f"the key is the campaign's, but no commitment to turn {turn}'s dice salt was published",
                "nothing to do for this turn; the next resolve publishes one for the turn after",
            )
        ]
    if published != expected:
        return [
            Finding(
                name,
                "problem",
                f"campaign/campaign.yaml names this key, but turn {turn}'s dice were committed with another "
                "one: the resolve will refuse the turn",
                "use the key the campaign was made with, and put its public half back in campaign.yaml",
            )
        ]
    return [Finding(name, "ok", f"the key is the campaign's and made the commitment to turn {turn}'s dice")]


def expected_salt_commitment(store: Store, key: str, turn: int) -> str | None:
    """The commitment to ``turn``'s dice salt that ``key`` makes, computed by the store as a resolve
    computes it when it opens the turn (never derived again here, so the two cannot drift apart). The
    commitment depends on the key, the campaign and the turn, not on the state."""
    return store.salt_commitment_of(key, str(store.config()["campaign"]), turn)


# -- workflows -----------------------------------------------------------------------------------------


def kit_workflows() -> dict[str, Path]:
    return {path.name: path for path in sorted(KIT_WORKFLOWS.glob("*.yml"))}


def check_workflows(root: Path) -> list[Finding]:
    """``.github/workflows`` holds the kit's workflows as this engine ships them (only their schedule
    may differ: the README lets a GM wake the resolve as often as they like), and no other workflow
    is handed the campaign key: every workflow of a repository may read its secrets."""
    name = "workflows"
    folder = root / WORKFLOWS
    found = []
    if not kit_workflows():
        return [Finding(name, "problem", f"this install of the kit has no workflows in {KIT_WORKFLOWS}",
                        "reinstall the kit (pip install . in its repository)")]  # fmt: skip
    for file, reference in kit_workflows().items():
        path = folder / file
        restore = f"copy the kit's: cp {reference} {WORKFLOWS}/"
        if not folder.is_dir():
            restore = f"copy the kit's: mkdir -p {WORKFLOWS} && cp {reference} {WORKFLOWS}/"
        if not path.is_file():
            found.append(Finding(name, "problem", f"{WORKFLOWS / file} is missing", restore))
            continue
        difference = _first_difference(_workflow(reference), _workflow(path))
        if difference:
            found.append(
                Finding(name, "problem", f"{WORKFLOWS / file} differs from the kit's: {difference}", restore)
            )
    for path in sorted(folder.glob("*.y*ml")) if folder.is_dir() else []:
        if path.name in kit_workflows():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if sealing.KEY_VARIABLE in text or "secrets: inherit" in text:
            found.append(
                Finding(
                    name,
                    "problem",
                    f"{WORKFLOWS / path.name} is not the kit's and is given the campaign key",
                    f"remove {sealing.KEY_VARIABLE} (and 'secrets: inherit') from it, or remove the workflow",
                )
            )
    if not found:
        found.append(
            Finding(name, "ok", f"{WORKFLOWS} holds the kit's workflows: {', '.join(kit_workflows())}")
        )
    return found


def _workflow(path: Path) -> Any:
    """A workflow's meaning: its data without comments, and without its schedule."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return "(a file that is not valid YAML)"
    if isinstance(data, dict):
        triggers = data.pop(True, data.pop("on", None))  # YAML 1.1 reads the key 'on' as true
        if isinstance(triggers, dict):
            triggers = {k: v for k, v in triggers.items() if k != "schedule"}
        data["on"] = triggers
    return data


def _first_difference(kit: Any, theirs: Any, where: str = "") -> str:
    """Where two workflows first differ, named as a reader finds it: job, step name, key."""
    if kit == theirs:
        return ""
    if isinstance(kit, dict) and isinstance(theirs, dict):
        for key in [*kit, *(k for k in theirs if k not in kit)]:
            if key not in theirs:
                return f"{_path(where, key)} is missing"
            if key not in kit:
                return f"{_path(where, key)} is not in the kit's"
            found = _first_difference(kit[key], theirs[key], _path(where, key))
            if found:
                return found
    if isinstance(kit, list) and isinstance(theirs, list):
        for index, (a, b) in enumerate(zip(kit, theirs, strict=False)):
            named = f" ('{a['name']}')" if isinstance(a, dict) and "name" in a else ""
            found = _first_difference(a, b, f"{where}[{index + 1}]{named}")
            if found:
                return found
        if len(kit) != len(theirs):
            return f"{where} has {len(theirs)} entries, the kit's {len(kit)}"
    return f"{where or 'the whole file'} is changed"


def _path(where: str, key: Any) -> str:
    return f"{where}.{key}" if where else str(key)


# -- notifications -------------------------------------------------------------------------------------

REMIND_WORKFLOW = "remind.yml"
HOURS_A_WEEK = 7 * 24


def check_notifications(store: Store, environ: Mapping[str, str]) -> list[Finding]:
    """``notifications:`` in campaign.yaml and each faction's ``notify:`` in players.yaml read as the
    notify run reads them (a mistake is a problem, at its file, line and column), then what would make
    them useless: webhooks or reminders with no remind.yml to send them, a faction no channel reaches,
    quiet hours read in UTC for want of a time zone, a reminder earlier than the turn opens, a webhook
    two factions share. With ``CAMPAIGN_WEBHOOKS`` in the environment, every webhook named has its entry
    there (its URLs are never printed)."""
    name = "notifications"
    config_path, players_path = store.campaign_dir / "campaign.yaml", store.campaign_dir / "players.yaml"
    config_raw = config_path.read_bytes()
    players_raw = players_path.read_bytes() if players_path.is_file() else b"{}"
    try:
        wanted = notify_settings.read_settings(config_raw, players_raw)
    except CampaignError as error:
        return [Finding(name, "problem", error.message, error.hint)]
    config = load_player_yaml(config_raw, notify_settings.CAMPAIGN_FILE, notify_settings.MAX_FILE)
    players = load_player_yaml(players_raw, notify_settings.PLAYERS_FILE, notify_settings.MAX_FILE)
    named = _webhooks_named(config, players)
    found = _remind_workflow(store, wanted, config, named)
    found += _unreachable(wanted, players)
    found += _quiet_in_utc(wanted, players)
    found += _early_reminders(store, wanted, config)
    found += _shared_webhooks(named)
    found += _secret(environ, named)
    if not any(f.status in ("problem", "warning") for f in found):
        leads = ", ".join(f"{hours:g} h" for hours in wanted.reminders) or "none"
        hooks = sorted({hook for hook, _, _ in named})
        where = f"; webhooks: {', '.join(hooks)}" if hooks else "; no webhooks"
        issue = "a tracking issue per turn" if wanted.tracking_issue else "no tracking issue"
        found.append(Finding(name, "ok", f"reminders {leads} before the deadline, {issue}{where}"))
    return found


def _at(located: Located, path: tuple[str | int, ...], *, key: bool = False) -> str:
    line, col = located.pos(path, key=key)
    return f"{line}:{col}"


def _notify_of(players: Located, faction: str) -> Mapping[str, Any]:
    """A faction's ``notify:`` as written (read_settings has checked its shape already)."""
    factions = players.data.get("factions") if isinstance(players.data, dict) else None
    info = factions.get(faction) if isinstance(factions, dict) else None
    notify = info.get("notify") if isinstance(info, dict) else None
    return notify if isinstance(notify, dict) else {}


def _webhooks_named(config: Located, players: Located) -> list[tuple[str, str, str]]:
    """Every webhook name in use: (name, who uses it in words, file:line:col of the name)."""
    found = []
    section = config.data.get("notifications") if isinstance(config.data, dict) else None
    for number, hook in enumerate((section or {}).get("webhooks") or []):
        place = (
            f"{notify_settings.CAMPAIGN_FILE}:{_at(config, ('notifications', 'webhooks', number, 'webhook'))}"
        )
        found.append((str(hook["webhook"]), "the table", place))
    factions = players.data.get("factions") if isinstance(players.data, dict) else None
    for faction, info in (factions or {}).items() if isinstance(factions, dict) else ():
        for number, hook in enumerate(_notify_of(players, faction).get("webhooks") or []):
            path = ("factions", faction, "notify", "webhooks", number, "webhook")
            place = f"{notify_settings.PLAYERS_FILE}:{_at(players, path)}"
            found.append((str(hook["webhook"]), str((info or {}).get("name") or faction), place))
    return found


def _remind_workflow(
    store: Store, wanted: notify_settings.NotifySettings, config: Located, named: list[tuple[str, str, str]]
) -> list[Finding]:
    if (store.root / WORKFLOWS / REMIND_WORKFLOW).is_file():
        return []
    reference = kit_workflows().get(REMIND_WORKFLOW)
    fix = f"copy the kit's: cp {reference} {WORKFLOWS}/" if reference else "copy remind.yml from the kit"
    missing = f"{WORKFLOWS / REMIND_WORKFLOW} is missing"
    if named:
        hook, who, place = named[0]
        return [
            Finding(
                "notifications",
                "warning",
                f"{place}: webhook '{hook}' ({who}) is named, but {missing}: no reminder will reach it, "
                "nor any news held back by quiet hours",
                fix,
            )
        ]
    if wanted.reminders and wanted.tracking_issue:
        return [
            Finding(
                "notifications",
                "warning",
                f"{notify_settings.CAMPAIGN_FILE}:{_at(config, ('notifications', 'reminders'))}: reminders "
                f"{', '.join(f'{h:g} h' for h in wanted.reminders)} before the deadline are set (or left "
                f"at the default), but {missing}: none will be sent",
                f"{fix}; or write reminders: [] under notifications: to send none",
            )
        ]
    return []


def _unreachable(wanted: notify_settings.NotifySettings, players: Located) -> list[Finding]:
    found = []
    for faction, player in sorted(wanted.players.items()):
        if player.channels(wanted.tracking_issue):
            continue
        place = f"{notify_settings.PLAYERS_FILE}:{_at(players, ('factions', faction), key=True)}"
        if not wanted.tracking_issue:
            why = "the tracking issue is off (notifications.tracking_issue) and it names no webhook"
        elif not player.github:
            why = "it asked for no GitHub mention (notify.github: false) and names no webhook"
        else:
            why = "it has no login to @mention and names no webhook"
        found.append(
            Finding(
                "notifications",
                "warning",
                f"{place}: {player.name} hears of no turn and no reminder: {why}",
                "add its player's login under logins, or a webhook under notify: webhooks:",
            )
        )
    return found


def _quiet_in_utc(wanted: notify_settings.NotifySettings, players: Located) -> list[Finding]:
    found = []
    for faction, player in sorted(wanted.players.items()):
        if player.quiet is None or player.zone != "UTC":
            continue
        notify = ("factions", faction, "notify")
        if _notify_of(players, faction).get("timezone") is not None:
            continue  # UTC chosen on purpose
        start, end = player.quiet
        found.append(
            Finding(
                "notifications",
                "warning",
                f"{notify_settings.PLAYERS_FILE}:{_at(players, (*notify, 'quiet_hours'))}: {player.name}'s "
                f"quiet hours {start:%H:%M}-{end:%H:%M} are read in UTC, since no timezone is given",
                "add timezone: with the player's zone under notify:, e.g. timezone: Europe/Paris "
                "(or timezone: UTC, if UTC is meant)",
            )
        )
    return found


def _early_reminders(store: Store, wanted: notify_settings.NotifySettings, config: Located) -> list[Finding]:
    """A reminder longer before the deadline than a turn lasts is due the moment the turn opens."""
    try:
        plan = schedule_settings.Settings.from_config(store.config()).schedule
    except CampaignError:
        return []  # the resolve says what is wrong with the schedule; not a notification matter
    longest = HOURS_A_WEEK if plan.weekday is not None else (plan.days or 0) * 24
    early = [hours for hours in wanted.reminders if hours >= longest]
    if not early or not longest:
        return []
    return [
        Finding(
            "notifications",
            "warning",
            f"{notify_settings.CAMPAIGN_FILE}:{_at(config, ('notifications', 'reminders'))}: a reminder "
            f"{early[0]:g} hours before the deadline comes before the turn opens (a turn lasts at most "
            f"{longest} hours here), so it would go with the announcement",
            f"choose hours under {longest}, for example reminders: [24, 3]",
        )
    ]


def _shared_webhooks(named: list[tuple[str, str, str]]) -> list[Finding]:
    users: dict[str, list[tuple[str, str]]] = {}
    for hook, who, place in named:
        users.setdefault(hook, []).append((who, place))
    found = []
    for hook, uses in sorted(users.items()):
        whom = sorted({who for who, _ in uses})
        if len(whom) < 2:
            continue
        found.append(
            Finding(
                "notifications",
                "warning",
                f"{uses[-1][1]}: webhook '{hook}' is named by {' and '.join(whom)}: each of them reads "
                "the others' reminders there, and the room gets the news once for each",
                "give each player their own webhook name (and URL), unless they share that room on purpose",
            )
        )
    return found


def _secret(environ: Mapping[str, str], named: list[tuple[str, str, str]]) -> list[Finding]:
    """The secret itself lives on GitHub; a GM who exports it locally can have its names checked."""
    text = environ.get(notify_settings.WEBHOOKS_SECRET)
    if not text or not named:
        return []
    try:
        urls = notify_settings.webhook_urls(text)
    except CampaignError as error:
        return [Finding("notifications", "problem", error.message, error.hint)]
    first: dict[str, tuple[str, str]] = {}
    for hook, who, place in named:
        first.setdefault(hook, (who, place))
    return [
        Finding(
            "notifications",
            "problem",
            f"{place}: webhook '{hook}' ({who}) has no entry in the {notify_settings.WEBHOOKS_SECRET} secret",
            f"add a line '{hook}: https://…' to the {notify_settings.WEBHOOKS_SECRET} secret "
            "(Settings → Secrets and variables → Actions)",
        )
        for hook, (who, place) in first.items()
        if hook not in urls
    ]
