"""A long replay (``campaign verify``, the site's history) reuses what does not change from one turn to
the next: the game while its rules, world, factions and names stay the same, the digest of the state
the turn before left, and, for the site, no second rendering of the reports. None of it may let a
changed input or a tampered archive through."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from resolver import workflow
from resolver.core import canonical
from resolver.core.issues import CampaignError
from resolver.publish.history import load_history
from resolver.store import replay, views
from resolver.store.store import Store

# The capital's first level yields 9 resources instead of 2 under this house rule.
RICH_CAPITALS = """\
settlements:
  capital:
    levels:
      1: {resources: 9, population: 2, attackers: 10, defence: 2}
"""


def resolve(run, root: Path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run("resolve", "--root", root, "--force")  # turns nobody sends orders for, on purpose
    assert code == 0, err


def red_income(root: Path, turn: int) -> int:
    events = canonical.read_yaml(root / f"campaign/turns/{turn:04d}/events.yaml")["events"]
    return next(e["data"]["resources"] for e in events if e["kind"] == "income" and e["actors"] == ["red"])


def test_a_house_rule_changed_between_turns_is_replayed_with_the_rules_of_each_turn(
    campaign: Path, run
) -> None:
    rules = campaign / "campaign/rules.yaml"
    resolve(run, campaign)
    rules.write_text(RICH_CAPITALS)
    resolve(run, campaign)
    resolve(run, campaign)
    rules.unlink()
    resolve(run, campaign)
    assert [red_income(campaign, turn) for turn in (1, 2, 3, 4)] == [2, 9, 9, 2]  # the rule changed turns 2-3

    replayed = list(replay.replay_archive(Store(campaign), 4))
    assert [r.problems for r in replayed] == [[], [], [], []]
    games = [r.game for r in replayed]
    assert (
        games[1] is not games[0] and games[1].rules["settlements"]["capital"]["levels"][1]["resources"] == 9
    )
    assert games[2] is games[1]  # nothing it is made of changed
    assert games[3] is not games[2] and games[3].rules == games[0].rules
    code, out, _ = run("verify", "--root", campaign, "--all")
    assert code == 0 and "4 of 4 turn(s) replay byte-identically" in out, out


def test_a_game_is_reused_only_while_nothing_it_is_made_of_changes(campaign: Path) -> None:
    store = Store(campaign)
    state = store.state()
    game = store.game(state, house_rules={"actions": {"per_turn": 4}})
    assert store.game(state, house_rules={"actions": {"per_turn": 4}}, reuse=game) is game

    # 4.0 == 4 in Python, but the rules as written differ: the game is built again.
    floats = store.game(state, house_rules={"actions": {"per_turn": 4.0}}, reuse=game)
    assert floats is not game and isinstance(floats.rules["actions"]["per_turn"], float)
    assert store.game(state, house_rules={}, reuse=game).rules["actions"]["per_turn"] == 3

    players = campaign / "campaign/players.yaml"
    data = canonical.read_yaml(players)
    data["factions"]["red"]["name"] = "The Red Hand"
    canonical.write_yaml(players, data)
    renamed = store.game(state, house_rules={"actions": {"per_turn": 4}}, reuse=game)
    assert renamed is not game and renamed.name_of("red") == "The Red Hand"

    world = campaign / "campaign/world.yaml"
    data = canonical.read_yaml(world)
    first = data["locations"][0]
    first["label"] = "Newly Charted"
    canonical.write_yaml(world, data)
    moved = store.game(state, house_rules={"actions": {"per_turn": 4}}, reuse=renamed)
    assert moved is not renamed and moved.world[first["id"]].label == "Newly Charted"

    fewer = {**state, "factions": {f: d for f, d in state["factions"].items() if f != "blue"}}
    assert store.game(fewer, house_rules={"actions": {"per_turn": 4}}, reuse=moved).factions == (
        "green",
        "red",
    )


@pytest.fixture
def three_turns(campaign: Path, run) -> Path:
    for _ in range(3):
        resolve(run, campaign)
    return campaign


def edit_yaml(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    data = canonical.read_yaml(path)
    change(data)
    canonical.write_yaml(path, data)


def tamper_report(root: Path) -> None:
    report = root / "campaign/turns/0002/reports/blue.md"
    report.write_text(report.read_text() + "\nThe GM likes blue best.\n")


def tamper_events(root: Path) -> None:
    edit_yaml(root / "campaign/turns/0002/events.yaml", lambda data: data["events"].pop())


def tamper_state_digest(root: Path) -> None:
    edit_yaml(root / "campaign/turns/0002/digest.yaml", lambda digests: digests.update(state="0" * 64))


def tamper_state_before(root: Path) -> None:
    # A state-before.yaml slipped in after the fact: turn 3 was not resolved from that state.
    state = canonical.read_yaml(root / "campaign/state.yaml")
    state["turn"] = 3
    state["factions"]["red"]["stock"]["resources"] += 40
    canonical.write_yaml(root / "campaign/turns/0003/state-before.yaml", state)


def tamper_chain(root: Path) -> None:
    # Turn 2 rewritten consistently within itself still breaks turn 3's chain to it.
    report = root / "campaign/turns/0002/reports/red.md"
    report.write_text(report.read_text() + "\nAn afterthought.\n")
    edit_yaml(
        root / "campaign/turns/0002/digest.yaml",
        lambda digests: digests["reports"].update(red=canonical.digest(report.read_bytes())),
    )


def tamper_salt_commitment(root: Path) -> None:
    edit_yaml(
        root / "campaign/turns/0002/inputs.yaml", lambda inputs: inputs.update(next_salt_commitment="0" * 64)
    )


@pytest.mark.parametrize(
    ("tamper", "turn", "problem"),
    [
        (tamper_report, 2, "turns/0002/reports/ was edited after the turn was resolved"),
        (tamper_events, 2, "the replayed events and rolls differ from events.yaml"),
        (tamper_state_digest, 2, "the replayed state differs from the archived digest"),
        (tamper_state_before, 3, "the state before this turn differs from the replay of the turns before it"),
        (tamper_chain, 3, "turn 2's archive differs from the one turn 3 was resolved after"),
        (tamper_salt_commitment, 2, "turns/0002/inputs.yaml was edited after the turn was resolved"),
    ],
)
def test_verify_and_the_site_refuse_a_tampered_archive(
    three_turns: Path, run, tamper, turn: int, problem: str
) -> None:  # type: ignore[no-untyped-def]
    tamper(three_turns)
    code, out, _ = run("verify", "--root", three_turns, "--all")
    assert code == 1 and f"turn {turn}: MISMATCH" in out and problem in out, out
    with pytest.raises(CampaignError) as refused:
        load_history(Store(three_turns))
    assert f"turn {turn} does not replay from the archive" in str(refused.value)
    assert problem in str(refused.value)


def test_a_salt_commitment_that_does_not_match_is_refused_from_the_turn_before_it(three_turns: Path) -> None:
    # The commitment is read from the turn before, as the replay of that turn found it.
    store = Store(three_turns)
    replayed = list(replay.replay_archive(store, 2))
    assert replayed[0].next_salt_commitment is None  # a campaign without a key commits to no salt
    earlier = replayed[0]
    earlier.next_salt_commitment = "0" * 64
    again = replay.replay_turn(store, 2, earlier.result.state, earlier=earlier)  # type: ignore[union-attr]
    assert "inputs.yaml reveals no dice salt, but one was committed when turn 2 opened" in " ".join(
        again.problems
    )


def test_only_verify_renders_the_reports_again_and_notes_changed_templates(
    three_turns: Path, run, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine_template = Path(workflow.__file__).resolve().parent.parent / "templates/report.md.j2"
    (three_turns / "templates").mkdir()
    shutil.copy(engine_template, three_turns / "templates/report.md.j2")
    with (three_turns / "templates/report.md.j2").open("a") as template:
        template.write("\nA line the reports of turns 1 to 3 do not have.\n")
    code, out, _ = run("verify", "--root", three_turns, "--all")
    assert code == 0 and out.count("the reports render differently today") == 3, out

    rendered: list[int] = []
    render = views.render_reports

    def counting(templates, game, result, events=None):  # type: ignore[no-untyped-def]
        rendered.append(result.state["turn"])
        return render(templates, game, result, events)

    monkeypatch.setattr(replay, "reports_of", counting)  # what the replay renders the reports with
    history = load_history(Store(three_turns))  # the site shows no report: none is rendered again
    assert [record.turn for record in history.turns] == [1, 2, 3] and rendered == []
    assert len(replay.verify(three_turns)) == 4 and len(rendered) == 3  # three turns and the live state


def test_the_campaign_settings_are_read_again_once_their_file_changes(campaign: Path) -> None:
    """The store parses campaign.yaml and players.yaml again only when their bytes change (a long replay
    asks for them on every turn): an edit is always seen, and a caller's change to what it was given
    reaches neither the file nor the next caller."""
    store = Store(campaign)
    config = store.config()
    config["name"] = "changed by a caller"
    store.players()["factions"].clear()
    assert store.config()["name"] != "changed by a caller" and store.players()["factions"]
    edit_yaml(campaign / "campaign/campaign.yaml", lambda data: data.update(name="Renamed"))
    edit_yaml(campaign / "campaign/players.yaml", lambda data: data["factions"].pop("red"))
    assert store.config()["name"] == "Renamed"
    assert "red" not in store.players()["factions"] and store.players()["factions"]
