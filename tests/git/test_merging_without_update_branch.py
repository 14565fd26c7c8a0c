"""Issue 20 point 8: the GM merges orders without "Update branch" after every merge.

The README no longer asks for "Require branches to be up to date before merging" (with N players in
the same hour it made the GM wait for a check up to N−1 times per turn) and says why, with the
trade-offs of the alternatives. What the setting guarded against, a green gate given before the campaign
changed, is taken back by `orders-gate-reset.yml`: on a push that changes the campaign (a turn, a GM
edit) it sets every open pull request's gate to pending; on a merge of order files it does not run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fnmatch import fnmatch
from pathlib import Path

import yaml

from resolver.core import canonical

from .gitsim import Campaign

REPO = Path(__file__).resolve().parents[2]
RESET = REPO / ".github" / "workflows" / "orders-gate-reset.yml"
NODE = Path(sys.executable).parent / "node"


def reset_workflow() -> dict:
    data = yaml.safe_load(RESET.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key 'on' as true
    return data


def runs_on_push(changed: list[str]) -> bool:
    """Whether GitHub starts the reset for a push to main that changed these paths: a push whose every
    path matches paths-ignore starts nothing."""
    push = reset_workflow()["on"]["push"]
    assert push["branches"] == ["main"]
    return not all(any(fnmatch(path, pattern) for pattern in push["paths-ignore"]) for path in changed)


def pushed_paths(world: Campaign, before: str) -> list[str]:
    world.git(world.ci, "fetch", "--quiet", "origin")
    return world.git(world.ci, "diff", "--name-only", before, "origin/main").splitlines()


def test_the_readme_drops_the_up_to_date_setting_and_says_why() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    protect = readme[readme.index("5. **Protect `main`.**") : readme.index("6. **Pages.**")]
    assert '**without** "Require branches to be up to date before merging"' in protect
    assert "N−1 times per turn" in protect  # what the setting costs
    assert "orders-gate-reset.yml" in protect  # what replaces it
    for trade_off in ("*a narrow window*", "*GitHub's merge queue*", '*"Require branches to be up to date"*'):
        assert trade_off in protect, trade_off
    assert "owned by an organization" in protect
    assert "**orders-gate-reset.yml**" in readme  # listed with the other workflows


def test_the_reset_runs_on_campaign_changes_and_not_on_merged_orders(world: Campaign) -> None:
    before = world.head(world.ci)
    world.submit("red")  # a player's orders merged: other gates stay green, nobody waits
    assert pushed_paths(world, before) == ["orders/red.yaml"]
    assert not runs_on_push(pushed_paths(world, before))

    before = world.git(world.ci, "rev-parse", "origin/main")
    world.submit("blue")
    world.submit("green")
    assert world.resolve("--if-due", "--commit").code == 0  # a turn: every open gate is taken back
    assert runs_on_push(pushed_paths(world, before))

    before = world.git(world.ci, "rev-parse", "origin/main")
    gm = world.clone("dora")
    world.sync(gm)
    rules = gm / "campaign" / "rules.yaml"
    canonical.write_yaml(rules, {"actions": {"per_turn": 4}})  # the GM's house rule, pushed directly
    world.commit(gm, "dora", "House rule: four actions")
    world.git(gm, "push", "--quiet", "origin", "HEAD:refs/heads/main")
    assert runs_on_push(pushed_paths(world, before))


def test_the_reset_holds_only_what_it_needs() -> None:
    flow = reset_workflow()
    assert flow["permissions"] == {}
    (job,) = flow["jobs"].values()
    assert job["permissions"] == {"statuses": "write", "pull-requests": "read"}
    assert [step["uses"].split("@")[0] for step in job["steps"]] == ["actions/github-script"]
    assert not any("run" in step for step in job["steps"])
    assert "${{" not in job["steps"][0]["with"]["script"]
    kit_copy = REPO / "resolver" / "github_workflows" / RESET.name
    assert kit_copy.read_text(encoding="utf-8") == RESET.read_text(encoding="utf-8")


FAKE_GITHUB = """
const calls = [];
const github = {
  paginate: async (method, params) => { calls.push({list: params}); return method(params); },
  rest: {
    pulls: { list: (params) => [{number: 7, head: {sha: 'aaa'}}, {number: 9, head: {sha: 'bbb'}}] },
    repos: { createCommitStatus: async (status) => { calls.push({status}); } },
  },
};
const context = { repo: {owner: 'gm', repo: 'campaign'}, payload: {repository: {default_branch: 'main'}} };
const core = { info: (line) => calls.push({info: line}) };
(async () => {
SCRIPT
})().then(() => console.log(JSON.stringify(calls)));
"""


def test_the_reset_sets_every_open_pull_requests_gate_to_pending(tmp_path: Path) -> None:
    """The workflow's script, run as written with Node against a stand-in for GitHub's API."""
    script = reset_workflow()["jobs"]["reset"]["steps"][0]["with"]["script"]
    program = tmp_path / "reset.js"
    program.write_text(FAKE_GITHUB.replace("SCRIPT", script), encoding="utf-8")
    done = subprocess.run([str(NODE), str(program)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    calls = json.loads(done.stdout)
    assert calls[0]["list"] == {
        "owner": "gm",
        "repo": "campaign",
        "state": "open",
        "base": "main",
        "per_page": 100,
    }
    statuses = [call["status"] for call in calls if "status" in call]
    assert [s["sha"] for s in statuses] == ["aaa", "bbb"]
    for status in statuses:
        assert status["state"] == "pending" and status["context"] == "Orders gate"
        assert "update the branch" in status["description"] and len(status["description"]) <= 140
