"""The winter adjustments: where a power may build, how many, removals, and the units the rules remove
for a power that orders too few (civil disorder, the DATC's 6.J by the 2023 rulebook)."""

from __future__ import annotations

from resolver.rulesets.diplomacy.adjustments import adjudicate_adjustments, adjustment_problem
from resolver.rulesets.diplomacy.board import standard_board
from resolver.rulesets.diplomacy.notation import read_order, read_unit
from resolver.rulesets.diplomacy.pieces import Disband, Hold, Unit

BOARD = standard_board()


def adjust(units, centres, orders=()):
    """``units`` {power: ["A Paris", ...]}, ``centres`` {power: ["par", ...]}, ``orders`` [(power, text)]."""
    position = [read_unit(BOARD, power, text) for power, texts in units.items() for text in texts]
    owners = {centre: power for power, owned in centres.items() for centre in owned}
    read = [read_order(BOARD, power, text, "adjustment") for power, text in orders]
    return adjudicate_adjustments(BOARD, position, owners, read)


def outcomes(phase):
    return [(resolution.succeeded, resolution.reason) for resolution in phase.resolutions]


def removed_by_the_rules(phase, given):
    return [resolution.order for resolution in phase.resolutions[given:]]


GERMANY_HOMES = ["ber", "kie", "mun"]


def test_a_power_builds_on_its_empty_owned_home_centre():
    phase = adjust(
        {"germany": ["A Holland"]}, {"germany": [*GERMANY_HOMES, "hol"]}, [("germany", "Build A Berlin")]
    )
    assert outcomes(phase) == [(True, "")]
    assert phase.units == (Unit("germany", "army", "hol"), Unit("germany", "army", "ber"))


def test_builds_beyond_the_count_fail_and_the_first_legal_ones_stand():
    # DATC 6.I.1: one build; Warsaw is no German home, Kiel is built, Munich is one too many.
    phase = adjust(
        {"germany": ["F Denmark", "A Ruhr", "A Holland"]},
        {"germany": [*GERMANY_HOMES, "den"]},
        [("germany", "Build A Warsaw"), ("germany", "Build A Kiel"), ("germany", "Build A Munich")],
    )
    assert outcomes(phase) == [(False, "illegal"), (True, ""), (False, "no build")]
    assert Unit("germany", "army", "kie") in phase.units and len(phase.units) == 4


def test_a_fleet_cannot_be_built_inland():
    # DATC 6.I.2.
    russia = {"russia": ["A Ukraine", "A Livonia", "F Sevastopol"]}
    phase = adjust(russia, {"russia": ["mos", "stp", "war", "sev"]}, [("russia", "Build F Moscow")])
    assert outcomes(phase) == [(False, "illegal")]


def test_the_centre_must_be_empty():
    # DATC 6.I.3.
    phase = adjust({"germany": ["A Berlin"]}, {"germany": ["ber", "kie"]}, [("germany", "Build A Berlin")])
    assert outcomes(phase) == [(False, "illegal")]


def test_both_coasts_must_be_empty():
    # DATC 6.I.4: a fleet on St Petersburg's south coast blocks a build on its north coast.
    phase = adjust({"russia": ["F St Petersburg(sc)"]}, {"russia": ["stp", "mos"]},
                   [("russia", "Build A St Petersburg(nc)")])  # fmt: skip
    assert outcomes(phase) == [(False, "illegal")]


def test_a_home_centre_another_power_owns_cannot_be_built_on():
    # DATC 6.I.5: Russia took Berlin and left it; Germany has centres enough but not Berlin.
    phase = adjust({"germany": ["A Holland"]}, {"germany": ["kie", "mun"], "russia": ["ber"]},
                   [("germany", "Build A Berlin")])  # fmt: skip
    assert outcomes(phase) == [(False, "illegal")]


def test_an_owned_centre_that_is_no_home_cannot_be_built_on():
    # DATC 6.I.6.
    phase = adjust({"germany": ["A Berlin"]}, {"germany": ["ber", "war"]}, [("germany", "Build A Warsaw")])
    assert outcomes(phase) == [(False, "illegal")]


def test_only_one_build_in_a_centre():
    # DATC 6.I.7: two builds allowed, both in Moscow: the second fails.
    phase = adjust({"russia": ["A Ukraine"]}, {"russia": ["mos", "stp", "war"]},
                   [("russia", "Build A Moscow"), ("russia", "Build A Moscow")])  # fmt: skip
    assert outcomes(phase) == [(True, ""), (False, "no build")]


