"""What the README and `campaign --help` tell a sealed campaign's players and GM to run exists in the
kit: its own key maker, the set-up check, the reseal for a replaced player."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from resolver.cli import main

REPO = Path(__file__).resolve().parents[2]
SEALED_COMMANDS = ("keygen", "doctor", "reseal")


def help_text(*args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main([*args, "--help"])
    return out.getvalue()


def test_help_lists_the_sealed_campaign_commands_with_an_example_each() -> None:
    text = help_text()
    for command in SEALED_COMMANDS:
        assert re.search(rf"^  campaign {command} \S", text, re.MULTILINE), command
        assert help_text(command).startswith(f"usage: campaign {command}")


def test_the_readme_sends_nobody_to_a_tool_the_kit_does_not_ship() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    sealed = readme[readme.index("## Open and sealed campaigns") : readme.index("## The campaign site")]
    assert "age-keygen" not in readme
    for command in SEALED_COMMANDS:
        assert f"campaign {command}" in sealed, command
    hints = "".join(p.read_text(encoding="utf-8") for p in (REPO / "resolver").rglob("*.py"))
    assert "age-keygen" not in hints
