"""When a turn is due: deadlines, grace, pause and extension, the circuit breaker.

Everything here is a pure function of the settings in ``campaign/campaign.yaml``, the moment the turn
began and a ``now`` handed in by the caller. The command line passes the wall clock; tests pass any
moment they like. The resolver core never reads a clock.

The settings, as ``campaign new`` writes them::

    schedule:
      deadline: {weekday: friday, time: "18:00"}   # or {days_after_resolution: 7}
      time_zone: Europe/Paris                      # optional (UTC): the zone of the weekday and time
      grace_hours: 1                               # late orders are still taken for this long
      paused: false                                # true: nothing resolves until the GM unpauses
      extend: {turn: 0, hours: 0}                  # more time for one turn only
      wait_for_gm: false                           # true: an early turn waits for orders/gm.yaml
    absent_players: {policy: hold, eliminate_after: 3}
    absences: {policy: hold, pause_at: 2, pause_hours: 168}   # factions away by declaration
    circuit_breaker: {max_missing_share: 0.5}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..core.issues import CampaignError
from ..core.orders import GM
from ..engine.absence import PAUSE, AbsentPolicy, AwayPolicy

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WHERE = "campaign/campaign.yaml"
NO_GM_ORDERS = (
    "no GM orders (orders/gm.yaml) are merged, so a GM pull request still open waits for the next turn "
    "(schedule.wait_for_gm: true in campaign/campaign.yaml holds an early turn for them)"
)


def default_settings() -> dict[str, Any]:
    """What ``campaign new`` writes: a weekly Friday deadline, an hour's grace, absent factions hold,
    and no automatic resolution while more than half the factions are silent."""
    return {
        "schedule": {
            "deadline": {"weekday": "friday", "time": "18:00"},
            "grace_hours": 1,
            "paused": False,
            "extend": {"turn": 0, "hours": 0},
            "wait_for_gm": False,
        },
        "absent_players": AbsentPolicy().to_data(),
        "circuit_breaker": {"max_missing_share": 0.5},
    }


@dataclass(frozen=True)
class Schedule:
    weekday: int | None = 4  # 0 is Monday; None when the deadline counts days from the last resolution
    at: time = time(18, 0)
    days: int | None = None
    grace: timedelta = timedelta(hours=1)
    paused: bool = False
    extend_turn: int = 0
    extend: timedelta = timedelta(0)
    wait_for_gm: bool = False  # a turn all factions have sent waits for orders/gm.yaml until the deadline
    # The zone the weekday and time are read in: "Friday 18:00" in Europe/Paris stays 18:00 in Paris
    # through daylight saving time, so its moment in UTC moves by an hour twice a year.
    zone: tzinfo = UTC

    @property
    def zone_name(self) -> str:
        return "UTC" if self.zone is UTC else str(self.zone)

    def describe(self) -> str:
        if self.weekday is not None:
            when = f"every {WEEKDAYS[self.weekday].capitalize()} at {self.at:%H:%M} {self.zone_name}"
        else:
            when = f"{self.days} day(s) after the previous turn was resolved"
        return f"{when}, then {hours(self.grace)} of grace"


@dataclass(frozen=True)
class Settings:
    schedule: Schedule = field(default_factory=Schedule)
    absent: AbsentPolicy = field(default_factory=AbsentPolicy)
    max_missing_share: float = 0.5
    away: AwayPolicy = field(default_factory=AwayPolicy)

    @classmethod
    def from_config(cls, config: Mapping[str, Any], where: str = WHERE) -> Settings:
        """Read and check the settings; a missing section takes its default, a wrong one is refused."""
        return cls(
            schedule=_schedule(config.get("schedule"), where),
            absent=AbsentPolicy.from_data(config.get("absent_players"), where),
            max_missing_share=_breaker(config.get("circuit_breaker"), where),
            away=AwayPolicy.from_data(config.get("absences"), where),
        )


def _mapping(value: Any, name: str, where: str, keys: Iterable[str]) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise CampaignError(f"{where}: '{name}' must be a mapping", f"its keys are: {', '.join(keys)}")
    unknown = sorted(str(k) for k in set(value) - set(keys))
    if unknown:
        raise CampaignError(
            f"{where}: unknown key(s) under '{name}': {', '.join(unknown)}",
            f"the keys are: {', '.join(keys)}",
        )
    return value


def _number(value: Any, name: str, where: str, *, minimum: float = 0) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < minimum:
        raise CampaignError(f"{where}: '{name}' must be a number of at least {minimum:g}, not {value!r}")
    return float(value)


def _schedule(data: Any, where: str) -> Schedule:
    data = _mapping(
        data, "schedule", where, ("deadline", "time_zone", "grace_hours", "paused", "extend", "wait_for_gm")
    )
    deadline = _mapping(
        data.get("deadline"), "schedule.deadline", where, ("weekday", "time", "days_after_resolution")
    )
    weekday: int | None = WEEKDAYS.index("friday")
    days: int | None = None
    if "days_after_resolution" in deadline:
        if "weekday" in deadline or "time" in deadline:
            raise CampaignError(
                f"{where}: 'schedule.deadline' takes either weekday and time, or days_after_resolution",
                "keep one of the two",
            )
        days = int(_number(deadline["days_after_resolution"], "days_after_resolution", where))
        weekday = None
    elif "weekday" in deadline:
        name = str(deadline["weekday"]).lower()
        if name not in WEEKDAYS:
            raise CampaignError(
                f"{where}: unknown weekday {deadline['weekday']!r}", f"choose one of: {', '.join(WEEKDAYS)}"
            )
        weekday = WEEKDAYS.index(name)
    at = _time(deadline.get("time", "18:00"), where)
    paused, wait_for_gm = data.get("paused", False), data.get("wait_for_gm", False)
    for name, value in (("paused", paused), ("wait_for_gm", wait_for_gm)):
        if not isinstance(value, bool):
            raise CampaignError(f"{where}: 'schedule.{name}' must be true or false", f"write {name}: true")
    extend = _mapping(data.get("extend"), "schedule.extend", where, ("turn", "hours"))
    extend_turn = int(_number(extend.get("turn", 0), "schedule.extend.turn", where))
    return Schedule(
        weekday=weekday,
        at=at,
        days=days,
        grace=timedelta(hours=_number(data.get("grace_hours", 1), "schedule.grace_hours", where)),
        paused=paused,
        extend_turn=extend_turn,
        extend=timedelta(hours=_number(extend.get("hours", 0), "schedule.extend.hours", where)),
        wait_for_gm=wait_for_gm,
        zone=_zone(data.get("time_zone", "UTC"), where),
    )


def _zone(value: Any, where: str) -> tzinfo:
    """An IANA time zone name (Europe/Paris, America/New_York), or UTC."""
    fix = "write an IANA time zone name such as Europe/Paris, America/New_York or UTC"
    if not isinstance(value, str) or not value.strip():
        raise CampaignError(f"{where}: 'schedule.time_zone' must be a time zone name, not {value!r}", fix)
    if value.strip().upper() in ("UTC", "Z", "ETC/UTC"):
        return UTC
    try:
        return ZoneInfo(value.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise CampaignError(f"{where}: unknown time zone {value!r} in 'schedule.time_zone'", fix) from None


def _time(value: Any, where: str) -> time:
    # Unquoted 18:00 is a base-60 number to YAML 1.1; say so instead of guessing what was meant.
    match = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", value) if isinstance(value, str) else None
    if not match:
        raise CampaignError(
            f"{where}: 'schedule.deadline.time' must be a time such as \"18:00\", not {value!r}",
            'put the time in quotes: time: "18:00"',
        )
    return time(int(match.group(1)), int(match.group(2)))


def _breaker(data: Any, where: str) -> float:
    data = _mapping(data, "circuit_breaker", where, ("max_missing_share",))
    share = _number(data.get("max_missing_share", 0.5), "circuit_breaker.max_missing_share", where)
    if share > 1:
        raise CampaignError(
            f"{where}: 'circuit_breaker.max_missing_share' is a share between 0 and 1, not {share:g}",
            "for example 0.5: refuse when more than half the factions have no orders",
        )
    return share


# -- due-ness ----------------------------------------------------------------------------------------


def deadline(schedule: Schedule, turn: int, opened_at: datetime) -> datetime:
    """The deadline players are told for the turn that began at ``opened_at``, extension included, in
    UTC. The weekday, the time and a number of days are counted on the campaign's own clock
    (``schedule.time_zone``): seven days after a resolution at 20:00 in Paris is 20:00 in Paris, daylight
    saving time or not. On the night a clock jumps forward, a time it skips falls an hour later."""
    local = opened_at.astimezone(schedule.zone)
    if schedule.weekday is None:
        base = local + timedelta(days=schedule.days or 0)  # wall-clock days in the zone
    else:
        # The first such weekday and time strictly after the turn began.
        day = local.date() + timedelta(days=(schedule.weekday - local.weekday()) % 7)
        base = datetime.combine(day, schedule.at, tzinfo=schedule.zone)
        if base.astimezone(UTC) <= opened_at.astimezone(UTC):
            base = datetime.combine(day + timedelta(days=7), schedule.at, tzinfo=schedule.zone)
    # A time the clock skipped (fold 0) is read with the offset before the jump: an hour later.
    base = base.astimezone(UTC)
    if schedule.extend_turn == turn:
        base += schedule.extend
    return base


def paused_for_absences(settings: Settings, away: Iterable[str]) -> timedelta:
    """How far the deadline moves back because factions are away: ``pause_hours`` when the campaign
    pauses for absences and ``pause_at`` or more factions are away at once, else nothing."""
    policy = settings.away
    if policy.policy != PAUSE or len(set(away)) < policy.pause_at:
        return timedelta(0)
    return timedelta(hours=policy.pause_hours)


@dataclass(frozen=True)
class Due:
    due: bool
    reason: str
    deadline: datetime | None = None
    resolves_after: datetime | None = None
    missing: tuple[str, ...] = ()


def due(
    settings: Settings,
    turn: int,
    opened_at: datetime,
    now: datetime,
    active: Iterable[str],
    submitted: Iterable[str],
    away: Iterable[str] = (),
) -> Due:
    """Whether the turn should be resolved at ``now``, and why (or why not) in a sentence. ``away``: the
    factions declared away for the turn. The turn does not wait for them, unless the campaign pauses for
    absences and enough are away: then the deadline moves back and the turn waits for everyone."""
    active = list(active)
    away = sorted(set(away) & set(active) - set(submitted))
    pause = paused_for_absences(settings, away)
    awaited = active if pause else [f for f in active if f not in away]
    decision = _judge(settings, turn, opened_at, now, active, awaited, set(submitted), pause)
    if not away or settings.schedule.paused or not active:
        return decision
    if pause:
        note = f"; the deadline moved back {hours(pause)} because {', '.join(away)} are away"
    else:
        note = f"; away by declaration, not waited for: {', '.join(away)}"
    return replace(decision, reason=decision.reason + note)


def _judge(
    settings: Settings,
    turn: int,
    opened_at: datetime,
    now: datetime,
    active: list[str],
    awaited: list[str],
    sent: set[str],
    pause: timedelta,
) -> Due:
    missing = tuple(f for f in awaited if f not in sent)
    if settings.schedule.paused:
        return Due(False, "the campaign is paused by the GM (schedule.paused in campaign/campaign.yaml)")
    if not active:
        return Due(False, "no faction is active any more: the campaign is over")
    when = deadline(settings.schedule, turn, opened_at) + pause
    after = when + settings.schedule.grace
    if not missing:
        if GM in sent:
            return Due(True, f"every active faction and the GM have sent orders for turn {turn}", when, after)
        if not settings.schedule.wait_for_gm:
            # CI sees the branch, not pull requests: a GM file still under review is left for next turn.
            return Due(
                True, f"every active faction has sent orders for turn {turn}; {NO_GM_ORDERS}", when, after
            )
        if now < after:
            return Due(
                False,
                f"turn {turn} is not due: every active faction has sent orders, but the GM's "
                "orders/gm.yaml is not merged yet and schedule.wait_for_gm is on; the turn resolves as soon "
                f"as it is merged, or after {stamp(after)} (in {span(after - now)})",
                when,
                after,
            )
        return Due(True, f"the deadline {stamp(when)} and its grace have passed; {NO_GM_ORDERS}", when, after)
    waiting = f"no orders yet from {', '.join(missing)}"
    if now >= after:
        return Due(
            True, f"the deadline {stamp(when)} and its grace have passed; {waiting}", when, after, missing
        )
    return Due(
        False,
        f"turn {turn} is not due: {waiting}; deadline {stamp(when)}, resolved after {stamp(after)} "
        f"(in {span(after - now)}) or as soon as every active faction has sent orders",
        when,
        after,
        missing,
    )


def breaker_trips(settings: Settings, active: int, missing: int) -> bool:
    """True when more than the allowed share of active factions sent no orders."""
    return active > 0 and missing / active > settings.max_missing_share


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%a %Y-%m-%d %H:%M UTC")


def hours(delta: timedelta) -> str:
    total = delta.total_seconds() / 3600
    return f"{total:g} hour{'s' if total != 1 else ''}"


def span(delta: timedelta) -> str:
    minutes = max(0, int(delta.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hrs, mins = divmod(rest, 60)
    parts = [f"{days}d"] if days else []
    if hrs or days:
        parts.append(f"{hrs}h")
    parts.append(f"{mins}m")
    return " ".join(parts)


def parse_moment(text: str) -> datetime:
    """An ISO 8601 moment for ``--now``; without a zone it is taken as UTC."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise CampaignError(
            f"'{text}' is not a date and time", "write it as ISO 8601, e.g. 2026-03-06T18:30Z", code=2
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
