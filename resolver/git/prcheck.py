"""The pull-request check: may this author change these files, and do the orders hold up?

``campaign check --pr --base REV --head REV --author LOGIN`` reads everything from git objects, never
from the pull request's working tree, so the checker's own code and the campaign it checks against
both come from the base branch, and nothing the pull request contains is ever run.

A pull request passes when:

- its author is listed in the base branch's ``campaign/players.yaml``, as a player or as the GM;
- it changes only the author's own ``orders/<faction>.yaml`` (``orders/gm.yaml`` for the GM); the GM
  may also change the files of ``campaign/`` (never the archive, ``campaign/turns/``), which passes but
  is flagged for a careful review;
- every order file it adds or changes validates against the current state;
- it is not stale: no file is for a turn that is over, and the branch does not start from an older
  state of the campaign. The second test compares ``campaign/state.yaml`` where the branch left the
  base (their merge base) with the base itself, by git object id: if the base's state has changed
  since (a turn was resolved, or the GM edited the state), the orders were written against a state
  that is gone, even if they still parse.

What the pull request changes is judged on the result of merging it: git computes the merge of head
into base (``git merge-tree --write-tree``, git 2.38 or newer) and the check compares that tree with
the base. So a branch with a tangled history (several merge bases, an "evil" merge that undoes a GM
commit) is judged by what it would really do to the base, and a branch that conflicts is refused.

Authors are matched on their GitHub account id when ``campaign/players.yaml`` records ``ids`` and the
workflow passes ``--author-id``: a login passes to a new account when its owner renames theirs.

The result is a Markdown comment for the pull request and GitHub annotations (``::error file=…``).

In a sealed campaign the order file is ``orders/<faction>.yaml.age`` and this check has no key: GitHub
gives no secret to a fork's pull request, and this check never asks for one. It reads the age header
without decrypting (see ``envelope_issues``): that the file is an age file of a sane size, and that one
of its recipients is an X25519 key (the campaign's key is one). It says nothing of the other recipients:
how many they are and which SSH keys they name tell who shares a file with whom, and its output is
public. It cannot tell whose X25519 key a stanza is for (age hides that by design), nor read the
orders: those are checked at resolution, where a file that fails is dropped and its faction alone told.

A sealed campaign's pull request is refused if any of its commits, not only its result, holds a plain
order file or a file of a player's decrypted view (``.view/``): GitHub keeps every commit of a pull
request public, so the comment says that these contents are public for good. A GM's pull request that
changes ``campaign/players.yaml`` has its recipients read: one that cannot be read is refused there,
with its line, instead of stopping every later resolution.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import git
import yaml

from .. import __version__
from ..core import canonical
from ..core.issues import CampaignError, Issue
from ..core.orders import GM, OrderFile
from ..core.phases import State
from ..core.text import hide_secrets
from ..core.yamlsafe import MAX_BYTES, Located, YamlRejected, load_player_yaml, yaml_error_text
from ..engine.ruleset import Game
from ..engine.validate import check_order_file
from ..store import absences, sealing
from ..store.schedule import Settings
from ..store.store import Store
from .flow import open_repo

ORDER_FILE = re.compile(r"orders/([a-z][a-z0-9-]{0,30})\.yaml")
CAMPAIGN_FILES = ("campaign.yaml", "players.yaml", "rules.yaml", "world.yaml", "state.yaml")
MARKER = "<!-- campaign-kit:orders-check -->"
REGULAR_FILE = 0o100644
STATE = "campaign/state.yaml"


@dataclass
class Change:
    path: str
    status: str  # A added, M modified, D deleted, T type changed
    mode: int  # the file's mode at the head; 0 when deleted


@dataclass
class PrReport:
    author: str
    factions: list[str]
    is_gm: bool
    turn: int
    campaign: str
    date: str
    base: str
    head: str
    problems: list[Issue] = field(default_factory=list)  # about the pull request as a whole
    files: list[OrderFile] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)
    stale: bool = False
    faction_names: dict[str, str] = field(default_factory=dict)
    sealed_files: list[str] = field(default_factory=list)  # sealed order files, checked by their envelope

    @property
    def ok(self) -> bool:
        return not any(p.is_error for p in self.problems) and all(f.ok for f in self.files)

    def annotations(self) -> list[str]:
        issues = [*self.problems, *(i for f in self.files for i in f.issues)]
        return [annotation(i) for i in issues]

    def markdown(self) -> str:
        # The comment is public, and quotes paths and orders as written: no secret key in it is shown.
        return hide_secrets(render_markdown(self))


# -- reading git -------------------------------------------------------------------------------------


def _commit(repo: git.Repo, rev: str, what: str) -> git.Commit:
    try:
        return repo.commit(repo.git.rev_parse("--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"))
    except (git.BadName, ValueError, git.GitCommandError):
        raise CampaignError(
            f"the {what} revision '{rev}' is not in this repository",
            "fetch the whole history first (actions/checkout with fetch-depth: 0)",
            code=2,
        ) from None


def _blob(tree: git.Tree, path: str) -> git.Blob | None:
    try:
        item = tree / path
    except KeyError:
        return None
    return item if isinstance(item, git.Blob) else None


def _read(tree: git.Tree, path: str, limit: int | None = None) -> bytes | None:
    blob = _blob(tree, path)
    if blob is None:
        return None
    if limit is not None and blob.size > limit:
        return blob.data_stream.read(limit + 1)  # enough for the validator to say it is too large
    return blob.data_stream.read()


def merge_result(repo: git.Repo, base: git.Commit, head: git.Commit) -> tuple[git.Tree | None, list[str]]:
    """The tree that merging head into base gives, or None and the conflicting paths.

    Git merges the way the merge button would, whatever the history: with several merge bases it
    merges them first (a virtual base), so nothing a tangled history hides escapes the comparison."""
    status, out, err = repo.git.execute(
        ["git", "merge-tree", "--write-tree", "--no-messages", "--name-only", "-z", base.hexsha, head.hexsha],
        with_extended_output=True,
        with_exceptions=False,
        strip_newline_in_stdout=False,
    )
    fields = out.split("\0")
    if status == 0:
        return git.Tree(repo, bytes.fromhex(fields[0]), git.Tree.tree_id << 12, ""), []
    if status == 1:
        return None, sorted({path for path in fields[1:] if path})
    raise CampaignError(
        f"git cannot compute the merge of the pull request: {err.strip() or f'exit {status}'}",
        "the pull-request check needs git 2.38 or newer (git merge-tree --write-tree)",
        code=2,
    )


def changes(repo: git.Repo, base: git.Tree, merged: git.Tree, limit: int) -> tuple[list[Change], int]:
    """What merging the pull request would change in the base: at most ``limit`` changes (in path
    order), and how many there are in all. Modes come with the diff: no file is opened here."""
    out = repo.git.diff_tree("-r", "--raw", "--no-renames", "-z", base.hexsha, merged.hexsha)
    fields = out.split("\0")
    found = []
    count = 0
    for meta, path in zip(fields[0::2], fields[1::2], strict=False):
        if not meta.startswith(":"):
            break
        count += 1
        if len(found) < limit:
            _, new_mode, _, _, status = meta[1:].split(" ")
            found.append(Change(path, status[0], int(new_mode, 8)))
    return found, count


@dataclass
class Member:
    """Who may write a faction's orders (or the GM's): GitHub logins, and account ids when recorded."""

    logins: list[str]
    ids: list[int]

    def matches(self, login: str, author_id: int | None) -> bool:
        if author_id is not None and self.ids:
            return author_id in self.ids  # an id never passes to another account; a login can
        return login in self.logins


def _member(info: Any, where: str) -> Member:
    info = info if isinstance(info, dict) else {}
    ids = info.get("ids") or []
    if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        raise CampaignError(
            f"campaign/players.yaml: {where}: 'ids' must be a list of GitHub account ids (whole numbers)",
            "write for example 'ids: [583231]'; https://api.github.com/users/LOGIN shows a login's id",
        )
    return Member([str(login).lower() for login in (info.get("logins") or [])], list(ids))


def _players(raw: bytes | None) -> tuple[dict[str, Member], Member]:
    """Each faction's members and the GM's; logins lower-cased, as GitHub logins ignore case."""
    data = canonical.load(raw) if raw else None
    if not isinstance(data, dict):
        raise CampaignError("campaign/players.yaml is missing or unreadable on the base branch")
    factions = {str(f): _member(info, f"faction {f}") for f, info in (data.get("factions") or {}).items()}
    return factions, _member(data.get("gm"), "gm")


def faction_members(raw: bytes | None) -> tuple[dict[str, Member], Member]:
    """Who may write each faction's orders, and the GM's, from players.yaml's bytes (for the issue route,
    fromissue, which refuses orders for a faction their sender does not play before any branch is made)."""
    return _players(raw)


# -- the check ---------------------------------------------------------------------------------------


MAX_CHANGES = 100  # beyond this a pull request is refused as a whole, before any file is read
MAX_LISTED = 10  # the paths refused one by one; the rest are counted
ARCHIVE = "campaign/turns/"
WORKFLOWS = ".github/"


def check_pull_request(
    root: Path, base_rev: str, head_rev: str, author: str, author_id: int | None = None
) -> PrReport:
    repo = open_repo(root)
    base = _commit(repo, base_rev, "base")
    head = _commit(repo, head_rev, "head")
    merge_bases = repo.merge_base(base, head, all=True)
    if not merge_bases:
        raise CampaignError(
            "the pull request's branch shares no history with the base branch",
            "open the pull request from a branch of this repository or of a fork of it",
        )
    factions, gm = _players(_read(base.tree, "campaign/players.yaml"))
    login = author.strip().lower()
    report = PrReport(
        author=author,
        factions=sorted(f for f, member in factions.items() if member.matches(login, author_id)),
        is_gm=gm.matches(login, author_id),
        turn=0,
        campaign="",
        date="",
        base=base.hexsha,
        head=head.hexsha,
    )
    known_elsewhere = _identify(report, login, author_id, {**factions, GM: gm})
    if not report.factions and not report.is_gm and not known_elsewhere:
        report.problems.append(
            Issue(
                "error",
                f"{author} is not a player of this campaign: no faction in campaign/players.yaml lists "
                "this login, and it is not the GM's",
                "ask the GM to add your GitHub login to your faction in campaign/players.yaml",
                "campaign/players.yaml",
            )
        )
    base_config = canonical.load(_read(base.tree, "campaign/campaign.yaml") or b"") or {}
    sealed = isinstance(base_config, dict) and bool(base_config.get("sealed"))
    # In a sealed campaign, plain text in any commit of the pull request is public for good: each
    # commit is refused, not only the result of merging (which a later commit can clean up).
    leaked = _published_plain_text(report, repo, base, head) if sealed else set()
    merged, conflicts = merge_result(repo, base, head)
    if merged is None:
        report.problems.append(_conflict(conflicts))
        _describe_turn(report, _campaign_folder(base.tree, base.tree, []))  # the turn the branch missed
        return report
    diff, count = changes(repo, base.tree, merged, MAX_CHANGES + 1)
    if count > MAX_CHANGES:
        _too_many(report, diff, count)
        return report
    diff = [change for change in diff if change.path not in leaked]  # refused above, for what it is
    orders, campaign = _sort_changes(report, diff, factions, ".yaml.age" if sealed else ".yaml")
    if not _campaign_files_parse(report, merged, campaign):
        return report
    if any(c.path == "campaign/players.yaml" and c.status != "D" for c in campaign):
        report.problems += recipient_issues(_read(merged, "campaign/players.yaml") or b"")
    with _campaign_at(_campaign_folder(base.tree, merged, campaign)) as store:
        rules_errors = [issue for issue in store.house_rule_issues() if issue.is_error]
        if rules_errors:  # each at its line, as the GM's campaign check shows them
            report.problems += rules_errors
            return report
        try:
            state = store.state()
            game = store.game(state)
            if any(c.path == "campaign/campaign.yaml" and c.status != "D" for c in campaign):
                Settings.from_config(store.config())
            if any(c.path == f"campaign/{absences.LEDGER}" and c.status != "D" for c in campaign):
                absences.read_ledger(canonical.load(_read(merged, f"campaign/{absences.LEDGER}") or b""))
        except CampaignError as error:
            named = ("campaign/campaign.yaml", f"campaign/{absences.LEDGER}")
            where = next((path for path in named if error.message.startswith(path)), "campaign/")
            report.problems.append(Issue("error", error.message, error.hint, where))
            return report
        except (yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError) as error:
            said = yaml_error_text(error) if isinstance(error, yaml.YAMLError) else str(error)
            message = f"the campaign files of this pull request cannot be read: {said}"
            report.problems.append(Issue("error", message, "", "campaign/"))
            return report
        _name_turn(report, state, game)
        for change in orders:
            if change.status == "D":
                report.withdrawn.append(change.path)
                continue
            if _not_joined_yet(report, state, change.path):
                continue
            if sealed:
                raw = _read(merged, change.path, MAX_SEALED_BYTES) or b""
                report.problems += envelope_issues(raw, change.path)
                report.sealed_files.append(change.path)
                continue
            of = check_order_file(game, state, _read(merged, change.path, MAX_BYTES) or b"", change.path)
            report.files.append(of)
            _stale_turn(report, of)
    if any(c.status != "D" for c in orders) or any(p.file.startswith(ARCHIVE) for p in report.problems):
        _stale_branch(report, merge_bases, base)
    return report


@contextlib.contextmanager
def _campaign_at(files: dict[str, bytes]) -> Iterator[Store]:
    """A campaign folder made of ``files`` (campaign/NAME -> bytes), for the length of the block."""
    with tempfile.TemporaryDirectory(prefix="campaign-check-") as tmp:
        folder = Path(tmp) / "campaign"
        folder.mkdir()
        for name, raw in files.items():
            (folder / name).write_bytes(raw)
        yield Store(Path(tmp))


def _name_turn(report: PrReport, state: State, game: Game) -> None:
    """What the comment's first lines say: the turn, its date, the campaign and the author's factions."""
    report.turn = int(state["turn"])
    report.campaign = game.name
    report.date = game.calendar.date(report.turn).label
    report.faction_names = {f: game.name_of(f) for f in report.factions}


def _describe_turn(report: PrReport, files: dict[str, bytes]) -> None:
    """The turn line of a pull request refused before its orders were read (a conflict), from the base
    branch's campaign; a campaign that cannot be read there leaves it out, as the refusal says enough."""
    with _campaign_at(files) as store:
        try:
            state = store.state()
            _name_turn(report, state, store.game(state))
        except (CampaignError, yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError):
            return


