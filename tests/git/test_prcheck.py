"""The pull-request check, on real branches pushed to a bare origin."""

from __future__ import annotations

import re
import subprocess

import pytest
import yaml

from resolver.core.issues import Issue
from resolver.git.prcheck import MARKER, annotation, code, fenced

from .gitsim import Campaign, PullRequest, Result, cli


def test_a_players_own_file_is_accepted(world: Campaign) -> None:
    pr = world.pull_request("alice", "red-t1", {"orders/red.yaml": world.bot_orders("red")})
    done = world.check(pr)
    assert done.code == 0, done.out
    assert done.comment.startswith(MARKER)
    assert "✅ Orders accepted" in done.comment
    assert "Turn **1**" in done.comment and "playing red (House Alder)" in done.comment
    # Each order is echoed as understood, with the summary line.
    assert re.search(r"### `orders/red.yaml`: \d+ orders? accepted, 0 errors, 0 warnings", done.comment)
    assert "1. split: army 1 splits" in done.comment
    assert "::error" not in done.out


def test_logins_match_whatever_their_case(world: Campaign) -> None:
    pr = world.pull_request("bob", "blue-t1", {"orders/blue.yaml": world.bot_orders("blue")})
    pr.author = "BOB"  # players.yaml says "Bob"; GitHub logins ignore case
    assert world.check(pr).code == 0


def test_another_players_file_is_refused(world: Campaign) -> None:
    pr = world.pull_request("alice", "meddling", {"orders/blue.yaml": world.bot_orders("blue")})
    done = world.check(pr)
    assert done.code == 1
    assert "❌ Orders refused" in done.comment
    assert "orders/blue.yaml belongs to another faction (blue)" in done.comment
    assert "::error file=orders/blue.yaml," in done.out


def test_a_state_edit_is_refused(world: Campaign) -> None:
    state = (world.ci / "campaign/state.yaml").read_text()
    pr = world.pull_request(
        "alice",
        "rich",
        {
            "orders/red.yaml": world.bot_orders("red"),
            "campaign/state.yaml": state.replace("resources: ", "resources: 9", 1),
        },
    )
    done = world.check(pr)
    assert done.code == 1
    assert "may not change campaign/state.yaml" in done.comment
    assert "::error file=campaign/state.yaml," in done.out
    # The orders are still checked, so the player sees everything at once.
    assert "Turn **1**" in done.comment and "### `orders/red.yaml`: " in done.comment


def test_templates_and_the_schema_are_the_resolvers(world: Campaign) -> None:
    pr = world.pull_request("alice", "tpl", {"orders/templates/red.yaml": "# mine\n"})
    assert world.check(pr).code == 1


def test_a_stranger_is_refused(world: Campaign) -> None:
    pr = world.pull_request("mallory", "hello", {"orders/red.yaml": world.bot_orders("red")})
    done = world.check(pr)
    assert done.code == 1
    assert "mallory is not a player of this campaign" in done.comment
    assert "(not a player of this campaign)" in done.comment


def test_the_gms_file_is_accepted_and_campaign_changes_are_flagged(world: Campaign) -> None:
    gm_orders = (
        "campaign: git-test\nturn: 1\nfaction: gm\norders:\n"
        "  - action: narrate\n    headline: Storm season\n    text: The sea rises.\n"
    )
    pr = world.pull_request("dora", "gm-t1", {"orders/gm.yaml": gm_orders})
    done = world.check(pr)
    assert done.code == 0, done.comment
    assert "playing the GM" in done.comment and "1 order accepted" in done.comment

    rules = (world.ci / "campaign/rules.yaml").read_text().replace("{}", "actions:\n  per_turn: 4\n")
    pr = world.pull_request("dora", "gm-rules", {"orders/gm.yaml": gm_orders, "campaign/rules.yaml": rules})
    done = world.check(pr)
    assert done.code == 0, done.comment
    assert "### For the reviewer" in done.comment and "the GM changes campaign/rules.yaml" in done.comment
    assert "::warning file=campaign/rules.yaml," in done.out


def test_the_gm_may_not_write_a_players_file(world: Campaign) -> None:
    pr = world.pull_request("dora", "gm-meddles", {"orders/red.yaml": world.bot_orders("red")})
    assert world.check(pr).code == 1


def test_a_gms_broken_campaign_file_is_named(world: Campaign) -> None:
    rules = (world.ci / "campaign/rules.yaml").read_text() + "actions: [\n"
    done = world.check(world.pull_request("dora", "gm-typo", {"campaign/rules.yaml": rules}))
    assert done.code == 1
    assert "campaign/rules.yaml is not valid YAML" in done.comment


