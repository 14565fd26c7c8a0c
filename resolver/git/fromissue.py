"""Orders sent through the campaign's "Orders" issue form, made into a branch for a pull request.

A player without git fills the "Send orders" form of their faction's page; when the orders are too long
for GitHub's prefilled new-file link, they paste them into the issue form .github/ISSUE_TEMPLATE/orders.yml.
The workflow orders-from-issue.yml then runs ``campaign orders-from-issue``, which reads the issue's body
(the form's answers, as GitHub writes them: a "### Orders" heading and a fenced YAML block), finds whose
orders they are, and writes one commit on a branch of its own: ``orders/<faction>.yaml`` with exactly the
pasted text, on top of the default branch, authored by the player. Nothing else in the repository changes:
the work tree and the index are left alone (the commit is built from git objects), so the workflow's
checkout stays the default branch. The pull request then gets the same check as any other, with the
issue's author as its author.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import git
import yaml

from ..core.issues import CampaignError
from ..core.orders import GM
from ..core.text import visible
from .flow import BOT_EMAIL, BOT_NAME, open_repo
from .prcheck import faction_members

ORDERS_HEADING = "Orders"  # the label of the issue form's text area (.github/ISSUE_TEMPLATE/orders.yml)
NO_RESPONSE = "_No response_"  # what GitHub writes for a field left empty
MAX_ORDERS_BYTES = 64 * 1024  # the order files' own limit (see the README, "What an order file may hold")
BRANCH_PREFIX = "orders-from-issue-"
_HEADING = re.compile(r"^###\s+(.+?)\s*$", re.MULTILINE)
_FENCE_OPEN = re.compile(r"^```[A-Za-z]*[ \t]*\n", re.MULTILINE)
_FENCE_CLOSE = re.compile(r"\n```[ \t]*$", re.MULTILINE)
_FACTION_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


@dataclass(frozen=True)
class IssueOrders:
    faction: str
    text: str  # the order file, exactly as pasted (with one final line break)
    branch: str
    commit: str


def orders_text(body: str) -> str:
    """The order file in an issue form's body: the answer under the "### Orders" heading, without the
    fence GitHub puts around a text area rendered as YAML."""
    body = body.replace("\r\n", "\n")
    headings = list(_HEADING.finditer(body))
    start = next((h for h in headings if h.group(1).strip() == ORDERS_HEADING), None)
    if start is None:
        raise CampaignError(
            f'the issue has no "### {ORDERS_HEADING}" section',
            "open the issue from the campaign's Orders issue form, and paste your orders into its text area",
        )
    answer = body[start.end() :]
    opening = _FENCE_OPEN.search(answer)
    if opening is not None and not answer[: opening.start()].strip():
        # The fenced block runs to its last closing fence: a YAML comment may look like a heading.
        closings = list(_FENCE_CLOSE.finditer(answer, opening.end() - 1))
        if not closings:
            raise CampaignError("the orders' code block is never closed", "paste the orders again")
        answer = answer[opening.end() : closings[-1].start()]
    else:
        following = next((h for h in headings if h.start() > start.start()), None)
        answer = answer[: following.start() - start.end()] if following else answer
    answer = answer.strip("\n")
    if not answer.strip() or answer.strip() == NO_RESPONSE:
        raise CampaignError("the issue holds no orders", "paste your orders into the Orders text area")
    return answer + "\n"


def faction_of(text: str) -> str:
    """The faction an order file names, read as far as needed: the check reads the whole file later."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "not YAML"
        raise CampaignError(
            f"the orders are not readable{where}: {problem}",
            "copy the orders again from the form's result, whole, and paste them unchanged",
        ) from None
    faction = data.get("faction") if isinstance(data, dict) else None
    if not isinstance(faction, str) or not _FACTION_ID.fullmatch(faction):
        raise CampaignError(
            "the orders name no faction ('faction: <your faction id>' at the top)",
            "copy the orders from the form of your faction's page, which writes that line",
        )
    return faction


