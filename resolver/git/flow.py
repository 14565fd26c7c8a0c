"""The git layer: when a turn began, who posted first, and one commit plus one tag per resolved turn.

Only the CI shell (``campaign resolve --if-due --commit``) and the pull-request check use it; the
engine knows nothing of git. Everything is read from the history of the checked-out branch (``main``
in CI), along first parents: a pull request's merge commit is the moment its files reached ``main``.

A resolution is all or nothing. It runs under a lock in the git folder, on a clean tree, and if
anything fails between the first file written and the tag, the branch, index and working tree are put
back exactly at the previous commit.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import git

try:
    import fcntl
except ImportError:  # Windows: players never need the lock, only the CI runner and the GM's shell do
    fcntl = None  # type: ignore[assignment]

from ..core import canonical
from ..core import factions as faction_records
from ..core.issues import CampaignError
from ..core.orders import GM
from ..engine.ruleset import Game
from ..engine.turn import TurnResult, seeded_posting_order
from ..store import beacon, schedule, sealing
from ..store.absences import away_at
from ..store.resolution import Rejected, TurnMovedOn, expect_next_turn, resolve
from ..store.store import Store, checkpoint, environment_error, turn_dir_name

BOT_NAME = "github-actions[bot]"
BOT_EMAIL = "41898282+github-actions[bot]@users.noreply.github.com"
LOCK_FILE = "campaign-resolve.lock"
MARKER_FILE = "campaign-resolve-pending.yaml"  # a resolution under way: see recover_interrupted
COMMITTED = ("campaign", "orders")  # the only folders a resolution writes


def open_repo(root: Path) -> git.Repo:
    """The repository whose top folder is ``root``; campaign paths are relative to it."""
    try:
        repo = git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise CampaignError(
            f"{root.resolve()} is not the top folder of a git repository",
            # Said to whoever reached this: resolve's git options, check --pr, notify and remind.
            "this reads git's history: run it in a clone of the campaign repository (git clone URL), "
            "or git init and commit the campaign first",
            code=2,
        ) from None
    if repo.bare or Path(repo.working_tree_dir or "").resolve() != root.resolve():
        raise CampaignError(
            f"{root.resolve()} is not the top folder of a git repository",
            f"run it from {repo.working_tree_dir} or pass --root there",
            code=2,
        )
    if not repo.head.is_valid():
        raise CampaignError("the repository has no commit yet", "commit the campaign first", code=2)
    return repo


def ensure_clean(repo: git.Repo) -> None:
    """Refuse to resolve over uncommitted work: it would end up in the turn's commit, or be lost."""
    if repo.is_dirty(untracked_files=True):
        changed = sorted({d.a_path for d in repo.index.diff(None)} | set(repo.untracked_files))
        staged = sorted(d.a_path for d in repo.index.diff("HEAD"))
        names = sorted(set(changed + staged))
        raise CampaignError(
            "the working tree has uncommitted changes: "
            + ", ".join(names[:5])
            + (" …" if len(names) > 5 else ""),
            "commit or remove them (git status shows them), then resolve again",
        )


def first_parent_chain(repo: git.Repo, rev: str = "HEAD") -> Iterator[git.Commit]:
    commit: git.Commit | None = repo.commit(rev)
    while commit is not None:
        yield commit
        commit = commit.parents[0] if commit.parents else None


def _has(tree: git.Tree, path: str) -> bool:
    try:
        tree / path
    except KeyError:
        return False
    return True


