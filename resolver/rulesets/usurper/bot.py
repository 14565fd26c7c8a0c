"""Orders for a usurper nobody plays: a week of the game's loop (scout, harvest, build and renovate, craft,
trade and recruit, fight, keep the upkeep paid) drawn from what the usurper knows and holds.

The bot drafts each order, then reads it with the reading the checker and the resolver use
(``reading.UsurperReading``) on its own copy of the usurper's records: an order the reading refuses is never
written, and one it accepts spends, on that copy, the gold, stock and equipment it will spend in the week,
so that the next order of the file sees what is left. Its choices depend on the state alone; its press
draws from the campaign seed and the week.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from ...core.orders import Order
from ...core.phases import State
from ...core.rng import stream
from ...engine.plans import Reject
from ...engine.press import Story, bot_articles
from ...engine.ruleset import Game
from . import building, happenings, lairs, outfit, storage, upkeep, works
from . import model as m
from .acting import Plan
from .reading import UsurperReading

# What the bot builds, in turn, once the lumber is there: the Workshop first (crafting needs it), then a
# Barracks (each houses one unit: a second unit doubles the week's work).
ROOMS_WANTED = ("workshop", "barracks", "watchtower", "fortifications")
# The renovations it takes with spare stone, in turn, with the choice each asks for.
RENOVATIONS_WANTED = (
    ("workshop", "industrious", "crafting"),
    ("warehouse", "expanded_hold", None),
    ("watchtower", "enhanced_vision", None),
    ("throne", "inspiring_banner", "loyalty"),
    ("fortifications", "fill_in_the_cracks", "obscurity"),
)
# What its Workshop makes, most wanted first: tools a unit lacks, then arms and armour.
TOOLS_WANTED = ("saws", "shovels", "hammers")
ARMS_WANTED = ("light_armor", "shields", "ranged_weapons", "melee_weapons")
# The resources harvested first: lumber and stone make rooms; iron arms; gold pays.
HARVEST_ORDER = ("lumber", "stone", "iron", "gold")
IRON_KEPT = 22  # iron kept back from a sale: a set of Melee Weapons' worth
STONE_WANTED = 25  # enough for the first renovations and a tool or two
ATTACK_MARGIN = 1.0  # the bot attacks an encounter it is at least as strong as
RUNWAY_MONTHS = 4  # months of upkeep kept before gold goes on lumber or stone for rooms
LAST_UNIT_MARGIN = 1.5  # with its only unit it risks a fight only when half again as strong
FOOD_FROM_WEEK = 2  # food for the month's upkeep is bought from this week of the month on
# The setup market of week 1: tools handed to the units, as many as their slots take, in this order (Saws
# first: building and renovating need them equipped, and scouting and harvesting only gain from the others);
# sets kept in the Warehouse (Hammers: a craft sets them into the Workshop); resources for the first room
# and its first renovation; and a donkey for the first leader, who alone then reaches a market.
OUTFIT_EQUIPPED = ("saws", "shovels", "spyglass")
OUTFIT_STORED = ("hammers",)
UNIT_ACTIONS = ("attack", "build", "renovate", "craft", "harvest", "scout", "harass")


def orders_for(game: Game, state: State, faction: str) -> dict[str, Any]:
    week = Week(game, state, faction)
    week.plan()
    return {"orders": week.orders, "press": press(game, state, faction), "rumors": []}


class Week:
    """One week's orders for one usurper, each read as the checker will read it before it is kept."""

    def __init__(self, game: Game, state: State, faction: str) -> None:
        self.game, self.rules, self.faction = game, game.rules, faction
        # The bot's own copy of its usurper: accepted orders spend from it, the real state stays as it is.
        factions = dict(state["factions"])
        factions[faction] = copy.deepcopy(state["factions"][faction])
        self.state: State = {**state, "factions": factions}
        self.reading = UsurperReading(game, self.state, faction)
        self.orders: list[dict[str, Any]] = []
        self.plans: list[Plan] = []
        self.week = game.calendar.date(int(state["turn"])).step

    # --- what the usurper has -------------------------------------------------------------------------

    @property
    def record(self) -> dict[str, Any]:
        return m.usurper(self.state, self.faction)

    def busy(self) -> set[str]:
        return {entity for plan in self.plans for entity in plan.participants}

    def free_units(self) -> list[dict[str, Any]]:
        taken = self.busy()
        return [
            u
            for u in m.units(self.state, self.faction).values()
            if not u.get("grumpy") and u["id"] not in taken
        ]

    def free_leaders(self) -> list[dict[str, Any]]:
        taken = self.busy()
        return [
            leader
            for leader in m.leaders(self.state, self.faction).values()
            if int(leader.get("healing", 0)) == 0
            and int(leader.get("hp", 1)) > 0
            and leader["id"] not in taken
        ]

    def lair_of(self, entity: Mapping[str, Any]) -> dict[str, Any] | None:
        return m.home_lair(self.state, self.faction, entity)

    def reach(self, kind: str, entity: Mapping[str, Any]) -> int:
        return m.overland_speed(self.rules, kind, entity)

    def distance(self, a: str, b: str) -> int:
        return self.game.world.distance(a, b)

    def upkeep_reserve(self) -> int:
        """Gold kept for the month's upkeep: each unit's share, and the food the lairs lack for them at
        the market's price."""
        units = list(m.units(self.state, self.faction).values())
        gold = sum(int(self.rules["races"][u["race"]].get("upkeep", 5)) for u in units)
        stored = sum(storage.stock(lair, "foodstuffs") for lair in m.lairs(self.state, self.faction).values())
        food = (self.rules.get("market") or {}).get("foodstuffs") or {}
        price = -(-int(food.get("price", 0)) // max(1, int(food.get("quantity", 1))))
        return gold + max(0, len(units) - stored) * price

    def spare_gold(self) -> int:
        return int(self.record.get("gold", 0)) - self.upkeep_reserve()

    def holds_tool(self, tool: str, lair: Mapping[str, Any]) -> bool:
        """Whether a unit of this lair has the tool, the lair's Warehouse holds a set of it, or one of its
        Workshops has a set embedded."""
        own = any(
            any(held["item"] == tool for held in u.get("tools") or [])
            for u in m.units(self.state, self.faction).values()
            if self.lair_of(u) is lair
        )
        embedded = any(building.embedded(room, tool) for room in lairs.rooms_of(lair, "workshop"))
        return own or embedded or any(held["item"] == tool for held in lair.get("items") or [])

    # --- offering orders ------------------------------------------------------------------------------

    def offer(self, args: dict[str, Any]) -> Plan | None:
        """Keep the order when the reading accepts it, and spend on the copy what it will spend."""
        order = Order(len(self.orders) + 1, str(args["action"]), args)
        try:
            plan = self.reading.read(order)
        except Reject:
            return None
        self.orders.append(args)
        self.plans.append(plan)
        self._spend(plan)
        return plan

    def join(self, plan: Plan, entity_id: str) -> bool:
        """Add an assistant to an order already kept, when the reading still accepts it."""
        number = self.plans.index(plan) + 1
        args = {**self.orders[number - 1], "assist": [*plan.assistants, entity_id]}
        try:
            joined = self.reading.read(Order(number, str(args["action"]), args))
        except Reject:
            return False
        self.orders[number - 1], self.plans[number - 1] = args, joined
        return True

    def _spend(self, plan: Plan) -> None:
        """What the order will take, taken from the bot's copy: the sets it equips, the stock a work costs,
        the gold a visit spends."""
        if plan.action in works.WORKS:
            work = works.price(self.rules, self.state, plan, int(self.state["turn"]))
            lair = m.lairs(self.state, self.faction)[work.lair]
            storage.pay(lair, {k: v for k, v in work.cost.items() if k in lair.get("storage", {})})
        elif plan.action == outfit.OUTFIT:
            outfit.deliver(self.rules, self.state, self.faction, plan.details[outfit.OUTFIT])
        elif plan.action == "diplomacy":
            market = self.rules.get("market", {})
            spent = sum(
                int(market[item]["price"]) * -(-int(count) // int(market[item]["quantity"]))
                for item, count in (plan.order.get("buy") or {}).items()
                if item in market
            )
            spent += int(plan.order.get("bribe") or 0)
            spent += sum(self._unit_cost(race) for race in plan.order.get("recruit") or [])
            self.record["gold"] = int(self.record.get("gold", 0)) - spent

    # --- the week -------------------------------------------------------------------------------------

    def plan(self) -> None:
        self.outfit()
        self.attack()
        self.visit()
        self.craft()  # first: a tool or arms it lacks is worth more than a room's next step
        self.build()
        self.renovate()
        self.harvest()
        self.harass()
        self.scout()
        self.train()
        self.assist()

    def outfit(self) -> None:
        """In the weeks the setup market is open: a donkey for the first leader, the tools its units have
        slots for, Hammers for the Workshop to come, food for the first upkeep, and the lumber and stone of
        the first room and its first renovation, while the gold lasts with the month's upkeep kept."""
        if not outfit.is_open(self.rules, int(self.state["turn"])):
            return
        lairs_held = m.lairs(self.state, self.faction)
        if not lairs_held:
            return
        lair = lairs_held[sorted(lairs_held)[0]]
        units = sorted(
            (u for u in m.units(self.state, self.faction).values() if self.lair_of(u) is lair),
            key=lambda u: u["id"],
        )
        leaders = sorted(m.leaders(self.state, self.faction).values(), key=lambda x: x["id"])
        buy: dict[str, int] = {}
        equip: dict[str, list[str]] = {}
        if leaders and not leaders[0].get("donkey"):
            buy[outfit.DONKEY] = 1
            equip[leaders[0]["id"]] = [outfit.DONKEY]
        for tool in OUTFIT_EQUIPPED:
            taker = next((u for u in units if _free_tool_slots(u, equip.get(u["id"], [])) > 0), None)
            if taker is not None:  # a set nobody can wear would only fill the Warehouse
                equip.setdefault(taker["id"], []).append(tool)
                buy[tool] = 1
        for item in OUTFIT_STORED:
            buy[item] = buy.get(item, 0) + 1
        food = sum(upkeep.share(self.rules, u)[1] for u in units) - storage.stock(lair, "foodstuffs")
        if food > 0:
            buy["foodstuffs"] = food
        first_room = building.build_costs(self.rules, lair, 1)[0]
        first_renovation = {
            str(self.rules["renovating"]["resource"]): building.renovation_cost(
                self.rules, "workshop", "industrious", 1, 0
            )
        }
        for resource, needed in sorted({**first_room, **first_renovation}.items()):
            if needed > storage.stock(lair, resource):
                buy[resource] = needed - storage.stock(lair, resource)
        while buy:
            args = {"action": outfit.OUTFIT, "buy": dict(buy)}
            given = {who: items for who, items in equip.items() if items}
            if given:
                args["equip"] = given
            cost = sum(lot.gold for lot in outfit.price(self.rules, buy))
            if cost <= self.spare_gold() and self.offer(args):
                return
            dropped = next(reversed(buy))  # the last wanted goes first when the gold falls short
            del buy[dropped]
            for items in equip.values():
                while dropped in items:
                    items.remove(dropped)

    def attack(self) -> None:
        """Attack a known encounter when the units that can reach it are at least as strong."""
        encounters = m.known(self.state, self.faction)["encounters"]
        for key, encounter in sorted(encounters.items()):
            grid = encounter.get("grid")
            if not grid:
                continue
            force = [u for u in self.free_units() if self._reaches(m.UNIT, u, grid)]
            theirs = sum(power(u) for u in encounter.get("units") or [])
            ours = sum(power(u) for u in force)
            margin = ATTACK_MARGIN if len(m.units(self.state, self.faction)) > 1 else LAST_UNIT_MARGIN
            if not force or ours < margin * max(theirs, 1):
                continue
            force.sort(key=lambda u: (-power(u), u["id"]))
            self.offer(
                {
                    "action": "attack",
                    "by": force[0]["id"],
                    "assist": [u["id"] for u in force[1:]],
                    "target": grid,
                    "encounter": key,
                }
            )

    def visit(self) -> None:
        """A leader visits the nearest city or known settlement it can reach when the usurper needs food for
        the month's upkeep, tools it lacks, or a new unit its Barracks have room for."""
        leaders = self.free_leaders()
        if not leaders:
            return
        for leader in sorted(leaders, key=lambda x: (-self.reach(m.LEADER, x), x["id"])):
            lair = self.lair_of(leader)
            if lair is None:
                continue
            places = self._places_within(lair["grid"], self.reach(m.LEADER, leader))
            for grid, races in places:
                for args in self._visits(leader, lair, grid, races):
                    if self.offer(args):
                        return

    def _places_within(self, home: str, reach: int) -> list[tuple[str, list[str]]]:
        """Cities and known settlements within reach, nearest first, with the peoples who live there."""
        found = {
            grid: list(city.get("races") or []) for grid, city in (self.state.get("cities") or {}).items()
        }
        for grid, place in m.known(self.state, self.faction)["settlements"].items():
            if place.get("attitude") not in ("hostile",):
                found.setdefault(grid, list(place.get("races") or []))
        near = [(self.distance(home, grid), grid) for grid in found if self.distance(home, grid) <= reach]
        return [(grid, found[grid]) for _, grid in sorted(near)]

    def _visits(
        self, leader: Mapping[str, Any], lair: Mapping[str, Any], grid: str, races: list[str]
    ) -> Iterable[dict[str, Any]]:
        """The visits worth making, the fullest first: what to buy and whom to recruit."""
        market = self.rules.get("market", {})
        gold = self.spare_gold()
        units = [u for u in m.units(self.state, self.faction).values() if self.lair_of(u) is lair]
        buy: dict[str, int] = {}
        food_short = len(units) - storage.stock(lair, "foodstuffs")
        if self.week >= FOOD_FROM_WEEK and food_short > 0:
            buy["foodstuffs"] = food_short
        for tool in ("saws", "shovels", "spyglass", "hammers"):
            # a set nobody has a slot for would only fill the Warehouse (Hammers go into the Workshop)
            wearable = tool == "hammers" or any(_free_tool_slots(u, []) > 0 for u in units)
            if not self.holds_tool(tool, lair) and tool in market and wearable:
                buy[tool] = 1
        # Gold to spare and the next room short of lumber: the market sells it cheaper than weeks of work.
        if self._rooms_wanted(lair):
            next_room = building.build_costs(self.rules, lair, 1)[0]
            for resource, lacking in storage.short_of(lair, next_room).items():
                if resource in market:
                    buy[resource] = lacking
        cost = 0
        kept: dict[str, int] = {}
        for item, count in buy.items():
            price = int(market[item]["price"]) * -(-count // int(market[item]["quantity"]))
            # food is bought even from the upkeep reserve: an unfed unit tests its loyalty as an unpaid one
            budget = int(self.record.get("gold", 0)) if item == "foodstuffs" else gold
            if item in ("lumber", "stone"):  # building material only from gold beyond months of upkeep
                budget -= (RUNWAY_MONTHS - 1) * self.upkeep_reserve()
            if cost + price <= budget:
                kept[item] = count
                cost += price
        recruit: list[str] = []
        if self._barracks_room(lair) > 0 and races:
            race = sorted(races)[int(self.state["turn"]) % len(races)]
            upkeep = int(self.rules["races"][race].get("upkeep", 0))
            # The recruit and its first month's pay; a usurper that knows a gold node counts on it to pay.
            if gold - cost >= self._unit_cost(race) + (0 if self._gold_to_dig() else upkeep):
                recruit = [race]
        sell = self._surplus(lair) if gold < 0 else {}  # short of the month's upkeep: sell what it can spare
        visits = []
        if kept or recruit or sell:
            visits.append({"buy": kept, "recruit": recruit})
        if kept and recruit:
            visits += [{"buy": kept, "recruit": []}, {"buy": {}, "recruit": recruit}]
        if "foodstuffs" in kept and len(kept) > 1:
            visits.append({"buy": {"foodstuffs": kept["foodstuffs"]}, "recruit": []})
        for visit in visits:
            args: dict[str, Any] = {"action": "diplomacy", "by": leader["id"], "target": grid}
            if visit["buy"]:
                args["buy"] = dict(visit["buy"])
            if visit["recruit"]:
                args["recruit"] = list(visit["recruit"])
            if sell:
                args["sell"] = dict(sell)
            yield args

    def _surplus(self, lair: Mapping[str, Any]) -> dict[str, int]:
        """What the lair may sell to pay its upkeep: the resources it holds beyond what its next room and
        renovation and a crafted weapon would take."""
        keep = {
            "lumber": building.build_costs(self.rules, lair, 1)[0].get("lumber", 0),
            "stone": STONE_WANTED,
            "iron": IRON_KEPT,
        }
        return {
            resource: storage.stock(lair, resource) - kept
            for resource, kept in keep.items()
            if storage.stock(lair, resource) > kept
        }

    def _gold_to_dig(self) -> bool:
        """Whether the usurper knows a gold node with a use left: income it may count on."""
        nodes = m.known(self.state, self.faction)["nodes"].values()
        return any(node.get("resource") == "gold" and int(node.get("uses", 0)) > 0 for node in nodes)

    def _unit_cost(self, race: str) -> int:
        return int((self.rules["races"].get(race) or {}).get("cost", 0))

    def _barracks_room(self, lair: Mapping[str, Any]) -> int:
        beds = lairs.lair_bonus(self.rules, lair, "units")
        housed = sum(1 for u in m.units(self.state, self.faction).values() if self.lair_of(u) is lair)
        return beds - housed

    def _workers(self, lair: Mapping[str, Any], tool: str) -> list[tuple[dict[str, Any], list[str]]]:
        """Free units of the lair with what each must equip to have ``tool``: those that have it first."""
        found = []
        stored = any(held["item"] == tool for held in lair.get("items") or [])
        for unit in self.free_units():
            if self.lair_of(unit) is not lair:
                continue
            if building.has_tool(unit, tool):
                found.append((0, unit, []))
            elif stored:
                found.append((1, unit, [tool]))
        return [(unit, equip) for _, unit, equip in sorted(found, key=lambda f: (f[0], f[1]["id"]))]

    def _work(self, lair: Mapping[str, Any], tool: str, args: dict[str, Any]) -> Plan | None:
        """The work by the first unit that can do it, with a free leader of the lair helping when one is
        left (a leader's presence adds to the roll). The helper is named at once: a work equips and spends
        on the bot's copy, so it is not read a second time."""
        helpers = [leader for leader in self.free_leaders() if self.lair_of(leader) is lair]
        for unit, equip in self._workers(lair, tool):
            offered = {**args, "by": unit["id"], "target": lair["grid"]}
            if equip:
                offered["equip"] = equip
            for helped in ([helpers[0]["id"]], []) if helpers else ([],):
                plan = self.offer({**offered, "assist": helped} if helped else offered)
                if plan is not None:
                    return plan
        return None

    def build(self) -> None:
        """The next wanted room, once the lair holds its lumber and a unit has (or can take) Saws."""
        for lair in m.lairs(self.state, self.faction).values():
            cost = building.build_costs(self.rules, lair, 1)[0]
            if storage.short_of(lair, cost):
                continue
            for room in self._rooms_wanted(lair):
                if self._work(lair, "saws", {"action": "build", "rooms": [room]}):
                    break

    def _rooms_wanted(self, lair: Mapping[str, Any]) -> list[str]:
        have = {room["type"] for room in lair.get("rooms") or []}
        wanted = [room for room in ROOMS_WANTED if room not in have or room == "barracks"]
        # Another Barracks only for a recruit it can pay for: an empty one is lumber wasted.
        recruit_cost = min((self._unit_cost(race) for race in self.rules["start"]["unit_races"]), default=0)
        if self._barracks_room(lair) > 0 or self.spare_gold() < recruit_cost:
            wanted = [room for room in wanted if room != "barracks"]
        return wanted

    def renovate(self) -> None:
        """A renovation with the stone the lair holds, the Workshop's first."""
        for lair in m.lairs(self.state, self.faction).values():
            have = {room["type"] for room in lair.get("rooms") or []}
            for room, renovation, choice in RENOVATIONS_WANTED:
                if room not in have:
                    continue
                args: dict[str, Any] = {"action": "renovate", "room": room, "renovation": renovation}
                if choice:
                    args["choice"] = choice
                if self._work(lair, "saws", args):
                    break

    def craft(self) -> None:
        """One item a week in a lair with a Workshop: a tool the units lack, else arms or armour."""
        for lair in m.lairs(self.state, self.faction).values():
            if not lairs.rooms_of(lair, "workshop"):
                continue
            wanted = [tool for tool in TOOLS_WANTED if not self.holds_tool(tool, lair)]
            bare = [u for u in m.units(self.state, self.faction).values() if not u.get("armor")]
            wanted += [item for item in ARMS_WANTED if bare or item != "light_armor"]
            for item in wanted:
                if self._work(lair, "hammers", {"action": "craft", "items": [item]}):
                    break
                if self._embedding_work(lair, {"action": "craft", "items": [item]}):
                    break

    def _embedding_work(self, lair: Mapping[str, Any], args: dict[str, Any]) -> Plan | None:
        """A craft by any free unit of the lair that first sets the stored Hammers into the Workshop, for
        good: its units' tool slots are full of Saws and Shovels, and the Workshop holds one set for all."""
        if not any(held["item"] == "hammers" for held in lair.get("items") or []):
            return None
        for unit in self.free_units():
            if self.lair_of(unit) is lair:
                plan = self.offer({**args, "by": unit["id"], "target": lair["grid"], "embed": True})
                if plan is not None:
                    return plan
        return None

    def harvest(self) -> None:
        """Each known node within reach, the most wanted resource first: one unit works it, and a second
        free unit helps (one roll, more dice)."""
        nodes = m.known(self.state, self.faction)["nodes"]
        order = self._resource_order()
        open_nodes = sorted(
            (
                grid
                for grid, node in nodes.items()
                if int(node.get("uses", 0)) > 0 and node.get("resource") in order
            ),
            key=lambda g: (order.index(nodes[g]["resource"]), g),
        )
        unseen = bool(self._unseen_near())
        for grid in open_nodes:
            crew = [u for u in self.free_units() if self._reaches(m.UNIT, u, grid)]
            if not crew:
                continue
            crew.sort(key=lambda u: (-harvest_skill(u), u["id"]))
            plan = self.offer({"action": "harvest", "by": crew[0]["id"], "target": grid})
            if plan is not None and len(crew) > 1 and not unseen:
                self.join(plan, crew[1]["id"])

    def _resource_order(self) -> list[str]:
        lair = next(iter(m.lairs(self.state, self.faction).values()), None)
        if lair is None:
            return list(HARVEST_ORDER)
        lumber_wanted = building.build_costs(self.rules, lair, 1)[0].get("lumber", 0)
        short = ["gold"] if self.spare_gold() < 0 else []  # the month's upkeep comes first
        if storage.stock(lair, "lumber") < lumber_wanted:
            short.append("lumber")
        if storage.stock(lair, "stone") < STONE_WANTED:
            short.append("stone")
        return [*short, *[r for r in HARVEST_ORDER if r not in short]]

    def harass(self) -> None:
        """Short of gold for the month's upkeep, a unit waylays travellers on plains nearby: a gamble of
        men for a few gold pieces."""
        if self.spare_gold() >= 0 or self.week > 3 or len(m.units(self.state, self.faction)) < 2:
            return  # never with its only unit: a unit that flees may leave for good
        for unit in sorted(self.free_units(), key=lambda u: (-power(u), u["id"])):
            lair = self.lair_of(unit)
            if lair is None:
                continue
            plains = sorted(
                (self.distance(lair["grid"], grid), grid)
                for grid in self.game.world
                if self.game.world[grid].terrain == "plains" and self._reaches(m.UNIT, unit, grid)
            )
            if plains and self.offer({"action": "harass", "by": unit["id"], "target": plains[0][1]}):
                return

    def _unseen_near(self) -> set[str]:
        seen = set(m.known(self.state, self.faction)["scouted"])
        found = set()
        for unit in self.free_units():
            lair = self.lair_of(unit)
            if lair is None:
                continue
            reach = self.reach(m.UNIT, unit)
            found |= {g for g in self.game.world if g not in seen and self.distance(lair["grid"], g) <= reach}
        return found

    def scout(self) -> None:
        """The free units, the best scouts first, each scouts the nearest grid not yet seen."""
        seen = set(m.known(self.state, self.faction)["scouted"])
        taken = {plan.target for plan in self.plans if plan.action == "scout"}
        for unit in sorted(self.free_units(), key=lambda u: (-scout_skill(self.rules, u), u["id"])):
            lair = self.lair_of(unit)
            if lair is None:
                continue
            reach = self.reach(m.UNIT, unit)
            fresh = sorted(
                (self.distance(lair["grid"], grid), grid)
                for grid in self.game.world
                if grid not in seen | taken and 0 < self.distance(lair["grid"], grid) <= reach
            )
            if not fresh:  # all seen: search again where a cache or a new node may lie
                known = m.known(self.state, self.faction)["nodes"]
                fresh = sorted(
                    (self.distance(lair["grid"], grid), grid)
                    for grid in self.game.world
                    if grid not in taken | set(known)
                    and 0 < self.distance(lair["grid"], grid) <= reach
                    and self._may_yield(grid)
                )
            for _, grid in fresh:
                if self.offer({"action": "scout", "by": unit["id"], "target": grid}):
                    taken.add(grid)
                    break

    def _may_yield(self, grid: str) -> bool:
        """Whether scouting a grid may bring a cache or a resource node: its terrain holds either."""
        terrain = (self.rules.get("terrains") or {}).get(self.game.world[grid].terrain) or {}
        return bool(terrain.get("caches") or terrain.get("node"))

    def train(self) -> None:
        """Once a month, in its third week, a leader with a rank in a skill teaches it to the other."""
        if self.week != 3:
            return
        leaders = self.free_leaders()
        for trainer in leaders:
            learners = [x for x in leaders if x["id"] != trainer["id"]]
            for skill, held in sorted((trainer.get("skills") or {}).items()):
                if int((held or {}).get("rank", 0)) < 1 or not learners:
                    continue
                lair = self.lair_of(trainer)
                home = lair["grid"] if lair else None
                plan = self.offer({"action": "train", "by": trainer["id"], "skill": skill, "target": home})
                if plan is None:
                    continue
                if self.offer(
                    {"action": "learn", "by": learners[0]["id"], "from": trainer["id"], "target": home}
                ):
                    return
                self._withdraw(plan)

    def _withdraw(self, plan: Plan) -> None:
        """Take back the last order kept (a lesson nobody can attend); the reading forgets it too."""
        number = self.plans.index(plan) + 1
        if number != len(self.plans):
            return
        self.plans.pop()
        self.orders.pop()
        self.reading.busy = {k: v for k, v in self.reading.busy.items() if v != number}
        self.reading.taken = {k: v for k, v in self.reading.taken.items() if v != number}

    def assist(self) -> None:
        """The leaders left join the units' work (their presence adds to its roll), the lair's work first."""
        rank = {
            action: n for n, action in enumerate(("build", "renovate", "craft", "harvest", "attack", "scout"))
        }
        for leader in self.free_leaders():
            for plan in sorted(self.plans, key=lambda p: (rank.get(p.action, 99), self.plans.index(p))):
                # a work was read with its spending; an attack gains nothing from a leader and risks him
                if plan.action in ("harvest", "scout") and self.join(plan, leader["id"]):
                    break

    def _reaches(self, kind: str, entity: Mapping[str, Any], grid: str) -> bool:
        lair = self.lair_of(entity)
        return lair is not None and self.distance(lair["grid"], grid) <= self.reach(kind, entity)


def _free_tool_slots(unit: Mapping[str, Any], promised: list[str]) -> int:
    """Tool slots a unit has left once the sets already promised to it are on."""
    return int(unit.get("max_tools", 0)) - len(unit.get("tools") or []) - len(promised)


def power(unit: Mapping[str, Any]) -> int:
    """A rough worth of a unit in a fight: its men times its stats, level and arms."""
    stats = sum(int(unit.get(stat, 1)) for stat in ("offense", "defense", "strength"))
    arms = len(unit.get("weapons") or []) + (1 if unit.get("armor") else 0)
    return int(unit.get("pax", 10)) * (stats + int(unit.get("level", 0)) + arms)


def scout_skill(rules: Mapping[str, Any], unit: Mapping[str, Any]) -> int:
    """How well a unit scouts, roughly as its roll counts it: a Spyglass, ranks of Scout, a racial knack."""
    spyglass = 4 if any(held["item"] == "spyglass" for held in unit.get("tools") or []) else 0
    ranks = int(((unit.get("skills") or {}).get("scout") or {}).get("rank", 0))
    racial = 10 if unit.get("race") == "goblins" else 0
    return spyglass + 3 * ranks + racial


def harvest_skill(unit: Mapping[str, Any]) -> int:
    shovels = 4 if any(held["item"] == "shovels" for held in unit.get("tools") or []) else 0
    ranks = sum(
        int((held or {}).get("rank", 0))
        for skill, held in (unit.get("skills") or {}).items()
        if skill in ("woodsman", "stonecutter", "pickaxe_user", "digger")
    )
    return shovels + 3 * ranks


# --- press ------------------------------------------------------------------------------------------------

LEADING = (
    (
        "{name} leads the count",
        "When the Victory Points were counted, {name} stood first with {points}. Its rivals mutter that "
        "luck, not cunning, put it there; {name} only smiles.",
    ),
    (
        "First among usurpers: {name}",
        "{points} at the last count, and nobody ahead. The banners of {name} are seen in more taverns "
        "every week.",
    ),
)
CHASING = (
    (
        "{name} means to catch {leader}",
        "{name} stands at {points} after the last count, behind {leader}. Its heralds say the gap will "
        "close before the next.",
    ),
    (
        "Patience, says {name}",
        "Behind {leader} at the count, with {points}, {name} tells anyone who listens that a usurper is "
        "judged at the end, not at the start.",
    ),
)
BOASTS = (
    (
        "{name} is busy",
        "Travellers speak of axes ringing and carts rolling for {name}. What it builds, it will not say.",
    ),
    (
        "A word from {name}",
        "{name} sends its greetings to every rival, and advises them to guard their roads.",
    ),
    (
        "Rumours of {name}",
        "Nobody has found the lair of {name}, and its leaders like it that way. Its scouts, they say, are "
        "everywhere.",
    ),
    (
        "{name} counts the days",
        "Week {week} of {month}, and {name} says it has lost none of them. Its rivals, it adds, cannot say "
        "the same.",
    ),
    (
        "An open letter from {name}",
        "To every usurper who reads this in week {week} of {month}: {name} wishes you a long road and "
        "short supplies.",
    ),
)
# Stories of the month's events, which every reader knows: the usurper's word on them.
MONTHLY = (
    (
        "{name} on {events}",
        "{events}: {name} says the month favours the bold, and that it has never been anything else.",
    ),
    (
        "{events}, and {name} laughs",
        "Others may curse {events} in {month}; {name} tells its heralds to call it good fortune.",
    ),
)


def press(game: Game, state: State, faction: str) -> list[dict[str, str]]:
    """Now and then an article signed by the usurper: its place in the public Victory Point standings, or a
    boast. Nothing private goes in it (no lair, no grid, no stock, nothing found): a bot's article is
    printed for every reader of a sealed campaign."""
    record = state["factions"].get(faction) or {}
    if record.get("status", "active") != "active":
        return []
    name = str(record.get("name") or faction)
    date = game.calendar.date(int(state["turn"]))
    facts = {"name": name, "week": str(date.step or 1), "month": date.period}
    stories = []
    month = state.get("happenings") or {}
    named = {str(h["id"]): str(h["name"]) for h in happenings.table(game.rules, str(month.get("season", "")))}
    events = [named.get(str(event), "") for event in month.get("events") or []]
    if events and all(events):
        stories.append(Story(MONTHLY, {**facts, "events": " and ".join(events)}))
    scores = state.get("scores") or {}
    if scores.get(faction):
        ranked = sorted(
            (f for f in scores if f in state["factions"]),
            key=lambda f: (-int(scores[f].get("total", 0)), f),
        )
        points = f"{int(scores[faction].get('total', 0))} Victory Points"
        top = [f for f in ranked if int(scores[f].get("total", 0)) == int(scores[ranked[0]].get("total", 0))]
        if top == [faction]:
            stories.append(Story(LEADING, {**facts, "points": points}))
        elif faction not in top:
            leader = str(state["factions"][ranked[0]].get("name") or ranked[0])
            stories.append(Story(CHASING, {**facts, "points": points, "leader": leader}))
    stories.append(Story(BOASTS, facts))
    return bot_articles(stream(game.seed, f"usurper/bot/{faction}/turn{state['turn']}/press"), stories)