def make_branch(root: Path, body: str, issue: int, author: str, author_id: int | None) -> IssueOrders:
    """Write the issue's orders as one commit on the branch ``orders-from-issue-<issue>``, on top of HEAD,
    authored by the issue's author; refuse orders for a faction the author does not play."""
    if issue < 1:
        raise CampaignError("--issue must be the issue's number", code=2)
    text = orders_text(body)
    if len(text.encode("utf-8")) > MAX_ORDERS_BYTES:
        raise CampaignError(
            f"the orders are longer than an order file may be ({MAX_ORDERS_BYTES // 1024} KiB)",
            "shorten the press articles and rumours, or send fewer orders",
        )
    faction = faction_of(text)
    repo = open_repo(root)
    head = repo.head.commit
    members, _gm = faction_members(_read(head, "campaign/players.yaml"))
    if faction == GM or faction not in members:
        known = ", ".join(sorted(members)) or "none"
        raise CampaignError(
            f"the orders are for '{faction}', which is no player's faction in this campaign",
            f"write the id of your faction on the 'faction:' line (the factions: {known})",
        )
    if not members[faction].matches(author.lower(), author_id):
        raise CampaignError(
            f"{author} does not play {faction}: campaign/players.yaml lists other GitHub accounts for it",
            "send the orders of your own faction, or ask the GM to add your login to campaign/players.yaml",
        )
    branch = f"{BRANCH_PREFIX}{issue}"
    commit = _commit_file(repo, head, f"orders/{faction}.yaml", text, author, author_id, issue)
    repo.git.update_ref(f"refs/heads/{branch}", commit)
    return IssueOrders(faction, text, branch, commit)


def _read(commit: git.Commit, path: str) -> bytes | None:
    try:
        return commit.tree[path].data_stream.read()
    except KeyError:
        return None


def _commit_file(
    repo: git.Repo,
    parent: git.Commit,
    path: str,
    text: str,
    author: str,
    author_id: int | None,
    issue: int,
) -> str:
    """One commit on ``parent`` that sets ``path`` to ``text``, built in a private index so that the
    checkout's index and files are untouched."""
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            "GIT_INDEX_FILE": str(Path(scratch) / "index"),
            # GitHub's no-reply address links the commit to the player's account.
            "GIT_AUTHOR_NAME": author,
            "GIT_AUTHOR_EMAIL": f"{author_id}+{author}@users.noreply.github.com"
            if author_id is not None
            else f"{author}@users.noreply.github.com",
            "GIT_COMMITTER_NAME": BOT_NAME,
            "GIT_COMMITTER_EMAIL": BOT_EMAIL,
        }
        with repo.git.custom_environment(**env):
            repo.git.read_tree(parent.hexsha)
            content = Path(scratch) / "orders.yaml"
            content.write_bytes(text.encode("utf-8"))
            blob = repo.git.hash_object("-w", "--no-filters", str(content))
            repo.git.update_index("--add", "--cacheinfo", f"100644,{blob},{path}")
            tree = repo.git.write_tree()
            faction = path.removeprefix("orders/").removesuffix(".yaml")
            message = f"Orders of {faction}, sent through issue #{issue}"
            return str(repo.git.commit_tree(tree, "-p", parent.hexsha, "-m", message))


def refusal_comment(error: CampaignError, issue: int) -> str:
    """The comment the workflow posts on an issue it could not turn into a pull request."""
    lines = [
        "<!-- campaign-kit:orders-from-issue -->",
        f"These orders were not sent: {visible(error.message.rstrip('.'))}.",
    ]
    if error.hint:
        lines.append(f"\nHow to fix it: {visible(error.hint.rstrip('.'))}.")
    lines.append(f"\nEdit issue #{issue} with the fix and the workflow reads it again.")
    return "\n".join(lines) + "\n"
