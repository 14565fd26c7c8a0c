"""What a player can count on when the orders of a movement phase are resolved together.

Each test sets a position on the standard map (through the stand-in board of ``adjudicator_board``), gives
the orders as a player writes them, and checks which orders succeed, which units are dislodged and where
the units stand after. Situations come from the rules and from the DATC's chapter 6 (its case number is
named where one is the source); the full DATC runs in ``test_datc``.
"""

from __future__ import annotations

import itertools
import random

import pytest

from resolver.rulesets.diplomacy.adjudication import adjudicate
from resolver.rulesets.diplomacy.pieces import Hold, Move, MovementOutcome, Unit
from tests.diplomacy.adjudicator_board import situation, test_board

BOARD = test_board()


def play(orders: dict[str, list[str]], units: dict[str, list[str]] | None = None) -> MovementOutcome:
    placed, given = situation(orders, units)
    return adjudicate(BOARD, placed, given)


def verdicts(outcome: MovementOutcome) -> list[str]:
    """One word an order: succeeds, fails (with why) or illegal."""
    words = []
    for resolution in outcome.resolutions:
        if resolution.succeeded:
            words.append("succeeds")
        elif resolution.reason == "illegal":
            words.append("illegal")
        else:
            words.append(f"fails: {resolution.reason}")
    return words


def succeeded(outcome: MovementOutcome) -> list[bool]:
    return [resolution.succeeded for resolution in outcome.resolutions]


def where(outcome: MovementOutcome) -> dict[str, str]:
    """Each unit after the phase: location -> power."""
    return {unit.location: unit.power for unit in outcome.units}


# Moves and bounces


def test_a_lone_move_into_an_empty_province_succeeds() -> None:
    outcome = play({"france": ["A Paris - Burgundy"]})
    assert verdicts(outcome) == ["succeeds"]
    assert outcome.units == (Unit("france", "army", "bur"),)


def test_two_equal_moves_into_one_province_both_bounce_and_leave_it_contested() -> None:
    outcome = play({"austria": ["A Vienna - Tyrolia"], "italy": ["A Venice - Tyrolia"]})
    assert verdicts(outcome) == ["fails: bounced", "fails: bounced"]
    assert outcome.contested == frozenset({"tyr"})


def test_three_equal_moves_all_bounce_none_slips_in_afterwards() -> None:
    """DATC 6.A.12."""
    outcome = play(
        {
            "austria": ["A Vienna - Tyrolia"],
            "germany": ["A Munich - Tyrolia"],
            "italy": ["A Venice - Tyrolia"],
        }
    )
    assert succeeded(outcome) == [False, False, False]


def test_the_stronger_of_several_attackers_enters() -> None:
    outcome = play(
        {
            "germany": ["A Berlin - Silesia", "A Munich Supports A Berlin - Silesia"],
            "russia": ["A Warsaw - Silesia"],
            "austria": ["A Bohemia - Silesia"],
        }
    )
    assert succeeded(outcome) == [True, True, False, False]
    assert outcome.contested == frozenset()


def test_a_unit_holding_is_dislodged_by_a_supported_attack() -> None:
    outcome = play(
        {
            "italy": ["A Venice - Trieste", "A Tyrolia Supports A Venice - Trieste"],
            "austria": ["F Trieste Hold"],
        }
    )
    assert verdicts(outcome) == ["succeeds", "succeeds", "fails: dislodged"]
    unit, attacker = outcome.dislodged["tri"]
    assert (unit, attacker) == (Unit("austria", "fleet", "tri"), "ven")
    assert "tri" not in {u.location for u in outcome.units if u.power == "austria"}


def test_a_unit_cannot_support_itself_to_hold() -> None:
    """DATC 6.A.8."""
    outcome = play(
        {
            "italy": ["A Venice - Trieste", "A Tyrolia Supports A Venice - Trieste"],
            "austria": ["F Trieste Supports F Trieste"],
        }
    )
    assert verdicts(outcome) == ["succeeds", "succeeds", "illegal"]
    assert "tri" in outcome.dislodged


# Illegal orders: the unit holds and can be supported in holding


def test_an_illegal_move_leaves_the_unit_holding_and_it_can_be_supported() -> None:
    """DATC 6.D.28: a fleet ordered to a place it cannot reach holds, and a support to hold helps it."""
    outcome = play(
        {
            "austria": ["A Budapest Supports F Rumania"],
            "russia": ["F Rumania - Holland"],
            "turkey": ["F Black Sea - Rumania", "A Bulgaria Supports F Black Sea - Rumania"],
        }
    )
    assert verdicts(outcome) == ["succeeds", "illegal", "fails: bounced", "succeeds"]
    assert outcome.dislodged == {}


def test_a_move_to_its_own_place_is_illegal_and_so_is_its_support_and_convoy() -> None:
    """DATC 6.A.5."""
    outcome = play(
        {
            "england": [
                "F North Sea Convoys A Yorkshire - Yorkshire",
                "A Yorkshire - Yorkshire",
                "A Liverpool Supports A Yorkshire - Yorkshire",
            ],
            "germany": ["F London - Yorkshire", "A Wales Supports F London - Yorkshire"],
        }
    )
    assert verdicts(outcome) == ["illegal", "illegal", "illegal", "succeeds", "succeeds"]
    assert outcome.dislodged["yor"][1] == "lon"


def test_an_order_for_another_powers_unit_is_ignored() -> None:
    """DATC 6.A.6."""
    outcome = play({"germany": ["F London - North Sea"]}, units={"england": ["F London"]})
    assert verdicts(outcome) == ["illegal"]
    assert outcome.units == (Unit("england", "fleet", "lon"),)


