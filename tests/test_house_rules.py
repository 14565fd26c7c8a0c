"""A house rule in campaign/rules.yaml reaches everything players read: schema, templates, rules pages."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from resolver.publish.history import load_history
from resolver.publish.pages import SitePages, read_welcome
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign

NATIONS_HOUSE_RULES = "actions:\n  per_turn: 4\ncombat:\n  max_rounds: 5\n"


def rules_page(root: Path) -> str:
    store = Store(root)
    pages = SitePages(store, load_history(store), read_welcome(root / "site"))
    pages.rules()
    return pages.files["rules/index.md"].decode()


def build_order(campaign: Path, actions: int) -> dict:
    return {
        "campaign": yaml.safe_load((campaign / "campaign/campaign.yaml").read_text())["campaign"],
        "turn": 2,
        "faction": "red",
        "orders": [{"action": "build", "army": "1", "type": "farming", "name": "Newby", "actions": actions}],
    }


def test_a_house_rule_changes_the_schema_the_templates_and_the_rules_page(campaign: Path, run) -> None:
    (campaign / "campaign/rules.yaml").write_text(NATIONS_HOUSE_RULES)
    code, _, err = run("resolve", "--root", campaign)
    assert code == 0, err

    schema = json.loads((campaign / "orders/orders.schema.json").read_text())
    jsonschema.validate(build_order(campaign, 4), schema)  # legal under the house rule: editors agree
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(build_order(campaign, 5), schema)

    template = (campaign / "orders/templates/red.yaml").read_text()
    assert "4 action points a turn" in template

    page = rules_page(campaign)
    assert "spend four action points a turn" in page and "three action points" not in page
    assert "A battle lasts at most 5 rounds" in page  # a house-rule note, filled from the data
    assert "**4 action points**" in page


def test_factions_rules_page_reads_its_numbers_from_the_house_rules(tmp_path: Path) -> None:
    root = tmp_path / "city"
    new_campaign(root, "factions", 3, default_factions(2, 3))
    (root / "campaign/rules.yaml").write_text("checks:\n  task:\n    dice: 3d6\ninfluence:\n  max_spend: 5\n")
    page = rules_page(root)
    assert "3d6 decide in four bands" in page
    assert r"gives \+1 a point, up to 5" in page and "up to 3" not in page
