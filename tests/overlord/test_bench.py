"""The overlord row of ``make bench``: its harness at the smallest size, run for real (no timing is
asserted: a shared machine's times say nothing here). It builds its table, the generated campaign's order
files pass the checker, and the month it times is the same bytes on every run."""

from __future__ import annotations

from pathlib import Path

from resolver.bench import overlord as bench
from resolver.cli import main

SMALLEST = bench.SIZES[0]


def test_the_generated_orders_pass_the_checker(tmp_path: Path) -> None:
    root = tmp_path / "campaign"
    orders = bench.build_campaign(root, SMALLEST)
    assert orders > SMALLEST  # every faction rewrites some of its queues
    assert main(["check", "--root", str(root)]) == 0


def test_the_harness_prints_its_table_and_two_runs_give_the_same_month(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    measured = [bench.measure(first, SMALLEST, repeat=1), bench.measure(second, SMALLEST, repeat=1)]

    size = measured[0]
    assert size.factions == SMALLEST
    assert size.units >= SMALLEST * bench.UNITS_PER_FACTION  # recruits may add new units during the month
    assert size.events > 0 and size.orders > 0
    assert size.resolve > 0 and size.floor > 0
    lines = bench.table(measured)
    assert lines[0].startswith("| factions | units | orders | events | state KB | events KB |")
    assert len(lines) == 2 + len(measured)
    assert f"| {SMALLEST} | {size.units} | {size.orders} | {size.events} |" in lines[2]
    assert "resolve" in bench.verdict(size) and "events file" in bench.verdict(size)

    for name in ("state.yaml", "turns/0001/events.yaml"):
        assert (first / "campaign" / name).read_bytes() == (second / "campaign" / name).read_bytes(), name
    assert measured[0].events == measured[1].events and measured[0].orders == measured[1].orders
