"""The GM's tools: a template with every GM order, echoes in sentences, reasons told to the players."""

from __future__ import annotations

from pathlib import Path

import yaml

from resolver.engine import gm
from resolver.store.store import Store

GRANT = (
    "campaign: test-run\nturn: 1\nfaction: gm\norders:\n  - action: grant\n    faction: red\n"
    "    resource: resources\n    amount: 5\n    reason: A salt caravan pays tribute\n"
    "  - action: give_item\n    faction: red\n    item: silver chalice\n    reason: Found in the old crypt.\n"
)


def uncommented_examples(template: str) -> str:
    """The template with its commented example orders in place of 'orders: []'."""
    lines = template.splitlines()
    start = lines.index("# orders:") + 1
    examples = []
    for line in lines[start:]:
        if not line.startswith("#   "):
            break
        examples.append(line[2:])
    return template.replace("orders: []\n", "orders:\n" + "\n".join(examples) + "\n", 1)


def test_the_gm_template_has_an_example_of_every_gm_order(campaign: Path, run) -> None:
    code, out, _ = run("template", "gm", "--root", campaign, "-o", campaign / "orders/gm.yaml")
    assert code == 0 and "Wrote" in out
    template = (campaign / "orders/gm.yaml").read_text()
    assert yaml.safe_load(template)["faction"] == "gm"
    assert run("check", "--root", campaign)[0] == 0  # as written: a valid file with no orders
    store = Store(campaign)
    # A ruling needs something that awaits one: until then the template says so instead of an example.
    assert "#   nothing awaits a ruling this turn" in template
    for action in gm.actions(store.game()):
        assert (f'#   - action: "{action}"' in template) == (action != "judge"), action
    (campaign / "orders/gm.yaml").write_text(uncommented_examples(template))
    code, out, _ = run("check", "--root", campaign)
    examples = len(gm.examples(store.game(), store.state()))  # one per order; two narrations
    assert code == 0, out  # the example as written
    assert f"gm.yaml: {examples} orders accepted, 0 errors, " in out


def test_gm_orders_are_echoed_in_sentences(campaign: Path, run) -> None:
    (campaign / "orders/gm.yaml").write_text(GRANT)
    code, out, _ = run("check", "--root", campaign)
    assert code == 0, out
    red = Store(campaign).game().name_of("red")
    assert f"  1. grant: give 5 resources to {red} (red): A salt caravan pays tribute\n" in out
    assert f"  2. give_item: give 1 × silver chalice to {red} (red): Found in the old crypt.\n" in out
    assert "=" not in out and "'red'" not in out  # no key=value, no Python reprs


def test_a_gm_reason_reaches_the_chronicle_to_which_the_report_points(campaign: Path, run) -> None:
    (campaign / "orders/gm.yaml").write_text(GRANT)
    code, out, err = run("resolve", "--root", campaign)
    assert code == 0, err
    red = Store(campaign).game().name_of("red")
    told = f"The GM grants 5 resources to {red}: A salt caravan pays tribute."
    assert told in out
    assert f"The GM gives 1 × silver chalice to {red}: Found in the old crypt." in out
    # A grant is public: the chronicle tells it, and red's report points there instead of copying it.
    report = (campaign / "campaign/turns/0001/reports/red.md").read_text()
    assert told not in report and "`chronicle/turn-1/`" in report
    assert run("verify", "--root", campaign, "--all")[0] == 0
