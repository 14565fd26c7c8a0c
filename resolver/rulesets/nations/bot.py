"""A bot that plays a nation: expand, recruit, march on the weakest neighbour, besiege and storm.

It drafts orders greedily, then hands them to the same validator players use and
drops any order it rejects, so whatever it submits is legal by construction.
Choices that could go either way come from a stream seeded by the campaign, the
turn and the nation: the bot is deterministic like everything else.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from ...core.phases import State
from ...core.rng import stream
from ...core.words import number_word
from ...core.world import make_names
from ...engine.press import Story, bot_articles
from ...engine.ruleset import Game
from . import model as m

SIEGE = (
    (
        "Army {army} before {settlement}",
        "Army {army} of {name} has come to {settlement} and means to stay until "
        "its gates open. {capital} expects news soon.",
    ),
    (
        "{settlement} will fall, says {capital}",
        "{name} has sent army {army} against {settlement}. Its "
        "defenders are invited to think of their families.",
    ),
)
THREAT = (
    (
        "{settlement} stands its ground",
        "Foreign soldiers have been seen at {settlement}. {name} calls every able hand to its walls.",
    ),
    (
        "{name} warns the invaders of {settlement}",
        "Whoever marched on {settlement} will find that {name} does not give up its towns.",
    ),
)
REALM = (
    (
        "{name} grows",
        "{name} holds {holdings} now, from {capital} outwards. Its surveyors are already "
        "looking for the next good site.",
    ),
    (
        "{name} calls for volunteers",
        "Recruiters from {capital} tour {holdings}: the armies of {name} want strong arms.",
    ),
)
FRONTIER = (
    (
        "Harvest festival in {capital}",
        "The granaries of {name} are full. {capital} celebrates the harvest with music in every street.",
    ),
    (
        "Scouts of {name} map the frontier",
        "Riders out of {capital} are charting the land beyond the "
        "borders of {name}. Their maps will be shared with no one.",
    ),
    (
        "{name} stands ready",
        "{capital} drills its soldiers every morning. {name} seeks no quarrel and fears none.",
    ),
)
RUMORS = (
    "They say the granaries of {capital} are emptier than anyone admits.",
    "A merchant swears he saw strange banners in the hills.",
    "Someone is paying deserters in silver.",
)


def _path(game: Game, start: str, goal: str, rules: Any) -> list[str]:
    """Directions of a shortest land path, or [] if there is none."""
    world = game.world
    if start == goal:
        return []
    prev: dict[str, tuple[str, str]] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        here = queue.popleft()
        for direction in world.directions():
            nxt = world.step(here, direction)
            if nxt is None or nxt in seen or not m.passable(world, rules, nxt):
                continue
            seen.add(nxt)
            prev[nxt] = (here, direction)
            if nxt == goal:
                steps = []
                while nxt != start:
                    nxt, d = prev[nxt]
                    steps.append(d)
                return steps[::-1]
            queue.append(nxt)
    return []


def _build_site(game: Game, state: State, start: str, rules: Any) -> str | None:
    """The nearest land tile far enough from every settlement and every site being built."""
    gap = int(rules["build"]["min_distance"])
    taken = [s["location"] for s in state["settlements"].values()] + m.build_sites(state)
    world = game.world
    free = [
        t for t in world if m.passable(world, rules, t) and all(world.distance(t, s) > gap for s in taken)
    ]
    return min(free, key=lambda t: (world.distance(start, t), t), default=None)


class Draft:
    def __init__(self, game: Game, state: State, nation: str) -> None:
        self.game, self.state, self.nation = game, state, nation
        self.rules = game.rules
        self.armies = m.ArmyIndex(state)  # read only: the drafted orders move nothing
        self.ap = int(self.rules["actions"]["per_turn"])
        self.resources = int(state["factions"][nation]["stock"].get("resources", 0))
        self.orders: list[dict[str, Any]] = []
        self.explored = False
        self.raze = False

    def add(self, order: dict[str, Any], ap: int = 0, resources: int = 0) -> bool:
        if ap > self.ap or resources > self.resources:
            return False
        self.ap -= ap
        self.resources -= resources
        self.orders.append(order)
        return True


def orders_for(game: Game, state: State, nation: str) -> dict[str, Any]:
    d = Draft(game, state, nation)
    turn = int(state["turn"])
    rng = stream(game.seed, f"bot/{nation}/turn{turn}")
    d.raze = rng.below(2) == 0
    settlements = sorted(m.settlements_of(state, nation), key=lambda s: s["id"])
    home = next((s for s in settlements if s["type"] == "capital"), settlements[0] if settlements else None)

    # Training must get its action every turn; armies come next (fast marches cost an action),
    # then settling, then unfinished work, then new work.
    projects = sorted(m.projects_of(state, nation), key=lambda p: p["id"])
    for p in projects:
        if p["kind"] == "recruit":
            d.add({"action": "work", "project": p["name"], "actions": 1}, 1)
    armies = sorted(m.armies_of(state, nation), key=lambda a: (-len(a["units"]), a["name"]))
    _military(d, armies, home, rng)
    _economy(d, settlements, home, armies, turn, rng)

    rumors = []
    press = _press(game, state, nation, home)
    if rng.below(4) == 0 and home:
        rumors.append(rng.choice(RUMORS).format(capital=home["name"]))
    return {"orders": d.orders, "press": press, "rumors": rumors}


def _press(game: Game, state: State, nation: str, home: dict | None) -> list[dict[str, str]]:
    """Now and then an article signed by the nation: an army of its before a foreign town, a foreign army
    at one of its own, its realm, its frontier. Only what everyone sees on the map (armies, their names
    and where they stand, who holds which town), never its stock."""
    if home is None:
        return []
    name = state["factions"][nation]["name"]
    towns = sorted(m.settlements_of(state, nation), key=lambda s: s["id"])
    count = len(towns)
    facts = {
        "name": name,
        "capital": home["name"],
        "holdings": f"{number_word(count)} {'town' if count == 1 else 'towns'}",
    }
    stories = []
    for army in sorted(m.armies_of(state, nation), key=lambda a: a["name"]):
        there = m.settlement_at(state, army["location"])
        if there and there["owner"] != nation and army["units"]:
            stories.append(Story(SIEGE, {**facts, "army": army["name"], "settlement": there["name"]}))
            break
    for town in towns:
        if m.foreign_armies_at(state, town["location"], nation):
            stories.append(Story(THREAT, {**facts, "settlement": town["name"]}))
            break
    if count > 1:  # a realm of one town has not grown yet
        stories.append(Story(REALM, facts))
    stories.append(Story(FRONTIER, facts))
    return bot_articles(stream(game.seed, f"bot/{nation}/turn{state['turn']}/press"), stories)


def _military(d: Draft, armies: list[dict], home: dict | None, rng: Any) -> None:
    game, state, nation, rules = d.game, d.state, d.nation, d.rules
    world = game.world
    enemies = [s for s in state["settlements"].values() if s["owner"] != nation]
    for index, army in enumerate(armies):
        here, size = army["location"], len(army["units"])
        name = army["name"]
        speed = m.army_speed(army, rules, state)
        foreign = m.settlement_at(state, here)
        if foreign and foreign["owner"] != nation and _storm_or_siege(d, army, foreign):
            continue
        hostile = [a for a in m.foreign_armies_at(state, here, nation) if a["units"]]
        if hostile:
            weakest = min(hostile, key=lambda a: len(a["units"]))
            if size >= len(weakest["units"]):
                d.add({"action": "attack", "army": name, "target": weakest["owner"]})
                continue
        is_main = index == 0 and size >= int(rules["siege"]["min_units"])
        if is_main and enemies:
            # March on the enemy settlement that is easiest to take, nearest first.
            target = min(enemies, key=lambda s, here=here: _target_cost(d.armies, rules, world, here, s))
            path = _path(game, here, target["location"], rules)
            if path:
                fast = len(path) > speed and d.ap >= 1
                steps = path[: speed * (2 if fast else 1)]
                d.add({"action": "move", "army": name, "path": steps, "fast": fast}, 1 if fast else 0)
                continue
        if len(army["units"]) > 1 and size <= 4 and index == 0 and int(state["turn"]) == 1:
            # Send the fastest unit off as a scout and settler.
            fast_units = [u for u in army["units"] if u["move"] > 1]
            if fast_units:
                d.add({"action": "split", "army": name, "units": [fast_units[0]["id"]]})
                # The scout leaves at once, so the recruits mustering at home join the main army.
                scout = m.split_names(state, nation, name)[0]
                site = _build_site(game, state, here, rules)
                path = (
                    _path(game, here, site, rules)[: fast_units[0]["move"]] if site and site != here else []
                )
                if path:
                    d.add({"action": "move", "army": scout, "path": path})
                continue
        if not d.explored and here not in state["factions"][nation].get("explored", []):
            d.explored = d.add({"action": "explore", "army": name})
        near = [s for s in enemies if world.distance(here, s["location"]) <= 1 and not s.get("siege")]
        if near:
            d.add({"action": "maraud", "army": name, "settlement": near[0]["name"]})


def _target_cost(armies: m.ArmyIndex, rules: Any, world: Any, here: str, s: dict) -> tuple[int, int, str]:
    defended = sum(len(a["units"]) for a in m.forces_at(armies, s["location"], s["owner"]))
    return world.distance(here, s["location"]) + 3 * defended, m.attackers_needed(rules, s), s["id"]


def _storm_or_siege(d: Draft, army: dict, target: dict) -> bool:
    rules = d.rules
    name = army["name"]
    weight = sum(m.unit_weight(u, rules) for u in army["units"])
    defenders = sum(len(a["units"]) for a in m.forces_at(d.armies, target["location"], target["owner"]))
    need = m.assault_need(rules, target, defended=bool(defenders))
    choice = "raze" if target["type"] == "farming" and d.raze else "capture"
    if weight >= need and len(army["units"]) >= defenders:
        return d.add({"action": "attack", "army": name, "target": target["name"], "on_fall": choice})
    siege = target.get("siege") or {}
    if siege.get("owner") == d.nation:
        return True  # hold still: moving would lift the siege
    if len(army["units"]) >= int(rules["siege"]["min_units"]) and not siege:
        return d.add({"action": "siege", "army": name, "settlement": target["name"]})
    return False


def _economy(
    d: Draft, settlements: list[dict], home: dict | None, armies: list[dict], turn: int, rng: Any
) -> None:
    game, state, nation, rules = d.game, d.state, d.nation, d.rules
    projects = sorted(m.projects_of(state, nation), key=lambda p: p["id"])
    build_cost = int(rules["build"]["resources"])
    building = any(p["kind"] == "build" for p in projects)
    settlers = [a for a in armies[1:] if a["units"]] or armies[:1]
    if not building and len(settlements) < 2 + turn // 4:
        for army in settlers:
            site = _build_site(game, state, army["location"], rules)
            if site == army["location"]:
                kind = "farming" if len(settlements) % 2 else "standard"
                name = make_names(game.seed + turn, 1, f"nations/settlement/{nation}/{army['id']}")[0]
                actions = min(d.ap, int(rules["build"]["actions"]))
                if actions and d.add(
                    {"action": "build", "army": army["name"], "type": kind, "name": name, "actions": actions},
                    actions,
                    build_cost,
                ):
                    building = True
                break
            if site and not any(o.get("army") == army["name"] and o["action"] == "move" for o in d.orders):
                path = _path(game, army["location"], site, rules)[: m.army_speed(army, rules, state)]
                if path:
                    d.add({"action": "move", "army": army["name"], "path": path})
                break
    for p in projects:
        per_action = int(p.get("resources_per_action", 0))
        affordable = d.resources // per_action if per_action else d.ap
        actions = min(int(p["needed"]) - int(p["progress"]), d.ap, affordable)
        if p["kind"] != "recruit" and actions > 0:
            d.add({"action": "work", "project": p["name"], "actions": actions}, actions, actions * per_action)
    upgrading = any(p["kind"] == "upgrade" for p in projects)
    if home and not upgrading and turn >= 3 and d.ap >= 1 and not home.get("siege") and not building:
        needed, upfront, per_action = m.upgrade_cost(rules, home["level"] + 1)
        actions = min(d.ap, needed, (d.resources - upfront) // per_action if per_action else d.ap)
        if actions > 0:
            d.add(
                {"action": "upgrade", "settlement": home["name"], "actions": actions},
                actions,
                upfront + per_action * actions,
            )
    advancing = any(p["kind"] == "advance" for p in projects)
    if not advancing and turn % 3 == 2 and d.ap >= 1:
        options = sorted(rules["advancements"])
        choice = options[rng.below(len(options))]
        level = state["factions"][nation].get("advancements", {}).get(choice, {}).get("level", 0) + 1
        if level <= int(rules["advancement"]["max_level"]):
            actions, cost = m.advancement_cost(rules, level)
            actions = min(actions, d.ap)
            d.add({"action": "advance", "advancement": choice, "actions": actions}, actions, cost)
    barracks = [s for s in settlements if not s.get("siege")]
    troops = rules["unit_classes"]["troops"]
    elite = rules["unit_classes"]["elite"]
    # Keep enough back to found the next settlement once the settler gets there.
    reserve = build_cost if not building and len(settlements) < 2 + turn // 4 else 0
    while barracks and d.ap >= 1 and d.resources - int(troops["resources"]) >= reserve:
        where = barracks[0]["name"]
        recruit = {"action": "recruit", "settlement": where}
        if d.resources - reserve >= int(elite["resources"]) + 4 and rng.below(3) == 0:
            stats = {"attack": 1, "defence": 1} if rng.below(2) else {"move": 1}
            trait = "stealth" if rng.below(3) == 0 else "veteran"
            guard = {"class": "elite", "name": "Guard", "trait": trait, "stats": stats}
            d.add({**recruit, **guard}, 1, int(elite["resources"]))
        elif not d.add(
            {**recruit, "class": "troops", "name": "Levy", "trait": "shield wall"},
            1,
            int(troops["resources"]),
        ):
            break
    if d.resources >= 12 and armies and rng.below(3) == 0:
        spot = armies[-1]["location"]
        if spot not in state.get("roads", {}):
            d.add({"action": "road", "location": spot}, 0, int(rules["roads"]["build_cost"]))
