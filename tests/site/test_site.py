"""The built demo site: every page there, player text escaped, nothing loaded from outside."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from resolver.cli import main
from resolver.core.rulesdoc import filled_notes
from resolver.core.issues import CampaignError
from resolver.publish.site import build_site
from resolver.publish.history import load_history
from resolver.publish.pages import MARKER, SitePages, group_eras, read_welcome
from resolver.publish.site import CONFIG_STUB, adopt_legacy_index, ensure_config, hand_written_pages, sync
from resolver.publish.text import keys_as_code
from resolver.store.store import Store

from .demo import OUTSIDE, SCRIPT, TURNS, DemoSite, commit_new_campaign
from .pagecheck import URL_ATTRIBUTES, read_page


def html_pages(site: DemoSite) -> list[Path]:
    return sorted(site.public.rglob("*.html"))


def test_every_resolved_turn_has_a_chronicle_page_and_a_newspaper_issue(site: DemoSite) -> None:
    assert site.report.turns == TURNS
    for turn in range(1, TURNS + 1):
        assert (site.public / "chronicle" / f"turn-{turn}" / "index.html").is_file()
        issue = site.public / "newspaper" / f"turn-{turn}" / "index.html"
        assert f"Issue {turn} of the newspaper" in issue.read_text(encoding="utf-8")
    assert not (site.public / "chronicle" / f"turn-{TURNS + 1}").exists()


def test_no_page_or_stylesheet_loads_anything_from_outside(site: DemoSite) -> None:
    for page in html_pages(site):
        for tag, attrs in read_page(page.read_text(encoding="utf-8")).tags:
            for name in URL_ATTRIBUTES:
                value = attrs.get(name, "").strip()
                if tag == "a" and name == "href":
                    continue  # a link people may follow, not something the browser loads by itself
                assert not re.match(r"(?:[a-z]+:)?//", value, re.I), (page, tag, name, value)
    for css in site.public.rglob("*.css"):
        assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", css.read_text(encoding="utf-8")), css


def test_player_text_is_never_markup(site: DemoSite) -> None:
    for page in html_pages(site):
        text = page.read_text(encoding="utf-8")
        assert SCRIPT not in text, page
        for tag, attrs in read_page(text).tags:
            assert tag not in ("iframe", "img") or OUTSIDE not in attrs.get("src", ""), page
            assert not any(OUTSIDE in attrs.get(name, "") for name in URL_ATTRIBUTES), (page, tag, attrs)
            assert not any(k.startswith("on") for k in attrs), (page, tag, attrs)
        assert "<b>Co</b>" not in text and "<i>bright</i>" not in text, page
        assert "not-a-colour" not in text, page
    issue = (site.public / "newspaper" / f"turn-{site.press_turn}" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in issue


def test_rules_pages_cover_the_phase_table_every_order_and_every_house_rule(site: DemoSite) -> None:
    store = Store(site.root)
    game = store.game()
    rules = (site.root / "site" / "rules" / "index.md").read_text(encoding="utf-8")
    for phase in game.phases:
        assert phase.title in rules
    for section in game.ruleset.rules_sections(game):
        assert f"## {section.title}" in rules
    keys = [k for section in game.ruleset.rules_sections(game) for k in section.keys]
    marked = [n for n in filled_notes(game.rules) if any(n["rule"].split(".")[0] == k for k in keys)]
    assert len(marked) >= 10
    for note in marked:  # each house rule is marked once, in the section that explains its data
        assert rules.count(str(keys_as_code(note["text"]))) == 1, note["rule"]
    house = (site.root / "site" / "rules" / "house-rules.md").read_text(encoding="utf-8")
    assert len(re.findall(r"^- <code>", house, flags=re.M)) == len(game.rules["house_rules"])
    orders = (site.root / "site" / "rules" / "orders.md").read_text(encoding="utf-8")
    for name in game.actions:
        assert f"## <code>{name}</code>" in orders


def test_how_to_play_has_each_active_factions_template_and_the_schema(site: DemoSite) -> None:
    store = Store(site.root)
    state = store.state()
    game = store.game(state)
    for faction in game.factions:
        path = site.public / "play" / "templates" / f"{faction}.yaml"
        assert yaml.safe_load(path.read_text(encoding="utf-8"))["turn"] == state["turn"]
    assert (site.public / "play" / "orders.schema.json").is_file()


def test_generated_pages_are_deterministic(site: DemoSite) -> None:
    store = Store(site.root)
    history = load_history(store)
    welcome = read_welcome(site.root / "site")
    first = SitePages(store, history, welcome).build()
    second = SitePages(store, load_history(store), welcome).build()
    assert first == second
    assert MARKER in first["index.md"].decode()


def test_issues_are_dated_in_game_and_fonts_stay_off(site: DemoSite) -> None:
    settings = yaml.safe_load((site.root / "mkdocs.generated.yml").read_text(encoding="utf-8"))
    assert settings["theme"]["font"] is False
    issue = (site.public / "newspaper" / "turn-1" / "index.html").read_text(encoding="utf-8")
    assert "Issue 1 of the newspaper. Spring, Year 1." in issue and "January" not in issue


def test_the_newspaper_front_page_shows_the_latest_issues_newest_first(site: DemoSite) -> None:
    front = read_page((site.public / "newspaper" / "index.html").read_text(encoding="utf-8"))
    issues = [int(m) for m in re.findall(r"Issue (\d+), ", front.text)]
    assert issues == list(range(TURNS, 0, -1))[:10]
    linked = {attrs.get("href") for tag, attrs in front.tags if tag == "a"}
    assert {f"turn-{turn}/" for turn in issues} <= linked


def test_each_issue_links_the_issues_before_and_after_it(site: DemoSite) -> None:
    for turn in range(1, TURNS + 1):
        page = read_page(
            (site.public / "newspaper" / f"turn-{turn}" / "index.html").read_text(encoding="utf-8")
        )
        links = {attrs.get("href") for tag, attrs in page.tags if tag == "a"}
        assert (f"../turn-{turn - 1}/" in links) == (turn > 1), turn
        assert (f"../turn-{turn + 1}/" in links) == (turn < TURNS), turn
        assert "../issues/" in links


def test_sync_keeps_hand_written_pages_and_drops_stale_generated_ones(tmp_path: Path) -> None:
    docs = tmp_path / "site"
    (docs / "notes").mkdir(parents=True)
    (docs / "notes" / "rules-of-the-table.md").write_text("# Table\n")
    (docs / "welcome.md").write_text("Hello\n")
    (docs / "chronicle").mkdir()
    (docs / "chronicle" / "turn-9.md").write_text("stale\n")
    changed, removed = sync(docs, {"chronicle/turn-1.md": b"new\n", "index.md": b"home\n"})
    assert (changed, removed) == (2, 1)
    assert not (docs / "chronicle" / "turn-9.md").exists()
    assert (docs / "notes" / "rules-of-the-table.md").exists() and (docs / "welcome.md").exists()
    assert hand_written_pages(docs) == ["notes/rules-of-the-table.md"]
    assert sync(docs, {"chronicle/turn-1.md": b"new\n", "index.md": b"home\n"}) == (0, 0)


def test_an_old_hand_written_home_page_becomes_the_welcome_text(tmp_path: Path) -> None:
    (tmp_path / "index.md").write_text("# Welcome\n\nOur campaign.\n")
    adopt_legacy_index(tmp_path)
    assert (tmp_path / "welcome.md").read_text() == "# Welcome\n\nOur campaign.\n"
    (tmp_path / "index.md").write_text(f"---\ntitle: Home\n---\n{MARKER}\n")
    adopt_legacy_index(tmp_path)
    assert (tmp_path / "index.md").exists()


def test_a_mkdocs_yml_must_inherit_the_generated_settings(tmp_path: Path) -> None:
    ensure_config(tmp_path)
    assert (tmp_path / "mkdocs.yml").read_text() == CONFIG_STUB
    (tmp_path / "mkdocs.yml").write_text("site_name: Mine\n")
    with pytest.raises(CampaignError, match="does not inherit"):
        ensure_config(tmp_path)


def test_long_campaigns_group_years_into_eras() -> None:
    years = list(range(1, 31))
    entries = [{f"Year {y}": [f"chronicle/year-{y}/index.md"]} for y in years]
    assert group_eras(entries[:12], years[:12], "Year") == entries[:12]
    eras = group_eras(entries, years, "Year")
    assert [next(iter(e)) for e in eras] == ["Years 1–10", "Years 11–20", "Years 21–30"]
    assert sum(len(next(iter(e.values()))) for e in eras) == 30


def test_a_campaign_with_no_turn_yet_gets_a_site(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "fresh"
    assert main(["new", "--root", str(root), "--seed", "2", "--factions", "2"]) == 0
    assert main(["site", "--root", str(root), "--no-build"]) == 0
    out = capsys.readouterr().out
    assert "for 0 resolved turn(s)" in out
    home = (root / "site" / "index.md").read_text(encoding="utf-8")
    assert "No turn has been resolved yet" in home and (root / "mkdocs.yml").is_file()
    report = build_site(root, tmp_path / "out")
    assert (tmp_path / "out" / "index.html").is_file() and report.turns == 0


def test_the_deadline_is_the_schedules_rule_or_its_date_in_git(tmp_path: Path) -> None:
    from resolver.git.flow import opening_moments
    from resolver.publish.pages import next_deadline

    root = tmp_path / "camp"
    assert main(["new", "--root", str(root), "--seed", "2", "--factions", "2"]) == 0
    config = Store(root).config()
    if "schedule" not in config:
        pytest.fail("campaign new writes no schedule: the home page would never show a deadline")
    assert next_deadline({}, 1) == ""
    assert next_deadline(config, 1, opening_moments(root)) == "every Friday at 18:00 UTC, then 1 hour of grace"
    paused = {**config, "schedule": {**config["schedule"], "paused": True}}
    assert next_deadline(paused, 1) == "none: the campaign is paused"
    # In the campaign's repository: counted from the commit that opened the turn (a Monday here).
    commit_new_campaign(root, tmp_path)
    assert next_deadline(config, 1, opening_moments(root)) == "Fri 2024-01-05 18:00 UTC, then 1 hour of grace"
    # The home page prints it in a <time> element, which a small script also shows in the reader's time.
    build_site(root, run_mkdocs=False, opened_at=opening_moments(root))  # as `campaign site` builds it
    home = (root / "site" / "index.md").read_text(encoding="utf-8")
    assert '<time class="ck-deadline" datetime="2024-01-05T18:00:00Z">Fri 2024-01-05 18:00 UTC' in home
    assert 'querySelectorAll("time.ck-deadline")' in home and "toLocaleString" in home


class Headings(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.levels: list[int] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self.levels.append(int(tag[1]))


def test_every_page_has_one_title_and_headings_in_order(site: DemoSite) -> None:
    for page in html_pages(site):
        if page.name == "404.html" or page.parent.name == "map":
            continue
        levels = Headings(page.read_text(encoding="utf-8")).levels
        assert levels[:1] == [1] and levels.count(1) == 1, (page, levels)
        for before, after in zip(levels, levels[1:], strict=False):
            assert after <= before + 1, (page, levels)


def its_players(page: str) -> str:
    """The "Its players" section of a faction page's Markdown."""
    return page.split("## Its players\n", 1)[1].split("\n## ", 1)[0].split("<details", 1)[0]


