"""The checker's word on an order of a movement phase: which rule it breaks, said in full province names.

An illegal order is ignored (the unit holds); a legal one may still fail in the adjudication. These tests
give a position and one order, as a player writes it, and check the rule named and what the message says.
"""

from __future__ import annotations

import pytest

from resolver.rulesets.diplomacy import adjustments, legality, retreats
from resolver.rulesets.diplomacy.board import standard_board
from resolver.rulesets.diplomacy.legality import Problem, problem, problems
from resolver.rulesets.diplomacy.pieces import (
    Build,
    Disband,
    Hold,
    Move,
    MovementOutcome,
    Order,
    Retreat,
    Unit,
    Waive,
)
from tests.diplomacy.adjudicator_board import order, test_board, unit

BOARD = test_board()


def check(power: str, text: str, *units: str, phase: str = "movement") -> Problem | None:
    """The problem of ``text`` given by ``power``; ``units`` are "power: A Place" strings."""
    placed = [unit(*entry.split(": ")) for entry in units]
    return problem(BOARD, placed, order(power, text), phase)  # type: ignore[arg-type]


def test_a_plain_move_hold_support_and_convoy_are_legal() -> None:
    assert check("france", "A Paris - Burgundy", "france: A Paris") is None
    assert check("france", "A Paris Hold", "france: A Paris") is None
    assert (
        check("france", "A Marseilles Supports A Paris - Burgundy", "france: A Marseilles", "france: A Paris")
        is None
    )
    assert (
        check("england", "F North Sea Convoys A London - Norway", "england: F North Sea", "england: A London")
        is None
    )


def test_an_order_for_an_empty_province_names_the_province() -> None:
    found = check("france", "A Picardy - Belgium", "france: A Paris")
    assert found is not None and found.rule == legality.NO_UNIT
    assert "Picardy" in found.message


def test_an_order_for_another_powers_unit_names_both_powers() -> None:
    found = check("germany", "F London - North Sea", "england: F London")
    assert found is not None and found.rule == legality.NOT_YOURS
    assert "London" in found.message and "England" in found.message and "Germany" in found.message


def test_a_wrong_or_missing_unit_kind_is_no_problem() -> None:
    """DATC 4.C.1 and 4.C.2: the province names the unit."""
    assert check("france", "F Paris - Burgundy", "france: A Paris") is None
    assert check("france", "Paris - Burgundy", "france: A Paris") is None


def test_a_move_to_a_place_out_of_reach_is_illegal() -> None:
    found = check("england", "F North Sea - Picardy", "england: F North Sea")
    assert found is not None and found.rule == legality.NOT_ADJACENT
    assert "North Sea" in found.message and "Picardy" in found.message


def test_an_army_cannot_move_to_sea() -> None:
    found = check("england", "A Liverpool - Irish Sea", "england: A Liverpool")
    assert found is not None and found.rule == legality.ARMY_AT_SEA
    assert "Irish Sea" in found.message


def test_a_fleet_cannot_move_inland() -> None:
    found = check("germany", "F Kiel - Munich", "germany: F Kiel")
    assert found is not None and found.rule == legality.FLEET_INLAND
    assert "Munich" in found.message


def test_a_fleet_follows_the_coast() -> None:
    """DATC 6.A.9: Rome and Venice share a border, but no coast."""
    found = check("italy", "F Rome - Venice", "italy: F Rome")
    assert found is not None and found.rule == legality.NOT_ADJACENT


def test_a_move_to_its_own_place_is_illegal() -> None:
    found = check("germany", "F Kiel - Kiel", "germany: F Kiel")
    assert found is not None and found.rule == legality.SAME_PLACE
    assert "Kiel" in found.message


def test_a_fleet_must_name_the_coast_when_it_could_reach_both() -> None:
    found = check("france", "F Portugal - Spain", "france: F Portugal")
    assert found is not None and found.rule == legality.COAST_NEEDED
    assert "Spain (north coast)" in found.message and "Spain (south coast)" in found.message