def _not_joined_yet(report: PrReport, state: Mapping[str, Any], path: str) -> bool:
    """Refuse the orders of a faction that campaign/players.yaml lists but the state does not hold yet:
    a late joiner, whose faction the GM's add_faction order brings in when its turn is resolved."""
    faction = PurePosixPath(path).name.split(".", 1)[0]
    if faction == GM or faction in state["factions"]:
        return False
    report.problems.append(
        Issue(
            "error",
            f"{faction} is listed in campaign/players.yaml but has not joined the campaign yet: it joins "
            f"when the turn of the GM's order that brings it in (add_faction) is resolved",
            f"wait for that turn (turn {report.turn} is being played), then write your first orders on the "
            f"new main with campaign template {faction} and push them; no such order yet? ask the GM",
            path,
        )
    )
    return True


# -- plain text in a sealed campaign's pull request ---------------------------------------------------


MAX_COMMITS = 250  # the commits of a sealed campaign's pull request that are read; it has a few
MAX_TREE_ITEMS = 5_000  # the entries of orders/ and .view/ read in each commit: a faction's files and more
PUBLIC_FOR_GOOD = (
    "It is now public, and cannot be withdrawn: GitHub keeps every commit of a pull request (on its "
    "refs/pull/…/head), even once the file is deleted, the branch rewritten or the pull request closed."
)


