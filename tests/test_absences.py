"""Issue 25 section 2: a player away for some turns, declared in their own order file or by the GM.

A faction away misses no turn and is not eliminated for its silence; the campaign's ``absences`` setting
says what its forces do (hold, or the ruleset's bot stands in); the archive records who was away so a
replay gets the same bytes; and ``store.absences.is_away`` answers the reminders."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.engine.ruleset import RULESETS
from resolver.store import absences, schedule
from resolver.store.store import Store

from .sides import open_options, sides

Run = Callable[..., tuple[int, str, str]]


def new_campaign(run: Run, root: Path, ruleset: str = "nations", **settings: object) -> str:
    extra = open_options(ruleset)
    code, _, err = run("new", "--root", root, "--ruleset", ruleset, "--factions", "3", "--seed", "2", *extra)
    assert code == 0, err
    if settings:
        path = root / "campaign/campaign.yaml"
        canonical.write_yaml(path, {**canonical.read_yaml(path), **settings})
    return str(canonical.read_yaml(root / "campaign/campaign.yaml")["campaign"])


def send(root: Path, campaign: str, turn: int, faction: str, extra: str = "") -> None:
    body = f"campaign: {campaign}\nturn: {turn}\nfaction: {faction}\norders: []\n{extra}"
    (root / "orders" / f"{faction}.yaml").write_text(body, encoding="utf-8")


def events(root: Path, turn: int) -> list[dict]:
    return canonical.read_yaml(root / f"campaign/turns/{turn:04d}/events.yaml")["events"]


def inputs(root: Path, turn: int) -> dict:
    return canonical.read_yaml(root / f"campaign/turns/{turn:04d}/inputs.yaml")


def resolve(run: Run, root: Path) -> None:
    code, out, err = run("resolve", "--root", root)
    assert code == 0, out + err


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_player_declares_an_absence_and_the_bot_stands_in_for_it_in_every_ruleset(
    run: Run, tmp_path: Path, ruleset: str
) -> None:
    root = tmp_path / ruleset
    campaign = new_campaign(run, root, ruleset, absences={"policy": "stand_in"})
    red, blue, green = sides(ruleset, 3)  # the campaign's three factions, whatever the ruleset calls them
    for faction in (blue, green):
        send(root, campaign, 1, faction)
    send(root, campaign, 1, red, "absence: {from: 2, to: 3}\n")
    code, out, err = run("check", "--root", root)
    assert code == 0, out + err
    resolve(run, root)
    # The declaration is public from the turn that carried it: the reminders and the site read it.
    assert inputs(root, 1)["absences"] == {red: {"from": 2, "to": 3}}
    store = Store(root)
    assert [absences.is_away(store, red, turn) for turn in (1, 2, 3, 4)] == [False, True, True, False]
    assert not absences.is_away(store, blue, 2)

    for faction in (blue, green):
        send(root, campaign, 2, faction)
    resolve(run, root)
    turn_2 = events(root, 2)
    away = [e for e in turn_2 if e["kind"] == "orders_away"]
    assert [(e["actors"], e["data"]) for e in away] == [([red], {"policy": "stand_in"})]
    assert not any(e["kind"] in ("orders_missing", "civil_disorder") for e in turn_2)
    assert (root / f"campaign/turns/0002/bot-orders/{red}.yaml").is_file()  # the bot played red's turn
    assert inputs(root, 2)["away"] == {
        "factions": [red],
        "policy": {"policy": "stand_in", "pause_at": 2, "pause_hours": 168},
    }
    assert inputs(root, 2)["missing"] == []
    assert canonical.read_yaml(root / "campaign/state.yaml")["factions"][red].get("missed_turns", 0) == 0
    code, out, err = run("verify", "--root", root)
    assert code == 0 and "2 of 2 turn(s) replay byte-identically" in out, out + err


def test_an_absence_is_no_missed_turn_under_the_eliminate_policy_and_its_forces_hold(
    run: Run, tmp_path: Path
) -> None:
    root = tmp_path / "camp"
    campaign = new_campaign(run, root, absent_players={"policy": "eliminate", "eliminate_after": 1})
    send(root, campaign, 1, "blue")
    send(root, campaign, 1, "green")
    send(root, campaign, 1, "red", "absence: {from: 2, to: 2}\n")
    resolve(run, root)
    send(root, campaign, 2, "blue")  # green is silent without a word: it is eliminated; red is away
    resolve(run, root)
    factions = canonical.read_yaml(root / "campaign/state.yaml")["factions"]
    assert factions["green"]["status"] == "eliminated"
    assert factions["red"].get("status", "active") == "active"
    kinds = {(e["kind"], tuple(e["actors"])) for e in events(root, 2)}
    assert ("orders_away", ("red",)) in kinds and ("orders_missing", ("green",)) in kinds
    assert ("abandoned", ("green",)) in kinds and ("abandoned", ("red",)) not in kinds
    away = next(e for e in events(root, 2) if e["kind"] == "orders_away")
    assert "data" not in away  # held: no bot was asked, so no policy is named
    assert not (root / "campaign/turns/0002/bot-orders").exists()
    assert run("verify", "--root", root)[0] == 0


def test_an_empty_absence_takes_the_declaration_back(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "camp"
    campaign = new_campaign(run, root)
    for faction in ("blue", "green"):
        send(root, campaign, 1, faction)
    send(root, campaign, 1, "red", "absence: {from: 3, to: 5}\n")
    resolve(run, root)
    assert absences.away_at(Store(root), 4) == ["red"]
    for faction in ("blue", "green"):
        send(root, campaign, 2, faction)
    send(root, campaign, 2, "red", "absence: {}\n")
    resolve(run, root)
    assert inputs(root, 2)["absences"] == {"red": {}}
    assert absences.away_at(Store(root), 4) == []


@pytest.mark.parametrize(
    ("declared", "where", "message"),
    [
        ("absence: {from: 0, to: 2}", "6:17", "cannot begin at turn 0, which is over"),
        ("absence: {from: 3, to: 2}", "6:24", "ends (turn 2) before it begins (turn 3)"),
        ("absence: {from: 2, to: 30}", "6:24", "covers at most 12 turns; this one covers 29"),
        ("absence: {from: 2}", "6:10", "'absence' needs 'to'"),
        ("absence: {from: 2, until: 4}", "6:20", "unknown key 'until' under 'absence'"),
        ("absence: soon", "6:10", "must be a mapping with 'from' and 'to'"),
    ],
)
def test_a_wrong_declaration_is_refused_where_it_stands_with_the_fix(
    run: Run, tmp_path: Path, declared: str, where: str, message: str
) -> None:
    root = tmp_path / "camp"
    campaign = new_campaign(run, root)
    send(root, campaign, 1, "red", f"press: []\n{declared}\n")
    code, out, _ = run("check", "--root", root)
    assert code == 1
    assert f"orders/red.yaml:{where}" in out and message in out, out
    assert "fix:" in out.split(message, 1)[1].splitlines()[1], out
    before = canonical.read_yaml(root / "campaign/state.yaml")
    assert run("resolve", "--root", root)[0] != 0  # refused: nothing written
    assert canonical.read_yaml(root / "campaign/state.yaml") == before
    assert not (root / "campaign/turns/0001").exists()


def test_the_gm_declares_lists_and_takes_back_an_absence(run: Run, tmp_path: Path) -> None:
    root = tmp_path / "camp"
    campaign = new_campaign(run, root)
    code, out, _ = run("absence", "--root", root, "green", "--from", "1", "--to", "2")
    assert code == 0 and "green is away for turns 1 to 2" in out and "Commit campaign/absences.yaml" in out
    assert canonical.load((root / "campaign/absences.yaml").read_bytes()) == {"green": {"from": 1, "to": 2}}
    code, out, _ = run("absence", "--root", root)
    assert out.splitlines() == ["green: turns 1 to 2, declared by the GM (away now)"]
    assert absences.is_away(Store(root), "green", 1)
    # The site shows it: on the home page's list of who owes orders, and on the faction's page.
    code, _, err = run("site", "--root", root, "--no-build")
    assert code == 0, err
    home = (root / "site/index.md").read_text(encoding="utf-8")
    assert home.count(": away this turn, as declared</li>") == 1 and home.count(": not sent yet</li>") == 2
    page = (root / "site/factions/green/index.md").read_text(encoding="utf-8")
    assert "- **Away now**: turns 1 to 2, as the GM declared." in page

    # The GM's declaration counts at once: green, silent, is away in turn 1 and misses nothing.
    send(root, campaign, 1, "red")
    send(root, campaign, 1, "blue")
    resolve(run, root)
    assert inputs(root, 1)["away"]["factions"] == ["green"]
    assert [e["actors"] for e in events(root, 1) if e["kind"] == "orders_away"] == [["green"]]

    code, out, _ = run("absence", "--root", root, "green", "--cancel")
    assert code == 0 and "taken back" in out
    assert not absences.is_away(Store(root), "green", 2)
    assert run("verify", "--root", root)[0] == 0  # the replay reads who was away from the archive


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("purple", "--from", "2", "--to", "3"), "unknown faction 'purple'"),
        (("red", "--from", "0", "--to", "3"), "cannot begin at turn 0"),
        (("red", "--from", "2"), "an absence needs --from and --to"),
        (("--from", "2", "--to", "3"), "name the faction concerned"),
    ],
)
def test_the_gm_command_refuses_what_makes_no_sense_and_writes_nothing(
    run: Run, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    root = tmp_path / "camp"
    new_campaign(run, root)
    code, out, err = run("absence", "--root", root, *args)
    assert code == 2 and message in err and "Traceback" not in err, out + err
    assert not (root / "campaign/absences.yaml").exists()


def test_the_turn_does_not_wait_for_a_faction_away_unless_the_campaign_pauses_for_absences() -> None:
    opened = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # a Monday: the deadline is Friday 18:00
    tuesday = opened + timedelta(days=1)
    active = ["red", "blue", "green"]
    hold = schedule.Settings.from_config({})
    decision = schedule.due(hold, 2, opened, tuesday, active, ["red"], away=["blue", "green"])
    assert decision.due and "not waited for: blue, green" in decision.reason

    pause = schedule.Settings.from_config({"absences": {"policy": "pause", "pause_at": 2, "pause_hours": 48}})
    decision = schedule.due(pause, 2, opened, tuesday, active, ["red"], away=["blue", "green"])
    assert not decision.due and decision.missing == ("blue", "green")
    assert decision.deadline == datetime(2026, 3, 8, 18, 0, tzinfo=UTC)  # Friday 18:00 plus 48 hours
    assert "moved back 48 hours because blue, green are away" in decision.reason
    # One away is fewer than pause_at: the deadline stands and the one away is not waited for.
    decision = schedule.due(pause, 2, opened, tuesday, active, ["red", "green"], away=["blue"])
    assert decision.due and decision.deadline == datetime(2026, 3, 6, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"policy": "vanish"}, "unknown policy 'vanish' for factions away"),
        ({"pause_at": 0}, "'absences.pause_at' must be a whole number of factions"),
        ({"pause_hours": "a week"}, "'absences.pause_hours' must be a number of hours"),
        ({"pause": 2}, "unknown key(s) under 'absences': pause"),
    ],
)
def test_a_wrong_absences_setting_is_refused_with_the_fix(setting: dict, message: str) -> None:
    with pytest.raises(Exception) as refused:
        schedule.Settings.from_config({"absences": setting})
    assert message in str(refused.value)


@pytest.mark.parametrize("policy", ["hold", "stand_in", "pause"])
def test_the_reminders_owe_what_the_resolver_waits_for_and_tell_its_deadline(
    run: Run, tmp_path: Path, policy: str
) -> None:
    """``campaign remind`` reads who is away from the same public record as the resolve (no key, no
    clock), reminds none of them whatever the policy, and tells the deadline ``schedule.due`` holds the
    turn to: a week later under 'pause' with two away."""
    from resolver.notify.run import situation

    root = tmp_path / policy
    campaign = new_campaign(run, root, absences={"policy": policy, "pause_at": 2, "pause_hours": 168})
    for faction in ("blue", "green"):
        code, _, err = run("absence", "--root", root, faction, "--from", "1", "--to", "1")
        assert code == 0, err
    opened, now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC), datetime(2026, 3, 3, 9, 0, tzinfo=UTC)
    found = situation(root, now, opened)
    assert [p.faction for p in found.owing] == ["red"]
    assert [p.faction for p in found.away] == ["blue", "green"]
    store = Store(root)
    settings = schedule.Settings.from_config(store.config())
    awaited = sorted(store.public_state()["factions"])
    decision = schedule.due(settings, 1, opened, now, awaited, [], absences.away_at(store, 1))
    assert found.deadline == decision.deadline
    moved = timedelta(hours=168) if policy == "pause" else timedelta(0)
    assert found.moved == moved
    assert found.deadline == datetime(2026, 3, 6, 18, 0, tzinfo=UTC) + moved

    # Once red's orders are in, nobody owes any: under hold and stand_in the turn is due at once.
    send(root, campaign, 1, "red")
    assert situation(root, now, opened).owing == []
    assert schedule.due(settings, 1, opened, now, awaited, ["red"], ["blue", "green"]).due is (
        policy != "pause"
    )
