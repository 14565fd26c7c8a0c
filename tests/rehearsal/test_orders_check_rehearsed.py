"""The "Orders check" workflow, run as written through act: a pull request's orders are checked, the
"Orders gate" status and the comment reach the (stand-in) GitHub API, and a second push to the same
pull request updates the comment instead of adding one."""

from __future__ import annotations

from typing import Any

from ..git.gitsim import Campaign, PullRequest
from .act import REPOSITORY, Rehearsal
from .github_api import GitHub, Server
from .github_api import PullRequest as ApiPullRequest

MARKER = "<!-- campaign-kit:orders-check -->"
NUMBER = 7


def opened(pr: PullRequest, action: str) -> dict[str, Any]:
    """The pull_request_target event GitHub sends, with the fields the workflow reads."""
    return {
        "action": action,
        "number": NUMBER,
        "pull_request": {
            "number": NUMBER,
            "head": {"sha": pr.head, "ref": pr.branch},
            "base": {"ref": "main"},
            "user": {"login": pr.author, "id": 1001, "type": "User"},
        },
        "repository": REPOSITORY,
        "sender": {"login": pr.author},
    }


def publish(world: Campaign, pr: PullRequest) -> None:
    """GitHub keeps a pull request's head as refs/pull/N/head on the base repository."""
    world.git(
        world.clone(pr.author), "push", "--quiet", "--force", "origin", f"{pr.head}:refs/pull/{NUMBER}/head"
    )


def test_a_pull_request_is_checked_gated_and_commented(
    world: Campaign, rehearsal: Rehearsal, github: tuple[GitHub, Server]
) -> None:
    api, _ = github
    main_before = world.git(world.origin, "rev-parse", "main")

    # alice's orders for red: accepted.
    good = world.pull_request("alice", "red-orders", {"orders/red.yaml": world.bot_orders("red")})
    publish(world, good)
    api.pulls = [ApiPullRequest(NUMBER, good.head, "alice")]
    run = rehearsal.act("orders-check.yml", "pull_request_target", opened(good, "opened"))
    assert run.code == 0, run.log
    assert run.jobs == {"check": "success", "report": "success"}, run.log
    assert api.gate(good.head) == ["success"]
    status = next(s for s in api.statuses if s["sha"] == good.head)
    assert status["description"] == "Orders accepted"
    (comment,) = api.comments[NUMBER]
    assert comment["body"].startswith(MARKER)
    assert "orders/red.yaml" in comment["body"] and "accepted" in comment["body"].lower()
    assert not api.unexpected, api.unexpected

    # The same pull request, pushed again with a change to the workflow that judges it: refused, the
    # gate fails, and the one comment is updated in place.
    bad = world.pull_request(
        "alice",
        "red-orders",
        {"orders/red.yaml": world.bot_orders("red"), ".github/workflows/orders-check.yml": "on: push\n"},
    )
    publish(world, bad)
    api.pulls = [ApiPullRequest(NUMBER, bad.head, "alice")]
    run = rehearsal.act("orders-check.yml", "pull_request_target", opened(bad, "synchronize"))
    assert run.jobs == {"check": "failure", "report": "success"}, run.log
    assert api.gate(bad.head) == ["failure"]
    (comment,) = api.comments[NUMBER]
    assert comment["body"].startswith(MARKER)
    assert "may not change .github/workflows/orders-check.yml" in comment["body"]
    assert not api.unexpected, api.unexpected

    # Every call carried the run's token; nothing of the pull request reached main.
    assert {r.authorization for r in api.requests} == {"token rehearsal-token"}
    assert world.git(world.origin, "rev-parse", "main") == main_before
