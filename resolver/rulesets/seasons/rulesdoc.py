"""The seasons rules in words, for the site's rules pages (``Ruleset.rules_sections``).

Every block of rules data is shown as the generic renderer shows it, except the attribute effects,
which get a table of their own: one row per effect of a Marshal's attribute, saying which check it
changes, by how much and when. Every value comes from the campaign's rules data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.rulesdoc import RulesSection, RulesTable, generic_sections, words

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
    own = {("attribute_effects",): attribute_effects, ("units",): unit_types}
    return [
        own[section.keys](rules) if section.keys in own else section for section in generic_sections(rules)
    ]


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
                    words(attribute),
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
