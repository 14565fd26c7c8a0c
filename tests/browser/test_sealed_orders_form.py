"""The "Send orders" form of a sealed campaign, in Chromium, for every ruleset: it seals in the browser.

Each ruleset gets a sealed campaign played through git as GitHub would host it (tests/git/gitsim: a bare
origin, the GM's clone, the runner's clone), with a GitHub repository named, and red's player listed with
an age key of their own (nations: also an ssh-ed25519 and an ssh-rsa key, the SSH keys age seals to). Its
site is built without the campaign key, as CI's site job builds it, and served from 127.0.0.1. The player
opens red's page, types one of the orders the bot would give, a press article and YAML-1.1-tricky rumours,
presses "Check and seal the orders", and downloads the sealed file. Then, in Python:

- the file opens with the campaign key, and with each of red's own keys, to exactly the text the form
  showed, which `campaign check` accepts;
- it has the one length of a sealed order file (`sealing.is_padded_order_file`), the length of the file
  `campaign seal` makes of the same text;
- pushed as `orders/red.yaml.age` on the player's branch (what GitHub's upload page commits), the
  pull-request check, which has no key, accepts it.

No request leaves the site, and none carries anything but a GET of the site's own files: the plain
orders stay in the page. axe-core finds no violation on the sealed form, empty and sealed, on a phone
(touch) in every ruleset and on a laptop.
"""

from __future__ import annotations

import contextlib
import copy
import html
import json
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.engine.ruleset import RULESETS
from resolver.store import sealing
from resolver.store.store import Store

from .. import sides
from ..git.gitsim import LOGIN_OF, PLAYERS, Campaign, cli
from .conftest import serve, watched_tab
from .test_accessibility import TOUCH, VIEWPORTS, run_axe
from .test_orders_form import (
    HEADLINE,
    REPOSITORY,
    RUMOURS,
    add_press,
    add_row,
    add_rumours,
    as_text,
    fill_order,
    opt_in,
    quiet_git,
    type_value,
    variants,
)

FACTION = "red"  # the README's faction; a campaign seats it as its first side (``site.faction``)
# What the page says, which the README's "For players who do not use git" quotes (see the last test).
PAGE_WORDS = {
    "button": "Check and seal the orders",
    "download": f"Download the sealed file {FACTION}.yaml.age",
    "upload": "Open GitHub's upload page for the orders folder",
    "fork": "fork the campaign's repository",
}
STEP_WORDS = (
    '"Sync fork"',
    '"Update branch"',
    '"Add file", then "Upload files"',
    '"Create a new branch for this commit and start a pull request"',
    '"Propose changes"',
    '"Create pull request"',
)
START_LABEL = "Start from a file of yours (optional)"
STANZA_OF = {"age": "X25519", "ed25519": "ssh-ed25519", "rsa": "ssh-rsa"}  # red's keys: their age stanzas


@dataclass
class SealedFormSite:
    ruleset: str
    world: Campaign
    base: str  # the served site
    public: Path  # the built site
    key_file: Path  # the campaign key
    faction: str  # red's seat in this ruleset: red, or Diplomacy's Austria
    identities: dict[str, Path] = field(default_factory=dict)  # red's own keys: kind -> private key file


@contextlib.contextmanager
def campaign_key(site: SealedFormSite) -> Iterator[None]:
    """The campaign key for this process, for what the test reads in it (the bot's orders); forgotten
    afterwards, so the pull-request check runs without it, as on GitHub. Commands get --key-file."""
    sealing.use_key_file(site.key_file)
    try:
        yield
    finally:
        sealing.forget_key()


def ssh_key(folder: Path, kind: str) -> tuple[Path, str]:
    """A fresh SSH key pair without passphrase (ssh-keygen): its private key file and its .pub line."""
    path = folder / f"id_{kind}"
    options = ["-t", "rsa", "-b", "2048"] if kind == "rsa" else ["-t", kind]
    subprocess.run(["ssh-keygen", "-q", *options, "-N", "", "-C", "", "-f", str(path)], check=True)
    return path, path.with_suffix(".pub").read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module", params=RULESETS)
