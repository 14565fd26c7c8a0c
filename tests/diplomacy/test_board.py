"""The standard map as the board reads it: the facts of the published game a player and the DATC rely on."""

from __future__ import annotations

import pytest

from resolver.rulesets.diplomacy.board import UnknownPlace, standard_board
from resolver.rulesets.diplomacy.pieces import Unit

BOARD = standard_board()

NEUTRAL_CENTRES = {"bel", "bul", "den", "gre", "hol", "nwy", "por", "rum", "ser", "spa", "swe", "tun"}
HOMES = {
    "austria": ("bud", "tri", "vie"),
    "england": ("edi", "lon", "lvp"),
    "france": ("bre", "mar", "par"),
    "germany": ("ber", "kie", "mun"),
    "italy": ("nap", "rom", "ven"),
    "russia": ("mos", "sev", "stp", "war"),
    "turkey": ("ank", "con", "smy"),
}

# Every place name the DATC's chapter 6 writes in its orders and positions, as it spells them.
DATC_SPELLINGS = {
    "Adriatic Sea": "adr", "Aegean Sea": "aeg", "Albania": "alb", "Ankara": "ank", "Apulia": "apu",
    "Armenia": "arm", "Baltic Sea": "bal", "Barents Sea": "bar", "Belgium": "bel", "Berlin": "ber",
    "Black Sea": "bla", "Bohemia": "boh", "Brest": "bre", "Budapest": "bud", "Bulgaria": "bul",
    "Bulgaria(ec)": "bul/ec", "Bulgaria(sc)": "bul/sc", "Burgundy": "bur", "Clyde": "cly",
    "Constantinople": "con", "Denmark": "den", "Eastern Mediterranean": "eas", "Edinburgh": "edi",
    "English Channel": "eng", "Finland": "fin", "Galicia": "gal", "Gascony": "gas", "Greece": "gre",
    "Gulf of Bothnia": "bot", "Gulf of Lyon": "gol", "Helgoland Bight": "hel", "Holland": "hol",
    "Ionian Sea": "ion", "Irish Sea": "iri", "Kiel": "kie", "Liverpool": "lvp", "Livonia": "lvn",
    "London": "lon", "Marseilles": "mar", "Mid-Atlantic Ocean": "mao", "Moscow": "mos", "Munich": "mun",
    "Naples": "nap", "North Africa": "naf", "North Atlantic Ocean": "nao", "North Sea": "nth",
    "Norway": "nwy", "Norwegian Sea": "nwg", "Paris": "par", "Picardy": "pic", "Piedmont": "pie",
    "Portugal": "por", "Prussia": "pru", "Rhur": "ruh", "Rome": "rom", "Ruhr": "ruh", "Rumania": "rum",
    "Serbia": "ser", "Sevastopol": "sev", "Silesia": "sil", "Skagerrak": "ska", "Smyrna": "smy",
    "Spain": "spa", "Spain(nc)": "spa/nc", "Spain(sc)": "spa/sc", "St Petersburg": "stp",
    "St Petersburg(nc)": "stp/nc", "St Petersburg(sc)": "stp/sc", "Sweden": "swe", "Syria": "syr",
    "Trieste": "tri", "Tunis": "tun", "Tuscany": "tus", "Tyrolia": "tyr", "Tyrrhenian Sea": "tys",
    "Ukraine": "ukr", "Venice": "ven", "Vienna": "vie", "Wales": "wal", "Warsaw": "war",
    "Western Mediterranean": "wes", "Yorkshire": "yor",
}  # fmt: skip


def test_the_map_has_75_provinces_14_inland_42_coastal_and_19_seas():
    kinds = [BOARD.kind(province) for province in BOARD.provinces]
    assert len(BOARD.provinces) == len(set(BOARD.provinces)) == 75
    assert (kinds.count("land"), kinds.count("coast"), kinds.count("sea")) == (14, 42, 19)


def test_switzerland_is_impassable_and_not_a_province():
    with pytest.raises(UnknownPlace):
        BOARD.lookup("Switzerland")
    assert all("swi" not in BOARD.neighbours(province) for province in BOARD.provinces)


def test_there_are_34_supply_centres_22_of_them_home_centres_and_12_neutral():
    homes = {centre for power in BOARD.powers for centre in BOARD.home_centres(power)}
    assert len(BOARD.supply_centres) == 34
    assert len(homes) == 22 and homes <= BOARD.supply_centres
    assert BOARD.supply_centres - homes == NEUTRAL_CENTRES


def test_each_power_has_its_home_centres_and_its_name():
    assert BOARD.powers == ("austria", "england", "france", "germany", "italy", "russia", "turkey")
    for power, homes in HOMES.items():
        assert BOARD.home_centres(power) == homes
    assert [BOARD.power_name(power) for power in BOARD.powers] == [
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"
    ]  # fmt: skip
    assert BOARD.home_power("stp/nc") == "russia" and BOARD.home_power("bel") is None


