"""Counting and listing in English, shared by the event texts and the rules pages."""

from __future__ import annotations

from resolver.core.words import series, tally_names


def test_a_series_joins_its_last_item_with_the_word_given() -> None:
    assert series(["Spearmen"]) == "Spearmen"
    assert series(["hills", "mountains"], "or") == "hills or mountains"
    assert series(["a", "b", "c"], "then") == "a, b then c"


def test_tallied_names_count_repeats_and_read_as_a_series() -> None:
    assert tally_names(["Levy", "Levy", "Archer", "Riders"]) == "two Levies, Archer and Riders"
