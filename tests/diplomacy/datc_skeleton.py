"""Draws the skeleton of the DATC fixtures from the DATC document itself, and audits the fixtures against it.

The fixtures under ``tests/diplomacy/datc/`` hold three kinds of fact: the position and the orders of each
case, which come from the ``<pre>`` blocks of the DATC's chapter 6 and are copied mechanically here (the
DATC's licence allows copying the test cases), and the expected outcome, title and preference of each
order and case, which were written by hand from the case's text and the author's preferences (chapter 4).
This script only ever produces the mechanical part:

    python tests/diplomacy/datc_skeleton.py skeleton DATC_v3_0.html   # writes a skeleton for each case
                                                                       # with no fixture yet (outcomes TODO)
    python tests/diplomacy/datc_skeleton.py audit DATC_v3_0.html      # every fixture's orders, phase by
                                                                       # phase, against the document's, and
                                                                       # a note for each position set by hand

It never overwrites a fixture: the hand-written outcomes are the valuable part. The audit is how a reader
checks that no order was lost or altered on the way from the document into a fixture. The document is not
part of the repository (the project keeps its own words); pass the path of a copy (version 3.0).
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

FIXTURES = Path(__file__).parent / "datc"
POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
CASE_ANCHOR = re.compile(r'<a name="(6\.[A-J]\.\d+)">')
BLOCK = re.compile(r"<pre>(.*?)</pre>", re.DOTALL)
# Where a unit's location ends in an order: the first verb or move arrow after it.
UNIT_END = re.compile(r"\s+(?:-(?=\s)|(?:Supports|Convoys|Hold|Holds|Disband)\b)|$")
ADJUSTMENT_WORDS = ("Build ", "Remove ", "Waive")


@dataclass
class Block:
    """One ``<pre>`` block of a case: the orders of one phase, power by power, as written."""

    orders: dict[str, list[str]] = field(default_factory=dict)
    # Some cases of 6.J describe the position in sentences, with no orders at all ("Russia has to remove
    # one."): those lines are kept here, for the reader of a skeleton to turn into units by hand.
    description: list[str] = field(default_factory=list)


@dataclass
class Case:
    case: str
    blocks: list[Block]


def case_id_key(case: str) -> tuple[str, int]:
    """6.A.2 sorts before 6.A.10."""
    _, section, number = case.split(".")
    return section, int(number)


def read_document(path: Path) -> list[Case]:
    """Every case of chapter 6, in the document's order, with the orders of each of its blocks."""
    text = path.read_text(encoding="utf-8")
    chapter = text[text.index('<a name="6">') :]
    pieces = CASE_ANCHOR.split(chapter)
    cases = []
    for index in range(1, len(pieces), 2):
        blocks = [read_block(raw) for raw in BLOCK.findall(pieces[index + 1])]
        cases.append(Case(pieces[index], blocks))
    return cases


def read_block(raw: str) -> Block:
    """A block is a power's name on a line of its own (the colon is sometimes missing) then its orders."""
    block = Block()
    power = None
    for line in html.unescape(re.sub(r"<[^>]+>", "", raw)).splitlines():
        line = line.strip()
        if not line:
            continue
        if line.rstrip(":").strip().lower() in POWERS:
            power = line.rstrip(":").strip().lower()
            block.orders.setdefault(power, [])
            continue
        if power is None:
            block.description.append(line)
        else:
            block.orders[power].append(line)
    return block


def unit_of(order: str) -> str | None:
    """The unit an order is given to, as the order writes it ("F Spain(nc)"), or None for a build or a
    waive, whose unit is not on the board."""
    if order.startswith(ADJUSTMENT_WORDS):
        return None
    match = UNIT_END.search(order)
    return order[: match.start()].strip()


def phase_kind(block: Block, position: int) -> str:
    orders = [order for orders in block.orders.values() for order in orders]
    if block.description or any(order.startswith(ADJUSTMENT_WORDS) for order in orders):
        return "adjustment"
    # A second block is the retreats after the first block's movement.
    return "retreat" if position > 0 else "movement"


