"""Victory Points, the difficulty tier they set, and the three ways to win (spec §9.12, §9.13, §10.2.4).

The tally reads a usurper's faction record (its leaders, units, lairs and what it knows) and writes the
public ``state["scores"][faction] = {total, history, leads}``, and the points of each category in the
usurper's own record (``victory_points``), which a sealed campaign keeps private: a category's number can
betray what a usurper holds (Economy counts its gold and its stored resources), so the categories are
published only where the rules data says so (``scoring.categories_public``). The tier follows the average
total and is public too (``state["difficulty"]``). Every number comes from ``rules/scoring.yaml``; fractions
are kept exact (``Fraction``) until a category is rounded, so that no rounding depends on the order the
items are counted in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from ...engine.context import TurnContext

State = dict[str, Any]


# ------------------------------------------------------------------ reading the state and the other chapters


def _records(collection: Any) -> list[Mapping[str, Any]]:
    """A collection of records (a mapping id -> record, or a list), in a stable order."""
    if isinstance(collection, Mapping):
        return [collection[key] for key in sorted(collection)]
    return list(collection or [])


def _ranks(entity: Mapping[str, Any], skills: Iterable[str]) -> int:
    wanted = set(skills)
    total = 0
    for skill, value in (entity.get("skills") or {}).items():
        if skill in wanted:
            total += int(value.get("rank", 0) if isinstance(value, Mapping) else value)
    return total


def _item_id(item: Any) -> str:
    return str(item.get("item") if isinstance(item, Mapping) else item)


def _quality(item: Any) -> str:
    return str(item.get("quality", "standard")) if isinstance(item, Mapping) else "standard"


def unit_cost(rules: Mapping[str, Any], race: str) -> int:
    """A race's recruitment cost, from the entities chapter."""
    races = rules.get("races") or {}
    if race not in races or "cost" not in races[race]:
        raise ValueError(f"the rules data give no recruitment cost for the race '{race}' (races.{race}.cost)")
    return int(races[race]["cost"])


def item_price(rules: Mapping[str, Any], item: str) -> int:
    """An item's market price at Standard, from the items chapter."""
    market = rules.get("market") or {}
    entry = market.get(item)
    if isinstance(entry, Mapping) and "price" in entry:
        return int(entry["price"])
    raise ValueError(f"the rules data give no market price for '{item}' (market.{item}.price)")


def _steps(rules: Mapping[str, Any], item: Any) -> int:
    return int(rules["scoring"]["quality_steps"].get(_quality(item), 0))


def _renovation_ids(room: Mapping[str, Any]) -> list[str]:
    return [
        str(r.get("id") or r.get("type") or r.get("name")) if isinstance(r, Mapping) else str(r)
        for r in room.get("renovations") or []
    ]


