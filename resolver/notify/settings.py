"""What the campaign and each player ask of notifications, read and checked with the place of each mistake.

In ``campaign/campaign.yaml`` (every key optional)::

    notifications:
      reminders: [24, 3]          # hours before the deadline; each sent at most once a turn
      tracking_issue: true        # a GitHub issue per turn, on which players are @mentioned
      webhooks:                   # the table's own channels: news for everyone, no @mention
        - {kind: discord, webhook: table}

In ``campaign/players.yaml``, under a faction (every key optional)::

    notify:
      github: true                # @mention my logins on the turn's issue (default: true)
      timezone: Europe/Paris      # dates in my messages are written in this zone too (default: UTC)
      quiet_hours: "22:00-07:30"  # my local time; nothing is sent to me in it
      webhooks:
        - {kind: discord, webhook: red-discord, mention: "312345678901234567"}

``webhook`` names an entry of the repository secret ``CAMPAIGN_WEBHOOKS`` (a YAML mapping of names to
URLs), never a URL: players.yaml is public, and a webhook's URL is its password.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, time
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..core.issues import CampaignError
from ..core.yamlsafe import Located, YamlRejected, load_player_yaml

CAMPAIGN_FILE = "campaign/campaign.yaml"
PLAYERS_FILE = "campaign/players.yaml"
WEBHOOKS_SECRET = "CAMPAIGN_WEBHOOKS"
KINDS = ("discord", "slack", "matrix")
DEFAULT_REMINDERS = (24.0, 3.0)
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
QUIET = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)-([01]?\d|2[0-3]):([0-5]\d)")
# What a mention may hold for each kind: a Discord user id (digits), a Slack member id (U…/W…), a Matrix
# user id (@name:server). Checked, because the text goes into a message verbatim.
MENTIONS = {
    "discord": re.compile(r"\d{5,25}"),
    "slack": re.compile(r"[UW][A-Z0-9]{2,20}"),
    "matrix": re.compile(r"@[a-z0-9._=/+-]+:[A-Za-z0-9.-]+(:\d+)?"),
}
# A webhook's URL is its password: it travels over TLS, except to this machine (a test's stand-in server).
LOOPBACK = ("http://127.0.0.1:", "http://127.0.0.1/", "http://localhost:", "http://localhost/")
MAX_FILE = 1 << 20  # the kit writes these files; a megabyte is far beyond any real one


@dataclass(frozen=True)
class Webhook:
    kind: str  # discord, slack or matrix: the shape of the message
    name: str  # its entry in the CAMPAIGN_WEBHOOKS secret
    mention: str = ""  # whom to ping in it, in that service's own terms

    @property
    def channel(self) -> str:
        """How the ledger names it: kind and name, never the URL."""
        return f"{self.kind}:{self.name}"


@dataclass(frozen=True)
class Preference:
    """How one faction's player wants to be reached."""

    faction: str
    name: str  # the faction's name, as readers know it
    logins: tuple[str, ...] = ()
    github: bool = True
    zone: str = "UTC"
    quiet: tuple[time, time] | None = None
    webhooks: tuple[Webhook, ...] = ()

    def channels(self, tracking_issue: bool) -> list[str]:
        found = ["github"] if self.github and self.logins and tracking_issue else []
        return found + [hook.channel for hook in self.webhooks]

    def is_quiet(self, moment: datetime) -> bool:
        """Whether ``moment`` falls in the player's quiet hours, read on their own clock."""
        if self.quiet is None:
            return False
        start, end = self.quiet
        local = moment.astimezone(ZoneInfo(self.zone)).time().replace(tzinfo=None)
        if start <= end:
            return start <= local < end
        return local >= start or local < end  # the hours wrap past midnight


@dataclass(frozen=True)
class NotifySettings:
    reminders: tuple[float, ...] = DEFAULT_REMINDERS  # hours before the deadline, largest first
    tracking_issue: bool = True
    webhooks: tuple[Webhook, ...] = ()
    site_url: str = ""
    title: str = ""
    players: dict[str, Preference] = field(default_factory=dict)


