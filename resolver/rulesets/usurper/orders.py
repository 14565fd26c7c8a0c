"""Usurper's orders: one order per action, its initiator in ``by`` and the others taking part in
``assist``, where it happens (``target``) and where they end the week (``end``). The reading of each order
(``reading.py``) serves the checker and the resolver alike.

Where the game's players wrote a table row for every entity, an order file here names each action once:
the initiator and its assistants share one roll, which is how the game merged rows of the same action in
the same grid (rule 3.2.2).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ...core.fields import ActionSpec, Field
from ...core.orders import OrderFile
from ...core.phases import State
from ...core.standing import StandingSection
from ...engine.plans import plan_or_error
from ...engine.ruleset import Game
from . import model as m
from . import outfit
from .reading import UsurperReading

POLICIES = "policies"


def acting_fields(initiator: str) -> tuple[Field, ...]:
    """The fields every action shares: who acts, who helps, where, and where they end the week."""
    return (
        Field("by", "text", f"The {initiator} who starts the action: its id or its name.", required=True),
        Field(
            "assist",
            "list",
            "Leaders and units of yours who take part (ids or names); each adds its bonuses to the one roll.",
        ),
        Field(
            "target",
            "text",
            "The grid where the action happens (default: the initiator's lair).",
            names="places",
        ),
        Field(
            "end", "text", "The grid where they end the week (default: where they started).", names="places"
        ),
        Field("note", "text", "Words for your own report; they change nothing.", multiline=True),
        Field("oracle", "bool", "Spend an Oracle token on this action's roll (from Talonrel's Oracle)."),
    )


def action_specs(rules: Mapping[str, Any]) -> dict[str, ActionSpec]:
    unit, leader, anyone = acting_fields("unit"), acting_fields("leader"), acting_fields("leader or unit")
    specs = [
        ActionSpec(
            "scout",
            "Units search a grid: a settlement, a resource node, a cache or an encounter may be found, and "
            "other usurpers' lairs noticed.",
            unit,
            example={"action": "scout", "by": "u1", "target": "B2"},
        ),
        ActionSpec(
            "harvest",
            "Units work a resource node you know in the target grid; what they gain goes to the lair.",
            unit,
            example={"action": "harvest", "by": "u1", "target": "B2"},
        ),
        ActionSpec(
            "build",
            "Units build new rooms in a lair (Saws needed, Lumber spent), or found a new lair.",
            (
                *unit,
                Field("rooms", "list", "The rooms to build, in the lair at the target: one roll for all."),
                Field("new_lair", "bool", "Found a new lair at the target (two units at least)."),
                Field("equip", "list", "Sets to take from the lair's warehouse and equip first."),
            ),
            example={"action": "build", "by": "u1", "rooms": ["workshop"], "equip": ["saws"]},
        ),
        ActionSpec(
            "renovate",
            "Units renovate a room of a lair (Saws needed, Stone spent).",
            (
                *unit,
                Field("room", "text", "The room (workshop-2: a lair's second one).", required=True),
                Field("renovation", "text", "The renovation to take.", required=True),
                Field("choice", "text", "What a renovation with a choice gives (morale or loyalty...)."),
                Field("times", "int", "How many times to take it this week, each a level up.", minimum=1),
                Field("equip", "list", "Sets to take from the lair's warehouse and equip first."),
            ),
            example={"action": "renovate", "by": "u1", "room": "warehouse", "renovation": "expanded_hold"},
        ),
        ActionSpec(
            "craft",
            "Units in a lair with a workshop make an item (Hammers needed).",
            (
                *unit,
                Field("items", "list", "The items to make (several need Multi-crafting).", required=True),
                Field("workshop", "text", "The workshop to work in (workshop-2 for a lair's second)."),
                Field("hq", "bool", "Pay with high-quality materials (Erebove, Libcite, Mithril)."),
                Field("embed", "bool", "First set a stored set of Hammers into the workshop for good."),
                Field("equip", "list", "Sets to take from the lair's warehouse and equip first."),
            ),
            example={"action": "craft", "by": "u1", "items": ["light_armor"]},
        ),
        ActionSpec(
            "attack",
            "Units attack an encounter you know, or a lair you have found.",
            (*unit, Field("encounter", "text", "The encounter to attack (its id), or leave out for a lair.")),
            example={"action": "attack", "by": "u1", "target": "B2"},
        ),
        ActionSpec(
            "harass",
            "Units waylay travellers on plains for a little gold: one round of fighting, no experience.",
            unit,
            example={"action": "harass", "by": "u1", "target": "B2"},
        ),
        ActionSpec(
            "raid",
            "Units raid a target, falling back at the end of any round that costs them men.",
            (*unit, Field("encounter", "text", "The encounter to raid (its id), or leave out for a lair.")),
            example={"action": "raid", "by": "u1", "target": "B2"},
        ),
        ActionSpec(
            "diplomacy",
            "A leader visits a city or a settlement you know: to win its favour, recruit, buy and sell.",
            (
                *leader,
                Field("bribe", "int", "Gold offered to sway the settlement.", minimum=0),
                Field("buy", "counts", "What to buy there, item by item."),
                Field("sell", "counts", "What to sell there, item by item."),
                Field(
                    "recruit",
                    "list",
                    "Races to recruit a unit of: one of each race a visit, at a city (at a settlement only "
                    "with a Herald, of the races living there), on a Partial Success or better.",
                    items="choice",
                    choices=tuple(
                        sorted(r for r, race in rules["races"].items() if race.get("kind") == "standard")
                    ),
                ),
            ),
            example={"action": "diplomacy", "by": "l1", "target": "B2", "buy": {"foodstuffs": 2}},
        ),
        ActionSpec(
            "train",
            "A leader teaches a skill to those of yours who learn from it in the same lair.",
            (*leader, Field("skill", "text", "The skill taught.", required=True)),
            example={"action": "train", "by": "l1", "skill": "scout"},
        ),
        ActionSpec(
            "learn",
            "A leader or unit learns a skill from a leader who trains it this week.",
            (*anyone, Field("from", "text", "The leader who teaches.", required=True)),
            example={"action": "learn", "by": "u1", "from": "l1"},
        ),
        ActionSpec(
            "rest",
            "A leader (or a unit) stays in its lair and does nothing: how a damaged leader heals.",
            anyone,
            example={"action": "rest", "by": "l1"},
        ),
        ActionSpec(
            "interrogate",
            "A leader or unit questions a prisoner in the Prison of a lair: to learn of a nearby grid, "
            "to win it over as a Unique Unit, or, by torture, to learn where its usurper hides.",
            (
                *anyone,
                Field("prisoner", "text", "The prisoner (its id or name); leave out for the first one held."),
                Field(
                    "intent", "choice", "What for.", required=True, choices=("glean", "convert", "torture")
                ),
                Field(
                    "grid", "text", "Glean Information: the grid near the prison to learn of.", names="places"
                ),
            ),
            example={"action": "interrogate", "by": "l1", "intent": "glean", "grid": "B2"},
        ),
        ActionSpec(
            "explore",
            "A leader looks for an opportunity (an Extra, a Unique Unit, a teacher, a trainer, an architect, "
            "a necromancer), or with 'initiate' starts an Exploration Quest the GM writes.",
            (
                *leader,
                Field(
                    "initiate", "bool", "Start an Exploration Quest instead of looking for an opportunity."
                ),
            ),
            example={"action": "explore", "by": "l1", "target": "B2"},
        ),
        ActionSpec(
            outfit.OUTFIT,
            "In the game's first week only: spend your starting gold on market goods at the market's prices. "
            "Nobody spends an action on it; the goods go to your lair's Warehouse, or at once to whom "
            "'equip' names.",
            (
                Field(
                    "buy",
                    "counts",
                    "What to buy, good by good; goods sold in lots come in whole lots (Lumber three a lot).",
                    required=True,
                ),
                Field(
                    "equip",
                    "mapping",
                    "Sets handed out at once: a unit or leader of yours (id or name) and the list of items "
                    "it takes; a leader takes a donkey, a unit tools, weapons, armour or horses.",
                ),
                Field("note", "text", "Words for your own report; they change nothing.", multiline=True),
            ),
            cost="gold at the market's prices",
            unknown_hints=outfit.NAMES_NOBODY,
            example={
                "action": outfit.OUTFIT,
                "buy": {"donkey": 1, "spyglass": 1, "saws": 1, "foodstuffs": 1},
                "equip": {"u1": ["spyglass"], "l1": ["donkey"]},
            },
        ),
    ]
    return {spec.name: spec for spec in specs}


def standing_sections(rules: Mapping[str, Any]) -> dict[str, StandingSection]:
    """The forum game's second submission, answered in advance: what the usurper wants done with choices
    that come after the dice."""
    defaults = rules["policies"]
    section = StandingSection(
        POLICIES,
        "Your answers, in advance, to the choices that come after the week's dice.",
        (
            Field(
                "level_up",
                "list",
                "Stats a unit raises at its levels, in turn: offense, defense, strength, speed, max_tools.",
                default=list(defaults["level_up"]),
            ),
            Field(
                "skill_xp",
                "list",
                "Skills that take skill experience first, where an action serves them (spy before scout).",
                default=list(defaults["skill_xp"]),
            ),
            Field(
                "upkeep_priority",
                "list",
                "Units paid first when gold or food runs short (ids or names); then by level, then age.",
                default=list(defaults["upkeep_priority"]),
            ),
            Field(
                "pay_arrears",
                "bool",
                "Pay a unit's missed upkeep share at the end of any week when the gold and food are there.",
                default=bool(defaults["pay_arrears"]),
            ),
            Field(
                "overflow_drop",
                "list",
                "What is thrown away first when a warehouse overflows at the end of the week.",
                default=list(defaults["overflow_drop"]),
            ),
            Field(
                "replace_casualties",
                "choice",
                "Pay for replacements of lost men at once (auto), or only when an order says so (manual).",
                default=str(defaults["replace_casualties"]),
                choices=("auto", "manual"),
            ),
            Field(
                "prisoners",
                "choice",
                "What becomes of a prisoner not interrogated this week.",
                default=str(defaults["prisoners"]),
                choices=("hold", "release", "execute"),
            ),
            Field(
                "happenings_double",
                "list",
                "Monthly events to double, in turn, for each category you lead at the last count of Victory "
                "Points (the ids of the rules page's table); with none named, a helpful event of the month.",
                default=list(defaults["happenings_double"]),
            ),
            Field(
                "happenings_ignore",
                "list",
                "Monthly events to ignore, in turn, for each category you lead; by default a harmful one.",
                default=list(defaults["happenings_ignore"]),
            ),
            Field(
                "tenacity_challenge",
                "choice",
                "Issue the open challenge of Victory by Tenacity as soon as a lair qualifies (challenge), or "
                "not yet (wait).",
                default=str(defaults["tenacity_challenge"]),
                choices=("challenge", "wait"),
            ),
            Field(
                "on_contact",
                "choice",
                "When your force meets another usurper's in a grid: fight it, avoid it (turning back if it "
                "fights), or parley (talk, and defend if it fights).",
                default=str(defaults["on_contact"]),
                choices=("fight", "avoid", "parley"),
            ),
            Field(
                "release",
                "list",
                "Prisoners (ids) to set free at the end of a week they were not questioned.",
            ),
            Field(
                "execute",
                "list",
                "Prisoners (ids) to put to death at the end of a week they were not questioned (not another "
                "usurper's men); each costs the lair Obscurity.",
            ),
        ),
    )
    return {section.name: section}


def examples_for(game: Game, state: State, faction: str) -> list[dict[str, Any]]:
    """Each action's example, its ``by`` (and a learner's ``from``) one of the usurper's own entities of
    the kind that starts it, and a grid ``target`` one within that entity's reach."""
    leader = next(iter(m.leaders(state, faction).values()), None)
    unit = next(iter(m.units(state, faction).values()), None)
    examples = []
    for spec in game.actions.values():
        example = dict(spec.example)
        if spec.name == outfit.OUTFIT:  # first: the week it is open, the market comes before the work
            examples[:0] = _outfit_example(game, state, example, leader, unit)
            continue
        actor = leader if example.get("by") == "l1" else unit
        if actor is None or not example:
            continue
        example["by"] = actor["id"]
        if "from" in example and leader is not None:
            example["from"] = leader["id"]
        lair = m.home_lair(state, faction, actor)
        if "target" in example and lair is not None:
            cities = sorted(
                state.get("cities") or {}, key=lambda grid: (game.world.distance(lair["grid"], grid), grid)
            )
            visiting = spec.name == "diplomacy" and cities
            example["target"] = cities[0] if visiting else _near(game, lair["grid"], example["target"])
        examples.append(example)
    return examples


