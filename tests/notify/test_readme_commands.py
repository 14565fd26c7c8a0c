"""What README's "Notifications" tells a GM to type, typed as written: each line of its ``sh`` block run
by a shell in the GM's clone (a fork of the kit, with its workflows and ``.venv``), the absence taken
back as the section writes it, and the refusal it quotes followed by the next step it gives.

The settings are the section's own YAML examples: the campaign's block in campaign.yaml, the player's
block as red's entry under ``factions:`` (the file the quoted refusal's line and column refer to), the
secret's names pointed at a local server. The campaign's turn 1 opens on Monday 2 March 2026, so the
dry run's ``--now 2026-03-05T18:30Z`` falls on its 24-hour reminder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from textwrap import indent

import pytest

from resolver.core import canonical
from tests.git.gitsim import PLAYERS, Campaign

from .server import REPOSITORY, Stand

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## Notifications\n") : README.index("## Open and sealed campaigns")]
YAML_BLOCKS = re.findall(r"```yaml\n(.*?)```", SECTION, re.DOTALL)
CAMPAIGN_BLOCK, PLAYER_BLOCK, SECRET_BLOCK = YAML_BLOCKS[:3]
(SHELL_BLOCK,) = re.findall(r"```sh\n(.*?)```", SECTION, re.DOTALL)
LINES = [line.split("  #")[0].strip() for line in SHELL_BLOCK.splitlines() if line.strip()]
DOCTOR, DRY_RUN, NOTIFY = LINES


def inline(pattern: str) -> str:
    """An inline command of the section, its line breaks read as the spaces Markdown makes them."""
    prose = re.sub(r"```.*?```", "", SECTION, flags=re.DOTALL)  # the fenced blocks' backticks pair apart
    (found,) = {" ".join(code.split()) for code in re.findall(r"`([^`]+)`", prose) if re.match(pattern, code)}
    return found


def players_file(block: str) -> str:
    """The section's player block as red's entry, first under ``factions:``; the others after it."""
    rest = {name: PLAYERS["factions"][name] for name in ("blue", "green")}
    others = canonical.dump({"factions": rest}).decode().removeprefix("factions:\n")
    return "factions:\n" + indent(block, "  ") + others + "gm:\n  logins: [dora]\n"


class Clone:
    def __init__(self, world: Campaign, stand: Stand) -> None:
        self.world, self.stand = world, stand
        self.root = world.clone("dora")
        world.sync(self.root)
        (self.root / ".venv").symlink_to(sys.prefix)  # the kit's make install, as in any fork
        with (self.root / ".git" / "info" / "exclude").open("a", encoding="utf-8") as exclude:
            exclude.write(".venv\n")
        shutil.copytree(REPO / ".github" / "workflows", self.root / ".github" / "workflows")
        secret = "".join(
            f"{name}: {stand.hook(name)}\n" for name in re.findall(r"^([a-z-]+):", SECRET_BLOCK, re.MULTILINE)
        )
        self.env = {
            **os.environ,
            "PATH": f"{Path(sys.prefix) / 'bin'}{os.pathsep}{os.environ['PATH']}",
            "GITHUB_TOKEN": "ghs_test-token",
            "GITHUB_REPOSITORY": REPOSITORY,
            "GITHUB_API_URL": stand.api,
            "CAMPAIGN_WEBHOOKS": secret,
        }

    def type(self, line: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            ["bash", "-c", line], cwd=self.root, env=self.env, capture_output=True, text=True, check=False
        )
        assert "secret-token" not in done.stdout + done.stderr  # no webhook URL reaches the terminal
        assert "Traceback" not in done.stderr
        return done

    def write_players(self, text: str) -> None:
        (self.root / "campaign" / "players.yaml").write_text(text, encoding="utf-8")

    def commit(self, message: str) -> None:
        self.world.commit(self.root, "dora", message)


@pytest.fixture
def clone(tmp_path: Path, stand: Stand) -> Clone:
    world = Campaign.create(tmp_path)
    made = Clone(world, stand)
    path = made.root / "campaign" / "campaign.yaml"
    canonical.write_yaml(path, {**canonical.read_yaml(path), **canonical.load(CAMPAIGN_BLOCK.encode())})
    made.write_players(players_file(PLAYER_BLOCK))
    made.commit("Notifications as the README sets them")
    return made


def test_the_sh_block_runs_as_written(clone: Clone) -> None:
    assert DOCTOR == ".venv/bin/campaign doctor"
    checked = clone.type(DOCTOR)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert (
        "ok       notifications: reminders 24 h, 3 h before the deadline, a tracking issue per turn; "
        "webhooks: red-discord, red-matrix, red-slack, table-discord" in checked.stdout
    )

    dry = clone.type(DRY_RUN)
    assert dry.returncode == 0, dry.stdout + dry.stderr
    for channel in ("GitHub", "Discord webhook 'red-discord'", "Slack webhook 'red-slack'"):
        assert f"turn 1, reminder 24h: House Alder by {channel}: would be sent" in dry.stdout
    assert "turn 1, reminder 24h: the table by Discord webhook 'table-discord': would be sent" in dry.stdout
    assert "(dry run: nothing was sent or written)" in dry.stdout
    assert clone.stand.requests == [] and not (clone.root / "campaign" / "notifications.yaml").exists()

    announced = clone.type(NOTIFY)  # the clock is today's: only what does not depend on it is checked
    assert announced.returncode == 0, announced.stdout + announced.stderr
    (issue,) = [r for r in clone.stand.to("/api/") if r.method == "POST" and r.path.endswith("/issues")]
    assert issue.body["title"] == "Turn 1: orders due Fri 2026-03-06 18:00 UTC"
    (table,) = clone.stand.to("/hooks/table-discord/")
    assert "Git Test: turn 1 is open" in table.body["content"]
    ledger = canonical.read_yaml(clone.root / "campaign" / "notifications.yaml")
    assert ledger["issues"] == {1: 42} and ("opened", "discord:table-discord") in {
        (e["event"], e["channel"]) for e in ledger["sent"]
    }


def test_an_absence_taken_back_as_written_brings_the_reminders_back(clone: Clone) -> None:
    away = clone.type("campaign absence red --from 1 --to 1")
    assert away.returncode == 0, away.stdout + away.stderr
    clone.commit("red is away")
    muted = clone.type(DRY_RUN)
    assert "away, as declared, and left alone: House Alder" in muted.stdout
    assert "House Alder by" not in muted.stdout

    cancel = inline(r"campaign absence red\s+--cancel")
    assert cancel == "campaign absence red --cancel"
    back = clone.type(cancel)
    assert back.returncode == 0, back.stdout + back.stderr
    clone.commit("red is back")
    again = clone.type(DRY_RUN)
    assert "turn 1, reminder 24h: House Alder by Discord webhook 'red-discord': would be sent" in again.stdout
    assert "left alone" not in again.stdout


def test_the_quoted_refusal_and_the_next_step(clone: Clone) -> None:
    quoted = inline(r"campaign/players\.yaml:\d+:\d+: ")
    assert quoted == "campaign/players.yaml:10:36: 'webhook' must name a webhook, not be a URL"
    pasted = PLAYER_BLOCK.replace(
        "webhook: red-discord", "webhook: https://discord.com/api/webhooks/1/secret-token"
    )
    clone.write_players(players_file(pasted))
    clone.commit("A URL pasted by mistake")

    refused = clone.type(DRY_RUN)
    assert refused.returncode != 0 and quoted in refused.stdout + refused.stderr
    checked = clone.type(DOCTOR)
    assert checked.returncode == 1 and f"problem  notifications: {quoted}" in checked.stdout
    assert clone.stand.requests == [] and not (clone.root / "campaign" / "notifications.yaml").exists()

    # The next step the section gives: the URL into the secret, the name into the file, doctor again.
    assert (
        "put the\nURL into the secret below, the name into the file, and check again with `campaign doctor`"
        in (SECTION)
    )
    clone.write_players(players_file(PLAYER_BLOCK))
    clone.commit("The webhook named, its URL in the secret")
    fixed = clone.type(DOCTOR)
    assert fixed.returncode == 0 and "ok       notifications:" in fixed.stdout, fixed.stdout
    assert clone.type(DRY_RUN).returncode == 0