def _fail(
    located: Located, file: str, path: tuple[str | int, ...], message: str, hint: str, *, key: bool = False
) -> CampaignError:
    line, col = located.pos(path, key=key)
    return CampaignError(f"{file}:{line}:{col}: {message}", hint)


def _load(raw: bytes, file: str) -> Located:
    try:
        return load_player_yaml(raw, file, MAX_FILE)
    except YamlRejected as rejected:
        issue = rejected.issue
        raise CampaignError(f"{issue.where()}: {issue.message}", issue.hint) from None


def _mapping(
    located: Located, file: str, path: tuple[str | int, ...], value: Any, keys: tuple[str, ...]
) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise _fail(
            located, file, path, f"'{path[-1]}' must be a mapping", f"its keys are: {', '.join(keys)}"
        )
    for key in value:
        if key not in keys:
            raise _fail(
                located,
                file,
                (*path, key),
                f"unknown key '{key}' under '{path[-1]}'",
                f"the keys are: {', '.join(keys)}",
                key=True,
            )
    return value


def _webhooks(located: Located, file: str, path: tuple[str | int, ...], value: Any) -> tuple[Webhook, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _fail(
            located,
            file,
            path,
            "'webhooks' must be a list",
            "write - {kind: discord, webhook: NAME} per webhook",
        )
    hooks = []
    for number, item in enumerate(value):
        where = (*path, number)
        item = _mapping(located, file, where, item, ("kind", "webhook", "mention"))
        kind = item.get("kind")
        if kind not in KINDS:
            raise _fail(
                located,
                file,
                (*where, "kind"),
                f"unknown webhook kind {kind!r}",
                f"one of: {', '.join(KINDS)}",
            )
        name = item.get("webhook")
        if not isinstance(name, str) or not NAME.fullmatch(name):
            hint = (
                f"never put the URL here: players.yaml is public. Name an entry of the {WEBHOOKS_SECRET} "
                "secret, e.g. webhook: red-discord"
                if isinstance(name, str) and "://" in name
                else f"the name of an entry of the {WEBHOOKS_SECRET} secret: letters, digits, '-', '_' or '.'"
            )
            raise _fail(
                located, file, (*where, "webhook"), "'webhook' must name a webhook, not be a URL", hint
            )
        mention = item.get("mention", "")
        mention = str(mention) if isinstance(mention, int) and not isinstance(mention, bool) else mention
        if not isinstance(mention, str) or (mention and not MENTIONS[kind].fullmatch(mention)):
            raise _fail(
                located,
                file,
                (*where, "mention"),
                f"{mention!r} is not a {kind} member id",
                {
                    "discord": "a Discord user id, the digits Discord's 'Copy User ID' gives, in quotes",
                    "slack": "a Slack member id such as U024BE7LH (profile, 'Copy member ID')",
                    "matrix": "a Matrix user id such as @alice:matrix.org",
                }[kind],
            )
        hooks.append(Webhook(kind, name, mention))
    return tuple(hooks)


def _zone(located: Located, file: str, path: tuple[str | int, ...], value: Any) -> str:
    if value is None:
        return "UTC"
    try:
        if not isinstance(value, str) or not value or ".." in value:
            raise ZoneInfoNotFoundError
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise _fail(
            located,
            file,
            path,
            f"unknown time zone {value!r}",
            "an IANA zone name such as Europe/Paris or America/New_York",
        ) from None
    return value


def _quiet(located: Located, file: str, path: tuple[str | int, ...], value: Any) -> tuple[time, time] | None:
    if value is None:
        return None
    match = QUIET.fullmatch(value.replace(" ", "")) if isinstance(value, str) else None
    if not match or match.group(1, 2) == match.group(3, 4):
        raise _fail(
            located,
            file,
            path,
            f"quiet hours must be two different local times, not {value!r}",
            'write them in quotes, from-to: quiet_hours: "22:00-07:30"',
        )
    hours = [int(part) for part in match.groups()]
    return time(hours[0], hours[1]), time(hours[2], hours[3])


def read_settings(config_raw: bytes, players_raw: bytes) -> NotifySettings:
    """The notification settings of a campaign, from the bytes of its two files; every mistake is refused
    with its file, line and column."""
    config = _load(config_raw, CAMPAIGN_FILE)
    data = config.data if isinstance(config.data, Mapping) else {}
    section = _mapping(
        config,
        CAMPAIGN_FILE,
        ("notifications",),
        data.get("notifications"),
        ("reminders", "tracking_issue", "webhooks"),
    )
    reminders = section.get("reminders", list(DEFAULT_REMINDERS))
    if not isinstance(reminders, list) or not all(
        isinstance(h, int | float) and not isinstance(h, bool) and 0 < h <= 24 * 28 for h in reminders
    ):
        raise _fail(
            config,
            CAMPAIGN_FILE,
            ("notifications", "reminders"),
            "'reminders' must list hours before the deadline, each more than 0 and at most 672 (four weeks)",
            "for example reminders: [24, 3]; an empty list [] sends none",
        )
    tracking = section.get("tracking_issue", True)
    if not isinstance(tracking, bool):
        raise _fail(
            config,
            CAMPAIGN_FILE,
            ("notifications", "tracking_issue"),
            "'tracking_issue' must be true or false",
            "",
        )
    table = _webhooks(config, CAMPAIGN_FILE, ("notifications", "webhooks"), section.get("webhooks"))

    players = _load(players_raw, PLAYERS_FILE)
    factions = players.data.get("factions") if isinstance(players.data, Mapping) else None
    preferences: dict[str, Preference] = {}
    for faction, info in (factions or {}).items() if isinstance(factions, Mapping) else ():
        info = info if isinstance(info, Mapping) else {}
        where = ("factions", faction, "notify")
        notify = _mapping(
            players,
            PLAYERS_FILE,
            where,
            info.get("notify"),
            ("github", "timezone", "quiet_hours", "webhooks"),
        )
        github = notify.get("github", True)
        if not isinstance(github, bool):
            raise _fail(players, PLAYERS_FILE, (*where, "github"), "'github' must be true or false", "")
        logins = tuple(str(login) for login in info.get("logins") or [])
        preferences[str(faction)] = Preference(
            faction=str(faction),
            name=str(info.get("name") or faction),
            logins=logins,
            github=github,
            zone=_zone(players, PLAYERS_FILE, (*where, "timezone"), notify.get("timezone")),
            quiet=_quiet(players, PLAYERS_FILE, (*where, "quiet_hours"), notify.get("quiet_hours")),
            webhooks=_webhooks(players, PLAYERS_FILE, (*where, "webhooks"), notify.get("webhooks")),
        )
    return NotifySettings(
        reminders=tuple(sorted({float(h) for h in reminders}, reverse=True)),
        tracking_issue=tracking,
        webhooks=table,
        site_url=str(data.get("site_url") or "").strip().rstrip("/"),
        title=str(data.get("name") or data.get("campaign") or "the campaign"),
        players=preferences,
    )


def webhook_urls(secret: str | None) -> dict[str, str]:
    """The CAMPAIGN_WEBHOOKS secret: a YAML mapping of webhook names to URLs. Its text is never quoted in
    an error, which would print the URLs in the Actions log."""
    if not secret or not secret.strip():
        return {}
    try:
        located = load_player_yaml(secret.encode(), WEBHOOKS_SECRET, MAX_FILE)
    except YamlRejected:
        located = None
    data = located.data if located is not None else None
    if not isinstance(data, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) and v.startswith(("https://", *LOOPBACK))
        for k, v in data.items()
    ):
        raise CampaignError(
            f"the {WEBHOOKS_SECRET} secret is not a mapping of webhook names to URLs (its text is not shown, "
            "since it holds the URLs)",
            "store it as lines 'name: https://…', one per webhook, e.g. red-discord: "
            "https://discord.com/api/webhooks/…; every URL starts with https:// (plain http only to this "
            "machine, for tests)",
        )
    return dict(data)
