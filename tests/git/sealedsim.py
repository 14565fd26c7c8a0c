"""A sealed campaign on origin for the git tests, in any ruleset: alice (red) and carol (green) hold age
keys, bob (blue) the SSH key it already has (see ``test_sealed_git.identities``); the GM's key is outside
every clone. Where the ruleset's sides are fixed, red, blue and green are seated as its first three
(Diplomacy's austria, england, france), keeping their names: ``Campaign.faction_of(login)`` says which."""

from __future__ import annotations

from pathlib import Path

from .. import sides
from .gitsim import Campaign
from .test_sealed_git import identities


def sealed_campaign(tmp_path: Path, ruleset: str = "factions") -> tuple[dict[str, Path], Campaign]:
    """The campaign, and each faction's identity file by the faction's id in the campaign."""
    ids, roster = identities(tmp_path)
    seats = sides.seats(ruleset, roster["factions"])
    roster = {**roster, "factions": {seats[f]: entry for f, entry in roster["factions"].items()}}
    key = tmp_path / "game" / "gm-key.txt"
    world = Campaign.create(
        tmp_path / "game",
        roster=roster,
        options=("--ruleset", ruleset, "--sealed", "--beacon", "test", "--key-file", str(key)),
    )
    return {seats[f]: path for f, path in ids.items()}, world