def test_a_fleet_naming_a_coast_it_cannot_reach_is_told_the_one_it_can() -> None:
    """DATC 6.B.3: illegal, even though the other coast is in reach."""
    found = check("france", "F Gascony - Spain(sc)", "france: F Gascony")
    assert found is not None and found.rule == legality.COAST_UNREACHABLE
    assert "Spain (south coast)" in found.message and "Spain (north coast)" in found.message


def test_a_coast_written_for_an_army_is_ignored() -> None:
    """DATC 6.B.12."""
    assert check("france", "A Gascony - Spain(nc)", "france: A Gascony") is None


def test_an_army_may_cross_water_only_where_fleets_at_sea_could_carry_it() -> None:
    """DATC 6.D.8 and 6.D.32: the fleets on the board decide, whatever they are ordered."""
    assert check("germany", "A Yorkshire - Holland", "germany: A Yorkshire", "russia: F North Sea") is None
    found = check("germany", "A Yorkshire - Holland", "germany: A Yorkshire", "germany: F London")
    assert found is not None and found.rule == legality.NO_CONVOY_ROUTE
    assert "Yorkshire" in found.message and "Holland" in found.message


def test_a_fleet_on_a_coast_is_no_link_of_a_convoy() -> None:
    """DATC 6.F.1."""
    found = check(
        "turkey",
        "A Greece - Sevastopol",
        "turkey: A Greece",
        "turkey: F Aegean Sea",
        "turkey: F Constantinople",
        "turkey: F Black Sea",
    )
    assert found is not None and found.rule == legality.NO_CONVOY_ROUTE
    found = check(
        "turkey",
        "F Constantinople Convoys A Greece - Sevastopol",
        "turkey: A Greece",
        "turkey: F Constantinople",
    )
    assert found is not None and found.rule == legality.CONVOY_FROM_COAST


def test_an_army_next_door_may_still_ask_for_a_convoy() -> None:
    assert (
        check("france", "A Belgium - Holland via convoy", "france: A Belgium", "england: F North Sea") is None
    )
    found = check("france", "A Belgium - Holland via convoy", "france: A Belgium")
    assert found is not None and found.rule == legality.NO_CONVOY_ROUTE


def test_only_armies_are_convoyed_and_only_fleets_convoy() -> None:
    found = check(
        "england", "F North Sea Convoys A London - Belgium", "england: F North Sea", "england: F London"
    )
    assert found is not None and found.rule == legality.CONVOY_OF_FLEET
    found = check("england", "A Wales Convoys A London - Belgium", "england: A Wales", "england: A London")
    assert found is not None and found.rule == legality.CONVOY_BY_ARMY
    found = check("england", "F London - Belgium via convoy", "england: F London", "england: F North Sea")
    assert found is not None and found.rule == legality.FLEET_CONVOYED


def test_a_convoy_of_nobody_is_illegal() -> None:
    found = check("england", "F North Sea Convoys A London - Belgium", "england: F North Sea")
    assert found is not None and found.rule == legality.CONVOY_OF_NOTHING
    assert "London" in found.message


def test_a_convoying_fleet_must_be_needed_by_some_route() -> None:
    """DATC 6.G.19: the Gulf of Lyon alone links Marseilles to Spain, so the Western Mediterranean is never
    needed; the English Channel is needed on the route London - Channel - Belgium."""
    units = ("france: A Marseilles", "france: F Western Mediterranean", "italy: F Gulf of Lyon")
    found = check("france", "F Western Mediterranean Convoys A Marseilles - Spain", *units)
    assert found is not None and found.rule == legality.CONVOY_NOT_NEEDED
    assert check("italy", "F Gulf of Lyon Convoys A Marseilles - Spain", *units) is None
    found = check(
        "russia",
        "F Gulf of Bothnia Convoys A Sweden - Norway",
        "russia: A Sweden",
        "russia: F Gulf of Bothnia",
    )
    assert found is not None and found.rule == legality.CONVOY_NOT_NEEDED


