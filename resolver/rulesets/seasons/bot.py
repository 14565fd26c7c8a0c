"""Orders for a nation nobody plays: recruit with every roll, war on the weakest neighbour when strong,
a diplomat in winter only when it has a reason to send one. Alweg, an NPC realm and no Nation, only
recruits and defends (house rule). Choices come from the campaign's seed."""

from __future__ import annotations

from typing import Any

from ...core.factions import is_npc
from ...core.phases import State
from ...core.rng import stream
from ...core.words import number_word, series
from ...engine.press import Story, bot_articles
from ...engine.ruleset import Game
from . import diplomacy, forces
from . import model as m
from .orders import INSTRUCTIONS, allowed


def orders_for(game: Game, state: State, nation: str) -> dict[str, Any]:
    if nation not in m.nations(state):
        # The Piorad's decisions are their own tests in the winter steps; their loot keeps the warband
        # together through the disband-or-not test (they recruit nobody, so every unit counts).
        return {
            "orders": [],
            INSTRUCTIONS: {"winter_keep": int(state["factions"][nation]["stock"]["resources"])},
        }
    rng = stream(game.seed, f"seasons/bot/{nation}/turn{state['turn']}")
    record, can = state["factions"][nation], allowed(game, state)
    if m.is_npc_realm(state, nation):  # no ambitions abroad: no war, no diplomat (house rule)
        can = [action for action in can if action not in ("declare_war", "diplomat")]
    orders: list[dict[str, Any]] = []
    neighbours = sorted(n for n in m.neighbours_of(game.world, state, nation) if n in m.nations(state))
    others = neighbours or [n for n in m.nations(state) if n != nation]
    if "buy_rolls" in can and int(record["stock"]["resources"]) > 8:
        orders.append({"action": "buy_rolls", "rolls": 1 + rng.below(2)})
    orders += _organise(game, state, nation, can)
    if "recruit" in can and int(record["rolls"]) > 0:
        recruit: dict[str, Any] = {"action": "recruit", "rolls": int(record["rolls"])}
        home = [
            a for a in m.armies_at(state, record["capital"]) if a["owner"] == nation and not a.get("levy")
        ]
        if home and orders_season(game, state) not in game.rules["recruits_to_capital"]:
            recruit["army"] = max(home, key=lambda a: (len(a["units"]), a["id"]))["id"]  # the main army
        orders.append(recruit)
    prey = [n for n in others if not diplomacy.forbids_war(state, nation, n)]
    if "declare_war" in can and not record["wars"] and prey:
        units = sum(len(a["units"]) for a in m.armies_of(state, nation))
        if units >= 4 and rng.below(3) > 0:
            weakest = min(prey, key=lambda n: (sum(len(a["units"]) for a in m.armies_of(state, n)), n))
            orders.append({"action": "declare_war", "nation": weakest})
    if "invade" in can and record.get("attacking"):
        # A strong aggressor marches on an enemy fort next to its land; otherwise the default target.
        own = set(m.provinces_of(state, nation))
        forts = [
            pid
            for enemy in record["attacking"]
            if diplomacy.may_invade(state, nation, enemy)
            for pid in m.provinces_of(state, enemy)
            if state["provinces"][pid]["fort"] and own & set(game.world.neighbours(pid))
        ]
        strongest = max((len(a["units"]) for a in m.armies_of(state, nation)), default=0)
        if forts and strongest >= 5:
            free = [a for a in m.armies_of(state, nation) if a["units"] and not a.get("besieging")]
            if free:  # an army that holds a siege stays at it
                marching = max(free, key=lambda a: (len(a["units"]), a["id"]))
                orders.append({"action": "invade", "province": forts[0], "army": marching["id"]})
    if "diplomat" in can and (visited := _diplomat_target(state, nation, others)):
        orders.append({"action": "diplomat", "nation": visited})
    # Standing instructions: a weak nation shuts its army in the fort when invaded; a poor one forages.
    units = sum(len(a["units"]) for a in m.armies_of(state, nation))
    instructions = {
        "if_invaded": "fort" if units < 4 or (record["wars"] and not record.get("attacking")) else "fight",
        "forage": int(record["stock"]["resources"]) < 12,
    }
    return {"orders": orders, INSTRUCTIONS: instructions, "press": _press(game, state, nation)}


def orders_season(game: Game, state: State) -> str:
    return game.calendar.date(int(state["turn"])).season


