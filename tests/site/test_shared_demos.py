"""The bots' demos that the site and browser tests share are the games `campaign demo --seed 1` plays, turn
for turn, whatever ran before them in the process: a test that gave the CLI a campaign key (--key-file)
leaves it in the process, and a key salts an open campaign's dice, so a demo played after such a test was
another game (a seasons winter without the Piorad's raid, a usurper demo without a fight)."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver import workflow
from resolver.core import canonical
from resolver.engine.ruleset import RULESETS
from resolver.store import sealing

from .demo import DemoSite, bot_demo_site, no_campaign_key

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def digests(site: DemoSite) -> dict[int, dict[str, str]]:
    """Each archived turn's state and events digests, as the golden files hold them."""
    found = {}
    for folder in sorted((site.root / "campaign/turns").glob("[0-9]*")):
        turn = int(folder.name)
        if turn:
            found[turn] = {
                "state": canonical.read_yaml(folder / "digest.yaml")["state"],
                "events": canonical.digest((folder / "events.yaml").read_bytes()),
            }
    return found


def golden(ruleset: str, turns: int) -> dict[int, dict[str, str]]:
    played = canonical.read_yaml(GOLDEN / f"{ruleset}-demo-seed1.yaml")["turns"]
    assert len(played) >= turns, f"the golden {ruleset} demo holds {len(played)} turns, fewer than {turns}"
    return {turn: played[turn] for turn in range(1, turns + 1)}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_shared_demo_is_the_campaign_demos_game(
    ruleset: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    site = bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / ruleset, ruleset)
    played = digests(site)
    assert played == golden(ruleset, len(played))


def test_the_seasons_year_of_war_is_the_campaign_demos_game(tmp_path_factory: pytest.TempPathFactory) -> None:
    site = bot_demo_site(tmp_path_factory.getbasetemp() / "demos" / "seasons-8", "seasons", turns=8)
    assert digests(site) == golden("seasons", 8)


def test_a_key_left_by_an_earlier_command_is_out_of_the_way_while_a_demo_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = tmp_path / "key.txt"
    workflow.write_demo_key(key, 1, "campaign")
    monkeypatch.setattr(sealing, "_override", [])
    sealing.use_key_file(key)  # as `campaign resolve --key-file` leaves it
    monkeypatch.setenv(sealing.KEY_VARIABLE, key.read_text(encoding="utf-8"))
    held = sealing.campaign_key()
    assert held is not None
    with no_campaign_key():
        assert sealing.campaign_key() is None
    assert sealing.campaign_key() == held
