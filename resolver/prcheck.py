"""The pull-request check: may this author change these files, and do the orders hold up?

``campaign check --pr --base REV --head REV --author LOGIN`` reads everything from git objects, never
from the pull request's working tree, so the checker's own code and the campaign it checks against
both come from the base branch, and nothing the pull request contains is ever run.

A pull request passes when:

- its author is listed in the base branch's ``campaign/players.yaml``, as a player or as the GM;
- it changes only the author's own ``orders/<faction>.yaml`` (``orders/gm.yaml`` for the GM); the GM
  may also change files in ``campaign/``, which passes but is flagged for a careful review;
- every order file it adds or changes validates against the current state;
- it is not stale: no file is for a turn that is over, and the branch does not start from an older
  state of the campaign. The second test compares ``campaign/state.yaml`` where the branch left the
  base (their merge base) with the base itself, by git object id: if the base's state has changed
  since (a turn was resolved, or the GM edited the state), the orders were written against a state
  that is gone, even if they still parse.

The result is a Markdown comment for the pull request and GitHub annotations (``::error file=…``).
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import git
import yaml

from . import __version__
from .core import canonical
from .core.issues import CampaignError, Issue
from .core.orders import GM, OrderFile
from .core.yamlsafe import MAX_BYTES
from .gitflow import open_repo
from .schedule import Settings
from .store import Store
from .validate import check_order_file

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

    @property
    def ok(self) -> bool:
        return not any(p.is_error for p in self.problems) and all(f.ok for f in self.files)

    def annotations(self) -> list[str]:
        issues = [*self.problems, *(i for f in self.files for i in f.issues)]
        return [annotation(i) for i in issues]

    def markdown(self) -> str:
        return render_markdown(self)


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


def _blob(commit: git.Commit, path: str) -> git.Blob | None:
    try:
        item = commit.tree / path
    except KeyError:
        return None
    return item if isinstance(item, git.Blob) else None


def _read(commit: git.Commit, path: str, limit: int | None = None) -> bytes | None:
    blob = _blob(commit, path)
    if blob is None:
        return None
    if limit is not None and blob.size > limit:
        return blob.data_stream.read(limit + 1)  # enough for the validator to say it is too large
    return blob.data_stream.read()


def changes(repo: git.Repo, base: git.Commit, head: git.Commit) -> list[Change]:
    """What the pull request changes: the diff from where it left the base to its head."""
    out = repo.git.diff("--name-status", "--no-renames", "-z", f"{base.hexsha}...{head.hexsha}")
    parts = [p for p in out.split("\0") if p]
    found = []
    for status, path in zip(parts[0::2], parts[1::2], strict=True):
        blob = None if status.startswith("D") else _tree_item(head, path)
        found.append(Change(path, status[0], blob.mode if blob is not None else 0))
    return found


def _tree_item(commit: git.Commit, path: str) -> Any:
    try:
        return commit.tree / path
    except KeyError:
        return None


def _players(raw: bytes | None) -> tuple[dict[str, list[str]], list[str]]:
    """Logins of each faction and of the GM, lower-cased: GitHub logins ignore case."""
    data = canonical.load(raw) if raw else None
    if not isinstance(data, dict):
        raise CampaignError("campaign/players.yaml is missing or unreadable on the base branch")
    factions = {
        str(f): [str(login).lower() for login in ((info or {}).get("logins") or [])]
        for f, info in (data.get("factions") or {}).items()
    }
    gm = [str(login).lower() for login in ((data.get("gm") or {}).get("logins") or [])]
    return factions, gm


# -- the check ---------------------------------------------------------------------------------------


def check_pull_request(root: Path, base_rev: str, head_rev: str, author: str) -> PrReport:
    repo = open_repo(root)
    base = _commit(repo, base_rev, "base")
    head = _commit(repo, head_rev, "head")
    merge_bases = repo.merge_base(base, head)
    if not merge_bases:
        raise CampaignError(
            "the pull request's branch shares no history with the base branch",
            "open the pull request from a branch of this repository or of a fork of it",
        )
    factions, gm_logins = _players(_read(base, "campaign/players.yaml"))
    login = author.strip().lower()
    report = PrReport(
        author=author,
        factions=sorted(f for f, logins in factions.items() if login in logins),
        is_gm=login in gm_logins,
        turn=0,
        campaign="",
        date="",
        base=base.hexsha,
        head=head.hexsha,
    )
    if not report.factions and not report.is_gm:
        report.problems.append(
            Issue(
                "error",
                f"{author} is not a player of this campaign: no faction in campaign/players.yaml lists "
                "this login, and it is not the GM's",
                "ask the GM to add your GitHub login to your faction in campaign/players.yaml",
                "campaign/players.yaml",
            )
        )
    orders, campaign = _sort_changes(report, changes(repo, base, head), factions)
    if not _campaign_files_parse(report, head, campaign):
        return report
    with tempfile.TemporaryDirectory(prefix="campaign-check-") as tmp:
        folder = Path(tmp) / "campaign"
        folder.mkdir()
        for name, raw in _campaign_folder(base, head, campaign).items():
            (folder / name).write_bytes(raw)
        store = Store(Path(tmp))
        try:
            state = store.state()
            game = store.game(state)
            if any(c.path == "campaign/campaign.yaml" and c.status != "D" for c in campaign):
                Settings.from_config(store.config())
        except CampaignError as error:
            where = (
                "campaign/campaign.yaml"
                if error.message.startswith("campaign/campaign.yaml")
                else "campaign/"
            )
            report.problems.append(Issue("error", error.message, error.hint, where))
            return report
        except (yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError) as error:
            message = f"the campaign files of this pull request cannot be read: {error}"
            report.problems.append(Issue("error", message, "", "campaign/"))
            return report
        report.turn = int(state["turn"])
        report.campaign = game.name
        report.date = game.calendar.date(report.turn).label
        report.faction_names = {f: game.name_of(f) for f in report.factions}
        for change in orders:
            if change.status == "D":
                report.withdrawn.append(change.path)
                continue
            of = check_order_file(game, state, _read(head, change.path, MAX_BYTES) or b"", change.path)
            report.files.append(of)
            _stale_turn(report, of)
    if any(c.status != "D" for c in orders):
        _stale_branch(report, merge_bases[0], base)
    return report


def _sort_changes(
    report: PrReport, diff: list[Change], factions: dict[str, list[str]]
) -> tuple[list[Change], list[Change]]:
    """Split the changed paths into the author's order files and the GM's campaign files; refuse the
    rest. A stranger's paths are not listed: the one problem to fix is being unknown."""
    allowed = {f"orders/{f}.yaml" for f in report.factions} | (
        {f"orders/{GM}.yaml"} if report.is_gm else set()
    )
    orders: list[Change] = []
    campaign: list[Change] = []
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
            report.problems.append(_refusal(change.path, sorted(allowed), factions))
    return orders, campaign


