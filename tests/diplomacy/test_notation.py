"""Orders as players and the DATC write them, read into the shared pieces, and the errors a player sees."""

from __future__ import annotations

import pytest

from resolver.rulesets.diplomacy.board import standard_board
from resolver.rulesets.diplomacy.notation import NotationError, read_order, read_unit, write_order
from resolver.rulesets.diplomacy.pieces import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    Support,
    Unit,
    Waive,
)

BOARD = standard_board()


def movement(text, power="france"):
    return read_order(BOARD, power, text, "movement")


def test_a_move_in_the_short_form():
    assert movement("A PAR - BUR") == Move("france", "par", "bur", "army")


def test_a_convoy_in_the_short_form():
    assert movement("F NTH C A LON - NWY", "england") == Convoy("england", "nth", "lon", "nwy", "fleet")


def test_a_support_of_a_move_in_the_short_form():
    assert movement("A MUN S A BER - SIL", "germany") == Support(
        "germany", "mun", "ber", "sil", "army", "army"
    )


def test_a_support_to_hold_in_the_long_form():
    assert movement("A Munich Supports A Berlin", "germany") == Support(
        "germany", "mun", "ber", None, "army", "army"
    )


def test_a_fleet_supporting_an_army_in_the_long_form():
    assert movement("F Rome Supports A Apulia - Venice", "italy") == Support(
        "italy", "rom", "apu", "ven", "fleet", "army"
    )


@pytest.mark.parametrize("text", ["A Venice Hold", "A Venice H", "a ven holds", "A VEN H"])
def test_a_hold_in_every_spelling(text):
    assert movement(text, "italy") == Hold("italy", "ven", "army")


def test_a_hold_in_vienna_written_h():
    assert movement("A Vienna H", "austria") == Hold("austria", "vie", "army")


@pytest.mark.parametrize(
    "text", ["A London - Belgium via Convoy", "A LON - BEL via convoy", "A lon - bel by convoy"]
)
def test_a_move_via_convoy(text):
    assert movement(text, "england") == Move("england", "lon", "bel", "army", via_convoy=True)


def test_a_move_to_a_named_coast_keeps_the_coast_and_the_unit_is_named_by_its_province():
    assert movement("F Mid-Atlantic Ocean - Spain(nc)") == Move("france", "mao", "spa/nc", "fleet")
    assert movement("F Spain(sc) - Gulf of Lyon") == Move("france", "spa", "gol", "fleet")
    assert movement("F STP/SC - BOT", "russia") == Move("russia", "stp", "bot", "fleet")
    assert movement("F Constantinople - Bulgaria(ec)", "turkey") == Move("turkey", "con", "bul/ec", "fleet")


@pytest.mark.parametrize("text", ["A PAR-BUR", "A PAR -> BUR", "A Paris moves to Burgundy", "A PAR → BUR"])
def test_a_move_with_other_arrows(text):
    assert movement(text) == Move("france", "par", "bur", "army")


def test_the_unit_letter_may_be_left_out_as_the_datc_allows():
    # DATC 4.C.1 (the order is still clear) and the chapter 6 orders that leave it out.
    assert movement("Paris - Burgundy") == Move("france", "par", "bur", None)
    assert movement("A Finland Supports Denmark - Norway", "russia") == Support(
        "russia", "fin", "den", "nwy", "army", None
    )
    assert movement("F Skagerrak Convoys Denmark - Norway", "russia") == Convoy(
        "russia", "ska", "den", "nwy", "fleet"
    )


def test_a_nationality_before_a_supported_unit_is_ignored():
    # DATC 4.C.5 and 4.C.6: "A Rum S Turkish F Con - Bul(sc)" supports the fleet whoever owns it.
    assert movement("A Rum S Turkish F Con - Bul(sc)", "russia") == Support(
        "russia", "rum", "con", "bul/sc", "army", "fleet"
    )


def test_a_convoy_path_is_read_and_only_the_destination_kept():
    # DATC 4.A.6: path specifications are not needed; the last place is where the army goes.
    assert movement("A Yorkshire - North Sea - Belgium", "england") == Move("england", "yor", "bel", "army")