def _published_plain_text(report: PrReport, repo: git.Repo, base: git.Commit, head: git.Commit) -> set[str]:
    """Refuse the plain files that any commit of the pull request holds: a plain order file, or
    anything from a player's decrypted view (``.view/``). Returns their paths."""
    commits = list(repo.iter_commits(f"{base.hexsha}..{head.hexsha}", max_count=MAX_COMMITS + 1))
    if len(commits) > MAX_COMMITS:
        report.problems.append(
            Issue(
                "error",
                f"this pull request has more than {MAX_COMMITS} commits; a pull request of orders has a few",
                "make a new branch from main with only your sealed order file in it",
            )
        )
        commits = commits[:MAX_COMMITS]
    found: dict[str, str] = {}  # path -> the first commit (oldest) that holds it
    for commit in reversed(commits):
        for path in _plain_paths(commit.tree, base.tree):
            found.setdefault(path, commit.hexsha)
    for sha in dict.fromkeys(found.values()):
        report.problems.append(_plain_text_refusal(sorted(p for p in found if found[p] == sha), sha, report))
    return set(found)


def _plain_paths(tree: git.Tree, base: git.Tree) -> list[str]:
    """The plain files of a sealed campaign in ``tree`` that are not the base's own: plain order files
    (any YAML file in orders/, templates included, which a sealed campaign does not publish) and the
    files of a decrypted view (``.view/``). However large a commit's folders, only so many entries are
    read."""
    found = []
    for folder in ("orders", sealing.VIEW_DIR):
        try:
            subtree = tree / folder
        except KeyError:
            continue
        if not isinstance(subtree, git.Tree):
            continue
        items = itertools.islice(subtree.traverse(), MAX_TREE_ITEMS)
        # What the base holds already is public already: only what the pull request brings is its own.
        blobs = (
            item for item in items if isinstance(item, git.Blob) and _blob_id(base, item.path) != item.hexsha
        )
        if folder == sealing.VIEW_DIR:  # the folder's own ignore file holds nothing of the view
            blobs = (blob for blob in blobs if blob.path != f"{sealing.VIEW_DIR}/{sealing.IGNORE_FILE}")
        if folder == "orders":
            blobs = (blob for blob in blobs if blob.path.endswith((".yaml", ".yml")))
        found += [blob.path for blob in itertools.islice(blobs, MAX_CHANGES)]
    return found


