"""Issue 25 section 2: `campaign handover` in an open campaign, without git: players.yaml records who
played which turns, the old account ids go, and an order file the old player left is named."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from resolver.core import canonical
from resolver.store import sealing
from resolver.store.handover import stints

Run = Callable[..., tuple[int, str, str]]


def players(root: Path) -> dict:
    return canonical.read_yaml(root / "campaign/players.yaml")


def test_two_handovers_make_a_history_of_stints(run: Run, campaign: Path) -> None:
    entry = players(campaign)["factions"]["red"]
    canonical.write_yaml(
        campaign / "campaign/players.yaml",
        {
            **players(campaign),
            "factions": {**players(campaign)["factions"], "red": {**entry, "logins": ["alice"], "ids": [7]}},
        },
    )
    assert run("resolve", "--root", campaign, "--force")[0] == 0  # turn 1, played by alice
    code, out, err = run("handover", "--root", campaign, "red", "--login", "Bob", "--id", "9")
    assert code == 0, err
    assert "Recorded in campaign/players.yaml: alice: turn 1." in out
    assert run("resolve", "--root", campaign, "--force")[0] == 0  # turn 2, played by bob
    assert run("resolve", "--root", campaign, "--force")[0] == 0  # turn 3, played by bob
    (campaign / "orders/red.yaml").write_text("campaign: x\n", encoding="utf-8")  # bob's, left behind
    code, out, err = run("handover", "--root", campaign, "red", "--login", "carol")
    assert code == 0, err
    assert "Note: orders/red.yaml is on the branch already, written by the previous player" in out
    red = players(campaign)["factions"]["red"]
    assert red["logins"] == ["carol"] and "ids" not in red and red["since"] == 4
    assert red["played_by"] == [
        {"logins": ["alice"], "from": 1, "to": 1},
        {"logins": ["bob"], "from": 2, "to": 3},
    ]
    assert [s.describe() for s in stints(red)] == ["alice: turn 1", "bob: turns 2 to 3", "carol: turn 4 on"]


def test_a_player_who_played_no_turn_leaves_no_stint(run: Run, campaign: Path) -> None:
    code, out, err = run("handover", "--root", campaign, "red", "--login", "erin")
    assert code == 0, err
    assert "Recorded" not in out
    red = players(campaign)["factions"]["red"]
    assert "played_by" not in red and red["since"] == 1


def test_an_open_campaign_takes_no_keys_and_a_handover_needs_a_login(run: Run, campaign: Path) -> None:
    before = (campaign / "campaign/players.yaml").read_bytes()
    public = sealing.new_key()[1]
    code, _, err = run("handover", "--root", campaign, "red", "--login", "erin", "--recipient", public)
    assert code == 2 and "this campaign is open" in err
    code, _, err = run("handover", "--root", campaign, "red", "--login", " ")
    assert code == 2 and "needs the new player's GitHub login" in err
    code, _, err = run("handover", "--root", campaign, "purple", "--login", "erin")
    assert code == 2 and "unknown faction 'purple'" in err
    assert (campaign / "campaign/players.yaml").read_bytes() == before


def test_a_late_joiners_first_player_is_recorded_from_the_turn_the_faction_joined(
    run: Run, campaign: Path
) -> None:
    state = canonical.read_yaml(campaign / "campaign/state.yaml")
    name = canonical.read_yaml(campaign / "campaign/campaign.yaml")["campaign"]
    gm = f"campaign: {name}\nturn: {state['turn']}\nfaction: gm\norders:\n"
    gm += "  - {action: add_faction, id: violet, name: The Violet March, color: '#7d3c98'}\n"
    (campaign / "orders/gm.yaml").write_text(gm, encoding="utf-8")
    listed = players(campaign)
    listed["factions"]["violet"] = {"name": "The Violet March", "logins": ["vera"]}
    canonical.write_yaml(campaign / "campaign/players.yaml", listed)
    for _ in range(3):  # violet joins as turn 1 is resolved, and plays turns 2 and 3
        code, out, err = run("resolve", "--root", campaign, "--force")
        assert code == 0, out + err
    code, out, err = run("handover", "--root", campaign, "violet", "--login", "wes")
    assert code == 0, err
    assert "Recorded in campaign/players.yaml: vera: turns 2 to 3." in out
    code, _, err = run("site", "--root", campaign, "--no-build")
    assert code == 0, err
    page = (campaign / "site/factions/violet/index.md").read_text(encoding="utf-8")
    assert "- Played by vera: turns 2 to 3; wes: turn 4 on." in page