def test_the_datc_misspelling_rhur_reads_as_ruhr():
    assert movement("A Rhur - Belgium", "germany") == Move("germany", "ruh", "bel", "army")


def test_a_move_to_the_units_own_place_is_read_and_left_to_the_checker():
    assert movement("A Kiel - Kiel", "germany") == Move("germany", "kie", "kie", "army")


def test_in_a_retreat_phase_a_move_is_a_retreat_and_a_disband_is_read():
    assert read_order(BOARD, "france", "A Paris - Burgundy", "retreat") == Retreat(
        "france", "par", "bur", "army"
    )
    assert read_order(BOARD, "france", "A PAR R BUR", "retreat") == Retreat("france", "par", "bur", "army")
    assert read_order(BOARD, "france", "A Paris Disband", "retreat") == Disband("france", "par", "army")


def test_in_a_retreat_phase_a_support_or_convoy_is_read_so_that_the_checker_can_refuse_it():
    # DATC 6.H.1 and 6.H.3: the orders are written, and are illegal; reading them is not the refusal.
    assert read_order(BOARD, "austria", "A Serbia Supports F Trieste - Albania", "retreat") == Support(
        "austria", "ser", "tri", "alb", "army", "fleet"
    )
    assert read_order(BOARD, "england", "F North Sea Convoys A Holland - Yorkshire", "retreat") == Convoy(
        "england", "nth", "hol", "yor", "fleet"
    )


def adjustment(text, power="russia"):
    return read_order(BOARD, power, text, "adjustment")


def test_builds_in_the_adjustments():
    assert adjustment("Build A Paris", "france") == Build("france", "army", "par")
    assert adjustment("Build F St Petersburg(nc)") == Build("russia", "fleet", "stp/nc")
    assert adjustment("BUILD F STP/NC") == Build("russia", "fleet", "stp/nc")
    assert adjustment("A Moscow Build") == Build("russia", "army", "mos")


def test_a_fleet_built_without_its_coast_is_read_and_left_to_the_adjudicator():
    # DATC 6.B.14: the build fails, which is the adjudication's business, not the reader's.
    assert adjustment("Build F St Petersburg") == Build("russia", "fleet", "stp")


def test_a_build_without_a_letter_is_an_army_inland_and_a_fleet_on_a_named_coast():
    # DATC 4.C.3, choice c.
    assert adjustment("Build Moscow") == Build("russia", "army", "mos")
    assert adjustment("Build St Petersburg(sc)") == Build("russia", "fleet", "stp/sc")


@pytest.mark.parametrize(
    "text", ["Remove A Paris", "A Paris Disband", "Disband A PAR", "A PAR D", "remove par"]
)
def test_a_removal_in_every_spelling(text):
    expected_kind = None if text == "remove par" else "army"
    assert adjustment(text, "france") == Disband("france", "par", expected_kind)


def test_a_waived_build():
    assert adjustment("Waive", "france") == Waive("france")
    assert adjustment("waive build", "france") == Waive("france")


# --- errors: the column, the problem and the fix ---------------------------------------------------------


def refused(text, phase="movement"):
    with pytest.raises(NotationError) as raised:
        read_order(BOARD, "france", text, phase)
    return raised.value


def test_an_unknown_unit_place_is_pointed_at_with_did_you_mean():
    error = refused("A Pari - Bur")
    assert error.column == 3
    assert "no place called 'Pari'" in error.problem
    assert "Paris" in error.fix


def test_an_unknown_destination_is_pointed_at_with_did_you_mean():
    error = refused("A PAR - Burgundi")
    assert (error.column, error.fix) == (9, "did you mean Burgundy?")


def test_a_misspelt_name_with_a_hyphen_is_pointed_at_from_its_first_letter():
    error = refused("F Mid-Atlantik Ocean - Brest")
    assert error.column == 3 and error.fix.startswith("did you mean Mid-Atlantic Ocean")


def test_a_coast_a_province_does_not_have_is_named():
    error = refused("F Spain(xx) - Gascony")
    assert error.column == 8
    assert error.problem == "Spain has no coast called 'xx'"
    assert error.fix == "did you mean Spain (north coast) or Spain (south coast)?"