def test_the_1901_position_has_22_units_each_on_a_home_centre():
    units = BOARD.starting_units()
    assert len(units) == 22
    assert set(units) == {
        Unit("austria", "army", "vie"), Unit("austria", "army", "bud"), Unit("austria", "fleet", "tri"),
        Unit("england", "fleet", "lon"), Unit("england", "fleet", "edi"), Unit("england", "army", "lvp"),
        Unit("france", "fleet", "bre"), Unit("france", "army", "par"), Unit("france", "army", "mar"),
        Unit("germany", "fleet", "kie"), Unit("germany", "army", "ber"), Unit("germany", "army", "mun"),
        Unit("italy", "fleet", "nap"), Unit("italy", "army", "rom"), Unit("italy", "army", "ven"),
        Unit("russia", "fleet", "stp/sc"), Unit("russia", "army", "mos"), Unit("russia", "army", "war"),
        Unit("russia", "fleet", "sev"),
        Unit("turkey", "fleet", "ank"), Unit("turkey", "army", "con"), Unit("turkey", "army", "smy"),
    }  # fmt: skip
    for unit in units:
        assert BOARD.province(unit.location) in BOARD.home_centres(unit.power)


@pytest.mark.parametrize("kind", ["army", "fleet"])
def test_every_border_can_be_crossed_both_ways(kind):
    fleet_places = [place for province in BOARD.provinces for place in BOARD.fleet_locations(province)]
    for origin in BOARD.provinces if kind == "army" else fleet_places:
        for destination in BOARD.locations_next_to(kind, origin):
            assert BOARD.adjacent(kind, destination, origin), f"{origin} to {destination} only one way"


def test_armies_never_enter_the_sea_and_fleets_never_enter_inland_provinces():
    for province in BOARD.provinces:
        for destination in BOARD.locations_next_to("army", province):
            assert BOARD.kind(destination) != "sea"
        for location in BOARD.fleet_locations(province):
            for destination in BOARD.locations_next_to("fleet", location):
                assert BOARD.kind(destination) != "land"
    assert BOARD.locations_next_to("army", "nth") == ()
    assert BOARD.locations_next_to("fleet", "mun") == ()


def test_coastal_neighbours_a_fleet_cannot_sail_between():
    # Rome and Venice, Apulia and Rome, Piedmont and Venice lie on different seas: armies only.
    for one, other in [("rom", "ven"), ("apu", "rom"), ("pie", "ven"), ("syr", "arm"), ("gas", "mar"),
                       ("lvp", "edi"), ("fin", "nwy"), ("ank", "smy"), ("wal", "yor")]:  # fmt: skip
        assert BOARD.adjacent("army", one, other) and not BOARD.adjacent("fleet", one, other), (one, other)


def test_spain_has_two_coasts_and_gascony_touches_only_the_north_one():
    assert BOARD.coasts("spa") == ("spa/nc", "spa/sc")
    assert BOARD.adjacent("fleet", "gas", "spa/nc") and not BOARD.adjacent("fleet", "gas", "spa/sc")
    assert BOARD.adjacent("fleet", "mar", "spa/sc") and not BOARD.adjacent("fleet", "mar", "spa/nc")
    assert BOARD.locations_next_to("fleet", "spa/nc") == ("gas", "mao", "por")
    assert BOARD.locations_next_to("fleet", "spa/sc") == ("gol", "mao", "mar", "por", "wes")


def test_portugal_and_the_mid_atlantic_touch_both_coasts_of_spain():
    for origin in ("por", "mao"):
        assert BOARD.adjacent("fleet", origin, "spa/nc") and BOARD.adjacent("fleet", origin, "spa/sc")


def test_a_fleet_reaches_a_province_of_two_coasts_only_at_a_named_coast():
    assert not BOARD.adjacent("fleet", "mao", "spa")
    assert BOARD.reaches("fleet", "mao", "spa") and BOARD.reaches("fleet", "gas", "spa")
    assert not BOARD.reaches("fleet", "wes", "stp")


def test_an_army_ignores_a_coast_written_on_either_side():
    assert BOARD.adjacent("army", "gas", "spa/sc")
    assert BOARD.adjacent("army", "stp/nc", "mos")


def test_bulgaria_has_an_east_and_a_south_coast_and_constantinople_touches_both():
    assert BOARD.coasts("bul") == ("bul/ec", "bul/sc")
    assert BOARD.locations_next_to("fleet", "bul/ec") == ("bla", "con", "rum")
    assert BOARD.locations_next_to("fleet", "bul/sc") == ("aeg", "con", "gre")
    assert BOARD.adjacent("fleet", "con", "bul/ec") and BOARD.adjacent("fleet", "con", "bul/sc")
    assert not BOARD.adjacent("fleet", "gre", "bul/ec") and not BOARD.adjacent("fleet", "rum", "bul/sc")


def test_st_petersburgs_north_coast_faces_the_barents_sea_and_its_south_coast_the_gulf_of_bothnia():
    assert BOARD.locations_next_to("fleet", "stp/nc") == ("bar", "nwy")
    assert BOARD.locations_next_to("fleet", "stp/sc") == ("bot", "fin", "lvn")
    assert BOARD.locations_next_to("army", "stp") == ("fin", "lvn", "mos", "nwy")


