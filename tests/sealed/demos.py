"""Sealed demos of every ruleset, played once per test session and shared by the tests of sealed campaigns.

Each is what a GM gets from `campaign demo --ruleset X --sealed --turns 8` (usurper: 12 weeks, so that lairs
are scouted, goods stored, fights fought and the Victory Points counted once): bots play, the campaign key
lies in the demo folder. A test that needs the hidden truth (every turn's full state) replays the archive
with that key; one that plays the attacker reads only the public files.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path

from resolver import workflow
from resolver.cli import main
from resolver.core.phases import State
from resolver.engine.ruleset import Game
from resolver.publish.site import build_site
from resolver.store import replay, sealing
from resolver.store.store import Store

TURNS = 8
# A usurper's week is a small step: three months (one VP count, at week 8) before its secrets mean much.
TURNS_OF = {"usurper": 12}


def turns_of(ruleset: str) -> int:
    """How many turns the sealed demo of ``ruleset`` plays."""
    return TURNS_OF.get(ruleset, TURNS)


def sealed_demo(base: Path, ruleset: str) -> Path:
    """The sealed demo of ``ruleset`` under ``base``, played on first use."""
    root = base / ruleset
    if not (root / workflow.DEMO_KEY).is_file():
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = main(
                [
                    "demo",
                    "--ruleset",
                    ruleset,
                    "--sealed",
                    "--turns",
                    str(turns_of(ruleset)),
                    "--root",
                    str(root),
                ]
            )
        sealing.forget_key()
        assert code == 0, out.getvalue()
    return root


def sealed_site(base: Path, ruleset: str) -> Path:
    """The built site of the sealed demo (its ``public/`` folder), built without the key as CI builds it."""
    root = sealed_demo(base, ruleset)
    public = root / "public"
    if not (public / "index.html").is_file():
        sealing.forget_key()
        build_site(root, None)
    return public


@contextlib.contextmanager
def with_key(root: Path) -> Iterator[None]:
    sealing.use_key_file(root / workflow.DEMO_KEY)
    try:
        yield
    finally:
        sealing.forget_key()


def full_states(root: Path) -> tuple[Game, list[State]]:
    """The game and every turn's full state, the start included, replayed from the archive with the key."""
    with with_key(root):
        store = Store(root)
        archived = store.archived_turns()
        replayed = list(replay.replay_archive(store, archived[-1], render_reports=False))
        assert all(r.result is not None and not r.problems for r in replayed)
        states = [replayed[0].state_before, *(r.result.state for r in replayed if r.result is not None)]
        return store.game(states[-1]), states
