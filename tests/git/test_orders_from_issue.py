"""The issue route of players without git: an Orders issue's body in, one order file on a branch out, and
that branch checked as any pull request (the workflow orders-from-issue.yml, run here step by step)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from resolver.git.fromissue import orders_text

from .gitsim import Campaign, PullRequest, Result, cli

REPO = Path(__file__).resolve().parents[2]


def issue_body(orders: str) -> str:
    """The body GitHub writes for the Orders issue form: the text area's label as a heading, and the
    answer in a fenced block, since the form renders it as YAML."""
    return f"### Orders\n\n```yaml\n{orders.rstrip()}\n```\n"


def send(world: Campaign, body: str, author: str, issue: int = 7, author_id: str = "") -> tuple[Result, Path]:
    """The workflow's first job in the runner's clone: the body to a file, the command, its outputs."""
    world.sync(world.ci)
    folder = world.base / f"issue-{issue}"
    folder.mkdir(exist_ok=True)
    (folder / "body.md").write_text(body, encoding="utf-8")
    output = folder / "github-output"
    output.unlink(missing_ok=True)
    extra = ["--author-id", author_id] if author_id else []
    done = cli(
        "orders-from-issue", "--root", world.ci, "--body", folder / "body.md", "--issue", str(issue),
        "--author", author, *extra, "--output", output, "--comment", folder / "refused.md",
    )  # fmt: skip
    return done, folder


def outputs(folder: Path) -> dict[str, str]:
    lines = (folder / "github-output").read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines)


def test_an_issue_becomes_a_branch_the_check_accepts(world: Campaign) -> None:
    orders = world.bot_orders("red").decode()
    before = world.head()
    status = world.git(world.ci, "status", "--porcelain")
    done, folder = send(world, issue_body(orders), "alice")
    assert done.code == 0, done.err
    found = outputs(folder)
    assert found["branch"] == "orders-from-issue-7" and found["faction"] == "red"
    commit = found["commit"]
    # One commit on main's tip, one file, the pasted text byte for byte, in the player's name.
    assert world.git(world.ci, "rev-parse", f"{commit}^") == before
    assert world.git(world.ci, "diff", "--name-only", before, commit) == "orders/red.yaml"
    assert world.git(world.ci, "show", f"{commit}:orders/red.yaml") + "\n" == orders
    assert world.git(world.ci, "log", "-1", "--format=%an <%ae>|%cn", commit) == (
        "alice <alice@users.noreply.github.com>|github-actions[bot]"
    )
    assert world.git(world.ci, "rev-parse", "refs/heads/orders-from-issue-7") == commit
    # The checkout is untouched: the runner's clone is still main, with nothing written.
    assert world.head() == before and world.git(world.ci, "status", "--porcelain") == status
    checked = world.check(PullRequest(found["branch"], "alice", commit), base="HEAD")
    assert checked.code == 0, checked.out
    assert "✅ Orders accepted" in checked.comment


def test_an_edited_issue_moves_its_branch(world: Campaign) -> None:
    first, folder = send(world, issue_body(world.template("red").decode()), "alice")
    assert first.code == 0, first.err
    old = outputs(folder)["commit"]
    orders = world.bot_orders("red").decode()
    again, folder = send(world, issue_body(orders), "alice")
    assert again.code == 0, again.err
    new = outputs(folder)["commit"]
    assert new != old
    assert world.git(world.ci, "rev-parse", "refs/heads/orders-from-issue-7") == new


def test_orders_for_a_faction_the_author_does_not_play_make_no_branch(world: Campaign) -> None:
    done, folder = send(world, issue_body(world.bot_orders("blue").decode()), "alice")
    assert done.code == 1
    assert "alice does not play blue" in done.err and "Traceback" not in done.err
    assert "refs/heads/orders-from-issue-7" not in world.git(world.ci, "show-ref")
    comment = (folder / "refused.md").read_text(encoding="utf-8")
    assert comment.startswith("<!-- campaign-kit:orders-from-issue -->")
    assert "These orders were not sent: alice does not play blue" in comment


def test_a_wrong_account_id_is_refused_when_players_yaml_records_ids(world: Campaign) -> None:
    gm = world.clone("dora")
    world.sync(gm)
    players = yaml.safe_load((gm / "campaign/players.yaml").read_text())
    players["factions"]["red"]["ids"] = [1001]
    (gm / "campaign/players.yaml").write_text(yaml.safe_dump(players), encoding="utf-8")
    world.commit(gm, "dora", "Record alice's account")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    orders = issue_body(world.bot_orders("red").decode())
    assert send(world, orders, "alice", author_id="2002")[0].code == 1
    done, folder = send(world, orders, "alice", author_id="1001")
    assert done.code == 0, done.err
    author = world.git(world.ci, "log", "-1", "--format=%ae", outputs(folder)["commit"])
    assert author == "1001+alice@users.noreply.github.com"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("### Something else\n\nhello\n", 'no "### Orders" section'),
        ("### Orders\n\n_No response_\n", "holds no orders"),
        ("### Orders\n\n```yaml\ncampaign: [unclosed\n```\n", "not readable at line"),
        ("### Orders\n\n```yaml\ncampaign: x\nturn: 1\n```\n", "name no faction"),
        ("### Orders\n\n```yaml\nfaction: gm\n```\n", "'gm', which is no player's faction"),
        ("### Orders\n\n```yaml\nfaction: ../../x\n```\n", "name no faction"),
    ],
)
def test_unreadable_issues_say_what_to_fix(world: Campaign, body: str, words: str) -> None:
    done, folder = send(world, body, "alice")
    assert done.code == 1 and words in done.err, done.err
    assert "fix:" in done.err and "Traceback" not in done.err
    assert (folder / "refused.md").is_file()


def test_a_yaml_comment_that_looks_like_a_heading_stays_in_the_orders() -> None:
    orders = "campaign: c\n### a comment, not a heading\nfaction: red\n```\n"
    body = f"### Orders\n\n```yaml\n{orders}```\n\n### Notes\n\nnone\n"
    # Only the last fence closes the block; a heading inside the YAML is part of it.
    assert orders_text(body).startswith("campaign: c\n### a comment")


def test_orders_pasted_without_a_fence_are_read_up_to_the_next_heading() -> None:
    assert orders_text("### Orders\n\nfaction: red\nturn: 2\n\n### Other\n\nx\n") == "faction: red\nturn: 2\n"


def test_the_issue_form_has_the_heading_the_command_reads() -> None:
    form = yaml.safe_load((REPO / ".github/ISSUE_TEMPLATE/orders.yml").read_text(encoding="utf-8"))
    areas = [item for item in form["body"] if item["type"] == "textarea"]
    assert [a["attributes"]["label"] for a in areas] == ["Orders"]
    assert areas[0]["attributes"]["render"] == "yaml" and form["labels"] == ["orders"]
    workflow = yaml.safe_load((REPO / ".github/workflows/orders-from-issue.yml").read_text(encoding="utf-8"))
    assert "orders" in workflow["jobs"]["write"]["if"]  # the label the form sets
    assert workflow["jobs"]["write"]["permissions"] == {"contents": "read"}


def test_orders_already_on_main_are_replaced_through_an_issue(world: Campaign) -> None:
    """GitHub's new-file link cannot replace a file: a player whose orders are on main already sends the
    changed ones through the issue form, and the branch changes that file."""
    world.submit("red")
    changed = world.template("red").decode()  # the player takes everything back: the faction holds
    done, folder = send(world, issue_body(changed), "alice", issue=12)
    assert done.code == 0, done.err
    made = outputs(folder)
    assert world.git(world.ci, "diff", "--name-status", "HEAD", made["commit"]) == "M\torders/red.yaml"
    checked = world.check(PullRequest(made["branch"], "alice", made["commit"]), base="HEAD")
    assert checked.code == 0, checked.out
