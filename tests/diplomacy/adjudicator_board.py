"""A stand-in for the ruleset's board, for the legality and adjudication tests.

The real board (``resolver.rulesets.diplomacy.board``) is read from the map's rules data; these tests must
run without it, so this module holds the standard map's geography once more, in the compact form a test can
read at a glance, and answers the same questions through the same method names. Only what the checker and
the adjudicator ask is here: names, kinds, coasts, adjacency, reach. The facts are those of the published
game's map.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from resolver.rulesets.diplomacy.pieces import Convoy, Hold, Move, Order, Support, Unit, UnitKind

# province id -> (full name, kind). Kinds: land (inland), coast, sea.
PROVINCES: dict[str, tuple[str, str]] = {
    "boh": ("Bohemia", "land"), "bud": ("Budapest", "land"), "bur": ("Burgundy", "land"),
    "gal": ("Galicia", "land"), "mos": ("Moscow", "land"), "mun": ("Munich", "land"),
    "par": ("Paris", "land"), "ruh": ("Ruhr", "land"), "ser": ("Serbia", "land"),
    "sil": ("Silesia", "land"), "tyr": ("Tyrolia", "land"), "ukr": ("Ukraine", "land"),
    "vie": ("Vienna", "land"), "war": ("Warsaw", "land"),
    "adr": ("Adriatic Sea", "sea"), "aeg": ("Aegean Sea", "sea"), "bal": ("Baltic Sea", "sea"),
    "bar": ("Barents Sea", "sea"), "bla": ("Black Sea", "sea"), "bot": ("Gulf of Bothnia", "sea"),
    "eas": ("Eastern Mediterranean", "sea"), "eng": ("English Channel", "sea"),
    "hel": ("Helgoland Bight", "sea"), "ion": ("Ionian Sea", "sea"), "iri": ("Irish Sea", "sea"),
    "gol": ("Gulf of Lyon", "sea"), "mao": ("Mid-Atlantic Ocean", "sea"),
    "nao": ("North Atlantic Ocean", "sea"), "nth": ("North Sea", "sea"), "nwg": ("Norwegian Sea", "sea"),
    "ska": ("Skagerrak", "sea"), "tys": ("Tyrrhenian Sea", "sea"), "wes": ("Western Mediterranean", "sea"),
    "alb": ("Albania", "coast"), "ank": ("Ankara", "coast"), "apu": ("Apulia", "coast"),
    "arm": ("Armenia", "coast"), "bel": ("Belgium", "coast"), "ber": ("Berlin", "coast"),
    "bre": ("Brest", "coast"), "bul": ("Bulgaria", "coast"), "cly": ("Clyde", "coast"),
    "con": ("Constantinople", "coast"), "den": ("Denmark", "coast"), "edi": ("Edinburgh", "coast"),
    "fin": ("Finland", "coast"), "gas": ("Gascony", "coast"), "gre": ("Greece", "coast"),
    "hol": ("Holland", "coast"), "kie": ("Kiel", "coast"), "lon": ("London", "coast"),
    "lvn": ("Livonia", "coast"), "lvp": ("Liverpool", "coast"), "mar": ("Marseilles", "coast"),
    "naf": ("North Africa", "coast"), "nap": ("Naples", "coast"), "nwy": ("Norway", "coast"),
    "pic": ("Picardy", "coast"), "pie": ("Piedmont", "coast"), "por": ("Portugal", "coast"),
    "pru": ("Prussia", "coast"), "rom": ("Rome", "coast"), "rum": ("Rumania", "coast"),
    "sev": ("Sevastopol", "coast"), "smy": ("Smyrna", "coast"), "spa": ("Spain", "coast"),
    "stp": ("St Petersburg", "coast"), "swe": ("Sweden", "coast"), "syr": ("Syria", "coast"),
    "tri": ("Trieste", "coast"), "tun": ("Tunis", "coast"), "tus": ("Tuscany", "coast"),
    "ven": ("Venice", "coast"), "wal": ("Wales", "coast"), "yor": ("Yorkshire", "coast"),
}  # fmt: skip

HOME_CENTRES = {
    "austria": ("bud", "tri", "vie"),
    "england": ("edi", "lon", "lvp"),
    "france": ("bre", "mar", "par"),
    "germany": ("ber", "kie", "mun"),
    "italy": ("nap", "rom", "ven"),
    "russia": ("mos", "sev", "stp", "war"),
    "turkey": ("ank", "con", "smy"),
}
NEUTRAL_CENTRES = ("bel", "bul", "den", "gre", "hol", "nwy", "por", "rum", "ser", "spa", "swe", "tun")

SPLIT_COASTS = {"bul": ("bul/ec", "bul/sc"), "spa": ("spa/nc", "spa/sc"), "stp": ("stp/nc", "stp/sc")}
COAST_NAMES = {"nc": "north coast", "sc": "south coast", "ec": "east coast"}

# Borders an army crosses (each written once).
ARMY_BORDERS = """
alb-gre alb-ser alb-tri ank-arm ank-con ank-smy apu-nap apu-rom apu-ven arm-sev arm-smy arm-syr
bel-bur bel-hol bel-pic bel-ruh ber-kie ber-mun ber-pru ber-sil boh-gal boh-mun boh-sil boh-tyr boh-vie
bre-gas bre-par bre-pic bud-gal bud-rum bud-ser bud-tri bud-vie bul-con bul-gre bul-rum bul-ser
bur-gas bur-mar bur-mun bur-par bur-pic bur-ruh cly-edi cly-lvp con-smy den-kie den-swe edi-lvp edi-yor
fin-nwy fin-stp fin-swe gal-rum gal-sil gal-ukr gal-vie gal-war gas-mar gas-par gas-spa gre-ser
hol-kie hol-ruh kie-mun kie-ruh lon-wal lon-yor lvn-mos lvn-pru lvn-stp lvn-war lvp-wal lvp-yor
mar-pie mar-spa mos-sev mos-stp mos-ukr mos-war mun-ruh mun-sil mun-tyr naf-tun nap-rom nwy-stp nwy-swe
par-pic pie-tus pie-tyr pie-ven por-spa pru-sil pru-war rom-tus rom-ven rum-ser rum-sev rum-ukr
ser-tri sev-ukr sil-war smy-syr tri-tyr tri-ven tri-vie tus-ven tyr-ven tyr-vie ukr-war wal-yor
"""

# Borders a fleet crosses, location to location (a coast named where a province has two).
FLEET_BORDERS = """
adr-alb adr-apu adr-ion adr-tri adr-ven aeg-bul/sc aeg-con aeg-eas aeg-gre aeg-ion aeg-smy
bal-ber bal-bot bal-den bal-kie bal-lvn bal-pru bal-swe bar-nwg bar-nwy bar-stp/nc
bla-ank bla-arm bla-bul/ec bla-con bla-rum bla-sev bot-fin bot-lvn bot-stp/sc bot-swe
eas-ion eas-smy eas-syr eng-bel eng-bre eng-iri eng-lon eng-mao eng-nth eng-pic eng-wal
hel-den hel-hol hel-kie hel-nth ion-alb ion-apu ion-gre ion-nap ion-tun ion-tys
iri-lvp iri-mao iri-nao iri-wal gol-mar gol-pie gol-spa/sc gol-tus gol-tys gol-wes
mao-bre mao-gas mao-naf mao-nao mao-por mao-spa/nc mao-spa/sc mao-wes nao-cly nao-lvp nao-nwg
nth-bel nth-den nth-edi nth-hol nth-lon nth-nwg nth-nwy nth-ska nth-yor nwg-cly nwg-edi nwg-nwy
ska-den ska-nwy ska-swe tys-nap tys-rom tys-tun tys-tus tys-wes wes-naf wes-spa/sc wes-tun
alb-gre alb-tri ank-arm ank-con apu-nap apu-ven arm-sev bel-hol bel-pic ber-kie ber-pru bre-gas bre-pic
bul/ec-con bul/ec-rum bul/sc-con bul/sc-gre cly-edi cly-lvp con-smy den-kie den-swe edi-yor fin-swe
fin-stp/sc gas-spa/nc hol-kie lon-wal lon-yor lvn-pru lvn-stp/sc lvp-wal mar-pie mar-spa/sc naf-tun
nap-rom nwy-stp/nc nwy-swe pie-tus por-spa/nc por-spa/sc rom-tus rum-sev smy-syr tri-ven
"""


def _pairs(text: str) -> frozenset[tuple[str, str]]:
    pairs = set()
    for border in text.split():
        one, other = border.split("-")
        pairs |= {(one, other), (other, one)}
    return frozenset(pairs)


@dataclass(frozen=True)
class TestBoard:
    """The board's questions, answered from the tables above (the methods of ``board.Board``)."""

    __test__ = False  # not a test class, whatever its name

    powers: tuple[str, ...] = ("austria", "england", "france", "germany", "italy", "russia", "turkey")

    @property
    def supply_centres(self) -> frozenset[str]:
        return frozenset(NEUTRAL_CENTRES).union(*HOME_CENTRES.values())

    def home_centres(self, power: str) -> tuple[str, ...]:
        return HOME_CENTRES[power]

    def power_name(self, power: str) -> str:
        return power.capitalize()

    def province(self, location: str) -> str:
        return location.split("/")[0]

    def name(self, location: str) -> str:
        province, _, coast = location.partition("/")
        full = PROVINCES[province][0]
        return f"{full} ({COAST_NAMES[coast]})" if coast else full

    def kind(self, province: str) -> str:
        return PROVINCES[province][1]

    def coasts(self, province: str) -> tuple[str, ...]:
        return SPLIT_COASTS.get(province, ())

    def adjacent(self, unit_kind: str, origin: str, destination: str) -> bool:
        if unit_kind == "army":
            return (self.province(origin), self.province(destination)) in _ARMY
        return (origin, destination) in _FLEET

    def reaches(self, unit_kind: str, origin: str, province: str) -> bool:
        if unit_kind == "army":
            return (self.province(origin), province) in _ARMY
        return any((origin, place) in _FLEET for place in self.coasts(province) or (province,))

    def locations_next_to(self, unit_kind: str, origin: str) -> tuple[str, ...]:
        pairs = _ARMY if unit_kind == "army" else _FLEET
        start = self.province(origin) if unit_kind == "army" else origin
        return tuple(sorted(other for one, other in pairs if one == start))


