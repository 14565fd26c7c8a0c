"""What changes in a place from month to month (spec §2.13 step 8, §5.5, §5.7, §5.8, §5.9, §5.10).

A place's record in the state (``places.<id>``) holds its natives, wages and tax pool, what it offers for
hire, its NPC market and its harvestable resources. Every formula is in ``rules/markets.yaml`` (the manual
gives none of them): this module only reads them.

The pure functions take numbers and return numbers; :func:`initial_places` builds the records of a new
world and :func:`evolve_places` is the month-end procedure of the turn table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ...core.checks import Check
from ...core.dice import Roll, roll_label
from ...core.world import World
from ...engine.context import TurnContext

__all__ = [
    "Draw",
    "evolve_place",
    "evolve_places",
    "head_count",
    "initial_place",
    "initial_places",
    "market_offer",
    "next_market",
    "next_population",
    "next_recruits",
    "optimum",
    "place_kind",
    "recruit_offer",
    "resources_for",
    "stepped_price",
    "taxes_for",
    "wages_for",
]

State = dict[str, Any]
# A labelled draw of a whole number between two bounds, both included: (label, low, high) -> number.
Draw = Callable[[str, int, int], int]


def _rules(rules: Mapping[str, Any], section: str) -> Mapping[str, Any]:
    return rules[section]


def place_kind(world: World, loc_id: str, rules: Mapping[str, Any]) -> str:
    """The kind of an inner place (city, village, castle, …) or the terrain of a territory: whichever the
    rules data's optimum table knows, the kind first."""
    location = world[loc_id]
    table = _rules(rules, "places")["optimum"]
    for candidate in (getattr(location, "kind", None), location.place, location.terrain):
        if candidate and str(candidate) in table:
            return str(candidate)
    return str(location.terrain)


# --- people ---------------------------------------------------------------------------------------


def head_count(population: int, figures_present: int) -> int:
    """Natives and every figure present: the manual counts both for work and taxes."""
    return max(0, population) + max(0, figures_present)