def arrival_order(
    repo: git.Repo, factions: list[str], seed: int, turn: int, rev: str = "HEAD", suffix: str = ".yaml"
) -> list[str]:
    """Posting order: factions sorted by when their ``orders/<faction>.yaml`` reached the branch.

    Walking first parents back from ``rev``, a file's arrival is the oldest commit of the unbroken run
    in which it exists; the previous resolution deleted every order file, so the run starts within the
    current turn. Editing a file later keeps its place. Files that arrived in the same commit, and the
    factions without a file, follow the seeded order, which no player can influence. A sealed
    campaign's order files end in ``.yaml.age`` (``suffix``).
    """
    tie = seeded_posting_order(seed, turn, factions)
    head = repo.commit(rev)
    pending = {f for f in factions if f != GM and _has(head.tree, f"orders/{f}{suffix}")}
    present = set(pending)
    age: dict[str, int] = {}
    depth = 0
    for depth, commit in enumerate(first_parent_chain(repo, rev)):
        for f in sorted(pending):
            if not _has(commit.tree, f"orders/{f}{suffix}"):
                age[f] = depth - 1
                pending.discard(f)
        if not pending:
            break
    for f in pending:  # present since the first commit of the history
        age[f] = depth
    arrived = sorted(present, key=lambda f: (-age[f], tie.index(f)))
    return arrived + [f for f in tie if f not in present]


def turn_opened_at(repo: git.Repo, turn: int, rev: str = "HEAD") -> datetime:
    """When the turn began: the last commit on the branch that wrote the previous turn's archive
    (the campaign's creation for turn 1)."""
    path = f"campaign/turns/{turn_dir_name(turn - 1)}"
    out = repo.git.log("-1", "--first-parent", "--format=%ct", rev, "--", path).strip()
    if not out:
        raise CampaignError(
            f"cannot tell when turn {turn} began: {path}/ is not in the git history",
            "commit the campaign (and every resolved turn) before running the git flow",
        )
    return datetime.fromtimestamp(int(out), UTC)


def opening_moments(root: Path) -> Callable[[int], datetime | None]:
    """When each turn began, for the site's deadline: ``turn_opened_at`` in the campaign's repository, or
    None where git cannot tell (no repository, a turn not committed yet): the site then words the rule."""

    def opened_at(turn: int) -> datetime | None:
        try:
            return turn_opened_at(git.Repo(root), turn)
        except (CampaignError, git.GitError, ValueError):
            return None

    return opened_at


@contextmanager
def resolve_lock(repo: git.Repo, timeout: float = 120.0) -> Iterator[bool]:
    """An exclusive lock in the git folder, so two resolutions in one clone never overlap.

    Yields False if another process still held it after ``timeout`` seconds. The operating system
    releases it when its holder exits, so a crashed run never leaves the campaign locked.
    """
    if fcntl is None:
        raise CampaignError("resolving with git needs a POSIX system (Linux, macOS), as GitHub's runners are")
    path = Path(repo.git_dir) / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        end = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= end:
                    yield False
                    return
                time.sleep(0.05)
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextmanager
def clone_lock(root: Path, timeout: float = 120.0) -> Iterator[bool]:
    """For a plain ``campaign resolve``: the resolution lock of the clone whose top folder is ``root``,
    so that it waits until a ``--commit`` run has made its commit and tag, rather than writing a turn
    of its own into that commit. Outside a clone (or on Windows) there is no such run to wait for."""
    try:
        repo = git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        repo = None
    in_clone = (
        repo is not None and not repo.bare and Path(repo.working_tree_dir or "").resolve() == root.resolve()
    )
    if repo is None or not in_clone or fcntl is None:
        yield True
        return
    with resolve_lock(repo, timeout) as locked:
        yield locked


def uncommitted_turn(repo: git.Repo, store: Store) -> str:
    """A turn resolved in this clone without being committed (a plain ``campaign resolve``, run while
    this run waited for the lock): said so, rather than as a dirty tree. "" if none."""
    archived = store.archived_turns()
    committed = committed_turn(repo)
    if not archived or archived[-1] < committed:
        return ""
    return (
        f"turn {committed} was resolved in this clone by a plain campaign resolve, which does not commit, "
        "while this run waited"
    )