def test_a_support_of_an_impossible_move_does_not_count_even_for_defence() -> None:
    """DATC 6.D.22: the fleet in Kiel cannot go to Munich, so Burgundy's support is illegal too."""
    outcome = play(
        {
            "germany": ["F Kiel - Munich", "A Burgundy Supports F Kiel - Munich"],
            "russia": ["A Munich - Kiel", "A Berlin Supports A Munich - Kiel"],
        }
    )
    assert verdicts(outcome) == ["illegal", "illegal", "succeeds", "succeeds"]
    assert outcome.dislodged["kie"][1] == "mun"


def test_an_illegal_move_still_defends_in_a_head_to_head() -> None:
    """DATC 6.E.14: the fleet cannot go to Liverpool, so it holds Edinburgh against the lone army."""
    outcome = play({"england": ["A Liverpool - Edinburgh"], "russia": ["F Edinburgh - Liverpool"]})
    assert verdicts(outcome) == ["fails: bounced", "illegal"]


def test_two_different_orders_for_one_unit_make_it_hold() -> None:
    """DATC 4.D.3, choice c: neither order is followed; the unit holds and may be supported."""
    outcome = play(
        {
            "germany": ["A Holland - Belgium", "A Holland Supports F Kiel", "F Kiel Hold"],
            "france": ["A Ruhr - Holland"],
        }
    )
    assert verdicts(outcome) == ["illegal", "illegal", "succeeds", "fails: bounced"]
    assert where(outcome)["hol"] == "germany"


def test_the_same_order_written_twice_is_followed() -> None:
    outcome = play({"france": ["A Paris - Burgundy", "Paris - Burgundy"]})
    assert verdicts(outcome) == ["succeeds", "succeeds"]
    assert outcome.units == (Unit("france", "army", "bur"),)


def test_an_order_naming_the_wrong_kind_of_unit_is_followed() -> None:
    """DATC 4.C.2, choice b: "F Paris" for the army in Paris still means that army."""
    outcome = play({"france": ["F Paris - Burgundy"]}, units={"france": ["A Paris"]})
    assert verdicts(outcome) == ["succeeds"]


# Coasts


def test_a_fleet_reaching_one_coast_goes_there_without_naming_it() -> None:
    """DATC 6.B.2: from Gascony only the north coast of Spain is in reach."""
    outcome = play({"france": ["F Gascony - Spain"]})
    assert outcome.units == (Unit("france", "fleet", "spa/nc"),)


def test_a_fleet_reaching_both_coasts_must_name_one() -> None:
    """DATC 6.B.1."""
    assert verdicts(play({"france": ["F Portugal - Spain"]})) == ["illegal"]


def test_a_support_into_a_coast_the_supporter_cannot_reach_is_allowed() -> None:
    """DATC 6.B.4: Marseilles touches only Spain's south coast, yet backs the move to the north coast."""
    outcome = play(
        {
            "france": ["F Gascony - Spain(nc)", "F Marseilles Supports F Gascony - Spain(nc)"],
            "italy": ["F Western Mediterranean - Spain(sc)"],
        }
    )
    assert verdicts(outcome) == ["succeeds", "succeeds", "fails: bounced"]


def test_a_support_naming_another_coast_than_the_move_is_void() -> None:
    """DATC 6.B.9."""
    outcome = play(
        {
            "france": [
                "F Portugal Supports F Mid-Atlantic Ocean - Spain(nc)",
                "F Mid-Atlantic Ocean - Spain(sc)",
            ],
            "italy": [
                "F Gulf of Lyon Supports F Western Mediterranean - Spain(sc)",
                "F Western Mediterranean - Spain(sc)",
            ],
        }
    )
    assert verdicts(outcome) == ["fails: void", "fails: bounced", "succeeds", "succeeds"]


def test_a_support_naming_no_coast_backs_the_move_to_either_coast() -> None:
    """DATC 6.B.15: even for a foreign fleet."""
    outcome = play(
        {
            "france": ["F Portugal Supports F Mid-Atlantic Ocean - Spain"],
            "england": ["F Mid-Atlantic Ocean - Spain(nc)"],
            "italy": [
                "F Gulf of Lyon Supports F Western Mediterranean - Spain(sc)",
                "F Western Mediterranean - Spain(sc)",
            ],
        }
    )
    assert succeeded(outcome) == [True, False, True, False]


def test_a_support_is_cut_from_the_other_coast() -> None:
    """DATC 6.B.6."""
    outcome = play(
        {
            "england": [
                "F Irish Sea Supports F North Atlantic Ocean - Mid-Atlantic Ocean",
                "F North Atlantic Ocean - Mid-Atlantic Ocean",
            ],
            "france": ["F Spain(nc) Supports F Mid-Atlantic Ocean", "F Mid-Atlantic Ocean Hold"],
            "italy": ["F Gulf of Lyon - Spain(sc)"],
        }
    )
    assert verdicts(outcome)[2] == "fails: cut"
    assert outcome.dislodged["mao"][1] == "nao"


def test_the_coast_written_for_the_ordered_fleet_is_ignored() -> None:
    """DATC 6.B.10: the fleet is on the south coast; the order says north; the move is tried."""
    outcome = play({"france": ["F Spain(nc) - Gulf of Lyon"]}, units={"france": ["F Spain(sc)"]})
    assert outcome.units == (Unit("france", "fleet", "gol"),)


def test_a_fleet_cannot_change_coast_by_being_ordered_from_the_other() -> None:
    """DATC 6.B.11."""
    outcome = play({"france": ["F Spain(sc) - Gulf of Lyon"]}, units={"france": ["F Spain(nc)"]})
    assert verdicts(outcome) == ["illegal"]


