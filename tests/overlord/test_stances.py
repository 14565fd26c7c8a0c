"""Stances: defaults and explicit stances, NPC outlooks, the bona fide rule and the gates."""

from __future__ import annotations

import pytest

from resolver.rulesets.overlord import stances

from .titles_support import rules, state


def test_default_and_explicit_stances() -> None:
    r, st = rules(), state()
    assert stances.stance(st, r, "red", "blue") == "neutral"
    stances.set_stance(st, r, "red", "blue", "hostile")
    stances.set_stance(st, r, "red", "red", "friendly")  # one's own id sets the default
    assert st["factions"]["red"]["stances"] == {"default": "friendly", "blue": "hostile"}
    assert stances.stance(st, r, "red", "blue") == "hostile"
    assert stances.stance(st, r, "red", "green") == "friendly"
    assert stances.stance(st, r, "red", "red") == "ally"


def test_an_explicit_stance_equal_to_the_default_stays_explicit() -> None:
    r, st = rules(), state()
    stances.set_stance(st, r, "red", "blue", "neutral")
    stances.set_stance(st, r, "red", "red", "enemy")
    assert stances.stance(st, r, "red", "blue") == "neutral"
    assert stances.stance(st, r, "red", "green") == "enemy"


def test_npc_outlooks_come_from_the_rules_data_until_the_state_says_otherwise() -> None:
    r, st = rules(), state()
    assert stances.stance(st, r, "imperials", "red") == "friendly"
    assert stances.stance(st, r, "imperials", "citizens") == "ally"
    assert stances.stance(st, r, "outlaws", "red") == "enemy"
    assert stances.stance(st, r, "creatures", "imperials") == "enemy"
    stances.set_stance(st, r, "imperials", "red", "enemy")
    assert stances.stance(st, r, "imperials", "red") == "enemy"


def test_an_unknown_stance_word_is_refused() -> None:
    with pytest.raises(ValueError):
        stances.set_stance(state(), rules(), "red", "blue", "cordial")


def test_bona_fide_rule() -> None:
    r, st = rules(), state()
    stances.set_stance(st, r, "red", "blue", "ally")
    # Blue's faction cannot be seen: red treats it by default, since blue is only neutral toward red.
    assert stances.treated_stance(st, r, "red", "blue", known=False) == "neutral"
    stances.set_stance(st, r, "blue", "red", "friendly")
    assert stances.treated_stance(st, r, "red", "blue", known=False) == "ally"
    # An explicit stance worse than the default never applies to an unseen unit.
    stances.set_stance(st, r, "red", "green", "enemy")
    stances.set_stance(st, r, "green", "red", "ally")
    assert stances.treated_stance(st, r, "red", "green", known=False) == "neutral"


@pytest.mark.parametrize(
    ("held", "what", "allowed"),
    [
        ("ally", "stack", True),
        ("friendly", "stack", False),
        ("friendly", "give", True),
        ("neutral", "give", False),
        ("friendly", "trade", True),
        ("neutral", "trade", False),
        ("neutral", "pass", True),
        ("hostile", "pass", False),
        ("friendly", "recruit", True),
        ("hostile", "recruit", False),
        ("friendly", "harvest", True),
        ("neutral", "harvest", False),
        ("friendly", "pillage", False),
        ("ally", "pillage", True),
        ("friendly", "tax", False),
        ("ally", "tax", True),
        ("friendly", "enter", True),
        ("neutral", "enter", False),
        ("enemy", "work", True),
    ],
)
def test_gates_follow_the_policy_table(held: str, what: str, allowed: bool) -> None:
    r, st = rules(), state()
    stances.set_stance(st, r, "blue", "red", held)
    assert stances.may(st, r, "red", "blue", what) is allowed


def test_nobody_owning_permits_everything_and_own_faction_too() -> None:
    r, st = rules(), state()
    assert stances.may(st, r, "red", None, "pillage")
    assert stances.may(st, r, "red", "red", "tax")


def test_unknown_faction_exceptions() -> None:
    r, st = rules(), state()
    stances.set_stance(st, r, "blue", "blue", "hostile")  # blue's default is hostile
    stances.set_stance(st, r, "blue", "red", "ally")
    # Harvesting is allowed to an unseen faction whatever the default.
    assert stances.may(st, r, "red", "blue", "harvest", known=False)
    # Gifts are judged as if the faction were known (blue holds red an ally).
    assert stances.may(st, r, "red", "blue", "give", known=False)
    # Taxes and joining battles never go to an unseen faction.
    assert not stances.may(st, r, "red", "blue", "tax", known=False)
    assert not stances.may(st, r, "red", "blue", "join_battle", known=False)
    # The rest by the bona fide rule: red does not hold blue friendly, so blue's default applies.
    assert not stances.may(st, r, "red", "blue", "trade", known=False)


def test_an_unknown_gate_is_an_error() -> None:
    with pytest.raises(KeyError):
        stances.may(state(), rules(), "red", "blue", "dance")
