"""The GitHub workflows pass the two real checkers, offline, and keep the promises the README makes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / ".github" / "workflows"
BIN = Path(sys.executable).parent
NAMES = ("orders-check.yml", "orders-comment.yml", "resolve.yml")
PINNED = re.compile(r"^[\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$")


def tool(name: str, *args: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / name), *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300, check=False
    )


def load(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text())
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key 'on' as true
    return data


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def test_the_three_workflows_exist() -> None:
    assert sorted(p.name for p in WORKFLOWS.glob("*.yml")) == sorted(NAMES)


def test_check_jsonschema_accepts_the_workflows() -> None:
    done = tool(
        "check-jsonschema", "--builtin-schema", "vendor.github-workflows", *sorted(WORKFLOWS.glob("*.yml"))
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok -- validation done" in done.stdout


def test_check_jsonschema_would_catch_a_broken_workflow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps: run the tests\n")
    assert tool("check-jsonschema", "--builtin-schema", "vendor.github-workflows", bad).returncode == 1


def test_zizmor_finds_nothing() -> None:
    done = tool("zizmor", "--offline", "--no-progress", ".github")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings to report" in done.stdout + done.stderr


def test_zizmor_would_catch_an_unsafe_workflow(tmp_path: Path) -> None:
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "on: pull_request\npermissions: {}\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - run: echo ${{ github.event.pull_request.title }}\n"
    )
    done = tool("zizmor", "--offline", "--no-progress", ".github", cwd=tmp_path)
    assert done.returncode != 0
    assert "template-injection" in done.stdout and "unpinned-uses" in done.stdout


def test_every_suppression_gives_its_reason() -> None:
    text = (REPO / ".github" / "zizmor.yml").read_text()
    config = yaml.safe_load(text)
    for rule in config["rules"].values():
        for entry in rule["ignore"]:
            before = text[: text.index(f"- {entry}")].rstrip().splitlines()
            assert before[-1].strip().startswith("#"), f"the ignore of {entry} has no reason above it"


@pytest.mark.parametrize("name", NAMES)
def test_actions_are_pinned_to_commits(name: str) -> None:
    lines = [line for line in (WORKFLOWS / name).read_text().splitlines() if "uses:" in line]
    assert lines
    for line in lines:
        assert PINNED.match(line.split("uses:", 1)[1].strip()), line


@pytest.mark.parametrize("name", NAMES)
def test_permissions_start_from_nothing(name: str) -> None:
    assert load(name)["permissions"] == {}


def test_the_check_is_read_only_and_uses_no_secret() -> None:
    flow = load("orders-check.yml")
    assert flow["on"] == {"pull_request": {"paths": ["orders/**"]}}
    assert flow["jobs"]["check"]["permissions"] == {"contents": "read"}
    text = (WORKFLOWS / "orders-check.yml").read_text()
    assert "secrets." not in text and "pull_request_target" not in text
    run = next(s["run"] for s in steps(flow) if "campaign check --pr" in s.get("run", ""))
    assert "--base" in run and "--head" in run and '--author "$AUTHOR"' in run and "--comment" in run
    # The checker is installed from the base branch, never from the pull request's folder.
    checkouts = [s for s in steps(flow) if s.get("uses", "").startswith("actions/checkout@")]
    assert checkouts[0]["with"]["ref"] == "${{ github.event.pull_request.base.sha }}"
    assert checkouts[1]["with"]["path"] == "pr"
    assert "pip install --quiet ." in next(s["run"] for s in steps(flow) if "pip install" in s.get("run", ""))
    upload = next(s for s in steps(flow) if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["if"] == "${{ !cancelled() }}" and upload["with"]["path"] == "report/"


def test_the_comment_treats_the_artifact_as_data() -> None:
    flow = load("orders-comment.yml")
    assert flow["on"] == {"workflow_run": {"workflows": ["Orders check"], "types": ["completed"]}}
    job = flow["jobs"]["comment"]
    assert job["permissions"] == {"actions": "read", "pull-requests": "write"}
    assert not any(s.get("uses", "").startswith("actions/checkout@") for s in steps(flow))
    assert not any("run" in s for s in steps(flow))
    script = next(s["with"]["script"] for s in steps(flow) if "script" in s.get("with", {}))
    assert "/^[1-9][0-9]{0,9}$/.test(numberText)" in script
    assert "sha !== run.head_sha" in script and "pr.head.sha !== run.head_sha" in script
    assert "${{" not in script


def test_resolve_runs_one_at_a_time_and_publishes() -> None:
    flow = load("resolve.yml")
    assert set(flow["on"]) == {"schedule", "workflow_dispatch", "push"}
    assert flow["on"]["push"] == {"branches": ["main"], "paths": ["orders/**"]}
    assert flow["concurrency"] == {"group": "campaign-resolve", "cancel-in-progress": False}
    run = next(s["run"] for s in steps(flow) if "campaign" in s.get("run", "") and "args" in s.get("run", ""))
    assert "args=(resolve --commit)" in run and "--if-due" in run
    push = next(s for s in steps(flow) if "push --atomic --follow-tags" in s.get("run", ""))
    assert push["env"]["CAMPAIGN_BOT_TOKEN"] == "${{ secrets.CAMPAIGN_BOT_TOKEN }}"
    assert "::add-mask::" in push["run"]
    uses = [s.get("uses", "").split("@")[0] for s in steps(flow)]
    for action in ("actions/upload-pages-artifact", "actions/configure-pages", "actions/deploy-pages"):
        assert action in uses
    assert flow["jobs"]["deploy"]["environment"]["name"] == "github-pages"
    assert any(s.get("run") == "make site" for s in steps(flow))
