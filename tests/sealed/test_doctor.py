"""`campaign doctor`: a well set-up campaign passes every check, and each broken set-up is named with
its fix. The GM's clone is a real git repository with the kit's workflows, as a fork would hold them."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from resolver.engine.ruleset import RULESETS
from resolver.store import sealing

from .sealed_play import run

REPO = Path(__file__).resolve().parents[2]
KIT_WORKFLOWS = REPO / "resolver" / "github_workflows"  # the copies the package ships
CHECKS = (
    "recipients",
    "ignore files",
    "key file",
    "campaign key",
    "dice beacon",
    "workflows",
    "notifications",
)


def git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "dora", "GIT_AUTHOR_EMAIL": "dora@example.org"}
    env |= {"GIT_COMMITTER_NAME": "dora", "GIT_COMMITTER_EMAIL": "dora@example.org"}
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout


def commit(root: Path, message: str = "set-up") -> None:
    git(root, "add", "--all")
    git(root, "commit", "--quiet", "--allow-empty", "-m", message)


def age_public() -> str:
    return str(sealing.pyrage.x25519.Identity.generate().to_public())


def set_up(base: Path, ruleset: str) -> Path:
    """A sealed campaign as the README sets one up: each faction's age key in players.yaml, the key
    outside the repository, the kit's workflows, everything committed."""
    roster = {
        "gm": {"logins": ["dora"]},
        "factions": {
            f: {"name": f.title(), "logins": [f], "recipients": [age_public()]} for f in ("red", "blue")
        },
    }
    (base / "players.yaml").write_text(yaml.safe_dump(roster), encoding="utf-8")
    root = base / "game"
    root.mkdir()
    git(root, "init", "--quiet", "--initial-branch=main")
    code, out = run(
        "new", "--root", root, "--ruleset", ruleset, "--players", base / "players.yaml",
        "--sealed", "--key-file", base / "gm-key.txt",
    )  # fmt: skip
    assert code == 0, out
    shutil.copytree(REPO / ".github" / "workflows", root / ".github" / "workflows")
    ignore = root / "orders" / ".gitignore"
    if not ignore.exists():  # campaign new --sealed writes it in a kit that has point 5 of issue 19
        ignore.write_text("/*.yaml\n/*.yml\n", encoding="utf-8")
    commit(root)
    return root


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return set_up(tmp_path, "factions")


def doctor(root: Path, key: Path | None = None) -> tuple[int, str]:
    key = root.parent / "gm-key.txt" if key is None else key
    return run("doctor", "--root", root, "--key-file", key)


def lines_of(out: str, status: str) -> list[str]:
    """The report's lines of one status, each with its fix line joined to it."""
    lines = out.splitlines()
    found = []
    for number, line in enumerate(lines):
        if line.strip().startswith(f"{status} "):
            fix = lines[number + 1].strip() if number + 1 < len(lines) else ""
            found.append(line.strip() + (" | " + fix if fix.startswith("fix:") else ""))
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_campaign_set_up_as_the_readme_says_passes_every_check(tmp_path: Path, ruleset: str) -> None:
    root = set_up(tmp_path, ruleset)
    code, out = doctor(root)
    assert code == 0, out
    assert [line.split(":")[0].removeprefix("ok").strip() for line in lines_of(out, "ok")] == list(CHECKS)
    assert not lines_of(out, "problem") and not lines_of(out, "warning")
    assert "Every check passes." in out
    assert "AGE-SECRET-KEY" not in out


def test_the_key_checks_are_skipped_without_a_key_and_say_how_to_run_them(game: Path) -> None:
    code, out = run("doctor", "--root", game)
    assert code == 0, out
    skipped = lines_of(out, "skipped")
    assert any("campaign key" in line and "--key-file FILE" in line for line in skipped), out


def players_with(root: Path, faction: str, recipients: list[str]) -> None:
    path = root / "campaign" / "players.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["factions"][faction]["recipients"] = recipients
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    commit(path.parent.parent)


def set_the_beacon(root: Path, value: str | None) -> None:
    path = root / "campaign" / "campaign.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data.pop("beacon")
    if value is not None:
        data["beacon"] = value
    path.write_text(yaml.safe_dump(data), encoding="utf-8")


