"""The seasons rules in words, for the site's rules pages (``Ruleset.rules_sections``).

Every block of rules data is shown as the generic renderer shows it, except the attribute effects,
which get a table of their own: one row per effect of a Marshal's attribute, saying which check it
changes, by how much and when. Every value comes from the campaign's rules data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.checks import Check
from ...core.rulesdoc import RulesSection, RulesTable, check_table, generic_sections, words
from . import naming

SUMMARY = (
    "Nations on a map of provinces raise armies each spring, invade and fight from spring to fall, "
    "and face the Piorad's raids, desertion and diplomacy every winter; each season has its own steps, "
    "and most tests count the dice showing 1 to 3."
)

# ``when`` in rules.yaml ``attribute_effects``, in words.
WHEN = {
    "": "always",
    "attacking": "when his army attacks",
    "defending": "when his army defends",
    "first_round": "in the first round",
    "half_lost": "once half his army has routed",
    "not_facing_cinc": "when his unit does not face the enemy CinC",
    "greedy_sulk": "the season after a poor loot",
    "test_failed": "when he fails his attribute test before the battle",
    "test_passed": "when he passes his attribute test before the battle",
}


def introduction(rules: Mapping[str, Any]) -> str:
    return SUMMARY


def sections(rules: Mapping[str, Any]) -> list[RulesSection]:
    own = {("attribute_effects",): attribute_effects, ("units",): unit_types, ("result_names",): result_names}
    return [
        own[section.keys](rules)
        if section.keys in own
        else _named_results(rules, section)
        if section.keys and section.keys[0].startswith("checks.")
        else section
        for section in generic_sections(rules)
    ]


# A check table's columns whose values are result ids (the strength table's two-way first row).
_RESULT_COLUMNS = ("result", "low", "high")


def _named_results(rules: Mapping[str, Any], section: RulesSection) -> RulesSection:
    """A check's section as the generic renderer writes it, its results named as the chronicle names
    them (``result_names``): "Eager for war next year, ...", not "War success no attack"."""
    check = Check.from_rules(rules, section.keys[0].removeprefix("checks."))
    cells = {column: lambda value: naming.label(rules, value) for column in _RESULT_COLUMNS}
    table = check_table(check, words(check.id), cells=cells)
    blocks = tuple(table if isinstance(block, RulesTable) else block for block in section.blocks)
    return RulesSection(section.title, blocks, keys=section.keys)


def result_names(rules: Mapping[str, Any]) -> RulesSection:
    prose = (
        "The results of the checks above, and a Marshal's attributes, are named in the tables as the "
        "chronicle names them."
    )
    return RulesSection("Results in words", (prose,), keys=("result_names",))


def unit_types(rules: Mapping[str, Any]) -> RulesSection:
    """One row per unit type: its code (what an order names), name, morale, armour class and skills, each
    skill by the name the dice ledger gives it."""
    names = (rules.get("battle") or {}).get("modifier_names") or {}
    rows = tuple(
        (
            code,
            str(unit["name"]),
            "mounted" if unit.get("mounted") else "foot",
            str(unit.get("morale", "—")),
            str(unit.get("armour", "—")),
            ", ".join(str(names.get(skill, words(str(skill)))) for skill in unit.get("skills") or []) or "—",
        )
        for code, unit in (rules.get("units") or {}).items()
    )
    columns = ("Code", "Unit", "Mounted or foot", "Morale", "Armour class", "Skills")
    table = RulesTable("Unit types", columns, rows)
    prose = "Each unit type's skills add the melee modifiers of the same names (see the battle settings)."
    return RulesSection("Units", (prose, table), keys=("units",))


def attribute_effects(rules: Mapping[str, Any]) -> RulesSection:
    """One row per effect: the attribute, the check it changes, the modifier (in successes or dice, as
    the check reads) and when it holds."""
    rows = []
    for attribute, effects in (rules.get("attribute_effects") or {}).items():
        for effect in effects:
            rows.append(
                (
                    naming.label(rules, attribute),
                    _changes(effect),
                    f"{int(effect['modifier']):+d}" if "modifier" in effect else "—",
                    _when(effect),
                )
            )
    columns = ("Attribute", "Check it changes", "Modifier", "When")
    table = RulesTable("What a Marshal's attributes change", columns, tuple(rows))
    prose = (
        "A Marshal's attributes change the checks below while he commands his army. Charisma, Poor "
        "charisma and Unremarkable change his zone of command instead, and a weapon adds 1 to his War Rating."
    )
    return RulesSection("Attribute effects", (prose, table), keys=("attribute_effects",))


def _changes(effect: Mapping[str, Any]) -> str:
    if "check" not in effect:
        return "whether his army fights as the attacker or the defender"  # Gut feeling
    check = words(str(effect["check"]))
    return f"{check} (the enemy's test)" if effect.get("opponent") else check


def _when(effect: Mapping[str, Any]) -> str:
    when = WHEN.get(str(effect.get("when", "")), words(str(effect.get("when", ""))).lower())
    return f"{when}, his own unit only" if effect.get("unit") == "cinc" else when
