"""The words of turn news and reminders, one rendering for each channel.

A deadline is written so that each reader sees it on their own clock: Discord and Slack render a
timestamp markup in the reader's zone themselves; on GitHub and Matrix, which cannot, the text gives the
time in UTC and in the zone the player chose in players.yaml. Nothing here reads a clock: the moment is
handed in, so the same inputs give the same words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from ..core.words import plural
from ..engine.absence import STAND_IN
from ..store.schedule import hours, span, stamp
from .settings import Preference


@dataclass(frozen=True)
class News:
    """One event to tell: a turn that opened, or a reminder ``lead`` hours before the deadline."""

    title: str
    turn: int
    event: str  # "opened" or "reminder 24h"
    now: datetime
    deadline: datetime | None  # None while the GM has paused the campaign
    site_url: str
    owing: tuple[Preference, ...]  # whose orders are not on the branch, in the campaign's order
    away: tuple[str, ...] = ()  # the names of the factions declared away, which owe nothing
    away_policy: str = "hold"  # what becomes of their forces: hold, stand_in or pause
    moved: timedelta = timedelta(0)  # how far the absences moved the deadline back
    paused: bool = False  # the GM has paused the campaign: there is no deadline

    @property
    def chronicle(self) -> str:
        """Where to read what happened: the last resolved turn's chronicle page, or the site's home."""
        if not self.site_url:
            return ""
        if self.turn > 1:
            return f"{self.site_url}/chronicle/turn-{self.turn - 1}/"
        return f"{self.site_url}/"


def local_words(moment: datetime, zone: str) -> str:
    """``Friday 6 March 2026, 19:00 CET``: the moment on a player's own clock."""
    local = moment.astimezone(ZoneInfo(zone))
    return f"{local:%A} {local.day} {local:%B %Y, %H:%M} {local.tzname()}"


def plain_deadline(news: News, reader: Preference | None) -> str:
    """For GitHub and Matrix: UTC, and the reader's own zone when they chose one."""
    if news.deadline is None:
        return "not set: the GM has paused the campaign"
    text = stamp(news.deadline)
    if reader is not None and reader.zone != "UTC":
        text += f" ({local_words(news.deadline, reader.zone)} for {reader.name})"
    return text


def discord_deadline(news: News) -> str:
    if news.deadline is None:
        return "not set: the GM has paused the campaign"
    unix = int(news.deadline.timestamp())
    return f"<t:{unix}:F> (<t:{unix}:R>)"


def slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack_deadline(news: News) -> str:
    if news.deadline is None:
        return "not set: the GM has paused the campaign"
    unix = int(news.deadline.timestamp())
    return f"<!date^{unix}^{{date_long_pretty}} at {{time}}|{stamp(news.deadline)}>"


def time_left(news: News) -> str:
    return "" if news.deadline is None else f", in {span(news.deadline - news.now)}"


def all_in(news: News) -> str:
    """What is true when nobody owes orders: those away have none to send."""
    if news.away:
        return "every faction that is not away has sent its orders"
    return "every faction's orders are in"


def names(news: News) -> str:
    return ", ".join(p.name for p in news.owing) if news.owing else f"nobody: {all_in(news)}"


def away_words(news: News) -> str:
    """Who is away, by name, and what becomes of their forces: what the site's home page says too, so
    nothing here is news to anyone (in a sealed campaign as well: absences are published there)."""
    if not news.away:
        return ""
    fate = "the ruleset's bot plays for them" if news.away_policy == STAND_IN else "their forces hold"
    return f"Away, as declared: {', '.join(news.away)}. They owe no orders and are not reminded; {fate}."


def moved_words(news: News) -> str:
    """Why the deadline is later than the schedule says (the ``pause`` policy for absences)."""
    if not news.moved:
        return ""
    return (
        f"The deadline moved back {hours(news.moved)} because {plural(len(news.away), 'faction')} "
        f"{'is' if len(news.away) == 1 else 'are'} away (the campaign pauses for absences)."
    )


PAUSED = "The deadline is paused: the GM has paused the campaign, and no reminder goes out until it resumes."


