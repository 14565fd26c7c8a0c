"""The "Orders gate reset" workflow, run as written through act: a push to main that changes the
campaign sets the "Orders gate" of every open pull request to pending, and of no other."""

from __future__ import annotations

from ..git.gitsim import Campaign
from .act import REPOSITORY, Rehearsal
from .github_api import GitHub, PullRequest, Server


def test_a_change_to_main_asks_every_open_pull_request_for_a_new_check(
    world: Campaign, rehearsal: Rehearsal, github: tuple[GitHub, Server]
) -> None:
    api, _ = github
    red = world.pull_request("alice", "red-orders", {"orders/red.yaml": world.bot_orders("red")})
    blue = world.pull_request("bob", "blue-orders", {"orders/blue.yaml": world.bot_orders("blue")})
    api.pulls = [
        PullRequest(1, red.head, "alice"),
        PullRequest(2, blue.head, "bob"),
        PullRequest(3, "f" * 40, "carol", base="other-branch"),  # not against main: left alone
    ]
    main = world.git(world.origin, "rev-parse", "main")
    push = {"ref": "refs/heads/main", "after": main, "repository": REPOSITORY, "sender": {"login": "dora"}}
    run = rehearsal.act("orders-gate-reset.yml", "push", push)
    assert run.code == 0, run.log
    assert run.jobs == {"reset": "success"}, run.log
    assert api.gate(red.head) == ["pending"] and api.gate(blue.head) == ["pending"]
    assert api.gate("f" * 40) == []
    (listed,) = [r for r in api.requests if r.method == "GET"]
    assert listed.query["state"] == ["open"] and listed.query["base"] == ["main"]
    assert "2 open pull request(s) will be checked again once updated" in run.printed("reset")
    assert not api.unexpected, api.unexpected
