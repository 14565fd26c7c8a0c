"""The queues the bot writes, unit by unit, in the manual's order language (numbers in ``rules/bot.yaml``).

A player faction's hero draws the month's coins in a city, hires followers, bids for swords on the market
day and hands them down (``BUY`` then ``-GIVE``: the gift waits for the purchase), studies toward the
next level of its plan (``15 STUDY cmbt 1``: a counter and a stop condition), claims a vacant title it
qualifies for, and now and then leads its stack out to a neighbouring territory after the second market
day's eve (``DAY 16`` / ``-MOVE Out`` / ``--MOVE L41``), coming home the month after. Followers equip
what they are given (``HAVE swrd`` / ``-EQUIP swrd``), study combat and work (``@WORK``). An aggressive
faction attacks a weaker force it sees where its hero stands. The outlaws' and creatures' bands roam and
attack what they meet.

Every choice comes from a stream labelled by the faction, the month, the unit and the purpose, so a unit's
queue never depends on the order the others were planned in. Orders the month cannot carry out yet (no
executor for the keyword) are never written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.phases import State
from ...core.rng import Stream, stream
from ...engine.ruleset import Game
from . import executors, movement, npcs
from . import model as m

Unit = dict[str, Any]


def can(keyword: str) -> bool:
    """Whether the month carries the order out: the bot writes nothing that would wait for ever."""
    return keyword in executors.EXECUTORS


@dataclass
class Plan:
    """One faction's month being drafted: the lines of each unit, and the coins its hero needs in hand."""

    game: Game
    state: State
    faction: str
    lines: dict[str, list[str]] = field(default_factory=dict)
    new_units: dict[str, list[str]] = field(default_factory=dict)  # temporary id -> its queue

    @property
    def rules(self) -> Mapping[str, Any]:
        return self.game.rules

    @property
    def numbers(self) -> Mapping[str, Any]:
        return self.rules["bot"]

    def roll(self, unit_id: str, purpose: str) -> Stream:
        turn = int(self.state["turn"])
        return stream(self.game.seed, f"overlord/bot/{self.faction}/turn{turn}/{unit_id}/{purpose}")

    def chance(self, unit_id: str, purpose: str, percent: int) -> bool:
        return self.roll(unit_id, purpose).below(100) < int(percent)

    # --- what the faction sees ------------------------------------------------------------------------

    def mine(self) -> dict[str, Unit]:
        return m.owned(self.state, self.faction)

    def strength(self, unit_id: str) -> int:
        """The figures of a unit's whole stack, itself included."""
        return sum(
            int((m.unit(self.state, uid) or {}).get("figures", 0)) for uid in [unit_id, *self._below(unit_id)]
        )

    def _below(self, unit_id: str) -> list[str]:
        return m.stack_of(self.state, unit_id)

    def others_at(self, location: str) -> list[str]:
        """Stack leaders of other factions standing (not travelling) where a unit of ours stands."""
        found = []
        for uid, unit in sorted(m.units(self.state).items()):
            if unit.get("owner") == self.faction or unit.get("location") != location or unit.get("moving"):
                continue
            if unit.get("stack") is None:
                found.append(uid)
        return found

    def stance(self, toward: str) -> str:
        stances = (self.state["factions"].get(self.faction) or {}).get("stances") or {}
        return str(stances.get(toward, stances.get("default", "neutral")))

    # --- the world -----------------------------------------------------------------------------------

    def is_city(self, location: str) -> bool:
        world = self.game.world
        return location in world and world[location].terrain in self.rules["economy"]["withdraw_places"]

    def place(self, location: str) -> Mapping[str, Any]:
        return (self.state.get("places") or {}).get(location) or {}

    def reachable(self, here: str, there: str) -> bool:
        """Whether a stack on foot can take the way from here to a neighbour in fair weather."""
        return movement.travel_days(self.game.world, here, there, "walk", "fair") is not None

    def home(self) -> str | None:
        """The faction's home city: where its first unit started (the lowest id's worked place)."""
        for unit in self.mine().values():
            if m.is_leader(unit):
                for where in (
                    unit.get("home"),
                    (unit.get("worked") or {}).get("location"),
                    unit.get("location"),
                ):
                    if where and self.is_city(str(where)):
                        return str(where)
        return next(
            (str(u["location"]) for u in self.mine().values() if self.is_city(str(u["location"]))), None
        )


