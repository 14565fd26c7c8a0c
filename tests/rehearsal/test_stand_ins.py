"""Every action the workflows use has a stand-in for the rehearsals, and every input a workflow gives
an action is one its stand-in declares, so a rehearsal cannot pass by ignoring what a step asks for."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .act import STAND_INS, WORKFLOWS, stand_ins

NAMES = sorted(p.name for p in WORKFLOWS.glob("*.yml"))


@pytest.mark.parametrize("name", NAMES)
def test_each_action_has_a_stand_in_that_takes_its_inputs(name: str) -> None:
    assert stand_ins(WORKFLOWS / name)  # raises, naming the action, when one is missing
    flow = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    for job in flow["jobs"].values():
        for step in job["steps"]:
            if "uses" not in step:
                continue
            action = step["uses"].split("@")[0].split("/")[1]
            declared = yaml.safe_load((STAND_INS / action / "action.yml").read_text(encoding="utf-8"))
            unknown = set(step.get("with", {})) - set(declared.get("inputs") or {})
            assert not unknown, f"{name}: the stand-in of {action} does not take {sorted(unknown)}"


def test_an_action_without_a_stand_in_is_named(tmp_path: Path) -> None:
    flow = tmp_path / "new.yml"
    flow.write_text("jobs:\n  x:\n    steps:\n      - uses: someone/novel-action@" + "a" * 40 + "\n")
    with pytest.raises(AssertionError, match="someone/novel-action, which has no stand-in"):
        stand_ins(flow)