def swap_the_campaigns_recipient(root: Path) -> Path:
    """campaign.yaml names a second key, which the GM then uses: the dice were committed with the first."""
    other = root.parent / "other-key.txt"
    secret, public = sealing.new_key()
    other.write_text(f"{secret}\n", encoding="utf-8")
    other.chmod(0o600)
    path = root / "campaign" / "campaign.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["recipient"] = public
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    commit(root)
    return other


def listed(root: Path, name: str) -> dict:
    return yaml.safe_load((root / "campaign" / name).read_text(encoding="utf-8"))


def leave_the_ignore_file_out(root: Path) -> None:
    """The GM committed campaign/ and the sealed orders, never orders/.gitignore."""
    git(root, "rm", "--quiet", "--cached", "orders/.gitignore")
    git(root, "commit", "--quiet", "-m", "without the ignore file")


def ignore_in_orders(root: Path, text: str, committed: bool = True) -> None:
    (root / "orders" / ".gitignore").write_text(text, encoding="utf-8")
    if committed:
        commit(root)


def share_reds_key(root: Path) -> None:
    players_with(root, "blue", listed(root, "players.yaml")["factions"]["red"]["recipients"])


def print_the_environment(root: Path) -> None:
    edit_workflow(
        root,
        '.venv/bin/python -m resolver.cli "${args[@]}"',
        'env | base64; .venv/bin/python -m resolver.cli "${args[@]}"',
    )


def another_key(root: Path) -> Path:
    other = root.parent / "stranger-key.txt"
    other.write_text(f"{sealing.new_key()[0]}\n", encoding="utf-8")
    other.chmod(0o600)
    return other


def edit_workflow(root: Path, old: str, new: str, name: str = "resolve.yml") -> None:
    path = root / ".github" / "workflows" / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    commit(root)


def key_inside(root: Path) -> Path:
    inside = root / "gm-key.txt"
    shutil.copy(root.parent / "gm-key.txt", inside)
    return inside


def extra_workflow(root: Path) -> None:
    path = root / ".github" / "workflows" / "notify.yml"
    steps = "jobs:\n  ping:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n"
    path.write_text(f"on: push\n{steps}        env:\n          K: ${{{{ secrets.CAMPAIGN_AGE_KEY }}}}\n")
    commit(root)