def sealed_site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SealedFormSite]:
    ruleset = request.param
    folder = tmp_path_factory.mktemp(f"sealed-form-{ruleset}")
    identities: dict[str, Path] = {}
    secret, public = sealing.new_key()
    identities["age"] = folder / "red-age-key.txt"
    identities["age"].write_text(secret + "\n", encoding="utf-8")
    recipients = [public]
    if ruleset == "nations":  # the SSH keys age seals to, which age-encryption leaves to the form
        for kind in ("ed25519", "rsa"):
            identities[kind], line = ssh_key(folder, kind)
            recipients.append(line)
    roster = copy.deepcopy(PLAYERS)
    seat = sides.seats(ruleset, roster["factions"])
    roster["factions"] = {seat[f]: entry for f, entry in roster["factions"].items()}
    faction = seat[FACTION]
    roster["factions"][faction]["recipients"] = recipients
    key_file = folder / "campaign-key.txt"
    with quiet_git(folder):
        options = ("--ruleset", ruleset, "--sealed", "--key-file", str(key_file))
        world = Campaign.create(
            folder / "git", settings={"repository": REPOSITORY}, roster=roster, options=options
        )
        world.sync(world.ci)
        site_root = folder / "site-build"
        world.git(folder, "clone", "--quiet", str(world.origin), str(site_root))
        built = cli("site", "--root", site_root)  # no key: as CI's site job
        assert built.code == 0, built.err
        with serve(site_root / "public") as base:
            yield SealedFormSite(ruleset, world, base, site_root / "public", key_file, faction, identities)


def template(site: SealedFormSite) -> str:
    """Red's template for this turn, as `campaign template` writes it from the full state (the GM's way;
    a player's comes from their view)."""
    done = cli("template", site.faction, "--root", site.world.ci, "--key-file", site.key_file)
    assert done.code == 0, done.err
    return done.out


def check_plain(site: SealedFormSite, text: str) -> tuple[int, str]:
    """`campaign check` on ``text`` as orders/red.yaml in the runner's clone (ignored by git in a sealed
    campaign); with the key, as the resolver will read it."""
    path = site.world.ci / "orders" / f"{site.faction}.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        done = cli("check", "--root", site.world.ci, "--key-file", site.key_file, path)
        return done.code, done.out + done.err
    finally:
        path.unlink()


def cli_sealed(site: SealedFormSite, text: str) -> bytes:
    """What `campaign seal` makes of ``text``."""
    path = site.world.ci / "orders" / f"{site.faction}.yaml"
    path.write_text(text, encoding="utf-8")
    sealed = path.with_name(path.name + sealing.SUFFIX)
    try:
        done = cli("seal", "--root", site.world.ci, "--key-file", site.key_file, path)
        assert done.code == 0, done.out + done.err
        return sealed.read_bytes()
    finally:
        path.unlink()
        sealed.unlink(missing_ok=True)


def chosen_order(site: SealedFormSite, heading: dict[str, Any]) -> dict[str, Any] | None:
    """One of the orders red's bot gives this turn that the test can type and the check accepts alone
    (None when there is none, as in a seasons campaign's first turn: the form then seals an article)."""
    with campaign_key(site):
        orders = yaml.safe_load(site.world.bot_orders(site.faction)).get("orders") or []
    for order in (v for o in orders for v in variants(o)):
        text = yaml.safe_dump({**heading, "orders": [order]}, sort_keys=False)
        if check_plain(site, text)[0] == 0:
            return order
    return None


def open_sealed_form(tab: Any, site: SealedFormSite) -> list[str]:
    """Open red's page and wait for the form; returns the list the tab's requests are recorded in, from
    then on."""
    tab.goto(f"{site.base}factions/{site.faction}/", wait_until="load")
    tab.locator('#ck-send-orders[data-ready="true"]').wait_for()
    requests: list[str] = []
    tab.on("request", lambda r: requests.append(f"{r.method} {r.url} {r.post_data or ''}"))
    return requests


def seal_and_download(tab: Any) -> tuple[str, bytes, str]:
    """Press "Check and seal", then download the sealed file: the text shown, the file, its name."""
    tab.locator(".ck-form-check").click()
    tab.locator("a.ck-form-download").wait_for()
    written = tab.locator(".ck-form-yaml").input_value()
    with tab.expect_download() as info:
        tab.locator("a.ck-form-download").click()
    download = info.value
    return written, Path(download.path()).read_bytes(), download.suggested_filename


def findings(found: list[dict[str, Any]]) -> list[str]:
    return [
        f"{v['id']} ({node['impact']}) at {' >> '.join(map(str, node['target']))}"
        for v in found
        for node in v["nodes"]
    ]


