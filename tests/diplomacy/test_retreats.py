"""The retreat phase: where a dislodged unit may go, what happens when two go to one place, and what
happens to a unit given no order. The positions are those the DATC's section 6.H leaves after its
movement phases, written out by hand so that these tests stand apart from the movement adjudicator."""

from __future__ import annotations

from resolver.rulesets.diplomacy.board import standard_board
from resolver.rulesets.diplomacy.notation import read_order, read_unit
from resolver.rulesets.diplomacy.pieces import (
    Disband,
    MovementOutcome,
    PhaseOutcome,
    Resolution,
    Retreat,
    Unit,
)
from resolver.rulesets.diplomacy.retreats import adjudicate_retreats, retreat_problem

BOARD = standard_board()


def after_movement(units, dislodged, contested=(), convoyed=()):
    """A movement's outcome: ``units`` {power: ["A Vienna", ...]} still standing, ``dislodged``
    {"power: A Vienna": attacker's origin}, ``convoyed`` the provinces armies left by convoy."""
    standing = tuple(read_unit(BOARD, power, text) for power, texts in units.items() for text in texts)
    fallen = {}
    for key, origin in dislodged.items():
        power, text = key.split(": ")
        unit = read_unit(BOARD, power, text)
        fallen[BOARD.province(unit.location)] = (unit, origin)
    return MovementOutcome((), standing, fallen, frozenset(contested), frozenset(convoyed))


def retreat(movement, orders) -> PhaseOutcome:
    read = [read_order(BOARD, power, text, "retreat") for power, text in orders]
    return adjudicate_retreats(BOARD, movement, read)


def outcomes(phase):
    return [(resolution.succeeded, resolution.reason) for resolution in phase.resolutions]


def test_a_dislodged_unit_retreats_to_an_empty_neighbour():
    movement = after_movement({"austria": ["A Vienna"]}, {"italy: A Tyrolia": "vie"})
    phase = retreat(movement, [("italy", "A Tyrolia - Piedmont")])
    assert outcomes(phase) == [(True, "")]
    assert phase.units == (Unit("austria", "army", "vie"), Unit("italy", "army", "pie"))


def test_a_unit_may_not_retreat_to_where_its_attacker_came_from():
    # DATC 6.H.5: the fleet in Ankara, dislodged from the Black Sea, may not go back there.
    movement = after_movement({"russia": ["F Constantinople", "F Ankara"]}, {"turkey: F Ankara": "bla"})
    phase = retreat(movement, [("turkey", "F Ankara - Black Sea")])
    assert outcomes(phase) == [(False, "illegal"), (True, "")]
    assert Unit("turkey", "fleet", "bla") not in phase.units


def test_a_unit_may_not_retreat_to_a_province_left_empty_by_a_standoff():
    # DATC 6.H.6: Munich and Silesia bounced in Bohemia.
    movement = after_movement(
        {"austria": ["A Budapest", "A Vienna"], "germany": ["A Munich", "A Silesia"]},
        {"italy: A Vienna": "tri"},
        contested={"boh"},
    )
    phase = retreat(movement, [("italy", "A Vienna - Bohemia")])
    assert outcomes(phase) == [(False, "illegal"), (True, "")]
    assert len(phase.units) == 4


def test_a_unit_may_not_retreat_to_an_occupied_province():
    movement = after_movement({"austria": ["A Vienna", "A Galicia"]}, {"italy: A Bohemia": "vie"})
    assert outcomes(retreat(movement, [("italy", "A Bohemia - Galicia")])) == [(False, "illegal"), (True, "")]


def test_two_retreats_to_one_place_both_fail_and_both_units_are_disbanded():
    # DATC 6.H.7.
    movement = after_movement(
        {"austria": ["A Budapest", "A Vienna"], "germany": ["A Munich", "A Bohemia"]},
        {"italy: A Vienna": "tri", "italy: A Bohemia": "sil"},
    )
    phase = retreat(movement, [("italy", "A Bohemia - Tyrolia"), ("italy", "A Vienna - Tyrolia")])
    assert outcomes(phase) == [(False, "no retreat"), (False, "no retreat")]
    assert not any(unit.power == "italy" for unit in phase.units)