def test_an_order_with_nothing_after_the_unit():
    error = refused("A PAR")
    assert error.column == 6 and "says nothing after" in error.problem and "A PAR - BUR" in error.fix


def test_an_unknown_word_where_the_order_should_be():
    error = refused("A PAR X BUR")
    assert (error.column, error.problem) == (7, "'X' is not an order")


def test_words_after_a_complete_order():
    error = refused("A PAR - BUR now")
    assert (error.column, error.problem) == (13, "'now' is more than the order says")


def test_an_empty_order():
    assert refused("   ").column == 1


def test_a_support_without_the_supported_unit():
    error = refused("A PAR S")
    assert (error.column, error.problem) == (8, "the supported unit is missing here")


def test_a_convoy_of_a_fleet_or_without_destination():
    assert refused("F ENG C F LON - BRE").column == 9
    error = refused("F ENG C A LON")
    assert error.column == 14 and error.fix == "write - and the army's destination"


def test_via_without_convoy():
    error = refused("A LON - BEL via")
    assert (error.column, error.fix) == (16, "write 'via convoy'")


def test_orders_of_another_phase_are_refused_at_their_keyword():
    assert refused("Build A Paris").column == 1
    assert "only in the adjustments" in refused("Build A Paris").problem
    assert refused("A PAR D").column == 7
    assert refused("A PAR R BUR").column == 7
    error = refused("A PAR - BUR", "adjustment")
    assert error.column == 7 and "BUILD" in error.fix
    assert refused("Waive", "retreat").column == 1


def test_a_retreat_is_never_convoyed():
    error = refused("A PAR - BUR via convoy", "retreat")
    assert (error.column, error.problem) == (13, "a retreating unit is never convoyed")


def test_a_build_on_a_coast_without_a_letter_asks_which():
    error = refused("Build Brest", "adjustment")
    assert error.fix == "write 'Build A Brest' or 'Build F Brest'"


# --- writing ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("order", "text", "phase"),
    [
        (Move("france", "par", "bur", "army"), "A PAR - BUR", "movement"),
        (Move("england", "lon", "bel", "army", via_convoy=True), "A LON - BEL VIA CONVOY", "movement"),
        (Convoy("england", "nth", "lon", "nwy", "fleet"), "F NTH C A LON - NWY", "movement"),
        (Support("germany", "mun", "ber", "sil", "army", "army"), "A MUN S A BER - SIL", "movement"),
        (Support("germany", "mun", "kie", None, "army", "fleet"), "A MUN S F KIE", "movement"),
        (Support("russia", "fin", "den", "nwy", "army", None), "A FIN S DEN - NWY", "movement"),
        (Hold("austria", "vie", "army"), "A VIE H", "movement"),
        (Move("france", "mao", "spa/nc", "fleet"), "F MAO - SPA/NC", "movement"),
        (Retreat("france", "par", "bur", "army"), "A PAR - BUR", "retreat"),
        (Disband("france", "par", "army"), "A PAR DISBAND", "retreat"),
        (Disband("france", "par", "army"), "A PAR DISBAND", "adjustment"),
        (Build("russia", "fleet", "stp/nc"), "BUILD F STP/NC", "adjustment"),
        (Waive("russia"), "WAIVE", "adjustment"),
    ],
)
def test_orders_are_written_in_the_short_form_and_read_back_the_same(order, text, phase):
    assert write_order(BOARD, order) == text
    assert read_order(BOARD, order.power, text, phase) == order


def test_a_unit_of_a_position_reads_with_its_coast():
    assert read_unit(BOARD, "russia", "F St Petersburg(sc)") == Unit("russia", "fleet", "stp/sc")
    assert read_unit(BOARD, "austria", "A Vienna") == Unit("austria", "army", "vie")
    # An army stands in the province, whatever coast is written.
    assert read_unit(BOARD, "france", "A Spain(nc)") == Unit("france", "army", "spa")
    with pytest.raises(NotationError) as raised:
        read_unit(BOARD, "austria", "Vienna")
    assert raised.value.column == 1
