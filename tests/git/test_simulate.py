"""The three-player, three-turn simulation runs end to end and tells the whole story."""

from __future__ import annotations

from pathlib import Path

from .simulate import play


def test_three_players_three_turns(tmp_path: Path) -> None:
    text = play(tmp_path / "campaign")
    assert text.count("→ accepted (exit 0)") == 9
    assert text.count("→ refused (exit 1)") == 4
    for refusal in (
        "orders/red.yaml belongs to another faction (red)",
        "no settlement is called 'Atlantis'",
        "this pull request may not change campaign/state.yaml",
        "stale branch: it starts from an older state of the campaign (turn 2 has been resolved since)",
    ):
        assert refusal in text
    assert "the GM changes campaign/campaign.yaml" in text
    assert "Turn 2 is not due: no orders yet from blue" in text
    assert "House Brook falls into civil disorder" in text
    assert "3 of 3 turn(s) replay byte-identically." in text
    log = text.split("## git log --oneline --decorate", 1)[1].strip().splitlines()
    assert "(HEAD -> main, tag: turn-3, origin/main, origin/HEAD) Turn 3 resolved" in log[0]
    assert [line.split(" ", 1)[1] for line in log if "tag: turn-" in line][1:] == [
        "(tag: turn-2) Turn 2 resolved",
        "(tag: turn-1) Turn 1 resolved",
    ]
    assert log[-1].endswith("Start the campaign")
