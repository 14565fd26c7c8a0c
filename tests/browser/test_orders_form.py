"""The "Send orders" form of a faction's page, in Chromium, for every ruleset (open campaigns).

Each ruleset gets a campaign played through git as GitHub would host it (tests/git/gitsim: a bare origin,
the GM's clone, the runner's clone), with a GitHub repository named in campaign.yaml, and its site built
and served from 127.0.0.1. A player opens their faction's page, adds one of the orders the bot would give
(typed field by field into the form the schema made) and a press article, and presses "Check the
orders". The YAML the form shows is then followed the two GitHub ways:

- the prefilled link: its address carries orders/<faction>.yaml and exactly that text, and fits GitHub's
  limit;
- the issue route: that text pasted into the Orders issue form's body, read by `campaign
  orders-from-issue` in the runner's clone (the workflow's first job), which makes the branch; then
  `campaign check --pr` on it, as the workflow checks it, accepts it.

Orders too long for a link send the player to the issue form instead. axe-core finds no violation on the
form, filled and checked, on a phone (touch) and on a laptop. A sealed campaign's form, which seals in the
browser, is tested in test_sealed_orders_form.py.
"""

from __future__ import annotations

import contextlib
import json
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.engine.ruleset import RULESETS

from ..git.gitsim import LOGIN_OF, Campaign, PullRequest, cli
from ..git.test_orders_from_issue import issue_body, outputs, send
from ..sides import open_options
from .conftest import serve, watched_tab
from .test_accessibility import TOUCH, VIEWPORTS, run_axe

REPOSITORY = "https://github.com/example/campaign"
HEADLINE = "Banners over the ford"
# Text that YAML 1.1, which the engine's reader follows, would read as something else unless quoted.
RUMOURS = ["no", "0777", "2024-13-45", "1e3", "~", "yes: #1"]
URL_LIMIT = 8000  # as in orders-form.js


@dataclass
class FormSite:
    ruleset: str
    world: Campaign
    base: str  # the served site


@contextlib.contextmanager
def quiet_git(folder: Path) -> Iterator[None]:
    """git reads no configuration of the machine's user, as in tests/git."""
    empty = folder / "gitconfig"
    empty.touch()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GIT_CONFIG_GLOBAL", str(empty))
        patch.setenv("GIT_CONFIG_NOSYSTEM", "1")
        for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            patch.delenv(name, raising=False)
        yield


@pytest.fixture(scope="module", params=RULESETS)
def form_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[FormSite]:
    ruleset = request.param
    folder = tmp_path_factory.mktemp(f"form-{ruleset}")
    with quiet_git(folder):
        options = ("--ruleset", ruleset, *open_options(ruleset))
        world = Campaign.create(folder / "git", settings={"repository": REPOSITORY}, options=options)
        world.sync(world.ci)
        # The site is built from a copy, so the runner's clone stays clean for the issue route.
        site_root = folder / "site-build"
        world.git(folder, "clone", "--quiet", str(world.origin), str(site_root))
        built = cli("site", "--root", site_root)
        assert built.code == 0, built.err
        with serve(site_root / "public") as base:
            yield FormSite(ruleset, world, base)


def plain(value: Any) -> bool:
    return isinstance(value, str | int | bool)


def typeable(value: Any) -> bool:
    """A value the test types field by field: text, a number, yes or no, a list of those, or a record of
    those under keys the player names (goods to buy)."""
    if isinstance(value, list):
        return bool(value) and all(map(plain, value))
    if isinstance(value, dict):
        return bool(value) and all(map(plain, value.values()))
    return plain(value)


def variants(order: dict[str, Any] | str) -> list[dict[str, Any]]:
    """The order as the bot gave it, else without the fields the test cannot type (an outfit's sets
    handed to named units), when what is left still makes an order. An order the bot wrote as a line of
    the game's notation (Diplomacy's) is typed into the form's kind for such lines, ``order``."""
    if isinstance(order, str):
        return [{"action": "order", "order": order}]
    if all(map(typeable, order.values())):
        return [order]
    kept = {k: v for k, v in order.items() if typeable(v)}
    return [kept] if len(kept) > 1 else []


def stands_alone(world: Campaign, faction: str, order: dict[str, Any]) -> bool:
    """Whether the check accepts ``order`` as the file's only order (a bot's build may need the tools
    its earlier order bought)."""
    data = {**yaml.safe_load(world.template(faction)), "orders": [order]}
    path = world.ci / "orders" / f"{faction}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    try:
        return cli("check", "--root", world.ci, path).code == 0
    finally:
        path.unlink()


def chosen_order(world: Campaign) -> tuple[str, dict[str, Any] | None]:
    """A player's faction and one of the orders its bot gives this turn, the first the test can type and
    the check accepts alone (None when there is none, as in a seasons campaign's first turn, whose bots
    give no order: the form then sends an article)."""
    played = [world.faction_of(LOGIN_OF[side]) for side in ("red", "blue", "green")]
    for faction in played:
        orders = yaml.safe_load(world.bot_orders(faction)).get("orders") or []
        for order in (v for o in orders for v in variants(o)):
            if stands_alone(world, faction, order):
                return faction, order
    return played[0], None


