"""``campaign resolve --if-due --commit`` on a real clone: due-ness, commits and tags, absent players,
locks, dirty trees and rollback."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
import yaml

from resolver.core import canonical
from resolver.git import flow as gitflow
from resolver.store.store import Store

from ..conftest import tree_bytes
from .gitsim import START, Campaign, cli

FRIDAY_DEADLINE = START + timedelta(days=4, hours=9)  # Fri 2026-03-06 18:00 UTC
AFTER_GRACE = FRIDAY_DEADLINE + timedelta(hours=1, minutes=1)
ALL = ("red", "blue", "green")


def events(world: Campaign, turn: int) -> list[dict]:
    return canonical.read_yaml(world.ci / f"campaign/turns/{turn:04d}/events.yaml")["events"]


def inputs(world: Campaign, turn: int) -> dict:
    return canonical.read_yaml(world.ci / f"campaign/turns/{turn:04d}/inputs.yaml")


def work_tree(root: Path) -> dict[str, bytes]:
    return {name: raw for name, raw in tree_bytes(root).items() if not name.startswith(".git/")}


def status(world: Campaign) -> str:
    return world.git(world.ci, "status", "--porcelain", "--untracked-files=all")


def test_resolving_makes_one_commit_and_one_tag(world: Campaign) -> None:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    before = world.head()
    done = world.resolve("--if-due", "--commit")
    assert done.code == 0, done.err
    assert "Turn 1 is due: every active faction has sent orders for turn 1; no GM orders" in done.out
    assert "Turn 1 resolved: commit" in done.out and "tag turn-1" in done.out
    assert world.git(world.ci, "rev-list", "--count", f"{before}..HEAD") == "1"
    assert world.git(world.ci, "log", "-1", "--format=%s|%an|%ae") == (
        f"Turn 1 resolved|{gitflow.BOT_NAME}|{gitflow.BOT_EMAIL}"
    )
    assert world.tags() == ["turn-1"]
    assert world.git(world.ci, "rev-parse", "turn-1^{commit}") == world.head()
    assert status(world) == ""
    # The commit holds the new state, the archive with the turn's orders in one file, and new templates;
    # even with rename detection, no order file is moved into the archive.
    changed = world.git(world.ci, "diff", "--find-renames", "--name-status", f"{before}..HEAD").splitlines()
    assert all(line.split("\t")[1].startswith(("campaign/", "orders/")) for line in changed)
    assert "A\tcampaign/turns/0001/orders.yaml" in changed
    assert not [line for line in changed if line.startswith(("R", "C"))], changed
    for faction in ALL:
        assert f"D\torders/{faction}.yaml" in changed
        assert f"M\torders/templates/{faction}.yaml" in changed
        assert b"turn: 2" in (world.ci / f"orders/templates/{faction}.yaml").read_bytes()
    assert "M\tcampaign/state.yaml" in changed
    assert Store(world.ci).state()["turn"] == 2
    # The push reached origin, tag included.
    assert world.git(world.origin, "rev-parse", "main") == world.head()
    assert world.git(world.origin, "tag", "--list") == "turn-1"

    again = world.resolve("--if-due", "--commit")
    assert again.code == 0 and "Turn 2 is not due" in again.out
    assert world.head() == world.git(world.origin, "rev-parse", "main")
    assert world.git(world.ci, "rev-list", "--count", f"{before}..HEAD") == "1"
    assert world.tags() == ["turn-1"] and status(world) == ""

    verified = cli("verify", "--root", world.ci, "--all")
    assert verified.code == 0 and "1 of 1 turn(s) replay byte-identically" in verified.out


def test_a_future_deadline_with_a_missing_faction_resolves_nothing(world: Campaign) -> None:
    world.submit("red")
    world.submit("blue")
    world.sync(world.ci)
    before = world.head()
    done = world.resolve("--if-due", "--commit", now=FRIDAY_DEADLINE - timedelta(minutes=5))
    assert done.code == 0
    assert "Turn 1 is not due: no orders yet from green; deadline Fri 2026-03-06 18:00 UTC" in done.out
    assert "resolved after Fri 2026-03-06 19:00 UTC (in 1h 5m)" in done.out
    assert world.head() == before and world.tags() == [] and status(world) == ""
    # Inside the grace period it still waits.
    assert "not due" in world.resolve("--if-due", "--commit", now=FRIDAY_DEADLINE + timedelta(minutes=30)).out
    assert world.head() == before


def test_after_the_deadline_and_grace_absent_factions_hold(world: Campaign) -> None:
    world.submit("red")
    world.submit("blue")
    done = world.resolve("--if-due", "--commit", now=AFTER_GRACE)
    assert done.code == 0, done.err
    assert (
        "the deadline Fri 2026-03-06 18:00 UTC and its grace have passed; no orders yet from green"
        in done.out
    )
    assert "No orders arrived from House Crane; its forces hold." in done.out
    missing = [e for e in events(world, 1) if e["kind"] == "orders_missing"]
    assert [e["actors"] for e in missing] == [["green"]] and "policy" not in missing[0].get("data", {})
    assert inputs(world, 1)["absent_players"] == {"policy": "hold", "eliminate_after": 3}
    assert Store(world.ci).state()["factions"]["green"]["missed_turns"] == 1
    assert "No orders from: green (hold" in world.git(world.ci, "log", "-1", "--format=%b")


def test_civil_disorder_has_the_bot_play_the_absent_faction(make_world: Callable[..., Campaign]) -> None:
    world = make_world(absent_players={"policy": "civil_disorder"})
    world.submit("red")
    world.submit("blue")
    done = world.resolve("--if-due", "--commit", now=AFTER_GRACE)
    assert done.code == 0, done.err
    assert "House Crane falls into civil disorder" in done.out
    bot = world.ci / "campaign/turns/0001/bot-orders/green.yaml"
    archived = canonical.read_yaml(world.ci / "campaign/turns/0001/orders.yaml")["orders"]
    assert bot.is_file() and sorted(archived) == ["blue", "red"]
    orders = yaml.safe_load(bot.read_text())
    assert orders["faction"] == "green" and orders["turn"] == 1 and orders["orders"]
    kinds = {(e["kind"], tuple(e["actors"])) for e in events(world, 1)}
    assert ("civil_disorder", ("green",)) in kinds
    # The bot's orders were carried out like a player's.
    assert any(
        "green" in actors and kind not in ("civil_disorder", "orders_missing") for kind, actors in kinds
    )
    missing = next(e for e in events(world, 1) if e["kind"] == "orders_missing")
    assert missing["data"] == {"policy": "civil_disorder"}
    # Still counted as a missed turn, and never printed in the newspaper.
    assert Store(world.ci).state()["factions"]["green"]["missed_turns"] == 1
    assert not any(e["kind"] == "press" and e["actors"] == ["green"] for e in events(world, 1))
    assert cli("verify", "--root", world.ci, "--all").code == 0


def test_eliminate_after_k_missed_turns(make_world: Callable[..., Campaign]) -> None:
    world = make_world(absent_players={"policy": "eliminate", "eliminate_after": 2})
    world.submit("red")
    world.submit("blue")
    assert world.resolve("--if-due", "--commit", now=AFTER_GRACE).code == 0
    assert Store(world.ci).state()["factions"]["green"]["status"] == "active"
    world.submit("red")
    world.submit("blue")
    done = world.resolve("--if-due", "--commit", now=AFTER_GRACE + timedelta(days=7))
    assert done.code == 0, done.err
    assert "House Crane has sent no orders for 2 turns in a row and leaves the campaign." in done.out
    state = Store(world.ci).state()
    assert state["factions"]["green"]["status"] == "eliminated"
    assert ("abandoned", ["green"]) in [(e["kind"], e["actors"]) for e in events(world, 2)]
    assert not (world.ci / "orders/templates/green.yaml").exists()
    # Turn 3 waits only for the factions still in the game.
    world.submit("red")
    world.submit("blue")
    assert "every active faction has sent orders" in world.resolve("--if-due", "--commit").out
    assert world.tags() == ["turn-1", "turn-2", "turn-3"]
    assert cli("verify", "--root", world.ci, "--all").code == 0


def test_the_circuit_breaker_needs_the_gm_to_force(world: Campaign) -> None:
    world.submit("red")
    world.sync(world.ci)
    before = world.head()
    done = world.resolve("--if-due", "--commit", now=AFTER_GRACE)
    assert done.code == 1
    assert "2 of 3 active factions have no orders, more than the circuit breaker allows (50%" in done.err
    assert "--force" in done.err
    assert world.head() == before and world.tags() == [] and status(world) == ""
    forced = world.resolve("--if-due", "--commit", "--force", now=AFTER_GRACE)
    assert forced.code == 0, forced.err
    assert "The circuit breaker was overridden (--force)" in forced.out
    assert world.tags() == ["turn-1"]


def test_a_paused_campaign_waits(make_world: Callable[..., Campaign]) -> None:
    world = make_world(schedule={"paused": True})
    for faction in ALL:
        world.submit(faction)
    done = world.resolve("--if-due", "--commit", now=AFTER_GRACE + timedelta(days=30))
    assert done.code == 0 and "The campaign is paused by the GM" in done.out
    assert world.tags() == []


def test_a_broken_file_merged_past_the_check_is_reported_at_once(world: Campaign) -> None:
    """The GM can merge past a red check; the next scheduled run says so, not only the deadline's."""
    broken = (
        "campaign: git-test\nturn: 1\nfaction: red\norders:\n  - action: move\n    army: '9'\n    path: [N]\n"
    )
    world.merge(world.pull_request("alice", "red-typo", {"orders/red.yaml": broken}))
    before = world.head()
    done = world.resolve("--if-due", "--commit", now=FRIDAY_DEADLINE - timedelta(days=2))
    assert done.code == 1
    assert "turn 1 is not due: no orders yet from blue, green, but 1 order file(s) have errors" in done.err
    assert "orders/red.yaml:6:11: error: you have no army '9'" in done.err
    assert "revert the merge" in done.err
    assert world.head() == before and world.tags() == [] and status(world) == ""


