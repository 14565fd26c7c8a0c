"""Issue 25 section 2 through git: the on-time record read from the history alone, a turn that does not wait
for a faction away, and a faction handed to a new login (the pull-request check follows players.yaml)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from resolver.core import canonical
from resolver.git.reliability import on_time_record
from resolver.store.punctuality import AWAY, IN_GRACE, LATE, MISSING, ON_TIME, summarise

from .gitsim import START, Campaign, cli

FRIDAY_DEADLINE = START + timedelta(days=4, hours=9)  # Fri 2026-03-06 18:00 UTC
WEEK = timedelta(days=7)


def statuses(world: Campaign) -> dict[str, list[tuple[int, str]]]:
    record = on_time_record(world.ci)
    return {faction: [(a.turn, a.status) for a in arrivals] for faction, arrivals in sorted(record.items())}


def test_the_on_time_record_comes_from_git_history_and_an_absence_is_not_waited_for(world: Campaign) -> None:
    # Turn 1: red on Monday, blue in the hour of grace after Friday's deadline, green never.
    world.submit("red")
    world.clock = FRIDAY_DEADLINE + timedelta(minutes=20)
    world.submit("blue")
    done = world.resolve("--if-due", "--commit", now=FRIDAY_DEADLINE + timedelta(hours=1, minutes=5))
    assert done.code == 0, done.out + done.err

    # Turn 2: red (declaring itself away for turn 3) and blue on time; green after the grace, before the
    # run that resolves the turn.
    world.submit("red", world.bot_orders("red") + b"absence: {from: 3, to: 3}\n")
    world.submit("blue")
    world.clock = FRIDAY_DEADLINE + WEEK + timedelta(hours=2)
    world.submit("green")
    done = world.resolve("--if-due", "--commit", now=world.clock + timedelta(minutes=5))
    assert done.code == 0, done.out + done.err

    # Turn 3: red is away; the two others send on Monday and the turn resolves at once.
    world.clock = START + 2 * WEEK  # Monday 16 March; the deadline is Friday 20 March
    world.submit("blue")
    world.submit("green")
    done = world.resolve("--if-due", "--commit", now=world.clock + timedelta(minutes=5))
    assert done.code == 0, done.out + done.err
    assert "Turn 3 is due: every active faction has sent orders for turn 3" in done.out
    assert "away by declaration, not waited for: red" in done.out
    assert "Away, as declared: red" in world.git(world.ci, "log", "-1", "--format=%B")

    assert statuses(world) == {
        "blue": [(1, IN_GRACE), (2, ON_TIME), (3, ON_TIME)],
        "green": [(1, MISSING), (2, LATE), (3, ON_TIME)],
        "red": [(1, ON_TIME), (2, ON_TIME), (3, AWAY)],
    }
    record = on_time_record(world.ci)
    assert summarise(record["green"]).describe() == "1 of 3 turns on time; 1 late; 1 no orders"
    assert summarise(record["red"]).describe() == "2 of 2 turns on time; 1 away"
    first = record["blue"][0]
    assert first.deadline == FRIDAY_DEADLINE and first.arrived is not None
    assert FRIDAY_DEADLINE < first.arrived <= FRIDAY_DEADLINE + timedelta(hours=1)

    # The faction's page carries the record (the site is built from the same clone).
    world.sync(world.ci)
    code = cli("site", "--root", world.ci, "--no-build")
    assert code.code == 0, code.err
    page = (world.ci / "site/factions/green/index.md").read_text(encoding="utf-8")
    assert "- Orders on time: 1 of 3 turns on time; 1 late; 1 no orders." in page
    assert '<tr><th scope="row">2</th><td>2026-03-13 18:00 UTC</td>' in page
    assert "late</td></tr>" in page


def test_a_faction_handed_to_a_new_login_takes_its_orders_from_them_only(world: Campaign) -> None:
    world.submit("red")
    world.submit("blue")
    world.submit("green")
    assert world.resolve("--if-due", "--commit").code == 0
    gm = world.clone("dora")
    world.sync(gm)
    done = cli("handover", "--root", gm, "red", "--login", "erin")
    assert done.code == 0, done.err
    assert "red is played by erin from turn 2 on." in done.out
    assert "Recorded in campaign/players.yaml: alice: turn 1." in done.out
    world.commit(gm, "dora", "Erin takes over red")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")

    orders = {"orders/red.yaml": world.bot_orders("red")}
    refused = world.check(world.pull_request("alice", "alice-red", orders))
    assert refused.code != 0 and "alice is not a player of this campaign" in refused.out + refused.err
    accepted = world.check(world.pull_request("erin", "erin-red", orders))
    assert accepted.code == 0, accepted.out + accepted.err

    entry = canonical.read_yaml(gm / "campaign/players.yaml")["factions"]["red"]
    assert entry["played_by"] == [{"logins": ["alice"], "from": 1, "to": 1}] and entry["since"] == 2
    code = cli("site", "--root", gm, "--no-build")
    assert code.code == 0, code.err
    page = (gm / "site/factions/red/index.md").read_text(encoding="utf-8")
    assert "- Played by alice: turn 1; erin: turn 2 on." in page


def test_the_absences_file_is_the_gms_and_is_checked_before_it_is_merged(world: Campaign) -> None:
    wrong = {"campaign/absences.yaml": "red: {from: 3, to: 1}\n"}
    refused = world.check(world.pull_request("dora", "gm-wrong", wrong))
    said = refused.out + refused.err
    assert refused.code != 0
    assert "campaign/absences.yaml: red: the absence ends (turn 1) before it begins" in said
    right = {"campaign/absences.yaml": "red: {from: 1, to: 2}\n"}
    accepted = world.check(world.pull_request("dora", "gm-right", right))
    assert accepted.code == 0, accepted.out + accepted.err
    # A player cannot declare an absence there, not even their own: their order file is the place.
    by_player = world.check(world.pull_request("alice", "alice-away", right))
    assert by_player.code != 0, by_player.out


def test_a_campaign_that_pauses_for_absences_moves_the_deadline_back_and_waits(
    make_world: Callable[..., Campaign],
) -> None:
    world = make_world(absences={"policy": "pause", "pause_at": 2, "pause_hours": 48})
    gm = world.clone("dora")
    world.sync(gm)
    for faction in ("blue", "green"):
        assert cli("absence", "--root", gm, faction, "--from", "1", "--to", "1").code == 0
    world.commit(gm, "dora", "Blue and green are away for turn 1")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    world.submit("red")

    moved = FRIDAY_DEADLINE + timedelta(hours=48)
    early = world.resolve("--if-due", "--commit", now=FRIDAY_DEADLINE + timedelta(hours=2))
    assert early.code == 0 and world.tags() == []
    assert "no orders yet from blue, green" in early.out
    assert "the deadline moved back 48 hours because blue, green are away" in early.out
    world.sync(world.ci)
    assert cli("site", "--root", world.ci, "--no-build").code == 0
    pages = "".join(p.read_text(encoding="utf-8") for p in (world.ci / "site").rglob("*.md"))
    assert "Sun 2026-03-08 18:00 UTC (moved back 48 hours: 2 factions are away), then 1 hour" in pages

    done = world.resolve("--if-due", "--commit", now=moved + timedelta(hours=1, minutes=5))
    assert done.code == 0 and world.tags() == ["turn-1"], done.out + done.err
    turn = canonical.read_yaml(world.ci / "campaign/turns/0001/inputs.yaml")
    assert turn["away"]["factions"] == ["blue", "green"] and turn["missing"] == []
    record = on_time_record(world.ci)
    assert record["red"][0].deadline == moved and record["red"][0].status == ON_TIME
    assert [a.status for a in record["blue"]] == [AWAY]
