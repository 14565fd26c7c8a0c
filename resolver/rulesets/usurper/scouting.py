"""The Scout action after its roll: what the scouts find, the ambush of a failed scout, and the lairs sensed.

The d100 is rolled by the action roll (every modifier in its ledger); this module takes the band and the
total it gave, so it does not depend on how the roll was made. Every number comes from the rules data
(``rules/scouting.yaml`` and ``rules/world.yaml``); every roll here is labelled by the faction, the
scouting unit, the action and the grid, with the turn the context adds.

What a scout finds is kept in the scouting usurper's own record (``known``), so a sealed campaign shows
it to nobody else. A settlement's peoples come from the campaign's hidden seed and the grid, and its size
from the first scout that found it, so a second usurper who finds it later finds the same place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...core.dice import Roll, RollLabel, roll_label
from ...core.rng import stream
from . import detection, scoring
from .bands import at_least


class Context(Protocol):
    """What the scout needs of the turn context (``engine.context.TurnContext`` is one)."""

    turn: int
    game: Any

    @property
    def rules(self) -> dict[str, Any]: ...

    def roll(self, label: RollLabel, expr: str, *, factions: Any = (), decided: str = "") -> Roll: ...

    def emit(self, kind: str, **data: Any) -> Any: ...


@dataclass(frozen=True)
class Party:
    """Who scouts: the faction, its units (the initiator first) and the leaders assisting them."""

    faction: str
    units: tuple[str, ...]
    leaders: tuple[str, ...] = ()

    @property
    def initiator(self) -> str:
        return self.units[0]


@dataclass(frozen=True)
class Ground:
    """The scouted grid: its terrain, and whether a city or landmark stands there (then no settlement)."""

    grid: str
    terrain: str
    holds_place: bool = False


@dataclass
class Outcome:
    """What one scout came to: the finding's kind and record, ambush, lairs sensed, and the rolls made."""

    kind: str  # nothing | settlement | node | cache | encounter | information
    found: dict[str, Any] = field(default_factory=dict)
    ambush: dict[str, Any] | None = None
    sensed: list[dict[str, Any]] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)


def band_at_least(rules: Mapping[str, Any], band: str, lowest: str) -> bool:
    return at_least(rules, band, lowest)


def known(faction: dict[str, Any]) -> dict[str, Any]:
    """The faction's record of what it has found, with every list and table it may hold."""
    found = faction.setdefault("known", {})
    for key in ("settlements", "nodes", "encounters"):
        found.setdefault(key, {})
    for key in ("scouted", "sightings", "information"):
        found.setdefault(key, [])
    return found


def scout(
    ctx: Context, state: dict[str, Any], party: Party, ground: Ground, band: str, total: int
) -> Outcome:
    """Carry out a scout whose roll gave ``band`` and ``total``: record the grid as scouted, sense the
    lairs in range, then find something (a band of Partial Success or better) or risk an ambush."""
    rules = ctx.rules
    faction = state["factions"][party.faction]
    found = known(faction)
    if ground.grid not in found["scouted"]:
        found["scouted"] = sorted([*found["scouted"], ground.grid], key=detection.parse_grid)
    outcome = Outcome("nothing")
    outcome.sensed = sense(rules, state, party, ground, total)
    for report in outcome.sensed:
        found["sightings"].append({"turn": ctx.turn, **report})
    if not band_at_least(rules, band, rules["scouting"]["lowest_finding_band"]):
        outcome.ambush = ambush(ctx, state, party, ground, band, outcome)
        return outcome
    kind = finding_kind(ctx, state, party, ground, outcome)
    if kind == "settlement":
        outcome.kind, outcome.found = "settlement", find_settlement(ctx, state, party, ground, band)
    elif kind == "encounter":
        outcome.kind, outcome.found = "encounter", find_encounter(ctx, state, party, ground, outcome)
    else:
        terrain = rules["terrains"][ground.terrain]
        if terrain.get("caches"):
            outcome.kind, outcome.found = "cache", find_cache(rules, state, party, band)
        elif terrain.get("information"):
            outcome.kind, outcome.found = "information", find_information(ctx, state, party, ground)
        elif terrain.get("node"):
            outcome.kind, outcome.found = "node", find_node(rules, state, party, ground, band)
    return outcome


def units_of(state: dict[str, Any], party: Party) -> list[dict[str, Any]]:
    units = state["factions"][party.faction]["units"]
    return [units[u] for u in party.units]


def leaders_of(state: dict[str, Any], party: Party) -> list[dict[str, Any]]:
    leaders = state["factions"][party.faction]["leaders"]
    return [leaders[leader] for leader in party.leaders]


