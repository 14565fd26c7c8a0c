"""The nations rules in words, for the site's rules pages (``Ruleset.rules_sections``).

Every number comes from the campaign's rules data (house rules included), so the pages
always say what the resolver does. The prose is this project's own summary of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.checks import Check
from ...core.rulesdoc import RulesSection, RulesTable, check_modifiers, check_table, fill
from ...core.words import number_word, series
from . import model as m

PLACES = {"named_place": "at a named place"}


def introduction(rules: Mapping[str, Any]) -> str:
    return (
        f"Nations on a square grid spend {number_word(rules['actions']['per_turn'])} action points a turn to "
        "research, recruit, found and upgrade settlements; armies march in posting order, fight with "
        f"d{rules['combat']['die']}s and besiege settlements."
    )


def sections(rules: Mapping[str, Any]) -> list[RulesSection]:
    return [
        _actions(rules),
        _settlements(rules),
        _units(rules),
        _movement(rules),
        _combat(rules),
        _sieges(rules),
        _exploration(rules),
        _advancements(rules),
        _raids_and_roads(rules),
        _agreements(rules),
        _start(rules),
    ]


def _actions(r: Mapping[str, Any]) -> RulesSection:
    a, b, adv, roads = r["actions"], r["build"], r["advancement"], r["roads"]
    classes = r["unit_classes"]
    rows: list[tuple[Any, ...]] = [
        ("Found a settlement", f"{b['actions']}", f"{b['resources']}", "may be spread over several turns"),
        (
            "Advancement, level L",
            f"L × {adv['actions_per_level']}",
            f"L × {adv['resources_per_level']}",
            f"up to level {adv['max_level']}",
        ),
        ("Upgrade a settlement", "see the upgrade table", "see the upgrade table", "one level at a time"),
    ]
    for name, c in classes.items():
        if c.get("recruitable"):
            turns = int(c.get("turns", 1))
            rows.append(
                (
                    f"Recruit {name}",
                    f"1 per turn for {turns} turn{'s' if turns != 1 else ''}",
                    f"{c['resources']}",
                    "paid when training starts",
                )
            )
    rows += [
        ("Fast movement", f"{a['fast_movement']}", "0", "doubles an army's distance this turn"),
        ("Build a road", "0", f"{roads['build_cost']}", "per tile"),
        ("Destroy a road", "0", f"{roads['destroy_cost']}", "per tile"),
        ("Move, attack, siege, defend, split, merge, explore, maraud", "0", "0", ""),
    ]
    return RulesSection(
        "Action points and costs",
        (
            f"Each turn a nation has **{a['per_turn']} action points**. Points that are not spent are lost. "
            "Long work (a settlement, an upgrade, an advancement, an elite unit) is a project: the nation "
            "puts points into it turn after turn, and it is finished once it has all it needs.",
            RulesTable("What things cost", ("Order", "Action points", "Resources", "Note"), tuple(rows)),
        ),
        keys=("actions", "build", "advancement", "upgrade", "roads", "recruit"),
    )


def _settlements(r: Mapping[str, Any]) -> RulesSection:
    blocks: list[str | RulesTable] = [
        "A settlement yields resources and population every turn it is not besieged. Its level also "
        "sets how many attackers it takes to assault it, and the defence bonus its owner's units get "
        f"inside it. A nation may found a settlement of type {series(list(r['build']['types']), 'or')} "
        "where one of its armies stands, and a capital only while it has none. Settlements must be at "
        f"least {r['build']['min_distance']} tiles apart.",
    ]
    rows = []
    for name, s in r["settlements"].items():
        for level, stats in s["levels"].items():
            rows.append(
                (
                    name,
                    level,
                    stats["resources"],
                    stats["population"],
                    stats["attackers"],
                    f"+{stats['defence']}" if stats["defence"] else "0",
                )
            )
    blocks.append(
        RulesTable(
            "Settlement types by level",
            ("Type", "Level", "Resources", "Population", "Attackers needed", "Defence bonus"),
            tuple(rows),
        )
    )
    falls = [name for name, s in r["settlements"].items() if s.get("falls_at_once")]
    if falls:
        blocks.append(f"An undefended {series(falls, 'or')} settlement falls as soon as it is attacked.")
    levels = range(2, max(int(s["max_level"]) for s in r["settlements"].values()) + 1)
    upgrade_rows = []
    for level in levels:
        actions, upfront, per_action = m.upgrade_cost(r, level)
        upgrade_rows.append((level, actions, upfront + per_action * actions))
    blocks.append(
        RulesTable(
            "Upgrading a settlement to a level",
            ("New level", "Action points", "Resources"),
            tuple(upgrade_rows),
        )
    )
    return RulesSection("Settlements", tuple(blocks), keys=("settlements", "build", "upgrade"))


def _units(r: Mapping[str, Any]) -> RulesSection:
    rows = []
    for name, c in r["unit_classes"].items():
        base = c["base"]
        rows.append(
            (
                name,
                f"{c['resources']} resources, {c.get('turns', 1)} turn(s)"
                if c.get("recruitable")
                else "not recruited",
                f"{base['attack']}/{base['defence']}",
                base["hp"],
                base["attacks"],
                base["move"],
                c.get("traits", 0),
                c.get("stat_points", 0),
            )
        )
    costs = r["recruit"]["stat_point_cost"]
    blocks: list[str | RulesTable] = [
        "Armies are stacks of units. Every unit has an attack and a defence value, hit points (HP), a "
        "number of attacks per round and a movement allowance. Better classes get traits and stat points "
        "to spend when they are recruited.",
        RulesTable(
            "Unit classes",
            ("Class", "Cost", "Attack/defence", "HP", "Attacks", "Move", "Traits", "Stat points"),
            tuple(rows),
        ),
        RulesTable(
            "Stat points per +1", ("Stat", "Points"), tuple((stat, cost) for stat, cost in costs.items())
        ),
    ]
    limits = [f"{name}: at most {c['limit']}" for name, c in r["unit_classes"].items() if "limit" in c]
    if limits:
        blocks.append("Limits per nation: " + "; ".join(limits) + ".")
    traits = r.get("traits") or {}
    if traits:
        blocks.append(
            RulesTable(
                "Traits with an effect",
                ("Trait", "Effect"),
                tuple((name, fill(t.get("summary", ""), r)) for name, t in traits.items()),
            )
        )
        blocks.append("Any other trait is flavour: it is kept as written and has no effect in the rules.")
    return RulesSection("Units", tuple(blocks), keys=("unit_classes", "recruit", "traits"))


def _movement(r: Mapping[str, Any]) -> RulesSection:
    mv = r["movement"]
    text = [
        "An army moves one tile per movement point, in any of the eight directions, at the pace of its "
        "slowest unit. Fast movement doubles the distance for one turn at the cost of action points. "
        "Orders are carried out in posting order, so the first nation to post moves first."
    ]
    if mv.get("impassable"):
        text.append(f"Armies cannot enter {series(list(mv['impassable']), 'or')}.")
    if mv.get("stop_at_foreigners"):
        text.append("A move ends on entering a tile that holds another nation's army or settlement.")
    return RulesSection("Movement", (" ".join(text),), keys=("movement",))


def _combat(r: Mapping[str, Any]) -> RulesSection:
    c = r["combat"]
    die = int(c["die"])
    steps = [
        f"Each round, every unit of both sides rolls a d{die} for each of its attacks. A roll of "
        f"**{c['base_target']} or more hits**, adjusted by the attacker's attack minus the target's "
        f"defence: each point of attack lowers the number needed by one, each point of defence raises it.",
        f"A natural {c['always_hits']} always hits and a natural {c['always_misses']} always misses.",
        "Every shot of a volley is aimed before the volley, then the hits are applied; a unit falls when "
        f"it has taken as many hits as it has HP. Hits fall on the enemy's {series(list(c['target_order']))}"
        ", in that order, and on the lowest defence first within a class.",
        f"A battle lasts until one side is destroyed, or at most {c['max_rounds']} rounds; then both sides "
        "keep the tile. There are no retreats.",
        f"An army that holds and defends gets +{c['defend_stance_bonus']} defence, if it neither moves nor "
        "stands in a settlement. Units in their own settlement add its defence bonus when attacked there.",
    ]
    first = _first_strikes(r.get("traits") or {})
    if first:
        steps.append(
            "Some units fire before the rest of the round: "
            + series(first, "then")
            + ". Each of these fires as a volley of its own, in that order, before everyone else; units of "
            "the same volley fire at the same time, and a unit killed by an earlier volley does not fire."
        )
    blocks: list[str | RulesTable] = [
        "A battle starts when an army attacks another nation's armies on its own tile. "
        "The procedure, step by step:",
        "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1)),
    ]
    targets = []
    for diff in range(-3, 4):
        need = int(c["base_target"]) - diff
        need = max(int(c["always_misses"]) + 1, min(int(c["always_hits"]), need))
        chance = (die - need + 1) * 100 // die
        targets.append((f"{diff:+d}" if diff else "0", f"{need}+", f"{chance}%"))
    blocks.append(
        RulesTable("Number needed to hit", ("Attack − defence", f"d{die} roll", "Chance"), tuple(targets))
    )
    return RulesSection("Combat", tuple(blocks), keys=("combat",))


def _first_strikes(traits: Mapping[str, Any]) -> list[str]:
    """The first-strike volleys in firing order, in words, from the traits' ``strikes_first`` data."""
    volleys = sorted(
        (int(t["strikes_first"]["volley"]), name, t) for name, t in traits.items() if t.get("strikes_first")
    )
    words = []
    for _, name, trait in volleys:
        when = " in the first round" if trait["strikes_first"].get("first_round_only") else " in every round"
        bonus = f", with +{trait['first_round_attack']} attack" if trait.get("first_round_attack") else ""
        words.append(f"units with the trait **{name}**{when}{bonus}")
    return words