def test_a_fleet_on_a_province_of_two_coasts_needs_its_coast():
    # DATC 6.B.14 and 4.B.7.
    phase = adjust(
        {"russia": ["A Ukraine"]}, {"russia": ["stp", "mos"]}, [("russia", "Build F St Petersburg")]
    )
    assert outcomes(phase) == [(False, "illegal")]
    phase = adjust(
        {"russia": ["A Ukraine"]}, {"russia": ["stp", "mos"]}, [("russia", "Build F St Petersburg(nc)")]
    )
    assert phase.units[-1] == Unit("russia", "fleet", "stp/nc")


def test_an_army_built_with_a_coast_stands_in_the_province():
    phase = adjust(
        {"russia": ["A Ukraine"]}, {"russia": ["stp", "mos"]}, [("russia", "Build A St Petersburg(nc)")]
    )
    assert phase.units[-1] == Unit("russia", "army", "stp")


def test_a_waiver_uses_a_build_and_builds_not_ordered_are_lost():
    orders = [("germany", "Waive"), ("germany", "Build A Berlin"), ("germany", "Build A Kiel")]
    phase = adjust({"germany": ["A Holland"]}, {"germany": GERMANY_HOMES}, orders)
    assert outcomes(phase) == [(True, ""), (True, ""), (False, "no build")]
    assert len(phase.units) == 2
    assert adjust({"germany": ["A Holland"]}, {"germany": GERMANY_HOMES}).units == (
        Unit("germany", "army", "hol"),
    )


def test_a_waiver_or_a_build_by_a_power_owed_none_is_illegal():
    phase = adjust(
        {"france": ["A Picardy"]}, {"france": ["par"]}, [("france", "Waive"), ("france", "Build A Paris")]
    )
    assert outcomes(phase) == [(False, "illegal"), (False, "illegal")]


def test_too_many_removals_are_taken_one_by_one():
    # DATC 6.J.1: one removal owed; no fleet in the Gulf of Lyon, Picardy goes, Paris is one too many.
    orders = [
        ("france", "Remove F Gulf of Lyon"),
        ("france", "Remove A Picardy"),
        ("france", "Remove A Paris"),
    ]
    phase = adjust({"france": ["A Paris", "A Picardy"]}, {"france": ["par"]}, orders)
    assert outcomes(phase) == [(False, "illegal"), (True, ""), (False, "void")]
    assert phase.units == (Unit("france", "army", "par"),)


def test_removing_the_same_unit_twice_leaves_the_second_removal_to_civil_disorder():
    # DATC 6.J.2: two removals owed, Paris ordered twice; the rules remove a second unit.
    phase = adjust({"france": ["A Paris", "A Picardy", "A Burgundy"]}, {"france": ["par"]},
                   [("france", "Remove A Paris"), ("france", "Remove A Paris")])  # fmt: skip
    assert outcomes(phase)[:2] == [(True, ""), (False, "void")]
    assert len(removed_by_the_rules(phase, 2)) == 1
    assert len(phase.units) == 1


def test_a_removal_of_another_powers_unit_is_illegal():
    units = {"france": ["A Paris", "A Picardy"], "germany": ["A Burgundy"]}
    phase = adjust(units, {"france": ["par"], "germany": ["mun"]}, [("france", "Remove A Burgundy")])
    assert outcomes(phase)[0] == (False, "illegal")
    assert Unit("germany", "army", "bur") in phase.units


def test_an_order_no_adjustment_takes_is_illegal():
    phase = adjudicate_adjustments(
        BOARD, [Unit("france", "army", "par")], {"par": "france"}, [Hold("france", "par")]
    )
    assert outcomes(phase) == [(False, "illegal")]


def civil_disorder(power, units, centres):
    phase = adjust({power: units}, {power: centres})
    return [BOARD.name(order.unit) for order in removed_by_the_rules(phase, 0)]


def test_the_unit_farthest_from_an_owned_centre_is_removed_first():
    # DATC 6.J.3.
    assert civil_disorder("russia", ["A Livonia", "A Sweden"], ["stp"]) == ["Sweden"]


def test_as_far_the_first_in_alphabetical_order_goes():
    # DATC 6.J.4.
    assert civil_disorder("russia", ["A Livonia", "A Ukraine"], ["mos"]) == ["Livonia"]


def test_fleets_farther_away_go_first():
    # DATC 6.J.5: Berlin is three from St Petersburg, the Skagerrak two.
    assert civil_disorder("russia", ["F Skagerrak", "F Berlin"], ["stp"]) == ["Berlin"]


def test_two_fleets_as_far_go_alphabetically_and_distance_crosses_land():
    # DATC 6.J.6: both are three from Munich, counting over land.
    assert civil_disorder("russia", ["F Gulf of Bothnia", "F North Sea"], ["mun"]) == ["Gulf of Bothnia"]


