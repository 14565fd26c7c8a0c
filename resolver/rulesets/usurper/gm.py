"""Usurper's own GM orders: everything the game leaves to the GM's pen or judgement (spec §10.1).

Each order changes the usurper's record and tells it (alone, in a sealed campaign, unless the GM writes
``public: true``; a title is always told to everyone, as the game announced them, though its reason
stays with the usurper in a sealed campaign):

- ``grant_unique_unit``: a unit with a trait joins (or one of the usurper's units becomes unique);
- ``grant_extra``: an Extra joins: its tier, skills, spells, what it helps with; it costs upkeep;
- ``grant_artifact``: an artifact, kept in a lair;
- ``grant_title``: one of the game's seven titles;
- ``quest``: a quest begins, gains a step, is completed or failed;
- ``council``: an article put to the Council of Usurpers, and how the vote went;
- ``forces``: nobles' men or a Legendary Foe, set down as an encounter the usurpers named know of;
- ``opportunity``: what an opportunity found by Explore offers, at what price, or how it ended;
- ``tell``: what an interrogation or a quest taught the usurper that only the GM can say.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.factions import next_id
from ...core.fields import Field, choice_hint
from ...core.orders import Order
from ...core.phases import State
from ...engine.context import TurnContext
from ...engine.gm import GmOrder, GmReading, audience
from ...engine.ruleset import Game
from . import model as m
from .setup import UNSETTLED, new_unit

_FACTION = Field(
    "faction", "text", "The usurper concerned, by id or by name.", required=True, names="factions"
)
_REASON = Field("reason", "text", "Why, in the usurper's report.", max_length=400)
_PRICE = Field("price", "int", "Gold the usurper pays for it (taken from its gold).", minimum=0)
_LAIR = Field("lair", "text", "The lair it goes to (its id); leave out for the usurper's first lair.")


def _first(game: Game) -> str:
    return game.factions[0] if game.factions else "FACTION"


def _lair(state: State, faction: str, word: Any) -> dict[str, Any] | None:
    held = m.lairs(state, faction)
    return held.get(str(word)) if word else next(iter(held.values()), None)


def _check_lair(reading: GmReading, order: Order) -> None:
    if (
        order.get("faction") in reading.state["factions"]
        and _lair(reading.state, order["faction"], order.get("lair")) is None
    ):
        listed = ", ".join(m.lairs(reading.state, order["faction"])) or "none"
        reading.refuse(
            "lair", f"{order['faction']} has no lair '{order.get('lair')}'", f"name one of: {listed}"
        )


def _check_price(reading: GmReading, order: Order) -> None:
    price = int(order.get("price") or 0)
    if price and order.get("faction") in reading.state["factions"]:
        gold = int(m.usurper(reading.state, order["faction"]).get("gold", 0))
        if gold < price:
            reading.refuse(
                "price", f"{order['faction']} has only {gold} gold", f"ask at most {gold}, or nothing"
            )


def _pay(state: State, faction: str, order: Mapping[str, Any]) -> int:
    price = int(order.get("price") or 0)
    record = m.usurper(state, faction)
    record["gold"] = int(record.get("gold", 0)) - price
    return price


def _emit(ctx: TurnContext, order: Mapping[str, Any], event: str, /, **data: Any) -> None:
    faction = order["faction"]
    ctx.emit(
        event,
        actors=[faction],
        visible_to=audience(ctx, order, [faction]),
        reason=order.get("reason", ""),
        **data,
    )


def _why(order: Mapping[str, Any]) -> str:
    return f": {order['reason']}" if order.get("reason") else ""


# ------------------------------------------------------------------------------------- grant_unique_unit


def _unique_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field(
            "trait",
            "choice",
            "The unit's trait.",
            required=True,
            choices=tuple(game.rules["unique_units"]["traits"]),
        ),
        Field(
            "unit",
            "text",
            "One of the usurper's units (its id) that becomes unique; leave out for a new one.",
        ),
        Field("race", "choice", "A new unit's race.", choices=tuple(sorted(game.rules["races"]))),
        Field("name", "text", "A new unit's name."),
        Field("level", "int", "A new unit's level.", default=0, minimum=0, maximum=10),
        _LAIR,
        _PRICE,
        _REASON,
    )


def _read_unique(reading: GmReading, order: Order) -> Mapping[str, Any]:
    faction = order["faction"]
    if order.get("unit"):
        if order["unit"] not in m.units(reading.state, faction):
            reading.refuse(
                "unit",
                f"{faction} has no unit '{order['unit']}'",
                choice_hint(order["unit"], list(m.units(reading.state, faction))),
            )
    elif not order.get("race") or not order.get("name"):
        reading.refuse("race", "a new Unique Unit needs a race and a name", "write race: and name:, or unit:")
    _check_lair(reading, order)
    _check_price(reading, order)
    return order.args


def _unique_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    who = order.get("unit") or f"a new unit of {order.get('race')}, {order.get('name')}"
    usurper = game.name_of(order["faction"])
    return f"make {who} a Unique Unit of {usurper} with the trait {order['trait']}{_why(order)}"


def _apply_unique(ctx: TurnContext, state: State, order: Mapping[str, Any]) -> None:
    faction, rules = order["faction"], ctx.rules
    if order.get("unit"):
        unit = m.units(state, faction)[order["unit"]]
    else:
        lair = _lair(state, faction, order.get("lair")) or {}
        unit_id = m.new_id(state, faction, "u")
        unit = new_unit(rules, unit_id, str(order["name"]), str(order["race"]), str(lair.get("id")))
        unit["level"] = int(order.get("level") or 0)
        m.units(state, faction)[unit_id] = unit
    unit["unique"] = {"trait": order["trait"]}
    _emit(
        ctx,
        order,
        "gm_unique_unit",
        unit=unit["name"],
        trait=str(order["trait"]).replace("_", " "),
        price=_pay(state, faction, order),
    )


def _unique_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {
            "action": "grant_unique_unit",
            "faction": _first(game),
            "race": "orcs",
            "name": "The Ashen Pack",
            "trait": "terror",
            "reason": "Won over after the battle at the ford",
        }
    ]


# ------------------------------------------------------------------------------------------- grant_extra


def _extra_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field("name", "text", "The Extra's name.", required=True),
        Field(
            "tier",
            "int",
            "Its tier, 1 to 4: the ranks it may hold and what it teaches.",
            required=True,
            minimum=1,
            maximum=4,
        ),
        Field("skills", "counts", "Its skills and their ranks."),
        Field("spells", "list", "Spells it knows and may teach a leader."),
        Field("helps", "list", "The actions it assists (it never starts one, and never fights)."),
        Field("bonus", "int", "What it adds to the actions it assists.", default=0),
        Field("trains", "bool", "Whether it trains others in its skills."),
        _LAIR,
        _PRICE,
        _REASON,
    )


def _read_extra(reading: GmReading, order: Order) -> Mapping[str, Any]:
    unknown = [s for s in order.get("skills") or {} if s not in reading.game.rules.get("skills", {})]
    if unknown:
        reading.refuse(
            "skills",
            f"no skill '{unknown[0]}' in the rules",
            choice_hint(unknown[0], list(reading.game.rules.get("skills", {}))),
        )
    _check_lair(reading, order)
    _check_price(reading, order)
    return order.args


def _extra_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    usurper = game.name_of(order["faction"])
    return f"bring {order['name']}, an Extra of tier {order['tier']}, to {usurper}{_why(order)}"


def _apply_extra(ctx: TurnContext, state: State, order: Mapping[str, Any]) -> None:
    faction = order["faction"]
    extras = m.usurper(state, faction).setdefault("extras", {})
    extra_id = next_id(state, faction, "x", lambda candidate: candidate in extras)
    lair = _lair(state, faction, order.get("lair")) or {}
    tier = int(order["tier"])
    extras[extra_id] = {
        "id": extra_id,
        "name": order["name"],
        "tier": tier,
        "lair": lair.get("id"),
        "skills": {
            skill: {"rank": int(rank), "xp": 0} for skill, rank in (order.get("skills") or {}).items()
        },
        "spells": list(order.get("spells") or []),
        "helps": list(order.get("helps") or []),
        "bonus": int(order.get("bonus") or 0),
        "trains": bool(order.get("trains")),
        "upkeep": tier * int(ctx.rules["extras"]["upkeep_per_tier"]),
    }
    _emit(
        ctx,
        order,
        "gm_extra",
        extra=order["name"],
        tier=tier,
        upkeep=extras[extra_id]["upkeep"],
        price=_pay(state, faction, order),
    )


def _extra_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {
            "action": "grant_extra",
            "faction": _first(game),
            "name": "Mirela the Cartographer",
            "tier": 2,
            "skills": {"scout": 3, "negotiator": 2},
            "helps": ["scout"],
            "bonus": 10,
            "trains": True,
            "price": 0,
            "reason": "Met on the old trade road",
        }
    ]


def pay_extras(ctx: TurnContext, state: State) -> None:
    """Week 4: each Extra's upkeep, in the order they joined; one the gold cannot pay leaves."""
    for faction in m.usurpers(state):
        record = m.usurper(state, faction)
        for extra_id, extra in list((record.get("extras") or {}).items()):
            cost = int(extra.get("upkeep", 0))
            paid = int(record.get("gold", 0)) >= cost
            if paid:
                record["gold"] = int(record.get("gold", 0)) - cost
            else:
                del record["extras"][extra_id]
            ctx.emit(
                "extra_upkeep",
                actors=[faction],
                visible_to=[faction],
                extra=extra["name"],
                gold=cost,
                paid=paid,
            )


