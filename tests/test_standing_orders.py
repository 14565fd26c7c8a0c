"""Standing orders end to end (issue 10 point 7): a nation's policy written once holds turn after turn, is
pre-filled in its template, is archived with the turn, and is described on the rules pages."""

from __future__ import annotations

from pathlib import Path

import yaml

from resolver.core import canonical
from resolver.engine.bots import bot_order_file
from resolver.store.resolution import resolve
from resolver.store.store import Store
from resolver.workflow import check, default_factions, new_campaign


def write_orders(root: Path, faction: str, extra: str = "") -> None:
    store = Store(root)
    state = store.state()
    raw = bot_order_file(store.game(state), state, faction).raw.decode()
    (root / f"orders/{faction}.yaml").write_text(raw + extra, encoding="utf-8")


def test_a_policy_holds_until_changed_and_is_prefilled_in_the_template(tmp_path: Path) -> None:
    root = tmp_path / "nations"
    new_campaign(root, "nations", 11, default_factions(2, 11))
    template = yaml.safe_load((root / "orders/templates/red.yaml").read_text(encoding="utf-8"))
    assert "policies" not in template  # the defaults are shown commented out: sending it changes nothing
    assert "# policies:\n#   retreat_at_losses: 0\n" in (root / "orders/templates/red.yaml").read_text()

    write_orders(root, "red", "policies:\n  retreat_at_losses: 50\n")
    (red,) = check(root)
    assert "policies (standing until you change it): retreat_at_losses 50" in red.echo_lines()
    _, first = resolve(root)
    assert [e.data["text"] for e in first.events if e.kind == "standing_orders"] == ["retreat_at_losses 50"]
    archived = canonical.read_yaml(root / "campaign/turns/0001/orders.yaml")["orders"]["red"]
    assert archived["policies"] == {"retreat_at_losses": 50}
    assert (
        "sets its standing policies: retreat_at_losses 50"
        in (root / "campaign/turns/0001/reports/red.md").read_text()
    )

    # Turn 2: red's file says nothing of policies; the policy stays, silently.
    write_orders(root, "red")
    _, second = resolve(root)
    assert not [e for e in second.events if e.kind == "standing_orders"]
    assert Store(root).state()["factions"]["red"]["standing"] == {"policies": {"retreat_at_losses": 50}}
    template_text = (root / "orders/templates/red.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(template_text)["policies"] == {"retreat_at_losses": 50}
    assert "policies" not in yaml.safe_load((root / "orders/templates/blue.yaml").read_text(encoding="utf-8"))

    # The template as it stands is a valid file that keeps the policy; an empty section restores the default.
    (root / "orders/red.yaml").write_text(template_text, encoding="utf-8")
    assert check(root)[0].ok
    write_orders(root, "red", "policies: {}\n")
    _, third = resolve(root)
    assert [e.data["text"] for e in third.events if e.kind == "standing_orders"] == ["the defaults"]
    assert "standing" not in Store(root).state()["factions"]["red"]


def test_a_bad_policy_is_refused_with_its_place_and_a_fix(tmp_path: Path) -> None:
    root = tmp_path / "nations"
    new_campaign(root, "nations", 11, default_factions(2, 11))
    write_orders(root, "red", "policies:\n  retreat_at_losses: half\n")
    (red,) = check(root)
    (issue,) = red.errors
    lines = (root / "orders/red.yaml").read_text().splitlines()
    assert lines[issue.line - 1].strip() == "retreat_at_losses: half"
    assert issue.message == "'retreat_at_losses' must be a whole number, not 'half'" and issue.hint
    before = (root / "campaign/state.yaml").read_bytes()
    assert not red.ok and before == (root / "campaign/state.yaml").read_bytes()


def test_the_schema_and_the_rules_page_know_the_policies(tmp_path: Path, run) -> None:
    root = tmp_path / "nations"
    new_campaign(root, "nations", 11, default_factions(2, 11))
    import json

    schema = json.loads((root / "orders/orders.schema.json").read_text())
    policies = schema["properties"]["policies"]
    assert policies["properties"]["retreat_at_losses"]["maximum"] == 100
    assert policies["additionalProperties"] is False
    code, _, err = run("site", "--root", root, "--no-build")
    assert code == 0, err
    page = (root / "site/rules/orders.md").read_text(encoding="utf-8")
    assert "## Standing orders" in page and "`retreat_at_losses`" in page
    assert "an **order** is a whole action written" in page


def test_the_demo_state_is_untouched_when_no_one_writes_a_policy(tmp_path: Path) -> None:
    root = tmp_path / "nations"
    new_campaign(root, "nations", 11, default_factions(2, 11))
    write_orders(root, "red")
    resolve(root)
    state = canonical.read_yaml(root / "campaign/state.yaml")
    assert all("standing" not in record for record in state["factions"].values())
