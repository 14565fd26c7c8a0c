"""Counting in English, for every sentence the engine writes: "1 unit", "2 units", "1 resource".

The event sentences (``events.yaml``), the site's pages and the command line share these helpers, so a
count reads the same everywhere.
"""

from __future__ import annotations

from typing import Any


def noun_plural(word: str) -> str:
    """'army' -> 'armies', 'settlement' -> 'settlements', 'fortress' -> 'fortresses'."""
    if word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")


def plural(count: int, word: str, many: str | None = None) -> str:
    """The count and the word, singular for exactly one: plural(1, 'unit') == '1 unit'.

    ``many`` names an irregular plural (plural(2, 'order failed', 'orders failed')).
    """
    return f"{count} {word if count == 1 else (many or noun_plural(word))}"


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_word(count: Any) -> str:
    """A small count in words for prose ('three action points', 'three Levies'), larger ones in digits."""
    number = int(count)
    return NUMBER_WORDS[number] if 0 <= number < len(NUMBER_WORDS) else str(number)


def name_plural(name: str) -> str:
    """The plural of a name that may already be one: 'Levy' -> 'Levies', but 'Spearmen' and 'Riders' stay."""
    # "Free foot" and "Cavalry" name troops as a body: two units of them are still "Free foot".
    return name if name.lower().endswith(("men", "folk", "s", "foot", "cavalry")) else noun_plural(name)


def tally_names(names: list[str]) -> str:
    """Things named one by one, counted: ['Levy', 'Levy', 'Archer'] is 'two Levies and Archer' (a unit's
    name may be a plural noun already, "Riders": one of them is named without a count)."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return series([name if n == 1 else f"{number_word(n)} {name_plural(name)}" for name, n in counts.items()])


def series(items: list[str], last: str = "and") -> str:
    """Things in a sentence: series(['a', 'b', 'c'], 'or') is 'a, b or c'."""
    items = [str(item) for item in items]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


# Stocks named in the rules data (and the nations' unit classes) that are counted nouns, by their plural
# name; every other stock (population, capital, reach) is a mass noun and reads the same for any amount.
_COUNTED_STOCKS = {"resources": "resource", "units": "unit", "successes": "success", "troops": "troop"}


def amount(count: int, stock: str) -> str:
    """An amount of a stock as the rules data names it: amount(1, 'resources') == '1 resource',
    amount(1, 'population') == '1 population'."""
    singular = _COUNTED_STOCKS.get(stock)
    if singular is None:
        return f"{count} {stock}"
    return plural(count, singular, stock)