def test_no_coastal_crawl() -> None:
    """DATC 6.B.13: leaving Bulgaria by one coast while another fleet enters by the other is still a
    head-to-head battle."""
    outcome = play({"turkey": ["F Bulgaria(sc) - Constantinople", "F Constantinople - Bulgaria(ec)"]})
    assert succeeded(outcome) == [False, False]


# Circular movement


def test_three_units_can_rotate() -> None:
    """DATC 6.C.1."""
    outcome = play(
        {"turkey": ["F Ankara - Constantinople", "A Constantinople - Smyrna", "A Smyrna - Ankara"]}
    )
    assert succeeded(outcome) == [True, True, True]
    assert where(outcome) == {"con": "turkey", "smy": "turkey", "ank": "turkey"}


def test_a_rotation_with_support_still_rotates() -> None:
    """DATC 6.C.2."""
    outcome = play(
        {
            "turkey": [
                "F Ankara - Constantinople",
                "A Constantinople - Smyrna",
                "A Smyrna - Ankara",
                "A Bulgaria Supports F Ankara - Constantinople",
            ]
        }
    )
    assert succeeded(outcome) == [True, True, True, True]


def test_a_rotation_breaks_when_one_move_bounces() -> None:
    """DATC 6.C.3."""
    outcome = play(
        {
            "turkey": [
                "F Ankara - Constantinople",
                "A Constantinople - Smyrna",
                "A Smyrna - Ankara",
                "A Bulgaria - Constantinople",
            ]
        }
    )
    assert succeeded(outcome) == [False, False, False, False]


def test_a_rotation_through_a_convoy_attacked_but_not_dislodged_succeeds() -> None:
    """DATC 6.C.4."""
    outcome = play(
        {
            "austria": ["A Trieste - Serbia", "A Serbia - Bulgaria"],
            "turkey": [
                "A Bulgaria - Trieste",
                "F Aegean Sea Convoys A Bulgaria - Trieste",
                "F Ionian Sea Convoys A Bulgaria - Trieste",
                "F Adriatic Sea Convoys A Bulgaria - Trieste",
            ],
            "italy": ["F Naples - Ionian Sea"],
        }
    )
    assert succeeded(outcome) == [True, True, True, True, True, True, False]


def test_a_rotation_breaks_when_its_convoy_is_dislodged() -> None:
    """DATC 6.C.5."""
    outcome = play(
        {
            "austria": ["A Trieste - Serbia", "A Serbia - Bulgaria"],
            "turkey": [
                "A Bulgaria - Trieste",
                "F Aegean Sea Convoys A Bulgaria - Trieste",
                "F Ionian Sea Convoys A Bulgaria - Trieste",
                "F Adriatic Sea Convoys A Bulgaria - Trieste",
            ],
            "italy": ["F Naples - Ionian Sea", "F Tunis Supports F Naples - Ionian Sea"],
        }
    )
    assert succeeded(outcome)[:3] == [False, False, False]
    assert outcome.dislodged["ion"][1] == "nap"


def test_two_armies_swap_by_two_convoys() -> None:
    """DATC 6.C.6."""
    outcome = play(
        {
            "england": ["F North Sea Convoys A London - Belgium", "A London - Belgium"],
            "france": ["F English Channel Convoys A Belgium - London", "A Belgium - London"],
        }
    )
    assert succeeded(outcome) == [True, True, True, True]
    assert where(outcome)["bel"] == "england" and where(outcome)["lon"] == "france"
    assert outcome.convoyed == frozenset({"lon", "bel"})


def test_no_self_dislodgement_in_a_broken_rotation() -> None:
    """DATC 6.C.8."""
    outcome = play(
        {
            "turkey": [
                "F Constantinople - Black Sea",
                "A Bulgaria - Constantinople",
                "A Smyrna Supports A Bulgaria - Constantinople",
            ],
            "russia": ["F Black Sea - Bulgaria(ec)"],
            "austria": ["A Serbia - Bulgaria"],
        }
    )
    assert succeeded(outcome) == [False, False, True, False, False]


# Supports


def test_a_supported_hold_prevents_dislodgement() -> None:
    """DATC 6.D.1."""
    outcome = play(
        {
            "austria": ["F Adriatic Sea Supports A Trieste - Venice", "A Trieste - Venice"],
            "italy": ["A Venice Hold", "A Tyrolia Supports A Venice"],
        }
    )
    assert succeeded(outcome) == [True, False, True, True]


def test_a_move_on_the_supporter_cuts_its_support() -> None:
    """DATC 6.D.2."""
    outcome = play(
        {
            "austria": [
                "F Adriatic Sea Supports A Trieste - Venice",
                "A Trieste - Venice",
                "A Vienna - Tyrolia",
            ],
            "italy": ["A Venice Hold", "A Tyrolia Supports A Venice"],
        }
    )
    assert verdicts(outcome)[4] == "fails: cut"
    assert outcome.dislodged["ven"][1] == "tri"


def test_a_moving_unit_cannot_be_supported_to_hold() -> None:
    """DATC 6.D.7."""
    outcome = play(
        {
            "germany": ["F Baltic Sea - Sweden", "F Prussia Supports F Baltic Sea"],
            "russia": [
                "F Livonia - Baltic Sea",
                "F Gulf of Bothnia Supports F Livonia - Baltic Sea",
                "A Finland - Sweden",
            ],
        }
    )
    assert verdicts(outcome)[1] == "fails: void"
    assert outcome.dislodged["bal"][1] == "lvn"