def _plain_text_refusal(paths: list[str], sha: str, report: PrReport) -> Issue:
    faction = report.factions[0] if report.factions else GM if report.is_gm else "<faction>"
    named = [
        f"{path} (from a decrypted view, which holds what only its faction may know)"
        if path.startswith(f"{sealing.VIEW_DIR}/")
        else f"{path} (a plain order file)"
        for path in paths[:MAX_LISTED]
    ]
    more = f" and {len(paths) - MAX_LISTED} more files" if len(paths) > MAX_LISTED else ""
    return Issue(
        "error",
        f"commit {sha[:12]} of this pull request holds plain text of this sealed campaign: "
        f"{', '.join(named)}{more}. {PUBLIC_FOR_GOOD}",
        "tell the GM at once; close this pull request; write new orders (everyone can read these), seal "
        f"them with campaign seal orders/{faction}.yaml and send only orders/{faction}.yaml.age, from a "
        f"new branch of main (git add only orders/{faction}.yaml.age)",
        paths[0] if len(paths) == 1 else "",
    )


# -- recipients ----------------------------------------------------------------------------------------


def recipient_issues(raw: bytes, path: str = "campaign/players.yaml") -> list[Issue]:
    """Each faction's recipients in a players file: a key that cannot be read is refused here, with its
    line, rather than stopping every later resolution; an SSH key is flagged, since it leaves a trace."""
    located = _located(raw, path)
    data = located.data if located is not None else canonical.load(raw)
    factions = data.get("factions") if isinstance(data, dict) else None
    issues: list[Issue] = []
    for faction, info in (factions or {}).items() if isinstance(factions, dict) else []:
        listed = info.get("recipients") if isinstance(info, dict) else None
        if listed is None:
            continue
        where = ("factions", str(faction), "recipients")
        line, col = located.pos(where) if located is not None else (0, 0)
        if not isinstance(listed, list) or not all(isinstance(text, str) for text in listed):
            issues.append(
                Issue(
                    "error",
                    f"{path}: faction {faction}: 'recipients' must be a list of public keys",
                    "write one public key a line, for example: recipients: [age1…]",
                    path,
                    line,
                    col,
                )
            )
            continue
        for number, text in enumerate(listed):
            line, col = located.pos((*where, number)) if located is not None else (0, 0)
            said = f"{path}: faction {faction}: recipient {number + 1}"
            issues += _recipient_issue(text, said, path, line, col)
    return issues