def _sieges(r: Mapping[str, Any]) -> RulesSection:
    s = r["siege"]
    text = (
        f"An army of at least {s['min_units']} units may lay siege to a settlement on its tile. Every turn "
        f"the siege holds, an undefended settlement needs {s['attackers_reduction']} fewer attackers to be "
        f"taken, and a defended one loses {s['defence_reduction']} point of its defence bonus. The siege "
        "is lifted as soon as the besieging army leaves."
    )
    falls = (
        "When a settlement falls, the attacker chooses: **capture** it (it keeps its level), **raid** it "
        f"(the attacker gains level × d{s['raid_die']} resources) or **raze** it (the owner loses "
        f"level × d{s['raze_die']} population and a ruin remains)."
    )
    extra = []
    if s.get("blocks_income"):
        extra.append("A besieged settlement yields no income.")
    if s.get("captured_capital_becomes"):
        extra.append(
            f"A captured capital becomes a {s['captured_capital_becomes']} settlement when the captor "
            "already has a capital."
        )
    return RulesSection("Sieges and the fall of settlements", (text, falls, " ".join(extra)), keys=("siege",))


def _exploration(r: Mapping[str, Any]) -> RulesSection:
    e, check = r["exploration"], Check.from_rules(r, "exploration")
    text = (
        f"An army may explore the tile it stands on: {e['per_turn']} exploration per nation per turn, "
        f"rolling {check.dice_text()} on the table below, {check_modifiers(check, PLACES)}."
    )
    if e.get("once_per_tile"):
        text += " A nation explores each tile only once."
    table = check_table(check, "Exploration table", {"total": "Roll", "result": "Find", "dice": "Amount"})
    return RulesSection("Exploration", (text, table), keys=("exploration", "checks.exploration"))