def home_lair(state: dict[str, Any], party: Party) -> dict[str, Any]:
    """The lair the initiating unit set out from: where caches are carried and whose rooms count."""
    faction = state["factions"][party.faction]
    lair_id = faction["units"][party.initiator].get("lair")
    lairs = faction.get("lairs") or {}
    if lair_id in lairs:
        return lairs[lair_id]
    return lairs[sorted(lairs)[0]]


def sense(
    rules: Mapping[str, Any], state: dict[str, Any], party: Party, ground: Ground, total: int
) -> list[dict[str, Any]]:
    spy = rules["scouting"]["spy_skill"]
    return detection.sense_lairs(
        rules,
        state["factions"],
        party.faction,
        ground.grid,
        total,
        detection.best_rank(units_of(state, party), spy),
        with_leader=bool(party.leaders),
        with_unit=bool(party.units),
    )


def label(party: Party, ground: Ground, *parts: str) -> RollLabel:
    return roll_label(party.faction, party.initiator, "scout", ground.grid, *parts)


def finding_kind(ctx: Context, state: dict[str, Any], party: Party, ground: Ground, outcome: Outcome) -> str:
    """Settlement, node_or_cache or encounter, by the weights of the rules data: a settlement is possible
    where no city or landmark stands and the scouting usurper knows no settlement yet."""
    weights = ctx.rules["scouting"]["findings"]
    possible = (
        not ground.holds_place and ground.grid not in known(state["factions"][party.faction])["settlements"]
    )
    table = weights["settlement_possible" if possible else "otherwise"]
    whole = sum(int(weight) for weight in table.values())
    roll = ctx.roll(label(party, ground, "finding"), f"1d{whole}", factions=[party.faction])
    roll.decided = "what the scouts find"
    outcome.rolls.append(roll)
    reached = 0
    for kind, weight in table.items():
        reached += int(weight)
        if roll.total <= reached:
            return str(kind)
    raise AssertionError("a roll of 1 to the sum of the weights always reaches one of them")


def find_settlement(
    ctx: Context, state: dict[str, Any], party: Party, ground: Ground, band: str
) -> dict[str, Any]:
    """The grid's settlement as this usurper now knows it: the place fixed by its first finder (or by this
    scout, if none), with this usurper's own attitude and trade status towards it."""
    rules = ctx.rules
    place = {**settlement_place(rules, ctx.game.hidden_seed, ground, band), "found": ctx.turn}
    for other in sorted(state["factions"]):
        record = (state["factions"][other].get("known") or {}).get("settlements", {}).get(ground.grid)
        if not record or "found" not in record:
            continue
        if record["found"] < ctx.turn:
            place = {key: record[key] for key in ("size", "races", "traits", "found") if key in record}
            break
        # Found the same week by another usurper: the larger of the two places stands for both.
        sizes = list(rules["settlement_sizes"])
        if sizes.index(record["size"]) >= sizes.index(place["size"]):
            place = {key: record[key] for key in ("size", "races", "traits", "found") if key in record}
        else:
            record.update(place)
    mine = known(state["factions"][party.faction])["settlements"]
    entry = {**dict(rules["scouting"]["new_settlement"]), **mine.get(ground.grid, {}), **place}
    mine[ground.grid] = entry
    return {"grid": ground.grid, **entry}


def settlement_place(rules: Mapping[str, Any], seed: int, ground: Ground, band: str) -> dict[str, Any]:
    """A new settlement at the grid: its size from the band, its peoples drawn from the grid's own stream
    (the same for whoever finds it), its traits those of the terrain."""
    row = rules["scouting"]["settlements"][band]
    terrain = rules["terrains"][ground.terrain]
    draw = stream(seed, f"usurper/settlement/{ground.grid}")
    natives = list(terrain["races"])
    races = [draw.choice(natives)]
    if int(row.get("races", 1)) > 1:
        others = [race for race in all_standard_races(rules) if race not in races]
        races.append(draw.choice(others))
    advanced = list(terrain.get("advanced_races") or [])
    if row.get("advanced") and advanced:
        races = [draw.choice(advanced)]
    return {"size": row["size"], "races": races, "traits": list(rules["terrain_traits"][ground.terrain])}


def all_standard_races(rules: Mapping[str, Any]) -> list[str]:
    """Every race that lives in some terrain's settlements, in a stable order."""
    return sorted({race for terrain in rules["terrains"].values() for race in terrain["races"]})


