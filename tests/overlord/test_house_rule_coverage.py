"""Issue 24, scope 3: every contradiction of the manual (spec §8.2, rows 1-35) and every number it leaves to
the GM (spec §9.3) has a decision in the rules data, explained by a house rule.

The index is the rules data's own ``decisions:`` section (``rules/decisions.yaml``): each §8.2 row and each
§9.3 item names the ``rule:`` paths of the house rules that settle it. ``gaps`` reads the whole of it: an
unmapped row, a path no house rule carries, a house rule on no place of the rules data, a number a house
rule names but the data lacks. The last test breaks the data each of those ways and sees ``gaps`` say so.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

import pytest

from resolver.core.rulesdoc import filled_notes
from resolver.engine.ruleset import get_ruleset

# Spec §8.2: the manual's contradictions and gaps, numbered 1 to 35.
CONFLICT_ROWS = set(range(1, 36))
# Spec §9.3 in its own order: what the GM must supply. Its last item, a value for every contradiction of
# §8.2, is the conflicts table itself.
OPEN_NUMBERS = {
    "travel_times": "terrain base travel times per neighbour pair",
    "wages_taxes_entertainment": "population to wages, taxes and entertainment",
    "recruit_supply_and_prices": "recruit supply and price formulas, with floors",
    "market_supply_demand_drift": "NPC market supply, demand and price drift",
    "resources": "resource amounts per terrain and season",
    "population_optimum_migration": "optimum population and migration rates",
    "famine_and_plague": "famine and plague triggers",
    "healing": "healing odds",
    "race_weights_capacities_stats_upkeep": "per-race weights, capacities, stats and upkeep",
    "title_costs": "title costs per location",
    "structure_control_points": "control points from structures",
    "nobility_chance": "nobility success chance",
}
UNFILLED = re.compile(r"\{[^{}]*\}")


@pytest.fixture(scope="module")
def rules() -> dict[str, Any]:
    return copy.deepcopy(get_ruleset("overlord").default_rules())


def names_data(rules: Mapping[str, Any], path: str) -> bool:
    """Whether a dotted path names a place of the rules data (list items by their index, as fill reads)."""
    node: Any = rules
    for key in path.split("."):
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        elif isinstance(node, Mapping) and (key in node or (key.isdigit() and int(key) in node)):
            node = node[key] if key in node else node[int(key)]
        else:
            return False
    return True


def gaps(rules: Mapping[str, Any]) -> list[str]:
    """Everything that keeps a contradiction or an open number from having its explained decision."""
    found: list[str] = []
    decisions = rules.get("decisions") or {}
    conflicts = decisions.get("conflicts") or {}
    open_numbers = decisions.get("open_numbers") or {}
    found += [f"spec 8.2 row {row} has no decision" for row in sorted(CONFLICT_ROWS - set(conflicts))]
    found += [f"decisions.conflicts.{row} is no row of spec 8.2" for row in set(conflicts) - CONFLICT_ROWS]
    found += [f"spec 9.3 item {item} has no decision" for item in OPEN_NUMBERS if item not in open_numbers]
    stray = set(open_numbers) - set(OPEN_NUMBERS)
    found += [f"decisions.open_numbers.{item} is no item of spec 9.3" for item in stray]

    notes = [n for n in rules.get("house_rules") or [] if isinstance(n, Mapping)]
    ruled = {str(n.get("rule")) for n in notes}
    for where, table in (("conflicts", conflicts), ("open_numbers", open_numbers)):
        for key, paths in table.items():
            if not paths:
                found.append(f"decisions.{where}.{key} names no house rule")
            for path in paths or ():
                if path not in ruled:
                    found.append(f"decisions.{where}.{key}: no house rule settles {path}")
    # Row 35 is the list of formulas the manual leaves open, which spec 9.3 lists again item by item.
    itemised = {path for paths in open_numbers.values() for path in paths or ()}
    found += [
        f"row 35's {path} is in no item of spec 9.3"
        for path in sorted(set(conflicts.get(35) or ()) - itemised)
    ]

    for note in notes:
        if not names_data(rules, str(note.get("rule"))):
            found.append(f"the house rule on {note.get('rule')} names no place of the rules data")
    for note in filled_notes(rules):
        for unfilled in UNFILLED.findall(note["text"]):
            found.append(f"the house rule on {note['rule']} shows {unfilled}: the rules data lacks it")
    return found


def test_every_contradiction_and_open_number_has_its_house_rule(rules: dict[str, Any]) -> None:
    assert gaps(rules) == []
    assert set(rules["decisions"]["conflicts"]) == CONFLICT_ROWS
    assert list(rules["decisions"]["open_numbers"]) == list(OPEN_NUMBERS)  # in the spec's order


def test_the_decisions_made_here_read_their_numbers_from_the_data(rules: dict[str, Any]) -> None:
    notes = {n["rule"]: n["text"] for n in filled_notes(rules)}
    changed = copy.deepcopy(rules)
    changed["travel"]["ride_cut"] = 4  # a GM's house rule reaches the note's words
    changed_notes = {n["rule"]: n["text"] for n in filled_notes(changed)}
    assert "less one part in 4 of them" in changed_notes["travel.ride_cut"]
    assert "less one part in 3 of them, rounded down (7 days become 5" in notes["travel.ride_cut"]
    assert "(5 days to its first level, 100 coins a day)" in notes["skills.nobl"]
    assert "days 15 and 30 of the month" in notes["markets.days"]
    assert "between 85 % and 105 % of it" in notes["places.optimum"]
    assert "the first in the order fly, ride, sail, walk is used" in notes["movement.preference"]


def test_the_decisions_index_is_not_a_rule_players_read(rules: dict[str, Any]) -> None:
    from resolver.rulesets.overlord import rulesdoc

    shown = [key for section in rulesdoc.sections(rules) for key in section.keys]
    assert "decisions" not in shown and "travel" in shown


def _drop_house_rule(rules: dict[str, Any], path: str) -> None:
    rules["house_rules"] = [n for n in rules["house_rules"] if n["rule"] != path]


def _empty_row(rules: dict[str, Any]) -> None:
    rules["decisions"]["conflicts"][14] = []


def _stale_house_rule(rules: dict[str, Any]) -> None:
    rules["house_rules"].append({"rule": "world.base_side", "text": "A map."})


# Each way of breaking the data, and the words of the gap it must leave.
BREAKS: dict[str, tuple[Any, str]] = {
    "row": (lambda r: r["decisions"]["conflicts"].pop(27), "spec 8.2 row 27 has no decision"),
    "item": (
        lambda r: r["decisions"]["open_numbers"].pop("healing"),
        "spec 9.3 item healing has no decision",
    ),
    "house rule": (
        lambda r: _drop_house_rule(r, "travel.ride_cut"),
        "decisions.conflicts.29: no house rule settles travel.ride_cut",
    ),
    "empty row": (_empty_row, "decisions.conflicts.14 names no house rule"),
    "stale path": (_stale_house_rule, "the house rule on world.base_side names no place"),
    "missing number": (
        lambda r: r["markets"].pop("days"),
        "the house rule on markets.days shows {markets.days.0}",
    ),
    "row 35": (
        lambda r: r["decisions"]["conflicts"][35].append("items.swrd"),
        "row 35's items.swrd is in no item of spec 9.3",
    ),
}


@pytest.mark.parametrize("kind", BREAKS)
def test_the_audit_finds_each_kind_of_gap(rules: dict[str, Any], kind: str) -> None:
    break_it, expected = BREAKS[kind]
    broken = copy.deepcopy(rules)
    break_it(broken)
    assert any(expected in gap for gap in gaps(broken)), gaps(broken)