def _people(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The leaders and units of a usurper, whose skills the categories count (Extras are Politics')."""
    return _records(record.get("leaders")) + _records(record.get("units"))


# ------------------------------------------------------------------ the categories


def might(rules: Mapping[str, Any], record: Mapping[str, Any]) -> Fraction:
    data = rules["scoring"]["might"]
    points = Fraction(0)
    for unit in _records(record.get("units")):
        points += Fraction(str(data["unit_cost_share"])) * unit_cost(rules, str(unit["race"]))
        points += int(data["unit_level"]) * int(unit.get("level", 0))
        gear = list(unit.get("weapons") or []) + ([unit["armor"]] if unit.get("armor") else [])
        for item in gear:
            if _item_id(item) in data["gear"]:
                points += Fraction(str(data["gear_value_share"])) * item_price(rules, _item_id(item))
                points += int(data["gear_quality_step"]) * _steps(rules, item)
    for person in _people(record):
        points += int(data["combat_skill_rank"]) * _ranks(person, data["combat_skills"])
        points += int(data["advanced_combat_skill_rank"]) * _ranks(person, data["advanced_combat_skills"])
    return points


def lair(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str) -> Fraction:
    data = rules["scoring"]["lair"]
    record = state["factions"][faction]
    points = Fraction(0)
    rooms = [room for lair_ in _records(record.get("lairs")) for room in lair_.get("rooms") or []]
    thrones_skipped = 0
    for room in rooms:
        if room.get("type") == "throne" and not thrones_skipped:
            thrones_skipped = 1  # the first Throne Room is every lair's due and scores nothing
        else:
            points += int(data["room_beyond_first_throne"])
        points += int(data["renovation_level_beyond_first"]) * max(0, int(room.get("level", 1)) - 1)
    for person in _people(record):
        points += int(data["builder_skill_rank"]) * _ranks(person, data["builder_skills"])
    held_now = sum(len(lair_.get("prisoners") or []) for lair_ in _records(record.get("lairs")))
    points += int(data["prisoner_ever_held"]) * max(int(record.get("prisoners_taken", 0)), held_now)
    places = [int(x) for x in data["unique_event_places"]]
    for event in _records(state.get("unique_events")):
        ranking = list(event.get("places") or [])
        if faction in ranking and ranking.index(faction) < len(places):
            points += int(data["unique_event_factor"]) * places[ranking.index(faction)]
    return points


def economy(rules: Mapping[str, Any], record: Mapping[str, Any]) -> Fraction:
    data = rules["scoring"]["economy"]
    points = Fraction(0)
    owned_tools: list[Any] = []
    for unit in _records(record.get("units")):
        for tool in unit.get("tools") or []:
            points += Fraction(str(data["tool_value_share"])) * item_price(rules, _item_id(tool))
            owned_tools.append(tool)
    tool_ids = set(_tool_ids(rules))
    for lair_ in _records(record.get("lairs")):
        owned_tools += [item for item in lair_.get("items") or [] if _item_id(item) in tool_ids]
        for room in lair_.get("rooms") or []:
            owned_tools += list(room.get("embedded") or [])
    points += sum(int(data["tool_quality_step"]) * _steps(rules, tool) for tool in owned_tools)
    for person in _people(record):
        points += int(data["skill_rank"]) * _ranks(person, data["skills"])
    points += int(data["title"]) * len(record.get("titles") or [])
    points += Fraction(int(record.get("gold", 0)), int(data["gold_per_point"]))
    stored = sum(
        int((lair_.get("storage") or {}).get(resource, 0))
        for lair_ in _records(record.get("lairs"))
        for resource in data["resources"]
    )
    points += Fraction(stored, int(data["resources_per_point"]))
    return points


def _tool_ids(rules: Mapping[str, Any]) -> list[str]:
    """Which items are tools: those the items chapter marks as such."""
    items = rules.get("items") or {}
    return [
        item for item, entry in items.items() if isinstance(entry, Mapping) and entry.get("kind") == "tool"
    ]


def mysterium(rules: Mapping[str, Any], record: Mapping[str, Any]) -> Fraction:
    data = rules["scoring"]["mysterium"]
    points = Fraction(0)
    spells = sum(len(person.get("spells") or []) for person in _records(record.get("leaders")))
    spells += sum(len(extra.get("spells") or []) for extra in _records(record.get("extras")))
    points += int(data["spell"]) * spells
    for artifact in record.get("artifacts") or []:
        rank = artifact.get("rank") if isinstance(artifact, Mapping) else None
        points += int(data["artifact_per_rank"]) * int(rank or data["artifact_default_rank"])
    for lair_ in _records(record.get("lairs")):
        for room in lair_.get("rooms") or []:
            if room.get("type") == "reliquary":
                spaces = 1 + _renovation_ids(room).count("sconces")
                points += int(data["reliquary_space"]) * spaces
    abilities = len(record.get("abilities") or [])
    uniques = 0
    for person in _people(record):
        abilities += len(person.get("abilities") or [])
        uniques += 1 if person.get("unique") else 0
    points += int(data["special_ability"]) * abilities + int(data["unique_ability"]) * uniques
    return points


def politics(rules: Mapping[str, Any], record: Mapping[str, Any]) -> Fraction:
    data = rules["scoring"]["politics"]
    points = Fraction(0)
    advanced = set(data["advanced_skills"])
    for extra in _records(record.get("extras")):
        for skill, value in (extra.get("skills") or {}).items():
            rank = int(value.get("rank", 0) if isinstance(value, Mapping) else value)
            per = data["extra_advanced_skill_rank"] if skill in advanced else data["extra_basic_skill_rank"]
            points += int(per) * rank
        for ability in extra.get("abilities") or []:
            trainable = isinstance(ability, Mapping) and ability.get("trainable")
            points += int(data["extra_ability_trainable" if trainable else "extra_ability_untrainable"])
        points += int(data["extra_unique_ability"]) * len(extra.get("unique_abilities") or [])
    levels = data["attitude_levels"]
    for settlement in _records((record.get("known") or {}).get("settlements")):
        attitude = str(settlement.get("attitude", "indifferent"))
        points += int(levels.get(attitude, 0))
        if attitude == "fanatical":
            size = int(data["fanatical_sizes"].get(str(settlement.get("size")), 0))
            points += int(data["fanatical_size_factor"]) * size
    for person in _people(record):
        points += int(data["speaker_skill_rank"]) * _ranks(person, data["speaker_skills"])
    return points


def categories(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str) -> dict[str, int]:
    """Each category's points for one usurper, each rounded down once (the house rule on rounding)."""
    record = state["factions"][faction]
    exact = {
        "might": might(rules, record),
        "lair": lair(rules, state, faction),
        "economy": economy(rules, record),
        "mysterium": mysterium(rules, record),
        "politics": politics(rules, record),
    }
    return {name: int(exact[name] // 1) for name in rules["scoring"]["category_order"]}


# ------------------------------------------------------------------ the tier and the leaders


def policy(rules: Mapping[str, Any], state: Mapping[str, Any], faction: str, key: str) -> Any:
    """A standing policy of the order file as it stands for a usurper: its own answer, else the default."""
    written = (state["factions"][faction].get("standing") or {}).get("policies") or {}
    return written.get(key, rules["policies"][key])


def playing(state: Mapping[str, Any]) -> list[str]:
    return sorted(f for f, record in state["factions"].items() if record.get("status", "active") == "active")


def tier_for(rules: Mapping[str, Any], average: float) -> Mapping[str, Any]:
    """The highest tier whose average the players' average reaches."""
    reached = [t for t in rules["difficulty"]["tiers"] if average >= t["average"]]
    return max(reached, key=lambda t: t["average"])


def current_tier(rules: Mapping[str, Any], state: Mapping[str, Any]) -> Mapping[str, Any]:
    """The tier in force: the one the last tally set, or the first before any tally."""
    held = (state.get("difficulty") or {}).get("tier")
    tiers = rules["difficulty"]["tiers"]
    return next((t for t in tiers if t["id"] == held), tiers[0])


def ambush_on(rules: Mapping[str, Any], state: Mapping[str, Any], band: str) -> bool:
    """Whether an action's band brings an ambush at the tier in force."""
    return band in current_tier(rules, state)["ambush_on"]


def encounter_levels(rules: Mapping[str, Any], state: Mapping[str, Any]) -> int:
    """The levels every encounter gains at the tier in force."""
    return int(current_tier(rules, state)["encounter_levels"])


def gear_chance(rules: Mapping[str, Any], state: Mapping[str, Any]) -> int:
    """The extra chance, in percent, that an encounter carries gear at the tier in force."""
    return int(current_tier(rules, state)["gear_chance"])


def category_leaders(scores: Mapping[str, Mapping[str, int]]) -> dict[str, list[str]]:
    """For each category, every usurper with the best score in it (all of them when tied), when the best
    is above nothing: nobody leads a category nobody has scored in."""
    leaders: dict[str, list[str]] = {}
    names = {name for points in scores.values() for name in points}
    for name in sorted(names):
        best = max(points.get(name, 0) for points in scores.values())
        if best > 0:
            leaders[name] = sorted(f for f, points in scores.items() if points.get(name, 0) == best)
    return leaders


# ------------------------------------------------------------------ the phase procedures


def tally(ctx: TurnContext, state: State) -> State:
    """Count every usurper's points, write the public scores (totals and who leads each category) and each
    usurper's own points by category, set the tier and the category leaders."""
    if (state.get("victory") or {}).get("winners"):
        return state  # the game is over
    rules = ctx.rules
    month = _month(ctx)
    if month not in rules["scoring"]["months"]:
        return state
    counted = {faction: categories(rules, state, faction) for faction in playing(state)}
    leaders = category_leaders(counted)
    scores = state.setdefault("scores", {})
    for faction, points in counted.items():
        total = sum(points.values())
        entry = scores.setdefault(faction, {"total": 0, "history": []})
        entry["total"] = total
        entry.pop("categories", None)
        if rules["scoring"]["categories_public"]:
            entry["categories"] = dict(points)
        entry["history"] = [h for h in entry.get("history") or [] if h["turn"] != ctx.turn]
        entry["history"].append({"turn": ctx.turn, "total": total})
        entry["leads"] = [name for name, who in leaders.items() if faction in who]
        # The usurper's own copy, with each category: private in a sealed campaign (the fog of war).
        state["factions"][faction]["victory_points"] = {
            "turn": ctx.turn,
            "total": total,
            "categories": dict(points),
        }
    average = sum(sum(p.values()) for p in counted.values()) / len(counted) if counted else 0
    before = current_tier(rules, state)
    tier = tier_for(rules, average)
    state["difficulty"] = {"tier": tier["id"], "average": round(average, 1), "turn": ctx.turn}
    order = sorted(counted, key=lambda f: (-scores[f]["total"], f))
    ctx.emit(
        "vp_tally",
        actors=order,
        totals=[scores[f]["total"] for f in order],
        leaders={name: who for name, who in leaders.items()},
        average=round(average, 1),
        tier=tier["name"],
    )
    if tier["id"] != before["id"]:
        ctx.emit(
            "difficulty_tier",
            tier=tier["name"],
            average=tier["average"],
            rising=tier["average"] > before["average"],
            nobles=bool(tier.get("nobles")),
            legendary_foes=int(tier.get("legendary_foes", 0)),
        )
    return state


def _month(ctx: TurnContext) -> int:
    """The month of the year (1..), from the turn: weeks per month come from the calendar."""
    per = int(ctx.rules["calendar"].get("turns_per_period", 4))
    months = len(ctx.rules["calendar"]["periods"])
    return (ctx.turn - 1) // per % months + 1


def victory(ctx: TurnContext, state: State) -> State:
    """Check the three victories of the core: Domination every week, Tenacity's challenge and countdown
    every week, Accrual at each tally. A winner ends the game: the event says so, and ``state['victory']``
    holds the winners, after which no tally or check runs again."""
    if (state.get("victory") or {}).get("winners"):
        return state
    rules = ctx.rules
    winners, kind = _domination(state), "domination"
    if not winners:
        winners, kind = _tenacity(ctx, state), "tenacity"
    if (
        not winners
        and _month(ctx) in rules["scoring"]["months"]
        and ctx.date.step == rules["scoring"]["week"]
    ):
        winners, kind = _accrual(rules, state, ctx.turn), "accrual"
    if winners:
        state["victory"] = {"winners": winners, "kind": kind, "turn": ctx.turn}
        ctx.emit("victory", actors=winners, way=kind, name=rules["victory"][kind]["name"])
    return state


def _domination(state: Mapping[str, Any]) -> list[str]:
    alive = playing(state)
    return alive if len(state["factions"]) > 1 and len(alive) == 1 else []


def _accrual(rules: Mapping[str, Any], state: Mapping[str, Any], turn: int) -> list[str]:
    data = rules["victory"]["accrual"]
    if turn <= int(data["after_turn"]):
        return []
    scores = state.get("scores") or {}
    totals = {f: int(scores.get(f, {}).get("total", 0)) for f in playing(state)}
    everything = sum(totals.values())
    if everything <= 0:
        return []
    return sorted(f for f, total in totals.items() if total * 100 >= int(data["share"]) * everything)


def tenacity_lair(rules: Mapping[str, Any], record: Mapping[str, Any]) -> str | None:
    """The first of a usurper's lairs (by id) holding every room of the set and enough renovations."""
    data = rules["victory"]["tenacity"]
    for lair_id, lair_ in sorted((record.get("lairs") or {}).items()):
        types = {room.get("type") for room in lair_.get("rooms") or []}
        renovations = sum(len(room.get("renovations") or []) for room in lair_.get("rooms") or [])
        if set(data["rooms"]) <= types and renovations >= int(data["renovations"]):
            return str(lair_id)
    return None


def _tenacity(ctx: TurnContext, state: State) -> list[str]:
    """Issue the challenges the policies ask for, close those whose lair fell, and name who survived."""
    data = ctx.rules["victory"]["tenacity"]
    challenges = state.setdefault("challenges", {})
    survivors = []
    for faction in playing(state):
        record = state["factions"][faction]
        held = challenges.get(faction)
        if held and held.get("closed"):
            continue
        if held:
            if held["lair"] not in (record.get("lairs") or {}):
                held["closed"] = True  # the lair fell: this path is shut for this usurper
                ctx.emit("tenacity_failed", actors=[faction])
            elif ctx.turn >= int(held["since"]) + int(data["weeks"]):
                survivors.append(faction)
            continue
        wants = policy(ctx.rules, state, faction, "tenacity_challenge") == "challenge"
        lair_id = tenacity_lair(ctx.rules, record) if wants else None
        if lair_id:
            record["lairs"][lair_id]["obscurity"]["current"] = int(data["obscurity"])
            challenges[faction] = {
                "lair": lair_id,
                "since": ctx.turn,
                "grid": record["lairs"][lair_id]["grid"],
            }
            ctx.emit(
                "tenacity_challenge",
                actors=[faction],
                place=record["lairs"][lair_id]["grid"],
                until=ctx.turn + int(data["weeks"]),
            )
    return survivors


def own_lines(rules: Mapping[str, Any], record: Mapping[str, Any]) -> list[str]:
    """The usurper's last count in words, each category named, for its own report."""
    held = record.get("victory_points")
    if not held:
        return []
    names = rules["scoring"]["categories"]
    parts = ", ".join(
        f"{names[name]['name']} {points}" for name, points in held["categories"].items() if name in names
    )
    return [f"Victory Points at the count of turn {held['turn']}: {held['total']} ({parts})."]