WHAT_THEY_DID = {"hold": "its forces held", "stand_in": "the bot played in its place", "pause": "its forces held"}


@pytest.mark.parametrize("policy", ["hold", "stand_in", "pause"])
def test_a_faction_away_and_one_handed_over_read_in_words(tmp_path: Path, policy: str) -> None:
    """Issue 25: the faction pages say who was away when and what became of its forces, and who played
    which turns; the chronicle heads an absence as such, not as missing orders; no id reaches the text."""
    from resolver.core import canonical
    from resolver.engine.bots import bot_order_file

    root = tmp_path / policy
    assert main(["new", "--root", str(root), "--seed", "2", "--factions", "3", "--open"]) == 0
    players = canonical.read_yaml(root / "campaign/players.yaml")
    for faction, login in (("red", "alice"), ("blue", "bob"), ("green", "carol")):
        players["factions"][faction]["logins"] = [login]
    canonical.write_yaml(root / "campaign/players.yaml", players)
    config = canonical.read_yaml(root / "campaign/campaign.yaml")
    canonical.write_yaml(root / "campaign/campaign.yaml", {**config, "absences": {"policy": policy}})

    def turn(*sending: str, extra: bytes = b"") -> None:
        store = Store(root)
        state = store.state()
        for faction in sending:
            raw = bot_order_file(store.game(state), state, faction).raw
            (root / f"orders/{faction}.yaml").write_bytes(raw + (extra if faction == "red" else b""))
        assert main(["resolve", "--root", str(root), "--force"]) == 0

    turn("red", "blue", "green", extra=b"absence: {from: 2, to: 3}\n")
    assert main(["handover", "--root", str(root), "green", "--login", "erin"]) == 0
    if policy == "pause":  # two away at once: the deadline moves back and both are waited for
        assert main(["absence", "--root", str(root), "blue", "--from", "2", "--to", "2"]) == 0
        turn("green")
    else:
        turn("blue", "green")
    turn("blue", "green")
    assert main(["absence", "--root", str(root), "blue", "--from", "4", "--to", "5"]) == 0
    assert main(["site", "--root", str(root), "--no-build"]) == 0

    def page(path: str) -> str:
        return (root / "site" / path).read_text(encoding="utf-8")

    red = its_players(page("factions/red/index.md"))
    assert red.strip() == f"- Was away: turns 2 to 3, as declared; {WHAT_THEY_DID[policy]}."
    blue = its_players(page("factions/blue/index.md")).strip().splitlines()
    assert blue[-1] == "- **Away now**: turns 4 to 5, as the GM declared."
    assert blue[:-1] == (["- Was away: turn 2, as declared; its forces held."] if policy == "pause" else [])
    green = its_players(page("factions/green/index.md"))
    assert green.strip() == "- Played by carol: turn 1; erin: turn 2 on."
    for section in (red, "\n".join(blue), green):
        assert not re.search(r"\b(red|blue|green)\b", section), section  # names and logins, never ids

    chronicle = page("chronicle/turn-2.md")
    assert "## Away, as declared\n" in chronicle and "## Missing orders" not in chronicle
    store = Store(root)
    red_name = store.game(store.state()).name_of("red")
    assert (f"{red_name} is away" if policy != "pause" else f"{red_name} are away") in chronicle
    if policy == "stand_in":
        assert "the bot plays in its place" in chronicle
    assert "away this turn, as declared" in page("index.md")