def test_without_gm_orders_an_early_turn_says_a_gm_pull_request_waits(world: Campaign) -> None:
    for faction in ALL:
        world.submit(faction)
    done = world.resolve("--if-due", "--commit", now=FRIDAY_DEADLINE - timedelta(days=2))
    assert done.code == 0 and world.tags() == ["turn-1"]
    assert "no GM orders (orders/gm.yaml) are merged, so a GM pull request still open waits" in done.out


def test_wait_for_gm_holds_an_early_turn_until_the_gm_file_is_merged(
    make_world: Callable[..., Campaign],
) -> None:
    world = make_world(schedule={"wait_for_gm": True})
    for faction in ALL:
        world.submit(faction)
    early = FRIDAY_DEADLINE - timedelta(days=2)
    done = world.resolve("--if-due", "--commit", now=early)
    assert done.code == 0 and world.tags() == []
    assert "orders/gm.yaml is not merged yet and schedule.wait_for_gm is on" in done.out
    gm_orders = (
        "campaign: git-test\nturn: 1\nfaction: gm\norders:\n  - action: narrate\n    headline: Floods\n"
    )
    world.merge(world.pull_request("dora", "gm-t1", {"orders/gm.yaml": gm_orders}))
    done = world.resolve("--if-due", "--commit", now=early)
    assert done.code == 0 and world.tags() == ["turn-1"]
    assert "every active faction and the GM have sent orders for turn 1" in done.out


