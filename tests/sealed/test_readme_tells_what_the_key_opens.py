"""The README tells players, before they trust a sealed campaign, what its key holder can read and what
publishing the key after the game reveals."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def sealed_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Open and sealed campaigns")
    return " ".join(text[start : text.index("\n## ", start + 1)].split())


def test_the_readme_says_the_key_holder_reads_every_order_on_a_pull_request_head_before_the_deadline() -> (
    None
):
    section = sealed_section()
    assert "**What the key holder can read.**" in section
    holder = section[section.index("**What the key holder can read.**") :]
    assert "every sealed order file as soon as it is pushed" in holder
    assert "on a pull request's head, before the deadline" in holder


def test_the_readme_says_unsealing_ends_the_anonymity_of_rumours() -> None:
    section = sealed_section()
    unseal = section[section.index("campaign unseal") :]
    assert "it ends the anonymity of every rumour ever spread" in unseal
