"""A sealed campaign on origin for the git tests, in any ruleset: red and green hold age keys, blue the
SSH key it already has (see ``test_sealed_git.identities``); the GM's key is outside every clone."""

from __future__ import annotations

from pathlib import Path

from .gitsim import Campaign
from .test_sealed_git import identities


def sealed_campaign(tmp_path: Path, ruleset: str = "factions") -> tuple[dict[str, Path], Campaign]:
    ids, roster = identities(tmp_path)
    key = tmp_path / "game" / "gm-key.txt"
    world = Campaign.create(
        tmp_path / "game",
        roster=roster,
        options=("--ruleset", ruleset, "--sealed", "--beacon", "test", "--key-file", str(key)),
    )
    return ids, world