# ---------------------------------------------------------------------------------------- grant_artifact


def _artifact_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field("name", "text", "The artifact's name.", required=True),
        Field("power", "text", "What it does, in the GM's words.", max_length=400),
        Field("rank", "int", "Its rank (what it counts for at the Victory Points).", default=1, minimum=1),
        _LAIR,
        _REASON,
    )


def _read_artifact(reading: GmReading, order: Order) -> Mapping[str, Any]:
    _check_lair(reading, order)
    return order.args


def _artifact_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    return f"give the artifact {order['name']} to {game.name_of(order['faction'])}{_why(order)}"


def _apply_artifact(ctx: TurnContext, state: State, order: Mapping[str, Any]) -> None:
    faction = order["faction"]
    lair = _lair(state, faction, order.get("lair")) or {}
    # A list of records, as the Victory Points tally reads it (each artifact by its rank).
    artifacts = m.usurper(state, faction).setdefault("artifacts", [])
    taken = {str(artifact.get("id")) for artifact in artifacts}
    key = next_id(state, faction, "a", lambda candidate: candidate in taken)
    artifacts.append(
        {"id": key, "name": order["name"], "power": order.get("power", ""),
         "rank": int(order.get("rank") or 1), "lair": lair.get("id")}
    )  # fmt: skip
    _emit(ctx, order, "gm_artifact", artifact=order["name"], power=order.get("power", ""))