# --- a player faction's hero -----------------------------------------------------------------------


def hero_month(plan: Plan, unit_id: str, unit: Unit, aggressive: bool) -> list[str]:
    numbers = plan.numbers
    location = str(unit.get("location"))
    lines: list[str] = []
    coins_needed = int(numbers["spare_coins"])
    buying: list[str] = []
    if plan.is_city(location):
        recruit_lines, cost = _recruits(plan, unit_id, location)
        buying += recruit_lines
        coins_needed += cost
        sword_lines, cost = _swords(plan, unit_id, location)
        buying += sword_lines
        coins_needed += cost
    claim_lines, cost = _claim(plan, unit_id, unit, location)
    coins_needed += cost
    draw = _withdrawal(plan, unit, location, coins_needed)
    if draw:
        lines.append(f"WITHDRAW {draw}")
    lines += _stance(plan, unit_id)
    lines += _attack(plan, unit_id, location) if aggressive else []
    lines += buying
    lines += claim_lines
    lines += _study(plan, unit, list(numbers["hero_studies"]))
    if not claim_lines and not unit.get("title"):
        lines += _journey(plan, unit_id, unit, location)  # a title holder stays where its title holds
    lines.append("@WORK")
    return lines


def _withdrawal(plan: Plan, unit: Unit, location: str, needed: int) -> int:
    """Coins to draw from the fund in a city: what the month's purchases need beyond the coins in hand,
    never touching the months of upkeep the fund keeps."""
    if not (plan.is_city(location) and can("WITHDRAW")):
        return 0
    held = int((unit.get("items") or {}).get("coin", 0))
    fund = int(plan.state["factions"][plan.faction].get("fund", 0))
    upkeep = sum(
        int((plan.rules["races"].get(str(u.get("race"))) or {}).get("upkeep", 0)) * int(u.get("figures", 0))
        for u in plan.mine().values()
    )
    spare = fund - upkeep * int(plan.numbers["reserve_months"])
    return max(0, min(needed - held, spare))


