"""The diplomacy row of ``make bench``, run for real at one run a process (no timing is asserted: a shared
machine's times say nothing here): it plays the year 1901 a turn a phase, in an open and a sealed campaign
that play the same game, and prints a row for each turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.bench import diplomacy as bench
from resolver.core import canonical
from resolver.store import sealing
from resolver.store.store import Store


def test_the_year_is_played_open_and_sealed_alike_and_tabled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sealing, "_override", [])  # the bench holds the sealed campaign's key in-process
    phases = bench.play_year(tmp_path, years=1, progress=False, repeat=1)

    assert phases[0].label == "Spring 1901" and phases[-1].label == "Winter 1901"
    assert [p.turn for p in phases] == list(range(1, len(phases) + 1))
    assert all(p.open_resolve > 0 and p.floor > 0 and p.sealed_resolve > 0 for p in phases)
    assert phases[0].orders == 22  # every unit of 1901 is given an order

    opened = canonical.read_yaml(tmp_path / "open" / "campaign" / "state.yaml")
    sealed = Store(tmp_path / "sealed").state()  # read with the key the bench holds
    assert opened["units"] == sealed["units"] and opened["centres"] == sealed["centres"]
    assert opened["phase"] == {"year": 1902, "season": "spring", "kind": "movement"}

    lines = bench.table(phases)
    assert len(lines) == 2 + len(phases)
    assert "| 1 | Spring 1901 | 22 |" in lines[2]