def _bot_env() -> dict[str, str]:
    # No date: git takes the real clock (or GIT_COMMITTER_DATE when the caller's environment sets one,
    # as git always does). A resolution never chooses its own date, so it cannot move later deadlines.
    return {
        "GIT_AUTHOR_NAME": BOT_NAME,
        "GIT_AUTHOR_EMAIL": BOT_EMAIL,
        "GIT_COMMITTER_NAME": BOT_NAME,
        "GIT_COMMITTER_EMAIL": BOT_EMAIL,
    }


def bot_dates(repo: git.Repo) -> tuple[str, str]:
    """The author and committer dates of the bot's commit as git reads them: the clock, or
    GIT_AUTHOR_DATE and GIT_COMMITTER_DATE where the environment sets them. git reads more forms than
    GitPython's own date parser (ISO 8601 ending in Z, RFC 2822…), so git reads them here and GitPython
    is handed git's answer, "@seconds ±hhmm". A date git does not read either is refused, by name."""
    dates = []
    for who in ("AUTHOR", "COMMITTER"):
        try:
            ident = str(repo.git.var(f"GIT_{who}_IDENT", env=_bot_env()))
        except git.GitCommandError as error:
            said = str(error.stderr or error).strip().removeprefix("stderr:").strip(" '\n")
            given = os.environ.get(f"GIT_{who}_DATE")
            if given is None:
                raise
            raise CampaignError(
                f"the environment variable GIT_{who}_DATE is '{given}', which git does not read as a date "
                f"({said.removeprefix('fatal: ')})",
                f"unset GIT_{who}_DATE, or give a date git reads, such as 2026-10-06T15:00:00Z, then run the "
                "command again",
                code=2,
            ) from None
        seconds, zone = ident.split()[-2:]
        dates.append(f"@{seconds} {zone}")
    return dates[0], dates[1]


def commit_message(game: Game, result: TurnResult) -> str:
    lines = [f"Turn {result.turn} resolved", ""]
    lines.append(
        f"{game.calendar.date(result.turn).label}. Posting order: {', '.join(result.posting_order)}."
    )
    # A refused sealed file was merged for all to see: it is no silence, and why it was refused is its
    # faction's business (the commit message is public).
    silent = [f for f in result.missing if f not in result.refused]
    if silent:
        lines.append(f"No orders from: {', '.join(silent)} ({result.absent.describe()}).")
    if result.refused:
        lines.append(f"Sealed orders that could not be used: {', '.join(result.refused)}.")
    if result.away:
        lines.append(f"Away, as declared: {', '.join(result.away)} ({result.away_policy.describe()}).")
    lines.append(f"Turn seed: {result.seed.hex}")
    return "\n".join(lines) + "\n"


def tag_turn(repo: git.Repo, tag: str, commit: str, message: str) -> None:
    repo.git.tag("-a", tag, "-m", message.splitlines()[0], commit, env=_bot_env())


def commit_turn(repo: git.Repo, message: str, tag: str) -> git.Commit:
    """Stage everything the resolution wrote, commit it as the bot at the real time, tag it."""
    repo.git.add("--all", "--", *COMMITTED)
    checkpoint("added")
    bot = git.Actor(BOT_NAME, BOT_EMAIL)
    author_date, commit_date = bot_dates(repo)
    # skip_hooks: no hook of the clone runs while CI holds the bot token (GitPython runs them itself).
    commit = repo.index.commit(
        message, author=bot, committer=bot, author_date=author_date, commit_date=commit_date, skip_hooks=True
    )
    checkpoint("committed")
    tag_turn(repo, tag, commit.hexsha, message)
    checkpoint("tagged")
    return commit


def rollback(repo: git.Repo, previous: str, tag: str) -> None:
    """Put branch, index and working tree back at ``previous`` and drop the tag if it was made (the
    resolution refuses to start when the tag already exists, so any such tag is this run's)."""
    if tag in repo.tags:
        repo.delete_tag(repo.tags[tag])
    repo.git.reset("--hard", "--quiet", previous)
    repo.git.clean("-fdq", "--", *COMMITTED)