def test_a_long_convoy_route_makes_each_of_its_fleets_needed() -> None:
    units = (
        "england: A London",
        "england: F English Channel",
        "england: F Mid-Atlantic Ocean",
        "england: F Western Mediterranean",
    )
    for fleet in ("English Channel", "Mid-Atlantic Ocean", "Western Mediterranean"):
        assert check("england", f"F {fleet} Convoys A London - Tunis", *units) is None


def test_a_support_must_reach_the_place_it_supports_into() -> None:
    """DATC 6.A.10 and 6.B.5."""
    found = check("italy", "F Rome Supports A Apulia - Venice", "italy: F Rome", "italy: A Apulia")
    assert found is not None and found.rule == legality.SUPPORT_OUT_OF_REACH
    assert "Rome" in found.message and "Venice" in found.message
    found = check(
        "france",
        "F Spain(nc) Supports F Marseilles - Gulf of Lyon",
        "france: F Spain(nc)",
        "france: F Marseilles",
    )
    assert found is not None and found.rule == legality.SUPPORT_OUT_OF_REACH


def test_a_support_to_a_coast_the_supporter_cannot_reach_is_legal() -> None:
    """DATC 6.B.4."""
    assert (
        check(
            "france",
            "F Marseilles Supports F Gascony - Spain(nc)",
            "france: F Marseilles",
            "france: F Gascony",
        )
        is None
    )


def test_a_support_without_a_coast_for_a_fleet_that_could_reach_both_is_legal() -> None:
    """DATC 6.B.7 and 6.B.15: it backs the fleet to whichever coast it is ordered."""
    units = ("france: F Portugal", "england: F Mid-Atlantic Ocean")
    assert check("france", "F Portugal Supports F Mid-Atlantic Ocean - Spain", *units) is None


def test_a_unit_cannot_support_itself_or_into_its_own_place() -> None:
    """DATC 6.A.8 and 6.D.34."""
    found = check("austria", "F Trieste Supports F Trieste", "austria: F Trieste")
    assert found is not None and found.rule == legality.SUPPORT_OWN_PLACE
    found = check("italy", "A Prussia Supports Livonia - Prussia", "italy: A Prussia", "russia: A Livonia")
    assert found is not None and found.rule == legality.SUPPORT_OWN_PLACE


def test_a_support_of_an_impossible_move_is_illegal() -> None:
    """DATC 6.D.22 to 6.D.24, and 6.A.5."""
    found = check("germany", "A Burgundy Supports F Kiel - Munich", "germany: A Burgundy", "germany: F Kiel")
    assert found is not None and found.rule == legality.SUPPORTED_MOVE_IMPOSSIBLE
    assert "Munich" in found.message and "Kiel" in found.message
    found = check(
        "france",
        "F Marseilles Supports F Spain(nc) - Gulf of Lyon",
        "france: F Marseilles",
        "france: F Spain(nc)",
    )
    assert found is not None and found.rule == legality.SUPPORTED_MOVE_IMPOSSIBLE
    found = check(
        "england",
        "A Liverpool Supports A Yorkshire - Yorkshire",
        "england: A Liverpool",
        "england: A Yorkshire",
        "england: F North Sea",
    )
    assert found is not None and found.rule == legality.SUPPORTED_MOVE_IMPOSSIBLE


def test_a_fleet_cannot_support_the_convoy_it_alone_could_make() -> None:
    """DATC 6.D.31: the only route from Rumania to Armenia is through the Black Sea, whose fleet supports."""
    found = check(
        "turkey", "F Black Sea Supports A Rumania - Armenia", "turkey: F Black Sea", "austria: A Rumania"
    )
    assert found is not None and found.rule == legality.SUPPORTED_MOVE_IMPOSSIBLE