# The form keeps the fields of every kind of order it has shown, hidden, under the same names: the test
# types into the ones the player sees.
def field(tab: Any, path: str) -> Any:
    return tab.locator(f'[name="{path}"]').filter(visible=True)


def opt_in(tab: Any, path: str) -> None:
    ids = f'[id="{path}-opt-in"], .json-editor-opt-in[data-ck-id="{path}-opt-in"]'
    box = tab.locator(f".json-editor-opt-in{ids}")
    box = box.filter(visible=True)
    if box.count() and not box.is_checked():
        box.check()


def type_value(tab: Any, path: str, value: Any) -> None:
    element = field(tab, path)
    if element.evaluate("e => e.tagName") == "SELECT":
        element.select_option(value=json.dumps(value) if isinstance(value, bool) else str(value))
        if isinstance(value, bool) and element.input_value() != json.dumps(value):
            element.select_option(label=json.dumps(value))
    else:
        element.fill(str(value))
    element.dispatch_event("change")


def add_row(tab: Any, schema_path: str) -> None:
    """Press the "Add" button of a list (the list's own, not one of its rows')."""
    holder = tab.locator(f'[data-schemapath="{schema_path}"]')
    holder.locator("button.json-editor-btn-add").filter(visible=True).last.click()


def add_key(tab: Any, schema_path: str, key: str) -> None:
    """Name a key of a record (JSON Editor's "Object Properties" box), and close the box."""
    holder = tab.locator(f'[data-schemapath="{schema_path}"]').filter(visible=True).first
    toggle = holder.locator("button.json-editor-btntype-properties").first
    toggle.click()
    holder.locator("input.property-selector-input").first.fill(key)
    holder.locator(".je-modal button.json-editor-btntype-add").first.click()
    if holder.locator("input.property-selector-input").first.is_visible():
        toggle.click()


def fill_order(tab: Any, order: dict[str, Any]) -> None:
    add_row(tab, "root.orders")
    tab.locator('[id="root[orders][0]switcher"]').select_option(label=order["action"])
    for name, value in order.items():
        if name == "action":
            continue
        path = f"root[orders][0][{name}]"
        opt_in(tab, path)
        if isinstance(value, list):
            for i, item in enumerate(value):
                add_row(tab, f"root.orders.0.{name}")
                type_value(tab, f"{path}[{i}]", item)
        elif isinstance(value, dict):
            for key, item in value.items():
                add_key(tab, f"root.orders.0.{name}", key)
                type_value(tab, f"{path}[{key}]", item)
        else:
            type_value(tab, path, value)


def add_press(tab: Any, headline: str) -> None:
    opt_in(tab, "root[press]")
    add_row(tab, "root.press")
    type_value(tab, "root[press][0][headline]", headline)


def add_rumours(tab: Any, rumours: list[str]) -> None:
    opt_in(tab, "root[rumors]")
    for i, rumour in enumerate(rumours):
        add_row(tab, "root.rumors")
        type_value(tab, f"root[rumors][{i}]", rumour)


def check_orders(tab: Any) -> str:
    tab.locator(".ck-form-check").click()
    text = tab.locator(".ck-form-yaml")
    text.wait_for()
    return text.input_value()


def open_form(tab: Any, site: FormSite, faction: str) -> None:
    tab.goto(f"{site.base}factions/{faction}/", wait_until="load")
    tab.locator('#ck-send-orders[data-ready="true"]').wait_for()


def as_text(value: Any) -> Any:
    """Ids the schema takes as text or as a number come back from the form as text."""
    if isinstance(value, list):
        return [as_text(v) for v in value]
    if isinstance(value, dict):
        return {k: as_text(v) for k, v in value.items()}
    return value if isinstance(value, bool) else str(value)


def follow_issue_route(site: FormSite, faction: str, orders: str, issue: int) -> None:
    """The Orders issue with ``orders`` pasted in, through the workflow's steps: the branch, then the
    check of that branch as any pull request."""
    world = site.world
    with quiet_git(world.base):
        done, folder = send(world, issue_body(orders), world.login_of(faction), issue=issue)
        assert done.code == 0, done.err
        made = outputs(folder)
        assert made["faction"] == faction
        assert world.git(world.ci, "show", f"{made['commit']}:orders/{faction}.yaml") + "\n" == orders
        checked = world.check(
            PullRequest(made["branch"], world.login_of(faction), made["commit"]), base="HEAD"
        )
    assert checked.code == 0, checked.out + checked.comment
    assert "✅ Orders accepted" in checked.comment