def test_an_extension_moves_this_turns_deadline_only(make_world: Callable[..., Campaign]) -> None:
    world = make_world(schedule={"extend": {"turn": 1, "hours": 48}})
    world.submit("red")
    world.submit("blue")
    done = world.resolve("--if-due", "--commit", now=AFTER_GRACE)
    assert "not due" in done.out and "deadline Sun 2026-03-08 18:00 UTC" in done.out
    assert world.resolve("--if-due", "--commit", now=AFTER_GRACE + timedelta(hours=48)).code == 0
    assert world.tags() == ["turn-1"]
    # Turn 2's deadline is the next Friday again.
    assert "deadline Fri 2026-03-13 18:00 UTC" in world.resolve("--if-due", "--commit").out


def test_days_after_the_last_resolution(make_world: Callable[..., Campaign]) -> None:
    world = make_world(schedule={"deadline": {"days_after_resolution": 2}, "grace_hours": 0})
    for faction in ALL:
        world.submit(faction)
    resolved_at = world.clock + timedelta(hours=1)
    assert world.resolve("--if-due", "--commit", now=resolved_at).code == 0
    world.submit("red")
    early = world.resolve("--if-due", "--commit", now=resolved_at + timedelta(days=2, seconds=-60))
    assert "not due" in early.out
    assert world.resolve("--if-due", "--commit", "--force", now=resolved_at + timedelta(days=2)).code == 0
    assert world.tags() == ["turn-1", "turn-2"]


@pytest.mark.parametrize("mess", ["modified", "untracked"])
def test_a_dirty_tree_is_refused(world: Campaign, mess: str) -> None:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    if mess == "modified":
        target = world.ci / "campaign/rules.yaml"
        target.write_text(target.read_text() + "# a thought\n")
    else:
        target = world.ci / "orders/notes.txt"
        target.write_text("remember the ford\n")
    before, files = world.head(), tree_bytes(world.ci / "campaign")
    done = cli("resolve", "--root", world.ci, "--if-due", "--commit")
    assert done.code == 1
    assert "the working tree has uncommitted changes" in done.err
    assert target.name in done.err
    assert world.head() == before and tree_bytes(world.ci / "campaign") == files and target.exists()


