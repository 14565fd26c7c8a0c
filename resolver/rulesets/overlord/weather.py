"""Each territory's weather for a month (spec 5.4): drawn from its season's list with labelled rolls, then
repaired round storms, since a storm forces each neighbour to rain, wind or storm. Inner places shelter
from the weather and get none; water territories get theirs, as sailing depends on the wind.

A pure function of the world, the season and the roll source: the resolver passes one that rolls through
the turn's dice (labelled and logged), a new campaign one drawn from its seed (``seeded_roller``).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Mapping
from typing import Any

from ...core.dice import Roll, RollLabel, roll_label
from ...core.rng import stream
from ...core.words import plural
from ...core.world import World
from ...engine.context import TurnContext

Rules = Mapping[str, Any]
# A roll source: a die of ``sides`` sides rolled under ``label``, the face shown (1..sides).
Roller = Callable[[RollLabel, int], int]
STORM = "storm"


def seeded_roller(seed: int, purpose: str) -> Roller:
    """A roll source for a new campaign's opening weather, before any turn's dice exist."""
    return lambda label, sides: stream(seed, f"{purpose}/{label}").below(sides) + 1


def _pick(options: list[str], label: RollLabel, roll: Roller) -> str:
    return options[0] if len(options) == 1 else options[roll(label, len(options)) - 1]


def draw_weather(world: World, season: str, rules: Rules, roll: Roller) -> dict[str, str]:
    """The weather of every territory (inner places have none) in the world's order for a month of
    ``season``. Each territory rolls one die on its season's list, labelled with its id; a neighbour of a
    storm that has neither rain, wind nor storm rolls again, labelled with its id and ``storm``, on those
    its season allows, and a new storm forces its own neighbours."""
    table = rules["weather"]
    seasons = table["seasons"]
    options = [str(w) for w in seasons.get(season.lower()) or seasons.get(season) or ()]
    if not options:
        raise ValueError(f"the weather table has no list for the season {season!r}")
    territories = [loc for loc in world if world[loc].parent is None]
    weather = {loc: _pick(options, roll_label("weather", loc), roll) for loc in territories}
    stormy = [str(w) for w in table["storm_neighbours"]]
    allowed = [w for w in stormy if w in options]  # holds storm at least: only the season's list makes storms
    queue = deque(loc for loc in territories if weather[loc] == STORM)
    while queue:
        storm = queue.popleft()
        for near in world[storm].neighbours:
            if near not in weather or weather[near] in stormy:
                continue  # an inner place, or already rough enough
            weather[near] = _pick(allowed, roll_label("weather", near, "storm"), roll)
            if weather[near] == STORM:
                queue.append(near)
    return weather


def next_month(
    places: Mapping[str, Mapping[str, Any]], drawn: Mapping[str, str]
) -> dict[str, dict[str, str | None]]:
    """Each territory's ``weather`` entry once a month passes: last month's forecast becomes this month's
    weather and the newly drawn weather the forecast."""
    result: dict[str, dict[str, str | None]] = {}
    for loc, upcoming in drawn.items():
        before = (places.get(loc) or {}).get("weather") or {}
        result[loc] = {"now": before.get("next", upcoming), "next": upcoming}
    return result


def weather_of(world: World, places: Mapping[str, Mapping[str, Any]], which: str = "now") -> dict[str, str]:
    """Every territory's weather this month (``which`` "now") or next ("next", what a report's directions
    reckon with), as ``core.world.travel_days`` takes it; fair where the state holds none."""
    return {
        loc: str(((places.get(loc) or {}).get("weather") or {}).get(which) or "fair")
        for loc in world
        if world[loc].parent is None
    }


def month_end(ctx: TurnContext[Any], state: dict[str, Any]) -> None:
    """At the month's end the forecast becomes next month's weather, and the month after it is drawn with
    the turn's dice (one labelled roll a territory, logged), told as one public ``weather_drawn`` event
    that carries those rolls."""
    world = ctx.game.world
    month_after = ctx.game.calendar.date(ctx.turn + 2)
    rolls: list[Roll] = []

    def roll(label: RollLabel, sides: int) -> int:
        rolled = ctx.roll(label, f"1d{sides}")
        rolls.append(rolled)
        return rolled.total

    drawn = draw_weather(world, month_after.season, ctx.rules, roll)
    places = state.setdefault("places", {})
    for loc, sky in next_month(places, drawn).items():
        record = places.setdefault(loc, {})
        # The month just played is kept for the report's climate line ("last month was...").
        record["weather"] = {"last": (record.get("weather") or {}).get("now"), **sky}
    if rolls:
        # Every roll belongs to the event it decided: the compact log folds them under it, and the
        # chronicle shows them in its dice box, as the places' month does with its own.
        words = ctx.rules["weather"].get("words") or {}
        counts = Counter(drawn.values())
        ctx.emit(
            "weather_drawn",
            rolls=rolls,
            month=month_after.label,
            territories=len(drawn),
            skies=[
                f"{words.get(sky, sky)} in {plural(counts[sky], 'territory', 'territories')}"
                for sky in sorted(counts, key=lambda sky: (-counts[sky], sky))
            ],
        )
