"""The DATC fixtures (``tests/diplomacy/datc/<case>.yaml``) read into plain records for the runner and the
fixture checks.

A fixture is one test case of chapter 6 of the DATC (version 3.0): its position, its orders as the DATC
writes them, each with the outcome we expect, and one or more phases (a movement, the retreats after it,
an adjustment). The format is described in the module docstring of ``test_datc.py`` and in the fixtures
themselves; this module only reads it, strictly, so that a typing slip in a fixture is an error naming the
file rather than a silently weaker test. Nothing here knows the map: province names stay text until the
runner reads them with the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

FIXTURES = Path(__file__).parent / "datc"
OUTCOMES = ("succeeds", "fails", "illegal")
PHASE_KINDS = ("movement", "retreat", "adjustment")
# The keys each kind of phase may carry, and those it must.
PHASE_KEYS = {
    "movement": ({"phase", "units", "orders", "dislodged"}, {"phase", "units", "orders", "dislodged"}),
    "retreat": ({"phase", "orders", "units_after"}, {"phase", "orders"}),
    "adjustment": (
        {"phase", "centres", "units", "orders", "units_after"},
        {"phase", "centres", "units", "orders", "units_after"},
    ),
}
CASE_KEYS = {"case", "title", "preference", "phases"}


class FixtureError(ValueError):
    """A fixture that does not follow the format, with the file and what is wrong in it."""


@dataclass(frozen=True)
class ExpectedOrder:
    power: str
    text: str  # the order as the DATC writes it, read by the notation
    outcome: str  # one of OUTCOMES


@dataclass(frozen=True)
class Phase:
    kind: str  # one of PHASE_KINDS
    units: dict[str, tuple[str, ...]]  # power -> units in notation ("A Vienna"); empty for a retreat
    orders: tuple[ExpectedOrder, ...]
    dislodged: tuple[str, ...]  # provinces, as written; movement phases only
    centres: dict[str, tuple[str, ...]]  # power -> supply centres it owns; adjustment phases only
    units_after: dict[str, tuple[str, ...]] | None  # the position after the phase, where the fixture gives it


@dataclass(frozen=True)
class Case:
    case: str  # "6.A.11"
    title: str
    preference: str
    phases: tuple[Phase, ...]
    path: Path


def case_key(case: str) -> tuple[str, int]:
    """The DATC's order: 6.A.2 before 6.A.10, section by section."""
    _, section, number = case.split(".")
    return section, int(number)


def load_cases(directory: Path = FIXTURES) -> list[Case]:
    """Every fixture in the directory, in the DATC's order."""
    cases = [load_case(path) for path in directory.glob("*.yaml")]
    return sorted(cases, key=lambda case: case_key(case.case))


def load_case(path: Path) -> Case:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise FixtureError(f"{path}: not YAML: {error}") from error
    if not isinstance(data, dict) or set(data) != CASE_KEYS:
        raise FixtureError(f"{path}: a fixture holds exactly the keys {sorted(CASE_KEYS)}")
    for key in ("case", "title", "preference"):
        if not isinstance(data[key], str):
            raise FixtureError(f"{path}: {key} must be text")
    if not isinstance(data["phases"], list) or not data["phases"]:
        raise FixtureError(f"{path}: phases must be a list of one phase or more")
    phases = tuple(read_phase(path, index, raw) for index, raw in enumerate(data["phases"], start=1))
    return Case(data["case"], data["title"], data["preference"], phases, path)


def read_phase(path: Path, index: int, raw: object) -> Phase:
    where = f"{path}: phase {index}"
    if not isinstance(raw, dict) or raw.get("phase") not in PHASE_KINDS:
        raise FixtureError(f"{where}: `phase` must be one of {', '.join(PHASE_KINDS)}")
    kind = raw["phase"]
    allowed, required = PHASE_KEYS[kind]
    if not required <= set(raw) <= allowed:
        raise FixtureError(
            f"{where}: a {kind} phase has the keys {sorted(required)} (and may have "
            f"{sorted(allowed - required) or 'nothing else'}), not {sorted(raw)}"
        )
    orders = []
    for power, entries in power_map(where, "orders", raw["orders"], list).items():
        for entry in entries:
            if not isinstance(entry, dict) or len(entry) != 1:
                raise FixtureError(f"{where}: each order is one `text: outcome` pair, not {entry!r}")
            ((text, outcome),) = entry.items()
            if outcome not in OUTCOMES:
                raise FixtureError(f"{where}: {text!r} expects {outcome!r}, not one of {', '.join(OUTCOMES)}")
            orders.append(ExpectedOrder(power, str(text), outcome))
    dislodged = raw.get("dislodged", [])
    if not isinstance(dislodged, list) or not all(isinstance(place, str) for place in dislodged):
        raise FixtureError(f"{where}: dislodged must be a list of provinces")
    units_after = raw.get("units_after")
    return Phase(
        kind=kind,
        units=text_lists(where, "units", raw.get("units", {})),
        orders=tuple(orders),
        dislodged=tuple(dislodged),
        centres=text_lists(where, "centres", raw.get("centres", {})),
        units_after=None if units_after is None else text_lists(where, "units_after", units_after),
    )


def power_map(where: str, key: str, value: object, item_type: type) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(items, item_type) for items in value.values()):
        raise FixtureError(f"{where}: {key} maps each power to a list")
    return value


def text_lists(where: str, key: str, value: object) -> dict[str, tuple[str, ...]]:
    lists = power_map(where, key, value, list)
    if not all(isinstance(item, str) for items in lists.values() for item in items):
        raise FixtureError(f"{where}: {key} lists text only")
    return {power: tuple(items) for power, items in lists.items()}
