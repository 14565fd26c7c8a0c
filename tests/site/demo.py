"""One small campaign and its built site, shared by the site tests and the browser tests.

Bots play five turns (a year and a season, so the chronicle has two year sections). Some player
text is hostile on purpose: a faction name and press, rumours and a GM tale full of HTML and
Markdown that must come out as text, with images that would load from outside the site.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver import workflow
from resolver.core import canonical
from resolver.core.factions import is_npc
from resolver.core.phases import State
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import Game
from resolver.publish.site import SiteReport, build_site
from resolver.store import resolution, sealing
from resolver.store.store import Store

SCRIPT = "<script>alert(1)</script>"
OUTSIDE = "http://203.0.113.9"  # TEST-NET-3: never a real host; any request to it fails the browser tests
HOSTILE_NAME = f"Evil <b>Co</b> *x* [link]({OUTSIDE}/a) ![img]({OUTSIDE}/n.png)"
PRESS = {
    "headline": SCRIPT,
    "body": f"{SCRIPT}\n\n![x]({OUTSIDE}/x.png) <img src={OUTSIDE}/y.png> {{: onclick=alert(3) }}",
}
RUMOR = f"[click](javascript:alert(2)) ![r]({OUTSIDE}/r.png) <iframe src={OUTSIDE}/f></iframe>"
TALE = {"action": "narrate", "headline": "A comet **burns** <i>bright</i>", "text": f"![c]({OUTSIDE}/c.png)"}
PLAYERS = {
    "factions": {
        "red": {"name": "Brightwater", "color": "#c0392b"},
        "blue": {"name": HOSTILE_NAME, "color": "#2e6fbd"},
        "green": {"name": "Kessmark", "color": "#2e8b57"},
        "gold": {"name": "Orlan Reach", "color": 'not-a-colour" onload="alert(4)'},
    }
}
TURNS = 5
# A ruleset whose bots first fight later than the fifth turn plays on to that fight, so every shared
# site demo has a turn of war to report (usurper's bots gather and build for five weeks first).
FIRST_FIGHT = {"usurper": 6}


@dataclass(frozen=True)
class DemoSite:
    root: Path
    public: Path
    report: SiteReport
    press_turn: int  # the turn whose newspaper carries the <script> article


OrderEdit = Callable[[int, str, dict[str, Any]], None]  # turn, faction, the bot's order file to change
GmOrders = Callable[[int, Game, State], list[dict[str, Any]]]  # turn, game, state: the GM's orders


@contextlib.contextmanager
def no_campaign_key() -> Iterator[None]:
    """Play an open demo as a fresh process would: without a campaign key. A key given to a CLI call
    (``--key-file``) stays in the process after the call returns (``sealing.use_key_file``), and so does
    one an earlier test put in the environment; a key in the process salts an open campaign's dice too
    (from its second turn on), so a shared demo played after such a test would be another game than the
    one its tests were written for. The key comes back afterwards, for whoever held it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sealing, "_override", [])
        patch.delenv(sealing.KEY_VARIABLE, raising=False)
        yield


def play_campaign(
    root: Path,
    ruleset: str,
    seed: int,
    name: str,
    players: dict[str, Any],
    turns: int,
    edit: OrderEdit,
    gm: GmOrders,
) -> None:
    """Create a campaign for ``players`` and play ``turns`` turns: bots write the orders, ``edit`` changes
    them, and the GM gives the orders ``gm`` returns (none when it returns an empty list)."""
    root.mkdir(parents=True, exist_ok=True)
    players_file = root / "players-in.yaml"
    players_file.write_text(yaml.safe_dump(players), encoding="utf-8")
    factions, chosen = workflow.factions_from_players(players_file)
    with no_campaign_key():
        workflow.new_campaign(root, ruleset, seed, factions, name=name, players=chosen)
        _play(root, turns, edit, gm)


def _play(root: Path, turns: int, edit: OrderEdit, gm: GmOrders) -> None:
    for turn in range(1, turns + 1):
        store = Store(root)
        state = store.state()
        game = store.game(state)
        for faction in game.factions:
            if is_npc(state, faction):
                continue  # the ruleset's bot plays an NPC people; it takes no order file
            doc = yaml.safe_load(bot_order_file(game, state, faction).raw)
            edit(turn, faction, doc)
            canonical.write_atomic(store.orders_dir / f"{faction}.yaml", yaml.safe_dump(doc).encode())
        orders = gm(turn, game, state)
        if orders:
            doc = {"campaign": game.campaign, "turn": turn, "faction": "gm", "orders": orders}
            canonical.write_atomic(store.orders_dir / "gm.yaml", yaml.safe_dump(doc).encode())
        resolution.resolve(root)


def make_campaign(root: Path, turns: int = TURNS) -> int:
    """Create and play the campaign; returns the turn that carries the hostile press."""
    press_turn = 2

    def edit(turn: int, faction: str, doc: dict[str, Any]) -> None:
        if turn == press_turn and faction == "red":
            doc["press"] = [*doc.get("press", []), PRESS]
            doc["rumors"] = [*doc.get("rumors", []), RUMOR]

    play_campaign(
        root,
        "nations",
        3,
        "Test of the Site",
        PLAYERS,
        turns,
        edit,
        lambda turn, game, state: [TALE] if turn == 3 else [],
    )
    return press_turn


def commit_new_campaign(root: Path, home: Path) -> None:
    """Make ``root`` a git repository whose one commit, on Monday 2024-01-01 12:00 UTC, opens turn 1: with
    the default schedule its deadline is Friday 2024-01-05 18:00 UTC."""
    import subprocess

    when = {"GIT_AUTHOR_DATE": "2024-01-01T12:00:00Z", "GIT_COMMITTER_DATE": "2024-01-01T12:00:00Z"}
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", **when}
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "new"],
    ):
        subprocess.run(["git", *args], cwd=root, env=env, check=True)


_BUILT: dict[str, DemoSite] = {}


def demo_site(base: Path) -> DemoSite:
    """Build once per test session, whichever test folder asks first."""
    if "site" not in _BUILT:
        root = base / "campaign"
        press_turn = make_campaign(root)
        with no_campaign_key():
            report = build_site(root)
        assert report.out is not None
        _BUILT["site"] = DemoSite(root, report.out, report, press_turn)
    return _BUILT["site"]


def bot_demo_site(root: Path, ruleset: str, turns: int | None = None) -> DemoSite:
    """The site a GM sees after `campaign demo --ruleset RULESET --seed 1` (four factions, or Diplomacy's
    seven powers), after ``turns``
    turns (by default five, a year and a season, so a nations chronicle has two years, or as many as the
    ruleset's bots need for their first fight). No player wrote press."""
    default = max(TURNS, FIRST_FIGHT.get(ruleset, TURNS))
    turns = default if turns is None else turns
    key = f"demo-{ruleset}" if turns == default else f"demo-{ruleset}-{turns}"
    if key not in _BUILT:
        with no_campaign_key():
            factions = workflow.ruleset_factions(ruleset, None, 1)  # as `campaign demo` makes them
            workflow.new_campaign(root, ruleset, 1, factions, name=f"Demo of {ruleset}")
            for _ in range(turns):
                workflow.play_bot_turn(root)
            report = build_site(root)
        assert report.out is not None
        _BUILT[key] = DemoSite(root, report.out, report, press_turn=0)
    return _BUILT[key]