def _artifact_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {
            "action": "grant_artifact",
            "faction": _first(game),
            "name": "The Salt Crown",
            "power": "+10 to Loyalty checks of units in its lair",
            "reason": "The end of the quest of the drowned king",
        }
    ]


# ------------------------------------------------------------------------------------------- grant_title


def _title_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field("title", "choice", "The title.", required=True, choices=tuple(game.rules["titles"])),
        _REASON,
    )


def _read_title(reading: GmReading, order: Order) -> Mapping[str, Any]:
    for faction in reading.state["factions"]:
        if order["title"] in (m.usurper(reading.state, faction).get("titles") or []):
            reading.refuse(
                "title", f"{faction} holds {order['title']} already: a title is unique", "award another title"
            )
    return order.args


def _title_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    name = game.rules["titles"][order["title"]]["name"]
    # A sealed campaign tells the reason to the usurper alone (_apply_title): the echo says so.
    private = (
        " (the reason to them alone, if sealed)" if order.get("reason") and not order.get("public") else ""
    )
    return f"award {name} to {game.name_of(order['faction'])}, told to everyone{_why(order)}{private}"


def _apply_title(ctx: TurnContext, state: State, order: Mapping[str, Any]) -> None:
    faction = order["faction"]
    m.usurper(state, faction).setdefault("titles", []).append(order["title"])
    # Titles were announced to all: the award is public whatever the campaign's seal. The GM's reason may
    # tell of the usurper's stock or deeds, so in a sealed campaign it goes to the usurper alone, unless
    # the GM wrote ``public: true``.
    told = audience(ctx, order, [faction])
    reason = order.get("reason", "")
    ctx.emit(
        "gm_title",
        actors=[faction],
        title=ctx.rules["titles"][order["title"]]["name"],
        reason=reason if told is None else "",
    )
    if reason and told is not None:
        ctx.emit("gm_tell", actors=[faction], visible_to=told, text=reason)