def _campaign_files_parse(report: PrReport, head: git.Commit, campaign: list[Change]) -> bool:
    """A GM's broken YAML file is named, rather than reported as a campaign that cannot be read."""
    ok = True
    for change in campaign:
        if change.status != "D" and change.path.endswith((".yaml", ".yml")):
            try:
                canonical.load(_read(head, change.path) or b"")
            except yaml.YAMLError as error:
                ok = False
                message = f"{change.path} is not valid YAML: {error}"
                report.problems.append(Issue("error", message, "", change.path))
    return ok


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


def _stale_branch(report: PrReport, fork: git.Commit, base: git.Commit) -> None:
    """Orders are written against the state the branch started from; if the base's state has moved on
    since (a turn resolved, a GM edit), they are stale however well they parse."""
    if _blob_id(fork, STATE) == _blob_id(base, STATE):
        return
    report.stale = True
    was = _turn_at(fork)
    since = (
        f"turn {was} has been resolved since"
        if was is not None and was < report.turn
        else "the GM has changed the campaign's state since"
    )
    report.problems.append(
        Issue(
            "error",
            f"stale branch: it starts from an older state of the campaign ({since}); "
            f"the current turn is {report.turn}",
            "update the branch from the base branch (git pull origin main, or 'Update branch' on GitHub), "
            "check your orders against the new state and push again",
            STATE,
        )
    )


def _refusal(path: str, allowed: list[str], factions: dict[str, list[str]]) -> Issue:
    owner = ORDER_FILE.fullmatch(path)
    if owner and owner.group(1) in factions:
        message = f"{path} belongs to another faction ({owner.group(1)}); a pull request may change only "
    else:
        message = f"this pull request may not change {path}; it may change only "
    return Issue(
        "error",
        message + " or ".join(allowed),
        "move this change out of the pull request (the GM handles everything else)",
        path,
    )


def _campaign_folder(base: git.Commit, head: git.Commit, gm_changes: list[Change]) -> dict[str, bytes]:
    """The campaign files to check against: the base's, with the GM's own changes applied."""
    changed = {c.path for c in gm_changes if c.status != "D"}
    files = {}
    for name in CAMPAIGN_FILES:
        path = f"campaign/{name}"
        raw = _read(head if path in changed else base, path)
        if raw is not None:
            files[name] = raw
    return files


def _blob_id(commit: git.Commit, path: str) -> str | None:
    blob = _blob(commit, path)
    return blob.hexsha if blob is not None else None


def _turn_at(commit: git.Commit) -> int | None:
    raw = _read(commit, STATE)
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
    return f"::{kind} {','.join(props)}::{_escape_data(text)}"


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


def render_markdown(report: PrReport) -> str:
    who = ", ".join(f"{f} ({report.faction_names.get(f, f)})" for f in report.factions)
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
        out += [f"- {code(p.file)}: {p.message}" + (f"  \n  fix: {p.hint}" if p.hint else "") for p in errors]
    if warnings:
        out += ["", "### For the reviewer", ""]
        out += [f"- ⚠️ {p.message}" + (f"  \n  {p.hint}" if p.hint else "") for p in warnings]
    for of in report.files:
        out += ["", f"### {code(of.path)}: {of.summary().split(': ', 1)[1]}", ""]
        body = file_block(of)
        out.append(fenced("\n".join(body)) if body else "_No orders in this file: the faction will hold._")
    for path in report.withdrawn:
        out += ["", f"### {code(path)}: withdrawn", "", "This pull request deletes these orders."]
    if not report.files and not report.withdrawn and not report.problems:
        out += ["", "This pull request changes no order file."]
    out += [
        "",
        f"<sub>Checked against the base branch at {report.base[:12]}, head {report.head[:12]}, by "
        f"campaign-kit {__version__}. The same check runs locally: {code('campaign check orders/…')}</sub>",
    ]
    return "\n".join(out) + "\n"