def test_three_retreats_to_one_place_all_fail():
    # DATC 6.H.8.
    movement = after_movement(
        {
            "england": ["A Edinburgh", "F Yorkshire"],
            "germany": ["A Kiel", "A Holland"],
            "russia": ["A Norway"],
        },
        {"england: F Norway": "fin", "russia: F Edinburgh": "lvp", "russia: F Holland": "ruh"},
    )
    phase = retreat(
        movement,
        [
            ("england", "F Norway - North Sea"),
            ("russia", "F Edinburgh - North Sea"),
            ("russia", "F Holland - North Sea"),
        ],
    )
    assert outcomes(phase) == [(False, "no retreat")] * 3
    assert all(BOARD.province(unit.location) != "nth" for unit in phase.units)


def test_a_unit_given_no_order_is_disbanded():
    movement = after_movement({"austria": ["A Vienna"]}, {"italy: A Tyrolia": "vie"})
    phase = retreat(movement, [])
    assert phase.resolutions == (Resolution(Disband("italy", "tyr", "army"), True),)
    assert phase.units == (Unit("austria", "army", "vie"),)


def test_a_disband_order_is_followed():
    movement = after_movement({"austria": ["A Vienna"]}, {"italy: A Tyrolia": "vie"})
    phase = retreat(movement, [("italy", "A Tyrolia Disband")])
    assert outcomes(phase) == [(True, "")]
    assert phase.units == (Unit("austria", "army", "vie"),)


def test_no_supports_or_convoys_in_a_retreat_and_only_dislodged_units_are_ordered():
    # DATC 6.H.1, 6.H.3 and 6.H.4: the support, the convoy and the fleet's move are illegal; the army
    # may not cross the water, so it is disbanded.
    movement = after_movement(
        {"england": ["F North Sea"], "austria": ["A Serbia"], "germany": ["F Kiel", "A Holland"]},
        {"england: A Holland": "ruh"},
    )
    phase = retreat(
        movement,
        [
            ("england", "A Holland - Yorkshire"),
            ("england", "F North Sea Convoys A Holland - Yorkshire"),
            ("austria", "A Serbia Supports A Holland - Belgium"),
            ("england", "F North Sea - Norwegian Sea"),
        ],
    )
    assert outcomes(phase) == [(False, "illegal")] * 4 + [(True, "")]
    assert phase.resolutions[4].order == Disband("england", "hol", "army")
    assert not any(unit.power == "england" and unit.kind == "army" for unit in phase.units)


def test_only_the_owner_orders_a_dislodged_unit():
    movement = after_movement({"austria": ["A Vienna"]}, {"italy: A Tyrolia": "vie"})
    phase = retreat(movement, [("austria", "A Tyrolia - Piedmont")])
    assert outcomes(phase) == [(False, "illegal"), (True, "")]  # and the unit is disbanded by the rules
    assert phase.resolutions[1].order == Disband("italy", "tyr", "army")


def test_a_retreat_refused_for_the_attackers_origin_leaves_that_place_open_to_another():
    # DATC 6.H.10: the English army may not go to Berlin; the German one, dislodged from elsewhere, may.
    movement = after_movement(
        {"germany": ["A Kiel", "A Munich"], "russia": ["A Prussia", "A Silesia"]},
        {"england: A Kiel": "ber", "germany: A Prussia": "war"},
    )
    phase = retreat(movement, [("england", "A Kiel - Berlin"), ("germany", "A Prussia - Berlin")])
    assert outcomes(phase) == [(False, "illegal"), (True, ""), (True, "")]
    assert phase.resolutions[2].order == Disband("england", "kie", "army")
    assert Unit("germany", "army", "ber") in phase.units


def test_no_coastal_crawl_to_the_other_coast_of_the_attackers_province():
    # DATC 6.H.15: dislodged from Spain's south coast, the fleet in Portugal may not go to its north coast.
    movement = after_movement(
        {"france": ["F Portugal", "F Mid-Atlantic Ocean"]}, {"england: F Portugal": "spa"}
    )
    phase = retreat(movement, [("england", "F Portugal - Spain(nc)")])
    assert outcomes(phase) == [(False, "illegal"), (True, "")]


def test_a_contested_coast_closes_the_whole_province():
    # DATC 6.H.16: a standoff on Spain's north coast closes its south coast too.
    movement = after_movement(
        {"france": ["F Mid-Atlantic Ocean", "F Gascony"], "italy": ["F Tunis", "F Western Mediterranean"]},
        {"france: F Western Mediterranean": "tys"},
        contested={"spa"},
    )
    assert outcomes(retreat(movement, [("france", "F Western Mediterranean - Spain(sc)")])) == [
        (False, "illegal"),
        (True, ""),
    ]