def _title_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {
            "action": "grant_title",
            "faction": _first(game),
            "title": "forge_lord",
            "reason": "A hundred blades from one workshop",
        }
    ]


# ------------------------------------------------------------------------------------------------ quest

QUEST_STEPS = ("start", "advance", "complete", "fail")


def _quest_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field("step", "choice", "What happens to the quest.", required=True, choices=QUEST_STEPS),
        Field("quest", "text", "The quest's id (from the usurper's record); leave out to start a new one."),
        Field("kind", "choice", "A new quest's kind.", choices=tuple(game.rules["quests"]["kinds"])),
        Field("title", "text", "The quest's title."),
        Field("task", "text", "The task of this step, or how it ended.", max_length=400),
        Field("grid", "text", "Where it leads (a settlement's grid for a settlement quest)."),
        Field("deadline", "int", "The week by which this step must be done.", minimum=1),
        _REASON,
    )


def _quests(state: State, faction: str) -> dict[str, Any]:
    return m.known(state, faction).setdefault("quests", {})


def _read_quest(reading: GmReading, order: Order) -> Mapping[str, Any]:
    faction = order["faction"]
    if order["step"] == "start":
        if not order.get("kind") or not order.get("title"):
            reading.refuse("kind", "a quest starts with its kind and title", "write kind: and title:")
    else:
        quest = _quests(reading.state, faction).get(str(order.get("quest")))
        if quest is None:
            reading.refuse(
                "quest",
                f"{faction} has no quest '{order.get('quest')}'",
                choice_hint(str(order.get("quest")), list(_quests(reading.state, faction))),
            )
        elif quest["status"] != "open":
            reading.refuse("quest", f"quest {order['quest']} is {quest['status']} already", "drop this order")
    return order.args


def _quest_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    what = order.get("title") or order.get("quest")
    return f"{order['step']} the quest {what} of {game.name_of(order['faction'])}{_why(order)}"


def _apply_quest(ctx: TurnContext, state: State, order: Mapping[str, Any]) -> None:
    faction, step = order["faction"], order["step"]
    quests = _quests(state, faction)
    if step == "start":
        key = next_id(state, faction, "q", lambda candidate: candidate in quests)
        quests[key] = {
            "kind": order["kind"],
            "grid": order.get("grid", ""),
            "band": "",
            "started": ctx.turn,
            "status": "open",
            "steps": [],
            "title": order["title"],
        }
    else:
        key = str(order["quest"])
    quest = quests[key]
    if order.get("title"):
        quest["title"] = order["title"]
    if order.get("task"):
        quest["steps"].append({"turn": ctx.turn, "task": order["task"], "deadline": order.get("deadline")})
    if step in ("complete", "fail"):
        quest["status"] = "completed" if step == "complete" else "failed"
    record = m.usurper(state, faction)
    if step == "complete" and quest["kind"] == "exploration":
        record["exploration_quests"] = int(record.get("exploration_quests", 0) or 0) + 1
    settlement = m.known(state, faction)["settlements"].get(str(quest.get("grid")))
    if step == "complete" and quest["kind"] == "settlement" and settlement is not None:
        settlement["quest_done"] = True
    kind = ctx.rules["quests"]["kinds"][quest["kind"]]["name"]
    _emit(
        ctx,
        order,
        "gm_quest",
        quest=quest["title"] or key,
        quest_kind=kind,
        step=step,
        task=order.get("task", ""),
    )


