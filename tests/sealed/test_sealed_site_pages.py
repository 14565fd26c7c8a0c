"""The public site of a sealed campaign, for every ruleset: built without the key from the public files, it
shows what everyone can see (standings, charts over time, the dice with names), says plainly what is
sealed and how a player reads their own part, and holds nothing private."""

from __future__ import annotations

import dataclasses
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from resolver.core import canonical, roll_log
from resolver.core.factions import awaited
from resolver.core.fog import rules_section as fog_rules_section
from resolver.core.phases import State
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import RULESETS, Game
from resolver.publish.site import build_site
from resolver.store import sealing
from resolver.store.store import PUBLIC_EVENTS, PUBLIC_STATE, Store

from .demos import full_states, sealed_site, with_key
from .sealed_play import hides_holdings


@dataclasses.dataclass(frozen=True)
class Site:
    root: Path
    public: Path
    game: Game
    states: list[State]  # every turn's full state, the start first: the truth the site must not show

    @property
    def turns(self) -> int:
        """How many turns the demo resolved."""
        return len(self.states) - 1

    def page(self, path: str) -> Page:
        return read(self.public / path / "index.html")

    def public_state(self, turn: int) -> State:
        return canonical.read_yaml(self.root / "campaign" / "turns" / f"{turn:04d}" / PUBLIC_STATE)

    def public_events(self, turn: int) -> list[dict[str, Any]]:
        # A compact dice log writes each roll as a line: read in full, each is a mapping again.
        path = self.root / "campaign" / "turns" / f"{turn:04d}" / PUBLIC_EVENTS
        return roll_log.in_full(canonical.read_yaml(path), str(path))["events"]


@pytest.fixture(scope="module", params=RULESETS)
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Site:
    base = tmp_path_factory.getbasetemp() / "sealed-demos"
    public = sealed_site(base, request.param)
    game, states = full_states(public.parent)
    return Site(public.parent, public, game, states)


# -- reading a built page as a reader does ------------------------------------------------------------------


@dataclasses.dataclass
class Page:
    words: str = ""  # the visible text, code and preformatted blocks left out
    tables: list[list[list[str]]] = dataclasses.field(default_factory=list)  # rows of cells
    images: list[dict[str, str]] = dataclasses.field(default_factory=list)
    dice: list[str] = dataclasses.field(default_factory=list)  # each line in a fold of dice


