"""The seasons' orders: what each season allows, read once for the checker (the phases read the same
fields). An order given in the wrong season is refused with the seasons it belongs to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.fields import ActionSpec, Field
from ...core.orders import OrderFile
from ...core.phases import State
from ...core.standing import StandingSection
from ...engine.ruleset import Game
from . import diplomacy, forces
from . import model as m

INSTRUCTIONS = "instructions"


def action_specs(rules: Mapping[str, Any]) -> dict[str, ActionSpec]:
    seasons = rules["order_seasons"]

    def when(action: str) -> str:
        return "Given in " + ", ".join(seasons[action]) + "."

    specs = [
        ActionSpec(
            "recruit",
            f"Spend recruiting rolls on new units. {when('recruit')}",
            (
                Field("rolls", "int", "How many recruiting rolls to spend.", required=True, minimum=1),
                Field("army", "text", "The army your new units join (optional).", names="armies"),
                Field(
                    "province",
                    "ref",
                    "Or the province of yours whose garrison they join (optional; else the capital).",
                    ref="provinces",
                ),
            ),
            example={"action": "recruit", "rolls": 3},
        ),
        ActionSpec(
            "buy_rolls",
            f"Spend resources for more recruiting rolls. {when('buy_rolls')}",
            (Field("rolls", "int", "How many rolls to buy.", required=True, minimum=1),),
            cost=f"{rules['recruiting']['resource_for_roll']} resource a roll",
            example={"action": "buy_rolls", "rolls": 1},
        ),
        ActionSpec(
            "declare_war",
            f"Test whether your people follow you to war. {when('declare_war')}",
            (Field("nation", "ref", "The nation to make war on.", required=True, ref="factions"),),
            example={"action": "declare_war", "nation": "blue"},
        ),
        ActionSpec(
            "invade",
            f"The enemy province your army invades. {when('invade')}",
            (
                Field("province", "ref", "An enemy province.", required=True, ref="provinces"),
                Field("army", "text", "The army that invades (optional; else your largest).", names="armies"),
            ),
            example={"action": "invade", "province": "p-example"},
        ),
        ActionSpec(
            "diplomat",
            f"Send your diplomat to a nation. {when('diplomat')}",
            (Field("nation", "ref", "The nation your diplomat visits.", required=True, ref="factions"),),
            example={"action": "diplomat", "nation": "blue"},
        ),
        *forces.action_specs(rules, when),
    ]
    return {spec.name: spec for spec in specs}


def standing_sections(rules: Mapping[str, Any]) -> dict[str, StandingSection]:
    defaults = rules["instructions"]
    section = StandingSection(
        INSTRUCTIONS,
        "What your armies do when a decision comes up mid-season.",
        (
            Field(
                "if_invaded",
                "choice",
                "Fight an invader in the field, shut the army in the province's fort, or withdraw and "
                "give the province up (the last two refuse the battle).",
                default=str(defaults["if_invaded"]),
                choices=("fight", "fort", "withdraw"),
            ),
            Field(
                "retreat_at_losses",
                "int",
                "Test to retreat once this percentage of the army's units is routed (0: never).",
                default=int(defaults["retreat_at_losses"]),
                minimum=0,
                maximum=100,
            ),
            Field(
                "forage", "bool", "Forage instead of paying spring upkeep.", default=bool(defaults["forage"])
            ),
            Field(
                "winter_keep",
                "int",
                "In winter, spend up to this many resources keeping units the disband-or-not test would "
                "send home (1 resource a unit, on its rows of 1 and 2 successes; 0 keeps none).",
                default=int(defaults["winter_keep"]),
                minimum=0,
            ),
        ),
    )
    return {section.name: section}


def season_of(game: Game, state: State) -> str:
    return game.calendar.date(int(state["turn"])).season


def allowed(game: Game, state: State) -> list[str]:
    """The orders that can be given this season, in the order of the rules data."""
    season = season_of(game, state)
    return [action for action, seasons in game.rules["order_seasons"].items() if season in seasons]


def check_orders(game: Game, state: State, of: OrderFile) -> None:
    season, nation = season_of(game, state), of.faction or ""
    for order in of.orders:
        seasons = game.rules["order_seasons"][order.action]
        if season not in seasons:
            now = ", ".join(allowed(game, state)) or "nothing but standing instructions"
            of.error(
                order,
                "action",
                f"'{order.action}' cannot be ordered in {season}",
                f"it belongs to {', '.join(seasons)}; in {season} you may order: {now}",
            )
            continue
        if order.action in ("declare_war", "diplomat"):
            target = str(order["nation"])
            if target == nation or target not in m.nations(state):
                of.error(
                    order,
                    "nation",
                    f"'{target}' is not another nation",
                    "name one of: " + ", ".join(n for n in m.nations(state) if n != nation),
                )
                continue
            forbidden = diplomacy.forbids_war(state, nation, target) if order.action == "declare_war" else ""
            if forbidden:
                of.error(
                    order,
                    "nation",
                    f"you may not go to war on {game.name_of(target)}: {forbidden}",
                    "remove this order; the status in your template says until when diplomacy binds you",
                )
                continue
            of.echo[order.number] = f"{order.action.replace('_', ' ')}: {game.name_of(target)}"
        elif order.action in ("invade", "recruit", *forces.ORGANISING):
            continue  # read by forces.check below, as the organize and invasion steps read them
        else:
            of.echo[order.number] = f"{order.action.replace('_', ' ')}: {order['rolls']} roll(s)"
    forces.check(game, state, of, season, allowed(game, state))
