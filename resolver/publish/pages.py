"""Every generated page of the campaign site, as files for ``site/`` (the MkDocs docs_dir).

Pages are Markdown rendered from the Jinja2 templates in ``templates/site/`` (a campaign
may override any of them in its own ``templates/site/``). Links between pages are
Markdown links to source files, which MkDocs checks and rewrites; only iframes and
images inside HTML blocks need URLs, computed here from the page's output URL.
"""

from __future__ import annotations

import datetime as dt
import functools
import html
import json
import posixpath
import re
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..core import factions as faction_records
from ..core import fog, relations
from ..core.absences import GM_DECLARED, Absence
from ..core.events import GM_PHASE
from ..core.fields import kind_words
from ..core.issues import CampaignError
from ..core.phases import Block
from ..core.rulesdoc import RulesSection, RulesTable, filled_notes, flatten, words
from ..core.stillness import holding_still
from ..core.yamlsafe import MAX_BYTES
from ..engine.gm import actions as gm_actions
from ..engine.ruleset import compiled_template_folder
from ..engine.steps import turn_table
from ..engine.validate import check_order_file
from ..store import schedule, sealing
from ..store.absences import Declared, turns_away
from ..store.absences import declared as declared_absences
from ..store.handover import first_turns, stints
from ..store.punctuality import Arrival, summarise
from ..store.store import ENGINE_TEMPLATES, Store
from . import plots, text
from .headlines import headlines
from .history import History, TurnRecord
from .layout import ASSETS, FEED
from .maps import leaflet_files, world_map_html
from .turntable import turn_sequence_markdown

ORDERS_FORM = "orders-form.js"  # the faction pages' "Send orders" form (see send_orders_form)
ON_DEMAND = "on-demand.js"  # loads the search index and the maps only when the reader wants them
MAP_PAGE = "map/world.html"
SITE_TEMPLATES = ENGINE_TEMPLATES / "site"
EPOCH = dt.date(2000, 1, 1)  # the feed and the sitemap need calendar dates: turn N is EPOCH + N - 1 days
MARKER = "<!-- Written by `campaign site`: edit site/welcome.md or templates/site/, not this file. -->"
MAX_NAV_CHILDREN = 12  # more siblings than this in one navigation section get grouped
LATEST_ISSUES = 10  # the newspaper's front page shows this many issues, newest first


MISSING = "missing"  # the chronicle's section for the factions whose orders did not arrive
AWAY_EVENT = "orders_away"  # the event of the factions away by declaration, told in that section too


# What a faction's forces did while it was away, by the policy in force (a faction page's "Was away").
AWAY_POLICY_WORDS = {
    "hold": "its forces held",
    "pause": "its forces held",
    "stand_in": "the bot played in its place",
}


def spans_of(turns: Iterable[tuple[int, str]]) -> list[tuple[Absence, str]]:
    """Turns away as spans of consecutive turns under one policy: [(2, hold), (3, hold)] -> turns 2 to 3."""
    spans: list[tuple[Absence, str]] = []
    for turn, policy in sorted(turns):
        if spans and spans[-1][0].last == turn - 1 and spans[-1][1] == policy:
            spans[-1] = (Absence(spans[-1][0].first, turn), policy)
        else:
            spans.append((Absence(turn, turn), policy))
    return spans


def section_of(event: Mapping[str, Any], headings: Mapping[str, str] | None = None) -> str:
    """The chronicle section an event is told in: its phase's, except that the factions whose orders did
    not arrive (told as the GM's phase begins, before any ruling) are not listed among the GM's rulings,
    and that a kind the ruleset gives a heading of its own (``headings``) is told under that heading."""
    if headings and event.get("kind") in headings:
        return f"kind:{event['kind']}"
    phase = str(event.get("phase") or "")
    if phase == GM_PHASE and not str(event["kind"]).startswith("gm_"):
        return MISSING
    return phase


def tick_of(
    events: Iterable[Mapping[str, Any]], tick_names: Mapping[str, str]
) -> Callable[[Mapping[str, Any]], int]:
    """Which tick of the turn's clock the chronicle tells an event under: its own (a day of the month),
    when the turn's public events of the repeated block fall on more than one tick, so that a month reads
    day by day; otherwise 0, and the turn is told by phase as a turn without ticks always was. An event
    outside the block (before the first day, after the last) is 0 too."""

    def ticked(event: Mapping[str, Any]) -> int:
        tick = event.get("tick")
        return int(tick) if tick and str(event.get("phase") or "") in tick_names else 0

    several = len({ticked(e) for e in events} - {0}) > 1
    return ticked if several else lambda event: 0


def turn_date(turn: int) -> dt.date:
    """The stand-in calendar date of a turn (its feed entry, the sitemap): fixed by the turn number, never
    the clock."""
    return EPOCH + dt.timedelta(days=max(turn, 1) - 1)


def page_url(src: str) -> str:
    """The output URL (directory style) of a Markdown source path, relative to the site root."""
    if src.endswith("index.md"):
        return src[: -len("index.md")]
    return src[: -len(".md")] + "/"


def rel_url(from_url: str, target: str) -> str:
    return relative_path(target, from_url)


def relative_path(target: str, start: str) -> str:
    """``posixpath.relpath(target, start or ".")`` for the site's own paths, relative to its root: the same
    answer without asking the system for the working folder twice, as relpath does, for each of the tens
    of thousands of links a long campaign's pages hold. Any other path goes to relpath."""
    if not target or target.startswith("/") or start.startswith("/") or ".." in target or ".." in start:
        return posixpath.relpath(target, start or ".")
    to, base = _path_parts(target), _path_parts(start)
    common = 0
    for one, other in zip(to, base, strict=False):
        if one != other:
            break
        common += 1
    return "/".join([".."] * (len(base) - common) + list(to[common:])) or "."


@functools.lru_cache(maxsize=4096)
def _path_parts(path: str) -> tuple[str, ...]:
    return tuple(part for part in path.split("/") if part and part != ".")


def chronicle_src(turn: int) -> str:
    return f"chronicle/turn-{turn}.md"


def issue_src(turn: int) -> str:
    return f"newspaper/turn-{turn}.md"


def issue_url(turn: int) -> str:
    return page_url(issue_src(turn))


def orders_src(turn: int) -> str:
    return f"chronicle/orders/turn-{turn}.md"


def by_faction_src(faction: str) -> str:
    return f"newspaper/factions/{faction}.md"


def place_src(slug: str) -> str:
    return f"places/{slug}.md"


def year_src(year: int) -> str:
    return f"chronicle/year-{year}/index.md"


def faction_src(faction: str) -> str:
    return f"factions/{faction}/index.md"


# The most words one paragraph of the chronicle holds (about six lines on a phone): a faction's many deeds
# in a row (a Diplomacy power's every order) go on in a new paragraph rather than a wall of text.
PARAGRAPH_WORDS = 45