def test_a_support_for_a_move_not_ordered_is_void() -> None:
    """DATC 6.D.9."""
    outcome = play(
        {
            "italy": ["A Venice - Trieste", "A Tyrolia Supports A Venice - Trieste"],
            "austria": ["A Albania Supports A Trieste - Serbia", "A Trieste Hold"],
        }
    )
    assert verdicts(outcome)[2] == "fails: void"
    assert "tri" in outcome.dislodged


def test_no_unit_dislodges_one_of_its_own_power() -> None:
    """DATC 6.D.10 and 6.D.11."""
    outcome = play({"germany": ["A Berlin Hold", "F Kiel - Berlin", "A Munich Supports F Kiel - Berlin"]})
    assert succeeded(outcome)[1] is False
    outcome = play(
        {
            "germany": ["A Berlin - Prussia", "F Kiel - Berlin", "A Munich Supports F Kiel - Berlin"],
            "russia": ["A Warsaw - Prussia"],
        }
    )
    assert succeeded(outcome) == [False, False, True, False]
    assert outcome.dislodged == {}


def test_a_power_cannot_help_a_foreign_unit_dislodge_its_own() -> None:
    """DATC 6.D.12 and 6.D.14: the support does not count, but it cannot hold off enough other support."""
    outcome = play(
        {
            "austria": ["F Trieste Hold", "A Vienna Supports A Venice - Trieste"],
            "italy": ["A Venice - Trieste"],
        }
    )
    assert outcome.dislodged == {}
    outcome = play(
        {
            "austria": ["F Trieste Hold", "A Vienna Supports A Venice - Trieste"],
            "italy": [
                "A Venice - Trieste",
                "A Tyrolia Supports A Venice - Trieste",
                "F Adriatic Sea Supports A Venice - Trieste",
            ],
        }
    )
    assert outcome.dislodged["tri"][1] == "ven"


def test_the_attacked_unit_cannot_cut_the_support_against_it() -> None:
    """DATC 6.D.15."""
    outcome = play(
        {
            "russia": ["F Constantinople Supports F Black Sea - Ankara", "F Black Sea - Ankara"],
            "turkey": ["F Ankara - Constantinople"],
        }
    )
    assert succeeded(outcome) == [True, True, False]
    assert outcome.dislodged["ank"][1] == "bla"


def test_a_dislodged_supporter_gives_no_support() -> None:
    """DATC 6.D.17."""
    outcome = play(
        {
            "russia": ["F Constantinople Supports F Black Sea - Ankara", "F Black Sea - Ankara"],
            "turkey": [
                "F Ankara - Constantinople",
                "A Smyrna Supports F Ankara - Constantinople",
                "A Armenia - Ankara",
            ],
        }
    )
    assert verdicts(outcome) == [
        "fails: dislodged",
        "fails: bounced",
        "succeeds",
        "succeeds",
        "fails: bounced",
    ]


def test_an_attack_by_ones_own_unit_does_not_cut_support() -> None:
    """DATC 6.D.20."""
    outcome = play(
        {
            "england": [
                "F London Supports F North Sea - English Channel",
                "F North Sea - English Channel",
                "A Yorkshire - London",
            ],
            "france": ["F English Channel Hold"],
        }
    )
    assert outcome.dislodged["eng"][1] == "nth"


def test_a_dislodged_attacker_still_cuts_support() -> None:
    """DATC 6.D.21."""
    outcome = play(
        {
            "austria": ["F Trieste Hold"],
            "italy": ["A Venice - Trieste", "A Tyrolia Supports A Venice - Trieste"],
            "germany": ["A Munich - Tyrolia"],
            "russia": ["A Silesia - Munich", "A Berlin Supports A Silesia - Munich"],
        }
    )
    assert "tri" not in outcome.dislodged
    assert outcome.dislodged["mun"][1] == "sil"


def test_an_unwanted_support_breaks_a_self_standoff() -> None:
    """DATC 6.D.33."""
    outcome = play(
        {
            "austria": ["A Serbia - Budapest", "A Vienna - Budapest"],
            "russia": ["A Galicia Supports A Serbia - Budapest"],
            "turkey": ["A Bulgaria - Serbia"],
        }
    )
    assert succeeded(outcome) == [True, False, True, True]


def test_a_support_into_the_supporters_own_province_is_illegal() -> None:
    """DATC 6.D.34."""
    outcome = play(
        {
            "germany": [
                "A Berlin - Prussia",
                "A Silesia Supports A Berlin - Prussia",
                "F Baltic Sea Supports A Berlin - Prussia",
            ],
            "italy": ["A Prussia Supports Livonia - Prussia"],
            "russia": ["A Warsaw Supports A Livonia - Prussia", "A Livonia - Prussia"],
        }
    )
    assert verdicts(outcome)[3] == "illegal"
    assert outcome.dislodged["pru"][1] == "ber"


# Head-to-head battles and beleaguered garrisons


def test_a_unit_beaten_head_to_head_has_no_effect_on_its_victors_province() -> None:
    """DATC 6.E.1."""
    outcome = play(
        {
            "germany": ["A Berlin - Prussia", "F Kiel - Berlin", "A Silesia Supports A Berlin - Prussia"],
            "russia": ["A Prussia - Berlin"],
        }
    )
    assert succeeded(outcome) == [True, True, True, False]


def test_a_loser_not_dislodged_still_blocks() -> None:
    """DATC 6.E.4."""
    outcome = play(
        {
            "germany": [
                "F Holland - North Sea",
                "F Helgoland Bight Supports F Holland - North Sea",
                "F Skagerrak Supports F Holland - North Sea",
            ],
            "france": ["F North Sea - Holland", "F Belgium Supports F North Sea - Holland"],
            "england": [
                "F Edinburgh Supports F Norwegian Sea - North Sea",
                "F Yorkshire Supports F Norwegian Sea - North Sea",
                "F Norwegian Sea - North Sea",
            ],
            "austria": ["A Kiel Supports A Ruhr - Holland", "A Ruhr - Holland"],
        }
    )
    assert not any(succeeded(outcome)[i] for i in (0, 3, 7, 9))
    assert outcome.dislodged == {}