def _recipient_issue(text: str, where: str, path: str, line: int, col: int) -> list[Issue]:
    try:
        sealing.recipient(text, where)
    except CampaignError as error:
        return [Issue("error", error.message, error.hint, path, line, col)]
    if text.strip().startswith("ssh-"):
        return [
            Issue(
                "warning",
                f"{where} is an SSH key: every file sealed to it carries a tag of that key, so anyone can "
                "tell which files its owner can open, and who shares a file with whom",
                "prefer an age key: its owner makes one and sends only its public line, age1…",
                path,
                line,
                col,
            )
        ]
    return []


def _located(raw: bytes, path: str) -> Located | None:
    """The players file with positions, or None when it uses YAML the position reader refuses (an
    anchor, a tag): the recipients are checked all the same, only without a line."""
    try:
        return load_player_yaml(raw, path, max_bytes=max(len(raw), MAX_BYTES))
    except YamlRejected:
        return None


# A sealed file is armoured age: the orders' 64 KiB, a third more for base64, and room for the header.
MAX_SEALED_BYTES = MAX_BYTES * 3 // 2 + 4096


def envelope_issues(raw: bytes, path: str) -> list[Issue]:
    """What can be checked of a sealed order file without any key: its header and size."""
    hint = f"seal your orders with campaign seal {path.removesuffix('.age')} and commit only {path}"
    if len(raw) > MAX_SEALED_BYTES:
        return [Issue("error", f"{path} is larger than a sealed order file can be", hint, path)]
    try:
        stanzas = sealing.read_header(raw)
    except ValueError as error:
        return [Issue("error", f"{path} is not a sealed order file: {error}", hint, path)]
    # Only whether one stanza is an age key: how many recipients a file has, and which SSH keys it
    # names, say who shares it with whom, and this check's output is public.
    if not any(stanza.kind == "X25519" for stanza in stanzas):
        message = f"{path} is not encrypted to any age key, so not to the campaign's"
        return [Issue("error", message, hint, path)]
    if not sealing.is_padded_order_file(raw):
        # Every sealed order file has one length, whatever it holds: a file of any other length (sealed
        # with age by hand, say) tells everyone how much its faction wrote, and each version what changed.
        message = f"{path} does not have the one length of a sealed order file: its length says what it holds"
        return [Issue("error", message, hint, path)]
    return []


def _identify(report: PrReport, login: str, author_id: int | None, members: dict[str, Member]) -> bool:
    """Refuse an author whose login is listed but whose account is not the one recorded for it, and ask
    the GM to record the account id of members known by login alone. True when the author was refused
    here."""
    refused = False
    if author_id is None:
        return refused
    for name, member in members.items():
        who = "the GM" if name == GM else f"faction {name}"
        if member.ids and author_id not in member.ids and login in member.logins:
            refused = True
            report.problems.append(
                Issue(
                    "error",
                    f"the login {report.author} is listed for {who}, but this pull request comes from "
                    f"another GitHub account (id {author_id}) than the one recorded for it; a login "
                    "passes to a new account when its owner renames theirs",
                    "if you are that player, ask the GM to add your account id to campaign/players.yaml",
                    "campaign/players.yaml",
                )
            )
        elif not member.ids and member.matches(login, author_id):
            report.problems.append(
                Issue(
                    "warning",
                    f"campaign/players.yaml knows {who} by login only; a login passes to a new account "
                    "when its owner renames theirs",
                    f"the GM adds 'ids: [{author_id}]' to {who} in campaign/players.yaml",
                    "campaign/players.yaml",
                )
            )
    return refused