def _words(sentences: list[str], more: str) -> int:
    return sum(len(sentence.split()) for sentence in sentences) + len(more.split())


@dataclass
class Nav:
    """The navigation tree, as MkDocs' ``nav`` setting."""

    chronicle: list[Any] = field(default_factory=list)
    factions: list[Any] = field(default_factory=list)
    rules: list[Any] = field(default_factory=lambda: ["rules/index.md"])  # and a page a chapter, if any


class SitePages:
    def __init__(
        self,
        store: Store,
        history: History,
        welcome: str,
        address: str = "",
        opened_at: OpenedAt | None = None,
        on_time: Mapping[str, list[Arrival]] | None = None,
    ) -> None:
        self.store = store
        self.opened_at = opened_at  # when a turn began (git's history), to date its deadline
        self.on_time = on_time  # each faction's on-time record (git's history); None: no history to read
        # The published site's address: the GM's mkdocs.yml may set it (it wins over campaign.yaml's).
        self.address = address or site_url(history.config)
        self.history = history
        self.game = history.game
        self.welcome = welcome
        self.files: dict[str, bytes] = {}
        self.nav = Nav()
        search = [str(p) for p in (store.root / "templates" / "site", SITE_TEMPLATES) if p.is_dir()]
        # The site's 29 templates are compiled once and kept in the read cache, not in every build
        # (Jinja2 checks each kept entry against its template's source, so an edited one is compiled again).
        kept = compiled_template_folder("site-templates")
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(search),
            bytecode_cache=jinja2.FileSystemBytecodeCache(str(kept)) if kept else None,
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            finalize=text.finalize,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        self.env.filters.update(
            h=text.h,
            md=text.md,
            keys_as_code=text.keys_as_code,
            data_cell=text.data_cell,
            para=text.para,
            article=text.article,
            plural=text.plural,
            noun_plural=text.noun_plural,
            sentences=text.sentences,
        )
        self._headlines: dict[int, list[str]] = {}
        self.numeric = self._numeric_columns()

    # -- helpers ----------------------------------------------------------------------------------------

    def render(self, template: str, src: str, **context: Any) -> None:
        here = posixpath.dirname(src)
        url = page_url(src)
        common = {
            "game": self.game,
            "history": self.history,
            # Paths are made here from ids, never from player text: they are printed as they are.
            "link": lambda target: Markup(relative_path(target, here)),
            "url": lambda target: text.h(rel_url(url, target)),
            "name": self.game.name_of,
            "swatch": self.swatch,
            "date_of": self.date_label,
        }
        body = self.env.get_template(template).render(**common, **context)
        self.files[src] = _tidy(body).encode()

    def swatch(self, faction: str | None) -> Markup:
        color = self.history.colors.get(faction or "", "#6f6a64")
        return Markup(f'<span class="ck-swatch" style="background:{color}" aria-hidden="true"></span>')

    def date_label(self, turn: int) -> str:
        return self.game.calendar.date(turn).label if turn > 0 else "the start"

    def headlines_of(self, rec: TurnRecord) -> list[str]:
        if rec.turn not in self._headlines:
            found = headlines(self.game, rec.events, rec.turn)
            # Without news the headline names the turn; its date is printed beside it already. A sealed
            # campaign tells the public only what was seen in public: a month of private battles is not
            # "quiet", so its page says no more than that no news reached the public.
            quiet = f"No news reached the public in turn {rec.turn}" if self.history.sealed else None
            self._headlines[rec.turn] = found or [quiet or f"All quiet in turn {rec.turn}"]
        return self._headlines[rec.turn]

    def _numeric_columns(self) -> list[str]:
        rows = self.history.last.standings or self.history.start.standings
        if not rows:
            return []
        return [
            k
            for k, v in rows[0].items()
            if k != "faction" and isinstance(v, int | float) and not isinstance(v, bool)
        ]

    # -- all pages ----------------------------------------------------------------------------------------

    def build(self) -> dict[str, bytes]:
        self.assets()
        self.chronicle()
        self.orders()
        self.newspaper()
        self.world_map()
        self.places()
        self.factions()
        self.rules()
        self.play()
        self.home()
        self.feed()
        return self.files

    def assets(self) -> None:
        for name in ("campaign.css", "campaign.js", "campaign-map.css", "campaign-map.js", ON_DEMAND):
            self.files[f"{ASSETS}/{name}"] = self._asset(name)
        for name, data in leaflet_files().items():
            self.files[f"{ASSETS}/vendor/leaflet/{name}"] = data
        # The "Send orders" form of the faction pages; age (age.js and the licences of what it bundles) only
        # where the form seals the orders, in a sealed campaign.
        self.files[f"{ASSETS}/{ORDERS_FORM}"] = self._asset(ORDERS_FORM)
        for path in sorted((SITE_TEMPLATES / "assets" / "vendor" / "form").iterdir()):
            if self.history.sealed or path.name not in SEALING_ONLY:
                self.files[f"{ASSETS}/vendor/form/{path.name}"] = path.read_bytes()

    def _asset(self, name: str) -> bytes:
        own = self.store.root / "templates" / "site" / "assets" / name
        return (own if own.is_file() else SITE_TEMPLATES / "assets" / name).read_bytes()

    def home(self) -> None:
        last = self.history.last
        current = self.history.current_turn
        deadline, deadline_at = deadline_of(self.history.config, current, self.opened_at, self._away_now)
        self.render(
            "home.md.j2",
            "index.md",
            welcome=Markup(self.welcome),  # the GM's own Markdown, printed as written
            current=current,
            current_date=self.game.calendar.date(current).label if current > 0 else "",
            deadline=deadline,
            deadline_at=deadline_at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if deadline_at else "",
            deadline_rule={} if deadline_at else deadline_rule(self.history.config),
            sent=self.orders_sent(),
            players=[f for f in self.game.factions if not faction_records.is_npc(self.history.state, f)],
            repository=repository_links(self.history.config),
            standings=self.standings_rows(self.history.standings()),
            columns=self.numeric,
            last=last,
            headlines=self.headlines_of(last) if last.turn else [],
            issue=issue_src(last.turn) if last.turn else None,
            map_src=MAP_PAGE,
        )
        # Mark the page as generated, so an old hand-written index.md is told apart (site.adopt_legacy_index).
        head, sep, rest = self.files["index.md"].decode().partition("\n---\n")
        self.files["index.md"] = f"{head}{sep}{MARKER}\n{rest}".encode()

    def orders_sent(self) -> list[dict[str, Any]]:
        """Each faction a turn waits for (active, played by a person: the bot writes an NPC faction's orders)
        and whether its order file for the current turn is in orders/ now: read when the site is built (a
        file for another turn, or another faction's, does not count)."""
        state, current = self.history.state, self.history.current_turn
        # A sealed file cannot be read here, and a plain one in a sealed campaign is a draft nobody sent. The
        # resolution removes every sealed file, so those in orders/ are this turn's; a name says whose.
        sealed = self.store.sealed_order_paths() if self.history.sealed else []
        sent = {path.name.split(".")[0] for path in sealed}
        with holding_still(state):  # as in Store.check: lookups shared by every file, not a scan per file
            for path in [] if self.history.sealed else self.store.order_paths():
                try:
                    of = check_order_file(self.game, state, path.read_bytes(), self.store.display(path))
                except CampaignError:
                    continue
                if of.turn == current and of.faction in self.game.factions and path.stem == of.faction:
                    sent.add(of.faction)
        away = set(self._away_now)
        return [
            {"faction": f, "sent": f in sent, "away": f in away}
            for f in faction_records.awaited(state, self.game.factions)
        ]

    def standings_rows(self, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [{**row, "name": self.game.name_of(row["faction"])} for row in rows]

    # -- chronicle ----------------------------------------------------------------------------------------

    def chronicle(self) -> None:
        turns = self.history.turns
        cal = self.game.calendar
        years: dict[int, list[TurnRecord]] = {}
        for rec in turns:
            years.setdefault(cal.date(rec.turn).year, []).append(rec)
        for i, rec in enumerate(turns):
            self.chronicle_turn(
                rec, turns[i - 1] if i else None, turns[i + 1] if i + 1 < len(turns) else None
            )
        for year, recs in years.items():
            self.render(
                "chronicle-year.md.j2",
                year_src(year),
                year=year,
                year_label=f"{cal.year_name} {year}",
                groups=self._period_groups(recs),
                chronicle_src=chronicle_src,
                headlines=self.headlines_of,
            )
        self.render(
            "chronicle-index.md.j2",
            "chronicle/index.md",
            years=[(y, f"{cal.year_name} {y}", recs) for y, recs in years.items()],
            year_src=year_src,
            chronicle_src=chronicle_src,
            short_label=self.short_label,
            headlines=self.headlines_of,
        )
        self.nav.chronicle = ["chronicle/index.md", *self._chronicle_nav(years)]

    def short_label(self, turn: int) -> str:
        d = self.game.calendar.date(turn)
        return d.period if d.step is None else f"{self.game.calendar.step_name} {d.step}, {d.period}"

    def _period_groups(self, recs: list[TurnRecord]) -> list[tuple[str, list[TurnRecord]]]:
        groups: dict[str, list[TurnRecord]] = {}
        for rec in recs:
            groups.setdefault(self.game.calendar.date(rec.turn).period, []).append(rec)
        return list(groups.items())

    def _chronicle_nav(self, years: Mapping[int, list[TurnRecord]]) -> list[Any]:
        cal = self.game.calendar

        def year_entry(year: int, recs: list[TurnRecord]) -> dict[str, Any]:
            children: list[Any] = [year_src(year)]
            if len(recs) > MAX_NAV_CHILDREN:  # many turns a year (weekly turns): one level per period
                for period, group in self._period_groups(recs):
                    children.append(
                        {period: [{self.nav_label(r.turn): chronicle_src(r.turn)} for r in group]}
                    )
            else:
                children += [{self.nav_label(r.turn): chronicle_src(r.turn)} for r in recs]
            return {f"{cal.year_name} {year}": children}

        return group_eras([year_entry(y, recs) for y, recs in years.items()], list(years), cal.year_name)

    def nav_label(self, turn: int) -> str:
        return f"Turn {turn} · {self.short_label(turn)}"

    def chronicle_turn(self, rec: TurnRecord, prev: TurnRecord | None, nxt: TurnRecord | None) -> None:
        self.render(
            "chronicle-turn.md.j2",
            chronicle_src(rec.turn),
            rec=rec,
            date=rec.date.label if rec.date else "",
            prev=prev,
            next=nxt,
            chronicle_src=chronicle_src,
            issue=issue_src(rec.turn),
            orders_page=orders_src(rec.turn) if rec.orders else None,
            headlines=self.headlines_of(rec),
            sections=self.prose(rec),
            press=sum(1 for e in rec.events if e["kind"] == "press"),
            rumors=sum(1 for e in rec.events if e["kind"] == "rumor"),
            map_src=MAP_PAGE,
            pieces=self.pieces_by_owner(rec),
            year_src=year_src(rec.date.year) if rec.date else None,
        )

    def prose(self, rec: TurnRecord) -> list[dict[str, Any]]:
        """The turn's public events as sections (one per phase, in turn order) of paragraphs: consecutive
        events led by the same faction make one paragraph, and events of one kind that a ruleset tells
        together make one sentence ("musters three Levies"); an event with dice, or with a story of its
        own (a battle), gets its own paragraph, with the dice in a fold. What "In brief" already says
        (a turn's interpretation, in the factions game) is not said again."""
        titles = {MISSING: "Missing orders"}
        tick_names: dict[str, str] = {}  # each phase of a repeated block -> what one tick is called ("day")
        for step in turn_table(self.game):  # a block's phases are told under their own titles
            titles.update({p.id: p.title for p in (step.phases if isinstance(step, Block) else (step,))})
            if isinstance(step, Block):
                tick_names.update({p.id: step.id for p in step.phases})
        ruleset = self.game.ruleset
        headings = ruleset.chronicle_headings
        titles.update({f"kind:{kind}": title for kind, title in headings.items()})
        in_brief = set(self.headlines_of(rec))
        groups: list[tuple[int, list[dict[str, Any]]]] = []  # (index of the first event, the events)
        for index, e in enumerate(rec.events):
            if e["kind"] in ("press", "rumor"):
                continue
            if groups and ruleset.groups_with(groups[-1][1][0], e) and index - 1 not in rec.stories:
                groups[-1][1].append(e)
                continue
            if ruleset.gathers(e["kind"]):
                # One sentence a doer for the step: the tests of its last army join those of its first.
                earlier = next(
                    (
                        g
                        for g in reversed(groups)
                        if section_of(g[1][0], headings) == section_of(e, headings)
                        and ruleset.groups_with(g[1][0], e)
                    ),
                    None,
                )
                if earlier is not None:
                    earlier[1].append(e)
                    continue
            groups.append((index, [e]))
        days = tick_of(rec.events, tick_names)
        sections: dict[tuple[int, str], list[dict[str, Any]]] = {}
        kinds: dict[tuple[int, str], set[str]] = {}  # the kinds of event each section tells
        for index, events in groups:
            first = events[0]
            sentence = ruleset.describe_group(events, self.game)
            if sentence in in_brief:
                continue
            key = (days(first), section_of(first, headings))
            paragraphs = sections.setdefault(key, [])
            kinds.setdefault(key, set()).update(str(e["kind"]) for e in events)
            lead = (first.get("actors") or [None])[0]
            story = rec.stories.get(index, [])
            # A group whose events each rolled (a nation's winter tests) shows all their dice in one box.
            rolled = {**first, "rolls": [r for e in events for r in e.get("rolls") or []]}
            alone = bool(rolled["rolls"] or story)
            full = bool(paragraphs) and _words(paragraphs[-1]["sentences"], sentence) > PARAGRAPH_WORDS
            if alone or full or not paragraphs or paragraphs[-1]["lead"] != lead or paragraphs[-1]["alone"]:
                paragraphs.append(
                    {
                        "lead": lead,
                        "sentences": [sentence],
                        # A story (a battle round by round) is a list under its sentence: a hundred words in
                        # one block are a wall of text on a phone.
                        "story": story,
                        "alone": alone,
                        "dice": text.dice_summary(rolled, rec.names, ruleset.decision),
                        "rolls": text.roll_lines(rolled, rec.names, ruleset.decision),
                    }
                )
            else:
                paragraphs[-1]["sentences"].append(sentence)
        told: list[dict[str, Any]] = []
        for (tick, phase), paragraphs in sections.items():
            title = titles.get(phase, words(phase) or "Events")
            if phase == MISSING and AWAY_EVENT in kinds[(tick, phase)]:
                # A faction away by declaration sent nothing on purpose: its orders are not "missing".
                title = "Away, as declared" if kinds[(tick, phase)] == {AWAY_EVENT} else "Missing and away"
            if not tick:
                told.append({"title": title, "paragraphs": paragraphs, "level": 2})
                continue
            phases_that_day = sum(1 for day, _ in sections if day == tick)
            heading = f"{words(tick_names.get(phase, 'tick'))} {tick}"
            if not told or told[-1].get("tick") != tick:  # the day's own heading, once
                told.append(
                    {"title": heading, "paragraphs": [], "level": 2, "tick": tick}
                    if phases_that_day > 1
                    else {"title": f"{heading}: {title}", "paragraphs": paragraphs, "level": 2, "tick": tick}
                )
                if phases_that_day == 1:
                    continue
            told.append({"title": title, "paragraphs": paragraphs, "level": 3, "tick": tick})
        return told

    def pieces_by_owner(self, rec: TurnRecord) -> list[dict[str, Any]]:
        groups: dict[str | None, list[dict[str, Any]]] = {}
        for p in rec.pieces:
            groups.setdefault(p.get("owner"), []).append(p)
        order = [f for f in self.game.factions if f in groups] + ([None] if None in groups else [])
        world = self.game.world
        return [
            {
                "faction": f,
                "name": self.game.name_of(f) if f else "Unclaimed",
                "pieces": [
                    {
                        **p,
                        "where": world[p["location"]].label
                        if p.get("location") in world
                        else p.get("location"),
                    }
                    for p in groups[f]
                ],
            }
            for f in order
        ]

    # -- newspaper ----------------------------------------------------------------------------------------

    def newspaper(self) -> None:
        turns = self.history.turns
        for i, rec in enumerate(turns):
            press = [
                {
                    "faction": e["actors"][0],
                    "headline": e["data"].get("headline", ""),
                    "body": e["data"].get("body", ""),
                }
                for e in rec.events
                if e["kind"] == "press" and e.get("actors")
            ]
            rumors = [e["data"].get("text", "") for e in rec.events if e["kind"] == "rumor"]
            self.render(
                "newspaper-issue.md.j2",
                issue_src(rec.turn),
                rec=rec,
                label=rec.date.label if rec.date else "",
                headlines=self.headlines_of(rec),
                press=press,
                rumors=rumors,
                chronicle=chronicle_src(rec.turn),
                by_faction=by_faction_src,
                prev=turns[i - 1] if i else None,
                next=turns[i + 1] if i + 1 < len(turns) else None,
                issue_src=issue_src,
            )
        self.newspaper_by_faction()
        cal = self.game.calendar
        years: dict[int, list[TurnRecord]] = {}
        for rec in turns:
            years.setdefault(cal.date(rec.turn).year, []).append(rec)
        self.render(
            "newspaper-index.md.j2",
            "newspaper/index.md",
            issues_page="newspaper/issues.md",
            latest=list(reversed(turns[-LATEST_ISSUES:])),
            issue_src=issue_src,
            headlines=self.headlines_of,
        )
        self.render(
            "newspaper-issues.md.j2",
            "newspaper/issues.md",
            years=[(f"{cal.year_name} {y}", recs) for y, recs in reversed(years.items())],
            issue_src=issue_src,
            headlines=self.headlines_of,
            short_label=self.short_label,
        )

    @functools.cached_property
    def _articles(self) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {f: [] for f in self.game.factions}
        for rec in reversed(self.history.turns):
            for e in rec.events:
                if e["kind"] == "press" and e.get("actors") and e["actors"][0] in found:
                    found[e["actors"][0]].append(
                        {
                            "turn": rec.turn,
                            "label": self.short_label(rec.turn),
                            "headline": e["data"].get("headline", ""),
                            "body": e["data"].get("body", ""),
                        }
                    )
        return found

    def articles(self) -> dict[str, list[dict[str, Any]]]:
        """Every signed article by faction, newest first."""
        return self._articles

    def newspaper_by_faction(self) -> None:
        """A page per faction with every article it signed ("all articles by Thornwyn"), and their index."""
        articles = self.articles()
        for faction, found in articles.items():
            self.render(
                "newspaper-faction.md.j2",
                by_faction_src(faction),
                faction=faction,
                articles=found,
                issue_src=issue_src,
            )
        self.render(
            "newspaper-factions.md.j2",
            "newspaper/factions/index.md",
            counts=[(f, len(found)) for f, found in articles.items()],
            by_faction=by_faction_src,
        )

    # -- orders, as the engine read them --------------------------------------------------------------------

    def orders(self) -> None:
        """Each resolved turn's orders as the engine understood them: the lines ``campaign check`` prints
        (the echo), faction by faction, beside the chronicle of the turn."""
        turns = [rec for rec in self.history.turns if rec.orders]
        for i, rec in enumerate(turns):
            self.render(
                "orders-turn.md.j2",
                orders_src(rec.turn),
                rec=rec,
                date=rec.date.label if rec.date else "",
                chronicle=chronicle_src(rec.turn),
                prev=turns[i - 1] if i else None,
                next=turns[i + 1] if i + 1 < len(turns) else None,
                orders_src=orders_src,
            )
        self.render(
            "orders-index.md.j2",
            "chronicle/orders/index.md",
            turns=turns,
            orders_src=orders_src,
            short_label=self.short_label,
        )

    # -- places -------------------------------------------------------------------------------------------

    def place_histories(self) -> dict[str, dict[str, Any]]:
        """Every place the ruleset names (settlements, holdings…) through the turns: who held it, what it
        was, and the public events at its location, keyed by a slug for its page."""
        ruleset = self.game.ruleset
        places: dict[str, dict[str, Any]] = {}
        for rec in self.history.records:
            for piece in rec.places:
                key = ruleset.place_id(piece)
                place = places.setdefault(
                    key, {"key": key, "location": piece.get("location"), "rows": [], "events": []}
                )
                place["label"] = piece.get("label", key)
                row = {
                    "owner": piece.get("owner"),
                    "label": piece.get("label", key),
                    "kind": piece.get("kind"),
                    "detail": piece.get("detail", ""),
                }
                rows = place["rows"]
                if rows and rows[-1]["row"] == row and rows[-1]["last"] == rec.turn - 1:
                    rows[-1]["last"] = rec.turn
                else:
                    rows.append({"row": row, "first": rec.turn, "last": rec.turn})
        world = self.game.world
        for place in places.values():
            loc = place["location"]
            place["where"] = world[loc].label if loc in world else str(loc or "")
        by_location: dict[str, list[dict[str, Any]]] = {}
        for place in places.values():
            by_location.setdefault(str(place["location"]), []).append(place)
        for rec in self.history.turns:
            for location, events in self._events_by_place(rec, by_location):
                sentence = self.game.ruleset.describe_group(events, self.game)
                for place in by_location[location]:
                    place["events"].append({"turn": rec.turn, "text": sentence, "kind": events[0]["kind"]})
        slugs: dict[str, dict[str, Any]] = {}
        for place in sorted(places.values(), key=lambda p: (str(p["label"]).lower(), p["key"])):
            named = (
                place["label"] if place["label"] == place["where"] else f"{place['label']}-{place['where']}"
            )
            base = _slug(named) or "place"
            slug, n = base, 2
            while slug in slugs:
                slug, n = f"{base}-{n}", n + 1
            slugs[slug] = place
        return slugs

    def _events_by_place(
        self, rec: TurnRecord, by_location: Mapping[str, Any]
    ) -> list[tuple[str, list[dict[str, Any]]]]:
        """A turn's public events at each place, in turn order, with those the chronicle tells in one
        sentence ("musters three Levies") put together as it puts them: a place page says it once too."""
        ruleset = self.game.ruleset
        groups: list[tuple[str, list[dict[str, Any]]]] = []
        for e in rec.events:
            location = e.get("place")
            if e["kind"] in ("press", "rumor") or location not in by_location:
                continue
            if groups and groups[-1][0] == location and ruleset.groups_with(groups[-1][1][0], e):
                groups[-1][1].append(e)
            else:
                groups.append((str(location), [e]))
        return groups

    def places(self) -> None:
        places = self.place_histories()
        for slug, place in places.items():
            self.render(
                "place.md.j2",
                place_src(slug),
                place=place,
                chronicle_src=chronicle_src,
                turn_label=lambda turn: "the start" if turn == 0 else f"turn {turn}",
            )
        self.render(
            "places-index.md.j2",
            "places/index.md",
            places=[(slug, place) for slug, place in places.items()],
            place_src=place_src,
        )

    # -- the feed -----------------------------------------------------------------------------------------

    def feed(self) -> None:
        """An Atom feed of the resolved turns, newest first: each entry is a turn's newspaper issue, with
        its headlines and links to the issue and the chronicle. A static file; no network."""
        base = _site_base(self.address)
        updated = f"{turn_date(self.history.last.turn).isoformat()}T00:00:00Z"
        campaign = _xml(self.game.campaign)
        entries = []
        for rec in reversed(self.history.turns):
            lines = self.headlines_of(rec)
            issue = base + issue_url(rec.turn)
            chronicle = base + page_url(chronicle_src(rec.turn))
            summary = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
            content = (
                f'<ul>{summary}</ul><p><a href="{html.escape(base + page_url(chronicle_src(rec.turn)))}">'
                f"The chronicle of turn {rec.turn}</a></p>"
            )
            entries.append(
                "  <entry>\n"
                f"    <title>{_xml(f'Turn {rec.turn}, {self.date_label(rec.turn)}: {lines[0]}')}</title>\n"
                f"    <id>tag:campaign-kit,2000:{campaign}/turn/{rec.turn}</id>\n"
                f'    <link rel="alternate" type="text/html" href="{_xml(issue)}"/>\n'
                f'    <link rel="related" type="text/html" href="{_xml(chronicle)}"/>\n'
                f"    <updated>{turn_date(rec.turn).isoformat()}T00:00:00Z</updated>\n"
                f'    <content type="html">{_xml(content)}</content>\n'
                "  </entry>\n"
            )
        subtitle = f"Every resolved turn of {self.game.name}, a campaign of {self.game.ruleset.title}"
        self.files[FEED] = (
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom">\n'
            f"  <title>{_xml(self.game.name)}</title>\n"
            f"  <subtitle>{_xml(subtitle)}</subtitle>\n"
            f"  <id>tag:campaign-kit,2000:{campaign}</id>\n"
            f'  <link rel="alternate" type="text/html" href="{_xml(base or "./")}"/>\n'
            f'  <link rel="self" type="application/atom+xml" href="{_xml(base + FEED)}"/>\n'
            f"  <updated>{updated}</updated>\n"
            f"  <author><name>{_xml(self.game.name)}</name></author>\n"
            f"{''.join(entries)}"
            "</feed>\n"
        ).encode()

    # -- the map ------------------------------------------------------------------------------------------

    def world_map(self) -> None:
        title = f"Map of {self.game.name}"
        assets = rel_url(posixpath.dirname(MAP_PAGE) + "/", ASSETS)
        self.files[MAP_PAGE] = world_map_html(self.history, assets, title).encode()
        self.render(
            "map.md.j2",
            "map/index.md",
            map_src=MAP_PAGE,
            last=self.history.last,
            pieces=self.pieces_by_owner(self.history.last),
            chronicle_src=chronicle_src,
        )

    # -- factions -----------------------------------------------------------------------------------------

    def factions(self) -> None:
        records = self.history.records
        turns = [r.turn for r in records]
        factions = list(self.game.factions)
        # One value per turn for each faction, None before a late joiner's first turn, so that each value
        # stays under its own turn in the charts and the table of numbers.
        series: dict[str, dict[str, list[float | None]]] = {
            f: {col: [] for col in self.numeric} for f in factions
        }
        for rec in records:
            rows = {row["faction"]: row for row in rec.standings}
            for f in factions:
                for col in self.numeric:
                    row = rows.get(f)
                    series[f][col].append(None if row is None else float(row.get(col, 0) or 0))
        players = self.store.players().get("factions", {}) or {}
        charts: list[dict[str, Any]] = []
        for col in self.numeric:
            lines = [
                plots.Series(
                    self.game.name_of(f),
                    self.history.colors[f],
                    series.get(f, {}).get(col, []),
                    plots.DASHES[i % len(plots.DASHES)],
                )
                for i, f in enumerate(factions[:MAX_NAV_CHILDREN])
            ]
            path = f"factions/charts/{col}.svg"
            self.files[path] = plots.line_chart(lines, turns, f"{words(col)} by turn").encode()
            charts.append({"column": col, "src": path, "lines": lines})
        current = {r["faction"]: r for r in self.history.standings()}
        rank = {f: i + 1 for i, f in enumerate(current)}
        latest = self.pieces_by_owner(self.history.last)
        awaited = set(faction_records.awaited(self.history.state, factions))
        all_events = [{**e, "turn": rec.turn} for rec in self.history.turns for e in rec.events]
        for f in factions:
            own = []
            for col in self.numeric:
                values = series.get(f, {}).get(col, [])
                others = [
                    plots.Series(
                        self.game.name_of(o), "#b9b2a8", series.get(o, {}).get(col, []), strong=False
                    )
                    for o in factions[:MAX_NAV_CHILDREN]
                    if o != f
                ]
                mine = plots.Series(self.game.name_of(f), self.history.colors[f], values, plots.DASHES[0])
                path = f"factions/{f}/{col}.svg"
                self.files[path] = plots.line_chart([*others, mine], turns, f"{words(col)} by turn").encode()
                own.append(
                    {
                        "column": col,
                        "src": path,
                        "alt": plots.describe_series(self.game.name_of(f), words(col).lower(), turns, values),
                        "values": values,
                    }
                )
            mine_pieces = next((g["pieces"] for g in latest if g["faction"] == f), [])
            kinds: dict[str, list[dict[str, Any]]] = {}
            for p in mine_pieces:
                kinds.setdefault(str(p.get("kind", "piece")), []).append(p)
            self.render(
                "faction.md.j2",
                faction_src(f),
                faction=f,
                profile=str((players.get(f) or {}).get("profile") or ""),
                standing=current.get(f, {}),
                rank=rank.get(f),
                total=len(current),
                columns=self.numeric,
                charts=own,
                color=self.history.colors[f],
                others=[
                    {"faction": o, "name": self.game.name_of(o)}
                    for o in factions[:MAX_NAV_CHILDREN]
                    if o != f
                ],
                turns=turns,
                kinds=kinds,
                deeds=self.deeds(f),
                sections=self.game.ruleset.faction_sections(self.game, self.history.state, f, all_events),
                press=self.press_of(f),
                chronicle_src=chronicle_src,
                issue_src=issue_src,
                **self.people_of(f, players.get(f)),
                send_orders=self.send_orders_form(f) if f in awaited else None,
            )
        self.render(
            "factions-index.md.j2",
            "factions/index.md",
            standings=self.standings_rows(current.values()),
            columns=self.numeric,
            charts=charts,
            faction_src=faction_src,
            turns=turns,
        )
        self.nav.factions = ["factions/index.md"]
        if len(factions) <= MAX_NAV_CHILDREN * 2:
            # MkDocs prints menu titles as HTML: a name chosen by a player is escaped first.
            self.nav.factions += [{html.escape(self.game.name_of(f)): faction_src(f)} for f in factions]

    def people_of(self, faction: str, entry: Any) -> dict[str, Any]:
        """Who plays the faction and how: the absences declared for it, who played which turns
        (campaign handover), and its on-time record, when the site was built where git's history is."""
        current = self.history.current_turn
        away = [
            {"text": d.absence.describe(), "now": d.absence.covers(current), "by_gm": d.by == GM_DECLARED}
            for d in self._absences
            if d.faction == faction and d.absence.last >= current
        ]
        shown = [d.absence for d in self._absences if d.faction == faction and d.absence.last >= current]
        was_away = [
            {"text": span.describe(), "then": AWAY_POLICY_WORDS.get(policy, AWAY_POLICY_WORDS["hold"])}
            for span, policy in spans_of(self._turns_away.get(faction, []))
            if not any(shown_span.covers(span.last) for shown_span in shown)
        ]
        record = (self.on_time or {}).get(faction, [])
        return {
            "absences": away,
            "was_away": was_away,
            "stints": [stint.describe() for stint in stints(entry, self._first_turn(faction))],
            "on_time": summarise(record).describe() if self.on_time is not None else "",
            "arrivals": [
                {
                    "turn": a.turn,
                    "status": a.status,
                    "deadline": a.deadline.strftime("%Y-%m-%d %H:%M UTC"),
                    "arrived": a.arrived.strftime("%Y-%m-%d %H:%M UTC") if a.arrived else "–",
                }
                for a in reversed(record[-self.ARRIVALS :])
            ],
        }

    def _first_turn(self, faction: str) -> int:
        return self._first_turns.get(faction, 1)

    @functools.cached_property
    def _first_turns(self) -> dict[str, int]:
        return first_turns(self.store)

    ARRIVALS = 12  # the latest turns of a faction's on-time record listed on its page

    @functools.cached_property
    def _turns_away(self) -> dict[str, list[tuple[int, str]]]:
        return turns_away(self.store)

    @functools.cached_property
    def _absences(self) -> list[Declared]:
        return declared_absences(self.store)

    @functools.cached_property
    def _away_now(self) -> list[str]:
        """The factions away at the current turn."""
        return sorted({d.faction for d in self._absences if d.absence.covers(self.history.current_turn)})

    DEEDS = 12  # the latest public deeds listed on a faction's page

    @functools.cached_property
    def _deeds(self) -> dict[str, list[tuple[int, dict[str, Any]]]]:
        """Each faction's latest public deeds (not its press), newest turn first: one pass over the
        events for every faction at once."""
        found: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        for rec in reversed(self.history.turns):
            for e in rec.events:
                if e["kind"] in ("press", "rumor"):
                    continue
                for actor in dict.fromkeys(e.get("actors") or []):  # an actor named twice acts once
                    own = found.setdefault(actor, [])
                    if len(own) < self.DEEDS:
                        own.append((rec.turn, e))
        return found

    def deeds(self, faction: str) -> list[dict[str, Any]]:
        return [
            {"turn": turn, "text": self.game.ruleset.describe(e, self.game)}
            for turn, e in self._deeds.get(faction, [])
        ]

    def press_of(self, faction: str, limit: int = 10) -> list[dict[str, Any]]:
        return self.articles()[faction][:limit]

    # -- rules --------------------------------------------------------------------------------------------

    def rules(self) -> None:
        rules = self.game.rules
        notes = filled_notes(rules)
        sections = self.game.ruleset.rules_sections(self.game)
        relations_rules = relations.rules_section(self.game.rules)
        if relations_rules is not None:
            sections = [*sections, relations_rules]
        sections = [*sections, fog.rules_section(self.game.rules)]

        shown: set[int] = set()

        def notes_for(section: RulesSection) -> list[Mapping[str, Any]]:
            """The house rules on the data this section explains, each shown once (in its first section)."""
            found = []
            for i, n in enumerate(notes):
                rule = str(n.get("rule", ""))
                if i not in shown and any(rule == k or rule.startswith(k + ".") for k in section.keys):
                    shown.add(i)
                    found.append(n)
            return found

        time_notes = notes_for(RulesSection("Time", (), keys=("calendar",)))
        turn_notes = notes_for(RulesSection("The turn", (), keys=("turn_sequence", "gm")))
        items = [{"s": s, "notes": notes_for(s)} for s in sections]
        chapters = []
        if (
            self.game.ruleset.rules_chapters
        ):  # a page a chapter: one page of them all would be too long to read
            for item in items:
                page = f"rules/chapters/{_slug(item['s'].title)}.md"
                chapters.append({"title": item["s"].title, "page": page})
                self.render(
                    "rules-chapter.md.j2",
                    page,
                    item={**item, "level": 1},
                    is_table=lambda b: isinstance(b, RulesTable),
                )
        self.nav.rules = ["rules/index.md", *({html.escape(c["title"]): c["page"]} for c in chapters)]
        self.render(
            "rules.md.j2",
            "rules/index.md",
            turn_sequence=turn_sequence_markdown(self.game),
            calendar=self.game.calendar,
            time_notes=time_notes,
            turn_notes=turn_notes,
            sections=[] if chapters else items,
            chapters=chapters,
            is_table=lambda b: isinstance(b, RulesTable),
            stock=list(rules.get("stock", [])),
        )
        self.render(
            "rules-orders.md.j2",
            "rules/orders.md",
            actions=list(self.game.actions.values()),
            gm=list(gm_actions(self.game).values()),
            standing=list(self.game.standing.values()),
            kind_words=kind_words,
            yaml_example=_yaml_example,
        )
        overrides = [(path, value) for path, value in flatten(self.game.house_rules)]
        self.render("rules-house.md.j2", "rules/house-rules.md", notes=notes, overrides=overrides)

    def send_orders_form(self, faction: str) -> dict[str, Any] | None:
        """What a faction page's "Send orders" form needs: the schema (published by ``play``), where the
        form starts, and where on GitHub the orders go.

        An open campaign's form starts from the faction's template (published by ``play``) and sends the
        plain file by a prefilled link or the issue form. A sealed campaign publishes no template (it
        shows positions), so its form starts from the schema with this turn's heading; it seals the file
        in the browser exactly as ``campaign seal`` does (``sealing`` below: the same recipients, padding
        and length), and the player uploads the sealed file to GitHub. The recipients are public keys, as
        in ``campaign/players.yaml``; the page publishes nothing else of the faction."""
        common = {
            "turn": self.history.current_turn,
            "campaign": self.game.campaign,
            "schema": "play/orders.schema.json",
            "vendor": f"{ASSETS}/vendor/form/",
            "script": f"{ASSETS}/{ORDERS_FORM}",
        }
        if not self.history.sealed:
            return {
                **common,
                "sealed": False,
                "template": f"play/templates/{faction}.yaml",
                "file": f"orders/{faction}.yaml",
                **send_orders_links(self.history.config),
            }
        return {
            **common,
            "sealed": True,
            "template": "",
            "file": f"orders/{faction}.yaml{sealing.SUFFIX}",
            "recipients": json.dumps(self.store.recipients([faction])),
            "sealing": json.dumps(sealing_rules()),
            "upload": upload_link(self.history.config),
            "fork": fork_link(self.history.config),
            "new_file": "",
            "issue": "",
        }

    # -- how to play --------------------------------------------------------------------------------------

    def _rule_unless_dated(self) -> dict[str, Any]:
        """The weekly rule for the reader's browser, unless the deadline is a date already."""
        dated = deadline_of(self.history.config, self.history.current_turn, self.opened_at, self._away_now)[1]
        return {} if dated else deadline_rule(self.history.config)

    def play(self) -> None:
        game, state = self.game, self.history.state
        active = faction_records.awaited(state, game.factions)  # those with a template: no NPC faction
        templates = []
        with holding_still(state):  # each template looks up its faction's pieces in tables built once
            for f in [] if self.history.sealed else active:  # a sealed campaign's templates show positions
                body = self.store.render_template(game, state, f)
                self.files[f"play/templates/{f}.yaml"] = body.encode()
                templates.append({"faction": f, "body": body, "file": f"play/templates/{f}.yaml"})
        schema = self.store.schema(game, state)
        self.files["play/orders.schema.json"] = (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode()
        example = next((dict(s.example) for s in game.actions.values() if s.example), {})
        self.render(
            "play.md.j2",
            "play/index.md",
            current=self.history.current_turn,
            current_date=game.calendar.date(self.history.current_turn).label,
            deadline=deadline_of(
                self.history.config, self.history.current_turn, self.opened_at, self._away_now
            )[0],
            deadline_rule=self._rule_unless_dated(),
            example_faction=active[0] if active else (game.factions[0] if game.factions else "faction"),
            example=_yaml_example(example) if example else "",
            schema="play/orders.schema.json",
            sealed=self.history.sealed,
        )
        self.render(
            "play-templates.md.j2",
            "play/templates.md",
            templates=templates,
            current=self.history.current_turn,
            example_faction=active[0] if active else (game.factions[0] if game.factions else "faction"),
        )


OpenedAt = Callable[[int], "dt.datetime | None"]  # when a turn began, as the campaign's git history says


def next_deadline(config: Mapping[str, Any], turn: int, opened_at: OpenedAt | None = None) -> str:
    """The current turn's deadline in words, from the schedule in campaign/campaign.yaml ("" when none).

    When ``opened_at`` knows when the turn began (the command that builds the site reads it from the
    campaign's git history, as the resolve workflow counts it) it is the date itself; otherwise, as in
    the demo, it is the rule ("every Friday at 18:00 UTC…"). Never the clock: the same repository
    always gives the same page.
    """
    return deadline_of(config, turn, opened_at)[0]


def deadline_of(
    config: Mapping[str, Any], turn: int, opened_at: OpenedAt | None = None, away: Iterable[str] = ()
) -> tuple[str, dt.datetime | None]:
    """The deadline in words (see ``next_deadline``) and, when it is a date, the moment itself; ``away``:
    the factions away at the turn, which may move the deadline back (the ``absences`` setting)."""
    if "schedule" not in config:
        return "", None
    try:
        settings = schedule.Settings.from_config(config)
    except CampaignError:
        return "not readable: see campaign/campaign.yaml", None
    if settings.schedule.paused:
        return "none: the campaign is paused", None
    began = opened_at(turn) if opened_at is not None else None
    if began is None:
        return settings.schedule.describe(), None
    try:
        when = schedule.deadline(settings.schedule, turn, began)
    except (CampaignError, ValueError):
        return settings.schedule.describe(), None
    pause = schedule.paused_for_absences(settings, away)
    moved = f" (moved back {schedule.hours(pause)}: {len(set(away))} factions are away)" if pause else ""
    return (
        f"{schedule.stamp(when + pause)}{moved}, then {schedule.hours(settings.schedule.grace)} of grace",
        when + pause,
    )


def deadline_rule(config: Mapping[str, Any]) -> dict[str, Any]:
    """A weekly deadline as data for the reader's browser, which finds the next such moment on its own
    clock and shows it in the reader's time zone ("every Friday at 18:00 UTC" is a rule, not a date).
    Empty when the deadline counts from a resolution, is paused or cannot be read: the words then stand."""
    try:
        settings = schedule.Settings.from_config(config) if "schedule" in config else None
    except CampaignError:
        return {}
    if settings is None or settings.schedule.paused or settings.schedule.weekday is None:
        return {}
    if settings.schedule.zone_name != "UTC":
        return {}  # the browser's rule counts in UTC; a zone with daylight saving time keeps the words
    rule = settings.schedule
    return {
        "weekday": rule.weekday,
        "time": f"{rule.at:%H:%M}",
        "grace": f"{rule.grace.total_seconds() / 3600:g}",
    }


def repository_links(config: Mapping[str, Any]) -> dict[str, str]:
    """The campaign's repository and where to open a pull request, from ``repository:`` (and optionally
    ``pull_requests:``) in campaign/campaign.yaml; only plain http(s) addresses, else nothing."""
    repository = str(config.get("repository") or "").strip().rstrip("/")
    if not _WEB_ADDRESS.fullmatch(repository):
        return {}
    links = {"repository": repository}
    pull = str(config.get("pull_requests") or "").strip()
    host = repository.split("/")[2].lower()
    if _WEB_ADDRESS.fullmatch(pull):
        links["pull_request"] = pull
    elif host == "github.com" or host.endswith(".github.com"):
        links["pull_request"] = f"{repository}/compare"
    elif "gitlab" in host:
        links["pull_request"] = f"{repository}/-/merge_requests/new"
    elif "codeberg" in host or "gitea" in host or "forgejo" in host:
        links["pull_request"] = f"{repository}/compare"
    return links


def send_orders_links(config: Mapping[str, Any]) -> dict[str, str]:
    """Where the "Send orders" form sends a player, on a campaign hosted on GitHub (else nowhere: the form
    then only shows the file): GitHub's page for a new file on the default branch, which the form fills
    through its address, and the campaign's "Orders" issue form (.github/ISSUE_TEMPLATE/orders.yml)."""
    repository = repository_links(config).get("repository", "")
    host = repository.split("/")[2].lower() if repository else ""
    if host != "github.com" or repository.count("/") != 4:
        return {"new_file": "", "issue": ""}
    return {
        "new_file": f"{repository}/new/{urllib.parse.quote(DEFAULT_BRANCH)}",
        "issue": f"{repository}/issues/new?template={ORDERS_ISSUE_FORM}",
    }


def upload_link(config: Mapping[str, Any]) -> str:
    """GitHub's page for uploading files into the campaign's orders/ folder on the default branch, where a
    sealed campaign's form sends the player with the sealed file (too long for any address or issue);
    empty when the campaign is not on github.com."""
    if not send_orders_links(config)["new_file"]:
        return ""
    repository = repository_links(config)["repository"]
    return f"{repository}/upload/{urllib.parse.quote(DEFAULT_BRANCH)}/orders"


def fork_link(config: Mapping[str, Any]) -> str:
    """GitHub's page that forks the campaign's repository: a player who cannot push to it uploads the
    sealed file into their fork (GitHub's upload page takes files only from those who can push)."""
    if not send_orders_links(config)["new_file"]:
        return ""
    return f"{repository_links(config)['repository']}/fork"


def sealing_rules() -> dict[str, Any]:
    """How ``campaign seal`` shapes a sealed order file, for the form that seals in the browser: the text
    framed by ``PAD_MAGIC`` and its length, zero bytes up to ``ORDER_FILE_SIZE``, the order cap, and the
    room the armoured file keeps for age's random "grease" stanza (filled with line breaks), so that a
    sealed file from the browser has the one length the pull-request check accepts
    (``sealing.is_padded_order_file``). Read from ``sealing`` itself, so they cannot part."""
    return {
        "magic": sealing.PAD_MAGIC.decode("ascii"),
        "size": sealing.ORDER_FILE_SIZE,
        "max_bytes": MAX_BYTES,
        "grease_room": sealing.GREASE_ROOM,
        "recipient_types": list(sealing.RECIPIENT_TYPES),
    }


DEFAULT_BRANCH = "main"  # where orders go, as the README and the workflows say
# The form's files that only a sealed campaign's site serves: age and the licences of what its bundle holds.
SEALING_ONLY = frozenset(
    {
        "age.js",
        "age-encryption.LICENSE.txt",
        "noble-ciphers.LICENSE.txt",
        "noble-curves.LICENSE.txt",
        "noble-hashes.LICENSE.txt",
        "noble-post-quantum.LICENSE.txt",
        "scure-base.LICENSE.txt",
    }
)
ORDERS_ISSUE_FORM = "orders.yml"  # in .github/ISSUE_TEMPLATE/: the campaign's issue form for orders

_WEB_ADDRESS = re.compile(r"https?://[A-Za-z0-9.-]+(?::\d+)?(?:/[A-Za-z0-9._~%!$&'*+,;=:@/-]*)?")


def group_eras(entries: list[Any], years: list[int], year_name: str, size: int = 10) -> list[Any]:
    """Year sections as they are or, past MAX_NAV_CHILDREN years, in eras of ``size`` years: the menu
    stays about a screen long however long the campaign runs."""
    if len(entries) <= MAX_NAV_CHILDREN:
        return entries
    eras = []
    for start in range(0, len(entries), size):
        chunk = years[start : start + size]
        label = f"{year_name}s {chunk[0]}–{chunk[-1]}" if len(chunk) > 1 else f"{year_name} {chunk[0]}"
        eras.append({label: entries[start : start + size]})
    return eras


def _yaml_example(example: Mapping[str, Any]) -> str:
    """One order as the YAML a player writes: ``- action: move`` then its fields."""
    lines = []
    for i, (key, value) in enumerate(example.items()):
        lines.append(("- " if i == 0 else "  ") + f"{key}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines)


def _slug(text: str) -> str:
    """A file name from a place's name: lower-case letters, digits and dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")


def _xml(text: str) -> str:
    return html.escape(str(text), quote=True)


def _site_base(url: str) -> str:
    """The site's address with a final slash, or "" when it has none."""
    return url if not url or url.endswith("/") else url + "/"


def site_url(config: Mapping[str, Any]) -> str:
    """``site_url:`` of campaign/campaign.yaml (or of the GM's mkdocs.yml) when it is a plain http(s)
    address, else ""."""
    url = str(config.get("site_url") or "").strip()
    return url if _WEB_ADDRESS.fullmatch(url) else ""


def _tidy(body: str) -> str:
    """At most one blank line in a row, and one newline at the end: stable, diff-friendly pages."""
    return re.sub(r"\n{3,}", "\n\n", body).strip() + "\n"


def read_welcome(site_dir: Path) -> str:
    """The GM's site/welcome.md (or the campaign's templates/site/welcome.md); until there is one the home
    page has no welcome text: a placeholder saying where to write it would be published to every reader."""
    for path in (site_dir / "welcome.md", site_dir.parent / "templates" / "site" / "welcome.md"):
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return ""
