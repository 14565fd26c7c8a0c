"""A late joiner, as the README tells the GM to seat one, through git (issue 20 point 1): the GM's
``add_faction`` order and the newcomer's line in ``campaign/players.yaml`` in one pull request; the
newcomer's early orders refused with the reason; the site built after the joining turn and the turn
after; the newcomer's first orders accepted and resolved. In every ruleset that seats late joiners,
open and sealed."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pyrage
import pytest
import yaml

from resolver.core import canonical
from resolver.engine.ruleset import RULESETS, get_ruleset
from resolver.store import sealing
from resolver.store.store import Store

from .gitsim import Campaign, cli
from .sealedsim import sealed_campaign
from .test_sealed_git import with_key

REPO = Path(__file__).resolve().parents[2]
LATE_JOINERS = [r for r in RULESETS if get_ruleset(r).can_add_factions]


def readme_late_joiner() -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The README's GM order that seats a late joiner, and the faction id and entry it lists the
    newcomer under in campaign/players.yaml, word for word."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = [textwrap.dedent(b) for b in re.findall(r"```yaml\n(.*?)```", text, re.S)]
    index = next(i for i, block in enumerate(blocks) if "action: add_faction" in block)
    (order,) = yaml.safe_load(blocks[index])
    ((faction, entry),) = yaml.safe_load(blocks[index + 1]).items()
    return order, faction, entry


def campaign_id(clone: Path) -> str:
    return str(canonical.read_yaml(clone / "campaign/campaign.yaml")["campaign"])


class Table:
    """The campaign on the git stand-in, open or sealed, and what its GM and newcomer do to it."""

    def __init__(self, tmp_path: Path, ruleset: str, sealed: bool) -> None:
        self.sealed = sealed
        if sealed:
            _, self.world = sealed_campaign(tmp_path, ruleset)
        else:
            self.world = Campaign.create(tmp_path / "game", options=("--ruleset", ruleset))
        self.order, self.faction, self.entry = readme_late_joiner()
        self.login = self.entry["logins"][0]
        self.key = tmp_path / "newcomer-key.txt"
        identity = pyrage.x25519.Identity.generate()
        self.key.write_text(f"{identity}\n", encoding="utf-8")
        if sealed:
            self.entry = {**self.entry, "recipients": [str(identity.to_public())]}
        self.suffix = ".yaml.age" if sealed else ".yaml"

    def key_env(self) -> Any:
        return with_key(self.world) if self.sealed else _nothing()

    def turn(self) -> int:
        with self.key_env():
            return int(self.world.state()["turn"])

    def players_with_newcomer(self) -> bytes:
        gm = self.world.clone("dora")
        self.world.sync(gm)
        players = canonical.read_yaml(gm / "campaign/players.yaml")
        players["factions"][self.faction] = self.entry
        return canonical.dump(players)

    def gm_orders(self, turn: int) -> bytes:
        """The GM's order file holding the README's add_faction order, sealed in a sealed campaign."""
        gm = self.world.clone("dora")
        self.world.sync(gm)
        raw = canonical.dump(
            {"campaign": campaign_id(gm), "turn": turn, "faction": "gm", "orders": [self.order]}
        )
        (gm / "orders/gm.yaml").write_bytes(raw)
        if not self.sealed:
            return raw
        # As the README says: the GM seals the file with the campaign's key file.
        sealed = cli(
            "seal", "--root", gm, gm / "orders/gm.yaml", "--key-file", self.world.base / "gm-key.txt"
        )
        assert sealed.code == 0, sealed.out + sealed.err
        return (gm / "orders/gm.yaml.age").read_bytes()

    def newcomer_orders(self) -> tuple[Path, bytes]:
        """What the newcomer sends as the README says: the template of the turn, checked (and sealed)."""
        clone = self.world.clone(self.login)
        self.world.sync(clone)
        if self.sealed:
            viewed = cli("view", "--root", clone, "--identity", self.key)
            assert viewed.code == 0, viewed.err
        path = clone / "orders" / f"{self.faction}.yaml"
        written = cli("template", self.faction, "--root", clone, "-o", path)
        assert written.code == 0, written.err
        checked = cli("check", "--root", clone, path)
        assert checked.code == 0, checked.out + checked.err
        if self.sealed:
            assert cli("seal", "--root", clone, path).code == 0
            path = path.with_name(path.name + ".age")
        return path, path.read_bytes()

    def resolve(self) -> None:
        with self.key_env():
            done = self.world.resolve("--commit", "--force")
        assert done.code == 0, done.out + done.err

    def build_site(self) -> str:
        """The "Build the site" job: a fresh checkout of main, campaign site, no key."""
        pages = self.world.clone("pages")
        self.world.sync(pages)
        built = cli("site", "--root", pages)
        assert built.code == 0, built.out + built.err
        return (pages / "site/factions" / self.faction / "index.md").read_text(encoding="utf-8")


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
@pytest.mark.parametrize("ruleset", LATE_JOINERS)
def test_a_late_joiner_seated_as_the_readme_says_plays_and_the_site_keeps_building(
    tmp_path: Path, ruleset: str, sealed: bool
) -> None:
    table = Table(tmp_path, ruleset, sealed)
    world, faction = table.world, table.faction
    assert table.order["id"] == faction  # the README lists the newcomer under the order's id
    turn = table.turn()
    gm_pr = world.pull_request(
        "dora",
        "late-joiner",
        {
            f"orders/gm{table.suffix}": table.gm_orders(turn),
            "campaign/players.yaml": table.players_with_newcomer(),
        },
    )
    checked = world.check(gm_pr)
    assert checked.code == 0, checked.out + checked.comment
    world.merge(gm_pr)

    # Before the turn is resolved the newcomer's orders are refused, with what to do next.
    early = canonical.dump(
        {"campaign": campaign_id(world.ci), "turn": turn, "faction": faction, "orders": []}
    )
    if sealed:
        early = sealing.encrypt(early, Store(world.ci).recipients([faction]), sealing.ORDER_FILE_SIZE)
    too_soon = world.check(
        world.pull_request(table.login, "too-soon", {f"orders/{faction}{table.suffix}": early})
    )
    assert too_soon.code == 1
    assert (
        f"{faction} is listed in campaign/players.yaml but has not joined the campaign yet"
        in too_soon.comment
    )
    assert f"campaign template {faction}" in too_soon.comment

    table.resolve()  # the joining turn
    page = table.build_site()
    assert f"{table.entry['name']}, units:" in page and f"when it joined in turn {turn}" in page

    # The newcomer's next step: the template of the next turn, checked, sent and resolved.
    path, raw = table.newcomer_orders()
    pr = world.pull_request(table.login, "first-orders", {f"orders/{path.name}": raw})
    accepted = world.check(pr)
    assert accepted.code == 0, accepted.out + accepted.comment
    world.merge(pr)
    table.resolve()
    inputs = canonical.read_yaml(world.ci / f"campaign/turns/{turn + 1:04d}/inputs.yaml")
    assert faction not in inputs["missing"]
    page = table.build_site()
    # Before it joined, the newcomer has no numbers: its table starts at its first turn.
    assert re.search(r'<tr><th scope="row">0</th>(<td>–</td>)+</tr>', page)


def test_a_sealed_newcomer_listed_after_the_joining_turn_gets_the_view_resealed(tmp_path: Path) -> None:
    """The README's other path: the newcomer's key came late, so the GM reseals the view."""
    table = Table(tmp_path, LATE_JOINERS[0], sealed=True)
    world = table.world
    gm = world.clone("dora")
    world.sync(gm)
    (gm / "orders/gm.yaml.age").write_bytes(table.gm_orders(table.turn()))
    world.commit(gm, "dora", "A late joiner")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    table.resolve()
    (gm / "campaign/players.yaml").write_bytes(table.players_with_newcomer())
    world.commit(gm, "dora", "The newcomer's key")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")

    newcomer = world.clone(table.login)
    world.sync(newcomer)
    refused = cli("view", "--root", newcomer, "--identity", table.key)
    assert refused.code != 0 and f"campaign reseal --faction {table.faction}" in refused.err
    resealed = cli(
        "reseal", "--faction", table.faction, "--root", gm, "--key-file", world.base / "gm-key.txt"
    )
    assert resealed.code == 0, resealed.err
    world.commit(gm, "dora", "Reseal the newcomer's view")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    table.newcomer_orders()  # the view opens; the template and the check work from it