def test_the_sealed_form_seals_orders_the_check_accepts(
    browser: Any, sealed_site: SealedFormSite, axe_source: str
) -> None:
    site = sealed_site
    heading = yaml.safe_load(template(site))
    order = chosen_order(site, heading)
    with watched_tab(browser, *VIEWPORTS["phone"], touch=TOUCH["phone"]) as (tab, _):
        requests = open_sealed_form(tab, site)
        found = run_axe(tab, axe_source)
        if order is not None:
            fill_order(tab, order)
        add_press(tab, HEADLINE)
        add_rumours(tab, RUMOURS)
        written, sealed, name = seal_and_download(tab)
        upload = tab.locator("a.ck-form-upload").get_attribute("href")
        fork = tab.locator("a.ck-form-fork").get_attribute("href")
        steps = tab.locator(".ck-form-steps").inner_text()
        words = {
            "button": tab.locator(".ck-form-check").inner_text(),
            "download": tab.locator("a.ck-form-download").inner_text(),
            "upload": tab.locator("a.ck-form-upload").inner_text(),
            "fork": tab.locator("a.ck-form-fork").inner_text(),
        }
        found += run_axe(tab, axe_source)
    assert not findings(found), "\n".join(findings(found)[:40])
    # The plain orders stayed in the page: the only requests after it loaded fetched the site's own files.
    assert all(r.startswith(f"GET {site.base}") and r.endswith(" ") for r in requests), requests
    assert not any(RUMOURS[-1] in r or HEADLINE.split()[0] in r for r in requests)
    # The text is this turn's order file: the template's heading, the order, the article, the rumours.
    expected = {
        **heading,
        "orders": [order] if order else [],
        "press": [{"headline": HEADLINE}],
        "rumors": RUMOURS,
    }
    assert as_text(yaml.safe_load(written)) == as_text(expected)
    assert written.startswith(
        f'campaign: "{heading["campaign"]}"\nturn: {heading["turn"]}\nfaction: "{site.faction}"\n'
    )
    assert check_plain(site, written)[0] == 0, check_plain(site, written)[1]
    # The file opens with the campaign key, and with each of red's own keys, to exactly that text.
    campaign_secret = sealing.read_key_text(site.key_file.read_text(encoding="utf-8"))
    assert sealing.decrypt_with_key(sealed, campaign_secret) == written.encode()
    for kind, path in site.identities.items():
        assert sealing.decrypt(sealed, [sealing.load_identity(path)], kind) == written.encode(), kind
    # One length for every sealed order file: the one `campaign seal` gives the same text, and the check's.
    assert name == f"{site.faction}.yaml.age"
    assert sealing.is_padded_order_file(sealed)
    assert len(sealed) == len(cli_sealed(site, written))
    header = [stanza.kind for stanza in sealing.read_header(sealed)]
    assert sorted(header) == sorted(
        ["X25519", "X25519", *(["ssh-ed25519", "ssh-rsa"] if site.identities.get("rsa") else [])]
    )
    # GitHub's upload page for the orders folder, its fork page, and the steps, in the README's words.
    assert upload == f"{REPOSITORY}/upload/main/orders" and fork == f"{REPOSITORY}/fork"
    assert words == {**PAGE_WORDS, "download": f"Download the sealed file {site.faction}.yaml.age"}
    assert all(phrase in steps for phrase in STEP_WORDS), steps
    # Uploaded on a branch of the player's, as GitHub's upload page commits it: the check, keyless, accepts.
    world = site.world
    with quiet_git(world.base):
        pr = world.pull_request(
            LOGIN_OF[FACTION], "upload-orders", {f"orders/{site.faction}.yaml.age": sealed}
        )
        checked = world.check(pr)
    assert checked.code == 0, checked.out + checked.err + checked.comment
    assert "✅ Orders accepted" in checked.comment


def test_the_page_publishes_the_recipients_campaign_seal_uses(sealed_site: SealedFormSite) -> None:
    """The recipients on red's page are Store.recipients([red]), as `campaign seal` takes them (the campaign
    key, then red's own keys), and the sealing rules are sealing's own; an open site serves no age."""
    page = (sealed_site.public / "factions" / sealed_site.faction / "index.html").read_text(encoding="utf-8")
    attributes = dict(
        re.findall(r'data-([a-z-]+)="([^"]*)"', page[page.index('id="ck-send-orders"') :].split(">")[0])
    )
    with campaign_key(sealed_site):
        wanted = Store(sealed_site.world.ci).recipients([sealed_site.faction])
    assert json.loads(html.unescape(attributes["recipients"])) == wanted
    assert len(wanted) == 1 + len(sealed_site.identities)
    rules = json.loads(html.unescape(attributes["sealing"]))
    assert rules["size"] == sealing.ORDER_FILE_SIZE and rules["magic"] == sealing.PAD_MAGIC.decode()
    assert rules["grease_room"] == sealing.GREASE_ROOM
    assert attributes["file"] == f"orders/{sealed_site.faction}.yaml.age" and attributes["template"] == ""
    assert (sealed_site.public / "assets/campaign/vendor/form/age.js").is_file()
    # No faction's template is published (it would show positions), and the page links none.
    assert not list((sealed_site.public / "play/templates").glob("*.yaml"))
    assert "play/templates/" not in page