def test_a_gm_settings_change_is_validated(world: Campaign) -> None:
    config = (world.ci / "campaign/campaign.yaml").read_text().replace("paused: false", "paused: maybe")
    pr = world.pull_request("dora", "pause", {"campaign/campaign.yaml": config})
    done = world.check(pr)
    assert done.code == 1
    assert "'schedule.paused' must be true or false" in done.comment


def test_invalid_orders_are_refused_with_their_lines(world: Campaign) -> None:
    bad = (
        world.template("red")
        .decode()
        .replace("orders: []", "orders:\n  - action: move\n    army: '9'\n    path: [N]")
    )
    pr = world.pull_request("alice", "typo", {"orders/red.yaml": bad})
    done = world.check(pr)
    assert done.code == 1
    line = next(n for n, text in enumerate(bad.splitlines(), 1) if "army: '9'" in text)
    assert re.search(rf"::error file=orders/red.yaml,line={line},col=\d+,title=orders check::", done.out)
    assert f"orders/red.yaml:{line}:" in done.comment


def test_a_stale_turn_is_refused(world: Campaign) -> None:
    for faction in ("red", "blue", "green"):
        world.submit(faction)
    assert world.resolve("--if-due", "--commit").code == 0
    # A fresh branch from main, but the file still says turn 1.
    old = world.bot_orders("red").replace(b"turn: 2", b"turn: 1")
    pr = world.pull_request("alice", "late", {"orders/red.yaml": old})
    done = world.check(pr)
    assert done.code == 1
    assert "stale orders: orders/red.yaml is for turn 1, which is over; the current turn is 2" in done.comment


def test_a_branch_from_an_older_state_is_refused(world: Campaign) -> None:
    """Orders written before the turn was resolved are stale even if they claim the new turn."""
    pr = world.pull_request("alice", "early", {"orders/red.yaml": world.bot_orders("red")})
    for faction in ("red", "blue", "green"):
        world.submit(faction)
    assert world.resolve("--if-due", "--commit").code == 0
    # Alice's branch still starts from turn 1's state; bump only the turn number in her file.
    clone = world.clone("alice")
    world.git(clone, "checkout", "--quiet", "early")
    path = clone / "orders/red.yaml"
    path.write_bytes(path.read_bytes().replace(b"turn: 1", b"turn: 2"))
    pr.head = world.commit(clone, "alice", "turn 2, I hope")
    world.git(clone, "push", "--quiet", "--force", "origin", "HEAD:refs/heads/early")
    done = world.check(pr)
    assert done.code == 1
    assert "stale branch: it starts from an older state of the campaign (turn 1 has been resolved since)" in (
        done.comment
    )
    assert done.comment.count("current turn") == 1  # the refusal states its fact once


def test_a_withdrawal_passes(world: Campaign) -> None:
    world.submit("red")
    pr = world.pull_request("alice", "withdraw", {"orders/red.yaml": None})
    done = world.check(pr)
    assert done.code == 0
    assert "`orders/red.yaml`: withdrawn" in done.comment


def test_a_link_instead_of_a_file_is_refused(world: Campaign) -> None:
    clone = world.clone("alice")
    world.git(clone, "fetch", "--quiet", "origin")
    world.git(clone, "checkout", "--quiet", "-B", "link", "origin/main")
    (clone / "orders/red.yaml").symlink_to("../campaign/state.yaml")
    head = world.commit(clone, "alice", "a link")
    world.git(clone, "push", "--quiet", "origin", "HEAD:refs/heads/link")
    done = world.check(PullRequest("link", "alice", head))
    assert done.code == 1
    assert "must be an ordinary file" in done.comment


def test_an_unknown_revision_is_a_usage_error(world: Campaign) -> None:
    done = world.check(PullRequest("nope", "alice", "0" * 40))
    assert done.code == 2 and "is not in this repository" in done.err


def test_annotations_cannot_smuggle_workflow_commands() -> None:
    issue = Issue("error", "unknown action 'x'\n::add-mask::oops", "fix it, 100%", "orders/red.yaml", 3, 5)
    line = annotation(issue)
    assert "\n" not in line
    assert line.startswith("::error file=orders/red.yaml,line=3,col=5,title=orders check::")
    assert "%0A::add-mask::oops" in line and "100%25" in line


def test_player_text_stays_inside_code() -> None:
    text = "name: ```\n</details> @everyone"
    block = fenced(text)
    fence = block.splitlines()[0].removesuffix("text")
    assert len(fence) == 4 and block.endswith("\n" + fence)
    assert code("a`b") == "``a`b``" and code("`x") == "`` `x ``"


