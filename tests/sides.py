"""Faction ids for tests that run over every ruleset.

Most rulesets take any faction id (a players file may name its factions red, blue, ...), but one whose
sides are fixed does not: Diplomacy's factions are its seven powers, so a test that wrote ``red`` into a
players file, or sent ``orders/red.yaml``, would be testing an unknown faction there. These helpers give
a test the ids the campaign really has: the ones to write into a players file it makes (``sides``), and
the ones a campaign it made gave its players (``faction_of``, ``played_factions``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from resolver import workflow
from resolver.core import canonical
from resolver.engine.ruleset import get_ruleset


def sides(ruleset: str, count: int) -> list[str]:
    """The ids of the first ``count`` factions of a ``ruleset`` campaign made without a players file
    (``campaign new --factions N``): red, blue, green... where the ruleset takes any id, its own sides in
    order where they are fixed (austria, england, france... in Diplomacy). A players file written with
    them keeps its names and colours in every ruleset."""
    return [setup.id for setup in workflow.ruleset_factions(ruleset, count, seed=1)]


def sealed_by_default(ruleset: str) -> bool:
    """Whether ``campaign new`` makes a ``ruleset`` campaign sealed unless told --open (its rules data's
    ``sealed_by_default``)."""
    return bool(get_ruleset(ruleset).default_rules().get("sealed_by_default"))


def open_options(ruleset: str) -> list[str]:
    """What ``campaign new`` needs to make an open campaign of ``ruleset``: --open where it would seal."""
    return ["--open"] if sealed_by_default(ruleset) else []


def players_file(root: Path) -> dict[str, Any]:
    return canonical.read_yaml(root / "campaign" / "players.yaml")


def faction_of(root: Path, login: str) -> str:
    """The faction the campaign in ``root`` seats ``login`` in, as its players file says."""
    return seat_of(players_file(root), login)


def seat_of(players: Mapping[str, Any], login: str) -> str:
    """The faction a players file's data seats ``login`` in."""
    factions = players.get("factions") or {}
    found = [
        fid for fid, entry in factions.items() if login.lower() in map(str.lower, entry.get("logins") or [])
    ]
    assert len(found) == 1, f"{login} plays {found or 'nothing'}"
    return found[0]


def played_factions(root: Path) -> list[str]:
    """The ids of the factions the campaign in ``root`` lists players for (not its NPCs), sorted."""
    return sorted(players_file(root).get("factions") or {})


def seats(ruleset: str, ids: Iterable[str]) -> dict[str, str]:
    """Each of ``ids``, named as ``campaign new`` names factions where they are free (red, blue,
    green...), to the id of the same seat in a ``ruleset`` campaign: itself where the ruleset takes any
    id, the side in that place where the sides are fixed (red to austria, blue to england in Diplomacy).
    A test's roster written with red and blue is then good for every ruleset."""
    generated = [fid for fid, _ in workflow.PALETTE]
    wanted = list(ids)
    order = sides(ruleset, max(generated.index(fid) for fid in wanted) + 1)
    return {fid: order[generated.index(fid)] for fid in wanted}