# -- interrupted runs -----------------------------------------------------------------------------------
#
# Before it writes anything, a run leaves a marker in the git folder naming the turn, its tag and the
# commit it started from; it removes the marker once the tag exists. A marker found by the next run
# means the previous one was killed (or failed and could not undo itself): if the turn's commit was
# made, the next run completes it (the tag); if not, it puts the clone back at the starting commit and
# resolves the turn afresh, which gives the same turn since resolving is deterministic.


def _marker(repo: git.Repo) -> Path:
    return Path(repo.git_dir) / MARKER_FILE


def _clear_stale_git_locks(repo: git.Repo) -> None:
    """git's own lock files, left by a git command killed halfway; only called with our lock held
    and our marker present, so no other git command of this resolution can be running."""
    git_dir = Path(repo.git_dir)
    candidates = [git_dir / "index.lock", git_dir / "HEAD.lock", *git_dir.glob("refs/*/*.lock")]
    for path in candidates:
        path.unlink(missing_ok=True)


def recover_interrupted(repo: git.Repo, store: Store) -> Outcome | None:
    """Finish or undo a resolution that was interrupted; an Outcome when that finished the turn."""
    marker = _marker(repo)
    if not marker.exists():
        return None
    pending = canonical.read_yaml(marker)
    turn, tag, previous = int(pending["turn"]), str(pending["tag"]), str(pending["previous"])
    _clear_stale_git_locks(repo)
    head = repo.head.commit
    outcome = None
    committed = head.hexsha != previous and head.parents and head.parents[0].hexsha == previous
    if committed and str(head.message).startswith(f"Turn {turn} resolved"):
        if tag not in repo.tags:
            tag_turn(repo, tag, head.hexsha, str(head.message))
        outcome = Outcome(
            True,
            f"Turn {turn} had been resolved and committed by an interrupted run: commit "
            f"{head.hexsha[:12]}, tag {tag}.",
            turn,
            commit=head.hexsha,
            tag=tag,
        )
    if outcome is None and head.hexsha == previous:
        rollback(repo, previous, tag)
        store.discard_staging()
    marker.unlink()
    return outcome


def missing_tag(repo: git.Repo, store: Store) -> str:
    """A resolved turn whose commit is on the branch without its tag (the run stopped between the two,
    before markers existed): tag it now. Returns a note, or ""."""
    archived = store.archived_turns()
    if not archived or f"turn-{archived[-1]}" in repo.tags:
        return ""
    turn = archived[-1]
    sha = repo.git.log(
        "-1", "--first-parent", "--format=%H", "HEAD", "--", f"campaign/turns/{turn_dir_name(turn)}"
    ).strip()
    if not sha or not repo.commit(sha).message.startswith(f"Turn {turn} resolved"):
        return ""
    tag_turn(repo, f"turn-{turn}", sha, repo.commit(sha).message)
    return f"The tag turn-{turn} was missing; added it to the commit that resolved turn {turn}."


@dataclass
class Outcome:
    resolved: bool
    message: str
    turn: int
    game: Game | None = None
    result: TurnResult | None = None
    commit: str = ""
    tag: str = ""
    notes: list[str] = field(default_factory=list)


def _failed(first: BaseException, repo: git.Repo, previous: str, tag: str) -> BaseException:
    """Undo a failed resolution; if undoing fails too, say both, the first error first. A failure of the
    disk is named before the undoing, which frees the space the turn took and would hide it."""
    said = first if isinstance(first, CampaignError) else environment_error(first) or first
    try:
        rollback(repo, previous, tag)
        _marker(repo).unlink(missing_ok=True)
    except Exception as second:  # the marker stays: the next run undoes what this one could not
        text = said.message if isinstance(said, CampaignError) else f"{type(first).__name__}: {first}"
        then = environment_error(second)
        return CampaignError(
            f"{text}; putting the clone back failed as well ({then.message if then else second})",
            "fix the cause, then run campaign resolve again: it undoes the unfinished resolution first",
        )
    return said