def wages_for(rules: Mapping[str, Any], heads: int) -> int:
    wages = _rules(rules, "places")["wages"]
    return max(int(wages["least"]), int(wages["top"]) - heads // int(wages["heads_per_coin"]))


def taxes_for(rules: Mapping[str, Any], heads: int) -> int:
    """The month's tax pool (the autumn bonus is added where it is collected)."""
    return int(_rules(rules, "places")["taxes_per_head"]) * heads


def optimum(rules: Mapping[str, Any], kind: str, structures: int = 0, market_used: bool = False) -> int:
    data = _rules(rules, "places")
    base = int(data["optimum"].get(kind, 0))
    percent = 100 + structures * int(data["structure_optimum_percent"])
    if market_used:
        percent += int(data["market_optimum_percent"])
    return base * percent // 100


def next_population(rules: Mapping[str, Any], population: int, best: int, change_tenths: int) -> int:
    """Births and deaths (``change_tenths`` tenths of a per cent, drawn by the caller), then a pull toward
    the optimum; never below zero."""
    pull = int(_rules(rules, "places")["pull_percent"])
    changed = population + _toward_zero(population * change_tenths, 1000)
    changed += _toward_zero((best - changed) * pull, 100)
    return max(0, changed)


def _toward_zero(numerator: int, denominator: int) -> int:
    """Integer division that rounds toward zero, so a loss and a gain of the same size are symmetric."""
    quotient = abs(numerator) // denominator
    return quotient if numerator >= 0 else -quotient


# --- recruits -------------------------------------------------------------------------------------


def recruit_offer(
    rules: Mapping[str, Any], kind: str, population: int, prices: Mapping[str, int], hero: bool
) -> dict[str, dict[str, int]]:
    """What a place offers for hire this month: ``{race: {count, price}}`` (races with none left out).
    ``prices`` are the prices the place asks now (a race missing from it starts at its base price);
    ``hero`` says whether the month's hero draw came up."""
    data = _rules(rules, "recruiting")
    if kind in data["no_recruiting_kinds"]:
        return {}
    offer: dict[str, dict[str, int]] = {}
    for race, row in data["races"].items():
        count = _recruit_count(row, kind, population, hero)
        if count > 0:
            offer[str(race)] = {"count": count, "price": int(prices.get(race, row["price"]))}
    return offer


def _recruit_count(row: Mapping[str, Any], kind: str, population: int, hero: bool) -> int:
    if population <= 0:
        return 0
    if "percent_of_population" in row:
        return population * int(row["percent_of_population"]) // 100
    if "by_population" in row:
        reached = [int(step["count"]) for step in row["by_population"] if population >= int(step["from"])]
        count = max(reached, default=0)
        if kind == "city":
            count = max(count, int(row.get("city_least", 0)))
        return count
    if "drawn_by" in row:  # a check decides each month whether one is offered
        return 1 if hero and kind in row.get("kinds", ()) else 0
    return 0


def stepped_price(price: int, step_percent: int, up: bool, floor: int, ceiling: int | None = None) -> int:
    """One step of a price up or down, by at least one coin, held between ``floor`` and ``ceiling``."""
    step = max(1, price * step_percent // 100)
    moved = price + step if up else price - step
    moved = max(floor, moved)
    return moved if ceiling is None else min(ceiling, moved)


def next_recruits(
    rules: Mapping[str, Any], kind: str, population: int, current: Mapping[str, Any], hero: bool
) -> dict[str, dict[str, int]]:
    """Next month's offer from this month's: a price falls a step if few were taken (never below the
    race's floor), rises a step if the offer ran out or buyers outbid each other on a day."""
    data = _rules(rules, "recruiting")
    prices: dict[str, int] = {}
    for race, row in data["races"].items():
        held = current.get(race)
        if not held:
            continue
        price, count = int(held["price"]), int(held["count"])
        taken = int(held.get("taken", 0))
        offered = count + taken
        if held.get("outbid") or (offered > 0 and count == 0):
            price = stepped_price(price, int(data["step_percent"]), True, int(row["floor"]))
        elif taken * 100 < offered * int(data["few_taken_percent"]):
            price = stepped_price(price, int(data["step_percent"]), False, int(row["floor"]))
        prices[str(race)] = price
    return recruit_offer(rules, kind, population, prices, hero)


# --- the NPC market -------------------------------------------------------------------------------


def market_offer(
    rules: Mapping[str, Any], taxes: int, prices: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """A market's lists for a tax pool: ``{days, sell, buy}`` with each good's count and price."""
    data = _rules(rules, "markets")
    prices = prices or {}
    lists: dict[str, dict[str, dict[str, int]]] = {"sell": {}, "buy": {}}
    for tag, good in data["goods"].items():
        count = (taxes * int(good["per_10000_taxes"]) + 5000) // 10000
        if count > 0:
            lists[str(good["side"])][str(tag)] = {
                "count": count,
                "price": int(prices.get(tag, good["price"])),
            }
    return {"days": list(data["days"]), "sell": lists["sell"], "buy": lists["buy"]}


def next_market(rules: Mapping[str, Any], taxes: int, current: Mapping[str, Any]) -> dict[str, Any]:
    """Next month's market: each list's price moves with how much of it was used, then the stock is
    counted again from the tax pool. A good the market sold out of rises; one it could not sell falls.
    A good it bought all it wanted of falls (it needs less); one nobody brought rises."""
    data = _rules(rules, "markets")
    drift = data["drift"]
    prices: dict[str, int] = {}
    for side in ("sell", "buy"):
        for tag, row in (current.get(side) or {}).items():
            base = int(data["goods"].get(tag, {}).get("price", row["price"]))
            traded = int(row.get("traded", 0))
            listed = int(row["count"]) + traded
            used = traded * 100 // listed if listed else 0
            price = int(row["price"])
            floor = max(1, base * int(drift["floor_percent"]) // 100)
            ceiling = base * int(drift["ceiling_percent"]) // 100
            busy, quiet = used >= int(drift["busy_percent"]), used < int(drift["quiet_percent"])
            if busy or quiet:
                # Selling: busy raises the price; buying: busy lowers the bid. Quiet does the opposite.
                up = busy if side == "sell" else quiet
                price = stepped_price(price, int(drift["step_percent"]), up, floor, ceiling)
            prices[str(tag)] = price
    fresh = market_offer(rules, taxes, prices)
    fresh["days"] = list(current.get("days") or fresh["days"])
    return fresh


# --- resources ------------------------------------------------------------------------------------


def _weather_word(weather: str | None) -> str:
    """The weather tables name sun, rain, wind: accept 'sunny', 'rainy', 'windy' too."""
    word = (weather or "").lower()
    return {"sunny": "sun", "rainy": "rain", "windy": "wind", "stormy": "storm"}.get(word, word)


def resources_for(rules: Mapping[str, Any], kind: str, season: str, weather: str | None) -> dict[str, int]:
    """The harvestable amounts of a territory for a month; inner places have none (harvest outside)."""
    data = _rules(rules, "places")
    base = data["resources"].get(kind) or {}
    percent = 100 + int(data["season_percent"].get(season.lower(), 0))
    percent += int(data["weather_percent"].get(_weather_word(weather), 0))
    farmed = set(data["agricultural"])
    return {
        str(tag): (int(amount) * percent // 100 if tag in farmed else int(amount))
        for tag, amount in base.items()
    }


# --- a new world ----------------------------------------------------------------------------------


def initial_place(
    rules: Mapping[str, Any],
    kind: str,
    population: int,
    season: str,
    weather: str | None = None,
    hero: bool = False,
) -> dict[str, Any]:
    """The record of a place at the start: natives, wages, taxes, recruits, market and resources."""
    taxes = taxes_for(rules, head_count(population, 0))
    record: dict[str, Any] = {
        "population": population,
        "wages": wages_for(rules, head_count(population, 0)),
        "taxes": taxes,
    }
    recruits = recruit_offer(rules, kind, population, {}, hero)
    if recruits:
        record["recruits"] = recruits
    if kind in _rules(rules, "markets")["kinds"]:
        record["market"] = market_offer(rules, taxes)
    resources = resources_for(rules, kind, season, weather)
    if resources:
        record["resources"] = resources
    return record


def initial_places(world: World, rules: Mapping[str, Any], roll: Draw, season: str = "") -> dict[str, Any]:
    """The ``places:`` of a new world: every place whose kind has people or resources, its population
    drawn between the start bounds of its optimum with ``roll`` (labelled by the place's id)."""
    low, high = (int(n) for n in _rules(rules, "places")["start_percent"])
    places: dict[str, Any] = {}
    for loc_id in world:
        kind = place_kind(world, loc_id, rules)
        best = optimum(rules, kind)
        population = best * roll(f"population/{loc_id}", low, high) // 100 if best > 0 else 0
        record = initial_place(rules, kind, population, season)
        if population > 0 or len(record) > 3:
            places[loc_id] = record
    return places


# --- the month's end ------------------------------------------------------------------------------


def _figures_at(state: State) -> dict[str, int]:
    present: dict[str, int] = {}
    for unit in state.get("units", {}).values():
        if unit.get("moving") or not unit.get("location"):
            continue
        present[unit["location"]] = present.get(unit["location"], 0) + int(unit.get("figures", 0))
    return present


def _structures_at(state: State) -> dict[str, int]:
    built: dict[str, int] = {}
    for structure in state.get("structures", {}).values():
        if structure.get("complete"):
            built[structure["location"]] = built.get(structure["location"], 0) + 1
    return built


def opens_market(rules: Mapping[str, Any], structure_type: str) -> bool:
    """Whether a completed structure of this type gives its place a market (the structures chapter's
    ``market`` flag: the marketplace)."""
    return bool((rules["structures"]["types"].get(structure_type) or {}).get("market"))


def _has_marketplace(state: State, rules: Mapping[str, Any], loc_id: str) -> bool:
    return any(
        s.get("complete") and opens_market(rules, str(s.get("type"))) and s.get("location") == loc_id
        for s in state.get("structures", {}).values()
    )


def _market_used(market: Mapping[str, Any] | None) -> bool:
    return bool(market) and any(
        int(row.get("traded", 0)) > 0 for side in ("sell", "buy") for row in (market.get(side) or {}).values()
    )


def evolve_place(
    rules: Mapping[str, Any],
    record: Mapping[str, Any],
    kind: str,
    *,
    figures_present: int,
    structures: int,
    marketplace: bool,
    change_tenths: int,
    hero: bool,
    season: str,
) -> dict[str, Any]:
    """A place's record for next month (pure: the caller draws the births and the hero)."""
    place = dict(record)
    market = record.get("market")
    best = optimum(rules, kind, structures, _market_used(market))
    population = next_population(rules, int(record.get("population", 0)), best, change_tenths)
    heads = head_count(population, figures_present)
    place["population"] = population
    place["wages"] = wages_for(rules, heads)
    place["taxes"] = taxes_for(rules, heads)
    recruits = next_recruits(rules, kind, population, record.get("recruits") or {}, hero)
    if recruits:
        place["recruits"] = recruits
    else:
        place.pop("recruits", None)
    if market:
        place["market"] = next_market(rules, place["taxes"], market)
    elif marketplace:
        place["market"] = market_offer(rules, place["taxes"])
    weather = (record.get("weather") or {}).get("next") or (record.get("weather") or {}).get("now")
    resources = resources_for(rules, kind, season, weather)
    if resources:
        place["resources"] = resources
    else:
        place.pop("resources", None)
    return place


def evolve_places(ctx: TurnContext[Any], state: State, places: Iterable[str] | None = None) -> State:
    """The month-end change of every place (or of ``places``), in the world's order: births and deaths,
    the pull toward the optimum, wages and taxes, next month's recruits and market, and resources for
    next month's season. Each place draws its own labelled dice, so one place never moves another's."""
    rules = ctx.rules
    world = ctx.game.world
    present, built = _figures_at(state), _structures_at(state)
    change = int(rules["places"]["change_tenths_percent"])
    hero_row = rules["recruiting"]["races"]["hero"]
    hero_check = Check.from_rules(rules, str(hero_row["drawn_by"]))
    season = ctx.game.calendar.date(ctx.turn + 1).season
    chosen = set(places) if places is not None else None
    drawn: list[Roll] = []  # the month's rolls of places, told in one event
    people_before = people_after = 0
    for loc_id in [p for p in world if p in state.get("places", {})]:
        if chosen is not None and loc_id not in chosen:
            continue
        kind = place_kind(world, loc_id, rules)
        # Births and deaths: 1d(2c+1) read as -c..+c tenths of a per cent (no roll when fixed at 0).
        births = (
            ctx.roll(roll_label("places", loc_id, "births"), f"1d{2 * change + 1}") if change > 0 else None
        )
        hero_roll = None
        if kind in hero_row.get("kinds", ()):
            hero_roll = hero_check.roll(ctx, roll_label("places", loc_id, "hero"))
        hero = hero_roll is not None and hero_roll.row.result == "hero"
        people_before += int(state["places"][loc_id].get("population", 0))
        state["places"][loc_id] = evolve_place(
            rules,
            state["places"][loc_id],
            kind,
            figures_present=present.get(loc_id, 0),
            structures=built.get(loc_id, 0),
            marketplace=_has_marketplace(state, rules, loc_id),
            change_tenths=births.total - change - 1 if births is not None else 0,
            hero=hero,
            season=season,
        )
        people_after += int(state["places"][loc_id].get("population", 0))
        drawn.extend([births] if births is not None else [])
        if hero and hero_roll is not None:
            ctx.emit(
                "hero_for_hire",
                place=loc_id,
                rolls=[hero_roll.roll],
                price=state["places"][loc_id]["recruits"]["hero"]["price"],
            )
        elif hero_roll is not None:
            drawn.append(hero_roll.roll)
    if drawn:
        # Every roll belongs to the event it decided: the places' month is one public event, so the
        # chronicle's dice and the compact log carry these rolls like any other.
        # A sealed campaign does not print the totals: they add up every place's people, which follow the
        # figures present and the battles fought there, hidden things a reader could read back from them.
        totals = {} if ctx.sealed else {"before": people_before, "after": people_after}
        ctx.emit("places_changed", rolls=drawn, **totals)
    return state