def find_node(
    rules: Mapping[str, Any], state: dict[str, Any], party: Party, ground: Ground, band: str
) -> dict[str, Any]:
    """A node of the terrain's resource, its size by the band; a node already known there is kept when it
    is the better of the two."""
    data = rules["scouting"]
    resource = rules["terrains"][ground.terrain]["node"]
    row = data["nodes"][data["node_tables"][resource]][band]
    node = {
        "resource": resource,
        "size": row["size"],
        "dice": row["dice"],
        "uses": int(row["uses"]),
        "harvest_bonus": int(row.get("harvest_bonus", 0)),
    }
    gaze = data["jealousys_gaze"]
    sizes = list(data["node_sizes"])
    if sizes.index(node["size"]) >= sizes.index(gaze["from_size"]) and detection.has_renovation(
        home_lair(state, party), gaze["renovation"]
    ):
        node["uses"] += int(gaze["uses"])
    nodes = known(state["factions"][party.faction])["nodes"]
    held = nodes.get(ground.grid)
    if held is None or _node_worth(sizes, node) >= _node_worth(sizes, held):
        nodes[ground.grid] = node
        return {"grid": ground.grid, "kept": False, **node}
    return {"grid": ground.grid, "kept": True, **held}


def _node_worth(sizes: Sequence[str], node: Mapping[str, Any]) -> tuple[int, int, int]:
    return int(node.get("harvest_bonus", 0)), sizes.index(node["size"]), int(node["uses"])


def find_cache(rules: Mapping[str, Any], state: dict[str, Any], party: Party, band: str) -> dict[str, Any]:
    """A cache, taken at once: part of its worth as gold to the coffers, the rest as foodstuffs to the
    home lair, with Forager's and Plunderer's Eye's extra food."""
    data = rules["scouting"]
    row = data["caches"][band]
    split = data["cache_split"]
    value = int(row["value"])
    gold = value * int(split["gold_percent"]) // 100
    food = (value - gold) // int(split["food_price"])
    forager = data["forager"]
    food += int(forager["food_per_rank"]) * detection.ranks(
        [*units_of(state, party), *leaders_of(state, party)], forager["skill"]
    )
    lair = home_lair(state, party)
    eye = data["plunderers_eye"]
    if detection.has_renovation(lair, eye["renovation"]):
        food += int(eye["food_per_rating"]) * int(row["rating"])
    faction = state["factions"][party.faction]
    faction["gold"] = int(faction.get("gold", 0)) + gold
    storage = lair.setdefault("storage", {})
    storage["foodstuffs"] = int(storage.get("foodstuffs", 0)) + food
    return {"size": row["size"], "value": value, "gold": gold, "foodstuffs": food, "lair": lair["id"]}


def find_information(ctx: Context, state: dict[str, Any], party: Party, ground: Ground) -> dict[str, Any]:
    """Swamp information: for each room of the home lair that has an entry, a bonus to one action until the
    information grows stale. A newer piece on the same action replaces the older."""
    data = ctx.rules["scouting"]["information"]
    until = ctx.turn + int(data["weeks"]) - 1
    rooms = sorted({room["type"] for room in home_lair(state, party).get("rooms") or []})
    held = known(state["factions"][party.faction])["information"]
    gained: list[dict[str, Any]] = []
    for room in rooms:
        entry = data["by_room"].get(room)
        if entry is None:
            continue
        piece = {"action": entry["action"], "bonus": int(entry["bonus"]), "until": until, "grid": ground.grid}
        held[:] = [old for old in held if old["action"] != piece["action"]]
        held.append(piece)
        gained.append(piece)
    held.sort(key=lambda piece: piece["action"])
    return {"grid": ground.grid, "bonuses": gained}


def information_bonus(faction: Mapping[str, Any], action: str, turn: int) -> int:
    """What the faction's swamp information adds to an action this turn (0 when none is fresh)."""
    pieces = (faction.get("known") or {}).get("information") or []
    return sum(int(p["bonus"]) for p in pieces if p["action"] == action and int(p["until"]) >= turn)


def encounter_units(
    ctx: Context, state: dict[str, Any], party: Party, ground: Ground, outcome: Outcome, purpose: str
) -> tuple[list[dict[str, Any]], int]:
    """Two or three (the combat data's numbers) units of the grid's native standard races, as many levels
    up as the difficulty tier gives (``encounter_tier``: a Scavenger's usurper meets a lower one), each
    armed at the tier's gear chance; each race drawn by a labelled roll when the terrain has more than one."""
    rules = ctx.rules
    spec = rules["combat"]["encounters"]
    low, high = int(spec["units"]["min"]), int(spec["units"]["max"])
    count_roll = ctx.roll(
        label(party, ground, purpose, "units"), f"1d{high - low + 1}", factions=[party.faction]
    )
    count_roll.decided = "how many units the scouts meet"
    outcome.rolls.append(count_roll)
    tier = encounter_tier(rules, state, party.faction)
    level, armed = int(tier["encounter_levels"]), int(tier["gear_chance"])
    natives = list(rules["terrains"][ground.terrain]["races"])
    units: list[dict[str, Any]] = []
    for number in range(1, low + count_roll.total):
        race = natives[0]
        if len(natives) > 1:
            pick = ctx.roll(
                label(party, ground, purpose, f"race{number}"), f"1d{len(natives)}", factions=[party.faction]
            )
            pick.decided = "the people of one unit met"
            outcome.rolls.append(pick)
            race = natives[pick.total - 1]
        unit = native_unit(rules, race, int(level), number)
        if armed >= 100 or (armed > 0 and _armed(ctx, party, ground, purpose, number, armed, outcome)):
            unit["weapons"] = [{"item": str(item), "quality": "standard"} for item in spec["gear"]]
        units.append(unit)
    return units, int(level)