# -- issue 8: what judges a pull request, and what it is judged on -----------------------------------


def _check_as(world: Campaign, pr: PullRequest, author_id: int | None = None) -> Result:
    """The workflow's call, with the author's account id when given."""
    world.git(world.ci, "fetch", "--quiet", "origin")
    comment = world.base / "comment.md"
    comment.unlink(missing_ok=True)
    extra = ["--author-id", str(author_id)] if author_id is not None else []
    done = cli(
        "check", "--pr", "--root", world.ci, "--base", "origin/main", "--head", pr.head,
        "--author", pr.author, *extra, "--comment", comment,
    )  # fmt: skip
    done.comment = comment.read_text(encoding="utf-8") if comment.exists() else ""
    return done


def _gm_commits(world: Campaign, files: dict[str, str], message: str) -> str:
    """The GM changes main directly, as the ruleset's bypass actor."""
    gm = world.clone("dora")
    world.sync(gm)
    for rel, content in files.items():
        (gm / rel).write_text(content, encoding="utf-8")
    sha = world.commit(gm, "dora", message)
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    return sha


@pytest.mark.parametrize(
    ("login", "faction", "workflow"),
    [("alice", "red", "orders-check.yml"), ("carol", "green", "resolve.yml")],
)
def test_a_pull_request_that_edits_a_workflow_is_refused(
    world: Campaign, login: str, faction: str, workflow: str
) -> None:
    """The workflows run from main, and the gate refuses any change to them in words."""
    path = f".github/workflows/{workflow}"
    files = {f"orders/{faction}.yaml": world.bot_orders(faction), path: "on: pull_request\njobs: {}\n"}
    done = world.check(world.pull_request(login, "green-light", files))
    assert done.code == 1
    assert "❌ Orders refused" in done.comment
    assert (
        f"this pull request may not change {path}: the files in .github/ decide "
        "how pull requests are checked and turns resolved, so only the GM changes them, on main"
    ) in done.comment
    assert f"::error file={path}," in done.out


def test_the_gm_cannot_change_workflows_by_pull_request_either(world: Campaign) -> None:
    pr = world.pull_request("dora", "gm-ci", {".github/workflows/orders-comment.yml": "on: push\n"})
    done = world.check(pr)
    assert done.code == 1
    assert "may not change .github/workflows/orders-comment.yml" in done.comment


HOSTILE_NAMES = [
    "notes/x`y|z.md",
    "notes/[click me](javascript:alert(1)).md",
    "notes/<img src=x onerror=alert(1)>.md",
    "notes/<!-- the rest is hidden",
    "notes/line\n## ✅ Orders accepted",
    "notes/**bold** _it_ ~~gone~~.md",
    "notes/@everyone www.evil.example.md",
    "notes/&lt;script&gt;.md",
    "notes/| a | b |",
]


def test_file_names_cannot_forge_the_comment(world: Campaign) -> None:
    import markdown

    pr = world.pull_request(
        "alice", "names", {"orders/red.yaml": world.bot_orders("red"), **dict.fromkeys(HOSTILE_NAMES, "x\n")}
    )
    done = world.check(pr)
    assert done.code == 1
    lines = done.comment.splitlines()
    # Only the check's own headings start lines; each name stays on its line, inside code.
    assert [line for line in lines if line.startswith("## ")] == ["## ❌ Orders refused"]
    for name in HOSTILE_NAMES:
        shown = code(name.replace("\n", " "))
        assert sum(line.count(shown) for line in lines) == 2, name  # the bullet's label and its sentence
    html = markdown.markdown(done.comment)
    for forbidden in ("<a ", "<img", "<strong>bold", "<em>it", "<h2>✅", "<table", "<script"):
        assert forbidden not in html
    assert html.count("<!--") == 1  # the check's own marker, nothing a name opened
    assert "&amp;lt;script&amp;gt;" in html  # an entity in a name is shown as typed