_ARMY = _pairs(ARMY_BORDERS)
_FLEET = _pairs(FLEET_BORDERS)


@functools.cache
def test_board() -> TestBoard:
    return TestBoard()


test_board.__test__ = False  # type: ignore[attr-defined]


# Orders in the DATC's plain notation, read for these tests only (the ruleset's own reader is
# ``notation.read_order``): "F North Sea - Picardy", "A Wales Supports F London - Yorkshire",
# "F North Sea Convoys A London - Holland", "A Venice Hold", "A Spain - Portugal via convoy".

_BY_NAME = {name.lower(): province for province, (name, _) in PROVINCES.items()}


def place(text: str) -> str:
    """A place as the DATC writes it ("St Petersburg(sc)", "Spain", "nth") -> a location id."""
    text = text.strip()
    coast = ""
    if text.endswith(")"):
        text, _, coast = text[:-1].partition("(")
        text, coast = text.strip(), coast.strip()
    province = _BY_NAME.get(text.lower(), text.lower())
    assert province in PROVINCES, f"unknown place {text!r}"
    return f"{province}/{coast}" if coast else province


def unit(power: str, text: str) -> Unit:
    """ "F Spain(sc)" -> the fleet of ``power`` on the south coast of Spain."""
    letter, _, where = text.strip().partition(" ")
    return Unit(power, "army" if letter == "A" else "fleet", place(where))


