"""The pull-request check, on real branches pushed to a bare origin."""

from __future__ import annotations

import re

from resolver.core.issues import Issue
from resolver.prcheck import MARKER, annotation, code, fenced

from .gitsim import Campaign


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


def test_a_workflow_edit_is_refused(world: Campaign) -> None:
    pr = world.pull_request(
        "carol",
        "ci",
        {
            "orders/green.yaml": world.bot_orders("green"),
            ".github/workflows/resolve.yml": "on: push\njobs: {}\n",
        },
    )
    done = world.check(pr)
    assert done.code == 1
    assert "may not change .github/workflows/resolve.yml" in done.comment


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
    from .gitsim import PullRequest

    done = world.check(PullRequest("link", "alice", head))
    assert done.code == 1
    assert "must be an ordinary file" in done.comment


def test_an_unknown_revision_is_a_usage_error(world: Campaign) -> None:
    from .gitsim import PullRequest

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