def test_a_fleet_retreats_coast_exact_and_an_unnamed_coast_means_the_only_one_it_reaches():
    movement = after_movement({"france": ["A Brest"]}, {"england: F Gascony": "bre"})
    phase = retreat(movement, [("england", "F Gascony - Spain")])
    assert outcomes(phase) == [(True, "")]
    assert Unit("england", "fleet", "spa/nc") in phase.units
    movement = after_movement({"france": ["A Brest"]}, {"england: F Gascony": "bre"})
    assert outcomes(retreat(movement, [("england", "F Gascony - Spain(sc)")]))[0] == (False, "illegal")


def test_an_army_dislodged_by_a_convoy_from_next_door_may_retreat_to_where_it_came_from():
    # DATC 6.H.11 and the 2023 rulebook: the attacker went by sea and never crossed that border.
    movement = after_movement(
        {"france": ["A Marseilles", "A Burgundy", "F Mid-Atlantic Ocean"]},
        {"italy: A Marseilles": "gas"},
        convoyed={"gas"},
    )
    phase = retreat(movement, [("italy", "A Marseilles - Gascony")])
    assert outcomes(phase) == [(True, "")]
    assert Unit("italy", "army", "gas") in phase.units


def test_an_attacker_that_walked_closes_the_border_it_crossed():
    movement = after_movement({"france": ["A Marseilles"]}, {"italy: A Marseilles": "gas"}, convoyed={"bel"})
    assert outcomes(retreat(movement, [("italy", "A Marseilles - Gascony")]))[0] == (False, "illegal")


def test_two_different_orders_for_one_unit_are_both_refused_and_the_unit_disbanded():
    # DATC 4.D.3, choice c: neither order is followed.
    movement = after_movement({"austria": ["A Vienna"]}, {"italy: A Tyrolia": "vie"})
    phase = retreat(movement, [("italy", "A Tyrolia - Piedmont"), ("italy", "A Tyrolia - Venice")])
    assert outcomes(phase) == [(False, "illegal"), (False, "illegal"), (True, "")]
    assert phase.units == (Unit("austria", "army", "vie"),)


def test_the_same_order_twice_is_followed_once():
    movement = after_movement({"austria": ["A Vienna"]}, {"italy: A Tyrolia": "vie"})
    phase = retreat(movement, [("italy", "A Tyrolia - Piedmont"), ("italy", "A Tyrolia - Piedmont")])
    assert phase.units == (Unit("austria", "army", "vie"), Unit("italy", "army", "pie"))
    assert [resolution.succeeded for resolution in phase.resolutions] == [True, False]


def test_a_retreat_is_a_retreat_order_written_in_the_retreat_phase():
    order = read_order(BOARD, "italy", "A Tyrolia - Piedmont", "retreat")
    assert order == Retreat("italy", "tyr", "pie", "army")


def test_the_checker_is_told_the_rule_and_the_places_in_full():
    movement = after_movement(
        {"russia": ["F Black Sea", "F Constantinople"], "austria": ["A Armenia"]},
        {"turkey: F Ankara": "bla"},
        contested={"smy"},
    )

    def problem(power, text):
        return retreat_problem(BOARD, movement, read_order(BOARD, power, text, "retreat"))

    assert problem("turkey", "F Ankara - Black Sea") == (
        "occupied",
        "The fleet dislodged from Ankara cannot retreat to Black Sea: a unit stands there.",
    )
    assert problem("turkey", "F Ankara - Smyrna") == (
        "out of reach",
        "The fleet dislodged from Ankara cannot reach Smyrna in one move.",
    )
    assert problem("russia", "F Ankara Disband") == (
        "not yours",
        "The fleet dislodged from Ankara is Turkey's to order.",
    )
    assert problem("russia", "F Black Sea - Rumania")[0] == "not dislodged"
    assert problem("turkey", "F Ankara Hold")[0] == "not a retreat order"
    assert problem("turkey", "F Ankara Disband") is None
    empty = after_movement({"russia": ["F Constantinople"]}, {"turkey: F Ankara": "bla"})
    assert retreat_problem(BOARD, empty, Retreat("turkey", "ank", "bla")) == (
        "attacker's origin",
        "The fleet dislodged from Ankara cannot retreat to Black Sea, where its attacker came from.",
    )
    standoff = after_movement(
        {"russia": ["F Constantinople"]}, {"turkey: F Ankara": "con"}, contested={"bla"}
    )
    assert retreat_problem(BOARD, standoff, Retreat("turkey", "ank", "bla"))[0] == "standoff"
