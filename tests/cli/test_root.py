"""`campaign` finds its campaign from any subfolder, as git finds its repository."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml


def test_commands_find_the_campaign_from_a_subfolder(campaign: Path, run, monkeypatch) -> None:
    monkeypatch.chdir(campaign / "orders" / "templates")
    code, out, err = run("template", "red")
    assert code == 0, err
    assert "faction: red" in out
    code, out, err = run("check")
    assert code == 0, err
    assert "No order files in orders/" in out
    code, out, err = run("verify")
    assert code == 0 and "No archived turns" in out, err


def test_a_player_checks_their_file_from_the_orders_folder(campaign: Path, run, monkeypatch) -> None:
    monkeypatch.chdir(campaign / "orders")
    (campaign / "orders" / "red.yaml").write_bytes((campaign / "orders/templates/red.yaml").read_bytes())
    code, out, err = run("check", "red.yaml")
    assert code == 0, err
    assert "orders/red.yaml" in out  # named from the campaign root, wherever the player stands


def test_root_option_still_decides(campaign: Path, tmp_path: Path, run, monkeypatch) -> None:
    other = tmp_path / "other"
    assert run("new", "--root", other, "--seed", "2", "--factions", "2", "--name", "Other")[0] == 0
    monkeypatch.chdir(campaign / "orders")
    code, out, err = run("template", "red", "--root", other)
    assert code == 0, err
    assert (
        yaml.safe_load(out)["campaign"]
        == yaml.safe_load((other / "campaign/campaign.yaml").read_text())["campaign"]
    )


@pytest.mark.parametrize("command", ["check", "resolve", "verify", "schema", "site", "template red"])
def test_outside_any_campaign_the_error_names_the_folder(
    tmp_path: Path, run, monkeypatch, command: str
) -> None:
    lost = tmp_path / "not-a-campaign" / "deeper"
    lost.mkdir(parents=True)
    monkeypatch.chdir(lost)
    code, out, err = run(*command.split())
    assert code == 2
    assert f"no campaign in {lost.resolve()} or any folder above it" in err
    assert "fix: " in err and "--root DIR" in err
    assert "Traceback" not in err and not out
    assert not (lost / "orders").exists() and not (lost / "campaign").exists()


def test_new_makes_the_campaign_where_it_is_run(tmp_path: Path, run, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run("new", "--factions", "2")
    assert code == 0, err
    assert (tmp_path / "campaign/campaign.yaml").is_file()


def test_new_names_the_folder_that_already_holds_a_campaign(campaign: Path, run, monkeypatch) -> None:
    monkeypatch.chdir(campaign.parent)
    code, _, err = run("new", "--root", campaign.name, "--seed", "9")
    assert code == 1
    assert f"{campaign.resolve()} already holds a campaign" in err
    assert "--force" in err