# What follows is the same code in every ruleset: nations' campaign serves.
@pytest.mark.parametrize("sealed_site", ["nations"], indirect=True)
def test_the_form_starts_from_a_file_of_the_players(
    browser: Any, sealed_site: SealedFormSite, tmp_path: Path
) -> None:
    """A file picked on the player's machine (orders kept from an earlier turn) fills the form, set to this
    turn; one of another faction is refused and changes nothing."""
    site = sealed_site
    heading = yaml.safe_load(template(site))
    order = chosen_order(site, heading)
    kept = {**heading, "turn": heading["turn"] + 3, "orders": [order] if order else [], "rumors": RUMOURS}
    mine = tmp_path / f"{site.faction}.yaml"
    mine.write_text(yaml.safe_dump(kept, sort_keys=False), encoding="utf-8")
    theirs = tmp_path / "blue.yaml"
    theirs.write_text(yaml.safe_dump({**heading, "faction": "blue"}, sort_keys=False), encoding="utf-8")
    with watched_tab(browser) as (tab, _):
        open_sealed_form(tab, site)
        picker = tab.get_by_label(START_LABEL)
        picker.set_input_files(str(theirs))
        refused = tab.locator(".ck-form-status")
        refused.filter(has_text="holds the orders of blue").wait_for()
        picker.set_input_files(str(mine))
        tab.locator(".ck-form-status").filter(has_text=f"set to turn {heading['turn']}").wait_for()
        written, sealed, _ = seal_and_download(tab)
    assert as_text(yaml.safe_load(written)) == as_text({**kept, "turn": heading["turn"]})
    campaign_secret = sealing.read_key_text(site.key_file.read_text(encoding="utf-8"))
    assert sealing.decrypt_with_key(sealed, campaign_secret) == written.encode()
    assert check_plain(site, written)[0] == 0


@pytest.mark.parametrize("sealed_site", ["nations"], indirect=True)
def test_the_form_says_why_it_cannot_seal(browser: Any, sealed_site: SealedFormSite) -> None:
    """Orders over the order cap are not sealed (the resolver would refuse them), nor orders for a
    recipient the form cannot seal to; the player is told why and offered no file."""
    with watched_tab(browser) as (tab, _):
        open_sealed_form(tab, sealed_site)
        # Six articles of 4,000 characters, the schema's most, in a script of three bytes a character: within
        # the schema, past the order cap of 64 KiB.
        opt_in(tab, "root[press]")
        for i in range(6):
            add_row(tab, "root.press")
            type_value(tab, f"root[press][{i}][headline]", HEADLINE)
            opt_in(tab, f"root[press][{i}][body]")
            type_value(tab, f"root[press][{i}][body]", "語" * 4000)
        tab.locator(".ck-form-check").click()
        too_long = tab.locator(".ck-form-seal-error").inner_text()
        assert tab.locator("a.ck-form-download").count() == 0
        # A key of a kind age does not take (an ECDSA SSH key), as a hand-edited players file could hold.
        tab.locator("#ck-send-orders").evaluate(
            """box => { box.dataset.recipients = JSON.stringify(
                 [JSON.parse(box.dataset.recipients)[0], "ecdsa-sha2-nistp256 AAAAE2VjZHNh"]); }"""
        )
        for i in range(6):
            type_value(tab, f"root[press][{i}][body]", "Short.")
        tab.locator(".ck-form-check").click()
        tab.locator(".ck-form-seal-error").filter(has_text="Key 2").wait_for()
        wrong_key = tab.locator(".ck-form-seal-error").inner_text()
        assert tab.locator("a.ck-form-download").count() == 0
    assert "at most 65536" in too_long and "Shorten" in too_long, too_long
    assert "not one the form can seal to" in wrong_key and "campaign doctor" in wrong_key, wrong_key


@pytest.mark.parametrize("sealed_site", ["nations"], indirect=True)
def test_axe_finds_no_violation_on_the_sealed_form_on_a_laptop(
    browser: Any, sealed_site: SealedFormSite, axe_source: str
) -> None:
    with watched_tab(browser, *VIEWPORTS["laptop"], touch=TOUCH["laptop"]) as (tab, _):
        open_sealed_form(tab, sealed_site)
        found = run_axe(tab, axe_source)
        add_press(tab, HEADLINE)
        seal_and_download(tab)
        found += run_axe(tab, axe_source)
    assert not findings(found), "\n".join(findings(found)[:40])


def test_the_readme_quotes_the_page() -> None:
    """The README's steps for a sealed campaign use the page's own words, which the browser tests read."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## For players who do not use git") :]
    section = " ".join(section[: section.index("\n## ")].split())  # lines joined, as they are read
    for phrase in [*PAGE_WORDS.values(), *STEP_WORDS, START_LABEL]:
        assert phrase in section, phrase
