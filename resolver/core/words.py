"""Counting in English, for every sentence the engine writes: "1 unit", "2 units", "1 resource".

The event sentences (``events.yaml``), the site's pages and the command line share these helpers, so a
count reads the same everywhere.
"""

from __future__ import annotations


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


# Stocks named in the rules data that are counted nouns, by their plural name; every other stock
# (population, capital, reach) is a mass noun and reads the same for any amount.
_COUNTED_STOCKS = {"resources": "resource", "units": "unit", "successes": "success"}


def amount(count: int, stock: str) -> str:
    """An amount of a stock as the rules data names it: amount(1, 'resources') == '1 resource',
    amount(1, 'population') == '1 population'."""
    singular = _COUNTED_STOCKS.get(stock)
    if singular is None:
        return f"{count} {stock}"
    return plural(count, singular, stock)
