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


def merge_sealed_orders(world: Campaign, faction: str) -> None:
    """The GM merges a faction's sealed order file onto main; what it holds is nobody's business here, so
    it is a stand-in of the right name, and the CI clone is brought up to date."""
    gm = world.clone("dora")
    world.sync(gm)
    (gm / "orders" / f"{faction}.yaml.age").write_bytes(b"age-encryption.org/v1\n(sealed)\n")
    world.commit(gm, "dora", f"Merge {faction}'s sealed orders")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    world.sync(world.ci)