def test_no_self_dislodgement_in_a_beleaguered_garrison() -> None:
    """DATC 6.E.7: the strongest attacker wins only with the help of the garrison's own power."""
    outcome = play(
        {
            "england": ["F North Sea Hold", "F Yorkshire Supports F Norway - North Sea"],
            "germany": ["F Holland Supports F Helgoland Bight - North Sea", "F Helgoland Bight - North Sea"],
            "russia": ["F Skagerrak Supports F Norway - North Sea", "F Norway - North Sea"],
        }
    )
    assert outcome.dislodged == {}
    assert succeeded(outcome)[3] is False and succeeded(outcome)[5] is False


def test_the_friendly_head_to_head_battle() -> None:
    """DATC 6.E.15."""
    outcome = play(
        {
            "england": ["F Holland Supports A Ruhr - Kiel", "A Ruhr - Kiel"],
            "france": [
                "A Kiel - Berlin",
                "A Munich Supports A Kiel - Berlin",
                "A Silesia Supports A Kiel - Berlin",
            ],
            "germany": [
                "A Berlin - Kiel",
                "F Denmark Supports A Berlin - Kiel",
                "F Helgoland Bight Supports A Berlin - Kiel",
            ],
            "russia": ["F Baltic Sea Supports A Prussia - Berlin", "A Prussia - Berlin"],
        }
    )
    assert [succeeded(outcome)[i] for i in (1, 2, 5, 9)] == [False, False, False, False]
    assert outcome.dislodged == {}


# Convoys


def test_a_convoy_carries_an_army_across_the_sea() -> None:
    outcome = play({"england": ["F North Sea Convoys A London - Holland", "A London - Holland"]})
    assert succeeded(outcome) == [True, True]
    assert Unit("england", "army", "hol") in outcome.units
    assert outcome.convoyed == frozenset({"lon"})


def test_a_fleet_on_a_coast_cannot_convoy() -> None:
    """DATC 6.F.1."""
    outcome = play(
        {
            "turkey": [
                "A Greece - Sevastopol",
                "F Aegean Sea Convoys A Greece - Sevastopol",
                "F Constantinople Convoys A Greece - Sevastopol",
                "F Black Sea Convoys A Greece - Sevastopol",
            ]
        }
    )
    # Without Constantinople no chain of fleets at sea joins Greece to Sevastopol: the move could never
    # succeed, so it is illegal, and so are the convoys of the two fleets that no route could use.
    assert verdicts(outcome) == ["illegal", "illegal", "illegal", "illegal"]
    assert outcome.units[0] == Unit("turkey", "army", "gre")


def test_an_army_with_no_fleet_that_could_carry_it_cannot_be_ordered_over_water() -> None:
    """DATC 6.D.32: without a fleet in the North Sea the move is illegal, so the army holds."""
    outcome = play(
        {
            "england": ["F Edinburgh Supports A Liverpool - Yorkshire", "A Liverpool - Yorkshire"],
            "france": ["F London Supports A Yorkshire"],
            "germany": ["A Yorkshire - Holland"],
        }
    )
    assert verdicts(outcome)[3] == "illegal"
    assert outcome.dislodged == {}


def test_an_army_whose_convoy_is_not_ordered_still_tried_to_move() -> None:
    """DATC 6.D.8: a convoy was possible, so the move is legal; it fails, and the army is no holding unit."""
    outcome = play(
        {
            "austria": ["F Ionian Sea Hold", "A Serbia Supports A Albania - Greece", "A Albania - Greece"],
            "turkey": ["A Greece - Naples", "A Bulgaria Supports A Greece"],
        }
    )
    assert verdicts(outcome)[3] == "fails: no convoy"
    assert verdicts(outcome)[4] == "fails: void"
    assert outcome.dislodged["gre"][1] == "alb"


def test_a_convoy_attacked_but_not_dislodged_still_carries() -> None:
    """DATC 6.F.5."""
    outcome = play(
        {
            "england": ["F North Sea Convoys A London - Holland", "A London - Holland"],
            "france": ["F English Channel - North Sea", "F Belgium Supports F English Channel - North Sea"],
            "germany": ["F Skagerrak - North Sea", "F Denmark Supports F Skagerrak - North Sea"],
        }
    )
    assert succeeded(outcome)[:2] == [True, True]


def test_a_dislodged_convoy_neither_cuts_nor_bounces_nor_contests() -> None:
    """DATC 6.F.6 to 6.F.8."""
    outcome = play(
        {
            "england": ["F North Sea Convoys A London - Holland", "A London - Holland"],
            "germany": [
                "F Helgoland Bight Supports F Skagerrak - North Sea",
                "F Skagerrak - North Sea",
                "A Belgium - Holland",
            ],
        }
    )
    assert verdicts(outcome) == ["fails: dislodged", "fails: no convoy", "succeeds", "succeeds", "succeeds"]
    assert "hol" not in outcome.contested


def test_a_convoy_with_two_routes_survives_losing_one() -> None:
    """DATC 6.F.9 (issue 4.A.1: later rulebooks)."""
    outcome = play(
        {
            "england": [
                "F English Channel Convoys A London - Belgium",
                "F North Sea Convoys A London - Belgium",
                "A London - Belgium",
            ],
            "france": [
                "F Brest Supports F Mid-Atlantic Ocean - English Channel",
                "F Mid-Atlantic Ocean - English Channel",
            ],
        }
    )
    assert succeeded(outcome)[2] is True
    assert outcome.dislodged["eng"][1] == "mao"


