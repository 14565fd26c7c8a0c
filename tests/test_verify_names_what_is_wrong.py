"""Issue 20 point 12: `campaign verify --all` names every way an archive can be wrong, in words, for
open campaigns and for sealed ones (format 3 archives with keyed commitments), in every ruleset.

No edit of an archive file ends in an internal error; the campaign's own records (the opening's world
digest, the engine that made it) are checked; a mismatch in the middle of a long archive still
accounts for every turn; a renamed faction is called renamed; and a resolution that was stopped half
way is called unfinished, with the command that finishes it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.engine.ruleset import RULESETS
from resolver.store import sealing
from resolver.store.store import CRASH_VARIABLE, Store
from resolver.workflow import DEMO_KEY

from .sealed.sealed_play import run

KINDS = ("open", "sealed")
TURNS = 4


@pytest.fixture(scope="module")
def demos(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], Path]:
    """One demo of four turns per ruleset and kind, made once; each test works on its own copy."""
    made: dict[tuple[str, str], Path] = {}

    def demo(ruleset: str, kind: str) -> Path:
        if (ruleset, kind) not in made:
            root = tmp_path_factory.mktemp("verify") / f"{kind}-{ruleset}"
            sealed = ("--sealed",) if kind == "sealed" else ()
            code, out = run(
                "demo", "--ruleset", ruleset, "--turns", TURNS, "--root", root, "--quiet", *sealed
            )
            assert code == 0, out
            made[(ruleset, kind)] = root
        return made[(ruleset, kind)]

    return demo


@pytest.fixture(params=[(r, k) for r in RULESETS for k in KINDS], ids=lambda p: f"{p[0]}-{p[1]}")
def campaign(request: pytest.FixtureRequest, demos: Callable[[str, str], Path], tmp_path: Path) -> Path:
    ruleset, kind = request.param
    root = tmp_path / "campaign"
    shutil.copytree(demos(ruleset, kind), root)
    return root


def sealed(root: Path) -> bool:
    return (root / DEMO_KEY).is_file()


def verify(root: Path, *, with_key: bool = True) -> tuple[int, str]:
    key = ("--key-file", root / DEMO_KEY) if sealed(root) and with_key else ()
    code, out = run("verify", "--root", root, "--all", *key)
    assert "internal error" not in out and "Traceback" not in out, out
    return code, out


def fails_naming(root: Path, *words: str, with_key: bool = True) -> str:
    code, out = verify(root, with_key=with_key)
    assert code == 1, out
    for said in words:
        assert said in out, out
    return out


def passes(root: Path) -> str:
    code, out = verify(root)
    assert code == 0, out
    return out


def turn_file(root: Path, turn: int, name: str) -> Path:
    return root / "campaign" / "turns" / f"{turn:04d}" / name


def test_an_archive_file_that_is_not_yaml_is_named(campaign: Path) -> None:
    path = turn_file(campaign, 2, "inputs.yaml")
    kept = path.read_bytes()
    path.write_bytes(b"turn: [2, 3\nformat: {\n")
    fails_naming(campaign, "turn 2: MISMATCH", "campaign/turns/0002/inputs.yaml is not YAML (line ")
    if sealed(campaign):  # a player's check, without the key, names it the same way
        fails_naming(campaign, "campaign/turns/0002/inputs.yaml is not YAML", with_key=False)
    path.write_bytes(kept)  # the next step: the file as the turn wrote it, and all is well again
    passes(campaign)
    digest = turn_file(campaign, 3, "digest.yaml")
    digest.write_bytes(b"- a list\n- not the digests\n")
    fails_naming(campaign, "turn 3: MISMATCH", "campaign/turns/0003/digest.yaml is a list, not a mapping")


def test_archived_orders_that_are_not_yaml_are_named(
    demos: Callable[[str, str], Path], tmp_path: Path
) -> None:
    for ruleset in RULESETS:
        root = tmp_path / ruleset
        shutil.copytree(demos(ruleset, "open"), root)
        turn_file(root, 1, "orders.yaml").write_bytes(b"orders: {red: [\n")
        fails_naming(root, "turn 1: MISMATCH", "campaign/turns/0001/orders.yaml is not YAML")


def put_state_before(root: Path, turn: int, raw: bytes) -> None:
    """A state-before.yaml in a turn's archive, as a GM's edit before that turn leaves one."""
    path = turn_file(root, turn, "state-before.yaml")
    if sealed(root):
        recipient = str(canonical.read_yaml(root / "campaign" / "campaign.yaml")["recipient"])
        path.with_name(path.name + sealing.SUFFIX).write_bytes(sealing.encrypt(raw, [recipient]))
    else:
        path.write_bytes(raw)


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b"- 1\n- 2\n", "is a list, not a mapping"),
        (b"turn: 2\nfactions: 5\n", "'factions' does not map each faction to its record"),
        (b"turn: 2\nfactions: {}\n", "is not a campaign state: it has no"),
        (b"{{{\n", "is not YAML"),
    ],
)
def test_a_state_before_that_is_not_a_state_is_named(campaign: Path, raw: bytes, said: str) -> None:
    put_state_before(campaign, 2, raw)
    fails_naming(campaign, "turn 2: MISMATCH", "campaign/turns/0002/state-before.yaml", said)


def test_a_switched_ruleset_is_named(campaign: Path) -> None:
    config = campaign / "campaign" / "campaign.yaml"
    data = canonical.read_yaml(config)
    played = data["ruleset"]
    other = next(r for r in RULESETS if r != played)
    canonical.write_yaml(config, {**data, "ruleset": other})
    fails_naming(
        campaign,
        "turn 1: MISMATCH",
        f"names the ruleset '{other}', but turn 1 was resolved with '{played}'",
        f"put 'ruleset: {played}' back",
    )
    if sealed(campaign):
        fails_naming(campaign, f"but turn 1 was resolved with '{played}'", with_key=False)
    canonical.write_yaml(config, data)
    passes(campaign)


def test_the_openings_world_digest_is_checked(campaign: Path) -> None:
    path = campaign / "campaign" / "turns" / "0000" / "opening.yaml"
    opening = canonical.read_yaml(path)
    canonical.write_yaml(path, {**opening, "world_digest": "0" * 64})
    fails_naming(
        campaign,
        "campaign/turns/0000/opening.yaml: MISMATCH",
        "the world digest is not that of campaign/world.yaml",
    )
    canonical.write_yaml(path, opening)
    passes(campaign)


@pytest.mark.parametrize(
    ("engine", "said"),
    [
        ("9.9.0", "says engine 9.9.0 made the campaign, but turn 1 was resolved before it"),
        ("banana", "engine: 'banana' is not a version of the kit"),
    ],
)
def test_the_engine_that_made_the_campaign_is_checked(campaign: Path, engine: str, said: str) -> None:
    config = campaign / "campaign" / "campaign.yaml"
    data = canonical.read_yaml(config)
    canonical.write_yaml(config, {**data, "engine": engine})
    fails_naming(campaign, "campaign/campaign.yaml: MISMATCH", said)
    canonical.write_yaml(config, data)
    passes(campaign)


def test_a_mismatch_in_the_middle_still_accounts_for_every_turn(campaign: Path) -> None:
    inputs = turn_file(campaign, 2, "inputs.yaml")
    data = canonical.read_yaml(inputs)
    canonical.write_yaml(inputs, {**data, "posting_order": list(reversed(data["posting_order"]))})
    later = turn_file(campaign, 4, "inputs.yaml")
    canonical.write_yaml(later, {**canonical.read_yaml(later), "missing": ["someone"]})
    out = fails_naming(
        campaign,
        "turn 1: identical",
        "turn 2: MISMATCH",
        "turn 3: not replayed",
        "not replayed: it starts from the state turn 2 left, and turn 2 did not replay",
        "turn 4: MISMATCH, not replayed",
        "campaign/turns/0004/inputs.yaml was edited after the turn was resolved",
        f"1 of {TURNS} turn(s) replay byte-identically.",
        "2 turn(s) after the first mismatch could not be replayed",
    )
    assert "0 of 1" not in out


def test_a_renamed_faction_is_called_renamed(campaign: Path) -> None:
    players = campaign / "campaign" / "players.yaml"
    data = canonical.read_yaml(players)
    faction = sorted(data["factions"])[0]
    name = data["factions"][faction]["name"]
    data["factions"][faction]["name"] = "The Renamed House"
    canonical.write_yaml(players, data)
    out = passes(campaign)
    assert f"{faction} (now 'The Renamed House') renamed in campaign/players.yaml" in out, out
    assert "templates/ changed" not in out
    # Restyled reports (the campaign's own templates/, as the README invites) are still called that.
    data["factions"][faction]["name"] = name
    canonical.write_yaml(players, data)
    report = Path(__file__).resolve().parents[1] / "templates" / "report.md.j2"
    (campaign / "templates").mkdir()
    (campaign / "templates" / report.name).write_text("A house style.\n" + report.read_text(), "utf-8")
    out = passes(campaign)
    assert "templates/ changed since this turn was resolved" in out and "renamed" not in out


def test_an_interrupted_resolution_is_called_unfinished(campaign: Path) -> None:
    env = {**os.environ, CRASH_VARIABLE: "archive-moved"}
    if sealed(campaign):
        env[sealing.KEY_VARIABLE] = sealing.read_key_text((campaign / DEMO_KEY).read_text())
    killed = subprocess.run(
        [sys.executable, "-m", "resolver.cli", "resolve", "--root", str(campaign), "--force"],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert killed.returncode != 0
    assert turn_file(campaign, TURNS + 1, "inputs.yaml").is_file()  # the archive moved, the state did not
    out = fails_naming(
        campaign,
        f"turn {TURNS + 1} was resolved by a run that was stopped before it had put every file in place",
        "run campaign resolve to finish it",
    )
    assert "a turn was deleted" not in out
    # The next step, as said: campaign resolve finishes the turn and resolves nothing more.
    key = ("--key-file", campaign / DEMO_KEY) if sealed(campaign) else ()
    code, out = run("resolve", "--root", campaign, *key)
    assert code == 0 and f"Turn {TURNS + 1} had been resolved by an interrupted run" in out, out
    assert not turn_file(campaign, TURNS + 2, "inputs.yaml").exists()
    out = passes(campaign)
    assert f"{TURNS + 1} of {TURNS + 1} turn(s) replay byte-identically" in out
    assert Store(campaign).archived_turns()[-1] == TURNS + 1
