"""The queues the bot writes, unit by unit, in the manual's order language (numbers in ``rules/bot.yaml``).

A player faction's hero draws the month's coins in a city, hires followers, bids for swords on the market
day and hands them down (``BUY`` then ``-GIVE``: the gift waits for the purchase), studies toward the
next level of its plan (``15 STUDY cmbt 1``: a counter and a stop condition), claims a vacant title it
qualifies for, and now and then leads its stack out to a neighbouring territory after the second market
day's eve (``DAY 16`` / ``-MOVE Out`` / ``--MOVE L41``), coming home the month after. Followers equip
what they are given (``HAVE swrd`` / ``-EQUIP swrd``), study combat and work (``@WORK``). An aggressive
faction attacks a weaker force it sees where its hero stands. The outlaws' and creatures' bands roam and
attack what they meet.

Since the second bot helper: followers wear jerkins at once and swords only after 1st blades (``SKILL blde
1`` / ``-HAVE swrd`` / ``--EQUIP swrd``, swords bought once they know 1st combat); a hero claims the
nearest vacant Sheriff or Mayor it qualifies for within ``claim_days`` (fee first, purses for its
followers when it leaves the fund behind), then stays and has its followers GUARD; it teaches its company,
sells spare goods on the market day (its horse when its stack walks), and hunts weaker bands next door.
The imperials' and citizens' standing units (``post_month``) guard their posts and walk back to them.

Every choice comes from a stream labelled by the faction, the month, the unit and the purpose, so a unit's
queue never depends on the order the others were planned in. Orders the month cannot carry out yet (no
executor for the keyword) are never written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core import world as core_world
from ...core.phases import State
from ...core.rng import Stream, stream
from ...engine.ruleset import Game
from . import executors, movement, npcs, sight
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
        """Stack leaders of other factions standing (not travelling) where a unit of ours stands and that
        the faction sees there (spec 1.7, as its report lists them)."""
        found = []
        for uid, unit in sorted(m.units(self.state).items()):
            if unit.get("owner") == self.faction or unit.get("location") != location or unit.get("moving"):
                continue
            if unit.get("stack") is None and sight.faction_sees(self.rules, self.state, self.faction, uid):
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
    # The title comes first: its fee (and the followers' purses for a life away from the fund) is set
    # aside before any purchase, which then fits what is left.
    claim_lines, claim_cost = _claim(plan, unit_id, unit, location)
    coins_needed = int(numbers["spare_coins"])
    coins_needed += claim_cost if claim_lines else _purse_for_a_title(plan, unit, location)
    budget = int((unit.get("items") or {}).get("coin", 0)) + _spare_fund(plan, location) - coins_needed
    buying: list[str] = []
    if plan.is_city(location) and not any(line.lstrip("-").startswith("MOVE") for line in claim_lines):
        for shopping in (_recruits, _swords):
            more, cost = shopping(plan, unit_id, location)
            if more and cost <= budget:
                buying += more
                budget -= cost
                coins_needed += cost
    draw = _withdrawal(plan, unit, location, coins_needed)
    if draw:
        lines.append(f"WITHDRAW {draw}")
    lines += _stance(plan, unit_id)
    lines += _attack(plan, unit_id, location) if aggressive else []
    lines += buying
    lines += _sales(plan, unit_id, unit, location)
    lines += claim_lines
    lines += _teaching(plan, unit_id, unit)
    lines += _study(plan, unit, list(numbers["hero_studies"]))
    if not claim_lines and not unit.get("title"):
        lines += _journey(plan, unit_id, unit, location, aggressive)  # a title holder stays put
    lines.append("@WORK")
    return lines


def _spare_fund(plan: Plan, location: str) -> int:
    """What the fund can give in a city beyond the months of upkeep it keeps (nothing elsewhere)."""
    if not (plan.is_city(location) and can("WITHDRAW")):
        return 0
    fund = int(plan.state["factions"][plan.faction].get("fund", 0))
    upkeep = sum(
        int((plan.rules["races"].get(str(u.get("race"))) or {}).get("upkeep", 0)) * int(u.get("figures", 0))
        for u in plan.mine().values()
    )
    return max(0, fund - upkeep * int(plan.numbers["reserve_months"]))


def _withdrawal(plan: Plan, unit: Unit, location: str, needed: int) -> int:
    """Coins to draw from the fund in a city: what the month needs beyond the coins in hand, never
    touching the months of upkeep the fund keeps."""
    held = int((unit.get("items") or {}).get("coin", 0))
    return max(0, min(needed - held, _spare_fund(plan, location)))


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
    """Arms for the followers beneath the hero (``bot.arms``, in turn: jerkins any figure wears, swords
    once blades are near): BUY on the market day, then -GIVE them down once bought."""
    lines: list[str] = []
    cost = 0
    for tag in plan.numbers["arms"]:
        more, spent = _arm(plan, unit_id, location, str(tag))
        lines += more
        cost += spent
    return lines, cost


def _arm(plan: Plan, unit_id: str, location: str, tag: str) -> tuple[list[str], int]:
    offer = ((plan.place(location).get("market") or {}).get("sell") or {}).get(tag) or {}
    if not (can("BUY") and int(offer.get("count", 0)) > 0):
        return [], 0
    lines: list[str] = []
    price = int(offer["price"]) * int(plan.numbers["bid_percent"]) // 100
    budget = int(plan.numbers["arms_per_month"])
    cost = 0
    for uid, unit in plan.mine().items():
        if unit.get("race") != "man" or unit.get("stack") != unit_id or budget <= 0:
            continue
        if not _will_wear(plan, unit, tag):
            continue  # swords wait until the followers are learning blades (1st combat reached)
        lacking = int(unit.get("figures", 0)) - int((unit.get("items") or {}).get(tag, 0))
        count = min(lacking, budget, int(offer["count"]))
        if count <= 0:
            continue
        budget -= count
        cost += count * price
        lines.append(f"BUY {count} {tag} {price}")
        if can("GIVE"):
            lines.append(f"-GIVE {uid} {tag} {count}")
    return lines, cost


def _claim(plan: Plan, unit_id: str, unit: Unit, location: str) -> tuple[list[str], int]:
    """CLAIM the nearest vacant title the hero qualifies for: where it stands, or a place within
    ``claim_days`` of walking, going there first (``MOVE Out`` / ``-MOVE L80`` / ``--MOVE L173`` /
    ``---CLAIM shrf L173 FREE``). The coins it costs must be in hand, so a hero away from a city only
    sets out with its purse full."""
    if not can("CLAIM") or unit.get("title") or unit.get("moving") or location not in plan.game.world:
        return [], 0
    coins = int((unit.get("items") or {}).get("coin", 0))
    for where, route, tag in _vacant_titles(plan, location):
        need = plan.rules["titles"][tag].get("requirement") or {}
        if m.unit_level(plan.rules, unit, str(need.get("skill"))) < int(need.get("level", 0)):
            continue
        cost = int(plan.rules["titles"][tag].get("cost", 0))
        if coins < cost and not plan.is_city(location):
            continue
        if route and not can("MOVE"):
            continue
        room = coins + _spare_fund(plan, location) - cost - int(plan.numbers["spare_coins"])
        if room < 0:
            continue  # the fee cannot be found this month
        if not route:
            return [f"CLAIM {tag} {where} FREE"], max(0, cost - coins)
        # Away from the fund for good once the title holds it: each follower unit takes a purse for a
        # month of study (what the fee leaves); the stack sets out on the first day, so no shopping.
        purses = []
        for uid, wanted in _purses(plan, unit_id) if plan.is_city(location) else []:
            if min(wanted, room) > 0:
                purses.append((uid, min(wanted, room)))
                room -= min(wanted, room)
        lines = [f"GIVE {uid} coin {coins_for}" for uid, coins_for in purses if can("GIVE")]
        lines += [("-" * depth) + f"MOVE {step}" for depth, step in enumerate(route)]
        lines.append(("-" * len(route)) + f"CLAIM {tag} {where} FREE")
        return lines, max(0, cost - coins) + sum(coins_for for _, coins_for in purses)
    return [], 0


def _purses(plan: Plan, unit_id: str) -> list[tuple[str, int]]:
    """(follower unit, coins) for a month of its next study, for each follower unit beneath the hero."""
    found = []
    for uid in m.stack_of(plan.state, unit_id):
        follower = plan.mine().get(uid)
        if not follower or follower.get("race") != "man":
            continue
        study = _next_study(plan, follower, list(plan.numbers["follower_studies"]))
        if study is None:
            continue
        fee = int(plan.rules["skills"][study[0]]["cost"]) * int(follower.get("figures", 0))
        needed = fee * int(plan.numbers["study_days"]) - int((follower.get("items") or {}).get("coin", 0))
        if needed > 0:
            found.append((uid, needed))
    return found


def _purse_for_a_title(plan: Plan, unit: Unit, location: str) -> int:
    """Coins a hero without a title keeps in hand for the nearest vacant title, so that it can set out
    to claim it the month it qualifies, wherever it then stands."""
    if unit.get("title") or location not in plan.game.world:
        return 0
    for _, _, tag in _vacant_titles(plan, location):
        return int(plan.rules["titles"][tag].get("cost", 0))
    return 0


def _vacant_titles(plan: Plan, location: str) -> list[tuple[str, list[str], str]]:
    """(place, route there, tag) of each vacant title the bot aims for (``claim_titles``), within
    ``claim_days`` of walking from here, nearest first (then by place id)."""
    catalogue = plan.rules.get("titles") or {}
    wanted = [str(tag) for tag in plan.numbers["claim_titles"] if tag in catalogue]
    found = []
    for where, (days, route) in walking_routes(plan, location, int(plan.numbers["claim_days"])).items():
        held = plan.place(where).get("title") or {}
        tag = str(held.get("tag") or "")
        if tag in wanted and held.get("holder") is None:
            found.append((days, _number(where), where, route, tag))
    return [(where, route, tag) for _, _, where, route, tag in sorted(found)]


def _number(loc_id: str) -> int:
    digits = "".join(ch for ch in loc_id if ch.isdigit())
    return int(digits) if digits else 0


def walking_routes(plan: Plan, here: str, limit: int) -> dict[str, tuple[int, list[str]]]:
    """Every place within ``limit`` days of walking in fair weather, with the steps of the quickest way
    there (``Out`` for the territory around an inner place, else the next place's id)."""
    world = plan.game.world
    found = core_world.shortest_paths(
        world.neighbours,
        lambda place, other: movement.travel_days(world, place, other, "walk", "fair"),
        here,
        limit,
        order=_number,
    )
    routes: dict[str, tuple[int, list[str]]] = {}
    for place, (days, _) in found.items():
        steps, at = [], place
        while found[at][1] is not None:
            before = str(found[at][1])
            steps.append("Out" if world[before].parent == at else at)
            at = before
        routes[place] = (days, steps[::-1])
    return routes


def _study(plan: Plan, unit: Unit, studies: list[Any]) -> list[str]:
    """The next study of the plan the unit has not reached: ``15 STUDY cmbt 1``."""
    if not can("STUDY"):
        return []
    study = _next_study(plan, unit, studies)
    if study is None:
        return []
    return [f"{int(plan.numbers['study_days'])} STUDY {study[0]} {study[1]}"]


def _next_study(plan: Plan, unit: Mapping[str, Any], studies: list[Any]) -> tuple[str, int] | None:
    for skill, level in studies:
        if m.unit_level(plan.rules, dict(unit), str(skill)) < int(level):
            return str(skill), int(level)
    return None


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
    # Never Enemy toward a faction met face to face: war declared where both stand is a massacre on the
    # first day, not a policy (it comes later, when the two meet on the road).
    met = any(_faction_at(plan, toward, str(u.get("location"))) for u in plan.mine().values())
    choices = [s for s in order if s != now and s != "ally" and not (met and s == "enemy")]
    return [f"STANCE {toward} {rng.choice(choices).upper()}"]


def _faction_at(plan: Plan, faction: str, location: str) -> bool:
    return any(
        u.get("owner") == faction and u.get("location") == location for u in m.units(plan.state).values()
    )


def _will_wear(plan: Plan, unit: Mapping[str, Any], tag: str) -> bool:
    """Whether followers can wear an item now or by the month's end: its skill already, or (swords)
    1st combat, so that the blades they study this month let them wear it. Before that it is dead weight."""
    need = plan.rules["items"][tag].get("equip") or {}
    skill, level = str(need.get("skill", "")), int(need.get("level", 0))
    if not skill or m.unit_level(plan.rules, dict(unit), skill) >= level:
        return True
    prerequisite = plan.rules["skills"][skill].get("requires") or {}
    return bool(prerequisite) and m.unit_level(plan.rules, dict(unit), str(prerequisite["skill"])) >= int(
        prerequisite["level"]
    )


def _sales(plan: Plan, unit_id: str, unit: Unit, location: str) -> list[str]:
    """SELL, on the market day, what the hero carries and nobody of its stack uses, where the market here
    buys it at its listed price: loot, and the horse of a hero whose stack walks at its followers' pace
    (followers on foot beneath it) or who stays where its title holds."""
    if not can("SELL"):
        return []
    wanted = ((plan.place(location).get("market") or {}).get("buy")) or {}
    items = {str(k): int(v) for k, v in (unit.get("items") or {}).items() if k != "coin"}
    worn = {str(k): int(v) for k, v in (unit.get("equipped") or {}).items()}
    walkers = any(
        u.get("race") == "man" and not int((u.get("items") or {}).get("hrse", 0))
        for u in (m.unit(plan.state, uid) or {} for uid in m.stack_of(plan.state, unit_id))
    )
    lines = []
    for tag, count in sorted(items.items()):
        offer = wanted.get(tag) or {}
        if not int(offer.get("count", 0)):
            continue
        spare = count - worn.get(tag, 0)
        if tag in plan.numbers["mounts"] and (walkers or unit.get("title")):
            spare = count  # a mount the hero has no road for
        spare = min(spare, int(offer["count"]))
        if spare > 0:
            lines.append(f"SELL {spare} {tag} {int(offer['price'])}")
    return lines


def _teaching(plan: Plan, unit_id: str, unit: Unit) -> list[str]:
    """TEACH the follower unit beneath the hero the skill it studies this month, when the hero knows it
    better (twice the speed, so half the days and half the fees); at most ``teach_days`` days."""
    if not can("TEACH"):
        return []
    mine = plan.mine()
    for uid in m.stack_of(plan.state, unit_id):
        student = mine.get(uid)
        if not student or student.get("race") != "man":
            continue
        study = _next_study(plan, student, list(plan.numbers["follower_studies"]))
        if study is None:
            continue
        skill = study[0]
        if m.unit_level(plan.rules, unit, skill) > m.unit_level(plan.rules, student, skill):
            return [f"{int(plan.numbers['teach_days'])} TEACH {uid} {skill}"]
    return []


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


def _journey(plan: Plan, unit_id: str, unit: Unit, location: str, aggressive: bool) -> list[str]:
    """Out against a band in a territory next to the one the hero stands in or at; else home again, or
    from home now and then out to a neighbouring territory after the first market day."""
    if not can("MOVE") or unit.get("moving"):
        return []
    world = plan.game.world
    home = plan.home()
    if location not in world or home is None:
        return []
    numbers = plan.numbers
    territory = npcs.home_territory(world, location)
    out = [t for t in npcs.land_neighbours(world, territory) if plan.reachable(territory, t)]
    # A band the whole country talks of, weaker than this stack: every hero hunts it; only an
    # aggressive faction's goes on hunting away from home.
    prey = _prey(plan, unit_id, out) if (aggressive or location == home) else []
    if prey:
        steps = [] if territory == location else ["Out"]
        gate = [f"DAY {int(numbers['ride_out_day'])}"] if plan.is_city(location) else []
        chain = [*steps, prey[0]]
        depth = len(gate)
        return gate + [("-" * (depth + i)) + f"MOVE {step}" for i, step in enumerate(chain)]
    if location != home:
        route = _way_home(plan, location, home)
        return [("-" * depth) + f"MOVE {step}" for depth, step in enumerate(route)] if route else []
    if territory == location or not plan.reachable(location, territory):
        return []
    if out and plan.chance(unit_id, "ride-out", int(numbers["ride_out_chance"])):
        there = plan.roll(unit_id, "ride-out-where").choice(out)
        return [f"DAY {int(numbers['ride_out_day'])}", "-MOVE Out", f"--MOVE {there}"]
    return []


def _prey(plan: Plan, unit_id: str, territories: list[str]) -> list[str]:
    """The territories among these where an outlaws' or creatures' band stands that this stack
    outnumbers by the attack margin, weakest band first (then by place)."""
    ours = plan.strength(unit_id)
    found = []
    for band_id, band in sorted(m.units(plan.state).items()):
        if band.get("owner") not in ("outlaws", "creatures") or band.get("stack") is not None:
            continue
        where = str(band.get("location"))
        size = plan.strength(band_id)
        if (
            where in territories
            and not band.get("moving")
            and size * 100 <= ours * int(plan.numbers["attack_margin"])
        ):
            found.append((size, _number(where), where))
    return [where for _, _, where in sorted(found)]


def _way_home(plan: Plan, here: str, home: str) -> list[str] | None:
    """The steps of the quickest walk home, from wherever the hero is."""
    found = walking_routes(plan, here, int(plan.numbers["post_days"])).get(home)
    return found[1] if found else None


# --- followers ------------------------------------------------------------------------------------


def follower_month(plan: Plan, unit_id: str, unit: Unit) -> list[str]:
    return _follower_queue(plan, unit)


def _follower_queue(plan: Plan, unit: Mapping[str, Any]) -> list[str]:
    """GUARD where the faction holds the land's title, wear swords once blades allow it (``SKILL blde
    1`` / ``-HAVE swrd`` / ``--EQUIP swrd``: the chain waits for the skill, then for the swords), study
    the next skill of the plan and work."""
    lines: list[str] = []
    if _guards_here(plan, unit):
        lines.append("@GUARD")
    for tag in plan.numbers["arms"] if can("EQUIP") else []:
        equipped = int((unit.get("equipped") or {}).get(str(tag), 0))
        if equipped >= int(unit.get("figures", 0)) and unit.get("figures"):
            continue
        need = plan.rules["items"][str(tag)].get("equip") or {}
        if int(need.get("level", 0)) > 0:  # wait for the skill, then for the arms
            lines += [f"SKILL {need['skill']} {int(need['level'])}", f"-HAVE {tag}", f"--EQUIP {tag}"]
        else:
            lines += [f"HAVE {tag}", f"-EQUIP {tag}"]
    lines += _study(plan, dict(unit), list(plan.numbers["follower_studies"]))
    lines.append("@WORK")
    return lines


def _guards_here(plan: Plan, unit: Mapping[str, Any]) -> bool:
    """Whether a follower unit can guard where it stands: the guard skill, and a title of its faction on
    this place (the land a Sheriff or a Mayor owns)."""
    if not can("GUARD") or unit.get("moving"):
        return False
    need = plan.rules["guarding"]["skill"]
    if m.unit_level(plan.rules, dict(unit), str(need["skill"])) < int(need["level"]):
        return False
    title = plan.place(str(unit.get("location"))).get("title") or {}
    holder = m.unit(plan.state, str(title.get("holder"))) if title.get("holder") else None
    return holder is not None and holder.get("owner") == plan.faction


# --- the imperials' and the citizens' standing units ----------------------------------------------


def post_month(plan: Plan, unit_id: str, unit: Unit) -> list[str]:
    """A standing unit (npcs.place_posts) guards its post, or walks back to it when driven off; the
    Emperor, a single figure, keeps to his palace and works."""
    home = str(unit.get("home") or "")
    location = str(unit.get("location"))
    if unit.get("moving") or not home:
        return list(unit.get("orders") or [])
    if location != home:
        route = walking_routes(plan, location, int(plan.numbers["post_days"])).get(home)
        if route and can("MOVE") and movement.may_set_out(plan.rules, unit):
            return [("-" * depth) + f"MOVE {step}" for depth, step in enumerate(route[1])]
        return list(unit.get("orders") or [])
    if int(unit.get("figures", 0)) > 1 and can("GUARD"):
        return ["@GUARD"]
    return ["@WORK"]


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