def test_the_simple_convoy_paradox() -> None:
    """DATC 6.F.14: the support of London is not cut; the convoying fleet is dislodged."""
    outcome = play(
        {
            "england": ["F London Supports F Wales - English Channel", "F Wales - English Channel"],
            "france": ["A Brest - London", "F English Channel Convoys A Brest - London"],
        }
    )
    assert succeeded(outcome) == [True, True, False, False]
    assert outcome.dislodged["eng"][1] == "wal"


def test_pandins_paradox() -> None:
    """DATC 6.F.16."""
    outcome = play(
        {
            "england": ["F London Supports F Wales - English Channel", "F Wales - English Channel"],
            "france": ["A Brest - London", "F English Channel Convoys A Brest - London"],
            "germany": ["F North Sea Supports F Belgium - English Channel", "F Belgium - English Channel"],
        }
    )
    assert [succeeded(outcome)[i] for i in (1, 2, 5)] == [False, False, False]
    assert outcome.dislodged == {}


def test_pandins_extended_paradox_by_the_szykman_rule() -> None:
    """DATC 6.F.17: the convoy fails, nothing is dislodged."""
    outcome = play(
        {
            "england": ["F London Supports F Wales - English Channel", "F Wales - English Channel"],
            "france": [
                "A Brest - London",
                "F English Channel Convoys A Brest - London",
                "F Yorkshire Supports A Brest - London",
            ],
            "germany": ["F North Sea Supports F Belgium - English Channel", "F Belgium - English Channel"],
        }
    )
    assert verdicts(outcome)[3] == "fails: paradox"
    assert outcome.dislodged == {}


def test_the_betrayal_paradox() -> None:
    """DATC 6.F.18."""
    outcome = play(
        {
            "england": [
                "F North Sea Convoys A London - Belgium",
                "A London - Belgium",
                "F English Channel Supports A London - Belgium",
            ],
            "france": ["F Belgium Supports F North Sea"],
            "germany": ["F Helgoland Bight Supports F Skagerrak - North Sea", "F Skagerrak - North Sea"],
        }
    )
    assert verdicts(outcome)[0] == "fails: paradox"
    assert succeeded(outcome)[1] is False and succeeded(outcome)[5] is False
    assert outcome.dislodged == {}


def test_second_order_paradox_with_two_resolutions() -> None:
    """DATC 6.F.22."""
    outcome = play(
        {
            "england": ["F Edinburgh - North Sea", "F London Supports F Edinburgh - North Sea"],
            "france": ["A Brest - London", "F English Channel Convoys A Brest - London"],
            "germany": ["F Belgium Supports F Picardy - English Channel", "F Picardy - English Channel"],
            "russia": ["A Norway - Belgium", "F North Sea Convoys A Norway - Belgium"],
        }
    )
    assert outcome.dislodged["eng"][1] == "pic" and outcome.dislodged["nth"][1] == "edi"
    assert succeeded(outcome)[2] is False and succeeded(outcome)[6] is False


def test_second_order_paradox_with_no_resolution() -> None:
    """DATC 6.F.24."""
    outcome = play(
        {
            "england": [
                "F Edinburgh - North Sea",
                "F London Supports F Edinburgh - North Sea",
                "F Irish Sea - English Channel",
                "F Mid-Atlantic Ocean Supports F Irish Sea - English Channel",
            ],
            "france": [
                "A Brest - London",
                "F English Channel Convoys A Brest - London",
                "F Belgium Supports F English Channel",
            ],
            "russia": ["A Norway - Belgium", "F North Sea Convoys A Norway - Belgium"],
        }
    )
    assert set(outcome.dislodged) == {"nth"}
    assert succeeded(outcome)[4] is False and succeeded(outcome)[7] is False


def test_cut_support_last() -> None:
    """DATC 6.F.25."""
    outcome = play(
        {
            "germany": [
                "A Ruhr - Belgium",
                "A Holland Supports Ruhr - Belgium",
                "A Denmark - Norway",
                "F Skagerrak Convoys Denmark - Norway",
                "A Finland Supports Denmark - Norway",
            ],
            "england": [
                "A Yorkshire - Holland",
                "F North Sea Convoys Yorkshire - Holland",
                "F Helgoland Bight Supports Yorkshire - Holland",
                "A Belgium Hold",
            ],
            "russia": [
                "F Norwegian Sea - North Sea",
                "F Norway Supports Norwegian Sea - North Sea",
                "F Sweden - Skagerrak",
            ],
        }
    )
    assert [succeeded(outcome)[i] for i in (0, 2, 5, 9, 11)] == [False, True, True, False, False]
    assert set(outcome.dislodged) == {"hol", "nwy"}


# Convoys to adjacent places


def test_an_own_fleet_convoying_shows_the_intent_to_swap() -> None:
    """DATC 6.G.1."""
    outcome = play(
        {
            "england": ["A Norway - Sweden", "F Skagerrak Convoys A Norway - Sweden"],
            "russia": ["A Sweden - Norway"],
        }
    )
    assert succeeded(outcome) == [True, True, True]


def test_a_foreign_fleet_cannot_kidnap_an_army() -> None:
    """DATC 6.G.2."""
    outcome = play(
        {
            "england": ["A Norway - Sweden"],
            "russia": ["F Sweden - Norway"],
            "germany": ["F Skagerrak Convoys A Norway - Sweden"],
        }
    )
    assert verdicts(outcome) == ["fails: bounced", "fails: bounced", "fails: void"]


