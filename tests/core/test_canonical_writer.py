"""The faster canonical writer writes exactly the bytes the writer before it wrote.

Every archived turn's digests bind those bytes, so the writer may change how it works, never what it
writes. ``reference_dump`` is the writer as it was before it was made faster (issue 14), kept here
only as the oracle: random data, tricky text and every engine-written file of the repository's own
campaign and of played demos must come out byte for byte the same.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from resolver.core import canonical
from resolver.core.canonical import _inline, _key, _scalar
from resolver.workflow import default_factions, new_campaign, play_bot_turn

from .test_canonical_reader import TRICKY_TEXT, random_data

REPOSITORY = Path(__file__).resolve().parents[2]


def _reference_emit(value: Any, indent: str, out: list[str]) -> None:
    if isinstance(value, dict):
        keys = sorted(value, key=_key) if any(type(k) is not str for k in value) else sorted(value)
        for key in keys:
            item = value[key]
            if isinstance(item, (dict, list)) and item:
                out.append(f"{indent}{_scalar(key)}:")
                _reference_emit(item, indent + "  " if isinstance(item, dict) else indent, out)
            else:
                out.append(f"{indent}{_scalar(key)}: {_inline(item)}")
    else:
        for item in value:
            if isinstance(item, (dict, list)) and item:
                block: list[str] = []
                _reference_emit(item, indent + "  ", block)
                block[0] = f"{indent}- {block[0][len(indent) + 2 :]}"
                out.extend(block)
            else:
                out.append(f"{indent}- {_inline(item)}")


def reference_dump(data: Any) -> bytes:
    if isinstance(data, (dict, list)) and data:
        lines: list[str] = []
        _reference_emit(data, "", lines)
        return ("\n".join(lines) + "\n").encode("utf-8")
    return (_inline(data) + "\n").encode("utf-8")


def deep_data(rng: random.Random, depth: int = 0) -> Any:
    """Deeper and wider than the reader's random data: lists of lists, lists of mappings, empty ones."""
    roll = rng.random()
    if depth < 6 and roll < 0.35:
        return {rng.choice([*TRICKY_TEXT, "id", "units", 3, -1]): deep_data(rng, depth + 1) for _ in range(5)}
    if depth < 6 and roll < 0.6:
        return [deep_data(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    return random_data(rng, 4)


@pytest.mark.parametrize("seed", range(400))
def test_random_data_is_written_as_the_reference_writes_it(seed: int) -> None:
    rng = random.Random(seed)
    data = deep_data(rng) if seed % 2 else random_data(rng)
    assert canonical.dump(data) == reference_dump(data)


def test_text_written_before_comes_out_the_same_from_the_cache() -> None:
    # The writer remembers the text of strings it wrote; the second dump reads them from there.
    data = {text: [text, {text: text}] for text in TRICKY_TEXT}
    assert canonical.dump(data) == canonical.dump(data) == reference_dump(data)


def test_what_neither_writer_can_write_is_refused_alike() -> None:
    for bad in ({"a": float("nan")}, [{"b": object()}], {"c": "\ud800"}):
        with pytest.raises((TypeError, ValueError)):
            reference_dump(bad)
        with pytest.raises((TypeError, ValueError)):
            canonical.dump(bad)


def engine_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "campaign").rglob("*.yaml") if p.name != "rules.yaml")


def test_every_file_of_the_repository_campaign_is_written_back_byte_for_byte() -> None:
    files = engine_files(REPOSITORY)
    assert files, "the repository's own campaign is missing"
    for path in files:
        raw = path.read_bytes()
        data = canonical.load(raw)
        assert canonical.dump(data) == reference_dump(data) == raw, path


@pytest.mark.parametrize("ruleset", ["nations", "factions", "seasons"])
def test_every_file_of_played_demos_is_written_back_byte_for_byte(tmp_path: Path, ruleset: str) -> None:
    root = tmp_path / ruleset
    new_campaign(root, ruleset, 2, default_factions(3, 2))
    for _ in range(3):
        play_bot_turn(root)
    files = engine_files(root)
    assert len(files) > 15
    for path in files:
        raw = path.read_bytes()
        data = canonical.load(raw)
        assert canonical.dump(data) == reference_dump(data) == raw, path
