"""The "Resolve turn" workflow, run as written through act: a scheduled run before the turn is due
changes nothing and builds no site; once every faction's orders are merged, the next scheduled run
resolves the turn, commits and tags it, pushes both to the (bare) origin with the bot token, builds
the site from what it pushed, and publishes it."""

from __future__ import annotations

import base64
from datetime import timedelta
from pathlib import Path

from ..git.gitsim import Campaign
from .act import REPOSITORY, Rehearsal, schedule_event
from .conftest import fork_of_the_kit
from .github_api import GitHub, Server

BOT_TOKEN = "rehearsal-bot-token"


def test_a_due_turn_is_resolved_committed_tagged_pushed_and_published(
    world: Campaign, rehearsal: Rehearsal, github: tuple[GitHub, Server]
) -> None:
    rehearsal.secrets = {"CAMPAIGN_BOT_TOKEN": BOT_TOKEN, "CAMPAIGN_AGE_KEY": ""}
    start = world.git(world.origin, "rev-parse", "main")

    # Nobody has sent orders and the deadline is days away: the run says so and does nothing.
    run = rehearsal.act("resolve.yml", "schedule", schedule_event())
    assert run.code == 0, run.log
    assert run.jobs == {"resolve": "success"}, run.log  # the site job's condition skips it, and deploy
    said = run.printed("resolve")
    assert "Turn 1 is not due: no orders yet from" in said, said
    assert all(faction in said for faction in ("red", "blue", "green")), said
    assert world.git(world.origin, "rev-parse", "main") == start

    # Every faction's orders are merged: the next scheduled run resolves the turn.
    for faction in ("red", "blue", "green"):
        world.submit(faction)
    merged = world.git(world.origin, "rev-parse", "main")
    run = rehearsal.act("resolve.yml", "schedule", schedule_event())
    assert run.code == 0, run.log
    assert run.jobs == {
        "resolve": "success",
        "site": "success",
        "deploy": "success",
        "announce": "success",
    }, run.log

    # The bot's commit and its tag are on origin, on top of what was merged; the announcement's ledger
    # is committed after them.
    assert world.git(world.origin, "log", "-2", "--format=%s", "main").splitlines() == [
        "Notifications sent",
        "Turn 1 resolved",
    ]
    assert world.git(world.origin, "rev-parse", "main~2") == merged
    assert world.git(world.origin, "rev-parse", "turn-1^{commit}") == world.git(
        world.origin, "rev-parse", "main^"
    )
    # The new turn was announced on its tracking issue (the webhooks of issue 25 have their own tests).
    github_api, _ = github
    assert [issue["state"] for issue in github_api.issues] == ["open"], github_api.issues
    announced = github_api.issues[0]["body"]
    assert "turn 2 is open" in announced
    assert all(f"@{login}" in announced for login in ("alice", "Bob", "carol")), announced
    assert BOT_TOKEN not in run.log  # the token is masked and never printed

    # The site was built from the pushed turn and published.
    index = (rehearsal.pages / "index.html").read_text(encoding="utf-8")
    assert "The Salt Marches" in index
    assert any(rehearsal.pages.rglob("*.html"))
    chronicle = rehearsal.pages / "chronicle" / "turn-1" / "index.html"
    assert chronicle.is_file(), sorted(p.name for p in rehearsal.pages.iterdir())


def test_a_sealed_turn_resolved_by_hand_uses_the_key_and_never_prints_it(
    tmp_path: Path, github: tuple[GitHub, Server]
) -> None:
    """ "Run workflow" with now and force, in a sealed campaign: the resolve job reads the campaign key
    from its secret, resolves and pushes the turn, and neither the key nor the bot token reaches the log."""
    key_file = tmp_path / "campaign-key.txt"
    world = fork_of_the_kit(
        tmp_path / "game", options=("--sealed", "--beacon", "none", "--key-file", str(key_file))
    )
    key = key_file.read_text(encoding="utf-8").splitlines()[-1]
    assert key.startswith("AGE-SECRET-KEY-")
    rehearsal = Rehearsal(tmp_path / "act", world.origin, github[1].url)
    rehearsal.secrets = {"CAMPAIGN_BOT_TOKEN": BOT_TOKEN, "CAMPAIGN_AGE_KEY": key}
    rehearsal.unmasked = True  # act's own masking off: what stays out of the log, the workflow kept out
    dispatch = {"inputs": {"now": "true", "force": "true"}, "repository": REPOSITORY}
    run = rehearsal.act(
        "resolve.yml", "workflow_dispatch", dispatch, inputs={"now": "true", "force": "true"}, job="resolve"
    )
    assert run.code == 0, run.log
    assert run.jobs == {"resolve": "success"}, run.log
    assert world.git(world.origin, "log", "-1", "--format=%s", "main") == "Turn 1 resolved"
    assert world.git(world.origin, "tag", "--list") == "turn-1"
    assert key not in run.log and key.lower() not in run.log.lower()
    assert BOT_TOKEN not in run.log
    header = base64.b64encode(f"x-access-token:{BOT_TOKEN}".encode()).decode()
    assert header not in run.log  # nor the push's authorization header (act ignores ::add-mask:: here)


def test_a_deadline_most_factions_missed_fails_the_run_so_the_gm_notices(
    tmp_path: Path, github: tuple[GitHub, Server]
) -> None:
    """The campaign began eight days ago with a week's deadline and nobody sent orders: the scheduled run
    trips the circuit breaker, fails, pushes nothing and builds no site."""
    world = fork_of_the_kit(tmp_path / "game", started=timedelta(days=8))
    start = world.git(world.origin, "rev-parse", "main")
    rehearsal = Rehearsal(tmp_path / "act", world.origin, github[1].url)
    rehearsal.secrets = {"CAMPAIGN_BOT_TOKEN": BOT_TOKEN, "CAMPAIGN_AGE_KEY": ""}
    run = rehearsal.act("resolve.yml", "schedule", schedule_event())
    assert run.code != 0
    assert run.jobs == {"resolve": "failure"}, run.log
    assert "circuit breaker" in run.log, run.log
    assert world.git(world.origin, "rev-parse", "main") == start
    assert world.git(world.origin, "tag", "--list") == ""