class _Reader(HTMLParser):
    HIDDEN = ("script", "style", "template", "code", "pre")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.words: list[str] = []
        self.hidden: list[str] = []
        self.cell: list[str] | None = None
        self.in_dice = 0
        self.item: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag in self.HIDDEN:
            self.hidden.append(tag)
        elif tag == "table":
            self.page.tables.append([])
        elif tag == "tr" and self.page.tables:
            self.page.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "img":
            self.page.images.append(values)
        elif tag == "details" and "ck-dice" in values.get("class", ""):
            self.in_dice += 1
        elif tag == "li" and self.in_dice:
            self.item = []

    def handle_endtag(self, tag: str) -> None:
        if self.hidden and self.hidden[-1] == tag:
            self.hidden.pop()
        elif tag in ("td", "th") and self.cell is not None and self.page.tables and self.page.tables[-1]:
            self.page.tables[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "details" and self.in_dice:
            self.in_dice -= 1
        elif tag == "li" and self.item is not None:
            self.page.dice.append(" ".join("".join(self.item).split()))
            self.item = None

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        self.words.append(data)
        for part in (self.cell, self.item):
            if part is not None:
                part.append(data)


def read(path: Path) -> Page:
    reader = _Reader()
    reader.feed(path.read_text(encoding="utf-8"))
    reader.close()
    reader.page.words = " ".join("".join(reader.words).split())
    return reader.page


def table_after(page: Page, columns: tuple[str, ...]) -> list[list[str]]:
    """The first table whose heading row starts with ``columns``."""
    found = next((t for t in page.tables if t and tuple(t[0][: len(columns)]) == columns), None)
    assert found is not None, f"no table headed {', '.join(columns)}"
    return found


# -- what the pages show -----------------------------------------------------------------------------------


def test_the_standings_show_what_everyone_sees_and_say_the_rest_is_sealed(site: Site) -> None:
    game, state = site.game, site.states[-1]
    for path in ("", "factions"):
        table = table_after(site.page(path), ("Rank", "Faction", "Status"))
        assert len(table) == 1 + len(game.factions) and len(table[0]) > 3, (path, table)
    # The numbers are those of the published public state: the ones the full state alone holds are not.
    public = game.ruleset.standings(game, canonical.read_yaml(site.root / "campaign" / "state.yaml"))
    every = game.ruleset.standings(game, state)
    shown = [k for k in public[0] if k not in ("faction", "name", "status")]
    secret = [k for k in every[0] if k not in public[0]]
    assert shown
    # Where a faction keeps holdings from the others, the numbers split into public ones and sealed ones.
    # Where it keeps none (diplomacy: every unit and centre is on the open board), the public numbers are
    # the whole truth, and what the seal keeps is elsewhere (the orders until the turn resolves, reports).
    assert bool(secret) == hides_holdings(game.rules), secret
    if not secret:
        assert public == every
    for path in ("", "factions"):
        page = site.page(path)
        table = table_after(page, ("Rank", "Faction", "Status"))
        headings = table[0][3:]
        assert headings == [k.replace("_", " ").capitalize() for k in shown], (path, headings)
        rows = table[1:]
        assert [row[1] for row in rows] == [game.name_of(r["faction"]) for r in public]
        assert [row[3:] for row in rows] == [[str(r[k]) for k in shown] for r in public]
        assert (
            "This campaign is sealed, so these standings count only what every faction can see" in page.words
        )
        assert "<code>campaign view</code>" in (site.public / path / "index.html").read_text()
        assert "what a sealed campaign keeps secret" in page.words


def test_each_faction_page_follows_its_public_numbers_over_time(site: Site) -> None:
    game = site.game
    for faction in game.factions:
        page = site.page(f"factions/{faction}")
        assert [image for image in page.images if image.get("src", "").endswith(".svg")], faction
        assert len(table_after(page, ("Turn",))) == 1 + site.turns + 1, faction
    shown = [
        k
        for k, v in game.ruleset.standings(game, site.public_state(site.turns))[0].items()
        if k not in ("faction", "name", "status") and isinstance(v, int)
    ]
    for faction in game.factions:
        page = site.page(f"factions/{faction}")
        charts = [image for image in page.images if image.get("src", "").endswith(".svg")]
        assert len(charts) == len(shown), (faction, charts)
        name = game.name_of(faction)
        assert all(image["alt"].startswith(f"{name}, ") for image in charts)
        numbers = table_after(page, ("Turn",))
        assert [row[0] for row in numbers[1:]] == [str(turn) for turn in range(site.turns + 1)]
        own = next(
            r for r in game.ruleset.standings(game, site.public_state(site.turns)) if r["faction"] == faction
        )
        assert numbers[-1][1:] == [str(own[k]) for k in shown]
        assert f"{name}'s own numbers are sealed to it" in page.words


def test_the_orders_page_says_the_orders_are_sealed_and_how_a_player_reads_theirs(site: Site) -> None:
    page = site.page("chronicle/orders")
    assert "No turn has been resolved yet" not in page.words
    assert "This campaign is sealed: every faction's orders are encrypted" in page.words
    assert f"{site.turns} turns have been resolved from them" in page.words
    assert "How the engine read your own orders is in your faction's report" in page.words
    assert "campaign view --identity PATH" in (site.public / "chronicle/orders/index.html").read_text()


def test_the_templates_page_says_why_none_is_published_and_how_to_write_ones_own(site: Site) -> None:
    page = site.page("play/templates")
    assert "No faction is active" not in page.words
    assert "This campaign is sealed. A template shows what a faction has" in page.words
    raw = (site.public / "play/templates/index.html").read_text()
    faction = awaited(site.states[-1], site.game.factions)[0]
    assert f"campaign template {faction} -o orders/{faction}.yaml" in raw
    assert not (site.public / "play" / "templates" / f"{faction}.yaml").exists()


def test_the_rules_page_says_what_a_sealed_campaign_keeps_secret(site: Site) -> None:
    # A ruleset of many chapters (usurper) gives each, the fog of war's too, a page of its own.
    title = fog_rules_section(site.game.rules).title
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    page = site.page(f"rules/chapters/{slug}" if site.game.ruleset.rules_chapters else "rules")
    table = table_after(page, ("What", "Everyone sees", "Only its owner sees"))
    fog = site.game.fog
    rows = {row[0]: row for row in table[1:]}
    for _, shown in fog.rows():
        row = rows[shown.label[:1].upper() + shown.label[1:]]
        for key in shown.secret_fields():
            if shown.private[key] and shown.seen:
                assert shown.private[key] in row[2], (shown.label, key)
        for key, words in shown.public.items():
            if words:
                assert words in row[1], (shown.label, key)


def test_every_page_reads_in_words_with_the_dice_naming_what_they_name(site: Site) -> None:
    """No page shows an internal id (``red-u1``, ``levy-p-rearbury-t1``, ``p-beldale/bathhouse``) or an
    engine word in snake_case where a reader expects words. The rules pages are left out: they name
    the orders and the rules data as players write them (``purchase_units``, ``battle.zone_of_command``)."""
    game = site.game
    labels = {game.world[loc].label for loc in game.world}
    ids: set[str] = set()
    for state in site.states:
        for collection, records in state.items():
            # A collection of records by id; not a mapping of settings (usurper's month of happenings).
            if (
                collection != "factions"
                and isinstance(records, dict)
                and all(isinstance(record, dict) for record in records.values())
            ):
                ids.update(k for k in records if isinstance(k, str))
                for record in records.values():
                    ids.update(_ids_in(record))
        # A ruleset that keeps a faction's pieces inside its record (usurper's leaders, units and lairs)
        # names them by id there.
        ids.update(_ids_in(state.get("factions") or {}))
    ids -= labels | set(game.factions)
    assert ids
    problems = []
    for path in sorted(site.public.rglob("*.html")):
        where = path.relative_to(site.public).as_posix()
        if where.startswith(("rules/", "search/", "assets/")):
            continue
        words = read(path).words
        problems += [f"{where}: id {token}" for token in set(re.findall(r"[\w/-]+", words)) & ids]
        problems += [
            f"{where}: engine word {w}" for w in set(re.findall(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", words))
        ]
    assert not problems, problems[:20]
    # The dice of a public event name what the public files name: a unit, an army, a lieutenant.
    named = 0
    for turn in range(1, site.turns + 1):
        events = site.public_events(turn)
        names = {
            **names_in_events(events),
            **game.ruleset.entity_names(game, site.public_state(turn - 1)),
            **game.ruleset.entity_names(game, site.public_state(turn)),
        }
        dice = " ".join(site.page(f"chronicle/turn-{turn}").dice)
        for event in events:
            for roll in event.get("rolls") or []:
                for token in set(re.findall(r"[\w-]+", str(roll.get("decided", "")))) & set(names) - set(
                    game.factions
                ):
                    assert names[token] in dice, (turn, token, names[token])
                    named += 1
    # A ruleset whose every deed is told to its doer alone (usurper) publishes no dice that name a piece.
    public_dice = any(
        event.get("rolls") and event.get("actors")
        for turn in range(1, site.turns + 1)
        for event in site.public_events(turn)
    )
    assert named or not public_dice, "the demo's dice name pieces: the test must see some"


def names_in_events(events: list[dict[str, Any]]) -> dict[str, str]:
    """The names public events give the ids in their data (``lieutenant_id`` beside ``lieutenant``)."""
    found = {}
    for event in events:
        data = event.get("data") or {}
        for key, value in data.items():
            name = data.get(key.removesuffix("_id")) if key.endswith("_id") else data.get(f"{key}_name")
            if isinstance(value, str) and isinstance(name, str) and name and name != value:
                found.setdefault(value, name)
    return found


def _ids_in(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            found.add(value["id"])
        for item in value.values():
            found |= _ids_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= _ids_in(item)
    return found


def test_no_file_of_the_sealed_site_holds_private_text(site: Site) -> None:
    """Every sentence only some factions saw (read from the sealed archive with the key; a sentence that a
    public event also says is public), and every line of a faction's own position (its template's status
    lines), is nowhere in the built site."""
    store, game = Store(site.root), site.game
    private: set[str] = set()
    public: set[str] = set()
    with with_key(site.root):
        for turn in range(1, site.turns + 1):
            raw = store.read_secret(store.turns_dir / f"{turn:04d}" / "events.yaml") or b""
            for event in canonical.load(raw)["events"]:
                told = game.ruleset.describe(event, game)
                (public if event["visibility"] == "public" else private).add(told)
    private -= public
    state = site.states[-1]
    for faction in awaited(state, game.factions):
        private |= set(game.ruleset.status_lines(game, state, faction))
    private = {text for text in private if len(text) > 40}
    assert private
    everything = "\n".join(
        p.read_text(errors="replace")
        for p in site.public.rglob("*")
        if p.suffix in (".html", ".json", ".xml", ".js", ".yaml", ".svg")
    )
    leaked = [text for text in private if text in everything]
    assert not leaked, leaked[:3]


def test_the_home_page_counts_a_sealed_order_file_as_sent(site: Site, tmp_path: Path) -> None:
    """It cannot read the file, but its name says whose it is, and the resolution removes every one."""
    root = tmp_path / "campaign"
    shutil.copytree(site.root, root, ignore=shutil.ignore_patterns("public", "site"))
    game, state = site.game, site.states[-1]
    faction = awaited(state, game.factions)[0]
    store = Store(root)
    raw = bot_order_file(game, state, faction).raw
    (root / "orders" / f"{faction}.yaml.age").write_bytes(sealing.encrypt(raw, store.recipients([faction])))
    build_site(root, None, run_mkdocs=False)
    home = (root / "site" / "index.md").read_text(encoding="utf-8")
    awaiting = awaited(state, game.factions)
    assert f"<dd>1 of {len(awaiting)} sent</dd>" in home
    assert f"{game.name_of(faction)}: sent</li>" in home
    assert f"<code>orders/{faction}.yaml.age</code>" in home


def test_a_turn_without_public_news_never_reads_as_all_quiet(site: Site) -> None:
    """A sealed campaign's public sees only public events: a turn of private battles is not "quiet". Where
    no news reached the public, the chronicle's brief says exactly that; where some did, it tells it."""
    for turn in range(1, site.turns + 1):
        words = site.page(f"chronicle/turn-{turn}").words
        assert "All quiet" not in words, turn
        public = [e for e in site.public_events(turn) if site.game.ruleset.headline(e, site.game, turn)]
        said = f"No news reached the public in turn {turn}" in words
        assert said == (not public), (turn, said, [e["kind"] for e in public])