def _quest_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {
            "action": "quest",
            "faction": _first(game),
            "step": "start",
            "kind": "exploration",
            "title": "The Drowned King",
            "task": "Find the king's barrow in the marsh",
            "deadline": 8,
        }
    ]


# ---------------------------------------------------------------------------------------------- council


def _council_fields(game: Game) -> tuple[Field, ...]:
    return (
        Field(
            "article",
            "text",
            "The article put to the vote, as the Arbiter words it.",
            required=True,
            max_length=400,
        ),
        Field("votes_for", "int", "Votes for it.", required=True, minimum=0),
        Field("votes_against", "int", "Votes against it.", required=True, minimum=0),
        Field("repeals", "int", "The number of a passed article this one repeals, if any.", minimum=1),
    )


def _read_council(reading: GmReading, order: Order) -> Mapping[str, Any]:
    voters = len(m.usurpers(reading.state))
    if int(order["votes_for"]) + int(order["votes_against"]) > voters:
        reading.refuse(
            "votes_for", f"only {voters} usurpers vote", "count one vote per usurper still in play"
        )
    articles = (reading.state.get("council") or {}).get("articles") or []
    if order.get("repeals") and not 1 <= int(order["repeals"]) <= len(articles):
        reading.refuse(
            "repeals", f"there is no article {order['repeals']}", "name a passed article by number"
        )
    return order.args


def _council_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    passed = int(order["votes_for"]) > int(order["votes_against"])
    return (
        f"record the Council's vote on '{order['article']}': {order['votes_for']} for, "
        f"{order['votes_against']} against, so it {'passes' if passed else 'fails'}; told to everyone"
    )


def _apply_council(ctx: TurnContext, state: State, order: Mapping[str, Any]) -> None:
    passed = int(order["votes_for"]) > int(order["votes_against"])
    council = state.setdefault("council", {"articles": []})
    number = 0
    if passed:
        council["articles"].append({"text": order["article"], "since": ctx.turn, "repealed": None})
        number = len(council["articles"])
        if order.get("repeals"):
            council["articles"][int(order["repeals"]) - 1]["repealed"] = ctx.turn
    ctx.emit(
        "gm_council",
        article=order["article"],
        passed=passed,
        votes_for=int(order["votes_for"]),
        votes_against=int(order["votes_against"]),
        number=number,
    )


def _council_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {
            "action": "council",
            "article": "No usurper may raid a city's market in winter",
            "votes_for": 2,
            "votes_against": 1,
        }
    ]


# ----------------------------------------------------------------------------------------------- forces


def _forces_fields(game: Game) -> tuple[Field, ...]:
    return (
        Field(
            "to", "list", "The usurpers who know of it (ids), as an encounter they may attack.", required=True
        ),
        Field("grid", "text", "Where it stands.", required=True),
        Field("kind", "choice", "Whose forces.", required=True, choices=("nobles", "legendary_foe")),
        Field("name", "text", "Its name: the noble house, the foe.", required=True),
        Field("units", "counts", "Its units by race: how many of each.", required=True),
        Field("level", "int", "The level of its units.", default=0, minimum=0, maximum=10),
        _REASON,
    )


def _read_forces(reading: GmReading, order: Order) -> Mapping[str, Any]:
    for faction in order.get("to") or []:
        if faction not in reading.state["factions"]:
            reading.refuse(
                "to", f"unknown usurper '{faction}'", choice_hint(faction, list(reading.state["factions"]))
            )
    if order["grid"] not in reading.game.world:
        reading.refuse("grid", f"'{order['grid']}' is not a grid of the map", "write a grid such as B2")
    for race in order.get("units") or {}:
        if race not in reading.game.rules["races"]:
            reading.refuse("units", f"no race '{race}'", choice_hint(race, list(reading.game.rules["races"])))
    return order.args


def _forces_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    count = sum(int(n) for n in (order.get("units") or {}).values())
    return f"set {order['name']} ({count} units) at {order['grid']}, known to {', '.join(order['to'])}"