def test_a_support_of_nobody_is_illegal() -> None:
    found = check("france", "A Paris Supports A Picardy - Burgundy", "france: A Paris")
    assert found is not None and found.rule == legality.SUPPORT_OF_NOTHING
    assert "Picardy" in found.message


def test_orders_of_other_phases_are_refused_in_a_movement_phase() -> None:
    placed = [Unit("france", "army", "par")]
    found = problem(BOARD, placed, Build("france", "army", "par"), "movement")
    assert found is not None and found.rule == legality.WRONG_PHASE
    found = problem(BOARD, placed, Move("france", "par", "bur"), "retreat", movement=_after_movement())
    assert found is not None and found.rule == retreats.NOT_A_RETREAT


def test_two_different_orders_for_one_unit_are_both_refused_but_a_repeat_is_not() -> None:
    """DATC 4.D.3, choice c."""
    placed = [Unit("france", "army", "par")]
    found = problems(BOARD, placed, [Move("france", "par", "bur"), Hold("france", "par")])
    assert [each.rule if each else None for each in found] == [legality.TWO_ORDERS, legality.TWO_ORDERS]
    assert "Paris" in found[0].message  # type: ignore[union-attr]
    found = problems(BOARD, placed, [Move("france", "par", "bur"), Move("france", "par", "bur", "army")])
    assert found == (None, None)


def test_an_illegal_order_beside_a_legal_one_leaves_the_legal_one_alone() -> None:
    """DATC 4.D.3: an illegal order is no order, so the unit has just one."""
    placed = [Unit("germany", "army", "hol"), Unit("germany", "fleet", "kie")]
    found = problems(BOARD, placed, [Move("germany", "hol", "pic"), Hold("germany", "hol")])
    assert found[0] is not None and found[0].rule == legality.NO_CONVOY_ROUTE
    assert found[1] is None


@pytest.mark.parametrize(
    "text",
    ["A Paris - Paris", "A Paris - English Channel", "A Paris - Munich", "A Paris Supports A Ruhr - Holland"],
)
def test_every_message_names_places_in_full_never_by_abbreviation(text: str) -> None:
    found = check("france", text, "france: A Paris", "france: A Ruhr")
    assert found is not None
    for abbreviation in ("par", "eng", "mun", "hol", "ruh"):
        assert f" {abbreviation} " not in f" {found.message} ".lower().replace(".", " ").replace(",", " ")


def test_no_message_speaks_of_the_test_suite_or_of_ids() -> None:
    """Every movement rule's message, as a player reads it: no DATC numbers, no rule ids, no place ids."""
    cases = [
        (
            "turkey",
            "F Constantinople Convoys A Greece - Sevastopol",
            "turkey: A Greece",
            "turkey: F Constantinople",
        ),
        (
            "england",
            "A Liverpool Supports A Yorkshire - Yorkshire",
            "england: A Liverpool",
            "england: A Yorkshire",
        ),
        ("germany", "A Yorkshire - Holland", "germany: A Yorkshire"),
        ("france", "F Portugal - Spain", "france: F Portugal"),
        ("italy", "F Rome Supports A Apulia - Venice", "italy: F Rome", "italy: A Apulia"),
    ]
    for power, text, *units in cases:
        found = check(power, text, *units)
        assert found is not None
        assert "DATC" not in found.message and found.rule not in found.message
        assert "/" not in found.message and found.message.endswith(".")


# Retreats and adjustments: ``problem`` judges them by the rules of the retreat and adjustment modules, so
# the checker and the adjudication of those phases never disagree.


def _after_movement() -> MovementOutcome:
    """Germany's army in Burgundy was dislodged by the French army from Paris, over land; its army in
    Holland by an English army convoyed from Belgium, next door; a standoff left Picardy empty."""
    return MovementOutcome(
        resolutions=(),
        units=(Unit("france", "army", "bur"), Unit("england", "army", "hol"), Unit("germany", "army", "ruh")),
        dislodged={
            "bur": (Unit("germany", "army", "bur"), "par"),
            "hol": (Unit("germany", "army", "hol"), "bel"),
        },
        contested=frozenset({"pic"}),
        convoyed=frozenset({"bel"}),
    )


