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


def merge_sealed_orders(world: Campaign, faction: str) -> None:
    """The GM merges a faction's sealed order file onto main; what it holds is nobody's business here, so
    it is a stand-in of the right name, and the CI clone is brought up to date."""
    gm = world.clone("dora")
    world.sync(gm)
    (gm / "orders" / f"{faction}.yaml.age").write_bytes(b"age-encryption.org/v1\n(sealed)\n")
    world.commit(gm, "dora", f"Merge {faction}'s sealed orders")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    world.sync(world.ci)