def _apply_forces(ctx: TurnContext, state: State, order: Mapping[str, Any]) -> None:
    for faction in order["to"]:
        encounters = m.known(state, faction)["encounters"]
        key = m.new_id(state, faction, "e")
        units = []
        for race, count in sorted((order.get("units") or {}).items()):
            for number in range(1, int(count) + 1):
                unit = new_unit(
                    ctx.rules,
                    f"{key}-{race}-{number}",
                    f"{order['name']}: {ctx.rules['races'][race]['name']} {number}",
                    race,
                    "",
                )
                unit["level"] = int(order.get("level") or 0)
                units.append(
                    {k: v for k, v in unit.items() if k not in ("lair", "replacements", "grumpy", "unpaid")}
                )
        encounters[key] = {
            "grid": order["grid"],
            "units": units,
            "level": int(order.get("level") or 0),
            "kind": order["kind"],
            "name": order["name"],
        }
        ctx.emit(
            "gm_forces",
            actors=[faction],
            visible_to=audience(ctx, order, [faction]),
            place=order["grid"],
            name=order["name"],
            units=len(units),
            legendary=order["kind"] == "legendary_foe",
            encounter=key,
            reason=order.get("reason", ""),
        )


def _forces_examples(game: Game, state: State) -> list[dict[str, Any]]:
    grid = next(iter(sorted(state.get("cities") or {})), "B2")
    return [
        {
            "action": "forces",
            "to": [_first(game)],
            "grid": grid,
            "kind": "nobles",
            "name": "House Varr's hunters",
            "units": {"humans": 2},
            "level": 2,
        }
    ]


# ------------------------------------------------------------------------------------------ opportunity

OPPORTUNITY_ENDS = ("open", "accepted", "declined", "expired")


def _opportunity_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field(
            "opportunity",
            "text",
            "The opportunity's id (from the usurper's record); leave out to offer a new one.",
        ),
        Field(
            "kind",
            "choice",
            "A new opportunity's kind.",
            choices=tuple(game.rules["exploration"]["opportunities"]["kinds"]),
        ),
        Field("offer", "text", "What is offered, in the GM's words.", max_length=400),
        Field("price", "int", "What it asks, in gold (taken only when the status is accepted).", minimum=0),
        Field("status", "choice", "Where it stands.", default="open", choices=OPPORTUNITY_ENDS),
        _REASON,
    )


def _read_opportunity(reading: GmReading, order: Order) -> Mapping[str, Any]:
    faction = order["faction"]
    found = m.known(reading.state, faction).get("opportunities") or {}
    if not order.get("opportunity"):
        if not order.get("kind"):
            reading.refuse("kind", "a new opportunity needs its kind", "write kind:, or name an opportunity")
    elif order["opportunity"] not in found:
        reading.refuse(
            "opportunity",
            f"{faction} has no opportunity '{order['opportunity']}'",
            choice_hint(order["opportunity"], list(found)),
        )
    if order.get("status") == "accepted":
        _check_price(reading, order)
    return order.args


def _opportunity_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    price = f" for {order['price']} gold" if order.get("price") else ""
    which = order.get("opportunity") or f"a new {order.get('kind')}"
    usurper = game.name_of(order["faction"])
    return f"set the opportunity {which} of {usurper} {order.get('status', 'open')}{price}"


def _apply_opportunity(ctx: TurnContext, state: State, order: Mapping[str, Any]) -> None:
    faction = order["faction"]
    opportunities = m.known(state, faction).setdefault("opportunities", {})
    key = order.get("opportunity")
    if not key:
        key = next_id(state, faction, "o", lambda candidate: candidate in opportunities)
        opportunities[key] = {
            "kind": order["kind"],
            "grid": "",
            "band": "",
            "turn": ctx.turn,
            "status": "open",
            "offer": "",
            "price": 0,
        }
    found = opportunities[key]
    status = str(order.get("status") or "open")
    found.update(
        status=status, offer=order.get("offer", found.get("offer", "")), price=int(order.get("price") or 0)
    )
    paid = _pay(state, faction, order) if status == "accepted" else 0
    kind = ctx.rules["exploration"]["opportunities"]["kinds"][found["kind"]]["name"]
    _emit(
        ctx,
        order,
        "gm_opportunity",
        offered=kind,
        offer=found["offer"],
        price=found["price"],
        status=status,
        paid=paid,
    )