def early_resolution_refused(
    repo: git.Repo, settings: schedule.Settings, turn: int, decision: schedule.Due
) -> str:
    """One deadline gives one turn: resolving a turn before it is due is refused when the previous turn
    answered to the same deadline. Returns the reason, or ""."""
    if turn < 2 or decision.deadline is None:
        return ""
    previous = schedule.deadline(settings.schedule, turn - 1, turn_opened_at(repo, turn - 1))
    if previous != decision.deadline:
        return ""
    return (
        f"turn {turn} was not resolved: it is not due, and turn {turn - 1} was already resolved for the "
        f"same deadline ({schedule.stamp(decision.deadline)}); one deadline gives one turn"
    )


def committed_turn(repo: git.Repo) -> int:
    blob = repo.head.commit.tree / "campaign/state.yaml"
    # Through the read cache: the committed state is, in a clean clone, the very bytes the resolve reads
    # next, so a big state is parsed once for this, the check after the lock and the resolve itself.
    return int(canonical.load_cached(blob.data_stream.read())["turn"])


def beacon_wait(store: Store, turn: int, now: datetime) -> str:
    """Why the turn cannot be resolved yet although it is due: its dice wait for the beacon round it
    committed to when it opened, which is published after its deadline (empty: nothing to wait for)."""
    committed = store.committed_beacon_round(turn)
    net = store.beacon_network()
    if committed is None or net is None or beacon.time_of(net, committed) <= now:
        return ""
    when = beacon.time_of(net, committed)
    return (
        f"its dice wait for round {committed} of {net.title}, published at {beacon.stamp(when)}: nobody can "
        "know them before, so the turn resolves at the next run after that"
    )


def run_resolution(
    root: Path,
    now: datetime,
    *,
    if_due: bool,
    commit: bool,
    force: bool = False,
    lock_timeout: float = 120.0,
) -> Outcome:
    """``campaign resolve`` with git: resolve the turn (when due, with ``if_due``), commit and tag it.

    ``now`` decides whether the turn is due; the commit is dated by the real clock. Idempotent: a turn
    that is not due, or was resolved by a run that held the lock first, is left alone and reported;
    a run that was interrupted is finished or undone first (see ``recover_interrupted``). The campaign
    key, if the environment holds it, is out of the environment of every git process it starts.
    """
    with sealing.key_kept_from_children():
        return _run_resolution(root, now, if_due, commit, force, lock_timeout)


