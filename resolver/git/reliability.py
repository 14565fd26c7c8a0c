"""Each faction's on-time record, read from git's history and nothing else.

For every resolved turn: the commit on the branch (first parents) that archived it, the commit that
opened it (the one that archived the turn before, or the campaign's creation), and between the two,
when each faction's order file first reached the branch, in the unbroken run that lasted to the
resolution (an order file edited later keeps its first arrival, as the posting order does). That moment,
the commit's date on the branch, is set against the turn's deadline, worked out from the settings in
``campaign/campaign.yaml`` as they stood when the turn was resolved. The archive's ``inputs.yaml`` says
which factions were awaited and which were away by declaration.

Nothing is stored: the record is the history, read again whenever the site is built. A history rewritten
by force would rewrite the record with it; a campaign's branch is protected for that reason anyway.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import git

from ..core import canonical
from ..store import schedule
from ..store.punctuality import AWAY, IN_GRACE, LATE, MISSING, ON_TIME, Arrival
from ..store.store import turn_dir_name

SUFFIXES = (".yaml", ".yaml.age")  # an open campaign's order files, a sealed one's


def _blob(commit: git.Commit, path: str) -> bytes | None:
    try:
        return (commit.tree / path).data_stream.read()
    except KeyError:
        return None


def _has_orders(commit: git.Commit, faction: str) -> bool:
    return any(_blob(commit, f"orders/{faction}{suffix}") is not None for suffix in SUFFIXES)


def _resolutions(repo: git.Repo, rev: str) -> Iterator[tuple[int, git.Commit]]:
    """Each resolved turn with the first-parent commit that archived it, oldest first."""
    out = repo.git.log(
        "--first-parent", "--diff-filter=A", "--format=%H", "--name-only", rev, "--",
        "campaign/turns/*/inputs.yaml",
    )  # fmt: skip
    found: dict[int, str] = {}
    sha = ""
    for line in out.splitlines():
        line = line.strip()
        if not line:
            continue
        if "/" not in line:
            sha = line
            continue
        folder = line.split("/")[2]
        if folder.isdigit():
            found.setdefault(int(folder), sha)  # the log is newest first: keep the newest archiving
    for turn in sorted(found):
        yield turn, repo.commit(found[turn])


def _opening(repo: git.Repo, turn: int, resolution: git.Commit) -> git.Commit | None:
    """The commit that opened ``turn``: the last one on the branch before its resolution that wrote the
    previous turn's archive (turn 0's for the first turn: the campaign's creation)."""
    path = f"campaign/turns/{turn_dir_name(turn - 1)}"
    parent = resolution.parents[0] if resolution.parents else None
    if parent is None:
        return None
    sha = repo.git.log("-1", "--first-parent", "--format=%H", parent.hexsha, "--", path).strip()
    return repo.commit(sha) if sha else None


def _arrivals(resolution: git.Commit, opening: git.Commit, factions: list[str]) -> dict[str, datetime]:
    """When each faction's order file first reached the branch in the run that lasted to the resolution."""
    pending = set(factions)
    first: dict[str, datetime] = {}
    commit = resolution.parents[0]
    while pending:
        present = {f for f in pending if _has_orders(commit, f)}
        for f in pending - present:
            pending.discard(f)  # its run (if any) began with the newer commit, already noted
        for f in present:
            first[f] = datetime.fromtimestamp(commit.committed_date, UTC)
        if commit == opening or not commit.parents:
            break
        commit = commit.parents[0]
    return first


def on_time_record(root: Path, rev: str = "HEAD") -> dict[str, list[Arrival]]:
    """Every faction's arrivals, turn by turn, from the campaign repository's history at ``rev``."""
    repo = git.Repo(root)
    record: dict[str, list[Arrival]] = {}
    for turn, resolution in _resolutions(repo, rev):
        opening = _opening(repo, turn, resolution)
        inputs_raw = _blob(resolution, f"campaign/turns/{turn_dir_name(turn)}/inputs.yaml")
        config_raw = _blob(resolution.parents[0], "campaign/campaign.yaml") if resolution.parents else None
        if opening is None or inputs_raw is None or config_raw is None:
            continue  # a turn archived outside the git flow (no opening commit): nothing to measure by
        inputs = canonical.load(inputs_raw) or {}
        settings = schedule.Settings.from_config(canonical.load(config_raw) or {})
        away = list((inputs.get("away") or {}).get("factions") or [])
        missing = list(inputs.get("missing") or [])
        sent = [
            f for f, d in (inputs.get("order_digests") or {}).items() if d != "-" and not f.startswith("*")
        ]
        awaited = sorted({*sent, *missing, *away} - {"gm"})
        opened = datetime.fromtimestamp(opening.committed_date, UTC)
        deadline = schedule.deadline(settings.schedule, turn, opened) + schedule.paused_for_absences(
            settings, away
        )
        arrived = _arrivals(resolution, opening, awaited)
        for faction in awaited:
            when = arrived.get(faction)
            if when is None:
                status = AWAY if faction in away else MISSING
            elif when <= deadline:
                status = ON_TIME
            elif when <= deadline + settings.schedule.grace:
                status = IN_GRACE
            else:
                status = LATE
            record.setdefault(faction, []).append(Arrival(turn, faction, status, deadline, when))
    return record
