"""The command line as a GM and a player use it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from .conftest import tree_bytes

SUBCOMMANDS = ("new", "check", "resolve", "verify", "template", "schema", "demo")


def test_console_script_help_lists_every_command() -> None:
    exe = Path(sys.executable).parent / "campaign"
    out = subprocess.run([exe, "--help"], capture_output=True, text=True, check=True).stdout
    for name in SUBCOMMANDS:
        assert name in out


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_has_help_and_root(name: str, run) -> None:
    with pytest.raises(SystemExit) as done:
        run(name, "--help")
    assert done.value.code == 0


def test_help_text_mentions_root(capsys) -> None:
    from resolver.cli import main

    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "--root DIR" in capsys.readouterr().out


def test_new_creates_the_layout(campaign: Path) -> None:
    for rel in (
        "campaign/campaign.yaml",
        "campaign/players.yaml",
        "campaign/rules.yaml",
        "campaign/world.yaml",
        "campaign/state.yaml",
        "campaign/turns/0000/state.yaml",
        "orders/orders.schema.json",
        "orders/templates/red.yaml",
        "orders/templates/blue.yaml",
        "orders/templates/green.yaml",
    ):
        assert (campaign / rel).is_file(), rel
    players = yaml.safe_load((campaign / "campaign/players.yaml").read_text())
    assert set(players["factions"]) == {"red", "blue", "green"}


def test_new_refuses_to_overwrite_without_force(campaign: Path, run) -> None:
    before = tree_bytes(campaign)
    code, _, err = run("new", "--root", campaign, "--seed", "9")
    assert code == 1 and "already holds a campaign" in err and "--force" in err
    assert tree_bytes(campaign) == before
    code, _, _ = run("new", "--root", campaign, "--seed", "9", "--force")
    assert code == 0
    assert yaml.safe_load((campaign / "campaign/campaign.yaml").read_text())["seed"] == 9


def test_new_from_a_players_file(tmp_path: Path, run) -> None:
    players = tmp_path / "players.yaml"
    players.write_text(
        "gm: {logins: [the-gm]}\nfactions:\n  wolves: {name: The Wolves, color: '#445566', "
        "logins: [alice]}\n  herons: {name: The Herons, logins: [bob]}\n"
    )
    code, out, _ = run("new", "--root", tmp_path / "c", "--players", players)
    assert code == 0 and "wolves (The Wolves)" in out
    roster = yaml.safe_load((tmp_path / "c/campaign/players.yaml").read_text())
    assert roster["gm"]["logins"] == ["the-gm"] and roster["factions"]["wolves"]["logins"] == ["alice"]


def test_commands_outside_a_campaign_explain_themselves(tmp_path: Path, run) -> None:
    code, _, err = run("check", "--root", tmp_path)
    assert code == 2 and "no campaign in" in err and "campaign new" in err


def test_template_is_a_valid_empty_order_file(campaign: Path, run) -> None:
    code, out, _ = run("template", "red", "--root", campaign)
    assert code == 0
    assert "Army 1 at" in out and "action points" in out
    target = campaign / "orders" / "red.yaml"
    run("template", "red", "--root", campaign, "-o", target)
    assert "$schema=orders.schema.json" in target.read_text()
    code, out, _ = run("check", "--root", campaign)
    assert code == 0 and "red.yaml: 0 orders accepted, 0 errors, 0 warnings" in out


def test_template_of_unknown_faction(campaign: Path, run) -> None:
    code, _, err = run("template", "purple", "--root", campaign)
    assert code == 2 and "unknown faction 'purple'" in err


def test_schema_accepts_templates_and_rejects_nonsense(campaign: Path, run) -> None:
    code, _, _ = run("schema", "--root", campaign)
    assert code == 0
    schema = json.loads((campaign / "orders/orders.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    template = yaml.safe_load((campaign / "orders/templates/red.yaml").read_text())
    assert not list(validator.iter_errors(template))
    good = {
        **template,
        "orders": [
            {"action": "move", "army": "1", "path": ["N", "NE"], "fast": True},
            {"action": "recruit", "settlement": "X", "class": "troops", "name": "Pikes"},
        ],
    }
    assert not list(validator.iter_errors(good))
    for bad in (
        {"action": "teleport", "army": "1"},
        {"action": "move", "army": "1", "path": ["UP"]},
        {"action": "move", "army": "1", "path": ["N"], "speed": 3},
        {"action": "recruit"},
    ):
        assert list(validator.iter_errors({**template, "orders": [bad]})), bad
    gm = {
        "campaign": template["campaign"],
        "turn": 1,
        "faction": "gm",
        "orders": [{"action": "grant", "faction": "red", "resource": "resources", "amount": 3}],
    }
    assert not list(validator.iter_errors(gm))
    # Editors list every action from the schema: completion needs the names as constants.
    items = schema["else"]["properties"]["orders"]["items"]["oneOf"]
    assert {i["properties"]["action"]["const"] for i in items} >= {"move", "attack", "recruit", "build"}


def test_check_json_output(campaign: Path, run) -> None:
    (campaign / "orders/red.yaml").write_text(
        "campaign: test-run\nturn: 1\nfaction: red\norders:\n  - action: explore\n    army: '1'\n"
    )
    code, out, _ = run("check", "--root", campaign, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["ok"] is True
    (entry,) = data["files"]
    assert entry["orders"][0]["action"] == "explore" and entry["orders"][0]["understood"].startswith(
        "army 1 explores"
    )


def test_resolve_archives_and_verify_replays(campaign: Path, run) -> None:
    (campaign / "orders/red.yaml").write_text(
        "campaign: test-run\nturn: 1\nfaction: red\norders:\n  - action: explore\n    army: '1'\n"
        "press:\n  - headline: Hello\n    body: <script>alert(1)</script>\nrumors: [Psst]\n"
    )
    code, out, _ = run("resolve", "--root", campaign)
    assert code == 0 and "Turn 1 resolved" in out and "explores" in out
    archive = campaign / "campaign/turns/0001"
    for rel in (
        "orders.yaml",
        "inputs.yaml",
        "events.yaml",
        "digest.yaml",
        "reports/red.md",
        "reports/blue.md",
    ):
        assert (archive / rel).is_file(), rel
    assert not (campaign / "orders/red.yaml").exists()
    inputs = yaml.safe_load((archive / "inputs.yaml").read_text())
    assert inputs["missing"] == ["blue", "green"] and len(inputs["turn_seed"]) == 64
    events = yaml.safe_load((archive / "events.yaml").read_text())["events"]
    explore = next(e for e in events if e["kind"] == "exploration")
    # Named by turn, tile, nation and order number: nothing another nation does can move these dice.
    assert re.fullmatch(r"t1/explore/[A-Z]+\d+/red/order/\d+", explore["rolls"][0]["label"])
    assert yaml.safe_load((campaign / "campaign/state.yaml").read_text())["turn"] == 2
    # Rumours are public, authors are not named: the chronicle prints them, reports point to it.
    assert any(e["kind"] == "rumor" and "Psst" in e["data"]["text"] for e in events)
    assert "Psst" not in (archive / "reports/blue.md").read_text()
    assert "`chronicle/turn-1/`" in (archive / "reports/blue.md").read_text()
    code, out, _ = run("verify", "--root", campaign, "--all")
    assert code == 0 and "1 of 1 turn(s) replay byte-identically" in out


def test_verify_detects_tampering(campaign: Path, run) -> None:
    run("resolve", "--root", campaign)
    run("resolve", "--root", campaign, "--force")  # turn 2 with nobody's orders, on purpose
    events = campaign / "campaign/turns/0002/events.yaml"
    events.write_text(events.read_text().replace("turn: 2", "turn: 2\n# edited"))
    code, out, _ = run("verify", "--root", campaign, "--turn", "2")
    assert code == 1 and "MISMATCH" in out
    code, out, _ = run("verify", "--root", campaign, "--turn", "1")
    assert code == 0
    code, _, err = run("verify", "--root", campaign, "--turn", "7")
    assert code == 2 and "not archived" in err


def test_hand_edited_state_is_kept_for_replay(campaign: Path, run) -> None:
    run("resolve", "--root", campaign)
    state_path = campaign / "campaign/state.yaml"
    state = yaml.safe_load(state_path.read_text())
    state["factions"]["red"]["stock"]["resources"] += 50
    state_path.write_text(yaml.safe_dump(state, sort_keys=True))
    run("resolve", "--root", campaign, "--force")
    assert (campaign / "campaign/turns/0002/state-before.yaml").exists()
    code, out, _ = run("verify", "--root", campaign)
    assert code == 0, out


def test_internal_errors_never_show_a_traceback(campaign: Path, run, monkeypatch) -> None:
    from resolver.store.store import Store

    def boom(*args, **kwargs):
        raise RuntimeError("kaput")

    monkeypatch.setattr(Store, "check_as_read_in_part", boom)
    code, out, err = run("check", "--root", campaign)
    assert code == 3 and "internal error: RuntimeError: kaput" in err and "Traceback" not in err + out


def test_broken_players_file_is_reported_not_crashed_on(tmp_path: Path, run) -> None:
    players = tmp_path / "players.yaml"
    players.write_text("factions:\n  wolves: {name: [unclosed\n")
    code, _, err = run("new", "--root", tmp_path / "c", "--players", players)
    assert code == 1 and "players.yaml:3:1: the players file is not valid YAML" in err
    assert not (tmp_path / "c" / "campaign").exists()