def _kind_and_place(text: str) -> tuple[UnitKind | None, str]:
    """ "F Spain(nc)" -> ("fleet", "spa/nc"); the kind is None where the text leaves it out."""
    text = text.strip()
    if text[:2] in ("A ", "F "):
        return ("army" if text[0] == "A" else "fleet"), place(text[2:])
    return None, place(text)


def _province(location: str) -> str:
    return location.split("/")[0]


def order(power: str, text: str) -> Order:
    """One order in the DATC's notation, for ``power``. Units are named by their province (pieces.py)."""
    text = text.strip()
    if " Supports " in text:
        left, _, right = text.partition(" Supports ")
        kind, at = _kind_and_place(left)
        if " - " in right:
            origin, _, destination = right.partition(" - ")
            supported_kind, supported = _kind_and_place(origin)
            return Support(
                power, _province(at), _province(supported), place(destination), kind, supported_kind
            )
        supported_kind, supported = _kind_and_place(right)
        return Support(power, _province(at), _province(supported), None, kind, supported_kind)
    if " Convoys " in text:
        left, _, right = text.partition(" Convoys ")
        kind, at = _kind_and_place(left)
        origin, _, destination = right.partition(" - ")
        return Convoy(power, _province(at), _province(_kind_and_place(origin)[1]), place(destination), kind)
    if text.endswith(" Hold"):
        kind, at = _kind_and_place(text[: -len(" Hold")])
        return Hold(power, _province(at), kind)
    via = text.lower().endswith(" via convoy")
    if via:
        text = text[: -len(" via convoy")]
    left, _, destination = text.partition(" - ")
    kind, at = _kind_and_place(left)
    return Move(power, _province(at), place(destination), kind, via)


def situation(
    orders: dict[str, list[str]], units: dict[str, list[str]] | None = None
) -> tuple[list[Unit], list[Order]]:
    """The units and orders of a DATC-style case. Each ordered unit stands where its order names it, as the
    kind written, unless ``units`` places a unit in that province (a fleet on another coast, a unit of
    another power, an army written as a fleet); ``units`` also adds units that have no order."""
    placed = [unit(power, text) for power, texts in (units or {}).items() for text in texts]
    taken = {_province(each.location) for each in placed}
    given: list[Order] = []
    for power, texts in orders.items():
        for text in texts:
            written = order(power, text)
            given.append(written)
            left = text.split(" - ")[0].split(" Supports ")[0].split(" Convoys ")[0].removesuffix(" Hold")
            kind, location = _kind_and_place(left)
            if _province(location) not in taken:
                placed.append(Unit(power, kind or "army", location))
                taken.add(_province(location))
    return placed, given