def _conflict(paths: list[str]) -> Issue:
    shown = ", ".join(paths[:MAX_LISTED]) + (
        f" and {len(paths) - MAX_LISTED} more" if len(paths) > MAX_LISTED else ""
    )
    return Issue(
        "error",
        f"this branch cannot be merged into the base branch without conflicts (in {shown})",
        "make a new branch from main, write your orders there and open a new pull request",
        paths[0] if len(paths) == 1 else "",
    )


def _too_many(report: PrReport, diff: list[Change], count: int) -> None:
    report.problems.append(
        Issue(
            "error",
            f"this pull request changes {count if count <= MAX_CHANGES else f'more than {MAX_CHANGES}'} "
            "files; a pull request of orders changes one file, its author's orders/<faction>.yaml",
            "make a new branch from main with only your order file in it",
        )
    )
    for change in diff[:MAX_LISTED]:
        report.problems.append(
            Issue("error", f"this pull request may not change {change.path}", "", change.path)
        )


def _sort_changes(
    report: PrReport, diff: list[Change], factions: dict[str, Member], suffix: str = ".yaml"
) -> tuple[list[Change], list[Change]]:
    """Split the changed paths into the author's order files and the GM's campaign files; refuse the
    rest. A stranger's paths are not listed: the one problem to fix is being unknown. A sealed
    campaign's order files end in ``.yaml.age`` (``suffix``)."""
    allowed = {f"orders/{f}{suffix}" for f in report.factions} | (
        {f"orders/{GM}{suffix}"} if report.is_gm else set()
    )
    orders: list[Change] = []
    campaign: list[Change] = []
    refused = 0
    for change in diff:
        if change.path in allowed:
            if change.status != "D" and change.mode != REGULAR_FILE:
                report.problems.append(
                    Issue(
                        "error",
                        f"{change.path} must be an ordinary file (not a link or an executable)",
                        "add it as a plain YAML file",
                        change.path,
                    )
                )
            else:
                orders.append(change)
        elif change.path.startswith(ARCHIVE):
            refused += 1
            if refused <= MAX_LISTED:
                report.problems.append(_archive_refusal(change.path, report.factions))
        elif report.is_gm and change.path.startswith("campaign/"):
            campaign.append(change)
            report.flagged.append(change.path)
            report.problems.append(
                Issue(
                    "warning",
                    f"the GM changes {change.path}: allowed, but it changes the campaign itself",
                    "review this file with care before merging",
                    change.path,
                )
            )
        elif report.factions or report.is_gm:
            refused += 1
            if refused <= MAX_LISTED:
                report.problems.append(_refusal(change.path, sorted(allowed), factions))
    if refused > MAX_LISTED:
        report.problems.append(
            Issue(
                "error",
                f"and {refused - MAX_LISTED} more files that this pull request may not change",
                "move these changes out of the pull request",
            )
        )
    return orders, campaign


def _campaign_files_parse(report: PrReport, merged: git.Tree, campaign: list[Change]) -> bool:
    """A GM's broken YAML file is named, rather than reported as a campaign that cannot be read."""
    ok = True
    for change in campaign:
        if change.status != "D" and change.path.endswith((".yaml", ".yml")):
            try:
                canonical.load(_read(merged, change.path) or b"")
            except yaml.YAMLError as error:
                ok = False
                mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
                line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
                message = f"{change.path} is not valid YAML: {yaml_error_text(error)}"
                report.problems.append(Issue("error", message, "", change.path, line, col))
    return ok


def _fresh_branch_hint(factions: list[str]) -> str:
    faction = factions[0] if factions else GM
    return (
        f"close this pull request; make a new branch from main (git fetch origin, then git switch -c "
        f"new-orders origin/main), write orders/{faction}.yaml from orders/templates/{faction}.yaml "
        "(or: campaign template) and open a new pull request"
    )


def _stale_turn(report: PrReport, of: OrderFile) -> None:
    declared = _declared_turn(of)
    if declared is None or declared >= report.turn:
        return
    report.stale = True
    match = ORDER_FILE.fullmatch(of.path)
    report.problems.append(
        Issue(
            "error",
            f"stale orders: {of.path} is for turn {declared}, which is over; "
            f"the current turn is {report.turn}",
            f"start again from orders/templates/{match.group(1) if match else GM}.yaml on the base branch "
            f"(or: campaign template), with 'turn: {report.turn}'",
            of.path,
        )
    )