def encounter_tier(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str) -> Mapping[str, Any]:
    """The difficulty tier a usurper's encounters are rolled at: the tier in force, lowered by the global
    part of a leader bonus (Scavenger's ``encounter_tiers_down``) while its leader lives and is not
    healing; never below the first tier. Several such leaders lower it once: the bonus is one usurper's."""
    tiers = list(rules["difficulty"]["tiers"])
    step = tiers.index(next(t for t in tiers if t["id"] == scoring.current_tier(rules, state)["id"]))
    bonuses = rules.get("leader_bonuses") or {}
    down = [
        int(
            ((bonuses.get(str(leader.get("bonus"))) or {}).get("global") or {}).get("encounter_tiers_down", 0)
        )
        for leader in (state["factions"][faction].get("leaders") or {}).values()
        if int(leader.get("hp", 1)) > 0 and not leader.get("healing")
    ]
    return tiers[max(0, step - max(down, default=0))]


def _armed(
    ctx: Context, party: Party, ground: Ground, purpose: str, number: int, chance: int, outcome: Outcome
) -> bool:
    """A percentage roll (no explosion) for whether one unit met carries the tier's gear."""
    roll = ctx.roll(label(party, ground, purpose, f"gear{number}"), "1d100", factions=[party.faction])
    roll.decided = f"whether a unit met is armed ({chance}% chance)"
    outcome.rolls.append(roll)
    return roll.total <= chance


def native_unit(rules: Mapping[str, Any], race: str, level: int, number: int) -> dict[str, Any]:
    """An unnamed local unit of a race at a level, with the race's stats when the rules data give them."""
    stats = (rules.get("races") or {}).get(race) or {}
    named = str(stats.get("name") or race.replace("_", " ").title())
    unit = {"id": f"u{number}", "name": f"{named} {number}", "race": race, "level": level, "pax": 10}
    for key in ("offense", "defense", "strength", "speed", "max_tools", "max_weapons"):
        if key in stats:
            unit[key] = stats[key]
    return unit


def find_encounter(
    ctx: Context, state: dict[str, Any], party: Party, ground: Ground, outcome: Outcome
) -> dict[str, Any]:
    units, level = encounter_units(ctx, state, party, ground, outcome, "encounter")
    encounter_id = f"enc-{ground.grid.lower()}-{ctx.turn}"
    record = {"grid": ground.grid, "units": units, "level": level, "found": ctx.turn}
    known(state["factions"][party.faction])["encounters"][encounter_id] = record
    return {"id": encounter_id, **record}


def ambush_chance(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str, band: str) -> int:
    """The per cent chance that a scout of this band is ambushed: certain when the difficulty tier in force
    says so (``scoring.ambush_on``), else the base chance of the band; less a living, unhurt-enough
    Scavenger's share (a leader who is healing gives no global bonus)."""
    data = rules["scouting"]["ambush"]
    chance = 100 if scoring.ambush_on(rules, state, band) else int(data["base"].get(band, 0))
    if chance <= 0:
        return 0
    leaders = (state["factions"][faction].get("leaders") or {}).values()
    scavenger = data["scavenger"]
    if any(
        leader.get("bonus") == scavenger["bonus"]
        and int(leader.get("hp", 1)) > 0
        and not leader.get("healing")
        for leader in leaders
    ):
        chance += int(scavenger["percent"])
    return max(0, min(100, chance))


def ambush(
    ctx: Context, state: dict[str, Any], party: Party, ground: Ground, band: str, outcome: Outcome
) -> dict[str, Any] | None:
    """A failed scout may be ambushed: a percentage roll (it never explodes) against the chance; the
    ambushers are native units like an encounter's, fought for one round and not remembered."""
    chance = ambush_chance(ctx.rules, state, party.faction, band)
    if chance <= 0:
        return None
    if chance < 100:
        roll = ctx.roll(label(party, ground, "ambush"), "1d100", factions=[party.faction])
        roll.decided = f"whether the scouts are ambushed ({chance}% chance)"
        outcome.rolls.append(roll)
        if roll.total > chance:
            return None
    units, level = encounter_units(ctx, state, party, ground, outcome, "ambushers")
    return {
        "faction": party.faction,
        "grid": ground.grid,
        "units": list(party.units),
        "leaders": list(party.leaders),
        "enemies": units,
        "level": level,
    }