def test_a_criss_cross_history_cannot_hide_a_revert(world: Campaign) -> None:
    """An 'orders only' branch with an evil merge undoes a GM commit to players.yaml: the check looks
    at what merging the branch would really do, not at the diff from one of its merge bases."""
    orders = world.bot_orders("red")
    start = world.head()
    players = (world.ci / "campaign/players.yaml").read_text()
    gm_change = _gm_commits(
        world,
        {"campaign/players.yaml": players.replace("- carol", "- carol\n    - erin")},
        "Erin joins green",
    )
    # Alice's branch left main before the GM's commit, and her commit is the newer one.
    clone = world.clone("alice")
    world.git(clone, "fetch", "--quiet", "origin")
    world.git(clone, "checkout", "--quiet", "-B", "red", start)
    (clone / "orders/red.yaml").write_bytes(orders)
    first = PullRequest("red", "alice", world.commit(clone, "alice", "My orders"))
    world.git(clone, "push", "--quiet", "origin", "HEAD:refs/heads/red")
    world.merge(first)  # main: the GM's commit, then the merge of alice's first branch
    # Alice merges the GM's commit into her branch, but keeps the old players.yaml, and edits her orders.
    world.git(clone, "merge", "--quiet", "--no-commit", "--no-ff", gm_change)
    world.git(clone, "checkout", first.head, "--", "campaign/players.yaml")
    (clone / "orders/red.yaml").write_bytes(orders + b"# second thoughts\n")
    first.head = world.commit(clone, "alice", "Merge main, and my orders")
    world.git(clone, "push", "--quiet", "--force", "origin", "HEAD:refs/heads/red")
    world.git(world.ci, "fetch", "--quiet", "origin")
    assert len(world.git(world.ci, "merge-base", "--all", "origin/main", first.head).split()) == 2

    done = world.check(first)
    assert done.code == 1
    assert "this pull request may not change campaign/players.yaml" in done.comment
    # What git would really merge: the GM's line is gone.
    gm = world.clone("dora")
    world.sync(gm)
    world.git(gm, "merge", "--quiet", "--no-edit", first.head)
    assert "erin" not in (gm / "campaign/players.yaml").read_text()


def test_a_branch_that_conflicts_with_main_is_refused(world: Campaign) -> None:
    orders = world.bot_orders("red")
    pr = world.pull_request("alice", "mine", {"orders/red.yaml": orders + b"# one\n"})
    world.submit("red", orders + b"# two\n")
    done = world.check(pr)
    assert done.code == 1
    assert "cannot be merged into the base branch without conflicts (in orders/red.yaml)" in done.comment


def test_fifteen_hundred_stray_files_are_refused_without_reading_them(world: Campaign) -> None:
    strays = {f"junk/{n:04}.yaml": "[" * 200 for n in range(1500)}
    pr = world.pull_request("alice", "junk", {"orders/red.yaml": world.bot_orders("red"), **strays})
    done = world.check(pr)
    assert done.code == 1
    assert "this pull request changes more than 100 files; a pull request of orders changes one file" in (
        done.comment
    )
    # The first few are named; nothing is parsed, the author's orders included.
    assert done.out.count("::error") == 11
    assert "may not change junk/0000.yaml" in done.comment and "junk/0010.yaml" not in done.comment
    assert "### `orders/red.yaml`" not in done.comment and "Turn **" not in done.comment
    assert len(done.comment) < 3000


def test_stray_files_below_the_cap_are_counted_not_listed(world: Campaign) -> None:
    strays = {f"junk/{n:02}.txt": "x" for n in range(30)}
    pr = world.pull_request("alice", "some-junk", {"orders/red.yaml": world.bot_orders("red"), **strays})
    done = world.check(pr)
    assert done.code == 1
    assert done.comment.count("may not change junk/") == 10
    assert "and 20 more files that this pull request may not change" in done.comment
    assert "### `orders/red.yaml`: " in done.comment  # the player's own orders are still checked