def _organise(game: Game, state: State, nation: str, can: list[str]) -> list[dict[str, Any]]:
    """A large army in the capital sends half its units to the border under a free commander; a nation
    with no free commander and resources to spare hires a Captain for the next such army."""
    record = state["factions"][nation]
    free = forces.free_commanders(state, nation)
    cost = int(game.rules["hiring"]["captain"]["cost"])
    if "hire" in can and not free and int(record["stock"]["resources"]) >= cost + 6:
        return [{"action": "hire", "rank": "captain"}]
    home = [
        a
        for a in m.armies_at(state, record["capital"])
        if a["owner"] == nation and not a.get("levy") and not a.get("in_fort") and not a.get("besieging")
    ]
    if "split_army" not in can or not free or not home:
        return []
    army = max(home, key=lambda a: (len(a["units"]), a["id"]))
    if len(army["units"]) < 6:
        return []
    half = [u["id"] for u in army["units"][len(army["units"]) // 2 :]]
    new_id = forces.peek_army_id(state, nation)
    orders: list[dict[str, Any]] = [
        {"action": "split_army", "army": army["id"], "units": half, "commander": free[0]}
    ]
    own = set(m.provinces_of(state, nation))
    border = [
        p
        for p in sorted(own)
        if p != record["capital"]
        and any((state["provinces"][n]["owner"] or nation) != nation for n in game.world.neighbours(p))
    ]
    if "station" in can and border:
        orders.append({"action": "station", "army": new_id, "province": border[0]})
    return orders


def _diplomat_target(state: State, nation: str, others: list[str]) -> str | None:
    """The nation a bot's diplomat visits, or None when it has no reason to send one: first a nation
    it is in alliance talks with (a second friendly visit makes them allies), then its strongest enemy
    at war (a visit may win an enforced peace or buy time), then a neighbour stronger than itself (a
    threat to be handled). A nation at peace among weaker neighbours stays at home."""

    def strength(other: str) -> int:
        return sum(len(a["units"]) for a in m.armies_of(state, other))

    talks = [
        n
        for n in m.nations(state)
        if n != nation and diplomacy.effect_value(state, nation, diplomacy.TALKS, n)
    ]
    enemies = [n for n in state["factions"][nation]["wars"] if n in m.nations(state)]
    feared = [n for n in others if strength(n) > strength(nation)]
    for reasons in (talks, enemies, feared):
        if reasons:
            return min(reasons, key=lambda n: (-strength(n), n))
    return None


SIEGE = (
    (
        "The siege of {province} goes on",
        "{name}'s army keeps {province} shut in. {capital} says the walls "
        "will open before the garrison's bread runs out.",
    ),
    (
        "Camp fires before {province}",
        "Nobody leaves {province} while the army of {name} sits outside it, "
        "and nobody in {capital} talks of raising the siege.",
    ),
)
TAKEN = (
    (
        "{province} flies the banner of {name}",
        "{province} now answers to {capital}. Its lords have sworn "
        "to {name}, and the tax rolls are being rewritten.",
    ),
    (
        "A new province for {name}",
        "The conquest of {province} is the talk of {capital}: {name} holds {holdings} now.",
    ),
)
LOOTED = (
    (
        "{province} counts its losses",
        "Raiders left {province} with its barns burnt and its granaries "
        "empty. {name} promises to rebuild, and to remember.",
    ),
)
WAR = (
    (
        "{name} stands firm against {enemies}",
        "The war with {enemies} goes on. In {capital} the recruiting "
        "sergeants are busy, and the people still back the war.",
    ),
    (
        "No peace with {enemies}",
        "Envoys from {capital} have no terms to offer {enemies}. {name} means to see this war through.",
    ),
    (
        "News from the front",
        "The council of {name} meets every day in {capital} while the war with {enemies} goes on.",
    ),
)
PEACE = (
    (
        "Markets busy in {capital}",
        "{name} is at peace, and trade flows through {holdings}. The "
        "merchants of {capital} have rarely had a better season.",
    ),
    (
        "{name} keeps its watch",
        "No enemy threatens {name} today, but the forts of {holdings} keep their garrisons.",
    ),
    (
        "A quiet season in {capital}",
        "The roads are open and the fields are tended. {name} has no quarrel it means to fight this season.",
    ),
)


def _press(game: Game, state: State, nation: str) -> list[dict[str, str]]:
    """Now and then an article signed by a nation a person may play: what it holds, besieges, lost to
    raiders or fights for. Only what the rules' fog of war shows everyone (its capital, its wars, who
    holds and besieges which province), never its resources or its plans. An NPC people signs nothing:
    the engine never prints a bot's press for one."""
    if is_npc(state, nation) or nation not in m.nations(state):
        return []
    record = state["factions"][nation]
    held = m.provinces_of(state, nation)

    def label(province: str) -> str:
        return game.world[province].label

    facts = {
        "name": record["name"],
        "capital": label(record["capital"]),
        "holdings": _count(len(held), "province"),
    }
    stories = []
    sieges = sorted(a["besieging"] for a in m.armies_of(state, nation) if a.get("besieging"))
    stories += [Story(SIEGE, {**facts, "province": label(p)}) for p in sieges[:1]]
    taken = [p for p in held if state["provinces"][p].get("conquered")]
    stories += [Story(TAKEN, {**facts, "province": label(p)}) for p in taken[:1]]
    looted = [p for p in held if state["provinces"][p].get("looted")]
    stories += [Story(LOOTED, {**facts, "province": label(p)}) for p in looted[:1]]
    enemies = [state["factions"][f]["name"] for f in sorted(record["wars"]) if f in state["factions"]]
    if enemies:
        stories.append(Story(WAR, {**facts, "enemies": series(enemies)}))
    else:
        stories.append(Story(PEACE, facts))
    return bot_articles(stream(game.seed, f"seasons/bot/{nation}/turn{state['turn']}/press"), stories)


def _count(count: int, word: str) -> str:
    return f"{number_word(count)} {word}" + ("" if count == 1 else "s")