# How a player brings main into their branch from the command line. A plain `git pull` stops on a default
# git (2.27 and newer) when the branch has commits of its own: "Need to specify how to reconcile divergent
# branches". A merge, said outright, works on any git and keeps the next plain push a fast-forward; a
# rebase would need a forced push. --no-edit: the merge commit's message needs no editor.
UPDATE_BRANCH = "git pull --no-rebase --no-edit origin main"


def _stale_branch(report: PrReport, forks: list[git.Commit], base: git.Commit) -> None:
    """Orders are written against the state the branch started from; if the base's state has moved on
    since (a turn resolved, a GM edit), they are stale however well they parse."""
    current = _blob_id(base.tree, STATE)
    if any(_blob_id(fork.tree, STATE) == current for fork in forks):
        return
    report.stale = True
    was = max((t for t in (_turn_at(fork) for fork in forks) if t is not None), default=None)
    resolved = was is not None and was < report.turn
    since = (
        f"turn {was} has been resolved since" if resolved else "the GM has changed the campaign's state since"
    )
    # After a resolution the order file has moved into the archive: merging main into the branch
    # would carry the edit there, so the way out is a fresh branch, not an update of this one.
    hint = (
        _fresh_branch_hint(report.factions)
        if resolved
        else f"update the branch from the base branch ('Update branch' on GitHub, or {UPDATE_BRANCH}), "
        "check your orders against the new state and push again"
    )
    report.problems.append(
        Issue(
            "error",
            f"stale branch: it starts from an older state of the campaign ({since}); "
            f"the current turn is {report.turn}",
            hint,
            STATE,
        )
    )


def _archive_refusal(path: str, factions: list[str]) -> Issue:
    return Issue(
        "error",
        f"this pull request changes {path}, part of the record of a turn that is already resolved; "
        "that record never changes, not even by the GM. This happens to a branch made before that turn "
        "was resolved that edits its orders: the order file has moved into the archive since, and the "
        "edit follows it there",
        _fresh_branch_hint(factions),
        path,
    )


def _misplaced_orders(path: str, allowed: list[str]) -> Issue | None:
    """An order file of the author's own under the wrong name (orders/red.yml), or files in a folder
    where the order file belongs (orders/red.yaml/…): refused with the one fix, not as a stranger's path."""
    for proper in allowed:
        if path.startswith(f"{proper}/"):
            return Issue(
                "error",
                f"{proper} must be a file, but this pull request makes it a folder ({path})",
                f"git rm -r {proper}, save your orders as the file {proper}, then commit and push",
                path,
            )
        if path == proper.replace(".yaml", ".yml", 1):
            return Issue(
                "error",
                f"{path} is not the name of an order file: this pull request may bring {proper} only",
                f"rename it: git mv {path} {proper}, then commit and push",
                path,
            )
    return None


def _refusal(path: str, allowed: list[str], factions: dict[str, Member]) -> Issue:
    misplaced = _misplaced_orders(path, allowed)
    if misplaced is not None:
        return misplaced
    owner = ORDER_FILE.fullmatch(path)
    if owner and owner.group(1) in factions:
        message = f"{path} belongs to another faction ({owner.group(1)}); a pull request may change only "
    elif path.startswith(WORKFLOWS):
        message = (
            f"this pull request may not change {path}: the files in .github/ decide how pull requests "
            "are checked and turns resolved, so only the GM changes them, on main; a pull request may "
            "change only "
        )
    else:
        message = f"this pull request may not change {path}; it may change only "
    return Issue(
        "error",
        message + " or ".join(allowed),
        "move this change out of the pull request (the GM handles everything else)",
        path,
    )


def _campaign_folder(base: git.Tree, merged: git.Tree, gm_changes: list[Change]) -> dict[str, bytes]:
    """The campaign files to check against: the base's, with the GM's own changes applied."""
    changed = {c.path for c in gm_changes if c.status != "D"}
    files = {}
    for name in CAMPAIGN_FILES:
        path = f"campaign/{name}"
        raw = _read(merged if path in changed else base, path)
        if raw is not None:
            files[name] = raw
    return files


def _blob_id(tree: git.Tree, path: str) -> str | None:
    blob = _blob(tree, path)
    return blob.hexsha if blob is not None else None


def _turn_at(commit: git.Commit) -> int | None:
    raw = _read(commit.tree, STATE)
    try:
        return int(canonical.load(raw)["turn"]) if raw else None
    except (yaml.YAMLError, KeyError, TypeError, ValueError):
        return None


def _declared_turn(of: OrderFile) -> int | None:
    data = of.located.data if of.located is not None else None
    value = data.get("turn") if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# -- output ------------------------------------------------------------------------------------------


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(issue: Issue) -> str:
    """A GitHub workflow command. Escaping line breaks keeps player text from starting a command."""
    props = []
    if issue.file:
        props.append(f"file={_escape_property(issue.file)}")
    if issue.line:
        props.append(f"line={issue.line}")
        if issue.col:
            props.append(f"col={issue.col}")
    props.append("title=orders check")
    text = issue.message + (f" (fix: {issue.hint})" if issue.hint else "")
    kind = "error" if issue.is_error else "warning"
    return hide_secrets(f"::{kind} {','.join(props)}::{_escape_data(text)}")