def headline(news: News) -> str:
    if news.event == "opened":
        return f"{news.title}: turn {news.turn} is open"
    return f"{news.title}: turn {news.turn} reminder"


def body(news: News, deadline: str, *, reader: Preference | None = None) -> str:
    """The plain sentences every rendering shares; ``deadline`` is already in the channel's markup."""
    lines = []
    if news.event == "opened":
        where = f": {news.chronicle}" if news.chronicle else " on the campaign's site"
        if news.turn > 1:
            lines.append(f"Turn {news.turn - 1} is resolved; read what happened in the chronicle{where}.")
        elif news.chronicle:
            lines.append(f"The campaign's site: {news.chronicle}")
        lines.append(PAUSED if news.paused else f"Orders for turn {news.turn} are due by {deadline}.")
    elif reader is not None:
        lines.append(
            f"The orders of {reader.name} for turn {news.turn} are not on the main branch yet. "
            f"The deadline is {deadline}{time_left(news)}."
        )
    else:
        lines.append(f"The deadline of turn {news.turn} is {deadline}{time_left(news)}.")
    lines += [words for words in (moved_words(news),) if words]
    if reader is None:
        lines += [words for words in (away_words(news),) if words]
        lines.append(f"Orders awaited from: {names(news)}.")  # the last line: github() lists them instead
    return "\n".join(lines)


# -- the renderings ------------------------------------------------------------------------------------


def discord(news: News, reader: Preference | None, mention: str) -> dict[str, object]:
    ping = f"<@{mention}> " if mention else ""
    text = f"{ping}**{headline(news)}**\n{body(news, discord_deadline(news), reader=reader)}"
    # Only the player named may be pinged: a faction name holding "@everyone" stays text.
    return {"content": text[:2000], "allowed_mentions": {"parse": [], "users": [mention] if mention else []}}


def slack(news: News, reader: Preference | None, mention: str) -> dict[str, object]:
    ping = f"<@{mention}> " if mention else ""
    text = body(news, slack_deadline(news), reader=reader)
    parts = text.split(slack_deadline(news)) if news.deadline is not None else [text]
    escaped = slack_deadline(news).join(slack_escape(part) for part in parts)
    return {"text": f"{ping}*{slack_escape(headline(news))}*\n{escaped}"}


def matrix(news: News, reader: Preference | None, mention: str) -> dict[str, object]:
    ping = f"{mention}: " if mention else ""
    return {"text": f"{ping}{headline(news)}\n{body(news, plain_deadline(news, reader), reader=reader)}"}


def github_mentions(news: News, mentioned: dict[str, bool]) -> list[str]:
    """One line per faction that owes orders: its players @mentioned where ``mentioned`` says so (else
    named only: quiet hours, or no GitHub wish), with the deadline on their own clock."""
    lines = []
    for player in news.owing:
        who = " ".join(f"@{login}" for login in player.logins) if mentioned.get(player.faction) else ""
        local = (
            f": {local_words(news.deadline, player.zone)} on your clock"
            if news.deadline is not None and player.zone != "UTC"
            else ""
        )
        lines.append(f"- {player.name}{' ' + who if who else ''}{local}")
    return lines


def github(news: News, mentioned: dict[str, bool]) -> str:
    """The tracking issue's body for ``opened``, a comment on it for a reminder."""
    first = body(news, plain_deadline(news, None), reader=None).splitlines()
    text = [f"**{headline(news)}**", "", *first[:-1], ""]
    if news.owing:
        text += [
            f"Orders awaited from {plural(len(news.owing), 'faction')}:",
            *github_mentions(news, mentioned),
        ]
    else:
        text.append(f"{all_in(news)[0].upper()}{all_in(news)[1:]}.")
    text += ["", f"<!-- campaign-kit:notify turn={news.turn} event={news.event.replace(' ', '-')} -->"]
    return "\n".join(text) + "\n"


def issue_title(news: News) -> str:
    due = f"orders due {stamp(news.deadline)}" if news.deadline is not None else "deadline paused"
    return f"Turn {news.turn}: {due}"
