"""The factions rules in words, for the site's rules pages (``Ruleset.rules_sections``).

Every number and every table comes from the campaign's rules data (house rules included), and the force
table is computed by the same code the resolver uses, so the pages cannot drift from the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.checks import Check
from ...core.rulesdoc import RulesSection, RulesTable, check_table, words
from ...core.words import number_word
from .catalogue import catalogue
from .model import BANDS
from .tasks import best_force, combination_bonus

Rules = Mapping[str, Any]
# The seed's own combinations: (the levels that combine, and the lieutenant's level if one leads).
EXAMPLES = (
    ([1, 2], None), ([2, 3], None), ([3, 4], None), ([1, 3], None), ([1, 1, 3], None), ([1, 1, 2], None),
    ([1, 2, 3], None), ([3, 3, 3], 3), ([2, 2, 3], 3), ([1, 1], 3),
)  # fmt: skip


def _cost(cost: Mapping[str, Any], *more: str) -> str:
    parts = [f"{n} {k}" for k, n in cost.items()] + list(more)
    return ", ".join(parts) or "—"


def introduction(rules: Rules) -> str:
    task = Check.from_rules(rules, "task")
    return (
        "Guilds, cults and noble houses compete for a city: lieutenants act once a turn with units at their "
        f"side, {task.dice_text()} decide in {number_word(len(task.table))} bands, forces "
        "combine by doubling, and influence with the city's powers, stealth and upkeep in capital and reach "
        "shape the rest."
    )


def sections(rules: Rules) -> list[RulesSection]:
    return [_tasks(rules), _forces(rules), _catalogue(rules), _stealth(rules), _npcs(rules), _assets(rules),
            _locations(rules), _upkeep(rules), _start(rules)]  # fmt: skip


def _tasks(r: Rules) -> RulesSection:
    task = Check.from_rules(r, "task")
    return RulesSection(
        "Task resolution",
        (
            f"An action rolls **{task.dice_text()}** plus a modifier: (the lieutenant's level + rating) − "
            "(the opposition's level + rating). Units aiding the lieutenant raise its level (see Forces). A "
            "**straight check** has no level and no opposition: the dice plus the rating alone. Custom "
            "modifiers follow: the GM's ruling on a described plan, an earlier action at the same target, "
            f"items, influence spent, alliances, and −{r['stealth']['penalty']} for acting stealthily. "
            "Every modifier adds up, and each roll lists them in the reports and the chronicle.",
            check_table(task, "Results"),
        ),
        keys=("checks.task", "custom_modifiers", "items"),
    )


def _forces(r: Rules) -> RulesSection:
    bonus_rows = tuple((n, f"+{combination_bonus(r, n)}") for n in range(2, 9))
    example_rows = []
    for levels, lead in EXAMPLES:
        group = best_force(r, levels, lead)
        shown = " + ".join(map(str, levels)) + (f" with a level {lead} lieutenant" if lead else "")
        example_rows.append((shown, group.level, group.working()))
    f = r["forces"]
    return RulesSection(
        "Forces",
        (
            f"Assets acting together count as the lowest of them plus a bonus: +{f['per_doubling']} for each "
            f"doubling of their number, and +{f['between_doublings']} more halfway to the next doubling. "
            f"They combine only within {f['spread']} level of each other; lower units may first combine into "
            "a higher effective level and then join higher ones. A lieutenant commands at most its "
            "faction's **Cohesion** in units, and only units with the competency the task needs can aid it.",
            RulesTable("Bonus by number of assets", ("Assets", "Level increase"), bonus_rows),
            RulesTable("Combinations", ("Assets", "Total level", "How"), tuple(example_rows)),
        ),
        keys=("forces",),
    )


def _catalogue(r: Rules) -> RulesSection:
    rows = []
    for a in catalogue(r).values():
        rows.append(
            (
                a.title,
                a.rolled_as(),
                _cost(a.cost, *(["the price"] if a.data.get("price") else [])),
                a.stealth or "—",
                *(a.effects[band] for band in BANDS),
            )
        )
    return RulesSection(
        "The action catalogue",
        (
            "Each lieutenant takes one action a turn, in the locale where it stands and with units from "
            "that locale. Actions are carried out in the order listed, every faction's first action before "
            "any second one. An action that relies on what an earlier one gains needs a backup. Where an "
            "action may cost more, the order says beforehand whether to pay.",
            RulesTable("Actions", ("Action", "Roll", "Cost", "Stealth", *map(words, BANDS)), tuple(rows)),
        ),
        keys=("catalogue", "move_minion"),
    )


def _stealth(r: Rules) -> RulesSection:
    d = r["discretion"]
    return RulesSection(
        "Stealth and discretion",
        (
            "An action in the stealth lists may be attempted stealthily: a straight "
            f"{r['stealth']['rating']} check first, and −{r['stealth']['penalty']} to the task whatever it "
            "shows. If the check succeeds, an unnoticed action is seen by nobody else, and an unidentified "
            "one is seen without anyone knowing who did it. Conceal is always unnoticed.",
            "Ally, Claim, Influence and Rally deal with an NPC faction. The other factions with influence "
            f"over it learn of the dealing unless you pay {d['factions_with_influence']} influence; everyone "
            f"else learns unless you pay {d['everyone_else']}. Where you have no influence, each price is "
            f"{d['without_influence']} higher and paid in {d['fallback_currency']}. Acting stealthily "
            "replaces paying.",
        ),
        keys=("stealth", "discretion", "influence"),
    )


def _npcs(r: Rules) -> RulesSection:
    rows = tuple(
        (n["name"], n["level"], ", ".join(f"{k} {v:+d}" for k, v in n["ratings"].items()), n["holdings"])
        for n in r["npc_factions"].values()
    )
    i = r["influence"]
    return RulesSection(
        "NPC factions and influence",
        (
            "The city's powers hold locations and defend them with their level and rating. Influence with "
            f"them is gained by Influence, spent for +{i['bonus_per_point']} a point (up to "
            f"{i['max_spend']}) on actions involving them, and pays for Ally, Claim and Rally. From "
            f"{i['admits_at']} influence, or as an ally, their locations let your minions in; allies get "
            f"+{i['ally_bonus']} on actions involving them.",
            RulesTable("NPC factions", ("Name", "Level", "Ratings", "Holdings"), rows),
        ),
        keys=("npc_factions",),
    )


def _assets(r: Rules) -> RulesSection:
    rows = tuple(
        (
            t["name"],
            t["kind"],
            t.get("level", "—") if t["kind"] != "lieutenant" else "by lieutenant",
            ", ".join(t.get("competencies", [])) or "—",
            t.get("price", "—"),
            _cost(t.get("income", {})),
            _cost(t.get("upkeep", {})),
        )
        for t in r["asset_types"].values()
    )
    return RulesSection(
        "Assets",
        (
            RulesTable(
                "Asset types", ("Asset", "Kind", "Level", "Competencies", "Price", "Income", "Upkeep"), rows
            ),
        ),
        keys=("asset_types", "ratings"),
    )


def _locations(r: Rules) -> RulesSection:
    rows = tuple((k["name"], _cost(k.get("income", {}))) for k in r["location_kinds"].values())
    w = r["world"]
    return RulesSection(
        "The city",
        (
            f"The city is a map of locales, {w['locales_per_faction']} per faction and at least "
            f"{w['min_locales']}, each with {w['locations_per_locale']} locations. A location is public, "
            "held by an NPC faction, or held by a faction, which collects its income. Move Minion moves up "
            f"to {r['move_minion']['range']} locale away.",
            RulesTable("Locations and what they pay their holder", ("Location", "Income a turn"), rows),
        ),
        keys=("world", "location_kinds"),
    )


def _upkeep(r: Rules) -> RulesSection:
    u = r["upkeep"]
    return RulesSection(
        "Upkeep",
        (
            f"At the end of the turn capital pays for {', then '.join(u['capital_order'])} assets, higher "
            "levels and older assets first; the assets left unpaid leave. If reach cannot pay for what "
            f"remains, assets leave ({', then '.join(u['reach_leave_order'])}, lowest level and newest "
            "first) until it can, unless the GM named others with a ruling.",
        ),
        keys=("upkeep",),
    )


def _start(r: Rules) -> RulesSection:
    s = r["start"]
    rows = tuple(
        (
            a["title"],
            r["npc_factions"][a["patron"]]["name"],
            ", ".join(f"level {lt['level']}" for lt in a["lieutenants"]),
            ", ".join(r["asset_types"][t]["name"] for t in [*a["units"], *a["statics"]]),
        )
        for a in s["archetypes"]
    )
    return RulesSection(
        "Starting factions",
        (
            f"Every faction starts with {s['capital']} capital, {s['reach']} reach, Cohesion {s['cohesion']} "
            f"and {s['patron_influence']} influence with its patron, all at a home location it holds.",
            RulesTable("Archetypes, given in turn", ("Archetype", "Patron", "Lieutenants", "Assets"), rows),
        ),
        keys=("start",),
    )