def _opportunity_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {
            "action": "opportunity",
            "faction": _first(game),
            "kind": "architect",
            "price": 20,
            "offer": "Master Oddo raises a room in a week for 20 gold",
            "reason": "He heard of the new lair",
        }
    ]


# ------------------------------------------------------------------------------------------------- tell


def _tell_fields(game: Game) -> tuple[Field, ...]:
    return (
        _FACTION,
        Field("text", "text", "What the usurper learns.", required=True, max_length=800),
        Field("about", "text", "Whom or what it concerns: a usurper, a city, a settlement's grid."),
    )


def _tell_sentence(game: Game, state: State, order: Mapping[str, Any]) -> str:
    return f"tell {game.name_of(order['faction'])}: {order['text']}"


def _apply_tell(ctx: TurnContext, state: State, order: Mapping[str, Any]) -> None:
    faction = order["faction"]
    learned = m.known(state, faction).setdefault("intelligence", [])
    learned.append({"turn": ctx.turn, "about": order.get("about", ""), "text": order["text"]})
    ctx.emit("gm_tell", actors=[faction], visible_to=[faction], text=order["text"])


def _tell_examples(game: Game, state: State) -> list[dict[str, Any]]:
    return [
        {
            "action": "tell",
            "faction": _first(game),
            "text": "The prisoner swears the salt road is watched.",
            "about": "salt road",
        }
    ]


def _as_given(reading: GmReading, order: Order) -> Mapping[str, Any]:
    return order.args


ORDERS = (
    GmOrder(
        "grant_unique_unit",
        "A Unique Unit joins a usurper (a new unit, or one of its own made unique), with a trait.",
        _unique_fields,
        _read_unique,
        _unique_sentence,
        _apply_unique,
        _unique_examples,
    ),
    GmOrder(
        "grant_extra",
        "An Extra joins a usurper: tier, skills, spells, what it helps; it costs upkeep.",
        _extra_fields,
        _read_extra,
        _extra_sentence,
        _apply_extra,
        _extra_examples,
    ),
    GmOrder(
        "grant_artifact",
        "A usurper gains an artifact, kept in one of its lairs.",
        _artifact_fields,
        _read_artifact,
        _artifact_sentence,
        _apply_artifact,
        _artifact_examples,
    ),
    GmOrder(
        "grant_title",
        "A usurper wins one of the game's titles (told to everyone).",
        _title_fields,
        _read_title,
        _title_sentence,
        _apply_title,
        _title_examples,
    ),
    GmOrder(
        "quest",
        "A quest of a usurper starts, gains a step, is completed or fails.",
        _quest_fields,
        _read_quest,
        _quest_sentence,
        _apply_quest,
        _quest_examples,
    ),
    GmOrder(
        "council",
        "The Council of Usurpers votes on an article (told to everyone).",
        _council_fields,
        _read_council,
        _council_sentence,
        _apply_council,
        _council_examples,
    ),
    GmOrder(
        "forces",
        "Nobles' men or a Legendary Foe stand in a grid, as an encounter the usurpers named know of.",
        _forces_fields,
        _read_forces,
        _forces_sentence,
        _apply_forces,
        _forces_examples,
    ),
    GmOrder(
        "opportunity",
        "What an opportunity found by Explore offers and asks, or how it ended.",
        _opportunity_fields,
        _read_opportunity,
        _opportunity_sentence,
        _apply_opportunity,
        _opportunity_examples,
    ),
    GmOrder(
        "tell",
        "Tell a usurper what only the GM knows (what a tortured prisoner said, a quest's clue).",
        _tell_fields,
        _as_given,
        _tell_sentence,
        _apply_tell,
        _tell_examples,
    ),
)


# -- the GM's place and remove: cities and landmarks, each kept by its grid ----------------------------------

CITY_FIELDS = ("name", "size", "races")
LANDMARK_FIELDS = ("id", "name")