def _advancements(r: Mapping[str, Any]) -> RulesSection:
    rows = []
    for name, adv in r["advancements"].items():
        grants = "; ".join(
            f"level {level}: " + ", ".join(_grant(k, v) for k, v in g.items())
            for level, g in adv.get("grants", {}).items()
        )
        rows.append((name, adv.get("summary", ""), grants))
    return RulesSection(
        "Advancements",
        (
            "Advancements are researched level by level; the grant of the current level replaces the "
            "lower ones, and income bonuses apply to each of the nation's settlements. An advancement "
            "that is not in the catalogue may still be researched: the GM rules on what it grants.",
            RulesTable("The catalogue", ("Advancement", "What it is", "Grants"), tuple(rows)),
        ),
        keys=("advancements", "advancement"),
    )


def _grant(key: str, value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"+{n} {stock} income" for stock, n in value.items())
    return f"+{value} {key.replace('_', ' ')}"


def _raids_and_roads(r: Mapping[str, Any]) -> RulesSection:
    mr, rd = r["marauding"], r["roads"]
    return RulesSection(
        "Marauding and roads",
        (
            f"An army within {mr['range']} tile of a foreign settlement that is not besieged may maraud "
            f"it: the marauders carry off {mr['resources']} of the owner's resources and kill "
            f"{mr['population']} of its population. Each settlement can be marauded once a turn.",
            f"Roads cost {rd['build_cost']} resources per tile to build and {rd['destroy_cost']} to destroy, "
            f"on a tile within {rd['reach']} of one of the nation's armies.",
        ),
        keys=("marauding", "roads"),
    )


def _agreements(r: Mapping[str, Any]) -> RulesSection:
    ag = r["agreements"]
    met = "Nations that have shared a tile at least once" if ag.get("requires_contact") else "Any two nations"
    cost = int(ag["actions"])
    return RulesSection(
        "Diplomacy and agreements",
        (
            f"{met} may make agreements. Each side writes the same agreement as an order "
            "(action `agree`) from its own side, naming the partner, what it gives and what it gets; the "
            "agreement is made only when the two orders mirror each other in the same turn, and then "
            f"everyone hears of it. Agreeing costs {cost} action point{'s' if cost != 1 else ''}.",
            "A **trade** sends resources both ways every turn, for up to "
            f"{ag['trade_max_turns']} turns, along a route of road tiles next to each other; the goods "
            "travel only while every tile of the route has a road. A **payment** hands resources over "
            "once, for mercenaries or anything else agreed. An **alliance** is recorded and announced. "
            "Either side ends a trade or an alliance on its own.",
            f"An army of a third nation that marauds from a road tile of a trade route carries off "
            f"{ag['marauder_share_percent']}% of each side's goods that turn (rounded down).",
        ),
        keys=("agreements",),
    )


def _start(r: Mapping[str, Any]) -> RulesSection:
    s = r["start"]
    army = ", ".join(
        f"{u.get('count', 1)} × {u['name']} ({u['class']}{', ' + u['trait'] if u.get('trait') else ''})"
        for u in s["army"]
    )
    w = r["world"]
    return RulesSection(
        "The start of the game",
        (
            f"Each nation starts with a level {s['capital_level']} capital, {s['resources']} resources, "
            f"{s['population']} population and one army: {army}. Capitals are placed about "
            f"{s['spacing']} tiles apart.",
            f"The map is a {w['kind']} grid that grows with the number of nations ({w['width_per_faction']} "
            f"tiles of width per nation, at least {w['min_size']} tiles a side).",
        ),
        keys=("start", "world"),
    )