def test_the_form_writes_orders_the_check_accepts(browser: Any, form_site: FormSite) -> None:
    world = form_site.world
    faction, order = chosen_order(world)
    template = yaml.safe_load(world.template(faction))
    with watched_tab(browser) as (tab, _):
        open_form(tab, form_site, faction)
        if order is not None:
            fill_order(tab, order)
        add_press(tab, HEADLINE)
        add_rumours(tab, RUMOURS)
        written = check_orders(tab)
        send_link = tab.locator("a.ck-form-send").get_attribute("href")
        instead = tab.locator("a.ck-form-issue-instead").get_attribute("href")
    # The file is the template's with the order and the article, nothing else.
    expected = {
        **template,
        "orders": [order] if order else [],
        "press": [{"headline": HEADLINE}],
        "rumors": RUMOURS,
    }
    assert as_text(yaml.safe_load(written)) == as_text(expected)
    # Text stays text, exactly, as PyYAML (YAML 1.1, as the engine's reader) reads it back.
    read = yaml.safe_load(written)
    assert read["rumors"] == RUMOURS and read["press"] == [{"headline": HEADLINE}]
    # In the template's order, each order's action first, every text quoted.
    head = f'campaign: "{template["campaign"]}"\nturn: {template["turn"]}\nfaction: "{faction}"\norders:'
    assert written.startswith(head), written
    if order is not None:
        assert f'\n  - action: "{order["action"]}"\n' in written, written
    # The prefilled new-file link: GitHub's page for a new file on main, with this name and this text.
    address = urllib.parse.urlsplit(send_link)
    assert f"{address.scheme}://{address.netloc}{address.path}" == f"{REPOSITORY}/new/main"
    query = urllib.parse.parse_qs(address.query)
    assert query == {"filename": [f"orders/{faction}.yaml"], "value": [written]}
    assert len(send_link) <= URL_LIMIT
    assert instead == f"{REPOSITORY}/issues/new?template=orders.yml"  # when the file is taken
    # The same text through the issue route: a branch the check accepts, as the workflow runs it.
    follow_issue_route(form_site, faction, written, issue=100 + RULESETS.index(form_site.ruleset))


# The route past the link's limit, and the schema's messages, are the same code in every ruleset.
@pytest.mark.parametrize("form_site", ["nations"], indirect=True)
def test_orders_too_long_for_a_link_go_through_the_issue_form(browser: Any, form_site: FormSite) -> None:
    rumour = "The salt merchants of the south are buying every boat on the river, and nobody knows why. " * 4
    article = "The harvest was good this year, and the granaries of Rinfell are full to the roof. " * 40
    with watched_tab(browser) as (tab, _):
        open_form(tab, form_site, "red")
        add_press(tab, HEADLINE)
        opt_in(tab, "root[press][0][body]")
        type_value(tab, "root[press][0][body]", article.strip())
        add_rumours(tab, [rumour.strip()] * 10)
        written = check_orders(tab)
        assert tab.locator("a.ck-form-send").count() == 0
        issue_link = tab.locator("a.ck-form-issue").get_attribute("href")
        words = tab.locator(".ck-form-result").inner_text()
    assert issue_link == f"{REPOSITORY}/issues/new?template=orders.yml"
    assert "too long for a link" in words
    assert len(urllib.parse.quote(written)) > URL_LIMIT
    assert yaml.safe_load(written)["rumors"] == [rumour.strip()] * 10
    follow_issue_route(form_site, "red", written, issue=200)


@pytest.mark.parametrize("form_site", ["nations"], indirect=True)
def test_the_form_says_what_to_fix_before_sending(browser: Any, form_site: FormSite) -> None:
    with watched_tab(browser) as (tab, _):
        open_form(tab, form_site, "red")
        opt_in(tab, "root[policies]")
        opt_in(tab, "root[policies][retreat_at_losses]")
        type_value(tab, "root[policies][retreat_at_losses]", 150)  # a percentage: at most 100
        tab.locator(".ck-form-check").click()
        problems = tab.locator(".ck-form-errors li").all_inner_texts()
        assert tab.locator(".ck-form-yaml").count() == 0 and tab.locator("a.ck-form-send").count() == 0
    assert problems and any("retreat_at_losses" in p and "100" in p for p in problems), problems


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_axe_finds_no_violation_on_the_form(
    browser: Any, form_site: FormSite, axe_source: str, viewport: str
) -> None:
    faction, order = chosen_order(form_site.world)
    with watched_tab(browser, *VIEWPORTS[viewport], touch=TOUCH[viewport]) as (tab, _):
        open_form(tab, form_site, faction)
        found = [v for v in run_axe(tab, axe_source)]
        if order is not None:
            fill_order(tab, order)
        add_press(tab, HEADLINE)
        check_orders(tab)
        found += run_axe(tab, axe_source)
    findings = [
        f"{v['id']} ({node['impact']}) at {' >> '.join(map(str, node['target']))}"
        for v in found
        for node in v["nodes"]
    ]
    assert not findings, "\n".join(findings[:40])