def test_via_convoy_has_no_fallback_to_the_land_route() -> None:
    """DATC 6.G.8 and 6.G.20."""
    outcome = play(
        {
            "france": ["A Belgium - Holland via convoy"],
            "england": ["F North Sea - Helgoland Bight", "A Holland - Kiel"],
        }
    )
    assert verdicts(outcome)[0] == "fails: no convoy"


def test_a_convoyed_swap_is_no_head_to_head_and_the_loser_still_bounces_a_third() -> None:
    """DATC 6.G.10 (issue 4.A.7, choice b)."""
    outcome = play(
        {
            "england": [
                "A Norway - Sweden via convoy",
                "F Denmark Supports A Norway - Sweden",
                "F Finland Supports A Norway - Sweden",
            ],
            "germany": ["F Skagerrak Convoys A Norway - Sweden"],
            "russia": ["A Sweden - Norway", "F Barents Sea Supports A Sweden - Norway"],
            "france": ["F Norwegian Sea - Norway", "F North Sea Supports F Norwegian Sea - Norway"],
        }
    )
    assert succeeded(outcome)[0] is True
    assert succeeded(outcome)[4] is False and succeeded(outcome)[6] is False
    assert outcome.dislodged["swe"][1] == "nwy"
    assert "nwy" in outcome.contested


def test_a_convoy_to_an_adjacent_place_with_a_paradox() -> None:
    """DATC 6.G.11."""
    outcome = play(
        {
            "england": ["F Norway Supports F North Sea - Skagerrak", "F North Sea - Skagerrak"],
            "russia": [
                "A Sweden - Norway",
                "F Skagerrak Convoys A Sweden - Norway",
                "F Barents Sea Supports A Sweden - Norway",
            ],
        }
    )
    assert succeeded(outcome)[1] is True and succeeded(outcome)[2] is False
    assert outcome.dislodged["ska"][1] == "nth"


def test_a_convoyed_attack_from_the_supported_destination_does_not_cut_support() -> None:
    """DATC 6.G.13 (issue 4.A.4, choice a)."""
    outcome = play(
        {
            "austria": ["F Adriatic Sea Convoys A Trieste - Venice", "A Trieste - Venice via convoy"],
            "italy": ["A Venice Supports F Albania - Trieste", "F Albania - Trieste"],
        }
    )
    assert succeeded(outcome)[2:] == [True, True]
    assert outcome.dislodged["tri"][1] == "alb"


def test_two_units_never_end_in_one_province() -> None:
    """DATC 6.G.16."""
    outcome = play(
        {
            "england": [
                "A Norway - Sweden",
                "A Denmark Supports A Norway - Sweden",
                "F Baltic Sea Supports A Norway - Sweden",
                "F North Sea - Norway",
            ],
            "russia": [
                "A Sweden - Norway via convoy",
                "F Skagerrak Convoys A Sweden - Norway",
                "F Norwegian Sea Supports A Sweden - Norway",
            ],
        }
    )
    assert succeeded(outcome)[0] is True and succeeded(outcome)[4] is True and succeeded(outcome)[3] is False
    locations = [unit.location for unit in outcome.units]
    assert len(locations) == len(set(locations))


def test_an_unneeded_convoy_shows_no_intent() -> None:
    """DATC 6.G.19: the fleet in the Western Mediterranean is on no route that needs it, so its order is
    illegal; the armies meet head to head."""
    outcome = play(
        {
            "france": ["A Marseilles - Spain", "F Western Mediterranean Convoys A Marseilles - Spain"],
            "italy": ["F Gulf of Lyon Convoys A Marseilles - Spain", "A Spain - Marseilles"],
        }
    )
    assert verdicts(outcome) == ["fails: bounced", "illegal", "fails: void", "fails: bounced"]


# Properties of the adjudicator


def test_the_result_does_not_depend_on_the_order_the_orders_are_listed_in() -> None:
    orders = {
        "germany": [
            "A Ruhr - Belgium",
            "A Holland Supports Ruhr - Belgium",
            "A Denmark - Norway",
            "F Skagerrak Convoys Denmark - Norway",
            "A Finland Supports Denmark - Norway",
        ],
        "england": [
            "A Yorkshire - Holland",
            "F North Sea Convoys Yorkshire - Holland",
            "F Helgoland Bight Supports Yorkshire - Holland",
            "A Belgium Hold",
        ],
        "russia": [
            "F Norwegian Sea - North Sea",
            "F Norway Supports Norwegian Sea - North Sea",
            "F Sweden - Skagerrak",
        ],
    }
    units, given = situation(orders)
    first = adjudicate(BOARD, units, given)
    expected = {order: resolution for order, resolution in zip(given, first.resolutions, strict=True)}
    shuffler = random.Random(27)
    for _ in range(10):
        shuffled_units = shuffler.sample(units, len(units))
        shuffled_orders = shuffler.sample(given, len(given))
        again = adjudicate(BOARD, shuffled_units, shuffled_orders)
        assert dict(zip(shuffled_orders, again.resolutions, strict=True)) == expected
        assert again.dislodged == first.dislodged
        assert set(again.units) == set(first.units)


def test_every_unit_without_a_legal_order_holds_in_place() -> None:
    units = [Unit("france", "army", "par"), Unit("france", "fleet", "bre"), Unit("germany", "army", "mun")]
    outcome = adjudicate(BOARD, units, [Move("germany", "mun", "bur")])
    assert outcome.units == (units[0], units[1], Unit("germany", "army", "bur"))
    outcome = adjudicate(BOARD, units, [Hold("france", "par"), Move("france", "bre", "par")])
    assert outcome.units == tuple(units)