BROKEN: dict[str, tuple[Callable[[Path], Path | None], str, str, str]] = {
    # name: (break the set-up, returning the key file to pass if another; the check; its words; the fix)
    "a recipient that is no key": (
        lambda root: players_with(root, "blue", ["age1-not-a-key"]),
        "recipients", "campaign/players.yaml:", "campaign keygen",
    ),
    "two factions share a key": (
        share_reds_key,
        "recipients", "also a recipient of", "its own players' keys",
    ),
    "a player listed with the campaign key": (
        lambda root: players_with(root, "blue", [listed(root, "campaign.yaml")["recipient"]]),
        "recipients", "is the campaign key", "new campaign key",
    ),
    "a faction without recipients": (
        lambda root: players_with(root, "blue", []),
        "recipients", "blue has no recipients", "campaign keygen",
    ),
    "the orders ignore file never committed": (
        leave_the_ignore_file_out,
        "ignore files", "orders/.gitignore is not committed", "git add orders/.gitignore",
    ),
    "no orders ignore file at all (a campaign made by an older kit)": (
        lambda root: (root / "orders/.gitignore").unlink() or commit(root),
        "ignore files", "orders/.gitignore is not committed", "write orders/.gitignore with the lines",
    ),
    "the orders ignore file ignores nothing": (
        lambda root: ignore_in_orders(root, "# drafts\n"),
        "ignore files", "does not itself ignore plain drafts", "/*.yaml and /*.yml",
    ),
    "the sealed files ignored too": (
        lambda root: ignore_in_orders(root, "/*.yaml*\n/*.yml\n"),
        "ignore files", "sealed order files are ignored", "*.age",
    ),
    "an uncommitted change to the ignore file": (
        lambda root: ignore_in_orders(root, "/*.yml\n", committed=False),
        "ignore files", "changes that are not committed", "commit orders/.gitignore",
    ),
    "not a git repository": (
        lambda root: shutil.rmtree(root / ".git"),
        "ignore files", "not the top folder of a git repository", "git init",
    ),
    "a key file others can read": (
        lambda root: (root.parent / "gm-key.txt").chmod(0o644),
        "key file", "can be read by other users", "chmod 600",
    ),
    "a key file inside the repository": (
        key_inside, "key file", "inside the repository and not ignored", "move it outside",
    ),
    "another campaign's key": (
        another_key, "campaign key", "this key is not the campaign's", "the key the campaign was made with",
    ),
    "campaign.yaml names a key the dice were not committed to": (
        swap_the_campaigns_recipient,
        "campaign key", "committed with another one", "put its public half back",
    ),
    "a workflow step edited": (
        print_the_environment,
        "workflows", "('Resolve').run", "cp ",
    ),
    "the test beacon": (
        lambda root: set_the_beacon(root, "test"),
        "dice beacon", "anyone can sign in advance", "beacon: quicknet",
    ),
    "a workflow missing": (
        lambda root: (root / ".github/workflows/orders-check.yml").unlink(),
        "workflows", "orders-check.yml is missing", "resolver/github_workflows/orders-check.yml",
    ),
    "another workflow given the key": (
        extra_workflow, "workflows", "notify.yml is not the kit's and is given the campaign key", "remove",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", BROKEN)
def test_each_broken_set_up_is_named_with_its_fix(game: Path, case: str) -> None:
    breaking, check, words, fix = BROKEN[case]
    key = breaking(game)
    code, out = doctor(game, key if isinstance(key, Path) else None)
    assert code == 1, out
    problems = lines_of(out, "problem")
    assert any(
        line.startswith(f"problem  {check}:") and words in line and fix in line.split("| fix:")[-1]
        for line in problems
    ), out
    assert "AGE-SECRET-KEY" not in out


def test_dice_without_a_beacon_are_a_warning_the_key_holder_could_foresee_them(game: Path) -> None:
    set_the_beacon(game, None)
    code, out = doctor(game)
    assert code == 0, out
    assert any(
        line.startswith("warning  dice beacon:")
        and "work out every roll" in line
        and "beacon: quicknet" in line
        for line in lines_of(out, "warning")
    ), out


def test_a_pasted_secret_key_is_named_and_never_echoed(game: Path) -> None:
    secret, _ = sealing.new_key()
    players_with(game, "blue", [secret])
    code, out = doctor(game)
    assert code == 1
    assert any("blue's recipient 1 is a SECRET key" in line for line in lines_of(out, "problem")), out
    assert secret[15:25] not in out and "AGE-SECRET-KEY" not in out


def test_an_ssh_recipient_warns_and_passes(game: Path) -> None:
    key = game.parent / "blue-ssh"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    players_with(game, "blue", [key.with_suffix(".pub").read_text().strip()])
    code, out = doctor(game)
    assert code == 0, out
    warnings = lines_of(out, "warning")
    assert len(warnings) == 1 and "is an SSH key" in warnings[0] and "campaign keygen" in warnings[0], out


def test_a_gm_may_change_how_often_the_resolve_wakes_up(game: Path) -> None:
    edit_workflow(game, '- cron: "17 * * * *"', '- cron: "*/10 * * * *"')
    code, out = doctor(game)
    assert code == 0 and "ok       workflows:" in out, out


def test_an_open_campaign_without_a_key_passes_with_a_warning_about_its_dice(tmp_path: Path) -> None:
    root = tmp_path / "open"
    assert run("new", "--root", root, "--factions", "2")[0] == 0
    shutil.copytree(REPO / ".github" / "workflows", root / ".github" / "workflows")
    git(root, "init", "--quiet", "--initial-branch=main")
    commit(root)
    code, out = run("doctor", "--root", root)
    assert code == 0, out
    warnings = lines_of(out, "warning")
    assert any("dice" in line and "campaign add-key --key-file" in line for line in warnings), out
    assert any(line.startswith("skipped  ignore files:") for line in lines_of(out, "skipped")), out


def test_the_kits_reference_workflows_are_the_repositorys_own() -> None:
    """campaign doctor compares a campaign's workflows with the copies the package ships; they must be
    the kit repository's own, byte for byte (copy .github/workflows/*.yml there after editing one)."""
    ours = {p.name: p.read_bytes() for p in sorted((REPO / ".github" / "workflows").glob("*.yml"))}
    shipped = {p.name: p.read_bytes() for p in sorted(KIT_WORKFLOWS.glob("*.yml"))}
    assert ours and shipped.keys() == ours.keys()
    for name, raw in ours.items():
        assert shipped[name] == raw, f"resolver/github_workflows/{name} differs from .github/workflows/{name}"