def piece_id_problems(kind: str, grid: str, data: Mapping[str, Any], game: Game, state: State) -> list[str]:
    """A city or a landmark is kept by the grid it stands on, so the id the GM gives one is a grid of
    the map; a city needs ground it can stand on (no city is built on a river), and a landmark stands
    where the rules data puts it, since its ritual table is found there."""
    if grid not in game.world:
        return [f"'{grid}' is not a grid of the map: a {kind} is kept by the grid it stands on"]
    if kind == "city" and game.world[grid].terrain in UNSETTLED:
        return [f"{grid} is {game.world[grid].terrain.replace('_', ' ')}, where no city can stand"]
    landmark = (game.rules.get("landmarks") or {}).get(str(data.get("id")))
    if kind == "landmark" and landmark is not None and str(landmark["grid"]) != grid:
        return [f"the landmark {data.get('id')} stands at {landmark['grid']}, where its rules put it"]
    return []


def _unknown_fields(data: Mapping[str, Any], allowed: tuple[str, ...]) -> list[str]:
    return [
        f"a {'city' if allowed == CITY_FIELDS else 'landmark'} has no field '{key}' "
        f"(its fields: {', '.join(allowed)})"
        for key in data
        if key not in allowed
    ]


def city_problems(data: Mapping[str, Any], game: Game, state: State) -> list[str]:
    """What keeps a city from being one the game can play with: a name of its own (the pages and the
    orders tell cities apart by it), a size the rules give a Diplomacy bonus for, and the races living
    there, which decide what a usurper may recruit in it."""
    problems = _unknown_fields(data, CITY_FIELDS)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("a city needs a name (text)")
    elif name.strip().casefold() in {
        str(city.get("name", "")).casefold() for city in (state.get("cities") or {}).values()
    }:
        problems.append(f"a city is called {name.strip()} already")
    sizes = list(game.rules["city_sizes"])
    if data.get("size") not in sizes:
        problems.append(f"a city's size is one of: {', '.join(sizes)} (not {data.get('size')!r})")
    races = data.get("races")
    # Cities offer the standard races (spec §5.2); the others are met in settlements and encounters.
    known = [race for race, data in game.rules["races"].items() if data.get("kind") == "standard"]
    if not isinstance(races, list) or not races:
        problems.append(f"a city needs a list of the races living there, of: {', '.join(known)}")
    else:
        for race in dict.fromkeys(map(str, races)):
            if race not in known:
                problems.append(
                    f"{race!r} is not a standard race living in cities: " + choice_hint(race, known)
                )
        if len(set(map(str, races))) != len(races):
            problems.append("a race is listed twice in the city's races")
    return problems


def landmark_problems(data: Mapping[str, Any], game: Game, state: State) -> list[str]:
    """A landmark's ritual table is in the rules data, by the landmark's id, so a landmark placed names
    one of the rules data's (at the grid they give it: see ``piece_id_problems``), with a name for the
    pages; the map holds one landmark a grid, so a landmark is never on it twice."""
    problems = _unknown_fields(data, LANDMARK_FIELDS)
    known = list(game.rules.get("landmarks") or {})
    if data.get("id") not in known:
        problems.append(
            "a landmark's id names one of the rules data's landmarks, whose rituals it has: "
            + ", ".join(known)
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append("a landmark needs a name (text)")
    return problems


def placed_example(game: Game, state: State) -> tuple[str, dict[str, Any]] | None:
    """A new city for the GM template's example: on the first open grid with nothing on it (no city,
    landmark or lair), under the first of the rules' city names not yet taken, like the first city."""
    cities = state.get("cities") or {}
    if not cities:
        return None
    first = cities[sorted(cities)[0]]
    taken = set(cities) | set(state.get("landmarks") or {})
    taken |= {
        str(lair.get("grid"))
        for record in state["factions"].values()
        for lair in (record.get("lairs") or {}).values()
    }
    grid = next(
        (grid for grid in game.world if grid not in taken and game.world[grid].terrain not in UNSETTLED),
        None,
    )
    names = {str(city.get("name")) for city in cities.values()}
    name = next(
        (str(n) for n in game.rules["world"]["city_names"] if str(n) not in names), f"New {first['name']}"
    )
    if grid is None:
        return None
    return grid, {"name": name, "size": first["size"], "races": list(first["races"])}