def test_kiel_and_constantinople_are_canals_between_two_seas():
    assert BOARD.adjacent("fleet", "bal", "kie") and BOARD.adjacent("fleet", "kie", "hel")
    assert BOARD.adjacent("fleet", "bla", "con") and BOARD.adjacent("fleet", "con", "aeg")


def test_denmark_and_sweden_are_neighbours_by_land_and_sea_and_denmark_fronts_four_seas():
    assert BOARD.adjacent("army", "den", "swe") and BOARD.adjacent("fleet", "den", "swe")
    assert BOARD.locations_next_to("fleet", "den") == ("bal", "hel", "kie", "nth", "ska", "swe")
    assert BOARD.adjacent("army", "den", "kie") and not BOARD.adjacent("army", "den", "nwy")


def test_the_baltic_opens_on_the_gulf_of_bothnia():
    assert BOARD.adjacent("fleet", "bal", "bot")
    assert BOARD.locations_next_to("fleet", "bot") == ("bal", "fin", "lvn", "stp/sc", "swe")


def test_north_africa_borders_only_tunis_by_land():
    assert BOARD.locations_next_to("army", "naf") == ("tun",)
    assert BOARD.locations_next_to("fleet", "naf") == ("mao", "tun", "wes")


def test_every_spelling_the_datc_uses_reads_as_its_place():
    for spelling, location in DATC_SPELLINGS.items():
        assert BOARD.lookup(spelling) == location, spelling


def test_every_province_reads_by_its_abbreviation_and_its_name_in_any_case():
    for province in BOARD.provinces:
        assert BOARD.lookup(province.upper()) == province
        assert BOARD.lookup(BOARD.name(province).lower()) == province
        assert BOARD.lookup(f"  {BOARD.name(province).upper()} ") == province


@pytest.mark.parametrize(
    ("text", "location"),
    [
        ("stp/sc", "stp/sc"), ("STP/NC", "stp/nc"), ("St Petersburg(sc)", "stp/sc"),
        ("St. Petersburg (north coast)", "stp/nc"), ("Spain (south coast)", "spa/sc"), ("Spain nc", "spa/nc"),
        ("spa (nc)", "spa/nc"), ("Spain, north coast", "spa/nc"), ("bul/ec", "bul/ec"),
        ("Mid Atlantic", "mao"), ("MID-ATLANTIC OCEAN", "mao"), ("Gulf of Lions", "gol"),
        ("Heligoland Bight", "hel"), ("nrg", "nwg"), ("lyo", "gol"), ("the Baltic Sea", "bal"),
    ],
)  # fmt: skip
def test_a_place_reads_in_the_forms_players_write(text, location):
    assert BOARD.lookup(text) == location


def test_a_coast_a_province_does_not_have_is_ignored_as_the_datc_prefers():
    # DATC 4.B.6: "Brest east coast" or "Spain west coast" is garbage the reader does not act on.
    assert BOARD.lookup("Brest(ec)") == "bre"
    assert BOARD.lookup("Spain(wc)") == "spa"


def test_an_unknown_place_names_the_closest_places():
    with pytest.raises(UnknownPlace) as raised:
        BOARD.lookup("Norwey")
    assert raised.value.suggestions[0] == "nwy"
    assert "did you mean Norway" in str(raised.value)
    with pytest.raises(UnknownPlace) as raised:
        BOARD.lookup("Mid-Atlantik")
    assert raised.value.suggestions[0] == "mao"


def test_a_word_that_is_no_coast_is_refused_with_the_coasts_of_that_province():
    with pytest.raises(UnknownPlace) as raised:
        BOARD.lookup("Spain(upper)")
    assert raised.value.suggestions == ("spa/nc", "spa/sc")
    assert "Spain has no coast called 'upper'" in str(raised.value)


def test_nothing_close_means_no_suggestion():
    with pytest.raises(UnknownPlace) as raised:
        BOARD.lookup("Atlantis Major")
    assert raised.value.suggestions == ()


def test_names_and_kinds_in_words():
    assert BOARD.name("stp/sc") == "St Petersburg (south coast)"
    assert BOARD.name("bul/ec") == "Bulgaria (east coast)"
    assert BOARD.name("mao") == "Mid-Atlantic Ocean"
    assert BOARD.province("stp/sc") == "stp" and BOARD.province("par") == "par"
    assert (BOARD.kind("par"), BOARD.kind("bre"), BOARD.kind("eng")) == ("land", "coast", "sea")
    assert BOARD.coasts("par") == ()


def test_distances_count_borders_over_land_and_sea_alike():
    # DATC 6.J.10: Greece is two steps from Naples through the Ionian Sea, though five by land.
    assert BOARD.distances({"nap"})["gre"] == 2
    assert BOARD.distances({"stp"})["ber"] == 3
    assert BOARD.distances({"war"})["war"] == 0