def test_a_sealed_sites_absences_and_handovers_say_only_what_is_public(tmp_path: Path) -> None:
    """In a sealed campaign the absence and the handover are public; the faction pages say them in the
    same words, read from public files alone, and nothing of the orders or the keys comes with them."""
    from resolver.core import canonical
    from resolver.store import sealing
    from resolver.workflow import DEMO_KEY

    root = tmp_path / "sealed"
    assert main(["demo", "--sealed", "--turns", "1", "--root", str(root), "--quiet"]) == 0
    key = str(root / DEMO_KEY)
    secret, public = sealing.new_key()
    assert main(["absence", "--root", str(root), "red", "--from", "2", "--to", "3"]) == 0
    assert main(["handover", "--root", str(root), "blue", "--login", "erin", "--recipient", public,
                 "--key-file", key]) == 0  # fmt: skip
    for _ in range(2):
        assert main(["resolve", "--root", str(root), "--force", "--key-file", key]) == 0
    assert main(["site", "--root", str(root), "--no-build"]) == 0
    site = root / "site"
    red = its_players((site / "factions/red/index.md").read_text(encoding="utf-8"))
    assert red.strip() == "- Was away: turns 2 to 3, as declared; its forces held."
    blue = its_players((site / "factions/blue/index.md").read_text(encoding="utf-8"))
    assert blue.strip() == "- Played by a player whose login was not recorded: turn 1; erin: turn 2 on."
    everything = "".join(p.read_text(encoding="utf-8") for p in site.rglob("*.md"))
    assert "AGE-SECRET-KEY" not in everything and secret not in everything
    # The site takes the absences from the public record: the turns' inputs, never a sealed file.
    inputs = canonical.read_yaml(root / "campaign/turns/0002/inputs.yaml")
    assert inputs["away"]["factions"] == ["red"]
    orders_page = (site / "chronicle/orders/index.md").read_text(encoding="utf-8")
    assert "sealed" in orders_page