def retreat_rule(power: str, unit_at: str, destination: str | None) -> str | None:
    written = Disband(power, unit_at) if destination is None else Retreat(power, unit_at, destination)
    found = problem(standard_board(), [], written, "retreat", movement=_after_movement())
    return found.rule if found else None


def test_retreats_are_judged_by_the_retreat_rules() -> None:
    assert retreat_rule("germany", "bur", "mar") is None
    assert retreat_rule("germany", "bur", None) is None
    assert retreat_rule("germany", "bur", "par") == retreats.ATTACKER
    assert retreat_rule("germany", "hol", "bel") is None  # its attacker came by convoy (DATC 4.A.5)
    assert retreat_rule("germany", "bur", "ruh") == retreats.OCCUPIED
    assert retreat_rule("germany", "bur", "pic") == retreats.STANDOFF
    assert retreat_rule("germany", "hol", "yor") == retreats.OUT_OF_REACH
    assert retreat_rule("germany", "ruh", "kie") == retreats.NOT_DISLODGED
    assert retreat_rule("france", "bur", "mar") == retreats.NOT_YOURS
    found = problem(standard_board(), [], Hold("germany", "bur"), "retreat", movement=_after_movement())
    assert found is not None and "retreat" in found.message


def test_adjustments_are_judged_by_the_adjustment_rules() -> None:
    board = standard_board()
    owners = {"par": "france", "bre": "france", "mar": "france", "ber": "germany"}
    units = [Unit("france", "army", "par")]

    def rule(order: Order) -> str | None:
        found = problem(board, units, order, "adjustment", owners=owners)
        return found.rule if found else None

    assert rule(Build("france", "fleet", "bre")) is None
    assert rule(Build("france", "army", "par")) == adjustments.OCCUPIED
    assert rule(Build("france", "fleet", "mar")) is None
    assert rule(Build("germany", "army", "kie")) == adjustments.NOT_OWNED
    assert rule(Build("italy", "army", "rom")) == adjustments.NO_BUILDS_DUE
    assert rule(Move("france", "par", "bur")) == adjustments.NOT_AN_ADJUSTMENT
    found = problems(board, units, [Build("france", "army", "mun")], "adjustment", owners=owners)
    assert found[0] is not None and found[0].rule == adjustments.NOT_A_HOME and "Munich" in found[0].message


def test_each_phase_asks_for_what_it_is_judged_against() -> None:
    with pytest.raises(TypeError, match="movement="):
        problem(BOARD, [], Disband("germany", "bur"), "retreat")
    with pytest.raises(TypeError, match="owners="):
        problem(BOARD, [], Waive("germany"), "adjustment")


def test_a_unit_kind_written_wrong_is_noted_but_not_refused() -> None:
    placed = [unit("france", "A Paris"), unit("france", "F Brest")]
    written = order("france", "F Paris Supports A Brest")
    assert problem(BOARD, placed, written, "movement") is None
    said = legality.notes(BOARD, placed, written)
    assert len(said) == 2
    assert "Paris is an army, not a fleet" in said[0] and "Brest is a fleet, not an army" in said[1]
    assert legality.notes(BOARD, placed, order("france", "A Paris - Burgundy")) == ()


def test_a_place_not_on_the_map_is_named_as_such_rather_than_failing() -> None:
    placed = [Unit("france", "army", "par")]
    for written in (
        Move("france", "par", "atlantis"),
        Hold("france", "atlantis"),
        Build("france", "army", "xyz"),
    ):
        phase = "adjustment" if isinstance(written, Build) else "movement"
        found = problem(BOARD, placed, written, phase, owners={})  # type: ignore[arg-type]
        assert found is not None and found.rule == legality.UNKNOWN_PLACE