def test_a_failure_midway_leaves_the_previous_commit(
    world: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    before, files = world.head(), work_tree(world.ci)
    real = gitflow.commit_turn

    def commit_then_fail(*args: object) -> None:
        real(*args)  # the commit and the tag exist when the failure strikes
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(gitflow, "commit_turn", commit_then_fail)
    done = cli("resolve", "--root", world.ci, "--if-due", "--commit")
    assert done.code == 1 and "error: disk full: No space left on device" in done.err, done.err
    assert "bug in the engine" not in done.err and "Traceback" not in done.err
    assert world.head() == before and world.tags() == [] and status(world) == ""
    assert work_tree(world.ci) == files


def test_a_failure_while_writing_the_archive_leaves_the_previous_commit(
    world: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    before, files = world.head(), work_tree(world.ci)

    def broken(*args: object) -> None:
        raise KeyboardInterrupt  # after the archive, the new state and the removal of the orders

    monkeypatch.setattr(Store, "write_templates", broken)
    done = cli("resolve", "--root", world.ci, "--if-due", "--commit")
    assert done.code == 130
    assert world.head() == before and status(world) == "" and work_tree(world.ci) == files


def test_an_existing_tag_is_not_moved(world: Campaign) -> None:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    world.git(world.ci, "tag", "turn-1")
    before = world.head()
    done = cli("resolve", "--root", world.ci, "--if-due", "--commit")
    assert done.code == 1 and "the tag turn-1 already exists" in done.err
    assert world.head() == before and status(world) == ""


def test_a_held_lock_makes_a_second_run_stand_aside(world: Campaign) -> None:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    repo = gitflow.open_repo(world.ci)
    with gitflow.resolve_lock(repo) as mine:
        assert mine
        outcome = gitflow.run_resolution(world.ci, world.clock, if_due=True, commit=True, lock_timeout=0.2)
    assert not outcome.resolved and "another resolution holds the lock" in outcome.message
    assert world.tags() == []


def test_a_run_that_waited_for_the_lock_checks_the_turn_again(
    make_world: Callable[..., Campaign], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Deadlines that are always due: without the second look at the turn number, the waiting run
    # would go on to resolve turn 2 as well.
    world = make_world(schedule={"deadline": {"days_after_resolution": 0}, "grace_hours": 0})
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    before = world.head()
    repo = gitflow.open_repo(world.ci)
    waiting = threading.Event()
    real_lock = gitflow.resolve_lock

    def announced(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        waiting.set()
        return real_lock(*args, **kwargs)  # type: ignore[arg-type]

    outcomes = []
    with real_lock(repo):
        monkeypatch.setattr(gitflow, "resolve_lock", announced)
        other = threading.Thread(
            target=lambda: outcomes.append(
                gitflow.run_resolution(world.ci, world.clock, if_due=True, commit=True, force=True)
            )
        )
        other.start()
        assert waiting.wait(10)
        # Meanwhile this run, which holds the lock, resolves turn 1.
        from resolver.store.resolution import resolve

        game, result = resolve(world.ci)
        gitflow.commit_turn(repo, gitflow.commit_message(game, result), "turn-1")
    other.join(30)
    assert not other.is_alive()
    assert not outcomes[0].resolved
    assert "turn 1 was resolved by another run while this one waited" in outcomes[0].message
    assert world.git(world.ci, "rev-list", "--count", f"{before}..HEAD") == "1"
    assert world.tags() == ["turn-1"]


def test_two_runs_at_once_resolve_once(world: Campaign) -> None:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    before = world.head()
    exe = Path(sys.executable).parent / "campaign"
    command = [str(exe), "resolve", "--root", str(world.ci), "--if-due", "--commit"]
    runs = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in "ab"
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    said = " ".join(out for out, _ in outputs)
    assert said.count("Turn 1 resolved: commit") == 1
    assert world.git(world.ci, "rev-list", "--count", f"{before}..HEAD") == "1"
    assert world.tags() == ["turn-1"] and status(world) == ""


def test_posting_order_follows_first_arrival_on_main(world: Campaign) -> None:
    world.submit("green")
    world.submit("red")
    # Carol edits her orders after red arrived: green keeps its place.
    pr = world.pull_request(
        "carol", "green-fix", {"orders/green.yaml": world.bot_orders("green") + b"# v2\n"}
    )
    assert world.check(pr).code == 0
    world.merge(pr)
    world.submit("blue")
    assert world.resolve("--if-due", "--commit").code == 0
    assert inputs(world, 1)["posting_order"] == ["green", "red", "blue"]
    assert "Posting order: green, red, blue." in world.git(world.ci, "log", "-1", "--format=%b")


def test_files_arriving_together_follow_the_seeded_order(world: Campaign) -> None:
    from resolver.engine.turn import seeded_posting_order

    gm = world.clone("dora")
    world.sync(gm)
    for faction in ("blue", "red"):
        (gm / f"orders/{faction}.yaml").write_bytes(world.bot_orders(faction))
    world.commit(gm, "dora", "Orders that came by e-mail")
    repo = gitflow.open_repo(gm)
    seeded = seeded_posting_order(5, 1, ["red", "blue", "green"])
    together = [f for f in seeded if f in ("red", "blue")]
    assert gitflow.arrival_order(repo, ["red", "blue", "green"], 5, 1) == [*together, "green"]


def test_misuse_is_explained(world: Campaign, tmp_path: Path) -> None:
    done = cli("resolve", "--root", world.ci, "--commit", "--posting-order", "red,blue,green")
    assert done.code == 2 and "git history gives the posting order" in done.err
    assert cli("resolve", "--root", world.ci, "--now", "2026-01-01T00:00Z").code == 2
    plain = tmp_path / "plain"
    assert cli("new", "--root", plain, "--factions", "2").code == 0
    done = cli("resolve", "--root", plain, "--if-due")
    assert done.code == 2 and "is not the top folder of a git repository" in done.err


# -- one deadline, one turn; the clock dates commits (issue 8, point 11) ----------------------------------


def test_the_now_button_pressed_twice_resolves_one_turn(make_world: Callable[..., Campaign]) -> None:
    # A breaker that never trips: only the one-deadline rule stands between the presses and turn 2.
    world = make_world(circuit_breaker={"max_missing_share": 1.0})
    world.submit("red")
    world.submit("blue")
    before_deadline = FRIDAY_DEADLINE - timedelta(days=2)
    first = world.resolve("--commit", now=before_deadline)  # the workflow's "now" box
    assert first.code == 0, first.err
    assert "Turn 1 is resolved before it is due, at the GM's request." in first.out
    second = world.resolve("--commit", now=before_deadline + timedelta(minutes=1))
    assert second.code == 1
    assert (
        "turn 2 was not resolved: it is not due, and turn 1 was already resolved for the same deadline"
        in (second.err)
    )
    assert "one deadline gives one turn" in second.err and "--force" in second.err
    assert world.tags() == ["turn-1"] and status(world) == ""
    forced = world.resolve("--commit", "--force", now=before_deadline + timedelta(minutes=2))
    assert forced.code == 0, forced.err
    assert world.tags() == ["turn-1", "turn-2"]


def test_the_now_button_obeys_the_circuit_breaker(world: Campaign) -> None:
    world.submit("red")
    done = world.resolve("--commit", now=FRIDAY_DEADLINE - timedelta(days=2))
    assert done.code == 1
    assert "2 of 3 active factions have no orders, more than the circuit breaker allows" in done.err
    assert world.tags() == []
    assert world.resolve("--commit", "--force", now=FRIDAY_DEADLINE - timedelta(days=2)).code == 0
    assert world.tags() == ["turn-1"]


def test_now_never_dates_the_commit(world: Campaign) -> None:
    import time

    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    started = int(time.time())
    done = cli("resolve", "--root", world.ci, "--if-due", "--commit", "--now", AFTER_GRACE.isoformat())
    assert done.code == 0, done.err
    finished = int(time.time())
    dates = world.git(world.ci, "log", "-1", "--format=%at %ct").split()
    assert all(started <= int(stamp) <= finished for stamp in dates), (dates, started, finished)
    tagged = world.git(world.ci, "for-each-ref", "--format=%(taggerdate:unix)", "refs/tags/turn-1")
    assert started <= int(tagged) <= finished
    # So the next turn opens now, not at the --now moment, and its deadline follows the clock.
    opened = gitflow.turn_opened_at(gitflow.open_repo(world.ci), 2)
    assert started <= opened.timestamp() <= finished


def test_now_may_not_lie_ahead_of_the_clock_when_committing(world: Campaign) -> None:
    for faction in ALL:
        world.submit(faction)
    world.sync(world.ci)
    done = cli("resolve", "--root", world.ci, "--if-due", "--commit", "--now", "2999-01-01T00:00Z")
    assert done.code == 2 and "--now 2999-01-01T00:00Z is later than the clock" in done.err
    assert world.tags() == []