def code(text: str) -> str:
    """An inline code span that any text, backticks included, stays inside."""
    text = text.replace("\n", " ").replace("\r", " ")
    run = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (run + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def fenced(text: str) -> str:
    """A code block: Markdown, HTML and mentions inside it are shown as written, never rendered."""
    run = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, run + 1)
    return f"{fence}text\n{text.rstrip()}\n{fence}"


def file_block(of: OrderFile) -> list[str]:
    return of.echo_lines()


SAFE_LITERAL = re.compile(r"[A-Za-z0-9./-]+")
MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]<>&|~!#])")


def escape(text: str) -> str:
    """Sentences of the check in Markdown: on one line, with every character that could start a
    link, an image, HTML, a table or emphasis escaped."""
    return MARKDOWN_PUNCTUATION.sub(r"\\\1", " ".join(text.splitlines()))


def literal(text: str) -> str:
    """A name taken from the pull request (a path, a login): shown as written, never as Markdown.
    Plain names stay plain so that the comment reads like the terminal's output."""
    return text if SAFE_LITERAL.fullmatch(text) else code(text)


def sentence(message: str, names: list[str]) -> str:
    """A message of the check, with the names from the pull request in it quoted and the rest escaped."""
    found = sorted({name for name in names if name and name in message}, key=len, reverse=True)
    if not found:
        return escape(message)
    parts = []
    position = 0
    for match in re.finditer("|".join(map(re.escape, found)), message):
        parts += [escape(message[position : match.start()]), literal(match.group())]
        position = match.end()
    return "".join([*parts, escape(message[position:])])


SEALED_CHECK = [
    "This check holds no key, so it read only the file's envelope:",
    "- checked: the author, the path, that it is an age file of a sane size, that one recipient is an "
    "age key, and that no commit holds your plain orders or your view;",
    "- not checked: whether that age key is the campaign's (age hides it by design), and the orders "
    "themselves. They are checked when the turn is resolved: a file that fails then is dropped, and "
    "your faction alone is told why in its report. Run `campaign check` on your plain file before "
    "sealing it.",
]


def _faction_words(faction: str, name: str) -> str:
    """A faction as the comment names it: its id, which its order file bears, and its name, once when
    they are one word (a faction called Red is not "red (Red)")."""
    return faction if name.casefold() == faction.casefold() else f"{faction} ({name})"


def render_markdown(report: PrReport) -> str:
    names = [report.author, *(p.file for p in report.problems)]

    def text(message: str) -> str:
        return sentence(message, names)

    who = ", ".join(_faction_words(f, report.faction_names.get(f, f)) for f in report.factions)
    roles = [r for r in (who, "the GM" if report.is_gm else "") if r]
    head = "✅ Orders accepted" if report.ok else "❌ Orders refused"
    out = [MARKER, f"## {head}", ""]
    if report.turn:
        out.append(f"Turn **{report.turn}** ({report.date}) of *{report.campaign}*.")
    out.append(
        f"Checked for {code(report.author)}"
        + (f" playing {' and '.join(roles)}" if roles else " (not a player of this campaign)")
        + "."
    )
    errors = [p for p in report.problems if p.is_error]
    warnings = [p for p in report.problems if not p.is_error]
    if errors:
        out += ["", "### What must change", ""]
        out += [
            (f"- {code(p.where())}: " if p.file else "- ")
            + text(p.message)
            + (f"  \n  fix: {text(p.hint)}" if p.hint else "")
            for p in errors
        ]
    if warnings:
        out += ["", "### For the reviewer", ""]
        out += [f"- ⚠️ {text(p.message)}" + (f"  \n  {text(p.hint)}" if p.hint else "") for p in warnings]
    for of in report.files:
        out += ["", f"### {code(of.path)}: {of.counts()}", ""]
        body = file_block(of)
        note = of.holding_note()
        if body:
            out.append(fenced("\n".join(body)))
        if note:  # a valid file that gives no order: sending it holds
            out += [*([""] if body else []), escape(note) + "."]
    for path in report.sealed_files:
        out += ["", f"### {code(path)}: sealed", "", *SEALED_CHECK]
    for path in report.withdrawn:
        out += ["", f"### {code(path)}: withdrawn", "", "This pull request deletes these orders."]
    if not report.files and not report.sealed_files and not report.withdrawn and not report.problems:
        out += ["", "This pull request changes no order file."]
    out += [
        "",
        f"<sub>Checked against the base branch at {report.base[:12]}, head {report.head[:12]}, by "
        f"campaign-kit {__version__}. The same check runs locally: {code('campaign check orders/…')}</sub>",
    ]
    return "\n".join(out) + "\n"