def test_many_units_on_a_crowded_board_resolve_quickly_and_end_one_to_a_province() -> None:
    """Random orders for many units: every outcome keeps one unit a province, and the whole run is fast."""
    chooser = random.Random(1901)
    provinces = sorted({province for province in _all_provinces()})
    for _ in range(40):
        units = []
        for province in chooser.sample(provinces, 30):
            kind = BOARD.kind(province)
            fleet = kind == "sea" or (kind == "coast" and chooser.random() < 0.5)
            location = province
            if fleet and BOARD.coasts(province):
                location = chooser.choice(BOARD.coasts(province))
            units.append(Unit(chooser.choice(BOARD.powers), "fleet" if fleet else "army", location))
        orders = list(itertools.chain.from_iterable(_random_orders(chooser, unit, units) for unit in units))
        outcome = adjudicate(BOARD, units, orders)
        places = [BOARD.province(unit.location) for unit in outcome.units]
        assert len(places) == len(set(places))
        assert len(outcome.units) + len(outcome.dislodged) == len(units)


def _all_provinces() -> list[str]:
    from tests.diplomacy.adjudicator_board import PROVINCES

    return list(PROVINCES)


def _random_orders(chooser: random.Random, unit: Unit, units: list[Unit]) -> list:
    from resolver.rulesets.diplomacy.pieces import Convoy, Support

    here = BOARD.province(unit.location)
    next_to = list(BOARD.locations_next_to(unit.kind, unit.location))
    roll = chooser.random()
    if roll < 0.5 and next_to:
        return [Move(unit.power, here, chooser.choice(next_to), unit.kind)]
    others = [other for other in units if other is not unit]
    other = chooser.choice(others)
    there = BOARD.province(other.location)
    if roll < 0.8:
        destinations = BOARD.locations_next_to(other.kind, other.location)
        destination = chooser.choice(destinations) if destinations and chooser.random() < 0.7 else None
        return [Support(unit.power, here, there, destination)]
    if unit.kind == "fleet" and other.kind == "army":
        coasts = [p for p in _all_provinces() if BOARD.kind(p) == "coast"]
        return [
            Convoy(unit.power, here, there, chooser.choice(coasts)),
            Move(other.power, there, chooser.choice(coasts)),
        ]
    return [Hold(unit.power, here)]


def test_every_disputed_point_settled_is_named_with_its_datc_issue() -> None:
    from resolver.rulesets.diplomacy.adjudication import CHOICES

    issues = [issue for issue, _, _ in CHOICES]
    assert len(issues) == len(set(issues))
    for issue, question, answer in CHOICES:
        assert issue.startswith("4.") and question and answer.endswith(".")


def test_the_stand_in_board_of_these_tests_is_the_real_map() -> None:
    """These tests use their own copy of the map so they stand alone; it must say what ``board`` says."""
    from resolver.rulesets.diplomacy.board import standard_board
    from tests.diplomacy.adjudicator_board import PROVINCES, SPLIT_COASTS

    real = standard_board()
    assert set(real.provinces) == set(PROVINCES)
    assert real.supply_centres == BOARD.supply_centres
    locations = [*PROVINCES, *itertools.chain.from_iterable(SPLIT_COASTS.values())]
    for province in PROVINCES:
        assert (real.kind(province), real.coasts(province)) == (BOARD.kind(province), BOARD.coasts(province))
    for power in real.powers:
        assert (real.power_name(power), real.home_centres(power)) == (
            BOARD.power_name(power),
            BOARD.home_centres(power),
        )
    for origin, destination in itertools.product(locations, locations):
        assert real.name(origin) == BOARD.name(origin)
        stands = {"army": "/" not in origin, "fleet": origin not in SPLIT_COASTS}
        if BOARD.kind(BOARD.province(origin)) == "land":
            stands["fleet"] = False
        if BOARD.kind(BOARD.province(origin)) == "sea":
            stands["army"] = False
        for kind in ("army", "fleet"):
            if not stands[kind]:
                continue
            assert real.adjacent(kind, origin, destination) == BOARD.adjacent(kind, origin, destination), (
                kind,
                origin,
                destination,
            )
            if destination in PROVINCES:
                assert real.reaches(kind, origin, destination) == BOARD.reaches(kind, origin, destination)


def test_a_coast_written_in_a_support_for_an_army_is_ignored() -> None:
    """DATC 4.B.6: a coast means nothing to an army, in its own move or in a support of it."""
    outcome = play(
        {
            "france": ["A Gascony - Spain", "A Marseilles Supports A Gascony - Spain(nc)"],
            "italy": ["A Portugal - Spain"],
        }
    )
    assert verdicts(outcome) == ["succeeds", "succeeds", "fails: bounced"]


def test_a_position_with_two_units_in_one_province_is_refused_not_judged() -> None:
    units = [Unit("france", "army", "par"), Unit("germany", "army", "par")]
    with pytest.raises(ValueError, match="two units stand in Paris"):
        adjudicate(BOARD, units, [])


def test_the_loser_of_a_head_to_head_leaves_no_standoff_behind() -> None:
    """DATC 6.H.9: Berlin, left by the German army and attacked only by the beaten Russian army, stays open
    for a retreat; a real standoff (two equal moves) does not."""
    outcome = play(
        {
            "england": ["F Helgoland Bight - Kiel", "F Denmark Supports F Helgoland Bight - Kiel"],
            "germany": ["A Berlin - Prussia", "F Kiel Hold", "A Silesia Supports A Berlin - Prussia"],
            "russia": ["A Prussia - Berlin"],
        }
    )
    assert set(outcome.dislodged) == {"kie", "pru"}
    assert outcome.contested == frozenset()
    assert outcome.dislodged["pru"] == (Unit("russia", "army", "pru"), "ber")