def test_a_stale_edit_never_lands_in_the_archive(world: Campaign) -> None:
    """Issue 8, point 6, step by step: the orders are merged, a second branch edits them, the turn
    resolves, the check refuses the stale branch, the player updates the branch as GitHub offers."""
    world.submit("red")
    edit = world.pull_request(
        "alice", "red-edit", {"orders/red.yaml": world.bot_orders("red") + b"# second thoughts\n"}
    )
    assert world.check(edit).code == 0
    world.submit("blue")
    world.submit("green")
    assert world.resolve("--if-due", "--commit").code == 0

    stale = world.check(edit)
    assert stale.code == 1
    # The resolution deleted orders/red.yaml and sealed the turn's orders in a new file that git cannot
    # take for a rename, so the stale branch now conflicts with main, and the check says so.
    assert "cannot be merged into the base branch without conflicts (in orders/red.yaml)" in stale.comment
    assert "make a new branch from main" in stale.comment

    # The player clicks "Update branch" (a merge of main into the branch, as the README's git pull does).
    clone = world.clone("alice")
    world.git(clone, "checkout", "--quiet", "red-edit")
    world.git(clone, "fetch", "--quiet", "origin")
    merged = subprocess.run(
        ["git", "-C", str(clone), "merge", "--no-edit", "origin/main"],
        capture_output=True, text=True, env=world.env("alice"), check=False,
    )  # fmt: skip
    if merged.returncode:  # a conflict: the player keeps their own file, as most would
        world.git(clone, "add", "--all")
        world.git(clone, "commit", "--quiet", "--no-edit", login="alice")
    edit.head = world.git(clone, "rev-parse", "HEAD")
    world.git(clone, "push", "--quiet", "--force", "origin", "HEAD:refs/heads/red-edit")
    world.git(world.ci, "fetch", "--quiet", "origin")
    touched = world.git(world.ci, "diff", "--name-only", "origin/main", edit.head).split("\n")

    done = world.check(edit)
    archived = [path for path in touched if path.startswith("campaign/turns/")]
    if archived:
        assert done.code == 1
        assert (
            f"this pull request changes {archived[0]}, part of the record of a turn that is already resolved"
        ) in done.comment
        assert "make a new branch from main" in done.comment
    else:  # the edit stayed in orders/: it is judged as orders for the new turn
        assert done.code == 1 and "stale orders: orders/red.yaml is for turn 1" in done.comment

    # The advice works: a new branch from main with orders for turn 2 passes and merges.
    fresh = world.pull_request("alice", "red-turn-2", {"orders/red.yaml": world.bot_orders("red")})
    assert world.check(fresh).code == 0
    world.merge(fresh)
    world.sync(world.ci)
    verified = cli("verify", "--root", world.ci, "--all")
    assert verified.code == 0, verified.out + verified.err


def test_the_gm_may_not_change_the_archive(world: Campaign) -> None:
    for faction in ("red", "blue", "green"):
        world.submit(faction)
    assert world.resolve("--if-due", "--commit").code == 0
    archived = next(
        path
        for path in world.git(world.ci, "ls-files", "campaign/turns").split("\n")
        if path.endswith(".yaml") and "/0001/" in path
    )
    pr = world.pull_request("dora", "gm-rewrites", {archived: "rewritten: true\n"})
    done = world.check(pr)
    assert done.code == 1
    assert "part of the record of a turn that is already resolved; that record never changes" in done.comment


def _record_ids(world: Campaign, ids: dict[str, int]) -> None:
    path = world.ci / "campaign/players.yaml"
    world.sync(world.ci)
    players = yaml.safe_load(path.read_text())
    for faction, account in ids.items():
        players["factions"][faction]["ids"] = [account]
    _gm_commits(world, {"campaign/players.yaml": yaml.safe_dump(players)}, "Record account ids")


def test_a_reused_login_is_refused_when_the_account_id_is_recorded(world: Campaign) -> None:
    _record_ids(world, {"red": 1001})
    pr = world.pull_request("alice", "red", {"orders/red.yaml": world.bot_orders("red")})
    assert _check_as(world, pr, 1001).code == 0
    done = _check_as(world, pr, 6666)  # someone took the login 'alice' after the player renamed
    assert done.code == 1
    assert (
        "the login alice is listed for faction red, but this pull request comes from another GitHub "
        "account (id 6666)"
    ) in done.comment
    assert "is not a player of this campaign" not in done.comment
    # The player's new login, same account: still red.
    pr.author = "alice-renamed"
    renamed = _check_as(world, pr, 1001)
    assert renamed.code == 0 and "playing red (House Alder)" in renamed.comment


def test_a_login_without_a_recorded_id_passes_with_a_warning(world: Campaign) -> None:
    pr = world.pull_request("alice", "red", {"orders/red.yaml": world.bot_orders("red")})
    done = _check_as(world, pr, 1001)
    assert done.code == 0
    assert "campaign/players.yaml knows faction red by login only" in done.comment
    assert "ids: \\[1001\\]" in done.comment  # escaped in Markdown, shown as 'ids: [1001]'
    assert "::warning file=campaign/players.yaml," in done.out


def test_account_ids_must_be_numbers(world: Campaign) -> None:
    path = world.ci / "campaign/players.yaml"
    world.sync(world.ci)
    players = yaml.safe_load(path.read_text())
    players["factions"]["red"]["ids"] = ["alice"]
    _gm_commits(world, {"campaign/players.yaml": yaml.safe_dump(players)}, "Oops")
    pr = world.pull_request("alice", "red", {"orders/red.yaml": world.bot_orders("red")})
    done = _check_as(world, pr, 1001)
    assert done.code == 1
    assert "faction red: 'ids' must be a list of GitHub account ids" in done.err