def _recruits(plan: Plan, unit_id: str, location: str) -> tuple[list[str], int]:
    """RECRUIT followers: a new unit while the faction has few, else more figures for the smallest."""
    offer = (plan.place(location).get("recruits") or {}).get("man") or {}
    if not can("RECRUIT") or int(offer.get("count", 0)) <= 0:
        return [], 0
    if not plan.chance(unit_id, "recruit", int(plan.numbers["recruit_chance"])):
        return [], 0
    count = min(int(plan.numbers["recruit_most"]), int(offer["count"]))
    count = max(1, plan.roll(unit_id, "recruit-count").between(count // 2 or 1, count))
    followers = {uid: u for uid, u in plan.mine().items() if u.get("race") == "man"}
    if len(followers) < int(plan.numbers["follower_units"]):
        target = f"{plan.faction}nU01"
        plan.new_units[target] = _follower_queue(plan, {"skills": {}, "items": {}})
    else:
        target = min(followers, key=lambda uid: (int(followers[uid].get("figures", 0)), uid))
    return [f"RECRUIT {target} {count} man 0"], count * int(offer["price"])


def _swords(plan: Plan, unit_id: str, location: str) -> tuple[list[str], int]:
    """BUY swords for the followers who have none, then -GIVE them down once bought."""
    offer = ((plan.place(location).get("market") or {}).get("sell") or {}).get("swrd") or {}
    if not (can("BUY") and int(offer.get("count", 0)) > 0):
        return [], 0
    lines: list[str] = []
    price = int(offer["price"]) * int(plan.numbers["bid_percent"]) // 100
    budget = int(plan.numbers["swords_per_month"])
    cost = 0
    for uid, unit in plan.mine().items():
        if unit.get("race") != "man" or unit.get("stack") != unit_id or budget <= 0:
            continue
        lacking = int(unit.get("figures", 0)) - int((unit.get("items") or {}).get("swrd", 0))
        count = min(lacking, budget, int(offer["count"]))
        if count <= 0:
            continue
        budget -= count
        cost += count * price
        lines.append(f"BUY {count} swrd {price}")
        if can("GIVE"):
            lines.append(f"-GIVE {uid} swrd {count}")
    return lines, cost


def _claim(plan: Plan, unit_id: str, unit: Unit, location: str) -> tuple[list[str], int]:
    """CLAIM a vacant title the hero qualifies for, where it stands or in a place inside its territory
    (going there first: ``MOVE L60`` / ``-CLAIM shrf L60 FREE``)."""
    catalogue = plan.rules.get("titles") or {}
    if not can("CLAIM") or unit.get("title") or unit.get("moving"):
        return [], 0
    world = plan.game.world
    if location not in world:
        return [], 0
    territory = npcs.home_territory(world, location)
    places = [location] + [p for p in [territory, *world.neighbours(territory)] if p != location]
    coins = int((unit.get("items") or {}).get("coin", 0))
    for where in places:
        if where not in world:
            continue
        inside = where in (location, territory) or world[where].parent == territory
        held = plan.place(where).get("title") or {}
        tag = str(held.get("tag") or "")
        if not inside or not tag or held.get("holder") is not None or tag not in catalogue:
            continue
        need = catalogue[tag].get("requirement") or {}
        if m.unit_level(plan.rules, unit, str(need.get("skill"))) < int(need.get("level", 0)):
            continue
        cost = int(catalogue[tag].get("cost", 0))
        if where == location:
            return [f"CLAIM {tag} {where} FREE"], max(0, cost - coins)
        route = _route(plan, location, where)
        if route is None or not can("MOVE"):
            continue
        lines = [("-" * depth) + f"MOVE {step}" for depth, step in enumerate(route)]
        lines.append(("-" * len(route)) + f"CLAIM {tag} {where} FREE")
        return lines, max(0, cost - coins)
    return [], 0


def _route(plan: Plan, here: str, there: str) -> list[str] | None:
    """The steps from here to a place of the same territory: straight there, or Out and in again."""
    world = plan.game.world
    if there in world.neighbours(here) and plan.reachable(here, there):
        return [there]
    territory = npcs.home_territory(world, here)
    if territory != here and plan.reachable(here, territory) and there in world.neighbours(territory):
        return ["Out", there]
    return None


def _study(plan: Plan, unit: Unit, studies: list[Any]) -> list[str]:
    """The next study of the plan the unit has not reached: ``15 STUDY cmbt 1``."""
    if not can("STUDY"):
        return []
    for skill, level in studies:
        if m.unit_level(plan.rules, unit, str(skill)) < int(level):
            return [f"{int(plan.numbers['study_days'])} STUDY {skill} {int(level)}"]
    return []


def _stance(plan: Plan, unit_id: str) -> list[str]:
    """Now and then a new stance toward a faction the bot knows: friendlier to a faction that it holds
    worse than neutral, warier of one it met."""
    if not can("STANCE") or not plan.chance(unit_id, "stance", int(plan.numbers["stance_chance"])):
        return []
    others = sorted(
        f
        for f, record in plan.state["factions"].items()
        if f != plan.faction and record.get("kind") == "player" and record.get("status", "active") == "active"
    )
    if not others:
        return []
    rng = plan.roll(unit_id, "stance-toward")
    toward = rng.choice(others)
    order = list(
        ((plan.rules.get("stances") or {}).get("order"))
        or ["ally", "friendly", "neutral", "hostile", "enemy"]
    )
    now = plan.stance(toward)
    choices = [s for s in order if s != now and s != "ally"]
    return [f"STANCE {toward} {rng.choice(choices).upper()}"]


def _attack(plan: Plan, unit_id: str, location: str) -> list[str]:
    """ATTACK the weakest force of another faction standing here, when ours is clearly stronger."""
    if not can("ATTACK"):
        return []
    ours = plan.strength(unit_id)
    margin = int(plan.numbers["attack_margin"])
    targets = [
        (plan.strength(uid), uid)
        for uid in plan.others_at(location)
        if plan.stance(str(m.units(plan.state)[uid]["owner"])) in ("hostile", "enemy")
        or m.units(plan.state)[uid]["owner"] in ("outlaws", "creatures")
    ]
    weak = [(size, uid) for size, uid in targets if size * 100 <= ours * margin]
    if not weak:
        return []
    return [f"ATTACK {min(weak)[1]}"]


def _journey(plan: Plan, unit_id: str, unit: Unit, location: str) -> list[str]:
    """Out to a neighbouring territory after the second market day's eve, or home again."""
    if not can("MOVE") or unit.get("moving"):
        return []
    world = plan.game.world
    home = plan.home()
    if location not in world or home is None:
        return []
    numbers = plan.numbers
    if location != home:
        route = _way_home(plan, location, home)
        return [("-" * depth) + f"MOVE {step}" for depth, step in enumerate(route)] if route else []
    if not plan.chance(unit_id, "ride-out", int(numbers["ride_out_chance"])):
        return []
    territory = npcs.home_territory(world, location)
    if territory == location or not plan.reachable(location, territory):
        return []
    out = [t for t in npcs.land_neighbours(world, territory) if plan.reachable(territory, t)]
    if not out:
        return []
    there = plan.roll(unit_id, "ride-out-where").choice(out)
    return [f"DAY {int(numbers['ride_out_day'])}", "-MOVE Out", f"--MOVE {there}"]


def _way_home(plan: Plan, here: str, home: str) -> list[str] | None:
    world = plan.game.world
    territory = npcs.home_territory(world, home)
    if here == territory:
        return [home]
    if here in world.neighbours(territory) and plan.reachable(here, territory):
        return [territory, home]
    if world[here].parent is not None and npcs.home_territory(world, here) == territory:
        return ["Out", home]
    return None


# --- followers ------------------------------------------------------------------------------------


def follower_month(plan: Plan, unit_id: str, unit: Unit) -> list[str]:
    return _follower_queue(plan, unit)


def _follower_queue(plan: Plan, unit: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    if can("EQUIP"):
        equipped = int((unit.get("equipped") or {}).get("swrd", 0))
        if equipped < int(unit.get("figures", 0)) or not unit.get("figures"):
            lines += ["HAVE swrd", "-EQUIP swrd"]
    lines += _study(plan, dict(unit), list(plan.numbers["follower_studies"]))
    lines.append("@WORK")
    return lines


# --- the outlaws' and creatures' bands -------------------------------------------------------------


def band_month(plan: Plan, unit_id: str, unit: Unit) -> list[str]:
    """A band's leader attacks a weaker force where it stands, else roams to a neighbouring territory."""
    location = str(unit.get("location"))
    lines: list[str] = []
    if can("ATTACK"):
        ours = plan.strength(unit_id)
        weaker = sorted(
            (plan.strength(uid), uid)
            for uid in plan.others_at(location)
            if plan.strength(uid) * 100 <= ours * int(plan.numbers["attack_margin"])
        )
        if weaker:
            lines.append(f"ATTACK {weaker[0][1]}")
    world = plan.game.world
    if (
        not lines
        and can("MOVE")
        and not unit.get("moving")
        and location in world
        and movement.may_set_out(plan.rules, unit)
        and plan.chance(unit_id, "roam", int(plan.numbers["roam_chance"]))
    ):
        out = [t for t in npcs.land_neighbours(world, location) if plan.reachable(location, t)]
        if out:
            lines.append(f"MOVE {plan.roll(unit_id, 'roam-where').choice(out)}")
    if m.is_leader(unit):
        lines.append("@WORK")  # creatures do not work for wages
    return lines