def skeleton(case: Case) -> str:
    """The fixture's text with the mechanical part filled in and every hand-written part marked TODO."""
    lines = [f"case: {case.case}", "title: TODO", 'preference: ""', "phases:"]
    for position, block in enumerate(case.blocks):
        kind = phase_kind(block, position)
        lines.append(f"  - phase: {kind}")
        lines.extend(f"    # {sentence}" for sentence in block.description)
        if kind != "retreat":
            lines.append("    units:")
            for power, orders in block.orders.items():
                units = [unit for unit in map(unit_of, orders) if unit]
                lines.append(f"      {power}: [{', '.join(units)}]")
        lines.append("    orders:")
        for power, orders in block.orders.items():
            lines.append(f"      {power}:")
            lines.extend(f"        - {order}: TODO" for order in orders)
        if kind == "adjustment":
            lines.append("    centres: {}  # TODO")
            lines.append("    units_after: {}  # TODO")
        else:
            lines.append("    dislodged: []")
    return "\n".join(lines) + "\n"


def fixture_orders(path: Path) -> list[dict[str, list[str]]]:
    """The orders of a fixture, phase by phase, as the texts it holds (without outcomes)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    phases = []
    for phase in data["phases"]:
        orders = {}
        for power, entries in (phase.get("orders") or {}).items():
            orders[power] = [next(iter(entry)) for entry in entries]
        phases.append(orders)
    return phases


def audit(cases: list[Case], directory: Path = FIXTURES) -> list[str]:
    """The differences between the fixtures' orders and the document's, one line each; empty if none."""
    problems = []
    for case in cases:
        path = directory / f"{case.case}.yaml"
        if not path.exists():
            problems.append(f"{case.case}: no fixture")
            continue
        expected = [block.orders for block in case.blocks]
        actual = fixture_orders(path)
        # A phase the document gives no block for (a retreat or adjustment it describes in words) may
        # follow the blocks; the blocks themselves must all be there, unchanged and in order.
        for index, orders in enumerate(expected):
            if index >= len(actual):
                problems.append(f"{case.case}: block {index + 1} of the document has no phase")
            elif {power: list(texts) for power, texts in actual[index].items()} != orders:
                problems.append(f"{case.case}: phase {index + 1} orders differ from the document's")
    known = {case.case for case in cases}
    problems.extend(
        f"{path.stem}: not a case of the document"
        for path in directory.glob("*.yaml")
        if path.stem not in known
    )
    return problems


def positions_set_by_hand(cases: list[Case], directory: Path = FIXTURES) -> list[str]:
    """The movement phases whose units are not simply the units the orders name: the document's text puts
    a unit elsewhere (a fleet on the other coast, a unit of another power) or misspells a province. Not
    differences, but the places a reader auditing the fixtures should look at by hand."""
    notes = []
    for case in cases:
        path = directory / f"{case.case}.yaml"
        if not path.exists():
            continue
        phases = yaml.safe_load(path.read_text(encoding="utf-8"))["phases"]
        for index, block in enumerate(case.blocks):
            if index >= len(phases) or phases[index]["phase"] != "movement":
                continue
            derived = {
                power: [unit for unit in map(unit_of, orders) if unit]
                for power, orders in block.orders.items()
            }
            written = {power: list(units) for power, units in (phases[index].get("units") or {}).items()}
            if {power: units for power, units in written.items() if units} != derived:
                notes.append(f"{case.case}: phase {index + 1} position set by hand: {written}")
    return notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("command", choices=("skeleton", "audit"))
    parser.add_argument("document", type=Path, help="the DATC, version 3.0, as HTML")
    parser.add_argument(
        "--fixtures", type=Path, default=FIXTURES, help="the fixtures' directory (default: %(default)s)"
    )
    arguments = parser.parse_args(argv)
    cases = read_document(arguments.document)
    directory = arguments.fixtures
    if arguments.command == "skeleton":
        directory.mkdir(exist_ok=True)
        written = 0
        for case in cases:
            path = directory / f"{case.case}.yaml"
            if not path.exists():
                path.write_text(skeleton(case), encoding="utf-8")
                written += 1
        print(f"{len(cases)} cases in the document; {written} skeletons written")
        return 0
    for note in positions_set_by_hand(cases, directory):
        print(f"note: {note}")
    problems = audit(cases, directory)
    for problem in problems:
        print(problem)
    print(f"{len(cases)} cases in the document; {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