def test_as_far_a_fleet_goes_before_an_army():
    # DATC 6.J.7.
    removed = civil_disorder("russia", ["A Bohemia", "F Skagerrak", "F North Sea"], ["stp", "war"])
    assert removed == ["North Sea"]


def test_an_army_farther_than_a_fleet_goes_first():
    # DATC 6.J.8.
    assert civil_disorder("russia", ["A Tyrolia", "F Baltic Sea"], ["war"]) == ["Tyrolia"]


def test_distance_counts_from_either_coast():
    # DATC 6.J.9, both halves.
    assert civil_disorder("russia", ["A Greece", "A Sevastopol", "F Baltic Sea"], ["stp", "sev"]) == [
        "Greece"
    ]
    assert civil_disorder("russia", ["A Greece", "A Sevastopol", "F Skagerrak"], ["stp", "sev"]) == ["Greece"]


def test_an_armys_distance_crosses_the_sea():
    # DATC 6.J.10: Greece is two from Naples by sea, Piedmont three.
    assert civil_disorder("italy", ["A Greece", "A Piedmont"], ["nap"]) == ["Piedmont"]


def test_distance_is_to_an_owned_centre_not_a_home_centre():
    # DATC 6.J.11.
    assert civil_disorder("italy", ["A Warsaw", "A Tuscany"], ["war"]) == ["Tuscany"]


def test_a_power_with_no_centre_left_loses_every_unit():
    phase = adjust({"italy": ["A Warsaw", "F Naples"], "austria": ["A Vienna"]}, {"austria": ["vie", "nap"]})
    assert phase.units == (Unit("austria", "army", "vie"),)
    assert {order.power for order in removed_by_the_rules(phase, 0)} == {"italy"}


def test_a_removal_resolution_names_the_unit_removed_by_the_rules():
    phase = adjust({"russia": ["A Livonia", "A Sweden"]}, {"russia": ["stp"]})
    assert phase.resolutions[0].order == Disband("russia", "swe", "army") and phase.resolutions[0].succeeded


def test_a_waiver_beyond_the_count_fails():
    orders = [("germany", "Waive"), ("germany", "Waive")]
    assert outcomes(adjust({"germany": ["A Kiel", "A Berlin"]}, {"germany": GERMANY_HOMES}, orders)) == [
        (True, ""),
        (False, "void"),
    ]


def problem_of(units, centres, power, text):
    position = [read_unit(BOARD, owner, unit) for owner, texts in units.items() for unit in texts]
    owners = {centre: owner for owner, owned in centres.items() for centre in owned}
    return adjustment_problem(BOARD, position, owners, read_order(BOARD, power, text, "adjustment"))


def test_the_checker_is_told_the_rule_and_the_places_in_full():
    germany = {"germany": ["A Holland"]}
    assert problem_of(germany, {"germany": ["kie", "mun", "war"]}, "germany", "Build A Warsaw") == (
        "not a home centre",
        "Warsaw is not a home centre of Germany, which builds only in Berlin, Kiel and Munich.",
    )
    assert problem_of(
        germany, {"germany": ["kie", "mun"], "russia": ["ber"]}, "germany", "Build A Berlin"
    ) == (
        "not owned",
        "Germany does not own Berlin now: a power builds only on home centres it holds.",
    )
    assert problem_of({"russia": []}, {"russia": ["stp"]}, "russia", "Build F St Petersburg")[1] == (
        "Name the coast for a fleet built in St Petersburg: "
        "St Petersburg (north coast) or St Petersburg (south coast)."
    )
    assert problem_of({"russia": []}, {"russia": ["mos"]}, "russia", "Build F Moscow")[0] == "fleet inland"
    assert problem_of({"germany": ["A Berlin"]}, {"germany": ["ber", "kie"]}, "germany", "Build A Berlin")[
        0
    ] == ("occupied")
    assert problem_of(germany, {"germany": ["kie"]}, "germany", "Waive")[0] == "no builds due"
    assert problem_of(germany, {"germany": ["kie"]}, "germany", "Remove A Holland") == (
        "no removals due",
        "Germany need not remove a unit this winter: it has a supply centre for each.",
    )
    assert problem_of(germany, {}, "germany", "Remove F Gulf of Lyon") == (
        "no unit",
        "No unit stands in Gulf of Lyon.",
    )
    assert problem_of(germany, {}, "france", "Remove A Holland") == (
        "not yours",
        "The army in Holland is Germany's.",
    )
    assert problem_of(germany, {"germany": ["kie", "ber"]}, "germany", "Build A Berlin") is None