def _run_resolution(
    root: Path, now: datetime, if_due: bool, commit: bool, force: bool, lock_timeout: float
) -> Outcome:

    store = Store(root)
    store.require()
    repo = open_repo(root)
    # Read before the lock, checked again once it is ours. With --commit it is read from the last
    # commit: a run that holds the lock may have switched in half a turn that is not committed yet.
    waited_for = committed_turn(repo) if commit else int(store.state()["turn"])
    with resolve_lock(repo, lock_timeout) as locked:
        if not locked:
            return Outcome(False, "another resolution holds the lock on this clone; nothing done", waited_for)
        notes: list[str] = []
        if commit:
            finished = recover_interrupted(repo, store)
            if finished is not None:
                return finished
            note = missing_tag(repo, store)
            if note:
                notes.append(note)
            plain = uncommitted_turn(repo, store)
            if plain:
                raise CampaignError(
                    plain,
                    "to commit and tag the turn as CI does, put the clone back (git checkout -- campaign "
                    "orders && git clean -fdq campaign orders) and run campaign resolve --commit again",
                )
            ensure_clean(repo)
            bot_dates(repo)  # a date git cannot read is refused now, before anything is written
        state = store.state()
        turn = int(state["turn"])
        if turn != waited_for:
            return Outcome(
                False,
                f"turn {waited_for} was resolved by another run while this one waited; nothing to do",
                turn,
                notes=notes,
            )
        expect_next_turn(store, state)
        game = store.game(state)
        settings = schedule.Settings.from_config(store.config())
        tag = f"turn-{turn}"
        if commit and tag in repo.tags:
            raise CampaignError(
                f"the tag {tag} already exists, but the campaign's state is at turn {turn}",
                f"to resolve turn {turn} again, delete the old tag first: git tag -d {tag} "
                f"(and git push origin :refs/tags/{tag})",
            )
        active = faction_records.awaited(state, game.factions)  # NPC factions are the bot's: never waited for
        suffix = ".yaml.age" if store.sealed else ".yaml"
        submitted = {p.name.removesuffix(suffix) for p in store.submitted_paths()}
        away = away_at(store, turn)  # declared absences: not waited for, and no trip of the breaker
        decision = schedule.due(settings, turn, turn_opened_at(repo, turn), now, active, submitted, away)
        waiting = beacon_wait(store, turn, now)
        if if_due and decision.due and waiting:
            return Outcome(False, f"Turn {turn} is due ({decision.reason}), but {waiting}", turn, notes=notes)
        if if_due and not decision.due and store.sealed:
            return Outcome(False, decision.reason[0].upper() + decision.reason[1:], turn, notes=notes)
        if if_due and not decision.due:
            # A file that fails the check can reach the branch (the GM may merge past a red check):
            # say so now, not only when the deadline comes and the turn is refused.
            files = store.check(game, state)
            if any(not f.ok for f in files):
                raise Rejected(files, not_due=decision.reason.split(";")[0])
            return Outcome(False, decision.reason[0].upper() + decision.reason[1:], turn, notes=notes)
        if decision.due:
            notes.append(f"Turn {turn} is due: {decision.reason}.")
        else:
            refused = early_resolution_refused(repo, settings, turn, decision)
            if refused and not force:
                raise CampaignError(
                    refused, "wait for the deadline, or resolve anyway with --force (the workflow's 'force')"
                )
            notes.append(f"Turn {turn} is resolved before it is due, at the GM's request.")
        missing = len([f for f in active if f not in submitted and f not in away])
        if schedule.breaker_trips(settings, len(active), missing):
            if not force:
                raise CampaignError(
                    f"turn {turn} was not resolved: {missing} of {len(active)} active factions have no "
                    f"orders, more than the circuit breaker allows "
                    f"({settings.max_missing_share:.0%}, circuit_breaker.max_missing_share)",
                    "the GM can resolve anyway with --force (the workflow's 'force' input), "
                    "or extend or pause the deadline in campaign/campaign.yaml",
                )
            notes.append(f"The circuit breaker was overridden (--force): {missing} faction(s) silent.")
        order = arrival_order(repo, list(game.factions), game.seed, turn, suffix=suffix)
        previous = repo.head.commit.hexsha
        if commit:
            canonical.write_yaml(_marker(repo), {"turn": turn, "tag": tag, "previous": previous})
            checkpoint("marked")
        try:
            game, result = resolve(root, posting_order=order, now=now, turn=turn)
            checkpoint("switched")
            sha = commit_turn(repo, commit_message(game, result), tag).hexsha if commit else ""
            if commit:
                _marker(repo).unlink()
        except TurnMovedOn as moved:
            # Another run resolved the turn and wrote nothing of this one's: its files are not undone.
            _marker(repo).unlink(missing_ok=True)
            return Outcome(False, moved.message, turn, notes=notes)
        except BaseException as first:
            if not commit:
                raise
            raise _failed(first, repo, previous, tag) from first
        done = f"Turn {turn} resolved" + (
            f": commit {sha[:12]}, tag {tag}." if commit else " (not committed)."
        )
        return Outcome(True, done, turn, game, result, sha, tag if commit else "", notes)