def _outfit_example(
    game: Game, state: State, example: dict[str, Any], leader: Mapping | None, unit: Mapping | None
) -> list[dict[str, Any]]:
    """The setup market's example, in the weeks it is open only, its sets handed to the usurper's own."""
    if not outfit.is_open(game.rules, int(state.get("turn", 0))):
        return []
    mine = {"u1": unit, "l1": leader}
    equip = {mine[key]["id"]: items for key, items in example["equip"].items() if mine.get(key)}
    return [{**example, "equip": equip}]


def _near(game: Game, home: str, written: str) -> str:
    """The example's grid, or, when it is not on this map, the lair's first neighbour."""
    if written in game.world and game.world.distance(home, written) <= 1:
        return written
    return sorted(game.world.neighbours(home))[0] if game.world.neighbours(home) else home


def check_orders(game: Game, state: State, of: OrderFile) -> None:
    """Each order read as the resolver will read it, in the file's order, so that one entity acting twice
    is caught at the second order."""
    faction = of.faction or ""
    if faction in state["factions"] and any(order.action == outfit.OUTFIT for order in of.orders):
        # The goods bought at the setup market are there for the file's later orders: read them all on a
        # sketch of the usurper that the purchase changes, never the state itself.
        factions = dict(state["factions"])
        factions[faction] = copy.deepcopy(factions[faction])
        state = {**state, "factions": factions}
    reading = UsurperReading(game, state, faction, checked=of)
    for order in of.orders:
        plan = plan_or_error(of, reading, order, reading.read)
        if plan is not None:
            of.echo[order.number] = reading.echo(plan)
            if plan.action == outfit.OUTFIT:
                outfit.deliver(game.rules, state, faction, plan.details[outfit.OUTFIT])
