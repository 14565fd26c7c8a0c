"""Runs every scenario fixture under tests/scenarios/<ruleset>/."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import Scenario, lookup, matches

FIXTURES = sorted(Path(__file__).parent.glob("*/*.yaml"))


@pytest.mark.parametrize("path", FIXTURES, ids=[f"{p.parent.name}/{p.stem}" for p in FIXTURES])
def test_scenario(path: Path) -> None:
    sc = Scenario(path)
    expect = sc.data.get("expect") or {}
    files = sc.order_files()
    for faction, wanted in (expect.get("check") or {}).items():
        of = files[faction]
        errors = [i.message for i in of.errors]
        warnings = [i.message for i in of.warnings]
        for fragment in wanted.get("errors", []):
            assert any(fragment in e for e in errors), f"no error containing {fragment!r} in {errors}"
        for fragment in wanted.get("warnings", []):
            assert any(fragment in w for w in warnings), f"no warning containing {fragment!r} in {warnings}"
        if "errors" not in wanted:
            assert of.ok, f"{faction}: unexpected errors {errors}"
        for number, fragment in (wanted.get("echo") or {}).items():
            assert fragment in of.echo.get(int(number), ""), of.echo
    if any(not f.ok for f in files.values()):
        assert "state" not in expect and "events" not in expect, (
            "a scenario with rejected orders cannot resolve"
        )
        return
    result = sc.resolve(files)
    # A forced roll whose label nothing rolled is a stale fixture: its dice silently stopped mattering.
    unused = sorted(set(sc.data.get("rolls") or {}) - {roll.label for roll in result.rolls})
    assert not unused, f"forced rolls never rolled (labels changed?): {unused}"
    for dotted, value in (expect.get("state") or {}).items():
        assert lookup(result.state, dotted) == value, (
            f"{dotted}: {lookup(result.state, dotted)!r} != {value!r}"
        )
    for dotted in expect.get("absent") or []:
        with pytest.raises(KeyError):
            lookup(result.state, dotted)
    events = [e.to_data() for e in result.events]
    cursor = 0
    for wanted in expect.get("events") or []:
        while cursor < len(events) and not matches(events[cursor], wanted):
            cursor += 1
        assert cursor < len(events), (
            f"no event matching {wanted} (in order) among {[e['kind'] for e in events]}"
        )
        cursor += 1
    kinds = {e["kind"] for e in events}
    for kind in expect.get("no_events") or []:
        assert kind not in kinds, f"unexpected {kind} event"
