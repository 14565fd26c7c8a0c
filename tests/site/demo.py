"""One small campaign and its built site, shared by the site tests and the browser tests.

Bots play five turns (a year and a season, so the chronicle has two year sections). Some player
text is hostile on purpose: a faction name and press, rumours and a GM tale full of HTML and
Markdown that must come out as text, with images that would load from outside the site.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from resolver import workflow
from resolver.bots import bot_order_file
from resolver.core import canonical
from resolver.publish import SiteReport, build_site
from resolver.store import Store

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


@dataclass(frozen=True)
class DemoSite:
    root: Path
    public: Path
    report: SiteReport
    press_turn: int  # the turn whose newspaper carries the <script> article


def make_campaign(root: Path, turns: int = TURNS) -> int:
    """Create and play the campaign; returns the turn that carries the hostile press."""
    root.mkdir(parents=True, exist_ok=True)
    players_file = root / "players-in.yaml"
    players_file.write_text(yaml.safe_dump(PLAYERS), encoding="utf-8")
    factions, players = workflow.factions_from_players(players_file)
    workflow.new_campaign(root, "nations", 3, factions, name="Test of the Site", players=players)
    press_turn = 2
    for turn in range(1, turns + 1):
        store = Store(root)
        state = store.state()
        game = store.game(state)
        for faction in game.factions:
            doc = yaml.safe_load(bot_order_file(game, state, faction).raw)
            if turn == press_turn and faction == "red":
                doc["press"] = [*doc.get("press", []), PRESS]
                doc["rumors"] = [*doc.get("rumors", []), RUMOR]
            canonical.write_atomic(store.orders_dir / f"{faction}.yaml", yaml.safe_dump(doc).encode())
        if turn == 3:
            gm = {"campaign": game.campaign, "turn": turn, "faction": "gm", "orders": [TALE]}
            canonical.write_atomic(store.orders_dir / "gm.yaml", yaml.safe_dump(gm).encode())
        workflow.resolve(root)
    return press_turn


_BUILT: dict[str, DemoSite] = {}


def demo_site(base: Path) -> DemoSite:
    """Build once per test session, whichever test folder asks first."""
    if "site" not in _BUILT:
        root = base / "campaign"
        press_turn = make_campaign(root)
        report = build_site(root)
        assert report.out is not None
        _BUILT["site"] = DemoSite(root, report.out, report, press_turn)
    return _BUILT["site"]
