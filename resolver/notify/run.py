"""``campaign notify`` and ``campaign remind``: what is due now, sent once, written in the ledger.

The moment is handed in (the command line passes the clock, or ``--now``), and so is the moment the turn
opened, which the git layer reads from history. Who owes orders is read from the checkout: a faction owes
them while ``orders/<faction>.yaml`` (``.yaml.age`` in a sealed campaign) is not in it, and the workflows
check out the main branch.

What a run sends, for the current turn:

- ``notify`` (the resolve workflow, once the turn is pushed): the turn opened: the tracking issue with
  everyone who owes orders @mentioned, the table's webhooks, each player's webhooks;
- ``remind`` (a scheduled workflow): when a reminder's hour has come (``reminders`` in campaign.yaml), a
  reminder to each faction that still owes orders, on each of its channels, and a word to the table's
  webhooks. When none has come, what ``notify`` could not send yet (a player's quiet hours, a run that
  failed) is sent instead, so no news waits for the next turn.

Nothing reaches a player in their quiet hours: it waits for a later run, until the deadline. A reminder
goes once per reminder hour at most (the ledger's key is turn, event, faction and channel), unless the
deadline moved back by more than twice its hours since it went; when a run finds two reminder hours
passed, the later one alone is sent.

Who owes orders follows what the resolver will do with the turn (``store.schedule.due``, as the resolve
workflow asks it): a faction declared away at the turn (``store.absences``: the GM's ledger and the players'
declarations, both public) owes nothing, whatever the campaign's policy for absences (its forces hold, or
the ruleset's bot plays them). It is neither reminded nor @mentioned, and the ledger records nothing for
it, so a faction whose absence is taken back before the deadline hears the news and its reminders like
any other. The announcement names those away, in words, because the site already shows them and the
others may wonder why a faction is not awaited. Under the ``pause`` policy, when enough factions are
away, the deadline moves back as the resolver moves it, and the reminders count back from the moved one.
While the GM has paused the campaign (``schedule.paused``) there is no deadline, and no reminder.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from ..core import factions as faction_records
from ..engine.absence import AwayPolicy
from ..store import schedule
from ..store.absences import away_at
from ..store.store import Store
from . import channels, messages
from .ledger import FAILED, SENT, Entry, Ledger, stamp
from .settings import WEBHOOKS_SECRET, NotifySettings, Preference, Webhook, read_settings, webhook_urls

OPENED = "opened"
REMINDER = "reminder "  # the event "reminder 24h": 24 hours before the deadline
GITHUB = "github"
KIND_NAMES = {"discord": "Discord", "slack": "Slack", "matrix": "Matrix"}


@dataclass
class Situation:
    """Everything a run decides from: read once, then nothing but the ledger changes."""

    title: str
    turn: int
    now: datetime
    deadline: datetime | None
    settings: NotifySettings
    owing: list[Preference]  # whose orders are not on the branch, by name; never a faction away
    away: list[Preference] = field(default_factory=list)  # declared away, without orders: not reminded
    away_policy: AwayPolicy = field(default_factory=AwayPolicy)
    paused: bool = False  # the GM has paused the campaign: no deadline, no reminder
    moved: timedelta = timedelta(0)  # how far the absences moved the deadline back (policy 'pause')


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    sent: int = 0
    failed: int = 0
    held: int = 0


def reminder_due(settings: NotifySettings, deadline: datetime | None, now: datetime) -> str:
    """The reminder whose hour has come at ``now`` ("reminder 3h"), the latest one when several have;
    "" before the first, at or after the deadline, or while the campaign is paused."""
    if deadline is None or now >= deadline:
        return ""
    due = [hours for hours in settings.reminders if deadline.timestamp() - hours * 3600 <= now.timestamp()]
    return f"{REMINDER}{min(due):g}h" if due else ""


def situation(root: Path, now: datetime, opened_at: datetime) -> Situation:
    """Read the campaign as the run sees it: the schedule, the public state, the order files present."""
    store = Store(root)
    store.require()
    config_raw = (store.campaign_dir / "campaign.yaml").read_bytes()
    players_path = store.campaign_dir / "players.yaml"
    settings = read_settings(config_raw, players_path.read_bytes() if players_path.is_file() else b"{}")
    state = store.public_state()  # the public state: a run holds no key, and needs none
    turn = int(state["turn"])
    awaited = faction_records.awaited(state, list(state["factions"]))
    suffix = ".yaml.age" if store.sealed else ".yaml"
    submitted = {path.name.removesuffix(suffix) for path in store.submitted_paths()}
    plan = schedule.Settings.from_config(store.config())
    # The public record of absences (no key needed). A faction away that sent orders anyway plays them,
    # and is not counted away: the resolve workflow counts it the same way (schedule.due).
    declared_away = set(away_at(store, turn))
    away = [f for f in awaited if f in declared_away and f not in submitted]
    # The deadline the resolve workflow will hold the turn to, moved back when the absences pause it.
    deadline = schedule.due(plan, turn, opened_at, now, awaited, submitted, away).deadline
    moved = schedule.paused_for_absences(plan, away) if deadline is not None else timedelta(0)

    def preference(faction: str) -> Preference:
        name = str(state["factions"][faction].get("name") or faction)
        return settings.players.get(faction) or Preference(faction, name)

    def by_name(players: list[Preference]) -> list[Preference]:
        return sorted(players, key=lambda player: (player.name.casefold(), player.faction))

    owing = by_name([preference(f) for f in awaited if f not in submitted and f not in away])
    return Situation(
        settings.title,
        turn,
        now,
        deadline,
        settings,
        owing,
        away=by_name([preference(f) for f in away]),
        away_policy=plan.away,
        paused=plan.schedule.paused,
        moved=moved,
    )


def github_from_environment(environ: Mapping[str, str]) -> channels.GitHub | None:
    """The API as a workflow gives it (GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_TOKEN); None without."""
    token, repository = environ.get("GITHUB_TOKEN", ""), environ.get("GITHUB_REPOSITORY", "")
    if not token or not repository:
        return None
    return channels.GitHub(environ.get("GITHUB_API_URL") or "https://api.github.com", repository, token)


def describe(channel: str) -> str:
    if channel == GITHUB:
        return "GitHub"
    kind, _, name = channel.partition(":")
    return f"{KIND_NAMES.get(kind, kind)} webhook '{name}'"


class Run:
    def __init__(
        self,
        root: Path,
        found: Situation,
        *,
        github: channels.GitHub | None,
        urls: Mapping[str, str],
        dry_run: bool = False,
        post: Callable[[str, dict[str, object]], channels.Answer] = channels.webhook,
    ) -> None:
        self.found = found
        self.ledger = Ledger(root)
        self.github = github
        self.urls = urls
        self.dry_run = dry_run
        self.post = post
        self.report = Report()

    # -- bookkeeping ---------------------------------------------------------------------------------

    def _news(self, event: str) -> messages.News:
        f = self.found
        return messages.News(
            f.title,
            f.turn,
            event,
            f.now,
            f.deadline,
            f.settings.site_url,
            tuple(f.owing),
            away=tuple(player.name for player in f.away),
            away_policy=f.away_policy.policy,
            moved=f.moved,
            paused=f.paused,
        )

    def _pending(self, event: str, faction: str, channel: str) -> bool:
        return not self.ledger.done(self.found.turn, event, faction, channel, since=self._since(event))

    def _since(self, event: str) -> str:
        """The earliest moment a reminder sent counts for the current deadline: twice its lead before
        it. When the deadline moved back further after a reminder went (the absences paused it, the GM
        extended it by days), that reminder is owed again at its hour before the new deadline; an hour's
        extension does not send a second one."""
        deadline = self.found.deadline
        if deadline is None or not event.startswith(REMINDER):
            return ""
        lead = float(event.removeprefix(REMINDER).removesuffix("h"))
        return stamp(deadline - timedelta(hours=2 * lead))

    def _record(self, event: str, faction: str, channel: str, ok: bool, detail: str) -> None:
        who = self._name(faction)
        said = ("would be sent" if self.dry_run else "sent") if ok else f"failed ({detail})"
        self.report.lines.append(f"turn {self.found.turn}, {event}: {who} by {describe(channel)}: {said}")
        if ok:
            self.report.sent += 1
        else:
            self.report.failed += 1
        if not self.dry_run:
            status = SENT if ok else FAILED
            self.ledger.record(
                Entry(self.found.turn, event, faction, channel, stamp(self.found.now), status, detail)
            )

    def _name(self, faction: str) -> str:
        if not faction:
            return "the table"
        return next((p.name for p in self.found.owing if p.faction == faction), faction)

    # -- the run -------------------------------------------------------------------------------------

    def send(self, event: str) -> Report:
        f = self.found
        quiet = {p.faction for p in f.owing if p.is_quiet(f.now)}
        for player in f.owing:
            if player.faction in quiet and any(
                self._pending(event, player.faction, c) for c in player.channels(f.settings.tracking_issue)
            ):
                self.report.held += 1
                self.report.lines.append(
                    f"turn {f.turn}, {event}: {player.name} is in their quiet hours; a later run sends it"
                )
        if f.settings.tracking_issue:
            self._github(event, quiet)
        for hook in f.settings.webhooks:
            if (event == OPENED or f.owing) and self._pending(event, "", hook.channel):
                self._webhook(event, hook, None)
        for player in f.owing:
            if player.faction in quiet:
                continue
            for hook in player.webhooks:
                if self._pending(event, player.faction, hook.channel):
                    self._webhook(event, hook, player)
        if not self.report.lines:
            self.report.lines.append(
                f"turn {f.turn}, {event}: nothing to send; everything due was sent before"
            )
        if f.away:
            # Nothing is recorded for them: should an absence be taken back, the next run reaches them.
            names = ", ".join(player.name for player in f.away)
            self.report.lines.append(f"turn {f.turn}, {event}: away, as declared, and left alone: {names}")
        return self.report

    def _webhook(self, event: str, hook: Webhook, reader: Preference | None) -> None:
        faction = reader.faction if reader is not None else ""
        url = self.urls.get(hook.name)
        if url is None:
            self._record(
                event, faction, hook.channel, False, f"no entry '{hook.name}' in the {WEBHOOKS_SECRET} secret"
            )
            return
        render = {"discord": messages.discord, "slack": messages.slack, "matrix": messages.matrix}[hook.kind]
        payload = render(self._news(event), reader, hook.mention)
        if self.dry_run:
            self._record(event, faction, hook.channel, True, "dry run")
            return
        answer = self.post(url, payload)
        self._record(event, faction, hook.channel, answer.ok, answer.outcome)

    def _github(self, event: str, quiet: set[str]) -> None:
        f = self.found
        due = [
            p.faction
            for p in f.owing
            if p.faction not in quiet
            and GITHUB in p.channels(True)
            and self._pending(event, p.faction, GITHUB)
        ]
        number = self.ledger.issues.get(f.turn)
        if number is not None and not due:
            return
        if self.github is None:
            self.report.lines.append(
                f"turn {f.turn}, {event}: no GitHub token and repository (GITHUB_TOKEN, GITHUB_REPOSITORY); "
                "the tracking issue waits for a run that has them"
            )
            return
        news = self._news(event)
        if number is None:
            # The issue is the turn's news; a reminder that has to open it mentions in a comment below.
            opening = self._news(OPENED)
            mentioned = {faction: True for faction in due} if event == OPENED else {}
            if self.dry_run:
                answer = channels.Answer(True, "dry run", {"number": 0})
            else:
                answer = self.github.open_issue(
                    messages.issue_title(opening), messages.github(opening, mentioned)
                )
            if not answer.ok or not isinstance(answer.data, dict) or "number" not in answer.data:
                for faction in due or [""]:
                    self._record(event, faction, GITHUB, False, f"opening the turn's issue: {answer.outcome}")
                return
            number = int(answer.data["number"])
            self.report.lines.append(f"turn {f.turn}: opened the tracking issue #{number}")
            if not self.dry_run:
                self.ledger.remember_issue(f.turn, number)
                self._close_previous()
            if event == OPENED:
                for faction in due:
                    self._record(event, faction, GITHUB, True, f"issue #{number}")
                return
        if not due:
            return
        mentioned = {faction: True for faction in due}
        answer = (
            channels.Answer(True, "dry run")
            if self.dry_run
            else self.github.comment(number, messages.github(news, mentioned))
        )
        for faction in due:
            self._record(
                event, faction, GITHUB, answer.ok, f"issue #{number}" if answer.ok else answer.outcome
            )

    def _close_previous(self) -> None:
        previous = self.ledger.issues.get(self.found.turn - 1)
        if previous is None or self.github is None:
            return
        answer = self.github.close_issue(previous)
        said = "closed" if answer.ok else f"could not be closed ({answer.outcome})"
        self.report.lines.append(f"turn {self.found.turn - 1}: the tracking issue #{previous} {said}")


def run(
    root: Path,
    now: datetime,
    opened_at: datetime,
    *,
    remind: bool,
    dry_run: bool = False,
    environ: Mapping[str, str] | None = None,
) -> Report:
    """One run of ``campaign notify`` (``remind`` False) or ``campaign remind``."""
    environ = os.environ if environ is None else environ
    found = situation(root, now, opened_at)
    urls = webhook_urls(environ.get(WEBHOOKS_SECRET))
    away = tuple(player.name for player in found.away)
    # Said in the run's log (the Actions log), never sent: who was left alone, and why.
    muted = f" (away, as declared, and not reminded: {', '.join(away)})" if away else ""
    if remind and found.paused:
        return Report([f"turn {found.turn}: the GM has paused the campaign; no reminder until it resumes"])
    event = OPENED
    if remind:
        reminder = reminder_due(found.settings, found.deadline, now)
        if reminder and not found.owing:
            everyone = messages.all_in(messages.News("", found.turn, reminder, now, None, "", (), away=away))
            return Report([f"turn {found.turn}, {reminder}: {everyone}; no reminder{muted}"])
        event = reminder or OPENED
    if found.deadline is not None and now >= found.deadline and event == OPENED and remind:
        return Report(
            [f"turn {found.turn}: the deadline has passed; nothing to send until the turn is resolved"]
        )
    return Run(root, found, github=github_from_environment(environ), urls=urls, dry_run=dry_run).send(event)
